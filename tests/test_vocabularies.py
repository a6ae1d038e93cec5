"""The Literal vocabularies (issue 14): every value is presented, and the code produces no
value outside its vocabulary.

mypy checks the presentation functions for exhaustiveness (``assert_never``); these tests
check the same at run time and that the vocabularies say what the code really produces.
"""

from __future__ import annotations

import os
from typing import get_args

import pytest

import robotsrules
from robotsrules._identity import EvidenceOutcome, VerdictName
from robotsrules._lru import LRU
from robotsrules._rules._precedence import index_html_folder, rule_key, rule_rank
from robotsrules.cli._common import brief, outcome_meaning, served_note, why
from robotsrules.linter import CODES, SEVERITIES, Severity
from robotsrules.linter._output import _levels
from robotsrules.model import Reason, Rule, Scope
from robotsrules.policy import STATUS_OUTCOMES, Outcome, ServedReason
from tests.oracle import CORPUS


@pytest.mark.parametrize("reason", get_args(Reason))
def test_every_reason_is_presented(reason: Reason) -> None:
    assert brief(reason) and why(reason)
    assert brief(reason) != why(reason)


def test_a_value_outside_the_vocabulary_is_refused() -> None:
    with pytest.raises(AssertionError):
        why("made-up")  # type: ignore[arg-type]


@pytest.mark.parametrize("outcome", get_args(Outcome))
def test_every_outcome_is_presented(outcome: Outcome) -> None:
    assert outcome_meaning(outcome)


def test_served_notes() -> None:
    notes = {reason: served_note(reason) for reason in get_args(ServedReason)}
    assert {reason for reason, note in notes.items() if note} == {"last-good-copy", "30-days"}


@pytest.mark.parametrize("severity", get_args(Severity))
def test_every_severity_is_presented(severity: Severity) -> None:
    level, colour = _levels(severity)
    assert level in ("error", "warning", "note")
    assert colour.startswith("\x1b[")


def test_severities_and_codes_use_the_vocabulary() -> None:
    assert set(SEVERITIES) == set(get_args(Severity))
    assert {code.severity for code in CODES.values()} <= set(get_args(Severity))
    assert set(STATUS_OUTCOMES.values()) <= set(get_args(Outcome))


_URLS = ("/", "/index.html", "/a/", "/private/x", "/robots.txt", "/search?q=1", "/x.pdf")
_AGENTS = ("Googlebot", "GPTBot", "ExampleBot")


def test_verdicts_stay_within_the_vocabularies() -> None:
    reasons, scopes = set(get_args(Reason)), set(get_args(Scope))
    seen = set()
    bodies = [b"User-agent: *\nAllow: /a/index.html\nDisallow: /a/\nAllow: /x\nDisallow: /x\n"]
    folder = os.path.join(CORPUS, "robots") if CORPUS else ""
    if folder and os.path.isdir(folder):
        for name in sorted(os.listdir(folder))[:300]:
            with open(os.path.join(folder, name), "rb") as handle:
                bodies.append(handle.read())
    for body in bodies:
        for mode in ("google", "rfc", "legacy"):
            robots = robotsrules.parse(body, mode=mode)
            for agent in _AGENTS:
                for url in _URLS:
                    verdict = robots.explain(url, agent=agent)
                    assert verdict.reason in reasons and verdict.scope in scopes
                    seen.add(verdict.reason)
    for synthetic in (robotsrules.RobotsTxt.allow_all(), robotsrules.RobotsTxt.disallow_all()):
        seen.add(synthetic.explain("/", agent="a").reason)
    assert {"robots-txt", "no-match", "longest-match", "first-match", "allow-all",
            "disallow-all"} <= seen


def test_precedence_orders_as_rfc_9309() -> None:
    longer = Rule("disallow", "/abc", "/abc", 9)
    allow = Rule("allow", "/ab", "/ab", 5)
    disallow = Rule("disallow", "/ab", "/ab", 1)
    assert rule_rank(longer) > rule_rank(allow) > rule_rank(disallow)
    assert rule_key(False, 3, 1) > rule_key(False, 3, 2)  # the earlier line wins a full tie


@pytest.mark.parametrize(("pattern", "folder"), [
    ("/d/index.html", "/d/"), ("/index.htm", "/"), ("/d/index.html?x", "/d/"),
    ("/d/index.php", None), ("/d/myindex.html", None), ("/d/index.html/x", None),
    ("index.html", None),
])
def test_index_html_folder(pattern: str, folder: str) -> None:
    assert index_html_folder(pattern) == folder


def test_lru_bound_and_order() -> None:
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recent: "b" goes first
    cache.put("c", 3)
    assert cache.get("b") is None and cache.get("a") == 1 and len(cache) == 2
    assert cache.pop("a") == 1 and cache.pop("a") is None
    cache.clear()
    assert len(cache) == 0
    assert LRU(0).limit == 1


@pytest.mark.parametrize("verdict", get_args(VerdictName))
def test_every_visitor_verdict_is_presented(verdict: str) -> None:
    from robotsrules.cli._verify import shown

    text, colour = shown(verdict)  # type: ignore[arg-type]
    assert text == verdict.replace("-", " ").upper() and colour.isdigit()


def test_evidence_uses_its_vocabulary() -> None:
    from robotsrules._identity import EVIDENCE_KINDS, EvidenceKind

    assert set(EVIDENCE_KINDS) == set(get_args(EvidenceKind))
    answer = robotsrules.verify("192.0.2.1", agent="Googlebot", dns=False)
    assert answer.verdict in get_args(VerdictName)
    assert {e.outcome for e in answer.evidence} <= set(
        get_args(EvidenceOutcome))
