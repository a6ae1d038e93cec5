"""TDMRep site policy: tdmrep.json read and matched (the report's examples), fetched through
RobotsCache with the robots.txt fetch policy and store, and superseded by the page."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from robotsrules import AsyncRobotsCache, RobotsCache, page_signals
from robotsrules._tdmrep import TDMREP_PATH, parse_tdmrep
from robotsrules.cache import SQLiteStore
from tests.network.servers import RawHTTPServer, redirect, respond

EXAMPLE = b"""[
  {"location": "/directory-a/", "tdm-reservation": 1},
  {"location": "/directory-b/html/", "tdm-reservation": 1,
   "tdm-policy": "https://provider.com/policies/policy.json"},
  {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0}
]"""
EVERYTHING = b'[{"location": "/", "tdm-reservation": 1}]'


def test_tdmrep_report_examples() -> None:
    everything = parse_tdmrep(EVERYTHING)
    assert everything.reservation("https://provider.com/anything?x=1") == 1
    rules = parse_tdmrep(EXAMPLE)
    assert rules.reservation("https://provider.com/directory-a/doc.pdf") == 1
    rule = rules.match("https://provider.com/directory-b/html/page.html")
    assert rule is not None and rule.policy == "https://provider.com/policies/policy.json"
    assert rules.reservation("https://provider.com/directory-b/images/cat.jpg") == 0
    # "If no match is found, a TDM Agent MUST consider that tdm-reservation is unset."
    assert rules.reservation("https://provider.com/directory-b/images/cat.png") is None
    assert rules.reservation("https://provider.com/other") is None


def test_tdmrep_first_match_wins_and_unreserved_escapes_decode() -> None:
    rules = parse_tdmrep(b'[{"location": "/open/", "tdm-reservation": 0},'
                         b' {"location": "/", "tdm-reservation": 1}]')
    assert rules.reservation("https://x.org/open/a") == 0
    assert rules.reservation("https://x.org/%6Fpen/a") == 0  # %6F is 'o': unreserved
    assert rules.reservation("https://x.org/closed") == 1
    case = parse_tdmrep(b'[{"location": "/Open/", "tdm-reservation": 1}]')
    assert case.reservation("https://x.org/open/") is None  # case-sensitive


@pytest.mark.parametrize("body", [b"", b"<!doctype html><p>not found", b"{}", b"[1, 2]",
                                  b'[{"location": "/", "tdm-reservation": 2}]',
                                  b'[{"location": "/", "tdm-reservation": true}]',
                                  b'[{"location": 5, "tdm-reservation": 1}]',
                                  b'[{"tdm-reservation": 1}]', b"\xff\xfe", b"[" * 100_000])
def test_tdmrep_garbage_states_nothing(body: bytes) -> None:
    assert parse_tdmrep(body).reservation("https://x.org/a") is None


def test_tdmrep_page_supersedes_file() -> None:
    site = parse_tdmrep(EXAMPLE)
    url = "https://provider.com/directory-b/html/page.html"
    signals = page_signals({}, agent="x", url=url, tdmrep=site)
    assert signals.tdm_reservation == 1 and signals.allows("ai-train") is False
    assert signals.tdm_policy == "https://provider.com/policies/policy.json"
    assert signals.decide("ai-train")[1].describe().startswith("file /.well-known/tdmrep.json")
    header = page_signals({"tdm-reservation": "0"}, agent="x", url=url, tdmrep=site)
    assert header.tdm_reservation == 0 and header.allows("ai-train") is True
    with pytest.raises(TypeError):
        page_signals({}, agent="x", tdmrep=site)


def test_cache_tdmrep_fetched_once_and_outcomes(tmp_path: Path) -> None:
    with RawHTTPServer({TDMREP_PATH: redirect("/tdm.json"),
                        "/tdm.json": respond(200, EXAMPLE, content_type="application/json"),
                        "/robots.txt": respond(200, b"User-agent: *\nDisallow: /x\n")}) as ok, \
            RawHTTPServer({TDMREP_PATH: respond(404, b"no")}) as absent, \
            RawHTTPServer({TDMREP_PATH: respond(503, b"down")}) as down:
        store = SQLiteStore(str(tmp_path / "cache.sqlite3"))
        with RobotsCache(store, user_agent="ExampleBot/1.0") as cache:
            policy = cache.tdmrep(ok.url("/directory-a/x"))
            assert policy.state == "ok"
            assert policy.reservation(ok.url("/directory-a/x")) == 1
            assert cache.tdmrep(ok.url("/other")).reservation(ok.url("/other")) is None
            assert not cache.allowed(ok.url("/x"))  # robots.txt kept apart from the file
            assert cache.tdmrep(absent.url("/a")).state == "absent"
            unreachable = cache.tdmrep(down.url("/a"))
            assert unreachable.state == "unreachable"
            assert unreachable.reservation(down.url("/a")) == 1
        assert ok.count(TDMREP_PATH) == 1 and ok.count("/tdm.json") == 1
        with RobotsCache(SQLiteStore(str(tmp_path / "cache.sqlite3")),
                         user_agent="ExampleBot/1.0") as again:  # the store is shared
            assert again.tdmrep(ok.url("/directory-a/")).reservation(ok.url("/directory-a/")) == 1
        assert ok.count(TDMREP_PATH) == 1


def test_async_cache_tdmrep() -> None:
    with RawHTTPServer({TDMREP_PATH: respond(200, EVERYTHING)}) as server:
        async def run() -> None:
            async with AsyncRobotsCache(user_agent="ExampleBot/1.0") as cache:
                files = await asyncio.gather(*(cache.tdmrep(server.url("/p")) for _ in range(5)))
                assert {f.reservation(server.url("/p")) for f in files} == {1}
        asyncio.run(run())
        assert server.count(TDMREP_PATH) == 1
