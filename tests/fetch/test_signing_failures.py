"""What a signer that cannot sign does to the robots.txt verdict (review of issue 38).

A request that could not be signed is not sent; the robots.txt fetch reads that as
``unreachable`` (RFC 9309 (September 2022) §2.3.1.4: a complete disallow), never as
``unavailable`` (allow all), which is for a server that answered 4xx. Each case runs against
a loopback server whose robots.txt disallows everything, and checks it received nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping

import pytest

from robotsrules import AsyncRobotsCache, InvalidArgument, RobotsCache
from robotsrules._fetch._fetcher import afetch, fetch
from robotsrules._fetch._sign import Sign
from robotsrules._identity._httpsig import Signer, SigningKey, verify_signature
from robotsrules.robotparser import RobotFileParser
from tests.network.servers import RawHTTPServer, ServerPool, respond
from tests.timing import HEALTHY

pytest.importorskip("cryptography", reason="the 'sign' extra (cryptography) is not installed")

UA = "SignBot/1.0"


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture()
def site() -> Iterator[RawHTTPServer]:
    with ServerPool() as pool:
        yield pool.http({"/robots.txt": respond(200, b"User-agent: *\nDisallow: /\n")})


def _value_error(method: str, url: str, headers: Mapping[str, str]) -> Mapping[str, str]:
    raise ValueError("this signer cannot sign")


def _runtime_error(method: str, url: str, headers: Mapping[str, str]) -> Mapping[str, str]:
    raise RuntimeError("this signer cannot sign")


def _signers(key: SigningKey) -> dict[str, Sign]:
    # A Date it covers but the request lacks: the library's own Signer raises per request.
    return {"ValueError": _value_error, "RuntimeError": _runtime_error,
            "uncovered date": Signer(key, "https://bot.example",
                                     components=("@authority", "signature-agent", "date"))}


@pytest.mark.parametrize("name", ["ValueError", "RuntimeError", "uncovered date"])
def test_a_signer_that_raises_makes_robots_txt_unreachable(
        name: str, site: RawHTTPServer, key: SigningKey) -> None:
    sign = _signers(key)[name]
    result = fetch(site.url(), user_agent=UA, timeout=HEALTHY, sign=sign)
    assert result.outcome == "unreachable", result
    assert "cannot sign" in (result.error or "")
    assert asyncio.run(afetch(site.url(), user_agent=UA, timeout=HEALTHY,
                              sign=sign)).outcome == "unreachable"
    with RobotsCache(user_agent=UA, timeout=HEALTHY, sign=sign) as cache:
        assert cache.allowed(site.url("/page")) is False

    async def cached() -> bool:
        async with AsyncRobotsCache(user_agent=UA, timeout=HEALTHY, sign=sign) as cache:
            return await cache.allowed(site.url("/page"))

    assert asyncio.run(cached()) is False
    parser = RobotFileParser(site.url(), user_agent=UA, timeout=HEALTHY, sign=sign)
    parser.read()
    assert parser.can_fetch(UA, site.url("/page")) is False
    assert site.requests == []  # nothing was sent unsigned


def test_signer_refuses_a_signature_agent_it_cannot_send(key: SigningKey) -> None:
    with pytest.raises(InvalidArgument, match=r"printable ASCII|non-ASCII"):
        Signer(key, "https://bücher.example")
    Signer(key, "https://xn--bcher-kva.example")  # its A-label form is fine


def test_signer_refuses_one_string_as_origins(key: SigningKey) -> None:
    with pytest.raises(InvalidArgument, match="not one string"):
        Signer(key, "https://bot.example", origins="https://a.example")
    assert Signer(key, "https://bot.example", origins=[])("GET", "https://a.example/", {}) == {}


# -- a repeated covered field is signed as a verifier reads it (RFC 9421 §2.1) -------------

COVERS_X_A = ("@authority", "signature-agent", "x-a")


def _verifies_with_x_a(key: SigningKey, url: str, headers: Mapping[str, str],
                       x_a: str) -> bool:
    seen = {**headers, "x-a": x_a}
    directory = "https://bot.example/.well-known/http-message-signatures-directory"
    check = verify_signature("GET", url, seen, key_for=lambda u, kid: key.public_key
                             if (u, kid) == (directory, key.thumbprint) else None)
    return check.verified


def test_aiohttp_signs_every_value_of_a_repeated_field(key: SigningKey) -> None:
    aiohttp = pytest.importorskip("aiohttp")
    from multidict import CIMultiDict

    from robotsrules.aiohttp import RobotsMiddleware

    plain, covering = Signer(key, "https://bot.example"), Signer(
        key, "https://bot.example", components=COVERS_X_A)

    def sign(method: str, url: str, headers: Mapping[str, str]) -> Mapping[str, str]:
        # the robots.txt fetch carries no X-A: covering it there would (rightly) fail
        return (covering if any(k.lower() == "x-a" for k in headers) else plain)(
            method, url, headers)

    with ServerPool() as pool:
        site = pool.http({"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
                          "/page": respond(200, b"ok")})

        async def main() -> None:
            robots = RobotsMiddleware(user_agent=UA, timeout=HEALTHY, crawl_delay=False,
                                      sign=sign)
            headers = CIMultiDict([("X-A", "one"), ("X-A", "two")])
            try:
                async with aiohttp.ClientSession(middlewares=(robots,)) as session, \
                        session.get(site.url("/page"), headers=headers) as response:
                    assert response.status == 200
            finally:
                await robots.aclose()

        asyncio.run(main())
        page = next(r for r in site.requests if r.path == "/page")
    assert page.headers["x-a"] == "two"  # the server kept the last of the two lines
    assert _verifies_with_x_a(key, site.url("/page"), page.headers, "one, two")
    assert not _verifies_with_x_a(key, site.url("/page"), page.headers, "two")


def test_scrapy_signs_every_value_of_a_repeated_field(key: SigningKey) -> None:
    pytest.importorskip("scrapy")
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from robotsrules.scrapy import SigningMiddleware

    sign = Signer(key, "https://bot.example", components=COVERS_X_A)
    middleware = SigningMiddleware(get_crawler(settings_dict={"ROBOTSRULES_SIGNER": sign}))
    request = Request("https://a.example/page", headers={"X-A": ["one", "two"]})
    middleware.process_request(request)
    sent = {name.decode().lower(): b", ".join(values).decode()
            for name, values in request.headers.items()}
    assert _verifies_with_x_a(key, request.url, sent, "one, two")
    assert not _verifies_with_x_a(key, request.url, sent, "one,two")


# -- a Host header naming another authority is not signed (RFC 9421 §2.2.3) ---------------

@pytest.mark.parametrize("host", ["victim.example", "127.0.0.1:1", "127.0.0.1@victim.example"])
def test_a_host_header_for_another_authority_stops_the_request(
        host: str, key: SigningKey) -> None:
    import httpx

    from robotsrules import SigningFailed
    from robotsrules.httpx import AsyncRobotsTransport, RobotsTransport

    sign = Signer(key, "https://bot.example")
    with ServerPool() as pool:
        site = pool.http({"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
                          "/page": respond(200, b"ok")})
        transport = RobotsTransport(user_agent=UA, timeout=HEALTHY, crawl_delay=False,
                                    sign=sign)
        with httpx.Client(transport=transport, timeout=HEALTHY) as client, \
                pytest.raises(SigningFailed, match="another authority"):
            client.get(site.url("/page"), headers={"Host": host})

        async def main() -> None:
            transport = AsyncRobotsTransport(user_agent=UA, timeout=HEALTHY,
                                             crawl_delay=False, sign=sign)
            async with httpx.AsyncClient(transport=transport, timeout=HEALTHY) as client:
                with pytest.raises(SigningFailed, match="another authority"):
                    await client.get(site.url("/page"), headers={"Host": host})

        asyncio.run(main())
        assert "/page" not in site.paths  # nothing was sent
        # the URL's own authority, spelt another way, is signed as usual
        again = RobotsTransport(user_agent=UA, timeout=HEALTHY, crawl_delay=False, sign=sign)
        with httpx.Client(transport=again, timeout=HEALTHY) as client:
            own = f"127.0.0.1:{site.port}"
            assert client.get(site.url("/page"), headers={"Host": own}).status_code == 200
        assert "signature" in next(r for r in site.requests if r.path == "/page").headers


def test_aiohttp_refuses_to_sign_for_another_host(key: SigningKey) -> None:
    aiohttp = pytest.importorskip("aiohttp")
    from robotsrules import SigningFailed
    from robotsrules.aiohttp import RobotsMiddleware

    with ServerPool() as pool:
        site = pool.http({"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
                          "/page": respond(200, b"ok")})

        async def main() -> None:
            robots = RobotsMiddleware(user_agent=UA, timeout=HEALTHY, crawl_delay=False,
                                      sign=Signer(key, "https://bot.example"))
            try:
                async with aiohttp.ClientSession(middlewares=(robots,)) as session:
                    with pytest.raises(SigningFailed, match="another authority"):
                        async with session.get(site.url("/page"),
                                               headers={"Host": "victim.example"}):
                            pass
            finally:
                await robots.aclose()

        asyncio.run(main())
        assert "/page" not in site.paths
