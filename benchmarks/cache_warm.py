"""The cache's warm path: ``RobotsCache.allowed`` / ``lookup`` when the memo holds a fresh entry.

Run from the repository root::

    .venv/bin/python benchmarks/cache_warm.py              # wall clock, best of 7 runs
    .venv/bin/python benchmarks/cache_warm.py --callgrind  # instructions per call (valgrind)

No network: the entry is put in the store before the first call. Timings move a lot on a
shared machine; the instruction count (two children under ``valgrind --tool=callgrind``,
with 2,000 and 12,000 calls: the difference over 10,000) repeats to about 1 % (see
``instructions.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import timeit
from typing import Callable

from robotsrules import RobotsCache
from robotsrules.cache import MemoryStore
from robotsrules.policy import OK, Entry, FetchResult

BODY = b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 1\n"
ORIGIN = "https://example.com"
URL = ORIGIN + "/private/x"


def _warm_cache() -> RobotsCache:
    now = time.time()
    result = FetchResult(url=ORIGIN + "/robots.txt", final_url=ORIGIN + "/robots.txt",
                         outcome=OK, status=200, body=BODY, redirects=(),
                         fetched_at=now, expires_at=now + 86_400)
    store = MemoryStore()
    store.put(ORIGIN, Entry.first(result))
    cache = RobotsCache(store, user_agent="ExampleBot/1.0")
    cache.allowed(ORIGIN + "/page")  # the memo now holds the entry
    assert cache.fetches == 0
    return cache


def _calls(cache: RobotsCache) -> tuple[tuple[str, Callable[[], object]], ...]:
    return (("allowed", lambda: cache.allowed(URL)), ("lookup", lambda: cache.lookup(URL)))


def _child(which: str, calls: int) -> None:
    call = dict(_calls(_warm_cache()))[which]
    for _ in range(calls):
        call()


def _instructions(which: str, calls: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, __file__, "--child", which, str(calls)],
                       check=True, capture_output=True)
        with open(out, encoding="utf-8") as handle:
            found = re.search(r"^summary:\s+(\d+)", handle.read(), re.MULTILINE)
    assert found is not None
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return
    if args.callgrind:
        for which in ("allowed", "lookup"):
            per_call = (_instructions(which, 12_000) - _instructions(which, 2_000)) / 10_000
            print(f"RobotsCache.{which}, warm memo: {per_call:,.0f} instructions/call")
        return
    number = 100_000
    for which, call in _calls(_warm_cache()):
        runs = timeit.repeat(call, number=number, repeat=7)
        print(f"RobotsCache.{which}, warm memo: {min(runs) / number * 1e6:.3f} us/call")


if __name__ == "__main__":
    main()
