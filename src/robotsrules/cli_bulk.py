"""``robotsrules bulk`` and ``robotsrules report``: verdicts at scale, and what they add up to.

Hooked into :mod:`robotsrules.cli` by :func:`add_commands`. The engines' packages are imported
only when a command runs, so ``robotsrules check`` starts as fast without them; a missing one
fails with a message naming the extra to install. Exit codes: 0 done, 2 usage or I/O error
(``robotsrules: error: ...`` on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Iterator, List, TextIO, Tuple

from .errors import RobotsError

__all__ = ["add_commands"]

EXIT_OK, EXIT_ERROR = 0, 2

# robotsrules.bulk's MISSING and DEFAULT_CACHE_SIZE, repeated so that building the parser
# (every robotsrules command) does not import pyarrow; a test keeps them equal.
MISSING = ("null", "allow", "disallow")
DEFAULT_CACHE_SIZE = 4096

_EXTRAS = {"duckdb": "bulk", "pyarrow": "bulk", "pyspark": "spark", "warcio": "warc",
           "matplotlib": "report", "pandas": "spark"}


def _need(module: str) -> None:
    """Fail with the extra to install when an optional package is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise RobotsError(f"this command needs {module}: pip install "
                          f"'robotsrules[{_EXTRAS.get(module, 'bulk')}]'")


def add_commands(commands: Any) -> None:
    """Add ``bulk`` and ``report`` to the ``robotsrules`` subcommands (an argparse
    subparsers object)."""
    from .cli import _mode_option

    bulk = commands.add_parser(
        "bulk", help="verdicts for many URLs and agents from a table of robots.txt bodies",
        description="Judge every URL of --urls for every --agent against the robots.txt of "
                    "its origin, from a robots table (--robots: columns url, body, optional "
                    "status and date) or WARC captures (--robots-warc). Reads Parquet, CSV, "
                    "JSON Lines or text (one URL a line); writes Parquet or CSV with columns "
                    "url, agent, allowed, line, reason, origin.",
        epilog="allowed is empty (null) when nothing is known: the origin has no robots row "
               "(see --missing) or the URL has no robots.txt scope. Exit codes: 0 done, "
               "2 usage or I/O error.")
    source = bulk.add_mutually_exclusive_group(required=True)
    source.add_argument("--robots", metavar="FILE",
                        help="robots table: url (any URL of the site), body, optional status "
                             "(HTTP; 4xx allow all, 429/5xx disallow all), optional date")
    source.add_argument("--robots-warc", metavar="FILE", nargs="+",
                        help="WARC files (gzip'd or not) holding robots.txt captures, e.g. "
                             "Common Crawl's; the newest capture per origin wins")
    bulk.add_argument("--urls", metavar="FILE", required=True, help="URL table (column url)")
    bulk.add_argument("--agent", metavar="NAME", action="append",
                      help="a crawler product token (repeatable: --agent GPTBot --agent CCBot)")
    from .cli_stance import add_agent_options  # --agent-category, --any-agent, --key (issue 17)

    add_agent_options(bulk)
    bulk.add_argument("--any-agent", action="store_true",
                      help="one row per URL: whether any agent is disallowed, the first such "
                           "agent and its deciding line (columns url, disallowed, agent, line, "
                           "reason, origin)")
    bulk.add_argument("--as-of", metavar="COLUMN",
                      help="judge each URL by the robots.txt capture in force at the date in "
                           "this column of the URL table (the newest not after it); keeps "
                           "every capture of the robots table or WARC files")
    bulk.add_argument("--strictest", type=float, metavar="DAYS",
                      help="with --as-of: the most restrictive capture in force during the "
                           "DAYS before the date")
    bulk.add_argument("--key", choices=["origin", "host"], default="origin",
                      help="find each URL's robots row by origin (default, RFC 9309) or by "
                           "host name (duckdb engine; see docs/opt-out.md)")
    bulk.add_argument("--out", metavar="FILE", required=True,
                      help="output file: .parquet or .csv (or see --format)")
    bulk.add_argument("--format", choices=["parquet", "csv"],
                      help="output format (default: from the --out file name)")
    bulk.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb",
                      help="duckdb (default, embedded) or spark (PySpark; local[*] unless "
                           "--spark-master)")
    bulk.add_argument("--missing", choices=MISSING, default="null",
                      help="verdict for URLs whose origin has no robots row: null (default: "
                           "unknown), allow or disallow")
    bulk.add_argument("--cache-size", type=int, default=DEFAULT_CACHE_SIZE, metavar="N",
                      help=f"parsed robots.txt files kept per worker (default "
                           f"{DEFAULT_CACHE_SIZE})")
    bulk.add_argument("--spark-master", metavar="URL", default="local[*]",
                      help="Spark master for --engine spark (default local[*])")
    bulk.add_argument("--partitions", type=int, metavar="N",
                      help="origin partitions for --engine spark (default: Spark's)")
    _mode_option(bulk)
    bulk.set_defaults(run=_bulk)

    report = commands.add_parser(
        "report", help="who is blocked where: shares of URLs and sites, top sites, pairs",
        description="Summarise a verdict table written by 'robotsrules bulk': for each agent "
                    "the share of URLs and of sites disallowed, the sites that block the most "
                    "URLs, and which agents are blocked where others are not.",
        epilog="Exit codes: 0 done, 2 usage or I/O error.")
    report.add_argument("verdicts", metavar="VERDICTS", help="Parquet, CSV or JSON Lines")
    report.add_argument("--json", action="store_true", help="print JSON")
    report.add_argument("--chart", metavar="FILE.png", help="also draw a PNG chart")
    report.add_argument("--top", type=int, default=10, metavar="N",
                        help="top sites listed per agent (default 10)")
    report.set_defaults(run=_report)


