"""The judging step: URLs against the robots rows of their sites, one output row per URL and
agent (or per URL, for the any-agent answer)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, Optional, Union

import pyarrow as pa

from .._tables._purposes import check_purposes
from ..errors import InvalidArgument
from ..policy import Policy
from ..robotstxt import Mode, RobotsTxt
from ._any import AnyColumns, AnyRow, any_verdict, missing_any
from ._index import RobotsIndex
from ._rows import (
    DEFAULT_CACHE_SIZE,
    DEFAULT_POLICY,
    Data,
    ParsedCache,
    RobotsRow,
    Row,
    as_status,
    batches,
    check_agents,
    fast_origin,
    host_key,
    robots_for,
    usage_of,
    verdict_of,
)
from ._schemas import (
    INVALID_URL,
    NO_ROBOTS,
    SORTED_COLUMNS,
    Missing,
    missing_verdict,
    verdict_schema,
)

__all__ = ["KIND_ROBOTS", "KIND_URL", "Judge", "VerdictColumns", "any_agent_verdicts",
           "judge_sorted", "judge_sorted_any", "url_column", "verdicts"]

KIND_ROBOTS, KIND_URL = 0, 1
"""The ``kind`` of a row of :func:`judge_sorted`'s stream: a robots row, a URL row."""


def url_column(batch: pa.RecordBatch, column: str = "url") -> pa.Array:
    """The URL column of a batch; a table without it raises
    :class:`~robotsrules.InvalidArgument`, naming its columns."""
    if column not in batch.schema.names:
        raise InvalidArgument(f"the URL table has no {column!r} column "
                              f"(columns: {', '.join(batch.schema.names)})")
    return batch.column(column)


