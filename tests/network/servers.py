"""Real servers on loopback for the integration tests: a scriptable raw HTTP server and FTP.

Every server listens on ``127.0.0.1`` on a free port, in threads of the test process, and
nothing else: no mocks, and no address other than loopback.

HTTP. A :class:`RawHTTPServer` is one origin (the robots.txt path is always ``/robots.txt``,
so a scenario that needs two origins starts two servers). Its ``handler`` is a *scenario*:
a function of an :class:`Exchange` that writes whatever raw bytes it likes to the socket
(a well-formed response, a broken chunked body, a reset mid-body...). ``handler`` may also be
a dict ``{path: scenario}`` (unknown paths get a 404), and may be replaced while the server
runs. Every request is recorded (method, path, headers, time) before its scenario runs.
Each connection serves one request and is closed (``Connection: close``).

Scenario builders: :func:`respond`, :func:`redirect`, :func:`slow_headers`, :func:`drip`, :func:`drip_head`,
:func:`drip_unframed`, :func:`reset_mid_body`, :func:`broken_chunked`, :func:`truncated_chunked`,
:func:`stream`, :func:`delayed`, :func:`raw`, :func:`serve_bytes` (with :func:`gzip_bomb`
and :func:`br_bomb`), and :func:`keep_alive` (with
``RawHTTPServer(keep_alive=True)``, the connection then serves further requests).

FTP. :class:`FTPServerThread`: pyftpdlib with an anonymous, read-only home directory.

Use them as context managers (``with RawHTTPServer(respond(200, b"...")) as server:``), or
several at once through a :class:`ServerPool` that stops them all.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import socket
import ssl
import struct
import sys
import threading
import time
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Callable, Optional, Union

HOST = "127.0.0.1"

_REASONS = {
    200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other",
    307: "Temporary Redirect", 308: "Permanent Redirect", 401: "Unauthorized",
    403: "Forbidden", 404: "Not Found", 410: "Gone", 429: "Too Many Requests",
    500: "Internal Server Error", 503: "Service Unavailable",
}


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    at: float
    """When the request's first octets reached the server's socket (the kernel's receive
    time, CLOCK_REALTIME; see ``_receive``): compare it only with other ``at`` values."""


@dataclass
class Exchange:
    """One request on one connection, handed to a scenario."""

    sock: socket.socket
    request: RecordedRequest
    server: RawHTTPServer
    closed: bool = field(default=False)
    keep: bool = field(default=False)
    """Set by a scenario that leaves the connection open for another request."""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def sleep(self, seconds: float) -> bool:
        """Sleep, waking up early when the server stops; True if the server is stopping."""
        return self.server.stopping.wait(seconds)

    def reset(self) -> None:
        """Close with SO_LINGER 0: the peer gets a TCP RST, not a FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()
        self.closed = True


Scenario = Callable[[Exchange], None]
Handler = Union[Scenario, Mapping[str, Scenario]]


def free_port() -> int:
    """A loopback port that was free a moment ago (and has nothing listening on it now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
    return port


def head(status: int, headers: Iterable[tuple[str, str]] = (), reason: Optional[str] = None,
         close: bool = True) -> bytes:
    """A raw response head, with ``Connection: close`` (unless ``close`` is false)."""
    lines = [f"HTTP/1.1 {status} {reason or _REASONS.get(status, 'Status')}"]
    lines += [f"{name}: {value}" for name, value in headers]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _pairs(headers: Optional[Mapping[str, str]]) -> list[tuple[str, str]]:
    return list((headers or {}).items())


def respond(status: int = 200, body: bytes = b"", headers: Optional[Mapping[str, str]] = None,
            content_type: Optional[str] = "text/plain") -> Scenario:
    """A complete, well-formed response with a Content-Length."""
    pairs = _pairs(headers)
    if content_type is not None and not any(k.lower() == "content-type" for k, _ in pairs):
        pairs.append(("Content-Type", content_type))
    pairs.append(("Content-Length", str(len(body))))

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, pairs) + body)

    return scenario


def redirect(location: str, status: int = 301) -> Scenario:
    """A redirect to ``location`` (sent verbatim)."""
    return respond(status, b"", {"Location": location}, content_type=None)


def delayed(seconds: float, scenario: Scenario) -> Scenario:
    """``scenario`` after a pause (a slow but healthy server)."""

    def slow(exchange: Exchange) -> None:
        if not exchange.sleep(seconds):
            scenario(exchange)

    return slow


def slow_headers(seconds: float = 30.0, then: Optional[Scenario] = None) -> Scenario:
    """Say nothing for ``seconds`` after the request (then answer with ``then``, if given)."""
    return delayed(seconds, then or respond(200, b"User-agent: *\nDisallow: /late\n"))


def drip(body: bytes, interval: float, status: int = 200) -> Scenario:
    """Send the head at once, then the body one octet every ``interval`` seconds."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, [("Content-Type", "text/plain"),
                                    ("Content-Length", str(len(body)))]))
        for octet in body:
            if exchange.sleep(interval):
                return
            exchange.send(bytes([octet]))

    return scenario


