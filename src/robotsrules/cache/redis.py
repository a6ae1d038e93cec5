"""A store in Redis, shared by every crawler that reaches the server.

Needs the optional ``redis`` package: ``pip install 'robotsrules[redis]'``. This is the only
module that imports it.

Each origin is one key, ``prefix + origin``, whose value is the entry in the
:mod:`~robotsrules.cache.codec` format (data only, never pickle: whoever can write to a
shared Redis must not be able to run code in the crawlers that read it). Each key expires
``ttl_grace`` (30 days) after its latest result does, so Redis drops abandoned origins by
itself while the last good copy outlives a refresh that failed (Google's 30-day rule).

Writes merge: :meth:`RedisStore.put` reads the key under ``WATCH`` and writes
:func:`~robotsrules.cache.merge` of the stored entry and the new one in a
``MULTI``/``EXEC`` (check and set), so a failed refresh in one crawler never replaces the
good copy another has just stored; a write that keeps losing that race is dropped and
counted in :attr:`RedisStore.dropped_writes`.

Time bounds. A client this store makes (from ``url``) has explicit time-outs:
``connect_timeout`` to connect and ``timeout`` for each reply (2 s each by default), and no
retries, so a call to a frozen server (stopped, or a network that drops packets) raises
:class:`redis.TimeoutError` after about ``timeout``, and a server that is down raises
:class:`redis.ConnectionError` at once. After such a failure the store does not touch the
server for ``retry_after`` seconds (5 by default): calls raise
:class:`redis.ConnectionError` at once, so a crawl over a frozen Redis pays one time-out
per ``retry_after``, not one per URL. :class:`~robotsrules.RobotsCache` counts these
errors and goes on from memory.

One fetch per fleet. The store offers a fleet lock (its :attr:`RedisStore.fleet`, on by
default, ``fleet_lock=False`` turns it off): :class:`~robotsrules.RobotsCache` and
:class:`~robotsrules.AsyncRobotsCache` take it before fetching a file the store has no
fresh copy of, so that of the processes and machines sharing the server one fetches and
the others read its copy. The lock of a key is ``prefix + "lock:" + key``, taken with
``SET key token NX PX bound`` (``bound``: the fetch's deadline plus
:data:`LOCK_MARGIN`, or ``lock_bound``), released only by its holder (a Lua script
compares the token and deletes it, then publishes on ``prefix + "released:" + key``);
a waiter subscribes to that channel, then waits for the message at most the lock's
remaining lifetime (``PTTL``), so a holder that died blocks nobody past its bound, and
never longer than its own bound: a lock with a longer life (a stranger's key, a peer with
a larger bound) makes it fetch per process.

A client passed in is used as it is: its own ``socket_timeout`` and
``socket_connect_timeout`` (and retries) bound each call, and only the pause after a
failure is added. redis-py 4's default ``socket_timeout=None`` lets a call to a frozen
server block forever, so the store logs a warning when given such a client.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from functools import partial
from typing import Any, Callable, Optional

from ..errors import MissingExtra

with MissingExtra.guard("robotsrules.cache.redis", "redis"):
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

from ..errors import InvalidArgument
from ..policy import DAY, Entry
from ._merge import merge
from .codec import decode, encode

__all__ = ["RedisStore"]

log = logging.getLogger("robotsrules")

LOCK_MARGIN = 5.0
"""Seconds a fleet lock outlives the fetch's deadline: the store's read and write around it."""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('publish', KEYS[2], ARGV[1])
  return 1
end
return 0
"""
"""The holder's release: delete the lock only if it still holds the token, and wake the
waiters (compare and delete, atomic in the server)."""

_CAS_ATTEMPTS = 3
"""Check-and-set attempts of one put before it is dropped (each lost to a concurrent write
of the same key)."""


