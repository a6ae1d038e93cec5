"""Time and memory bounds of the data paths (issue 24), each held in a fresh process.

Every case runs in a child Python with a CPU-time limit (``RLIMIT_CPU``: CPU seconds, which
other jobs on a shared machine barely move) and reports its own peak resident set
(``ru_maxrss``); the assertions are on those, never on elapsed time. Cases: the stance
solver on the quadratic generated file, ``page URL`` against br and gzip bombs and a server
that drips, the robots.txt fetch against a br bomb, ``bulk --robots-warc`` and
``bulk --pages-warc`` on WARC files holding a br bomb, and datatrove's WARC reader; and,
in process with tracemalloc, that thousands of bad WARC records leave a bounded trace.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

if not os.path.exists("/proc/self/status"):  # pragma: no cover - Linux only
    pytest.skip("peak memory is read from /proc/self/status (Linux)", allow_module_level=True)

from tests.network.servers import (
    RawHTTPServer,
    br_bomb,
    drip,
    gzip_bomb,
    serve_bytes,
)

ROOT = Path(__file__).resolve().parent.parent.parent
CPU_SECONDS = 60  # a generous ceiling: each case takes a few CPU seconds
PEAK_MIB = 160  # interpreter, pyarrow/duckdb imports and one bounded body (old: 223-803)

# The peak is the child's own VmHWM (Linux): ru_maxrss would carry over the parent's resident
# set (it survives fork and exec); VmHWM belongs to the new address space.
CHILD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
sys.path.insert(0, {root!r})
exit_code = 0
{code}
with open("/proc/self/status") as status:
    peak = [int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:")][0]
sys.stderr.write(f"\\nPEAK {{peak:.1f}}\\n")
sys.exit(exit_code)
"""


