"""Hundreds of HTTP origins on loopback, served by one asyncio loop in one thread.

Linux routes the whole of ``127.0.0.0/8`` to the loopback interface, so every origin gets
an address of its own (``127.0.1.1``, ``127.0.1.2``, ...): distinct hosts, hence distinct
robots.txt scopes, with nothing configured and nothing leaving the machine.

Each origin has a *behaviour* (a coroutine that answers one request on the raw stream) and
the server records, per origin and path, how many requests arrived, plus how many
connections were open at once (now and at the peak) — what the load tests assert on.
Every connection serves one request and is closed (``Connection: close``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass
from typing import Callable, Optional

from tests.timing import HANG

Behaviour = Callable[["Request"], Awaitable[None]]


@dataclass
class Request:
    """One request, handed to a behaviour."""

    host: str
    path: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    server: ManyOrigins

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()


def head(status: int, length: Optional[int], extra: tuple[tuple[str, str], ...] = ()) -> bytes:
    lines = [f"HTTP/1.1 {status} Status", "Content-Type: text/plain", "Connection: close"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines += [f"{name}: {value}" for name, value in extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def respond(status: int, body: bytes, delay: float = 0.0) -> Behaviour:
    """A complete response, after ``delay`` seconds."""

    async def behaviour(request: Request) -> None:
        if delay:
            await asyncio.sleep(delay)
        await request.send(head(status, len(body)) + body)

    return behaviour


def redirect(location: str, status: int = 301) -> Behaviour:
    """A redirect to ``location``."""

    async def behaviour(request: Request) -> None:
        await request.send(head(status, 0, (("Location", location),)))

    return behaviour


def huge(prefix: bytes, size: int) -> Behaviour:
    """A 200 of ``size`` octets: ``prefix`` then comment lines, sent 64 KiB at a time until
    the client stops reading."""

    async def behaviour(request: Request) -> None:
        await request.send(head(200, size) + prefix)
        block = (b"# " + b"." * 61 + b"\n") * 1024
        sent = len(prefix)
        while sent < size:
            piece = block[: size - sent]
            await request.send(piece)
            sent += len(piece)

    return behaviour


def stall(seconds: float) -> Behaviour:
    """Say nothing for ``seconds`` (longer than the client's time-out), then close; stop
    as soon as the client gives up and closes its end."""

    async def behaviour(request: Request) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(request.reader.read(), seconds)

    return behaviour


async def hang_up(request: Request) -> None:
    """Close at once without an answer (the client sees the connection end: unreachable)."""
    request.writer.transport.abort()


class ManyOrigins:
    """``origins`` maps a host address (``127.0.x.y``) to ``{path: behaviour}``; all listen
    on one port chosen at start. Use as a context manager."""

    def __init__(self, origins: dict[str, dict[str, Behaviour]]) -> None:
        self.origins = origins
        self.port = 0
        self.hits: Counter[tuple[str, str]] = Counter()
        self.open_now = 0
        self.open_peak = 0
        self.errors: list[BaseException] = []
        self._loop = asyncio.new_event_loop()
        self._servers: list[asyncio.base_events.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop.run_forever, name="many-origins",
                                        daemon=True)

    def origin(self, host: str) -> str:
        return f"http://{host}:{self.port}"

    def count(self, host: str, path: str = "/robots.txt") -> int:
        with self._lock:
            return self.hits[(host, path)]

    def open_connections(self) -> int:
        with self._lock:
            return self.open_now

    # -- life cycle --------------------------------------------------------------------

    def __enter__(self) -> ManyOrigins:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(HANG)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(HANG)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(HANG)
        self._loop.close()

    async def _start(self) -> None:
        hosts = list(self.origins)
        first = await asyncio.start_server(self._serve_for(hosts[0]), hosts[0], 0, backlog=512)
        self.port = first.sockets[0].getsockname()[1]
        self._servers.append(first)
        for host in hosts[1:]:
            server = await asyncio.start_server(self._serve_for(host), host, self.port,
                                                backlog=512)
            self._servers.append(server)

    async def _stop(self) -> None:
        for server in self._servers:
            server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for server in self._servers:
            await server.wait_closed()

    # -- serving -----------------------------------------------------------------------

    def _serve_for(self, host: str) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter],
                                                Awaitable[None]]:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            self._tasks.add(task)
            with self._lock:
                self.open_now += 1
                self.open_peak = max(self.open_peak, self.open_now)
            try:
                raw = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HANG)
                target = raw.split(b" ", 2)[1].decode("latin-1")
                path = target.split("?", 1)[0]
                with self._lock:
                    self.hits[(host, path)] += 1
                behaviour = self.origins[host].get(path, respond(404, b"not found\n"))
                await behaviour(Request(host, path, reader, writer, self))
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                    asyncio.CancelledError):
                pass  # the client went away (fetches that stop reading do)
            except BaseException as error:  # a broken behaviour: keep it for the test
                self.errors.append(error)
            finally:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()
                with self._lock:
                    self.open_now -= 1
                self._tasks.discard(task)

        return serve


def loopback_hosts(count: int, start: int = 1) -> Iterator[str]:
    """``count`` distinct loopback addresses ``127.0.x.y`` (y in 1..254), from ``start``."""
    n = start
    made = 0
    while made < count:
        high, low = divmod(n, 254)
        yield f"127.0.{1 + high}.{1 + low}"
        n += 1
        made += 1
