"""The engine jobs of ``robotsrules bulk``, ``report`` and ``stance --out``: DuckDB, as-of,
Spark, stances, the robots table read from WARC files, the licence columns and the
evidence manifest.

A job takes the parsed options, the robots table (a file name or an Arrow table read from
``--robots-warc``) and the run's :class:`~robotsrules.cli._interrupt.JobStop`, and returns
its batches with what releases the engine (``close``); the command
(:mod:`robotsrules.cli._bulk`) writes the batches to the output file
(:mod:`robotsrules.cli._writer`). The engines' packages are imported only when a job runs;
a missing one fails with a message naming the extra to install (:func:`need`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
from collections.abc import Iterator
from typing import Any, Callable, Optional

from .._tables._purposes import check_purposes
from .._terminal import first_line
from ..errors import EngineError, MissingExtra, RobotsError

__all__ = ["Job", "as_of_job", "bulk_manifest", "check_dates", "check_pages_args", "duckdb_job",
           "duckdb_stances", "license_schema", "need", "nothing", "page_observer", "pages_job",
           "pages_schema", "spark_job", "spark_stances", "stance_crawlers", "warc_table",
           "with_licenses"]

from ._interrupt import JobStop
from ._output import note, warn
from ._writer import verdict_table_schema

_EXTRAS = {"duckdb": "bulk", "pyarrow": "bulk", "pyspark": "spark", "warcio": "warc",
           "matplotlib": "report", "pandas": "spark"}


def need(module: str) -> None:
    """Fail with the extra to install when an optional package is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise MissingExtra("this command", _EXTRAS.get(module, "bulk"), module)


def nothing() -> None:
    """The ``close`` of a job that holds no engine."""


_NUMBERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
            "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL")


def check_dates(args: argparse.Namespace) -> None:
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


def _robots_rows(args: argparse.Namespace, robots: Any) -> tuple[list[str], Any]:
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


def license_schema(args: argparse.Namespace) -> Any:
    """The verdict schema with ``license_url`` and, with ``--licenses``, a column
    ``rsl_<purpose>`` per purpose."""
    import pyarrow as pa

    from .._tables._purposes import column_name

    schema = verdict_table_schema(args.purpose).append(pa.field("license_url", pa.string()))
    if args.licenses:
        for purpose in dict.fromkeys(args.purpose):
            schema = schema.append(pa.field("rsl_" + column_name(purpose), pa.string()))
    return schema


def with_licenses(args: argparse.Namespace, robots: Any, batches: Any) -> Iterator[Any]:
    """Verdict batches with ``license_url`` (and ``rsl_<purpose>`` with ``--licenses``)."""
    import duckdb
    import pyarrow as pa

    from .. import duckdb as engine
    from .._rsl import LicenseDocument, LicenseTerms, parse_license
    from ..bulk._rows import robots_for

    _, lookup = _robots_rows(args, robots)
    given: dict[str, Any] = {}
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
    links: dict[tuple[str, str], Optional[tuple[str, ...]]] = {}
    documents: dict[tuple[str, str], LicenseDocument] = {}

    def urls_of(origin: Optional[str], agent: str) -> Optional[tuple[str, ...]]:
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
            answers: list[list[Optional[str]]] = [[] for _ in purposes]
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
        yield pa.RecordBatch.from_arrays(columns, schema=license_schema(args))


def bulk_manifest(args: argparse.Namespace, robots: Any, agents: list[str]) -> Any:
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
    return Manifest(mode=args.mode, agents=agents, purposes=args.purpose,
                    source=source, has_dates="date" in columns,
                    has_statuses="status" in columns, protocols=protocols,
                    producer="robotsrules bulk", lookup=lookup)


def warc_table(paths: list[str], every: bool = False) -> Any:
    """The robots table of ``--robots-warc`` (the newest capture per site; ``every``: all
    captures, for ``--as-of``), its problems and counts said on standard error."""
    need("warcio")
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


