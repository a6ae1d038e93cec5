"""``robotsrules bulk`` and ``robotsrules report``: verdicts at scale, and what they add up to.

Hooked into :mod:`robotsrules.cli` by :func:`add_commands`. The engines' packages are imported
only when a command runs, so ``robotsrules check`` starts as fast without them; a missing one
fails with a message naming the extra to install. Exit codes: 0 done, 2 usage or I/O error
(``robotsrules: error: ...`` on stderr, never a traceback), 130 on SIGINT (Ctrl-C) and 143
on SIGTERM: the run stops, its temporary file is removed and nothing is written under the
``--out`` name.

The output file is written beside ``--out`` and renamed into place only when the job
finished (:mod:`robotsrules.cli._writer`). The job runs in a worker thread while the main
thread waits and handles signals: the handler asks the engine to stop
(``DuckDBPyConnection.interrupt()``, Spark's ``cancelAllJobs()``) instead of raising
``KeyboardInterrupt`` wherever Python happens to be; see ``docs/explanations/bulk-safety.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, Callable, Optional, TextIO

from ..errors import RobotsError

__all__ = ["add_commands", "add_stance_table_options"]

from ._common import EXIT_OK
from ._interrupt import Interrupted as _Interrupted
from ._interrupt import JobStop as _Stop
from ._interrupt import current
from ._jobs import (
    as_of_job,
    bulk_manifest,
    check_dates,
    check_pages_args,
    duckdb_job,
    duckdb_stances,
    license_schema,
    need,
    nothing,
    pages_job,
    pages_schema,
    spark_job,
    spark_stances,
    stance_crawlers,
    warc_table,
    with_licenses,
)
from ._options import count, days, json_option
from ._writer import Writer, out_format, settle, verdict_table_schema

# robotsrules.bulk's MISSING and DEFAULT_CACHE_SIZE, repeated so that building the parser
# (every robotsrules command) does not import pyarrow; a test keeps them equal.
MISSING = ("null", "allow", "disallow")
DEFAULT_CACHE_SIZE = 4096

def add_commands(commands: Any) -> None:
    """Add ``bulk`` and ``report`` to the ``robotsrules`` subcommands (an argparse
    subparsers object)."""
    from ._agent_options import add_agent_options
    from ._options import add_command, mode_option

    bulk = add_command(commands, "bulk")
    source = bulk.add_mutually_exclusive_group()  # one is required unless --pages-warc
    source.add_argument("--robots", metavar="FILE",
                        help="robots table: url (any URL of the site), body, optional status "
                             "(HTTP; 4xx allow all, 429/5xx disallow all), optional date")
    source.add_argument("--robots-warc", metavar="FILE", nargs="+",
                        help="WARC files (gzip'd or not) holding robots.txt captures, e.g. "
                             "Common Crawl's; the newest capture per origin wins")
    bulk.add_argument("--urls", metavar="FILE", help="URL table (column url)")
    bulk.add_argument("--pages-warc", metavar="FILE", nargs="+",
                      help="page signals instead of verdicts: the response records of these "
                           "WARC files (headers and HTML head) give per URL and agent the "
                           "columns crawl_allowed (with --robots/--robots-warc), index, "
                           "follow, noai, tdm_reservation and one per --purpose")
    add_agent_options(bulk, "a crawler product token (one column value per agent: "
                            "--agent GPTBot --agent CCBot)")
    bulk.add_argument("--any-agent", action="store_true",
                      help="one row per URL: whether any agent is disallowed, the first such "
                           "agent and its deciding line (columns url, disallowed, agent, line, "
                           "reason, origin)")
    bulk.add_argument("--as-of", metavar="COLUMN",
                      help="judge each URL by the robots.txt capture in force at the date in "
                           "this column of the URL table (the newest not after it); keeps "
                           "every capture of the robots table or WARC files")
    bulk.add_argument("--strictest", type=days, metavar="DAYS",
                      help="with --as-of: the most restrictive capture in force during the "
                           "DAYS before the date")
    bulk.add_argument("--key", choices=["origin", "host"], default="origin",
                      help="find each URL's robots row by origin (default, RFC 9309) or by "
                           "host name (duckdb engine, or --as-of on either engine; see "
                           "docs/guides/opt-out.md)")
    bulk.add_argument("--purpose", metavar="NAME", action="append", default=[],
                      help="add a nullable boolean column with the AI usage preference for "
                           "this purpose (ai-train -> column ai_train; repeatable; see "
                           "robotsrules usage); with --pages-warc, the page's signals and "
                           "the robots.txt combined")
    bulk.add_argument("--out", metavar="FILE", required=True,
                      help="output file: .parquet or .csv (or see --format)")
    bulk.add_argument("--license-url", action="store_true",
                      help="add a column license_url: the License URLs (RSL 1.0) of the "
                           "origin's robots.txt (every one, for every agent), space-separated "
                           "(empty: none; null: no robots row)")
    bulk.add_argument("--licenses", metavar="FILE",
                      help="a table of RSL licence documents (columns url, body: the XML): "
                           "adds license_url and, per --purpose, a column rsl_<purpose> with "
                           "what they say at the row's URL (permitted, licensed, prohibited, "
                           "unstated, or unknown when a named document is not in the table or "
                           "cannot be read)")
    bulk.add_argument("--manifest", metavar="FILE",
                      help="also write an evidence manifest (JSON Lines, "
                           "data/manifest.schema.json): per origin the robots.txt's SHA-256, "
                           "fetch time and status, the protocols consulted and the deciding "
                           "line of every refusal; with --pages-warc also every page "
                           "refusal's deciding directive, priced pages and licence links "
                           "(not with --as-of; --pages-warc needs --engine duckdb)")
    bulk.add_argument("--format", choices=["parquet", "csv"],
                      help="output format (default: from the --out file name)")
    bulk.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb",
                      help="duckdb (default, embedded) or spark (PySpark; local[*] unless "
                           "--spark-master)")
    bulk.add_argument("--missing", choices=MISSING, default="null",
                      help="verdict for URLs whose origin has no robots row: null (default: "
                           "unknown), allow or disallow")
    bulk.add_argument("--cache-size", type=count(1), default=DEFAULT_CACHE_SIZE, metavar="N",
                      help=f"parsed robots.txt files kept per worker (default "
                           f"{DEFAULT_CACHE_SIZE})")
    bulk.add_argument("--spark-master", metavar="URL", default="local[*]",
                      help="Spark master for --engine spark (default local[*])")
    bulk.add_argument("--partitions", type=count(1, 1 << 20), metavar="N",
                      help="origin partitions for --engine spark (default: Spark's)")
    mode_option(bulk)
    bulk.set_defaults(run=_bulk)

    report = add_command(commands, "report")
    report.add_argument("verdicts", metavar="VERDICTS", help="Parquet, CSV or JSON Lines")
    json_option(report)
    report.add_argument("--chart", metavar="FILE.png", help="also draw a PNG chart")
    report.add_argument("--top", type=count(0), default=10, metavar="N",
                        help="top sites listed per agent (default 10)")
    sites = report.add_mutually_exclusive_group()
    sites.add_argument("--stances", metavar="FILE",
                       help="a stance table ('robotsrules stance --robots ... --out', keyed "
                            "by origin): sites fully/partly disallowed are those whose stance "
                            "is all/some (without it they are estimated from the URLs)")
    sites.add_argument("--robots", metavar="FILE",
                       help="the robots table the verdicts came from: work out the stances "
                            "of the verdict table's sites and agents (as --stances)")
    sites.add_argument("--robots-warc", metavar="FILE", nargs="+",
                       help="as --robots, from WARC files of robots.txt captures")
    report.add_argument("--mode", choices=["google", "rfc"], default="google",
                        help="with --robots/--robots-warc: how to read the files, as the "
                             "verdicts were (default google)")
    report.set_defaults(run=_report)


def _bulk(args: argparse.Namespace, out: TextIO) -> int:
    return _stoppable(args, out, _bulk_run)


def _stoppable(args: argparse.Namespace, out: TextIO,
               run: Callable[[argparse.Namespace, TextIO, _Stop], int]) -> int:
    """Run a job writing ``--out`` in a worker thread, the main thread handling signals
    (:meth:`robotsrules.cli._interrupt.Gate.run_job`)."""
    stop = _Stop(args.out)
    gate = current()
    if gate is None or threading.current_thread() is not threading.main_thread():
        return run(args, out, stop)  # no signal handling off the main thread
    code = gate.run_job(stop, lambda: run(args, out, stop))
    if code is None:  # stopped by a signal
        gc.collect()  # the worker's frames hold DuckDB objects: free them now, not at exit
        sys.stderr.write(f"{stop.message()}; {args.out} not written\n")
        return gate.exit_code()
    return code


def _bulk_run(args: argparse.Namespace, out: TextIO, stop: _Stop) -> int:
    need("pyarrow")
    need("duckdb")
    import pyarrow as pa

    pa.array([""], pa.string())  # imports pandas if installed (seconds): before any work
    form = out_format(args)
    from ._agent_options import command_agents

    agents = command_agents(args)  # a caller mistake: said before any work
    verdict_table_schema(args.purpose)  # an unknown purpose: InvalidPurpose, before any work
    if args.any_agent and args.purpose:
        raise RobotsError("--purpose is not available with --any-agent (its one row per URL "
                          "names no agent to answer for); drop --any-agent for the columns")
    if args.as_of is not None and args.as_of.strip().lower() == "url":
        raise RobotsError("--as-of names the URL table's date column, not its url column")
    pages = bool(args.pages_warc)
    if pages:
        check_pages_args(args)
    elif not (args.robots or args.robots_warc) or not args.urls:
        raise RobotsError("bulk needs --urls and one of --robots, --robots-warc "
                          "(or --pages-warc)")
    if args.strictest is not None and not args.as_of:
        raise RobotsError("--strictest DAYS needs --as-of COLUMN")
    if args.manifest and args.as_of:
        raise RobotsError("--manifest is not available with --as-of")
    if args.manifest and pages and args.engine == "spark":
        raise RobotsError("--manifest with --pages-warc needs --engine duckdb")
    licensing = bool(args.license_url or args.licenses)
    if licensing and (pages or args.as_of or args.any_agent):
        raise RobotsError("--license-url and --licenses are not available with --pages-warc, "
                          "--as-of or --any-agent")
    started = time.monotonic()
    from ._common import Progress

    schema = None
    if args.any_agent:  # one row per URL
        from ..bulk import ANY_AGENT_SCHEMA

        schema = ANY_AGENT_SCHEMA
    if pages:  # one row per page and agent
        schema = pages_schema(args)
    if licensing:
        schema = license_schema(args)
    writer = Writer(args.out, form, args.purpose, schema)  # the destination is checked first
    stop.partial = writer.partial
    ok = renamed = False
    close: Callable[[], None] = nothing
    progress: Optional[Progress] = None
    manifest: Any = None
    try:
        stop.check()
        if not pages:
            check_dates(args)  # dates that are numbers: refused, never read as "no date"
        robots: Any = args.robots
        if args.robots_warc:
            robots = warc_table(args.robots_warc, every=bool(args.as_of))
        stop.check()
        job = spark_job if args.engine == "spark" else duckdb_job
        if args.as_of:
            job = as_of_job
        manifest = bulk_manifest(args, robots, agents) if args.manifest else None  # issue 26
        if pages:
            import functools

            job = functools.partial(pages_job, manifest=manifest)
        batches, total, close = job(args, robots, agents, stop)
        if licensing:  # issue 26
            batches = with_licenses(args, robots, batches)
        if args.any_agent and job is not duckdb_job:  # DuckDB's job answers it directly
            from ..bulk import any_agent

            batches = any_agent(batches, agents)
        stop.check()
        progress = Progress(None if total is None
                            else total * (1 if args.any_agent else len(agents)))
        for batch in batches:
            stop.check()
            writer.write(batch)
            if manifest is not None and not pages:  # a page run records through its job
                manifest.observe_batch(batch)
            progress.count += batch.num_rows - 1
            progress.step()
        stop.check()
        ok = True
    finally:
        if progress is not None:
            progress.done()
        renamed = settle(stop, writer, close, ok)
    if not renamed:  # done, but a signal came before the rename: the output was dropped
        raise _Interrupted
    if manifest is not None:
        written = manifest.write(args.manifest)
        out.write(f"manifest: {written:,} origins -> {args.manifest}\n")
    counts = writer.counts
    rows = sum(counts.values())
    seconds = time.monotonic() - started
    if pages:
        out.write(f"{rows:,} page rows ({counts[False]:,} noindex) -> {args.out} in "
                  f"{seconds:.1f} s [{args.engine}]\n")
        return EXIT_OK
    what = "URLs" if args.any_agent else "verdicts"
    out.write(f"{rows:,} {what} ({counts[True]:,} allowed, {counts[False]:,} disallowed, "
              f"{counts[None]:,} unknown) -> {args.out} in {seconds:.1f} s [{args.engine}]\n")
    return EXIT_OK


def _report(args: argparse.Namespace, out: TextIO) -> int:
    need("duckdb")
    from .._report import audit, chart, to_json, to_text

    if not os.path.exists(args.verdicts):
        raise RobotsError(f"{args.verdicts}: no such file")
    stances: Any = None
    if args.stances:
        if not os.path.exists(args.stances):
            raise RobotsError(f"{args.stances}: no such file")
        stances = args.stances
    elif args.robots or args.robots_warc:
        from .._report import stance_table

        if args.robots and not os.path.exists(args.robots):
            raise RobotsError(f"{args.robots}: no such file")
        robots = warc_table(args.robots_warc) if args.robots_warc else args.robots
        stances = stance_table(args.verdicts, robots, mode=args.mode)
    result = audit(args.verdicts, top=args.top, stances=stances)
    if args.chart:
        chart(result, args.chart)
    if args.json:
        out.write(json.dumps(to_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(to_text(result))
        if args.chart:
            out.write(f"\nchart: {args.chart}\n")
    return EXIT_OK


# -- stance --robots: one row per site and agent (issue 17) ----------------------------------

def add_stance_table_options(stance: argparse.ArgumentParser) -> None:
    """The table form of ``robotsrules stance``: ``--robots``/``--robots-warc`` with
    ``--out``, one row per site and agent (:data:`robotsrules.bulk.STANCE_SCHEMA`)."""
    source = stance.add_mutually_exclusive_group()
    source.add_argument("--robots", metavar="FILE",
                        help="table form: a robots table (url, body, optional status and "
                             "date; Parquet, CSV or JSON Lines) instead of FILE_OR_URL; "
                             "writes one row per site and agent to --out")
    source.add_argument("--robots-warc", metavar="FILE", nargs="+",
                        help="table form: WARC files holding robots.txt captures (the "
                             "newest capture per site wins)")
    stance.add_argument("--out", metavar="FILE",
                        help="table form: output file, .parquet or .csv (columns site, "
                             "agent, kind, reason, scope, lines, disallowed, allowed, "
                             "complete; lists as JSON text in CSV)")
    stance.add_argument("--format", choices=["parquet", "csv"],
                        help="table form: output format (default: from the --out file name)")
    stance.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb",
                        help="table form: duckdb (default, embedded) or spark")
    stance.add_argument("--key", choices=["origin", "host"], default="origin",
                        help="table form: one row per origin (default) or per host name "
                             "(duckdb engine)")
    stance.add_argument("--spark-master", metavar="URL", default="local[*]",
                        help="table form: Spark master for --engine spark (default local[*])")
    stance.add_argument("--partitions", type=count(1, 1 << 20), metavar="N",
                        help="table form: origin partitions for --engine spark")
    stance.set_defaults(run_table=_stance_table)


def _stance_table(args: argparse.Namespace, out: TextIO, more: Sequence[str] = ()) -> int:
    """The table form of ``stance``; ``more``: agents named after ``--agent`` (the form of
    before, read by the ``stance`` command)."""
    if not args.out:
        raise RobotsError("the table form needs --out FILE (with --robots or --robots-warc)")
    if not (args.robots or args.robots_warc):
        raise RobotsError("--out needs --robots FILE or --robots-warc FILES "
                          "(for one file: robotsrules stance FILE_OR_URL)")
    if args.source is not None:
        raise RobotsError(f"{args.source}: give FILE_OR_URL or --robots/--robots-warc, "
                          "not both")
    if args.json:
        raise RobotsError("--json is for the FILE_OR_URL form; the table form writes --out")
    return _stoppable(args, out, lambda args, out, stop: _stance_run(args, out, stop, more))


def _stance_run(args: argparse.Namespace, out: TextIO, stop: _Stop, more: Sequence[str]
                ) -> int:
    need("pyarrow")
    need("duckdb")
    from ..bulk import STANCE_SCHEMA
    from ..bulk._stances import check_stance_mode
    from ._agent_options import command_agents

    form = out_format(args)
    agents = command_agents(args, more)  # a caller mistake: said before any work
    check_stance_mode(args.mode)
    if args.engine == "spark" and args.key != "origin":
        raise RobotsError("--key host needs --engine duckdb")
    started = time.monotonic()
    writer = Writer(args.out, form, schema=STANCE_SCHEMA)  # the destination first
    stop.partial = writer.partial
    ok = renamed = False
    close: Callable[[], None] = nothing
    try:
        stop.check()
        robots: Any = args.robots
        if args.robots_warc:
            robots = warc_table(args.robots_warc)
        stop.check()
        job = spark_stances if args.engine == "spark" else duckdb_stances
        batches, close = job(args, robots, agents, stop)
        for batch in batches:
            stop.check()
            writer.write(batch)
        stop.check()
        ok = True
    finally:
        renamed = settle(stop, writer, close, ok)
    if not renamed:
        raise _Interrupted
    kinds = writer.kinds
    rows = sum(kinds.values())
    seconds = time.monotonic() - started
    out.write(f"{rows:,} stances ({kinds['all']:,} all, {kinds['some']:,} some, "
              f"{kinds['none']:,} none, {kinds[None]:,} unknown) for {len(agents)} agents "
              f"-> {args.out} in {seconds:.1f} s [{args.engine}]\n")
    from ..bulk import agent_stoppable

    crawlers = stance_crawlers(args)
    cannot = [agent for agent in agents if agent_stoppable(agent, crawlers) is False]
    if cannot:
        out.write(f"robots.txt cannot stop {', '.join(cannot)}, by the crawler registry "
                  "(column stoppable)\n")
    return EXIT_OK

