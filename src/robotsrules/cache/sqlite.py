"""A store in one SQLite file, shared by the threads and processes of one machine.

One table, one row per origin, the entry in the :mod:`~robotsrules.cache.codec` format::

    entries(origin TEXT PRIMARY KEY, data BLOB, expires_at REAL, updated_at REAL)

Why it is safe to share: the file is in WAL mode (readers never block the writer), every
connection waits up to ``busy_timeout`` for a lock instead of failing, and each :meth:`put`
is one ``BEGIN IMMEDIATE`` transaction (taking the write lock up front, so two writers never
deadlock upgrading a read lock). SQLite's atomic commit means a process killed mid-write
leaves either the old row or the new one, never a torn file. ``synchronous=NORMAL`` keeps
that guarantee for crashed processes; only a power cut may lose the last few commits, which
costs a cache nothing but a refetch.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Optional, Union

from ..policy import DAY, Entry
from .codec import decode, encode

__all__ = ["SQLiteStore", "default_cache_path"]

ENV_VAR = "ROBOTSRULES_CACHE"
FILE_NAME = Path("robotsrules", "robots.sqlite3")
PRUNE_AFTER = 30 * DAY
"""Rows whose latest result expired longer ago than this are pruned (Google's 30-day rule:
past it, an unreachable site's old copy no longer matters)."""

_SCHEMA = """CREATE TABLE IF NOT EXISTS entries (
    origin TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    expires_at REAL NOT NULL,
    updated_at REAL NOT NULL
)"""


def default_cache_path() -> Path:
    """Where the cache file lives: ``$ROBOTSRULES_CACHE`` if set, else
    ``robotsrules/robots.sqlite3`` in the user's cache directory: ``$XDG_CACHE_HOME`` or
    ``~/.cache`` (Linux and other Unixes), ``~/Library/Caches`` (macOS), ``%LOCALAPPDATA%``
    (Windows)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        # XDG Base Directory spec: a relative path is invalid and must be ignored.
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / FILE_NAME


class SQLiteStore:
    """Entries in the SQLite file at ``path`` (``None``: :func:`default_cache_path`; the
    parent directories are created). One connection, guarded by a lock, serves every thread
    of the process; other processes open their own.

    ``busy_timeout`` is how long, in seconds, to wait for another process's write lock.
    """

    def __init__(self, path: Union[str, os.PathLike[str], None] = None, *,
                 busy_timeout: float = 30.0) -> None:
        if path is None:
            path = default_cache_path()
        self.path = os.fspath(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # isolation_level=None: no implicit transactions; put() opens its own.
        self._conn = sqlite3.connect(self.path, timeout=busy_timeout, isolation_level=None,
                                     check_same_thread=False)
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute(_SCHEMA)
        except BaseException:
            self._conn.close()
            raise

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin``, or ``None``. A row that does not decode is deleted."""
        with self._lock:
            row = self._conn.execute(
                "SELECT data FROM entries WHERE origin = ?", (origin,)).fetchone()
        if row is None:
            return None
        data = bytes(row[0])
        try:
            return decode(data)
        except ValueError:  # damaged, or written by another version: a miss
            with self._lock:  # unless another writer has replaced it meanwhile
                self._conn.execute(
                    "DELETE FROM entries WHERE origin = ? AND data = ?", (origin, data))
            return None

    def put(self, origin: str, entry: Entry) -> None:
        """Store ``entry`` for ``origin`` in one transaction."""
        data = encode(entry)
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO entries (origin, data, expires_at, updated_at) "
                    "VALUES (?, ?, ?, ?)",
                    (origin, data, entry.latest.expires_at, time.time()))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def delete(self, origin: str) -> None:
        """Forget ``origin`` (no error if absent)."""
        with self._lock:
            self._conn.execute("DELETE FROM entries WHERE origin = ?", (origin,))

    def prune(self, now: float) -> int:
        """Delete the entries whose latest result expired more than 30 days before ``now``;
        return how many were deleted."""
        with self._lock:
            cursor = self._conn.execute(
                "DELETE FROM entries WHERE expires_at < ?", (now - PRUNE_AFTER,))
            return cursor.rowcount

    def __len__(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM entries").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection; the store cannot be used afterwards."""
        with self._lock:
            self._conn.close()
