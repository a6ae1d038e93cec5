"""``robotsrules stance``: text and JSON output, exit codes, files, stdin and URLs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from robotsrules.cli import main
from tests.network.servers import RawHTTPServer, respond

BODY = b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\nAllow: /admin/public\n"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture()
def robots_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY)
    return str(path)


def test_text_output_per_agent(robots_file: str) -> None:
    code, out = run("stance", robots_file, "--agent", "GPTBot", "Googlebot")
    assert code == 1
    assert out.splitlines() == [
        robots_file,
        "GPTBot     all   every path disallowed (robots.txt aside) (its own group)",
        "             2: Disallow: /",
        "Googlebot  some  some paths disallowed (the '*' group)",
        "             5: Disallow: /admin",
        "             6: Allow: /admin/public",
        "             e.g. disallowed: /admin; allowed: / /admin/public",
    ]


def test_json_and_exit_0_when_nothing_is_disallowed(tmp_path: Path) -> None:
    path = tmp_path / "open.txt"
    path.write_bytes(b"User-agent: *\nAllow: /\n")
    code, out = run("stance", str(path), "--agent", "CCBot", "--agent", "GPTBot", "--json")
    assert code == 0
    report = json.loads(out)
    assert [s["agent"] for s in report["stances"]] == ["CCBot", "GPTBot"]
    crawler = report["stances"][0].pop("crawler")
    assert report["stances"][0] == {
        "agent": "CCBot", "kind": "none", "scope": "global", "complete": True,
        "lines": [{"line": 2, "directive": "allow", "value": "/", "pattern": "/"}],
        "disallowed": [], "allowed": ["/"],
    }
    assert crawler["name"] == "CCBot" and crawler["robots_txt"]["obeys"] == "yes"


def test_stance_says_which_agents_robots_txt_cannot_stop(tmp_path: Path) -> None:
    path = tmp_path / "block.txt"
    path.write_bytes(b"User-agent: *\nDisallow: /\n")
    code, out = run("stance", str(path), "--agent", "ChatGPT-User", "GPTBot", "Unlisted",
                    "Google-Extended")
    assert code == 1
    blocks: dict[str, str] = {}
    for line in out.splitlines()[1:]:
        if not line.startswith(" "):
            name = line.split()[0]
            blocks[name] = ""
        blocks[name] += line + "\n"
    assert "note: NOT bound by robots.txt, says OpenAI" in blocks["ChatGPT-User"]
    assert "note: control token: no request carries it" in blocks["Google-Extended"]
    assert "note:" not in blocks["GPTBot"] and "note:" not in blocks["Unlisted"]
    code, out = run("stance", str(path), "--agent", "ChatGPT-User", "Unlisted", "--json")
    stances = json.loads(out)["stances"]
    assert stances[0]["crawler"]["stoppable"] is False
    assert stances[1]["crawler"] is None


def test_url_source_fetched_from_a_local_server() -> None:
    with RawHTTPServer(respond(200, BODY, {"Content-Type": "text/plain"})) as server:
        code, out = run("stance", server.url(), "--agent", "GPTBot", "--json")
    assert code == 1
    assert json.loads(out)["stances"][0]["kind"] == "all"
    with RawHTTPServer(respond(503)) as server:  # unreachable: all disallowed for now
        code, out = run("stance", server.url(), "--agent", "GPTBot", "--json")
    assert code == 1 and json.loads(out)["stances"][0]["kind"] == "all"


@pytest.mark.parametrize(
    "argv",
    [
        ("stance", "{file}"),  # no agent
        ("stance", "/nonexistent/robots.txt", "--agent", "x"),
        ("stance", "{file}", "--agent", "x", "--mode", "legacy"),
    ],
)
def test_errors_exit_2_without_traceback(
    argv: tuple[str, ...], robots_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(*(a.replace("{file}", robots_file) for a in argv))
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert err.startswith("robotsrules: error: ") and "Traceback" not in err


def test_a_published_name_that_is_no_token_gets_the_registry_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.txt"
    path.write_bytes(b"User-agent: AI\nDisallow: /\n")
    code, out = run("stance", str(path), "--agent", "AI2Bot")
    assert code == 2 and out == ""
    assert "robots.txt reads it as 'AI'; pass --agent AI" in capsys.readouterr().err
    code, out = run("stance", str(path), "--agent", "ChatGPT Agent")
    assert code == 2 and "no robots.txt group can name it" in capsys.readouterr().err
    code, out = run("stance", str(path), "--agent", "AI")
    assert code == 1 and out.splitlines()[1].startswith("AI  all")
