"""Web Bot Auth signing and checking (issue 38): the contract's round trip and each reason.

The published vectors are in test_httpsig_vectors.py; these are ours, made with a fixed
clock so that created/expires are known."""

from __future__ import annotations

import base64
import datetime
import pickle
from pathlib import Path

import pytest

from robotsrules._identity._httpsig import (
    REASONS,
    DirectoryUnavailable,
    Signer,
    SigningKey,
    directory_document,
    parse_directory,
    parse_signature_agent,
    verify_signature,
)

NOW = 1_764_000_000
URL = "https://site.example/page?q=1"
AGENT = "https://bot.example"
DIRECTORY = "https://bot.example/.well-known/http-message-signatures-directory"


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey.generate()


def signed(key: SigningKey, url: str = URL, **options: object) -> dict[str, str]:
    signer = Signer(key, AGENT, clock=lambda: NOW, **options)  # type: ignore[arg-type]
    return signer("GET", url, {"User-Agent": "ExampleBot/1.0"})


def lookup(key: SigningKey, directory: str = DIRECTORY):  # type: ignore[no-untyped-def]
    keys = {(directory, key.thumbprint): key.public_key}
    return lambda url, keyid: keys.get((url, keyid))


def test_round_trip(key: SigningKey) -> None:
    headers = signed(key)
    assert set(headers) == {"Signature-Agent", "Signature-Input", "Signature"}
    assert headers["Signature-Agent"] == 'sig1="https://bot.example"'
    assert '"signature-agent";key="sig1"' in headers["Signature-Input"]
    assert 'tag="web-bot-auth"' in headers["Signature-Input"]
    check = verify_signature("GET", URL, headers, key_for=lookup(key), now=NOW + 10)
    assert (check.outcome, check.reason) == ("verified", "verified"), check
    assert check.directory_url == DIRECTORY
    assert check.keyid == key.thumbprint
    assert check.created == NOW and check.expires == NOW + 300


def test_the_signature_is_for_its_own_authority(key: SigningKey) -> None:
    headers = signed(key, "https://other.example/")
    check = verify_signature("GET", URL, headers, key_for=lookup(key), now=NOW)
    assert check.reason == "signature-mismatch"


def test_origins_limit_signing(key: SigningKey) -> None:
    signer = Signer(key, AGENT, origins=["https://site.example"], clock=lambda: NOW)
    assert signer("GET", "https://site.example:443/x", {})
    assert signer("GET", "https://elsewhere.example/x", {}) == {}
    assert signer("GET", "http://site.example/x", {}) == {}


def test_jwks_form(key: SigningKey) -> None:
    jwks = "https://bot.example/keys.json"
    headers = Signer(key, jwks, form="jwks", clock=lambda: NOW)("GET", URL, {})
    assert headers["Signature-Agent"] == f'sig1="{jwks}"'
    check = verify_signature("GET", URL, headers, key_for=lookup(key, jwks), now=NOW)
    assert check.verified and check.directory_url == jwks


def test_key_directory_round_trip(key: SigningKey) -> None:
    keys = parse_directory(directory_document([key]))
    assert list(keys) == [key.thumbprint]
    headers = signed(key)
    check = verify_signature("GET", URL, headers, now=NOW,
                             key_for=lambda url, keyid: keys.get(keyid)
                             if url == DIRECTORY else None)
    assert check.verified


def test_unreachable_directory_is_unknown(key: SigningKey) -> None:
    def unreachable(url: str, keyid: str) -> None:
        raise DirectoryUnavailable("503")
    check = verify_signature("GET", URL, signed(key), key_for=unreachable, now=NOW)
    assert (check.outcome, check.reason) == ("unknown", "directory-unreachable")


def test_the_secret_is_never_shown_or_pickled(key: SigningKey) -> None:
    secret = key._pem()
    assert b"PRIVATE KEY" in secret
    for text in (repr(key), str(key), repr(Signer(key, AGENT))):
        assert "PRIVATE" not in text and key.thumbprint in text
    with pytest.raises(TypeError):
        pickle.dumps(key)


def test_parse_signature_agent_forms() -> None:
    legacy = parse_signature_agent('"https://chatgpt.com"')
    assert legacy.legacy and legacy.agents[0].directory_url == (
        "https://chatgpt.com/.well-known/http-message-signatures-directory")
    member = parse_signature_agent('sig1="https://bot.example/"')
    assert member.agents[0].form == "origin"
    jwks = parse_signature_agent('sig1="https://bot.example/k.json"')
    assert (jwks.agents[0].form, jwks.agents[0].directory_url) == (
        "jwks", "https://bot.example/k.json")


