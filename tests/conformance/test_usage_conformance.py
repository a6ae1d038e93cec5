"""Usage-preference cases (cases_usage): our answers, and Google's crawl verdict unchanged."""

from __future__ import annotations

import pytest

import robotsrules
import robotsrules._tables._purposes
from tests.oracle import AVAILABLE, REASON, oracle

from .cases_usage import CASES, UsageCase

_IDS = [case.id for case in CASES]


def test_ids_unique() -> None:
    assert len(set(_IDS)) == len(_IDS)


@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_usage_case(case: UsageCase) -> None:
    robots = robotsrules.parse(case.body)
    usage = robots.usage(case.url, agent=case.agent)
    assert usage.crawl_allowed is case.crawl
    assert robots.allowed(case.url, agent=case.agent) is case.crawl
    for purpose, expected in case.answers.items():
        if purpose not in robotsrules._tables._purposes.PURPOSES:  # a name no vocabulary defines
            assert purpose not in usage.preferences
            continue
        assert usage.allows(purpose, case.revision) is expected, purpose  # type: ignore[arg-type]
    if case.lines is not None:
        assert tuple(line.line for line in usage.lines) == case.lines
    verdict = robots.explain(case.url, agent=case.agent)
    assert verdict.allowed is case.crawl
    assert verdict.usage == usage.lines
    for mode in ("rfc",):
        other = robotsrules.parse(case.body, mode=mode).usage(case.url, agent=case.agent)
        if case.url.isascii():
            assert other.preferences == usage.preferences, mode
    if case.revision is None:
        assert {p: usage.allows(p) for p in usage.preferences} == usage.preferences


@pytest.mark.skipif(not AVAILABLE, reason=REASON)
@pytest.mark.parametrize("case", CASES, ids=_IDS)
def test_crawl_verdict_is_googles(case: UsageCase) -> None:
    assert oracle(case.body, case.agent, case.url)[0] is case.crawl