class RedisStore:
    """Entries in Redis under ``prefix + origin``.

    ``client`` is a :class:`redis.Redis` to use (it must return bytes: keep the default
    ``decode_responses=False``); without one, a client for ``url`` is made with the
    time-outs ``connect_timeout`` and ``timeout`` (seconds) and no retries, and closed by
    :meth:`close`. ``retry_after`` is how long the store leaves the server alone after a
    connection failure or time-out (see the module docstring). ``clock`` gives the current
    time (seconds since the epoch) for key TTLs. ``fleet_lock``: offer the fleet lock
    (:attr:`fleet`) to the caches, so that one process of a fleet fetches a file at a time;
    ``lock_bound``: the lock's lifetime in seconds (default: the fetch's deadline plus
    :data:`LOCK_MARGIN`).
    """

    def __init__(
        self,
        client: Optional[redis.Redis] = None,
        url: str = "redis://localhost:6379/0",
        prefix: str = "robotsrules:",
        ttl_grace: float = 30 * DAY,
        *,
        timeout: float = 2.0,
        connect_timeout: float = 2.0,
        retry_after: float = 5.0,
        clock: Callable[[], float] = time.time,
        fleet_lock: bool = True,
        lock_bound: Optional[float] = None,
    ) -> None:
        if ttl_grace < 0:
            raise InvalidArgument(f"ttl_grace must not be negative, not {ttl_grace}")
        for name, value in (("timeout", timeout), ("connect_timeout", connect_timeout)):
            if not 0 < value < math.inf:
                raise InvalidArgument(f"{name} must be a positive finite number, not {value!r}")
        if not 0 <= retry_after < math.inf:
            raise InvalidArgument(f"retry_after must be a finite number >= 0, not {retry_after!r}")
        if lock_bound is not None and not 0 < lock_bound < math.inf:
            raise InvalidArgument(
                f"lock_bound must be a positive finite number, not {lock_bound!r}")
        self._owned = client is None
        if client is None:
            client = redis.Redis.from_url(
                url, socket_timeout=timeout, socket_connect_timeout=connect_timeout,
                retry=Retry(NoBackoff(), 0), retry_on_timeout=False)
        else:
            kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", {})
            if isinstance(kwargs, dict) and kwargs.get("socket_timeout", 0) is None:
                log.warning("RedisStore: the Redis client has no socket_timeout: a call to a "
                            "frozen server will block forever; set socket_timeout")
        self.client: redis.Redis = client
        self.prefix = prefix
        self.ttl_grace = ttl_grace
        self.retry_after = retry_after
        self.dropped_writes = 0
        """Writes not made: each lost its check and set to concurrent writes of the key
        ``_CAS_ATTEMPTS`` times in a row."""
        self._clock = clock
        self._down_until = 0.0  # time.monotonic() before which the server is left alone
        self._guard = threading.Lock()
        self.fleet: Optional[RedisFleetLock] = (
            RedisFleetLock(self, lock_bound) if fleet_lock else None)
        """The fleet lock the caches take (``None``: ``fleet_lock=False``)."""

    def key(self, origin: str) -> str:
        """The Redis key of ``origin``."""
        return self.prefix + origin

    def ttl(self, entry: Entry) -> int:
        """Seconds the key of ``entry`` lives: until its latest result expires, plus the grace
        (never less than the grace, nor than one second)."""
        left = max(entry.latest.expires_at - self._clock(), 0.0)
        return max(math.ceil(left + self.ttl_grace), 1)

    def _call(self, action: Callable[[], Any]) -> Any:
        """Run ``action`` against the server, unless it failed less than ``retry_after``
        ago; a connection failure or time-out starts that pause."""
        if time.monotonic() < self._down_until:
            raise redis.ConnectionError(
                f"Redis failed less than {self.retry_after:g} s ago; not retried yet")
        try:
            return action()
        except (redis.ConnectionError, redis.TimeoutError):
            with self._guard:
                self._down_until = time.monotonic() + self.retry_after
            raise

    def _decoded(self, data: Any) -> Optional[Entry]:
        if data is None:
            return None
        if not isinstance(data, bytes):
            raise TypeError("RedisStore needs a client with decode_responses=False")
        try:
            return decode(data)
        except ValueError:  # damaged, tampered with, or written by another version: a miss
            return None

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin``, or ``None``. A value that does not decode is deleted
        (unless another client has replaced it meanwhile)."""
        key = self.key(origin)
        data: Any = self._call(lambda: self.client.get(key))
        entry = self._decoded(data)
        if entry is None and data is not None:
            self._call(lambda: self._delete_if(key, data))
        return entry

    def _delete_if(self, key: str, data: bytes) -> None:
        with self.client.pipeline() as pipe:
            try:
                pipe.watch(key)  # type: ignore[no-untyped-call]
                if pipe.get(key) == data:
                    pipe.multi()
                    pipe.delete(key)
                    pipe.execute()
            except redis.WatchError:
                pass  # replaced meanwhile: not ours to delete

    def put(self, origin: str, entry: Entry) -> Optional[Entry]:
        """Store ``entry`` for ``origin``, merged with the entry stored meanwhile by another
        client, with its TTL; return what is now stored (``None``: the write was dropped,
        see :attr:`dropped_writes`)."""
        key = self.key(origin)
        written: Optional[Entry] = self._call(lambda: self._put(key, entry))
        if written is None:
            with self._guard:
                self.dropped_writes += 1
            log.warning("RedisStore: write for %s dropped after %d concurrent writes",
                        origin, _CAS_ATTEMPTS)
        return written

    def _put(self, key: str, entry: Entry) -> Optional[Entry]:
        with self.client.pipeline() as pipe:
            for _attempt in range(_CAS_ATTEMPTS):
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    stored = self._decoded(pipe.get(key))
                    merged = merge(stored, entry)
                    pipe.multi()  # written even when unchanged: the key gets this TTL
                    pipe.set(key, encode(merged), ex=self.ttl(merged))
                    pipe.execute()
                    return merged
                except redis.WatchError:
                    continue
        return None

    def delete(self, origin: str) -> None:
        """Forget ``origin`` (no error if absent)."""
        key = self.key(origin)
        self._call(lambda: self.client.delete(key))

    def close(self) -> None:
        """Close the client if this store made it; a client passed in is left open."""
        if self._owned:
            self.client.close()


class RedisFleetLock:
    """The fleet lock of a :class:`RedisStore` (see the module docstring); its calls go
    through the store's pause after a failure, and raise what the client raises."""

    def __init__(self, store: RedisStore, bound: Optional[float]) -> None:
        self.store = store
        self.bound = bound
        """The lock's lifetime in seconds (``None``: the fetch's deadline plus
        :data:`LOCK_MARGIN`)."""

    def names(self, name: str) -> tuple[str, str]:
        """The lock's key and its release channel."""
        return self.store.prefix + "lock:" + name, self.store.prefix + "released:" + name

    def take(self, name: str, deadline: float) -> Optional[str]:
        """The token of the lock of ``name``, now taken for ``deadline`` seconds plus the
        margin (or :attr:`bound`), or ``None`` if another holder has it."""
        key, _ = self.names(name)
        token = secrets.token_hex(16)
        bound = self.bound if self.bound is not None else deadline + LOCK_MARGIN
        milliseconds = max(math.ceil(bound * 1000), 1)
        client = self.store.client
        taken = self.store._call(lambda: client.set(key, token, nx=True, px=milliseconds))
        return token if taken else None

    def release(self, name: str, token: str) -> bool:
        """Delete the lock of ``name`` if ``token`` holds it, and wake its waiters."""
        key, channel = self.names(name)
        client = self.store.client
        done = self.store._call(lambda: client.eval(_RELEASE, 2, key, channel, token))
        return bool(done)

    def wait(self, name: str, deadline: float) -> None:
        """Until the lock of ``name`` is released (its channel's message) or expires (its
        ``PTTL``, read after subscribing so that no release is missed), but no longer than
        this store's own bound for a fetch of ``deadline`` seconds: a lock that outlives it
        raises :class:`TimeoutError` (the caller then fetches per process)."""
        key, channel = self.names(name)
        own = self.bound if self.bound is not None else deadline + LOCK_MARGIN
        client = self.store.client
        pubsub: Any = client.pubsub(  # type: ignore[no-untyped-call]
            ignore_subscribe_messages=True)
        try:
            self.store._call(lambda: pubsub.subscribe(channel))
            left: Any = self.store._call(lambda: client.pttl(key))
            if not isinstance(left, int) or left < 0:  # free (-2), or with no expiry (-1)
                return
            end = time.monotonic() + min(left / 1000, own)
            while True:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    if left / 1000 > own:
                        raise TimeoutError(f"the fleet lock of {name} is held longer than "
                                           f"this process's bound ({own:g} s)")
                    return
                message: Any = self.store._call(partial(pubsub.get_message, timeout=remaining))
                if isinstance(message, dict) and message.get("type") == "message":
                    return
        finally:
            pubsub.close()
