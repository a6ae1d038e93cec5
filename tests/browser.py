"""A real headless browser for the tests of pages (the log audit's HTML report, the workbench):
Debian's Chromium driven by Playwright for Python. No browser is downloaded: the system's
``chromium`` is used (``scripts/test.sh`` installs it with apt), or the one that
``ROBOTSRULES_CHROMIUM`` names; without either the tests that need it skip, saying why.

Ask for the ``browser`` fixture (tests/conftest.py offers it to every test: one browser per
test module, a fresh context per test)::

    def test_page(browser):
        page = browser.new_page()
        page.set_content("<h1>hi</h1>")
        assert page.inner_text("h1") == "hi"
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest


def chromium_path() -> str | None:
    """The system Chromium the tests drive, or None."""
    named = os.environ.get("ROBOTSRULES_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def _chromium() -> Iterator[Any]:
    # One browser per test module, not per session: while Playwright's sync API is running it
    # holds an asyncio event loop in this thread, and any later test in the same process that
    # calls asyncio.run() would fail with "cannot be called from a running event loop".
    path = chromium_path()
    if path is None:
        pytest.skip("no system Chromium: apt-get install chromium (scripts/test.sh does, as root)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as driver:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        launched = driver.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """A fresh browser context (no cookies or storage shared between tests), closed after."""
    context = _chromium.new_context()
    try:
        yield context
    finally:
        context.close()
