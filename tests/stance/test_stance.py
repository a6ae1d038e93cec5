"""RobotsTxt.stance: exact against brute force over generated paths, and on the corpus.

The stance is checked both ways. Soundness: every example path and every witness the
exploration found for a deciding rule is re-checked with :meth:`RobotsTxt.explain` (so a
``"some"`` stance and every line it reports are proven by a concrete path). Completeness
(evidence): no brute-forced path contradicts an ``"all"``/``"none"`` stance, and every rule
that decides a brute-forced path is among ``lines``.
"""

from __future__ import annotations

import itertools
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules._pattern import Pattern
from robotsrules._rules._precedence import LINE_MASK
from robotsrules._rules._stance import (
    _DEAD,
    _DONE,
    Stance,
    StanceTooComplex,
    _build,
    _escape_step,
    _explore,
    stance_of,
    stance_rows,
)
from robotsrules._rules._urls import match_target, rfc_target
from robotsrules.errors import RobotsError
from tests.corpus import urls_by_host

_PATH_CHARS = "ab/x%A."
_BRUTE: list[str] = ["/" + "".join(t) for n in range(5) for t in itertools.product(_PATH_CHARS, repeat=n)]


_ORIGIN = "http://example.com"  # targets are checked as absolute URLs ("//a" is a target)


def _check(body: str, agent: str, mode: str, extra: tuple[str, ...] = ()) -> Stance:
    parsed = robotsrules.parse(body, mode=mode)  # type: ignore[arg-type]
    robots = _Absolute(parsed)
    stance = parsed.stance(agent)
    canonical = rfc_target if mode == "rfc" else match_target
    rules = parsed.for_agent(agent)
    # Soundness: the examples and the witness of every deciding rule.
    for path in stance.disallowed:
        assert canonical(_ORIGIN + path) == path and path != "/robots.txt"
        assert not robots.allowed(path, agent=agent), (body, path)
    for path in stance.allowed:
        assert canonical(_ORIGIN + path) == path and path != "/robots.txt"
        assert robots.allowed(path, agent=agent), (body, path)
    if stance.kind == "some":
        assert stance.disallowed and stance.allowed
    # The product search alone (no guesses) must find the same deciding rules.
    searched = _explore(stance_rows(rules), mode == "rfc", 10_000_000)
    guessed = _explore(stance_rows(rules), mode == "rfc", 10_000_000, rules._decide)
    assert searched.complete and guessed.complete
    assert set(searched.verdicts) == set(guessed.verdicts), body
    for found in (searched, guessed):
        for key, path in found.verdicts.items():
            verdict = robots.explain(path, agent=agent)
            line = verdict.rule.line if verdict.rule else None
            assert line == (None if key < 0 else LINE_MASK - (key & LINE_MASK)), (body, path)
    # Completeness: brute force over short paths and paths built from the rules.
    lines = {rule.line for rule in stance.lines}
    paths = set(_BRUTE) | set(extra)
    for rule in rules.rules:
        body_of = rule.pattern.rstrip("$")
        for fill in ("", "x", "a/", "A%"):
            path = body_of.replace("*", fill)
            if path.startswith("/"):
                paths.update((path, path + "x", path + "/"))
    for path in paths:
        verdict = robots.explain(path, agent=agent)
        if verdict.target == "/robots.txt":
            continue
        if stance.kind == "all":
            assert not verdict.allowed, (body, path, stance)
        if stance.kind == "none":
            assert verdict.allowed, (body, path, stance)
        if verdict.rule is not None:
            assert verdict.rule.line in lines, (body, path, verdict.rule, stance)
    return stance


class _Absolute:
    """A RobotsTxt whose allowed/explain take targets and check them as absolute URLs."""

    def __init__(self, robots: robotsrules.RobotsTxt) -> None:
        self.robots = robots

    def allowed(self, path: str, *, agent: str) -> bool:
        return self.robots.allowed(_ORIGIN + path, agent=agent)

    def explain(self, path: str, *, agent: str) -> robotsrules.Verdict:
        return self.robots.explain(_ORIGIN + path, agent=agent)


_pieces = st.sampled_from(
    ["/", "a", "b", "*", "$", "%", "A", ".", "x", "index.html", "%41", "%2a", "aa", "aab", "aba"]
)
_pattern = st.builds(lambda first, rest: first + "".join(rest),
                     st.sampled_from(["/", "/", "/a", "*", "/*", "a", "/index.htm"]),
                     st.lists(_pieces, max_size=4))