Job = tuple[Iterator[Any], Optional[int], Any]


def duckdb_job(args: argparse.Namespace, robots: Any, agents: list[str], stop: JobStop) -> Job:
    """The verdicts (or ``--any-agent`` rows) on DuckDB: ``(batches, total URLs, close)``."""
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
            reader = engine.any_agent_verdicts(index, args.urls, agents, connection=con,
                                               missing=args.missing,
                                               cache_size=args.cache_size, mode=args.mode)
        else:
            reader = engine.verdicts(index, args.urls, agents, connection=con,
                                     missing=args.missing, cache_size=args.cache_size,
                                     mode=args.mode, check=stop.check, purposes=args.purpose)
        stop.check()
    except BaseException:
        close()
        raise
    return iter(reader), total, close


def as_of_job(args: argparse.Namespace, robots: Any, agents: list[str], stop: JobStop) -> Job:
    """``--as-of``: DuckDB reads both tables, the core judges each URL by the capture in
    force at its date (:func:`robotsrules.bulk.as_of_verdicts`)."""
    if args.purpose:  # which capture's usage lines would answer is not defined (--strictest)
        raise RobotsError("--purpose is not available with --as-of")
    if args.engine == "spark":  # the same rows: robotsrules.spark.as_of_verdicts
        return spark_job(args, robots, agents, stop)
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
        batches = as_of_verdicts(history, urls, agents, args.as_of, strictest=window,
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


def _spark_needs() -> None:
    """What ``--engine spark`` needs before any work: pyspark, pandas and Java."""
    need("pyspark")
    need("pandas")  # pyspark's Arrow entry points insist on it
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise RobotsError("--engine spark needs Java 17 or later (java not found)")


def _spark_session(args: argparse.Namespace, stop: Any) -> tuple[Any, str, Callable[[], None]]:
    """A Spark session for a command-line job (``--spark-master``), a scratch folder that
    the stop handling removes (``stop.scratch``), a stop signal that cancels the running
    Spark jobs (``stop.interrupt``), and the ``close`` that ends both."""
    import tempfile

    from .. import spark as engine

    session = engine.local_session(args.spark_master)
    scratch = tempfile.mkdtemp(prefix="robotsrules-spark-")
    stop.scratch.append(scratch)
    stop.interrupt = session.sparkContext.cancelAllJobs  # a signal cancels the Spark job

    def close() -> None:
        stop.interrupt = None
        shutil.rmtree(scratch, ignore_errors=True)
        session.stop()

    return session, scratch, close


@contextlib.contextmanager
def _spark_failures(close: Callable[[], None]) -> Iterator[None]:
    """Around a Spark job: on a failure the session is closed (``close``) and, but for a
    :class:`RobotsError`, the failure is said in one line (Spark reports JVM and worker
    failures as exceptions whose messages run to pages)."""
    try:
        yield
    except RobotsError:
        close()
        raise
    except Exception as error:
        close()
        raise EngineError(f"spark job failed: {first_line(error)}") from None


def spark_job(args: argparse.Namespace, robots: Any, agents: list[str], stop: JobStop) -> Job:
    """The verdicts on Spark (``--as-of`` too), written in parallel to a scratch folder,
    then streamed: ``(batches, total URLs, close)``."""
    _spark_needs()
    import pyarrow as pa
    import pyarrow.dataset as ds

    from .. import spark as engine

    if args.key != "origin" and not args.as_of:
        raise RobotsError("--key host needs --engine duckdb (or --as-of)")

    for path in ([args.robots] if args.robots else []) + [args.urls]:
        if not os.path.exists(path):
            raise RobotsError(f"{path}: no such file")
    session, scratch, close = _spark_session(args, stop)

    with _spark_failures(close):
        robots_df = (session.createDataFrame(robots) if isinstance(robots, pa.Table)
                     else engine.read(session, robots))
        urls_df = engine.read(session, args.urls)
        if args.as_of:
            import datetime

            window = (None if args.strictest is None
                      else datetime.timedelta(days=args.strictest))
            job = engine.as_of_verdicts(robots_df, urls_df, agents, args.as_of,
                                        strictest=window, key=args.key, missing=args.missing,
                                        partitions=args.partitions, mode=args.mode,
                                        cache_size=args.cache_size)
        else:
            job = engine.verdicts(robots_df, urls_df, agents, missing=args.missing,
                                  partitions=args.partitions, mode=args.mode,
                                  purposes=args.purpose)
        target = os.path.join(scratch, "verdicts")
        job.write.parquet(target)  # in parallel on the workers; then streamed into --out
        total = urls_df.count()
        dataset = ds.dataset(target, format="parquet")
        schema = verdict_table_schema(args.purpose)
        batches = (batch.cast(schema) for batch in dataset.to_batches())
    return batches, total, close


def stance_crawlers(args: argparse.Namespace) -> Any:
    """The crawler table the ``stoppable`` column reads: ``--crawlers`` when given, else
    ``None`` (the shipped registry, the one the output's metadata names)."""
    from ._agent_options import crawler_table

    return crawler_table(args) if getattr(args, "crawlers", None) else None


def duckdb_stances(args: argparse.Namespace, robots: Any, agents: list[str],
                   stop: JobStop) -> tuple[Iterator[Any], Callable[[], None]]:
    """One stance row per site and agent, the robots table indexed by DuckDB then read in
    Python: ``(batches, close)``."""
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
    return stances(index, agents, mode=args.mode, crawlers=stance_crawlers(args)), nothing


def spark_stances(args: argparse.Namespace, robots: Any, agents: list[str],
                  stop: JobStop) -> tuple[Iterator[Any], Callable[[], None]]:
    """One stance row per site and agent on Spark: ``(batches, close)``."""
    _spark_needs()
    import pyarrow as pa
    import pyarrow.dataset as ds

    from .. import spark as engine
    from ..bulk import STANCE_SCHEMA

    if args.robots and not os.path.exists(args.robots):
        raise RobotsError(f"{args.robots}: no such file")
    session, scratch, close = _spark_session(args, stop)

    with _spark_failures(close):
        frame = (session.createDataFrame(robots) if isinstance(robots, pa.Table)
                 else engine.read(session, robots))
        target = os.path.join(scratch, "stances")
        engine.stances(frame, agents, partitions=args.partitions, mode=args.mode,
                       crawlers=stance_crawlers(args)).write.parquet(target)
        batches = (batch.cast(STANCE_SCHEMA)
                   for batch in ds.dataset(target, format="parquet").to_batches())
    return batches, close


# -- bulk --pages-warc: page signals per URL and agent ----------------------------------------

def check_pages_args(args: argparse.Namespace) -> None:
    """``bulk --pages-warc``: refuse the options that belong to the verdict job (before any
    work), and drop repeated purposes."""
    for flag, given in (("--urls", args.urls), ("--any-agent", args.any_agent),
                        ("--as-of", args.as_of), ("--strictest", args.strictest)):
        if given:
            raise RobotsError(f"--pages-warc cannot be combined with {flag}")
    args.purpose = list(check_purposes(args.purpose))
    for path in args.pages_warc:
        if os.path.isdir(path):
            raise RobotsError(f"{path}: is a directory; --pages-warc takes WARC files "
                              f"(e.g. {os.path.join(path, '*.warc.gz')})")
        if not os.path.isfile(path):
            raise RobotsError(f"{path}: no such file")


def pages_schema(args: argparse.Namespace) -> Any:
    """The Arrow schema of the ``bulk --pages-warc`` output."""
    need("warcio")
    from ..warc import page_table_schema

    return page_table_schema(args.purpose)


def pages_job(args: argparse.Namespace, robots: Any, agents: list[str], stop: Any,
              manifest: Any = None) -> tuple[Iterator[Any], Optional[int], Callable[[], None]]:
    """The ``bulk --pages-warc`` job for :mod:`robotsrules.cli._bulk`: ``(batches, total,
    close)``, the batches of the page table streamed (``total`` is unknown: ``None``).

    ``robots`` is ``None``, a robots table (``pa.Table``, read from ``--robots-warc``) or
    the ``--robots`` file name. ``stop.check()`` raises once a stop signal has arrived; it is
    called before every WARC record (the DuckDB engine) and between batches. ``manifest``
    (a :class:`robotsrules._manifest.Manifest`, DuckDB engine only) records every page read
    (:func:`page_observer`)."""
    if args.engine == "spark":
        return _spark_pages(args, robots, agents, stop)
    import pyarrow as pa

    from ..bulk import RobotsIndex
    from ..warc import WarcStats, page_batches

    index = None
    if isinstance(robots, pa.Table):
        index = RobotsIndex.from_arrow(robots, args.key)
    elif robots is not None:
        import duckdb

        from .. import duckdb as engine

        if not os.path.exists(robots):
            raise RobotsError(f"{robots}: no such file")
        with duckdb.connect() as con:
            stop.interrupt = con.interrupt
            try:
                index = engine.load_index(con, robots, args.key)
            finally:
                stop.interrupt = None
    stop.check()
    stats = WarcStats()

    def batches() -> Iterator[Any]:
        yield from page_batches(args.pages_warc, agents=agents, purposes=args.purpose,
                                robots=index, stats=stats, mode=args.mode, check=stop.check,
                                observe=None if manifest is None
                                else page_observer(manifest, args.purpose))
        for problem in stats.warnings():
            warn(problem)

    return batches(), None, nothing


def page_observer(manifest: Any, purposes: list[str]) -> Callable[..., None]:
    """The :func:`robotsrules.bulk.page_batches` hook that records a page run in an evidence
    manifest: the robots.txt verdict (with its deciding line when it refuses) and the page's
    refusals with their deciding directives."""
    from ..bulk._rows import verdict_of

    def observe(page: Any, agent: str, site: Any, signals: Any, both: Any) -> None:
        origin = page.origin
        if origin is None:
            return
        if site is not None:
            manifest.judged(origin, 1, protocols=("robots.txt",))
            if both.crawl_allowed is False:
                _, line, reason = verdict_of(site, page.url, agent)
                manifest.refusal(origin, agent, line, reason)
        manifest.page(origin, agent, page.url, signals,
                      [(purpose, both.decide(purpose)) for purpose in purposes])

    return observe


def _spark_pages(args: argparse.Namespace, robots: Any, agents: list[str], stop: Any
                 ) -> tuple[Iterator[Any], Optional[int], Callable[[], None]]:
    """``--engine spark``: one Spark task per WARC file (:func:`robotsrules.spark.page_verdicts`),
    written in parallel to a scratch directory, then streamed into ``--out``."""
    _spark_needs()
    if args.key != "origin":
        raise RobotsError("--key host needs --engine duckdb")
    import pyarrow as pa
    import pyarrow.dataset as ds

    from .. import spark as engine

    if isinstance(robots, str) and not os.path.exists(robots):
        raise RobotsError(f"{robots}: no such file")
    session, scratch, close = _spark_session(args, stop)

    with _spark_failures(close):
        robots_df = (None if robots is None
                     else session.createDataFrame(robots) if isinstance(robots, pa.Table)
                     else engine.read(session, robots))
        frame = engine.page_verdicts(session, [os.path.abspath(p) for p in args.pages_warc],
                                     agents, args.purpose, robots=robots_df,
                                     mode=args.mode)
        target = os.path.join(scratch, "pages")
        frame.write.parquet(target)  # one task per WARC file; then streamed into --out
        schema = pages_schema(args)
        dataset = ds.dataset(target, format="parquet")
        batches = (batch.cast(schema) for batch in dataset.to_batches())
    return batches, None, close
