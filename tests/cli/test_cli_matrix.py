"""The command line as a property: every subcommand x every FILE_OR_URL form x bad options.

Whatever the input (a file, '-', a URL served on loopback, a closed port, a missing path, a
directory, binary octets, text that is not UTF-8, control characters), every command:

* exits with a code in its documented set (README, "Command line");
* never prints a traceback, nor the "internal error" line main() falls back to;
* writes errors on stderr as lines of their own, each starting ``robotsrules``; a usage
  error is exactly one line;
* prints no raw control character on stdout (text output).

The matrix runs in-process through ``main()``; a few subprocesses check the installed entry
point, and that SIGINT/SIGTERM stop long-running commands quietly (exit 130/143).
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

import pytest

from robotsrules._terminal import CONTROL_ESCAPES
from robotsrules.cli import main
from tests.network.servers import RawHTTPServer, free_port, respond, slow_headers

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")
ROBOTS = b"User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n"
HOSTILE = b"User-agent: *\x1b]0;t\x07\nDisallow: /a\x1b[2J\x9b\nAllow: /\xc2\x9b\n"
BINARY = bytes(range(256)) * 3 + b"\x00\x00User-agent: *\n\x00Disallow: /\n"
LATIN1 = b"User-agent: *\nDisallow: /caf\xe9\n# \xff\xfe\n"

# The documented exit codes of each command (README, "Command line").
EXITS: Dict[str, Tuple[int, ...]] = {
    "check": (0, 1, 2), "explain": (0, 1, 2), "diff": (0, 1, 2), "lint": (0, 1, 2),
    "agents": (0, 2), "fetch": (0, 2), "report": (0, 2), "bulk": (0, 2),
}
# Where each command takes a FILE_OR_URL (or a file) and the rest of a valid command line.
COMMANDS: Dict[str, Sequence[str]] = {
    "check --robots": ("check", "--robots", "{}", "--agent", "a", "/x", "/private/y"),
    "check URL": ("check", "--agent", "a", "--no-cache", "--timeout", "2", "{}", "/x"),
    "check --urls-file": ("check", "--agent", "a", "--no-cache", "--timeout", "2",
                          "--urls-file", "{}"),
    "explain": ("explain", "{}", "--agent", "a", "/private/x"),
    "agents": ("agents", "{}", "--url", "/a"),
    "diff old": ("diff", "{}", EXAMPLE),
    "diff new": ("diff", EXAMPLE, "{}", "--json"),
    "diff --urls": ("diff", EXAMPLE, EXAMPLE, "--urls", "{}", "--agent", "a"),
    "lint": ("lint", "{}"),
    "lint sarif": ("lint", "--format", "sarif", "{}"),
    "fetch": ("fetch", "{}", "--timeout", "2"),
    "report": ("report", "{}"),
    "bulk --robots": ("bulk", "--robots", "{}", "--urls", EXAMPLE, "--agent", "a", "--out",
                      "{out}"),
    "bulk --urls": ("bulk", "--robots", EXAMPLE, "--urls", "{}", "--agent", "a", "--out",
                    "{out}"),
}
FORMS = ("file", "stdin", "http", "http-hostile", "http-500", "closed-port", "missing",
         "directory", "binary", "latin1", "hostile", "empty", "odd-url")
BAD_OPTIONS: Sequence[Sequence[str]] = (
    ("--timeout", "nan"), ("--timeout", "-1"), ("--timeout", "1e300"),
    ("--user-agent", "Böt/1.0"), ("--user-agent", "a\r\nb: c"), ("--mode", "bogus"),
    ("--no-such-option",), ("--agent",), ("--color", "sometimes"), ("--top", "many"),
    ("--format", "xml"), ("--json=yes",),
    ("--agent-category", "nope"), ("--agent-category",),
)


@pytest.fixture(scope="module")
def servers() -> Iterator[Dict[str, str]]:
    with RawHTTPServer(respond(200, ROBOTS)) as good, \
            RawHTTPServer(respond(200, HOSTILE)) as hostile, \
            RawHTTPServer(respond(500, b"oops")) as failing:
        yield {"http": good.url(), "http-hostile": hostile.url(), "http-500": failing.url()}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    root = tmp_path_factory.mktemp("forms")
    made = {}
    for name, data in {"file": ROBOTS, "binary": BINARY, "latin1": LATIN1,
                       "hostile": HOSTILE, "empty": b""}.items():
        (root / name).write_bytes(data)
        made[name] = str(root / name)
    (root / "directory").mkdir()
    made["directory"] = str(root / "directory")
    made["missing"] = str(root / "missing.txt")
    return made


def _source(form: str, files: Dict[str, str], servers: Dict[str, str]) -> Tuple[str, bytes]:
    """The FILE_OR_URL argument for ``form``, and what standard input holds."""
    if form == "stdin":
        return "-", ROBOTS
    if form in servers:
        return servers[form], b""
    if form == "closed-port":
        return f"http://127.0.0.1:{free_port()}/robots.txt", b""
    if form == "odd-url":
        return "http://exa mple.com:99999/\x1b[2J", b""
    return files[form], b""


def run(argv: List[str], stdin: bytes) -> Tuple[int, str]:
    out = io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        return main(argv, out=out), out.getvalue()
    finally:
        sys.stdin = saved


def check_run(argv: List[str], code: int, out: str, err: str, usage: bool = False) -> None:
    command = argv[0]
    assert code in EXITS[command], (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    lines = err.splitlines()
    assert all(line.startswith("robotsrules") for line in lines), (argv, err)
    if code == 2:
        assert lines, (argv, "exit 2 without a message")
    if usage:
        assert code == 2 and len(lines) == 1, (argv, code, err)
    if "--json" not in argv and "sarif" not in argv:
        raw = {chr(c) for c in CONTROL_ESCAPES} - {"\n"}
        assert not raw & set(out), (argv, out)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTSRULES_CACHE", str(tmp_path / "cache.sqlite3"))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_with_every_input_form(
    command: str, form: str, files: Dict[str, str], servers: Dict[str, str],
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    if command.startswith(("report", "bulk")):
        pytest.importorskip("duckdb")
    source, stdin = _source(form, files, servers)
    out = str(tmp_path / "verdicts.parquet")
    argv = [source if part == "{}" else out if part == "{out}" else part
            for part in COMMANDS[command]]
    code, out = run(argv, stdin)
    check_run(argv, code, out, capsys.readouterr().err)


@pytest.mark.parametrize("bad", BAD_OPTIONS, ids=lambda bad: " ".join(bad))
@pytest.mark.parametrize("command", ["check --robots", "explain", "agents", "diff old",
                                     "lint", "fetch", "report", "bulk --urls"])
def test_every_command_with_bad_options(
    command: str, bad: Sequence[str], files: Dict[str, str], servers: Dict[str, str],
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    source = servers["http"] if command == "fetch" else files["file"]
    out = str(tmp_path / "verdicts.parquet")
    argv = [source if part == "{}" else out if part == "{out}" else part
            for part in COMMANDS[command]] + list(bad)
    code, out = run(argv, b"")
    check_run(argv, code, out, capsys.readouterr().err, usage=True)


def test_no_arguments_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run([], b"")  # the command list, not a usage error (issue 25, finding 9)
    assert code == 0 and "check" in out and "Examples:" in out
    assert capsys.readouterr().err == ""
    for argv in (["--help"], ["check", "--help"], ["--version"]):
        assert run(argv, b"")[0] == 0


# Subprocesses: the installed entry point, and signals.
def _command() -> List[str]:
    script = shutil.which("robotsrules", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "robotsrules"]


def test_entry_point_errors_are_one_line() -> None:
    for argv, stdin in ((["check", "--agent", "a", "--timeout", "inf", "/x"], b""),
                        (["explain", "-", "--agent", "a", "/"], BINARY),
                        (["lint", "/nonexistent/robots.txt"], b"")):
        proc = subprocess.run(_command() + argv, input=stdin, capture_output=True,
                              timeout=60)
        err = proc.stderr.decode()
        assert proc.returncode in (0, 1, 2) and "Traceback" not in err, (argv, err)
        assert proc.returncode != 2 or len(err.splitlines()) == 1, (argv, err)


LONG_RUNNING = {
    "check": ["check", "--agent", "a", "--no-cache", "--timeout", "60", "{}/x"],
    "fetch": ["fetch", "--timeout", "60", "{}/"],
    "lint": ["lint", "--timeout", "60", "{}/robots.txt"],
    "explain": ["explain", "--timeout", "60", "{}/robots.txt", "--agent", "a", "/"],
}


@pytest.mark.parametrize(("command", "signum", "expected"), [
    ("check", signal.SIGINT, 130), ("fetch", signal.SIGINT, 130),
    ("lint", signal.SIGINT, 130), ("explain", signal.SIGINT, 130),
    ("check", signal.SIGTERM, 143), ("fetch", signal.SIGTERM, 143),
])
def test_a_signal_stops_a_waiting_command_quietly(
    command: str, signum: int, expected: int, tmp_path: Path
) -> None:
    with RawHTTPServer(slow_headers(30)) as server:
        argv = [part.replace("{}", server.origin) for part in LONG_RUNNING[command]]
        env = {**os.environ, "ROBOTSRULES_CACHE": str(tmp_path / "c.sqlite3")}
        proc = subprocess.Popen(_command() + argv, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env)
        try:
            deadline = time.monotonic() + 20
            while server.count() == 0 and time.monotonic() < deadline:
                time.sleep(0.02)  # wait until the command is waiting on the server
            assert server.count() == 1, "the command never reached the server"
            proc.send_signal(signum)
            _, err = proc.communicate(timeout=120)  # a hang guard: GRACE (3 s) bounds it
        finally:
            proc.kill()
            proc.wait()
    assert proc.returncode == expected, err.decode()
    assert err == b"", err.decode()


def test_sigint_while_reading_urls_from_stdin() -> None:
    proc = subprocess.Popen([*_command(), "check", "--robots", EXAMPLE, "--agent", "a",
                             "--urls-file", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    guard = threading.Timer(20, proc.kill)  # a CLI that slurps stdin would block readline
    guard.start()
    try:
        proc.stdin.write(b"/private/x\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith(b"disallowed")  # it runs, waiting for more
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
        err = proc.stderr.read() if proc.stderr else b""
    finally:
        guard.cancel()
        proc.kill()
        proc.wait()
    assert proc.returncode == 130 and err == b"", err.decode()


STUCK = """
import sys, threading
from robotsrules import cli
from robotsrules.cli import _interrupt, _site

