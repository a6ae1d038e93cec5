"""robots.txt verdicts on PySpark: the bulk job partitioned by origin, and column functions.

Needs the ``spark`` extra (``pyspark`` 4.1+ and ``pyarrow``); every worker needs robotsrules
installed (``pip install 'robotsrules[spark]'`` on the cluster image, or ``--py-files`` a
wheel). All the work runs in Arrow batches (``mapInArrow``, ``arrow_udf``); no pandas.

:func:`verdicts` is the whole job (``robotsrules bulk --engine spark``)::

    from pyspark.sql import SparkSession
    import robotsrules.spark as rs
    spark = SparkSession.builder.getOrCreate()
    robots = spark.read.parquet("s3://bucket/robots/")       # url, body[, status, date]
    urls = spark.read.parquet("s3://bucket/urls/")           # url
    rs.verdicts(robots, urls, ["GPTBot", "CCBot"]).write.parquet("s3://bucket/verdicts/")

The plan: both tables get an ``origin`` column (the robots.txt scope,
:func:`robotsrules._scope.origin_of`), are unioned, hash-partitioned by origin and sorted
within partitions so that each origin's winning robots row comes just before its URLs; a
``mapInArrow`` pass then parses each origin once and streams its URLs
(:func:`robotsrules.bulk._judge.judge_sorted`). No body is copied onto URL rows, no site is gathered
in memory, and a site with a billion URLs costs only the sort Spark spills anyway. The rows
equal :mod:`robotsrules.bulk`'s (and the core's), see there for ``line`` and ``reason``.

For a job of your own (say, after your own join of pages to robots bodies), the column
functions :func:`robots_allowed`, :func:`robots_line`, :func:`robots_verdict`,
:func:`robots_origin`, :func:`robots_usage`, :func:`robots_stance`, :func:`robots_page`,
:func:`robots_page_allows` and :func:`robots_page_license_urls` are Arrow UDFs with a
per-worker parse cache: the column functions
DuckDB registers as SQL functions (:func:`robotsrules.bulk._columns.column_functions`).
:func:`stances` is the stance job: one row per site and agent, no URL table
(``robotsrules stance --robots ... --out --engine spark``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union, cast

from .errors import MissingExtra

with MissingExtra.guard("robotsrules.spark", "spark"):
    import pyarrow as pa
    from pyspark.sql import Column, DataFrame
    from pyspark.sql import functions as F
    from pyspark.sql.types import BinaryType

from ._tables._crawlers import Crawler
from .bulk import (
    ANY_AGENT_SCHEMA,
    DEFAULT_POLICY,
    STANCE_SCHEMA,
    VERDICT_SCHEMA,
    Missing,
    page_schema,
    verdict_schema,
)
from .bulk._bodies import BodyCache
from .bulk._columns import column_functions
from .bulk._judge import judge_sorted, judge_sorted_any
from .bulk._rows import RANKING, check_agents
from .bulk._schemas import SORTED_COLUMNS, file_format, spark_ddl, spark_type
from .errors import InvalidArgument
from .policy import Policy
from .robotstxt import Mode

__all__ = [
    "ANY_AGENT_DDL",
    "STANCE_DDL",
    "VERDICT_DDL",
    "any_agent_verdicts",
    "as_of_verdicts",
    "local_session",
    "page_ddl",
    "page_verdicts",
    "read",
    "robots_allowed",
    "robots_license",
    "robots_license_allows",
    "robots_license_urls",
    "robots_line",
    "robots_origin",
    "robots_page",
    "robots_page_allows",
    "robots_page_license_urls",
    "robots_stance",
    "robots_usage",
    "robots_verdict",
    "robots_verify",
    "stances",
    "verdicts",
]

VERDICT_DDL = spark_ddl(VERDICT_SCHEMA)
"""The verdict schema (:data:`robotsrules.bulk.VERDICT_SCHEMA`) as Spark DDL."""

ColumnOrName = Union[Column, str]

_cache: Optional[BodyCache] = None  # one per Python worker process


def _worker_cache() -> BodyCache:
    global _cache
    if _cache is None:
        _cache = BodyCache()
    return _cache


@functools.cache
def _udfs() -> Any:
    # Built on first use: arrow_udf wants a Spark installation, not an import-time session.
    arrow_udf: Any = F.arrow_udf  # type: ignore[attr-defined]  # pyspark 4.1+, stubs lag
    return {function.name: arrow_udf(function.function, spark_type(function.returns))
            for function in column_functions(_worker_cache)}


def _col(value: Union[ColumnOrName, str], literal: bool = False) -> Column:
    if isinstance(value, Column):
        return value
    return F.lit(value) if literal else F.col(value)


def _body(value: ColumnOrName) -> Column:
    column = _col(value)
    return column.cast(BinaryType())  # strings become their UTF-8 octets


def robots_origin(url: ColumnOrName) -> Column:
    """``scheme://host[:port]`` of each URL (its robots.txt scope); null when it has none."""
    return cast(Column, _udfs()["robots_origin"](_col(url)))


