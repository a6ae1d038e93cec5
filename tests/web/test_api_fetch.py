"""The JSON service's own fetches (``check`` without ``robots``, issue 41's "Security"), over
real HTTP on loopback: the address guard against DNS rebinding and redirects to private
addresses, the fetch identity's signatures, and the bounds of a hostile origin.

Every origin here is on loopback, which the guard refuses: the one a test means to reach is
named in the guard's ``exempt`` pairs (``create_api(guard=...)``), as the guard's own tests
do, never by lifting the guard (``allow_private_addresses``), which would hide the bug. The
service's resolver is the factory's setting too (``Guard(resolve=...)``): a real resolver
asking a real DNS server on loopback.
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from robotsrules._fetch._pinned import Guard
from robotsrules._web._api import Limits
from tests.network.servers import (
    HOST,
    Exchange,
    RawHTTPServer,
    ServerPool,
    drip,
    filler,
    gzip_bomb,
    redirect,
    respond,
    serve_bytes,
    slow_headers,
    stream,
)
from tests.timing import HANG, HEALTHY, wait_until

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")
pytest.importorskip("dns.resolver")
pytest.importorskip("dnslib")

from tests.network.test_guard import RebindingDns, resolver_of

from .test_api import _api, _post

PUBLIC = "127.0.0.2"
"""The stand-in for a public address: exempt on the test's port, every other port refused."""
SECRET = b"User-agent: *\nAllow: /\n"
"""What the private side serves: a verdict read from it would say "allowed"."""


def _check(base: str, url: str, **headers: str) -> dict[str, Any]:
    answer = _post(base, "/v1/check", {"urls": [url], "agents": ["Bot"]}, **headers)
    assert answer.status_code == 200, answer.text
    results: list[dict[str, Any]] = answer.json()["results"]
    assert len(results) == 1
    return results[0]


def _refused(record: dict[str, Any]) -> str:
    """The refusal's message, after checking the record is the guard's error and nothing
    else (no verdict, no "unreachable" reading)."""
    assert "allowed" not in record and "fetch" not in record, record
    assert record["error"]["code"] == "address-refused", record
    message: str = record["error"]["message"]
    assert message.startswith("refused by the address guard"), message
    return message


# -- one resolution, at connect time ------------------------------------------------------

@pytest.fixture()
def twins() -> Iterator[tuple[RawHTTPServer, RawHTTPServer]]:
    """Two sites on one port: the private one on 127.0.0.1, the "public" one on 127.0.0.2."""
    with ServerPool() as pool:
        inside = pool.http(respond(200, SECRET))
        public = RawHTTPServer(respond(200, b"User-agent: *\nDisallow: /private/\n"),
                               host=PUBLIC, port=inside.port)
        try:
            yield inside, public
        finally:
            public.stop()


def test_rebinding_between_resolution_and_connection(
        twins: tuple[RawHTTPServer, RawHTTPServer]) -> None:
    inside, public = twins
    with RebindingDns("rebind.test", [[PUBLIC], [HOST]]) as dns:
        guard = Guard(resolve=resolver_of(dns), exempt=frozenset({(PUBLIC, inside.port)}))
        url = f"http://rebind.test:{inside.port}/private/x"
        with _api(guard=guard) as base:
            first = _check(base, url)
            assert dns.count("rebind.test", "A") == 1  # resolved once, by the connect
            assert first["allowed"] is False and first["fetch"]["outcome"] == "ok"
            assert public.count() == 1
            # the next resolution (a purge, then a check) answers the private address
            _post(base, "/v1/cache/purge", {"url": url})
            message = _refused(_check(base, url))
            assert "rebind.test resolves to 127.0.0.1: loopback" in message
            assert dns.count("rebind.test", "A") == 2
    assert inside.count() == 0 and inside.requests == []


def test_a_name_with_a_public_and_a_private_address_is_refused_whole(
        twins: tuple[RawHTTPServer, RawHTTPServer]) -> None:
    inside, public = twins
    with RebindingDns("mixed.test", [[PUBLIC, HOST]]) as dns:
        guard = Guard(resolve=resolver_of(dns), exempt=frozenset({(PUBLIC, inside.port)}))
        with _api(guard=guard) as base:
            message = _refused(_check(base, f"http://mixed.test:{inside.port}/"))
            metrics = httpx.get(base + "/metrics", timeout=HANG).text
    assert "mixed.test resolves to 127.0.0.1: loopback" in message
    assert 'robotsrules_api_fetches_total{outcome="address-refused"} 1.0' in metrics
    assert (inside.requests, public.requests) == ([], [])


