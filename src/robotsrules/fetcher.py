"""Fetching a robots.txt over HTTP(S) (httpx) and FTP (ftplib), sync and async.

Thin drivers of :func:`robotsrules.policy.fetch_flow`: the policy decides what to request
and what each answer means; the code here only performs requests and reads bodies, within
these bounds:

* at most ``max_bytes`` of the *decompressed* body are read, then the connection is
  dropped. ``gzip`` and ``deflate`` are decoded here, chunk by chunk, with zlib's output
  limit, so a compression bomb never inflates past the limit;
* connect and read time-outs of ``timeout`` seconds, and a deadline of ``total_timeout``
  for the whole fetch (a server that drips one byte per second cannot hold a fetch open);
* redirects are followed by the policy (at most five, loops detected, http/https/ftp only),
  never by httpx.

Network failures never raise: they become an ``unreachable`` :class:`FetchResult` whose
``error`` says what happened ("connection refused", "timed out", ...).
"""

from __future__ import annotations

import asyncio
import contextlib
import ftplib
import socket
import threading
import time
import zlib
from typing import Generator, Optional
from urllib.parse import unquote, urlsplit

import httpx

from .policy import Answer, FetchResult, Policy, Request, fetch_flow
from .robotstxt import DEFAULT_MAX_BYTES
from .scope import robots_url

__all__ = ["DEFAULT_TIMEOUT", "afetch", "fetch"]

DEFAULT_TIMEOUT = 10.0
"""Seconds allowed to connect, and between two reads."""

_ACCEPT = "text/plain, text/*;q=0.9, */*;q=0.5"


class _Body:
    """Collects at most ``limit`` decoded octets of a body, decoding gzip/deflate itself."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.truncated = False
        self.error: Optional[str] = None
        coding = encoding.strip().lower()
        self._decoder: Optional[zlib._Decompress] = None
        self._deflate = False
        if coding in ("gzip", "x-gzip"):
            self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self._decoder = zlib.decompressobj()
            self._deflate = True
        elif coding not in ("", "identity"):
            self.error = f"unsupported content-encoding {encoding!r}"

    def feed(self, raw: bytes) -> bool:
        """Add a raw chunk; True when no more is wanted (limit reached or error)."""
        if self.error is not None:
            return True
        room = self.limit - self.size + 1  # one octet more tells that the body is longer
        if self._decoder is None:
            data = raw[:room]
        else:
            try:
                data = self._decoder.decompress(raw, room)
            except zlib.error as error:
                if self._deflate and self.size == 0:  # "deflate" sent without zlib header
                    self._decoder = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._deflate = False
                    return self.feed(raw)
                self.error = f"bad {'deflate' if self._deflate else 'gzip'} data: {error}"
                return True
            self._deflate = False
        self.parts.append(data)
        self.size += len(data)
        if self.size > self.limit:
            self.truncated = True
            return True
        return False

    def answer(self, status: int, headers: httpx.Headers) -> Answer:
        body = b"".join(self.parts)[: self.limit]
        if self.error is not None:
            return Answer(status=status, headers=dict(headers), error=self.error)
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


class _Watchdog:
    """Enforces the total deadline of a sync request, even while a server drips its head.

    httpx's time-outs are per read; a server sending one byte per second never trips them.
    Through httpcore's trace hook we learn the socket of each new connection, and when the
    deadline passes a timer shuts it down, which ends the blocked read at once. (A pooled
    connection reused from the caller's client has no connect event; only the per-read
    time-out bounds it then.)
    """

    _EVENTS = ("connection.connect_tcp.complete", "connection.start_tls.complete")

    def __init__(self, deadline: float) -> None:
        self.fired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(deadline - time.monotonic(), 0.0), self._fire)
        self._timer.daemon = True

    def trace(self, name: str, info: dict[str, object]) -> None:
        if name in self._EVENTS:
            stream = info.get("return_value")
            get = getattr(stream, "get_extra_info", None)
            sock = get("socket") if get is not None else None
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._sockets.append(sock)
                    if self.fired:
                        self._shut(sock)

    def _fire(self) -> None:
        with self._lock:
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
        self._timer.cancel()


def _headers(user_agent: str) -> dict[str, str]:
    return {"User-Agent": user_agent, "Accept": _ACCEPT, "Accept-Encoding": "gzip, deflate"}


def _ftp_answer(url: str, user_agent: str, timeout: float, limit: int) -> Answer:
    """Anonymous RETR of an ftp:// robots.txt (RFC 9309 §2.3; Google fetches over FTP)."""
    parts = urlsplit(url)
    body = _Body("", limit)

    class _Enough(Exception):
        pass

    def take(chunk: bytes) -> None:
        if body.feed(chunk):
            raise _Enough

    ftp = ftplib.FTP(timeout=timeout)
    try:
        ftp.connect(parts.hostname or "", parts.port or 21)
        ftp.login(unquote(parts.username or "anonymous"),
                  unquote(parts.password or f"{user_agent.split('/')[0]}@"))
        with contextlib.suppress(_Enough):  # enough read: stop the transfer
            ftp.retrbinary(f"RETR {unquote(parts.path or '/robots.txt')}", take)
        return body.answer(200, httpx.Headers())
    except ftplib.error_perm as error:  # 5xx: the file is not there (or not for us)
        return Answer(status=404, error=None, headers={"x-ftp-reply": str(error)})
    except ftplib.error_temp as error:  # 4xx: try again later
        return Answer(status=503, headers={"x-ftp-reply": str(error)})
    except (OSError, EOFError, ftplib.Error) as error:
        return Answer(error=_describe(error))
    finally:
        with contextlib.suppress(OSError):
            ftp.close()


