"""Web Bot Auth checking on strangers' headers (issue 38): whatever a request carries,
verify_signature answers (never raises), and nothing but an untouched signature verifies.

Invariant: for any header values, the answer is a SignatureCheck with a reason of REASONS
and the outcome that reason has; a valid signed request with any one character of its
covered material changed is never "verified"."""

from __future__ import annotations

import base64
from typing import Any, Optional

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from robotsrules._identity._httpsig import REASONS, Signer, SigningKey, verify_signature

NOW = 1_764_000_000
URL = "https://site.example/page"
DIRECTORY = "https://bot.example/.well-known/http-message-signatures-directory"
KEY = SigningKey.generate()
GOOD = Signer(KEY, "https://bot.example", clock=lambda: NOW)("GET", URL, {})
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
FIELD = st.one_of(st.text(max_size=300), st.sampled_from(list(GOOD.values())).flatmap(
    lambda value: st.builds(lambda cut, extra: value[:cut] + extra + value[cut:],
                            st.integers(0, len(value)), st.text(max_size=8))))


def _bytes(field: str) -> Optional[bytes]:
    try:
        return base64.b64decode(field.split("=:", 1)[1].rstrip(":"), validate=True)
    except (ValueError, IndexError):
        return None


def key_for(url: str, keyid: str) -> Any:
    return KEY.public_key if (url, keyid) == (DIRECTORY, KEY.thumbprint) else None


@SETTINGS
@given(agent=FIELD, inputs=FIELD, signature=FIELD)
def test_any_headers_get_an_answer(agent: str, inputs: str, signature: str) -> None:
    headers = {"Signature-Agent": agent, "Signature-Input": inputs, "Signature": signature}
    check = verify_signature("GET", URL, headers, key_for=key_for, now=NOW)
    assert REASONS[check.reason][0] == check.outcome
    if check.verified:  # only the untouched triple (or one equal to it in RFC 9651 terms)
        assert check.keyid == KEY.thumbprint and check.directory_url == DIRECTORY


@SETTINGS
@given(name=st.sampled_from(sorted(GOOD)), data=st.data())
def test_one_changed_character_never_verifies(name: str, data: st.DataObject) -> None:
    value = GOOD[name]
    index = data.draw(st.integers(0, len(value) - 1))
    char = data.draw(st.characters(min_codepoint=33, max_codepoint=126)
                     .filter(lambda c: c != value[index]))
    changed = {**GOOD, name: value[:index] + char + value[index + 1:]}
    if name == "Signature":
        # base64's last character carries unused bits: a change there may decode to the
        # same 64 bytes, which is the same signature (RFC 9651 reads it as the same value)
        assume(_bytes(changed[name]) != _bytes(value))
    check = verify_signature("GET", URL, changed, key_for=key_for, now=NOW)
    assert not check.verified, (name, index, char)
