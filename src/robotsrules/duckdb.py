"""robots.txt verdicts in DuckDB: SQL functions, and the bulk job on an embedded engine.

Needs the ``bulk`` extra (``pip install 'robotsrules[bulk]'``: duckdb and pyarrow).
:func:`register` adds vectorised SQL functions (Arrow batches in, Arrow arrays out) to a
connection::

    import duckdb, robotsrules.duckdb
    con = duckdb.connect()
    robotsrules.duckdb.register(con)
    con.sql("SELECT url, robots_allowed(body, url, 'GPTBot') FROM pages JOIN robots USING (origin)")

==========================================  ========================================================
function                                    result
==========================================  ========================================================
``robots_allowed(body, url, agent)``        BOOLEAN: may ``agent`` fetch ``url`` under this body?
``robots_line(body, url, agent)``           INTEGER: the line of the deciding rule (NULL: no rule)
``robots_verdict(body, status, url, agent)`` STRUCT(allowed, line, reason), with the fetch policy
                                            applied to ``status`` (NULL or 2xx: the body decides;
                                            4xx: allow all; 429/5xx: disallow all)
``robots_origin(url)``                      VARCHAR: ``scheme://host[:port]``, the robots.txt
                                            scope (NULL when the URL has none)
``robots_page(headers, html, agent)``       STRUCT(index, follow, noai, tdm_reservation,
                                            head_cut): the
                                            page-level signals of a response (``headers``:
                                            the raw ``Name: value`` lines; ``html``: the body
                                            or its head, read when the Content-Type is HTML
                                            or, without one, when it sniffs as HTML; see
                                            :mod:`robotsrules._page`)
``robots_page_allows(headers, html, agent,  BOOLEAN: the page's answer for ``purpose``
purpose)``                                  (``ai-train``, ``search``...; NULL: not stated)
``robots_page_license_urls(headers, html,   VARCHAR[]: the RSL 1.0 licences the response
url)``                                      names (``Link: <...>; rel="license";
                                            type="application/rsl+xml"``, the HTML head's
                                            ``<link>``), resolved against ``url`` (NULL:
                                            NULL headers and html)
``robots_usage(body, url, agent, purpose)`` BOOLEAN: the AI usage preference for ``purpose``
                                            (``'ai-train'``...; NULL: nothing stated, or a URL
                                            the agent may not fetch; :meth:`RobotsTxt.usage`)
``robots_license_urls(body, agent)``        VARCHAR[]: the ``License`` URLs (RSL 1.0) that
                                            apply to ``agent``: every one in the file, for
                                            every agent (the line is global)
``robots_license(license, url, purpose)``   VARCHAR: what the RSL document ``license`` (its
                                            XML) says of ``purpose`` at ``url``: permitted,
                                            licensed, prohibited, unstated or unknown
                                            (:mod:`robotsrules._rsl`)
``robots_license_allows(license, url,       BOOLEAN: the same as ``LicenseTerms.allows``
purpose)``                                  (NULL: unstated or unknown)
``robots_verify(address, user_agent)``      STRUCT(verdict, token, operator, operator_only,
                                            list, prefix, stale, reason): is the visitor the
                                            crawler its header claims, by the published
                                            address lists (:func:`robotsrules.verify`
                                            offline, no DNS; NULL: no IP address)
``robots_stance(body, status, agent)``      STRUCT(kind, reason, scope, lines, disallowed,
                                            allowed, complete, stoppable): the site's stance for
                                            ``agent`` (:data:`robotsrules.bulk.STANCE_SCHEMA`;
                                            NULL: NULL agent, or NULL body with a NULL or 2xx
                                            status)
==========================================  ========================================================

``body`` is a BLOB (a VARCHAR is cast). Semantics are :mod:`robotsrules.bulk`'s, row for row
the core's; a parsed body is cached per thread (bounded LRU), so a join that repeats a site's
body on each of its URLs parses it once.

:func:`verdicts` runs the whole job (``robotsrules bulk``'s default engine): the robots
table is indexed by origin once, DuckDB streams the URL table in Arrow batches (a text file
is read directly), each batch is judged in the thread reading the result, and a reader of
verdict batches (:data:`robotsrules.bulk.VERDICT_SCHEMA`) comes back. No Python function runs
inside the DuckDB query, so interrupting it (``connection.interrupt()``) stops a C++ scan.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import (
    Any,
    Callable,
    Optional,
    Union,
    cast,
)

from .errors import MissingExtra

with MissingExtra.guard("robotsrules.duckdb", "bulk"):
    import duckdb
    import pyarrow as pa

from ._tables._crawlers import Crawler
from ._terminal import first_line
from .bulk import (
    ANY_AGENT_SCHEMA,
    DEFAULT_CACHE_SIZE,
    DEFAULT_POLICY,
    STANCE_SCHEMA,
    VERDICT_SCHEMA,
    Key,
    Missing,
    RobotsHistory,
    RobotsIndex,
    verdict_schema,
)
from .bulk._bodies import BodyCache
from .bulk._columns import column_functions
from .bulk._judge import Judge
from .bulk._schemas import FILE_FORMATS, FileFormat, file_format, sql_type
from .errors import EngineError, InvalidArgument
from .policy import Policy
from .robotstxt import Mode

__all__ = [
    "FORMATS",
    "Source",
    "any_agent_verdicts",
    "as_of_reader",
    "count_rows",
    "guarded_batches",
    "load_history",
    "load_index",
    "read",
    "register",
    "stances",
    "text_batches",
    "verdicts",
]

FORMATS = FILE_FORMATS
"""File name endings read by :func:`read` (also with ``.gz`` or ``.zst`` after them):
:data:`robotsrules.bulk._schemas.FILE_FORMATS`."""

_READERS = {
    "parquet": "read_parquet(?)",
    "csv": "read_csv(?, header = true)",
    "json": "read_json(?, format = 'newline_delimited')",
}

Source = Union[str, "os.PathLike[str]", pa.Table, "duckdb.DuckDBPyRelation"]
"""A table: a file path (Parquet, CSV, JSON Lines, text), an Arrow table, or a relation."""


def _format(path: str) -> FileFormat:
    form = file_format(path)
    if form is not None:
        return form
    raise InvalidArgument(f"{path}: unknown file type; use one of "
                      + ", ".join(sorted(FORMATS)) + " (optionally .gz)")


def read(connection: duckdb.DuckDBPyConnection, source: Source) -> duckdb.DuckDBPyRelation:
    """``source`` as a DuckDB relation (files are read by DuckDB's own readers)."""
    if isinstance(source, duckdb.DuckDBPyRelation):
        return source
    if isinstance(source, pa.Table):
        return connection.from_arrow(source)
    path = os.fspath(source)
    if not os.path.exists(path):
        raise EngineError(f"{path}: no such file")
    form = _format(path)
    if form == "text":
        return connection.from_arrow(text_batches(path))
    sql = _READERS[form]
    try:
        return connection.sql("SELECT * FROM " + sql.replace("?", _quote(path)))
    except duckdb.Error as error:
        raise EngineError(f"{path}: cannot read: {first_line(error)}") from None


def _text_lines(path: str) -> Iterator[str]:
    opener: Any = open
    if path.lower().endswith((".gz", ".gzip")):
        import gzip

        opener = gzip.open
    with opener(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line.rsplit("\t", 1)[-1].strip()


def text_batches(path: str, batch_size: int = 65_536) -> pa.RecordBatchReader:
    """A text file of URLs as Arrow batches (column ``url``), streamed.

    One URL a line; blank lines and lines starting with ``#`` are skipped; of a line of
    tab-separated fields the last one is the URL (``host<TAB>url`` lists).
    """
    schema = pa.schema([pa.field("url", pa.string())])

    def batches() -> Iterator[pa.RecordBatch]:
        chunk: list[str] = []
        for url in _text_lines(path):
            chunk.append(url)
            if len(chunk) >= batch_size:
                yield pa.RecordBatch.from_arrays([pa.array(chunk, pa.string())], schema=schema)
                chunk = []
        if chunk:
            yield pa.RecordBatch.from_arrays([pa.array(chunk, pa.string())], schema=schema)

    return pa.RecordBatchReader.from_batches(schema, batches())


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def count_rows(connection: duckdb.DuckDBPyConnection, source: Source) -> int:
    """How many rows ``source`` has (Parquet: from the metadata; others: one scan)."""
    if isinstance(source, pa.Table):
        return int(source.num_rows)
    if not isinstance(source, duckdb.DuckDBPyRelation) and _format(os.fspath(source)) == "text":
        return sum(1 for _ in _text_lines(os.fspath(source)))
    relation = read(connection, source)
    try:
        found = relation.aggregate("count(*)").fetchall()
    except duckdb.Error as error:
        raise EngineError(f"cannot read: {first_line(error)}") from None
    return int(found[0][0]) if found else 0


def register(
    connection: duckdb.DuckDBPyConnection,
    *,
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> duckdb.DuckDBPyConnection:
    """Add the ``robots_*`` SQL functions (table in the module docstring;
    :func:`robotsrules.bulk._columns.column_functions`) to ``connection``.

    ``cache_size`` bounds the parsed bodies kept per thread; ``mode`` and ``policy`` are the
    core's reading mode and fetch policy. Returns the connection.
    """
    local = threading.local()

    def cache() -> BodyCache:
        found: Optional[BodyCache] = getattr(local, "cache", None)
        if found is None:
            found = BodyCache(cache_size, mode=mode, policy=policy)
            local.cache = found
        return found

    for function in column_functions(cache):
        # Parameters untyped on purpose: a body may be BLOB or VARCHAR, and DuckDB's
        # VARCHAR<->BLOB casts would rewrite it (backslash escapes, non-ASCII refused), so
        # each value reaches Python as it is stored (bytes or str, UTF-8 encoded here).
        # NULLs are handled by us ("special"): a NULL body with a 4xx/5xx status still has a
        # verdict, and a verdict may be NULL (no robots, invalid URL), which DEFAULT forbids.
        cast(Any, connection).create_function(
            function.name, function.function, None, duckdb.sqltype(sql_type(function.returns)),
            type="arrow", null_handling="special")
    return connection


def verdicts(
    robots: Union[Source, RobotsIndex],
    urls: Source,
    agents: Union[str, Sequence[str]],
    *,
    connection: Optional[duckdb.DuckDBPyConnection] = None,
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    batch_size: int = 65_536,
    check: Optional[Callable[[], None]] = None,
    purposes: Sequence[str] = (),
    key: Key = "origin",
) -> pa.RecordBatchReader:
    """The bulk job on DuckDB: verdict batches for every URL of ``urls`` and every agent.

    ``robots`` is a robots table (columns ``url``, ``body``, optional ``status`` and
    ``date``; see :mod:`robotsrules.bulk`) or a ready :class:`~robotsrules.bulk.RobotsIndex`;
    ``urls`` a table with a ``url`` column. Files are read with DuckDB's readers; the URL
    table is streamed (rows in input order, agents in the order given, URL-major), in
    batches of about ``batch_size`` rows. ``check``, if given, is called every few thousand
    URLs; an exception it raises abandons the job (``robotsrules bulk`` stops this way on
    Ctrl-C).
    ``purposes`` adds one nullable bool column per purpose (:func:`~robotsrules.bulk.
    verdict_schema`).
    """
    con = connection if connection is not None else duckdb.connect()
    index = robots if isinstance(robots, RobotsIndex) else load_index(con, robots, key)
    judge = Judge(index, agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy, purposes=purposes)
    # DuckDB reads the URL table (any format it reads, streamed); the verdicts are made here,
    # in the thread that reads the batches, not in a Python function DuckDB calls. So the
    # query never calls back into Python, and an interrupt (Ctrl-C, con.interrupt()) stops
    # a C++ scan, never Python code running inside DuckDB (which crashed it; see
    # docs/explanations/bulk-safety.md). A text file of URLs does not go through DuckDB at all.
    per_batch = max(1, batch_size // len(judge.agents))
    urls_in = _url_batches(con, urls, per_batch)
    schema = verdict_schema(judge.purposes)
    return pa.RecordBatchReader.from_batches(schema,
                                             _judged(judge, urls_in, con, check, schema))


def _url_batches(connection: duckdb.DuckDBPyConnection, urls: Source, batch_size: int
                 ) -> Iterator[pa.RecordBatch]:
    """The ``url`` column of a URL table as Arrow batches of strings."""
    if (not isinstance(urls, (pa.Table, duckdb.DuckDBPyRelation))
            and os.path.exists(os.fspath(urls)) and _format(os.fspath(urls)) == "text"):
        return iter(text_batches(os.fspath(urls), batch_size))
    relation = read(connection, urls)
    if "url" not in relation.columns:
        raise InvalidArgument("the URL table has no 'url' column (columns: "
                          + ", ".join(relation.columns) + ")")
    try:
        reader = _arrow_reader(relation.select("CAST(url AS VARCHAR) AS url"), batch_size)
    except duckdb.Error as error:
        raise EngineError(f"bulk query failed: {first_line(error)}") from None
    return iter(reader)


def _arrow_reader(relation: duckdb.DuckDBPyRelation, batch_size: int) -> pa.RecordBatchReader:
    # DuckDB 2 renamed fetch_record_batch (1.x) to to_arrow_reader.
    method = getattr(relation, "to_arrow_reader", None) or relation.fetch_record_batch
    return method(batch_size)


_CHECK_EVERY = 4096  # URLs judged between two calls of verdicts()' check


def _judged(judge: Judge, batches: Iterator[pa.RecordBatch],
            connection: duckdb.DuckDBPyConnection, check: Optional[Callable[[], None]],
            schema: pa.Schema = VERDICT_SCHEMA) -> Iterator[pa.RecordBatch]:
    while True:
        if check is not None:
            check()
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (duckdb.Error, pa.ArrowException, OSError) as error:  # a file that goes bad
            raise EngineError(f"bulk query failed: {first_line(error)}") from None
        column = batch.column("url")
        if check is None or len(column) <= _CHECK_EVERY:
            if len(column):
                yield judge.verdict_batch(column)
            continue
        parts = []
        for start in range(0, len(column), _CHECK_EVERY):
            check()
            parts.append(judge.verdict_batch(column.slice(start, _CHECK_EVERY)))
        yield pa.Table.from_batches(parts, schema).combine_chunks().to_batches()[0]
    del connection  # read to the end: the connection may go


def load_history(connection: duckdb.DuckDBPyConnection, robots: Source,
                 key: Key = "origin") -> RobotsHistory:
    """Read a robots table into a :class:`~robotsrules.bulk.RobotsHistory` (every capture)."""
    if isinstance(robots, pa.Table):
        return RobotsHistory.from_arrow(robots, key)
    return RobotsHistory.from_arrow(_robots_reader(connection, robots, raw_dates=True), key)


def as_of_reader(connection: duckdb.DuckDBPyConnection, urls: Source, date_column: str,
                 batch_size: int = 65_536) -> pa.RecordBatchReader:
    """The URL table's ``url`` and ``date_column`` as Arrow batches.

    The dates pass through as they are (text, date, timestamp with or without a zone) and
    are read by :func:`robotsrules.bulk.as_of_verdicts` as the Python and Spark paths read
    them: a time without a zone is UTC. A cast in DuckDB would read such text in the
    session's ``TimeZone`` (the machine's), and judge the same table differently on
    another machine."""
    relation = read(connection, urls)
    for needed in ("url", date_column):
        if needed not in relation.columns:
            raise InvalidArgument(f"the URL table has no {needed!r} column (columns: "
                                  + ", ".join(relation.columns) + ")")
    column = '"' + date_column.replace('"', '""') + '"'
    return _arrow_reader(relation.select(
        f"CAST(url AS VARCHAR) AS url, {column}"),
        batch_size)


def _robots_reader(connection: duckdb.DuckDBPyConnection, robots: Source,
                   raw_dates: bool = False) -> Any:
    # raw_dates: the dates as they are, for RobotsHistory (see as_of_reader); the index
    # compares them as values, so it gets them as timestamps.
    relation = read(connection, robots)
    columns = relation.columns
    for needed in ("url", "body"):
        if needed not in columns:
            raise InvalidArgument(f"the robots table has no {needed!r} column (columns: "
                                  + ", ".join(columns) + ")")
    types = dict(zip(columns, (str(t) for t in relation.types)))
    # A VARCHAR body is encoded as UTF-8 (a CAST to BLOB would read backslash escapes).
    body = "body" if types["body"] == "BLOB" else "encode(CAST(body AS VARCHAR))"
    select = ["CAST(url AS VARCHAR) AS url", f"{body} AS body"]
    if "status" in columns:
        select.append("TRY_CAST(status AS INTEGER) AS status")
    if "date" in columns:
        select.append("date" if raw_dates else "TRY_CAST(date AS TIMESTAMPTZ) AS date")
    return _arrow_reader(relation.select(", ".join(select)), 65_536)


def load_index(connection: duckdb.DuckDBPyConnection, robots: Source,
               key: Key = "origin") -> RobotsIndex:
    """Read a robots table (a file or table) into a :class:`~robotsrules.bulk.RobotsIndex`
    keyed by origin (default) or host name (``key="host"``, see :mod:`robotsrules.bulk`)."""
    try:
        return RobotsIndex.from_arrow(_robots_reader(connection, robots), key)
    except duckdb.Error as error:
        raise EngineError(f"cannot read the robots table: {first_line(error)}") from None



def any_agent_verdicts(
    robots: Union[Source, RobotsIndex],
    urls: Source,
    agents: Union[str, Sequence[str]],
    *,
    connection: Optional[duckdb.DuckDBPyConnection] = None,
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    batch_size: int = 65_536,
    key: Key = "origin",
) -> pa.RecordBatchReader:
    """The any-agent job on DuckDB: one row per URL (:data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`)
    saying whether any of ``agents`` is disallowed, which one first, and the deciding line
    (the rows of :func:`robotsrules.bulk.any_agent` over :func:`verdicts`, worked out by one
    Arrow function per URL batch)."""
    con = connection if connection is not None else duckdb.connect()
    index = robots if isinstance(robots, RobotsIndex) else load_index(con, robots, key)
    judge = Judge(index, agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy)
    names = judge.agents
    local = threading.local()

    def mine() -> Judge:  # one parse cache per DuckDB thread
        found: Optional[Judge] = getattr(local, "judge", None)
        if found is None:
            found = Judge(index, names, missing=missing, cache_size=cache_size, mode=mode,
                          policy=policy)
            local.judge = found
        return found

    def judge_urls(url: Any) -> pa.Array:
        batch = mine().any_batch(url)
        return pa.StructArray.from_arrays(batch.columns[1:], names=batch.schema.names[1:])

    function = f"robots_any_{id(judge):x}"
    struct = duckdb.sqltype(sql_type(pa.struct(list(ANY_AGENT_SCHEMA)[1:])))
    cast(Any, con).create_function(function, judge_urls, ["VARCHAR"], struct, type="arrow",
                                   null_handling="special", side_effects=False)
    relation = read(con, urls)
    if "url" not in relation.columns:
        raise InvalidArgument("the URL table has no 'url' column (columns: "
                          + ", ".join(relation.columns) + ")")
    view = f"robots_any_urls_{id(judge):x}"
    relation.select("CAST(url AS VARCHAR) AS url").create_view(view)
    query = (f"SELECT url, v.disallowed, v.agent, v.line, v.reason, v.origin FROM "
             f"(SELECT url, {function}(url) AS v FROM {view})")
    try:
        reader = _arrow_reader(con.sql(query), batch_size)
    except duckdb.Error as error:
        raise EngineError(f"any-agent query failed: {first_line(error)}") from None
    return pa.RecordBatchReader.from_batches(ANY_AGENT_SCHEMA, _cast_any(reader, con))


def guarded_batches(reader: Iterable[pa.RecordBatch], what: str) -> Iterator[pa.RecordBatch]:
    """The batches of a DuckDB result as they are read; a DuckDB, Arrow or I/O error on the
    way (a file that goes bad, a value that cannot be cast) becomes an
    :class:`~robotsrules.EngineError` ``"<what> failed: <first line of the error>"``."""
    batches = iter(reader)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        # A read error past the first batches reaches the Arrow stream as OSError
        # ("Conversion Error: CSV Error on Line: ..."), not as a DuckDB error.
        except (duckdb.Error, pa.ArrowException, OSError) as error:
            raise EngineError(f"{what} failed: {first_line(error)}") from None
        yield batch


def _cast_any(reader: pa.RecordBatchReader, connection: duckdb.DuckDBPyConnection
              ) -> Iterator[pa.RecordBatch]:
    for batch in guarded_batches(reader, "any-agent query"):
        if batch.num_rows:
            yield batch.cast(ANY_AGENT_SCHEMA)
    del connection


# -- stances (issue 17) ------------------------------------------------------------------------

def stances(
    robots: Union[Source, RobotsIndex],
    agents: Union[str, Sequence[str]],
    *,
    connection: Optional[duckdb.DuckDBPyConnection] = None,
    key: Key = "origin",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    batch_size: int = 1024,
    crawlers: Optional[Sequence[Crawler]] = None,
) -> pa.RecordBatchReader:
    """The bulk stance job (``robotsrules stance --robots``): DuckDB reads the robots table
    (any format :func:`read` knows), and a reader of stance batches
    (:data:`~robotsrules.bulk.STANCE_SCHEMA`, one row per site and agent) comes back, the
    rows of :func:`robotsrules.bulk.stances` (``crawlers``: the crawler table the
    ``stoppable`` column reads, the shipped registry by default)."""
    from .bulk import stances as stance_batches

    con = connection if connection is not None else duckdb.connect()
    try:
        index = robots if isinstance(robots, RobotsIndex) else load_index(con, robots, key)
    finally:
        if connection is None:
            con.close()
    return pa.RecordBatchReader.from_batches(
        STANCE_SCHEMA, stance_batches(index, agents, mode=mode, policy=policy,
                                      batch_size=batch_size, crawlers=crawlers))
