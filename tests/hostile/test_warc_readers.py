"""The lean WARC reader against warcio (issue 27): the same records, answers and problems.

:mod:`robotsrules.warc` frames WARC files with its own reader (``_WarcReader``, plain Python
over zlib) and leaves other files (ARC) to warcio. Every file here is read both ways, through
:func:`~robotsrules.warc.iter_pages` and :func:`~robotsrules.warc.iter_captures` (every path):
the hostile WARC set, the benchmark's WARC files (real page heads and generated pages), and
damage made on purpose (cut at every few octets, wrong or missing ``Content-Length``, records
not followed by their blank line, whole-file gzip, gzip members followed by plain octets,
continuation lines, oversized header blocks). The pages, the captures and the counts of
:class:`~robotsrules.warc.WarcStats` must be equal; the one file where the counts differ is
named below with the reason.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")
pytest.importorskip("brotli")

from robotsrules import _warcread, warc
from robotsrules._scope import memo_origin, origin_of
from robotsrules.errors import InvalidURL
from tests.hostile import warcs

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "page_signals.py"

# bad-member.warc.gz: its second gzip member is garbage. warcio reads that member as plain
# octets and its first line as an ARC record header (one record more, counted as skipped);
# the lean reader stops at the bad member with a note. Both keep the first site, lose the
# third, and note one problem; only the record counts differ.
COUNTS_DIFFER = {"bad-member.warc.gz"}


@pytest.fixture(autouse=True, params=["zlib-ng", "zlib"])
def inflater(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here twice: the lean reader inflating with zlib-ng (the ``warc`` extra's,
    chosen when installed) and with the standard library's zlib (the reference)."""
    if request.param == "zlib-ng":
        fast = pytest.importorskip("zlib_ng.zlib_ng")
        monkeypatch.setattr(warc, "_ZLIB", fast)
    else:
        monkeypatch.setattr(warc, "_ZLIB", zlib)
    return str(request.param)