def drip_head(interval: float, give_up: float = 3.0, status: int = 200) -> Scenario:
    """Send the response *head* one octet every ``interval`` seconds (each read succeeds, so
    no read time-out fires); stop and close after ``give_up`` seconds. The head is padded so
    that it never ends before ``give_up``: only the client's own deadline can end the fetch
    with a time-out first (else it sees a head cut short)."""
    padding = "p" * max(64, int(give_up / interval) + 1)
    data = head(status, [("Content-Type", "text/plain"), ("X-Padding", padding),
                         ("Content-Length", "0")])

    def scenario(exchange: Exchange) -> None:
        start = time.monotonic()
        for octet in data:
            if exchange.sleep(interval) or time.monotonic() - start > give_up:
                return
            exchange.send(bytes([octet]))

    return scenario


def reset_mid_body(body: bytes, sent: int, pause: float = 0.1) -> Scenario:
    """Announce all of ``body``, send its first ``sent`` octets, then reset the connection."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/plain"),
                                 ("Content-Length", str(len(body)))]) + body[:sent])
        exchange.sleep(pause)
        exchange.reset()

    return scenario


def broken_chunked(first: bytes = b"User-agent: *\n") -> Scenario:
    """A chunked body whose second chunk-size line is not hexadecimal."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/plain"),
                                 ("Transfer-Encoding", "chunked")]))
        exchange.send(b"%x\r\n%s\r\n" % (len(first), first))
        exchange.send(b"zz-not-hex\r\nDisallow: /\r\n0\r\n\r\n")

    return scenario


def truncated_chunked(first: bytes = b"User-agent: *\n") -> Scenario:
    """A chunked body cut inside a chunk (the server closes without the last chunk)."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/plain"),
                                 ("Transfer-Encoding", "chunked")]))
        exchange.send(b"%x\r\n%s\r\n" % (len(first), first))
        exchange.send(b"400\r\nDisallow: /")  # 1024 octets announced, 11 sent

    return scenario


def stream(chunks: Callable[[], Iterable[bytes]], length: int,
           headers: Optional[Mapping[str, str]] = None) -> Scenario:
    """A 200 whose body (``length`` octets) is produced chunk by chunk, never held whole."""
    pairs = [*{"Content-Type": "text/plain", **(headers or {})}.items(),
             ("Content-Length", str(length))]

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, pairs))
        for chunk in chunks():
            if exchange.server.stopping.is_set():
                return
            exchange.send(chunk)

    return scenario


def keep_alive(status: int = 200, body: bytes = b"ok\n") -> Scenario:
    """A complete response that keeps the connection open for the next request (the server
    must be made with ``keep_alive=True`` to read it)."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, [("Content-Type", "text/plain"),
                                    ("Content-Length", str(len(body)))], close=False) + body)
        exchange.keep = True

    return scenario


