"""A store in one SQLite file, shared by the threads and processes of one machine.

One table, one row per origin, the entry in the :mod:`~robotsrules.cache.codec` format::

    entries(origin TEXT PRIMARY KEY, data BLOB, expires_at REAL, updated_at REAL)

Why it is safe to share: the file is in WAL mode, and the store keeps two connections, one
that reads and one that writes, each behind its own lock: a read never waits for a write,
of this process or another (WAL readers take no lock a writer holds). Each :meth:`put` is
one ``BEGIN IMMEDIATE`` transaction (taking the write lock up front, so two writers never
deadlock upgrading a read lock) that reads the stored row and writes
:func:`~robotsrules.cache.merge` of it and the new entry, so a failed refresh in one
process never replaces a good copy another process has just stored. SQLite's atomic commit
means a process killed mid-write leaves either the old row or the new one, never a torn
file. ``synchronous=NORMAL`` keeps that guarantee for crashed processes; only a power cut
may lose the last few commits, which costs a cache nothing but a refetch.

Theory of failure. A cache must never stop a crawl, so the state of the file is never the
caller's exception:

* the file cannot be opened (a directory, an unwritable place, random bytes, a database
  locked by another process for longer than ``open_timeout``, a table of another shape):
  one warning on the ``robotsrules`` logger, and the store keeps its entries in memory for
  the rest of its life (:attr:`SQLiteStore.problem` says why);
* the file is a damaged SQLite database (truncated, corrupt pages), at opening or later:
  it is moved aside to ``<path>.corrupt-<time>-<pid>`` (with its ``-wal`` and ``-shm``), one
  warning, and a new file is started; a file that is not an SQLite database at all is never
  moved (it may be something else the path was pointed at by mistake): memory instead;
* another process holds the write lock for longer than ``busy_timeout``: the write is
  dropped, counted in :attr:`SQLiteStore.dropped_writes` (one warning, then debug
  messages), and :meth:`put` returns; so do writes that fail for any other reason (disk
  full, read-only file);
* the file is deleted or replaced while open: the next :meth:`put` notices and reopens the
  path (a new file);
* a row that does not decode (damaged, tampered with, written by another version): a miss,
  and the row is deleted.

A read that fails for another reason (the file locked in exclusive mode by another process
for longer than ``read_timeout``, an I/O error) raises :class:`sqlite3.Error` after at most
``read_timeout``; :class:`~robotsrules.RobotsCache` counts it and goes on.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Optional, Union

from .._tables._datafile import user_path
from ..errors import InvalidArgument
from ..policy import DAY, Entry
from ._merge import merge
from .codec import decode, encode
from .memory import MemoryStore

__all__ = ["SQLiteStore", "default_cache_path"]

log = logging.getLogger("robotsrules")

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
_COLUMNS = ["origin", "data", "expires_at", "updated_at"]
_MAGIC = b"SQLite format 3\x00"
# SQLite's primary result codes (https://www.sqlite.org/rescode.html).
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_NOTADB = 5, 6, 11, 26


def default_cache_path() -> Path:
    """Where the cache file lives: ``$ROBOTSRULES_CACHE`` if set, else
    ``robotsrules/robots.sqlite3`` in the user's cache directory: ``$XDG_CACHE_HOME`` or
    ``~/.cache`` (Linux and other Unixes), ``~/Library/Caches`` (macOS), ``%LOCALAPPDATA%``
    (Windows)."""
    return user_path("cache", ENV_VAR, FILE_NAME)


def _code(error: BaseException) -> Optional[int]:
    """SQLite's primary result code of ``error`` (Python 3.11+), else one read from its
    message (the messages are SQLite's own, stable since 3.7)."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(error)
    if "file is not a database" in text:
        return _SQLITE_NOTADB
    if "malformed" in text:
        return _SQLITE_CORRUPT
    if "locked" in text or "busy" in text:
        return _SQLITE_BUSY
    return None


def _is_corrupt(error: BaseException) -> bool:
    return _code(error) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _is_busy(error: BaseException) -> bool:
    return _code(error) in (_SQLITE_BUSY, _SQLITE_LOCKED)


def _millis(seconds: float) -> int:
    return max(int(seconds * 1000), 0)


def _check_timeout(name: str, value: float) -> float:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not 0 <= value < float("inf")):
        raise InvalidArgument(f"{name} must be a finite number of seconds >= 0, not {value!r}")
    return float(value)


class _Unusable(Exception):
    """The file opened but is not a robotsrules cache (a table of another shape)."""


