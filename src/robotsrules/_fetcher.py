"""Fetching a robots.txt over HTTP(S) (httpx) and FTP (ftplib), sync and async.

Thin drivers of :func:`robotsrules.policy.fetch_flow`: the policy decides what to request
and what each answer means; the code here only performs requests and reads bodies, within
these bounds:

* at most ``max_bytes`` of the *decompressed* body are read, then the connection is
  dropped. ``gzip`` and ``deflate`` are decoded here, chunk by chunk, with zlib's output
  limit, so a compression bomb never inflates past the limit;
* connect and read time-outs of ``timeout`` seconds, and a deadline of ``total_timeout``
  for the whole fetch (a server that drips one byte per second cannot hold a fetch open),
  over HTTP and FTP alike, on new and on reused (kept-alive) HTTP/1.1 connections;
* a body is used only when it arrived whole: one cut by the deadline, shorter than its
  ``Content-Length``, without its last chunk, or whose gzip/deflate stream has no end is
  ``unreachable``, never a (shorter, hence more permissive) file;
* redirects are followed by the policy (at most five, loops detected, http/https/ftp only,
  unusable targets ``unavailable``), never by httpx; credentials of a caller's client
  (``auth``, an ``Authorization`` header, cookies) are sent only while the hops stay on the
  robots.txt's own origin (or its https upgrade).

Network failures never raise: they become an ``unreachable`` :class:`FetchResult` whose
``error`` says what happened ("connection refused", "timed out", ...).
"""

from __future__ import annotations

import asyncio
import contextlib
import ftplib
import functools
import logging
import socket
import sys
import threading
import time
import zlib
from concurrent.futures import Executor
from types import FrameType
from typing import Any, Generator, List, Optional
from urllib.parse import unquote, urlsplit

import httpx

from ._drive import arun, run
from ._scope import DEFAULT_PORTS, robots_url, split_origin
from .errors import InvalidURL
from .policy import Answer, FetchResult, Policy, Request, fetch_flow, target_problem
from .robotstxt import DEFAULT_MAX_BYTES

__all__ = ["DEFAULT_TIMEOUT", "afetch", "fetch"]

DEFAULT_TIMEOUT = 10.0
"""Seconds allowed to connect, and between two reads."""

_ACCEPT = "text/plain, text/*;q=0.9, */*;q=0.5"
_TIMED_OUT = "timed out (total time limit)"
_GZIP_MAGIC = b"\x1f\x8b"

log = logging.getLogger("robotsrules")