_interrupt.GRACE = float(sys.argv[1])
never = threading.Event()

def stuck(args, out):
    try:
        print("ready", flush=True)
        never.wait()
    finally:  # a clean-up that never ends (a library waiting on a dead peer)
        print("cleaning", flush=True)
        never.wait()

_site._fetch = stuck
sys.argv = ["robotsrules", "fetch", "http://127.0.0.1:1/"]
cli.entry()
"""


@pytest.mark.parametrize(("signals", "grace"), [(1, "0.5"), (2, "3600")])
def test_a_stuck_clean_up_is_cut_short(signals: int, grace: str) -> None:
    """A clean-up that never ends: the grace period cuts it short after one signal; a
    second signal ends it at once (the grace is an hour there, so only the second signal
    can have ended the run). Either way 130, nothing on stderr."""
    proc = subprocess.Popen([sys.executable, "-c", STUCK, grace], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None
    guard = threading.Timer(120, proc.kill)  # a hang guard only
    guard.start()
    try:
        assert proc.stdout.readline() == b"ready\n"
        proc.send_signal(signal.SIGINT)
        assert proc.stdout.readline() == b"cleaning\n"  # the first signal was handled
        if signals == 2:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        guard.cancel()
        proc.kill()
        proc.wait()
    assert proc.returncode == 130 and err == b"", (proc.returncode, err.decode())
