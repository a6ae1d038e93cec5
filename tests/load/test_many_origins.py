"""Fetch faults under load: 500 origins at once through :class:`AsyncRobotsCache`.

Every origin has an address of its own on loopback (``127.0.x.y``, one asyncio server for
all, :mod:`tests.load.origins`) and a behaviour: healthy, slow, failing (503), hanging up,
stalling past the time-out, redirecting (on the same origin or to another host), huge
(2 MiB), or missing (404). Every origin serves rules that name it (``Disallow:
/secret-N/``, ``Crawl-delay: N``), so an answer given for the wrong origin shows.

Asserted: each origin's robots.txt is requested exactly once in the checker's lifetime
(with five concurrent questions per origin, and again after everything is cached); never
more than ``max_concurrency`` fetches in flight, and that bound reached (so that it is the
bound, not a slow client, that holds the rest back); every answer is the one its origin's
behaviour calls for; no socket or file descriptor left open once the checker is closed.

No answer depends on the machine's speed: the checker's time-out is one no healthy origin
reaches, however loaded the machine; the stalling origins stay silent until the client
hangs up and are asked, at the same time, through a second checker whose short time-out
is the only thing that can end their fetches.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Optional

import pytest

import robotsrules
from robotsrules._fetch import _robotscache as checker
from robotsrules._fetch._fetcher import afetch, fetch
from tests.load.origins import (
    Behaviour,
    ManyOrigins,
    hang_up,
    huge,
    loopback_hosts,
    redirect,
    respond,
    stall,
)
from tests.timing import HANG, HEALTHY, wait_until

ORIGINS = 500
LIMIT = 24  # max_concurrency of the checker under test
TIMEOUT = HEALTHY  # no healthy origin reaches it, with many fetches in flight on a busy machine
STALL_TIMEOUT = 0.5  # the stalling origins' checker: its time-out alone ends their fetches
HUGE = 2 * 1024 * 1024

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"),
                                reason="counts descriptors in /proc/self/fd (Linux)")


def body(n: int) -> bytes:
    return (f"User-agent: *\nDisallow: /secret-{n}/\nAllow: /secret-{n}/open\n"
            f"Crawl-delay: {n}\n").encode()


KINDS = ("ok", "slow", "failing", "hang-up", "redirect", "redirect-away", "huge", "missing",
         "ok", "stall")


def kind_of(n: int) -> str:
    kind = KINDS[n % len(KINDS)]
    if kind == "stall" and n % 50 != 9:
        return "ok"  # ten stalling origins: each holds a slot for the whole time-out
    return kind


def build() -> tuple[dict[str, dict[str, Behaviour]], list[str], str]:
    """The server's table, the origin hosts in order, and the hub host."""
    hosts = list(loopback_hosts(ORIGINS + 1))
    hub, hosts = hosts[-1], hosts[:-1]
    table: dict[str, dict[str, Behaviour]] = {hub: {}}
    for n, host in enumerate(hosts):
        kind = kind_of(n)
        paths: dict[str, Behaviour]
        if kind == "ok":
            paths = {"/robots.txt": respond(200, body(n))}
        elif kind == "slow":
            paths = {"/robots.txt": respond(200, body(n), delay=0.2 + (n % 7) / 10)}
        elif kind == "failing":
            paths = {"/robots.txt": respond(503, b"try later\n")}
        elif kind == "hang-up":
            paths = {"/robots.txt": hang_up}
        elif kind == "stall":
            paths = {"/robots.txt": stall(5 * HANG)}  # silent until the client hangs up
        elif kind == "redirect":
            paths = {"/robots.txt": redirect("/real/robots.txt"),
                     "/real/robots.txt": respond(200, body(n))}
        elif kind == "redirect-away":
            paths = {"/robots.txt": redirect(f"http://{hub}:{{port}}/for/{n}.txt")}
            table[hub][f"/for/{n}.txt"] = respond(200, body(n))
        elif kind == "huge":
            paths = {"/robots.txt": huge(body(n), HUGE)}
        else:
            paths = {"/robots.txt": respond(404, b"no robots here\n")}
        table[host] = paths
    return table, hosts, hub


def socket_fds() -> tuple[int, int]:
    """(open descriptors, of which sockets) of this process."""
    total = sockets = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue  # the descriptor listdir itself used
        total += 1
        sockets += target.startswith("socket:")
    return total, sockets


async def crawl(hosts: list[str], port: int, in_flight: dict[str, int]
                ) -> tuple[list[Any], dict[str, Any]]:
    """Five concurrent questions per origin, all origins at once; then ask again."""
    cache = robotsrules.AsyncRobotsCache(user_agent="LoadBot/1.0", timeout=TIMEOUT,
                                         max_concurrency=LIMIT)
    stalls = robotsrules.AsyncRobotsCache(user_agent="LoadBot/1.0", timeout=STALL_TIMEOUT,
                                          max_concurrency=LIMIT)
    async with cache, stalls:
        async def ask(n: int, host: str) -> tuple[int, bool, bool, bool, Optional[float], str]:
            origin = f"http://{host}:{port}"
            other = (n + 1) % ORIGINS
            checker = stalls if kind_of(n) == "stall" else cache
            mine, opened, theirs, delay, served = await asyncio.gather(
                checker.allowed(f"{origin}/secret-{n}/x"),
                checker.allowed(f"{origin}/secret-{n}/open"),
                checker.allowed(f"{origin}/secret-{other}/x"),
                checker.crawl_delay(f"{origin}/page"),
                checker.lookup(f"{origin}/page"),
            )
            return n, mine, opened, theirs, delay, served.result.outcome

        first = await asyncio.gather(*(ask(n, h) for n, h in enumerate(hosts)))
        again = await asyncio.gather(*(ask(n, h) for n, h in enumerate(hosts)))
        stats = {"fetches": cache.fetches + stalls.fetches, "again": again,
                 "peak": in_flight["peak"]}
    return first, stats


