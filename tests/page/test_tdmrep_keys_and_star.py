"""tdmrep.json (issue 33): a key given twice in one object makes the file invalid, never
"last wins" (RFC 8259 §4 calls such an object's meaning unpredictable; Python's json keeps
the last value, which turned ``"tdm-reservation": 1, "tdm-reservation": 0`` into "not
reserved"); and a ``location`` of ``*`` matches every path, as the W3C TDMRep Community
Group final report (CG-FINAL-tdmrep-20240510, 10 May 2024) reads locations: robots.txt
patterns, ``*`` being "0 or more instances of any character", matched as Google matches.
Library, page_signals and the cache's fetch on a loopback server.
"""

from __future__ import annotations

import pytest

from robotsrules import RobotsCache, page_signals
from robotsrules._page import TDMREP_PATH, parse_tdmrep
from tests.network.servers import RawHTTPServer, respond

TWICE = [
    b'[{"location": "/", "tdm-reservation": 1, "tdm-reservation": 0}]',
    b'[{"location": "/", "tdm-reservation": 0, "tdm-reservation": 0}]',
    b'[{"location": "/private/", "location": "/", "tdm-reservation": 0}]',
    b'[{"location": "/a/", "tdm-reservation": 0, "tdm-policy": "x", "tdm-policy": "y"}]',
    b'[{"location": "/", "tdm-reservation": 0, "x": {"k": 1, "k": 2}}]',
]


@pytest.mark.parametrize("body", TWICE)
def test_a_key_given_twice_makes_the_file_invalid_and_reserved(body: bytes) -> None:
    site = parse_tdmrep(body)
    assert site.valid is False
    for url in ("https://x.org/", "https://x.org/private/a", "https://x.org/a/b"):
        assert site.reservation(url) == 1
    rule = site.match("https://x.org/a")
    assert rule is not None and rule.valid is False and "given twice" in rule.describe()
    signals = page_signals({}, agent="x", url="https://x.org/a", tdmrep=site)
    assert signals.tdm_reservation == 1 and signals.allows("ai-train") is False
    assert signals.tdm_invalid is True


def test_the_same_key_in_different_objects_is_fine() -> None:
    site = parse_tdmrep(b'[{"location": "/a/", "tdm-reservation": 0},'
                       b' {"location": "/", "tdm-reservation": 1}]')
    assert site.valid and site.reservation("https://x.org/a/1") == 0
    assert site.reservation("https://x.org/b") == 1


@pytest.mark.parametrize("location, path, expected", [
    ("*", "/", 1), ("*", "/any/page?q=1", 1), ("*.pdf", "/doc/a.pdf", 1),
    ("*.pdf", "/doc/a.html", 0), ("*.pdf$", "/a.pdf?x", 0), ("/*/img/", "/a/img/x", 1),
    # starts with neither / nor *: no path, so the file cannot be read whole and reserves
    # every URL (issue 33's second review; it was skipped, leaving the "/" rule's 0)
    ("images/", "/images/a", 1), ("images/", "/other", 1),
])
def test_star_locations(location: str, path: str, expected: int) -> None:
    body = (f'[{{"location": "{location}", "tdm-reservation": 1}},'
            f' {{"location": "/", "tdm-reservation": 0}}]').encode()
    site = parse_tdmrep(body)
    assert site.reservation("https://x.org" + path) == expected
    signals = page_signals({}, agent="x", url="https://x.org" + path, tdmrep=site)
    assert signals.allows("ai-train") is (expected == 0)


def test_fetched_through_the_cache() -> None:
    star = b'[{"location": "*", "tdm-reservation": 1}]'
    with RawHTTPServer({TDMREP_PATH: respond(200, TWICE[0])}) as twice, \
            RawHTTPServer({TDMREP_PATH: respond(200, star)}) as starred, \
            RobotsCache(user_agent="ExampleBot/1.0") as cache:
        site = cache.tdmrep(twice.url("/p"))
        assert site.valid is False and site.reservation(twice.url("/p")) == 1
        assert cache.tdmrep(starred.url("/x/y")).reservation(starred.url("/x/y")) == 1


# -- issue 33 review: a file that cannot be read whole is invalid, as with duplicate keys --

BROKEN = [
    b'[{"location": "/", "tdm-reservation": 0},]',  # a trailing comma: not JSON
    b'{"location": "/", "tdm-reservation": 0}',  # an object, not an array of rules
    b'[{"location": "/", "tdm-reservation": 0}] trailing',
    b"\xef\xbb\xbf" + b"[" + b'{"location": "/a/", "tdm-reservation": 0},' * 10_000
    + b'{"location": "/", "tdm-reservation": 1}]',  # past the 10,000 rules read
]


