"""Regression tests of issue 25's command-line findings 1-9, against real files, loopback
servers and subprocesses of the real CLI; each failed on the code before the fix."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules.cli import main
from tests.cli.test_cli_regressions import run
from tests.network.servers import RawHTTPServer, free_port, respond

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")
HOSTILE = (b"User-agent: *\x1b]0;owned\x07\nDisallow: /a\x1b[2J\x9b\n"
           b"Content-Signal: ai-train=no\x1b[31m\nAllow: /\xc2\x9b\n")
PAGE = (b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noindex\x1b]0;x\x07\r\n"
        b"Content-Usage: train-ai=n\x1b[2J\r\n\r\n"
        b"<html><head><meta name=\"robots\" content=\"noai\x1b[31m\"></head></html>")
RAW = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))} - {"\n"}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTSRULES_CACHE", str(tmp_path / "cache.sqlite3"))


@pytest.fixture()
def site() -> Iterator[RawHTTPServer]:
    with RawHTTPServer({"/robots.txt": respond(200, Path(EXAMPLE).read_bytes())}) as server:
        yield server


def err_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    return err.splitlines()


# Finding 1: --agent is repeatable everywhere; one answer per agent, labelled.
def test_usage_and_page_answer_every_agent_never_the_last_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GPTBot is disallowed everywhere by the example file: it must not vanish (exit 1).
    code, out = run("usage", EXAMPLE, "--agent", "GPTBot", "--agent", "ExampleBot", "/")
    assert code == 1 and "agent GPTBot" in out and "agent ExampleBot" in out
    assert "may NOT crawl" in out.split("agent ExampleBot")[0]
    page = tmp_path / "page.http"
    page.write_bytes(b"HTTP/1.1 200 OK\r\nX-Robots-Tag: GPTBot: noindex\r\n\r\n<p>x</p>")
    code, out = run("page", str(page), "--agent", "GPTBot", "--agent", "ExampleBot")
    assert code == 0 and out.count("index: no") == 1
    assert "agent GPTBot" in out and "agent ExampleBot" in out
    data = json.loads(run("page", str(page), "--agent", "GPTBot", "--agent", "ExampleBot",
                          "--json")[1])
    assert [d["index"] for d in data] == [False, True]
    assert err_lines(capsys) == []


def test_stance_agent_takes_one_name_and_never_swallows_the_file(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("stance", "--agent", "GPTBot", EXAMPLE)
    assert code == 1 and out.splitlines()[1].startswith("GPTBot  all")
    assert err_lines(capsys) == []
    code, out = run("stance", "--agent", "GPTBot", "ExampleBot", EXAMPLE)  # the old form
    assert code == 1 and "ExampleBot" in out
    assert err_lines(capsys) == ["robotsrules: note: ExampleBot read as --agent ExampleBot "
                                 "(--agent takes one name; repeat it)"]


@pytest.mark.parametrize("argv", [
    ["check", "--robots", EXAMPLE, "/private/x"],
    ["explain", EXAMPLE, "/private/x"],
    ["usage", EXAMPLE, "/private/x"],
    ["stance", EXAMPLE],
    ["agents", EXAMPLE],
    ["diff", EXAMPLE, EXAMPLE, "--json"],
    ["license", EXAMPLE, "/private/x", "--json"],
])
def test_every_command_takes_several_agents(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(*argv, "--agent", "GPTBot", "--agent", "ExampleBot")
    assert code in (0, 1), err_lines(capsys)
    if argv[0] != "diff":  # diff: no change to report for either
        assert "GPTBot" in out and "ExampleBot" in out, out
    assert err_lines(capsys) == []


def test_fetch_and_lint_fetch_once_per_agent(
    site: RawHTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("fetch", site.url(), "--agent", "GPTBot", "--agent", "ExampleBot")
    assert code == 0 and "agent       GPTBot" in out and "agent       ExampleBot" in out
    code, out = run("lint", site.url(), "--agent", "GPTBot", "--agent", "ExampleBot")
    assert code == 0 and f"{site.url()} (as GPTBot): 0 errors" in out
    assert f"{site.url()} (as ExampleBot): 0 errors" in out
    sent = [r.headers["user-agent"].split()[0] for r in site.requests]
    assert sent == ["GPTBot", "ExampleBot", "GPTBot", "ExampleBot"]
    assert err_lines(capsys) == []


def test_one_way_to_name_the_robots_txt_the_other_with_a_hint(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("explain", "--robots", EXAMPLE, "--agent", "a", "/private/x")
    assert code == 1 and "3: Disallow: /private/" in out
    assert err_lines(capsys) == [
        f"robotsrules: note: 'explain --robots {EXAMPLE}' read as 'explain {EXAMPLE}' "
        "(the file is the first argument)"]
    code, out = run("check", EXAMPLE, "--agent", "a", "/private/x", "/ok")
    assert code == 1 and out.splitlines()[0].startswith("disallowed  /private/x")
    assert err_lines(capsys)[0].startswith(f"robotsrules: note: 'check {EXAMPLE} URL...' read")
    code, out = run("usage", "--robots", EXAMPLE, "--agent", "a", "/private/x", "/ok")
    assert code == 1 and "/private/x  may NOT crawl" in out and "/ok  may crawl" in out
    err_lines(capsys)
    code, _ = run("agents", "--robots", EXAMPLE)
    assert code == 0 and len(err_lines(capsys)) == 1


def test_check_fetches_a_robots_url_once_for_every_url(
    site: RawHTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("check", "--robots", site.url(), "--agent", "a", "/private/x", "/ok")
    assert code == 1 and len(site.requests) == 1
    assert out.splitlines()[0].startswith("disallowed  /private/x")
    assert err_lines(capsys) == []


# Finding 2: every input is read through one bounded reader.
def test_a_file_that_never_ends_is_read_to_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # /dev/zero is a file no read ever exhausts: before, check --robots read it forever.
    code, out = run("check", "--robots", "/dev/zero", "--agent", "a", "/x")
    assert code == 0 and out.startswith("allowed")
    assert err_lines(capsys) == [
        "robotsrules: note: /dev/zero holds more than 512,000 bytes: only its first 512,000 "
        "are read, as Google's crawler reads them (RFC 9309 §2.5, September 2022: a parser "
        "reads at least 500 KiB)"]
    code, out = run("page", "/dev/zero", "--agent", "a", "--max-head-bytes", "1000")
    # Read to the limit, and said so: a head that never ends is cut (issue 33).
    assert code == 0 and "note: the head was cut" in out


def test_a_long_robots_file_reads_as_the_parser_reads_the_whole(tmp_path: Path) -> None:
    from robotsrules import parse

    body = (b"User-agent: *\n" + b"Disallow: /a\n" * 50_000 + b"Disallow: /cut-here\n"
            + b"Disallow: /b\n" * 10)
    path = tmp_path / "long.txt"
    path.write_bytes(body)
    whole = parse(body)
    assert whole.truncated
    for url in ("/a", "/cut-here", "/b", "/c"):
        code, out = run("check", "--robots", str(path), "--agent", "x", url)
        assert (code == 0) == whole.allowed(url, agent="x"), (url, out)
        assert out.startswith("allowed" if whole.allowed(url, agent="x") else "disallowed")


# Finding 3: page's own options, and URLs, validated in the one shared place.
@pytest.mark.parametrize("bad", [
    ["--timeout", "nan"], ["--timeout", "-1"], ["--timeout", "1e300"], ["--timeout", "inf"],
    ["--timeout", "0"], ["--user-agent", "a\r\nX-Injected: 1"], ["--max-head-bytes", "-5"],
    ["--max-head-bytes", "1e3"], ["--max-head-bytes", "99999999999"],
])
def test_page_options_are_validated(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run("page", f"http://127.0.0.1:{free_port()}/", "--agent", "a", *bad)
    lines = err_lines(capsys)
    assert code == 2 and out == "" and len(lines) == 1, lines
    assert lines[0].startswith(f"robotsrules page: error: argument {bad[0]}:")


@pytest.mark.parametrize(("url", "said"), [
    ("http://[::1/", "Invalid IPv6 URL"),
    ("ftp://127.0.0.1/page", "fetches http and https URLs, not ftp://"),
    ("gopher://127.0.0.1/", "fetches http and https URLs, not gopher://"),
    (f"http://127.0.0.1:{10**6}/", "bad URL"),
])
def test_page_urls_are_checked_never_opened_as_files(
    url: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("page", url, "--agent", "a") == (2, "")
    lines = err_lines(capsys)
    assert len(lines) == 1 and said in lines[0], lines


# Finding 4: no raw control character from a file or a site, in any command's output.
@pytest.mark.parametrize("argv", [
    ["usage", "{robots}", "--agent", "a", "/a\x1b[2J"],
    ["usage", "{robots}", "--agent", "a", "/", "--json"],
    ["stance", "{robots}", "--agent", "a"],
    ["page", "{page}", "--agent", "a"],
    ["page", "{page}", "--agent", "a", "--robots", "{robots}", "--json"],
    ["explain", "{robots}", "--agent", "a", "/a"],
    ["agents", "{robots}"],
])
def test_text_from_files_is_printed_with_control_characters_visible(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robots, page = tmp_path / "robots.txt", tmp_path / "page.http"
    robots.write_bytes(HOSTILE)
    page.write_bytes(PAGE)
    code, out = run(*[a.format(robots=robots, page=page) for a in argv])
    assert code in (0, 1) and out
    assert not RAW & set(out), [c for c in out if c in RAW][:5]
    assert not RAW & set(capsys.readouterr().err)


def test_json_keeps_its_values_and_escapes_what_it_leaves_raw(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\nDisallow: /a\xc2\x9b\xe2\x80\xae\n")
    code, out = run("explain", str(robots), "--agent", "a", "/a\x9b\u202e", "--json")
    assert code == 1 and "\x9b" not in out and "\u202e" not in out
    assert "\\u009b\\u202e" in out  # the same string to every JSON reader
    assert json.loads(out)["rule"]["value"] == "/a\x9b\u202e"


# Finding 5: hostile tables and bulk options end in one-line errors, never silently.
def test_a_deeply_nested_crawlers_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"version": 1, "crawlers": [
        {"token": "X", "categories": [[[[[[["ai"]]]]]]]}]}))
    for table in (deep, nested):
        for argv in (["agents", EXAMPLE, "--crawlers", str(table), "--agent-category", "ai"],
                     ["check", "--robots", EXAMPLE, "--crawlers", str(table),
                      "--agent-category", "ai", "/x"],
                     ["stance", EXAMPLE, "--crawlers", str(table), "--agent", "a"]):
            assert run(*argv) == (2, ""), argv
            lines = err_lines(capsys)
            assert len(lines) == 1 and str(table) in lines[0], lines


@pytest.fixture()
def tables(tmp_path: Path) -> Path:
    pytest.importorskip("duckdb")
    (tmp_path / "robots.csv").write_text(
        'url,body\nhttps://a.example/robots.txt,"User-agent: *\nDisallow: /x"\n')
    (tmp_path / "epoch.csv").write_text(
        'url,body,date\nhttps://a.example/robots.txt,"User-agent: *\nDisallow: /x",1700000000\n')
    (tmp_path / "urls.csv").write_text(
        "url,date,text\nhttps://a.example/x,1700000000,1700000000\n"
        "https://a.example/y,1700000000,1700000000\n")
    (tmp_path / "urls.jsonl").write_text(
        '{"url": "https://a.example/x", "date": "1700000000"}\n')
    (tmp_path / "warcs").mkdir()
    return tmp_path


@pytest.mark.parametrize(("argv", "said"), [
    (["--robots", "robots.csv", "--urls", "urls.csv", "--as-of", "url"],
     "--as-of names the URL table's date column, not its url column"),
    (["--robots", "robots.csv", "--urls", "urls.csv", "--as-of", "date"],
     "--as-of date (in urls.csv) holds numbers (BIGINT), not dates"),
    (["--robots", "robots.csv", "--urls", "urls.jsonl", "--as-of", "date"],
     "--as-of date (in urls.jsonl) holds numbers (VARCHAR), not dates"),
    (["--robots", "epoch.csv", "--urls", "urls.csv"],
     "the date column of epoch.csv holds numbers (BIGINT), not dates"),
    (["--robots", "robots.csv", "--urls", "urls.csv", "--any-agent", "--purpose", "ai-train"],
     "--purpose is not available with --any-agent"),
    (["--pages-warc", "warcs"], "warcs: is a directory; --pages-warc takes WARC files"),
])
def test_bulk_refuses_what_it_would_silently_get_wrong(
    argv: list[str], said: str, tables: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tables)
    assert run("bulk", *argv, "--agent", "a", "--out", "out.csv") == (2, "")
    lines = err_lines(capsys)
    assert len(lines) == 1 and said in lines[0], lines
    assert not (tables / "out.csv").exists()
    assert [p for p in os.listdir(tables) if p.endswith(".partial")] == []


# Finding 6: check --robots FILE --json lists the usage lines, as explain --json does.
def test_check_json_lists_usage_lines_as_explain_does(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\nContent-Signal: ai-train=no\nDisallow: /x\n")
    checked = json.loads(run("check", "--robots", str(robots), "--agent", "a", "--json",
                             "/y")[1])
    explained = json.loads(run("explain", str(robots), "--agent", "a", "/y", "--json")[1])
    assert checked["usage"] == explained["usage"] != []
    assert checked["usage"][0]["line"] == 2


# Finding 7: agents says which reading each column is.
def test_agents_says_which_reading_each_column_is() -> None:
    code, out = run("agents", EXAMPLE)
    assert code == 0
    assert "what this file says to its token (RFC 9309: the group" in out
    ads = next(line for line in out.splitlines() if line.lstrip().startswith("AdsBot-Google "))
    assert "'*' group at line 2" in ads
    assert "! only partly bound by robots.txt, says Google" in ads


# Finding 8: a newcomer offline is told why; never the lines of an absent file.
def test_an_unreachable_robots_txt_is_explained_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}/downloads/"
    code, out = run("check", "--agent", "ExampleBot", url, f"{url}again")
    assert code == 1 and out.startswith("disallowed")  # the status rules: exit 1 stays
    lines = err_lines(capsys)
    assert len(lines) == 1, lines  # once per site
    assert lines[0].startswith(f"robotsrules: note: {url[:-len('downloads/')]}robots.txt "
                               "could not be fetched (connection refused)")
    assert "every URL of the site is disallowed for now (RFC 9309 §2.3.1.4)" in lines[0]
    assert "this answer is cached until" in lines[0] and "--robots FILE" in lines[0]


def test_readme_first_command_offline_explains_itself(tmp_path: Path) -> None:
    """The README's first command, run as a newcomer would (the real program, a fresh
    cache), against a site that cannot be reached (a closed port on loopback)."""
    url = f"http://127.0.0.1:{free_port()}/downloads/"
    env = {**os.environ, "ROBOTSRULES_CACHE": str(tmp_path / "cache.sqlite3")}
    proc = subprocess.run([sys.executable, "-m", "robotsrules", "check", "--agent",
                           "ExampleBot", url], capture_output=True, timeout=120, env=env)
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith(f"disallowed  {url}")
    assert b"could not be fetched" in proc.stderr and b"disallowed for now" in proc.stderr


@pytest.mark.parametrize("argv", [["agents", "{url}"], ["explain", "{url}", "--agent", "a",
                                                         "/x"],
                                  ["stance", "{url}", "--agent", "a"],
                                  ["agents", "{url}", "--json"]])
def test_no_line_of_an_absent_file_is_described(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}/"
    code, out = run(*[a.format(url=url) for a in argv])
    assert code in (0, 1)
    assert "line 1" not in out and "1: " not in out.split("\n", 1)[1], out
    if "--json" in argv:
        report = json.loads(out)
        assert report["file"] == "absent" and report["groups"] == []
        assert all(c["groups"] == [] and c["rule"] is None for c in report["crawlers"])
    else:
        assert "no file" in out
    assert "could not be fetched" in capsys.readouterr().err


def test_lint_of_a_missing_robots_txt_says_so_with_its_own_exit_code(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with RawHTTPServer(respond(404, b"no")) as server:
        code, out = run("lint", server.url())
        assert code == 3
        assert out == (f"{server.url()}: no robots.txt (HTTP 404): nothing to lint; "
                       "crawlers read that as all allowed\n")
        code, out = run("lint", server.url(), EXAMPLE)  # no finding at --fail-on: still 3
        assert code == 3 and out.endswith(f"{EXAMPLE}: 0 errors, 0 warnings, 2 infos\n")
        code, out = run("lint", server.url(), EXAMPLE, "--fail-on", "info")  # 1 wins over 3
        assert code == 1
    err_lines(capsys)


# Finding 9: the command list, examples in every --help, a summary before a long diff.
def test_every_help_ends_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    from robotsrules.cli import _parser

    commands = next(a for a in _parser()._actions if a.dest == "command").choices
    assert commands is not None and len(commands) >= 12
    for name in ["", *commands]:
        assert main([name, "--help"] if name else ["--help"]) == 0
        text = capsys.readouterr().out
        tail = text.rstrip().split("\n\nExamples:\n")[-1].splitlines()
        assert "\n\nExamples:\n" in text and tail, name
        assert all(line.startswith("  robotsrules ") or line.startswith("  curl ")
                   for line in tail), (name, tail)


def test_diff_leads_with_a_summary(tmp_path: Path) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_bytes(b"User-agent: *\n" + b"".join(b"Disallow: /p%d/\n" % i for i in range(300)))
    new.write_bytes(b"User-agent: *\n" + b"".join(b"Disallow: /p%d/\n" % i for i in range(200))
                    + b"User-agent: GPTBot\nDisallow: /\n")
    code, out = run("diff", str(old), str(new))
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith("202 ") and "verdict changes: " in first  # a path and path?x a rule
    assert "newly disallowed" in first and "newly allowed" in first and "gptbot" in first
    summary = json.loads(run("diff", str(old), str(new), "--json")[1])["summary"]
    assert summary["changes"] == summary["newly_allowed"] + summary["newly_disallowed"]
    assert summary["newly_allowed"] == 200


def test_the_screen_escapes_whatever_a_command_forgot() -> None:
    """The one screen every answer goes through: a field a command did not pass through
    visible() still reaches the terminal escaped; the program's own colours are kept."""
    from robotsrules.cli._output import Screen

    text = "rule \x1b]0;owned\x07 \x9b2J \u202e\tend\n"
    out = io.StringIO()
    Screen(out).write(text)
    assert out.getvalue() == "rule \\x1b]0;owned\\x07 \\x9b2J \\u202e\\x09end\n"
    out = io.StringIO()
    Screen(out, colour=True).write("\x1b[1;31mDISALLOWED\x1b[0m " + text)
    assert out.getvalue().startswith("\x1b[1;31mDISALLOWED\x1b[0m rule \\x1b]0;owned")
    out = io.StringIO()
    Screen(out, json=True).write(json.dumps({"v": "a\x9b\u2028b\x7f"}, ensure_ascii=False))
    assert out.getvalue() == '{"v": "a\\u009b\\u2028b\\u007f"}'
    assert json.loads(out.getvalue()) == {"v": "a\x9b\u2028b\x7f"}


def test_a_missing_robots_txt_gets_no_note_its_answer_says_it(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with RawHTTPServer(respond(404, b"no")) as server:
        code, out = run("check", "--agent", "a", "--no-cache", f"{server.origin}/x")
    assert code == 0 and "unavailable: HTTP 404 -> all allowed" in out
    assert err_lines(capsys) == []
