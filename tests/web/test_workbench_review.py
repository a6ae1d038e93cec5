"""The workbench against what an adversarial review of it found (issue 39's review): each
test drives the page in the real browser (or the real server over HTTP where the finding is
about requests) and fails on the code the review attacked."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import httpx
import pytest

from robotsrules._tables._crawlers import category_tokens
from robotsrules._web import _tester
from tests.timing import HANG
from tests.web.conftest import Served, Site
from tests.web.test_workbench import _rows, _test


def test_a_fetch_that_gives_no_file_keeps_yours_and_shows_no_verdicts(browser: Any,
                                                                       served: Served,
                                                                       site: Site) -> None:
    # an unreachable robots.txt means "everything disallowed" (RFC 9309, section 2.3.1.4):
    # its emptiness must not be judged as a file without rules ("everything allowed")
    page = browser.new_page()
    _test(page, served.guarded, "User-agent: *\nDisallow: /\n", "/private", "Googlebot")
    page.fill("#fetch_url", site.base + "/")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    assert "unreachable" in page.inner_text("#fetched")
    assert page.input_value("#robots") == "User-agent: *\nDisallow: /\n"
    assert "No file was fetched (unreachable" in page.inner_text("#problem")
    assert page.query_selector_all("tr.answer") == []
    assert page.query_selector("#crawlers") is None


def test_an_uploaded_file_that_is_not_utf8_is_judged_by_its_bytes(browser: Any,
                                                                   served: Served) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.set_input_files("#upload", {"name": "robots.txt", "mimeType": "text/plain",
                                     "buffer": b"User-agent: *\nDisallow: /caf\xe9\n"})
    page.click("#upload-button")
    page.wait_for_load_state()
    page.fill("#urls", "/caf%E9")
    page.fill("#agents", "Googlebot")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("disallowed", "Googlebot", "/caf%E9")]  # as check reads the file
    # an edit of the text leaves the bytes: the text is judged as typed
    page.fill("#robots", "User-agent: *\nDisallow: /tea\n")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("allowed", "Googlebot", "/caf%E9")]


def test_the_500_kib_cut_counts_the_file_not_the_browsers_crlf(browser: Any,
                                                               served: Served) -> None:
    # 507,532 bytes with LF line breaks, 517,684 as the browser sends them (CRLF): the rule
    # at the end is within the 500 KiB a crawler reads only when counted on the file
    robots = "User-agent: *\n" + ("#" + "c" * 48 + "\n") * 10_150 + "Disallow: /secret\n"
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.evaluate("r => { document.getElementById('robots').value = r; }", robots)
    page.fill("#urls", "/secret")
    page.fill("#agents", "Googlebot")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("disallowed", "Googlebot", "/secret")]


def test_a_leading_empty_line_is_kept_and_blank_characters_are_shown(browser: Any,
                                                                   served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, "\nUser-agent: *\nDisallow: /x\n", "/x", "GPTBot")
    assert page.input_value("#robots") == "\nUser-agent: *\nDisallow: /x\n"
    page.click("#test")  # sent again as the page shows it
    page.wait_for_selector("#verdicts")
    assert page.input_value("#robots") == "\nUser-agent: *\nDisallow: /x\n"
    assert "Disallow: /x" in page.inner_text("#line-3")
    # characters that show as nothing are shown as escapes, as control characters are
    _test(page, served.guarded, "User-agent: *\nDisallow: /a\u3164\u115f\uffa0\u2800\u034fb\n",
          "/x", "GPTBot")
    assert page.inner_text("#line-2 code.text") == (
        "Disallow: /a\\u3164\\u115f\\uffa0\\u2800\\u034fb")


def test_a_category_in_words_is_the_category_and_other_words_are_refused(
        browser: Any, served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, "User-agent: GPTBot\nDisallow: /\n", "/x", "AI training")
    rows = _rows(page)
    assert ("disallowed", "GPTBot", "/x") in rows  # the category's crawlers, not agent "AI"
    assert [agent for _, agent, _ in rows] == list(category_tokens("ai-training"))
    _test(page, served.guarded, "User-agent: GPTBot\nDisallow: /\n", "/x", "AI bot")
    assert "agent 'AI bot': neither a product token" in page.inner_text("#problem")
    assert page.query_selector_all("tr.answer") == []


def _run(command: str, robots: str, directory: Path) -> str:
    """A copied command, run by bash in ``directory`` holding the file as robots.txt."""
    (directory / "robots.txt").write_text(robots, encoding="utf-8")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(["bash", "-c", command], cwd=directory, capture_output=True,
                          text=True, timeout=HANG, env={**os.environ, "PATH": path},
                          check=False)
    return done.stdout


def test_the_copied_commands_test_what_the_page_tested(browser: Any, served: Served,
                                                       tmp_path: Path) -> None:
    robots = "User-agent: *\nDisallow: /x\nDisallow: /adm\u202ein\n"
    page = browser.new_page()
    _test(page, served.guarded, robots, "--robots=/dev/null\n/x\n/adm\u202ein", "Googlebot")
    assert [row[0] for row in _rows(page)] == ["not judged", "disallowed", "disallowed"]
    command = page.inner_text("#check-command")
    # the URL the page could not judge is left out: it would be read as an option
    assert "--robots=/dev/null" not in command
    out = _run(command, robots, tmp_path)
    assert [line.split()[:2] for line in out.splitlines()] == [
        ["disallowed", "/x"], ["disallowed", "/adm\\u202ein"]]
    # a row's command names the same URL, its invisible character escaped, not dropped
    row = page.query_selector_all("tr.answer")[2].query_selector("code.command").inner_text()
    assert row == "robotsrules explain robots.txt --agent Googlebot $'/adm\\u202ein'"
    assert "DISALLOWED" in _run(row, robots, tmp_path)


def test_the_diff_finds_an_end_anchor_added_to_a_pattern(browser: Any, served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, "User-agent: *\nDisallow: /*.pdf$\n", "/x", "Googlebot",
          compared="User-agent: *\nDisallow: /*.pdf\n")
    assert "2 verdict changes: 0 newly disallowed, 2 newly allowed" in page.inner_text(
        "#diff-summary")
    assert "/x.pdf?x" in page.inner_text("table.changes")


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The agents whose stance the crawler table settles, as it settles them (the real
    function runs)."""
    settled: list[tuple[str, ...]] = []
    real = _tester.stance_of

    def counted(rules: Any, *args: Any) -> Any:
        settled.append(rules.agents)
        return real(rules, *args)

    monkeypatch.setattr(_tester, "stance_of", counted)
    return settled


