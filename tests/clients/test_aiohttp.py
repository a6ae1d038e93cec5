"""robotsrules.aiohttp (client middleware) against loopback servers: allowed, disallowed
(the deciding line in the error), an unreachable robots.txt, crawl-delay spacing and its off
switch, one robots.txt fetch per origin under concurrency, redirect hops checked."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from robotsrules import RobotsDisallowed
from tests.clients.test_http_clients import (
    GUARD,
    RULES,
    UA,
    UNCAPPED,
    _arrivals,
    _assert_disallowed,
    _site,
    _spaced,
)
from tests.network.servers import ServerPool
from tests.timing import finishes

aiohttp = pytest.importorskip("aiohttp", reason="aiohttp is not installed: install the 'test' extra")


def _aiohttp_run(site_calls: Any, **kwargs: Any) -> Any:
    from robotsrules.aiohttp import RobotsMiddleware

    async def run() -> Any:
        robots = RobotsMiddleware(user_agent=UA, **kwargs)
        try:
            async with aiohttp.ClientSession(middlewares=(robots,),
                                             headers={"User-Agent": UA}) as session:
                return await site_calls(session)
        finally:
            await robots.aclose()

    return asyncio.run(run())


async def _status(session: Any, url: str) -> int:
    async with session.get(url) as response:
        await response.read()
        return int(response.status)


def test_aiohttp_allowed_disallowed_and_single_fetch(pool: ServerPool) -> None:
    site = _site(pool, robots_delay=0.3)

    async def calls(session: Any) -> dict[str, Any]:
        codes = await asyncio.gather(*(_status(session, site.url(f"/p{i}")) for i in range(8)))
        with pytest.raises(RobotsDisallowed) as caught:
            await _status(session, site.url("/private/x"))
        return {"codes": codes, "error": caught.value}

    out = _aiohttp_run(calls)
    assert out["codes"] == [200] * 8
    _assert_disallowed(out["error"], site.url("/private/x"))
    assert site.count("/robots.txt") == 1 and "/private/x" not in site.paths


def test_aiohttp_redirect_hops_are_checked(pool: ServerPool) -> None:
    site = _site(pool)

    async def calls(session: Any) -> RobotsDisallowed:
        with pytest.raises(RobotsDisallowed) as caught:
            await _status(session, site.url("/go"))
        return caught.value

    assert _aiohttp_run(calls).url == site.url("/private/x")
    assert "/private/x" not in site.paths


def test_aiohttp_crawl_delay_spacing_and_off(pool: ServerPool) -> None:
    site = _site(pool, RULES + b"Crawl-delay: 0.3\n")

    async def calls(session: Any) -> None:
        await asyncio.gather(*(_status(session, site.url(f"/p{i}")) for i in range(4)))

    _aiohttp_run(calls)
    _spaced(site, 0.3, 4)
    fast = _site(pool, RULES + b"Crawl-delay: %d\n" % UNCAPPED)

    async def fast_calls(session: Any) -> None:
        await asyncio.gather(*(_status(session, fast.url(f"/p{i}")) for i in range(4)))

    finishes(lambda: _aiohttp_run(fast_calls, crawl_delay=False), guard=GUARD)  # not 300 s
    assert len(_arrivals(fast)) == 4


def test_aiohttp_unreachable(pool: ServerPool) -> None:
    site = _site(pool, b"", status=500)

    async def calls(session: Any) -> RobotsDisallowed:
        with pytest.raises(RobotsDisallowed) as caught:
            await _status(session, site.url("/a"))
        return caught.value

    error = _aiohttp_run(calls)
    assert error.verdict.rule is None and "HTTP 500" in str(error)
    assert site.paths == ["/robots.txt"]


@pytest.fixture()
def pool() -> Iterator[ServerPool]:
    with ServerPool() as servers:
        yield servers
