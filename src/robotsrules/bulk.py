"""Bulk verdicts over Arrow data: many URLs, many sites, several agents, the core's answers.

This is the engine-independent heart of ``robotsrules bulk``; :mod:`robotsrules.duckdb` and
:mod:`robotsrules.spark` are thin drivers of it. It needs ``pyarrow`` (extra ``bulk``) and
nothing else outside the core.

Theory of operation. Two tables come in:

* the *robots table*: one row per capture of a site's robots.txt, columns ``url`` (any URL of
  the site, usually its robots.txt URL), ``body`` (bytes or text), optional ``status`` (the
  HTTP status of the answer) and optional ``date`` (when it was fetched);
* the *URL table*: column ``url``, streamed in Arrow record batches.

Each URL is keyed by its origin with :func:`robotsrules._scope.origin_of` (scheme and host
lower-cased, punycode, default port dropped: the robots.txt scope of RFC 9309 §2.3), which
picks the one robots row of that origin; each robots row is turned into rules once per worker
(a bounded LRU of parsed files) and every URL and agent becomes one output row:

==========  ======  ============================================================================
column      type    meaning
==========  ======  ============================================================================
url         string  the URL as given
agent       string  the agent as given (``GPTBot``)
allowed     bool    the verdict; ``null`` when it cannot be known (see ``reason``)
line        int32   line number (1-based) of the robots.txt rule that decided; ``null`` when no
                    rule decided (no rule matches, no group, ``/robots.txt``, or a status/
                    missing-file outcome below)
reason      string  the core's :attr:`Verdict.reason <robotsrules.Verdict.reason>` or one of
                    :data:`NO_ROBOTS`, :data:`INVALID_URL`
origin      string  ``scheme://host[:port]`` of the URL; ``null`` for an invalid URL
==========  ======  ============================================================================

With ``purposes`` (``("ai-train", ...)``, names of :data:`robotsrules._purposes.PURPOSES`),
one nullable boolean column per purpose follows, named with ``-`` as ``_`` (``ai_train``):
``robots.usage(url, agent=agent).allows(purpose)`` from the same parsed file (``null``: nothing
stated, no robots row, an invalid URL, or a URL the agent may not fetch; see
:meth:`RobotsTxt.usage <robotsrules.RobotsTxt.usage>`).

The verdict of a row equals the core's, row for row:

* ``status`` absent (``null``) or 2xx: ``parse(body).explain(url, agent=agent)``;
* another status: the fetch policy's outcome (:func:`robotsrules.policy.outcome_for_status`):
  4xx except 429 (and a 3xx, a redirect nobody followed) mean *unavailable*, everything allowed
  (reason ``allow-all``); 429 and 5xx mean *unreachable*, everything disallowed (reason
  ``disallow-all``); ``line`` is ``null`` for both;
* an origin with no robots row: nothing is known about its robots.txt (RFC 9309 says a crawler
  must fetch it first), so by default ``allowed`` is ``null`` with reason ``no-robots``;
  ``missing="allow"`` or ``"disallow"`` chooses a verdict instead (the reason stays);
* a URL that has no robots.txt scope (not ``http``, ``https`` or ``ftp``, no host, garbage):
  ``allowed`` and ``origin`` ``null``, reason ``invalid-url``. Bulk input is data, so this
  never raises; only an invalid *agent* (the caller's choice) raises
  :class:`~robotsrules.InvalidAgent`.

Without a URL table, :func:`stances` gives one row per site and agent
(:data:`STANCE_SCHEMA`): whether the site's robots.txt disallows all, none or some of its
paths for the agent (:meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`), with the
deciding lines and example paths.

Several robots rows for one origin: the newest ``date`` wins (rows without a date are older
than any dated row); ties are broken by the larger body, then the larger status, so that every
engine picks the same row.
"""

from __future__ import annotations

import datetime
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Union,
)

try:
    import pyarrow as pa
except ImportError as exc:  # pragma: no cover - the extra is installed for the tests
    from .errors import MissingExtra

    raise MissingExtra("robotsrules.bulk", "bulk", (exc.name or "").partition(".")[0]) from exc

from ._agents import agent_tokens
from ._lru import LRU
from ._purposes import check_purpose, column_name
from ._scope import origin_of
from .errors import InvalidArgument, InvalidURL
from .policy import OK, UNAVAILABLE, Policy, outcome_for_status
from .robotstxt import Mode, RobotsTxt, parse

__all__ = [
    "ANY_AGENT_SCHEMA",
    "DEFAULT_CACHE_SIZE",
    "DEFAULT_POLICY",
    "FILE_FORMATS",
    "INVALID_URL",
    "KEYS",
    "MISSING",
    "NO_ROBOTS",
    "SORTED_COLUMNS",
    "STANCE_SCHEMA",
    "STANCE_SORTED_COLUMNS",
    "TOO_COMPLEX",
    "VERDICT_SCHEMA",
    "BodyCache",
    "FileFormat",
    "Judge",
    "Key",
    "Missing",
    "RobotsHistory",
    "RobotsIndex",
    "any_agent",
    "as_of_verdicts",
    "fast_origin",
    "file_format",
    "host_key",
    "judge_sorted",
    "judge_sorted_any",
    "robots_for",
    "stance_row",
    "stances",
    "stances_sorted",
    "usage_of",
    "verdict_of",
    "verdict_schema",
    "verdicts",
]

VERDICT_SCHEMA = pa.schema([
    pa.field("url", pa.string()),
    pa.field("agent", pa.string()),
    pa.field("allowed", pa.bool_()),
    pa.field("line", pa.int32()),
    pa.field("reason", pa.string()),
    pa.field("origin", pa.string()),
])
"""The columns of every verdict table (see the module docstring)."""


def verdict_schema(purposes: Sequence[str] = ()) -> pa.Schema:
    """:data:`VERDICT_SCHEMA` and one nullable bool column per purpose (``ai_train``...).

    Raises :class:`~robotsrules.InvalidPurpose` for an unknown purpose.
    """
    schema = VERDICT_SCHEMA
    for purpose in purposes:
        schema = schema.append(pa.field(column_name(purpose), pa.bool_()))
    return schema


def _check_purposes(purposes: Sequence[str]) -> Tuple[str, ...]:
    names = tuple(dict.fromkeys(purposes))
    verdict_schema(names)  # raises InvalidPurpose, naming the valid ones
    return names


