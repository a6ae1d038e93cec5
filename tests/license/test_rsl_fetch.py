"""RSL licence documents through the fetch layer, against real servers on 127.0.0.1.

RobotsCache.license_for reads the License lines of the origin's robots.txt (every one, for
every agent: issue 33's decision), fetches each document under the robots.txt fetch policy
(time-outs, size cap, redirects, the store and its lifetimes), never sends the client's
credentials for one, and answers "unknown" with the fetch outcome when a document cannot be had.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules.cache import MemoryStore, SQLiteStore
from robotsrules.errors import InvalidArgument
from robotsrules.policy import DAY, Policy
from tests.network.servers import ServerPool, drip, redirect, respond
from tests.timing import HEALTHY, finishes

UA = "LicenceBot/1.0"
START = 1_700_000_000.0
XML = {"Content-Type": "application/rsl+xml"}
PROHIBIT_TRAINING = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
                     b'<license><prohibits type="usage">ai-train</prohibits></license>'
                     b'</content></rsl>')
PAY = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/premium/"><license>'
       b'<payment type="crawl"><amount currency="USD">0.01</amount></payment>'
       b'</license></content></rsl>')


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


def checker(clock: list[float], **kwargs: object) -> RobotsCache:
    return RobotsCache(user_agent=UA, clock=lambda: clock[0], timeout=HEALTHY, **kwargs)  # type: ignore[arg-type]


def robots(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def test_a_site_wide_licence_is_fetched_once_and_answers(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/license.xml')}",
                                           "User-agent: *", "Allow: /")),
        "/license.xml": respond(200, PROHIBIT_TRAINING, XML),
    }
    clock = [START]
    cache = checker(clock)
    terms = cache.license_for(site.url("/page"))
    assert terms.allows("ai-train") is False and terms.allows("search") is True
    answer = terms.answer("train-ai")
    assert answer.source == site.url("/license.xml") and answer.status == "prohibited"
    cache.license_for(site.url("/other"))
    assert site.count("/license.xml") == 1  # cached like robots.txt
    clock[0] += 2 * DAY
    cache.license_for(site.url("/other"))
    assert site.count("/license.xml") == 2  # refreshed when stale


def test_group_licences_and_several_documents(servers: ServerPool) -> None:
    site = servers.http()
    other = servers.http(respond(200, PAY, XML))
    site.handler = {
        "/robots.txt": respond(200, robots(
            f"License: {site.url('/all.xml')}",
            "User-agent: ExampleBot", "Allow: /",
            f"License: {site.url('/examplebot.xml')}",
            f"License: {other.url('/pay.xml')}")),
        "/all.xml": respond(200, PROHIBIT_TRAINING, XML),
        "/examplebot.xml": respond(200, b'<rsl xmlns="https://rslstandard.org/rsl">'
                                   b'<content url="/"><license/></content></rsl>', XML),
    }
    cache = checker([START])
    # Issue 33's decision: a License line is global wherever it stands, so ExampleBot is
    # bound by the site-wide prohibition too, and OtherBot by the lines in ExampleBot's group.
    every = [site.url("/all.xml"), site.url("/examplebot.xml"), other.url("/pay.xml")]
    for agent in ("ExampleBot", "OtherBot"):
        terms = cache.license_for(site.url("/premium/a"), agent)
        assert [d.url for d in terms.documents] == every
        assert terms.status("ai-train") == "prohibited"
        assert terms.status("search") == "licensed"  # permitted by two, paid by the third
        assert cache.license_for(site.url("/free"), agent).allows("ai-train") is False
        assert cache.license_for(site.url("/free"), agent).allows("search") is True
    assert site.count("/all.xml") == 1


def test_the_callers_class_and_region_are_checked(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}")),
        "/l.xml": respond(200, b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
                          b'<license><prohibits type="geo">us</prohibits></license></content>'
                          b'</rsl>', XML),
    }
    cache = checker([START])
    with pytest.raises(InvalidArgument, match="unknown region 'Usa'"):
        cache.license_for(site.url("/a"), geo="Usa")
    with pytest.raises(InvalidArgument, match="unknown user class 'bogus'"):
        cache.license_for(site.url("/a"), user="bogus")

    async def refused() -> None:
        async with AsyncRobotsCache(user_agent=UA, clock=lambda: START) as twin:
            with pytest.raises(InvalidArgument, match="unknown region 'UK'"):
                await twin.license_for(site.url("/a"), geo="UK")

    asyncio.run(refused())
    assert site.paths == []  # refused before any fetch
    assert cache.license_for(site.url("/a"), geo="Us").status("ai-train") == "prohibited"
    assert cache.license_for(site.url("/a"), geo="EU").status("ai-train") == "permitted"


def test_credentials_are_never_sent_for_a_licence(servers: ServerPool) -> None:
    licence = servers.http(respond(200, PROHIBIT_TRAINING, XML))
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {licence.url('/l.xml')}",
                                           f"License: {site.url('/own.xml')}",
                                           "User-agent: *", "Allow: /")),
        "/own.xml": respond(200, PROHIBIT_TRAINING, XML),
    }
    client = httpx.Client(auth=("user", "secret"), headers={"Authorization": "Bearer t"},
                          cookies={"session": "s"})
    with client:
        cache = checker([START], client=client)
        assert cache.license_for(site.url("/x")).allows("ai-train") is False
    robots_request = next(r for r in site.requests if r.path == "/robots.txt")
    assert "authorization" in robots_request.headers  # the site's own robots.txt: yes
    for request in licence.requests + [r for r in site.requests if r.path == "/own.xml"]:
        assert "authorization" not in request.headers, request
        assert "cookie" not in request.headers, request


@pytest.mark.parametrize("scenario, state, words", [
    (respond(503, b"busy"), "unreachable", "HTTP 503"),
    (respond(404, b"none"), "unavailable", "HTTP 404"),
    (respond(200, b"<html><body>not a licence</body></html>"), "invalid", "root element"),
    (respond(200, b"<rsl " + b"x" * 600_000), "invalid", "larger than"),
    (drip(PROHIBIT_TRAINING * 100, interval=0.25), "unreachable", "timed out"),
])
def test_a_licence_that_cannot_be_had_answers_unknown(servers: ServerPool, scenario: object,
                                                      state: str, words: str) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}", "User-agent: *",
                                           "Allow: /")),
        "/l.xml": scenario,
    }
    # The robots.txt comes from a store filled by a checker with a healthy time-out: only the
    # dripped licence is fetched with the short one (0.3 s: it must time out; a healthy
    # answer must not, on a loaded machine).
    store = MemoryStore()
    RobotsCache(store, user_agent=UA, clock=lambda: START, timeout=HEALTHY).lookup(site.url())
    timeout = 0.3 if words == "timed out" else HEALTHY
    cache = RobotsCache(store, user_agent=UA, clock=lambda: START, timeout=timeout)
    terms = finishes(cache.license_for, site.url("/x"))
    (document,) = terms.documents
    assert document.state == state and words in (document.error or ""), document
    for name in ("ai-train", "search", "all"):
        answer = terms.answer(name)
        assert answer.status == "unknown" and answer.allowed is None
        assert words in answer.reason


def test_the_last_good_copy_is_read_while_the_licence_is_unreachable(servers: ServerPool
                                                                    ) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}", "User-agent: *",
                                           "Allow: /"), {"Cache-Control": "max-age=864000"}),
        "/l.xml": respond(200, PROHIBIT_TRAINING, XML),
    }
    clock = [START]
    cache = checker(clock)
    assert cache.license_for(site.url("/x")).allows("ai-train") is False
    site.handler["/l.xml"] = respond(503)  # type: ignore[index]
    clock[0] += 2 * DAY
    document = cache.license_document(site.url("/l.xml"), origin=site.origin)
    assert document.state == "ok"
    assert any("last good copy" in warning for warning in document.warnings)
    assert cache.license_for(site.url("/x")).allows("ai-train") is False


def test_redirects_follow_the_policy(servers: ServerPool) -> None:
    target = servers.http(respond(200, PROHIBIT_TRAINING, XML))
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/moved.xml')}",
                                           "User-agent: *", "Allow: /")),
        "/moved.xml": redirect(target.url("/final.xml")),
    }
    cache = checker([START], policy=Policy(max_redirects=1))
    assert cache.license_for(site.url("/x")).allows("ai-train") is False
    site.handler["/moved.xml"] = redirect(site.url("/moved.xml"))  # type: ignore[index]
    document = checker([START]).license_document(site.url("/moved.xml"))
    assert document.state == "unavailable" and "redirect loop" in (document.error or "")


def test_a_licence_url_that_cannot_be_fetched_is_invalid_without_a_request(
        servers: ServerPool) -> None:
    site = servers.http(respond(200, robots("License: /license.xml",
                                            "License: ftp://example.com/l.xml",
                                            "User-agent: *", "Allow: /")))
    terms = checker([START]).license_for(site.url("/x"))
    assert [d.state for d in terms.documents] == ["invalid", "invalid"]
    assert "not an absolute http(s) URL" in (terms.documents[0].error or "")
    assert terms.status("ai-train") == "unknown"
    assert [r.path for r in site.requests] == ["/robots.txt"]


def test_no_licence_line_is_unstated(servers: ServerPool) -> None:
    site = servers.http(respond(200, robots("User-agent: *", "Allow: /")))
    terms = checker([START]).license_for(site.url("/x"))
    assert terms.documents == () and terms.status("ai-train") == "unstated"


def test_licences_persist_in_a_shared_store(servers: ServerPool, tmp_path: object) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}", "User-agent: *",
                                           "Allow: /")),
        "/l.xml": respond(200, PROHIBIT_TRAINING, XML),
    }
    path = f"{tmp_path}/cache.sqlite"
    with RobotsCache(SQLiteStore(path), user_agent=UA, clock=lambda: START) as first:
        assert first.license_for(site.url("/x")).allows("ai-train") is False
    with RobotsCache(SQLiteStore(path), user_agent=UA, clock=lambda: START) as second:
        assert second.license_for(site.url("/x")).allows("ai-train") is False
    assert site.count("/l.xml") == 1


def test_the_async_twin(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}", "User-agent: *",
                                           "Allow: /")),
        "/l.xml": respond(200, PROHIBIT_TRAINING, XML),
    }

    async def main() -> None:
        async with AsyncRobotsCache(user_agent=UA, clock=lambda: START) as cache:
            terms = await cache.license_for(site.url("/x"))
            assert terms.allows("ai-train") is False
            document = await cache.license_document(site.url("/l.xml"))
            assert document.state == "ok"

    asyncio.run(main())
    assert site.count("/l.xml") == 1


@pytest.mark.parametrize("status", [503, 500, 429])
def test_an_unreachable_robots_txt_is_unknown_not_unstated(servers: ServerPool,
                                                          status: int) -> None:
    """Whether robots.txt has a License line cannot be told while it is unreachable with no
    earlier copy (nor after 30 days of it): every answer is unknown, never unstated."""
    site = servers.http(respond(status))
    clock = [START]
    cache = checker(clock)
    terms = cache.license_for(site.url("/x"))
    answer = terms.answer("ai-train")
    assert answer.status == "unknown", answer
    assert "robots.txt is unreachable" in answer.reason
    assert terms.documents[0].state == "unreachable"
    assert terms.documents[0].url == site.url("/robots.txt")
    clock[0] = START + 31 * DAY
    assert cache.license_for(site.url("/x")).status("ai-train") == "unknown"

    async def main() -> None:
        async with AsyncRobotsCache(user_agent=UA, clock=lambda: START) as twin:
            assert (await twin.license_for(site.url("/x"))).status("search") == "unknown"

    asyncio.run(main())


def test_an_earlier_copy_of_robots_txt_still_names_its_licences(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {"/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}")),
                    "/l.xml": respond(200, PROHIBIT_TRAINING, XML)}
    clock = [START]
    cache = checker(clock)
    assert cache.license_for(site.url("/x")).status("ai-train") == "prohibited"
    site.handler = {"/robots.txt": respond(503), "/l.xml": respond(200, PROHIBIT_TRAINING, XML)}
    clock[0] = START + 2 * DAY
    assert cache.license_for(site.url("/x")).status("ai-train") == "prohibited"


def test_a_url_that_is_neither_a_url_nor_a_path_raises(servers: ServerPool) -> None:
    from robotsrules import InvalidURL, parse_license

    document = parse_license(PROHIBIT_TRAINING, origin="https://ex.com")
    for url in ("private", "", "mailto:a@ex.com"):
        with pytest.raises(InvalidURL):
            document.license_for(url)


FREE_FOR_A_DAY = (b'<rsl xmlns="https://rslstandard.org/rsl" max-age="1"><content url="/">'
                  b"<license/></content></rsl>")


def test_a_last_good_copy_is_relied_on_until_its_max_age_only(servers: ServerPool) -> None:
    """<rsl max-age="3">: three days after the copy was fetched, an unreachable server no
    longer leaves it in force (RSL 1.0 §3.2): the answers are unknown, not the old
    permission."""
    three_days = FREE_FOR_A_DAY.replace(b'max-age="1"', b'max-age="3"')
    site = servers.http()
    site.handler = {"/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}"),
                                           {"Cache-Control": "max-age=2592000"}),
                    "/l.xml": respond(200, three_days, XML)}
    clock = [START]
    cache = checker(clock)
    assert cache.license_for(site.url("/x")).status("ai-train") == "permitted"
    site.handler["/l.xml"] = respond(503)  # type: ignore[index]
    clock[0] = START + 2 * DAY  # stale (the policy's 24 hours), unreachable, in force
    document = cache.license_document(site.url("/l.xml"), origin=site.origin)
    assert document.state == "ok" and "last good copy" in document.warnings[-1]
    assert cache.license_for(site.url("/x")).status("ai-train") == "permitted"
    clock[0] = START + 3 * DAY + 60
    answer = cache.license_for(site.url("/x")).answer("ai-train")
    assert answer.status == "unknown", answer
    assert "past the document's max-age of 3 days" in answer.reason

    async def main() -> None:
        async with AsyncRobotsCache(user_agent=UA, clock=lambda: clock[0]) as twin:
            site.handler["/l.xml"] = respond(200, FREE_FOR_A_DAY, XML)  # type: ignore[index]
            clock[0] = START
            assert (await twin.license_for(site.url("/x"))).status("search") == "permitted"
            site.handler["/l.xml"] = respond(503)  # type: ignore[index]
            clock[0] = START + 2 * DAY
            assert (await twin.license_for(site.url("/x"))).status("search") == "unknown"

    asyncio.run(main())


def test_cache_control_does_not_keep_a_copy_past_its_max_age(servers: ServerPool) -> None:
    """Cache-Control: max-age=7 days, <rsl max-age="1">: the copy is fetched again after a
    day, so a prohibition published since is read."""
    site = servers.http()
    week = {**XML, "Cache-Control": "max-age=604800"}
    site.handler = {"/robots.txt": respond(200, robots(f"License: {site.url('/l.xml')}"),
                                           {"Cache-Control": "max-age=2592000"}),
                    "/l.xml": respond(200, FREE_FOR_A_DAY, week)}
    clock = [START]
    cache = checker(clock)
    assert cache.license_for(site.url("/x")).status("ai-train") == "permitted"
    site.handler["/l.xml"] = respond(  # type: ignore[index]
        200, FREE_FOR_A_DAY.replace(b"<license/>", b'<license><prohibits type="usage">'
                                    b"ai-train</prohibits></license>"), week)
    clock[0] = START + DAY / 2
    assert cache.license_for(site.url("/x")).status("ai-train") == "permitted"
    assert site.count("/l.xml") == 1
    clock[0] = START + DAY + 60
    assert cache.license_for(site.url("/x")).status("ai-train") == "prohibited"
    assert site.count("/l.xml") == 2

    async def main() -> None:
        async with AsyncRobotsCache(user_agent=UA, clock=lambda: clock[0]) as twin:
            clock[0] = START
            assert (await twin.license_for(site.url("/x"))).status("ai-train") == "prohibited"
            site.handler["/l.xml"] = respond(200, FREE_FOR_A_DAY, week)  # type: ignore[index]
            clock[0] = START + DAY + 60
            assert (await twin.license_for(site.url("/x"))).status("ai-train") == "permitted"

    asyncio.run(main())
