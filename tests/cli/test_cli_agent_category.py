"""``--agent-category`` anywhere an ``--agent`` is accepted: ``check``, ``explain``,
``diff``, ``usage`` and ``page`` answer once per token of the category (after any
``--agent``); the exit code is that of the most restrictive answer; an unknown category is
exit 2 with one stderr line. One agent alone prints what it always printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules.cli import main

CONTROL = ["Google-Extended", "Applebot-Extended", "Webzio-Extended"]  # usage-control
ROBOTS = (b"User-agent: Applebot-Extended\nDisallow: /\n\n"
          b"User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private\n")
OLDER = b"User-agent: *\nDisallow: /private\n"
PAGE = (b"HTTP/1.1 200 OK\r\nX-Robots-Tag: Google-Extended: noai\r\n"
        b"Content-Type: text/html\r\n\r\n<html><head></head></html>")


@pytest.fixture()
def files(tmp_path: Path) -> tuple[str, str, str]:
    (tmp_path / "robots.txt").write_bytes(ROBOTS)
    (tmp_path / "older.txt").write_bytes(OLDER)
    (tmp_path / "page.http").write_bytes(PAGE)
    return str(tmp_path / "robots.txt"), str(tmp_path / "older.txt"), str(tmp_path / "page.http")


def run(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_one_line_per_url_and_token(files: tuple[str, str, str], capsys: Any) -> None:
    robots = files[0]
    code, out, _ = run(["check", "--robots", robots, "--agent-category", "control", "/a"],
                       capsys)
    assert code == 1  # Applebot-Extended is disallowed: the most restrictive answer wins
    lines = out.splitlines()
    assert [line.split()[1] for line in lines] == CONTROL
    assert lines[1].startswith("disallowed  Applebot-Extended  /a  2: Disallow: /")
    # --agent first, then the category's tokens; --json: one object per URL and agent.
    code, out, _ = run(["check", "--robots", robots, "--agent", "Googlebot", "--json",
                        "--agent-category", "control", "/a", "/private/b"], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["url"], r["agent"]) for r in rows] == [
        (url, agent) for url in ("/a", "/private/b") for agent in ["Googlebot", *CONTROL]]
    assert [r["allowed"] for r in rows][:4] == [True, True, False, True]
    # Only allowed answers: exit 0. One agent: the line has no agent column.
    assert run(["check", "--robots", robots, "--agent-category", "search", "/a"],
               capsys)[0] == 0
    assert run(["check", "--robots", robots, "--agent", "GPTBot", "/a"],
               capsys)[1] == "allowed     /a  no rule matches\n"


def test_explain_marks_the_file_once_then_one_verdict_per_agent(
        files: tuple[str, str, str], capsys: Any) -> None:
    robots = files[0]
    code, out, _ = run(["explain", robots, "--agent", "Googlebot", "--agent-category",
                        "control", "/private/x"], capsys)
    assert code == 1
    assert out.count(str(robots)) == 1  # the file once
    assert ">     2  Disallow: /" in out and ">     6  Disallow: /private" in out
    verdicts = [line for line in out.splitlines() if line.startswith("DISALLOWED")]
    assert [line.rsplit(" for ", 1)[1] for line in verdicts] == ["Googlebot", *CONTROL]
    code, out, _ = run(["explain", robots, "--agent-category", "control", "/x", "--json"],
                       capsys)
    reports = json.loads(out)
    assert code == 1 and [r["agent"] for r in reports] == CONTROL
    assert [r["allowed"] for r in reports] == [True, False, True]
    code, out, _ = run(["explain", robots, "--agent", "Googlebot", "/x", "--json"], capsys)
    assert code == 0 and json.loads(out)["agent"] == "Googlebot"  # one agent: one object
    assert " for " not in run(["explain", robots, "--agent", "Googlebot", "/x"], capsys)[1]


def test_diff_compares_the_category(files: tuple[str, str, str], capsys: Any) -> None:
    robots, older, _ = files
    code, out, _ = run(["diff", older, robots, "--agent-category", "control", "--json"],
                       capsys)
    changes = json.loads(out)["changes"]
    assert code == 1 and changes
    assert {c["agent"] for c in changes} == {"Applebot-Extended"}
    code, out, _ = run(["diff", older, robots, "--agent", "Googlebot",
                        "--agent-category", "search", "--json"], capsys)
    assert code == 0 and json.loads(out)["changes"] == []


def test_usage_and_page_answer_per_agent(files: tuple[str, str, str], capsys: Any) -> None:
    robots, _, page = files
    code, out, _ = run(["usage", robots, "--agent-category", "control", "/x", "--json"],
                       capsys)
    documents = json.loads(out)
    assert code == 1  # Applebot-Extended may not crawl /x
    assert [d["agent"] for d in documents] == CONTROL
    assert [d["urls"][0]["crawl_allowed"] for d in documents] == [True, False, True]
    code, out, _ = run(["usage", robots, "--agent", "GPTBot", "--agent-category", "control",
                        "/x"], capsys)
    assert [line for line in out.splitlines() if line.startswith("agent ")] == [
        f"agent {a}" for a in ["GPTBot", *CONTROL]]
    code, out, _ = run(["page", page, "--agent-category", "control", "--json",
                        "--purpose", "ai-train"], capsys)
    answers = [d for d in json.loads(out)]
    assert code == 0 and len(answers) == 3
    assert [d["purposes"]["ai-train"]["allowed"] for d in answers] == [False, None, None]
    code, out, _ = run(["page", page, "--agent", "GPTBot", "--agent-category", "control"],
                       capsys)
    assert out.startswith("agent GPTBot\n") and "\nagent Webzio-Extended\n" in out


@pytest.mark.parametrize("argv", [
    ["check", "--robots", "{robots}", "/a"],
    ["explain", "{robots}", "/a"],
    ["diff", "{robots}", "{robots}"],
    ["usage", "{robots}", "/a"],
    ["page", "{page}"],
])
def test_unknown_category_is_one_line_exit_2(argv: list[str], files: tuple[str, str, str],
                                              capsys: Any) -> None:
    robots, _, page = files
    argv = [a.format(robots=robots, page=page) for a in argv]
    for extra, message in ((["--agent-category", "nope"], "unknown crawler category 'nope'"),
                           (["--agent", "a", "--agent-category", "nope"], "'nope'")):
        code, out, err = run([*argv, *extra], capsys)
        assert code == 2 and out == "", (argv, out)
        assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err
    if argv[0] != "diff":  # diff without an agent compares every agent the files name
        code, _, err = run(argv, capsys)
        assert code == 2 and "no agent given" in err and len(err.splitlines()) == 1


def test_agents_lists_only_the_asked_categories(files: tuple[str, str, str],
                                                capsys: Any) -> None:
    robots = files[0]
    code, out, _ = run(["agents", robots, "--agent-category", "control", "--json"], capsys)
    assert code == 0
    assert [c["token"] for c in json.loads(out)["crawlers"]] == CONTROL
    code, out, _ = run(["agents", robots, "--agent-category", "control", "--by-category"],
                       capsys)
    summary = [line for line in out.splitlines()[1:] if not line.startswith("warning")]
    assert code == 0 and summary == ["  usage-control: 1 of 3 blocked, 2 partly"]
    assert run(["agents", robots, "--agent-category", "nope"], capsys)[0] == 2
