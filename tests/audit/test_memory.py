"""The log audit's memory does not grow with the log (issue 37): the summary of a request
table four times longer, with the same bots, sites and days, peaks at about the same
resident memory.

The summary held the job's peak, and it grew with the log: DuckDB's window over every
crawler request (the gaps between a crawler's requests, for Crawl-delay) filled its memory
budget (measured with ``benchmarks/audit_logs_memory.py``). Each summary runs in a child
process that reports its own peak resident memory (``VmHWM``): a size, not a time, so
the machine's load does not move it.
"""

from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("duckdb")
if not Path("/proc/self/status").exists():
    pytest.skip("the peak resident memory is read in /proc (Linux)", allow_module_level=True)
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from robotsrules._audit._job import request_schema  # noqa: E402

ROWS = 65_536
"""Rows of the request table's repeated batch."""
TOKENS = ("Googlebot", "GPTBot", "bingbot", "ClaudeBot")
"""Crawlers no file asks a Crawl-delay of."""
_PEAK = ("import sys\n"
         "from robotsrules._audit._summary import engine_tables\n"
         "tables = engine_tables(sys.argv[1])\n"
         "assert tables['delays'] and tables['examples'], tables\n"
         "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n")
"""The child's own peak (``VmHWM``: ``ru_maxrss`` would also count its parent's memory,
which it keeps across ``exec``)."""


def _batch(rows: int, start: datetime.datetime, tokens: tuple[str, ...],
           delay: float | None = None, verdict: str = "allowed") -> pa.RecordBatch:
    schema = request_schema()
    times = [start + datetime.timedelta(seconds=i) for i in range(rows)]
    values = {
        "time": times, "day": [t.date().isoformat() for t in times],
        "client": [f"192.0.2.{i % 250}" for i in range(rows)],
        "host": ["www.example.com"] * rows, "method": ["GET"] * rows,
        "url": [f"/page/{i % 5000}" for i in range(rows)], "status": [200] * rows,
        "bytes": [512] * rows, "user_agent": [tokens[i % len(tokens)] for i in range(rows)],
        "token": [tokens[i % len(tokens)] for i in range(rows)],
        "crawler": [tokens[i % len(tokens)] for i in range(rows)],
        "operator": ["Operator"] * rows, "category": ["search"] * rows,
        "robots_fetch": [False] * rows, "verification": ["verified"] * rows,
        "verdict": [verdict] * rows, "allowed": [verdict == "allowed"] * rows,
        "version": ["robots.txt"] * rows, "crawl_delay": [delay] * rows,
        "reads_crawl_delay": ["yes"] * rows, "paid": [False] * rows,
    }
    if verdict != "allowed":
        values.update(line=[2] * rows, rule=["Disallow: /page/"] * rows)
    return pa.RecordBatch.from_arrays(
        [pa.array(values[f.name], f.type) if f.name in values else pa.nulls(rows, f.type)
         for f in schema], schema=schema)


def _table(path: Path, batches: int) -> Path:
    """A request table of ``batches`` times :data:`ROWS` requests of four crawlers asked no
    Crawl-delay over the same two days, and the same few requests of a crawler asked one
    and of violations, whatever its length."""
    start = datetime.datetime(2026, 11, 2, tzinfo=datetime.timezone.utc)
    common = _batch(ROWS, start, TOKENS)
    with pq.ParquetWriter(path, request_schema()) as writer:
        writer.write_batch(_batch(200, start, ("AhrefsBot",), delay=10.0))
        writer.write_batch(_batch(50, start, ("GPTBot",), verdict="violation"))
        for _ in range(batches):
            writer.write_batch(common)
    return path


def test_gaps_count_from_the_request_before_a_delay_was_asked(tmp_path: Path) -> None:
    # the window runs over every request of a crawler some file asked a delay of (and of
    # no other): a gap counts from its previous request, asked a delay or not
    from robotsrules import audit_logs

    bing = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
    gpt = "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
    history = tmp_path / "history"
    history.mkdir()
    (history / "2026-11-01.txt").write_text("User-agent: *\nDisallow: /private/\n")
    (history / "2026-11-02T10:00:03Z.txt").write_text(
        "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /private/\n")
    log = tmp_path / "access.log"
    log.write_text("".join(
        f'192.0.2.1 - - [02/Nov/2026:10:00:{second:02d} +0000] "GET /p{second} HTTP/1.1" '
        f'200 10 "-" "{agent}"\n' for second in (0, 2, 4, 20) for agent in (bing, gpt)))
    with audit_logs(log, site="https://example.com", history=history, verify=False) as audit:
        delays = {bot["token"]: bot["crawl_delay"] for bot in audit.summary["bots"]}
    # 2 s (from 10:00:02, before the delay) and 16 s against 10 s
    assert delays["Bingbot"] == {"reads": "yes", "delay": 10.0, "judged": True,
                                 "intervals": 2, "too_fast": 1, "kept": False}
    assert delays["GPTBot"]["delay"] is None and delays["GPTBot"]["intervals"] == 0


def _peak(table: Path) -> int:
    """The peak resident memory (KiB) of a child process summarising ``table``."""
    done = subprocess.run([sys.executable, "-c", _PEAK, str(table)], capture_output=True,
                          text=True, check=True)
    return int(done.stdout.split()[-1])


def test_summary_memory_does_not_grow_with_the_requests(tmp_path: Path) -> None:
    short = _peak(_table(tmp_path / "short.parquet", 2))
    long = _peak(_table(tmp_path / "long.parquet", 8))
    # 393,216 more requests: DuckDB's window over all of them held ~60 MiB more before
    # (91 MiB at 65,536 rows, 127 at 262,144, 250 at 1,048,576); the same bots, sites
    # and days now cost the same (82 MiB at each of those sizes)
    assert long - short < 16 * 1024, (short, long)
