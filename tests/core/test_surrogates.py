"""Lone surrogates (SPEC D1, issue 13 finding 29).

Python decodes bytes that are not UTF-8 with ``surrogateescape`` (PEP 383): the byte 0xF0
becomes ``"\\udcf0"``. Text made that way must read as the bytes it came from, in URLs and in
rules given as text: ``/v1/\\udcf0`` is ``/v1/%F0`` (never ``%ED%B3%B0``, the UTF-8 of the
surrogate code point). Other lone surrogates stand for no byte: in content they read as
U+FFFD and never raise; in a URL they are the caller's mistake and raise ``InvalidURL``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules._urls import match_target, text_octets, url_octets
from robotsrules.errors import InvalidURL

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _escaped(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def test_text_octets() -> None:
    assert text_octets("/v1/\udcf0") == b"/v1/\xf0"
    assert text_octets("/\udc80\udcff") == b"/\x80\xff"
    assert text_octets("caf\u00e9") == b"caf\xc3\xa9"
    # Not from surrogateescape: no byte to stand for; in content read as U+FFFD, never raising.
    fffd = "\ufffd".encode()
    assert text_octets("/\ud800/\udc7f/\udd00") == b"/" + fffd + b"/" + fffd + b"/" + fffd
    assert text_octets("\ud83d\udc80") == fffd + b"\x80"  # the escaped 0x80 stays itself


@SETTINGS
@given(st.binary(max_size=64))
def test_text_octets_undoes_surrogateescape(data: bytes) -> None:
    assert text_octets(_escaped(data)) == data


def test_url_surrogate_is_its_byte() -> None:
    assert match_target("/v1/\udcf0") == "/v1/%F0"
    assert match_target("https://e.com/v1/\udcf0?q=\udc80") == "/v1/%F0?q=%80"
    assert robotsrules.parse("", mode="rfc").explain("/v1/\udcf0", agent="a").target == "/v1/%F0"


@SETTINGS
@given(st.binary(max_size=40))
def test_url_from_surrogateescape_matches_like_its_bytes(path: bytes) -> None:
    path = path.replace(b"#", b"")
    # What the URL's bytes mean: every octet >= 0x80 (and NUL) percent-encoded (SPEC D1).
    encoded = "".join(f"%{octet:02X}" if octet >= 0x80 or octet == 0 else chr(octet)
                      for octet in path)
    assert match_target("/" + _escaped(path)) == match_target("/" + encoded)


def test_rule_given_as_text() -> None:
    robots = robotsrules.parse("User-agent: *\nDisallow: /v1/\udcf0\n")
    assert robots.groups[0].rules[0].pattern == "/v1/%F0"
    assert robots.allowed("/v1/%F0", agent="a") is False
    assert robots.allowed("/v1/\udcf0", agent="a") is False
    assert robots.allowed("/v1/%ED%B3%B0", agent="a") is True
    assert robots.source == b"User-agent: *\nDisallow: /v1/\xf0\n"
    # Lone surrogates that stand for no byte are content: read as U+FFFD, never raised on.
    other = robotsrules.parse("User-agent: *\nDisallow: /\ud800\n")
    assert other.groups[0].rules[0].pattern == "/%EF%BF%BD"
    assert other.allowed("/\ufffd", agent="a") is False
    assert other.allowed("/x", agent="a") is True
    robotsrules.lint("User-agent: *\nDisallow: /\ud800\n")


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
def test_url_surrogate_is_its_byte_in_every_mode(mode: str) -> None:
    # Issue 33: legacy mode raised InvalidURL for a surrogate that stands for a byte.
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /caf%C3%A9\nDisallow: /v1/%F0\n"
                               b"Allow: /\n", mode=mode)
    assert robots.allowed("/caf\udcc3\udca9", agent="a") is False  # the UTF-8 of e-acute
    assert robots.allowed("https://e.com/caf\udcc3\udca9x", agent="a") is False
    assert robots.allowed("/caf\udcc3", agent="a") is True
    assert robots.allowed("/v2/\udcf0", agent="a") is True
    # One byte that is not UTF-8: as the URL written with %F0 reads in this mode.
    assert (robots.allowed("/v1/\udcf0", agent="a")
            is robots.allowed("/v1/%F0", agent="a"))
    assert robots.explain("/v1/\udcf0", agent="a").target == robots.explain(
        "/v1/%F0", agent="a").target


@SETTINGS
@given(st.binary(max_size=24))
def test_legacy_surrogate_url_reads_as_its_percent_escapes(path: bytes) -> None:
    path = path.replace(b"#", b"").replace(b"?", b"").replace(b";", b"")
    encoded = "".join(f"%{octet:02X}" if octet >= 0x80 else chr(octet) for octet in path)
    robots = robotsrules.parse(b"User-agent: *\nAllow: /\n", mode="legacy")
    assert (robots.explain("/x" + _escaped(path), agent="a").target
            == robots.explain("/x" + encoded, agent="a").target)


# SPEC D1 (issue 22, item 4): a URL given as str with a lone surrogate outside U+DC80-U+DCFF
# stands for no byte; urllib.parse.quote refuses it too.
OTHER_SURROGATE_URLS = ["/\ud800", "/a\udc7f", "/a\udd00b", "/\udfff?q", "/\ud83d",
                        "https://e.com/x/\ud800", "https://h\ud800.example/x",
                        "https://e.com/x#\udfff", "/x?q=\udbff"]


@pytest.mark.parametrize("url", OTHER_SURROGATE_URLS)
def test_url_with_a_surrogate_that_stands_for_no_byte_raises(url: str) -> None:
    with pytest.raises(InvalidURL, match=r"lone surrogate U\+D[89A-F][0-9A-F]{2}"):
        match_target(url)
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n")
    for mode in ("google", "rfc", "legacy"):
        with pytest.raises(InvalidURL):
            robotsrules.parse(b"User-agent: *\nAllow: /\n", mode=mode).allowed(url, agent="a")
    with pytest.raises(InvalidURL):
        robots.explain(url, agent="a")
    with pytest.raises(InvalidURL):
        robots.usage(url, agent="a")
    with pytest.raises(UnicodeEncodeError):
        __import__("urllib.parse").parse.quote(url)  # the standard library refuses it too


def test_url_octets() -> None:
    assert url_octets("/v1/\udcf0\u00e9") == b"/v1/\xf0\xc3\xa9"
    with pytest.raises(InvalidURL, match="U\\+D800 at index 1"):
        url_octets("/\ud800")


BODIES: list[bytes] = [
    b"User-agent: *\nDisallow: /caf\xe9\nAllow: /caf\xc3\xa9/\n",
    b"\xef\xbb\xbfUser-agent: b\xf6t\nDisallow: /\xff\xfe\n",
    b"User-agent: *\r\nDisallow: /a\x80b*$\r\nSitemap: https://e.com/\xe4.xml\r\n",
]


def _same_reading(body: bytes) -> None:
    text = _escaped(body)
    from_text, from_bytes = robotsrules.parse(text), robotsrules.parse(body)
    assert from_text.source == from_bytes.source
    assert from_text.groups == from_bytes.groups
    assert from_text.sitemaps == from_bytes.sitemaps
    assert robotsrules.lint(text) == robotsrules.lint(body)


def test_text_decoded_with_surrogateescape_reads_as_its_bytes() -> None:
    for body in BODIES:
        _same_reading(body)


@SETTINGS
@given(st.lists(st.sampled_from([b"User-agent: *", b"User-agent: \xe9t\xe9", b"Disallow: /\xf0",
                                 b"Allow: /\xc3\xa9\x80", b"Disallow: /a\xff*", b"Sitemap: \xfe",
                                 b"#\xe9", b""]), max_size=8))
def test_random_files_read_alike_as_text(lines: list[bytes]) -> None:
    _same_reading(b"\n".join(lines))


def test_corpus_files_read_alike_as_text(corpus_dir: str) -> None:
    robots = os.path.join(corpus_dir, "robots")
    checked = odd = 0
    for name in sorted(os.listdir(robots)):
        with open(os.path.join(robots, name), "rb") as handle:
            body = handle.read()
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            odd += 1  # the files where surrogateescape makes surrogates
        else:
            if checked - odd > 300:
                continue
        checked += 1
        _same_reading(body)
    assert odd > 0, "the corpus has no non-UTF-8 file: this test proves nothing"
