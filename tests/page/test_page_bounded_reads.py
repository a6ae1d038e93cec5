"""The client integrations read only the head of a body for the page check (issue 33
review): a gzip bomb served on loopback is never inflated past DEFAULT_HEAD_BYTES and one
more octet (memory measured by tracemalloc's peak, never by time), and the response handed
back still has its whole body."""

from __future__ import annotations

import asyncio
import gzip
import tracemalloc
import zlib
from collections.abc import Awaitable, Iterator
from typing import Any, Callable, TypeVar

import httpx
import pytest

from robotsrules import PageRefused
from robotsrules._page import DEFAULT_HEAD_BYTES
from robotsrules.httpx import PAGE_EXTENSION, AsyncRobotsTransport, RobotsTransport
from tests.network.servers import Exchange, RawHTTPServer, head, respond

UA = "ExampleBot/1.0"
INFLATED = 96 << 20  # what the bomb decodes to: 96 MiB
PEAK = 24 << 20  # far below it; the head is 512 KiB, kept at most a few times over
T = TypeVar("T")


def _bomb(start: bytes) -> bytes:
    """``start`` then zeros, gzip-coded: about 100 KiB that decode to ``INFLATED`` octets."""
    coder = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * (1 << 20)
    parts = [coder.compress(start)]
    parts.extend(coder.compress(zeros) for _ in range(INFLATED >> 20))
    parts.append(coder.flush())
    return b"".join(parts)


# Past the head: a page of 3 MiB whose whole body must reach the caller.
LONG = b"<html><head><title>t</title></head><body>" + b"".join(
    b"<p>%07d</p>" % n for n in range(3 << 20 >> 4)) + b"</body></html>"


# A head that goes on (metas only), gzip-coded and cut: its end never arrives.
CUT_GZIP = gzip.compress(b"<html><head>" + b"".join(
    b'<meta name="m%07d" content="x">' % n for n in range(2000)))[:4000]


def _send(body: bytes, *headers: tuple[str, str]) -> Any:
    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/html"), *headers,
                                 ("Content-Length", str(len(body)))]) + body)
    return scenario


@pytest.fixture(scope="module")
def site() -> Iterator[RawHTTPServer]:
    with RawHTTPServer({
        "/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
        "/bomb": _send(_bomb(b"<html><head><title>x</title>"), ("Content-Encoding", "gzip")),
        "/bomb-noai": _send(_bomb(b'<html><head><meta name="robots" content="noai">'),
                            ("Content-Encoding", "gzip")),
        "/long": _send(LONG),
        "/long-gzip": _send(gzip.compress(LONG), ("Content-Encoding", "gzip")),
        "/cut-gzip": _send(CUT_GZIP, ("Content-Encoding", "gzip")),
    }) as server:
        yield server


