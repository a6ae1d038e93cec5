"""TDMRep site policy: tdmrep.json read and matched (the report's examples), fetched through
RobotsCache with the robots.txt fetch policy and store, and superseded by the page."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from robotsrules import AsyncRobotsCache, RobotsCache, page_signals
from robotsrules._page import TDMREP_PATH, parse_tdmrep
from robotsrules.cache import SQLiteStore
from robotsrules.errors import InvalidArgument
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


def test_tdmrep_without_rules_states_nothing() -> None:
    assert parse_tdmrep(b"[]").reservation("https://x.org/a") is None


@pytest.mark.parametrize("body", [
    b"[1, 2]", b'[{"location": 5, "tdm-reservation": 1}]', b'[{"tdm-reservation": 1}]',
    b'[{"Location": "/", "tdm-reservation": 1}]', b'[{"location": " /", "tdm-reservation": 1}]',
    b'[{"location": "https://x.org/", "tdm-reservation": 1}]',
    b'[[{"location": "/", "tdm-reservation": 1}]]',
    b'["{\\"location\\": \\"/\\", \\"tdm-reservation\\": 1}"]',
    b'[{"location": "/open/", "tdm-reservation": 0}, {"location": "x", "tdm-reservation": 1}]'])
def test_tdmrep_rules_that_cannot_be_read_make_the_file_invalid(body: bytes) -> None:
    # Second review of issue 33: a rule skipped for its shape could drop the reservation it
    # was meant to make; the file is invalid and every URL reserved.
    site = parse_tdmrep(body)
    assert site.valid is False and site.reservation("https://x.org/a") == 1


@pytest.mark.parametrize("body", [b"", b"{}", b"null", b"\xff\xfe", b"[" * 100_000,
                                  b"<", b"< html>", b"x<html>"])
def test_tdmrep_garbage_is_an_invalid_file_read_as_reserved(body: bytes) -> None:
    # Issue 33 review: one rule with duplicate keys (test_tdmrep_keys_and_star.py): a file
    # that cannot be read is invalid and reserves every URL, never "unset".
    site = parse_tdmrep(body)
    assert site.valid is False and site.reservation("https://x.org/a") == 1


@pytest.mark.parametrize(("written", "valid"), [
    ("2", False), ('"yes"', False), ("true", False), ("null", False), ("1.5", False),
    ('"1"', True), ("1.0", True), ("1e0", True)])
def test_tdmrep_first_matching_rule_decides_even_when_invalid(written: str, valid: bool) -> None:
    # Issue 23 item 8: the first matching rule decides ("The most specific match is the
    # first in sequence"); a value other than 0/1 there is reported invalid and read as
    # reserved, never skipped for the broader rule's 0. 1.0 is the JSON number 1.
    body = (b'[{"location": "/private/", "tdm-reservation": ' + written.encode()
            + b'}, {"location": "/", "tdm-reservation": 0}]')
    site = parse_tdmrep(body)
    rule = site.match("https://x.org/private/a")
    assert rule is not None and rule.index == 0 and rule.valid is valid
    assert site.reservation("https://x.org/private/a") == 1
    assert site.reservation("https://x.org/public") == 0
    signals = page_signals({}, agent="x", url="https://x.org/private/a", tdmrep=site)
    assert signals.tdm_reservation == 1 and signals.tdm_invalid is (not valid)
    assert signals.allows("ai-train") is False
    if not valid:
        assert "invalid: read as reserved" in rule.describe()
    missing = parse_tdmrep(b'[{"location": "/p"}, {"location": "/", "tdm-reservation": 0}]')
    assert missing.reservation("https://x.org/p") == 1  # tdm-reservation is mandatory


def test_tdmrep_levels_are_read_field_by_field() -> None:
    # "The values of tdm-reservation and tdm-policy found in this header supercede any
    # value inferred from a TDM file"; metadata "supercede previous values" -- per field:
    # a level that does not state a field leaves the earlier value.
    site = parse_tdmrep(EXAMPLE)
    url = "https://provider.com/directory-b/html/page.html"
    only_policy = page_signals({"tdm-policy": "https://other.example/p.json"}, agent="x",
                               url=url, tdmrep=site)
    assert only_policy.tdm_reservation == 1  # the file's, not reset by the header
    assert only_policy.tdm_policy == "https://other.example/p.json"
    meta_policy = page_signals(
        {"tdm-reservation": "1"}, '<head><meta name="tdm-policy" content="https://m/p">',
        agent="x", url=url, tdmrep=site)
    assert (meta_policy.tdm_reservation, meta_policy.tdm_policy) == (1, "https://m/p")
    no_policy = page_signals({"tdm-reservation": "1"}, agent="x", url=url, tdmrep=site)
    assert no_policy.tdm_policy == "https://provider.com/policies/policy.json"  # the file's
    meta_zero = page_signals({"tdm-reservation": "1", "tdm-policy": "https://h/p"},
                             '<head><meta name="tdm-reservation" content="0">', agent="x")
    assert (meta_zero.tdm_reservation, meta_zero.tdm_policy) == (0, None)
    assert meta_zero.allows("ai-train") is True


def test_tdmrep_page_supersedes_file() -> None:
    site = parse_tdmrep(EXAMPLE)
    url = "https://provider.com/directory-b/html/page.html"
    signals = page_signals({}, agent="x", url=url, tdmrep=site)
    assert signals.tdm_reservation == 1 and signals.allows("ai-train") is False
    assert signals.tdm_policy == "https://provider.com/policies/policy.json"
    assert signals.decide("ai-train")[1].describe().startswith("file /.well-known/tdmrep.json")
    header = page_signals({"tdm-reservation": "0"}, agent="x", url=url, tdmrep=site)
    assert header.tdm_reservation == 0 and header.allows("ai-train") is True
    with pytest.raises(InvalidArgument):
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