_rule = st.tuples(st.sampled_from(["Allow", "Disallow"]), _pattern)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.lists(_rule, max_size=6), mode=st.sampled_from(["google", "rfc"]))
def test_stance_matches_brute_force(rules: list[tuple[str, str]], mode: str) -> None:
    body = "User-agent: *\n" + "".join(f"{d}: {p}\n" for d, p in rules)
    _check(body, "ExampleBot", mode)


@pytest.mark.parametrize(
    ("body", "kind", "lines"),
    [
        ("User-agent: *\nDisallow: /\n", "all", [2]),
        ("User-agent: *\nDisallow: /*\n", "all", [2]),
        ("User-agent: *\nDisallow: *\n", "all", [2]),
        ("User-agent: *\nDisallow:\n", "none", []),
        ("", "none", []),
        ("User-agent: *\nAllow: /\nDisallow: /\n", "none", [2]),  # allow wins the tie
        ("User-agent: *\nDisallow: /\nAllow: /$\n", "some", [2, 3]),
        ("User-agent: *\nDisallow: /\nAllow: /index.html\n", "some", [2, 3]),
        ("User-agent: *\nDisallow: /private\n", "some", [2]),
        # Shadowed rules decide nothing: not reported.
        ("User-agent: *\nDisallow: /\nDisallow: /a\nAllow: /\n", "some", [3, 4]),
        ("User-agent: *\nDisallow: /a\nDisallow: /a\n", "some", [2]),
        # Every path but /robots.txt: still "all".
        ("User-agent: *\nDisallow: /\nAllow: /robots.txt$\n", "all", [2]),
        # Escapes are upper-cased on both sides: "%2a" allows the target "/%2A".
        ("User-agent: *\nDisallow: /\nAllow: /%2a$\n", "some", [2, 3]),
        # "$" in the middle is literal (Google): "/a$b" is a path.
        ("User-agent: *\nDisallow: /\nAllow: /a$b\n", "some", [2, 3]),
        ("User-agent: *\nDisallow: /*$\n", "all", [2]),
        ("User-agent: *\nDisallow: /$\nDisallow: /?*\nDisallow: /*\n", "all", [2, 3, 4]),
    ],
)
def test_stance_cases(body: str, kind: str, lines: list[int]) -> None:
    stance = _check(body, "ExampleBot", "google", ("/robots.txt", "/a$b", "/%2A"))
    assert stance.kind == kind
    assert [rule.line for rule in stance.lines] == lines


def test_stance_rfc_mode_differs_where_the_rfc_does() -> None:
    body = "User-agent: *\nDisallow: /\nAllow: /index.html\n"
    assert _check(body, "x", "google").allowed == ("/", "/index.html")
    assert _check(body, "x", "rfc").allowed == ("/index.html",)
    # An escaped unreserved character is decoded in RFC mode: "/%41" is the target "/A".
    body = "User-agent: *\nDisallow: /\nAllow: /%41$\n"
    assert _check(body, "x", "rfc").allowed == ("/A",)
    # A literal "*" in an RFC target is always "%2A", which "/*" and "%2A" patterns see.
    body = "User-agent: *\nDisallow: /\nAllow: /%2A\n"
    assert _check(body, "x", "rfc").allowed == ("/%2A",)


def test_stance_groups_and_fetch_outcomes() -> None:
    body = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n"
    robots = robotsrules.parse(body)
    gpt = robots.stance("GPTBot")
    assert (gpt.kind, gpt.scope, gpt.agents, gpt.blocked) == ("all", "specific", ("gptbot",), True)
    other = robots.stance("Googlebot")
    assert (other.kind, other.scope, other.disallowed, other.allowed) == (
        "some", "global", ("/admin",), ("/",))
    assert robots.stance(["GPTBot", "Googlebot"]).kind == "all"
    assert robotsrules.RobotsTxt.allow_all().stance("x").kind == "none"
    assert robotsrules.RobotsTxt.disallow_all().stance("x").kind == "all"
    with pytest.raises(RobotsError):
        robotsrules.parse(body, mode="legacy").stance("GPTBot")