class _Body:
    """Collects at most ``limit`` decoded octets of a body, decoding gzip/deflate itself.

    :meth:`finish` tells, once the transfer has ended, whether a compressed body was whole:
    a gzip or deflate stream without its end (the final block, the CRC and length) was cut,
    and is an error. A gzip body may hold several members (RFC 1952 §2.2): all are decoded.
    Octets after the end of the stream that start no new member are junk: they are counted
    in :attr:`junk` and logged, and the decoded body is kept.
    """

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.truncated = False
        self.error: Optional[str] = None
        self.junk = 0
        """Octets after the end of the compressed stream (not a new gzip member)."""
        self.raw = 0
        coding = encoding.strip().lower()
        self._decoder: Optional[zlib._Decompress] = None
        self._deflate = False
        self._gzip = False
        self._after = b""  # octets after a finished gzip member, until 2 tell what they are
        if coding in ("gzip", "x-gzip"):
            self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self._gzip = True
        elif coding == "deflate":
            self._decoder = zlib.decompressobj()
            self._deflate = True
        elif coding not in ("", "identity"):
            self.error = f"unsupported content-encoding {encoding!r}"

    @property
    def _kind(self) -> str:
        return "gzip" if self._gzip else "deflate"

    def feed(self, raw: bytes) -> bool:
        """Add a raw chunk; True when no more is wanted (limit reached or error)."""
        if self.error is not None:
            return True
        if not raw:
            return False
        self.raw += len(raw)
        if self._decoder is None:
            return self._add(raw[: self.limit - self.size + 1])
        return self._decode(raw)

    def _add(self, data: bytes) -> bool:
        self.parts.append(data)
        self.size += len(data)
        if self.size > self.limit:
            self.truncated = True
            return True
        return False

    def _decode(self, raw: bytes) -> bool:
        # A loop, not recursion: one chunk may hold thousands of tiny gzip members.
        while raw:
            decoder = self._decoder
            assert decoder is not None
            if decoder.eof:  # octets after the end of a stream: a new member, or junk
                if self.junk:
                    self.junk += len(raw)
                    return True
                self._after += raw
                if len(self._after) < len(_GZIP_MAGIC):
                    return False
                raw, self._after = self._after, b""
                if self._gzip and raw.startswith(_GZIP_MAGIC):
                    self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    continue
                self.junk = len(raw)
                return True  # the stream was whole; the rest is not wanted
            room = self.limit - self.size + 1  # one octet more tells that the body is longer
            try:
                data = decoder.decompress(raw, room)
            except zlib.error as error:
                if self._deflate and self.size == 0:  # "deflate" without its zlib header
                    self._decoder = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._deflate = False
                    continue
                self.error = f"bad {self._kind} data: {error}"
                return True
            self._deflate = False
            if self._add(data):
                return True
            raw = decoder.unused_data if decoder.eof else b""
        return False

    def finish(self) -> None:
        """The transfer ended normally: check that a compressed stream ended too."""
        if self.error is not None or self.truncated or self._decoder is None:
            return
        if self.raw == 0:  # no body at all (a HEAD-like empty answer): nothing was cut
            return
        if self._after:  # one lone octet after the end
            self.junk += len(self._after)
            self._after = b""
        if not self._decoder.eof:
            self.error = f"truncated {self._kind} data: the stream has no end"

    def answer(self, status: int, headers: httpx.Headers, url: str = "") -> Answer:
        """The :class:`Answer` for this body (an error one if the body was bad)."""
        body = b"".join(self.parts)[: self.limit]
        if self.error is not None:
            return Answer(status=status, headers=dict(headers), error=self.error)
        if self.junk:
            log.warning("%s: %d octets of junk after the end of the %s stream (ignored)",
                        url or "robots.txt", self.junk, self._kind)
        return Answer(status=status, headers=dict(headers), body=body, truncated=self.truncated)


def _root_cause(error: BaseException) -> BaseException:
    """The innermost OS-level error under library wrappers (anyio and httpcore chain them)."""
    seen = 0
    current: Optional[BaseException] = error
    while current is not None and seen < 10:
        if isinstance(current, (ConnectionRefusedError, ConnectionResetError, socket.gaierror)):
            return current
        current = current.__cause__ or current.__context__
        seen += 1
    return error


def _describe(error: BaseException) -> str:
    """A short, human message for a network error."""
    if isinstance(error, (httpx.TimeoutException, TimeoutError, socket.timeout)):
        return "timed out"
    root = _root_cause(error)
    if isinstance(root, ConnectionRefusedError):
        return "connection refused"
    if isinstance(root, socket.gaierror):
        return f"DNS lookup failed: {root}"
    if isinstance(error, httpx.ConnectError):
        text = str(error) or "connection failed"
        if "refused" in text.lower():
            return "connection refused"
        if any(word in text.lower() for word in ("name or service", "nodename", "resolution")):
            return f"DNS lookup failed: {text}"
        return f"connection failed: {text}"
    if isinstance(error, httpx.RemoteProtocolError):
        return f"invalid or truncated response: {error}"
    if isinstance(error, httpx.ReadError) or isinstance(root, ConnectionResetError):
        return f"connection reset while reading: {error}" if str(error) else "connection reset"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _connection_stream(depth: int = 8) -> Any:
    """The network stream of the HTTP/1.1 connection whose request is being traced, or None.

    httpcore's trace hook gives no handle on a connection taken from the pool (a kept-alive
    connection of the caller's client: no connect event). The HTTP/1.1 connection that
    calls the hook, a few frames up, holds its stream as ``_network_stream`` (httpcore 1.x).
    That attribute is private: when it is not found, only the per-read time-out bounds such a
    request (tests/hostile/test_fetch_matrix.py checks that it is found).
    """
    frame: Optional[FrameType] = sys._getframe(2)  # skip this and _Watchdog.trace
    for _ in range(depth):
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        stream = getattr(owner, "_network_stream", None) if owner is not None else None
        if stream is not None and callable(getattr(stream, "get_extra_info", None)):
            return stream
        frame = frame.f_back
    return None


