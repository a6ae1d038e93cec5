"""The address guard against server-side request forgery (issue 38), on real parts: HTTP
servers on loopback, a DNS server on loopback whose answer changes between two questions
(rebinding), redirects to private addresses in every numeric form, a TLS server that
records the name the client asked for.

Every server here is on loopback, which the guard refuses: a test that needs a first hop
to succeed names it in ``Guard.exempt`` as an ``(address, port)`` pair, so every other
port of 127.0.0.1 stays refused.
"""

from __future__ import annotations

import asyncio
import datetime
import socket
import ssl
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Callable

import httpx
import pytest

from robotsrules._fetch._fetcher import afetch, fetch, fetch_page
from robotsrules._fetch._pinned import AsyncGuardedClient, Guard, GuardedClient
from tests.network.servers import HOST, RawHTTPServer, ServerPool, redirect, respond
from tests.timing import HANG, HEALTHY

dns_resolver = pytest.importorskip("dns.resolver")
pytest.importorskip("dnslib")

from dnslib import QTYPE, RR, DNSRecord  # noqa: E402

from tests.network.dns_server import DnsServer  # noqa: E402

UA = "GuardBot/1.0"
REFUSED = "refused by the address guard"


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


def page(url: str, guard: Guard | None) -> str | None:
    return fetch_page(url, user_agent=UA, max_bytes=1000, timeout=HEALTHY, guard=guard).error


def exempt(server: RawHTTPServer, **more: object) -> Guard:
    return Guard(exempt=frozenset({(HOST, server.port)}), **more)  # type: ignore[arg-type]


# -- the address connected to ------------------------------------------------------------

def test_a_guarded_fetch_never_reaches_loopback(servers: ServerPool) -> None:
    target = servers.http(respond(200, b"secret"))
    error = page(target.url("/"), Guard())
    assert error is not None and REFUSED in error and "loopback" in error
    assert target.count("/") == 0


@pytest.mark.parametrize("host", ["localhost", "2130706433", "0x7f000001", "0x7f.1",
                                  "127.1", "017700000001", "127.0.0.1.",
                                  # read by a browser only (each was another error)
                                  "\uff11\uff12\uff17.0.0.1", "127.0.0.1\u3002", "127.0.0.1\\x"])
def test_every_spelling_of_loopback_is_refused(servers: ServerPool, host: str) -> None:
    target = servers.http(respond(200, b"secret"))
    error = page(f"http://{host}:{target.port}/", Guard())
    assert error is not None and REFUSED in error, error
    assert target.count("/") == 0


def test_the_setting_lifts_the_guard(servers: ServerPool) -> None:
    target = servers.http(respond(200, b"mine"))
    for guard in (Guard(allow_private_addresses=True), None):
        response = fetch_page(target.url("/"), user_agent=UA, max_bytes=1000,
                              timeout=HEALTHY, guard=guard)
        assert (response.status, response.body, response.error) == (200, b"mine", None)
    assert target.count("/") == 2


def test_an_exempt_pair_is_reached_and_no_other_port(servers: ServerPool) -> None:
    mine, other = servers.http(respond(200, b"ok")), servers.http(respond(200, b"no"))
    guard = exempt(mine)
    assert page(mine.url("/"), guard) is None
    error = page(other.url("/"), guard)
    assert error is not None and REFUSED in error
    assert (mine.count("/"), other.count("/")) == (1, 0)


def test_no_proxy_from_the_environment_connects_in_its_place(
        servers: ServerPool, monkeypatch: pytest.MonkeyPatch) -> None:
    proxy, target = servers.http(respond(200, b"proxied")), servers.http(respond(200, b"ok"))
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, proxy.origin)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert page(target.url("/"), exempt(target)) is None
    assert (target.count("/"), len(proxy.requests)) == (1, 0)


# -- every redirect hop ------------------------------------------------------------------