class Judge:
    """Verdicts for streams of URLs against a :class:`~robotsrules.bulk.RobotsIndex`, for
    one or more agents.

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
        self._missing = missing_verdict(missing)
        self.agents = check_agents(agents)
        self.purposes = check_purposes(purposes)
        """The purposes whose answers are added as columns (see
        :func:`~robotsrules.bulk.verdict_schema`)."""
        self._lookup = index.get if isinstance(index, RobotsIndex) else index
        self._by_host = isinstance(index, RobotsIndex) and index.key == "host"
        self._parsed = ParsedCache(cache_size, mode=mode, policy=policy)
        self._none_any = missing_any(self._missing, self.agents)

    @property
    def parses(self) -> int:
        """How many robots rows were parsed so far (a measure of cache misses)."""
        return self._parsed.parses

    def robots(self, origin: str) -> Optional[RobotsTxt]:
        """The parsed rules of ``origin`` (cached), or ``None`` when it has no robots row."""
        row = self._lookup(origin)
        return None if row is None else self._parsed.rules(origin, row)

    def _site(self, url: Any, origin: str) -> Optional[RobotsTxt]:
        return self.robots(host_key(url) if self._by_host else origin)  # type: ignore[arg-type]

    def rows(self, url: Any) -> tuple[Optional[str], list[Row]]:
        """``(origin, [(allowed, line, reason) per agent])`` for one URL."""
        origin = fast_origin(url)
        if origin is None:
            return None, [(None, None, INVALID_URL)] * len(self.agents)
        robots = self._site(url, origin)
        if robots is None:
            return origin, [(self._missing, None, NO_ROBOTS)] * len(self.agents)
        return origin, [verdict_of(robots, url, agent) for agent in self.agents]

    def any_row(self, url: Any) -> tuple[Optional[str], AnyRow]:
        """``(origin, (disallowed, agent, line, reason))`` for one URL: the any-agent answer
        (:func:`~robotsrules.bulk.any_agent`) worked out directly, each distinct set of
        rules asked once."""
        origin = fast_origin(url)
        if origin is None:
            return None, (None, None, None, INVALID_URL)
        robots = self._site(url, origin)
        if robots is None:
            return origin, self._none_any
        return origin, any_verdict(robots, url, self.agents)

    def any_batch(self, urls: Union[pa.Array, pa.ChunkedArray, Sequence[Any]]
                  ) -> pa.RecordBatch:
        """One any-agent row per URL (:data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`)."""
        values = urls.to_pylist() if isinstance(urls, (pa.Array, pa.ChunkedArray)) else urls
        out = AnyColumns()
        for url in values:
            origin, row = self.any_row(url)
            out.add(url, origin, row)
        return out.batch()

    def verdict_batch(self, urls: Union[pa.Array, pa.ChunkedArray, Sequence[Any]]
                      ) -> pa.RecordBatch:
        """One output row per URL and agent (URL-major, agents in the order given)."""
        values = urls.to_pylist() if isinstance(urls, (pa.Array, pa.ChunkedArray)) else urls
        purposes = self.purposes
        builder = VerdictColumns(purposes)
        agents = self.agents
        for url in values:
            origin, found = self.rows(url)
            robots = self._site(url, origin) if purposes and origin is not None else None
            for agent, (allowed, line, reason) in zip(agents, found):
                builder.add(url, agent, allowed, line, reason, origin)
                if purposes:
                    builder.add_usage(usage_of(robots, url, agent, purposes))
        return builder.batch()

    def verdicts(self, urls: Data, column: str = "url") -> Iterator[pa.RecordBatch]:
        """Stream: one verdict batch per input batch (memory stays flat)."""
        for batch in batches(urls):
            yield self.verdict_batch(url_column(batch, column))


class VerdictColumns:
    """Column builders of :data:`~robotsrules.bulk.VERDICT_SCHEMA` (plain lists: the
    fastest for pyarrow), with one column per purpose."""

    __slots__ = ("agent", "allowed", "line", "origin", "purposes", "reason", "url", "usage")

    def __init__(self, purposes: Sequence[str] = ()) -> None:
        self.purposes = tuple(purposes)
        self.usage: list[list[Optional[bool]]] = [[] for _ in self.purposes]
        self.url: list[Any] = []
        self.agent: list[str] = []
        self.allowed: list[Optional[bool]] = []
        self.line: list[Optional[int]] = []
        self.reason: list[str] = []
        self.origin: list[Optional[str]] = []

    def add(self, url: Any, agent: str, allowed: Optional[bool], line: Optional[int],
            reason: str, origin: Optional[str]) -> None:
        """One verdict row (its purpose answers follow with :meth:`add_usage`)."""
        self.url.append(url if isinstance(url, str) or url is None else str(url))
        self.agent.append(agent)
        self.allowed.append(allowed)
        self.line.append(line)
        self.reason.append(reason)
        self.origin.append(origin)

    def add_usage(self, answers: Sequence[Optional[bool]]) -> None:
        """The purpose answers of the last row."""
        for column, answer in zip(self.usage, answers):
            column.append(answer)

    def __len__(self) -> int:
        return len(self.url)

    def batch(self) -> pa.RecordBatch:
        """The rows so far as one batch."""
        return pa.RecordBatch.from_arrays(
            [pa.array(self.url, pa.string()), pa.array(self.agent, pa.string()),
             pa.array(self.allowed, pa.bool_()), pa.array(self.line, pa.int32()),
             pa.array(self.reason, pa.string()), pa.array(self.origin, pa.string()),
             *(pa.array(column, pa.bool_()) for column in self.usage)],
            schema=verdict_schema(self.purposes))


def _index(robots: Union[Data, RobotsIndex]) -> RobotsIndex:
    return robots if isinstance(robots, RobotsIndex) else RobotsIndex.from_arrow(robots)


def verdicts(
    robots: Union[Data, RobotsIndex],
    urls: Data,
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    purposes: Sequence[str] = (),
) -> Iterator[pa.RecordBatch]:
    """Verdict batches (:data:`~robotsrules.bulk.VERDICT_SCHEMA`) for every URL of ``urls``
    and every agent (with one column per purpose of ``purposes``, see
    :func:`~robotsrules.bulk.verdict_schema`).

    ``robots`` is a robots table (or a :class:`~robotsrules.bulk.RobotsIndex` built from
    one); ``urls`` a table or a stream of record batches with a ``url`` column, processed
    batch by batch.

    >>> import pyarrow as pa
    >>> robots = pa.table({"url": ["https://example.com/robots.txt"],
    ...                    "body": [b"User-agent: GPTBot\\nDisallow: /"]})
    >>> urls = pa.table({"url": ["https://example.com/a", "https://example.com/b"]})
    >>> [row["allowed"] for b in verdicts(robots, urls, ["GPTBot", "CCBot"])
    ...  for row in b.to_pylist()]
    [False, True, False, True]
    """
    judge = Judge(_index(robots), agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy, purposes=purposes)
    return judge.verdicts(urls)


def any_agent_verdicts(
    robots: Union[Data, RobotsIndex],
    urls: Data,
    agents: Union[str, Sequence[str]],
    *,
    column: str = "url",
    missing: Missing = "null",
    cache_size: int = DEFAULT_CACHE_SIZE,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """Any-agent batches (:data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`), one row per URL,
    worked out directly (the same rows as ``any_agent(verdicts(...), agents)``, faster)."""
    judge = Judge(_index(robots), agents, missing=missing, cache_size=cache_size, mode=mode,
                  policy=policy)
    for batch in batches(urls):
        yield judge.any_batch(url_column(batch, column))


def _sorted_sites(batches: Iterable[pa.RecordBatch], mode: Mode, policy: Policy
                  ) -> Iterator[tuple[tuple[Any, ...], Optional[RobotsTxt]]]:
    """The URL rows of a sorted stream (see :func:`judge_sorted`), each with the parsed
    rules of its origin (``None``: no robots row) and the end of each input batch
    (``((), None)``)."""
    current: Optional[str] = None
    robots: Optional[RobotsTxt] = None
    for batch in batches:
        columns = [batch.column(name).to_pylist() for name in SORTED_COLUMNS]
        for row in zip(*columns):
            origin, kind, _, body, status = row
            first = origin != current
            if first:
                current, robots = origin, None
            if kind == KIND_ROBOTS:
                if first:  # the best row of this origin; later ones lost to it
                    robots = robots_for(body, as_status(status), mode=mode, policy=policy)
                continue
            yield row, robots
        yield (), None


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
    (with one column per purpose of ``purposes``, see :func:`~robotsrules.bulk.verdict_schema`).

    The distributed plan (see :mod:`robotsrules.spark`): both tables are unioned with
    columns ``origin``, ``kind`` (0 robots row, 1 URL), ``url``, ``body``, ``status``,
    partitioned by ``origin`` and sorted by ``origin``, ``kind``, then the robots rows best
    first (:func:`~robotsrules.bulk.rank`). So each origin's robots row comes first and is
    parsed once; its URLs follow; memory holds one parsed file at a time and the stream
    never gathers a site. URL rows whose ``origin`` is ``null`` are invalid.
    """
    names = check_agents(agents)
    wanted = check_purposes(purposes)
    unknown = missing_verdict(missing)
    out = VerdictColumns(wanted)
    for row, robots in _sorted_sites(batches, mode, policy):
        if not row:
            if len(out):
                yield out.batch()
                out = VerdictColumns(wanted)
            continue
        origin, _, url, _, _ = row
        for agent in names:
            if origin is None:
                out.add(url, agent, None, None, INVALID_URL, None)
            elif robots is None:
                out.add(url, agent, unknown, None, NO_ROBOTS, origin)
            else:
                allowed, line, reason = verdict_of(robots, url, agent)
                out.add(url, agent, allowed, line, reason, origin)
            if wanted:
                out.add_usage(usage_of(robots if origin is not None else None, url, agent,
                                       wanted))


def judge_sorted_any(
    batches: Iterable[pa.RecordBatch],
    agents: Union[str, Sequence[str]],
    *,
    missing: Missing = "null",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
) -> Iterator[pa.RecordBatch]:
    """:func:`judge_sorted` with one any-agent row per URL
    (:data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`)."""
    names = check_agents(agents)
    none_row = missing_any(missing_verdict(missing), names)
    out = AnyColumns()
    for row, robots in _sorted_sites(batches, mode, policy):
        if not row:
            if len(out):
                yield out.batch()
                out = AnyColumns()
            continue
        origin, _, url, _, _ = row
        if origin is None:
            found: AnyRow = (None, None, None, INVALID_URL)
        elif robots is None:
            found = none_row
        else:
            found = any_verdict(robots, url, names)
        out.add(url, origin, found)