class _Watchdog:
    """Enforces the total deadline of a sync request, even while a server drips its head.

    httpx's time-outs are per read; a server sending one byte per second never trips them.
    Through httpcore's trace hook we learn the socket of each new connection (connect
    events) and of a reused HTTP/1.1 connection (when the request headers go out, see
    :func:`_connection_stream`); the FTP driver hands its sockets to :meth:`watch`. When the
    deadline passes a timer shuts them down, which ends a blocked read at once; the caller
    then sees :attr:`fired` and reads whatever came as a timeout, never as a whole body.
    (An HTTP/2 connection of a caller's client is shared by other requests and is never shut
    down: only the per-read time-out and the checks between reads bound it.)
    """

    _EVENTS = ("connection.connect_tcp.complete", "connection.start_tls.complete")
    _REQUEST = "http11.send_request_headers.started"

    def __init__(self, deadline: float) -> None:
        self.fired = False
        self._done = False
        self._sockets: List[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(deadline - time.monotonic(), 0.0), self._fire)
        self._timer.daemon = True

    def trace(self, name: str, info: dict[str, object]) -> None:
        """httpcore's trace hook (the ``trace`` request extension)."""
        if name not in self._EVENTS and name != self._REQUEST:
            return
        try:  # a hook that raised would break the request: learn nothing rather
            if name == self._REQUEST:
                stream: Any = _connection_stream()
            else:
                stream = info.get("return_value")
            get = getattr(stream, "get_extra_info", None)
            sock = get("socket") if get is not None else None
        except Exception:  # nothing to watch: the per-read time-out still applies
            return
        self.watch(sock)

    def watch(self, sock: object) -> None:
        """Shut ``sock`` down at the deadline (at once if it has passed)."""
        if not isinstance(sock, socket.socket):
            return
        with self._lock:
            self._sockets.append(sock)
            if self.fired:
                self._shut(sock)

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.fired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:  # a connection back in the caller's pool is not ours to shut
            self._done = True
        self._timer.cancel()


def _headers(user_agent: str) -> dict[str, str]:
    return {"User-Agent": user_agent, "Accept": _ACCEPT, "Accept-Encoding": "gzip, deflate"}


def _keeps_credentials(start: str, url: str) -> bool:
    """True when a request to ``url`` may carry the credentials meant for ``start``: the same
    origin, or its upgrade from http to https on default ports (as httpx decides)."""
    try:
        first, then = split_origin(start), split_origin(url)
    except InvalidURL:
        return False
    if first == then:
        return True
    return (first[0], then[0]) == ("http", "https") and first[1] == then[1] and (
        first[2] is None and then[2] is None)


def _request(client: httpx.Client | httpx.AsyncClient, url: str, user_agent: str,
             credentials: bool, extensions: Optional[dict[str, Any]] = None) -> httpx.Request:
    request = client.build_request("GET", url, headers=_headers(user_agent),
                                   extensions=extensions)
    if not credentials:  # another origin: none of the caller's Authorization or cookies
        for name in ("authorization", "cookie"):
            if name in request.headers:
                del request.headers[name]
    return request


def _bad_location(error: BaseException) -> bool:
    """httpx reports a ``Location`` it cannot parse as a protocol error; it is a redirect
    to an unusable target (``unavailable``), not a broken response."""
    return (isinstance(error, httpx.RemoteProtocolError)
            and "location header" in str(error).lower())


