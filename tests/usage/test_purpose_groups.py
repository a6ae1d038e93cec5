"""Purpose groups: robots.txt groups keyed by a per-purpose policy token
(draft-kelley-aipref-training-preference-signal-00, 2026-10-30; issue 35 §1).

Only the draft's first page (its abstract) could be read here: groups keyed by a
per-purpose policy token on the User-agent line bind a usage preference to paths, with no
new directive, no new grammar, and robots.txt's path language, longest-match precedence
and group structure unchanged. The draft's tokens, its examples and its section numbers
were not read, so the shipped table records no token and no file is read this way yet
(``test_the_shipped_table_guesses_no_token``). The mechanism is tested with a token table
given to the private ``_usage_of``/``_explain_of`` (the shipped table is their only other
caller): ``example-token`` below is this test's own name, not a token of the draft.
"""

from __future__ import annotations

from typing import Optional

import pytest

import robotsrules
from robotsrules._rules._usage import PURPOSE_GROUP
from robotsrules._tables._purposes import Purpose, purpose_group_draft
from robotsrules.linter import Diagnostic

TABLE: dict[str, Purpose] = {"example-token": "train-ai"}

FILE = b"""User-agent: *
Allow: /
Disallow: /closed/

User-agent: ExampleBot
Allow: /

User-agent: example-token
Disallow: /private/
Allow: /private/open/
"""


def _answer(robots: robotsrules.RobotsTxt, url: str, agent: str,
            purpose: Purpose = "train-ai") -> Optional[bool]:
    rules = robots.for_agent(agent)
    usage = robots._usage_of(rules, url, rules.allowed(url), TABLE)
    return usage.allows(purpose)


@pytest.mark.parametrize("mode", ["google", "rfc"])
@pytest.mark.parametrize("agent", ["ExampleBot", "OtherBot"])
def test_a_purpose_group_states_its_purpose_for_every_crawler(mode: str, agent: str) -> None:
    # ExampleBot has its own group, OtherBot reads `*`: neither hides the purpose group.
    robots = robotsrules.parse(FILE, mode=mode)  # type: ignore[arg-type]
    assert _answer(robots, "/private/a", agent) is False
    assert _answer(robots, "/private/open/a", agent) is True  # the longer Allow decides
    assert _answer(robots, "/public/a", agent) is None  # no rule of the group matches
    # The content signal ai-train speaks of train-ai in the current reading (-07).
    assert _answer(robots, "/private/a", agent, "ai-train") is False


def test_the_deciding_rule_is_named_as_a_purpose_group_line() -> None:
    robots = robotsrules.parse(FILE)
    rules = robots.for_agent("ExampleBot")
    usage = robots._usage_of(rules, "/private/a", True, TABLE)
    (line,) = usage.lines
    assert line.directive == PURPOSE_GROUP == "purpose-group"
    assert (line.line, line.pattern, line.statements) == (9, "/private/", (("train-ai", False),))
    assert str(line) == "9: [User-agent: example-token] Disallow: /private/"
    assert [ln.line for ln in usage.deciding("train-ai")] == [9]
    verdict = robots._explain_of(rules, "/private/open/x", TABLE)
    assert verdict.allowed is True and verdict.rule is not None and verdict.rule.line == 6
    assert [(ln.line, ln.statements) for ln in verdict.usage] == [(10, (("train-ai", True),))]


def test_precedence_is_the_groups_own_longest_match() -> None:
    # Google's precedence: the longer pattern wins; Allow wins a tie.
    body = b"User-agent: example-token\nDisallow: /a\nAllow: /a\nDisallow: /a/b*\n"
    robots = robotsrules.parse(body)
    assert _answer(robots, "/a/x", "Bot") is True  # tie: Allow
    assert _answer(robots, "/a/bc", "Bot") is False  # the longer Disallow


def test_combined_with_content_usage_most_restrictively() -> None:
    body = (b"User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /open/ train-ai=n\n"
            b"Allow: /\n\nUser-agent: example-token\nDisallow: /private/\nAllow: /open/\n")
    robots = robotsrules.parse(body)
    assert _answer(robots, "/private/a", "Bot") is False  # group refuses, Content-Usage allows
    assert _answer(robots, "/open/a", "Bot") is False  # group allows, Content-Usage refuses
    assert _answer(robots, "/other", "Bot") is True  # only Content-Usage speaks


