"""The robots table by site: the one row that governs each origin (or host)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any, Optional, Union

from ._rows import (
    Data,
    Rank,
    RobotsRow,
    as_bytes,
    as_status,
    rank,
    robots_rows,
    site_key,
)
from ._schemas import Key, check_key

__all__ = ["RobotsIndex"]


class RobotsIndex:
    """The robots table by origin: the one ``(body, status)`` row that governs each origin.

    Build it with :meth:`from_arrow` (or :meth:`add` row by row). Bodies are kept as bytes:
    the index holds the whole robots table in memory (URLs are streamed, robots files are
    not); for more sites than fit, use the Spark engine, which never gathers them.
    """

    __slots__ = ("_ranks", "_rows", "key", "skipped")

    def __init__(self, key: Key = "origin") -> None:
        self.key: Key = check_key(key)
        """``"origin"`` (default) or ``"host"``: what rows and URLs are matched by."""
        self._rows: dict[str, RobotsRow] = {}
        self._ranks: dict[str, Rank] = {}
        self.skipped = 0
        """Rows ignored because their ``url`` has no robots.txt scope."""

    def add(self, url: Any, body: Union[bytes, str, None], status: Any = None,
            date: Any = None) -> bool:
        """Add one robots row; False (and counted in :attr:`skipped`) when ``url`` is unusable.

        When the site already has a row, the one that ranks higher governs
        (:func:`~robotsrules.bulk.rank`: the newest ``date`` first).
        """
        site = site_key(url, self.key)
        if site is None:
            self.skipped += 1
            return False
        data = as_bytes(body)
        code = as_status(status)
        ranked = rank(date, data, code)
        old = self._ranks.get(site)
        if old is None or ranked > old:
            self._ranks[site] = ranked
            self._rows[site] = (data, code)
        return True

    @classmethod
    def from_arrow(cls, data: Data, key: Key = "origin") -> RobotsIndex:
        """An index of a robots table (columns ``url``, ``body``, optional ``status``, ``date``)."""
        index = cls(key)
        for url, body, status, date in robots_rows(data):
            index.add(url, body, status, date)
        return index

    def get(self, site: str) -> Optional[RobotsRow]:
        """The ``(body, status)`` row of ``site`` (an origin, or a host name), or ``None``."""
        return self._rows.get(site)

    def date(self, site: str) -> Optional[datetime.datetime]:
        """The date (UTC) of the row that governs ``site`` (``None``: undated, or no row);
        what an evidence manifest reports as its fetch time."""
        ranked = self._ranks.get(site)
        return ranked[2] if ranked is not None and ranked[1] else None

    def site(self, url: Any) -> Optional[str]:
        """The key of ``url`` in this index (origin or host), or None when it has no
        robots.txt scope."""
        return site_key(url, self.key)

    def __contains__(self, origin: object) -> bool:
        return origin in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def origins(self) -> Iterator[str]:
        """The origins (or host names) that have a robots row."""
        return iter(self._rows)
