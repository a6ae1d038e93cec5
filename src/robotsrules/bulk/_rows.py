"""Reading rows: Arrow batches, the cells of a robots row, URL keys, the one capture ranking,
and the core's answer for one row.

Everything here is per row and never raises for data (a stranger's table): a cell that is
not what it should be reads as missing. Only the caller's own choices (an agent, a purpose,
a mode) raise.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, Union

import pyarrow as pa

from .._dates import EARLIEST, utc
from .._lru import LRU
from .._rules._agents import agent_tokens
from .._scope import memo_origin
from ..errors import InvalidArgument, InvalidURL
from ..policy import OK, UNAVAILABLE, Policy, outcome_for_status
from ..robotstxt import Mode, RobotsTxt, parse
from ._schemas import INVALID_URL, Key

__all__ = [
    "DEFAULT_CACHE_SIZE",
    "DEFAULT_POLICY",
    "RANKING",
    "Data",
    "ParsedCache",
    "Rank",
    "RobotsRow",
    "Row",
    "as_bytes",
    "as_status",
    "batches",
    "check_agents",
    "fast_origin",
    "host_key",
    "rank",
    "robots_for",
    "robots_rows",
    "site_key",
    "usage_of",
    "verdict_of",
]

DEFAULT_POLICY = Policy()
"""The fetch policy used unless one is passed (RFC 9309 and Google's defaults)."""

DEFAULT_CACHE_SIZE = 4096
"""Parsed robots.txt files kept per worker (least recently used dropped first)."""

Data = Union[pa.Table, pa.RecordBatch, Iterable[pa.RecordBatch]]
"""A table, one record batch, or a stream of batches (tables in the stream are split)."""

Row = tuple[Optional[bool], Optional[int], str]
"""One verdict: ``(allowed, line, reason)``."""
RobotsRow = tuple[Optional[bytes], Optional[int]]
"""One robots row as kept: ``(body, status)``."""

def batches(data: Data) -> Iterator[pa.RecordBatch]:
    """The record batches of ``data``."""
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


def robots_rows(data: Data) -> Iterator[tuple[Any, Any, Any, Any]]:
    """``(url, body, status, date)`` of each row of a robots table (``status`` and ``date``
    are optional columns: ``None`` without them). A batch without ``url`` or ``body`` raises
    :class:`~robotsrules.InvalidArgument`, naming its columns."""
    for batch in batches(data):
        names = batch.schema.names
        for column in ("url", "body"):
            if column not in names:
                raise InvalidArgument(f"the robots table has no {column!r} column "
                                      f"(columns: {', '.join(names)})")
        size = batch.num_rows
        columns = [batch.column(n).to_pylist() if n in names else [None] * size
                   for n in ("url", "body", "status", "date")]
        yield from zip(*columns)


def fast_origin(url: Any) -> Optional[str]:
    """:func:`~robotsrules._scope.origin_of` of ``url``, or ``None`` where it would raise or
    ``url`` has no ``://``. Memoised on the ``scheme://authority`` part
    (:func:`~robotsrules._scope.memo_origin`, the one memoised splitter).

    >>> fast_origin("HTTPS://Example.COM:443/a?b"), fast_origin("mailto:x@y")
    ('https://example.com', None)
    """
    if not isinstance(url, str):
        return None
    url = url.strip()
    if "://" not in url:
        return None
    try:
        return memo_origin(url)
    except InvalidURL:
        return None


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


def site_key(url: Any, key: Key) -> Optional[str]:
    """The key that finds ``url``'s robots row: its origin, or its host name."""
    return fast_origin(url) if key == "origin" else host_key(url)


def as_bytes(body: Union[bytes, str, None]) -> Optional[bytes]:
    """A body cell as bytes (text is UTF-8 encoded)."""
    if body is None or isinstance(body, bytes):
        return body
    return body.encode("utf-8")


def as_status(status: Any) -> Optional[int]:
    """A status cell as an int, or ``None`` when it is none."""
    if status is None:
        return None
    try:
        return int(status)
    except (TypeError, ValueError):
        return None


# -- which capture wins ---------------------------------------------------------------------

Rank = tuple[bool, bool, datetime.datetime, bool, bytes, int]

RANKING = ("date", "body", "status")
"""The columns that rank the robots rows of one site, most important first, each larger
(newer) first and a null last: the order every engine sorts by (see :func:`rank`)."""


def rank(date: Any, body: Optional[bytes], status: Optional[int],
         damaged: bool = False) -> Rank:
    """The rank of one capture of a site's robots.txt: of several, the largest governs.

    An intact capture beats a damaged one (:mod:`robotsrules.warc`: a capture that did not
    arrive whole does not replace the last good copy); then the newest ``date`` (read by
    :func:`robotsrules._dates.utc`; rows without a usable date are older than any dated
    row; RFC 9309 §2.4: the freshest copy is the one to obey); then the larger body (a body
    beats none), then the larger status (a status beats none). Every engine picks the same
    row: Spark sorts by :data:`RANKING` in this order.
    """
    when = utc(date)
    return (not damaged, when is not None, when or EARLIEST, body is not None, body or b"",
            -1 if status is None else status)


# -- one row's answer -----------------------------------------------------------------------

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
        return parse(as_bytes(body) or b"", max_bytes=policy.max_bytes, mode=mode)
    if outcome == UNAVAILABLE:
        return RobotsTxt.allow_all()
    return RobotsTxt.disallow_all()


class ParsedCache:
    """Parsed rules by any hashable key, each parsed once while it stays in a bounded LRU;
    :attr:`parses` counts the parses. One per worker: not thread-safe."""

    __slots__ = ("_cache", "_mode", "_policy", "parses")

    def __init__(self, size: int = DEFAULT_CACHE_SIZE, *, mode: Mode = "google",
                 policy: Policy = DEFAULT_POLICY) -> None:
        self._cache: LRU[Any, RobotsTxt] = LRU(size)
        self._mode: Mode = mode
        self._policy = policy
        self.parses = 0
        """How many robots rows were parsed so far (a measure of cache misses)."""

    def rules(self, key: Any, row: RobotsRow) -> RobotsTxt:
        """The rules of ``row`` (``(body, status)``), cached under ``key``."""
        robots = self._cache.get(key)
        if robots is None:
            robots = robots_for(row[0], row[1], mode=self._mode, policy=self._policy)
            self.parses += 1
            self._cache.put(key, robots)
        return robots


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


def usage_of(robots: Optional[RobotsTxt], url: Any, agent: str,
             purposes: Sequence[str]) -> list[Optional[bool]]:
    """The answer per purpose (``True``/``False``/``None``) for ``url`` and ``agent``;
    all ``None`` without rules or for a URL the core rejects (never raises for data)."""
    if robots is None or not isinstance(url, str):
        return [None] * len(purposes)
    try:
        usage = robots.usage(url, agent=agent)
    except InvalidURL:
        return [None] * len(purposes)
    return [usage.allows(p) for p in purposes]  # type: ignore[arg-type]


def check_agents(agents: Union[str, Sequence[str]]) -> tuple[str, ...]:
    """The agents as a tuple; none, or an invalid one, raises (the caller's mistake)."""
    names = (agents,) if isinstance(agents, str) else tuple(agents)
    if not names:
        raise InvalidArgument("no agent given: pass at least one product token")
    for name in names:
        agent_tokens(name)  # raises InvalidAgent, naming what to pass
    return names
