"""The build under test fetches (issue 33 §1): every way a robots.txt is fetched, against real
servers on loopback, gives the served rules, in the pure run and in the compiled run alike.

The compiled build once refused every fetch: the fetch layer's body was a pure-Python
subclass of the compiled body decoder, which mypyc refuses at run time, so each fetch ended
"unreachable: unexpected TypeError" and every URL read as disallowed; after 30 days of that,
Google's rule for a long-unreachable robots.txt (RFC 9309, September 2022, §2.3.1.4 leaves
it to the crawler; Google's documentation of robots.txt caching, as of 2024) made a served
``Disallow: /private`` read as allowed. ``tests/compiled/test_static.py`` finds the construct;
these tests find its effect, through the library (sync and async caches, :func:`fetch`, FTP,
a gzip body) and the command line run by this interpreter (so by the installed build in the
compiled run).
"""

from __future__ import annotations

import asyncio
import gzip
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import robotsrules
from robotsrules import fetch
from robotsrules._fetch._robotscache import AsyncRobotsCache, RobotsCache
from robotsrules.policy import DAY, Policy
from tests.network.servers import ServerPool, respond
from tests.timing import HEALTHY

UA = "BuildBot/1.0"
RULES = b"User-agent: *\nDisallow: /private\n"
START = 1_700_000_000.0
EXPECT_COMPILED = os.environ.get("ROBOTSRULES_EXPECT_COMPILED") == "1"


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


def test_the_cache_fetches_and_never_turns_a_disallow_into_allowed(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    clock: list[float] = [START]
    cache = RobotsCache(user_agent=UA, clock=lambda: clock[0], timeout=HEALTHY)
    served = cache.lookup(server.url("/private"))
    assert (served.result.outcome, served.result.error) == ("ok", None)
    assert cache.allowed(server.url("/private/x")) is False
    assert cache.allowed(server.url("/public")) is True
    # Forty days in steps past the cache's lifetime: each step fetches again and reads the
    # served file, never the rule for a file unreachable for 30 days.
    retry = max(DAY, Policy().retry_after) + 1
    for _ in range(int(40 * DAY // retry) + 1):
        clock[0] += retry
        served = cache.lookup(server.url("/private"))
        assert served.result.outcome == "ok", served.result.error
        assert cache.allowed(server.url("/private/x")) is False
    assert clock[0] - START > 30 * DAY
    assert server.count() > 30


def test_the_async_cache_fetches(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))

    async def main() -> list[bool]:
        cache = AsyncRobotsCache(user_agent=UA, timeout=HEALTHY)
        served = await cache.lookup(server.url("/"))
        assert served.result.outcome == "ok", served.result.error
        return [await cache.allowed(server.url("/private")),
                await cache.allowed(server.url("/public"))]

    assert asyncio.run(main()) == [False, True]


def test_fetch_decodes_a_gzip_body(servers: ServerPool) -> None:
    server = servers.http(respond(200, gzip.compress(RULES), {"Content-Encoding": "gzip"}))
    result = fetch(server.url("/private"), user_agent=UA, timeout=HEALTHY)
    assert (result.outcome, result.error) == ("ok", None)
    assert result.robots is not None
    assert result.robots.allowed(server.url("/private"), agent="BuildBot") is False
    assert result.robots.allowed(server.url("/public"), agent="BuildBot") is True


def test_fetch_over_ftp(servers: ServerPool) -> None:
    pytest.importorskip("pyftpdlib")
    ftp = servers.ftp({"robots.txt": RULES})
    result = fetch(ftp.url("/private"), user_agent=UA, timeout=HEALTHY)
    assert (result.outcome, result.error) == ("ok", None)
    assert result.robots is not None
    assert result.robots.allowed(ftp.url("/private"), agent="BuildBot") is False


def test_the_command_line_of_this_build_fetches(servers: ServerPool, tmp_path: Path) -> None:
    server = servers.http(respond(200, RULES))
    # The child is this interpreter with this test run's import path: in the compiled run,
    # the installed build (the first line it prints says which build it loaded).
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    probe = subprocess.run(
        [sys.executable, "-c", "import robotsrules; print(robotsrules.COMPILED)"],
        capture_output=True, text=True, env=env, check=True)
    assert probe.stdout.strip() == str(EXPECT_COMPILED) == str(robotsrules.COMPILED)
    outcomes = []
    for path in ("/private/x", "/public"):
        run = subprocess.run(
            [sys.executable, "-m", "robotsrules", "check", "--no-cache", "--agent", "BuildBot",
             server.url(path)], capture_output=True, text=True, env=env, timeout=HEALTHY * 4)
        outcomes.append((run.returncode, run.stdout.split()[0] if run.stdout else run.stderr))
    assert outcomes == [(1, "disallowed"), (0, "allowed")]
