"""Ctrl-C and SIGTERM at every moment of a job that writes ``--out`` (issues 13 and 21).

A real ``robotsrules`` process (the program's own entry point, :func:`robotsrules.cli.entry`)
runs ``bulk`` (verdicts, the any-agent query, page signals of a WARC) or ``stance --out``
and is held at a named moment by ``held_run.py``: before any work, once the temporary file
exists, inside the core's judging, inside DuckDB's call of our SQL function, between
batches, before and after the rename, after the job stopped, after the exit code is settled
and in the interpreter's last step. The test signals it only once it is there (an event,
never a sleep or an amount of work sized to take long enough), so each case is the same run
on any machine at any load.

Every time: the documented exit code (128 + the first signal: 130 SIGINT, 143 SIGTERM; 0
when the output was already complete), never a death by signal, no traceback, no temporary
file left, and either no file under the final name or the complete one. A second signal
gives the first one's code whichever layer handles it.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional, Union

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

import robotsrules  # noqa: E402

HELD_RUN = Path(__file__).with_name("held_run.py")
SITES = 50
URLS = 70_000  # three read batches (32,768 URLs for 2 agents), a stop check every 4,096 URLs
AGENTS = ["--agent", "GPTBot", "--agent", "CCBot"]
HANG = 120.0  # a hang guard only: every step below waits for an event
INT, TERM = signal.SIGINT, signal.SIGTERM
# Which signal comes changes three things only, none of them tied to the moment: the first
# signal's number kept by the handler, the exception raised in the main thread
# (KeyboardInterrupt or its subclass Terminated) and the exit code and message made of the
# number (130 SIGINT, 143 SIGTERM). The moment (the hold) decides the path: where the stop
# is checked, what is cleaned up. So each moment runs once, the two signals taking turns
# across the moments of every job (each job sees both), and the tests of two signals and of
# the moment before any work keep every signal. The one moment where the handler treats
# the two signals each on its own (the interpreter's last step, where both are ignored)
# keeps both.


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("signals")
    pq.write_table(pa.table({
        "url": [f"https://s{i}.example/robots.txt" for i in range(SITES)],
        "body": [f"User-agent: *\nDisallow: /p{i % 7}\nAllow: /p{i % 7}/ok\n".encode()
                 for i in range(SITES)]}), root / "robots.parquet")
    urls = [f"https://s{j % SITES}.example/p{j % 9}/x{j}" for j in range(URLS)]
    with open(root / "urls.txt", "w", encoding="utf-8") as handle:
        handle.writelines(url + "\n" for url in urls)
    pq.write_table(pa.table({"url": urls}), root / "urls.parquet")
    return root


def _temporaries(directory: Path) -> list[str]:
    return [name for name in os.listdir(directory) if name.endswith(".partial")]


class Held:
    """A ``held_run.py`` child and the lines it writes on its hold pipe."""

    def __init__(self, hold: str, argv: Sequence[str], grace: Optional[float] = None) -> None:
        self._read, write = os.pipe()
        extra = ["--grace", str(grace)] if grace is not None else []
        # The child imports the package this run imports (the source tree, or the
        # installed compiled build in scripts/test.sh's compiled run).
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(robotsrules.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])}
        self.proc = subprocess.Popen(
            [sys.executable, str(HELD_RUN), str(write), hold, *extra, "--", *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(write,), env=env)
        os.close(write)
        self._buffer = b""

    def line(self) -> str:
        """The next line on the hold pipe ('' once the child has closed it)."""
        deadline = time.monotonic() + HANG
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            assert left > 0, "the child never reached its hold"
            ready, _, _ = select.select([self._read], [], [], left)
            if ready:
                chunk = os.read(self._read, 4096)
                if not chunk:
                    return ""
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def expect(self, wanted: str) -> None:
        line = self.line()
        if line != wanted:
            _, err = self.finish()
            raise AssertionError(f"expected {wanted!r} from the child, got {line!r}: {err}")

    def finish(self) -> tuple[str, str]:
        if self._read < 0:
            return "", ""
        try:
            out, err = self.proc.communicate(timeout=HANG)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate()
            os.close(self._read)
            self._read = -1
        return out.decode(errors="replace"), err.decode(errors="replace")


Step = tuple[Optional[str], Union[int, str, None]]
"""Wait for this line from the child (None: do not wait), then send this signal, write
``go`` on its standard input ("go") or do nothing (None)."""


def _run(tmp_path: Path, hold: str, steps: Sequence[Step], argv: Sequence[str],
         grace: Optional[float] = None) -> tuple[int, str, str]:
    """Run ``argv`` held at ``hold`` and play ``steps``; the exit code, stdout, stderr."""
    child = Held(hold, argv, grace)
    try:
        for line, action in steps:
            if line is not None:
                child.expect(line)
            if action == "go":
                assert child.proc.stdin is not None
                child.proc.stdin.write(b"go\n")
                child.proc.stdin.flush()
            elif isinstance(action, int):
                child.proc.send_signal(action)
    except BaseException:
        child.finish()
        raise
    out, err = child.finish()
    return child.proc.returncode, out, err


def _verdict_job(inputs: Path, out: Path, urls: str = "urls.txt") -> list[str]:
    return ["bulk", "--robots", str(inputs / "robots.parquet"), "--urls", str(inputs / urls),
            *AGENTS, "--out", str(out)]


def _assert_stopped(code: int, err: str, out: Path, expected: int,
                    message: bool = True) -> None:
    assert code == expected, (code, err)  # never a death by signal (a negative code)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    if message:
        name = signal.Signals(expected - 128).name
        assert err.strip().splitlines()[-1] == (
            f"robotsrules: interrupted ({name}); {out} not written"), err
    assert not out.exists(), "partial output under the final name"
    assert _temporaries(out.parent) == []


def _assert_complete(code: int, err: str, out: Path, rows: int) -> None:
    assert code == 0, (code, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert pq.read_table(out).num_rows == rows
    assert _temporaries(out.parent) == []


# -- one signal, each moment of the verdict job ------------------------------------------------

@pytest.mark.parametrize(("hold", "signum"), [("writer", INT), ("check@3", TERM),
                                              ("judge@2", INT), ("write@2", TERM),
                                              ("settle", INT)])
def test_a_signal_mid_job_stops_it_cleanly(inputs: Path, tmp_path: Path, hold: str,
                                           signum: int) -> None:
    out = tmp_path / "v.parquet"
    name = hold.split("@")[0]
    code, _, err = _run(tmp_path, hold, [(f"held {name}", signum)], _verdict_job(inputs, out))
    _assert_stopped(code, err, out, 128 + signum)


@pytest.mark.parametrize("signum", [INT, TERM])
def test_a_signal_before_any_work(inputs: Path, tmp_path: Path, signum: int) -> None:
    """As the parser is built: the handler is in place (no death, no traceback) and the
    command stops quietly, as every command does before its job starts."""
    out = tmp_path / "v.parquet"
    code, _, err = _run(tmp_path, "parse", [("held parse", signum)],
                        _verdict_job(inputs, out))
    _assert_stopped(code, err, out, 128 + signum, message=False)
    assert err == ""


@pytest.mark.parametrize(("hold", "signum"), [("renamed", TERM), ("exit@2", INT),
                                              ("atexit", INT), ("atexit", TERM)])
def test_a_signal_after_the_output_is_complete_exits_0(inputs: Path, tmp_path: Path,
                                                       hold: str, signum: int) -> None:
    """Once the output has its final name the run has succeeded: a signal then (before the
    summary, after the exit code is settled, in the interpreter's last step) neither
    removes the file nor changes the exit code, and never kills the process."""
    out = tmp_path / "v.parquet"
    name = hold.split("@")[0]
    steps: list[Step] = [(f"held {name}", signum)]
    if hold == "atexit":  # both signals are ignored there (discarded when sent): go on
        steps.append((None, "go"))
        steps.append(("went", None))
    code, stdout, err = _run(tmp_path, hold, steps, _verdict_job(inputs, out))
    _assert_complete(code, err, out, URLS * 2)
    if hold != "renamed":  # the summary was printed before the hold
        assert stdout.startswith(f"{URLS * 2:,} verdicts"), stdout


# -- two signals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("first", "second"), [(INT, INT), (TERM, INT), (INT, TERM),
                                              (TERM, TERM)])
def test_a_second_signal_mid_job_exits_with_the_first_ones_code(
        inputs: Path, tmp_path: Path, first: int, second: int) -> None:
    """The worker is held inside the judging until both signals are handled; the grace
    period is long, so the second signal, not the grace, ends the run."""
    out = tmp_path / "v.parquet"
    code, _, err = _run(tmp_path, "judge@2:2", [("held judge", first), ("handled 1", second)],
                        _verdict_job(inputs, out), grace=600)
    _assert_stopped(code, err, out, 128 + first)


@pytest.mark.parametrize(("first", "second"), [(TERM, INT), (INT, TERM)])
def test_a_second_signal_after_the_job_stopped(inputs: Path, tmp_path: Path, first: int,
                                              second: int) -> None:
    """The first signal stops the job; the second comes while the main thread finishes
    (the job's handler is gone): still the first signal's code, never a death."""
    out = tmp_path / "v.parquet"
    code, _, err = _run(tmp_path, "judge@2,stopped:2",
                        [("held judge", first), ("handled 1", None), ("held stopped", None),
                         ("handled 1", second)],
                        _verdict_job(inputs, out), grace=600)
    _assert_stopped(code, err, out, 128 + first, message=False)


def test_a_job_that_overruns_its_grace_is_cut_short(inputs: Path, tmp_path: Path) -> None:
    """The worker never reaches a check (held until a second signal that never comes): the
    grace period ends the run, with the same exit code, message and clean-up."""
    out = tmp_path / "v.parquet"
    child = Held("judge@2:2", _verdict_job(inputs, out), grace=0.5)
    try:
        child.expect("held judge")
        child.proc.send_signal(INT)
        child.expect("handled 1")
    except BaseException:
        child.finish()
        raise
    _, err = child.finish()
    _assert_stopped(child.proc.returncode, err, out, 130)


# -- the other jobs: the any-agent query, page signals, the stance table -------------------------

@pytest.mark.parametrize("signum", [INT, TERM])
def test_a_signal_inside_duckdbs_call_of_our_function(inputs: Path, tmp_path: Path,
                                                      signum: int) -> None:
    """``--any-agent`` judges inside a SQL function DuckDB calls: the signal arrives while
    DuckDB is in that call; the handler interrupts the query from the main thread."""
    out = tmp_path / "v.parquet"
    argv = [*_verdict_job(inputs, out, "urls.parquet"), "--any-agent"]
    code, _, err = _run(tmp_path, "udf@1", [("held udf", signum)], argv)
    _assert_stopped(code, err, out, 128 + signum)


PAGES = 40


@pytest.fixture(scope="module")
def pages_warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("warcio")
    from tests.page.test_page_stream import many_pages

    path = tmp_path_factory.mktemp("pages") / "pages.warc"
    many_pages(path, PAGES, gzip=False)
    return path


@pytest.mark.parametrize(("hold", "signum"), [("check@5", TERM), ("writer", INT),
                                              ("settle", TERM)])
def test_pages_warc_stops_cleanly(inputs: Path, pages_warc: Path, tmp_path: Path, hold: str,
                                  signum: int) -> None:
    """``bulk --pages-warc`` reads WARC records in the worker, checking for a stop before
    each one."""
    out = tmp_path / "pages.parquet"
    argv = ["bulk", "--pages-warc", str(pages_warc), "--robots", str(inputs / "robots.parquet"),
            "--agent", "ExampleBot", "--agent", "Other", "--purpose", "ai-train",
            "--out", str(out)]
    code, _, err = _run(tmp_path, hold, [(f"held {hold.split('@')[0]}", signum)], argv)
    _assert_stopped(code, err, out, 128 + signum)


STANCE_SITES = 2_000  # 6,000 rows: six batches of 1,024


@pytest.fixture(scope="module")
def stance_robots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    robots = tmp_path_factory.mktemp("stance-signals") / "robots.parquet"
    pq.write_table(pa.table({
        "url": [f"https://s{i}.example/robots.txt" for i in range(STANCE_SITES)],
        "body": [f"User-agent: *\nDisallow: /p{i % 97}*x$\nAllow: /p{i % 97}/ok\n".encode()
                 for i in range(STANCE_SITES)]}), robots)
    return robots


@pytest.mark.parametrize(("hold", "signum"), [("writer", TERM), ("write@2", INT),
                                              ("settle", TERM)])
def test_a_signal_stops_the_stance_table_cleanly(stance_robots: Path, tmp_path: Path,
                                                 hold: str, signum: int) -> None:
    """``robotsrules stance --robots ... --out`` shares bulk's stop handling."""
    out = tmp_path / "stances.parquet"
    argv = ["stance", "--robots", str(stance_robots), "--agent", "GPTBot", "--agent", "CCBot",
            "--agent", "Googlebot", "--out", str(out)]
    code, _, err = _run(tmp_path, hold, [(f"held {hold.split('@')[0]}", signum)], argv)
    _assert_stopped(code, err, out, 128 + signum)


def test_the_stance_table_completes_after_a_signal_past_the_rename(
        stance_robots: Path, tmp_path: Path) -> None:
    out = tmp_path / "stances.parquet"
    argv = ["stance", "--robots", str(stance_robots), "--agent", "GPTBot", "--out", str(out)]
    code, _, err = _run(tmp_path, "renamed", [("held renamed", INT)], argv)
    _assert_complete(code, err, out, STANCE_SITES)


# -- in process: robotsrules.cli.main ---------------------------------------------------------

def _in_main_thread() -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the command line handles signals only when run from the main thread")


def _small_job(tmp_path: Path) -> list[str]:
    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"],
                             "body": [b"User-agent: *\nDisallow: /p\n"]}),
                   tmp_path / "robots.parquet")
    (tmp_path / "urls.txt").write_text("https://a.example/p\n")
    return ["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
            str(tmp_path / "urls.txt"), "--agent", "GPTBot", "--out", str(tmp_path / "v.parquet")]


