"""robots.txt captures from WARC files (Common Crawl's robots.txt archives, or any crawl).

Needs the ``warc`` extra (``warcio``, and ``pyarrow`` for :func:`read_warcs`). warcio rather
than fastwarc: robots.txt captures are small, so parsing them costs more than reading the
archive; warcio is pure Python (a wheel everywhere), reads gzip'd and plain WARCs alike, decodes
chunked and compressed HTTP payloads, and has the writer the tests use.

Each ``response`` record whose target URI path is ``/robots.txt`` becomes a :class:`Capture`
with the HTTP status and the ``WARC-Date``; other records are skipped (counted). Reading is
lenient: a garbled record or a truncated file ends that file with a note in
:attr:`WarcStats.errors`, never an exception; captures read before the damage are kept.

A capture that did not arrive whole is *damaged* (:attr:`Capture.damaged` says why) and is
never read as a complete robots.txt: its record block is shorter than its ``Content-Length``
(a file cut in the middle of a record, plain or gzip'd), it has no usable ``Content-Length``,
its HTTP status is not a three-digit number (``9999999999``, or a status line cut to ``20``),
its HTTP headers cannot be read, or the crawler marked it ``WARC-Truncated`` with less than
``max_bytes`` of body kept. A gzip'd file that ends inside a compressed member is reported too.

:func:`read_warcs` turns captures into a robots table for :mod:`robotsrules.bulk`: the newest
capture per origin wins (RFC 9309 §2.4: the freshest copy is the one to obey). A redirect
(3xx) is followed within the captures read, up to 5 hops (RFC 9309 §2.3.1.2), and the
target's answer stands for the original origin; a redirect whose target was not captured keeps
its 3xx status, which the fetch policy reads as *unavailable* (allow all).

A damaged capture loses to any intact capture of the same origin (or URL, for redirect
targets), whatever their dates: like a failed refresh, it does not replace the last good copy.
An origin (or a redirect target) with only damaged captures gets a row with status
:data:`DAMAGED_STATUS` and an empty body, which the fetch policy reads as *unreachable*
(disallow all), and the reason in the ``damaged`` column. See ``docs/explanations/bulk-safety.md``.
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from typing import (
    Any,
    BinaryIO,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)
from urllib.parse import urlsplit

import pyarrow as pa
from warcio.archiveiterator import ArchiveIterator

from ._dates import utc
from ._decoder import BodyDecoder, Dechunker
from ._scope import join_url, origin_of
from .bulk import DEFAULT_PAGE_BATCH_ROWS, Rank, page_schema, rank
from .robotstxt import DEFAULT_MAX_BYTES

__all__ = ["DAMAGED_STATUS", "DEFAULT_PAGE_BATCH_ROWS", "MAX_HTTP_HEAD", "MAX_NOTES",
           "MAX_WARC_HEAD", "ROBOTS_SCHEMA", "Capture", "PageCapture", "WarcStats",
           "iter_captures", "iter_pages", "page_batches", "page_table", "page_table_schema",
           "read_warc_captures", "read_warcs", "sniffs_html"]

ROBOTS_SCHEMA = pa.schema([
    pa.field("url", pa.string()),
    pa.field("origin", pa.string()),
    pa.field("status", pa.int32()),
    pa.field("date", pa.timestamp("us", tz="UTC")),
    pa.field("body", pa.binary()),
    pa.field("truncated", pa.bool_()),
    pa.field("final_url", pa.string()),
    pa.field("damaged", pa.string()),
])
"""Columns of :func:`read_warcs`' table: a robots table for :mod:`robotsrules.bulk`, plus
``origin``, ``truncated`` (body cut at ``max_bytes`` or by the crawler), ``final_url``
(where the answer came from after redirects) and ``damaged`` (null, or why the capture that
answers was not used as a robots.txt; ``status`` is then :data:`DAMAGED_STATUS`)."""

DAMAGED_STATUS = 599
"""The status a damaged capture gets in :func:`read_warcs`' table: a 5xx, so every engine's
fetch policy reads it as *unreachable* (disallow all), as the fetch layer reads a body that
did not arrive whole. (599 is not an HTTP status any server sends for robots.txt; the
``damaged`` column tells such rows apart.)"""

MAX_REDIRECTS = 5
MAX_NOTES = 100
"""Problem notes kept by :class:`WarcStats` (the rest are counted)."""
MAX_HTTP_HEAD = 64 * 1024
"""Octets of a record's HTTP status line and headers read; a longer head is damage."""
MAX_WARC_HEAD = 1 << 20
"""Octets of a record's WARC header block read; a longer one ends the file (a problem)."""
_DRAIN = 1 << 16


