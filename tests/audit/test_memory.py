"""The log audit's memory does not grow with the log (issue 37): the summary of a request
table four times longer, with the same bots, sites and days, peaks at about the same
resident memory.

The summary held the job's peak, and it grew with the log: DuckDB's windows over every
crawler request (the gaps between a crawler's requests, for Crawl-delay) and over every
violation (its first three examples) filled its memory budget (measured with
``benchmarks/audit_logs_memory.py``). Each summary runs in a child
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


def _table(path: Path, days: int) -> Path:
    """A request table of ``days`` batches of :data:`ROWS` violations, a day apart, by four
    crawlers asked no Crawl-delay, and the same few requests of a crawler asked one,
    whatever its length."""
    start = datetime.datetime(2026, 11, 2, tzinfo=datetime.timezone.utc)
    with pq.ParquetWriter(path, request_schema()) as writer:
        writer.write_batch(_batch(200, start, ("AhrefsBot",), delay=10.0))
        for day in range(days):
            writer.write_batch(_batch(ROWS, start + datetime.timedelta(days=day), TOKENS,
                                      verdict="violation"))
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


def _child(script: str, *args: object) -> int:
    """The number ``script`` prints last, run in a child process with ``args``."""
    done = subprocess.run([sys.executable, "-c", script, *map(str, args)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


def _peak(table: Path) -> int:
    """The peak resident memory (KiB) of a child process summarising ``table``."""
    return _child(_PEAK, table)


def test_summary_memory_does_not_grow_with_the_requests(tmp_path: Path) -> None:
    short = _peak(_table(tmp_path / "short.parquet", 2))
    long = _peak(_table(tmp_path / "long.parquet", 8))
    # 393,216 more requests (six more days): DuckDB's windows over all of them held more
    # before (the Crawl-delay gaps: 91 MiB at 65,536 requests, 127 at 262,144, 250 at
    # 1,048,576; the examples of violations: 95 MiB at 2 days, 140 at 8); now only the
    # requests of crawlers asked a delay and the violations of each one's first days
    assert long - short < 16 * 1024, (short, long)


def test_examples_are_the_first_three_of_each_violation(tmp_path: Path) -> None:
    # the examples' window runs over each (crawler, verdict, line)'s first days only, up
    # to the day its third violation is on: the same rows as over all of them
    from robotsrules._audit._summary import engine_tables

    start = datetime.datetime(2026, 11, 2, 23, 59, 59, tzinfo=datetime.timezone.utc)
    plan = [  # (token, verdict, line, seconds after start, url)
        ("A", "violation", 2, 0, "/b"), ("A", "violation", 2, 0, "/b"),  # twice the same
        ("A", "violation", 2, 0, "/a"), ("A", "violation", 2, 0, "/c"),  # 4 on one day
        ("A", "violation", 2, 86_400, "/0"),
        ("A", "caching-allowance", 2, 1, "/x"), ("A", "caching-allowance", 2, 90_000, "/y"),
        ("A", "caching-allowance", 2, 200_000, "/z"), ("A", "caching-allowance", 2, 300_000,
                                                     "/w"),  # the third on a later day
        ("B", "violation", None, 5, "/n"), ("B", "violation", None, 2, "/m"),  # no line
        ("B", "violation", 3, 400_000, "/p"),  # fewer than three
        ("B", "allowed", None, 0, "/q"),
    ]
    rows = []
    for token, verdict, line, seconds, url in plan:
        time = start + datetime.timedelta(seconds=seconds)
        rows.append({"time": time, "day": time.date().isoformat(), "token": token,
                     "url": url, "verdict": verdict, "line": line,
                     "robots_fetch": False})
    path = tmp_path / "requests.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=request_schema()), path)
    groups: dict[tuple[object, ...], list[tuple[int, str]]] = {}
    for token, verdict, line, seconds, url in plan:
        if verdict != "allowed":
            us = int((start.timestamp() + seconds) * 1_000_000)
            groups.setdefault((token, verdict, line), []).append((us, url))
    expected = sorted(((*key, us, url) for key, found in groups.items()
                       for us, url in sorted(found)[:3]),
                      key=lambda row: tuple((v is None, "" if v is None else v) for v in row))
    assert engine_tables(str(path))["examples"] == expected
    assert len(expected) == 9


_ARROW_PEAK = ("import sys\n"
               "import pyarrow as pa\n"
               "import robotsrules._audit._job as job\n"
               "job.BATCH_BYTES = 32 * 1024  # many small batches\n"
               "from robotsrules import audit_logs\n"
               "with audit_logs(sys.argv[1], site='https://www.example.com', verify=False,\n"
               "                robots=b'User-agent: *\\nDisallow: /private\\n') as audit:\n"
               "    assert audit.summary['totals']['requests'] == int(sys.argv[2])\n"
               "print(pa.default_memory_pool().max_memory())\n")


def _crawler_log(path: Path, lines: int) -> Path:
    start = datetime.datetime(2026, 11, 2, tzinfo=datetime.timezone.utc)
    with path.open("w") as out:
        for i in range(lines):
            when = (start + datetime.timedelta(seconds=i)).strftime("%d/%b/%Y:%H:%M:%S +0000")
            out.write(f'192.0.2.{i % 250} - - [{when}] "GET /page/{i}/{"x" * 80} HTTP/1.1" '
                      f'200 512 "-" "Mozilla/5.0 (compatible; GPTBot/1.0; '
                      f'+https://openai.com/gptbot)"\n')
    return path


def test_the_judging_holds_one_batch_at_a_time(tmp_path: Path) -> None:
    """pyarrow's peak allocation in a job over 80,000 crawler requests is about the one over
    20,000 (the same batches, four times as many): the second pass holds one batch of the
    first pass's rows at a time. In the compiled build its loop once kept every batch alive
    until the loop ended (a 3,000,000-line log: 247 MiB against 44)."""
    peaks = [_child(_ARROW_PEAK, _crawler_log(tmp_path / f"{lines}.log", lines), lines)
             for lines in (20_000, 80_000)]
    assert peaks[1] < 2 * peaks[0], peaks


_SLICED_PEAK = ("import sys\n"
                "from robotsrules._audit._summary import engine_tables\n"
                "tables = engine_tables(sys.argv[1], slice_rows=int(sys.argv[2]))\n"
                "assert tables['delays'], tables\n"
                "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n")


def _every_crawler_delayed(path: Path, days: int) -> Path:
    """A request table of ``days`` batches of :data:`ROWS` requests, a day apart, of four
    crawlers every one of which a file asked a Crawl-delay of (``User-agent: *`` with
    ``Crawl-delay``: the gaps of every crawler request are ordered)."""
    start = datetime.datetime(2026, 11, 2, tzinfo=datetime.timezone.utc)
    with pq.ParquetWriter(path, request_schema()) as writer:
        for day in range(days):
            writer.write_batch(_batch(ROWS, start + datetime.timedelta(days=day), TOKENS,
                                      delay=10.0))
    return path


def test_gaps_of_every_crawler_are_ordered_a_slice_at_a_time(tmp_path: Path) -> None:
    # a Crawl-delay for every crawler: one ordering of all the requests held DuckDB memory
    # growing with them; a slice of minutes at a time (here 65,536 requests, a day of
    # these) peaks alike at 2 and 8 days
    peaks = [_child(_SLICED_PEAK, _every_crawler_delayed(tmp_path / f"{days}.parquet", days),
                    ROWS) for days in (2, 8)]
    assert peaks[1] - peaks[0] < 16 * 1024, peaks
