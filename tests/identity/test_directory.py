"""Key-directory discovery (issue 38 §Verify): real HTTPS directories on loopback with a CA
of the test's own; each way a directory can fail is one server here."""

from __future__ import annotations

import datetime
import threading

import pytest

from robotsrules._identity._directory import MAX_BYTES, KeyDirectories
from robotsrules._identity._httpsig import (
    DirectoryUnavailable,
    SigningKey,
    directory_document,
    sign_directory_response,
)
from robotsrules._identity._webbotauth import standard
from robotsrules.errors import InvalidArgument
from tests.identity.directories import WELL_KNOWN, Authority, TLSServer, authority, directory
from tests.network.servers import Exchange, head, redirect, respond
from tests.timing import HANG, HEALTHY, finishes


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    return authority(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def keys() -> tuple[SigningKey, SigningKey]:
    return SigningKey.generate(), SigningKey.generate()


def local(ca: Authority, **options: object) -> KeyDirectories:
    settings: dict[str, object] = {"allow_private_addresses": True, "ca_bundle": str(ca.ca_file),
                                   "timeout": HEALTHY, "total_timeout": HEALTHY}
    settings.update(options)
    return KeyDirectories(**settings)  # type: ignore[arg-type]


def test_a_directory_is_fetched_once_and_keys_found_by_the_pair(
        ca: Authority, keys: tuple[SigningKey, SigningKey]) -> None:
    first, second = keys
    with TLSServer(ca.server, {WELL_KNOWN: directory([first])}) as one, \
            TLSServer(ca.server, {WELL_KNOWN: directory([second])}) as two:
        found = local(ca)
        url_one, url_two = one.url(WELL_KNOWN), two.url(WELL_KNOWN)
        assert found.key_for(url_one, first.thumbprint) == first.public_key
        assert found.key_for(url_one, first.thumbprint) == first.public_key
        assert one.count(WELL_KNOWN) == 1  # cached
        # the same keyid in another directory proves nothing: never looked up by keyid alone
        assert found.key_for(url_two, first.thumbprint) is None
        assert found.key_for(url_two, second.thumbprint) == second.public_key
        assert one.requests[0].headers["accept"] == standard().media_type


def test_a_directory_that_serves_a_different_key(ca: Authority,
                                                 keys: tuple[SigningKey, SigningKey]) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[1]])}) as server:
        assert local(ca).key_for(server.url(WELL_KNOWN), keys[0].thumbprint) is None


def test_a_redirect_is_never_followed(ca: Authority, keys: tuple[SigningKey, SigningKey]
                                      ) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[0]])}) as target, \
            TLSServer(ca.server, {WELL_KNOWN: redirect(target.url(WELL_KNOWN), 302)}) as moved:
        found = local(ca)(moved.url(WELL_KNOWN))
        assert not found.reachable and "redirect" in (found.error or "")
        with pytest.raises(DirectoryUnavailable):
            local(ca).key_for(moved.url(WELL_KNOWN), keys[0].thumbprint)
        assert target.count(WELL_KNOWN) == 0


@pytest.mark.parametrize(("scenario", "said"), [
    (respond(200, b"x" * (MAX_BYTES + 1), content_type=standard().media_type), "longer than"),
    (respond(200, b'{"keys": []}', content_type="application/json"), "served as"),
    (respond(404, b"no"), "status 404"),
    (respond(200, b"not json", content_type=standard().media_type), "no usable"),
])
def test_a_directory_that_is_not_one(ca: Authority, scenario: object, said: str) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: scenario}) as server:  # type: ignore[dict-item]
        directories = local(ca)
        found = directories(server.url(WELL_KNOWN))
        assert not found.reachable and said in (found.error or ""), found
        directories(server.url(WELL_KNOWN))
        assert server.count(WELL_KNOWN) == 1  # a failure is remembered for a while


def test_a_slow_directory_is_bounded_by_the_deadline(ca: Authority) -> None:
    release = threading.Event()

    def stall(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", standard().media_type),
                                 ("Content-Length", "100")]) + b'{"keys": [')
        release.wait(HANG)  # the rest never comes while the fetch waits

    with TLSServer(ca.server, {WELL_KNOWN: stall}) as server:
        directories = local(ca, total_timeout=1.0, clock=lambda: 1000.0)
        try:
            found = finishes(directories, server.url(WELL_KNOWN))
            # the time-out is remembered (review of issue 38): the next request naming it
            # does not wait for it again
            again = finishes(directories, server.url(WELL_KNOWN))
        finally:
            release.set()
        assert server.count(WELL_KNOWN) == 1
    assert not found.reachable and "timed out" in (found.error or ""), found
    assert again == found


def test_a_private_address_is_refused_without_the_allowance(
        ca: Authority, keys: tuple[SigningKey, SigningKey]) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[0]])}) as server:
        found = KeyDirectories(ca_bundle=str(ca.ca_file))(server.url(WELL_KNOWN))
        assert not found.reachable and "address guard" in (found.error or ""), found
        assert server.count(WELL_KNOWN) == 0


def test_tls_trusts_the_system_store_or_ssl_cert_file_or_the_bundle(
        ca: Authority, keys: tuple[SigningKey, SigningKey],
        monkeypatch: pytest.MonkeyPatch) -> None:
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[0]])}) as server:
        url = server.url(WELL_KNOWN)
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        monkeypatch.delenv("SSL_CERT_DIR", raising=False)
        untrusted = KeyDirectories(allow_private_addresses=True)(url)
        assert not untrusted.reachable and "certificate" in (untrusted.error or "").lower()
        monkeypatch.setenv("SSL_CERT_FILE", str(ca.ca_file))
        assert KeyDirectories(allow_private_addresses=True)(url).reachable
        monkeypatch.delenv("SSL_CERT_FILE")
        assert local(ca)(url).reachable


