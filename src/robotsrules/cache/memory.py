"""An in-process store: a bounded LRU map from origin to :class:`~robotsrules.policy.Entry`."""

from __future__ import annotations

import threading
from typing import Optional

from .._lru import LRU
from ..errors import InvalidArgument
from ..policy import Entry

__all__ = ["MemoryStore"]


class MemoryStore:
    """Keeps up to ``max_entries`` entries as objects (no encoding), least recently used
    evicted first. Safe to share between threads; lost when the process ends.

    >>> store = MemoryStore(max_entries=2)
    >>> store.get("https://example.com") is None
    True
    """

    def __init__(self, max_entries: int = 10_000) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int):
            raise TypeError(f"max_entries must be an int, not {type(max_entries).__name__}")
        if max_entries < 1:
            raise InvalidArgument(f"max_entries must be at least 1, not {max_entries}")
        self.max_entries = max_entries
        self._entries: LRU[str, Entry] = LRU(max_entries)
        self._lock = threading.Lock()

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin`` (now the most recently used), or ``None``."""
        with self._lock:
            return self._entries.get(origin)

    def put(self, origin: str, entry: Entry) -> None:
        """Store ``entry`` for ``origin``, evicting the least recently used beyond the bound."""
        with self._lock:
            self._entries.put(origin, entry)

    def delete(self, origin: str) -> None:
        """Forget ``origin`` (no error if absent)."""
        with self._lock:
            self._entries.pop(origin)

    def close(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