def robots_allowed(body: ColumnOrName, url: ColumnOrName, agent: Union[Column, str]) -> Column:
    """May ``agent`` fetch ``url`` under ``body``? (``agent``: a column, or a str literal.)"""
    return cast(Column, _udfs()["robots_allowed"](_body(body), _col(url),
                                                  _col(agent, literal=True)))


def robots_line(body: ColumnOrName, url: ColumnOrName, agent: Union[Column, str]) -> Column:
    """The line of the rule that decides (null when no rule does)."""
    return cast(Column, _udfs()["robots_line"](_body(body), _col(url), _col(agent, literal=True)))


def robots_verdict(body: ColumnOrName, status: ColumnOrName, url: ColumnOrName,
                   agent: Union[Column, str]) -> Column:
    """``struct(allowed, line, reason)`` with the fetch policy applied to ``status``."""
    return cast(Column, _udfs()["robots_verdict"](_body(body), _col(status).cast("int"), _col(url),
                                           _col(agent, literal=True)))


def robots_usage(body: ColumnOrName, url: ColumnOrName, agent: Union[Column, str],
                 purpose: Union[Column, str]) -> Column:
    """The AI usage preference for ``purpose`` (``"ai-train"``...): true, false or null
    (nothing stated, or a URL the agent may not fetch); see :meth:`RobotsTxt.usage`."""
    return cast(Column, _udfs()["robots_usage"](_body(body), _col(url), _col(agent, literal=True),
                                         _col(purpose, literal=True)))


def _judge_partition(agents: Sequence[str], missing: Missing, mode: Mode, policy: Policy,
                     purposes: Sequence[str], batches: Iterator[pa.RecordBatch]
                     ) -> Iterator[pa.RecordBatch]:
    return judge_sorted(batches, agents, missing=missing, mode=mode, policy=policy,
                        purposes=purposes)


