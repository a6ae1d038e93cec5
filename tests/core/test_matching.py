"""Unit tests of pattern.py, matcher.py and robotstxt.py: verdicts, explain, API contracts."""

from __future__ import annotations

import pickle
import threading

import pytest

import robotsrules
from robotsrules._rules._pattern import Pattern, matches


@pytest.mark.parametrize(
    ("pattern", "target", "expected"),
    [
        ("/", "/anything", True),
        ("/fish", "/fish.html", True),
        ("/fish", "/Fish", False),
        ("/fish*", "/fishheads/x", True),
        ("/*.php", "/a/b.php?x", True),
        ("/*.php$", "/a/b.php?x", False),
        ("/*.php$", "/a/b.php", True),
        ("/fish*.php", "/fishheads/catfish.php?parameters", True),
        ("/a$", "/a", True),
        ("/a$", "/ab", False),
        ("/a$b", "/a$b", True),  # '$' not at the end is a literal
        ("$", "/", False),
        ("*", "/x", True),
        ("/a*$", "/abc", True),
        ("/a**b", "/a-b", True),
        ("/*a*a*b", "/" + "a" * 50, False),
        ("/x*y$", "/xy", True),
        ("/x*y*$", "/xy", True),
        ("/ab*ba$", "/aba", False),  # pieces may not overlap
    ],
)
def test_pattern_matching(pattern: str, target: str, expected: bool) -> None:
    assert matches(pattern, target) is expected
    assert Pattern(pattern).match(target) is expected


BODY = b"""User-agent: *
Disallow: /private
Allow: /private/ok
Disallow: /*.pdf$

User-agent: special
Disallow: /
Allow: /public/index.html
Allow: /tie
Disallow: /tie
"""


def test_longest_match_and_groups() -> None:
    robots = robotsrules.parse(BODY)
    verdict = robots.explain("https://a.example/private/ok/x", agent="other")
    assert verdict.allowed and verdict.rule is not None and verdict.rule.line == 3
    assert verdict.scope == "global" and verdict.reason == "longest-match"
    assert [g.line for g in verdict.groups] == [1]
    assert not robots.allowed("https://a.example/doc.pdf", agent="other")
    assert robots.allowed("https://a.example/doc.pdf?x", agent="other")


def test_tie_goes_to_allow_and_index_html_rule() -> None:
    robots = robotsrules.parse(BODY)
    tie = robots.explain("/tie", agent="special")
    assert tie.allowed and tie.reason == "tie-allow" and tie.rule is not None and tie.rule.line == 9
    index = robots.explain("/public/", agent="special")
    assert index.allowed and index.reason == "index-html"
    assert not robots.allowed("/public/other", agent="special")


def test_no_group_and_no_match() -> None:
    assert robotsrules.parse(b"").explain("/x", agent="a").reason == "no-group"
    only_other = robotsrules.parse(b"User-agent: other\nDisallow: /\n")
    assert only_other.explain("/x", agent="a").scope == "none"
    assert robotsrules.parse(BODY).explain("/free", agent="a").reason == "no-match"


def test_robots_txt_is_always_allowed() -> None:
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n")
    assert robots.allowed("https://a/robots.txt", agent="x")
    assert robots.explain("/robots.txt", agent="x").reason == "robots-txt"
    assert not robots.allowed("/robots.txt?x", agent="x")


def test_several_agents_merge_their_groups() -> None:
    body = b"User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n\nUser-agent: *\nDisallow: /\n"
    robots = robotsrules.parse(body)
    rules = robots.for_agent(["a", "b"])
    assert not rules.allowed("/a") and not rules.allowed("/b") and rules.allowed("/c")
    assert [g.line for g in rules.groups] == [1, 4]
    assert robots.allowed("/c", agent=("A", "B/2.0"))


def test_specific_group_without_rules_still_hides_the_global_group() -> None:
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n\nUser-agent: a\n")
    assert robots.allowed("/x", agent="a") and not robots.allowed("/x", agent="b")


@pytest.mark.parametrize("agent", ["", "Googlebot 2", "bot!", "Mozilla/5.0 (compatible)", [], 3, b"x"])
def test_bad_agents_raise_a_value_error_saying_what_to_pass(agent: object) -> None:
    robots = robotsrules.parse(BODY)
    with pytest.raises(robotsrules.InvalidAgent, match=r"pass|must be") as info:
        robots.allowed("/x", agent=agent)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("url", ["relative/path", "example.com/x", "", "mailto:a@b", "http:/x"])
def test_bad_urls_raise_a_value_error(url: str) -> None:
    with pytest.raises(robotsrules.InvalidURL):
        robotsrules.parse(BODY).allowed(url, agent="a")


