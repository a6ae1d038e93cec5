"""The tables of bulk work, as Arrow schemas, and the engines' types generated from them.

Every table the bulk functions read or write is declared here once, as an Arrow schema;
DuckDB's SQL types (:func:`sql_type`) and Spark's DDL (:func:`spark_ddl`) are generated
from these declarations, never written out again, so an engine cannot drift from Arrow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple, Optional

import pyarrow as pa

from .._tables._provenance import metadata
from .._tables._purposes import (
    check_purposes,  # the one purpose validator (re-exported here)
    column_name,
)
from ..errors import InvalidArgument

__all__ = [
    "ANY_AGENT_SCHEMA",
    "FILE_FORMATS",
    "INVALID_URL",
    "KEYS",
    "MISSING",
    "NO_ROBOTS",
    "PAGE_SCHEMA",
    "PAGE_SIGNALS_TYPE",
    "SORTED_COLUMNS",
    "STANCE_SCHEMA",
    "STANCE_SORTED_COLUMNS",
    "STANCE_TYPE",
    "TOO_COMPLEX",
    "VERDICT_SCHEMA",
    "VERDICT_TYPE",
    "VERIFICATION_TYPE",
    "FileFormat",
    "Key",
    "Missing",
    "check_key",
    "check_purposes",
    "file_format",
    "missing_verdict",
    "page_schema",
    "provenance",
    "spark_ddl",
    "spark_type",
    "sql_type",
    "verdict_schema",
    "with_provenance",
]


def provenance() -> dict[str, str]:
    """What judged a bulk table: the versions of robotsrules and of its data tables (the
    crawler registry's ``version`` and ``compiled`` date, the usage vocabularies and the
    aipref revision they read, the robots.txt extensions), as flat ``robotsrules.*`` keys.
    Every schema of this module carries them as Arrow key-value metadata
    (:func:`with_provenance`), so the tables the bulk functions return, and the Parquet
    files ``robotsrules bulk --out`` writes, say which registry said ``stoppable``.

    >>> "robotsrules.crawler_registry_compiled" in provenance()
    True
    """
    return metadata()


def with_provenance(schema: pa.Schema) -> pa.Schema:
    """``schema`` with :func:`provenance` added to its key-value metadata (Parquet keeps
    it in the file's footer: ``pyarrow.parquet.read_schema(path).metadata``)."""
    return schema.with_metadata({**(schema.metadata or {}),
                                 **{k.encode(): v.encode() for k, v in provenance().items()}})

VERDICT_SCHEMA = with_provenance(pa.schema([
    pa.field("url", pa.string()),
    pa.field("agent", pa.string()),
    pa.field("allowed", pa.bool_()),
    pa.field("line", pa.int32()),
    pa.field("reason", pa.string()),
    pa.field("origin", pa.string()),
]))
"""The columns of every verdict table (see :mod:`robotsrules.bulk`)."""

VERDICT_TYPE = pa.struct(list(VERDICT_SCHEMA)[2:5])
"""``struct(allowed, line, reason)``: one verdict, as the engines' verdict functions give it."""


def _with_purposes(schema: pa.Schema, purposes: Sequence[str]) -> pa.Schema:
    """``schema`` and one nullable bool column per purpose at the end (``ai_train``...)."""
    return pa.schema([*schema, *(pa.field(column_name(p), pa.bool_()) for p in purposes)],
                     metadata=schema.metadata)


def verdict_schema(purposes: Sequence[str] = ()) -> pa.Schema:
    """:data:`VERDICT_SCHEMA` and one nullable bool column per purpose (``ai_train``...).

    Raises :class:`~robotsrules.InvalidPurpose` for an unknown purpose.
    """
    return _with_purposes(VERDICT_SCHEMA, purposes)


ANY_AGENT_SCHEMA = with_provenance(pa.schema([
    pa.field("url", pa.string()),
    pa.field("disallowed", pa.bool_()),
    pa.field("agent", pa.string()),
    pa.field("line", pa.int32()),
    pa.field("reason", pa.string()),
    pa.field("origin", pa.string()),
]))
"""The columns of an any-agent table (:func:`~robotsrules.bulk.any_agent`): one row per URL.

``disallowed`` is True when at least one of the agents is disallowed, ``agent`` the first
such agent in the order given, ``line`` and ``reason`` its verdict's; False (``agent`` and
``line`` null, reason ``"allowed"``) when every agent is allowed; null when no agent is
disallowed but some verdict is unknown (reason: that verdict's, e.g. ``no-robots``)."""

STANCE_SCHEMA = with_provenance(pa.schema([
    pa.field("site", pa.string()),
    pa.field("agent", pa.string()),
    pa.field("kind", pa.string()),
    pa.field("reason", pa.string()),
    pa.field("scope", pa.string()),
    pa.field("lines", pa.list_(pa.int32())),
    pa.field("disallowed", pa.list_(pa.string())),
    pa.field("allowed", pa.list_(pa.string())),
    pa.field("complete", pa.bool_()),
    pa.field("stoppable", pa.bool_()),
]))
"""The columns of a stance table (:func:`~robotsrules.bulk.stances`): one row per site and
agent.

==========  ============  ======================================================================
column      type          meaning
==========  ============  ======================================================================
site        string        the site's key: its origin (``https://example.com``) or, with
                          ``key="host"``, its host name
agent       string        the agent as given
kind        string        ``all`` (every path disallowed, ``/robots.txt`` aside), ``none``
                          (nothing disallowed) or ``some``: :attr:`Stance.kind
                          <robotsrules.Stance.kind>`; ``null`` only when ``reason`` is
                          ``too-complex``
reason      string        where the kind comes from: ``rules`` (the body, for a 2xx or no
                          status), ``allow-all`` (a 4xx or unfollowed 3xx status: the file is
                          *unavailable*, so ``kind`` is ``none``), ``disallow-all`` (429 or
                          5xx: *unreachable*, so ``kind`` is ``all``), or ``too-complex``
                          (:class:`~robotsrules.StanceTooComplex`: no guess is made)
scope       string        group selection: ``specific``, ``global`` or ``none``
lines       list<int32>   the line numbers of the rules that decide some path (file order;
                          empty for a status-derived stance)
disallowed  list<string>  a few example disallowed paths (``some`` has one at least)
allowed     list<string>  a few example allowed paths
complete    bool          False when ``lines`` may miss rules (``kind`` stays exact)
stoppable   bool          can robots.txt stop the agent at all, by its operator's word in the
                          crawler registry (:attr:`Crawler.stoppable <robotsrules._tables._crawlers.
                          Crawler.stoppable>`, the ``stoppable`` of ``robotsrules stance
                          --json``): ``true`` the operator states it obeys robots.txt;
                          ``false`` it states robots.txt does not bind the agent, or no
                          group can name it, or it is a control token that fetches nothing;
                          ``null`` the operator's word is unknown or "partly", or the
                          registry does not list the agent. The same for every site: a
                          ``kind`` of ``all`` with ``stoppable`` false is a refusal the
                          agent's operator says it does not read
==========  ============  ======================================================================
"""

STANCE_TYPE = pa.struct(list(STANCE_SCHEMA)[2:])
"""One stance (:data:`STANCE_SCHEMA` without ``site`` and ``agent``), as a struct."""

PAGE_SIGNALS_TYPE = pa.struct([
    pa.field("index", pa.bool_()),
    pa.field("follow", pa.bool_()),
    pa.field("noai", pa.bool_()),
    pa.field("tdm_reservation", pa.int32()),
    pa.field("head_cut", pa.bool_()),
])
"""The page-level signals of one response as the engines' ``robots_page`` gives them;
``head_cut``: the HTML head ran past the bytes read before its ``<body>``, so what it does not
state is not known (:attr:`robotsrules.PageSignals.head_cut`)."""

VERIFICATION_TYPE = pa.struct([
    pa.field("verdict", pa.string()),
    pa.field("token", pa.string()),
    pa.field("operator", pa.string()),
    pa.field("operator_only", pa.bool_()),
    pa.field("list", pa.string()),
    pa.field("prefix", pa.string()),
    pa.field("stale", pa.bool_()),
    pa.field("reason", pa.string()),
])
"""One visitor's verification (:func:`robotsrules.verify`, offline: the address lists only) as
the engines' ``robots_verify`` gives it: the verdict (``verified``, ``not-verified``,
``unverifiable``, ``unknown``), the claimed token, the operator, whether the evidence verifies
only the operator (a shared list), the list and prefix that hold the address, whether that
list is stale, and the reason."""

PAGE_SCHEMA_VERSION = 2
"""The version of the page table's columns (:data:`PAGE_SCHEMA`), in its Arrow metadata as
``robotsrules.page_schema_version``: 2 added ``head_cut`` (issue 33); 1 had none."""

PAGE_SCHEMA = with_provenance(pa.schema([
    pa.field("url", pa.string()),
    pa.field("agent", pa.string()),
    pa.field("status", pa.int32()),
    pa.field("date", pa.timestamp("us", tz="UTC")),
    pa.field("crawl_allowed", pa.bool_()),
    pa.field("index", pa.bool_()),
    pa.field("follow", pa.bool_()),
    pa.field("noai", pa.bool_()),
    pa.field("tdm_reservation", pa.int8()),
    pa.field("damaged", pa.string()),
    pa.field("license_urls", pa.list_(pa.string())),
    pa.field("head_cut", pa.bool_()),
], metadata={"robotsrules.page_schema_version": str(PAGE_SCHEMA_VERSION)}))
"""The columns of a page table (:func:`robotsrules.warc.page_table`) before the purposes:
one row per captured response and agent. ``damaged`` is null for a response read whole; for
one that did not arrive whole it says why, and the signal columns (``index`` to the
purposes) are null: a cut record may have lost the very header or meta tag that says no, so
it is never a clean "nothing stated" row. ``license_urls``: the RSL 1.0 licences the
response names (``Link: <...>; rel="license"; type="application/rsl+xml"`` and the HTML
head's ``<link>``), resolved against the record's URL (:attr:`robotsrules.PageSignals.
license_urls`); an empty list when it names none. ``head_cut``: the body went on past the
bytes read before its ``<body>`` tag (:attr:`robotsrules.PageSignals.head_cut`), so a meta
may be missing: the purpose columns are then null (not known) unless something refuses,
never a clean "nothing stated" row."""


def page_schema(purposes: Sequence[str] = ()) -> pa.Schema:
    """:data:`PAGE_SCHEMA` and one nullable boolean per purpose at the end (``ai_train``)."""
    return _with_purposes(PAGE_SCHEMA, purposes)


SORTED_COLUMNS = ("origin", "kind", "url", "body", "status")
"""Columns of the stream :func:`~robotsrules.bulk._judge.judge_sorted` reads."""
STANCE_SORTED_COLUMNS = ("origin", "body", "status")
"""Columns of the stream :func:`~robotsrules.bulk._stances.stances_sorted` reads."""

FileFormat = Literal["parquet", "csv", "json", "text"]
"""The table file formats the engines read (:func:`file_format`)."""
FILE_FORMATS: dict[str, FileFormat] = {
    ".parquet": "parquet", ".pq": "parquet",
    ".csv": "csv", ".tsv": "csv",
    ".jsonl": "json", ".ndjson": "json", ".json": "json",
    ".txt": "text",
}
"""File name endings the engines read, and their format (also with ``.gz``, ``.gzip`` or
``.zst`` after them): one table for DuckDB and Spark."""
_COMPRESSION = (".gz", ".zst", ".gzip")


def file_format(path: str) -> Optional[FileFormat]:
    """The format of a table file named ``path`` (see :data:`FILE_FORMATS`), or ``None``
    when its name does not tell (a directory, an unknown ending)."""
    name = path.lower().rstrip("/")
    for suffix in _COMPRESSION:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    for ending, form in FILE_FORMATS.items():
        if name.endswith(ending):
            return form
    return None


Key = Literal["origin", "host"]
"""How URLs find their robots row: by origin (RFC 9309, the default) or by host name."""
KEYS: tuple[Key, ...] = ("origin", "host")


def check_key(key: str) -> Key:
    """``key`` if it is one of :data:`KEYS`; else :class:`~robotsrules.InvalidArgument`."""
    if key not in KEYS:
        raise InvalidArgument(f"key must be one of {', '.join(KEYS)}, not {key!r}")
    return key


NO_ROBOTS = "no-robots"
"""Reason of a row whose origin has no row in the robots table."""
INVALID_URL = "invalid-url"
"""Reason of a row whose URL has no robots.txt scope (or no usable path)."""
TOO_COMPLEX = "too-complex"
"""Reason of a stance row whose rules are too complex to settle (``kind`` is null)."""

Missing = Literal["null", "allow", "disallow"]
"""What an origin without a robots row gets: ``null`` (unknown, the default), or a verdict."""
MISSING: tuple[Missing, ...] = ("null", "allow", "disallow")
_MISSING_VERDICT: dict[str, Optional[bool]] = {"null": None, "allow": True, "disallow": False}


def missing_verdict(missing: str) -> Optional[bool]:
    """The verdict ``missing`` gives an origin without a robots row (``None``: unknown);
    a value not in :data:`MISSING` raises :class:`~robotsrules.InvalidArgument`."""
    if missing not in _MISSING_VERDICT:
        raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    return _MISSING_VERDICT[missing]


# -- the engines' types, generated --------------------------------------------------------------

class _Dialect(NamedTuple):
    """How one engine spells the Arrow types the bulk schemas use: the one walk over a type
    (:func:`_engine_type`) serves DuckDB and Spark alike."""

    engine: str
    scalars: dict[pa.DataType, str]
    timestamp: Callable[[pa.DataType], str]
    array: str  # the element type's spelling goes in at {0}
    struct: Callable[[list[tuple[str, str]]], str]


_DUCKDB = _Dialect(
    "DuckDB",
    {pa.bool_(): "BOOLEAN", pa.int8(): "TINYINT", pa.int16(): "SMALLINT",
     pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.string(): "VARCHAR", pa.binary(): "BLOB"},
    lambda kind: "TIMESTAMPTZ" if kind.tz else "TIMESTAMP",
    "{0}[]",
    lambda fields: "STRUCT(" + ", ".join(f'"{name}" {type_}' for name, type_ in fields) + ")")
_SPARK = _Dialect(
    "Spark",
    {pa.bool_(): "boolean", pa.int8(): "tinyint", pa.int16(): "smallint",
     pa.int32(): "int", pa.int64(): "bigint", pa.string(): "string", pa.binary(): "binary"},
    lambda kind: "timestamp",
    "array<{0}>",
    lambda fields: "struct<" + ",".join(f"`{name}`:{type_}" for name, type_ in fields) + ">")


def _engine_type(kind: pa.DataType, dialect: _Dialect) -> str:
    if kind in dialect.scalars:
        return dialect.scalars[kind]
    if pa.types.is_timestamp(kind):
        return dialect.timestamp(kind)
    if pa.types.is_list(kind):
        return dialect.array.format(_engine_type(kind.value_type, dialect))
    if pa.types.is_struct(kind):
        return dialect.struct([(f.name, _engine_type(f.type, dialect)) for f in kind])
    raise TypeError(f"no {dialect.engine} type for {kind}")  # pragma: no cover - a new type


def sql_type(kind: pa.DataType) -> str:
    """The DuckDB SQL type of an Arrow type (those the bulk schemas use).

    >>> sql_type(VERDICT_TYPE)
    'STRUCT("allowed" BOOLEAN, "line" INTEGER, "reason" VARCHAR)'
    """
    return _engine_type(kind, _DUCKDB)


def spark_type(kind: pa.DataType) -> str:
    """The Spark SQL type of an Arrow type (those the bulk schemas use).

    >>> spark_type(VERDICT_TYPE)
    'struct<`allowed`:boolean,`line`:int,`reason`:string>'
    """
    return _engine_type(kind, _SPARK)


def spark_ddl(schema: pa.Schema) -> str:
    """An Arrow schema as Spark DDL (the column list ``mapInArrow`` takes).

    >>> spark_ddl(ANY_AGENT_SCHEMA)
    '`url` string, `disallowed` boolean, `agent` string, `line` int, `reason` string, \
`origin` string'
    """
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in schema)