class Capture(NamedTuple):
    """One robots.txt capture: what the crawler asked, got, and when."""

    url: str
    origin: str
    status: Optional[int]
    date: Optional[datetime.datetime]
    body: bytes
    truncated: bool
    location: Optional[str]
    """The ``Location`` header of a redirect answer."""
    damaged: Optional[str] = None
    """Why this capture is not a complete answer (``None``: it is). A damaged capture's
    ``status`` is ``None`` when no valid status could be read, and its ``body`` is empty."""


@dataclass
class WarcStats:
    """What reading WARC files gave: counts and the problems met (never raised)."""

    files: int = 0
    records: int = 0
    captures: int = 0
    skipped: int = 0
    """Records that are not robots.txt responses (requests, metadata, other URLs)."""
    redirects_followed: int = 0
    damaged: int = 0
    """Captures that did not arrive whole (see the module docstring); each is also a
    problem."""
    problems: int = 0
    """Every problem met: damaged captures, bad records, files that could not be read."""
    errors: List[str] = field(default_factory=list)
    """A note for each of the first :data:`MAX_NOTES` problems (the rest are only counted
    in :attr:`problems`, so that memory stays bounded whatever a file holds)."""

    def note(self, message: str) -> None:
        """Count a problem; keep its note if fewer than :data:`MAX_NOTES` are kept."""
        self.problems += 1
        if len(self.errors) < MAX_NOTES:
            self.errors.append(message)

    def warnings(self, shown: int = 10) -> List[str]:
        """The first ``shown`` notes, then how many problems more there were (one line each,
        control characters made visible: the notes quote strangers' files)."""
        from ._terminal import visible

        lines = [visible(note) for note in self.errors[:shown]]
        if self.problems > len(lines):
            lines.append(f"{self.problems - len(lines):,} more problems")
        return lines


def _is_robots(url: str) -> bool:
    try:
        return urlsplit(url).path == "/robots.txt"
    except ValueError:
        return False


def iter_captures(source: Union[str, os.PathLike[str], BinaryIO], *,
                  max_bytes: int = DEFAULT_MAX_BYTES, stats: Optional[WarcStats] = None,
                  all_paths: bool = False) -> Iterator[Capture]:
    """The robots.txt captures of one WARC file (plain or gzip'd), in file order.

    ``max_bytes`` of each body are kept (the rest is never read; RFC 9309 §2.5). With
    ``all_paths``, responses for any URL are captures, not only ``/robots.txt``. Problems are
    counted in ``stats`` (pass one to see them), never raised.
    """
    stats = stats if stats is not None else WarcStats()

    def read(record: Any, limit: int) -> Optional[Capture]:
        return _capture(record, limit, all_paths)

    yield from _open_and_read(source, stats, max_bytes, read)


class _BoundedLines:
    """A reader's ``readline`` with a budget: warcio reads a record's WARC headers line by
    line, without a limit; past ``budget`` octets this raises (the file ends there)."""

    def __init__(self, stream: Any, budget: int) -> None:
        self._stream = stream
        self._left = budget

    def readline(self, length: Optional[int] = None) -> bytes:
        if self._left <= 0:
            raise ValueError(f"a WARC record header longer than {MAX_WARC_HEAD:,} octets")
        want = self._left + 1 if length is None or length < 0 else min(length, self._left + 1)
        line: bytes = self._stream.readline(want)
        self._left -= len(line)
        return line