ANY_AGENT_SCHEMA = pa.schema([
    pa.field("url", pa.string()),
    pa.field("disallowed", pa.bool_()),
    pa.field("agent", pa.string()),
    pa.field("line", pa.int32()),
    pa.field("reason", pa.string()),
    pa.field("origin", pa.string()),
])
"""The columns of an any-agent table (:func:`any_agent`): one row per URL.

``disallowed`` is True when at least one of the agents is disallowed, ``agent`` the first
such agent in the order given, ``line`` and ``reason`` its verdict's; False (``agent`` and
``line`` null, reason ``"allowed"``) when every agent is allowed; null when no agent is
disallowed but some verdict is unknown (reason: that verdict's, e.g. ``no-robots``)."""

FileFormat = Literal["parquet", "csv", "json", "text"]
"""The table file formats the engines read (:func:`file_format`)."""
FILE_FORMATS: Dict[str, FileFormat] = {
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
KEYS: Tuple[Key, ...] = ("origin", "host")

NO_ROBOTS = "no-robots"
"""Reason of a row whose origin has no row in the robots table."""
INVALID_URL = "invalid-url"
"""Reason of a row whose URL has no robots.txt scope (or no usable path)."""

Missing = Literal["null", "allow", "disallow"]
"""What an origin without a robots row gets: ``null`` (unknown, the default), or a verdict."""
MISSING: Tuple[Missing, ...] = ("null", "allow", "disallow")
_MISSING_VERDICT: Dict[str, Optional[bool]] = {"null": None, "allow": True, "disallow": False}

DEFAULT_POLICY = Policy()
"""The fetch policy used unless one is passed (RFC 9309 and Google's defaults)."""

DEFAULT_CACHE_SIZE = 4096
"""Parsed robots.txt files kept per worker (least recently used dropped first)."""

# One verdict: (allowed, line, reason).
Row = Tuple[Optional[bool], Optional[int], str]
# One robots row as kept by the index: (body, status).
RobotsRow = Tuple[Optional[bytes], Optional[int]]

_ORIGIN_CACHE_LIMIT = 200_000
_SPLIT_CHARS = "/?#"


def _origin_prefix(url: str) -> Optional[str]:
    """``scheme://authority`` of ``url`` as written (what ``urlsplit`` sees as netloc)."""
    start = url.find("://")
    if start < 0:
        return None
    end = len(url)
    for char in _SPLIT_CHARS:
        found = url.find(char, start + 3, end)
        if found >= 0:
            end = found
    return url[:end]


_origins: Dict[str, Optional[str]] = {}


def fast_origin(url: Any) -> Optional[str]:
    """:func:`~robotsrules._scope.origin_of` of ``url``, or ``None`` where it would raise.

    Memoised on the ``scheme://authority`` part (most URLs share a few), which is all
    ``origin_of`` reads. Process-wide and bounded.

    >>> fast_origin("HTTPS://Example.COM:443/a?b"), fast_origin("mailto:x@y")
    ('https://example.com', None)
    """
    if not isinstance(url, str):
        return None
    url = url.strip()
    prefix = _origin_prefix(url)
    if prefix is None:
        return None
    try:
        return _origins[prefix]
    except KeyError:
        pass
    try:
        origin: Optional[str] = origin_of(prefix)
    except InvalidURL:
        origin = None
    if len(_origins) >= _ORIGIN_CACHE_LIMIT:
        _origins.clear()
    _origins[prefix] = origin
    return origin


def host_key(url: Any) -> Optional[str]:
    """The host name of ``url`` as :func:`fast_origin` normalises it (no scheme, no port):
    the key of ``key="host"``.

    >>> host_key("HTTPS://Example.COM:8443/a"), host_key("mailto:x@y")
    ('example.com', None)
    """
    origin = fast_origin(url)
    if origin is None:
        return None
    host = origin[origin.index("://") + 3:]
    if host.endswith("]"):  # an IPv6 literal without a port
        return host
    colon = host.rfind(":")
    return host if colon < 0 or "]" in host[colon:] else host[:colon]


def _as_bytes(body: Union[bytes, str, None]) -> Optional[bytes]:
    if body is None or isinstance(body, bytes):
        return body
    return body.encode("utf-8")


def _as_status(status: Any) -> Optional[int]:
    if status is None:
        return None
    try:
        return int(status)
    except (TypeError, ValueError):
        return None


def robots_for(body: Union[bytes, str, None], status: Optional[int] = None, *,
               mode: Mode = "google", policy: Policy = DEFAULT_POLICY) -> RobotsTxt:
    """The rules a robots row stands for: the parsed body for a 2xx (or no) status, else
    :meth:`RobotsTxt.allow_all` / :meth:`RobotsTxt.disallow_all` by the fetch policy's outcome.

    A ``None`` body is read as an empty file.

    >>> robots_for(b"User-agent: *\\nDisallow: /", 503).synthetic
    'disallow-all'
    """
    outcome = OK if status is None else outcome_for_status(status, policy)
    if outcome == OK:
        return parse(_as_bytes(body) or b"", max_bytes=policy.max_bytes, mode=mode)
    if outcome == UNAVAILABLE:
        return RobotsTxt.allow_all()
    return RobotsTxt.disallow_all()


def verdict_of(robots: RobotsTxt, url: Any, agent: str) -> Row:
    """``(allowed, line, reason)`` of ``url`` for ``agent`` under ``robots``.

    ``url`` may be absolute or a path; a URL the core rejects gives ``(None, None,
    "invalid-url")`` instead of raising.
    """
    if not isinstance(url, str):
        return None, None, INVALID_URL
    try:
        verdict = robots.explain(url, agent=agent)
    except InvalidURL:
        return None, None, INVALID_URL
    rule = verdict.rule
    return verdict.allowed, (None if rule is None else rule.line), verdict.reason


# Which robots row of an origin wins: newest date (dated rows beat undated), larger body
# (a body beats none), larger status (a status beats none); the same order in every engine.
_RowKey = Tuple[Tuple[bool, Any], Tuple[bool, bytes], int]


def _date_key(date: Any) -> Tuple[bool, Any]:
    return (date is not None, date)


class RobotsIndex:
    """The robots table by origin: the one ``(body, status)`` row that governs each origin.

    Build it with :meth:`from_arrow` (or :meth:`add` row by row). Bodies are kept as bytes:
    the index holds the whole robots table in memory (URLs are streamed, robots files are
    not); for more sites than fit, use the Spark engine, which never gathers them.
    """

    __slots__ = ("_dates", "_rows", "key", "skipped")

    def __init__(self, key: Key = "origin") -> None:
        if key not in KEYS:
            raise ValueError(f"key must be one of {', '.join(KEYS)}, not {key!r}")
        self.key: Key = key
        """``"origin"`` (default) or ``"host"``: what rows and URLs are matched by."""
        self._rows: Dict[str, RobotsRow] = {}
        self._dates: Dict[str, _RowKey] = {}
        self.skipped = 0
        """Rows ignored because their ``url`` has no robots.txt scope."""

    def add(self, url: Any, body: Union[bytes, str, None], status: Any = None,
            date: Any = None) -> bool:
        """Add one robots row; False (and counted in :attr:`skipped`) when ``url`` is unusable.

        When the origin already has a row, the newer ``date`` wins (see the module docstring).
        """
        origin = fast_origin(url) if self.key == "origin" else host_key(url)
        if origin is None:
            self.skipped += 1
            return False
        data = _as_bytes(body)
        code = _as_status(status)
        key = (_date_key(date), (data is not None, data or b""), -1 if code is None else code)
        old = self._dates.get(origin)
        if old is None or _newer(key, old):
            self._dates[origin] = key
            self._rows[origin] = (data, code)
        return True

    @classmethod
    def from_arrow(cls, data: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
                   key: Key = "origin") -> RobotsIndex:
        """An index of a robots table (columns ``url``, ``body``, optional ``status``, ``date``)."""
        index = cls(key)
        for batch in _batches(data):
            names = batch.schema.names
            for column in ("url", "body"):
                if column not in names:
                    raise InvalidArgument(f"the robots table has no {column!r} column "
                                     f"(columns: {', '.join(names)})")
            urls = batch.column("url").to_pylist()
            bodies = batch.column("body").to_pylist()
            size = len(urls)
            statuses = (batch.column("status").to_pylist() if "status" in names
                        else [None] * size)
            dates = batch.column("date").to_pylist() if "date" in names else [None] * size
            for url, body, status, date in zip(urls, bodies, statuses, dates):
                index.add(url, body, status, date)
        return index

    def get(self, origin: str) -> Optional[RobotsRow]:
        """The ``(body, status)`` row of ``origin``, or ``None``."""
        return self._rows.get(origin)

    def date(self, origin: str) -> Any:
        """The ``date`` of the row that governs ``origin`` (``None``: undated, or no row);
        what an evidence manifest reports as its fetch time."""
        found = self._dates.get(origin)
        return found[0][1] if found is not None and found[0][0] else None

    def __contains__(self, origin: object) -> bool:
        return origin in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def origins(self) -> Iterator[str]:
        """The origins that have a robots row."""
        return iter(self._rows)


def _newer(key: _RowKey, old: _RowKey) -> bool:
    try:
        return key > old
    except TypeError:  # dates of different types: keep the first
        return False


def _batches(data: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]]
             ) -> Iterator[pa.RecordBatch]:
    if isinstance(data, pa.RecordBatch):
        yield data
    elif isinstance(data, pa.Table):
        yield from data.to_batches()
    else:
        for item in data:
            if isinstance(item, pa.Table):
                yield from item.to_batches()
            else:
                yield item


