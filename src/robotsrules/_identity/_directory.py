"""Key directories of signed requests (Web Bot Auth): found, fetched, bounded and cached.

Theory of operation. A signed request names its signer's key directory in its
``Signature-Agent`` header (read by :func:`~robotsrules._identity._httpsig.parse_signature_agent`:
an origin names its ``/.well-known/http-message-signatures-directory``, a full URL names a JWK
Set itself, draft-ietf-webbotauth-httpsig-protocol-01 of 2026-10-29). That URL comes from a
stranger, so it is fetched here only through the fetch layer's guard against server-side
request forgery (:class:`~robotsrules._fetch._pinned.Guard`; ``allow_private_addresses``
lifts it, for a directory on your own network and for tests on loopback), and only as the
directory draft (draft-meunier-webbotauth-httpsig-directory-00, 2026-06-26) serves it:

====================================  ==========================================================
the answer                            read as
====================================  ==========================================================
200, the directory media type, whole  its keys (``_httpsig.parse_directory``: each ``kid``
                                      equal to its key's thumbprint)
any other status, a redirect too      unreachable (the draft's discovery takes a 200 only: a
                                      redirect is never followed, wherever it points)
another media type                    unreachable (a page that is JSON is no directory)
longer than :data:`MAX_BYTES`         unreachable (read no further)
slower than the deadline              unreachable (``total_timeout`` bounds the whole fetch)
an address the guard refuses          unreachable, saying so
a signed response that fails          unreachable (a proof whose ``created`` lies in the
                                      future is refused; an unsigned directory is read)
====================================  ==========================================================

"Unreachable" makes a signature check ``unknown``, never "verified" nor "not verified". TLS
trusts the system's certificate store (OpenSSL's default paths, so ``SSL_CERT_FILE`` and
``SSL_CERT_DIR`` are honoured) or the ``ca_bundle`` file given instead.

Directories are cached by URL (:class:`KeyDirectories`, at most ``cache_size`` of them, least
recently used dropped first): a directory for its ``Cache-Control: max-age`` kept within
:data:`MIN_TTL` and :data:`MAX_TTL` (:data:`DEFAULT_TTL` without one; never kept when it
says ``no-store``, ``no-cache`` or ``max-age=0``, RFC 9111 §5.2.2), a failure, a time-out
too, for :data:`FAILURE_TTL` (so that a stream of requests naming a dead or silent
directory does not wait for it each time). Keys are looked up by the pair (directory URL,
``keyid``), never by ``keyid`` alone: a key that one directory lists proves nothing for another.
"""

from __future__ import annotations

import datetime
import math
import re
import ssl
import threading
import time
from collections.abc import Mapping
from typing import Callable, NamedTuple, Optional

from .._lru import LRU
from .._terminal import visible
from .._version import __version__
from ..errors import InvalidArgument
from ._httpsig import MAX_DIRECTORY_BYTES, DirectoryUnavailable, PublicKey
from ._webbotauth import standard

__all__ = ["DEFAULT_TTL", "FAILURE_TTL", "MAX_BYTES", "MAX_TTL", "MIN_TTL",
           "KeyDirectories", "KeyDirectory", "tls_context"]

MAX_BYTES = MAX_DIRECTORY_BYTES
"""The largest directory read: a JWK Set of a few Ed25519 keys is well under 2 KiB."""
DEFAULT_TTL = 3600.0
MIN_TTL = 60.0
MAX_TTL = 86400.0
FAILURE_TTL = 60.0
"""Seconds a directory that could not be had (a time-out too) is remembered as such."""
USER_AGENT = f"robotsrules/{__version__} (+https://pypi.org/project/robotsrules/)"

_MAX_AGE = re.compile(r"(?:^|[,\s])max-age\s*=\s*\"?(\d{1,10})\"?", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|[,\s])no-(?:store|cache)\b", re.IGNORECASE)


class KeyDirectory(NamedTuple):
    """One key directory as fetched: its keys (thumbprint to public key), or why it could
    not be had."""

    url: str
    keys: Mapping[str, PublicKey]
    error: Optional[str] = None
    """Why the directory could not be had (shown with control characters made visible)."""
    signed: bool = False
    """The response carried a directory signature and it verified."""

    @property
    def reachable(self) -> bool:
        """The directory was had (its keys, possibly none, are what it lists)."""
        return self.error is None


def tls_context(ca_bundle: Optional[str] = None) -> ssl.SSLContext:
    """The TLS settings of directory fetches: the system's certificate store (OpenSSL's
    default paths: ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` honoured), or only ``ca_bundle``
    (a PEM file) when given. Raises :class:`OSError` or :class:`ssl.SSLError` for a bundle
    that cannot be read."""
    if ca_bundle is not None:
        return ssl.create_default_context(cafile=ca_bundle)
    return ssl.create_default_context()


def _media_type(value: Optional[str]) -> str:
    return (value or "").split(";", 1)[0].strip().lower()


def _ttl(cache_control: Optional[str]) -> float:
    """Seconds to keep a directory: 0 (fetched again next time) for ``no-store``,
    ``no-cache`` or ``max-age=0`` (RFC 9111 §5.2.2.4, §5.2.2.5: an operator withdrawing a
    compromised key says so), else its ``max-age`` within :data:`MIN_TTL` and
    :data:`MAX_TTL`."""
    text = cache_control or ""
    if _NO_CACHE.search(text):
        return 0.0
    found = _MAX_AGE.search(text)
    if found is None:
        return DEFAULT_TTL
    if int(found.group(1)) == 0:
        return 0.0
    return min(MAX_TTL, max(MIN_TTL, float(found.group(1))))