def test_url_canonicalisation() -> None:
    m = robotsrules.match_target
    assert m("http://a.example") == "/"
    assert m("http://a.example?q") == "/?q"
    assert m("http://a.example;p") == "/;p"
    assert m("http://a.example#f/x") == "/"
    assert m("https://a.example/x/../y//z#f") == "/x/../y//z"
    assert m("http://a.example/caf\u00e9") == "/caf%C3%A9"
    assert m("/a%3cb%2F") == "/a%3Cb%2F"
    assert m("//host/p?q") == "/p?q"
    assert m("/a\x00b") == "/a%00b"


def test_immutable_picklable_and_equal_after_round_trip() -> None:
    robots = robotsrules.parse(BODY)
    with pytest.raises(AttributeError):
        robots.groups = ()  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(robots))
    assert copy == robots and hash(copy) == hash(robots)
    assert copy.allowed("/private/ok", agent="x")
    rules = robots.for_agent("special")
    assert pickle.loads(pickle.dumps(robots.groups)) == robots.groups
    assert rules is robots.for_agent("special")  # compiled once


def test_allow_all_and_disallow_all() -> None:
    assert robotsrules.RobotsTxt.allow_all().allowed("/x", agent="a")
    deny = robotsrules.RobotsTxt.disallow_all()
    assert not deny.allowed("/x", agent="a") and not deny.allowed("/", agent=["a", "b"])
    assert deny.explain("/x", agent="a").reason == "disallow-all"
    assert deny.explain("/x", agent="a").rule is None  # no line of a file decided
    assert deny.allowed("/robots.txt", agent="a")
    assert pickle.loads(pickle.dumps(deny)).synthetic == "disallow-all"


def test_thread_safety_of_shared_objects() -> None:
    robots = robotsrules.parse(BODY)
    errors = []

    def work(agent: str) -> None:
        try:
            for _ in range(300):
                assert robots.allowed("/private/ok", agent=agent)
                assert not robots.allowed("/private/no", agent=agent)
        except Exception as error:  # pragma: no cover - only on failure
            errors.append(error)

    threads = [threading.Thread(target=work, args=("bot" + "abc"[i % 3],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_public_names_sorted_and_complete() -> None:
    def isort_style(name: str) -> tuple[int, str]:  # ruff RUF022: CONSTANTS, Classes, functions
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert robotsrules.__all__ == sorted(robotsrules.__all__, key=isort_style)
    public = {n for n in dir(robotsrules) if (not n.startswith("_") and n[0].isupper()) or n in {
        "parse", "match_target", "agent_tokens"}}
    assert public <= set(robotsrules.__all__) | {"TYPE_CHECKING"}


def test_a_rule_is_filed_under_its_own_head_after_one_it_starts_with() -> None:
    # Rules sharing a head are filed together without re-reading it: "/a$" starts with the
    # head "/a$" of "/a$b" before it, but it is "/a" anchored, too short for any head.
    rules = "".join(f"Allow: /x{n}y\n" for n in range(12))
    robots = robotsrules.parse("User-agent: *\n" + rules + "Disallow: /a$b\nDisallow: /a$\n"
                               "Disallow: /b*\nAllow: /b*/\nDisallow: /cd$\n")
    compiled = robots.for_agent("bot")
    assert compiled._small is None  # more rules than the small list holds: heads in use
    assert not compiled.allowed("/a") and compiled.allowed("/ab")
    assert not compiled.allowed("/a$b") and compiled.allowed("/a$c")
    assert not compiled.allowed("/bx") and compiled.allowed("/b/")
    assert not compiled.allowed("/cd") and compiled.allowed("/cde")


def test_a_crawlers_name_is_read_once_and_the_table_stays_bounded() -> None:
    from robotsrules._rules import _agents

    _agents._KNOWN.clear()  # a cache: emptied, it is filled again as names are read
    assert robotsrules.agent_tokens("FirstReadBot/1.2") == ("firstreadbot",)
    assert _agents._KNOWN["FirstReadBot/1.2"] == ("firstreadbot",)
    with pytest.raises(robotsrules.InvalidAgent):  # an invalid name raises every time
        robotsrules.agent_tokens("not a token")
    with pytest.raises(robotsrules.InvalidAgent):
        robotsrules.agent_tokens("not a token")
    assert "not a token" not in _agents._KNOWN

    class Name(str):
        pass

    assert robotsrules.agent_tokens(Name("SubclassBot")) == ("subclassbot",)
    assert "SubclassBot" not in _agents._KNOWN  # only plain str are kept
    names = [f"ManyBot-{a}{b}" for a in "ABCDEFGHIJKLMNOP" for b in "abcdefghijklmnopqrstuvwxyz"]
    assert len(names) > _agents._KNOWN_LIMIT
    for name in names:
        assert robotsrules.agent_tokens(name) == (name.lower(),)
    assert len(_agents._KNOWN) == _agents._KNOWN_LIMIT
    assert robotsrules.agent_tokens(names[-1]) == (names[-1].lower(),)  # read again