def usage_of(robots: Optional[RobotsTxt], url: Any, agent: str,
             purposes: Sequence[str]) -> List[Optional[bool]]:
    """The answer per purpose (``True``/``False``/``None``) for ``url`` and ``agent``;
    all ``None`` without rules or for a URL the core rejects (never raises for data)."""
    if robots is None or not isinstance(url, str):
        return [None] * len(purposes)
    try:
        usage = robots.usage(url, agent=agent)
    except InvalidURL:
        return [None] * len(purposes)
    return [usage.allows(p) for p in purposes]  # type: ignore[arg-type]


def check_agents(agents: Union[str, Sequence[str]]) -> Tuple[str, ...]:
    names = (agents,) if isinstance(agents, str) else tuple(agents)
    if not names:
        raise InvalidArgument("no agent given: pass at least one product token")
    for name in names:
        agent_tokens(name)  # raises InvalidAgent, naming what to pass
    return names


class Judge:
    """Verdicts for streams of URLs against a :class:`RobotsIndex`, for one or more agents.

    Each origin is parsed once while it stays in the bounded LRU (``cache_size`` files);
    :attr:`parses` counts the parses. One instance per worker (thread or process): it is
    not thread-safe.

    >>> index = RobotsIndex()
    >>> index.add("https://example.com/robots.txt", b"User-agent: *\\nDisallow: /p")
    True
    >>> judge = Judge(index, ["ExampleBot"])
    >>> judge.verdict_batch(["https://example.com/p", "https://other.org/"]).to_pylist()[0]
    {'url': 'https://example.com/p', 'agent': 'ExampleBot', 'allowed': False, 'line': 2, \
'reason': 'longest-match', 'origin': 'https://example.com'}
    """

    def __init__(
        self,
        index: Union[RobotsIndex, Callable[[str], Optional[RobotsRow]]],
        agents: Union[str, Sequence[str]],
        *,
        missing: Missing = "null",
        cache_size: int = DEFAULT_CACHE_SIZE,
        mode: Mode = "google",
        policy: Policy = DEFAULT_POLICY,
        purposes: Sequence[str] = (),
    ) -> None:
        if missing not in _MISSING_VERDICT:
            raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
        self.agents = check_agents(agents)
        self.purposes = _check_purposes(purposes)
        """The purposes whose answers are added as columns (see :func:`verdict_schema`)."""
        self._lookup = index.get if isinstance(index, RobotsIndex) else index
        self._by_host = isinstance(index, RobotsIndex) and index.key == "host"
        self._missing = _MISSING_VERDICT[missing]
        self._cache: LRU[Any, RobotsTxt] = LRU(cache_size)
        self._mode: Mode = mode
        self._policy = policy
        self.parses = 0
        """How many robots rows were parsed so far (a measure of cache misses)."""

    def robots(self, origin: str) -> Optional[RobotsTxt]:
        """The parsed rules of ``origin`` (cached), or ``None`` when it has no robots row."""
        robots = self._cache.get(origin)
        if robots is None:
            row = self._lookup(origin)
            if row is None:
                return None
            robots = robots_for(row[0], row[1], mode=self._mode, policy=self._policy)
            self.parses += 1
            self._cache.put(origin, robots)
        return robots

    def rows(self, url: Any) -> Tuple[Optional[str], List[Row]]:
        """``(origin, [(allowed, line, reason) per agent])`` for one URL."""
        origin = fast_origin(url)
        if origin is None:
            return None, [(None, None, INVALID_URL)] * len(self.agents)
        robots = self.robots(host_key(url) if self._by_host else origin)  # type: ignore[arg-type]
        if robots is None:
            return origin, [(self._missing, None, NO_ROBOTS)] * len(self.agents)
        return origin, [verdict_of(robots, url, agent) for agent in self.agents]

    def any_row(self, url: Any) -> Tuple[Optional[str], AnyRow]:
        """``(origin, (disallowed, agent, line, reason))`` for one URL: the any-agent answer
        (:func:`any_agent`) worked out directly, each distinct set of rules asked once."""
        origin = fast_origin(url)
        if origin is None:
            return None, (None, None, None, INVALID_URL)
        robots = self.robots(host_key(url) if self._by_host else origin)  # type: ignore[arg-type]
        if robots is None:
            missing = self._missing
            if missing is False:
                return origin, (True, self.agents[0], None, NO_ROBOTS)
            return origin, ((None if missing is None else False), None, None,
                            NO_ROBOTS if missing is None else "allowed")
        return origin, any_verdict(robots, url, self.agents)

    def any_batch(self, urls: Union[pa.Array, pa.ChunkedArray, Sequence[Any]]
                  ) -> pa.RecordBatch:
        """One any-agent row per URL (:data:`ANY_AGENT_SCHEMA`)."""
        values = urls.to_pylist() if isinstance(urls, (pa.Array, pa.ChunkedArray)) else urls
        out: Dict[str, List[Any]] = {name: [] for name in ANY_AGENT_SCHEMA.names}
        for url in values:
            origin, (disallowed, agent, line, reason) = self.any_row(url)
            out["url"].append(url if isinstance(url, str) or url is None else str(url))
            out["disallowed"].append(disallowed)
            out["agent"].append(agent)
            out["line"].append(line)
            out["reason"].append(reason)
            out["origin"].append(origin)
        return pa.RecordBatch.from_pydict(out, schema=ANY_AGENT_SCHEMA)

    def verdict_batch(self, urls: Union[pa.Array, pa.ChunkedArray, Sequence[Any]]
                      ) -> pa.RecordBatch:
        """One output row per URL and agent (URL-major, agents in the order given)."""
        values = urls.to_pylist() if isinstance(urls, (pa.Array, pa.ChunkedArray)) else urls
        purposes = self.purposes
        builder = _Columns(purposes)
        agents = self.agents
        for url in values:
            origin, found = self.rows(url)
            robots = self.robots(origin) if purposes and origin is not None else None
            for agent, (allowed, line, reason) in zip(agents, found):
                builder.add(url, agent, allowed, line, reason, origin)
                if purposes:
                    builder.add_usage(usage_of(robots, url, agent, purposes))
        return builder.batch()

    def verdicts(self, urls: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
                 column: str = "url") -> Iterator[pa.RecordBatch]:
        """Stream: one verdict batch per input batch (memory stays flat)."""
        for batch in _batches(urls):
            if column not in batch.schema.names:
                raise InvalidArgument(f"the URL table has no {column!r} column "
                                 f"(columns: {', '.join(batch.schema.names)})")
            yield self.verdict_batch(batch.column(column))


