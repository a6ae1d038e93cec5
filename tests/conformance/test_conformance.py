"""The conformance case table: every case against our API and against the oracle.

Each ``cases_*.py`` module defines ``CASES``; a case states, with its source, whether an
agent may fetch a URL under a body and which line decides. The same expectation is checked
against Google's library through :func:`tests.oracle.oracle` (SPEC §0's identity), so the
table can drift neither from the sources nor from Google.
"""

from __future__ import annotations

import pytest

import robotsrules
from tests.oracle import AVAILABLE, REASON, oracle

from . import (
    cases_deviations,
    cases_google,
    cases_groups,
    cases_legacy_seeds,
    cases_lib,
    cases_matching,
    cases_parsing,
    cases_rfc,
)
from .case import Case

MODULES = (
    cases_rfc,
    cases_google,
    cases_lib,
    cases_legacy_seeds,
    cases_deviations,
    cases_parsing,
    cases_groups,
    cases_matching,
)

ALL_CASES: list[Case] = [case for module in MODULES for case in module.CASES]
_IDS = [case.id for case in ALL_CASES]
_EXCEPTIONS = {"InvalidAgent", "InvalidURL"}


def test_table_is_well_formed() -> None:
    duplicates = sorted({i for i in _IDS if _IDS.count(i) > 1})
    assert not duplicates, f"duplicate case ids: {duplicates}"
    assert len(ALL_CASES) >= 300
    for case in ALL_CASES:
        assert isinstance(case, Case), case
        assert case.source, case.id
        assert case.raises is None or case.raises in _EXCEPTIONS, case.id


def _body_bytes(case: Case) -> bytes:
    body = case.body
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


@pytest.mark.parametrize("case", ALL_CASES, ids=_IDS)
def test_case(case: Case) -> None:
    robots = robotsrules.parse(case.body)
    if case.raises is not None:
        error = getattr(robotsrules, case.raises)
        with pytest.raises(error):
            robots.explain(case.url, agent=case.agent)
        with pytest.raises(error):
            robots.allowed(case.url, agent=case.agent)
        return

    problems = []
    verdict = robots.explain(case.url, agent=case.agent)
    if verdict.allowed != case.allowed:
        problems.append(f"ours: allowed={verdict.allowed}, expected {case.allowed}")
    if robots.allowed(case.url, agent=case.agent) != verdict.allowed:
        problems.append("ours: allowed() disagrees with explain().allowed")
    if case.line is not None:
        line = verdict.rule.line if verdict.rule else 0
        if line != case.line:
            problems.append(f"ours: deciding line {line}, expected {case.line}")

    if AVAILABLE:
        allowed, line = oracle(_body_bytes(case), case.agent, case.url)
        if allowed != case.allowed:
            problems.append(f"oracle: allowed={allowed}, expected {case.allowed}")
        google_line = case.line if case.google_line is None else case.google_line
        if google_line is not None and google_line > 0 and line != google_line:
            problems.append(f"oracle: matching line {line}, expected {google_line}")

    assert not problems, f"{case.id} ({case.source}): " + "; ".join(problems)
    if not AVAILABLE:
        pytest.skip(f"our checks passed; oracle part skipped: {REASON}")
