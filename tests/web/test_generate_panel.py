"""The workbench's ``generate`` panel (issue 40) in a real browser: Debian's Chromium driven by
Playwright, against the application served by uvicorn on loopback (conftest.py).

The panel writes the same file as ``robotsrules generate`` for the same choices (the CLI run
here in the same process, from options written by hand and from the command the panel
offers); a refusal is one line; the written file loads into the tester; hostile choices and
a hostile file to merge into show as text and run nothing; every control is reached with
the keyboard; the inputs are bounded and never planted from a URL.
"""

from __future__ import annotations

import io
import shlex
from pathlib import Path
from typing import Any

import httpx
import pytest

from robotsrules.cli import main
from tests.web.conftest import HOSTILE_ROBOTS, Served
from tests.web.test_workbench import _token

EXISTING = "# ours\nUser-agent: *\nDisallow: /admin/\n\nUser-agent: Bingbot\nDisallow: /x/\n"


def _cli(argv: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(cwd)
    out = io.StringIO()
    assert main(argv, out=out) == 0
    return out.getvalue()


def _cells(page: Any, rows: str) -> list[list[str]]:
    """The text of each cell of the rows ``rows`` selects (one round trip to the browser)."""
    return list(page.eval_on_selector_all(
        rows, "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"))


def _choose(page: Any, base: str, robots: str = "", **fields: str) -> None:
    """Open the page, put ``robots`` in the tester and the choices in the panel, write."""
    page.goto(base + "/")
    page.fill("#robots", robots)
    for name, value in fields.items():
        if name.startswith("g_usage_"):
            page.select_option(f"#{name}", value)
        elif value == "on":
            page.check(f"#{name}")
        else:
            page.fill(f"#{name}", value)
    page.click("#generate-button")
    page.wait_for_selector("#generated")


def test_the_panel_writes_what_the_command_writes_and_offers_that_command(
        browser: Any, served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = browser.new_page()
    _choose(page, served.guarded, EXISTING, g_block="GPTBot\nCCBot", g_allow="Googlebot",
            g_paths="/cart/\n/a b\n/caf\u00e9/",
            **{"g_block_ai-training": "on", "g_usage_ai-train": "n", "g_usage_search": "y"},
            g_delays="Bingbot=5", g_sitemaps="https://example.com/sitemap.xml",
            g_license="https://example.com/license.xml", g_merge="on")
    assert page.query_selector("#generate-problem") is None
    written = page.input_value("input[name=g_text]")
    (tmp_path / "robots.txt").write_text(EXISTING, encoding="utf-8")
    by_hand = _cli(["generate", "--block", "GPTBot", "--block", "CCBot", "--allow", "Googlebot",
                    "--block-category", "ai-training", "--disallow-path", "/cart/",
                    "--disallow-path", "/a b", "--disallow-path", "/caf\u00e9/",
                    "--usage", "ai-train=n", "--usage", "search=y",
                    "--crawl-delay", "Bingbot=5", "--sitemap", "https://example.com/sitemap.xml",
                    "--license", "https://example.com/license.xml", "--from", "robots.txt"],
                   tmp_path, monkeypatch)
    assert written == by_hand
    assert page.inner_text("#generated-text") == by_hand.rstrip("\n")
    assert "# ours" in written and "Content-Usage:" in written
    command = page.inner_text("#generate-command")
    words = shlex.split(command)
    assert words[:2] == ["robotsrules", "generate"]
    assert all(word.startswith("--") and "=" in word for word in words[2:])
    assert "--disallow-path=/a%20b" in words and "--from=robots.txt" in words
    assert _cli(words[1:], tmp_path, monkeypatch) == written
    assert page.is_visible("#generate button.copy")  # the page's script offers to copy it
    # the proof: per agent the sample URLs allowed before and after, and what the merge changed
    agents = {row[0]: row for row in _cells(page, "tr.generated-agent")}
    assert "GPTBot" in agents and "Googlebot" in agents and "*" in agents
    assert "changed by the merge, as robotsrules diff finds them" in page.inner_text(
        "#generated-changed")
    changed = _cells(page, "tr.generated-change")
    assert len(changed) == 200 and "; the first 200 listed" in page.inner_text("#generated-changed")
    assert any(row[1:5] == ["/", "allowed", "disallowed", "no rule matches"]
               and row[5].endswith(": Disallow: /") for row in changed)  # the deciding lines
    assert page.query_selector("#generated-findings li") is not None
    # the choices stay in the form
    assert page.input_value("#g_block") == "GPTBot\nCCBot"
    assert page.is_checked("#g_block_ai-training") and page.is_checked("#g_merge")
    assert page.input_value("#g_usage_ai-train") == "n"
    # the written file goes into the tester; the file it replaces becomes the compared one
    page.fill("#urls", "/cart/\n/")
    page.fill("#agents", "GPTBot\nGooglebot")
    page.click("#load-generated")
    page.wait_for_selector("#verdicts")
    assert page.input_value("#robots") == written
    assert page.input_value("#base") == EXISTING
    verdicts = page.inner_text("#verdicts")
    assert "disallowed" in verdicts and "allowed" in verdicts


def test_a_fresh_file_equals_the_command_s_too(browser: Any, served: Served, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    page = browser.new_page()
    _choose(page, served.guarded, "User-agent: *\nDisallow: /not-merged/\n",
            g_block_search="on", g_allow="Googlebot", g_paths="/private/")
    written = page.input_value("input[name=g_text]")
    assert "/not-merged/" not in written  # merge not ticked: the tested file is left alone
    assert written == _cli(["generate", "--block-category", "search", "--allow", "Googlebot",
                            "--disallow-path", "/private/"], tmp_path, monkeypatch)
    assert "against no file" in page.inner_text("#generated-changed")


def test_a_refusal_is_one_line_and_writes_nothing(browser: Any, served: Served, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    page = browser.new_page()
    _choose(page, served.guarded, g_block="GPTBot",
            **{"g_usage_ai-train": "n", "g_usage_train-ai": "y"})
    problem = page.inner_text("#generate-problem")
    assert problem.startswith("Refused: usage ") and "contradicts" in problem
    assert "\n" not in problem
    assert page.query_selector("#generated-text") is None
    assert page.query_selector("#load-generated") is None
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    assert main(["generate", "--block", "GPTBot", "--usage", "ai-train=n", "--usage",
                 "train-ai=y"], out=io.StringIO()) == 2
    assert problem.split("Refused: ", 1)[1] in out.getvalue()


def test_hostile_choices_and_a_hostile_file_show_as_text_and_run_nothing(
        browser: Any, served: Served) -> None:
    page = browser.new_page()
    _choose(page, served.guarded, HOSTILE_ROBOTS, g_merge="on", g_block="GPTBot",
            g_paths="/<script>window.__pwned=1</script>\n/\"><img src=x onerror=\"window.__pwned=1\">"
                    "\n/b\x1b]0;owned\x07\u202egnp.exe",
            g_license="https://example.com/\u202etxt.lic")
    assert page.query_selector("#generate-problem") is None
    shown = page.inner_text("#generated-text")
    assert "<a href=\"javascript:window.__pwned=1\">click</a>" in shown  # the owner's line, kept
    assert "\\x1b]0;owned\\x07\\u202egnp.exe" in shown  # controls and bidi made visible
    assert "\x1b" not in shown and "\u202e" not in shown
    assert "Disallow: /%3Cscript%3Ewindow.__pwned=1%3C/script%3E" in shown
    # a choice a terminal would not show as itself: no command is offered to copy
    assert page.query_selector("#generate-command") is None
    assert page.query_selector("#generate-command-missing") is not None
    # a token that is none: refused, quoted as text
    _choose(page, served.guarded, g_block="<script>window.__pwned=1</script>\u202e")
    problem = page.inner_text("#generate-problem")
    assert "'<script>window.__pwned=1</script>\\u202e' is not a crawler's product token" in problem
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector_all("img") == []
    assert page.query_selector_all("a[href^='javascript']") == []
    assert [s.get_attribute("src") for s in page.query_selector_all("script")] == [
        "/static/workbench.js"]


def test_the_keyboard_reaches_every_control_of_the_panel(browser: Any, served: Served) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.focus("#base")
    order = []
    while not order or order[-1] not in ("generate-button", "", None):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id"))
        assert len(order) < 40
    categories = [f"g_{kind}_{name}" for name in ("search", "ai-search", "user-triggered",
                                                   "ai-training", "usage-control", "other")
                  for kind in ("block", "allow")]
    assert order == ["g_block", "g_allow", "g_paths", *categories, "g_usage_search",
                     "g_usage_ai-input", "g_usage_ai-train", "g_usage_train-ai", "g_delays",
                     "g_sitemaps", "g_license", "g_merge", "generate-button"]
    page.focus("#g_block")
    page.keyboard.type("GPTBot")
    page.focus("#generate-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#load-generated")
    page.focus("#load-generated")
    assert page.evaluate("document.activeElement.id") == "load-generated"
    # labelled: each category box names its action and its category
    assert page.get_attribute("#g_block_search", "aria-labelledby") == "g_block_label g_cat_search"


def test_choices_are_bounded_and_never_taken_from_a_url(served: Served) -> None:
    with httpx.Client(base_url=served.guarded) as client:
        token = _token(client)
        many = "\n".join(f"Bot{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(101))
        page = client.post("/", data={"token": token, "action": "generate", "g_block": many}).text
        assert "101 tokens to block given; the panel takes at most 100" in page
        page = client.post("/", data={"token": token, "action": "generate",
                                      "g_paths": "/" + "a" * 70_000}).text
        assert "the choices hold 70,001 characters; the panel takes at most 65,536" in page
        assert 'id="generated-text"' not in page
        planted = client.get("/", params={"g_block": "GPTBot", "action": "generate",
                                          "g_license": "https://evil.example/"}).text
    assert 'id="generated"' not in planted and "evil.example" not in planted