class _Columns:
    """Column builders of :data:`VERDICT_SCHEMA` (plain lists: the fastest for pyarrow)."""

    __slots__ = ("agent", "allowed", "line", "origin", "purposes", "reason", "url", "usage")

    def __init__(self, purposes: Sequence[str] = ()) -> None:
        self.purposes = tuple(purposes)
        self.usage: List[List[Optional[bool]]] = [[] for _ in self.purposes]
        self.url: List[Any] = []
        self.agent: List[str] = []
        self.allowed: List[Optional[bool]] = []
        self.line: List[Optional[int]] = []
        self.reason: List[str] = []
        self.origin: List[Optional[str]] = []

    def add(self, url: Any, agent: str, allowed: Optional[bool], line: Optional[int],
            reason: str, origin: Optional[str]) -> None:
        self.url.append(url if isinstance(url, str) or url is None else str(url))
        self.agent.append(agent)
        self.allowed.append(allowed)
        self.line.append(line)
        self.reason.append(reason)
        self.origin.append(origin)

    def add_usage(self, answers: Sequence[Optional[bool]]) -> None:
        for column, answer in zip(self.usage, answers):
            column.append(answer)

    def __len__(self) -> int:
        return len(self.url)

    def batch(self) -> pa.RecordBatch:
        return pa.RecordBatch.from_arrays(
            [pa.array(self.url, pa.string()), pa.array(self.agent, pa.string()),
             pa.array(self.allowed, pa.bool_()), pa.array(self.line, pa.int32()),
             pa.array(self.reason, pa.string()), pa.array(self.origin, pa.string()),
             *(pa.array(column, pa.bool_()) for column in self.usage)],
            schema=verdict_schema(self.purposes))


def verdicts(
    robots: Union[pa.Table, Iterable[pa.RecordBatch], RobotsIndex],
    urls: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    purposes: Sequence[str] = (),
) -> Iterator[pa.RecordBatch]:
    """Verdict batches (:data:`VERDICT_SCHEMA`) for every URL of ``urls`` and every agent
    (with one column per purpose of ``purposes``, see :func:`verdict_schema`).

    ``robots`` is a robots table (or a :class:`RobotsIndex` built from one); ``urls`` a
    table or a stream of record batches with a ``url`` column, processed batch by batch.

    >>> import pyarrow as pa
    >>> robots = pa.table({"url": ["https://example.com/robots.txt"],
    ...                    "body": [b"User-agent: GPTBot\\nDisallow: /"]})
    >>> urls = pa.table({"url": ["https://example.com/a", "https://example.com/b"]})
    >>> [row["allowed"] for b in verdicts(robots, urls, ["GPTBot", "CCBot"])
    ...  for row in b.to_pylist()]
    [False, True, False, True]
    """
    index = robots if isinstance(robots, RobotsIndex) else RobotsIndex.from_arrow(robots)
    judge = Judge(index, agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy, purposes=purposes)
    return judge.verdicts(urls)


