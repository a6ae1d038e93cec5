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