def test_stance_bounded_on_hostile_rules() -> None:
    # "Disallow: /" is outranked everywhere by "Allow: /*$", but proving that means exploring
    # the product of the other anchored rules' automata, which doubles with each letter.
    def body(letters: str, extra: str = "") -> str:
        allows = "".join(f"Allow: /*{c}*{c}$\n" for c in letters)
        return "User-agent: *\nDisallow: /\nAllow: /*$\n" + allows + extra

    settled = robotsrules.parse(body("ab")).stance("x")
    assert (settled.kind, settled.complete) == ("none", True)
    assert 2 not in [rule.line for rule in settled.lines]
    # Too many: refuse rather than guess ...
    with pytest.raises(StanceTooComplex):
        robotsrules.parse(body("abcdefgh")).stance("x")
    with pytest.raises(StanceTooComplex):
        stance_of(robotsrules.parse(body("ab")).for_agent("x"), max_work=50)
    # ... unless both verdicts were already found: the kind is then certain, lines may not be.
    partial = robotsrules.parse(body("abcdefgh", "Disallow: /private$\n")).stance("x")
    assert (partial.kind, partial.complete, partial.disallowed) == ("some", False, ("/private",))


def _corpus_check(corpus_dir: str, names: list[str]) -> set[str]:
    urls = urls_by_host(corpus_dir)
    kinds: set[str] = set()
    checked = 0
    for name in names:
        with open(os.path.join(corpus_dir, "robots", name), "rb") as handle:
            robots = robotsrules.parse(handle.read())
        for agent in ("Googlebot", "GPTBot", "QuuxCrawler"):
            stance = robots.stance(agent)
            kinds.add(stance.kind)
            lines = {rule.line for rule in stance.lines}
            for path in stance.disallowed:
                assert not robots.allowed(_ORIGIN + path, agent=agent), (name, agent, path)
            for path in stance.allowed:
                assert robots.allowed(_ORIGIN + path, agent=agent), (name, agent, path)
            for url in urls.get(name[: -len(".txt")], []):
                try:
                    verdict = robots.explain(url, agent=agent)
                except robotsrules.InvalidURL:
                    continue
                checked += 1
                if verdict.reason == "robots-txt":
                    continue
                if stance.kind == "all":
                    assert not verdict.allowed, (name, agent, url, stance)
                if stance.kind == "none":
                    assert verdict.allowed, (name, agent, url, stance)
                if verdict.rule is not None and stance.complete:
                    assert verdict.rule.line in lines, (name, agent, url, verdict.rule)
    assert checked > 0
    return kinds


@pytest.mark.parametrize("shard", range(2))
def test_stance_on_corpus_sample(corpus_dir: str, shard: int) -> None:
    """One corpus file in 40, three agents: the stance agrees with the verdicts of the URLs
    listed for its host; its examples are proven."""
    names = sorted(os.listdir(os.path.join(corpus_dir, "robots")))[shard::80]
    assert _corpus_check(corpus_dir, names) == {"all", "none", "some"}


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(16))
def test_stance_on_whole_corpus(corpus_dir: str, shard: int) -> None:
    names = sorted(os.listdir(os.path.join(corpus_dir, "robots")))[shard::16]
    assert _corpus_check(corpus_dir, names) == {"all", "none", "some"}


def _walk(pattern: str, target: str) -> bool:
    """Run one rule's automaton over ``target`` (True: the rule matches it)."""
    automaton = _build(pattern)
    state = automaton.start
    for char in target:
        if state == _DONE:
            return True
        if state == _DEAD:
            return False
        nxt = automaton.step[state].get(char)
        state = automaton.other[state] if nxt is None else nxt
    return state == _DONE or (state >= 0 and automaton.final[state])


@settings(max_examples=1500, deadline=None)
@given(pattern=st.text("ab/*$", min_size=1, max_size=8),
       target=st.text("ab/", max_size=10))
def test_rule_automaton_matches_like_pattern(pattern: str, target: str) -> None:
    assert _walk(pattern, target) == Pattern(pattern).match(target), (pattern, target)


@settings(max_examples=1500, deadline=None)
@given(text=st.text("%aA0gG/*$", max_size=8), rfc=st.booleans())
def test_escape_automaton_accepts_exactly_canonical_targets(text: str, rfc: bool) -> None:
    canonical = rfc_target if rfc else match_target
    state, ok = 0, True
    for char in text:
        if rfc and char in "*$":
            ok = False
            break
        state = _escape_step(state, char, rfc)
        if state < 0:
            ok = False
            break
    target = "/" + text
    assert ok == (canonical(_ORIGIN + target) == target), (text, rfc)