def _unexpected(error: BaseException) -> Answer:
    """An error no branch expected: never raised to the caller, never read as a file."""
    log.warning("robots.txt fetch failed unexpectedly: %r", error)
    return Answer(error=f"unexpected {type(error).__name__}: {error}")


class _WatchedFTP(ftplib.FTP):
    """An :class:`ftplib.FTP` that hands its control socket to a watchdog as soon as
    ``connect`` makes it, before reading the greeting (which a server may drip)."""

    def __init__(self, watchdog: _Watchdog, timeout: float) -> None:
        self._watchdog = watchdog
        super().__init__(timeout=timeout)

    @property
    def sock(self) -> Optional[socket.socket]:
        value: Optional[socket.socket] = self.__dict__.get("_watched_sock")
        return value

    @sock.setter
    def sock(self, value: Optional[socket.socket]) -> None:
        self.__dict__["_watched_sock"] = value
        self._watchdog.watch(value)


def _ftp_answer(url: str, user_agent: str, timeout: float, limit: int,
                deadline: Optional[float] = None) -> Answer:
    """Anonymous RETR of an ftp:// robots.txt (RFC 9309 §2.3; Google fetches over FTP),
    within ``deadline`` (``time.monotonic()``; default ``3 * timeout`` from now).

    The file counts as whole only when the data connection ended by itself and the server
    then confirmed the transfer (226); a transfer cut by the deadline is a time-out.
    """
    if deadline is None:
        deadline = time.monotonic() + 3 * timeout
    problem = target_problem(url)
    if problem is not None:
        return Answer(error=f"cannot request {url!r}: {problem}")
    if time.monotonic() >= deadline:
        return Answer(error=_TIMED_OUT)
    parts = urlsplit(url)
    body = _Body("", limit)
    with _Watchdog(deadline) as watchdog:
        ftp = _WatchedFTP(watchdog, timeout)
        try:
            ftp.connect(parts.hostname or "", parts.port or DEFAULT_PORTS["ftp"])
            ftp.login(unquote(parts.username or "anonymous"),
                      unquote(parts.password or f"{user_agent.split('/')[0]}@"))
            ftp.voidcmd("TYPE I")
            conn = ftp.transfercmd(f"RETR {unquote(parts.path or '/robots.txt')}")
            watchdog.watch(conn)
            ended = False
            try:
                while not watchdog.fired and time.monotonic() <= deadline:
                    chunk = conn.recv(16384)
                    if not chunk:
                        ended = True
                        break
                    if body.feed(chunk):  # enough read: stop the transfer
                        break
            finally:
                conn.close()
            if watchdog.fired or (not ended and not body.truncated):
                return Answer(error=_TIMED_OUT)
            if ended:
                ftp.voidresp()  # 226, or an error reply for a transfer that failed
            return body.answer(200, httpx.Headers(), url)
        except ftplib.error_perm as error:  # 5xx: the file is not there (or not for us)
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return Answer(status=404, error=None, headers={"x-ftp-reply": str(error)})
        except ftplib.error_temp as error:  # 4xx: try again later
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return Answer(status=503, headers={"x-ftp-reply": str(error)})
        except (OSError, EOFError, ftplib.Error) as error:
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return Answer(error=_describe(error))
        except (ValueError, UnicodeError) as error:  # ftplib refuses CR/LF in a command
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return Answer(error=f"cannot request {url!r}: {error}")
        except Exception as error:  # nothing a server does may raise
            return _unexpected(error)
        finally:
            with contextlib.suppress(OSError):
                ftp.close()


