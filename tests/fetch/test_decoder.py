"""The one body decoder (issue 24), against every bomb and cut stream, without I/O.

:data:`CASES` is the catalogue: whole bodies in every coding, compression bombs, streams cut
short, garbage and codings that cannot be read. Every case runs through
:class:`robotsrules._decoder.BodyDecoder` fed in several chunk sizes; each bomb's peak memory
is measured with tracemalloc. The entry points (the robots.txt fetch, ``page URL``, the WARC
readers, datatrove) each prove in their own tests that they decode through this class (a br
bomb and a cut br stream: ``tests/hostile/test_bounds.py``).
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from typing import Callable, NamedTuple, Optional

import pytest

from robotsrules._decoder import BodyDecoder, Dechunker, accept_encoding, brotli_problem
from tests.network.servers import br_bomb, gzip_bomb

RULES = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n" * 200
LIMIT = 512_000
brotli = pytest.importorskip("brotli")


def _deflate(data: bytes, raw: bool = False) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15 if raw else 15)
    return compressor.compress(data) + compressor.flush()


def _zeros_deflate(megabytes: int, raw: bool = False) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15 if raw else 15)
    zeros = bytes(1 << 20)
    return b"".join(compressor.compress(zeros) for _ in range(megabytes)) + compressor.flush()


class Case(NamedTuple):
    name: str
    coding: str
    data: Callable[[], bytes]
    outcome: str  # "whole", "truncated" (a bomb: cut at the limit) or "error"
    body: Optional[bytes] = None  # the body a whole case decodes to
    junk: bool = False


CASES: list[Case] = [
    Case("identity", "", lambda: RULES, "whole", RULES),
    Case("identity-named", "identity", lambda: RULES, "whole", RULES),
    Case("gzip", "gzip", lambda: gzip.compress(RULES, mtime=0), "whole", RULES),
    Case("x-gzip", "X-GZip", lambda: gzip.compress(RULES, mtime=0), "whole", RULES),
    Case("gzip-members", "gzip", lambda: b"".join(gzip.compress(RULES[i:i + 40], mtime=0)
                                                  for i in range(0, len(RULES), 40)),
         "whole", RULES),
    Case("gzip-junk", "gzip", lambda: gzip.compress(RULES, mtime=0) + b"junk!", "whole",
         RULES, junk=True),
    Case("deflate", "deflate", lambda: _deflate(RULES), "whole", RULES),
    Case("deflate-raw", "deflate", lambda: _deflate(RULES, raw=True), "whole", RULES),
    Case("br", "br", lambda: brotli.compress(RULES), "whole", RULES),
    Case("br-identity-listed", "identity, br", lambda: brotli.compress(RULES), "whole", RULES),
    Case("empty-gzip-body", "gzip", lambda: b"", "whole", b""),
    # bombs: cut at the limit, never inflated whole
    Case("gzip-bomb", "gzip", lambda: gzip_bomb(200), "truncated"),
    Case("deflate-bomb", "deflate", lambda: _zeros_deflate(200), "truncated"),
    Case("raw-deflate-bomb", "deflate", lambda: _zeros_deflate(200, raw=True), "truncated"),
    Case("br-bomb", "br", lambda: br_bomb(256), "truncated"),
    Case("gzip-bomb-in-members", "gzip", lambda: gzip_bomb(2) * 8, "truncated"),
    # cut streams: an error, never a shorter body
    Case("gzip-cut-header", "gzip", lambda: gzip.compress(RULES, mtime=0)[:6], "error"),
    Case("gzip-cut-half", "gzip", lambda: _half(gzip.compress(RULES, mtime=0)), "error"),
    Case("gzip-no-trailer", "gzip", lambda: gzip.compress(RULES, mtime=0)[:-8], "error"),
    Case("gzip-no-size", "gzip", lambda: gzip.compress(RULES, mtime=0)[:-4], "error"),
    Case("deflate-cut-half", "deflate", lambda: _half(_deflate(RULES)), "error"),
    Case("deflate-no-adler", "deflate", lambda: _deflate(RULES)[:-4], "error"),
    Case("raw-deflate-cut", "deflate", lambda: _half(_deflate(RULES, raw=True)), "error"),
    Case("br-cut-half", "br", lambda: _half(brotli.compress(RULES)), "error"),
    Case("br-cut-last-octet", "br", lambda: brotli.compress(RULES)[:-1], "error"),
    # cut after the limit: the part past the limit is never read, so the cut is never seen
    Case("gzip-bomb-cut", "gzip", lambda: gzip_bomb(1)[:-8], "truncated"),
    # garbage and codings that cannot be read
    Case("gzip-garbage", "gzip", lambda: b"not gzip at all" * 10, "error"),
    Case("deflate-garbage", "deflate", lambda: b"\xff" * 100, "error"),
    Case("br-garbage", "br", lambda: b"\xff\xff\xff not br" * 10, "error"),
    Case("br-junk-after-end", "br", lambda: brotli.compress(RULES) + b"\x00junk", "error"),
    Case("unknown-coding", "compress", lambda: RULES, "error"),
    Case("stacked-codings", "gzip, br", lambda: brotli.compress(gzip.compress(RULES)), "error"),
]


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def decode(case: Case, chunk: int, limit: int = LIMIT) -> BodyDecoder:
    decoder = BodyDecoder(case.coding, limit)
    data = case.data()
    for start in range(0, len(data), chunk):
        if decoder.feed(data[start:start + chunk]):
            break
    else:
        decoder.finish()
    return decoder


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_body_is_whole_cut_at_the_limit_or_an_error(case: Case) -> None:
    chunks = [65536] if case.outcome == "truncated" else [1, 7, 65536]
    for chunk in chunks:
        decoder = decode(case, chunk)
        if case.outcome == "error":
            assert decoder.error is not None, (chunk, decoder.body[:40])
            continue
        assert decoder.error is None, (chunk, decoder.error)
        if case.outcome == "truncated":
            assert decoder.truncated and decoder.body == bytes(LIMIT)
        else:
            assert not decoder.truncated and decoder.body == case.body, chunk
            assert bool(decoder.junk) == case.junk, chunk


@pytest.mark.parametrize("case", [c for c in CASES if c.outcome == "truncated"],
                         ids=lambda c: c.name)
def test_a_bomb_never_inflates_past_the_limit(case: Case) -> None:
    data = case.data()
    tracemalloc.start()
    try:
        decoder = BodyDecoder(case.coding, LIMIT)
        for start in range(0, len(data), 65536):
            if decoder.feed(data[start:start + 65536]):
                break
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The kept body (limit + one output block) and a decompressor's window, never the bomb.
    assert peak < LIMIT + 4 * 1024 * 1024, peak
    assert decoder.raw <= len(data)


def test_every_cut_point_of_each_coding_is_whole_or_an_error() -> None:
    small = RULES[:600]
    for coding, data in (("gzip", gzip.compress(small, mtime=0)), ("deflate", _deflate(small)),
                         ("br", brotli.compress(small))):
        for cut in range(len(data)):
            decoder = BodyDecoder(coding, LIMIT)
            decoder.feed(data[:cut])
            decoder.finish()
            if cut == 0:  # no body at all: an empty answer, not a cut one
                assert decoder.error is None and decoder.body == b""
            else:
                assert decoder.error is not None, (coding, cut, decoder.body[-20:])


def test_brotli_without_an_output_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # brotli before 1.2 (or a stand-in without the output limit) cannot be bounded: such a
    # body is an error, never inflated whole.
    import sys
    import types

    old = types.ModuleType("brotli")

    class Decompressor:
        def process(self, data: bytes) -> bytes:  # pragma: no cover - never called
            raise AssertionError("an unbounded decompressor was used")

    old.Decompressor = Decompressor  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "brotli", old)
    decoder = BodyDecoder("br", LIMIT)
    assert decoder.feed(b"\x1b\x00") and decoder.error is not None
    assert "brotli" in decoder.error and brotli_problem() is not None
    assert accept_encoding() == "gzip, deflate"
    monkeypatch.undo()
    assert accept_encoding() == "gzip, deflate, br" and brotli_problem() is None


CHUNKED = b"19\r\nUser-agent: *\nDisallow: /\r\n5;ext=1\r\nAllow\r\n0\r\nX-Trailer: y\r\n\r\n"


@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_chunked_whole_and_cut(chunk: int) -> None:
    def run(data: bytes) -> tuple[Dechunker, bytes]:
        dechunker = Dechunker()
        out = b"".join(dechunker.feed(data[i:i + chunk]) for i in range(0, len(data), chunk))
        return dechunker, out  # (a compiled Dechunker takes no attribute of ours)

    whole, body = run(CHUNKED)
    assert whole.done and whole.error is None
    assert body == b"User-agent: *\nDisallow: /Allow"
    for cut in range(len(CHUNKED) - 1):
        assert not run(CHUNKED[:cut])[0].done, cut
    assert run(b"zz\r\nabc\r\n")[0].error is not None  # not hexadecimal
    assert run(b"3\r\nabcdef\r\n0\r\n\r\n")[0].error is not None  # longer than its size
    assert run(b"1" * 5000)[0].error is not None  # a size line without end


def test_an_uncoded_body_keeps_at_most_one_octet_past_the_limit() -> None:
    """``size`` (the octets kept) stays at most ``limit + 1`` however much is fed, in one
    part or many; a body within the limit is handed back as it was fed."""
    for parts in ([b"x" * (1 << 20)], [b"y" * 7] * 1000):
        decoder = BodyDecoder(None, 10)
        for part in parts:
            if decoder.feed(part):
                break
        assert decoder.size <= 11 and sum(len(p) for p in decoder.parts) <= 11
        assert decoder.truncated and len(decoder.body) == 10
    whole = b"<html>" * 10
    decoder = BodyDecoder("identity", 100)
    assert decoder.feed(whole) is False and decoder.body == whole and not decoder.truncated
