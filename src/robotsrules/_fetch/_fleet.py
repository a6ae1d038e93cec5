"""One fetch per fleet: the refresh of a cached file under a lock shared by processes.

A cache's own single flight (:class:`robotsrules.RobotsCache`) lets one caller per process
refresh a key while the others wait. A store shared by several processes and machines
(:class:`robotsrules.cache.redis.RedisStore`) may also offer a *fleet lock*: an object with
the three methods of :class:`FleetLock`, found as the store's ``fleet`` attribute (stores
without one, the memory and SQLite stores, keep the per-process single flight). With it,
a refresh goes::

    memo fresh? ──yes──▶ serve it
        │ no
    Read the store ── fresh copy ──▶ serve it (another process fetched it)
        │ stale or missing          ── store failed ──▶ per-process refresh
    Take the lock ── taken ──▶ refresh flow (Load, Fetch, Save), then Release
        │ held by another process
    Wait for its release (an event; at most the lock's remaining lifetime and this
        │                   process's own bound: past it, a per-process refresh), then Read again

At most :data:`FLEET_ROUNDS` rounds of waiting; after them the process refreshes by itself.
The lock's lifetime is bounded (the fetch's deadline plus a margin, or the store's own
setting), so a holder that dies mid-fetch blocks nobody for longer than that: the lock
expires and a waiter takes it.

When the lock fails (connection refused, time-out, a script refused by the server) the
refresh goes on per process, as without a fleet lock: the crawl never stops for it. Each
failure is counted in the cache's ``store_errors``; the first of an outage is logged as a
warning, the rest at debug level.

:func:`fleet_flow` is sans-I/O (steps :class:`Read`, :class:`Take`, :class:`Wait`,
:class:`Refresh`); :class:`Fleet` drives it for a sync or an async cache.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Generator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional, Protocol, Union, runtime_checkable

from ..policy import Entry
from ._drive import arun, run
from ._refresh import Refresher, RefreshReply

if TYPE_CHECKING:
    from typing import TypeAlias

__all__ = ["FLEET_ROUNDS", "Fleet", "FleetLock", "fleet_flow"]

log = logging.getLogger("robotsrules")

FLEET_ROUNDS = 3
"""Times a process waits for another's fetch of one key before it fetches by itself."""
WAIT_THREADS = 8
"""Threads of an async cache's :class:`Fleet` that wait for releases, at most: a pool of
their own, so that waits (each up to a lock's bound) never take the threads the store's
reads and writes run in (a holder that cannot save while its threads wait for others'
locks would hold the fleet up until the bounds expire)."""


@runtime_checkable
class FleetLock(Protocol):
    """A lock per key shared by every process that uses a store (see the module docstring).

    Every method may raise (the server is down, a time-out): the caller falls back to
    its per-process single flight."""

    def take(self, name: str, deadline: float) -> Optional[str]:
        """Take the lock of ``name`` for a fetch that ends within ``deadline`` seconds;
        its token, or ``None`` when another holder has it. The lock expires by itself."""

    def release(self, name: str, token: str) -> bool:
        """Release the lock of ``name`` if ``token`` still holds it, waking its waiters;
        whether it did (``False``: it had expired, perhaps taken by another)."""

    def wait(self, name: str, deadline: float) -> None:
        """Return once the lock of ``name`` is released or has expired (at once if it is
        free); never longer than the lock's remaining lifetime, nor than the bound this
        process would give its own lock for a fetch of ``deadline`` seconds: past that
        bound (a lock held longer than this process would ever hold it: a stranger's key,
        or a peer configured otherwise) it raises, and the caller fetches per process."""


@dataclass(frozen=True)
class Read:
    """Read the key's entry from the store (a :class:`~robotsrules._fetch._refresh.Load`
    outside the lock)."""


@dataclass(frozen=True)
class Take:
    """Try to take the fleet lock; reply: the token, ``None`` (held) or the exception."""


@dataclass(frozen=True)
class Wait:
    """Wait for the holder's release; reply: ``None`` or the exception."""


@dataclass(frozen=True)
class Refresh:
    """Run the cache's refresh flow; ``loaded``: the reply of what :class:`Read` got, to
    answer the flow's ``Load`` with (``preloaded`` false: the flow reads the store).
    ``token``: the fleet lock taken for it, which the driver releases when the flow ends,
    however it ends (a failed release only counts: the lock expires by itself)."""

    preloaded: bool
    loaded: RefreshReply = None
    token: Optional[str] = None


FleetStep: TypeAlias = Union[Read, Take, Wait, Refresh]
"""What :func:`fleet_flow` asks a driver to do."""


