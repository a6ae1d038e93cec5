"""robots_url and origins: which robots.txt governs a URL (RFC 9309 §2.3, Google)."""

from __future__ import annotations

import pytest

import robotsrules
from robotsrules._scope import join_url, origin_of


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://example.com/a/b?c#d", "http://example.com/robots.txt"),
        ("HTTP://EXAMPLE.COM/", "http://example.com/robots.txt"),
        ("http://example.com:80/x", "http://example.com/robots.txt"),
        ("https://example.com:443/x", "https://example.com/robots.txt"),
        ("ftp://example.com:21/x", "ftp://example.com/robots.txt"),
        ("http://example.com:8080/x", "http://example.com:8080/robots.txt"),
        ("https://example.com:80/x", "https://example.com:80/robots.txt"),
        ("http://user:pass@example.com/x", "http://example.com/robots.txt"),
        ("http://example.com./x", "http://example.com/robots.txt"),
        ("http://B\u00fccher.example/x", "http://xn--bcher-kva.example/robots.txt"),
        ("https://\u4f8b\u3048.\u30c6\u30b9\u30c8/", "https://xn--r8jz45g.xn--zckzah/robots.txt"),
        ("http://fa\u00df.de/", "http://xn--fa-hia.de/robots.txt"),  # UTS-46, not transitional
        ("http://192.0.2.7:8000/x", "http://192.0.2.7:8000/robots.txt"),
        ("http://[2001:DB8::1]/x", "http://[2001:db8::1]/robots.txt"),
        ("https://example.com/folder/robots.txt", "https://example.com/robots.txt"),
        ("http://example.com", "http://example.com/robots.txt"),
    ],
)
def test_robots_url(url: str, expected: str) -> None:
    assert robotsrules.robots_url(url) == expected


@pytest.mark.parametrize(
    "url", ["mailto:a@example.com", "file:///etc/passwd", "/relative", "example.com/x",
            "http:///nohost", "http://", "http://exa mple.com/", "http://x:99999/", ""],
)
def test_robots_url_rejects_what_has_no_robots_txt(url: str) -> None:
    with pytest.raises(robotsrules.InvalidURL):
        robotsrules.robots_url(url)


# WHATWG URL Standard, host parser: percent-decode, UTF-8 decode, then IDNA (issue 22, item 3).
# Browsers fetch http://www.xn--mnich-kva.com/robots.txt for the first one; Firefox's
# netwerk/test/unit/test_bug412457.js has the second and the refused 0x80 below.
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://www.m%C3%BCnich.com/a", "http://www.xn--mnich-kva.com/robots.txt"),
        ("http://%e5%8d%81.com/", "http://xn--kkr.com/robots.txt"),
        ("http://\u5341%2ecom/", "http://xn--kkr.com/robots.txt"),
        ("HTTP://%45xample.COM%2E:80/x", "http://example.com/robots.txt"),
        ("http://%31%32%37.0.0.1:8080/", "http://127.0.0.1:8080/robots.txt"),
        ("http://u%40ser@a%2Db.example/", "http://a-b.example/robots.txt"),  # userinfo dropped
    ],
)
def test_percent_encoded_hosts_are_decoded_before_idna(url: str, expected: str) -> None:
    assert robotsrules.robots_url(url) == expected
    assert origin_of(url) + "/robots.txt" == expected


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://%80.com/", "octets that are not UTF-8 \\(0x80\\)"),
        ("http://a%2Fb.example/", "percent-decodes to '/'"),
        ("http://a%25b.example/", "percent-decodes to '%'"),
        ("http://a%00b.example/", "percent-decodes to '\\\\x00'"),
        ("http://a%20b.example/", "percent-decodes to ' '"),
        ("http://a%3Ab.example/", "percent-decodes to ':'"),
        ("http://a%40b.example/", "percent-decodes to '@'"),
        ("http://a%7Fb.example/", "percent-decodes to '\\\\x7f'"),
        ("http://a%5Cb.example/", "percent-decodes to '\\\\\\\\'"),
    ],
)
def test_hosts_decoding_to_forbidden_code_points_stay_refused(url: str, why: str) -> None:
    with pytest.raises(robotsrules.InvalidURL, match=why):
        robotsrules.robots_url(url)


def test_scope_is_scheme_host_and_port() -> None:
    assert origin_of("http://a.example/x") != origin_of("https://a.example/x")
    assert origin_of("http://a.example/x") != origin_of("http://b.a.example/x")
    assert origin_of("http://a.example:81/") != origin_of("http://a.example/")
    assert origin_of("HTTP://A.example:80/p") == origin_of("http://a.example/q")


def test_join_url_for_redirects() -> None:
    assert join_url("http://a/robots.txt", "/r") == "http://a/r"
    assert join_url("http://a/robots.txt", "https://b/robots.txt#x") == "https://b/robots.txt"
    assert join_url("http://a/robots.txt", "javascript:alert(1)") is None