def _out_format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    name = args.out.lower()
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith(".csv"):
        return "csv"
    raise RobotsError(f"{args.out}: cannot tell the output format; name it .parquet or .csv, "
                      "or pass --format")


class _Writer:
    """Verdict batches to a Parquet or CSV file, written beside it then renamed (no half file
    under the final name when a run fails)."""

    def __init__(self, path: str, form: str, schema: Any = None) -> None:
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        from .bulk import VERDICT_SCHEMA

        schema = VERDICT_SCHEMA if schema is None else schema
        self.path, self.partial = path, path + ".partial"
        self.counts = {True: 0, False: 0, None: 0}
        self._any = "disallowed" in schema.names  # an any-agent table (issue 17)
        self._writer: Any = (pq.ParquetWriter(self.partial, schema, compression="zstd")
                             if form == "parquet" else pacsv.CSVWriter(self.partial, schema))

    def write(self, batch: Any) -> None:
        import pyarrow.compute as pc

        self._writer.write_batch(batch)
        allowed = batch.column("allowed") if not self._any else pc.invert(
            batch.column("disallowed"))
        yes = pc.sum(allowed.cast("int64")).as_py() or 0
        nulls = allowed.null_count
        self.counts[True] += yes
        self.counts[None] += nulls
        self.counts[False] += batch.num_rows - yes - nulls

    def close(self, ok: bool) -> None:
        self._writer.close()
        if ok:
            os.replace(self.partial, self.path)
        elif os.path.exists(self.partial):
            os.remove(self.partial)


def _bulk(args: argparse.Namespace, out: TextIO) -> int:
    _need("pyarrow")
    _need("duckdb")
    form = _out_format(args)
    from .cli_stance import expand_agents

    args.agent = expand_agents(args)
    if not args.agent:
        raise RobotsError("no agent given: pass --agent NAME or --agent-category CATEGORY")
    for agent in args.agent:  # a caller mistake: say so before any work
        from .agents import agent_tokens

        agent_tokens(agent)
    if args.cache_size < 1:
        raise RobotsError("--cache-size must be at least 1")
    started = time.monotonic()
    robots: Any = args.robots
    if args.strictest is not None and (not args.as_of or args.strictest < 0):
        raise RobotsError("--strictest DAYS needs --as-of COLUMN and DAYS >= 0")
    if args.robots_warc:
        robots = _warc_table(args.robots_warc, every=bool(args.as_of))
    job = _spark_job if args.engine == "spark" else _duckdb_job
    if args.as_of:
        job = _as_of_job
    batches, total, close = job(args, robots)
    from .cli import _Progress

    schema = None
    if args.any_agent:  # one row per URL (issue 17); the DuckDB job answers it directly
        from .bulk import ANY_AGENT_SCHEMA, any_agent

        if job is not _duckdb_job:
            batches = any_agent(batches, args.agent)
        schema = ANY_AGENT_SCHEMA
    progress = _Progress(total * (1 if args.any_agent else len(args.agent)))
    writer = _Writer(args.out, form, schema)
    ok = False
    try:
        for batch in batches:
            writer.write(batch)
            progress.count += batch.num_rows - 1
            progress.step()
        ok = True
    finally:
        progress.done()
        writer.close(ok)
        close()
    counts = writer.counts
    rows = sum(counts.values())
    seconds = time.monotonic() - started
    what = "URLs" if args.any_agent else "verdicts"
    out.write(f"{rows:,} {what} ({counts[True]:,} allowed, {counts[False]:,} disallowed, "
              f"{counts[None]:,} unknown) -> {args.out} in {seconds:.1f} s [{args.engine}]\n")
    return EXIT_OK