class BodyCache:
    """Parsed files keyed by ``(body, status)``: for functions that receive the body on every
    row (SQL and DataFrame functions after a user's own join). Bounded LRU, one per worker.
    """

    __slots__ = ("_cache", "_last", "_mode", "_policy", "parses")

    def __init__(self, size: int = DEFAULT_CACHE_SIZE, *, mode: Mode = "google",
                 policy: Policy = DEFAULT_POLICY) -> None:
        self._cache: LRU[Any, RobotsTxt] = LRU(size)
        self._mode: Mode = mode
        self._policy = policy
        self._last: Optional[Tuple[Any, RobotsTxt]] = None
        self.parses = 0
        """How many bodies were parsed so far."""

    def get(self, body: Union[bytes, str, None], status: Any = None) -> RobotsTxt:
        """The rules of a ``(body, status)`` pair, parsed once while cached."""
        key = (body, _as_status(status))
        last = self._last
        if last is not None and last[0] == key:  # rows of one site usually come together
            return last[1]
        robots = self._cache.get(key)
        if robots is None:
            robots = robots_for(body, key[1], mode=self._mode, policy=self._policy)
            self.parses += 1
            self._cache.put(key, robots)
        self._last = (key, robots)
        return robots

    def rows(self, bodies: Sequence[Any], statuses: Optional[Sequence[Any]],
             urls: Sequence[Any], agents: Sequence[Any]) -> List[Row]:
        """``(allowed, line, reason)`` per row of four equally long columns.

        A row with a ``null`` body and no 4xx/5xx status, a ``null`` URL or a ``null`` agent
        gives ``(None, None, reason)``; an invalid agent raises
        :class:`~robotsrules.InvalidAgent` (it is the query's mistake, not data).
        """
        out: List[Row] = []
        checked: Dict[str, bool] = {}
        if statuses is None:
            statuses = [None] * len(urls)
        for body, status, url, agent in zip(bodies, statuses, urls, agents):
            if agent is None or url is None:
                out.append((None, None, INVALID_URL if url is None else "no-agent"))
                continue
            code = _as_status(status)
            if body is None and (code is None or outcome_for_status(code, self._policy) == OK):
                out.append((None, None, NO_ROBOTS))
                continue
            if agent not in checked:
                agent_tokens(agent)
                checked[agent] = True
            out.append(verdict_of(self.get(body, code), url, agent))
        return out

    def stances(self, bodies: Sequence[Any], statuses: Optional[Sequence[Any]],
                agents: Sequence[Any]) -> List[Optional[StanceRow]]:
        """The stance row (:func:`stance_row`) per row of three equally long columns;
        ``None`` for a ``null`` agent, or a ``null`` body with no 4xx/5xx status (nothing
        known). An invalid agent raises :class:`~robotsrules.InvalidAgent`; legacy mode
        raises :class:`~robotsrules.InvalidArgument` (the query's mistakes)."""
        check_stance_mode(self._mode)
        out: List[Optional[StanceRow]] = []
        checked: Dict[str, bool] = {}
        # Keyed by identity; the value keeps both objects alive, so no id is reused.
        seen: Dict[Tuple[int, int], Tuple[Any, StanceRow]] = {}
        if statuses is None:
            statuses = [None] * len(agents)
        for body, status, agent in zip(bodies, statuses, agents):
            code = _as_status(status)
            if agent is None or (body is None and (
                    code is None or outcome_for_status(code, self._policy) == OK)):
                out.append(None)
                continue
            if agent not in checked:
                agent_tokens(agent)
                checked[agent] = True
            robots = self.get(body, code)
            rules = robots.for_agent(agent)
            found = seen.get((id(robots), id(rules)))
            if found is None:
                found = seen[(id(robots), id(rules))] = ((robots, rules),
                                                         stance_row(robots, agent))
            out.append(found[1])
        return out


    def usage(self, bodies: Sequence[Any], urls: Sequence[Any], agents: Sequence[Any],
              purposes: Sequence[Any]) -> List[Optional[bool]]:
        """The answer for ``purpose`` per row of four equally long columns (a status-less
        body: the body decides). ``None`` for a ``null`` in any column, nothing stated, or a
        URL the agent may not fetch; an invalid agent or purpose raises (the query's
        mistake)."""
        out: List[Optional[bool]] = []
        checked: Dict[Any, bool] = {}
        for body, url, agent, purpose in zip(bodies, urls, agents, purposes):
            if body is None or url is None or agent is None or purpose is None:
                out.append(None)
                continue
            if (agent, purpose) not in checked:
                agent_tokens(agent)
                check_purpose(purpose)
                checked[(agent, purpose)] = True
            out.append(usage_of(self.get(body), url, agent, (purpose,))[0])
        return out


_KIND_ROBOTS, _KIND_URL = 0, 1
SORTED_COLUMNS = ("origin", "kind", "url", "body", "status")
"""Columns of the stream :func:`judge_sorted` reads."""


def judge_sorted(
    batches: Iterable[pa.RecordBatch],
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    purposes: Sequence[str] = (),
) -> Iterator[pa.RecordBatch]:
    """Verdicts from one stream holding robots rows and URL rows, sorted by origin
    (with one column per purpose of ``purposes``, see :func:`verdict_schema`).

    The distributed plan (see :mod:`robotsrules.spark`): both tables are unioned with
    columns ``origin``, ``kind`` (0 robots row, 1 URL), ``url``, ``body``, ``status``,
    partitioned by ``origin`` and sorted by ``origin``, ``kind``, then the robots rows best
    first (newest ``date``, larger body, larger status). So each origin's robots row comes
    first and is parsed once; its URLs follow; memory holds one parsed file at a time and
    the stream never gathers a site. URL rows whose ``origin`` is ``null`` are invalid.
    """
    names = check_agents(agents)
    wanted = _check_purposes(purposes)
    if missing not in _MISSING_VERDICT:
        raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    unknown = _MISSING_VERDICT[missing]
    current: Optional[str] = None
    robots: Optional[RobotsTxt] = None
    for batch in batches:
        columns = {name: batch.column(name).to_pylist() for name in SORTED_COLUMNS}
        out = _Columns(wanted)
        for origin, kind, url, body, status in zip(*(columns[n] for n in SORTED_COLUMNS)):
            if origin != current:
                current, robots = origin, None
                first = True
            else:
                first = False
            if kind == _KIND_ROBOTS:
                if first:  # the best row of this origin; later ones lost to it
                    robots = robots_for(body, _as_status(status), mode=mode, policy=policy)
                continue
            if origin is None:
                for agent in names:
                    out.add(url, agent, None, None, INVALID_URL, None)
                    out.add_usage([None] * len(wanted))
            elif robots is None:
                for agent in names:
                    out.add(url, agent, unknown, None, NO_ROBOTS, origin)
                    out.add_usage([None] * len(wanted))
            else:
                for agent in names:
                    allowed, line, reason = verdict_of(robots, url, agent)
                    out.add(url, agent, allowed, line, reason, origin)
                    if wanted:
                        out.add_usage(usage_of(robots, url, agent, wanted))
        if len(out):
            yield out.batch()