class _Archive(ArchiveIterator):  # type: ignore[misc]  # warcio has no type information
    """warcio's record iterator, with its header reading bounded (:data:`MAX_WARC_HEAD`),
    noting whether the file ended in the middle of something, which warcio passes over
    quietly: a gzip member without its end, or (plain files) octets after the last complete
    record that are not a whole record (a cut record header). Records come unparsed (their
    HTTP heads are read here, not by warcio: :func:`_http_head`)."""

    cut: Optional[str] = None
    INC_RECORD = ""  # warcio prints this note (with raw octets) to stderr: counted instead

    def __init__(self, handle: Any) -> None:
        super().__init__(handle, arc2warc=True, no_record_parse=True)
        for parser in (self.loader.warc_parser, self.loader.arc_parser):
            parse = parser.parse

            def bounded(stream: Any, full_statusline: Any = None, parse: Any = parse) -> Any:
                return parse(_BoundedLines(stream, MAX_WARC_HEAD), full_statusline)

            parser.parse = bounded

    def close(self) -> None:
        reader = getattr(self, "reader", None)
        if reader is not None:
            decompressor = getattr(reader, "decompressor", None)
            if decompressor is not None:
                if not getattr(decompressor, "eof", True):
                    self.cut = "the file ends inside a gzip member"
            else:
                try:
                    tail = int(self.fh.tell()) - int(self.offset)
                except (AttributeError, OSError, TypeError, ValueError):
                    tail = 0
                if tail > 0:
                    self.cut = f"the file ends with {tail:,} octets that are not a whole record"
        super().close()


def _open_and_read(source: Union[str, os.PathLike[str], BinaryIO], stats: WarcStats,
                   limit: int, read: Callable[[Any, int], Any]) -> Iterator[Any]:
    """Open ``source`` (a path, or a binary file object left open) and yield what ``read``
    makes of each of its records (``None``: skipped); a file that cannot be opened is one
    problem in ``stats``."""
    name = source if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "WARC")
    label = os.fspath(name) if isinstance(name, (str, os.PathLike)) else "WARC"
    stats.files += 1
    try:
        handle: BinaryIO = (open(source, "rb") if isinstance(source, (str, os.PathLike))  # noqa: SIM115
                            else source)
    except OSError as error:
        stats.note(f"{label}: {error.strerror or error}")
        return
    try:
        yield from _records(handle, label, limit, stats, read)
    finally:
        if handle is not source:
            handle.close()


def _records(handle: BinaryIO, label: str, limit: int, stats: WarcStats,
             read: Callable[[Any, int], Any]) -> Iterator[Any]:
    try:
        archive = _Archive(handle)
    except Exception as error:  # Leniency: not a WARC file at all
        stats.note(f"{label}: unreadable: {type(error).__name__}: {error}")
        return
    records = iter(archive)
    while True:
        try:
            record = next(records)
        except StopIteration:
            break
        except Exception as error:  # Leniency: garbled or truncated archive: stop this file
            stats.note(f"{label}: unreadable after {stats.records} records: "
                       f"{type(error).__name__}: {str(error)[:200]}")
            return
        stats.records += 1
        try:
            capture = read(record, limit)
        except Exception as error:  # Leniency: one bad record; the next may be fine
            stats.note(f"{label}: record {stats.records}: {type(error).__name__}: "
                       f"{str(error)[:200]}")
            _drain(record)
            continue
        if capture is None:
            short = _drain(record)[0]
            if short:
                stats.note(f"{label}: record {stats.records}: {short}")
            stats.skipped += 1
            continue
        if capture.damaged:
            stats.damaged += 1
            stats.note(f"{label}: record {stats.records} ({capture.url[:200]}): damaged: "
                       f"{capture.damaged}; not read as a whole answer")
        stats.captures += 1
        yield capture
    if archive.err_count:
        stats.note(f"{label}: {archive.err_count:,} records not followed by a blank line "
                   "(a wrong Content-Length?)")
    if archive.cut:
        stats.note(f"{label}: {archive.cut} (cut short?): whatever followed record "
                   f"{stats.records} is lost")


def _drain(record: Any) -> Tuple[Optional[str], int]:
    """Read the rest of a record's block: (why it is short of its Content-Length, or None;
    the octets read)."""
    raw = record.raw_stream
    drained = 0
    while True:
        block = raw.read(_DRAIN)
        if not block:
            break
        drained += len(block)
    left = getattr(raw, "limit", None)  # a warcio LimitReader: octets of Content-Length unread
    if not isinstance(left, int) or not callable(getattr(raw, "tell", None)):
        return "no usable Content-Length", drained
    if left > 0:
        got = raw.tell()
        return f"record cut short: {got:,} of {got + left:,} octets (Content-Length)", drained
    return None, drained


def _status(text: Any) -> Optional[int]:
    """An HTTP status code: three ASCII digits (RFC 9110 §15), else None."""
    if isinstance(text, str) and len(text) == 3 and text.isascii() and text.isdigit():
        value = int(text)
        if value >= 100:
            return value
    return None


