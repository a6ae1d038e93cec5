"""The command line: output, exit codes 0/1/2, clear errors without tracebacks."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from robotsrules.cli import main
from tests.timing import HANG

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_allowed_urls_exit_0_with_the_deciding_line() -> None:
    code, out = run("check", "--robots", EXAMPLE, "--agent", "ExampleBot",
                    "https://example.com/private/press/a", "https://example.com/about")
    assert code == 0
    assert out.splitlines() == [
        "allowed     https://example.com/private/press/a  4: Allow: /private/press/",
        "allowed     https://example.com/about  no rule matches",
    ]


def test_any_disallowed_url_exits_1() -> None:
    code, out = run("check", "--robots", EXAMPLE, "--agent", "GPTBot/1.2",
                    "https://example.com/", "/robots.txt")
    assert code == 1
    assert out.splitlines()[0] == "disallowed  https://example.com/  11: Disallow: /"
    assert "always allowed" in out.splitlines()[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--robots", "/nonexistent/robots.txt", "--agent", "a", "/"], "No such file"),
        (["check", "--robots", EXAMPLE, "--agent", "not a token", "/"], "product token"),
        (["check", "--robots", EXAMPLE, "--agent", "a", "no-slash"], "not an absolute URL"),
        (["check", "--robots", EXAMPLE, "/"], "no agent given"),  # --agent or --agent-category
        (["frobnicate"], "invalid choice"),
    ],
)
def test_usage_and_io_errors_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_installed_entry_point_and_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "robotsrules", "check", "--robots", "-", "--agent", "a", "/x"],
        input=b"User-agent: *\nDisallow: /x\n", capture_output=True, timeout=HANG,
    )
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("disallowed  /x  2: Disallow: /x")


def test_urls_from_a_file_and_json_lines(tmp_path: os.PathLike[str]) -> None:
    listed = os.path.join(str(tmp_path), "urls.txt")
    with open(listed, "w") as handle:
        handle.write("# to check\nhttps://example.com/private/x\n\nhttps://example.com/ok\n")
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "--urls-file", listed,
                    "--json", "https://example.com/a.pdf")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [(r["url"], r["allowed"]) for r in rows] == [
        ("https://example.com/a.pdf", False), ("https://example.com/private/x", False),
        ("https://example.com/ok", True)]
    assert rows[1]["rule"]["line"] == 3 and rows[2]["reason"] == "no-match"


def test_no_url_at_all_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--robots", EXAMPLE, "--agent", "a"], out=io.StringIO()) == 2
    assert "no URL given" in capsys.readouterr().err
