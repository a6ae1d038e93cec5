"""robotsrules.httpx (sync and async transports) and robotsrules.aiohttp (client middleware)
against loopback servers: allowed, disallowed (the deciding line in the error), an
unreachable robots.txt, crawl-delay spacing in the server's timestamps (and its cap and off
switch), one robots.txt fetch per origin under concurrency, redirect hops checked.

Spacing is checked against a bound no load can break: no page goes before the robots.txt
has arrived at the server, and the pacer lets each page go at least a delay after the one
before, so the k-th page arrives at least ``k * delay`` after the robots.txt did (both times
are the server's; an arrival can be late, never early). A cap or an off switch shows in the
calls ending well before one uncapped delay (a hang guard)."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from robotsrules import RobotsDisallowed
from robotsrules.httpx import AsyncRobotsTransport, RobotsTransport
from tests.network.servers import RawHTTPServer, ServerPool, delayed, redirect, respond
from tests.timing import HEALTHY, finishes

UA = "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"
PAGE = respond(200, b"page\n")
RULES = b"User-agent: *\nAllow: /\nDisallow: /private/\n"


def _site(pool: ServerPool, robots: bytes = RULES, status: int = 200,
          robots_delay: float = 0.0) -> RawHTTPServer:
    scenario = respond(status, robots)
    if robots_delay:
        scenario = delayed(robots_delay, scenario)
    pages = {f"/p{i}": PAGE for i in range(10)}
    return pool.http({"/robots.txt": scenario, "/a": PAGE, "/private/x": PAGE,
                      "/go": redirect("/private/x", 302), **pages})


def _arrivals(server: RawHTTPServer) -> list[float]:
    """When the pages (not the robots.txt) reached the server, in order (CLOCK_REALTIME)."""
    return sorted(r.at for r in server.requests if r.path != "/robots.txt")


def _spaced(server: RawHTTPServer, delay: float, pages: int) -> None:
    """The k-th page arrived at least ``k * delay`` after the robots.txt (1 ms for rounding:
    the pacer's clock is not the kernel's)."""
    robots = [r.at for r in server.requests if r.path == "/robots.txt"]
    arrivals = _arrivals(server)
    assert len(robots) == 1 and len(arrivals) == pages, (robots, arrivals)
    assert all(at >= robots[0] + k * delay - 0.001 for k, at in enumerate(arrivals)), (
        [round(at - robots[0], 3) for at in arrivals])


UNCAPPED = 100  # a Crawl-delay of 100 s: one uncapped wait is far past the hang guard
GUARD = 30.0


@pytest.fixture()
def pool() -> Iterator[ServerPool]:
    with ServerPool() as servers:
        yield servers


def _client(**kwargs: Any) -> httpx.Client:
    return httpx.Client(transport=RobotsTransport(user_agent=UA, **kwargs),
                        headers={"User-Agent": UA}, timeout=HEALTHY)


def _assert_disallowed(error: RobotsDisallowed, url: str) -> None:
    assert error.url == url
    assert error.agent == "ExampleBot"
    assert error.verdict.allowed is False
    assert error.verdict.rule is not None and error.verdict.rule.line == 3
    assert "3: Disallow: /private/" in str(error) and url in str(error)
    assert not isinstance(error, ValueError)


# -- httpx, sync ------------------------------------------------------------------------------

def test_httpx_allowed_and_disallowed(pool: ServerPool) -> None:
    site = _site(pool)
    with _client() as client:
        assert client.get(site.url("/a")).status_code == 200
        with pytest.raises(RobotsDisallowed) as caught:
            client.get(site.url("/private/x"))
    _assert_disallowed(caught.value, site.url("/private/x"))
    assert site.paths == ["/robots.txt", "/a"]  # /private/x never sent
    assert site.requests[0].headers["user-agent"] == UA
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value)


def test_httpx_redirect_hops_are_checked(pool: ServerPool) -> None:
    site = _site(pool)
    with _client() as client, pytest.raises(RobotsDisallowed) as caught:
        client.get(site.url("/go"), follow_redirects=True)
    assert caught.value.url == site.url("/private/x")
    assert site.paths == ["/robots.txt", "/go"]


def test_httpx_unreachable_robots_disallows(pool: ServerPool) -> None:
    site = _site(pool, b"down", status=503)
    with _client() as client, pytest.raises(RobotsDisallowed) as caught:
        client.get(site.url("/a"))
    assert caught.value.verdict.rule is None
    assert "unreachable: HTTP 503" in str(caught.value)
    assert site.paths == ["/robots.txt"]


def test_httpx_missing_robots_allows(pool: ServerPool) -> None:
    site = _site(pool, b"gone", status=404)
    with _client() as client:
        assert client.get(site.url("/private/x")).status_code == 200


def test_httpx_robots_fetched_through_the_wrapped_transport(pool: ServerPool) -> None:
    site = _site(pool)
    seen: list[str] = []

    class Counting(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            seen.append(request.url.path)
            return super().handle_request(request)

    with httpx.Client(transport=RobotsTransport(Counting(), user_agent=UA)) as client:
        client.get(site.url("/a"))
    assert seen == ["/robots.txt", "/a"]


def test_httpx_opt_out_extension(pool: ServerPool) -> None:
    site = _site(pool)
    with _client() as client:
        response = client.get(site.url("/private/x"), extensions={"robotsrules.obey": False})
    assert response.status_code == 200 and site.paths == ["/private/x"]


def _get_pages(site: RawHTTPServer, pages: int, **kwargs: Any) -> None:
    with _client(**kwargs) as client:
        for i in range(pages):
            client.get(site.url(f"/p{i}"))


def test_httpx_crawl_delay_spacing(pool: ServerPool) -> None:
    site = _site(pool, RULES + b"Crawl-delay: 0.3\n")
    _get_pages(site, 4)
    _spaced(site, 0.3, 4)


def test_httpx_crawl_delay_capped_and_off(pool: ServerPool) -> None:
    capped = _site(pool, RULES + b"Crawl-delay: %d\n" % UNCAPPED)
    finishes(lambda: _get_pages(capped, 3, max_crawl_delay=0.2), guard=GUARD)
    _spaced(capped, 0.2, 3)  # capped, not off
    off = _site(pool, RULES + b"Crawl-delay: %d\n" % UNCAPPED)
    finishes(lambda: _get_pages(off, 3, crawl_delay=False), guard=GUARD)
    assert len(_arrivals(off)) == 3


def test_httpx_request_rate_spacing(pool: ServerPool) -> None:
    site = _site(pool, RULES + b"Request-rate: 1/0.3\n")
    _get_pages(site, 3)
    _spaced(site, 0.3, 3)


def test_httpx_one_robots_fetch_under_concurrency(pool: ServerPool) -> None:
    site = _site(pool, robots_delay=0.3)
    with _client() as client, ThreadPoolExecutor(8) as threads:
        codes = list(threads.map(lambda i: client.get(site.url(f"/p{i}")).status_code,
                                 range(8)))
    assert codes == [200] * 8
    assert site.count("/robots.txt") == 1


# -- httpx, async -----------------------------------------------------------------------------

def _aclient(**kwargs: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=AsyncRobotsTransport(user_agent=UA, **kwargs),
                             timeout=HEALTHY)


def test_async_httpx_allowed_disallowed_and_single_fetch(pool: ServerPool) -> None:
    site = _site(pool, robots_delay=0.3)

    async def run() -> dict[str, Any]:
        async with _aclient() as client:
            responses = await asyncio.gather(*(client.get(site.url(f"/p{i}"))
                                               for i in range(8)))
            try:
                await client.get(site.url("/private/x"))
            except RobotsDisallowed as error:
                return {"codes": [r.status_code for r in responses], "error": error}
        raise AssertionError("not refused")

    out = asyncio.run(run())
    assert out["codes"] == [200] * 8
    _assert_disallowed(out["error"], site.url("/private/x"))
    assert site.count("/robots.txt") == 1 and "/private/x" not in site.paths


def test_async_httpx_crawl_delay_spacing(pool: ServerPool) -> None:
    site = _site(pool, RULES + b"Crawl-delay: 0.3\n")

    async def run() -> None:
        async with _aclient() as client:
            await asyncio.gather(*(client.get(site.url(f"/p{i}")) for i in range(4)))

    asyncio.run(run())
    _spaced(site, 0.3, 4)


def test_async_httpx_unreachable(pool: ServerPool) -> None:
    site = _site(pool, b"", status=429)

    async def run() -> RobotsDisallowed:
        async with _aclient() as client:
            with pytest.raises(RobotsDisallowed) as caught:
                await client.get(site.url("/a"))
            return caught.value

    assert "HTTP 429" in str(asyncio.run(run()))