_STATUS_LINE = re.compile(rb"HTTP/[0-9]+(?:\.[0-9]+)?[ \t]+(\S*)")


class _Response(NamedTuple):
    """One ``response`` record read: its target, the HTTP head, the decoded body (or its
    first ``limit`` octets) and why it is not whole, if it is not."""

    url: str
    origin: str
    date: Optional[datetime.datetime]
    status_text: Optional[str]
    headers: Tuple[Tuple[str, str], ...]
    body: bytes
    truncated: bool
    damaged: Optional[str]


def _header(headers: Sequence[Tuple[str, str]], name: str) -> Optional[str]:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def _target(record: Any) -> Optional[str]:
    """The target URI of an HTTP(S) ``response`` record (the scheme in any case: RFC 3986
    §3.1), or None for other records."""
    if record.rec_type != "response":
        return None
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
    if not url.lower().startswith(("http:", "https:")):
        return None
    return url


def _http_head(raw: Any) -> Tuple[Optional[str], Tuple[Tuple[str, str], ...], Optional[str]]:
    """(status code text, header pairs, damage) of the HTTP head at the start of a record
    block. The head ends at its blank line; a block that ends first, or a head longer than
    :data:`MAX_HTTP_HEAD`, is damage (a head cut after its status line has lost the headers
    that may say no)."""
    from ._page import header_block

    lines: List[bytes] = []
    size = 0
    while True:
        line = raw.readline(MAX_HTTP_HEAD - size + 1)
        size += len(line)
        if size > MAX_HTTP_HEAD:
            return None, (), f"an HTTP head longer than {MAX_HTTP_HEAD:,} octets"
        if not lines and not _STATUS_LINE.match(line):
            return None, (), "no HTTP head (the record does not start with a status line)"
        if not line.endswith(b"\n"):
            return None, (), ("the HTTP head is cut short (the record ends before the blank "
                              "line that ends it)")
        if not line.strip(b"\r\n"):
            break
        lines.append(line)
    match = _STATUS_LINE.match(lines[0])
    assert match is not None
    status = match.group(1).decode("latin-1")
    fields = header_block(b"".join(lines[1:]))  # the page layer's one reader (folding too)
    return status, tuple((field.name, field.value) for field in fields), None


def _read_body(raw: Any, headers: Sequence[Tuple[str, str]], limit: int
               ) -> Tuple[bytes, bool, Optional[str], int]:
    """(body, truncated, damage, payload octets read) of the payload after the HTTP head:
    de-chunked and decoded by the one bounded decoder (:mod:`robotsrules._decoder`), at most
    ``limit`` octets kept; a payload that does not end as its coding says is damage."""
    coding = _header(headers, "transfer-encoding") or ""
    chunks = Dechunker() if "chunked" in coding.lower() else None
    decoder = BodyDecoder(_header(headers, "content-encoding"), limit)
    read = 0
    ended = False
    while True:
        block = raw.read(_DRAIN)
        if not block:
            ended = True
            break
        read += len(block)
        data = block if chunks is None else chunks.feed(block)
        if chunks is not None and chunks.error is not None:
            return b"", False, f"bad chunked payload: {chunks.error}", read
        if decoder.feed(data):
            break
        if chunks is not None and chunks.done:
            ended = True
            break
    if ended:
        decoder.finish()
        if chunks is not None and not chunks.done and decoder.error is None:
            return b"", False, "chunked payload cut short (no last chunk)", read
    if decoder.error is not None:
        return b"", False, f"unreadable HTTP payload: {decoder.error}", read
    return decoder.body, decoder.truncated, None, read


def _response(record: Any, url: str, limit: int,
              body: Callable[[Sequence[Tuple[str, str]]], bool] = lambda headers: True
              ) -> _Response:
    """Read one response record (see :class:`_Response`); when ``body(headers)`` is False
    the payload is left unread (only the record's completeness is checked)."""
    raw = record.raw_stream
    origin = origin_of(url)  # InvalidURL: counted as a bad record by the caller
    date = utc(record.rec_headers.get_header("WARC-Date"))
    status, headers, damage = _http_head(raw)
    data, truncated, read = b"", False, 0
    wanted = damage is None and body(headers)
    if wanted:
        data, truncated, damage, read = _read_body(raw, headers, limit)
    short, drained = _drain(record)
    if damage is None and short is not None:
        damage = short
    length = _header(headers, "content-length")
    if (damage is None and wanted and length is not None and length.strip().isdigit()
            and _header(headers, "transfer-encoding") is None
            and read + drained < int(length.strip())):
        damage = (f"payload cut short: {read + drained:,} of {int(length.strip()):,} octets "
                  "(HTTP Content-Length)")
    cut = record.rec_headers.get_header("WARC-Truncated")
    if damage is None and cut and wanted and not truncated:
        damage = (f"WARC-Truncated: {cut.strip()[:40]} with only {len(data):,} octets kept "
                  f"(fewer than the {limit:,} read)")
    if damage is not None:
        return _Response(url, origin, date, status, headers, b"", False, damage)
    return _Response(url, origin, date, status, headers, data, truncated or bool(cut), None)