def any_agent(
    batches: Iterable[pa.RecordBatch], agents: Union[str, Sequence[str]]
) -> Iterator[pa.RecordBatch]:
    """One row per URL (:data:`ANY_AGENT_SCHEMA`) from verdict batches that hold, for each
    URL, one row per agent in the order of ``agents``, one after the other (what
    :class:`Judge`, :func:`verdicts` and :func:`judge_sorted` write). A URL's rows may be
    split across batches; rows out of that order raise ``ValueError``.

    >>> import pyarrow as pa
    >>> robots = pa.table({"url": ["https://example.com/robots.txt"],
    ...                    "body": [b"User-agent: CCBot\\nDisallow: /a"]})
    >>> urls = pa.table({"url": ["https://example.com/a", "https://example.com/b"]})
    >>> agents = ["GPTBot", "CCBot"]
    >>> [(r["disallowed"], r["agent"], r["line"]) for b in any_agent(
    ...     verdicts(robots, urls, agents), agents) for r in b.to_pylist()]
    [(True, 'CCBot', 2), (False, None, None)]
    """
    names = check_agents(agents)
    size = len(names)
    carry: List[Tuple[Any, ...]] = []
    for batch in batches:
        columns = [batch.column(n).to_pylist()
                   for n in ("url", "agent", "allowed", "line", "reason", "origin")]
        rows = carry + list(zip(*columns))
        whole = len(rows) - len(rows) % size
        carry = rows[whole:]
        out: Dict[str, List[Any]] = {name: [] for name in ANY_AGENT_SCHEMA.names}
        for start in range(0, whole, size):
            _any_row(rows[start:start + size], names, out)
        if out["url"]:
            yield pa.RecordBatch.from_pydict(out, schema=ANY_AGENT_SCHEMA)
    if carry:
        raise ValueError(f"{len(carry)} verdict rows left over: not one row per agent per URL")


AnyRow = Tuple[Optional[bool], Optional[str], Optional[int], str]
"""(disallowed, first disallowed agent, its line, its reason): one any-agent answer."""


def any_verdict(robots: RobotsTxt, url: Any, agents: Sequence[str]) -> AnyRow:
    """The any-agent answer for ``url`` under ``robots`` (what :func:`any_agent` folds from
    the per-agent verdicts), asking each distinct set of compiled rules once: agents that no
    group names share the ``*`` rules, so 15 AI tokens often cost one or two checks."""
    if not isinstance(url, str):
        return None, None, None, INVALID_URL
    seen = set()
    for agent in agents:
        rules = robots.for_agent(agent)
        if id(rules) in seen:
            continue
        seen.add(id(rules))
        try:
            if rules.allowed(url):
                continue
            verdict = rules.explain(url)
        except InvalidURL:
            return None, None, None, INVALID_URL
        rule = verdict.rule
        return True, agent, (None if rule is None else rule.line), verdict.reason
    return False, None, None, "allowed"


def any_agent_verdicts(
    robots: Union[pa.Table, Iterable[pa.RecordBatch], RobotsIndex],
    urls: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
    agents: Union[str, Sequence[str]],
    *,
    column: str = "url",
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """Any-agent batches (:data:`ANY_AGENT_SCHEMA`), one row per URL, worked out directly
    (the same rows as ``any_agent(verdicts(...), agents)``, faster)."""
    index = robots if isinstance(robots, RobotsIndex) else RobotsIndex.from_arrow(robots)
    judge = Judge(index, agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy)
    for batch in _batches(urls):
        if column not in batch.schema.names:
            raise InvalidArgument(f"the URL table has no {column!r} column "
                             f"(columns: {', '.join(batch.schema.names)})")
        yield judge.any_batch(batch.column(column))


def _any_row(group: Sequence[Tuple[Any, ...]], names: Tuple[str, ...],
             out: Dict[str, List[Any]]) -> None:
    url, origin = group[0][0], group[0][5]
    unknown: Optional[str] = None
    found: Optional[Tuple[Any, ...]] = None
    for name, row in zip(names, group):
        if row[1] != name or row[0] != url:
            raise ValueError(f"verdict rows out of order at {row[0]!r} / {row[1]!r}: expected "
                             f"{url!r} / {name!r} (one row per agent per URL, agents in order)")
        if row[2] is False:
            found = row
            break
        if row[2] is None and unknown is None:
            unknown = row[4]
    out["url"].append(url)
    out["origin"].append(origin)
    if found is not None:
        out["disallowed"].append(True)
        out["agent"].append(found[1])
        out["line"].append(found[3])
        out["reason"].append(found[4])
    else:
        out["disallowed"].append(None if unknown is not None else False)
        out["agent"].append(None)
        out["line"].append(None)
        out["reason"].append(unknown if unknown is not None else "allowed")


# -- the file in force at crawl time (issue 17) ----------------------------------------------

_EPOCH = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)


_EARLIEST = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)


def _as_time(value: Any) -> Optional[datetime.datetime]:
    """A date, datetime (naive = UTC) or ISO 8601 text as an aware UTC datetime; else None."""
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=datetime.timezone.utc)
        try:
            return value.astimezone(datetime.timezone.utc)
        except OverflowError:  # "0001-01-01T00:00+05:00": before the calendar's start in UTC
            return None
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.timezone.utc)
    return None


Capture = Tuple[int, datetime.datetime, RobotsRow]
"""(capture id, date (undated: the earliest possible), (body, status))."""


