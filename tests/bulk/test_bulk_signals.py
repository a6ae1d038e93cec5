"""Ctrl-C and SIGTERM during ``robotsrules bulk`` on DuckDB (issue 13, findings 17 and 18).

A real ``robotsrules bulk`` process is signalled at several moments of a long run (loading
the robots table, counting URLs, deep in the verdict query where DuckDB calls our SQL
function and reads the Arrow stream of the URL file). Every time it must stop cleanly: exit
128 + the signal number (130 for SIGINT, 143 for SIGTERM), one line on stderr and no
traceback, no file under the final name and no temporary file left, and never a signal death
(SIGSEGV, SIGABRT). The old code exited 2 with a UDF ``KeyboardInterrupt`` error, died of the
signal, or left ``<out>.partial`` behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, List, Optional

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

SITES = 500
URLS = 300_000  # minutes of work on one core: the run is always interrupted mid-way
START_DEADLINE = 60.0  # interpreter start and imports, on a loaded machine
STOP_DEADLINE = 15.0  # from the signal to the exit


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("signals")
    pq.write_table(pa.table({
        "url": [f"https://s{i}.example/robots.txt" for i in range(SITES)],
        "body": [f"User-agent: *\nDisallow: /p{i % 7}\nAllow: /p{i % 7}/ok\n".encode()
                 for i in range(SITES)]}), root / "robots.parquet")
    with open(root / "urls.txt", "w", encoding="utf-8") as handle:
        handle.writelines(f"https://s{j % SITES}.example/p{j % 9}/x{j}\n" for j in range(URLS))
    return root


def _temporaries(directory: Path) -> List[str]:
    return [name for name in os.listdir(directory) if name.endswith(".partial")]


def _interrupt(inputs: Path, tmp_path: Path, signals: List[int], delay: float,
               job: Optional[List[str]] = None) -> None:
    out = tmp_path / "verdicts.parquet"
    if job is None:  # the verdict job
        job = ["--robots", str(inputs / "robots.parquet"), "--urls", str(inputs / "urls.txt")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotsrules", "bulk", *job,
         "--agent", "GPTBot", "--agent", "CCBot", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The temporary output file appears once the command runs (its handlers are set).
        deadline = time.monotonic() + START_DEADLINE
        while not _temporaries(tmp_path):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "bulk did not start"
            time.sleep(0.02)
        time.sleep(delay)
        assert proc.poll() is None, "the run ended before the signal: make it longer"
        sent = time.monotonic()
        for number in signals:
            proc.send_signal(number)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=STOP_DEADLINE)
        elapsed = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    expected = 128 + signals[0]
    assert proc.returncode == expected, (proc.returncode, err)  # never a signal death
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    if len(signals) == 1:
        assert err.strip().splitlines()[-1].startswith("robotsrules: interrupted"), err
    # A second signal may land after bulk has handed the signals back to the command line's
    # own handlers, which exit at once, with the same code and nothing printed.
    assert not out.exists(), "partial output under the final name"
    assert _temporaries(tmp_path) == []
    assert elapsed < STOP_DEADLINE


@pytest.mark.parametrize("delay", [0.0, 0.5, 1.5, 3.0])
def test_sigint_stops_cleanly_at_any_moment(inputs: Path, tmp_path: Path, delay: float) -> None:
    _interrupt(inputs, tmp_path, [signal.SIGINT], delay)


@pytest.mark.parametrize("delay", [1.0])
def test_sigterm_cleans_up_like_sigint(inputs: Path, tmp_path: Path, delay: float) -> None:
    _interrupt(inputs, tmp_path, [signal.SIGTERM], delay)


PAGES = 8_000  # seconds of page signals for four agents: always interrupted mid-way


@pytest.fixture(scope="module")
def pages_warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("warcio")
    from tests.page.test_page_stream import many_pages

    path = tmp_path_factory.mktemp("pages") / "pages.warc"
    many_pages(path, PAGES, gzip=False)
    return path


@pytest.mark.parametrize(("number", "delay"), [(signal.SIGINT, 0.5), (signal.SIGTERM, 1.0)])
def test_pages_warc_stops_cleanly(inputs: Path, pages_warc: Path, tmp_path: Path,
                                  number: int, delay: float) -> None:
    """``bulk --pages-warc`` (issue 16) reads WARC records in the worker, checking for a
    stop before each one: same exit code, one line, no output and no temporary file."""
    _interrupt(inputs, tmp_path, [number], delay,
               ["--pages-warc", str(pages_warc), "--robots", str(inputs / "robots.parquet"),
                "--agent", "ExampleBot", "--agent", "Other", "--purpose", "ai-train"])


def test_a_second_ctrl_c_still_exits_cleanly(inputs: Path, tmp_path: Path) -> None:
    _interrupt(inputs, tmp_path, [signal.SIGINT, signal.SIGINT], 1.0)


def test_a_signal_after_the_last_batch_but_before_the_rename(tmp_path: Path, capsys: Any,
                                                            monkeypatch: Any) -> None:
    """In process: SIGINT arrives once every batch is written, just before the rename. The
    output is dropped, so the exit code must not say success."""
    from robotsrules.cli import _bulk as cli_bulk
    from robotsrules.cli import _common, main

    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"],
                             "body": [b"User-agent: *\nDisallow: /p\n"]}),
                   tmp_path / "robots.parquet")
    (tmp_path / "urls.txt").write_text("https://a.example/p\n")
    done = _common.Progress.done

    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("bulk handles signals only when run from the main thread")
    sent: List[bool] = []
    handled = threading.Event()
    handle = cli_bulk._Stop.handle

    def noted(self: Any, signum: int, frame: Any) -> None:
        handle(self, signum, frame)
        handled.set()

    monkeypatch.setattr(cli_bulk._Stop, "handle", noted)

    def late_signal(self: Any) -> None:  # runs in the worker after the last check
        done(self)
        handler = signal.getsignal(signal.SIGINT)
        if getattr(handler, "__self__", None).__class__.__name__ != "_Stop":
            return  # never signal a process whose SIGINT handler is not bulk's
        sent.append(True)
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        handled.wait(10)  # the main thread runs the handler before the worker goes on

    monkeypatch.setattr(_common.Progress, "done", late_signal)
    out = tmp_path / "v.parquet"
    code = main(["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
                 str(tmp_path / "urls.txt"), "--agent", "GPTBot", "--out", str(out)])
    err = capsys.readouterr().err
    assert sent, "bulk's SIGINT handler was not installed"
    assert handled.is_set()
    assert code == 130, err
    assert "not written" in err and not out.exists() and _temporaries(tmp_path) == []


STANCE_SITES = 60_000  # about a minute of stances: the run is always interrupted mid-way


@pytest.fixture(scope="module")
def stance_robots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    robots = tmp_path_factory.mktemp("stance-signals") / "robots.parquet"
    pq.write_table(pa.table({
        "url": [f"https://s{i}.example/robots.txt" for i in range(STANCE_SITES)],
        "body": [f"User-agent: *\nDisallow: /p{i % 97}*x$\nAllow: /p{i % 97}/ok\n".encode()
                 for i in range(STANCE_SITES)]}), robots)
    return robots


@pytest.mark.parametrize("delay", [0.0, 1.5])
def test_sigint_stops_the_stance_table_cleanly(stance_robots: Path, tmp_path: Path,
                                               delay: float) -> None:
    """``robotsrules stance --robots ... --out`` (issue 17) shares bulk's stop handling:
    130, one line, no traceback, no output and no temporary file."""
    robots = stance_robots
    out = tmp_path / "stances.parquet"
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotsrules", "stance", "--robots", str(robots),
         "--agent", "GPTBot", "CCBot", "Googlebot", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + START_DEADLINE
        while not _temporaries(tmp_path):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "stance did not start"
            time.sleep(0.02)
        time.sleep(delay)
        assert proc.poll() is None, "the run ended before the signal: make it longer"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=STOP_DEADLINE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1].startswith("robotsrules: interrupted"), err
    assert not out.exists() and _temporaries(tmp_path) == []