TARGETS = ["http://127.0.0.1:{port}/in", "http://2130706433:{port}/in",
           "http://0x7f000001:{port}/in", "http://0x7f.1:{port}/in", "http://127.1:{port}/in",
           "http://017700000001:{port}/in", "http://0177.0.0.1:{port}/in",
           "http://[::ffff:127.0.0.1]:{port}/in", "http://[::ffff:7f00:1]:{port}/in",
           "http://[::1]:{port}/in", "http://[64:ff9b::7f00:1]:{port}/in",
           "http://[::127.0.0.1]:{port}/in", "http://localhost:{port}/in",
           "http://localhost.:{port}/in", "http://a.localhost:{port}/in",
           "//127.0.0.1:{port}/in", "//2130706433:{port}/in", "//[::ffff:127.0.0.1]:{port}/in",
           "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1:{port}/in",
           "http://[fd00:ec2::254]/latest/"]


@pytest.mark.parametrize("status", [301, 302, 307, 308])
@pytest.mark.parametrize("location", TARGETS)
def test_redirects_to_private_addresses_are_refused(servers: ServerPool, status: int,
                                                     location: str) -> None:
    inside = servers.http(respond(200, b"secret"))
    start = servers.http(redirect(location.format(port=inside.port), status))
    error = page(start.url("/"), exempt(start))
    assert start.count("/") == 1
    assert inside.count("/in") == 0
    # every form is the guard's refusal, named: 0177.0.0.1 too, which httpx cannot parse
    # (else an "unusable redirect": unavailable, allow all)
    assert error is not None and REFUSED in error, error


@pytest.mark.parametrize("location", ["http://127.0.0.1:{port}/in", "http://2130706433:{port}/in",
                                      "http://0x7f.1:{port}/in", "//127.1:{port}/in"])
def test_the_same_redirects_are_followed_when_lifted(servers: ServerPool,
                                                      location: str) -> None:
    inside = servers.http(respond(200, b"secret"))
    start = servers.http(redirect(location.format(port=inside.port), 307))
    assert page(start.url("/"), Guard(allow_private_addresses=True)) is None
    assert inside.count("/in") == 1


# Locations a browser reads as loopback (WHATWG URL Standard: tab/newline dropped, "\\" read
# as "/", slashes after a special scheme skipped, the host percent-decoded and mapped by UTS 46)
# that httpx reads otherwise or not at all: each was answered "unavailable" (allow all), a
# path on the start host, or a DNS failure, never the guard's refusal.
BROWSER_READ = ["http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:{port}/in",
                "http://1\u00ad27.0.0.1:{port}/in",
                "http://\uff2c\uff2f\uff23\uff21\uff2c\uff28\uff2f\uff33\uff34:{port}/in",
                "http://127.0.0.1\u3002:{port}/in", "http://12\t7.0.0.1:{port}/in",
                "http://127.0.0.1\\x:{port}/in", "http://[::ffff:127.0.0.1]:{port}\\/in",
                "http://127.0.0.1:{port}\\@public.example/in", "https:127.0.0.1:{port}/in",
                "http:\\\\127.0.0.1:{port}/in", "///127.0.0.1:{port}/in", "\\\\127.0.0.1:{port}/in",
                "/\\127.0.0.1:{port}/in", "http://%31%32%37.0.0.1:{port}/in",
                "http://loc%61lhost:{port}/in"]


def test_redirects_a_browser_reads_as_loopback_are_refused(servers: ServerPool) -> None:
    inside = servers.http(respond(200, b"User-agent: *\nAllow: /\n"))
    start = servers.http(respond(200, b""))
    answers = {}
    with GuardedClient(exempt(start), timeout=httpx.Timeout(HEALTHY)) as client:
        for location in BROWSER_READ:  # the header's octets as UTF-8, as servers send them
            wire = location.format(port=inside.port).encode().decode("latin-1")
            start.handler = redirect(wire)
            answers[location] = fetch(start.url(), user_agent=UA, client=client,
                                      timeout=HEALTHY)
    wrong = {location: (result.outcome, result.error) for location, result in answers.items()
             if result.outcome != "unreachable" or REFUSED not in str(result.error)}
    assert not wrong, wrong
    assert start.count() == len(BROWSER_READ)  # one hop each: no path on the start host
    guarded = GuardedClient(Guard(), timeout=httpx.Timeout(HEALTHY))
    with guarded, pytest.raises(httpx.ConnectError, match=REFUSED):  # httpx keeps it encoded
        guarded.get(f"http://%31%32%37.0.0.1:{inside.port}/in")
    assert inside.count() == 0


