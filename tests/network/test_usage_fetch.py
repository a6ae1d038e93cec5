"""Usage preferences through the fetch layer, against real servers on 127.0.0.1:
FetchResult.usage and RobotsCache/AsyncRobotsCache.usage for every fetch outcome."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from robotsrules import InvalidPurpose, fetch
from robotsrules._fetch._robotscache import AsyncRobotsCache, RobotsCache
from robotsrules.policy import DAY
from tests.network.servers import RawHTTPServer, ServerPool, respond
from tests.timing import HEALTHY

UA = "UsageBot/1.0"
RULES = (b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private\n"
         b"Content-Usage: /open/ train-ai=y\n")
START = 1_700_000_000.0


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


def cache(clock: list[float]) -> RobotsCache:
    return RobotsCache(user_agent=UA, clock=lambda: clock[0], timeout=HEALTHY)


def test_fetch_result_usage_ok(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    result = fetch(server.url("/"), user_agent=UA, timeout=HEALTHY)
    usage = result.usage(server.url("/page"), agent="UsageBot")
    assert result.outcome == "ok" and usage.crawl_allowed
    assert usage.allows("ai-train") is False and usage.allows("search") is True
    assert result.usage(server.url("/open/x"), agent="UsageBot").allows("train-ai") is False
    assert result.usage(server.url("/private/x"), agent="UsageBot").preferences == {}


@pytest.mark.parametrize("status, crawl", [(404, True), (503, False)])
def test_fetch_result_usage_without_a_file(servers: ServerPool, status: int, crawl: bool
                                           ) -> None:
    server = servers.http(respond(status, b"User-agent: *\nContent-Signal: ai-train=yes\n"))
    result = fetch(server.url("/"), user_agent=UA, timeout=HEALTHY)
    usage = result.usage(server.url("/page"), agent="UsageBot")
    assert usage.crawl_allowed is crawl
    assert usage.preferences == {} and usage.allows("ai-train") is None


def test_cache_usage_and_purpose(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    clock = [START]
    checker = cache(clock)
    assert checker.usage(server.url("/a"), purpose="ai-train") is False
    assert checker.usage(server.url("/a"), purpose="ai-input") is None
    assert checker.usage(server.url("/a"), "OtherBot").allows("search") is True
    with pytest.raises(InvalidPurpose):
        checker.usage(server.url("/a"), purpose="ai_train")  # type: ignore[arg-type]
    assert server.count() == 1  # one fetch, then the cache


def test_cache_usage_unreachable_serves_last_good_copy(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    clock = [START]
    checker = cache(clock)
    assert checker.usage(server.url("/a"), purpose="ai-train") is False
    server.handler = respond(503)
    clock[0] += 2 * DAY
    assert checker.lookup(server.url("/a")).reason == "last-good-copy"
    assert checker.usage(server.url("/a"), purpose="ai-train") is False


def test_cache_usage_unreachable_without_copy_then_30_days() -> None:
    clock = [START]
    with RawHTTPServer(respond(503)) as server:
        checker = cache(clock)
        usage = checker.usage(server.url("/a"))
        assert usage.crawl_allowed is False and usage.allows("ai-train") is None
        clock[0] += 31 * DAY
        usage = checker.usage(server.url("/a"))
        assert checker.lookup(server.url("/a")).reason == "30-days"
        assert usage.crawl_allowed is True and usage.preferences == {}


def test_async_cache_usage(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))

    async def go() -> None:
        async with AsyncRobotsCache(user_agent=UA, timeout=HEALTHY) as checker:
            assert await checker.usage(server.url("/a"), purpose="search") is True
            usage = await checker.usage(server.url("/open/b"))
            assert usage.allows("train-ai") is False  # ai-train=no beats train-ai=y

    asyncio.run(go())
