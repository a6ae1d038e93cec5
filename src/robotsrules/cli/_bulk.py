"""``robotsrules bulk`` and ``robotsrules report``: verdicts at scale, and what they add up to.

Hooked into :mod:`robotsrules.cli` by :func:`add_commands`. The engines' packages are imported
only when a command runs, so ``robotsrules check`` starts as fast without them; a missing one
fails with a message naming the extra to install. Exit codes: 0 done, 2 usage or I/O error
(``robotsrules: error: ...`` on stderr, never a traceback), 130 on SIGINT (Ctrl-C) and 143
on SIGTERM: the run stops, its temporary file is removed and nothing is written under the
``--out`` name.

Output is written to a temporary file created with ``O_EXCL`` (:func:`tempfile.mkstemp`) in
the destination's directory, then renamed over ``--out``; so a pre-existing file or symlink
named like the temporary is never followed. The job runs in a worker thread while the main
thread waits and handles signals: the handler asks the engine to stop
(``DuckDBPyConnection.interrupt()``, Spark's ``cancelAllJobs()``) instead of raising
``KeyboardInterrupt`` wherever Python happens to be; see ``docs/explanations/bulk-safety.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, TextIO, Tuple

from .._terminal import first_line
from ..errors import EngineError, MissingExtra, RobotsError

__all__ = ["add_commands", "add_stance_table_options"]

from ._common import EXIT_OK, spark_session
from ._interrupt import Interrupted as _Interrupted
from ._interrupt import JobStop as _Stop
from ._interrupt import current
from ._options import count, days, json_option
from ._output import note, warn

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
        raise MissingExtra("this command", _EXTRAS.get(module, "bulk"), module)


def add_commands(commands: Any) -> None:
    """Add ``bulk`` and ``report`` to the ``robotsrules`` subcommands (an argparse
    subparsers object)."""
    from ._agent_options import add_agent_options
    from ._options import add_command, mode_option

    bulk = add_command(
        commands, "bulk",
        help="verdicts for many URLs and agents from a table of robots.txt bodies",
        description="Judge every URL of --urls for every --agent against the robots.txt of "
                    "its origin, from a robots table (--robots: columns url, body, optional "
                    "status and date) or WARC captures (--robots-warc). Reads Parquet, CSV, "
                    "JSON Lines or text (one URL a line); writes Parquet or CSV with columns "
                    "url, agent, allowed, line, reason, origin. allowed is empty (null) when "
                    "nothing is known: the origin has no robots row (see --missing) or the "
                    "URL has no robots.txt scope.",
        exits="0 done, 2 usage or I/O error, 130 interrupted, 143 terminated (nothing is "
              "written under the --out name then).",
        examples=["robotsrules bulk --robots robots.parquet --urls urls.parquet --agent GPTBot "
                  "--agent CCBot --out verdicts.parquet",
                  "robotsrules bulk --robots-warc crawl/*.warc.gz --urls urls.txt "
                  "--agent-category ai-training --purpose ai-train --out v.parquet",
                  "robotsrules bulk --robots robots.parquet --urls urls.parquet --agent GPTBot "
                  "--as-of fetch_date --out then.parquet"])
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

    report = add_command(
        commands, "report",
        help="who is blocked where: shares of URLs and sites, top sites, pairs",
        description="Summarise a verdict table written by 'robotsrules bulk': for each agent "
                    "the share of URLs and of sites disallowed (with --stances or --robots: "
                    "sites whose robots.txt stance is all or some, and the count of each "
                    "stance), the sites that block the most URLs, and which agents are "
                    "blocked where others are not.",
        exits="0 done, 2 usage or I/O error.",
        examples=["robotsrules report verdicts.parquet",
                  "robotsrules report verdicts.parquet --robots robots.parquet --chart "
                  "report.png",
                  "robotsrules report verdicts.parquet --top 20 --json"])
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


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _settle(stop: _Stop, writer: _Writer, close: Callable[[], None], ok: bool) -> bool:
    """The end of a job that writes ``--out``, finished or not: release the engine, then
    rename the output into place when the job finished and no stop signal came, else remove
    it. True when renamed. The caller raises :class:`_Interrupted` when it was not (and no
    other exception is on its way)."""
    try:
        close()
    finally:
        stop.interrupt = None
        with stop.lock:  # a hard stop never removes a renamed file, nor races a rename
            renamed = ok and stop.signum is None
            writer.close(renamed)
            stop.partial = None
            if renamed:
                stop.settled()  # a signal from now on does not undo the run
    return renamed


class _Writer:
    """Verdict (or page-signal) batches to a Parquet or CSV file: written to a new temporary
    file beside it (``O_EXCL``, a random name), then renamed; no half file under the final
    name when a run fails or is interrupted. Created before any work, so a bad ``--out``
    fails at once."""

    def __init__(self, path: str, form: str, purposes: Any = (), schema: Any = None) -> None:
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        from ..bulk import with_provenance

        schema = _schema(purposes) if schema is None else schema
        self._any = "disallowed" in schema.names  # an any-agent table: one row per URL
        self._pages = "index" in schema.names  # a page-signal table: counts index yes/no
        self._kinds = "kind" in schema.names  # a stance table: one row per site and agent
        self._csv_lists = [i for i, f in enumerate(schema) if form == "csv"
                           and isinstance(f.type, pa.ListType)]
        if self._csv_lists:  # CSV has no lists: such columns are written as JSON text
            schema = pa.schema([pa.field(f.name, pa.string()) if i in self._csv_lists else f
                                for i, f in enumerate(schema)])
        self._schema = schema
        self.path = path
        if os.path.isdir(path):
            raise RobotsError(f"{path}: is a directory; --out names the output file")
        if os.path.exists(path) and not os.path.isfile(path):
            raise RobotsError(f"{path}: not a regular file; --out names the output file")
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise RobotsError(f"{os.path.dirname(path) or directory}: no such directory")
        try:
            handle, self.partial = tempfile.mkstemp(
                prefix="." + os.path.basename(path) + ".", suffix=".partial", dir=directory)
        except OSError as error:
            raise RobotsError(f"{path}: cannot write there: {error.strerror or error}"
                              ) from None
        self.counts = {True: 0, False: 0, None: 0}
        self.kinds: Dict[Optional[str], int] = {"all": 0, "some": 0, "none": 0, None: 0}
        """Rows per stance kind (a stance table)."""
        self._file: Any = None
        self._writer: Any = None
        try:
            os.fchmod(handle, 0o666 & ~_umask())  # mkstemp's 0600 would stick to the output
            self._file = os.fdopen(handle, "wb")
            self._writer = (pq.ParquetWriter(self._file, with_provenance(schema),
                                             compression="zstd")
                            if form == "parquet" else pacsv.CSVWriter(self._file, schema))
        except BaseException:
            if self._file is None:
                os.close(handle)
            self.close(False)
            raise

    def write(self, batch: Any) -> None:
        import pyarrow.compute as pc

        if self._kinds:
            for kind in batch.column("kind").to_pylist():
                self.kinds[kind if kind in self.kinds else None] += 1
            if self._csv_lists:
                batch = _json_lists(batch, self._csv_lists, self._schema)
            self._writer.write_batch(batch)
            return
        self._writer.write_batch(_json_lists(batch, self._csv_lists, self._schema)
                                 if self._csv_lists else batch)
        allowed = (pc.invert(batch.column("disallowed")) if self._any
                   else batch.column("index") if self._pages else batch.column("allowed"))
        yes = pc.sum(allowed.cast("int64")).as_py() or 0
        nulls = allowed.null_count
        self.counts[True] += yes
        self.counts[None] += nulls
        self.counts[False] += batch.num_rows - yes - nulls

    def close(self, ok: bool) -> None:
        """Finish the file and rename it to the final name (``ok``), or remove it."""
        try:
            if self._writer is not None:
                writer, self._writer = self._writer, None
                writer.close()
            if self._file is not None and not self._file.closed:
                self._file.flush()
                if ok:
                    os.fsync(self._file.fileno())
                self._file.close()
            if ok:
                try:
                    os.replace(self.partial, self.path)
                except OSError as error:
                    raise RobotsError(f"{self.path}: cannot write: "
                                      f"{error.strerror or error}") from None
                ok = False  # renamed: nothing left to remove
        finally:
            if not ok:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.partial)


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
    _need("pyarrow")
    _need("duckdb")
    import pyarrow as pa

    pa.array([""], pa.string())  # imports pandas if installed (seconds): before any work
    form = _out_format(args)
    from ._agent_options import command_agents

    args.agent = command_agents(args)  # a caller mistake: said before any work
    _schema(args.purpose)  # an unknown purpose: InvalidPurpose, before any work
    if args.any_agent and args.purpose:
        raise RobotsError("--purpose is not available with --any-agent (its one row per URL "
                          "names no agent to answer for); drop --any-agent for the columns")
    if args.as_of is not None and args.as_of.strip().lower() == "url":
        raise RobotsError("--as-of names the URL table's date column, not its url column")
    pages = bool(args.pages_warc)
    if pages:
        from ._page import check_pages_args

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
        from ._page import page_schema

        schema = page_schema(args)
    if licensing:
        schema = _license_schema(args)
    writer = _Writer(args.out, form, args.purpose, schema)  # the destination is checked first
    stop.partial = writer.partial
    ok = renamed = False
    close: Callable[[], None] = _nothing
    progress: Optional[Progress] = None
    manifest: Any = None
    try:
        stop.check()
        if not pages:
            _check_dates(args)  # dates that are numbers: refused, never read as "no date"
        robots: Any = args.robots
        if args.robots_warc:
            robots = _warc_table(args.robots_warc, every=bool(args.as_of))
        stop.check()
        job = _spark_job if args.engine == "spark" else _duckdb_job
        if args.as_of:
            job = _as_of_job
        manifest = _manifest(args, robots) if args.manifest else None  # issue 26
        if pages:
            import functools

            from ._page import pages_job

            job = functools.partial(pages_job, manifest=manifest)
        batches, total, close = job(args, robots, stop)
        if licensing:  # issue 26
            batches = _with_licenses(args, robots, batches)
        if args.any_agent and job is not _duckdb_job:  # DuckDB's job answers it directly
            from ..bulk import any_agent

            batches = any_agent(batches, args.agent)
        stop.check()
        progress = Progress(None if total is None
                            else total * (1 if args.any_agent else len(args.agent)))
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
        renamed = _settle(stop, writer, close, ok)
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


def _nothing() -> None:
    pass


_NUMBERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
            "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL")


def _check_dates(args: argparse.Namespace) -> None:
    """The date columns a run reads (``--as-of COLUMN`` of the URL table, ``date`` of the
    robots table) hold dates: numbers (seconds since 1970?) are refused with what to do,
    since read as dates they would be no date at all, and every URL "no-robots"."""
    if not (args.as_of or args.robots):
        return
    import duckdb

    from .. import duckdb as engine

    with duckdb.connect() as con:
        if args.as_of and args.urls:
            _date_column(engine.read(con, args.urls), args.as_of,
                         f"--as-of {args.as_of} (in {args.urls})")
        if args.robots:
            _date_column(engine.read(con, args.robots), "date",
                         f"the date column of {args.robots}")


def _date_column(relation: Any, name: str, where: str) -> None:
    if name not in relation.columns:
        return  # the engine says so, with the columns there are
    kind = str(relation.types[relation.columns.index(name)]).upper()
    numbers = kind.startswith(_NUMBERS)
    if kind == "VARCHAR":  # text: numbers written as text are numbers too
        column = '"' + name.replace('"', '""') + '"'
        sample = [value for (value,) in relation.select(column).filter(
            f"{column} IS NOT NULL").limit(1000).fetchall()]
        numbers = bool(sample) and all(str(v).strip().lstrip("-").replace(".", "", 1).isdigit()
                                       for v in sample)
    if numbers:
        raise RobotsError(f"{where} holds numbers ({kind}), not dates: give ISO 8601 text "
                          "(2024-05-01T12:00:00Z), DATE or TIMESTAMP values; for seconds "
                          "since 1970, convert them first (in DuckDB: to_timestamp(column))")


def _robots_rows(args: argparse.Namespace, robots: Any) -> Tuple[List[str], Any]:
    """The robots table's columns, and origin -> its governing ``(body, status, date)`` row
    (None without one): the table read once more into an index, for what a bulk run adds
    beside its verdicts (the manifest, the licence columns; issue 26)."""
    import duckdb

    from .. import duckdb as engine
    from ..bulk._rows import host_key

    con = duckdb.connect()
    try:
        columns = list(engine.read(con, robots).columns)
        index = engine.load_index(con, robots, args.key)
    finally:
        con.close()

    def lookup(origin: str) -> Any:
        key = origin if args.key == "origin" else host_key(origin)
        if key is None:
            return None
        row = index.get(key)
        return None if row is None else (row[0], row[1], index.date(key))

    return columns, lookup


def _license_schema(args: argparse.Namespace) -> Any:
    import pyarrow as pa

    from .._purposes import column_name

    schema = _schema(args.purpose).append(pa.field("license_url", pa.string()))
    if args.licenses:
        for purpose in dict.fromkeys(args.purpose):
            schema = schema.append(pa.field("rsl_" + column_name(purpose), pa.string()))
    return schema


def _with_licenses(args: argparse.Namespace, robots: Any, batches: Any) -> Iterator[Any]:
    """Verdict batches with ``license_url`` (and ``rsl_<purpose>`` with ``--licenses``)."""
    import duckdb
    import pyarrow as pa

    from .. import duckdb as engine
    from .._rsl import LicenseDocument, LicenseTerms, parse_license
    from ..bulk._rows import robots_for

    _, lookup = _robots_rows(args, robots)
    given: Dict[str, Any] = {}
    if args.licenses:
        con = duckdb.connect()
        try:
            rows = engine.read(con, args.licenses).select("url, body").fetchall()
        finally:
            con.close()
        for url, body in rows:
            if isinstance(url, str) and body is not None:
                given[url.strip()] = body
    purposes = list(dict.fromkeys(args.purpose)) if args.licenses else []
    links: Dict[Tuple[str, str], Optional[Tuple[str, ...]]] = {}
    documents: Dict[Tuple[str, str], LicenseDocument] = {}

    def urls_of(origin: Optional[str], agent: str) -> Optional[Tuple[str, ...]]:
        if origin is None:
            return None
        key = (origin, agent)
        if key not in links:
            row = lookup(origin)
            links[key] = (None if row is None
                          else robots_for(row[0], row[1]).license_urls(agent))
        return links[key]

    def document(url: str, origin: str) -> LicenseDocument:
        key = (url, origin)
        if key not in documents:
            body = given.get(url)
            documents[key] = (parse_license(body, url=url, origin=origin) if body is not None
                              else LicenseDocument(url=url, origin=origin, state="unavailable",
                                                   error="not in the --licenses table"))
        return documents[key]

    for batch in batches:
        found = [urls_of(o, a) for o, a in zip(batch.column("origin").to_pylist(),
                                               batch.column("agent").to_pylist())]
        columns = [*batch.columns,
                   pa.array([None if f is None else " ".join(f) for f in found], pa.string())]
        if purposes:
            answers: List[List[Optional[str]]] = [[] for _ in purposes]
            for url, origin, links_found in zip(batch.column("url").to_pylist(),
                                                batch.column("origin").to_pylist(), found):
                if links_found is None or origin is None:
                    for column in answers:
                        column.append(None)
                    continue
                terms = LicenseTerms(url, tuple(document(u, origin) for u in links_found))
                for column, purpose in zip(answers, purposes):
                    column.append(terms.status(purpose))
            columns += [pa.array(column, pa.string()) for column in answers]
        yield pa.RecordBatch.from_arrays(columns, schema=_license_schema(args))


def _manifest(args: argparse.Namespace, robots: Any) -> Any:
    """The evidence manifest of a bulk run (issue 26): each origin's record names the
    capture it was judged by (:func:`_robots_rows`)."""
    from .._manifest import PAGE_PROTOCOLS, Manifest

    columns, lookup = (["date", "status"], None) if robots is None else _robots_rows(args,
                                                                                    robots)
    protocols = ["robots.txt"] + (["content-signal", "content-usage"] if args.purpose else [])
    if args.licenses:
        protocols.append("rsl")
    if args.pages_warc:  # every page-level protocol is read in every response
        protocols = (["robots.txt"] if robots is not None else []) + list(PAGE_PROTOCOLS)
    source = args.robots or (f"{len(args.robots_warc)} WARC file(s)" if args.robots_warc
                             else "")
    if args.pages_warc:
        source = (f"{len(args.pages_warc)} page WARC file(s)"
                  + (f", robots.txt from {source}" if source else ""))
    return Manifest(mode=args.mode, agents=args.agent, purposes=args.purpose,
                    source=source, has_dates="date" in columns,
                    has_statuses="status" in columns, protocols=protocols,
                    producer="robotsrules bulk", lookup=lookup)


def _warc_table(paths: List[str], every: bool = False) -> Any:
    _need("warcio")
    from ..warc import WarcStats, read_warc_captures, read_warcs

    if every:  # --as-of: every capture, not the newest per site
        read_warcs = read_warc_captures

    for path in paths:
        if not os.path.isfile(path):
            raise RobotsError(f"{path}: no such file")
    stats = WarcStats()
    table = read_warcs(paths, stats=stats)
    for problem in stats.warnings():
        warn(problem)
    note(f"{stats.captures:,} robots.txt captures in {stats.files} WARC files -> "
         f"{table.num_rows:,} sites")
    return table


_Job = Tuple[Iterator[Any], Optional[int], Any]


def _duckdb_job(args: argparse.Namespace, robots: Any, stop: _Stop) -> _Job:
    import duckdb

    from .. import duckdb as engine

    con = duckdb.connect()
    reader: Any = None

    def close() -> None:
        stop.interrupt = None
        try:
            if reader is not None:
                reader.close()  # release DuckDB's stream before its connection
        finally:
            con.close()

    try:
        stop.interrupt = con.interrupt  # a signal now stops DuckDB (from the main thread)
        stop.check()
        index = engine.load_index(con, robots, args.key)
        stop.check()
        if index.skipped:
            warn(f"{index.skipped:,} robots rows without a usable URL ignored")
        total = engine.count_rows(con, args.urls)
        stop.check()
        if args.any_agent:
            reader = engine.any_agent_verdicts(index, args.urls, args.agent, connection=con,
                                               missing=args.missing,
                                               cache_size=args.cache_size, mode=args.mode)
        else:
            reader = engine.verdicts(index, args.urls, args.agent, connection=con,
                                     missing=args.missing, cache_size=args.cache_size,
                                     mode=args.mode, check=stop.check, purposes=args.purpose)
        stop.check()
    except BaseException:
        close()
        raise
    return iter(reader), total, close


def _as_of_job(args: argparse.Namespace, robots: Any, stop: _Stop) -> _Job:
    """``--as-of``: DuckDB reads both tables, the core judges each URL by the capture in
    force at its date (:func:`robotsrules.bulk.as_of_verdicts`)."""
    if args.purpose:  # which capture's usage lines would answer is not defined (--strictest)
        raise RobotsError("--purpose is not available with --as-of")
    if args.engine == "spark":  # the same rows: robotsrules.spark.as_of_verdicts
        return _spark_job(args, robots, stop)
    import datetime

    import duckdb

    from .. import duckdb as engine
    from ..bulk import as_of_verdicts

    con = duckdb.connect()
    try:
        stop.interrupt = con.interrupt
        history = engine.load_history(con, robots, args.key)
        total = engine.count_rows(con, args.urls)
        reader = engine.as_of_reader(con, args.urls, args.as_of)
        window = (None if args.strictest is None
                  else datetime.timedelta(days=args.strictest))
        urls = engine.guarded_batches(reader, "reading the URL table")
        batches = as_of_verdicts(history, urls, args.agent, args.as_of, strictest=window,
                                 missing=args.missing, cache_size=args.cache_size,
                                 mode=args.mode)
    except BaseException:
        stop.interrupt = None
        con.close()
        raise

    def close() -> None:
        stop.interrupt = None
        con.close()

    return batches, total, close


def _spark_job(args: argparse.Namespace, robots: Any, stop: _Stop) -> _Job:
    _need("pyspark")
    _need("pandas")  # pyspark's Arrow entry points insist on it
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise RobotsError("--engine spark needs Java 17 or later (java not found)")
    import pyarrow as pa
    import pyarrow.dataset as ds

    from .. import spark as engine

    if args.key != "origin" and not args.as_of:
        raise RobotsError("--key host needs --engine duckdb (or --as-of)")

    for path in ([args.robots] if args.robots else []) + [args.urls]:
        if not os.path.exists(path):
            raise RobotsError(f"{path}: no such file")
    session, scratch, close = spark_session(args, stop)

    try:
        robots_df = (session.createDataFrame(robots) if isinstance(robots, pa.Table)
                     else engine.read(session, robots))
        urls_df = engine.read(session, args.urls)
        if args.as_of:
            import datetime

            window = (None if args.strictest is None
                      else datetime.timedelta(days=args.strictest))
            job = engine.as_of_verdicts(robots_df, urls_df, args.agent, args.as_of,
                                        strictest=window, key=args.key, missing=args.missing,
                                        partitions=args.partitions, mode=args.mode,
                                        cache_size=args.cache_size)
        else:
            job = engine.verdicts(robots_df, urls_df, args.agent, missing=args.missing,
                                  partitions=args.partitions, mode=args.mode,
                                  purposes=args.purpose)
        target = os.path.join(scratch, "verdicts")
        job.write.parquet(target)  # in parallel on the workers; then streamed into --out
        total = urls_df.count()
        dataset = ds.dataset(target, format="parquet")
        batches = (batch.cast(_schema(args.purpose)) for batch in dataset.to_batches())
    except RobotsError:
        close()
        raise
    except Exception as error:  # Spark reports JVM and worker failures as exceptions
        close()
        raise EngineError(f"spark job failed: {first_line(error)}") from None
    return batches, total, close


def _schema(purposes: Any = ()) -> Any:
    from ..bulk import verdict_schema

    return verdict_schema(tuple(dict.fromkeys(purposes)))


def _report(args: argparse.Namespace, out: TextIO) -> int:
    _need("duckdb")
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
        robots = _warc_table(args.robots_warc) if args.robots_warc else args.robots
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

def _json_lists(batch: Any, positions: List[int], schema: Any) -> Any:
    """``batch`` with its list columns as JSON text (for CSV)."""
    import pyarrow as pa

    columns = list(batch.columns)
    for i in positions:
        columns[i] = pa.array([None if v is None else json.dumps(v, ensure_ascii=False)
                               for v in columns[i].to_pylist()], pa.string())
    return pa.RecordBatch.from_arrays(columns, schema=schema)


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


def _stance_table(args: argparse.Namespace, out: TextIO) -> int:
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
    return _stoppable(args, out, _stance_run)


def _stance_run(args: argparse.Namespace, out: TextIO, stop: _Stop) -> int:
    _need("pyarrow")
    _need("duckdb")
    from ..bulk import STANCE_SCHEMA
    from ..bulk._stances import check_stance_mode
    from ._agent_options import command_agents

    form = _out_format(args)
    agents = command_agents(args)  # a caller mistake: said before any work
    check_stance_mode(args.mode)
    if args.engine == "spark" and args.key != "origin":
        raise RobotsError("--key host needs --engine duckdb")
    started = time.monotonic()
    writer = _Writer(args.out, form, schema=STANCE_SCHEMA)  # the destination first
    stop.partial = writer.partial
    ok = renamed = False
    close: Callable[[], None] = _nothing
    try:
        stop.check()
        robots: Any = args.robots
        if args.robots_warc:
            robots = _warc_table(args.robots_warc)
        stop.check()
        job = _spark_stances if args.engine == "spark" else _duckdb_stances
        batches, close = job(args, robots, agents, stop)
        for batch in batches:
            stop.check()
            writer.write(batch)
        stop.check()
        ok = True
    finally:
        renamed = _settle(stop, writer, close, ok)
    if not renamed:
        raise _Interrupted
    kinds = writer.kinds
    rows = sum(kinds.values())
    seconds = time.monotonic() - started
    out.write(f"{rows:,} stances ({kinds['all']:,} all, {kinds['some']:,} some, "
              f"{kinds['none']:,} none, {kinds[None]:,} unknown) for {len(agents)} agents "
              f"-> {args.out} in {seconds:.1f} s [{args.engine}]\n")
    from ..bulk import agent_stoppable

    crawlers = _stance_crawlers(args)
    cannot = [agent for agent in agents if agent_stoppable(agent, crawlers) is False]
    if cannot:
        out.write(f"robots.txt cannot stop {', '.join(cannot)}, by the crawler registry "
                  "(column stoppable)\n")
    return EXIT_OK


def _stance_crawlers(args: argparse.Namespace) -> Any:
    """The crawler table the ``stoppable`` column reads: ``--crawlers`` when given, else
    ``None`` (the shipped registry, the one the output's metadata names)."""
    from ._agent_options import crawler_table

    return crawler_table(args) if getattr(args, "crawlers", None) else None


def _duckdb_stances(args: argparse.Namespace, robots: Any, agents: List[str],
                    stop: _Stop) -> Tuple[Iterator[Any], Callable[[], None]]:
    import duckdb

    from .. import duckdb as engine
    from ..bulk import stances

    con = duckdb.connect()
    try:
        stop.interrupt = con.interrupt
        index = engine.load_index(con, robots, args.key)
    finally:
        stop.interrupt = None
        con.close()  # the index is in memory: the rest is pure Python
    stop.check()
    if index.skipped:
        warn(f"{index.skipped:,} robots rows without a usable URL ignored")
    return stances(index, agents, mode=args.mode, crawlers=_stance_crawlers(args)), _nothing


def _spark_stances(args: argparse.Namespace, robots: Any, agents: List[str],
                   stop: _Stop) -> Tuple[Iterator[Any], Callable[[], None]]:
    _need("pyspark")
    _need("pandas")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise RobotsError("--engine spark needs Java 17 or later (java not found)")
    import pyarrow as pa
    import pyarrow.dataset as ds

    from .. import spark as engine
    from ..bulk import STANCE_SCHEMA

    if args.robots and not os.path.exists(args.robots):
        raise RobotsError(f"{args.robots}: no such file")
    session, scratch, close = spark_session(args, stop)

    try:
        frame = (session.createDataFrame(robots) if isinstance(robots, pa.Table)
                 else engine.read(session, robots))
        target = os.path.join(scratch, "stances")
        engine.stances(frame, agents, partitions=args.partitions, mode=args.mode,
                       crawlers=_stance_crawlers(args)).write.parquet(target)
        batches = (batch.cast(STANCE_SCHEMA)
                   for batch in ds.dataset(target, format="parquet").to_batches())
    except RobotsError:
        close()
        raise
    except Exception as error:  # Spark reports JVM and worker failures as exceptions
        close()
        raise EngineError(f"spark job failed: {first_line(error)}") from None
    return batches, close