def _capture(record: Any, max_bytes: int, all_paths: bool) -> Optional[Capture]:
    url = _target(record)
    if url is None or not (all_paths or _is_robots(url)):
        return None
    found = _response(record, url, max_bytes)
    status = _status(found.status_text)
    damage = found.damaged
    if damage is None and status is None:
        damage = f"impossible HTTP status {str(found.status_text)[:20]!r}"
    if damage is not None:
        return Capture(url, found.origin, status, found.date, b"", False, None, damage)
    location = _header(found.headers, "location")
    return Capture(url, found.origin, status, found.date, found.body, found.truncated,
                   location.strip() if location else None)


def _better(a: Capture, b: Optional[Capture]) -> bool:
    """Whether capture ``a`` should answer instead of ``b`` (:func:`robotsrules.bulk.rank`:
    an intact capture beats a damaged one, then the newer one, the larger body, the larger
    status; a later capture wins a tie)."""
    return b is None or _rank(a) >= _rank(b)


def _rank(capture: Capture) -> Rank:
    return rank(capture.date, capture.body, capture.status, capture.damaged is not None)


def read_warcs(sources: Iterable[Union[str, os.PathLike[str], BinaryIO]], *,
               max_bytes: int = DEFAULT_MAX_BYTES, stats: Optional[WarcStats] = None,
               follow_redirects: bool = True) -> pa.Table:
    """A robots table (:data:`ROBOTS_SCHEMA`) from WARC files: the newest capture per origin.

    Redirects are followed within the captures read (see the module docstring). Problems are
    counted in ``stats``; the table holds whatever could be read, and a damaged capture only
    as an *unreachable* row (:data:`DAMAGED_STATUS`) when its origin has no intact one.
    """
    stats = stats if stats is not None else WarcStats()
    newest: Dict[str, Capture] = {}  # by origin
    by_url: Dict[str, Capture] = {}  # newest capture of each exact URL (redirect targets)
    for source in sources:
        for capture in iter_captures(source, max_bytes=max_bytes, stats=stats):
            if _better(capture, newest.get(capture.origin)):
                newest[capture.origin] = capture
            if _better(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    return _table((newest[origin] for origin in sorted(newest)), by_url, stats,
                  follow_redirects)


def _table(captures: Iterable[Capture], by_url: Dict[str, Capture], stats: WarcStats,
           follow_redirects: bool) -> pa.Table:
    """A robots table with one row per capture, each redirect followed within ``by_url``;
    a damaged capture (or redirect target) becomes an unreachable row, never a file."""
    columns: Dict[str, List[Any]] = {name: [] for name in ROBOTS_SCHEMA.names}
    for capture in captures:
        final = _follow(capture, by_url, stats) if follow_redirects else capture
        columns["url"].append(capture.url)
        columns["origin"].append(capture.origin)
        damaged = final.damaged is not None
        columns["status"].append(DAMAGED_STATUS if damaged else final.status)
        columns["date"].append(capture.date)
        columns["body"].append(b"" if damaged else final.body)
        columns["truncated"].append(final.truncated)
        columns["final_url"].append(final.url)
        columns["damaged"].append(final.damaged)
    return pa.table(columns, schema=ROBOTS_SCHEMA)


def _follow(capture: Capture, by_url: Dict[str, Capture], stats: WarcStats) -> Capture:
    current = capture
    seen = {capture.url}
    for _ in range(MAX_REDIRECTS):
        if (current.damaged or current.status is None or not 300 <= current.status < 400
                or not current.location):
            break
        target = join_url(current.url, current.location)
        if target is None or target in seen or target not in by_url:
            break
        seen.add(target)
        current = by_url[target]
    if current is not capture:
        stats.redirects_followed += 1
    return current


# -- page-level signals of response records (issue 16) ------------------------------------

class PageCapture(NamedTuple):
    """One captured response: its URL, status, date, every header and the head of its body."""

    url: str
    origin: str
    status: Optional[int]
    date: Optional[datetime.datetime]
    headers: Tuple[Tuple[str, str], ...]
    head: Optional[bytes]
    """The first bytes of an HTML body (``None`` for other content types)."""
    damaged: Optional[str] = None
    """Why the record is not a whole response (``None``: it is): its signals are unknown,
    never "nothing stated" (a cut record may have lost the header or tag that says no)."""
    record_id: Optional[str] = None
    """The record's ``WARC-Record-ID``."""


# The WHATWG MIME Sniffing Standard (Living Standard, as of 2024), §7.1 "Identifying a
# resource with an unknown MIME type": the HTML signatures, case-insensitive, after leading
# whitespace, each followed by a space or ">"; read only when the type is missing or says
# nothing (``unknown/unknown``, ``application/unknown``, ``*/*``), as browsers and crawlers do.
_HTML_SIGNATURES = (b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1",
                    b"<div", b"<font", b"<table", b"<a", b"<style", b"<title", b"<b", b"<body",
                    b"<br", b"<p", b"<!--")
_UNKNOWN_TYPES = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})