def fleet_flow(now: float, rounds: int = FLEET_ROUNDS
               ) -> Generator[FleetStep, object, Entry]:
    """The refresh of one key under the fleet lock, as of ``now`` (the module docstring's
    drawing); returns the entry the :class:`Refresh` step gave."""
    for _ in range(rounds):
        stored = yield Read()
        if isinstance(stored, Exception) or (
                isinstance(stored, Entry) and stored.latest.is_fresh(now)):
            # A fresh copy (fetched by another process), or a store that failed: no lock
            # (a failing store takes the per-process way, which counts the failure).
            return (yield from _refreshed(Refresh(True, stored)))
        token = yield Take()
        if isinstance(token, Exception):
            break
        if isinstance(token, str):
            return (yield from _refreshed(Refresh(False, token=token)))
        waited = yield Wait()
        if isinstance(waited, Exception):
            break
    return (yield from _refreshed(Refresh(False)))


def _refreshed(step: Refresh) -> Generator[FleetStep, object, Entry]:
    entry = yield step
    if not isinstance(entry, Entry):
        raise TypeError(f"a Refresh step is answered with an Entry, not {entry!r}")
    return entry


class Fleet:
    """The fleet lock of one cache: drives :func:`fleet_flow` with the cache's refresher
    (its memo and ``store_errors``), for fetches that end within ``deadline`` seconds."""

    def __init__(self, lock: FleetLock, refresher: Refresher, deadline: float) -> None:
        self.lock = lock
        self.refresher = refresher
        self.deadline = deadline
        # The steps failing now (Take, Wait, Refresh for the release): one warning each
        # until that step works again, so that a server refusing the release script every
        # time (while taking the lock works) is said once, not once per refresh.
        self._down: set[type[FleetStep]] = set()
        self._waits: Optional[ThreadPoolExecutor] = None  # made on an async cache's first wait

    @classmethod
    def of(cls, store: object, refresher: Refresher, deadline: float) -> Optional[Fleet]:
        """The fleet of ``store``'s lock (its ``fleet`` attribute), or ``None``."""
        lock = getattr(store, "fleet", None)
        return cls(lock, refresher, deadline) if isinstance(lock, FleetLock) else None

    def _failed(self, name: str, step: FleetStep, error: Exception) -> Exception:
        self.refresher.store_errors += 1
        level = logging.DEBUG if type(step) in self._down else logging.WARNING
        self._down.add(type(step))
        log.log(level, "robots cache fleet lock failed for %s: %r; fetching per process "
                "(store_errors=%d)", name, error, self.refresher.store_errors)
        return error

    def _locked(self, name: str, step: FleetStep) -> object:
        """Do a lock step; the exception it raised is the reply (counted and logged)."""
        try:
            if isinstance(step, Take):
                reply: object = self.lock.take(name, self.deadline)
            elif isinstance(step, Wait):
                reply = None
                self.lock.wait(name, self.deadline)
            else:  # the release of the lock a Refresh step held
                assert isinstance(step, Refresh) and step.token is not None
                reply = self.lock.release(name, step.token)
        except Exception as error:
            return self._failed(name, step, error)
        self._down.discard(type(step))
        return reply

    def run(self, name: str, now: float, load: Callable[[], RefreshReply],
            refresh: Callable[[Refresh], Entry]) -> Entry:
        """Refresh ``name`` (the key in the store) under the lock: ``load`` reads the store,
        ``refresh`` runs the cache's flow (answering its ``Load`` as the step says)."""

        def do(step: FleetStep) -> object:
            if isinstance(step, Read):
                return load()
            if isinstance(step, Refresh):
                try:
                    return refresh(step)
                finally:
                    if step.token is not None:
                        self._locked(name, step)
            return self._locked(name, step)

        return run(fleet_flow(now), do)

    async def arun(self, name: str, now: float, load: Callable[[], Awaitable[RefreshReply]],
                   refresh: Callable[[Refresh], Awaitable[Entry]]) -> Entry:
        """:meth:`run` for an async cache: the lock's calls run in worker threads, the
        waits in a pool of their own (at most :data:`WAIT_THREADS`)."""

        async def do(step: FleetStep) -> object:
            if isinstance(step, Read):
                return await load()
            if isinstance(step, Refresh):
                try:
                    return await refresh(step)
                finally:
                    if step.token is not None:
                        await asyncio.to_thread(self._locked, name, step)
            if isinstance(step, Wait):
                if self._waits is None:
                    self._waits = ThreadPoolExecutor(
                        WAIT_THREADS, thread_name_prefix="robotsrules-fleet")
                return await asyncio.get_running_loop().run_in_executor(
                    self._waits, self._locked, name, step)
            return await asyncio.to_thread(self._locked, name, step)

        return await arun(fleet_flow(now), do)

    def close(self) -> None:
        """Stop the waiting threads of :meth:`arun` (a wait under way ends by its bound)."""
        if self._waits is not None:
            self._waits.shutdown(wait=False, cancel_futures=True)
            self._waits = None
