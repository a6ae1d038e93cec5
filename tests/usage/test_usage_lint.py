"""Lint of usage-preference lines beyond the FIRES/QUIET table of tests/lint/test_lint.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotsrules import lint

UA = b"User-agent: *\n"


def _codes(body: bytes) -> list:  # type: ignore[type-arg]
    return [d.code for d in lint(body)]


def test_usage_keys_are_no_longer_unknown() -> None:
    body = UA + b"Content-Signal: search=yes, ai-train=no\nContent-Usage: / train-ai=n\nAllow: /\n"
    assert _codes(body) == []
    assert "R104" in _codes(UA + b"Content-Policy: x\n")  # a neighbour that is still unknown


def test_content_signal_joining_two_groups_is_r207() -> None:
    body = b"User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /x\n"
    found = [d for d in lint(body) if d.code == "R207"]
    assert len(found) == 1 and "Content-Signal" in found[0].message


def test_value_fixes_keep_the_intent() -> None:
    hints = [d.hint for d in lint(UA + b"Content-Usage: / search=yes, train-ai=no\n")]
    assert hints == ["write `search=y`", "write `train-ai=n`"]
    assert "search=no" in lint(UA + b"Content-Signal: search=n\n")[0].hint


def test_signal_name_in_the_other_vocabulary() -> None:
    hint = next(d.hint for d in lint(UA + b"Content-Usage: / ai-train=n\n") if d.code == "R602")
    assert "train-ai" in hint


def test_signal_lines_outside_any_group_and_key_spelling() -> None:
    body = b"Content-Signals: ai-train=no\nUser-agent: *\nDisallow: /x\n"
    assert sorted(_codes(body)) == ["R602", "R604"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="/abn y=,;()\"?:@%*-._é\t#", max_size=40),
       st.sampled_from([b"Content-Signal", b"Content-Usage", b"content_usage"]),
       st.sampled_from([b"", b"Disallow: /\n", b"Disallow: /a\nAllow: /a/b\n"]))
def test_lint_never_raises_on_usage_values(value: str, key: bytes, rules: bytes) -> None:
    for diagnostic in lint(UA + rules + key + b": " + value.encode() + b"\n"):
        assert diagnostic.code.startswith("R")
