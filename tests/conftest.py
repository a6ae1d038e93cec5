"""Shared test set-up: the opt-in ``slow`` marker, the corpus location, and Hypothesis without
its per-example deadline."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import _chromium, browser  # noqa: F401  (fixtures for every test)
from tests.oracle import CORPUS

# Hypothesis fails an example that runs longer than 200 ms by default, and a test whose data
# takes long to generate (the too_slow health check): timed assertions, which a loaded machine
# trips at random (issue 21). Neither for any property test: their work is bounded by
# max_examples and the input sizes, not by a clock.
settings.register_profile("robotsrules", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("robotsrules")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run long fuzz and stress tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="long run: opt in with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def corpus_dir() -> str:
    robots = os.path.join(CORPUS, "robots")
    if not os.path.isdir(robots):
        pytest.skip(f"corpus not found at {os.path.abspath(CORPUS)} (set ROBOTSRULES_CORPUS)")
    return CORPUS