def _get(client: httpx.Client, url: str, user_agent: str, limit: int, deadline: float,
         credentials: bool = True) -> Answer:
    problem = target_problem(url)
    if problem is not None:  # the robots.txt URL itself (redirect targets are vetted)
        return Answer(error=f"cannot request {url!r}: {problem}")
    with _Watchdog(deadline) as watchdog:
        try:
            request = _request(client, url, user_agent, credentials,
                               {"trace": watchdog.trace})
            response = client.send(request, stream=True, follow_redirects=False,
                                   auth=httpx.USE_CLIENT_DEFAULT if credentials else None)
            try:
                if 300 <= response.status_code < 400:
                    return Answer(status=response.status_code, headers=dict(response.headers))
                body = _Body(response.headers.get("content-encoding", ""), limit)
                for raw in response.iter_raw():
                    if body.feed(raw):
                        break
                    if time.monotonic() > deadline:
                        return Answer(error=_TIMED_OUT)
                else:
                    body.finish()
                if watchdog.fired:  # the end of the body may be our own shutdown
                    return Answer(error=_TIMED_OUT)
                return body.answer(response.status_code, response.headers, url)
            finally:
                response.close()
        except httpx.InvalidURL as error:  # httpx could not build the redirect's request
            return Answer(bad_redirect=str(error))
        except (httpx.HTTPError, OSError) as error:
            if _bad_location(error):
                return Answer(bad_redirect=str(error))
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return Answer(error=_describe(error))
        except (ValueError, UnicodeError, OverflowError) as error:
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            # The URL was vetted: httpx failed to build the request for the answer's Location
            # (it does for every 3xx, following or not).
            return Answer(bad_redirect=f"{error}")
        except Exception as error:  # nothing a server does may raise
            if watchdog.fired:
                return Answer(error=_TIMED_OUT)
            return _unexpected(error)


async def _aget(client: httpx.AsyncClient, url: str, user_agent: str, limit: int,
                credentials: bool = True) -> Answer:
    problem = target_problem(url)
    if problem is not None:  # as in _get
        return Answer(error=f"cannot request {url!r}: {problem}")
    try:
        request = _request(client, url, user_agent, credentials)
        response = await client.send(request, stream=True, follow_redirects=False,
                                     auth=httpx.USE_CLIENT_DEFAULT if credentials else None)
        try:
            if 300 <= response.status_code < 400:
                return Answer(status=response.status_code, headers=dict(response.headers))
            body = _Body(response.headers.get("content-encoding", ""), limit)
            async for raw in response.aiter_raw():
                if body.feed(raw):
                    break
            else:
                body.finish()
            return body.answer(response.status_code, response.headers, url)
        finally:
            await response.aclose()
    except httpx.InvalidURL as error:  # httpx could not build the redirect's request
        return Answer(bad_redirect=str(error))
    except (httpx.HTTPError, OSError) as error:
        if _bad_location(error):
            return Answer(bad_redirect=str(error))
        return Answer(error=_describe(error))
    except (ValueError, UnicodeError, OverflowError) as error:  # as in _get
        return Answer(bad_redirect=f"{error}")
    except Exception as error:  # nothing a server does may raise
        return _unexpected(error)


def _timeouts(timeout: float) -> httpx.Timeout:
    return httpx.Timeout(timeout, connect=timeout)


def _start(url: str, now: Optional[float], policy: Optional[Policy], max_bytes: int,
           resource: Optional[str] = None
           ) -> tuple[Generator[Request, Answer, FetchResult], str, Policy]:
    """The fetch flow, the first URL it asks for, and the policy; raises InvalidURL first."""
    policy = policy or Policy()
    if max_bytes != policy.max_bytes:
        policy = Policy(**{**policy.__dict__, "max_bytes": max_bytes})
    start = resource or robots_url(url)
    return fetch_flow(start, time.time() if now is None else now, policy), start, policy