def sniffs_html(data: bytes) -> bool:
    """Whether a body of unknown type starts as HTML (WHATWG MIME Sniffing, §7.1).

    >>> sniffs_html(b"\\n  <!DOCTYPE html><title>x</title>"), sniffs_html(b"%PDF-1.7")
    (True, False)
    """
    start = data[:512].lstrip(b"\t\n\x0c\r ")
    start = start[3:] if start.startswith(b"\xef\xbb\xbf") else start
    lower = start[:16].lower()
    for signature in _HTML_SIGNATURES:
        if lower.startswith(signature) and lower[len(signature):len(signature) + 1] in (b" ",
                                                                                         b">"):
            return True
    return False


def _page_kind(headers: Sequence[Tuple[str, str]]) -> Optional[bool]:
    """True: HTML by its type; None: no usable type (sniff the body); False: another type."""
    from ._page import is_html

    value = _header(headers, "content-type")
    essence = (value or "").split(";", 1)[0].strip().lower()
    if essence in _UNKNOWN_TYPES:
        return None
    return is_html(value)


def _page_capture(record: Any, max_bytes: int) -> Optional[PageCapture]:
    url = _target(record)
    if url is None or _is_robots(url):
        return None
    found = _response(record, url, max_bytes, body=lambda h: _page_kind(h) is not False)
    status = _status(found.status_text)
    damage = found.damaged
    if damage is None and status is None:
        damage = f"impossible HTTP status {str(found.status_text)[:20]!r}"
    record_id = record.rec_headers.get_header("WARC-Record-ID")
    if damage is not None:
        return PageCapture(url, found.origin, status, found.date, found.headers, None, damage,
                           record_id)
    kind = _page_kind(found.headers)
    html = kind or (kind is None and sniffs_html(found.body))
    return PageCapture(url, found.origin, status, found.date, found.headers,
                       found.body if html else None, None, record_id)


def iter_pages(source: Union[str, os.PathLike[str], BinaryIO], *,
               max_head_bytes: Optional[int] = None,
               stats: Optional[WarcStats] = None) -> Iterator[PageCapture]:
    """The ``response`` records of one WARC file other than robots.txt, in file order.

    Of an HTML body (by its ``Content-Type``, or sniffed as browsers do when it has none:
    :func:`sniffs_html`) only the first ``max_head_bytes`` (default
    :data:`robotsrules._page.DEFAULT_HEAD_BYTES`) are decoded; other bodies are not read.
    A record that did not arrive whole is a :class:`PageCapture` with ``damaged`` set (and
    counted in ``stats.damaged``); other problems are counted in ``stats``, never raised.
    """
    from ._page import DEFAULT_HEAD_BYTES

    stats = stats if stats is not None else WarcStats()
    limit = DEFAULT_HEAD_BYTES if max_head_bytes is None else max_head_bytes
    yield from _open_and_read(source, stats, limit, _page_capture)