class RobotsHistory:
    """Every robots.txt capture of every site, for judging a URL by the file in force when
    the page was crawled (several Common Crawl robots.txt dumps, for instance).

    :meth:`as_of` gives the newest capture dated at or before a date (captures without a
    date count as older than any dated one, so they are in force before the first dated
    capture); :meth:`window` the captures in force at some time in ``[start, end]``. Sites
    are keyed like :class:`RobotsIndex` (``key="origin"`` or ``"host"``).
    """

    __slots__ = ("_captures", "_count", "key", "skipped")

    def __init__(self, key: Key = "origin") -> None:
        if key not in KEYS:
            raise ValueError(f"key must be one of {', '.join(KEYS)}, not {key!r}")
        self.key: Key = key
        self._captures: Dict[str, List[Capture]] = {}
        self._count = 0
        self.skipped = 0
        """Rows ignored because their ``url`` has no robots.txt scope (or a bad date)."""

    def add(self, url: Any, body: Union[bytes, str, None], status: Any = None,
            date: Any = None) -> bool:
        """Add one capture; False (counted in :attr:`skipped`) when unusable."""
        site = fast_origin(url) if self.key == "origin" else host_key(url)
        when = _EPOCH if date is None else _as_time(date)
        if site is None or when is None:
            self.skipped += 1
            return False
        self._count += 1
        self._captures.setdefault(site, []).append(
            (self._count, when, (_as_bytes(body), _as_status(status))))
        return True

    @classmethod
    def from_arrow(cls, data: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
                   key: Key = "origin") -> RobotsHistory:
        """A history of a robots table (columns ``url``, ``body``, optional ``status``,
        ``date``): every row kept."""
        history = cls(key)
        for batch in _batches(data):
            names = batch.schema.names
            size = batch.num_rows
            columns = [batch.column(n).to_pylist() if n in names else [None] * size
                       for n in ("url", "body", "status", "date")]
            for url, body, status, date in zip(*columns):
                history.add(url, body, status, date)
        for captures in history._captures.values():
            # Oldest first; equal dates: the row the index would prefer comes last.
            captures.sort(key=lambda c: (c[1], c[2][0] is not None, c[2][0] or b"",
                                         -1 if c[2][1] is None else c[2][1]))
        return history

    def site(self, url: Any) -> Optional[str]:
        """The key of ``url`` (origin or host), or None when it has no robots.txt scope."""
        return fast_origin(url) if self.key == "origin" else host_key(url)

    def as_of(self, site: str, date: Any) -> Optional[Capture]:
        """The capture of ``site`` in force at ``date``: the newest not after it."""
        when = _as_time(date)
        captures = self._captures.get(site)
        if not captures or when is None:
            return None
        found = None
        for capture in captures:  # few captures per site: a scan is fine
            if capture[1] > when:
                break
            found = capture
        return found

    def window(self, site: str, start: Any, end: Any) -> List[Capture]:
        """The captures in force at some time in ``[start, end]``, newest first."""
        first = self.as_of(site, start)
        low, high = _as_time(start), _as_time(end)
        if low is None or high is None:
            return []
        found = [c for c in self._captures.get(site, ()) if low < c[1] <= high]
        if first is not None:
            found.insert(0, first)
        return found[::-1]

    def __len__(self) -> int:
        return len(self._captures)


def as_of_verdicts(
    history: RobotsHistory,
    urls: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]],
    agents: Union[str, Sequence[str]],
    date_column: str,
    *,
    strictest: Optional[datetime.timedelta] = None,
    column: str = "url",
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """Verdict batches (:data:`VERDICT_SCHEMA`) judging each URL by the robots.txt in force
    at the date in its ``date_column``: the newest capture not after it. With
    ``strictest`` (a window length), by the most restrictive capture in force at some time
    in ``[date - strictest, date]``: the newest capture of the window that disallows, else
    the one in force at the date. No capture at or before the date: reason ``no-robots``
    (``missing`` decides the verdict); no usable date: the same."""
    names = check_agents(agents)
    if missing not in _MISSING_VERDICT:
        raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    if strictest is not None and (not isinstance(strictest, datetime.timedelta)
                                  or strictest < datetime.timedelta(0)):
        raise InvalidArgument(f"strictest must be a timedelta >= 0, not {strictest!r}")
    unknown = _MISSING_VERDICT[missing]
    cache: LRU[Any, RobotsTxt] = LRU(cache_size)

    def rules(capture: Capture) -> RobotsTxt:
        robots = cache.get(capture[0])
        if robots is None:
            robots = robots_for(capture[2][0], capture[2][1], mode=mode, policy=policy)
            cache.put(capture[0], robots)
        return robots

    for batch in _batches(urls):
        for needed in (column, date_column):
            if needed not in batch.schema.names:
                raise InvalidArgument(f"the URL table has no {needed!r} column "
                                 f"(columns: {', '.join(batch.schema.names)})")
        out = _Columns()
        for url, date in zip(batch.column(column).to_pylist(),
                             batch.column(date_column).to_pylist()):
            origin = fast_origin(url)
            site = history.site(url) if origin is not None else None
            when = _as_time(date)
            current = None if site is None or when is None else history.as_of(site, when)
            for agent in names:
                if origin is None:
                    out.add(url, agent, None, None, INVALID_URL, None)
                    continue
                if current is None:
                    out.add(url, agent, unknown, None, NO_ROBOTS, origin)
                    continue
                found = verdict_of(rules(current), url, agent)
                if strictest is not None and found[0] is not False:
                    assert site is not None and when is not None
                    try:
                        start = when - strictest
                    except OverflowError:  # a window reaching before year 1 (any date)
                        start = _EARLIEST
                    for capture in history.window(site, start, when):
                        other = verdict_of(rules(capture), url, agent)
                        if other[0] is False:
                            found = other
                            break
                out.add(url, agent, found[0], found[1], found[2], origin)
        if len(out):
            yield out.batch()