def test_no_preference_where_the_crawler_may_not_fetch() -> None:
    robots = robotsrules.parse(FILE)
    rules = robots.for_agent("OtherBot")
    assert rules.allowed("/closed/private/x") is False
    usage = robots._usage_of(rules, "/closed/x", False, TABLE)
    assert usage.allows("train-ai") is None and usage.lines == ()
    body = b"User-agent: *\nDisallow: /\n\nUser-agent: example-token\nDisallow: /\n"
    robots = robotsrules.parse(body)
    usage = robots._usage_of(robots.for_agent("Bot"), "/x", False, TABLE)
    assert usage.allows("train-ai") is None
    assert [ln.directive for ln in usage.ignored] == ["purpose-group"]


def test_crawl_verdicts_do_not_change() -> None:
    # A purpose group is not a crawler's group: real crawlers' verdicts are what they were
    # without it. Google's matcher reads the token as any agent name, so a crawler whose
    # product token is the token itself gets that group (and ignores `*`).
    without = robotsrules.parse(FILE.split(b"User-agent: example-token")[0])
    robots = robotsrules.parse(FILE)
    for agent in ("ExampleBot", "OtherBot", "Googlebot"):
        for url in ("/private/a", "/private/open/a", "/closed/a", "/public"):
            assert robots.allowed(url, agent=agent) is without.allowed(url, agent=agent)
    assert robots.allowed("/private/a", agent="example-token") is False
    assert robots.allowed("/closed/a", agent="example-token") is True


def test_legacy_mode_reads_no_purpose_group() -> None:
    robots = robotsrules.parse(FILE, mode="legacy")
    assert _answer(robots, "/private/a", "Bot") is None


def test_the_shipped_table_guesses_no_token() -> None:
    # The draft's text that defines its tokens was not read: the shipped table holds none,
    # so every entry point answers as before for a file with such a group.
    assert dict(purpose_group_draft().tokens) == {}
    robots = robotsrules.parse(FILE)
    assert robots.usage("/private/a", agent="ExampleBot").allows("train-ai") is None
    assert robots.explain("/private/a", agent="ExampleBot").usage == ()


def test_a_star_verdict_is_never_a_purpose_statement() -> None:
    # Without a group of its own the token falls back to `*`: that is no purpose group.
    from robotsrules._rules._usage import purpose_group_line

    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n")
    verdict = robots.for_agent("example-token").explain("/x")
    assert verdict.scope == "global" and verdict.rule is not None
    assert purpose_group_line("example-token", "train-ai", verdict) is None


# -- lint: R610 and R611 (only for recorded tokens; none is recorded yet) ------------------

def _lint(body: bytes) -> list[Diagnostic]:
    # The purpose-group pass alone, with this test's table (lint() runs it with the shipped
    # table, inside its usage pass).
    from robotsrules.linter._checks import _Linter

    linter = _Linter(body, None)
    linter.purpose_group_checks(TABLE)
    return list(linter.found)


def _codes(body: bytes) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in _lint(body)]


def test_lint_notes_a_purpose_group_that_only_allows() -> None:
    assert _codes(b"User-agent: *\nDisallow: /x\n\nUser-agent: example-token\nAllow: /\n") == [
        ("R610", 4, 13)]
    assert _codes(b"User-agent: example-token\nDisallow:\n") == [("R610", 1, 13)]
    assert _codes(FILE) == []  # it refuses /private/


def test_lint_warns_when_a_purpose_group_and_a_usage_line_disagree() -> None:
    body = (b"User-agent: *\nContent-Usage: /private/ train-ai=y\nAllow: /\n\n"
            b"User-agent: example-token\nDisallow: /private/\n")
    assert _codes(body) == [("R611", 2, 16)]
    (found,) = _lint(body)
    assert "line 6" in found.message and "line 2 and line 6" in found.hint
    # A Content-Signal line covers every path; ai-train speaks of train-ai.
    body = (b"User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\n"
            b"User-agent: example-token\nAllow: /public/\nDisallow: /\n")
    assert _codes(body) == [("R611", 2, 17)]
    # Agreeing statements, or statements about other purposes, are quiet.
    quiet = [
        b"User-agent: *\nContent-Usage: /private/ train-ai=n\n\n"
        b"User-agent: example-token\nDisallow: /private/\n",
        b"User-agent: *\nContent-Usage: /private/ search=y\n\n"
        b"User-agent: example-token\nDisallow: /private/\n",
        b"User-agent: *\nContent-Usage: /other/ train-ai=y\n\n"
        b"User-agent: example-token\nDisallow: /private/\n",
    ]
    for body in quiet:
        assert _codes(body) == [], body


def test_lint_with_the_shipped_table_says_nothing_of_purpose_groups() -> None:
    from robotsrules.linter import PURPOSE_GROUP_CODES, lint

    body = (b"User-agent: *\nContent-Usage: /private/ train-ai=y\nAllow: /\n\n"
            b"User-agent: example-token\nAllow: /\n")
    assert not [d for d in lint(body) if d.code in PURPOSE_GROUP_CODES]