def page_table_schema(purposes: Sequence[str] = ()) -> pa.Schema:
    """The columns of :func:`page_table` (:func:`robotsrules.bulk.page_schema`): one nullable
    boolean per purpose at the end."""
    return page_schema(purposes)


def page_batches(sources: Iterable[Union[str, os.PathLike[str], BinaryIO]], *,
                 agents: Sequence[str], purposes: Sequence[str] = (),
                 robots: Any = None, max_head_bytes: Optional[int] = None,
                 stats: Optional[WarcStats] = None, now: Optional[datetime.datetime] = None,
                 batch_rows: int = DEFAULT_PAGE_BATCH_ROWS, mode: Any = "google",
                 check: Optional[Callable[[], None]] = None,
                 observe: Optional[Callable[..., None]] = None) -> Iterator[pa.RecordBatch]:
    """Page signals of every response record as a stream of Arrow batches
    (:func:`page_table_schema`), one row per (URL, agent), in file order: the records of
    :func:`iter_pages` through :func:`robotsrules.bulk.page_batches`.

    Memory stays bounded whatever the size of the WARC files: one record's head and at most
    ``batch_rows`` rows are held at a time (a batch is cut before the page whose rows would
    make it longer, so it holds at most ``max(batch_rows, len(agents))`` rows). ``robots``
    maps an origin to its parsed :class:`~robotsrules.RobotsTxt` (a dict), or is a
    :class:`robotsrules.bulk.RobotsIndex`, whose rows are parsed on first use with ``mode``
    (a bounded cache: each site's file is parsed once while its pages come together).
    ``check`` is called before each record (a stop signal raises from it); ``observe`` is
    :func:`robotsrules.bulk.page_batches`' (the manifest's hook). The columns are described
    at :func:`page_table`.
    """
    from .bulk import page_batches as signal_batches

    stats = stats if stats is not None else WarcStats()

    def pages() -> Iterator[PageCapture]:
        for source in sources:
            yield from iter_pages(source, max_head_bytes=max_head_bytes, stats=stats)

    return signal_batches(pages(), agents=agents, purposes=purposes, robots=robots, now=now,
                          batch_rows=batch_rows, mode=mode, check=check, observe=observe)


def page_table(sources: Iterable[Union[str, os.PathLike[str], BinaryIO]], *,
               agents: Sequence[str], purposes: Sequence[str] = (),
               robots: Any = None,
               max_head_bytes: Optional[int] = None, stats: Optional[WarcStats] = None,
               now: Optional[datetime.datetime] = None) -> pa.Table:
    """Page signals of every response record, one row per (URL, agent), as one table (the
    batches of :func:`page_batches` gathered: for large WARC files, stream those instead).

    ``index``/``follow``/``noai``/``tdm_reservation`` come from the record's headers and
    HTML head (:func:`robotsrules.page_signals`); each purpose column is the answer of
    :func:`robotsrules.combine` of the page and, when ``robots`` maps the record's origin to
    its parsed :class:`~robotsrules.RobotsTxt`, of that file's :meth:`~RobotsTxt.usage`
    (``crawl_allowed`` is then its verdict, else null). ``now`` decides
    ``unavailable_after`` (default: each record's ``WARC-Date``, when the page was served).
    """
    from .bulk import check_purposes

    schema = page_table_schema(check_purposes(purposes))
    batches = list(page_batches(sources, agents=agents, purposes=purposes, robots=robots,
                                max_head_bytes=max_head_bytes, stats=stats, now=now))
    return pa.Table.from_batches(batches, schema=schema)


def read_warc_captures(sources: Iterable[Union[str, os.PathLike[str], BinaryIO]], *,
                       max_bytes: int = DEFAULT_MAX_BYTES, stats: Optional[WarcStats] = None,
                       follow_redirects: bool = True) -> pa.Table:
    """Like :func:`read_warcs` but every capture is kept (one row each, ordered by origin
    and date): the robots history that ``bulk --as-of`` judges URLs against, e.g. from
    several Common Crawl robots.txt dumps. A redirect is followed to the newest capture of
    its target among those read."""
    stats = stats if stats is not None else WarcStats()
    every: List[Capture] = []
    by_url: Dict[str, Capture] = {}
    for source in sources:
        for capture in iter_captures(source, max_bytes=max_bytes, stats=stats):
            every.append(capture)
            if _better(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    every.sort(key=lambda c: (c.origin, c.date is not None, c.date or ""))
    return _table(every, by_url, stats, follow_redirects)
