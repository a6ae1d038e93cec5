"""Golden-output tests of `robotsrules lint` and of `--mode` on check, explain, agents, diff."""

from __future__ import annotations

import http.server
import io
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules.cli import main
from robotsrules.linter import CODES

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")

CRAFTED = (b"User-agent: *\n"
           b"Disalow: /x\n"
           b"Disallow: /a*\n"
           b"User-agent: MJ12bot\n"
           b"Disallow: fish\n")

# One file read three ways: longest match (google), %7E decoded (rfc), first match and no
# wildcards (legacy).
MODES_FILE = (b"User-agent: *\n"
              b"Disallow: /p\n"
              b"Allow: /p/ok\n"
              b"Disallow: /a%7Eb\n"
              b"Disallow: /*.pdf\n")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture()
def crafted(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(CRAFTED)
    return str(path)


def test_lint_text_golden(crafted: str) -> None:
    code, out = run("lint", crafted)
    assert code == 1  # an error is present and --fail-on defaults to error
    lines = out.splitlines()
    assert [": ".join(line.split(": ")[:2]).replace(crafted, "F") for line in lines] == [
        "F:2:1: warning R102 key-typo",
        "F:3:11: info R501 mode-difference",
        "F:4:15: warning R203 agent-truncated",
        "F:5:11: error R301 path-not-slash",
        "F: 1 error, 2 warnings, 1 info",
    ]
    assert lines[0].endswith("(write `Disallow: /x`)")
    assert lines[-1] == f"{crafted}: 1 error, 2 warnings, 1 info"
    assert "\x1b[" not in out


def test_lint_fail_on_sets_the_exit_code(tmp_path: Path) -> None:
    warn_only = tmp_path / "w.txt"
    warn_only.write_bytes(b"User-agent: *\nDisalow: /x\n")
    assert run("lint", str(warn_only))[0] == 0
    assert run("lint", "--fail-on", "warning", str(warn_only))[0] == 1
    assert run("lint", "--fail-on", "info", str(warn_only))[0] == 1
    clean = tmp_path / "c.txt"
    clean.write_bytes(b"User-agent: *\nDisallow: /private/\n")
    code, out = run("lint", "--fail-on", "info", str(clean))
    assert code == 0 and out == f"{clean}: no problems\n"


def test_lint_never_fails_with_fail_on_never(crafted: str) -> None:
    assert run("lint", "--fail-on", "never", crafted)[0] == 0


def test_lint_json_and_sarif(crafted: str) -> None:
    code, out = run("lint", "--json", crafted)
    report = json.loads(out)
    assert code == 1 and report["version"] == 1 and report["file"] == crafted
    assert [d["code"] for d in report["diagnostics"]] == ["R102", "R501", "R203", "R301"]
    assert report["summary"] == {"error": 1, "warning": 2, "info": 1, "total": 4}
    _, out = run("lint", "--format", "sarif", crafted, EXAMPLE)
    log = json.loads(out)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"R102", "R203", "R301"}
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(CODES)
    _, out = run("lint", "--json", crafted, EXAMPLE)
    many = json.loads(out)
    assert isinstance(many, list) and [r["file"] for r in many] == [crafted, EXAMPLE]


def test_lint_json_validates_against_the_shipped_schema(crafted: str) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra)")
    from robotsrules.linter._output import json_schema

    _, out = run("lint", "--json", crafted)
    jsonschema.validate(json.loads(out), json_schema())


def test_lint_colour_only_when_asked(crafted: str) -> None:
    assert "\x1b[" in run("lint", "--color", "always", crafted)[1]
    assert "\x1b[" not in run("lint", "--color", "never", crafted)[1]


def test_lint_list_codes() -> None:
    code, out = run("lint", "--list-codes")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == list(CODES)


def test_lint_usage_and_io_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("lint")[0] == 2
    assert run("lint", str(tmp_path / "missing.txt"))[0] == 2
    assert "missing.txt" in capsys.readouterr().err
    assert run("lint", "--format", "xml", EXAMPLE)[0] == 2


Site = tuple[str, list[str], dict[str, int]]