class KeyDirectories:
    """Fetches key directories and keeps them: call it with a directory URL for a
    :class:`KeyDirectory`, or ask :meth:`key_for` for one key.

    ``allow_private_addresses=True`` lifts the guard against server-side request forgery
    (a directory on loopback, a private network, ...); ``ca_bundle`` replaces the system's
    certificate store with one PEM file; ``timeout`` bounds connecting and each read,
    ``total_timeout`` the whole fetch; ``cache_size`` bounds the directories kept; ``clock``
    (monotonic seconds) dates their lifetimes. Safe to share between threads. Raises
    :class:`~robotsrules.InvalidArgument` for time-outs that are not finite seconds, and
    :class:`OSError` or :class:`ssl.SSLError` for a ``ca_bundle`` that cannot be read."""

    def __init__(self, *, allow_private_addresses: bool = False,
                 ca_bundle: Optional[str] = None, timeout: float = 5.0,
                 total_timeout: float = 10.0, cache_size: int = 256,
                 user_agent: str = USER_AGENT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        from .._fetch._pinned import Guard

        for name, seconds in (("timeout", timeout), ("total_timeout", total_timeout)):
            if not (isinstance(seconds, (int, float)) and math.isfinite(seconds)
                    and 0 < seconds <= MAX_TTL):
                raise InvalidArgument(f"{name} must be finite seconds above 0 and at most "
                                      f"{MAX_TTL:g}")
        if not isinstance(cache_size, int) or cache_size < 1:
            raise InvalidArgument("cache_size is a whole number of at least 1")
        self.allow_private_addresses = allow_private_addresses
        self.ca_bundle = ca_bundle
        self._guard = Guard(allow_private_addresses=allow_private_addresses)
        self._tls = tls_context(ca_bundle)
        self._timeout = timeout
        self._total = total_timeout
        self._user_agent = user_agent
        self._clock = clock
        self._cache: LRU[str, tuple[float, KeyDirectory]] = LRU(cache_size)
        self._lock = threading.Lock()
        self.fetches = 0
        """How many directories were fetched (not answered from the cache)."""

    def __call__(self, url: str, now: Optional[datetime.datetime] = None) -> KeyDirectory:
        """The directory at ``url``, from the cache while it lives, else fetched. ``now``
        dates the check of a signed directory response (default: the current time)."""
        with self._lock:
            kept = self._cache.get(url)
        if kept is not None and kept[0] > self._clock():
            return kept[1]
        found, ttl = self._fetch(url, now)
        if ttl > 0:
            with self._lock:
                self._cache.put(url, (self._clock() + ttl, found))
        return found

    def key_for(self, url: str, keyid: str,
                now: Optional[datetime.datetime] = None) -> Optional[PublicKey]:
        """The public key ``keyid`` of the directory at ``url``, or ``None`` when that
        directory does not list it. Raises
        :class:`~robotsrules._identity._httpsig.DirectoryUnavailable` when the directory
        could not be had (the ``key_for`` of ``verify_signature``)."""
        found = self(url, now)
        if found.error is not None:
            raise DirectoryUnavailable(found.error)
        return found.keys.get(keyid)

    def _fetch(self, url: str, now: Optional[datetime.datetime]) -> tuple[KeyDirectory, float]:
        """The directory and how long to keep it (0: not at all)."""
        from .._fetch._fetcher import fetch_page

        self.fetches += 1
        page = fetch_page(url, user_agent=self._user_agent, max_bytes=MAX_BYTES,
                          timeout=self._timeout, total_timeout=self._total,
                          accept=standard().media_type, follow_redirects=False, guard=self._guard,
                          verify=self._tls)
        shown = visible(url[:300])
        if page.error is not None or page.status is None:
            error = page.error or "no answer"
            # A time-out too is kept: a directory that accepts and never answers would
            # otherwise hold every request naming it for the whole deadline.
            return self._failed(url, f"{shown}: {visible(error[:300])}"), FAILURE_TTL
        headers = {name.lower(): value for name, value in page.headers}
        if page.status != 200:
            what = f"a redirect to {visible(headers.get('location', '')[:300])}" \
                if 300 <= page.status < 400 else f"status {page.status}"
            return self._failed(url, f"{shown} answered {what} (a key directory is a 200 "
                                     "answer only, never followed elsewhere)"), FAILURE_TTL
        media = _media_type(headers.get("content-type"))
        if media != standard().media_type:
            return self._failed(url, f"{shown} is served as '{visible(media[:100])}', not "
                                     f"{standard().media_type}"), FAILURE_TTL
        if page.truncated:
            return self._failed(url, f"{shown} is longer than {MAX_BYTES:,} bytes"), FAILURE_TTL
        from ._httpsig import parse_directory, verify_directory_response

        try:
            keys = parse_directory(page.body)
        except ValueError as error:
            return self._failed(url, f"{shown} is no usable key directory: "
                                     f"{visible(str(error)[:300])}"), FAILURE_TTL
        signed = False
        if "signature" in headers or "signature-input" in headers:
            moment = (now or datetime.datetime.now(datetime.timezone.utc)).timestamp()
            proof = verify_directory_response(url, headers, page.body, now=moment)
            if not proof.verified:
                return self._failed(url, f"{shown}: its signed response does not verify "
                                         f"({proof.reason}: {visible(proof.detail[:200])})"
                                    ), FAILURE_TTL
            signed = True
        return KeyDirectory(url, keys, None, signed), _ttl(headers.get("cache-control"))

    @staticmethod
    def _failed(url: str, error: str) -> KeyDirectory:
        return KeyDirectory(url, {}, error)
