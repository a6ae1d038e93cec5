"""A pay-per-crawl 402 through every client integration, against loopback servers: read as
priced (the price and the terms link reported), never retried as a failure, never paid (no
``crawler-exact-price`` / ``crawler-max-price`` header is ever sent); and a robots.txt
answered 402 is "unavailable" (RFC 9309 §2.3.1.3: 4xx, allow all)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robotsrules import PagePriced, PageRefused, RobotsCache
from robotsrules.httpx import PAGE_EXTENSION, AsyncRobotsTransport, RobotsTransport
from tests.network.servers import Exchange, RawHTTPServer, head, respond

UA = "ExampleBot/1.0"
PRICE = [("crawler-price", "USD 0.01"),
         ("Link", '<https://example.com/terms>; rel="terms-of-service"')]
PAYMENT_HEADERS = ("crawler-exact-price", "crawler-max-price")


def _send(status: int, body: bytes, *headers: tuple[str, str]) -> Any:
    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, [*headers, ("Content-Length", str(len(body)))],
                           reason="Payment Required" if status == 402 else None) + body)
    return scenario


def _site() -> RawHTTPServer:
    return RawHTTPServer({
        "/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
        "/paid": _send(402, b"payment required", ("Content-Type", "text/plain"), *PRICE),
        "/paid-html": _send(402, b"<html><head><meta name=robots content=noai></head>",
                            ("Content-Type", "text/html"), *PRICE),
        # A 402 of another payment scheme: no crawler-price, the status alone says it.
        "/paid-bare": _send(402, b"pay", ("Content-Type", "text/plain")),
    })


def _never_paid(server: RawHTTPServer) -> None:
    for request in server.requests:
        assert not set(request.headers) & set(PAYMENT_HEADERS), request


@pytest.fixture
def site() -> Iterator[RawHTTPServer]:
    with _site() as server:
        yield server


def test_httpx_reports_the_price_and_does_not_retry(site: RawHTTPServer) -> None:
    # A retrying wrapped transport (connection retries) and page signals on: one request.
    transport = RobotsTransport(httpx.HTTPTransport(retries=3), user_agent=UA,
                                page_signals=True)
    with httpx.Client(transport=transport) as client:
        response = client.get(site.url("/paid"))
    assert response.status_code == 402 and response.content == b"payment required"
    pricing = response.extensions[PAGE_EXTENSION].pricing
    assert (pricing.currency, pricing.amount, pricing.asked) == ("USD", "0.01", True)
    assert pricing.terms == ("https://example.com/terms",)
    assert site.count("/paid") == 1
    with httpx.Client(transport=RobotsTransport(user_agent=UA, page_signals=True)) as client:
        bare = client.get(site.url("/paid-bare")).extensions[PAGE_EXTENSION]
    assert bare.priced and bare.pricing.price is None and bare.pricing.status == 402
    _never_paid(site)


def test_httpx_with_purposes_raises_page_priced(site: RawHTTPServer) -> None:
    transport = RobotsTransport(user_agent=UA, purposes=["ai-train"])
    with httpx.Client(transport=transport) as client, pytest.raises(PagePriced) as caught:
        client.get(site.url("/paid-html"))  # its noai is not what is said first
    assert isinstance(caught.value, PageRefused)
    assert caught.value.pricing.amount == "0.01"
    assert "terms https://example.com/terms" in str(caught.value)
    assert site.count("/paid-html") == 1
    _never_paid(site)


def test_httpx_async_twin(site: RawHTTPServer) -> None:
    async def run() -> None:
        transport = AsyncRobotsTransport(user_agent=UA, purposes=["search"])
        async with httpx.AsyncClient(transport=transport) as client:
            with pytest.raises(PagePriced):
                await client.get(site.url("/paid"))
        seen = AsyncRobotsTransport(user_agent=UA, page_signals=True)
        async with httpx.AsyncClient(transport=seen) as client:
            response = await client.get(site.url("/paid"))
            assert response.extensions[PAGE_EXTENSION].priced
    asyncio.run(run())
    assert site.count("/paid") == 2  # one request per call, none repeated
    _never_paid(site)


def test_aiohttp(site: RawHTTPServer) -> None:
    pytest.importorskip("aiohttp")
    import aiohttp

    from robotsrules.aiohttp import RobotsMiddleware, page_signals_of

    async def run() -> None:
        plain = RobotsMiddleware(user_agent=UA, page_signals=True)
        guarded = RobotsMiddleware(user_agent=UA, purposes=["ai-train"])
        async with aiohttp.ClientSession(middlewares=(plain,)) as session, \
                session.get(site.url("/paid")) as response:
            assert response.status == 402
            signals = page_signals_of(response)
            assert signals is not None and signals.pricing is not None
            assert signals.pricing.describe() == ("HTTP 402: asks USD 0.01 per crawl; "
                                                  "terms https://example.com/terms")
        async with aiohttp.ClientSession(middlewares=(guarded,)) as session:
            with pytest.raises(PagePriced):
                await session.get(site.url("/paid"))
            with pytest.raises(PagePriced):  # the status alone
                await session.get(site.url("/paid-bare"))
        await plain.aclose()
        await guarded.aclose()
    asyncio.run(run())
    assert site.count("/paid") == 2
    _never_paid(site)


def test_a_robots_txt_answered_402_allows_all() -> None:
    # RFC 9309 §2.3.1.3: a 4xx robots.txt is "unavailable": the crawler MAY access any
    # resource. Cloudflare never charges for /robots.txt ("always free" paths), but a site
    # may; the policy reads it as every 4xx.
    with RawHTTPServer({"/robots.txt": _send(402, b"User-agent: *\nDisallow: /\n",
                                             ("Content-Type", "text/plain"), *PRICE),
                        "/page": respond(200, b"ok")}) as server:
        with RobotsCache(user_agent=UA) as cache:
            served = cache.lookup(server.url("/page"))
            assert (served.result.outcome, served.result.status) == ("unavailable", 402)
            assert cache.allowed(server.url("/page")) is True
        transport = RobotsTransport(user_agent=UA)
        with httpx.Client(transport=transport) as client:
            assert client.get(server.url("/page")).status_code == 200
        _never_paid(server)


SCRIPT = os.path.join(os.path.dirname(__file__), "page_crawl_script.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _crawl(settings: dict, urls: list) -> dict:
    base = {"ROBOTSTXT_OBEY": True, "USER_AGENT": UA, "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False, "DOWNLOAD_TIMEOUT": 10,
            # Even a crawler told to retry 402s and to let them through never repeats one.
            "RETRY_ENABLED": True, "RETRY_TIMES": 3, "RETRY_HTTP_CODES": [402, 503],
            "HTTPERROR_ALLOWED_CODES": [402],
            "DOWNLOADER_MIDDLEWARES": {
                "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
                "robotsrules.scrapy.RobotsTxtMiddleware": 100,
                "robotsrules.scrapy.PageSignalsMiddleware": 950}}
    base.update(settings)
    done = subprocess.run([sys.executable, SCRIPT, json.dumps(base), json.dumps(urls)],
                          capture_output=True, text=True, timeout=90, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_scrapy_counts_marks_and_never_retries() -> None:
    pytest.importorskip("scrapy")
    with _site() as server:
        stats = _crawl({}, [server.url("/paid")])
        assert server.count("/paid") == 1
        _never_paid(server)
    assert stats["robotsrules/page/priced"] == 1
    assert "retry/count" not in stats
    (signals,) = stats["signals"].values()
    assert signals["pricing"] == ("HTTP 402: asks USD 0.01 per crawl; "
                                  "terms https://example.com/terms")


def test_scrapy_with_purposes_drops_it() -> None:
    pytest.importorskip("scrapy")
    with _site() as server:
        stats = _crawl({"ROBOTSRULES_PURPOSES": ["ai-train"]}, [server.url("/paid")])
        assert server.count("/paid") == 1
        _never_paid(server)
    assert stats["robotsrules/page/priced"] == 1 and stats["seen"] == []