def test_the_robots_fetch_through_a_guarded_client(servers: ServerPool) -> None:
    inside = servers.http(respond(200, b"User-agent: *\nAllow: /\n"))
    start = servers.http(redirect(f"http://2130706433:{inside.port}/robots.txt", 302))
    ftp = servers.ftp({"robots.txt": b"User-agent: *\nAllow: /\n"})
    timeout = httpx.Timeout(HEALTHY)
    with GuardedClient(exempt(start), timeout=timeout) as client:
        result = fetch(start.url(), user_agent=UA, client=client, timeout=HEALTHY)
    assert result.outcome == "unreachable" and result.error is not None
    assert REFUSED in result.error
    assert inside.count() == 0
    start.handler = redirect(ftp.url(), 301)
    with GuardedClient(exempt(start), timeout=timeout) as client:
        result = fetch(start.url(), user_agent=UA, client=client, timeout=HEALTHY)
    assert result.error is not None and REFUSED in result.error and "ftp" in result.error
    with GuardedClient(Guard(allow_private_addresses=True), timeout=timeout) as client:
        result = fetch(start.url(), user_agent=UA, client=client, timeout=HEALTHY)
    assert result.outcome == "ok"


def test_the_async_fetch_through_a_guarded_client(servers: ServerPool) -> None:
    inside = servers.http(respond(200, b"User-agent: *\nAllow: /\n"))
    start = servers.http(redirect(f"http://[::ffff:127.0.0.1]:{inside.port}/robots.txt"))

    async def go(guard: Guard) -> object:
        async with AsyncGuardedClient(guard, timeout=httpx.Timeout(HEALTHY)) as client:
            return await afetch(start.url(), user_agent=UA, client=client, timeout=HEALTHY)

    result = asyncio.run(go(exempt(start)))
    assert result.outcome == "unreachable"
    assert REFUSED in str(result.error)
    assert inside.count() == 0
    for location in ("http://0177.0.0.1:{port}/robots.txt", "https:127.0.0.1:{port}/r"):
        start.handler = redirect(location.format(port=inside.port))
        result = asyncio.run(go(exempt(start)))
        assert result.outcome == "unreachable" and REFUSED in str(result.error), result

    async def direct() -> object:  # the URL itself in a form httpx cannot parse
        async with AsyncGuardedClient(Guard(), timeout=httpx.Timeout(HEALTHY)) as client:
            return await afetch(f"http://0177.0.0.1:{inside.port}/robots.txt", user_agent=UA,
                                client=client, timeout=HEALTHY)

    result = asyncio.run(direct())
    assert result.outcome == "unreachable" and REFUSED in str(result.error), result
    start.handler = redirect(f"http://127.0.0.1:{inside.port}/robots.txt")
    result = asyncio.run(go(Guard(exempt=frozenset({(HOST, start.port), (HOST, inside.port)}))))
    assert result.outcome == "ok" and inside.count() == 1


# -- one resolution, at connect time (DNS rebinding) -------------------------------------

class RebindingDns(DnsServer):
    """Answers a name's A question with the next zone of ``answers`` each time it is
    asked (the last one for good): a stranger's DNS that changes its mind."""

    def __init__(self, name: str, answers: Sequence[Sequence[str]]) -> None:
        super().__init__([f"{name}. 0 A 192.0.2.1"])
        self.name = name
        self.answers = [list(a) for a in answers]
        self.asked = 0

    def _answer(self, query: DNSRecord) -> DNSRecord:
        with self._lock:
            now = self.answers[min(self.asked, len(self.answers) - 1)]
            self.asked += 1
            self.records[(self.name, "A")] = [RR(self.name + ".", QTYPE.A, ttl=0,
                                                 rdata=RR.fromZone(f"x. 0 A {a}")[0].rdata)
                                              for a in now]
        return super()._answer(query)


