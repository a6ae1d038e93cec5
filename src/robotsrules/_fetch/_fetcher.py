"""Fetching a robots.txt over HTTP(S) (httpx) and FTP (ftplib), sync and async.

Thin drivers of :func:`robotsrules.policy.fetch_flow`: the policy decides what to request
and what each answer means; the code here only performs requests and reads bodies, within
these bounds:

* at most ``max_bytes`` of the *decompressed* body are read, then the connection is
  dropped. ``gzip``, ``deflate`` and ``br`` are decoded here, chunk by chunk, by the one
  bounded decoder (:mod:`robotsrules._decoder`), so a compression bomb never inflates past
  the limit;
* connect and read time-outs of ``timeout`` seconds, and a deadline of ``total_timeout``
  for the whole fetch (a server that drips one byte per second cannot hold a fetch open),
  over HTTP and FTP alike, on new and on reused (kept-alive) HTTP/1.1 connections;
* a body is used only when it arrived whole: one cut by the deadline, shorter than its
  ``Content-Length``, without its last chunk, or whose gzip/deflate/br stream has no end is
  ``unreachable``, never a (shorter, hence more permissive) file;
* a fetch through a guarded client (:class:`~robotsrules._fetch._pinned.GuardedClient`,
  or ``fetch_page(guard=...)``) connects only to vetted addresses, on every hop
  (:mod:`robotsrules._fetch._guard`); its FTP hops are refused, as ftplib connects by
  itself;
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
import ssl
import sys
import threading
import time
from collections.abc import Generator
from concurrent.futures import Executor
from types import FrameType
from typing import Any, NamedTuple, Optional, Union
from urllib.parse import unquote, urlsplit

import httpx

from .._decoder import BodyDecoder, accept_encoding
from .._scope import DEFAULT_PORTS, join_url, robots_url, split_origin
from ..errors import InvalidURL
from ..policy import Answer, FetchResult, Policy, Request, fetch_flow, target_problem
from ..robotstxt import DEFAULT_MAX_BYTES
from ._drive import arun, run
from ._pinned import (
    AddressRefused,
    AsyncGuardedClient,
    Guard,
    GuardedClient,
    unparsed_refusal,
)
from ._sign import Sign, SigningFailed, sign_headers

__all__ = ["DEFAULT_TIMEOUT", "PageResponse", "afetch", "fetch", "fetch_page"]

DEFAULT_TIMEOUT = 10.0
"""Seconds allowed to connect, and between two reads."""

_ACCEPT = "text/plain, text/*;q=0.9, */*;q=0.5"
_TIMED_OUT = "timed out (total time limit)"
_GUARDED_FTP = ("refused by the address guard (server-side request forgery): ftp:// is not "
                "fetched under the guard")

log = logging.getLogger("robotsrules")


def _answer(body: BodyDecoder, status: int, headers: httpx.Headers, url: str = "") -> Answer:
    """The :class:`Answer` for a body read by the fetch layer (an error one if the body was
    bad).

    A function beside :class:`~robotsrules._decoder.BodyDecoder`, not a subclass of it: the
    compiled build compiles the decoder with mypyc, which refuses at run time an instance of
    a pure-Python subclass of a compiled class (issue 33: every fetch of the compiled build
    failed with a ``TypeError``; ``tests/compiled/test_static.py`` finds such a subclass).
    """
    if body.error is not None:
        return Answer(status=status, headers=dict(headers), error=body.error)
    if body.junk:
        log.warning("%s: %d octets of junk after the end of the %s stream (ignored)",
                    url or "robots.txt", body.junk, body.kind)
    return Answer(status=status, headers=dict(headers), body=body.body,
                  truncated=body.truncated)


def _root_cause(error: BaseException) -> BaseException:
    """The innermost OS-level error under library wrappers (anyio and httpcore chain them)."""
    seen = 0
    current: Optional[BaseException] = error
    while current is not None and seen < 10:
        if isinstance(current, (AddressRefused, ConnectionRefusedError, ConnectionResetError,
                                socket.gaierror)):
            return current
        current = current.__cause__ or current.__context__
        seen += 1
    return error


def _describe(error: BaseException) -> str:
    """A short, human message for a network error."""
    if isinstance(error, (httpx.TimeoutException, TimeoutError, socket.timeout)):
        return "timed out"
    root = _root_cause(error)
    if isinstance(root, AddressRefused):  # the guard's refusal, named as such
        return str(root)
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
        self._sockets: list[socket.socket] = []
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


def _headers(user_agent: str, accept: str = _ACCEPT,
             encodings: str = "gzip, deflate") -> dict[str, str]:
    return {"User-Agent": user_agent, "Accept": accept, "Accept-Encoding": encodings}


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
             credentials: bool, extensions: Optional[dict[str, Any]] = None,
             headers: Optional[dict[str, str]] = None,
             sign: Optional[Sign] = None) -> httpx.Request:
    request = client.build_request("GET", url, headers=headers or _headers(user_agent),
                                   extensions=extensions)
    if not credentials:  # another origin: none of the caller's Authorization or cookies
        for name in ("authorization", "cookie"):
            if name in request.headers:
                del request.headers[name]
    # Every hop is a request built here: signed afresh for its own authority (_sign).
    sign_headers(sign, "GET", str(request.url), request.headers)
    return request


def _unparsed_refusal(client: httpx.Client | httpx.AsyncClient, url: str) -> Optional[str]:
    """A guarded client's refusal of a URL a browser reads as a refused address, whether
    httpx can parse it or not (``http://0177.0.0.1/``)."""
    guard = getattr(client, "guard", None)
    return unparsed_refusal(guard, url) if isinstance(guard, Guard) else None


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
    body = BodyDecoder("", limit)
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
            return _answer(body, 200, httpx.Headers(), url)
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
         credentials: bool = True, headers: Optional[dict[str, str]] = None,
         raw_headers: Optional[list[tuple[str, str]]] = None,
         sign: Optional[Sign] = None) -> Answer:
    """One GET within ``deadline``; ``headers`` replace the robots.txt request's own, and
    ``raw_headers`` (when given) receives the response's header lines as sent."""
    refused = _unparsed_refusal(client, url)  # before: a browser may read it where we cannot
    if refused is not None:
        return Answer(error=refused)
    problem = target_problem(url)
    if problem is not None:  # the robots.txt URL itself (redirect targets are vetted)
        return Answer(error=f"cannot request {url!r}: {problem}")
    with _Watchdog(deadline) as watchdog:
        try:
            request = _request(client, url, user_agent, credentials,
                               {"trace": watchdog.trace}, headers, sign)
            response = client.send(request, stream=True, follow_redirects=False,
                                   auth=httpx.USE_CLIENT_DEFAULT if credentials else None)
            if raw_headers is not None:
                raw_headers[:] = [(k.decode("latin-1"), v.decode("latin-1"))
                                  for k, v in response.headers.raw]
            try:
                if 300 <= response.status_code < 400:
                    return Answer(status=response.status_code, headers=dict(response.headers))
                body = BodyDecoder(response.headers.get("content-encoding", ""), limit)
                for raw in response.iter_raw():
                    if body.feed(raw):
                        break
                    if time.monotonic() > deadline:
                        return Answer(error=_TIMED_OUT)
                else:
                    body.finish()
                if watchdog.fired:  # the end of the body may be our own shutdown
                    return Answer(error=_TIMED_OUT)
                return _answer(body, response.status_code, response.headers, url)
            finally:
                response.close()
        except SigningFailed as error:  # nothing sent: unreachable, never "unavailable"
            return Answer(error=str(error))
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
                credentials: bool = True, sign: Optional[Sign] = None) -> Answer:
    refused = _unparsed_refusal(client, url)  # before: a browser may read it where we cannot
    if refused is not None:
        return Answer(error=refused)
    problem = target_problem(url)
    if problem is not None:  # as in _get
        return Answer(error=f"cannot request {url!r}: {problem}")
    try:
        request = _request(client, url, user_agent, credentials, sign=sign)
        response = await client.send(request, stream=True, follow_redirects=False,
                                     auth=httpx.USE_CLIENT_DEFAULT if credentials else None)
        try:
            if 300 <= response.status_code < 400:
                return Answer(status=response.status_code, headers=dict(response.headers))
            body = BodyDecoder(response.headers.get("content-encoding", ""), limit)
            async for raw in response.aiter_raw():
                if body.feed(raw):
                    break
            else:
                body.finish()
            return _answer(body, response.status_code, response.headers, url)
        finally:
            await response.aclose()
    except SigningFailed as error:  # as in _get
        return Answer(error=str(error))
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
    sign: Optional[Sign] = None,
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
    site asking for it). ``sign``: a signer (Web Bot Auth,
    ``robotsrules.Signer``) called afresh for every HTTP(S) request, redirect hops
    included, each signed for its own authority (or left unsigned when the signer refuses
    its origin); FTP requests carry no headers and are never signed. Default: unsigned.
    """
    flow, start, policy = _start(url, now, policy, max_bytes, resource)
    deadline = time.monotonic() + (total_timeout or 3 * timeout)
    own = client is None
    http = client or httpx.Client(timeout=_timeouts(timeout), follow_redirects=False)

    def perform(request: Request) -> Answer:
        nonlocal credentials
        credentials = credentials and _keeps_credentials(start, request.url)
        return _perform(http, request.url, user_agent, timeout, policy, deadline, credentials,
                        sign)

    try:
        return run(flow, perform)
    finally:
        if own:
            http.close()


def _perform(http: httpx.Client, url: str, user_agent: str, timeout: float, policy: Policy,
             deadline: float, credentials: bool = True, sign: Optional[Sign] = None
             ) -> Answer:
    if time.monotonic() > deadline:
        return Answer(error=_TIMED_OUT)
    if url.lower().startswith("ftp:"):
        if isinstance(http, GuardedClient) and http.guard.active:
            return Answer(error=_GUARDED_FTP)
        return _ftp_answer(url, user_agent, timeout, policy.max_bytes, deadline)
    return _get(http, url, user_agent, policy.max_bytes, deadline, credentials, sign=sign)


class PageResponse(NamedTuple):
    """What :func:`fetch_page` got: the final URL, status, header lines as sent, and at most
    ``max_bytes`` of the decoded body; or the ``error`` that prevented a whole answer."""

    url: str
    status: Optional[int]
    headers: tuple[tuple[str, str], ...]
    body: bytes
    truncated: bool
    """The body was longer than ``max_bytes``; the rest was not read."""
    error: Optional[str] = None


def fetch_page(url: str, *, user_agent: str, max_bytes: int, timeout: float = DEFAULT_TIMEOUT,
               total_timeout: Optional[float] = None,
               accept: str = "text/html, application/xhtml+xml, */*;q=0.8",
               extra_headers: Optional[dict[str, str]] = None,
               follow_redirects: bool = True,
               guard: Optional[Guard] = None,
               sign: Optional[Sign] = None,
               verify: Union[ssl.SSLContext, str, bool] = True) -> PageResponse:
    """GET a page (``robotsrules page URL``) with the robots.txt fetch's bounds: redirects
    followed here (at most five, http and https only, loops detected), connect and read
    time-outs of ``timeout``, the whole fetch within ``total_timeout`` (default
    ``3 * timeout``) however slowly the server drips, and the body decoded by the one
    bounded decoder (gzip, deflate, br; :mod:`robotsrules._decoder`) up to ``max_bytes``
    (a longer body is cut there: ``truncated``). A body that did not arrive whole, a time-out
    or a network failure is an ``error``; nothing raises for what a server does.
    ``extra_headers`` are added to the request (``If-None-Match`` for a list refresh).
    ``follow_redirects=False`` returns a redirect as it came (its ``Location`` in
    ``headers``): the caller vets each hop before it is requested (a list refresh).
    ``guard``: for a URL from a stranger, connect only to addresses the guard vets, on
    every hop (a refusal is an ``error`` that says so); default: no guard. ``sign``: a
    signer called afresh for every hop, as for :func:`fetch`; default: unsigned. ``verify``:
    the TLS settings, as httpx reads them (a key directory's own trust store)."""
    deadline = time.monotonic() + (total_timeout or 3 * timeout)
    headers = _headers(user_agent, accept, accept_encoding())
    headers.update(extra_headers or {})
    current = url
    seen = {url}
    client = (GuardedClient(guard, timeout=_timeouts(timeout), verify=verify)
              if guard is not None else
              httpx.Client(timeout=_timeouts(timeout), follow_redirects=False, verify=verify))
    with client:
        for _ in range(Policy().max_redirects + 1):
            if time.monotonic() > deadline:
                return PageResponse(current, None, (), b"", False, _TIMED_OUT)
            pairs: list[tuple[str, str]] = []
            answer = _get(client, current, user_agent, max_bytes, deadline, False, headers,
                          pairs, sign)
            if answer.bad_redirect is not None:
                return PageResponse(current, answer.status, tuple(pairs), b"", False,
                                    f"redirect to an unusable URL: {answer.bad_redirect}")
            if answer.error is not None or answer.status is None:
                return PageResponse(current, answer.status, tuple(pairs), b"", False,
                                    answer.error or "no answer")
            location = answer.headers.get("location")
            if (not follow_redirects or not 300 <= answer.status < 400
                    or answer.status == 304 or not location):
                return PageResponse(current, answer.status, tuple(pairs), answer.body,
                                    answer.truncated)
            target = join_url(current, location.strip())
            if target is None or not target.lower().startswith(("http:", "https:")):
                return PageResponse(current, answer.status, tuple(pairs), b"", False,
                                    f"redirect to an unusable URL: {location.strip()!r}")
            if target in seen:
                return PageResponse(current, answer.status, tuple(pairs), b"", False,
                                    f"redirect loop at {target}")
            seen.add(target)
            current = target
    return PageResponse(current, None, (), b"", False,
                        f"more than {Policy().max_redirects} redirects")


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
    sign: Optional[Sign] = None,
) -> FetchResult:
    """The async twin of :func:`fetch`, with the same deadline, credential and signing
    rules.

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
            if isinstance(http, AsyncGuardedClient) and http.guard.active:
                return Answer(error=_GUARDED_FTP)
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
                _aget(http, request.url, user_agent, policy.max_bytes, credentials, sign),
                remaining)
        except asyncio.TimeoutError:
            return Answer(error=_TIMED_OUT)

    try:
        return await arun(flow, perform)
    finally:
        if own:
            await http.aclose()