def _get(client: httpx.Client, url: str, user_agent: str, limit: int, deadline: float) -> Answer:
    with _Watchdog(deadline) as watchdog:
        try:
            with client.stream("GET", url, headers=_headers(user_agent), follow_redirects=False,
                               extensions={"trace": watchdog.trace}) as response:
                if 300 <= response.status_code < 400:
                    return Answer(status=response.status_code, headers=dict(response.headers))
                body = _Body(response.headers.get("content-encoding", ""), limit)
                for raw in response.iter_raw():
                    if body.feed(raw):
                        break
                    if time.monotonic() > deadline:
                        return Answer(error="timed out (total time limit)")
                return body.answer(response.status_code, response.headers)
        except httpx.InvalidURL as error:  # httpx could not build the redirect's request
            return Answer(bad_redirect=str(error))
        except (httpx.HTTPError, OSError) as error:
            if watchdog.fired:
                return Answer(error="timed out (total time limit)")
            return Answer(error=_describe(error))


async def _aget(client: httpx.AsyncClient, url: str, user_agent: str, limit: int) -> Answer:
    try:
        async with client.stream("GET", url, headers=_headers(user_agent),
                                 follow_redirects=False) as response:
            if 300 <= response.status_code < 400:
                return Answer(status=response.status_code, headers=dict(response.headers))
            body = _Body(response.headers.get("content-encoding", ""), limit)
            async for raw in response.aiter_raw():
                if body.feed(raw):
                    break
            return body.answer(response.status_code, response.headers)
    except httpx.InvalidURL as error:  # httpx could not build the redirect's request
        return Answer(bad_redirect=str(error))
    except (httpx.HTTPError, OSError) as error:
        return Answer(error=_describe(error))


def _timeouts(timeout: float) -> httpx.Timeout:
    return httpx.Timeout(timeout, connect=timeout)


def _start(url: str, now: Optional[float], policy: Optional[Policy], max_bytes: int,
           resource: Optional[str] = None
           ) -> tuple[Generator[Request, Answer, FetchResult], Request, Policy]:
    policy = policy or Policy()
    if max_bytes != policy.max_bytes:
        policy = Policy(**{**policy.__dict__, "max_bytes": max_bytes})
    flow = fetch_flow(resource or robots_url(url), time.time() if now is None else now, policy)
    return flow, next(flow), policy


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
) -> FetchResult:
    """Fetch the robots.txt that governs ``url`` (any URL of the site) and say what it means.

    ``user_agent`` is the full User-Agent header to send. ``client`` lets you bring your own
    :class:`httpx.Client` (proxies, TLS settings); its redirect setting is ignored. Never
    raises for network trouble; raises :class:`~robotsrules.InvalidURL` for a URL that has
    no robots.txt (not http, https or ftp, or no host). ``resource``: fetch this URL
    instead of the robots.txt, under the same policy (``/.well-known/tdmrep.json``).
    """
    flow, request, policy = _start(url, now, policy, max_bytes, resource)
    deadline = time.monotonic() + (total_timeout or 3 * timeout)
    own = client is None
    http = client or httpx.Client(timeout=_timeouts(timeout), follow_redirects=False)
    try:
        while True:
            answer = _perform(http, request.url, user_agent, timeout, policy, deadline)
            try:
                request = flow.send(answer)
            except StopIteration as stop:
                result: FetchResult = stop.value
                return result
    finally:
        if own:
            http.close()


def _perform(http: httpx.Client, url: str, user_agent: str, timeout: float, policy: Policy,
             deadline: float) -> Answer:
    if time.monotonic() > deadline:
        return Answer(error="timed out (total time limit)")
    if url.lower().startswith("ftp:"):
        return _ftp_answer(url, user_agent, timeout, policy.max_bytes)
    return _get(http, url, user_agent, policy.max_bytes, deadline)


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
    resource: Optional[str] = None,
) -> FetchResult:
    """The async twin of :func:`fetch` (FTP runs in a worker thread)."""
    flow, request, policy = _start(url, now, policy, max_bytes, resource)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (total_timeout or 3 * timeout)
    own = client is None
    http = client or httpx.AsyncClient(timeout=_timeouts(timeout), follow_redirects=False)
    try:
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                answer = Answer(error="timed out (total time limit)")
            elif request.url.lower().startswith("ftp:"):
                answer = await asyncio.to_thread(
                    _ftp_answer, request.url, user_agent, timeout, policy.max_bytes)
            else:
                try:
                    answer = await asyncio.wait_for(
                        _aget(http, request.url, user_agent, policy.max_bytes), remaining)
                except asyncio.TimeoutError:
                    answer = Answer(error="timed out (total time limit)")
            try:
                request = flow.send(answer)
            except StopIteration as stop:
                result: FetchResult = stop.value
                return result
    finally:
        if own:
            await http.aclose()