def test_a_signed_directory_response(ca: Authority, keys: tuple[SigningKey, SigningKey]
                                     ) -> None:
    now = datetime.datetime.now(datetime.timezone.utc)
    body = directory_document([keys[0]])
    with TLSServer(ca.server) as server:
        authority_ = f"127.0.0.1:{server.port}"
        good = sign_directory_response([keys[0]], authority_, body)
        ahead = sign_directory_response([keys[0]], authority_, body,
                                        clock=lambda: now.timestamp() + 3600)
        server.handler = {"/good": respond(200, body, good, None),
                          "/ahead": respond(200, body, ahead, None),
                          WELL_KNOWN: respond(200, body, good, None)}
        found = local(ca)(server.url(WELL_KNOWN), now)
        assert found.reachable and found.signed, found
        future = local(ca)(server.url("/ahead"), now)
        assert not future.reachable and "created-in-future" in (future.error or ""), future


def test_the_cache_lives_as_long_as_max_age(ca: Authority, keys: tuple[SigningKey, SigningKey]
                                            ) -> None:
    clock = [1000.0]
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[0]], {"Cache-Control":
                                                                 "max-age=120"})}) as server:
        directories = local(ca, clock=lambda: clock[0])
        directories(server.url(WELL_KNOWN))
        clock[0] += 119
        directories(server.url(WELL_KNOWN))
        assert server.count(WELL_KNOWN) == 1
        clock[0] += 2
        directories(server.url(WELL_KNOWN))
        assert server.count(WELL_KNOWN) == 2


@pytest.mark.parametrize("bad", [{"timeout": float("nan")}, {"total_timeout": 0},
                                 {"timeout": float("inf")}, {"cache_size": 0}])
def test_settings_are_checked(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidArgument):
        KeyDirectories(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("cache_control", ["no-store", "no-cache", "max-age=0",
                                           "public, max-age=3600, no-store",
                                           "No-Cache, max-age=600"])
def test_a_directory_that_says_not_to_keep_it_is_fetched_again(
        ca: Authority, keys: tuple[SigningKey, SigningKey], cache_control: str) -> None:
    # review of issue 38 (RFC 9111 §5.2.2.4-5): no-store was kept 3600 s and max-age=0 60 s,
    # so a withdrawn (compromised) key kept verifying
    with TLSServer(ca.server, {WELL_KNOWN: directory([keys[0]], {"Cache-Control":
                                                                 cache_control})}) as server:
        directories = local(ca, clock=lambda: 1000.0)
        assert directories(server.url(WELL_KNOWN)).reachable
        server.handler = {WELL_KNOWN: directory([keys[1]])}
        again = directories(server.url(WELL_KNOWN))
        assert server.count(WELL_KNOWN) == 2
        assert list(again.keys) == [keys[1].thumbprint]


def _respelled(x: str) -> str:
    """The same 32 bytes spelled with non-zero unused bits in the last letter."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return x[:-1] + alphabet[alphabet.index(x[-1]) | 1]


def test_a_keys_x_is_read_only_in_its_one_spelling(
        ca: Authority, keys: tuple[SigningKey, SigningKey]) -> None:
    # review of issue 38 (RFC 8037 §2, RFC 7515 §2): 'A'*43 + '=*' decoded, and one key
    # was listed under two thumbprints by spelling its x two ways
    import json

    from robotsrules._identity._httpsig import jwk_thumbprint

    x = keys[0].public_jwk()["x"]
    jwks = []
    for spelled in (_respelled(x), x + "=", "A" * 43 + "=*", x[:20] + "+" + x[21:]):
        jwk = {"kty": "OKP", "crv": "Ed25519", "x": spelled}
        jwks.append({**jwk, "kid": jwk_thumbprint(jwk)})
    body = json.dumps({"keys": jwks}).encode()
    with TLSServer(ca.server, {WELL_KNOWN: respond(200, body, None,
                                                   standard().media_type)}) as server:
        found = local(ca)(server.url(WELL_KNOWN))
    assert found.reachable and dict(found.keys) == {}, found


def test_an_rsa_key_with_a_huge_exponent_is_not_read(ca: Authority) -> None:
    # review of issue 38: a 3070-bit exponent made 8 checks of one request cost ~150 ms CPU
    import base64
    import json

    from cryptography.hazmat.primitives.asymmetric import rsa

    from robotsrules._identity._httpsig import jwk_thumbprint, public_key_from_jwk

    def b64(number: int) -> str:
        raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    modulus = rsa.generate_private_key(65537, 2048).public_key().public_numbers().n
    usual = {"kty": "RSA", "n": b64(modulus), "e": b64(65537)}
    huge = {**usual, "e": b64((1 << 3070) | 1)}
    assert public_key_from_jwk(usual) is not None
    with pytest.raises(ValueError, match="65537"):
        public_key_from_jwk(huge)
    body = json.dumps({"keys": [{**huge, "kid": jwk_thumbprint(huge)}]}).encode()
    with TLSServer(ca.server, {WELL_KNOWN: respond(200, body, None,
                                                   standard().media_type)}) as server:
        found = local(ca)(server.url(WELL_KNOWN))
    assert found.reachable and dict(found.keys) == {}, found
