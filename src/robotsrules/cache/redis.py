"""A store in Redis, shared by every crawler that reaches the server.

Needs the optional ``redis`` package: ``pip install 'robotsrules[redis]'``. This is the only
module that imports it.

Each origin is one key, ``prefix + origin``, whose value is the entry in the
:mod:`~robotsrules.cache.codec` format (data only, never pickle: whoever can write to a
shared Redis must not be able to run code in the crawlers that read it). Each key expires
``ttl_grace`` (30 days) after its latest result does, so Redis drops abandoned origins by
itself while the last good copy outlives a refresh that failed (Google's 30-day rule).
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Optional

try:
    import redis
except ImportError as exc:  # pragma: no cover - the extra is installed for the tests
    raise ImportError(
        "robotsrules.cache.redis needs the 'redis' package: pip install 'robotsrules[redis]'"
    ) from exc

from ..policy import DAY, Entry
from .codec import decode, encode

__all__ = ["RedisStore"]


class RedisStore:
    """Entries in Redis under ``prefix + origin``.

    ``client`` is a :class:`redis.Redis` to use (it must return bytes: keep the default
    ``decode_responses=False``); without one, a client for ``url`` is made, and closed by
    :meth:`close`. ``clock`` gives the current time (seconds since the epoch) for key TTLs.
    """

    def __init__(
        self,
        client: Optional[redis.Redis] = None,
        url: str = "redis://localhost:6379/0",
        prefix: str = "robotsrules:",
        ttl_grace: float = 30 * DAY,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl_grace < 0:
            raise ValueError(f"ttl_grace must not be negative, not {ttl_grace}")
        self._owned = client is None
        self.client: redis.Redis = redis.Redis.from_url(url) if client is None else client
        self.prefix = prefix
        self.ttl_grace = ttl_grace
        self._clock = clock

    def key(self, origin: str) -> str:
        """The Redis key of ``origin``."""
        return self.prefix + origin

    def ttl(self, entry: Entry) -> int:
        """Seconds the key of ``entry`` lives: until its latest result expires, plus the grace
        (never less than the grace, nor than one second)."""
        left = max(entry.latest.expires_at - self._clock(), 0.0)
        return max(math.ceil(left + self.ttl_grace), 1)

    def get(self, origin: str) -> Optional[Entry]:
        """The entry for ``origin``, or ``None``. A value that does not decode is deleted."""
        data: Any = self.client.get(self.key(origin))
        if data is None:
            return None
        if not isinstance(data, bytes):
            raise TypeError("RedisStore needs a client with decode_responses=False")
        try:
            return decode(data)
        except ValueError:  # damaged, or written by another version: a miss
            self.delete(origin)
            return None

    def put(self, origin: str, entry: Entry) -> None:
        """Store ``entry`` for ``origin`` with its TTL (one ``SET ... EX``)."""
        self.client.set(self.key(origin), encode(entry), ex=self.ttl(entry))

    def delete(self, origin: str) -> None:
        """Forget ``origin`` (no error if absent)."""
        self.client.delete(self.key(origin))

    def close(self) -> None:
        """Close the client if this store made it; a client passed in is left open."""
        if self._owned:
            self.client.close()
