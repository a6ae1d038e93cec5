"""Web Bot Auth signing in every fetch path (issue 38): each request a loopback server
receives is checked with ``verify_signature`` (h-38a's verifier) against the key.

Two origins on 127.0.0.1 (two ports): every file and page of ``a`` redirects to ``b``. Per
entry point of the matrix: every request at ``a`` and at ``b`` verifies for its *own* URL
(so the hop to ``b`` was signed anew for ``b``'s authority: ``a``'s signature covers ``a``'s
``@authority`` and would not verify there); with the signer's ``origins`` limited to ``a``,
``b`` receives no signature header at all, not even the stale ones a caller's client sent;
without a signer, nothing is signed.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Callable, Optional

import httpx
import pytest

from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules._fetch._fetcher import afetch, fetch, fetch_page
from robotsrules._fetch._pinned import AsyncGuardedClient, Guard, GuardedClient
from robotsrules._fetch._sign import SIGNATURE_HEADERS, Sign
from robotsrules._identity._httpsig import Signer, SigningKey, verify_signature
from robotsrules.httpx import AsyncRobotsTransport, RobotsTransport
from robotsrules.robotparser import RobotFileParser
from tests.network.servers import RawHTTPServer, ServerPool, redirect, respond
from tests.timing import HANG, HEALTHY

pytest.importorskip("cryptography", reason="the 'sign' extra (cryptography) is not installed")

UA = "SignBot/1.0"
AGENT = "https://bot.example"
DIRECTORY = AGENT + "/.well-known/http-message-signatures-directory"
PATHS = ("/robots.txt", "/.well-known/tdmrep.json", "/license.xml", "/page")
STALE = {"Signature-Input": 'sig1=("@authority");created=1', "Signature": "sig1=:AAAA:",
         "Signature-Agent": 'sig1="https://stale.example"'}
LICENSE = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
           b'<license><permits type="usage">all</permits></license></content></rsl>')


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture()
def sites() -> Iterator[tuple[RawHTTPServer, RawHTTPServer]]:
    with ServerPool() as pool:
        b = pool.http({"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
                       "/.well-known/tdmrep.json": respond(200, b"[]",
                                                           content_type="application/json"),
                       "/license.xml": respond(200, LICENSE, content_type="application/rsl+xml"),
                       "/page": respond(200, b"<p>ok</p>", content_type="text/html")})
        a = pool.http({path: redirect(b.url(path), 302) for path in PATHS})
        yield a, b


# -- the entry points: each fetches from ``a`` (and so, redirected, from ``b``) ---------------

Go = Callable[[RawHTTPServer, RawHTTPServer, Optional[Sign]], None]
GUARD = Guard(allow_private_addresses=True)


def _exempt(a: RawHTTPServer, b: RawHTTPServer) -> Guard:
    """The guard on, these two loopback servers let through (as a key directory would be)."""
    return Guard(exempt=frozenset({("127.0.0.1", a.port), ("127.0.0.1", b.port)}))


def via_fetch(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    with httpx.Client(headers=STALE) as client:  # a caller's client with stale headers
        assert fetch(a.url("/x"), user_agent=UA, timeout=HEALTHY, client=client,
                     sign=sign).outcome == "ok"


def via_afetch(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    async def main() -> None:
        result = await afetch(a.url("/x"), user_agent=UA, timeout=HEALTHY, sign=sign)
        assert result.outcome == "ok"

    asyncio.run(main())


def via_cache(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    with RobotsCache(user_agent=UA, timeout=HEALTHY, sign=sign) as cache:
        assert cache.allowed(a.url("/x"))
        assert cache.tdmrep(a.url("/x")).state == "ok"
        assert cache.license_document(a.url("/license.xml")).state == "ok"


def via_async_cache(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    async def main() -> None:
        async with AsyncRobotsCache(user_agent=UA, timeout=HEALTHY, sign=sign) as cache:
            assert await cache.allowed(a.url("/x"))
            assert (await cache.tdmrep(a.url("/x"))).state == "ok"
            assert (await cache.license_document(a.url("/license.xml"))).state == "ok"

    asyncio.run(main())


def via_fetch_page(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    page = fetch_page(a.url("/page"), user_agent=UA, max_bytes=1000, timeout=HEALTHY,
                      extra_headers=STALE, sign=sign)
    assert (page.status, page.error) == (200, None)
    guarded = fetch_page(a.url("/page"), user_agent=UA, max_bytes=1000, timeout=HEALTHY,
                         guard=_exempt(a, b), sign=sign)
    assert (guarded.status, guarded.error) == (200, None)


def via_guarded_client(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    timeout = httpx.Timeout(HEALTHY)
    with GuardedClient(_exempt(a, b), timeout=timeout, sign=sign) as client:
        response = client.get(a.url("/page"), headers=STALE, follow_redirects=True)
        assert response.status_code == 200

    async def main() -> None:
        async with AsyncGuardedClient(GUARD, timeout=timeout, sign=sign) as client:
            response = await client.get(a.url("/page"), headers=STALE, follow_redirects=True)
            assert response.status_code == 200

    asyncio.run(main())


def via_transport(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    transport = RobotsTransport(user_agent=UA, timeout=HEALTHY, crawl_delay=False, sign=sign)
    with httpx.Client(transport=transport, headers=STALE, timeout=HEALTHY) as client:
        assert client.get(a.url("/page"), follow_redirects=True).status_code == 200


def via_async_transport(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    async def main() -> None:
        transport = AsyncRobotsTransport(user_agent=UA, timeout=HEALTHY, crawl_delay=False,
                                         sign=sign)
        async with httpx.AsyncClient(transport=transport, headers=STALE,
                                     timeout=HEALTHY) as client:
            response = await client.get(a.url("/page"), follow_redirects=True)
            assert response.status_code == 200

    asyncio.run(main())


def via_aiohttp(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    aiohttp = pytest.importorskip("aiohttp")
    from robotsrules.aiohttp import RobotsMiddleware

    async def main() -> None:
        robots = RobotsMiddleware(user_agent=UA, timeout=HEALTHY, crawl_delay=False, sign=sign)
        try:
            async with aiohttp.ClientSession(middlewares=(robots,), headers=STALE) as session, \
                    session.get(a.url("/page")) as response:
                assert response.status == 200
        finally:
            await robots.aclose()

    asyncio.run(main())


def via_robotparser(a: RawHTTPServer, b: RawHTTPServer, sign: Optional[Sign]) -> None:
    parser = RobotFileParser(a.url("/robots.txt"), user_agent=UA, timeout=HEALTHY, sign=sign)
    parser.read()
    assert parser.can_fetch(UA, a.url("/x"))


ENTRY_POINTS: dict[str, Go] = {
    "fetch": via_fetch, "afetch": via_afetch, "RobotsCache": via_cache,
    "AsyncRobotsCache": via_async_cache, "fetch_page": via_fetch_page,
    "GuardedClient": via_guarded_client, "RobotsTransport": via_transport,
    "AsyncRobotsTransport": via_async_transport, "aiohttp": via_aiohttp,
    "robotparser": via_robotparser,
}


def _signer(key: SigningKey, origins: Optional[list[str]] = None) -> Signer:
    return Signer(key, AGENT, origins=origins)


def _key_for(key: SigningKey) -> Callable[[str, str], object]:
    return lambda url, keyid: key.public_key if (url, keyid) == (DIRECTORY, key.thumbprint) \
        else None


def _signed(server: RawHTTPServer) -> list[tuple[str, dict[str, str]]]:
    return [(server.url(request.path), request.headers) for request in server.requests]


def assert_verified(server: RawHTTPServer, key: SigningKey) -> None:
    """Every request ``server`` received verifies for its own URL, under the new tag."""
    requests = _signed(server)
    assert requests
    for url, headers in requests:
        assert headers.get("signature-agent") == 'sig1="https://bot.example"', (url, headers)
        check = verify_signature("GET", url, headers, key_for=_key_for(key))
        assert check.verified, (url, check)
        assert check.directory_url == DIRECTORY


def assert_unsigned(server: RawHTTPServer) -> None:
    requests = _signed(server)
    assert requests
    for url, headers in requests:
        assert not SIGNATURE_HEADERS & set(headers), (url, headers)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_hop_is_signed_for_its_own_authority(
        entry: str, sites: tuple[RawHTTPServer, RawHTTPServer], key: SigningKey) -> None:
    a, b = sites
    ENTRY_POINTS[entry](a, b, _signer(key))
    assert_verified(a, key)
    assert_verified(b, key)
    # made anew for b: the signatures differ, and a's would not verify at b
    first = a.requests[0].headers
    assert first["signature"] not in {r.headers["signature"] for r in b.requests}
    check = verify_signature("GET", b.url(b.requests[0].path), first, key_for=_key_for(key))
    assert not check.verified


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_an_origin_the_signer_refuses_gets_no_signature(
        entry: str, sites: tuple[RawHTTPServer, RawHTTPServer], key: SigningKey) -> None:
    a, b = sites
    ENTRY_POINTS[entry](a, b, _signer(key, origins=[a.origin]))
    assert_verified(a, key)
    assert_unsigned(b)


@pytest.mark.parametrize("entry", ["fetch", "afetch", "RobotsCache", "fetch_page",
                                   "robotparser"])
def test_unsigned_unless_configured(entry: str, sites: tuple[RawHTTPServer, RawHTTPServer]
                                    ) -> None:
    a, b = sites
    ENTRY_POINTS[entry](a, b, None)
    assert_unsigned(b)


# -- https: signed like http (the scheme is the operator's choice, not ours) ------------------

def _tls_context(tmp: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context for 127.0.0.1 signed by a test CA, and a client trusting that CA
    (the key-directory tests' authority)."""
    from tests.identity.directories import authority

    made = authority(tmp)
    return made.server, ssl.create_default_context(cafile=str(made.ca_file))


