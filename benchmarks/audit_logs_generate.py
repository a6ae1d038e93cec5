"""Realistic access logs for the log audit's benchmark (issue 37): a generator, seeded.

Writes to ``--out`` (a directory; never committed):

* ``access.log``: ``--lines`` lines in Apache's combined format, time ordered over
  ``--days`` days: browsers (most lines; a few real browser User-Agents from many
  addresses), crawlers of the bundled registry (their tokens in the ``compatible; Token/v``
  form most crawlers send, real published strings for the best known), from addresses in
  their operators' published ranges (the bundled address lists) so that they verify, or
  from a few addresses of their own when the operator publishes none, and spoofed ones
  (one crawler request in ten: its User-Agent from one of 2,000 other addresses), with
  robots.txt fetches now and then (mostly 200, some 404 and 503), 404s and 304s, and bytes;
* ``history/``: the site's robots.txt over the period, three dated versions that change
  what is disallowed (``/private/`` always; ``/drafts/`` and all of GPTBot from the first
  third; GPTBot back and ``/api/`` disallowed from the second third; a Crawl-delay for
  some crawlers), so that some requests are violations, some within the caching
  allowance.

Run from the repository root::

    .venv/bin/python benchmarks/audit_logs_generate.py --lines 1000000 --out /tmp/audit-1m
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "robotsrules" / "data"
SITE = "https://www.example.com"
START = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)

BROWSERS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
    "like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
]
PUBLISHED = {  # the strings the operators document (read from their crawler pages)
    "Googlebot": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "bingbot": "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; "
               "+http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
    "GPTBot": "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
              "+https://openai.com/gptbot)",
    "ClaudeBot": "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; "
                 "ClaudeBot/1.0; +claudebot@anthropic.com)",
    "Applebot": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
                "(KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; "
                "+http://www.apple.com/go/applebot)",
}
HEAVY = {"Googlebot": 30, "bingbot": 12, "GPTBot": 10, "ClaudeBot": 6, "Applebot": 4}
PATHS = ([f"/articles/{n}" for n in range(1500)] + [f"/private/{n}" for n in range(60)]
         + [f"/drafts/{n}" for n in range(60)] + [f"/api/v1/items/{n}" for n in range(200)]
         + [f"/static/app.{n}.js" for n in range(20)] + ["/", "/about", "/feed.xml"])
VERSIONS = [
    (0, "User-agent: *\nDisallow: /private/\n\nUser-agent: AhrefsBot\nCrawl-delay: 10\n"
        "Disallow: /private/\n"),
    (1, "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\n\nUser-agent: GPTBot\n"
        "Disallow: /\n\nUser-agent: AhrefsBot\nCrawl-delay: 10\nDisallow: /private/\n"),
    (2, "User-agent: *\nDisallow: /private/\nDisallow: /drafts/\nDisallow: /api/\n\n"
        "User-agent: AhrefsBot\nCrawl-delay: 10\nDisallow: /private/\n"),
]


def crawlers(rnd: random.Random) -> list[tuple[str, list[str], int]]:
    """(User-Agent, its addresses, weight): in the operator's published ranges (they verify),
    or, for an operator that publishes none, a few of its own (unverifiable)."""
    registry = json.loads((DATA / "crawlers.json").read_text(encoding="utf-8"))
    lists = json.loads((DATA / "crawler-addresses.json").read_text(encoding="utf-8"))
    by_token: dict[str, list[str]] = {}
    for entry in lists["lists"]:
        v4 = [p for p in entry.get("prefixes", []) if ":" not in p]
        for token in entry.get("tokens", []):
            by_token.setdefault(token, []).extend(v4)
    found = []
    for crawler in registry["crawlers"]:
        token = crawler.get("token")
        if not token:  # a crawler with no product token of its own
            continue
        prefixes = by_token.get(token, [])
        addresses = []
        for prefix in rnd.sample(prefixes, min(8, len(prefixes))):
            network = ipaddress.ip_network(prefix, strict=False)
            addresses += [str(network[rnd.randrange(network.num_addresses)])
                          for _ in range(4)]
        if not addresses:
            addresses = [random_address(rnd) for _ in range(16)]
        agent = PUBLISHED.get(token, f"Mozilla/5.0 (compatible; {token}/1.0; "
                                     f"+https://example.org/{token.lower()})")
        found.append((agent, addresses, HEAVY.get(token, 1)))
    return found


def random_address(rnd: random.Random) -> str:
    first, second, third = rnd.randrange(11, 223), rnd.randrange(256), rnd.randrange(256)
    return f"{first}.{second}.{third}.{rnd.randrange(1, 255)}"


def generate(out: Path, lines: int, days: int, seed: int) -> None:
    rnd = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    history = out / "history"
    history.mkdir(exist_ok=True)
    for third, body in VERSIONS:
        since = START + datetime.timedelta(days=days * third / 3)
        (history / f"{since:%Y-%m-%dT%H:%M:%SZ}.txt").write_text(body, encoding="ascii")
    bots = crawlers(rnd)
    bot_weights = [weight for _, _, weight in bots]
    browsers = [(random_address(rnd), rnd.choice(BROWSERS)) for _ in range(20_000)]
    spoofers = [random_address(rnd) for _ in range(2_000)]
    span = days * 86_400
    stamp_second = -1
    stamp = ""
    with open(out / "access.log", "w", encoding="ascii", buffering=1 << 20) as log:
        batch = []
        for number in range(lines):
            second = number * span // lines
            if second != stamp_second:
                stamp_second = second
                when = START + datetime.timedelta(seconds=second)
                stamp = when.strftime("%d/%b/%Y:%H:%M:%S +0000")
            draw = rnd.random()
            path = rnd.choice(PATHS)
            status = 200
            if draw < 0.70:
                address, agent = rnd.choice(browsers)
            else:
                agent, addresses, _ = rnd.choices(bots, bot_weights)[0]
                address = rnd.choice(spoofers) if draw > 0.97 else rnd.choice(addresses)
                if rnd.random() < 0.004:
                    path = "/robots.txt"
                    status = 200 if rnd.random() < 0.97 else rnd.choice((404, 503))
            if status == 200 and path != "/robots.txt":
                tail = rnd.random()
                status = 404 if tail < 0.03 else 304 if tail < 0.08 else 200
            size = rnd.randrange(200, 90_000) if status == 200 else 0
            batch.append(f'{address} - - [{stamp}] "GET {path} HTTP/1.1" {status} {size} '
                         f'"-" "{agent}"\n')
            if len(batch) >= 10_000:
                log.write("".join(batch))
                batch.clear()
        log.write("".join(batch))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    generate(args.out, args.lines, args.days, args.seed)
    print(f"{args.lines:,} lines in {args.out / 'access.log'} "
          f"({(args.out / 'access.log').stat().st_size / 2**20:,.0f} MiB, "
          f"{time.perf_counter() - started:.0f} s); history in {args.out / 'history'}; "
          f"site {SITE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