def raw(data: bytes) -> Scenario:
    """Send ``data`` as it is (a broken head, a body cut short...), then close."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(data)

    return scenario


def drip_unframed(body: bytes, interval: float, headers: Optional[Mapping[str, str]] = None
                  ) -> Scenario:
    """A 200 with neither Content-Length nor chunking (the body ends when the connection
    does), its body sent one octet every ``interval`` seconds."""

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/plain"), *_pairs(headers)]))
        for octet in body:
            if exchange.sleep(interval):
                return
            exchange.send(bytes([octet]))

    return scenario


def not_found(exchange: Exchange) -> None:
    respond(404, b"not found\n")(exchange)


# Arrival times come from the kernel (SO_TIMESTAMPNS: when the octets reached the socket),
# so that a server thread that gets the CPU late does not make a request look late, and
# the gap to the next one short. Where that is not available, the server's own clock.
_TIMESTAMPNS: Optional[int] = getattr(socket, "SO_TIMESTAMPNS",
                                      35 if sys.platform == "linux" else None)


def _enable_timestamps(sock: socket.socket) -> bool:
    if _TIMESTAMPNS is None:
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, _TIMESTAMPNS, 1)
    except OSError:
        return False
    return True


def _receive(conn: socket.socket) -> tuple[bytes, float]:
    """Octets from ``conn`` and when the first of them arrived: the kernel's receive time
    (CLOCK_REALTIME) when the socket has timestamps on, else ``time.time()`` now (the same
    clock, so that gaps between requests stay comparable)."""
    if _TIMESTAMPNS is None or isinstance(conn, ssl.SSLSocket):  # TLS has no recvmsg
        return conn.recv(65536), time.time()
    data, ancillary, _, _ = conn.recvmsg(65536, socket.CMSG_SPACE(16))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == _TIMESTAMPNS and len(payload) >= 16:
            seconds, nanoseconds = struct.unpack("qq", payload[:16])
            if seconds:
                return data, seconds + nanoseconds / 1e9
    return data, time.time()


class RawHTTPServer:
    """One HTTP origin on ``127.0.0.1`` (or ``host``, another loopback address, on ``port``:
    two sites on one port for a DNS answer to choose between): a listening socket, an accept
    thread, a thread per connection running the scenario. Stop it with :meth:`stop` (or
    leave the ``with``)."""

    def __init__(self, handler: Handler = not_found, *, read_timeout: float = 5.0,
                 keep_alive: bool = False, host: str = HOST, port: int = 0) -> None:
        self.handler: Handler = handler
        self.read_timeout = read_timeout
        self.keep_alive = keep_alive
        """Serve further requests on a connection whose scenario set ``Exchange.keep``."""
        self.stopping = threading.Event()
        self.errors: list[BaseException] = []
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._conns: list[socket.socket] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.host = host
        self._listener.bind((host, port))
        self._listener.listen(128)
        self.kernel_times = _enable_timestamps(self._listener)  # accepted sockets inherit it
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self._acceptor = threading.Thread(target=self._accept, name=f"http-{self.port}",
                                          daemon=True)
        self._acceptor.start()

    # -- what tests use ----------------------------------------------------------------

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "/robots.txt") -> str:
        return self.origin + path

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def paths(self) -> list[str]:
        return [request.path for request in self.requests]

    def count(self, path: str = "/robots.txt") -> int:
        return sum(1 for request in self.requests if request.path == path)

    def stop(self) -> None:
        self.stopping.set()
        self._acceptor.join(5)
        self._listener.close()
        with self._lock:
            conns, threads = list(self._conns), list(self._threads)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(5)

    def __enter__(self) -> RawHTTPServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- machinery ------------------------------------------------------------------

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True,
                                      name=f"http-{self.port}-conn")
            with self._lock:
                self._conns.append(conn)
                self._threads.append(thread)
            thread.start()

    def _read_head(self, conn: socket.socket) -> Optional[tuple[bytes, float]]:
        """The request head and when its first octets reached the socket."""
        conn.settimeout(self.read_timeout)
        data = b""
        arrived: Optional[float] = None
        while b"\r\n\r\n" not in data:
            chunk, at = _receive(conn)
            if not chunk:
                return None
            arrived = at if arrived is None else arrived
            data += chunk
            if len(data) > 1 << 20:
                return None
        assert arrived is not None
        return data.split(b"\r\n\r\n", 1)[0], arrived

    def _serve(self, conn: socket.socket) -> None:
        exchange: Optional[Exchange] = None
        try:
            while True:
                exchange = self._one(conn)
                if exchange is None or not (self.keep_alive and exchange.keep):
                    return
                if self.stopping.is_set():
                    return
        except OSError:
            pass  # the client went away (as fetches that stop reading do): not an error
        except BaseException as error:  # a broken scenario: keep it for the test to see
            self.errors.append(error)
        finally:
            if exchange is None or not exchange.closed:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_WR)  # FIN after the last octet
                conn.close()

    def _one(self, conn: socket.socket) -> Optional[Exchange]:
        """Read one request on ``conn`` and run its scenario (None: the client left)."""
        read = self._read_head(conn)
        if read is None:
            return None
        raw, arrived = read
        lines = raw.decode("latin-1").split("\r\n")
        method, target, _ = ([*lines[0].split(" ", 2), "", ""])[:3]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        request = RecordedRequest(method, target, headers, arrived)
        with self._lock:
            self._requests.append(request)
        handler = self.handler
        if callable(handler):
            scenario = handler
        else:
            scenario = handler.get(target.split("?", 1)[0], not_found)
        exchange = Exchange(conn, request, self)
        conn.settimeout(self.read_timeout)
        scenario(exchange)
        return exchange


class ServerPool:
    """Starts servers on demand and stops them all at the end (for fixtures)."""

    def __init__(self) -> None:
        self._servers: list[Union[RawHTTPServer, FTPServerThread]] = []

    def http(self, handler: Handler = not_found, keep_alive: bool = False) -> RawHTTPServer:
        server = RawHTTPServer(handler, keep_alive=keep_alive)
        self._servers.append(server)
        return server

    def ftp(self, files: Optional[Mapping[str, bytes]] = None, root: str = "") -> FTPServerThread:
        server = FTPServerThread(files or {}, root)
        self._servers.append(server)
        return server

    def stop(self) -> None:
        for server in reversed(self._servers):
            server.stop()
        self._servers.clear()

    def __enter__(self) -> ServerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- FTP ---------------------------------------------------------------------------------

class FTPServerThread:
    """A pyftpdlib server on ``127.0.0.1`` (free port) in a thread: anonymous login, read
    only (permissions ``elr``), its home directory holding ``files`` (name -> content).

    ``root`` is a directory to create the home in (a fresh temporary one when empty).
    """

    def __init__(self, files: Mapping[str, bytes], root: str = "") -> None:
        import tempfile
        import warnings

        with warnings.catch_warnings():  # pyftpdlib imports asyncore/asynchat (deprecated)
            warnings.simplefilter("ignore", DeprecationWarning)
            from pyftpdlib.authorizers import DummyAuthorizer
            from pyftpdlib.handlers import FTPHandler
            from pyftpdlib.servers import FTPServer

        logging.getLogger("pyftpdlib").setLevel(logging.WARNING)
        self._tmp = None
        if not root:
            self._tmp = tempfile.TemporaryDirectory(prefix="robotsrules-ftp-")
            root = self._tmp.name
        self.home = root
        for name, content in files.items():
            with open(os.path.join(root, name), "wb") as out:
                out.write(content)
        authorizer = DummyAuthorizer()
        authorizer.add_anonymous(root)  # default permissions "elr": read only

        class Handler(FTPHandler):  # a subclass, so that class attributes stay ours
            pass

        Handler.authorizer = authorizer
        Handler.banner = "robotsrules test ftpd"
        Handler.timeout = 10
        self._server = FTPServer((HOST, 0), Handler)
        self.port: int = self._server.socket.getsockname()[1]
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ftp-{self.port}", daemon=True)
        self._thread.start()

    @property
    def origin(self) -> str:
        return f"ftp://{HOST}:{self.port}"

    def url(self, path: str = "/robots.txt") -> str:
        return self.origin + path

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                self._server.serve_forever(timeout=0.05, blocking=False)
        finally:
            self._server.close_all()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(5)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> FTPServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- big bodies, built without holding them -----------------------------------------------

def filler(size: int, line: bytes = b"# " + b"." * 61 + b"\n") -> Iterable[bytes]:
    """``size`` octets of comment lines, yielded 64 KiB at a time; the last octet is always a
    line feed, so that whatever follows starts a line of its own."""
    block = line * (65536 // len(line))
    while size > 0:
        piece = block[:size]
        size -= len(piece)
        if size == 0 and not piece.endswith(b"\n"):
            piece = piece[:-1] + b"\n"
        yield piece


@functools.cache
def gzip_bomb(megabytes: int = 200) -> bytes:
    """gzip of ``megabytes`` MiB of zeros (compressed at level 9 one MiB at a time, so that
    the zeros are never held whole; about 200 KiB for 200 MiB). Built once per process."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(1 << 20)
    parts = [compressor.compress(zeros) for _ in range(megabytes)]
    parts.append(compressor.flush())
    return b"".join(parts)


