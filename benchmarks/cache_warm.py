"""The cache's warm path: ``RobotsCache.allowed`` when the memo holds a fresh entry.

Run: ``.venv/bin/python benchmarks/cache_warm.py`` (prints the best of 7 runs, in
microseconds per call). No network: the entry is put in the store before the first call.
"""

from __future__ import annotations

import time
import timeit

from robotsrules import RobotsCache, parse
from robotsrules.cache import MemoryStore
from robotsrules.policy import OK, Entry, FetchResult

BODY = b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 1\n"
ORIGIN = "https://example.com"


def main() -> None:
    now = time.time()
    result = FetchResult(url=ORIGIN + "/robots.txt", final_url=ORIGIN + "/robots.txt",
                         outcome=OK, status=200, robots=parse(BODY), redirects=(), fetched_at=now,
                         expires_at=now + 86_400)
    store = MemoryStore()
    store.put(ORIGIN, Entry.first(result))
    cache = RobotsCache(store, user_agent="ExampleBot/1.0")
    cache.allowed(ORIGIN + "/page")  # the memo now holds the entry
    assert cache.fetches == 0
    number = 100_000
    runs = timeit.repeat(lambda: cache.allowed(ORIGIN + "/private/x"), number=number, repeat=7)
    print(f"RobotsCache.allowed, warm memo: {min(runs) / number * 1e6:.3f} us/call")
    runs = timeit.repeat(lambda: cache.lookup(ORIGIN + "/private/x"), number=number, repeat=7)
    print(f"RobotsCache.lookup, warm memo: {min(runs) / number * 1e6:.3f} us/call")


if __name__ == "__main__":
    main()