def test_crawlers_that_share_a_group_have_their_stance_settled_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settled = _counting(monkeypatch)
    tested = _tester.judge_file("User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\n"
                                "Disallow: /\n", "/", "GPTBot")
    assert len(settled) == 2  # the '*' group (every other crawler) and GPTBot's
    stances = {row.token: row.stance for row in tested.crawlers}
    assert stances["GPTBot"] == "all" and stances["ClaudeBot"] == "some"


def test_past_the_rule_cap_no_stance_is_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    settled = _counting(monkeypatch)
    robots = "User-agent: *\n" + "".join(
        f"Disallow: /d{n}/*.php$\n" for n in range(_tester.MAX_STANCE_RULES + 1))
    tested = _tester.judge_file(robots, "/d1/a.php", "GPTBot")
    assert settled == []
    assert {row.stance for row in tested.crawlers} == {"unknown"}
    assert tested.answers[0].verdict == "disallowed"  # the verdicts are still given


def test_a_permalink_followed_from_another_site_is_shown_not_run(served: Served) -> None:
    link = "/?" + urllib.parse.urlencode({"robots": "User-agent: *\nDisallow: /\n",
                                          "urls": "/x", "agents": "GPTBot"})
    with httpx.Client(base_url=served.guarded) as client:
        for site in ("cross-site", "same-site"):
            page = client.get(link, headers={"Sec-Fetch-Site": site})
            assert page.status_code == 200
            assert "came from a link on another site: it is shown, not run" in page.text
            assert 'id="verdicts"' not in page.text
            assert "Disallow: /" in page.text  # the form holds the test, for Test to run
        for site in ("none", "same-origin"):  # typed, a bookmark, the page's own link
            page = client.get(link, headers={"Sec-Fetch-Site": site})
            assert 'id="verdicts"' in page.text and "disallowed" in page.text
        assert 'id="verdicts"' in client.get(link).text  # a browser that does not say


def test_a_host_header_must_be_a_host_and_this_servers_port(served: Served) -> None:
    port = served.guarded.rsplit(":", 1)[1]
    with httpx.Client(base_url=served.guarded) as client:
        for host in (f"127.0.0.1:{port}.evil.com", "localhost:x@evil.com",
                     f"127.0.0.1:{int(port) + 1}", f"localhost:{port}:{port}",
                     f"127.0.0.1:{port}/x", "[::1]x"):
            refused = client.get("/", headers={"Host": host})
            assert refused.status_code == 421, host
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST"):
            assert client.get("/", headers={"Host": host}).status_code == 200, host


def test_the_copied_command_of_the_token_double_dash_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # review 39, F3: the page gives --agent=-- for the product token "--"; the command line
    # read it as [] and failed with an internal error
    import io
    import shlex

    from robotsrules.cli import main

    robots = "User-agent: --\nDisallow: /x\n"
    (tmp_path / "robots.txt").write_text(robots)
    monkeypatch.chdir(tmp_path)
    tested = _tester.judge_file(robots, "/x", "--")
    for command in (tested.command, tested.answers[0].command):
        out = io.StringIO()
        code = main(shlex.split(command)[1:], out=out)
        assert (code, capsys.readouterr().err) == (1, ""), command
        assert "disallowed" in out.getvalue().lower(), (command, out.getvalue())
