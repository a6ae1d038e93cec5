"""The file in force at crawl time (issue 17): every capture kept, each URL judged by the
capture in force at its date."""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

import pyarrow as pa

from .._dates import EARLIEST, utc
from ..errors import InvalidArgument
from ..policy import Policy
from ..robotstxt import Mode, RobotsTxt
from ._judge import VerdictColumns
from ._rows import (
    DEFAULT_CACHE_SIZE,
    DEFAULT_POLICY,
    Data,
    ParsedCache,
    Rank,
    RobotsRow,
    as_bytes,
    as_status,
    batches,
    check_agents,
    fast_origin,
    rank,
    robots_rows,
    site_key,
    verdict_of,
)
from ._schemas import INVALID_URL, NO_ROBOTS, Key, Missing, check_key, missing_verdict

__all__ = ["Capture", "RobotsHistory", "as_of_verdicts"]

Capture = tuple[int, datetime.datetime, RobotsRow]
"""(capture id, date (undated: the earliest possible), (body, status))."""


class RobotsHistory:
    """Every robots.txt capture of every site, for judging a URL by the file in force when
    the page was crawled (several Common Crawl robots.txt dumps, for instance).

    :meth:`as_of` gives the newest capture dated at or before a date (captures without a
    date count as older than any dated one, so they are in force before the first dated
    capture); :meth:`window` the captures in force at some time in ``[start, end]``. Sites
    are keyed like :class:`~robotsrules.bulk.RobotsIndex` (``key="origin"`` or ``"host"``).
    Captures of one date are ordered as :func:`~robotsrules.bulk.rank` orders them (the
    one it prefers is in force).
    """

    __slots__ = ("_captures", "_count", "_unsorted", "key", "skipped")

    def __init__(self, key: Key = "origin") -> None:
        self.key: Key = check_key(key)
        self._captures: dict[str, list[Capture]] = {}
        self._unsorted: set[str] = set()
        self._count = 0
        self.skipped = 0
        """Rows ignored because their ``url`` has no robots.txt scope (or a bad date)."""

    def add(self, url: Any, body: Union[bytes, str, None], status: Any = None,
            date: Any = None) -> bool:
        """Add one capture; False (counted in :attr:`skipped`) when unusable."""
        site = site_key(url, self.key)
        when = EARLIEST if date is None else utc(date)
        if site is None or when is None:
            self.skipped += 1
            return False
        self._count += 1
        self._captures.setdefault(site, []).append(
            (self._count, when, (as_bytes(body), as_status(status))))
        self._unsorted.add(site)
        return True

    @classmethod
    def from_arrow(cls, data: Data, key: Key = "origin") -> RobotsHistory:
        """A history of a robots table (columns ``url``, ``body``, optional ``status``,
        ``date``): every row kept."""
        history = cls(key)
        for url, body, status, date in robots_rows(data):
            history.add(url, body, status, date)
        return history

    def _sorted(self, site: str) -> list[Capture]:
        captures = self._captures.get(site, [])
        if site in self._unsorted:  # oldest first; of one date, the preferred last
            captures.sort(key=_rank)
            self._unsorted.discard(site)
        return captures

    def site(self, url: Any) -> Optional[str]:
        """The key of ``url`` (origin or host), or None when it has no robots.txt scope."""
        return site_key(url, self.key)

    def as_of(self, site: str, date: Any) -> Optional[Capture]:
        """The capture of ``site`` in force at ``date``: the newest not after it."""
        when = utc(date)
        captures = self._sorted(site)
        if not captures or when is None:
            return None
        found = None
        for capture in captures:  # few captures per site: a scan is fine
            if capture[1] > when:
                break
            found = capture
        return found

    def window(self, site: str, start: Any, end: Any) -> list[Capture]:
        """The captures in force at some time in ``[start, end]``, newest first."""
        first = self.as_of(site, start)
        low, high = utc(start), utc(end)
        if low is None or high is None:
            return []
        found = [c for c in self._sorted(site) if low < c[1] <= high]
        if first is not None:
            found.insert(0, first)
        return found[::-1]

    def __len__(self) -> int:
        return len(self._captures)


def _rank(capture: Capture) -> Rank:
    return rank(capture[1], capture[2][0], capture[2][1])


def as_of_verdicts(
    history: RobotsHistory,
    urls: Data,
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
    """Verdict batches (:data:`~robotsrules.bulk.VERDICT_SCHEMA`) judging each URL by the
    robots.txt in force at the date in its ``date_column``: the newest capture not after
    it. With ``strictest`` (a window length), by the most restrictive capture in force at
    some time in ``[date - strictest, date]``: the newest capture of the window that
    disallows, else the one in force at the date. No capture at or before the date: reason
    ``no-robots`` (``missing`` decides the verdict); no usable date: the same."""
    names = check_agents(agents)
    unknown = missing_verdict(missing)
    if strictest is not None and (not isinstance(strictest, datetime.timedelta)
                                  or strictest < datetime.timedelta(0)):
        raise InvalidArgument(f"strictest must be a timedelta >= 0, not {strictest!r}")
    parsed = ParsedCache(cache_size, mode=mode, policy=policy)

    def rules(capture: Capture) -> RobotsTxt:
        return parsed.rules(capture[0], capture[2])

    for batch in batches(urls):
        for needed in (column, date_column):
            if needed not in batch.schema.names:
                raise InvalidArgument(f"the URL table has no {needed!r} column "
                                      f"(columns: {', '.join(batch.schema.names)})")
        out = VerdictColumns()
        for url, date in zip(batch.column(column).to_pylist(),
                             batch.column(date_column).to_pylist()):
            origin = fast_origin(url)
            site = history.site(url) if origin is not None else None
            when = utc(date)
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
                        start = EARLIEST
                    for capture in history.window(site, start, when):
                        other = verdict_of(rules(capture), url, agent)
                        if other[0] is False:
                            found = other
                            break
                out.add(url, agent, found[0], found[1], found[2], origin)
        if len(out):
            yield out.batch()