@functools.cache
def br_bomb(megabytes: int = 256) -> bytes:
    """brotli of ``megabytes`` MiB of zeros (quality 5, one MiB at a time; about 200 octets
    for 256 MiB: the issue 24 case). Built once per process; needs ``brotli``."""
    import brotli

    compressor = brotli.Compressor(quality=5)
    zeros = bytes(1 << 20)
    parts = [compressor.process(zeros) for _ in range(megabytes)]
    parts.append(compressor.finish())
    return b"".join(parts)


def serve_bytes(data: bytes, headers: Optional[Mapping[str, str]] = None,
                content_type: str = "text/plain") -> Scenario:
    """A 200 with ``data`` as the (already encoded) body, sent in 64 KiB pieces."""

    def chunks() -> Iterable[bytes]:
        for start in range(0, len(data), 65536):
            yield data[start:start + 65536]

    return stream(chunks, len(data), {"Content-Type": content_type, **(headers or {})})


# -- a scripted FTP server, for misbehaviour ------------------------------------------------

class ScriptedFTPServer:
    """A minimal FTP server on ``127.0.0.1`` that can misbehave on purpose (pyftpdlib cannot
    be made to drip): anonymous login, ``TYPE``, ``PASV``, ``RETR`` of one file, ``QUIT``.

    ``banner_interval``: the greeting is sent one octet every so many seconds (the client
    is stuck in ``connect``). ``data_interval``: the file is sent one octet every so many
    seconds on the data connection. ``final_reply``: the control reply after the data
    connection closes (``226`` for success; ``426`` says the transfer failed). Each
    connection runs in a thread; :meth:`stop` ends them all.
    """

    def __init__(self, body: bytes, *, banner_interval: Optional[float] = None,
                 data_interval: Optional[float] = None,
                 final_reply: bytes = b"226 Transfer complete.") -> None:
        self.body = body
        self.banner_interval = banner_interval
        self.data_interval = data_interval
        self.final_reply = final_reply
        self.stopping = threading.Event()
        self.commands: list[str] = []
        self._socks: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind((HOST, 0))
        self._listener.listen(16)
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self._acceptor = threading.Thread(target=self._accept, daemon=True,
                                          name=f"ftp-script-{self.port}")
        self._acceptor.start()

    @property
    def origin(self) -> str:
        return f"ftp://{HOST}:{self.port}"

    def url(self, path: str = "/robots.txt") -> str:
        return self.origin + path

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.append(sock)

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self._keep(conn)
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            with self._lock:
                self._threads.append(thread)
            thread.start()

    def _send(self, sock: socket.socket, data: bytes, interval: Optional[float]) -> bool:
        """Send ``data`` (dripped when ``interval`` is set); False once stopping."""
        if interval is None:
            sock.sendall(data)
            return not self.stopping.is_set()
        for octet in data:
            if self.stopping.wait(interval):
                return False
            sock.sendall(bytes([octet]))
        return True

    def _serve(self, conn: socket.socket) -> None:
        data_listener: Optional[socket.socket] = None
        try:
            conn.settimeout(5.0)
            # A long greeting: dripped, it lasts far past any deadline and hang guard of the
            # tests (six minutes at 0.05 s an octet; ftplib reads lines of up to 8192 octets).
            greeting = b"220 scripted ftpd" + b"." * 7200 + b"\r\n"
            if not self._send(conn, greeting, self.banner_interval):
                return
            reader = conn.makefile("rb")
            while not self.stopping.is_set():
                line = reader.readline(1024)
                if not line:
                    return
                command = line.decode("latin-1").strip()
                with self._lock:
                    self.commands.append(command)
                verb = command.split(" ", 1)[0].upper()
                if verb == "USER":
                    conn.sendall(b"331 Password please.\r\n")
                elif verb == "PASS":
                    conn.sendall(b"230 Logged in.\r\n")
                elif verb == "TYPE":
                    conn.sendall(b"200 Type set.\r\n")
                elif verb == "PASV":
                    data_listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    data_listener.bind((HOST, 0))
                    data_listener.listen(1)
                    data_listener.settimeout(5.0)
                    self._keep(data_listener)
                    port = data_listener.getsockname()[1]
                    conn.sendall(b"227 Entering Passive Mode (127,0,0,1,%d,%d).\r\n"
                                 % (port >> 8, port & 0xFF))
                elif verb == "RETR" and data_listener is not None:
                    conn.sendall(b"150 Opening data connection.\r\n")
                    data, _ = data_listener.accept()
                    self._keep(data)
                    try:
                        done = self._send(data, self.body, self.data_interval)
                    finally:
                        with contextlib.suppress(OSError):
                            data.shutdown(socket.SHUT_WR)
                        data.close()
                    if not done:
                        return
                    conn.sendall(self.final_reply + b"\r\n")
                elif verb == "QUIT":
                    conn.sendall(b"221 Bye.\r\n")
                    return
                else:
                    conn.sendall(b"502 Not implemented.\r\n")
        except OSError:
            pass  # the client went away
        finally:
            if data_listener is not None:
                data_listener.close()
            with contextlib.suppress(OSError):
                conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self._acceptor.join(5)
        self._listener.close()
        with self._lock:
            socks, threads = list(self._socks), list(self._threads)
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(5)
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.close()

    def __enter__(self) -> ScriptedFTPServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