def verdicts(
    robots: DataFrame,
    urls: DataFrame,
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    partitions: Optional[int] = None,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    purposes: Sequence[str] = (),
    any_agent: bool = False,
) -> DataFrame:
    """The bulk job: a DataFrame of verdict rows (:data:`VERDICT_DDL`) for every URL and agent,
    then one nullable boolean column per purpose of ``purposes`` (``ai_train``...);
    ``any_agent=True``: one row per URL (:data:`ANY_AGENT_DDL`; see :func:`any_agent_verdicts`).

    ``robots`` has columns ``url``, ``body`` (binary or string), optional ``status`` and
    ``date``; ``urls`` has ``url``. ``partitions`` (default: Spark's shuffle partitions) is
    how many origin partitions the work is cut into.
    """
    names = check_agents(agents)
    wanted = tuple(dict.fromkeys(purposes))
    ddl = spark_ddl(verdict_schema(wanted))  # an unknown purpose raises InvalidPurpose
    for frame, table, needed in ((robots, "robots", ("url", "body")), (urls, "URL", ("url",))):
        for column in needed:
            if column not in frame.columns:
                raise InvalidArgument(f"the {table} table has no {column!r} column (columns: "
                                 + ", ".join(frame.columns) + ")")
    origin = _udfs()["robots_origin"]
    status = (F.col("status").cast("int") if "status" in robots.columns
              else F.lit(None).cast("int"))
    date = (F.col("date").cast("timestamp") if "date" in robots.columns
            else F.lit(None).cast("timestamp"))
    robot_rows = (robots
                  .select(F.col("url").cast("string").alias("url"),
                          _body("body").alias("body"), status.alias("status"),
                          date.alias("date"))
                  .withColumn("origin", origin(F.col("url")))
                  .where(F.col("origin").isNotNull())
                  .select("origin", F.lit(0).alias("kind"), "url", "body", "status", "date"))
    url_rows = (urls
                .select(F.col("url").cast("string").alias("url"))
                .select(origin(F.col("url")).alias("origin"), F.lit(1).alias("kind"), "url",
                        F.lit(None).cast("binary").alias("body"),
                        F.lit(None).cast("int").alias("status"),
                        F.lit(None).cast("timestamp").alias("date")))
    both = robot_rows.unionByName(url_rows)
    spread = (both.repartition(partitions, "origin") if partitions
              else both.repartition("origin"))
    ordered = spread.sortWithinPartitions(
        F.col("origin").asc_nulls_first(), F.col("kind").asc(), *_best_first())
    if any_agent:  # one row per URL
        fold = functools.partial(_any_partition, names, missing, mode, policy)
        return ordered.select(*SORTED_COLUMNS).mapInArrow(fold, ANY_AGENT_DDL)
    job = functools.partial(_judge_partition, names, missing, mode, policy, wanted)
    return ordered.select(*SORTED_COLUMNS).mapInArrow(job, ddl)


def _best_first() -> list[Column]:
    """The sort that puts each site's governing robots row first: :data:`robotsrules.bulk.
    RANKING`, the order :func:`robotsrules.bulk.rank` compares (larger first, nulls last)."""
    return [F.col(name).desc_nulls_last() for name in RANKING]


_TSV = (".tsv", ".tsv.gz", ".tsv.gzip", ".tsv.zst")


def read(session: Any, path: str) -> DataFrame:
    """A table file as a DataFrame: Parquet, CSV (with a header; quoted bodies may span
    lines), JSON Lines, or text (one URL a line; of tab-separated fields the last one)."""
    name = path.lower().rstrip("/")
    form = file_format(path) or "parquet"  # a directory: Spark's Parquet
    if form == "parquet":
        return session.read.parquet(path)  # type: ignore[no-any-return]
    if form == "csv":
        return session.read.csv(path, header=True, multiLine=True,  # type: ignore[no-any-return]
                                escape='"', sep="\t" if name.endswith(_TSV) else ",")
    if form == "json":
        return session.read.json(path)  # type: ignore[no-any-return]
    # As robotsrules.duckdb.text_batches: stripped lines, no blanks or '#' lines, last field.
    line = F.regexp_replace(F.col("value"), r"^\s+|\s+$", "")
    lines = session.read.text(path).select(line.alias("line"))
    last = F.regexp_replace(F.regexp_extract("line", r"[^\t]*$", 0), r"^\s+|\s+$", "")
    return cast(DataFrame, lines.where((F.col("line") != "") & ~F.col("line").startswith("#"))
                .select(last.alias("url")))


def local_session(master: str = "local[*]", **conf: str) -> Any:
    """A SparkSession for this machine (or ``master``), quiet, with Python workers running
    this interpreter (so that they import the same robotsrules)."""
    import os
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(master).appName("robotsrules")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session


