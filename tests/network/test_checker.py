"""RobotsCache and AsyncRobotsCache against real servers on 127.0.0.1 (default MemoryStore):
caching, single flight per origin, expiry with an injected clock, the last good copy, the
30-day rule, and concurrency."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from robotsrules._fetch._robotscache import AsyncRobotsCache, RobotsCache
from robotsrules.cache import MemoryStore
from robotsrules.errors import InvalidURL
from robotsrules.policy import DAY, Policy
from tests.network.servers import RawHTTPServer, ServerPool, delayed, free_port, respond
from tests.timing import HANG, HEALTHY, wait_until

UA = "CheckerBot/1.0"
RULES = b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\n"
NEW_RULES = b"User-agent: *\nDisallow: /other\n"
START = 1_700_000_000.0


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


@pytest.fixture
def clock() -> list[float]:
    return [START]


def checker(clock: list[float], **kwargs) -> RobotsCache:
    kwargs.setdefault("timeout", HEALTHY)
    return RobotsCache(user_agent=UA, clock=lambda: clock[0], **kwargs)


def async_checker(clock: list[float], **kwargs) -> AsyncRobotsCache:
    kwargs.setdefault("timeout", HEALTHY)
    return AsyncRobotsCache(user_agent=UA, clock=lambda: clock[0], **kwargs)


# -- sync ---------------------------------------------------------------------------------

def test_default_store_is_memory() -> None:
    assert isinstance(RobotsCache(user_agent=UA).store, MemoryStore)
    assert isinstance(AsyncRobotsCache(user_agent=UA).store, MemoryStore)


def test_first_call_fetches_second_is_cached(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock)
    assert cache.allowed(server.url("/private/x")) is False
    assert server.count() == 1
    assert cache.fetches == 1
    assert cache.allowed(server.url("/public")) is True
    assert cache.allowed(server.url("/private")) is False
    served = cache.lookup(server.url("/anything"))
    assert served.reason == "fresh"
    assert served.result.outcome == "ok"
    assert cache.crawl_delay(server.url("/")) == 2.0
    verdict = cache.explain(server.url("/private/y"))
    assert verdict.allowed is False
    assert server.count() == 1
    assert cache.fetches == 1
    assert server.requests[0].headers["user-agent"] == UA
    assert server.paths == ["/robots.txt"]


def test_each_origin_is_fetched_once(servers: ServerPool, clock: list[float]) -> None:
    first = servers.http(respond(200, RULES))
    second = servers.http(respond(200, NEW_RULES))
    cache = checker(clock)
    for _ in range(3):
        assert cache.allowed(first.url("/private")) is False
        assert cache.allowed(first.url("/other")) is True
        assert cache.allowed(second.url("/private")) is True
        assert cache.allowed(second.url("/other")) is False
    assert first.count() == second.count() == 1
    assert cache.fetches == 2


def test_twenty_threads_one_request(servers: ServerPool, clock: list[float]) -> None:
    asking: list[int] = []

    def when_all_ask(exchange) -> None:  # the answer waits until all twenty have asked
        wait_until(lambda: len(asking) == 20, "the threads never all asked")
        respond(200, RULES)(exchange)

    server = servers.http(when_all_ask)
    cache = checker(clock)
    barrier = threading.Barrier(20)
    answers: list[bool] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def ask(index: int) -> None:
        try:
            barrier.wait(HANG)
            with lock:
                asking.append(index)
            answer = cache.allowed(server.url(f"/private/{index}"))
            with lock:
                answers.append(answer)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors
    assert answers == [False] * 20
    assert server.count() == 1  # the other nineteen waited for the one fetch
    assert cache.fetches == 1


def test_expiry_refetches(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock)
    assert cache.allowed(server.url("/private")) is False
    clock[0] += DAY - 1  # still fresh (24 h default lifetime)
    assert cache.allowed(server.url("/private")) is False
    assert server.count() == 1
    server.handler = respond(200, NEW_RULES)
    clock[0] += 2  # now past expiry
    assert cache.allowed(server.url("/private")) is True
    assert cache.allowed(server.url("/other")) is False
    assert server.count() == 2
    assert cache.fetches == 2
    assert cache.lookup(server.url("/")).result.fetched_at == START + DAY + 1


def test_peek_answers_from_memory_only(servers: ServerPool, clock: list[float]) -> None:
    """``peek`` serves a fresh copy this process holds, and nothing else: no fetch, no
    store read, ``None`` before the first lookup and once the copy is stale."""
    server = servers.http(respond(200, RULES))
    store = MemoryStore()
    cache = checker(clock, store=store)
    assert cache.peek(server.url("/private")) is None and server.count() == 0
    looked_up = cache.lookup(server.url("/private"))
    held = cache.peek(server.url("/other"))
    assert held is not None and held.result == looked_up.result
    assert held.robots.allowed(server.url("/private"), agent=UA) is False
    other = checker(clock, store=store)  # the store holds it; this process does not
    assert other.peek(server.url("/private")) is None
    clock[0] += DAY + 1  # stale: a lookup would fetch
    assert cache.peek(server.url("/private")) is None
    assert server.count() == 1


def test_max_age_sets_when_to_refetch(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "max-age=300"}))
    cache = checker(clock)
    cache.lookup(server.url())
    clock[0] += 299
    cache.lookup(server.url())
    assert server.count() == 1
    clock[0] += 2
    cache.lookup(server.url())
    assert server.count() == 2


def test_failed_refresh_serves_last_good_copy(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock)
    assert cache.lookup(server.url()).reason == "fresh"
    server.handler = respond(503, b"down for maintenance")
    clock[0] += DAY + 1
    served = cache.lookup(server.url("/private"))
    assert server.count() == 2
    assert served.reason == "last-good-copy"
    assert served.result.outcome == "unreachable"
    assert served.result.status == 503
    assert cache.allowed(server.url("/private")) is False  # the old rules still apply
    assert cache.allowed(server.url("/public")) is True
    # the unreachable result is retried after Policy.retry_after, not on every call
    clock[0] += Policy().retry_after - 1
    assert cache.lookup(server.url()).reason == "last-good-copy"
    assert server.count() == 2
    # days of failure later, still the last good copy
    clock[0] += 40 * DAY
    served = cache.lookup(server.url())
    assert server.count() == 3
    assert served.reason == "last-good-copy"
    assert cache.allowed(server.url("/private")) is False
    # the site comes back: its new rules are used
    server.handler = respond(200, NEW_RULES)
    clock[0] += Policy().retry_after + 1
    served = cache.lookup(server.url())
    assert server.count() == 4
    assert served.reason == "fresh"
    assert cache.allowed(server.url("/private")) is True
    assert cache.allowed(server.url("/other")) is False


def test_failed_refresh_by_network_error_serves_last_good_copy(
        servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock)
    cache.lookup(server.url())
    server.handler = lambda exchange: exchange.reset()
    clock[0] += DAY + 1
    served = cache.lookup(server.url())
    assert served.reason == "last-good-copy"
    assert served.result.outcome == "unreachable"
    assert cache.allowed(server.url("/private")) is False
    assert cache.allowed(server.url("/public")) is True


def test_no_good_copy_and_503_disallows(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(503, b"busy"))
    cache = checker(clock)
    served = cache.lookup(server.url("/page"))
    assert served.reason == "unreachable"
    assert served.result.outcome == "unreachable"
    assert cache.allowed(server.url("/")) is False
    assert cache.allowed(server.url("/anything/at/all")) is False
    assert server.count() == 1


def test_thirty_day_rule(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(503, b"busy"))
    cache = checker(clock)
    assert cache.lookup(server.url()).reason == "unreachable"
    clock[0] = START + 29 * DAY
    served = cache.lookup(server.url())
    assert served.reason == "unreachable"
    assert cache.allowed(server.url("/x")) is False
    assert server.count() == 2
    clock[0] = START + 31 * DAY  # 31 days after the first failure
    served = cache.lookup(server.url())
    assert server.count() == 3
    assert served.result.outcome == "unreachable"
    assert served.reason == "30-days"
    assert cache.allowed(server.url("/x")) is True
    assert cache.allowed(server.url("/")) is True


def test_thirty_day_rule_connection_refused(clock: list[float]) -> None:
    origin = f"http://127.0.0.1:{free_port()}"
    cache = checker(clock)
    assert cache.allowed(origin + "/page") is False
    assert cache.lookup(origin + "/page").reason == "unreachable"
    clock[0] = START + 31 * DAY
    assert cache.lookup(origin + "/page").reason == "30-days"
    assert cache.allowed(origin + "/page") is True
    assert cache.fetches == 2


def test_404_allows_all(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(404, b"nope"))
    cache = checker(clock)
    assert cache.allowed(server.url("/private")) is True
    assert cache.lookup(server.url()).result.outcome == "unavailable"


def test_shared_store_between_checkers(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    store = MemoryStore()
    first = checker(clock, store=store)
    second = checker(clock, store=store)
    assert first.allowed(server.url("/private")) is False
    assert second.allowed(server.url("/private")) is False
    assert server.count() == 1
    assert (first.fetches, second.fetches) == (1, 0)


# -- async --------------------------------------------------------------------------------

def test_async_first_call_fetches_second_is_cached(servers: ServerPool,
                                                    clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))

    async def main() -> None:
        cache = async_checker(clock)
        assert await cache.allowed(server.url("/private")) is False
        assert await cache.allowed(server.url("/public")) is True
        assert await cache.crawl_delay(server.url("/")) == 2.0
        assert (await cache.explain(server.url("/private/z"))).allowed is False
        assert cache.fetches == 1
        await cache.aclose()

    asyncio.run(main())
    assert server.count() == 1


def test_async_fifty_coroutines_one_request(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(delayed(0.3, respond(200, RULES)))

    async def main() -> list[bool]:
        cache = async_checker(clock)
        answers = await asyncio.gather(
            *(cache.allowed(server.url(f"/private/{index}")) for index in range(50)))
        assert cache.fetches == 1
        return list(answers)

    assert asyncio.run(main()) == [False] * 50
    assert server.count() == 1


def test_async_ten_origins_ten_requests(servers: ServerPool, clock: list[float]) -> None:
    # No site answers before all ten requests have come in: fetches that did not overlap
    # would leave the first waiting for the others (the barrier breaks after the hang guard,
    # and that site hangs up without an answer).
    all_asked = threading.Barrier(10, timeout=HANG / 2)

    def after_all(index: int):
        def scenario(exchange) -> None:
            all_asked.wait()
            respond(200, b"User-agent: *\nDisallow: /site%d\n" % index)(exchange)
        return scenario

    sites: list[RawHTTPServer] = [servers.http(after_all(index)) for index in range(10)]

    async def main() -> list[bool]:
        cache = async_checker(clock)
        calls = [cache.allowed(site.url(f"/site{index}/page"))
                 for _ in range(3) for index, site in enumerate(sites)]
        answers = await asyncio.gather(*calls)
        assert cache.fetches == 10
        # The ten fetches overlapped: every site answered (a site whose barrier broke hangs
        # up, and "unreachable" would disallow these pages too).
        outcomes = [(await cache.lookup(site.url())).result.outcome for site in sites]
        assert outcomes == ["ok"] * 10
        return list(answers)

    assert asyncio.run(main()) == [False] * 30
    assert [site.count() for site in sites] == [1] * 10


def test_async_failed_refresh_and_thirty_days(servers: ServerPool, clock: list[float]) -> None:
    good = servers.http(respond(200, RULES))
    bad = servers.http(respond(503, b"busy"))

    async def main() -> None:
        cache = async_checker(clock)
        assert (await cache.lookup(good.url())).reason == "fresh"
        assert (await cache.lookup(bad.url())).reason == "unreachable"
        assert await cache.allowed(bad.url("/x")) is False
        good.handler = respond(503, b"busy")
        clock[0] += DAY + 1
        assert (await cache.lookup(good.url())).reason == "last-good-copy"
        assert await cache.allowed(good.url("/private")) is False
        assert await cache.allowed(good.url("/public")) is True
        clock[0] = START + 31 * DAY
        assert (await cache.lookup(bad.url())).reason == "30-days"
        assert await cache.allowed(bad.url("/x")) is True

    asyncio.run(main())
    assert good.count() == 2
    assert bad.count() == 2


class BrokenStore:
    """A store whose every operation fails, as a Redis outage would."""

    def get(self, origin: str) -> None:
        raise ConnectionError("store down")

    def put(self, origin: str, entry: object) -> None:
        raise ConnectionError("store down")

    def delete(self, origin: str) -> None:
        raise ConnectionError("store down")

    def close(self) -> None:
        pass


def test_a_failing_store_does_not_stop_the_crawl(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock, store=BrokenStore())
    assert cache.allowed(server.url("/private/x")) is False
    assert cache.allowed(server.url("/public")) is True  # served from memory
    assert server.count() == 1
    assert cache.store_errors == 2  # one get, one put


def test_a_failing_store_async(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))

    async def main() -> int:
        cache = async_checker(clock, store=BrokenStore())
        assert await cache.allowed(server.url("/private/x")) is False
        assert await cache.allowed(server.url("/public")) is True
        return cache.store_errors

    assert asyncio.run(main()) == 2
    assert server.count() == 1


# -- issue 22: pacing per agent, percent-encoded hosts ----------------------------------------

ISSUE_EXAMPLE = (b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 12\n\n"
                 b"User-agent: SemrushBot\nCrawl-delay: 60\nUser-agent: *\nDisallow: /private\n")


def test_cache_paces_each_agent_as_the_owner_wrote(servers: ServerPool,
                                                   clock: list[float]) -> None:
    from robotsrules._fetch._pacing import admit

    server = servers.http(respond(200, ISSUE_EXAMPLE))
    cache = checker(clock)
    page = server.url("/page")
    asked = {agent: cache.crawl_delay(page, agent=agent)
             for agent in ["a", "b", "SemrushBot", "OtherBot"]}
    assert asked == {"a": 1.0, "b": 12.0, "SemrushBot": 60.0, "OtherBot": None}
    # What the httpx/aiohttp transports and Scrapy's middleware space requests by.
    spacing = {agent: admit(cache.lookup(page), page, agent, max_crawl_delay=100.0).delay
               for agent in ["a", "b", "SemrushBot", "OtherBot"]}
    assert spacing == {"a": 1.0, "b": 12.0, "SemrushBot": 60.0, "OtherBot": 0.0}
    assert cache.allowed(server.url("/private/x"), agent="SemrushBot") is False
    assert server.count() == 1


def test_cache_takes_a_percent_encoded_host(servers: ServerPool, clock: list[float]) -> None:
    server = servers.http(respond(200, RULES))
    cache = checker(clock)
    encoded = f"http://%31%32%37.0.0.1:{server.port}"  # 127.0.0.1, as a browser reads it
    assert cache.allowed(f"{encoded}/private/x") is False
    assert cache.allowed(server.url("/public")) is True  # the same origin: one fetch
    assert server.count() == 1 and server.paths == ["/robots.txt"]
    with pytest.raises(InvalidURL, match="percent-decodes to '/'"):
        cache.allowed(f"http://127.0.0.1%2F:{server.port}/x")