def judge_sorted_any(
    batches: Iterable[pa.RecordBatch],
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """:func:`judge_sorted` with one any-agent row per URL (:data:`ANY_AGENT_SCHEMA`)."""
    names = check_agents(agents)
    if missing not in _MISSING_VERDICT:
        raise InvalidArgument(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    unknown = _MISSING_VERDICT[missing]
    none_row: AnyRow = ((True, names[0], None, NO_ROBOTS) if unknown is False else
                        ((None if unknown is None else False), None, None,
                         NO_ROBOTS if unknown is None else "allowed"))
    current: Optional[str] = None
    robots: Optional[RobotsTxt] = None
    for batch in batches:
        columns = {name: batch.column(name).to_pylist() for name in SORTED_COLUMNS}
        out: Dict[str, List[Any]] = {name: [] for name in ANY_AGENT_SCHEMA.names}
        for origin, kind, url, body, status in zip(*(columns[n] for n in SORTED_COLUMNS)):
            first = origin != current
            if first:
                current, robots = origin, None
            if kind == _KIND_ROBOTS:
                if first:
                    robots = robots_for(body, _as_status(status), mode=mode, policy=policy)
                continue
            if origin is None:
                row: AnyRow = (None, None, None, INVALID_URL)
            elif robots is None:
                row = none_row
            else:
                row = any_verdict(robots, url, names)
            out["url"].append(url)
            out["disallowed"].append(row[0])
            out["agent"].append(row[1])
            out["line"].append(row[2])
            out["reason"].append(row[3])
            out["origin"].append(origin)
        if out["url"]:
            yield pa.RecordBatch.from_pydict(out, schema=ANY_AGENT_SCHEMA)


# -- stances in bulk: one row per site and agent, no URL table (issue 17) ----------------------

STANCE_SCHEMA = pa.schema([
    pa.field("site", pa.string()),
    pa.field("agent", pa.string()),
    pa.field("kind", pa.string()),
    pa.field("reason", pa.string()),
    pa.field("scope", pa.string()),
    pa.field("lines", pa.list_(pa.int32())),
    pa.field("disallowed", pa.list_(pa.string())),
    pa.field("allowed", pa.list_(pa.string())),
    pa.field("complete", pa.bool_()),
])
"""The columns of a stance table (:func:`stances`): one row per site and agent.

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
==========  ============  ======================================================================
"""

TOO_COMPLEX = "too-complex"
"""Reason of a stance row whose rules are too complex to settle (``kind`` is null)."""

StanceRow = Tuple[Optional[str], str, Optional[str], List[int], List[str], List[str], bool]
"""(kind, reason, scope, lines, disallowed, allowed, complete): one stance answer."""


def stance_row(robots: RobotsTxt, agent: str) -> StanceRow:
    """The stance of ``agent`` under ``robots`` (from :func:`robots_for`) as a row of
    :data:`STANCE_SCHEMA` (without site and agent); never raises for data."""
    from ._stance import StanceTooComplex, stance_of

    reason = robots.synthetic or "rules"
    rules = robots.for_agent(agent)
    try:
        found = stance_of(rules)
    except StanceTooComplex:
        return None, TOO_COMPLEX, rules.scope, [], [], [], False
    lines = [] if robots.synthetic else [rule.line for rule in found.lines]
    return (found.kind, reason, found.scope, lines, list(found.disallowed),
            list(found.allowed), found.complete)


def check_stance_mode(mode: Mode) -> None:
    if mode == "legacy":
        raise InvalidArgument("stances need mode 'google' or 'rfc' (legacy mode is "
                              "first-match)")


class _StanceColumns:
    """Column builders of :data:`STANCE_SCHEMA`."""

    __slots__ = ("columns",)

    def __init__(self) -> None:
        self.columns: List[List[Any]] = [[] for _ in STANCE_SCHEMA.names]

    def add_site(self, site: str, robots: RobotsTxt, agents: Sequence[str]) -> None:
        """One row per agent; agents that share a group share one exploration."""
        seen: Dict[int, Tuple[Any, StanceRow]] = {}  # the value keeps the rules alive
        for agent in agents:
            rules = robots.for_agent(agent)
            found = seen.get(id(rules))
            if found is None:
                found = seen[id(rules)] = (rules, stance_row(robots, agent))
            row = found[1]
            for column, value in zip(self.columns, (site, agent, *row)):
                column.append(value)

    def __len__(self) -> int:
        return len(self.columns[0])

    def batch(self) -> pa.RecordBatch:
        batch = pa.RecordBatch.from_arrays(
            [pa.array(column, field.type) for column, field in zip(self.columns, STANCE_SCHEMA)],
            schema=STANCE_SCHEMA)
        self.columns = [[] for _ in STANCE_SCHEMA.names]
        return batch


def stances(
    robots: Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch], RobotsIndex],
    agents: Union[str, Sequence[str]],
    *,
    key: Key = "origin",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    batch_size: int = 1024,
) -> Iterator[pa.RecordBatch]:
    """Stance batches (:data:`STANCE_SCHEMA`): for every site of the robots table and every
    agent, whether the site disallows all, none or some of its paths, from the rules alone
    (:meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`, row for row).

    ``robots`` is a robots table (columns ``url``, ``body``, optional ``status`` and
    ``date``; the row that governs each site is picked as for :func:`verdicts`) or a
    :class:`RobotsIndex` (whose own key then applies). Each body is parsed once for all
    agents; the status, when there is one, applies the fetch policy first (4xx: ``none``,
    429/5xx: ``all``; see :data:`STANCE_SCHEMA`). Sites come in the index's order.

    >>> import pyarrow as pa
    >>> robots = pa.table({"url": ["https://a.example/robots.txt", "https://b.example/"],
    ...                    "body": [b"User-agent: GPTBot\\nDisallow: /", b""],
    ...                    "status": [200, 503]})
    >>> [(r["site"], r["agent"], r["kind"], r["reason"])
    ...  for b in stances(robots, ["GPTBot", "CCBot"]) for r in b.to_pylist()]
    [('https://a.example', 'GPTBot', 'all', 'rules'), ('https://a.example', 'CCBot', 'none', \
'rules'), ('https://b.example', 'GPTBot', 'all', 'disallow-all'), ('https://b.example', \
'CCBot', 'all', 'disallow-all')]
    """
    names = check_agents(agents)
    check_stance_mode(mode)
    index = robots if isinstance(robots, RobotsIndex) else RobotsIndex.from_arrow(robots, key)
    out = _StanceColumns()
    for site in index.origins():
        row = index.get(site)
        assert row is not None
        out.add_site(site, robots_for(row[0], row[1], mode=mode, policy=policy), names)
        if len(out) >= batch_size:
            yield out.batch()
    if len(out):
        yield out.batch()


STANCE_SORTED_COLUMNS = ("origin", "body", "status")
"""Columns of the stream :func:`stances_sorted` reads."""


def stances_sorted(
    batches: Iterable[pa.RecordBatch],
    agents: Union[str, Sequence[str]],
    *,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """Stance batches from robots rows sorted by ``origin``, each site's best row first
    (the order :func:`judge_sorted` expects; columns :data:`STANCE_SORTED_COLUMNS`): the
    distributed form of :func:`stances` (see :mod:`robotsrules.spark`). Rows with a
    ``null`` origin are skipped."""
    names = check_agents(agents)
    check_stance_mode(mode)
    current: Optional[str] = None
    for batch in batches:
        out = _StanceColumns()
        columns = [batch.column(n).to_pylist() for n in STANCE_SORTED_COLUMNS]
        for origin, body, status in zip(*columns):
            if origin is None or origin == current:
                continue
            current = origin
            out.add_site(origin, robots_for(body, _as_status(status), mode=mode,
                                            policy=policy), names)
        if len(out):
            yield out.batch()
