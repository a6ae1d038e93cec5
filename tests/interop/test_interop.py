"""Interoperability with a second implementation that shares no code with ours (issue 38):
Cloudflare's reference package ``web-bot-auth`` 0.1.3 from the npm registry (pinned by
``package-lock.json`` here; ``scripts/test.sh`` runs ``npm ci``), run by the installed
Node.js through ``wba.mjs``: one JSON job on standard input, one answer on standard output.

Both ways: signatures robotsrules makes are verified by it, and signatures it makes are
verified by robotsrules. One difference is pinned down as it stands: the published package
(with ``http-message-sig`` 0.2.0) builds a covered ``"signature-agent";key="sig1"`` from the
whole field (``sig1="https://bot.example"``) where RFC 9421 §2.1.2 takes the member's value
(``"https://bot.example"``), as Cloudflare's own v2 vector and their repository's later
source do; so it refuses robotsrules' default signatures, and robotsrules refuses its
member-covering ones. The test of that fails the day the package reads the member right.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519

from robotsrules._identity._httpsig import (
    Signer,
    SigningKey,
    signature_base,
    verify_signature,
)
from tests.timing import HANG

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "wba.mjs"
URL = "https://site.example:8443/page?q=1"
AGENT = "https://bot.example"
DIRECTORY = "https://bot.example/.well-known/http-message-signatures-directory"

if shutil.which("node") is None:
    pytest.skip("Node.js is not installed: the interop partner cannot run (apt-get install "
                "nodejs npm, then npm ci in tests/interop)", allow_module_level=True)
if not (HERE / "node_modules" / "web-bot-auth" / "package.json").exists():
    pytest.skip("the npm package web-bot-auth is not installed: run 'npm ci' in tests/interop "
                "(scripts/test.sh does)", allow_module_level=True)


def partner(job: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(["node", str(SCRIPT)], input=json.dumps(job), capture_output=True,
                          text=True, timeout=HANG, check=False, cwd=HERE)
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.fixture(scope="module")
def keypair() -> tuple[SigningKey, dict[str, str]]:
    private = ed25519.Ed25519PrivateKey.generate()
    key = SigningKey(private)
    from cryptography.hazmat.primitives import serialization
    seed = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())
    jwk = {**key.public_jwk(), "d": base64.urlsafe_b64encode(seed).decode().rstrip("=")}
    return key, jwk


def now() -> int:
    # the partner checks created against its own clock: a second in the past
    return int(time.time()) - 1


def js_verifies(headers: dict[str, str], key: SigningKey) -> dict[str, Any]:
    return partner({"action": "verify", "method": "GET", "url": URL, "headers": headers,
                    "jwk": key.public_jwk()})


def test_our_signature_base_is_verified_by_the_partner(
        keypair: tuple[SigningKey, dict[str, str]]) -> None:
    """Our base builder, parameters, keyid and Ed25519 signature, over the components the
    partner builds per RFC 9421 (authority with a port, method, path, query, a field)."""
    key, _ = keypair
    created = now()
    text = (f'sig1=("@authority" "@method" "@path" "@query" "user-agent");created={created};'
            f'keyid="{key.thumbprint}";alg="ed25519";expires={created + 3600};'
            f'nonce="{base64.b64encode(bytes(64)).decode()}";tag="web-bot-auth"')
    headers = {"User-Agent": "ExampleBot/1.0", "Signature-Input": text}
    base = signature_base("GET", URL, headers, text, "sig1")
    headers["Signature"] = f"sig1=:{base64.b64encode(key.sign(base)).decode()}:"
    answer = js_verifies(headers, key)
    assert answer["verified"], answer
    assert answer["base"] == base.decode()  # the same bytes on both sides


def test_our_default_signature_and_the_partners_member_reading(
        keypair: tuple[SigningKey, dict[str, str]]) -> None:
    key, _ = keypair
    created = now()
    headers = Signer(key, AGENT, clock=lambda: created)("GET", URL, {})
    # ours verifies by RFC 9421 (checked against Cloudflare's vectors) ...
    assert verify_signature("GET", URL, headers, key_for=lambda u, k: key.public_key
                            if (u, k) == (DIRECTORY, key.thumbprint) else None).verified
    answer = js_verifies(headers, key)
    # ... and the published package reads the member as the whole field: pinned here.
    assert '"signature-agent";key="sig1": sig1="https://bot.example"\n' in answer["base"]
    assert not answer["verified"]
    ours = signature_base("GET", URL, headers, headers["Signature-Input"], "sig1").decode()
    assert answer["base"] == ours.replace(': "https://bot.example"\n',
                                          ': sig1="https://bot.example"\n')


@pytest.mark.parametrize("agent", ['"https://bot.example"', 'sig1="https://bot.example"'],
                         ids=["legacy-string", "dictionary"])
def test_the_partners_signatures_are_verified_by_us(
        agent: str, keypair: tuple[SigningKey, dict[str, str]]) -> None:
    """It covers @authority and the whole Signature-Agent field (its default); both the
    legacy String and a one-member Dictionary name one agent, so we verify it."""
    key, jwk = keypair
    created = now()
    signed = partner({"action": "sign", "method": "GET", "url": URL, "jwk": jwk,
                      "label": "sig1", "created": created, "expires": created + 300,
                      "headers": {"Signature-Agent": agent}})["headers"]
    assert 'tag="web-bot-auth"' in signed["Signature-Input"]
    lookups: list[tuple[str, str]] = []

    def key_for(url: str, keyid: str) -> Any:
        lookups.append((url, keyid))
        return key.public_key if (url, keyid) == (DIRECTORY, key.thumbprint) else None
    check = verify_signature("GET", URL, signed, key_for=key_for)
    assert (check.outcome, check.reason) == ("verified", "verified"), check
    assert lookups == [(DIRECTORY, key.thumbprint)]
    # and a byte changed anywhere covered is refused
    tampered = {**signed, "Signature-Agent": agent.replace("bot.", "b0t.")}
    assert not verify_signature("GET", URL, tampered, key_for=key_for).verified
    assert verify_signature("GET", URL.replace("8443", "8444"), signed,
                            key_for=key_for).reason == "signature-mismatch"


def test_the_partners_member_covering_signature_is_refused_by_us(
        keypair: tuple[SigningKey, dict[str, str]]) -> None:
    """Asked to cover the member, the published package signs the whole field's bytes
    under the member's name: not an RFC 9421 signature, and we say so."""
    key, jwk = keypair
    created = now()
    signed = partner({"action": "sign", "method": "GET", "url": URL, "jwk": jwk,
                      "label": "sig1", "created": created, "expires": created + 300,
                      "headers": {"Signature-Agent": f'sig1="{AGENT}"'},
                      "components": ["@authority", {"name": "signature-agent",
                                                    "parameters": {"key": "sig1"}}]})
    headers = signed["headers"]
    check = verify_signature("GET", URL, headers, key_for=lambda u, k: key.public_key)
    assert check.reason == "signature-mismatch", check