def _warc_table(paths: List[str], every: bool = False) -> Any:
    _need("warcio")
    from .warc import WarcStats, read_warc_captures, read_warcs

    if every:  # --as-of: every capture, not the newest per site
        read_warcs = read_warc_captures

    for path in paths:
        if not os.path.isfile(path):
            raise RobotsError(f"{path}: no such file")
    stats = WarcStats()
    table = read_warcs(paths, stats=stats)
    for problem in stats.errors[:10]:
        sys.stderr.write(f"robotsrules: warning: {problem}\n")
    if len(stats.errors) > 10:
        sys.stderr.write(f"robotsrules: warning: {len(stats.errors) - 10} more problems\n")
    sys.stderr.write(f"robotsrules: {stats.captures:,} robots.txt captures in {stats.files} "
                     f"WARC files -> {table.num_rows:,} sites\n")
    return table


_Job = Tuple[Iterator[Any], int, Any]


def _duckdb_job(args: argparse.Namespace, robots: Any) -> _Job:
    import duckdb

    from . import duckdb as engine

    con = duckdb.connect()
    try:
        index = engine.load_index(con, robots, args.key)
        if index.skipped:
            sys.stderr.write(f"robotsrules: warning: {index.skipped:,} robots rows without a "
                             "usable URL ignored\n")
        total = engine.count_rows(con, args.urls)
        make = engine.any_agent_verdicts if args.any_agent else engine.verdicts
        reader = make(index, args.urls, args.agent, connection=con, missing=args.missing,
                      cache_size=args.cache_size, mode=args.mode)
    except BaseException:
        con.close()
        raise
    return iter(reader), total, con.close


def _as_of_job(args: argparse.Namespace, robots: Any) -> _Job:
    """``--as-of``: DuckDB reads both tables, the core judges each URL by the capture in
    force at its date (:func:`robotsrules.bulk.as_of_verdicts`)."""
    if args.engine != "duckdb":
        raise RobotsError("--as-of needs --engine duckdb")
    import datetime

    import duckdb

    from . import duckdb as engine
    from .bulk import as_of_verdicts

    con = duckdb.connect()
    try:
        history = engine.load_history(con, robots, args.key)
        total = engine.count_rows(con, args.urls)
        reader = engine.as_of_reader(con, args.urls, args.as_of)
        window = (None if args.strictest is None
                  else datetime.timedelta(days=args.strictest))
        batches = as_of_verdicts(history, _guarded(reader), args.agent, args.as_of,
                                 strictest=window,
                                 missing=args.missing, cache_size=args.cache_size,
                                 mode=args.mode)
    except BaseException:
        con.close()
        raise
    return batches, total, con.close


def _guarded(reader: Any) -> Iterator[Any]:
    """Batches of a DuckDB reader; a read error becomes a RobotsError (no traceback)."""
    import duckdb
    import pyarrow as pa

    batches = iter(reader)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (duckdb.Error, pa.ArrowException) as error:
            raise RobotsError(f"reading the URL table failed: {_first_line(error)}") from None
        yield batch


def _spark_job(args: argparse.Namespace, robots: Any) -> _Job:
    _need("pyspark")
    _need("pandas")  # pyspark's Arrow entry points insist on it
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise RobotsError("--engine spark needs Java 17 or later (java not found)")
    import pyarrow as pa
    import pyarrow.dataset as ds

    from . import spark as engine

    if args.key != "origin":
        raise RobotsError("--key host needs --engine duckdb")

    for path in ([args.robots] if args.robots else []) + [args.urls]:
        if not os.path.exists(path):
            raise RobotsError(f"{path}: no such file")
    session = engine.local_session(args.spark_master)
    scratch = tempfile.mkdtemp(prefix="robotsrules-spark-")

    def close() -> None:
        shutil.rmtree(scratch, ignore_errors=True)
        session.stop()

    try:
        robots_df = (session.createDataFrame(robots) if isinstance(robots, pa.Table)
                     else engine.read(session, robots))
        urls_df = engine.read(session, args.urls)
        job = engine.verdicts(robots_df, urls_df, args.agent, missing=args.missing,
                              partitions=args.partitions, mode=args.mode)
        target = os.path.join(scratch, "verdicts")
        job.write.parquet(target)  # in parallel on the workers; then streamed into --out
        total = urls_df.count()
        dataset = ds.dataset(target, format="parquet")
        batches = (batch.cast(_schema()) for batch in dataset.to_batches())
    except RobotsError:
        close()
        raise
    except Exception as error:  # Spark reports JVM and worker failures as exceptions
        close()
        raise RobotsError(f"spark job failed: {_first_line(error)}") from None
    return batches, total, close


def _schema() -> Any:
    from .bulk import VERDICT_SCHEMA

    return VERDICT_SCHEMA


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _report(args: argparse.Namespace, out: TextIO) -> int:
    _need("duckdb")
    from .audit import audit, chart, to_json, to_text

    if not os.path.exists(args.verdicts):
        raise RobotsError(f"{args.verdicts}: no such file")
    if args.top < 0:
        raise RobotsError("--top must not be negative")
    result = audit(args.verdicts, top=args.top)
    if args.chart:
        chart(result, args.chart)
    if args.json:
        out.write(json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(to_text(result))
        if args.chart:
            out.write(f"\nchart: {args.chart}\n")
    return EXIT_OK
