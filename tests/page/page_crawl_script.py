"""A real Scrapy crawl that follows links, run in a subprocess by ``test_page_scrapy.py``.

Usage: ``python page_crawl_script.py SETTINGS_JSON URLS_JSON``; prints the stats as one JSON
line (the last line): the URLs that reached the spider under ``"seen"``, and for each one
what ``response.meta["robotsrules"]`` said under ``"signals"`` (with ``"pricing"``, the
price described, for a response that names one); the request headers the server got are
the server's to record.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess


class FollowSpider(scrapy.Spider):
    """Requests its URLs and follows every link of every page."""

    name = "follow"

    def __init__(self, urls: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls
        self.seen: list[str] = []
        self.signals_seen: dict[str, Any] = {}

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        self.seen.append(response.url)
        page = response.meta.get("robotsrules")
        self.signals_seen[response.url] = None if page is None else {
            "index": page.index, "follow": page.follow, "ai-train": page.allows("ai-train")}
        if page is not None and page.head_cut:
            self.signals_seen[response.url]["head_cut"] = True
        if page is not None and page.pricing is not None:
            self.signals_seen[response.url]["pricing"] = page.pricing.describe()
        yield {"url": response.url}
        yield from response.follow_all(css="a")


def main() -> None:
    process = CrawlerProcess(json.loads(sys.argv[1]))
    crawler = process.create_crawler(FollowSpider)
    process.crawl(crawler, urls=json.loads(sys.argv[2]))
    process.start()
    stats = {key: value for key, value in crawler.stats.get_stats().items()
             if isinstance(value, (int, float, str))}
    stats["seen"] = sorted(crawler.spider.seen)
    stats["signals"] = crawler.spider.signals_seen
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