def child(code: str, cwd: str = ".") -> tuple[int, float, str]:
    """(exit code, peak RSS in MiB, stderr) of ``code`` in a fresh, CPU-limited Python."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(cpu=CPU_SECONDS, root=str(ROOT), code=code)],
        capture_output=True, text=True, cwd=cwd, timeout=600)  # a hang guard only
    peak = -1.0
    for line in done.stderr.splitlines():
        if line.startswith("PEAK "):
            peak = float(line.split()[1])
    return done.returncode, peak, done.stderr


def test_stance_solver_on_the_quadratic_file() -> None:
    # User-agent: * then 14,000 pairs Disallow: /*kN / Allow: /*kN* (470 KiB, under the
    # 500 KiB cut): 168 s of CPU before the rival search was counted and shortcut.
    code = (
        "import robotsrules\n"
        "body = 'User-agent: *\\n' + ''.join(f'Disallow: /*k{i}\\nAllow: /*k{i}*\\n' "
        "for i in range(14000))\n"
        "stance = robotsrules.parse(body.encode()).stance('GPTBot')\n"
        "assert stance.kind == 'none', stance\n")
    code_, peak, err = child(code)
    assert code_ == 0, err[-2000:]
    assert 0 < peak < PEAK_MIB


@pytest.mark.parametrize("bomb", ["br", "gzip"])
def test_page_url_against_a_bomb(bomb: str) -> None:
    pytest.importorskip("brotli")
    data = br_bomb(256) if bomb == "br" else gzip_bomb(200)
    with RawHTTPServer(serve_bytes(data, {"Content-Encoding": bomb}, "text/html")) as server:
        code, peak, err = child(
            "from robotsrules.cli import main\n"
            f"exit_code = (main(['page', {server.url('/')!r}, '--agent', 'GPTBot', '--json']))\n")
    assert code == 0, err[-2000:]
    assert 0 < peak < PEAK_MIB, peak  # before: 803 MiB (br), 223 MiB (gzip)


def test_page_url_ends_by_its_deadline_against_a_dripping_server() -> None:
    # One octet every 0.3 s for a minute: before, --timeout 1 only bounded each read.
    with RawHTTPServer(drip(b"<html>" + b" " * 200, 0.3)) as server:
        code, _, err = child(
            "from robotsrules.cli import main\n"
            f"exit_code = (main(['page', {server.url('/')!r}, '--agent', 'GPTBot', "
            "'--timeout', '1']))\n")
    assert code == 2 and "timed out" in err, err[-2000:]


def test_robots_fetch_against_a_br_bomb() -> None:
    pytest.importorskip("brotli")
    with RawHTTPServer(serve_bytes(br_bomb(256), {"Content-Encoding": "br"})) as server:
        code, peak, err = child(
            "from robotsrules._fetch._fetcher import fetch\n"
            f"result = fetch({server.url('/robots.txt')!r}, user_agent='t')\n"
            "assert result.outcome == 'ok' and result.truncated, result\n")
    assert code == 0, err[-2000:]
    assert 0 < peak < PEAK_MIB, peak


def _bomb_warc(path: Path, bomb: bool = True) -> None:
    """Two br-encoded records: a robots.txt and a page, each a 256 MiB bomb (or, with
    ``bomb=False``, a few octets: the same run's baseline)."""
    import brotli

    from tests.hostile.warcs import HTML, TEXT, http, record

    robots = br_bomb(256) if bomb else brotli.compress(b"User-agent: *\nDisallow: /\n")
    page = br_bomb(256) if bomb else brotli.compress(b"<html><head><title>x</title></head>")
    with open(path, "wb") as handle:
        handle.write(record("https://bomb.example/robots.txt",
                            http(robots, [*TEXT, ("Content-Encoding", "br")]), number=1))
        handle.write(record("https://bomb.example/page",
                            http(page, [*HTML, ("Content-Encoding", "br")]), number=2))


def _warc_entry_peak(entry: str, folder: Path, bomb: bool) -> float:
    """The peak RSS (MiB) of one WARC entry point reading :func:`_bomb_warc`'s file."""
    (folder / "in").mkdir()
    warc = folder / "in" / "bomb.warc"
    _bomb_warc(warc, bomb)
    (folder / "urls.txt").write_text("https://bomb.example/x\n")
    if entry == "datatrove":
        code = (
            "from robotsrules.datatrove import WarcHeadersReader\n"
            f"docs = list(WarcHeadersReader({str(folder / 'in')!r}).read_file('bomb.warc'))\n"
            f"assert len(docs) == 1 and docs[0].metadata['truncated'] is {bomb}, docs\n")
    else:
        args = (["--robots-warc", str(warc), "--urls", str(folder / "urls.txt")]
                if entry == "robots-warc" else ["--pages-warc", str(warc)])
        code = ("from robotsrules.cli import main\n"
                f"exit_code = (main(['bulk', *{args!r}, '--agent', 'GPTBot', "
                f"'--out', {str(folder / 'out.parquet')!r}]))\n")
    exit_code, peak, err = child(code)
    assert exit_code == 0, err[-2000:]
    assert peak > 0, err[-2000:]
    return peak


@pytest.mark.parametrize("entry", ["robots-warc", "pages-warc", "datatrove"])
def test_warc_entry_points_against_a_br_bomb(entry: str, tmp_path: Path) -> None:
    pytest.importorskip("brotli")
    pytest.importorskip("warcio")
    if entry == "datatrove":
        pytest.importorskip("datatrove")
    (tmp_path / "bomb").mkdir()
    (tmp_path / "calm").mkdir()
    # The same command on the same records a few octets long is the baseline: what DuckDB,
    # pyarrow and datatrove take depends on the machine (DuckDB's buffers grow with its
    # threads, one per core), what a bomb may add does not. Each bomb inflates to 256 MiB;
    # what is kept is 500 KiB of robots.txt, a page's head, or datatrove's document (10 MiB
    # by default, in a few copies: bytes, text, the document): 35 MiB more, measured.
    calm = _warc_entry_peak(entry, tmp_path / "calm", bomb=False)
    peak = _warc_entry_peak(entry, tmp_path / "bomb", bomb=True)
    assert peak < calm + 64, (calm, peak)


def test_many_bad_warc_records_leave_a_bounded_trace() -> None:
    pytest.importorskip("warcio")
    from robotsrules import warc
    from tests.hostile.warcs import HTML, PLAIN_PAGE, http, record

    def peak_for(count: int) -> tuple[int, Any]:
        data = b"".join(record(f"https://bad-{i}.example/page",
                               http(PLAIN_PAGE, HTML, b"2OO OK"), number=i)
                        for i in range(count))
        stats = warc.WarcStats()
        tracemalloc.start()
        try:
            for _ in warc.iter_pages(io.BytesIO(data), stats=stats):
                pass
            return tracemalloc.get_traced_memory()[1], stats
        finally:
            tracemalloc.stop()

    small, _ = peak_for(1_000)
    large, stats = peak_for(10_000)
    assert stats.problems == 10_000 and len(stats.errors) == warc.MAX_NOTES
    # One note per bad record was about 240 octets each: 2 MiB more for 9,000 more records.
    assert large < small + 512 * 1024, (small, large)


@pytest.mark.slow
def test_300000_bad_records(tmp_path: Path) -> None:  # pragma: no cover - opt-in
    """The issue's case at full size: 300,000 bad records (about 75 MB of WARC) through
    ``bulk --pages-warc``; the notes kept stay at :data:`robotsrules.warc.MAX_NOTES`."""
    from tests.hostile.warcs import HTML, PLAIN_PAGE, http, record

    def run(count: int) -> tuple[float, str]:
        path = tmp_path / f"bad-{count}.warc"
        with open(path, "wb") as handle:
            for i in range(count):
                handle.write(record(f"https://bad-{i}.example/page",
                                    http(PLAIN_PAGE, HTML, b"2OO OK"), number=i))
        code, peak, err = child(
            "from robotsrules.cli import main\n"
            f"exit_code = (main(['bulk', '--pages-warc', {str(path)!r}, '--agent', 'GPTBot', "
            f"'--out', {str(tmp_path / 'out.parquet')!r}]))\n")
        assert code == 0 and peak > 0, err[-2000:]
        return peak, err

    small, _ = run(1_000)  # the baseline: the same command on this machine
    peak, err = run(300_000)
    assert peak < small + 32, (small, peak)
    assert "299,990 more problems" in err


def test_children_are_isolated(tmp_path: Path) -> None:
    """The harness itself: a child's peak is its own, and the CPU limit is set."""
    code, peak, err = child("import resource\n"
                            "assert resource.getrlimit(resource.RLIMIT_CPU)[0] == "
                            f"{CPU_SECONDS}\n", cwd=str(tmp_path))
    assert code == 0 and 0 < peak < 64, err[-2000:]


def test_the_rival_scan_counts_against_the_stance_limit(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Rivals that do not cover the rule (``/*kN*z`` over ``/*kN``) must be scanned: every
    rule looked at counts against the search's and the file's limit, so the scans of a
    file stay within FILE_WORK x MAX_WORK rules however many rules share a leading ``/``."""
    import robotsrules
    from robotsrules import StanceTooComplex
    from robotsrules._rules import _stance as solver

    scanned = [0]
    compatible = solver._Search.compatible

    def counted(self: Any, first: str) -> Any:
        found = compatible(self, first)
        scanned[0] += len(found)
        return found

    body = "User-agent: *\n" + "".join(f"Disallow: /*k{i}\nAllow: /*k{i}*z\n"
                                       for i in range(3000))
    if not robotsrules.COMPILED:  # the scans are counted by patching the class: pure only
        monkeypatch.setattr(solver._Search, "compatible", counted)  # compiled build: on purpose
    with contextlib.suppress(StanceTooComplex):
        robotsrules.parse(body.encode()).stance("GPTBot")
    if not robotsrules.COMPILED:
        # 3,000 searches would scan 6,000 rules each (18 M) without the limit.
        assert scanned[0] <= (solver.FILE_WORK + 1) * solver.MAX_WORK, scanned[0]
        monkeypatch.undo()
    # each scan is counted as work, rule by rule (in both builds)
    rules = robotsrules.parse(body.encode()).for_agent("GPTBot")
    search = solver._Search(solver.stance_rows(rules), False, solver.MAX_WORK)
    for candidate in (0, 1, 2999):
        assert search.rivals(candidate)[1] >= len(search.compatible(search.firsts[candidate]))


def test_repeated_rules_are_searched_once() -> None:
    import robotsrules
    from robotsrules._rules import _stance as solver

    once = "User-agent: *\nDisallow: /*a\nAllow: /*a*b\nDisallow: /x$\n"
    many = "User-agent: *\n" + "Disallow: /*a\nAllow: /*a*b\nDisallow: /x$\n" * 5000
    rules = robotsrules.parse(many.encode()).for_agent("GPTBot")
    assert len(solver.stance_rows(rules)) == 3
    first, repeated = (robotsrules.parse(b.encode()).stance("GPTBot") for b in (once, many))
    assert (repeated.kind, repeated.disallowed, repeated.allowed, repeated.complete) == (
        first.kind, first.disallowed, first.allowed, first.complete)
    assert [r.line for r in repeated.lines] == [r.line for r in first.lines]