def robots_page_allows(headers: ColumnOrName, html: ColumnOrName, agent: Union[Column, str],
                       purpose: Union[Column, str]) -> Column:
    """The page-level answer for ``purpose`` (:func:`robotsrules.page_signals`): ``headers``
    holds the raw ``Name: value`` lines of a response, ``html`` its body or head; ``agent``
    and ``purpose`` are columns or str literals. Null when the page states nothing."""
    return cast(Column, _udfs()["robots_page_allows"](_col(headers), _body(html),
                                                      _col(agent, literal=True),
                                                      _col(purpose, literal=True)))


def robots_page_license_urls(headers: ColumnOrName, html: ColumnOrName, url: ColumnOrName
                             ) -> Column:
    """The RSL 1.0 licences a response names (``Link: <...>; rel="license";
    type="application/rsl+xml"`` headers and the HTML head's ``<link>``), resolved against
    the page's ``url``, as an array of strings (:attr:`robotsrules.PageSignals.license_urls`);
    null when both ``headers`` and ``html`` are null."""
    return cast(Column, _udfs()["robots_page_license_urls"](_col(headers), _body(html),
                                                            _col(url)))


def robots_page(headers: ColumnOrName, html: ColumnOrName, agent: Union[Column, str]
                ) -> Column:
    """The page-level signals of a response as a struct (``index``, ``follow``, ``noai``,
    ``tdm_reservation``, ``head_cut``: the head ran past the bytes read, so what it does not
    state is not known; :data:`robotsrules.bulk._schemas.PAGE_SIGNALS_TYPE`): ``headers`` holds the
    raw ``Name: value`` lines, ``html`` the body or its head (read when the ``Content-Type``
    is HTML or, without one, when it sniffs as HTML, as the page admission step reads it);
    ``agent`` is a column or a str literal. Null for a null agent."""
    return cast(Column, _udfs()["robots_page"](_col(headers), _body(html),
                                               _col(agent, literal=True)))


def robots_license_urls(body: ColumnOrName, agent: Union[Column, str, None] = None) -> Column:
    """The RSL ``License`` URLs of a robots.txt body that apply to ``agent`` (RSL 1.0
    §4.4: every one in the file, wherever it stands, for every agent), as an array of
    strings; the same with a null ``agent``. Null for a null body."""
    return cast(Column, _udfs()["robots_license_urls"](
        _body(body), F.lit(None).cast("string") if agent is None
        else _col(agent, literal=True)))


def robots_license(xml: ColumnOrName, url: ColumnOrName, purpose: Union[Column, str]
                   ) -> Column:
    """What the RSL document ``xml`` says of ``url`` for ``purpose``: ``permitted``,
    ``licensed``, ``prohibited``, ``unstated`` or ``unknown`` (an invalid document). Null
    for a null value or a URL the core rejects. Reading a document needs the ``rsl`` extra."""
    return cast(Column, _udfs()["robots_license"](_body(xml), _col(url),
                                                  _col(purpose, literal=True)))


def robots_license_allows(xml: ColumnOrName, url: ColumnOrName, purpose: Union[Column, str]
                          ) -> Column:
    """:func:`robots_license` as a boolean: true when permitted, false when licensed (on
    terms) or prohibited, null otherwise."""
    return cast(Column, _udfs()["robots_license_allows"](_body(xml), _col(url),
                                                         _col(purpose, literal=True)))


def robots_verify(address: ColumnOrName, user_agent: Union[Column, str, None] = None
                  ) -> Column:
    """Is the visitor at ``address`` the crawler its ``user_agent`` header claims?
    (:func:`robotsrules.verify` offline: the address lists only, no DNS), as a struct
    (:data:`robotsrules.bulk._schemas.VERIFICATION_TYPE`); null for a null address or one
    that is no IP address. A null header asks whose published list holds the address."""
    return cast(Column, _udfs()["robots_verify"](
        _col(address), F.lit(None).cast("string") if user_agent is None
        else _col(user_agent)))


