"""Refreshing an origin's entry, once for every cache: typed steps and one flow.

:class:`Refresher` holds what a cache of robots.txt entries keeps in process (a bounded memo
of entries, the store-failure and fetch counters) and :meth:`Refresher.flow`, the sans-I/O
conversation that refreshes one origin. The flow yields the I/O it needs as typed steps and
receives each step's outcome:

* :class:`Load`: the driver reads ``store.get(key)`` and replies with the stored
  :class:`~robotsrules.policy.Entry` or ``None`` (the exception, if the read failed);
* :class:`Fetch`: it fetches the file as of ``now`` and replies with the
  :class:`~robotsrules.policy.FetchResult`;
* :class:`Save`: it calls ``store.put(key, entry)`` and replies with what ``put`` returned
  (``None``, or the entry merged with another process's; the exception, if it failed).

It is driven by :func:`robotsrules._fetch._drive.run` (:class:`robotsrules.RobotsCache`) or
:func:`robotsrules._fetch._drive.arun` (:class:`robotsrules.AsyncRobotsCache`, the Scrapy
middleware), each with its own way of doing the steps (a thread, a worker thread, Twisted's
thread pool, Scrapy's downloader). A caller without a store answers ``Load`` and ``Save``
with ``None``.

What the flow decides, for all of them: an entry in the memo fresh at ``now`` is used as it
is (another caller refreshed it while this one waited); else the store is read, and what it
holds is merged (:func:`robotsrules.cache.merge`) with what the memo remembers, so that a miss
or an older entry in the store (a failed read, a dropped write, an older copy another process
wrote) never loses a newer copy this process holds; the file is fetched only when that entry
is missing or stale. A store failure is counted and logged (one warning per outage, the
first failure and the first after a success; the rest at debug level) and the flow goes on
from memory.
"""

from __future__ import annotations

import logging
from collections.abc import Generator, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Union

from .._lru import LRU
from ..cache import merge
from ..policy import Entry, FetchResult

if TYPE_CHECKING:
    from typing import TypeAlias

__all__ = ["MEMO_LIMIT", "Fetch", "Load", "RefreshReply", "RefreshStep", "Refresher", "Save"]

log = logging.getLogger("robotsrules")

MEMO_LIMIT = 10_000
"""Entries a :class:`Refresher` remembers by default (least recently used dropped first)."""


@dataclass(frozen=True)
class Load:
    """Read the origin's entry from the store."""


@dataclass(frozen=True)
class Fetch:
    """Fetch the origin's file; ``now`` is the time the result is dated."""

    now: float


@dataclass(frozen=True)
class Save:
    """Write ``entry`` to the store."""

    entry: Entry


RefreshStep: TypeAlias = Union[Load, Fetch, Save]
"""What :meth:`Refresher.flow` asks a driver to do."""

RefreshReply: TypeAlias = Union[Entry, FetchResult, Exception, None]
"""What a driver sends back (see the module docstring's table)."""


class Refresher:
    """The memo, the counters and the refresh flow of one cache (see the module docstring).

    ``memo_limit`` bounds the memo; ``logger`` takes the store-failure messages.
    """

    def __init__(self, memo_limit: int = MEMO_LIMIT, logger: logging.Logger = log) -> None:
        self.memo: LRU[Hashable, Entry] = LRU(memo_limit)
        """Entries by key (an origin; a checker's typed key of a robots.txt, a TDMRep file
        or a licence document): the last ``memo_limit`` remembered. Read with ``peek`` (a
        read from any thread changes nothing), written by :meth:`remember`."""
        self.logger = logger
        self.store_errors = 0
        """Store operations that failed."""
        self.fetches = 0
        """Files fetched by the flow."""
        self._store_down = False

    def fresh(self, key: Hashable, now: float) -> Optional[Entry]:
        """The remembered entry of ``key`` if its latest result is fresh at ``now``."""
        entry = self.memo.peek(key)
        if entry is not None and entry.latest.is_fresh(now):
            return entry
        return None

    def remember(self, key: Hashable, entry: Entry) -> None:
        """Keep ``entry`` as the newest of ``key`` (dropping the least recently used)."""
        self.memo.put(key, entry)

    def store_failed(self, action: str, key: Hashable, error: Exception) -> None:
        """Count and log a failed store operation (``action`` is ``get`` or ``put``)."""
        # One warning per outage (the first failure, and the first after a success), not
        # one per URL of a crawl: the rest are counted and logged at debug level.
        self.store_errors += 1
        level = logging.DEBUG if self._store_down else logging.WARNING
        self._store_down = True
        self.logger.log(level, "robots cache store %s failed for %s: %r (store_errors=%d)",
                        action, key, error, self.store_errors)

    def flow(self, key: Hashable, now: float) -> Generator[RefreshStep, RefreshReply, Entry]:
        """Refresh ``key`` as of ``now``: yields :class:`Load`, :class:`Fetch` and
        :class:`Save` steps, returns the entry to serve (also remembered)."""
        entry = self.fresh(key, now)
        if entry is not None:  # another caller refreshed it while this one waited
            return entry
        stored = yield Load()
        if isinstance(stored, Exception):
            self.store_failed("get", key, stored)
            stored = None
        else:
            self._store_down = False
        if stored is not None and not isinstance(stored, Entry):
            raise TypeError(f"a Load step is answered with an Entry or None, not {stored!r}")
        # A miss or an older entry in the store (a failed read, a dropped write) must not
        # lose what this process still remembers.
        remembered = self.memo.peek(key)
        entry = stored if remembered is None else merge(stored, remembered)
        if entry is None or not entry.latest.is_fresh(now):
            result = yield Fetch(now)
            if not isinstance(result, FetchResult):
                raise TypeError(f"a Fetch step is answered with a FetchResult, not {result!r}")
            self.fetches += 1
            entry = Entry.first(result) if entry is None else entry.after(result)
            written = yield Save(entry)
            if isinstance(written, Exception):
                self.store_failed("put", key, written)
            else:
                self._store_down = False
                if isinstance(written, Entry):  # merged with what another process stored
                    entry = written
        self.remember(key, entry)
        return entry
