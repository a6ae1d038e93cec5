"""Regression tests of issue 13's command-line findings (9, 19-26), against real loopback
servers and real files; each fails on the code before the fix."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules import __version__
from robotsrules._terminal import visible
from robotsrules.cli import main
from tests.network.servers import RawHTTPServer, free_port, respond
from tests.timing import HANG

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")
ROBOTS = b"User-agent: *\nDisallow: /private/\n"


def run(*argv: str, stdin: bytes = b"") -> tuple[int, str]:
    out = io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        return main(list(argv), out=out), out.getvalue()
    finally:
        sys.stdin = saved


@pytest.fixture()
def site() -> Iterator[RawHTTPServer]:
    with RawHTTPServer(respond(200, ROBOTS)) as server:
        yield server


@pytest.fixture(autouse=True)
def _no_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTSRULES_CACHE", str(tmp_path / "cache.sqlite3"))


def err_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.splitlines()


# Finding 9: a cached failure says so, and until when; --refresh fetches again.
def test_check_says_an_answer_is_a_cached_failure_and_refresh_fetches_again(
    tmp_path: Path,
) -> None:
    cache = str(tmp_path / "c.sqlite3")
    with RawHTTPServer(respond(503, b"down")) as server:
        url = f"{server.origin}/page"
        code, out = run("check", "--agent", "a", "--cache", cache, url)
        assert code == 1 and "unreachable" in out and "cached" not in out
        server.handler = respond(200, ROBOTS)  # the site is back
        code, out = run("check", "--agent", "a", "--cache", cache, url)
        assert code == 1 and server.count() == 1  # served from the cache...
        assert "(cached 20" in out and ", kept until 20" in out  # ...and it says so
        assert "--refresh fetches it again" in out
        code, out = run("check", "--agent", "a", "--cache", cache, "--json", url)
        fetch = json.loads(out)["fetch"]
        assert fetch["cached"] is True and fetch["outcome"] == "unreachable"
        code, out = run("check", "--agent", "a", "--cache", cache, "--refresh", url)
        assert code == 0 and server.count() == 2
        assert out == f"allowed     {url}  no rule matches\n"
        code, out = run("check", "--agent", "a", "--cache", cache, url)  # the cache has it
        assert code == 0 and server.count() == 2


def test_refresh_keeps_the_last_good_copy_when_the_site_fails(tmp_path: Path) -> None:
    cache = str(tmp_path / "c.sqlite3")
    with RawHTTPServer(respond(200, ROBOTS)) as server:
        url = f"{server.origin}/private/x"
        assert run("check", "--agent", "a", "--cache", cache, url)[0] == 1
        server.handler = respond(503, b"down")
        code, out = run("check", "--agent", "a", "--cache", cache, "--refresh",
                        f"{server.origin}/ok")
        assert server.count() == 2
        assert code == 0 and "using the last good copy" in out


# Finding 19: agents on a URL crashed; diff sent 'None (...)' or a list as User-Agent.
def test_agents_and_diff_fetch_with_a_sensible_user_agent(
    site: RawHTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("agents", site.url())
    assert code == 0 and "line 1     *: 1 rule" in out
    assert run("diff", site.url(), EXAMPLE)[0] == 1
    assert run("diff", site.url(), EXAMPLE, "--agent", "GPTBot", "--agent", "CCBot")[0] == 1
    sent = [r.headers["user-agent"] for r in site.requests]
    assert sent == [f"robotsrules/{__version__}"] * 3
    assert run("explain", site.url(), "--agent", "ExampleBot/2", "/")[0] == 0
    assert site.requests[-1].headers["user-agent"] == f"ExampleBot (robotsrules/{__version__})"
    assert err_lines(capsys) == []


# Finding 20: URL lists with octets that are not UTF-8.
def test_a_url_list_that_is_not_utf8_reports_the_line_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_bytes(b"/private/a\n/caf\xe9\n/ok\n")
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "--urls-file", str(listed))
    assert code == 2
    assert [line.split()[:2] for line in out.splitlines()] == [
        ["disallowed", "/private/a"], ["allowed", "/ok"]]
    assert err_lines(capsys) == [
        f"robotsrules: error: {listed}:2: not UTF-8 (octet 0xe9 at column 5); "
        "percent-encode it (%E9)"]
    code, out = run("diff", EXAMPLE, EXAMPLE, "--urls", str(listed))
    assert code == 2 and out == "no verdict changes\n"
    assert err_lines(capsys)[0].startswith(f"robotsrules: error: {listed}:2: not UTF-8")
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "--urls-file", "-",
                    stdin=b"\xff\xfe/x\n/private/y\n")
    assert code == 2 and out.startswith("disallowed  /private/y")
    assert err_lines(capsys)[0].startswith("robotsrules: error: <stdin>:1: not UTF-8")


# Finding 22: --timeout and --user-agent are validated, one line, exit 2.
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e300", "0", "-1", "ten", "86401"])
def test_timeout_must_be_a_positive_finite_number(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in (["check", "--agent", "a", "http://127.0.0.1:1/"], ["fetch", "http://x/"],
                    ["lint", "http://x/"], ["explain", "http://x/", "--agent", "a", "/"]):
        assert run(*command, f"--timeout={value}")[0] == 2
        lines = err_lines(capsys)
        assert len(lines) == 1 and "--timeout" in lines[0], lines


@pytest.mark.parametrize("value", ["ProbeBöt/1.0", "a\r\nX-Injected: 1", "", " lead", "t\tab"])
def test_user_agent_must_be_a_header_value(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("fetch", "--user-agent", value, "http://127.0.0.1:1/")[0] == 2
    lines = err_lines(capsys)
    assert len(lines) == 1 and "--user-agent" in lines[0], lines
    assert run("fetch", "--agent", "Böt", "http://127.0.0.1:1/")[0] == 2
    assert "not a crawler product token" in err_lines(capsys)[0]  # one grammar: a token


def test_a_valid_timeout_and_user_agent_are_used(
    site: RawHTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    # a fraction, yet one no loopback answer reaches on a loaded machine
    code, out = run("fetch", "--timeout", "30.5", "--user-agent", "Probe/1.0 (+x)", site.url())
    assert code == 0 and "outcome     ok" in out
    assert site.requests[0].headers["user-agent"] == "Probe/1.0 (+x)"
    assert err_lines(capsys) == []


# Finding 24: text from the network is printed with control characters visible.
HOSTILE = (b"User-agent: *\x1b]0;owned\x07\n"
           b"Disallow: /a\x1b[2J\x9b\n"
           b"Sitemap: https://x/\x1b]52;c;ZXZpbA==\x07\n")


def test_explain_fetch_agents_check_diff_print_no_raw_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / "hostile.txt"
    hostile.write_bytes(HOSTILE)
    with RawHTTPServer({"/robots.txt": respond(200, HOSTILE),
                        "/x": respond(200, b"")}) as server:
        outputs = [
            run("explain", server.url(), "--agent", "a", "/a\x1b[2Jz")[1],
            run("fetch", server.url())[1],
            run("agents", server.url())[1],
            run("check", "--agent", "a", "--no-cache", f"{server.origin}/a\x1b[2J")[1],
            run("check", "--robots", str(hostile), "--agent", "a", "/a\x1b[2J")[1],
            run("diff", str(hostile), EXAMPLE)[1],
            run("lint", server.url())[1],
        ]
    for out in outputs:
        assert out and not any(c in out for c in "\x1b\x07\x9b"), out
    assert "\\x1b[2J" in outputs[0] and "\\x1b]52;c;" in outputs[1]
    assert not any(c in capsys.readouterr().err for c in "\x1b\x07\x9b")


def test_visible_is_idempotent_and_leaves_text_alone() -> None:
    assert visible("Disallow: /café ✓") == "Disallow: /café ✓"
    once = visible("a\x1b\x00\x7f\x85\u202e\u2028b")
    assert once == "a\\x1b\\x00\\x7f\\x85\\u202e\\u2028b" and visible(once) == once


# Finding 25: check --urls-file streams, reads bulk's formats, reports a bad line, goes on.
def test_urls_file_reads_bulk_line_formats_and_reports_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "urls.txt.gz"
    with gzip.open(listed, "wb") as handle:
        handle.write(b"\xef\xbb\xbf# BOM and comment\nexample.com\thttps://example.com/private/a\n"
                     b"no-slash\n\n  https://example.com/ok  \n")
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "--urls-file", str(listed))
    assert code == 2
    assert [line.split()[:2] for line in out.splitlines()] == [
        ["disallowed", "https://example.com/private/a"], ["allowed", "https://example.com/ok"]]
    lines = err_lines(capsys)
    assert len(lines) == 1 and lines[0].startswith(f"robotsrules: error: {listed}:3: not an")


def test_an_over_long_line_is_reported_not_held(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_bytes(b"/" + b"a" * 200_000 + b"\n/private/x\n" + b"/b" * 40_000)
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "--urls-file", str(listed))
    assert code == 2 and out.splitlines() == ["disallowed  /private/x  3: Disallow: /private/"]
    assert err_lines(capsys) == [f"robotsrules: error: {listed}:{n}: longer than 65,536 octets"
                                 for n in (1, 3)]


def test_urls_file_answers_each_line_before_reading_the_next() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotsrules", "check", "--robots", EXAMPLE, "--agent", "a",
         "--urls-file", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    guard = threading.Timer(HANG, proc.kill)  # a CLI that slurps stdin would block readline
    guard.start()
    try:
        proc.stdin.write(b"/private/x\n")
        proc.stdin.flush()
        first = proc.stdout.readline()  # before stdin is closed: streamed, not slurped
        assert first.startswith(b"disallowed  /private/x")
        proc.stdin.write(b"/ok\n")
        proc.stdin.close()
        rest, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=HANG)
    finally:
        guard.cancel()
        proc.kill()
        proc.wait()
    assert rest.startswith(b"allowed     /ok") and proc.returncode == 1 and err == b""


def test_an_invalid_url_argument_does_not_stop_the_others(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("check", "--robots", EXAMPLE, "--agent", "a", "no-slash", "/private/x")
    assert code == 2 and out.startswith("disallowed  /private/x")
    assert len(err_lines(capsys)) == 1


def test_one_url_that_breaks_a_library_does_not_stop_the_others(
    site: RawHTTPServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("check", "--agent", "a", "--no-cache", "--timeout", "2", "http://a..b/",
                    "http://xn--zz.x/", f"{site.origin}/private/x", f"{site.origin}/ok")
    assert code in (1, 2) and out.splitlines()[-2:] == [
        f"disallowed  {site.origin}/private/x  2: Disallow: /private/",
        f"allowed     {site.origin}/ok  no rule matches"]
    lines = err_lines(capsys)  # one note per site that could not be fetched (issue 25)
    errors = [line for line in lines if line.startswith("robotsrules: error: ")]
    assert len(errors) == (0 if code == 1 else 2)
    assert all(line.startswith(("robotsrules: error: ", "robotsrules: note: "))
               for line in lines)


# Finding 26, as issue 25 settles it: --agent is repeatable everywhere, one answer per agent.
def test_a_second_agent_gets_its_own_answer_never_a_silent_replacement(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("check", "--robots", EXAMPLE, "--agent", "GPTBot", "--agent", "Other", "/")
    assert code == 1 and out.splitlines() == [
        "disallowed  GPTBot  /  11: Disallow: /", "allowed     Other   /  no rule matches"]
    code, out = run("explain", EXAMPLE, "--agent", "GPTBot", "--agent", "Other", "/")
    assert code == 1 and "DISALLOWED  /  (target /)  for GPTBot" in out
    assert "ALLOWED  /  (target /)  for Other" in out
    assert err_lines(capsys) == []


def test_standard_input_can_be_read_once(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["check", "--robots", "-", "--urls-file", "-", "--agent", "a"],
                 ["diff", "-", "-"], ["diff", "-", EXAMPLE, "--urls", "-"], ["lint", "-", "-"]):
        assert run(*argv, stdin=ROBOTS) == (2, "")
        lines = err_lines(capsys)
        assert len(lines) == 1 and "standard input" in lines[0], argv


def test_plurals_and_one_arrow(site: RawHTTPServer) -> None:
    _, out = run("explain", EXAMPLE, "--agent", "a", "/private/x")
    assert "the '*' group at line 2" in out
    _, out = run("fetch", site.url())
    assert "  line 1     *: 1 rule\n" in out
    _, out = run("agents", EXAMPLE)
    assert ": 3 rules" in out and ": 1 rule\n" in out
    _, out = run("check", "--agent", "a", "--no-cache", "--timeout", "2",
                 f"http://127.0.0.1:{free_port()}/")
    assert "\u2192" not in out and "-> all disallowed" in out


def test_check_json_fetch_is_always_an_object(site: RawHTTPServer) -> None:
    keys = {"source", "outcome", "status", "error", "served", "cached", "fetched_at",
            "expires_at"}
    _, out = run("check", "--json", "--robots", EXAMPLE, "--agent", "a", "/x")
    fetch = json.loads(out)["fetch"]
    assert set(fetch) == keys and fetch["served"] == "file" and fetch["source"] == EXAMPLE
    _, out = run("check", "--json", "--no-cache", "--agent", "a", f"{site.origin}/x")
    fetch = json.loads(out)["fetch"]
    assert set(fetch) == keys and fetch["outcome"] == "ok" and fetch["status"] == 200
    assert fetch["cached"] is False and fetch["served"] == "fresh"
    _, out = run("check", "--json", "--no-cache", "--timeout", "2", "--agent", "a",
                 f"http://127.0.0.1:{free_port()}/")
    fetch = json.loads(out)["fetch"]
    assert set(fetch) == keys and fetch["outcome"] == "unreachable"
    assert fetch["error"] == "connection refused"


def test_optional_modules_name_the_extra_to_install() -> None:
    script = (
        "import importlib, sys\n"
        "for blocked, module, extra in [('duckdb', 'duckdb', 'bulk'),\n"
        "                               ('scrapy', 'scrapy', 'scrapy'),\n"
        "                               ('pyspark', 'spark', 'spark')]:\n"
        "    sys.modules[blocked] = None\n"
        "    try:\n"
        "        importlib.import_module('robotsrules.' + module)\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=HANG,
                          text=True)
    assert proc.stdout.splitlines() == [
        "robotsrules.duckdb needs the 'duckdb' package: pip install 'robotsrules[bulk]'",
        "robotsrules.scrapy needs the 'scrapy' package: pip install 'robotsrules[scrapy]'",
        "robotsrules.spark needs the 'pyspark' package: pip install 'robotsrules[spark]'",
    ], proc.stderr


@pytest.mark.parametrize("argv", [
    ["check", "--robots", "{robots}", "--agent", "x", "http://h/p\udc9b31m", "--json"],
    ["check", "--robots", "{robots}", "--agent", "x", "http://h/p\udc9b31m"],
    ["explain", "{robots}", "--agent", "x", "http://h/\udce9"],
    ["usage", "{robots}", "http://h/\udce9"],
])
def test_a_url_argument_that_is_not_utf8_is_one_usage_error(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The shell passes octets that are not UTF-8 as lone surrogates: a URL argument holding
    # one is refused before any work, the octet named and escaped; nothing reaches stdout
    # raw (second review of issue 35: a raw 0x9b, an 8-bit CSI, reached the terminal).
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\nDisallow: /p\n")
    code = main([arg.replace("{robots}", str(robots)) for arg in argv])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "not UTF-8 (octet 0x" in captured.err and "percent-encode it" in captured.err
    assert not any("\udc80" <= char <= "\udcff" for char in captured.err)