ANY_AGENT_DDL = spark_ddl(ANY_AGENT_SCHEMA)
"""The any-agent schema (:data:`robotsrules.bulk.ANY_AGENT_SCHEMA`) as Spark DDL."""


def _any_partition(agents: Sequence[str], missing: Missing, mode: Mode, policy: Policy,
                   batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    return judge_sorted_any(batches, agents, missing=missing, mode=mode, policy=policy)


def any_agent_verdicts(
    robots: DataFrame,
    urls: DataFrame,
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    partitions: Optional[int] = None,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> DataFrame:
    """The any-agent job: one row per URL (:data:`ANY_AGENT_DDL`) saying whether any of
    ``agents`` is disallowed, which one first, and the deciding line; the plan of
    :func:`verdicts` with each partition's URLs answered by
    :func:`~robotsrules.bulk._judge.judge_sorted_any`."""
    return verdicts(robots, urls, agents, missing=missing, partitions=partitions, mode=mode,
                    policy=policy, any_agent=True)


# -- page signals of WARC response records (issue 16) -------------------------------------

_robots_by_broadcast: dict[str, Any] = {}  # per Python worker: job token -> RobotsIndex


def page_ddl(purposes: Sequence[str] = ()) -> str:
    """The columns of :func:`page_verdicts` as Spark DDL: those of
    :func:`robotsrules.warc.page_table_schema`, one nullable boolean per purpose at the end."""
    return spark_ddl(page_schema(tuple(dict.fromkeys(purposes))))


def _robots_index(shared: Any) -> Any:
    """The robots index of a ``(token, broadcast Arrow stream)``, built once per worker
    process."""
    from .bulk import RobotsIndex

    if shared is None:
        return None
    token, broadcast = shared
    index = _robots_by_broadcast.get(token)
    if index is None:
        import pyarrow.ipc as ipc

        index = RobotsIndex.from_arrow(ipc.open_stream(pa.py_buffer(broadcast.value))
                                       .read_all())
        _robots_by_broadcast.clear()  # one job's robots at a time
        _robots_by_broadcast[token] = index
    return index


def _pages_partition(paths: Sequence[str], agents: Sequence[str], purposes: Sequence[str],
                     robots: Any, max_head_bytes: Optional[int], mode: Mode,
                     batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    from .warc import page_batches

    index = _robots_index(robots)
    for batch in batches:
        for number in batch.column(0).to_pylist():
            yield from page_batches([paths[number]], agents=agents, purposes=purposes,
                                    robots=index, max_head_bytes=max_head_bytes, mode=mode)


def page_verdicts(
    session: Any,
    warc_paths: Sequence[str],
    agents: Union[str, Sequence[str]],
    purposes: Sequence[str] = (),
    *,
    robots: Optional[DataFrame] = None,
    max_head_bytes: Optional[int] = None,
    mode: Mode = "google",
) -> DataFrame:
    """Page signals of the ``response`` records of WARC files (``bulk --pages-warc``): a
    DataFrame with the rows and columns (:func:`page_ddl`) of
    :func:`robotsrules.warc.page_batches`, one row per (URL, agent).

    The unit of work is the WARC file: one task per path (so every executor must be able to
    open every path: a local file system for ``local[N]``, a shared mount on a cluster). Each
    task reads its file's records and computes the signals in Arrow batches. ``robots`` (a
    robots table: ``url``, ``body``, optional ``status`` and ``date``) is collected to the
    driver and *broadcast*: each executor builds the index once and parses a site's file on
    first use, so the pages are never shuffled; the table must fit in the driver's and each
    executor's memory (for robots tables larger than that, join on ``origin`` yourself and use
    :func:`robots_page_allows`). Damaged or unreadable records are skipped, as
    :func:`~robotsrules.warc.iter_pages` skips them, and a path an executor cannot open gives
    no rows: their notes stay in the executors (check the paths first, as
    ``robotsrules bulk`` does).
    """
    from ._tables._purposes import check_purposes

    names = check_agents(agents)
    wanted = check_purposes(purposes)
    paths = [str(p) for p in warc_paths]
    if not paths:
        raise InvalidArgument("page_verdicts needs at least one WARC path")
    shared = None
    if robots is not None:
        for column in ("url", "body"):
            if column not in robots.columns:
                raise InvalidArgument(f"the robots table has no {column!r} column (columns: "
                                      + ", ".join(robots.columns) + ")")
        wanted_columns = [F.col("url").cast("string").alias("url"),
                          _body("body").alias("body")]
        if "status" in robots.columns:
            wanted_columns.append(F.col("status").cast("int").alias("status"))
        if "date" in robots.columns:
            wanted_columns.append(F.col("date").cast("timestamp").alias("date"))
        import pyarrow.ipc as ipc

        table = robots.select(*wanted_columns).toArrow()
        sink = pa.BufferOutputStream()
        with ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        import uuid

        shared = (uuid.uuid4().hex,
                  session.sparkContext.broadcast(sink.getvalue().to_pybytes()))
    files = session.range(0, len(paths), 1, numPartitions=len(paths))  # one task per file
    job = functools.partial(_pages_partition, paths, names, wanted, shared, max_head_bytes,
                            mode)
    return cast(DataFrame, files.mapInArrow(job, page_ddl(wanted)))
# -- the file in force at crawl time (issue 17) ----------------------------------------------

_AS_OF_CHUNK = 8192  # URL rows judged per call, and rows per output batch


def _hosts(url: pa.Array) -> pa.Array:
    from .bulk._rows import host_key

    return pa.array([host_key(u) for u in url.to_pylist()], pa.string())


def _as_of_partition(agents: Sequence[str], key: Any, strictest: Any, missing: Missing,
                     mode: Mode, policy: Policy, cache_size: int,
                     batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """One partition of :func:`as_of_verdicts`: rows sorted by site, each site's captures
    (kind 0) before its URLs (kind 1). A site's captures become one
    :class:`~robotsrules.bulk.RobotsHistory`; its URLs are judged in chunks by
    :func:`robotsrules.bulk.as_of_verdicts` (so the rows are that function's, exactly)."""
    from .bulk import RobotsHistory
    from .bulk import as_of_verdicts as judge

    current: Any = object()
    captures: dict[str, list[Any]] = {"url": [], "body": [], "status": [], "date": []}
    history: Optional[RobotsHistory] = None
    urls: list[Any] = []
    dates: list[Any] = []
    done: list[pa.RecordBatch] = []
    done_rows = 0

    def flush() -> Iterator[pa.RecordBatch]:
        nonlocal done_rows
        if urls:
            assert history is not None
            table = pa.table({"url": pa.array(urls, pa.string()), "date": pa.array(dates)})
            for batch in judge(history, table, agents, "date", strictest=strictest,
                               missing=missing, cache_size=cache_size, mode=mode,
                               policy=policy):
                done.append(batch)
                done_rows += batch.num_rows
            urls.clear()
            dates.clear()
        if done and done_rows >= _AS_OF_CHUNK:
            yield from pa.Table.from_batches(done).combine_chunks().to_batches()
            done.clear()
            done_rows = 0

    for batch in batches:
        columns = [batch.column(n).to_pylist()
                   for n in ("site", "kind", "url", "body", "status", "rdate", "udate")]
        for site, kind, url, body, status, rdate, udate in zip(*columns):
            if site != current:
                yield from flush()
                current, history = site, None
                for values in captures.values():
                    values.clear()
            if kind == 0:  # captures come first: a site's history is complete at its 1st URL
                for name, value in zip(("url", "body", "status", "date"),
                                       (url, body, status, rdate)):
                    captures[name].append(value)
                continue
            if history is None:
                history = RobotsHistory.from_arrow(pa.table({
                    "url": pa.array(captures["url"], pa.string()),
                    "body": pa.array(captures["body"], pa.binary()),
                    "status": pa.array(captures["status"], pa.int32()),
                    "date": pa.array(captures["date"])}), key)
                for values in captures.values():
                    values.clear()
            urls.append(url)
            dates.append(udate)
            if len(urls) >= _AS_OF_CHUNK:
                yield from flush()
    yield from flush()
    if done:
        yield from pa.Table.from_batches(done).combine_chunks().to_batches()


def as_of_verdicts(
    robots: DataFrame,
    urls: DataFrame,
    agents: Union[str, Sequence[str]],
    date_column: str,
    *,
    strictest: Any = None,
    key: str = "origin",
    missing: Missing = "null",
    partitions: Optional[int] = None,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    cache_size: int = 4096,
) -> DataFrame:
    """:func:`robotsrules.bulk.as_of_verdicts` on Spark: each URL judged by the robots.txt
    capture in force at the date in its ``date_column`` (the newest capture not after it),
    or, with ``strictest`` (a :class:`datetime.timedelta`), by the most restrictive capture
    in force over ``[date - strictest, date]``. Rows: :data:`VERDICT_DDL`, the same rows as
    the Python function (and ``robotsrules bulk --as-of COLUMN --engine spark``).

    ``robots`` has ``url``, ``body`` and optional ``status`` and ``date`` (every capture
    kept, several per site); ``urls`` has ``url`` and ``date_column`` (a timestamp, date or
    ISO 8601 text; naive values are UTC). ``key`` is ``"origin"`` or ``"host"``.

    The plan: not a range join but a grouping. Both tables get a ``site`` column, are
    hash-partitioned by site and sorted within partitions so that a site's captures come
    just before its URLs; each partition then builds one site's history at a time and
    streams that site's URLs through it in chunks. Memory per worker: the captures of one
    site (its robots.txt bodies, each at most the parser's size cap) plus one chunk of URLs
    and verdicts; a site with a billion URLs costs only the sort Spark spills anyway.
    """
    import datetime

    from .bulk import MISSING
    from .bulk._schemas import KEYS

    names = check_agents(agents)
    if key not in KEYS:
        raise InvalidArgument(f"key must be one of {', '.join(KEYS)}, not {key!r}")
    if missing not in MISSING:
        raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    if strictest is not None and (not isinstance(strictest, datetime.timedelta)
                                  or strictest < datetime.timedelta(0)):
        raise InvalidArgument("strictest must be a timedelta of zero or more")
    for frame, table, needed in ((robots, "robots", ("url", "body")),
                                 (urls, "URL", ("url", date_column))):
        for column in needed:
            if column not in frame.columns:
                raise InvalidArgument(f"the {table} table has no {column!r} column (columns: "
                                      + ", ".join(frame.columns) + ")")
    arrow_udf: Any = F.arrow_udf  # type: ignore[attr-defined]  # pyspark 4.1+, stubs lag
    site_of = (_udfs()["robots_origin"] if key == "origin" else arrow_udf(_hosts, "string"))
    status = (F.col("status").cast("int") if "status" in robots.columns
              else F.lit(None).cast("int"))
    rdate = F.col("date") if "date" in robots.columns else F.lit(None).cast("timestamp")
    robot_rows = (robots
                  .select(F.col("url").cast("string").alias("url"),
                          _body("body").alias("body"), status.alias("status"),
                          rdate.alias("rdate"))
                  .withColumn("site", site_of(F.col("url")))
                  .where(F.col("site").isNotNull())
                  .select("site", F.lit(0).alias("kind"), "url", "body", "status", "rdate"))
    url_rows = (urls
                .select(F.col("url").cast("string").alias("url"),
                        F.col("`" + date_column.replace("`", "``") + "`").alias("udate"))
                .select(site_of(F.col("url")).alias("site"), F.lit(1).alias("kind"), "url",
                        F.lit(None).cast("binary").alias("body"),
                        F.lit(None).cast("int").alias("status"), "udate"))
    both = robot_rows.unionByName(url_rows, allowMissingColumns=True)
    spread = (both.repartition(partitions, "site") if partitions
              else both.repartition("site"))
    ordered = spread.sortWithinPartitions(F.col("site").asc_nulls_first(), F.col("kind").asc())
    job = functools.partial(_as_of_partition, names, key, strictest, missing, mode, policy,
                            cache_size)
    return ordered.select("site", "kind", "url", "body", "status", "rdate",
                          "udate").mapInArrow(job, VERDICT_DDL)


# -- stances (issue 17): one row per site and agent, no URL table ------------------------------

STANCE_DDL = spark_ddl(STANCE_SCHEMA)
"""The stance schema (:data:`robotsrules.bulk.STANCE_SCHEMA`) as Spark DDL."""


def robots_stance(body: ColumnOrName, status: ColumnOrName, agent: Union[Column, str]
                  ) -> Column:
    """The site's stance for ``agent`` as a struct (``kind``, ``reason``, ``scope``,
    ``lines``, ``disallowed``, ``allowed``, ``complete``, ``stoppable``; see
    :data:`robotsrules.bulk.STANCE_SCHEMA`), with the fetch policy applied to ``status``
    (pass ``F.lit(None)`` when there is none). Null for a null agent, or a null body with
    a null or 2xx status. ``agent`` is a column or a str literal."""
    return cast(Column, _udfs()["robots_stance"](_body(body), _col(status).cast("int"),
                                                 _col(agent, literal=True)))


def _stance_partition(agents: Sequence[str], mode: Mode, policy: Policy,
                      crawlers: Optional[Sequence[Crawler]],
                      batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    from .bulk._stances import stances_sorted

    return stances_sorted(batches, agents, mode=mode, policy=policy, crawlers=crawlers)


def stances(
    robots: DataFrame,
    agents: Union[str, Sequence[str]],
    *,
    partitions: Optional[int] = None,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    crawlers: Optional[Sequence[Crawler]] = None,
) -> DataFrame:
    """The bulk stance job: a DataFrame of stance rows (:data:`STANCE_DDL`), one per origin
    of ``robots`` (columns ``url``, ``body``, optional ``status`` and ``date``) and agent;
    the row that governs each origin is picked as in :func:`verdicts`, and each is parsed
    once for all agents (:func:`robotsrules.bulk._stances.stances_sorted`; ``crawlers``: the
    crawler table the ``stoppable`` column reads, the shipped registry by default)."""
    from .bulk._schemas import STANCE_SORTED_COLUMNS
    from .bulk._stances import check_stance_mode

    names = check_agents(agents)
    check_stance_mode(mode)
    for column in ("url", "body"):
        if column not in robots.columns:
            raise InvalidArgument(f"the robots table has no {column!r} column (columns: "
                                  + ", ".join(robots.columns) + ")")
    status = (F.col("status").cast("int") if "status" in robots.columns
              else F.lit(None).cast("int"))
    date = (F.col("date").cast("timestamp") if "date" in robots.columns
            else F.lit(None).cast("timestamp"))
    rows = (robots
            .select(_udfs()["robots_origin"](F.col("url").cast("string")).alias("origin"),
                    _body("body").alias("body"), status.alias("status"), date.alias("date"))
            .where(F.col("origin").isNotNull()))
    spread = rows.repartition(partitions, "origin") if partitions else rows.repartition("origin")
    ordered = spread.sortWithinPartitions(F.col("origin").asc(), *_best_first())
    job = functools.partial(_stance_partition, names, mode, policy,
                            None if crawlers is None else tuple(crawlers))
    return ordered.select(*STANCE_SORTED_COLUMNS).mapInArrow(job, STANCE_DDL)
