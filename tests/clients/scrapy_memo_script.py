"""The Scrapy middleware's refresh against a real SQLite store that holds an older copy
than the one the middleware remembers; run in a subprocess by ``test_scrapy_refresh.py``
(the store is read through Twisted's thread pool, which needs a running reactor).

Usage: ``python scrapy_memo_script.py DATABASE``; prints one JSON line on stdout.
``python scrapy_memo_script.py --outage PORT``: the store is a Redis store on a closed port
(a real refused connection): the crawl goes on, each failure is counted in the stats, one
warning is logged for the outage.

Timeline (a clock the script sets): the database holds a good copy fetched at 0
(``Disallow: /old/``); the middleware, before the store is attached, fetched a newer good
copy at 200 (``Disallow: /new/``); at 400 both are stale, the store is read (the older
copy), and the fetch finds the site unreachable (503): the copy to serve meanwhile is the
newer one the middleware remembers.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any, ClassVar

from scrapy.utils.test import get_crawler
from twisted.internet import defer, task

from robotsrules._fetch._drive import run
from robotsrules.cache import SQLiteStore
from robotsrules.policy import Answer, Entry, FetchResult, Policy, fetch_flow
from robotsrules.scrapy import RobotsTxtMiddleware

ORIGIN = "http://site.test"


def result(now: float, answer: Answer) -> FetchResult:
    """What the policy makes of ``answer`` (a stand-in for Scrapy's downloader)."""
    return run(fetch_flow(ORIGIN + "/robots.txt", now, Policy()), lambda request: answer)


def ok(now: float, body: bytes) -> FetchResult:
    return result(now, Answer(status=200, headers={"Cache-Control": "max-age=100"}, body=body))


class Middleware(RobotsTxtMiddleware):
    """The middleware with its downloader replaced by answers given in turn."""

    answers: ClassVar[list[FetchResult]] = []

    async def fetch(self, robots_url: str, now: float) -> FetchResult:
        return self.answers.pop(0)


async def scenario(database: str) -> Any:
    old = ok(0.0, b"User-agent: *\nDisallow: /old/\n")
    store = SQLiteStore(database)
    store.put(ORIGIN, Entry.first(old))
    crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True})
    middleware = Middleware(crawler)
    now = [200.0]
    middleware.clock = lambda: now[0]
    Middleware.answers = [ok(200.0, b"User-agent: *\nDisallow: /new/\n"),
                          result(400.0, Answer(status=503))]
    first = await middleware.served(ORIGIN)  # memory only: remembered, nothing stored
    middleware.store = store
    now[0] = 400.0
    served = await middleware.served(ORIGIN)
    stored = store.get(ORIGIN)
    store.close()
    return {
        "first_reason": first.reason,
        "reason": served.reason,
        "new_allowed": served.robots.allowed(ORIGIN + "/new/page", agent="Bot"),
        "old_allowed": served.robots.allowed(ORIGIN + "/old/page", agent="Bot"),
        "stored_good_at": None if stored is None or stored.good is None
        else stored.good.fetched_at,
        "left": len(Middleware.answers),
        "store_errors": crawler.stats.get_value("robotstxt/store_errors"),
    }


class Levels(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.levels: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "store" in record.getMessage():
            self.levels.append(record.levelname)


async def outage(port: str) -> Any:
    from robotsrules.cache.redis import RedisStore

    levels = Levels()
    logging.getLogger("robotsrules.scrapy").addHandler(levels)
    logging.getLogger("robotsrules.scrapy").setLevel(logging.DEBUG)
    crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True})
    middleware = Middleware(crawler)
    middleware.store = RedisStore(url=f"redis://127.0.0.1:{port}/0", connect_timeout=1.0)
    now = [0.0]
    middleware.clock = lambda: now[0]
    Middleware.answers = [ok(0.0, b"User-agent: *\nDisallow: /new/\n"),
                          ok(200.0, b"User-agent: *\nDisallow: /newer/\n")]
    first = await middleware.served(ORIGIN)
    now[0] = 200.0
    second = await middleware.served(ORIGIN)
    return {
        "reasons": [first.reason, second.reason],
        "newer_allowed": second.robots.allowed(ORIGIN + "/newer/page", agent="Bot"),
        "store_errors": crawler.stats.get_value("robotstxt/store_errors"),
        "levels": levels.levels,
    }


def main() -> None:
    async def go() -> None:
        found = await (outage(sys.argv[2]) if sys.argv[1] == "--outage"
                       else scenario(sys.argv[1]))
        print(json.dumps(found), flush=True)

    task.react(lambda _reactor: defer.ensureDeferred(go()))


if __name__ == "__main__":
    main()