@pytest.fixture()
def site() -> Iterator[Site]:
    """A loopback site serving CRAFTED at /robots.txt with ``state["status"]``; yields its
    origin, the paths asked and the state."""
    seen: list[str] = []
    state = {"status": 200}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            body = CRAFTED if state["status"] == 200 else b"nope"
            self.send_response(state["status"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen, state
    finally:
        server.shutdown()
        server.server_close()


def test_lint_a_url_fetches_its_robots_txt(site: Site) -> None:
    origin, seen, _ = site
    code, out = run("lint", "--json", origin + "/some/page")
    report = json.loads(out)
    assert seen == ["/robots.txt"]
    assert report["file"] == origin + "/robots.txt"
    assert [d["code"] for d in report["diagnostics"]] == ["R102", "R501", "R203", "R301"]
    assert code == 1


def test_lint_a_url_with_no_file_or_an_outage(site: Site,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    origin, _, state = site
    # 404: a valid state (allow all), but nothing to lint: said on stdout, exit 3 (issue 25).
    state["status"] = 404
    code, out = run("lint", origin + "/")
    assert code == 3 and out.endswith(": no robots.txt (HTTP 404): nothing to lint; "
                                      "crawlers read that as all allowed\n"), out
    capsys.readouterr()
    # 503: the file could not be read: an error, exit 2.
    state["status"] = 503
    code, _ = run("lint", origin + "/")
    assert code == 2 and "unreachable" in capsys.readouterr().err


# -- --mode ---------------------------------------------------------------------------

@pytest.fixture()
def modes_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(MODES_FILE)
    return str(path)


@pytest.mark.parametrize(("mode", "expected"), [
    ("google", ["allowed     /p/ok  3: Allow: /p/ok",
                "allowed     /a~b  no rule matches",
                "disallowed  /x.pdf  5: Disallow: /*.pdf"]),
    ("rfc", ["allowed     /p/ok  3: Allow: /p/ok",
             "disallowed  /a~b  4: Disallow: /a%7Eb",
             "disallowed  /x.pdf  5: Disallow: /*.pdf"]),
    ("legacy", ["disallowed  /p/ok  2: Disallow: /p",
                "disallowed  /a~b  4: Disallow: /a%7Eb",
                "allowed     /x.pdf  no rule matches"]),
])
def test_check_mode(modes_file: str, mode: str, expected: list[str]) -> None:
    code, out = run("check", "--robots", modes_file, "--agent", "Bot", "--mode", mode,
                    "/p/ok", "/a~b", "/x.pdf")
    assert out.splitlines() == expected
    assert code == 1


def test_check_mode_json_says_the_reason(modes_file: str) -> None:
    _, out = run("check", "--robots", modes_file, "--agent", "Bot", "--mode", "legacy",
                 "--json", "/p/ok")
    row = json.loads(out)
    assert row["reason"] == "first-match" and row["rule"]["line"] == 2


def test_explain_agents_and_diff_take_a_mode(modes_file: str, tmp_path: Path) -> None:
    code, out = run("explain", modes_file, "--agent", "Bot", "--mode", "legacy", "/p/ok")
    assert code == 1
    assert out.splitlines()[-2:] == [
        "  decides: line 2: Disallow: /p",
        "  why:     legacy reading: the first matching rule of the record decides",
    ]
    _, out = run("agents", modes_file, "--mode", "legacy", "--url", "/p/ok", "--json")
    assert {c["allowed"] for c in json.loads(out)["crawlers"]} == {False}
    _, out = run("agents", modes_file, "--url", "/p/ok", "--json")
    assert {c["allowed"] for c in json.loads(out)["crawlers"]} == {True}
    # The same two files differ in google mode only where the wildcard rule matters.
    new = tmp_path / "new.txt"
    new.write_bytes(MODES_FILE.replace(b"Disallow: /*.pdf\n", b""))
    code, out = run("diff", modes_file, str(new), "--agent", "Bot", "--json")
    # (and past the pattern's end, where an added or removed `$` would show: "/x.pdf?x")
    assert code == 1 and [c["url"] for c in json.loads(out)["changes"]] == ["/x.pdf",
                                                                            "/x.pdf?x"]
    # Legacy readers take `*` literally: removing the rule only changes the URL "/*.pdf".
    code, out = run("diff", modes_file, str(new), "--agent", "Bot", "--mode", "legacy",
                    "--json")
    assert code == 1 and [c["url"] for c in json.loads(out)["changes"]] == ["/%2A.pdf",
                                                                            "/%2A.pdf?x"]


def test_diff_in_legacy_mode_skips_values_that_are_not_tokens(tmp_path: Path) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_bytes(b"User-agent: MJ12bot\nDisallow: /\n")
    new.write_bytes(b"User-agent: MJ12bot\nDisallow: /x\n")
    code, out = run("diff", str(old), str(new), "--mode", "legacy")
    assert code == 0, out  # no crawler token to ask with; '*' sees no change


def test_lint_and_modes_on_corpus_files(corpus_dir: str) -> None:
    robots = os.path.join(corpus_dir, "robots")
    names = sorted(os.listdir(robots))[:40]
    for name in names:
        path = os.path.join(robots, name)
        code, out = run("lint", "--json", path)
        assert code in (0, 1)
        report = json.loads(out)
        assert (code == 1) == (report["summary"]["error"] > 0)
        for mode in ("google", "rfc", "legacy"):
            code, out = run("check", "--robots", path, "--agent", "Googlebot", "--mode", mode,
                            "--json", "/", "/search?q=x")
            assert code in (0, 1) and len(out.splitlines()) == 2
