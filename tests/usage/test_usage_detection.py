"""Every spelling and line end the reader accepts is found by the per-file usage filter."""

from __future__ import annotations

import pytest

import robotsrules

KEYS = [b"Content-Signal", b"CONTENT-SIGNAL", b"content_signal", b"Content Signal",
        b"ContentSignal", b"cOnTeNt-SiGnAlS", b"  \tContent-Signal"]
ENDS = [b"\n", b"\r", b"\r\n"]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("end", ENDS)
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf", b"\xef\xbb"])
def test_signal_found(key: bytes, end: bytes, bom: bytes) -> None:
    for first in (True, False):
        lines = [b"User-agent: *", key + b": ai-train=no", b"Allow: /"]
        if first:  # the usage line first in the file (a group of its own would be outside)
            lines = [b"User-agent: *" + end + key + b": ai-train=no"]
        body = bom + end.join(lines) + end
        assert robotsrules.parse(body).usage("/", agent="x").allows("ai-train") is False, body


@pytest.mark.parametrize("key", [b"Content-Usage", b"CONTENT_USAGE", b"contentusage"])
def test_usage_found(key: bytes) -> None:
    body = b"User-agent: *\r" + key + b": / train-ai=n\r"
    assert robotsrules.parse(body).usage("/", agent="x").allows("train-ai") is False