def test_validity_is_at_most_a_day(key: SigningKey) -> None:
    Signer(key, AGENT, validity=datetime.timedelta(hours=24))
    with pytest.raises(ValueError, match="24 hours"):
        Signer(key, AGENT, validity=datetime.timedelta(hours=24, seconds=1))


def test_every_reason_has_an_outcome() -> None:
    assert {outcome for outcome, _ in REASONS.values()} == {"verified", "not-verified",
                                                          "unknown"}


def test_write_overwrite_makes_the_file_private(tmp_path: Path, key: SigningKey) -> None:
    import stat
    target = tmp_path / "k.pem"
    target.write_text("old")
    target.chmod(0o644)
    with pytest.raises(ValueError, match="exists"):
        key.write(target)
    key.write(target, overwrite=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert SigningKey.load(target) == key
    link = tmp_path / "link.pem"
    link.symlink_to(tmp_path / "elsewhere.pem")
    for overwrite in (False, True):
        with pytest.raises(ValueError):
            key.write(link, overwrite=overwrite)  # never written through a link
    assert not (tmp_path / "elsewhere.pem").exists()


def test_only_ed25519_keys_sign() -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    with pytest.raises(ValueError, match="Ed25519"):
        SigningKey.from_pem(other)
    with pytest.raises(ValueError, match="PKCS#8"):
        SigningKey.from_pem(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")


def hand_signed(key: SigningKey, params: str, agent: str = f'sig1="{AGENT}"'
                ) -> dict[str, str]:
    """A request signed over a Signature-Input of the test's own parameters."""
    from robotsrules._identity._httpsig import signature_base

    text = f'sig1=("@authority" "signature-agent";key="sig1"){params}'
    headers = {"Signature-Agent": agent, "Signature-Input": text}
    signature = key.sign(signature_base("GET", URL, headers, text, "sig1"))
    return {**headers, "Signature": f"sig1=:{base64.b64encode(signature).decode()}:"}


@pytest.mark.parametrize(("params", "reason"), [
    # review of issue 38 (RFC 9421 §2.3): created/expires are Integers; keyid, nonce, tag
    # and alg Strings; a Date, a Display String or a Token is none of them
    (";created=@{c};expires=@{e};keyid=\"{k}\";tag=\"web-bot-auth\"", "fields-missing"),
    (";created={c};expires=@{e};keyid=\"{k}\";tag=\"web-bot-auth\"", "fields-missing"),
    (";created={c};expires={e};keyid=\"{k}\";tag=%\"web-bot-auth\"", "wrong-tag"),
    (";created={c};expires={e};keyid=%\"{k}\";tag=\"web-bot-auth\"", "fields-missing"),
    (";created={c};expires={e};keyid=\"{k}\";nonce=%\"n\";tag=\"web-bot-auth\"", "malformed"),
    (";created={c};expires={e};keyid=\"{k}\";nonce=n;tag=\"web-bot-auth\"", "malformed"),
    (";created={c};expires={e};keyid=\"{k}\";alg=ed25519;tag=\"web-bot-auth\"", "malformed"),
    (";created={c};expires={e};keyid=\"{k}\";nonce=\"n\";alg=\"ed25519\";tag=\"web-bot-auth\"",
     "verified"),
])
def test_parameters_have_their_exact_types(key: SigningKey, params: str, reason: str) -> None:
    headers = hand_signed(key, params.format(c=NOW, e=NOW + 300, k=key.thumbprint))
    check = verify_signature("GET", URL, headers, key_for=lookup(key), now=NOW + 10)
    assert check.reason == reason, check
    assert check.verified == (reason == "verified")


@pytest.mark.parametrize("value", ['sig1="https://bot.example";type=jwks_uri',
                                   'sig1="https://bot.example/";type=jwks_uri',
                                   'sig1="https://bot.example";type=directory',
                                   'sig1="https://bot.example"', '"https://bot.example"'])
def test_an_empty_path_always_names_the_well_known_directory(key: SigningKey,
                                                             value: str) -> None:
    # review of issue 38: with ;type=jwks_uri the origin's root page was fetched instead
    agent = parse_signature_agent(value).agents[0]
    assert agent.directory_url == DIRECTORY, agent
    if value.startswith("sig1"):
        params = f';created={NOW};expires={NOW + 300};keyid="{key.thumbprint}";' \
                 'tag="web-bot-auth"'
        headers = hand_signed(key, params, value)
        check = verify_signature("GET", URL, headers, key_for=lookup(key), now=NOW + 10)
        assert check.verified and check.directory_url == DIRECTORY, check