def _read(data: bytes, reader: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    monkeypatch.setattr(warc, "_READER", reader)
    pages_stats, captures_stats = warc.WarcStats(), warc.WarcStats()
    pages = list(warc.iter_pages(io.BytesIO(data), stats=pages_stats))
    captures = list(warc.iter_captures(io.BytesIO(data), stats=captures_stats,
                                       all_paths=True))

    def counts(stats: warc.WarcStats) -> tuple[int, ...]:
        return (stats.files, stats.records, stats.captures, stats.skipped, stats.damaged,
                stats.problems)

    return pages, captures, counts(pages_stats), counts(captures_stats)


def _same(data: bytes, monkeypatch: pytest.MonkeyPatch, counts: bool = True) -> None:
    lean = _read(data, "lean", monkeypatch)
    reference = _read(data, "warcio", monkeypatch)
    assert lean[:2] == reference[:2]
    if counts:
        assert lean[2:] == reference[2:]
    else:
        assert (lean[2][-1] > 0) == (reference[2][-1] > 0)  # a problem noted by both


@pytest.mark.parametrize("name", sorted(warcs.files()))
def test_the_hostile_set(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _same(warcs.files()[name], monkeypatch, counts=name not in COUNTS_DIFFER)


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("page_signals_bench", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", ["real", "generated"])
def test_the_benchmark_warcs(kind: str, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _benchmark()
    path = tmp_path / "pages.warc.gz"
    (bench.make_real_warc if kind == "real" else bench.make_warc)(str(path), 40)
    data = path.read_bytes()
    _same(data, monkeypatch)
    pages = _read(data, "lean", monkeypatch)[0]
    assert len(pages) == 40 and all(p.head for p in pages)  # read, not skipped


def _block() -> bytes:
    return warcs.http(warcs.NOAI_PAGE, warcs.HTML)


def _record(i: int, length: bytes = b"", blank: bytes = b"\r\n\r\n") -> bytes:
    """A response record; ``length`` replaces its Content-Length value (b"-": none)."""
    block = _block()
    head, _, _ = warcs.record(f"https://m{i}.example/p", block, number=i).partition(
        b"\r\n\r\n")
    written = b"Content-Length: %d" % len(block)
    if length == b"-":
        head = head.replace(b"\r\n" + written, b"")
    elif length:
        head = head.replace(written, b"Content-Length: " + length)
    return head + b"\r\n\r\n" + block + blank


def _damaged() -> dict[str, bytes]:
    size = len(_block())
    return {
        "content-length short": _record(0) + _record(1, b"%d" % (size - 5)) + _record(2),
        "content-length long": _record(0) + _record(1, b"%d" % (size + 5)) + _record(2),
        "content-length not a number": _record(0) + _record(1, b"abc") + _record(2),
        "content-length negative": _record(0) + _record(1, b"-4") + _record(2),
        "content-length missing": _record(0) + _record(1, b"-") + _record(2),
        "a blank line first": b"\r\n" + _record(0) + _record(1),
        "LF and no blank line": _record(0, blank=b"\n") + _record(1, blank=b"") + _record(2),
        "many blank lines": _record(0, blank=b"\r\n\r\n\r\n \t\r\n\n") + _record(1),
        "text after the last record": _record(0) + _record(1) + b"junk line\r\nmore\r\n",
        "lower-case version": _record(0).replace(b"WARC/1.0", b"warc/1.0") + _record(1),
        "a continuation line": _record(0).replace(
            b"https://m0.example/p\r\n", b"https://m0.example/p\r\n /more\r\n") + _record(1),
        "a bare LF in the header": _record(0).replace(b"WARC-Date:", b"X-A: b\nWARC-Date:"),
        "a blank line inside the header": _record(0).replace(b"WARC-Date:",
                                                             b" \r\nWARC-Date:"),
        "latin-1 header": _record(0).replace(b"WARC-Date:", b"X-Name: caf\xe9\r\nWARC-Date:"),
        "<uri> with a space": _record(0).replace(b"https://m0.example/p",
                                                 b"<https://m0.example/a b>") + _record(1),
        "a 1 MiB header": _record(0).replace(b"WARC-Date:", b"X-Pad: " + b"p" * (1 << 20)
                                             + b"\r\nWARC-Date:") + _record(1),
        "an ARC file": b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 10\n1 0 test\n\n",
    }


@pytest.mark.parametrize("name", sorted(_damaged()))
def test_damage_plain_and_gzipped(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _damaged()[name]
    _same(data, monkeypatch)
    _same(gzip.compress(data, mtime=0), monkeypatch)  # the whole file one member


@pytest.mark.parametrize("over", [-1, 0, 1, 2, 3, 4])
def test_header_at_the_bound(over: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A WARC header block (its blank line included) of MAX_WARC_HEAD octets is read, one
    octet more is not: the same for both readers, at every octet around the bound."""
    record = _record(0)
    head = record.index(b"\r\n\r\n") + 4
    pad = warc.MAX_WARC_HEAD + over - head - len(b"X-Pad: \r\n")
    data = record.replace(b"WARC-Date:", b"X-Pad: " + b"p" * pad + b"\r\nWARC-Date:")
    assert data.index(b"\r\n\r\n") + 4 == warc.MAX_WARC_HEAD + over
    _same(data + _record(1), monkeypatch)
    pages = _read(data, "lean", monkeypatch)[0]
    assert len(pages) == (1 if over <= 0 else 0)


def test_members_then_plain_octets(monkeypatch: pytest.MonkeyPatch) -> None:
    _same(gzip.compress(_record(0), mtime=0) + _record(1), monkeypatch)
    _same(gzip.compress(_record(0), mtime=0) + b"junk\r\n", monkeypatch)
    _same(gzip.compress(_record(0), mtime=0) + b"\x1f", monkeypatch)


def test_cut_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    records = [_record(i) for i in range(5)]
    plain = b"".join(records)
    members = b"".join(gzip.compress(r, mtime=0) for r in records)
    for cut in range(0, len(plain), 11):
        _same(plain[:cut], monkeypatch)
    for cut in range(0, len(members), 7):
        _same(members[:cut], monkeypatch)


def test_which_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """WARC files go to the lean reader, anything else to warcio."""
    assert warc._is_warc(_record(0)) and warc._is_warc(gzip.compress(_record(0)))
    assert warc._is_warc(b"warc/1.1\r\n")
    assert not warc._is_warc(b"filedesc://x.arc 0.0.0.0 20240101000000 text/plain 10\n")
    assert not warc._is_warc(b"\x1f\x8b\x08\x00 not gzip")
    made: list[str] = []
    lean, archive = warc._WarcReader, warc._Archive

    # Wrapped, not subclassed: the compiled build refuses a pure subclass of its class.
    def counted_lean(octets: Any) -> Any:
        made.append("lean")
        return lean(octets)

    class CountedArchive(archive):  # type: ignore[misc,valid-type]  # warcio's, pure
        def __init__(self, handle: Any) -> None:
            made.append("warcio")
            super().__init__(handle)

    monkeypatch.setattr(warc, "_WarcReader", counted_lean)
    monkeypatch.setattr(warc, "_Archive", CountedArchive)
    assert len(list(warc.iter_pages(io.BytesIO(_record(0))))) == 1
    assert made == ["lean"]
    arc = _damaged()["an ARC file"]
    list(warc.iter_pages(io.BytesIO(arc)))
    assert made == ["lean", "warcio"]


def test_the_bound_on_inflating() -> None:
    """A member that inflates to far more than a record: read in bounded steps."""
    bomb = gzip.compress(_record(0).replace(b"WARC-Date:", b"X-Pad: " + b"p" * (8 << 20)
                                            + b"\r\nWARC-Date:"), mtime=0)
    octets = _warcread.Octets(io.BytesIO(b""), bomb, warc._ZLIB)
    assert len(octets.readline(64)) <= 64
    assert len(octets._buf) <= _warcread.INFLATE_SIZE


URLS = ["https://a.example/x", "HTTPS://A.EXAMPLE:443/p?q", "http://u:p@h.example:8080#f",
        "https://a.example\\b/c", "http://[::1]:80/x", "https://xn--bcher-kva.example/",
        "https://Bücher.example/a", " https://a.example/x", "https://a.example:99999/",
        "https://a.example?x", "https://a.exa\tmple/", "ftp://f.example/r", "mailto:x@y",
        "https:/a.example/x", "https://a.example#/b", "https://"]


@pytest.mark.parametrize("url", URLS)
def test_remembered_origins(url: str) -> None:
    """The one memoised origin splitter (the WARC reader's and the bulk rows') answers as
    origin_of does, the first time and from what it remembered."""
    def answer(url: str) -> str:
        try:
            return memo_origin(url)
        except InvalidURL:
            return "InvalidURL"

    try:
        want = origin_of(url)
    except InvalidURL:
        want = "InvalidURL"
    assert answer(url) == want
    assert answer(url) == want  # and again, from what was remembered


@pytest.mark.parametrize("url", URLS)
def test_bulk_rows_read_origins_through_the_same_splitter(url: str) -> None:
    """The bulk rows' reading: the origin, or None for what is no origin or has no ``://``."""
    fast_origin = pytest.importorskip("robotsrules.bulk._rows").fast_origin
    try:
        want = origin_of(url)
    except InvalidURL:
        want = None
    want = want if "://" in url.strip() else None
    assert fast_origin(url) == want
    assert fast_origin(url) == want


def test_the_inflater_chosen_is_the_one_used(inflater: str) -> None:
    """The lean reader inflates with the module ``warc._ZLIB`` names (zlib-ng when it is
    installed: the fixture above sets each in turn), so both are really read above."""
    octets = _warcread.Octets(io.BytesIO(b""), gzip.compress(_record(0), mtime=0), warc._ZLIB)
    expected = warc._ZLIB.decompressobj(31)
    assert type(octets._z) is type(expected)
    assert (type(expected).__module__ or "").startswith("zlib_ng") == (inflater == "zlib-ng")
    assert octets.readline(64).startswith(b"WARC/")


def test_the_reader_is_given_warcs_inflater(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warc`` hands its ``_ZLIB`` to the lean reader (which lives in ``_warcread``, compiled
    in the compiled build) for the first member and every member after it."""
    made: list[int] = []
    real = warc._ZLIB

    class Counting:
        def decompressobj(self, wbits: int) -> Any:
            made.append(wbits)
            return real.decompressobj(wbits)

    monkeypatch.setattr(warc, "_ZLIB", Counting())
    data = b"".join(gzip.compress(_record(i), mtime=0) for i in range(3))
    assert len(list(warc.iter_pages(io.BytesIO(data)))) == 3
    assert made == [31, 31, 31]
