"""A small polite crawler: httpx with robotsrules' transport.

    python examples/httpx_crawler.py http://127.0.0.1:8000/ --agent ExampleBot --max-pages 50

It follows links within the start URL's origin, breadth first. Every request (redirect hops
included) goes through `robotsrules.httpx.RobotsTransport`, which fetches the origin's
robots.txt once, refuses what it disallows (raising `RobotsDisallowed` with the deciding
line) and spaces requests by the site's Crawl-delay. Try it on the example site:

    python -m http.server --directory examples/site 8000 &
    python examples/httpx_crawler.py http://127.0.0.1:8000/
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import httpx

import robotsrules
from robotsrules.httpx import RobotsTransport


class Links(HTMLParser):
    """The href of every <a> in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found += [value for name, value in attrs if name == "href" and value]


def crawl(start: str, agent: str, max_pages: int) -> int:
    """Crawl from `start`; print one line per URL; return the number of refusals."""
    user_agent = f"{agent}/1.0 (+https://example.com/bot)"
    origin = urlsplit(start)[:2]
    queue, seen, refused = deque([start]), {start}, 0
    transport = RobotsTransport(httpx.HTTPTransport(retries=1), user_agent=user_agent)
    with httpx.Client(transport=transport, headers={"User-Agent": user_agent},
                      timeout=10, follow_redirects=True) as client:
        while queue and len(seen) <= max_pages:
            url = queue.popleft()
            try:
                response = client.get(url)
            except robotsrules.RobotsDisallowed as refusal:
                refused += 1
                print(f"refused  {url}  ({refusal.verdict.rule})")
                continue
            except httpx.HTTPError as error:
                print(f"failed   {url}  ({error})")
                continue
            print(f"fetched  {url}  {response.status_code}")
            if "html" not in response.headers.get("content-type", ""):
                continue
            parser = Links()
            parser.feed(response.text)
            for href in parser.found:
                link = urldefrag(urljoin(url, href)).url
                if urlsplit(link)[:2] == origin and link not in seen:
                    seen.add(link)
                    queue.append(link)
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("start", help="the URL to start from")
    parser.add_argument("--agent", default="ExampleBot", help="the crawler's product token")
    parser.add_argument("--max-pages", type=int, default=50)
    args = parser.parse_args(argv)
    refused = crawl(args.start, args.agent, args.max_pages)
    print(f"{refused} URL(s) refused by robots.txt", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