@pytest.mark.parametrize("body", BROKEN)
def test_an_unreadable_file_is_invalid_and_reserved(body: bytes) -> None:
    site = parse_tdmrep(body)
    assert site.valid is False and site.reservation("https://x.org/a/b") == 1
    signals = page_signals({}, agent="x", url="https://x.org/a/b", tdmrep=site)
    assert signals.tdm_reservation == 1 and signals.tdm_invalid is True
    assert signals.allows("ai-train") is False


@pytest.mark.parametrize(("written", "reservation", "valid"), [
    ("1e-400", 1, False), ("0.0000000000000000000001", 1, False), ("-0.0", 0, True),
    ("0e5", 0, True), ("1.000", 1, True), ("9" * 5000, 1, False), ("1" + "0" * 5000, 1, False),
])
def test_numbers_are_read_exactly(written: str, reservation: int, valid: bool) -> None:
    site = parse_tdmrep(f'[{{"location": "/", "tdm-reservation": {written}}}]'.encode())
    rule = site.match("https://x.org/a")
    assert rule is not None and (rule.reservation, rule.valid) == (reservation, valid)
    signals = page_signals({}, agent="x", url="https://x.org/a", tdmrep=site)
    assert signals.tdm_invalid is (not valid)


def test_a_file_cut_at_the_size_limit_is_invalid_through_the_cache() -> None:
    from robotsrules.policy import Policy

    head = b'[{"location": "/open/", "tdm-reservation": 0},'
    body = head + b'{"location": "/x", "tdm-reservation": 0},' * 100 + b'{"location": "/", ' \
        b'"tdm-reservation": 1}]'
    with RawHTTPServer({TDMREP_PATH: respond(200, body)}) as cut, \
            RawHTTPServer({TDMREP_PATH: respond(200, BROKEN[0])}) as broken, \
            RobotsCache(user_agent="ExampleBot/1.0", policy=Policy(max_bytes=1000)) as cache:
        site = cache.tdmrep(cut.url("/open/a"))
        assert site.valid is False
        assert site.reservation(cut.url("/open/a")) == 1
        assert site.reservation(cut.url("/elsewhere")) == 1
        broken_site = cache.tdmrep(broken.url("/a"))
        assert broken_site.valid is False and broken_site.reservation(broken.url("/a")) == 1
        signals = page_signals({}, agent="x", url=cut.url("/elsewhere"), tdmrep=site)
        assert signals.tdm_invalid is True and signals.allows("ai-train") is False


# -- a soft 404: a page of markup served with 200 in the file's place states nothing --

SOFT_404 = [b"<!doctype html><title>Not found</title><p>no such page",
            b"\xef\xbb\xbf\r\n  <HTML><body>404", b"<?xml version='1.0'?><error/>",
            b"\n<html>" + b"x" * 5000]


@pytest.mark.parametrize("body", SOFT_404)
def test_a_page_of_markup_is_no_file(body: bytes) -> None:
    site = parse_tdmrep(body)
    assert site.state == "absent" and site.reservation("https://x.org/a") is None
    # cut at the size limit too: still a page, not a tdmrep.json
    assert parse_tdmrep(body, truncated=True).state == "absent"


def test_a_soft_404_through_the_cache_and_the_command_line() -> None:
    import io
    import json

    from robotsrules.cli import main
    from robotsrules.policy import Policy

    page = respond(200, b"<html><head></head><body>x</body></html>", content_type="text/html")
    with RawHTTPServer({TDMREP_PATH: respond(200, SOFT_404[-1], content_type="text/html"),
                        "/page": page}) as soft, \
            RobotsCache(user_agent="ExampleBot/1.0", policy=Policy(max_bytes=1000)) as cache:
        site = cache.tdmrep(soft.url("/a"))
        assert site.state == "absent" and site.reservation(soft.url("/a")) is None
        signals = page_signals({}, agent="x", url=soft.url("/a"), tdmrep=site)
        assert signals.tdm_invalid is False and signals.tdm_reservation is None
        out = io.StringIO()
        assert main(["page", soft.url("/page"), "--agent", "CCBot", "--json"], out=out) == 0
        data = json.loads(out.getvalue())
        assert data["tdm_reservation"] is None and data["tdm_invalid"] is False
