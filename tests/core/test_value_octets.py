"""URL-valued lines keep their octets (issue 22, item 2).

A crawler is handed ``Sitemap`` and ``Host`` values: an octet that is not UTF-8 is
percent-encoded as rules encode it (``%E9``), valid UTF-8 stays as read, and no U+FFFD is
ever added (a crawler could not fetch it). Fields meant for display (the per-line report)
may show U+FFFD.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules._urls import url_text


def test_latin1_sitemap_is_percent_encoded_as_the_rules_are() -> None:
    body = (b"User-agent: *\nDisallow: /caf\xe9\nSitemap: https://x.example/caf\xe9.xml\n"
            b"Site-map: https://x.example/caf\xe9/2.xml\n")
    robots = robotsrules.parse(body)
    assert robots.sitemaps == ("https://x.example/caf%E9.xml", "https://x.example/caf%E9/2.xml")
    assert robots.groups[0].rules[0].pattern == "/caf%E9"  # the same octet, the same escape
    # The per-line report is for display: a replacement character is allowed there.
    assert robots.lines[2].value == "https://x.example/caf\ufffd.xml"


def test_utf8_sitemap_stays_as_read() -> None:
    body = "Sitemap: https://ja.example.org/テスト-サイトマップ.xml\n".encode()
    assert robotsrules.parse(body).sitemaps == ("https://ja.example.org/テスト-サイトマップ.xml",)


def test_mixed_octets_and_every_mode() -> None:
    body = b"Sitemap: https://x.example/\xc3\xa9\xe9\xff%41.xml\nHost: b\xfcro.example\n"
    for mode in ("google", "rfc", "legacy"):
        robots = robotsrules.parse(body, mode=mode)  # type: ignore[arg-type]
        assert robots.sitemaps == ("https://x.example/\u00e9%E9%FF%41.xml",)
        assert robots.hosts == ("b%FCro.example",)  # handed on as written, octet for octet


def test_text_given_with_surrogateescape_reads_as_its_bytes() -> None:
    text = b"Sitemap: https://x.example/caf\xe9.xml\n".decode("utf-8", "surrogateescape")
    assert robotsrules.parse(text).sitemaps == ("https://x.example/caf%E9.xml",)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([b"a", b"/", b"\xe9", b"\xc3\xa9", b"\xe2\x82\xac", b"\xff",
                                 b"\xed\xa0\x80", b"\xf0\x9f\x98", b"%"]), max_size=12))
def test_no_replacement_character_and_nothing_lost(pieces: list[bytes]) -> None:
    value = b"https://x.example/" + b"".join(pieces)
    (sitemap,) = robotsrules.parse(b"Sitemap: " + value + b"\n").sitemaps
    assert "\ufffd" not in sitemap
    assert url_text(value.decode("latin-1")) == sitemap
    # Nothing lost: undo our upper-case escapes (the pieces hold none) and the octets return.
    back = re.sub(rb"%([0-9A-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  sitemap.encode("utf-8"))
    assert back == value