class SQLiteStore:
    """Entries in the SQLite file at ``path`` (``None``: :func:`default_cache_path`; the
    parent directories are created). Two connections, each guarded by a lock, serve every
    thread of the process (one reads, one writes); other processes open their own.

    Never raises for the state of the file (see the module docstring): a file that cannot
    be used makes the store keep its entries in memory, with one warning, and
    :attr:`problem` says why.

    ``busy_timeout`` is how long, in seconds, a :meth:`put` waits for the write lock (held
    by another thread or process) before it is dropped and counted in
    :attr:`dropped_writes`; ``read_timeout`` bounds a :meth:`get` the same way (it waits
    only for a database locked in exclusive mode); ``open_timeout`` bounds setting the file
    up (another process may be creating it).
    """

    def __init__(self, path: Union[str, os.PathLike[str], None] = None, *,
                 busy_timeout: float = 1.0, read_timeout: float = 2.0,
                 open_timeout: float = 2.0) -> None:
        if path is None:
            path = default_cache_path()
        self.path = os.fspath(path)
        self.busy_timeout = _check_timeout("busy_timeout", busy_timeout)
        self.read_timeout = _check_timeout("read_timeout", read_timeout)
        self.open_timeout = _check_timeout("open_timeout", open_timeout)
        self.dropped_writes = 0
        """Writes not made because the file was locked (or failed): counted, never waited
        for longer than ``busy_timeout``."""
        self.problem: Optional[str] = None
        """Why the file is not used and entries are kept in memory; ``None`` while it is."""
        self.quarantined: Optional[str] = None
        """Where a damaged file was last moved to, if one was."""
        self._memory: Optional[MemoryStore] = None
        self._write_lock = threading.Lock()
        # ":memory:" is one database per connection: both roles share one connection.
        self._read_lock = self._write_lock if self.path == ":memory:" else threading.Lock()
        self._writer: Optional[sqlite3.Connection] = None
        self._reader: Optional[sqlite3.Connection] = None
        self._identity: Optional[tuple[int, int]] = None
        self._generation = 0  # connections opened so far: a recovery happens once per file
        self._closed = False
        self._warned_drop = False
        self._count_lock = threading.Lock()
        self._open()

    # -- opening, and what to do when the file cannot be used --------------------------------

    def _open(self) -> None:
        """Open the file; on failure move a damaged database aside and try once more, else
        go on in memory. Called with both locks held (or before any other thread can)."""
        deadline = time.monotonic() + self.open_timeout
        pause = 0.005
        while True:
            try:
                self._connect()
                return
            except (sqlite3.Error, OSError, ValueError, _Unusable) as error:
                failure: BaseException = error
            # SQLite answers some lock conflicts of the set-up at once, without its busy
            # handler (two processes switching one new file to WAL together): try again,
            # within open_timeout, as the busy handler would have waited.
            if not _is_busy(failure) or time.monotonic() + pause > deadline:
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.1)
        if _is_corrupt(failure) and self._quarantine(failure):
            try:
                self._connect()
                return
            except (sqlite3.Error, OSError, ValueError, _Unusable) as error:
                failure = error
        self._fall_back(failure)

    def _connect(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        before = self._identity = self._file_identity()
        # isolation_level=None: no implicit transactions; put() opens its own.
        writer = sqlite3.connect(self.path, timeout=self.open_timeout, isolation_level=None,
                                 check_same_thread=False)
        reader: Optional[sqlite3.Connection] = None
        try:
            writer.execute(f"PRAGMA busy_timeout = {_millis(self.open_timeout)}")
            # Another program's database is left alone: not one octet is written to it.
            tables = {row[0] for row in writer.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables - {"entries"}:
                raise _Unusable(f"it is another program's database (tables {sorted(tables)!r})")
            columns = [row[1] for row in writer.execute("PRAGMA table_info(entries)")]
            if columns not in ([], _COLUMNS):
                raise _Unusable(f"its table 'entries' has the columns {columns!r}")
            writer.execute("PRAGMA journal_mode = WAL")
            writer.execute("PRAGMA synchronous = NORMAL")
            writer.execute(_SCHEMA)
            writer.execute(f"PRAGMA busy_timeout = {_millis(self.busy_timeout)}")
            if self.path == ":memory:":
                reader = writer
            else:
                reader = sqlite3.connect(self.path, timeout=self.read_timeout,
                                         isolation_level=None, check_same_thread=False)
                reader.execute(f"PRAGMA busy_timeout = {_millis(self.read_timeout)}")
                reader.execute("SELECT 1 FROM entries LIMIT 1").fetchone()
        except BaseException:
            writer.close()
            if reader is not None:
                reader.close()
            raise
        self._writer, self._reader = writer, reader
        self._identity = before if before is not None else self._file_identity()
        self._generation += 1

    def _file_identity(self) -> Optional[tuple[int, int]]:
        if self.path == ":memory:":
            return None
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return (stat.st_dev, stat.st_ino)

    def _disconnect(self) -> None:
        for conn in {id(c): c for c in (self._reader, self._writer) if c is not None}.values():
            with contextlib.suppress(sqlite3.Error):  # closing a broken connection
                conn.close()
        self._reader = self._writer = None

    def _quarantine(self, error: BaseException) -> bool:
        """Move a damaged database (and its -wal and -shm) aside; False if the file is not
        one (never move what may not be ours) or has been replaced by another process."""
        if self.path == ":memory:":
            return False
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(len(_MAGIC))
                identity = (os.fstat(handle.fileno()).st_dev, os.fstat(handle.fileno()).st_ino)
        except OSError:
            return False
        if head != _MAGIC:
            return False
        if self._identity is not None and identity != self._identity:
            return True  # another process already moved ours aside: open the new file
        stamp = datetime.datetime.now().strftime("%Y%m%dT%H%M%S")
        target = f"{self.path}.corrupt-{stamp}-{os.getpid()}"
        try:
            os.replace(self.path, target)
        except OSError:
            return False
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(OSError):  # absent: nothing to move
                os.replace(self.path + suffix, target + suffix)
        self.quarantined = target
        log.warning("robots cache %s is a damaged database (%s): moved it to %s and "
                    "started a new one", self.path, error, target)
        return True

    def _fall_back(self, error: BaseException) -> None:
        self._disconnect()
        self._memory = MemoryStore()
        self.problem = f"{type(error).__name__}: {error}"
        log.warning("robots cache %s cannot be used (%s); keeping robots.txt in memory "
                    "for this run", self.path, self.problem)

    def _recover(self, error: BaseException, generation: int) -> None:
        """After an operation on the connections of ``generation`` found the file damaged:
        move it aside and reopen, unless another thread has done so already. Takes both
        locks (no other thread is using a connection meanwhile)."""
        with self._write_lock:
            if generation == self._generation:
                self._with_read_lock(error)

    def _reopen(self, error: Optional[BaseException]) -> None:
        if self._memory is not None or self._closed:
            return
        self._disconnect()
        if error is not None and not self._quarantine(error):
            self._fall_back(error)
            return
        self._open()

    # -- the Store protocol -----------------------------------------------------------------

    def _live(self, conn: Optional[sqlite3.Connection]) -> Optional[sqlite3.Connection]:
        """``conn``; ``None`` once the store has fallen back to memory (call under the lock
        that guards ``conn``: a fall-back may happen in another thread meanwhile)."""
        if conn is not None:
            return conn
        if self._memory is not None and not self._closed:
            return None
        raise sqlite3.ProgrammingError("Cannot operate on a closed database.")

    def _decoded(self, data: Any) -> Optional[Entry]:
        if not isinstance(data, bytes):  # TEXT, INTEGER, REAL: tampered with
            return None
        try:
            return decode(data)
        except ValueError:  # damaged, or written by another version
            return None

    def _read(self, origin: str) -> tuple[bool, Any]:
        """(False, None) once in memory; else (True, the raw data of ``origin`` or None)."""
        with self._read_lock:
            conn = self._live(self._reader)
            if conn is None:
                return False, None
            row = conn.execute("SELECT data FROM entries WHERE origin = ?",
                               (origin,)).fetchone()
        return True, None if row is None else row[0]

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin``, or ``None``. A row that does not decode is deleted."""
        generation = self._generation
        try:
            in_file, data = self._read(origin)
        except sqlite3.DatabaseError as error:
            if not _is_corrupt(error):
                raise
            self._recover(error, generation)
            in_file, data = False, None
        if not in_file:
            memory = self._memory
            return memory.get(origin) if memory is not None else None
        if data is None:
            return None
        entry = self._decoded(data)
        if entry is None:
            self._delete_row(origin, data)
        return entry

    def _delete_row(self, origin: str, data: Any) -> None:
        """Delete the undecodable ``data`` of ``origin`` unless another writer has replaced
        it meanwhile; skipped (the next put replaces it) when the write lock is busy."""
        if not self._write_lock.acquire(timeout=self.busy_timeout):
            return
        try:
            conn = self._live(self._writer)
            if conn is not None:
                conn.execute("DELETE FROM entries WHERE origin = ? AND data = ?",
                             (origin, data))
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.Error:
            pass  # locked or failing: the next put replaces the row anyway
        finally:
            self._write_lock.release()

    def put(self, origin: str, entry: Entry) -> Optional[Entry]:
        """Store ``entry`` for ``origin``, merged with the entry stored meanwhile by anyone
        else (see :func:`~robotsrules.cache.merge`), in one transaction; return what is now
        stored. A write that cannot get the lock within ``busy_timeout`` (or fails) is
        dropped, counted in :attr:`dropped_writes`, and ``None`` is returned."""
        # Read and decode the stored row before taking the write lock: usually no one
        # changes it meanwhile, and the transaction only checks that (compare and set).
        try:
            in_file, seen = self._read(origin)
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.Error:
            in_file, seen = True, None
        seen_entry = self._decoded(seen) if in_file else None
        started = time.monotonic()
        if not self._write_lock.acquire(timeout=self.busy_timeout):
            self._dropped(origin, "another thread held the write lock too long")
            return None
        failure: Optional[sqlite3.Error] = None
        generation = self._generation
        try:
            if self._moved():  # deleted or replaced under us: open the path again
                self._with_read_lock(None)
            generation = self._generation
            conn = self._live(self._writer)
            if conn is not None:
                # One bound for the whole put: what waiting for this process's other
                # writers took is not waited again for the file's lock.
                left = self.busy_timeout - (time.monotonic() - started)
                conn.execute(f"PRAGMA busy_timeout = {_millis(left)}")
                return self._write(conn, origin, entry, seen, seen_entry)
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.Error as error:
            failure = error
            self._dropped(origin, str(error))
        finally:
            self._write_lock.release()
        if failure is not None:
            if _is_corrupt(failure):
                self._recover(failure, generation)
            return None
        memory = self._memory
        if memory is None:  # pragma: no cover - _live returned None only in memory
            return None
        memory.put(origin, entry)
        return entry

    def _with_read_lock(self, error: Optional[BaseException]) -> None:
        """Reopen while holding the write lock: take the read lock too."""
        if self._read_lock is self._write_lock:
            self._reopen(error)
        else:
            with self._read_lock:
                self._reopen(error)

    def _write(self, conn: sqlite3.Connection, origin: str, entry: Entry, seen: Any,
               seen_entry: Optional[Entry]) -> Entry:
        conn.execute("BEGIN IMMEDIATE")  # waits at most busy_timeout for the lock
        try:
            row = conn.execute("SELECT data FROM entries WHERE origin = ?",
                               (origin,)).fetchone()
            current = None if row is None else row[0]
            stored = seen_entry if current == seen else self._decoded(current)
            merged = merge(stored, entry)
            if merged is not stored:
                conn.execute(
                    "INSERT OR REPLACE INTO entries (origin, data, expires_at, updated_at) "
                    "VALUES (?, ?, ?, ?)",
                    (origin, encode(merged), merged.latest.expires_at, time.time()))
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # the transaction may be gone already
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return merged

    def _moved(self) -> bool:
        """True when the path no longer names the file this store opened (deleted, or
        replaced by another process)."""
        if self._identity is None:
            return False
        return self._file_identity() != self._identity

    def _dropped(self, origin: str, why: str) -> None:
        with self._count_lock:  # also called without the write lock
            self.dropped_writes += 1
            first, self._warned_drop = not self._warned_drop, True
        if first:
            log.warning("robots cache %s: write for %s dropped (%s); further dropped "
                        "writes are counted in dropped_writes", self.path, origin, why)
        else:
            log.debug("robots cache %s: write for %s dropped (%s)", self.path, origin, why)

    def delete(self, origin: str) -> None:
        """Forget ``origin`` (no error if absent)."""
        with self._write_lock:
            conn = self._live(self._writer)
            if conn is not None:
                conn.execute("DELETE FROM entries WHERE origin = ?", (origin,))
                return
        if self._memory is not None:
            self._memory.delete(origin)

    def prune(self, now: float) -> int:
        """Delete the entries whose latest result expired more than 30 days before ``now``;
        return how many were deleted."""
        with self._write_lock:
            conn = self._live(self._writer)
            if conn is None:
                return 0
            cursor = conn.execute("DELETE FROM entries WHERE expires_at < ?",
                                  (now - PRUNE_AFTER,))
            return cursor.rowcount

    def __len__(self) -> int:
        with self._read_lock:
            conn = self._live(self._reader)
            if conn is not None:
                row = conn.execute("SELECT COUNT(*) FROM entries").fetchone()
                return int(row[0])
        return len(self._memory) if self._memory is not None else 0

    def close(self) -> None:
        """Close the connections; the store cannot be used afterwards."""
        with self._write_lock:
            if self._read_lock is self._write_lock:
                self._closed = True
                self._disconnect()
            else:
                with self._read_lock:
                    self._closed = True
                    self._disconnect()
        if self._memory is not None:
            self._memory.close()
