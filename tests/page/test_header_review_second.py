"""The second review of the page header readers (issue 33 §3): readings that answered "no
signal" where the source said no, through ``page_signals``, ``robotsrules page`` and the
raw block a WARC record carries."""

from __future__ import annotations

from typing import Any, Set, Tuple

import pytest

from robotsrules import page_signals


def _applied(signals: Any) -> Set[Tuple[str, str]]:
    return {(d.rule, d.scope) for d in signals.directives if d.applies and d.valid}


# Robots-Tag members whose name is a rule: no crawler has a rule's name.
@pytest.mark.parametrize(("value", "rules"), [
    ("noindex;noai", {"noindex", "noai"}),
    ("noindex; nofollow", {"noindex", "nofollow"}),
    ("noai;noimageai", {"noai", "noimageai"}),
    ("all;noai", {"all", "noai"}),
    ("noai;max-snippet=0", {"noai", "max-snippet"}),
])
def test_robots_tag_member_named_by_a_rule_is_read_as_rules_for_everyone(
        value: str, rules: Set[str]) -> None:
    for agent in ("GPTBot", "OtherBot"):
        signals = page_signals({"Robots-Tag": value}, agent=agent)
        assert {(rule, "*") for rule in rules} <= _applied(signals)
    raw = f"HTTP/1.1 200 OK\r\nRobots-Tag: {value}\r\n\r\n".encode()
    assert {(rule, "*") for rule in rules} <= _applied(page_signals(raw, agent="GPTBot"))


# Members that are valid Tokens holding a colon: the X-Robots-Tag syntax.
@pytest.mark.parametrize(("name", "value", "scope"), [
    ("Robots-Tag", "gptbot:noai", "gptbot"),
    ("Robots-Tag", "GPTBot/1.0:noai", "gptbot"),
    ("Robots-Tag", "*:noai", "*"),
    ("Robots-Tag", "*: noai", "*"),
    ("Robots-Tag", "gptbot:noindex;noai", "gptbot"),
    ("X-Robots-Tag", "*: noai", "*"),
    ("X-Robots-Tag", "*:noai", "*"),
])
def test_a_colon_member_is_read_the_x_robots_tag_way(name: str, value: str, scope: str) -> None:
    signals = page_signals({name: value}, agent="GPTBot")
    assert signals.noai is True
    assert ("noai", scope) in _applied(signals)
    if scope == "*":
        assert page_signals({name: value}, agent="OtherBot").noai is True
    else:
        assert page_signals({name: value}, agent="OtherBot").noai is not True


# A known crawler's name where a colon is missing scopes what follows to it, and the earlier
# scope keeps it too (restrictive for both); a User-Agent comment before the colon is skipped.
@pytest.mark.parametrize(("value", "also"), [
    ("googlebot: nofollow, GPTBot noai", "googlebot"),
    ("otherbot: noindex, GPTBot/1.0;noai", "otherbot"),
    ("otherbot: noindex; GPTBot noai", "otherbot"),
    ("GPTBot/1.0 (+https://openai.com/gptbot): noai", None),
    ("GPTBot (compatible): noai", None),
])
def test_x_robots_tag_crawler_word_without_colon_scopes_what_follows(
        value: str, also: Any) -> None:
    signals = page_signals({"X-Robots-Tag": value}, agent="GPTBot")
    assert signals.noai is True
    assert ("noai", "gptbot") in _applied(signals)
    if also is not None:
        assert page_signals({"X-Robots-Tag": value}, agent=also).noai is True
    assert page_signals({"X-Robots-Tag": value}, agent="ThirdBot").noai is not True


_HTML = '<html><head><meta name="robots" content="noindex, noai"></head><body>x</body></html>'


# UTF-16 without a byte order mark under every label the Encoding Standard gives it.
@pytest.mark.parametrize(("label", "codec"), [
    ("utf-16", "utf-16-le"), ("unicode", "utf-16-le"), ("ucs-2", "utf-16-le"),
    ("csUnicode", "utf-16-le"), ("iso-10646-ucs-2", "utf-16-le"),
    ("unicodefeff", "utf-16-le"), ("unicodeFFFE", "utf-16-be"), ('"utf-16"', "utf-16-le"),
])
def test_utf16_body_without_bom_is_read_under_every_label(label: str, codec: str) -> None:
    body = _HTML.encode(codec)
    for content_type in (f"text/html; charset={label}",
                         f"text/html; charset=utf-8, text/html; charset={label}"):
        signals = page_signals({"Content-Type": content_type}, body, agent="GPTBot")
        assert signals.index is False and signals.noai is True
    raw = f"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset={label}\r\n\r\n".encode()
    assert page_signals(raw, body, agent="GPTBot").noai is True


# An ASCII page whose label or BOM says UTF-16 or a replacement encoding: the reading as
# autodetection reads the bytes counts for its restrictions only.
@pytest.mark.parametrize("content_type", [
    "text/html; charset=utf-16", "text/html; charset=utf-16be", "text/html; charset=iso-2022-kr",
    "text/html; charset=hz-gb-2312", "text/html; charset=iso-2022-cn", "text/html",
])
@pytest.mark.parametrize("prefix", [b"", b"\xff\xfe", b"\xfe\xff"])
def test_ascii_page_under_a_contrary_label_restricts(content_type: str, prefix: bytes) -> None:
    if content_type == "text/html" and not prefix:
        body = _HTML.replace("<head>", '<head><meta charset="iso-2022-kr">').encode()
    else:
        body = prefix + _HTML.encode()
    signals = page_signals({"Content-Type": content_type}, body, agent="GPTBot")
    assert signals.index is False and signals.noai is True
    assert all(not d.in_head for d in signals.directives if d.source == "meta")


def test_the_second_reading_never_permits() -> None:
    # An ASCII "index, max-snippet:-1" under a UTF-16 label: read, but only to restrict.
    body = b'<meta name="robots" content="max-snippet:-1"><meta name="GPTBot" content="all">'
    signals = page_signals({"Content-Type": "text/html; charset=utf-16"}, body, agent="GPTBot")
    assert all(not d.in_head for d in signals.directives if d.source == "meta")
    # A true UTF-16 page is read as it is, once.
    real = '<meta name="robots" content="noai">'.encode("utf-16-le")
    signals = page_signals({"Content-Type": "text/html; charset=utf-16"}, real, agent="GPTBot")
    assert signals.noai is True
    assert [d.in_head for d in signals.directives if d.source == "meta"] == [True]