# -- redirects from an allowed origin to private addresses --------------------------------

LOCATIONS = {
    "dotted": "http://127.0.0.1:{port}/robots.txt",
    "decimal": "http://2130706433:{port}/robots.txt",
    "octal": "http://0177.0.0.1:{port}/robots.txt",
    "octal-whole": "http://017700000001:{port}/robots.txt",
    "hex": "http://0x7f000001:{port}/robots.txt",
    "hex-dotted": "http://0x7f.0.0.1:{port}/robots.txt",
    "short": "http://127.1:{port}/robots.txt",
    "ipv6-loopback": "http://[::1]:{port}/robots.txt",
    "ipv4-mapped": "http://[::ffff:127.0.0.1]:{port}/robots.txt",
    "ipv4-mapped-hex": "http://[::ffff:7f00:1]:{port}/robots.txt",
    "nat64": "http://[64:ff9b::7f00:1]:{port}/robots.txt",
    "localhost": "http://localhost:{port}/robots.txt",
    "localhost-dot": "http://localhost.:{port}/robots.txt",
    "localhost-sub": "http://api.localhost:{port}/robots.txt",
    "unspecified": "http://0.0.0.0:{port}/robots.txt",
    "unspecified-zero": "http://0:{port}/robots.txt",
    "ipv6-unspecified": "http://[::]:{port}/robots.txt",
    "scheme-relative": "//2130706433:{port}/robots.txt",
    "private": "http://10.0.0.1:{port}/robots.txt",
    "link-local": "http://169.254.1.1/robots.txt",
    "metadata": "http://169.254.169.254/latest/meta-data/",
    "metadata-ipv6": "http://[fd00:ec2::254]/latest/meta-data/",
    "ipv6-link-local": "http://[fe80::1]/robots.txt",
    "metadata-alibaba": "http://100.100.100.200/latest/meta-data/",
    # read as loopback by a browser's host parser only (UTS 46 maps them): were "allowed"
    "full-width": "http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:{port}/robots.txt",
    "soft-hyphen": "http://1\u00ad27.0.0.1:{port}/robots.txt",
    "ideographic-dot": "http://127.0.0.1\u3002:{port}/robots.txt",
}


STATUSES = (301, 302, 307, 308)


def test_redirects_to_private_addresses_are_refused_in_every_form() -> None:
    """One batch: a URL per form, each on an exempt origin of its own whose robots.txt
    redirects there (the statuses taken in turn), and each form as the URL checked; each is
    answered with the refusal."""
    with ServerPool() as pool:
        inside = pool.http(respond(200, SECRET))
        starts = {form: pool.http(redirect(  # the header's octets: UTF-8
            location.format(port=inside.port).encode().decode("latin-1"),
            STATUSES[n % len(STATUSES)]))
                  for n, (form, location) in enumerate(LOCATIONS.items())}
        guard = Guard(exempt=frozenset((HOST, start.port) for start in starts.values()))
        # and the same forms named by the URL to check itself
        direct = {f"{form} (direct)": location.format(port=inside.port).replace("//", "http://")
                  if location.startswith("//") else location.format(port=inside.port)
                  for form, location in LOCATIONS.items()}
        with _api(guard=guard) as base:
            answer = _post(base, "/v1/check", {"urls": [s.url("/x") for s in starts.values()]
                                               + list(direct.values()), "agents": ["Bot"]})
        records = dict(zip([*starts, *direct], answer.json()["results"]))
        wrong = {form: record for form, record in records.items()
                 if record.get("error", {}).get("code") != "address-refused"}
        assert not wrong, wrong  # the form, and what the service answered instead
        for record in records.values():
            _refused(record)
        assert all(start.count() == 1 for start in starts.values())  # each origin asked
        assert inside.requests == []  # the private target never


# -- the fetch identity: signed, and nothing of the caller's ------------------------------

