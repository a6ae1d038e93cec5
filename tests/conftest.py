"""Shared test set-up: the opt-in ``slow`` marker and the corpus location."""

from __future__ import annotations

import os
from typing import List

import pytest

from tests.oracle import CORPUS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run long fuzz and stress tests")


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
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
