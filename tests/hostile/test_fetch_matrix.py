"""The hostile-server matrix (issue 13): every fetch entry point x every misbehaviour.

Entry points: :func:`fetch`, :func:`afetch`, :class:`RobotsCache`,
:class:`AsyncRobotsCache`, the httpx transports (sync and async) and the aiohttp
middleware. (The Scrapy middleware fetches through Scrapy's own downloader: its cases run in
a real crawl, in ``test_scrapy_hostile.py``.) Misbehaviours: a head or body dripped past the
deadline (with a length, without one, on a connection the client kept alive), bodies cut
short (against Content-Length, before the last chunk, inside a gzip stream), a broken
status line, odd ``Retry-After`` values, unusable redirect targets, FTP dripping its
greeting or its data.

Each case asserts the outcome (and so the verdict: a cut file is never read as whole) and
that nothing raised. Servers are real, on 127.0.0.1. The cases that only a time limit can end
get a short one (``timeout`` 0.3 s, so a deadline of 0.9 s) and misbehave for minutes (a
head, a body or an FTP greeting dripped), so that "unreachable, timed out" can only come from
our limits, however slow the machine; the others get a time-out they never reach
(:data:`tests.timing.HEALTHY`), so that a loaded machine cannot turn a healthy answer into a
time-out.
"""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable, Optional

import httpx
import pytest

from robotsrules import AsyncRobotsCache, RobotsCache, RobotsDisallowed
from robotsrules._fetch._fetcher import afetch, fetch
from robotsrules.httpx import AsyncRobotsTransport, RobotsTransport
from tests.network.servers import (
    ScriptedFTPServer,
    ServerPool,
    drip,
    drip_head,
    drip_unframed,
    head,
    keep_alive,
    raw,
    redirect,
    reset_mid_body,
    respond,
    truncated_chunked,
)
from tests.timing import HANG, HEALTHY, finishes

UA = "MatrixBot/1.0"
AGENT = "MatrixBot"
TIMEOUT = 0.3  # the time-out of the cases that must time out (their deadline: 3 x 0.3 s)
LONG = 5 * HANG  # how long their misbehaviour lasts: far past the hang guard each case runs under
# The whole file disallows MatrixBot; a copy cut before its end allows it.
RULES = (b"User-agent: *\nDisallow: /private\n" + b"# filler\n" * 300
         + b"User-agent: MatrixBot\nDisallow: /\n")


# -- entry points: (robots origin, probe URL, client to warm or None) -> (outcome, allowed) ----

Outcome = tuple[str, bool, Optional[str]]


# The page requests (a warm-up, the page behind an "allow") are healthy exchanges: they get
# HEALTHY; ``timeout`` is the robots.txt fetch's (a caller's client lends it its own).

def _sync_warm(client: httpx.Client, warm: Optional[str]) -> None:
    if warm is not None:
        response = client.get(warm, extensions={"robotsrules.obey": False}, timeout=HEALTHY)
        assert response.status_code == 200


async def _async_warm(client: httpx.AsyncClient, warm: Optional[str]) -> None:
    if warm is not None:
        response = await client.get(warm, extensions={"robotsrules.obey": False},
                                    timeout=HEALTHY)
        assert response.status_code == 200