def test_service_fetches_are_signed_per_hop_and_carry_nothing_of_the_caller(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("cryptography", reason="pip install 'robotsrules[sign]'")
    import base64

    from robotsrules._identity._httpsig import SigningKey
    from robotsrules.cli._options import signer
    from tests.fetch.test_signing import AGENT, assert_verified

    key = SigningKey.generate()
    key.write(tmp_path / "key.pem")
    # the signer `serve --api --signing-key FILE --signature-agent URL` builds
    sign = signer(argparse.Namespace(signing_key=str(tmp_path / "key.pem"),
                                     signature_agent=AGENT))
    secrets = [key._pem().decode(), *key._pem().decode().splitlines()[1:-1],
               base64.urlsafe_b64encode(key._private.private_bytes_raw()).decode().rstrip("="),
               "s3cret-token", "caller-secret"]
    with ServerPool() as pool:
        b = pool.http(respond(200, b"User-agent: *\nDisallow: /private/\n"))
        a = pool.http(redirect(b.url(), 302))
        guard = Guard(exempt=frozenset({(HOST, a.port), (HOST, b.port)}))
        with caplog.at_level(logging.DEBUG), _api(guard=guard, sign=sign,
                                                  token="s3cret-token") as base:
            caller = {"authorization": "Bearer s3cret-token", "cookie": "c=caller-secret",
                      "x-caller": "caller-secret", "signature": "sig1=:caller-secret:"}
            record = _check(base, a.url("/private/x"), **caller)
            assert record["allowed"] is False and record["fetch"]["outcome"] == "ok"
            refused = _post(base, "/v1/cache/refresh", {"url": "http://[::1]/"}, **caller)
            shown = [refused.text, *(httpx.get(base + path, timeout=HANG).text
                                     for path in ("/metrics", "/openapi.json", "/v1/limits"))]
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "origin-refused"
        assert_verified(a, key)  # each for its own URL: b's hop signed afresh for b
        assert_verified(b, key)
        assert a.requests[0].headers["signature"] != b.requests[0].headers["signature"]
        sent = [request.headers for request in a.requests + b.requests]
    for headers in sent:
        assert not {"authorization", "cookie", "x-caller"} & set(headers), headers
        assert not any(secret in value for value in headers.values() for secret in secrets)
    logged = caplog.text + "".join(shown)
    assert not [secret for secret in secrets if secret in logged]
    assert '"path": "/v1/check"' in caplog.text  # the access log was captured


# -- the bounds of a hostile origin ---------------------------------------------------------

def _endless(exchange: Exchange) -> None:
    """Every path redirects one step further (``/robots.txt`` to ``/robots.txtr/``...)."""
    redirect(exchange.request.path + "r/", 302)(exchange)


def test_slow_origins_end_by_the_fetch_timeout() -> None:
    timeout = 0.3  # the configured fetch time-out (--timeout): both origins outlast it
    with ServerPool() as pool:
        silent = pool.http(slow_headers(HANG))
        dripping = pool.http(drip(b"User-agent: *\nAllow: /\n" * 500, timeout / 10))
        exempt = frozenset((HOST, s.port) for s in (silent, dripping))
        with _api(guard=Guard(exempt=exempt), limits=Limits(fetch_timeout=timeout)) as base:
            records = _post(base, "/v1/check", {"urls": [silent.url("/x"), dripping.url("/x")],
                                                "agents": ["Bot"]}).json()["results"]
    for record in records:  # RFC 9309's "unreachable": disallow all
        assert record["allowed"] is False and record["reason"] == "disallow-all", record
        assert record["fetch"]["outcome"] == "unreachable", record
        assert record["fetch"]["error"].startswith("timed out"), record
    # (the dripping one by the total deadline, three time-outs, or by a read time-out on a
    # machine too loaded to read an octet in time: either way it is cut; without a deadline
    # its 11,500 octets would take minutes and end "ok", past the test's hang guard)


def test_the_worker_answers_while_a_fetch_waits_and_large_answers_are_bounded() -> None:
    release = threading.Event()

    def held(exchange: Exchange) -> None:  # answers once the test has been answered
        release.wait(HANG)
        respond(200, b"User-agent: *\nDisallow: /\n")(exchange)

    with ServerPool() as pool:
        waiting = pool.http(held)
        huge = pool.http(stream(lambda: [b"User-agent: *\nDisallow: /early/\n",
                                         *filler(2 << 20), b"Allow: /early/\n"],
                                (2 << 20) + 48))
        bomb = pool.http(serve_bytes(gzip_bomb(16), {"Content-Encoding": "gzip"}))
        loop = pool.http(_endless)
        exempt = frozenset((HOST, s.port) for s in (waiting, huge, bomb, loop))
        box: list[httpx.Response] = []
        with _api(guard=Guard(exempt=exempt), limits=Limits(fetch_timeout=HEALTHY)) as base:
            slow = threading.Thread(target=lambda: box.append(_post(
                base, "/v1/check", {"urls": [waiting.url("/x")], "agents": ["Bot"]})),
                daemon=True)
            slow.start()
            try:
                wait_until(lambda: waiting.count() == 1, "the held origin was asked")
                assert httpx.get(base + "/healthz", timeout=HANG).status_code == 200
                quick = _post(base, "/v1/check", {"robots": "User-agent: *\nDisallow: /\n",
                                                  "urls": ["/a"], "agents": ["Bot"]})
                assert quick.json()["results"][0]["allowed"] is False
                assert box == []  # answered while the other check still waits
            finally:
                release.set()
            slow.join(HANG)
            assert box and box[0].json()["results"][0]["allowed"] is False, box
            large = _post(base, "/v1/check", {"urls": [huge.url("/early/x"), bomb.url("/x"),
                                                       loop.url("/x")],
                                              "agents": ["Bot"]}).json()["results"]
    # read up to the limit (500 KiB), never the Allow line past it
    assert large[0]["allowed"] is False and large[0]["fetch"]["outcome"] == "ok", large[0]
    assert large[1]["fetch"]["outcome"] == "ok", large[1]  # 16 MiB of zeros: a bounded read
    # RFC 9309 (September 2022) section 2.3.1.2: past five redirects, "unavailable"
    assert large[2]["fetch"]["outcome"] == "unavailable", large[2]
    assert large[2]["fetch"]["error"] == "more than 5 redirects"
    assert loop.count("/robots.txt") == 1 and len(loop.requests) == 6


# -- the resolver: serve --api --dns-server ------------------------------------------------

def test_serve_dns_server_resolves_the_fetched_sites_and_the_guard_vets_its_answers() -> None:
    from robotsrules._web._server import listen, server
    from robotsrules.cli import _parser, main
    from robotsrules.cli._serve import _api as serve_api

    with RebindingDns("site.test", [[HOST]]) as dns:
        args = _parser().parse_args(["serve", "--api", "--port", "0",
                                     "--dns-server", f"{HOST}:{dns.port}"])
        sock = listen(HOST, 0)
        running = server(serve_api(args))
        thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            base = f"http://{HOST}:{sock.getsockname()[1]}"
            message = _refused(_check(base, "http://site.test:9/x"))
            unknown = _check(base, "http://unknown.test/x")
        finally:
            running.should_exit = True
            thread.join(HANG)
            sock.close()
        assert dns.count("site.test", "A") == 1  # asked of that server, not the system's
    assert "site.test resolves to 127.0.0.1: loopback" in message
    assert unknown["fetch"]["error"].startswith("DNS lookup failed"), unknown
    assert unknown["allowed"] is False  # unreachable: disallow all
    assert main(["serve", "--api", "--port", "0", "--dns-server", "not-an-address"]) == 2


# -- verify-request: the signer's key directory, a stranger's URL ---------------------------

def test_verify_request_never_fetches_a_key_directory_at_a_private_address() -> None:
    pytest.importorskip("cryptography", reason="pip install 'robotsrules[sign]'")
    from robotsrules._fetch._sign import sign_headers
    from robotsrules._identity._httpsig import Signer, SigningKey

    key = SigningKey.generate()
    with ServerPool() as pool:
        inside = pool.http(respond(200, b'{"keys": []}', content_type="application/json"))
        with _api() as base:
            for host in ("127.0.0.1", "2130706433", "0177.0.0.1", "localhost.", "[::1]"):
                headers = httpx.Headers({"User-Agent": "Bot/1.0"})
                sign_headers(Signer(key, f"https://{host}:{inside.port}"), "GET",
                             "https://site.example/page", headers)
                answer = _post(base, "/v1/verify-request", {
                    "method": "GET", "url": "https://site.example/page",
                    "headers": dict(headers)}).json()
                assert answer["verdict"] == "unknown", (host, answer)
                assert "refused by the address guard" in answer["reason"], (host, answer)
    assert inside.requests == []