class _TLSServer:
    """One https origin on 127.0.0.1 answering every request with an allow-all robots.txt
    and recording the request heads (names lower-cased), one connection at a time."""

    def __init__(self, context: ssl.SSLContext) -> None:
        self.heads: list[tuple[str, dict[str, str]]] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(HANG)
        self.port = self._listener.getsockname()[1]
        self._context = context
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"https://127.0.0.1:{self.port}{path}"

    def _serve(self) -> None:
        with contextlib.suppress(OSError), self._listener:
            conn, _ = self._listener.accept()
            with self._context.wrap_socket(conn, server_side=True) as tls:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = tls.recv(4096)
                    if not chunk:
                        return
                    data += chunk
                lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
                fields = (line.partition(":") for line in lines[1:])
                self.heads.append((lines[0].split(" ")[1],
                                   {k.strip().lower(): v.strip() for k, _, v in fields}))
                body = b"User-agent: *\nAllow: /\n"
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n"
                            b"\r\n%s" % (len(body), body))

    def join(self) -> None:
        self._thread.join(HANG)


def test_https_is_signed_like_http_and_a_hop_to_it_is_signed_anew(
        tmp_path: Path, key: SigningKey) -> None:
    server_context, client_context = _tls_context(tmp_path)
    secure = _TLSServer(server_context)
    with ServerPool() as pool:
        plain = pool.http({"/robots.txt": redirect(secure.url("/robots.txt"), 301)})
        with httpx.Client(verify=client_context) as client:
            result = fetch(plain.url("/x"), user_agent=UA, timeout=HEALTHY, client=client,
                           sign=_signer(key))
        secure.join()
        assert (result.outcome, result.error) == ("ok", None)
        assert_verified(plain, key)  # http: signed
    [(path, headers)] = secure.heads  # https: signed anew for its own authority
    check = verify_signature("GET", secure.url(path), headers, key_for=_key_for(key))
    assert check.verified, check
    assert headers["signature"] != plain.requests[0].headers["signature"]


def test_the_signing_matrix_covers_every_entry_point_of_the_fetch_matrix() -> None:
    """Joined to the hostile-server matrix: an entry point added there must sign here too."""
    from tests.hostile.test_fetch_matrix import ENTRY_POINTS as HOSTILE_ENTRY_POINTS

    assert set(HOSTILE_ENTRY_POINTS) <= set(ENTRY_POINTS)