def expected(n: int) -> tuple[bool, bool, bool, Optional[float], str]:
    """(secret allowed, open allowed, other's secret allowed, crawl-delay, outcome)."""
    kind = kind_of(n)
    if kind in ("failing", "hang-up", "stall"):
        return False, False, False, None, "unreachable"
    if kind == "missing":
        return True, True, True, None, "unavailable"
    return False, True, True, float(n), "ok"


def test_500_origins_at_once_each_fetched_once_bounded_and_unmixed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table, hosts, hub = build()
    in_flight = {"now": 0, "peak": 0}
    real_afetch = afetch

    async def counting_afetch(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("timeout") != TIMEOUT:  # the stalling origins' checker: not counted
            return await real_afetch(*args, **kwargs)
        in_flight["now"] += 1
        in_flight["peak"] = max(in_flight["peak"], in_flight["now"])
        try:
            return await real_afetch(*args, **kwargs)
        finally:
            in_flight["now"] -= 1

    monkeypatch.setattr(checker, "afetch", counting_afetch)
    with ManyOrigins(table) as server:
        port = server.port
        # The cross-host redirects name the hub's port, known only now.
        for n, host in enumerate(hosts):
            if kind_of(n) == "redirect-away":
                table[host]["/robots.txt"] = redirect(f"http://{hub}:{port}/for/{n}.txt")
        before = socket_fds()
        first, stats = asyncio.run(crawl(hosts, port, in_flight))
        # the server notices the last closed connections
        wait_until(lambda: server.open_connections() == 0, "connections left open")
        after = socket_fds()
        assert server.errors == []
        assert server.open_connections() == 0

        # Each origin fetched once per lifetime (and each redirect target once). A stalling
        # origin's fetch may time out before the busy server has read its request: at most
        # once there (the checkers' own count says once).
        assert stats["fetches"] == ORIGINS
        for n, host in enumerate(hosts):
            if kind_of(n) == "stall":
                assert server.count(host) <= 1, n
            else:
                assert server.count(host) == 1, (n, kind_of(n))
            if kind_of(n) == "redirect":
                assert server.count(host, "/real/robots.txt") == 1
            if kind_of(n) == "redirect-away":
                assert server.count(hub, f"/for/{n}.txt") == 1
        assert server.count(hub) == 0  # the hub's own robots.txt is nobody's business

        # Bounded concurrency, measured on both sides; and the bound was actually reached
        # (490 origins asked at once: the first LIMIT fetches start before any answer).
        assert stats["peak"] == LIMIT
        # The server may see a closed connection a moment late: one per slot at most; and
        # the ten stalling origins' own checker holds up to ten more.
        assert server.open_peak <= 2 * LIMIT + 10

    # Every answer is its own origin's, in both rounds.
    for round_ in (first, stats["again"]):
        for n, mine, opened, theirs, delay, outcome in round_:
            assert (mine, opened, theirs, delay, outcome) == expected(n), (n, kind_of(n))

    # Nothing left open: the checker's sockets are all closed.
    assert after[1] <= before[1], f"sockets before {before[1]}, after {after[1]}"
    assert after[0] <= before[0], f"descriptors before {before[0]}, after {after[0]}"


def test_the_async_cache_bound_defaults_to_64_and_rejects_nonsense() -> None:
    cache = robotsrules.AsyncRobotsCache(user_agent="LoadBot/1.0")
    assert cache.max_concurrency == checker.DEFAULT_MAX_CONCURRENCY == 64
    for bad in (0, -1, 2.5, True, "8"):
        with pytest.raises(ValueError, match="max_concurrency"):
            robotsrules.AsyncRobotsCache(user_agent="LoadBot/1.0", max_concurrency=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="max_concurrency"):
            robotsrules.RobotsCache(user_agent="LoadBot/1.0", max_concurrency=bad)  # type: ignore[arg-type]


def test_the_sync_cache_bounds_fetches_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """40 threads, 40 slow origins, max_concurrency=5: never more than 5 fetches at once
    (and 5 reached), each origin fetched once, nothing left open."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    hosts = list(loopback_hosts(40, start=1000))
    table = {host: {"/robots.txt": respond(200, body(n), delay=0.1)}
             for n, host in enumerate(hosts)}
    lock = threading.Lock()
    in_flight = {"now": 0, "peak": 0}
    real_fetch = fetch

    def counting_fetch(*args: Any, **kwargs: Any) -> Any:
        with lock:
            in_flight["now"] += 1
            in_flight["peak"] = max(in_flight["peak"], in_flight["now"])
        try:
            return real_fetch(*args, **kwargs)
        finally:
            with lock:
                in_flight["now"] -= 1

    monkeypatch.setattr(checker, "fetch", counting_fetch)
    with ManyOrigins(table) as server:
        before = socket_fds()
        with robotsrules.RobotsCache(user_agent="LoadBot/1.0", timeout=HEALTHY,
                                     max_concurrency=5) as cache, ThreadPoolExecutor(40) as pool:
            urls = [f"{server.origin(h)}/secret-{n}/x" for n, h in enumerate(hosts)] * 2
            verdicts = list(pool.map(cache.allowed, urls))
        wait_until(lambda: server.open_connections() == 0, "connections left open")
        after = socket_fds()
        assert verdicts == [False] * len(urls)
        assert all(server.count(h) == 1 for h in hosts)
        assert in_flight["peak"] == 5
    assert after[1] <= before[1] and after[0] <= before[0]
