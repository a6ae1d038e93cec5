"""The browser set-up itself works: a page is rendered and a script in it runs (so a test that
asserts "no script ran" on a hostile page is asserting something)."""

from __future__ import annotations

from typing import Any


def test_the_system_browser_renders_a_page_and_runs_its_script(browser: Any) -> None:
    page = browser.new_page()
    page.set_content("<h1>before</h1><script>document.querySelector('h1').textContent='after'"
                     "</script>")
    assert page.inner_text("h1") == "after"