def resolver_of(dns: DnsServer) -> Callable[[str], list[str]]:
    """A real resolver (dnspython) asking only the loopback server, A records only."""
    resolver = dns_resolver.Resolver(configure=False)
    resolver.nameservers = [HOST]
    resolver.port = dns.port
    resolver.lifetime = HANG
    resolver.cache = None

    def resolve(host: str) -> list[str]:
        return [record.address for record in resolver.resolve(host, "A")]

    return resolve


def test_rebinding_after_the_check_never_reaches_the_second_answer(
        servers: ServerPool) -> None:
    inside = servers.http(respond(200, b"secret"))
    # 127.0.0.2:port is exempt (a stand-in for a public address: nothing listens there);
    # the second answer, 127.0.0.1, is where the server is.
    with RebindingDns("rebind.test", [["127.0.0.2"], ["127.0.0.1"]]) as dns:
        guard = Guard(resolve=resolver_of(dns),
                      exempt=frozenset({("127.0.0.2", inside.port)}))
        error = page(f"http://rebind.test:{inside.port}/", guard)
        assert dns.count("rebind.test", "A") == 1  # one resolution, at connect time
    assert error is not None and "connection refused" in error, error
    assert inside.count("/") == 0


def test_a_name_with_one_refused_address_is_refused_whole(servers: ServerPool) -> None:
    inside = servers.http(respond(200, b"secret"))
    with RebindingDns("mixed.test", [["127.0.0.2", "127.0.0.1"]]) as dns:
        guard = Guard(resolve=resolver_of(dns),
                      exempt=frozenset({("127.0.0.2", inside.port)}))
        error = page(f"http://mixed.test:{inside.port}/", guard)
    assert error is not None and REFUSED in error and "mixed.test resolves to 127.0.0.1" in error
    assert inside.count("/") == 0


def test_a_failed_lookup_is_a_dns_error(servers: ServerPool) -> None:
    with RebindingDns("known.test", [[HOST]]) as dns:
        error = page("http://unknown.test/", Guard(resolve=resolver_of(dns)))
        assert dns.count("unknown.test", "A") == 1
    assert error is not None and error.startswith("DNS lookup failed"), error


def test_the_name_stays_in_the_host_header(servers: ServerPool) -> None:
    target = servers.http(respond(200, b"ok"))
    with RebindingDns("site.test", [[HOST]]) as dns:
        guard = Guard(resolve=resolver_of(dns), exempt=frozenset({(HOST, target.port)}))
        assert page(f"http://site.test:{target.port}/", guard) is None
    assert target.requests[0].headers["host"] == f"site.test:{target.port}"


# -- TLS: SNI and certificate verification on the name -----------------------------------

def _certificate(tmp: Path, name: str) -> tuple[Path, Path]:
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = tmp / "cert.pem", tmp / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def test_tls_keeps_the_name_for_sni_and_verification(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path, "site.test")
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    names: list[str | None] = []
    server_context.sni_callback = lambda _s, name, _c: names.append(name)  # type: ignore[assignment,misc,return-value]
    listener = socket.create_server((HOST, 0))
    listener.settimeout(HANG)
    port = listener.getsockname()[1]

    def serve() -> None:
        with listener:
            conn, _ = listener.accept()
            with server_context.wrap_socket(conn, server_side=True) as tls:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = tls.recv(4096)
                    if not chunk:
                        return
                    data += chunk
                body = b"User-agent: *\nDisallow: /x\n"
                tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n"
                            b"\r\n%s" % (len(body), body))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    client_context = ssl.create_default_context(cafile=str(cert))
    with RebindingDns("site.test", [[HOST]]) as dns:
        guard = Guard(resolve=resolver_of(dns), exempt=frozenset({(HOST, port)}))
        with GuardedClient(guard, timeout=httpx.Timeout(HEALTHY), verify=client_context) as c:
            result = fetch(f"https://site.test:{port}/", user_agent=UA, client=c,
                           timeout=HEALTHY)
    thread.join(HANG)
    assert (result.outcome, result.error) == ("ok", None)
    assert names == ["site.test"]