def fetch(
    url: str,
    *,
    user_agent: str,
    timeout: float = DEFAULT_TIMEOUT,
    total_timeout: Optional[float] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    policy: Optional[Policy] = None,
    client: Optional[httpx.Client] = None,
    now: Optional[float] = None,
    resource: Optional[str] = None,
    credentials: bool = True,
) -> FetchResult:
    """Fetch the robots.txt that governs ``url`` (any URL of the site) and say what it means.

    ``user_agent`` is the full User-Agent header to send. ``client`` lets you bring your own
    :class:`httpx.Client` (proxies, TLS settings); its redirect setting is ignored, and its
    credentials (``auth``, ``Authorization``, cookies) go only to the robots.txt's own
    origin, never to a redirect target elsewhere. The whole fetch, redirects included, ends
    by ``total_timeout`` (default ``3 * timeout``), on the client's kept-alive HTTP/1.1
    connections too. Never raises for network trouble; raises
    :class:`~robotsrules.InvalidURL` for a URL that has no robots.txt (not http, https or
    ftp, or no host). ``resource``: fetch this URL instead of the robots.txt, under the same
    policy (``/.well-known/tdmrep.json``, an RSL licence document); ``credentials=False``:
    never send the client's credentials (a licence document on another origin than the
    site asking for it).
    """
    flow, start, policy = _start(url, now, policy, max_bytes, resource)
    deadline = time.monotonic() + (total_timeout or 3 * timeout)
    own = client is None
    http = client or httpx.Client(timeout=_timeouts(timeout), follow_redirects=False)

    def perform(request: Request) -> Answer:
        nonlocal credentials
        credentials = credentials and _keeps_credentials(start, request.url)
        return _perform(http, request.url, user_agent, timeout, policy, deadline, credentials)

    try:
        return run(flow, perform)
    finally:
        if own:
            http.close()


def _perform(http: httpx.Client, url: str, user_agent: str, timeout: float, policy: Policy,
             deadline: float, credentials: bool = True) -> Answer:
    if time.monotonic() > deadline:
        return Answer(error=_TIMED_OUT)
    if url.lower().startswith("ftp:"):
        return _ftp_answer(url, user_agent, timeout, policy.max_bytes, deadline)
    return _get(http, url, user_agent, policy.max_bytes, deadline, credentials)


async def afetch(
    url: str,
    *,
    user_agent: str,
    timeout: float = DEFAULT_TIMEOUT,
    total_timeout: Optional[float] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    policy: Optional[Policy] = None,
    client: Optional[httpx.AsyncClient] = None,
    now: Optional[float] = None,
    ftp_executor: Optional[Executor] = None,
    resource: Optional[str] = None,
    credentials: bool = True,
) -> FetchResult:
    """The async twin of :func:`fetch`, with the same deadline and credential rules.

    FTP runs in a worker thread: of ``ftp_executor`` if given (a bounded pool keeps slow
    FTP servers from taking the threads that others need), else of the loop's default
    executor; either way the fetch ends by its deadline, even while the FTP job waits for
    a thread.
    """
    flow, start, policy = _start(url, now, policy, max_bytes, resource)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (total_timeout or 3 * timeout)
    own = client is None
    http = client or httpx.AsyncClient(timeout=_timeouts(timeout), follow_redirects=False)

    async def perform(request: Request) -> Answer:
        nonlocal credentials
        credentials = credentials and _keeps_credentials(start, request.url)
        remaining = deadline - loop.time()
        if remaining <= 0:
            return Answer(error=_TIMED_OUT)
        if request.url.lower().startswith("ftp:"):
            job = functools.partial(_ftp_answer, request.url, user_agent, timeout,
                                    policy.max_bytes, time.monotonic() + remaining)
            try:
                return await asyncio.wait_for(loop.run_in_executor(ftp_executor, job), remaining)
            except asyncio.TimeoutError:
                return Answer(error=_TIMED_OUT)
            except RuntimeError as error:  # the pool was shut down (cache closed)
                return Answer(error=f"no thread for the FTP fetch: {error}")
        try:
            return await asyncio.wait_for(
                _aget(http, request.url, user_agent, policy.max_bytes, credentials), remaining)
        except asyncio.TimeoutError:
            return Answer(error=_TIMED_OUT)

    try:
        return await arun(flow, perform)
    finally:
        if own:
            await http.aclose()
