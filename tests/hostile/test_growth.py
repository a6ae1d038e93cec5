"""The growth benchmark's own arithmetic (``benchmarks/growth.py``), so that its closing
check ("every curve claimed linear has a fitted exponent <= 1.1") can fail.

The benchmark itself is long and timed, so it is not run here; its generators and its
least-squares fit are cheap and deterministic.
"""

from __future__ import annotations

import pytest
from benchmarks import growth

import robotsrules

SIZES = [1, 2, 4, 8, 16]


@pytest.mark.parametrize("power", [0.0, 0.5, 1.0, 2.0])
def test_the_fitted_exponent_of_a_power_law_is_its_power(power: float) -> None:
    assert growth.exponent(SIZES, [3.0 * s**power for s in SIZES]) == pytest.approx(power)


def test_a_quadratic_curve_fails_the_linear_claim_and_noise_does_not() -> None:
    assert growth.exponent(SIZES, [s * s for s in SIZES]) > growth.LINEAR
    noisy = [s * (1.05 if n % 2 else 0.95) for n, s in enumerate(SIZES)]
    assert growth.exponent(SIZES, noisy) <= growth.LINEAR


def test_the_rule_file_holds_the_rules_it_names() -> None:
    rules = robotsrules.parse(growth.rule_file(1_000), max_bytes=None).for_agent("Googlebot")
    assert len(rules.groups) == 1 and len(rules.groups[0].rules) == 1_000
    assert not rules.allowed("/section-16/page-501.html")  # the "hit" URL, 1,000 rules
    assert rules.allowed("https://example.com/section-5/index.html")  # the "miss" URL


def test_robots_like_files_have_the_size_asked_for() -> None:
    body = growth.robots_like(64 * 1024)
    assert 64 * 1024 <= len(body) < 64 * 1024 + 512
    robots = robotsrules.parse(body, max_bytes=None)
    assert not robots.truncated and len(robots.groups) > 100
    assert not robots.allowed("/private-0/x", agent="OtherBot")  # the "*" group
    assert robots.allowed("/private-0/press/x", agent="OtherBot")
