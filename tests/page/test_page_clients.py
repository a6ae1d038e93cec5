"""Page signals in robotsrules.httpx (sync and async transports) and robotsrules.aiohttp,
against a loopback server: exposed on the response, and refusing declared purposes."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robotsrules import PageRefused, PageSignals
from robotsrules.httpx import PAGE_EXTENSION, AsyncRobotsTransport, RobotsTransport
from tests.network.servers import Exchange, RawHTTPServer, head, respond

UA = "ExampleBot/1.0"
HTML = b'<html><head><meta name="robots" content="nofollow, noai"></head><body>x</body></html>'


def _send(status: int, body: bytes, *headers: tuple[str, str]) -> Any:
    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, [*headers, ("Content-Length", str(len(body)))]) + body)
    return scenario


@pytest.fixture(scope="module")
def site() -> Iterator[RawHTTPServer]:
    with RawHTTPServer({
        "/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
        "/meta": _send(200, HTML, ("Content-Type", "text/html")),
        "/gzip": _send(200, gzip.compress(HTML), ("Content-Type", "text/html"),
                       ("Content-Encoding", "gzip")),
        "/header": _send(200, b"%PDF", ("Content-Type", "application/pdf"),
                         ("X-Robots-Tag", "exampleBot: noindex"), ("tdm-reservation", "1")),
        "/plain": _send(200, b"ok", ("Content-Type", "text/plain")),
    }) as server:
        yield server


def test_httpx_exposes_signals_and_keeps_the_body(site: RawHTTPServer) -> None:
    transport = RobotsTransport(user_agent=UA, page_signals=True)
    with httpx.Client(transport=transport) as client:
        for path in ("/meta", "/gzip"):
            response = client.get(site.url(path))
            signals = response.extensions[PAGE_EXTENSION]
            assert isinstance(signals, PageSignals)
            assert (signals.follow, signals.allows("ai-train")) == (False, False)
            assert response.content == HTML  # decoded once, still readable
        with client.stream("GET", site.url("/header")) as streamed:
            signals = streamed.extensions[PAGE_EXTENSION]
            assert signals.index is False and signals.tdm_reservation == 1
            assert streamed.read() == b"%PDF"
        plain = client.get(site.url("/plain"))
        assert plain.extensions[PAGE_EXTENSION].directives == ()


def test_httpx_refuses_declared_purposes(site: RawHTTPServer) -> None:
    transport = RobotsTransport(user_agent=UA, purposes=["ai-train"])
    with httpx.Client(transport=transport) as client:
        with pytest.raises(PageRefused) as caught:
            client.get(site.url("/meta"))
        assert caught.value.purpose == "ai-train" and "noai" in str(caught.value)
        with pytest.raises(PageRefused) as caught:
            client.get(site.url("/header"))
        assert "tdm-reservation" in caught.value.why
        assert client.get(site.url("/plain")).status_code == 200
    search = RobotsTransport(user_agent=UA, purposes=["search"])
    with httpx.Client(transport=search) as client:
        assert client.get(site.url("/meta")).status_code == 200
        with pytest.raises(PageRefused):  # X-Robots-Tag: exampleBot: noindex
            client.get(site.url("/header"))
    off = RobotsTransport(user_agent=UA)
    with httpx.Client(transport=off) as client:
        assert PAGE_EXTENSION not in client.get(site.url("/meta")).extensions


def test_httpx_async_twin(site: RawHTTPServer) -> None:
    async def run() -> None:
        transport = AsyncRobotsTransport(user_agent=UA, purposes=["train-ai"])
        async with httpx.AsyncClient(transport=transport) as client:
            with pytest.raises(PageRefused):
                await client.get(site.url("/gzip"))
            response = await client.get(site.url("/plain"))
            assert response.extensions[PAGE_EXTENSION].allows("train-ai") is None
    asyncio.run(run())


def test_aiohttp_middleware(site: RawHTTPServer) -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware, page_signals_of

    async def run() -> None:
        plain = RobotsMiddleware(user_agent=UA, page_signals=True)
        refusing = RobotsMiddleware(user_agent=UA, purposes=["ai-train"])
        async with aiohttp.ClientSession(middlewares=(plain,)) as session, \
                session.get(site.url("/gzip")) as response:
            signals = page_signals_of(response)
            assert signals is not None and signals.follow is False
            assert await response.read() == HTML
        async with aiohttp.ClientSession(middlewares=(refusing,)) as session:
            with pytest.raises(PageRefused):
                await session.get(site.url("/header"))
            async with session.get(site.url("/plain")) as response:
                assert response.status == 200
        await plain.aclose()
        await refusing.aclose()
    asyncio.run(run())


def test_refusals_combine_the_sites_robots_txt_preferences() -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware

    rules = b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"
    with RawHTTPServer({"/robots.txt": respond(200, rules),
                        "/plain": _send(200, b"ok", ("Content-Type", "text/plain"))}) as server:
        with httpx.Client(transport=RobotsTransport(user_agent=UA, purposes=["ai-train"])) \
                as client, pytest.raises(PageRefused) as caught:
            client.get(server.url("/plain"))
        assert "robots.txt line 2" in caught.value.why
        with httpx.Client(transport=RobotsTransport(user_agent=UA, purposes=["search"])) \
                as client:
            assert client.get(server.url("/plain")).status_code == 200

        async def run() -> None:
            middleware = RobotsMiddleware(user_agent=UA, purposes=["train-ai"])
            async with aiohttp.ClientSession(middlewares=(middleware,)) as session:
                with pytest.raises(PageRefused):
                    await session.get(server.url("/plain"))
            await middleware.aclose()
        asyncio.run(run())


# Issue 33: the body's forms (tests/page/test_header_matrix.py's BODY_FORMS), served as they
# are: each client reads the body by the admission step's one rule (HTML by its type, else
# sniffed), so an untyped HTML response saying noai is refused like a typed one.
def _forms_site() -> RawHTTPServer:
    from tests.page.test_header_matrix import BODY_FORMS, _form_pairs

    routes = {"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n")}
    for number, name in enumerate(sorted(BODY_FORMS)):
        routes[f"/form/{number}"] = _send(200, BODY_FORMS[name][1], *_form_pairs(name))
    return RawHTTPServer(routes)


def _expected_refusals() -> list[bool]:
    from tests.page.test_header_matrix import BODY_FORMS

    return [BODY_FORMS[name][2] is False for name in sorted(BODY_FORMS)]


def test_httpx_admits_every_body_form_by_the_one_rule() -> None:
    expected = _expected_refusals()
    with _forms_site() as server:
        refused = []
        with httpx.Client(transport=RobotsTransport(user_agent=UA, purposes=["ai-train"])) \
                as client:
            for number in range(len(expected)):
                try:
                    client.get(server.url(f"/form/{number}"))
                    refused.append(False)
                except PageRefused:
                    refused.append(True)
        assert refused == expected

        async def run() -> list[bool]:
            found = []
            transport = AsyncRobotsTransport(user_agent=UA, purposes=["ai-train"])
            async with httpx.AsyncClient(transport=transport) as client:
                for number in range(len(expected)):
                    try:
                        await client.get(server.url(f"/form/{number}"))
                        found.append(False)
                    except PageRefused:
                        found.append(True)
            return found
        assert asyncio.run(run()) == expected


def test_aiohttp_admits_every_body_form_by_the_one_rule() -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware

    expected = _expected_refusals()
    with _forms_site() as server:
        async def run() -> list[bool]:
            found = []
            middleware = RobotsMiddleware(user_agent=UA, purposes=["ai-train"])
            async with aiohttp.ClientSession(middlewares=(middleware,)) as session:
                for number in range(len(expected)):
                    try:
                        async with session.get(server.url(f"/form/{number}")) as response:
                            await response.read()
                        found.append(False)
                    except PageRefused:
                        found.append(True)
            await middleware.aclose()
            return found
        assert asyncio.run(run()) == expected
