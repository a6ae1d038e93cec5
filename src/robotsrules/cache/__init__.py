"""Where fetch results are kept between uses: per-origin stores behind one small protocol.

::

    policy.Entry ──encode──▶ bytes ──▶ SQLiteStore   one file, shared by threads and processes
      (latest,    (codec:            └▶ RedisStore    one server, shared by machines
       good,       JSON header                         (robotsrules.cache.redis, extra [redis])
       unreachable  + raw bodies,
       _since)      never pickle)
    policy.Entry ──────as is──────▶ MemoryStore      one process, bounded LRU

A store only keeps entries: it never fetches, and never decides what an entry means. The
caller (a cache) reads an entry with :meth:`Store.get`, asks
:func:`robotsrules.policy.effective` what to serve, and after a fetch writes
``entry.after(result)`` (or ``Entry.first(result)``) back with :meth:`Store.put`.

Every store is safe to share between threads. An entry that cannot be decoded (damaged,
tampered with, or written by an unknown version of the format) is a miss, and is deleted.
The shared stores never let their back end stop a crawl: a SQLite file that cannot be used
is bypassed (entries kept in memory, one warning), a write that cannot get the lock quickly
is dropped and counted; a Redis call is bounded by time-outs (see each module).

``RedisStore`` is imported from :mod:`robotsrules.cache.redis` only, so that the ``redis``
package is needed only by those who use it.
"""

from __future__ import annotations

from typing import Optional, Protocol, runtime_checkable

from ..policy import Entry
from ._merge import merge
from .memory import MemoryStore
from .sqlite import SQLiteStore, default_cache_path

__all__ = ["MemoryStore", "SQLiteStore", "Store", "default_cache_path", "merge"]


@runtime_checkable
class Store(Protocol):
    """What a cache needs from a store: entries by origin (``scheme://host[:port]``)."""

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin``, or ``None`` if there is none (or it was unreadable)."""

    def put(self, origin: str, entry: Entry) -> Optional[Entry]:
        """Store ``entry`` for ``origin``. A store shared between processes (SQLite, Redis)
        merges it with what another process stored meanwhile (:func:`merge`: a failure
        never replaces a newer good copy) and returns the entry it now holds; it may also
        drop the write (``None``). Other stores replace any earlier entry and may return
        ``None``."""

    def delete(self, origin: str) -> None:
        """Forget ``origin``; no error if it is absent."""

    def close(self) -> None:
        """Release the store's resources."""