class _Raw:
    """A file over raw chunks, for gzip.GzipFile to read a few decoded octets from."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks, self.left = chunks, b""

    def read(self, size: int = -1) -> bytes:
        while not self.left:
            self.left = next(self.chunks, b"")
            if not self.left:
                return b""
        size = len(self.left) if size < 0 else size
        out, self.left = self.left[:size], self.left[size:]
        return out


def _peak(run: Callable[[], T]) -> tuple[T, int]:
    tracemalloc.start()
    try:
        result = run()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _apeak(run: Callable[[], Awaitable[T]]) -> tuple[T, int]:
    return _peak(lambda: asyncio.run(run()))  # type: ignore[arg-type, return-value]


def test_httpx_reads_a_bomb_within_the_head_bound(site: RawHTTPServer) -> None:
    def run() -> tuple[bool, bool]:
        transport = RobotsTransport(user_agent=UA, purposes=["ai-train"], crawl_delay=False)
        with httpx.Client(transport=transport) as client:
            with client.stream("GET", site.url("/bomb")) as response:
                signals = response.extensions[PAGE_EXTENSION]
                # The body is still there to stream (raw: httpx's own decoder inflates a
                # chunk whole, the caller's choice, not the page check's).
                first = gzip.GzipFile(fileobj=_Raw(response.iter_raw())).read(6)
            try:
                client.get(site.url("/bomb-noai"))
                refused = False
            except PageRefused:
                refused = True
        return signals.head_cut and first.startswith(b"<html>"), refused
    (cut_and_streamed, refused), peak = _peak(run)
    assert cut_and_streamed and refused
    assert peak < PEAK, peak


def test_httpx_async_reads_a_bomb_within_the_head_bound(site: RawHTTPServer) -> None:
    async def run() -> bool:
        transport = AsyncRobotsTransport(user_agent=UA, purposes=["ai-train"],
                                         crawl_delay=False)
        async with httpx.AsyncClient(transport=transport) as client:
            async with client.stream("GET", site.url("/bomb")) as response:
                cut: bool = response.extensions[PAGE_EXTENSION].head_cut
            with pytest.raises(PageRefused):
                await client.get(site.url("/bomb-noai"))
        return cut
    cut, peak = _apeak(run)
    assert cut
    assert peak < PEAK, peak


def test_httpx_hands_back_the_whole_body(site: RawHTTPServer) -> None:
    transport = RobotsTransport(user_agent=UA, page_signals=True, crawl_delay=False)
    with httpx.Client(transport=transport) as client:
        for path in ("/long", "/long-gzip"):
            response = client.get(site.url(path))
            assert response.content == LONG, path
            assert response.extensions[PAGE_EXTENSION].head_cut is False
        cut = client.get(site.url("/cut-gzip"))  # a gzip stream without its end: not known
        assert cut.extensions[PAGE_EXTENSION].head_cut is True

    async def run() -> bytes:
        transport = AsyncRobotsTransport(user_agent=UA, page_signals=True, crawl_delay=False)
        async with httpx.AsyncClient(transport=transport) as client:
            return (await client.get(site.url("/long-gzip"))).content
    assert asyncio.run(run()) == LONG


def test_aiohttp_reads_a_bomb_within_the_head_bound(site: RawHTTPServer) -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware, page_signals_of

    async def run() -> bool:
        middleware = RobotsMiddleware(user_agent=UA, purposes=["ai-train"], crawl_delay=False)
        async with aiohttp.ClientSession(middlewares=(middleware,)) as session:
            async with session.get(site.url("/bomb")) as response:
                signals = page_signals_of(response)
                assert signals is not None
                first = await response.content.read(6)
            with pytest.raises(PageRefused):
                await session.get(site.url("/bomb-noai"))
        await middleware.aclose()
        return signals.head_cut and first == b"<html>"
    ok, peak = _apeak(run)
    assert ok
    assert peak < PEAK, peak


def test_aiohttp_hands_back_the_whole_body(site: RawHTTPServer) -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware, page_signals_of

    async def run() -> None:
        middleware = RobotsMiddleware(user_agent=UA, page_signals=True, crawl_delay=False)
        async with aiohttp.ClientSession(middlewares=(middleware,)) as session:
            for path in ("/long", "/long-gzip"):
                async with session.get(site.url(path)) as response:
                    assert await response.read() == LONG, path
                    signals = page_signals_of(response)
                    assert signals is not None and signals.head_cut is False
        async with aiohttp.ClientSession(middlewares=(middleware,),
                                         auto_decompress=False) as session:
            async with session.get(site.url("/long-gzip")) as response:
                assert gzip.decompress(await response.read()) == LONG
                signals = page_signals_of(response)
                assert signals is not None and signals.head_cut is False
            async with session.get(site.url("/cut-gzip")) as response:
                signals = page_signals_of(response)  # the coded head could not be decoded
                assert signals is not None and signals.head_cut is True
        await middleware.aclose()
    asyncio.run(run())


def test_the_head_bound_is_the_admission_steps() -> None:
    assert DEFAULT_HEAD_BYTES == 512 * 1024  # what PEAK above is measured against