@pytest.mark.parametrize(("renamed", "expected"), [(False, 130), (True, 0)])
def test_in_process_a_signal_around_the_rename(tmp_path: Path, capsys: Any, monkeypatch: Any,
                                               renamed: bool, expected: int) -> None:
    """``main(argv)`` in-process: SIGINT just before the rename drops the output (130);
    just after it, the run stands (0, the complete file). The caller's handlers are back
    afterwards."""
    _in_main_thread()
    from robotsrules.cli import _bulk as cli_bulk
    from robotsrules.cli import _interrupt, main

    settle = cli_bulk.settle
    sent: list[bool] = []

    def signalled(stop: Any, *args: Any) -> bool:
        def kill() -> None:
            gate = _interrupt.current()
            assert gate is not None, "no handler installed"
            sent.append(True)
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            assert gate.wait(1, HANG)  # the main thread ran the handler

        if not renamed:
            kill()
        done: bool = settle(stop, *args)
        if renamed:
            kill()
        return done

    monkeypatch.setattr(cli_bulk, "settle", signalled)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    code = main(_small_job(tmp_path))
    err = capsys.readouterr().err
    assert sent
    assert code == expected, err
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    out = tmp_path / "v.parquet"
    assert out.exists() == renamed and _temporaries(tmp_path) == []
    if not renamed:
        assert "not written" in err