def via_fetch(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    if warm is None:  # its own client
        result = fetch(probe, user_agent=UA, timeout=timeout)
        return result.outcome, result.robots.allowed(probe, agent=AGENT), result.error
    with httpx.Client(timeout=timeout) as client:
        _sync_warm(client, warm)
        result = fetch(probe, user_agent=UA, timeout=timeout, client=client)
    return result.outcome, result.robots.allowed(probe, agent=AGENT), result.error


def via_afetch(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    async def main() -> Outcome:
        if warm is None:
            result = await afetch(probe, user_agent=UA, timeout=timeout)
            return result.outcome, result.robots.allowed(probe, agent=AGENT), result.error
        async with httpx.AsyncClient(timeout=timeout) as client:
            await _async_warm(client, warm)
            result = await afetch(probe, user_agent=UA, timeout=timeout, client=client)
        return result.outcome, result.robots.allowed(probe, agent=AGENT), result.error

    return asyncio.run(main())


def via_cache(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    with httpx.Client(timeout=timeout) as client:
        _sync_warm(client, warm)
        cache = RobotsCache(user_agent=UA, agent=AGENT, timeout=timeout,
                            client=client if warm is not None else None)
        served = cache.lookup(probe)
        allowed = cache.allowed(probe)
    return served.result.outcome, allowed, served.result.error


def via_async_cache(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    async def main() -> Outcome:
        async with httpx.AsyncClient(timeout=timeout) as client:
            await _async_warm(client, warm)
            cache = AsyncRobotsCache(user_agent=UA, agent=AGENT, timeout=timeout,
                                     client=client if warm is not None else None)
            try:
                served = await cache.lookup(probe)
                allowed = await cache.allowed(probe)
            finally:
                await cache.aclose()
        return served.result.outcome, allowed, served.result.error

    return asyncio.run(main())


def via_transport(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    transport = RobotsTransport(httpx.HTTPTransport(), user_agent=UA, agent=AGENT,
                                timeout=timeout, crawl_delay=False)
    with httpx.Client(transport=transport, timeout=HEALTHY) as client:
        _sync_warm(client, warm)
        try:
            client.get(probe)
            allowed = True
        except RobotsDisallowed:
            allowed = False
        served = transport.cache.lookup(probe)  # the entry just fetched (no new request)
    return served.result.outcome, allowed, served.result.error


def via_async_transport(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    async def main() -> Outcome:
        transport = AsyncRobotsTransport(httpx.AsyncHTTPTransport(), user_agent=UA,
                                         agent=AGENT, timeout=timeout, crawl_delay=False)
        async with httpx.AsyncClient(transport=transport, timeout=HEALTHY) as client:
            await _async_warm(client, warm)
            try:
                await client.get(probe)
                allowed = True
            except RobotsDisallowed:
                allowed = False
            served = await transport.cache.lookup(probe)
        return served.result.outcome, allowed, served.result.error

    return asyncio.run(main())


try:  # the aiohttp column needs the extra; the rest of the matrix does not
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware
except ImportError:  # pragma: no cover - the test extra installs aiohttp
    aiohttp = None


def via_aiohttp(probe: str, warm: Optional[str], timeout: float) -> Outcome:
    if aiohttp is None:  # pragma: no cover
        pytest.skip("aiohttp is not installed: install the 'test' extra")

    async def main() -> Outcome:
        robots = RobotsMiddleware(user_agent=UA, agent=AGENT, timeout=timeout,
                                  crawl_delay=False)
        try:
            async with aiohttp.ClientSession(middlewares=(robots,)) as session:
                try:
                    async with session.get(probe) as response:
                        await response.read()
                    allowed = True
                except RobotsDisallowed:
                    allowed = False
            served = await robots.cache.lookup(probe)
        finally:
            await robots.aclose()
        return served.result.outcome, allowed, served.result.error

    return asyncio.run(main())


ENTRY_POINTS: dict[str, Callable[[str, Optional[str], float], Outcome]] = {
    "fetch": via_fetch, "afetch": via_afetch, "RobotsCache": via_cache,
    "AsyncRobotsCache": via_async_cache, "RobotsTransport": via_transport,
    "AsyncRobotsTransport": via_async_transport, "aiohttp": via_aiohttp,
}
WITH_CLIENT = {"fetch", "afetch", "RobotsCache", "AsyncRobotsCache", "RobotsTransport",
               "AsyncRobotsTransport"}  # a connection their client kept alive can be reused


# -- misbehaviours -------------------------------------------------------------------------

@dataclass
class Site:
    """What a case sets up: the origin to probe, and a page to warm a connection with."""

    origin: str
    warm: Optional[str] = None


Setup = Callable[[ServerPool, Any], Site]


def _http(scenario: Any) -> Setup:
    def setup(pool: ServerPool, ftp: Any) -> Site:
        return Site(pool.http({"/robots.txt": scenario}).origin)
    return setup


def _reused(scenario: Any) -> Setup:
    def setup(pool: ServerPool, ftp: Any) -> Site:
        server = pool.http({"/robots.txt": scenario, "/warm": keep_alive()}, keep_alive=True)
        return Site(server.origin, server.url("/warm"))
    return setup


def _ftp(**drip: Any) -> Setup:
    """An HTTP origin whose robots.txt redirects to a misbehaving FTP server (every entry
    point follows it; fetch and the caches would also take the ftp:// URL directly)."""
    def setup(pool: ServerPool, ftp: Any) -> Site:
        server = ftp(RULES * 4, **drip)
        return Site(pool.http({"/robots.txt": redirect(server.url())}).origin)
    return setup


_GZ = gzip.compress(RULES, mtime=0)


@dataclass(frozen=True)
class Case:
    setup: Setup
    outcome: str
    slow: bool = False  # ends by a time limit only (it misbehaves for minutes)
    needs_client: bool = False


CASES: dict[str, Case] = {
    "drip-head": Case(_http(drip_head(0.05, give_up=LONG)), "unreachable", slow=True),
    "drip-body-with-length": Case(_http(drip(RULES * 5, 0.05)), "unreachable", slow=True),
    "drip-body-no-length": Case(_http(drip_unframed(RULES * 5, 0.05)), "unreachable",
                                slow=True),
    "no-length-whole": Case(_http(raw(head(200, [("Content-Type", "text/plain")]) + RULES)),
                            "ok"),
    "short-length": Case(_http(raw(head(200, [("Content-Length", str(len(RULES)))])
                                   + RULES[:60])), "unreachable"),
    "reset-mid-body": Case(_http(reset_mid_body(RULES, 60)), "unreachable"),
    "cut-chunked": Case(_http(truncated_chunked()), "unreachable"),
    "cut-gzip": Case(_http(respond(200, _GZ[: len(_GZ) // 2], {"Content-Encoding": "gzip"})),
                     "unreachable"),
    "gzip-no-trailer": Case(_http(respond(200, _GZ[:-8], {"Content-Encoding": "gzip"})),
                            "unreachable"),
    "gzip-then-junk": Case(_http(respond(200, _GZ + b"junk", {"Content-Encoding": "gzip"})),
                           "ok"),
    "bad-status-line": Case(_http(raw(b"HTTP/1.1 2OO OK\r\nContent-Length: 0\r\n\r\n")),
                            "unreachable"),
    "not-http": Case(_http(raw(b"SSH-2.0-OpenSSH_9.6\r\n")), "unreachable"),
    "retry-after-superscript": Case(_http(raw(
        b"HTTP/1.1 503 Busy\r\nRetry-After: \xb2\r\nContent-Length: 0\r\n\r\n")),
        "unreachable"),
    "retry-after-arabic-digits": Case(_http(raw(
        b"HTTP/1.1 429 Slow down\r\nRetry-After: \xd9\xa1\xd9\xa2\r\nContent-Length: 0\r\n\r\n")),
        "unreachable"),
    "redirect-port-65536": Case(_http(redirect("ftp://h.example:65536/")), "unavailable"),
    "redirect-empty-label": Case(_http(redirect("http://a..b/robots.txt")), "unavailable"),
    "redirect-bad-punycode": Case(_http(redirect("http://xn--zz.example/")), "unavailable"),
    "redirect-ftp-crlf-user": Case(_http(redirect("ftp://u%0d%0aDELE%20x@h.example/")),
                                   "unavailable"),
    "reused-connection-drip-head": Case(_reused(drip_head(0.05, give_up=LONG)), "unreachable",
                                        slow=True, needs_client=True),
    "ftp-drip-data": Case(_ftp(data_interval=0.05), "unreachable", slow=True),
    "ftp-drip-greeting": Case(_ftp(banner_interval=0.05), "unreachable", slow=True),
}


@pytest.fixture
def pool() -> Iterator[ServerPool]:
    with ServerPool() as servers:
        yield servers


@pytest.fixture
def ftp() -> Iterator[Callable[..., ScriptedFTPServer]]:
    started = []

    def make(body: bytes, **options: Any) -> ScriptedFTPServer:
        server = ScriptedFTPServer(body, **options)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_hostile_matrix(pool: ServerPool, ftp: Any, entry: str, case: str) -> None:
    spec = CASES[case]
    if spec.needs_client and entry not in WITH_CLIENT:
        pytest.skip(f"{entry} has no client of the caller's to keep a connection alive")
    site = spec.setup(pool, ftp)
    timeout = TIMEOUT if spec.slow else HEALTHY
    outcome, allowed, error = finishes(ENTRY_POINTS[entry], site.origin + "/private/page",
                                       site.warm, timeout)
    assert outcome == spec.outcome, error
    assert allowed is (spec.outcome == "unavailable"), (outcome, error)  # ok: RULES disallow
    assert not (error or "").startswith("unexpected"), error
    if spec.slow:  # our deadline, or (a loaded machine) a read's time-out: both time limits
        assert "timed out" in (error or ""), error
    for server in pool._servers:
        assert not getattr(server, "errors", []), server.errors  # the scenarios ran
