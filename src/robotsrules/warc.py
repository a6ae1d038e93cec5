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
import zlib
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
from ._page import header_block, is_html
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
_READER = "lean"
"""Which reader frames WARC files: ``"lean"`` (:class:`_WarcReader`) or ``"warcio"`` (the
differential tests set it to compare the two)."""


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
    if "/robots.txt" not in url:  # the path is "/robots.txt" only where the URL holds it
        return False
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
        want = self._left + 1 if length is None or length < 0 else min(length, self._left + 1)
        line: bytes = self._stream.readline(want)
        if len(line) > self._left:
            raise ValueError(f"a WARC record header longer than {MAX_WARC_HEAD:,} octets")
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


def _fast_zlib() -> Any:
    """zlib-ng's drop-in module (the ``warc`` extra installs it) when it is there: it
    inflates a gzip'd WARC's members with about 40 % fewer instructions than the standard
    library's zlib (its checksum is computed with the processor's carry-less multiply), with
    the same interface, bounds and checks; else the standard library's."""
    try:
        from zlib_ng import zlib_ng
    except ImportError:
        return zlib
    return zlib_ng


_ZLIB: Any = _fast_zlib()
"""The module whose ``decompressobj`` inflates the members of gzip'd WARC files (the tests
set it to :mod:`zlib` to read every file with the standard library too)."""
_GZIP = b"\x1f\x8b"
_READ = 1 << 16  # octets read from the file at a time
_INFLATE = 1 << 20  # octets inflated at a time, whatever the compression ratio
_WARC_VERSIONS = ("WARC/1.1", "WARC/1.0", "WARC/0.17", "WARC/0.18")


class _Octets:
    """The octets of a WARC file: plain, or gzip members inflated one at a time.

    Reads stop at the end of the current gzip member (a record of a gzip'd WARC is its own
    member, as warcio reads it); :meth:`next_member` moves on. Inflating is bounded: at most
    :data:`_INFLATE` octets at a time, so a bomb member costs time, never memory. Octets that
    follow the last gzip member and do not start a new one are read as plain octets (warcio
    does the same), so they are reported as whatever they parse as.
    """

    __slots__ = ("_at", "_buf", "_ended", "_handle", "_raw", "_z", "cut")

    def __init__(self, handle: Any, start: bytes) -> None:
        self._handle = handle
        self._raw = start  # octets read from the file and not yet inflated or used
        self._z: Any = _ZLIB.decompressobj(31) if start[:2] == _GZIP else None
        self._buf = b""  # octets of the current member (or file) not yet consumed, from _at
        self._at = 0
        self._ended = False  # the file has no more octets
        self.cut: Optional[str] = None
        """Set when the file ends inside a gzip member."""

    @property
    def gzip(self) -> bool:
        """Whether the current member is inflated (False: plain octets)."""
        return self._z is not None

    def _input(self) -> bytes:
        if self._raw:
            data, self._raw = self._raw, b""
            return data
        if self._ended:
            return b""
        data = self._handle.read(_READ)
        if not data:
            self._ended = True
        return bytes(data)

    def _more(self) -> bytes:
        """The next octets of the current member (plain: of the file); b"" at its end."""
        z = self._z
        if z is None:
            return self._input()
        while not z.eof:
            data = z.unconsumed_tail or self._input()
            if not data:
                self.cut = "the file ends inside a gzip member"
                return b""
            out: bytes = z.decompress(data, _INFLATE)  # zlib.error: the caller's problem
            if out:
                return out
        return b""

    def _fill(self) -> bool:
        more = self._more()
        if not more:
            return False
        if self._at >= len(self._buf):
            self._buf = more
        else:
            self._buf = self._buf[self._at:] + more
        self._at = 0
        return True

    def next_member(self) -> bool:
        """Move to the next gzip member; False when there is none (the file ended, or it is
        plain)."""
        z = self._z
        if z is None or not z.eof:
            return False
        rest = z.unused_data or self._input()
        if len(rest) == 1:
            rest += self._input()
        if not rest:
            return False
        self._raw = rest
        # A new member, or (not starting as one) plain octets; one lone octet that could
        # start a member is read as a cut member.
        self._z = _ZLIB.decompressobj(31) if _GZIP.startswith(rest[:2]) else None
        self._buf, self._at = b"", 0
        return True

    def readline(self, limit: int) -> bytes:
        """One line (its "\\n" included), at most ``limit`` octets; b"" at the end."""
        while True:
            at = self._at
            found = self._buf.find(b"\n", at, at + limit)
            if found >= 0:
                end = found + 1
                break
            if len(self._buf) - at >= limit:
                end = at + limit
                break
            if not self._fill():
                end = len(self._buf)
                break
        line = self._buf[self._at:end]
        self._at = end
        return line

    def unread(self, line: bytes) -> None:
        """Give back the line :meth:`readline` has just returned."""
        self._at -= len(line)

    def header_block(self, limit: int) -> Optional[bytes]:
        """The octets up to and including the next ``CRLF CRLF`` when they are at most
        ``limit`` long (more octets are inflated or read to find it: a record's header block
        starts its gzip member, whose octets are not yet at hand); None otherwise (a fast
        path: the caller then reads line by line, the octets still unread)."""
        while True:
            at = self._at
            end = self._buf.find(b"\r\n\r\n", at, at + limit)
            if end >= 0:
                break
            if len(self._buf) - at >= limit or not self._fill():
                return None
        if end + 4 - at > limit:
            return None
        self._at = end + 4
        return self._buf[at:end + 4]

    def peek(self, size: int) -> bytes:
        """At most ``size`` octets, left unread (fewer only at the end of the member or
        file)."""
        while len(self._buf) - self._at < size and self._fill():
            pass
        return self._buf[self._at:self._at + size]

    def skip(self, size: int) -> int:
        """Pass over at most ``size`` octets (fewer only at the end of the member or file)
        without keeping them: how many."""
        left = size
        while True:
            have = len(self._buf) - self._at
            if have >= left:
                self._at += left
                return size
            left -= have
            self._buf, self._at = b"", 0
            more = self._more()
            if not more:
                return size - left
            self._buf = more

    def read(self, size: int) -> bytes:
        """At most ``size`` octets (fewer only at the end of the member or file)."""
        at = self._at
        if len(self._buf) - at >= size:
            self._at = at + size
            return self._buf[at:at + size]
        parts = [self._buf[at:]]
        got = len(parts[0])
        self._buf, self._at = b"", 0
        while got < size:
            more = self._more()
            if not more:
                break
            if got + len(more) > size:
                take = size - got
                parts.append(more[:take])
                self._buf, self._at = more, take
                got = size
                break
            parts.append(more)
            got += len(more)
        return b"".join(parts)


class _Block:
    """A record's block: the octets its ``Content-Length`` promises (``limit`` of them still
    unread; ``None`` when it has no usable one: then up to the end of the member or file)."""

    __slots__ = ("_got", "_octets", "limit")

    def __init__(self, octets: _Octets, length: Optional[int]) -> None:
        self._octets = octets
        self.limit = length
        self._got = 0

    def read(self, size: int = -1) -> bytes:
        left = self.limit
        if left is not None:
            size = left if size < 0 else min(size, left)
        elif size < 0:
            size = 1 << 62
        if size == 0:
            return b""
        data = self._octets.read(size)
        self._got += len(data)
        if left is not None:
            self.limit = left - len(data)
        return data

    def peek(self, size: int) -> bytes:
        """At most ``size`` octets of the block, left unread."""
        left = self.limit
        if left is not None:
            size = min(size, left)
        return self._octets.peek(size) if size > 0 else b""

    def skip(self) -> int:
        """Pass over the rest of the block without keeping it: the octets passed over."""
        left = self.limit
        done = self._octets.skip(1 << 62 if left is None else left)
        self._got += done
        if left is not None:
            self.limit = left - done
        return done

    def tell(self) -> int:
        return self._got


class _WarcHeaders:
    """A record's WARC header fields, looked up as warcio does (the first field of a name,
    in any case)."""

    __slots__ = ("_first", "headers")

    def __init__(self, headers: List[Tuple[str, str]]) -> None:
        self.headers = headers
        first: Dict[str, str] = {}
        for key, value in reversed(headers):
            first[key.lower()] = value
        self._first = first

    def get_header(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self._first.get(name.lower(), default)


class _Record:
    """One WARC record as the readers below use it (the part of warcio's record they read)."""

    __slots__ = ("raw_stream", "rec_headers", "rec_type")

    def __init__(self, headers: _WarcHeaders, stream: _Block) -> None:
        self.rec_headers = headers
        self.rec_type = headers.get_header("WARC-Type")
        self.raw_stream = stream


def _text(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1")


class _WarcReader:
    """The records of a WARC file, framed as warcio frames them (the same records, blocks and
    problems for every file the tests and the hostile set hold), in plain Python over
    :class:`_Octets`: a record's header block is read within :data:`MAX_WARC_HEAD` octets;
    its block is its ``Content-Length`` (an invalid or negative one counts as 0, none reads to
    the end of the member or file); after it, blank lines are skipped, and a line that is
    not blank where the blank line should be is counted in :attr:`err_count` and dropped;
    a gzip member that holds more than one record stops the file (an error), as with warcio.
    """

    def __init__(self, octets: _Octets) -> None:
        self.octets = octets
        self.err_count = 0
        self.cut: Optional[str] = None

    def _line(self, budget: int) -> bytes:
        line = self.octets.readline(budget + 1)
        if len(line) > budget:
            raise ValueError(f"a WARC record header longer than {MAX_WARC_HEAD:,} octets")
        return line

    def _fields(self) -> Optional[Tuple[str, List[Tuple[str, str]]]]:
        """The common case at once: a header block already at hand, UTF-8, one field a line,
        no continuation or blank line before its end (``None``: read it line by line)."""
        octets = self.octets
        block = octets.header_block(MAX_WARC_HEAD)
        if block is None:
            return None
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        lines = text.split("\r\n")[:-2]
        if not text or "\n" in text[:-4].replace("\r\n", ""):
            octets.unread(block)
            return None
        status = lines[0].rstrip()
        fields: List[Tuple[str, str]] = []
        for line in lines[1:]:
            line = line.rstrip()
            if not line or line[0] in " \t":
                octets.unread(block)
                return None
            name, colon, value = line.partition(":")
            if colon:
                fields.append((name.rstrip(" \t"), value.lstrip()))
        if not status.upper().startswith(_WARC_VERSIONS):
            octets.unread(block)
            return None
        return status, fields

    def _header(self) -> Optional[_Record]:
        """The next record's header; None at the end of the member or file."""
        fast = self._fields()
        if fast is not None:
            return self._record(*fast)
        budget = MAX_WARC_HEAD
        first = self._line(budget)
        budget -= len(first)
        if not first:
            return None
        status = _text(first).rstrip()
        if status and not status.upper().startswith(_WARC_VERSIONS):
            raise ValueError(f"not a WARC record, first line: {status[:100]!r}")
        fields: List[Tuple[str, str]] = []
        if status:  # warcio reads a blank first line as a record without fields
            line = self._line(budget)
            budget -= len(line)
            text = _text(line).rstrip()
            while text:
                name, colon, value = text.partition(":")
                line = self._line(budget)
                budget -= len(line)
                following = _text(line).rstrip()
                while following.startswith((" ", "\t")):  # a continuation line
                    value += following
                    line = self._line(budget)
                    budget -= len(line)
                    following = _text(line).rstrip()
                if colon:
                    fields.append((name.rstrip(" \t"), value.lstrip()))
                text = following
        return self._record(status, fields)

    def _record(self, status: str, fields: List[Tuple[str, str]]) -> _Record:
        headers = _WarcHeaders(fields)
        uri = headers.get_header("WARC-Target-URI")
        if uri is not None and ((uri.startswith("<") and uri.endswith(">")) or " " in uri):
            fixed = uri[1:-1] if uri.startswith("<") and uri.endswith(">") else uri
            for i, (key, _) in enumerate(fields):  # as warcio rewrites it
                if key.lower() == "warc-target-uri":
                    fields[i] = (key, fixed.replace(" ", "%20"))
                    break
            headers = _WarcHeaders(fields)
        length: Optional[int] = None
        written = headers.get_header("Content-Length") if status else None
        if written is not None:
            try:
                length = int(written)
            except ValueError:
                length = 0
            length = length if length >= 0 else 0
        return _Record(headers, _Block(self.octets, length))

    def _after(self) -> bool:
        """Skip the blank lines after a record's block: whether a line that is not blank
        follows (a following record's first line, left to be read), False at the end of
        the member or file."""
        first = True
        while True:
            line = self.octets.readline(MAX_WARC_HEAD + 1)
            if not line:
                return False
            if line.rstrip() and not first:
                self.octets.unread(line)
                return True
            if line.rstrip():
                self.err_count += 1  # not the blank line a record ends with
                while not line.endswith(b"\n") and line:  # drop the rest of a long line
                    line = self.octets.readline(MAX_WARC_HEAD + 1)
            first = False

    def __iter__(self) -> Iterator[_Record]:
        invalid = False
        while True:
            record = self._header()
            more = False
            if record is not None:
                if invalid:
                    raise ValueError("a gzip member holds more than one record")
                yield record
                record.raw_stream.skip()
                more = self._after()
            if self.octets.gzip:
                if not more and self.octets.next_member():
                    continue
                if record is None:
                    break
                invalid = True
            elif record is None:
                break
        self.cut = self.octets.cut


class _Replay:
    """A file object that gives ``start`` again, then the rest of ``handle``."""

    def __init__(self, start: bytes, handle: Any) -> None:
        self._start = start
        self._handle = handle

    def read(self, size: int = -1) -> bytes:
        if self._start:
            if size is None or size < 0:
                data: bytes = self._start + self._handle.read()
                self._start = b""
                return data
            data, self._start = self._start[:size], self._start[size:]
            return data
        return bytes(self._handle.read(size))


def _is_warc(start: bytes) -> bool:
    """Whether a file whose first octets are ``start`` is a WARC file (plain or gzip'd)
    that :class:`_WarcReader` reads; anything else (ARC files) is left to warcio."""
    probe = start
    if start[:2] == _GZIP:
        try:
            probe = zlib.decompressobj(31).decompress(start, 16)
        except zlib.error:
            return False
    return probe[:5].upper() == b"WARC/"


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
    archive: Union[_WarcReader, _Archive]
    try:
        start = bytes(handle.read(_READ))
        if _READER == "lean" and _is_warc(start):
            archive = _WarcReader(_Octets(handle, start))
        else:
            archive = _Archive(_Replay(start, handle))
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
    if isinstance(raw, _Block):  # the lean reader's: passed over, not copied
        drained = raw.skip()
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


_BLANK_LINE = re.compile(rb"\n\r*\n")
_HTTP_PEEK = 4096  # octets of a record block looked at first for its HTTP head (< MAX_HTTP_HEAD)


def _http_head(raw: Any) -> Tuple[Optional[str], Tuple[Tuple[str, str], ...], Optional[str],
                                  bytes]:
    """(status code text, header pairs, damage, the payload octets read after the head) of
    the HTTP head at the start of a record block. The head ends at its blank line; a block
    that ends first, or a head longer than :data:`MAX_HTTP_HEAD`, is damage (a head cut
    after its status line has lost the headers that may say no)."""
    if isinstance(raw, _Block):  # the lean reader's: the head read where it lies
        data = raw.peek(_HTTP_PEEK)
        first = data.find(b"\n")
        if first >= 0:
            match = _STATUS_LINE.match(data, 0, first + 1)
            blank = _BLANK_LINE.search(data, first) if match is not None else None
            if match is not None and blank is not None:
                # The status line and the blank line within the first octets: what the
                # reading of MAX_HTTP_HEAD + 1 octets below finds (each is the leftmost),
                # with the payload left unread instead of copied.
                raw.read(blank.end())
                fields = header_block(data[first + 1:blank.start() + 1])
                return (match.group(1).decode("latin-1"),
                        tuple((field.name, field.value) for field in fields), None, b"")
    data = raw.read(MAX_HTTP_HEAD + 1)  # short only where the block ends
    first = data.find(b"\n", 0, MAX_HTTP_HEAD)
    line_end = first + 1 if first >= 0 else min(len(data), MAX_HTTP_HEAD + 1)
    if line_end > MAX_HTTP_HEAD:
        return None, (), f"an HTTP head longer than {MAX_HTTP_HEAD:,} octets", b""
    match = _STATUS_LINE.match(data, 0, line_end)
    if match is None:
        return None, (), "no HTTP head (the record does not start with a status line)", b""
    blank = _BLANK_LINE.search(data, first) if first >= 0 else None
    if blank is None or blank.end() > MAX_HTTP_HEAD:
        if len(data) > MAX_HTTP_HEAD:
            return None, (), f"an HTTP head longer than {MAX_HTTP_HEAD:,} octets", b""
        return None, (), ("the HTTP head is cut short (the record ends before the blank "
                          "line that ends it)"), b""
    status = match.group(1).decode("latin-1")
    fields = header_block(data[line_end:blank.start() + 1])  # the page layer's one reader
    return (status, tuple((field.name, field.value) for field in fields), None,
            data[blank.end():])


def _read_body(raw: Any, headers: Sequence[Tuple[str, str]], limit: int, start: bytes = b""
               ) -> Tuple[bytes, bool, Optional[str], int]:
    """(body, truncated, damage, payload octets read) of the payload after the HTTP head
    (``start``: its first octets, already read): de-chunked and decoded by the one bounded
    decoder (:mod:`robotsrules._decoder`), at most ``limit`` octets kept; a payload that does
    not end as its coding says is damage."""
    coding = _header(headers, "transfer-encoding") or ""
    chunks = Dechunker() if "chunked" in coding.lower() else None
    decoder = BodyDecoder(_header(headers, "content-encoding"), limit)
    # A body without coding is read at once, up to the octet past the limit (one slice
    # of what was inflated, no joining); coded ones a part at a time, so that a fault
    # past what the decoder keeps is never reached, as before.
    step = limit + 1 if chunks is None and not decoder.kind and decoder.error is None \
        else _DRAIN
    read = 0
    ended = False
    block = start
    while True:
        if not block:
            block = raw.read(step)
            if not block:
                ended = True
                break
        read += len(block)
        data = block if chunks is None else chunks.feed(block)
        block = b""
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


_ORIGINS: Dict[str, str] = {}
_MAX_ORIGINS = 256  # a site's records come together; a few hundred keys cost some 40 KB
_AUTHORITY_END = re.compile(r"[/?#]")  # where urlsplit ends the netloc


def _origin(url: str) -> str:
    """:func:`origin_of` ``url``, remembered by the URL's scheme and authority (the part it
    depends on: a site's records come together); at most :data:`_MAX_ORIGINS` kept (all are
dropped when full: a bound, not an LRU)."""
    text = url.strip()
    scheme = text.find("://")
    if scheme <= 0 or not text[:scheme].isalnum() or any(c in text for c in "\t\r\n"):
        return origin_of(url)
    found = _AUTHORITY_END.search(text, scheme + 3)
    key = text if found is None else text[:found.start()]
    origin = _ORIGINS.get(key)
    if origin is None:
        origin = origin_of(url)
        if len(_ORIGINS) >= _MAX_ORIGINS:
            _ORIGINS.clear()
        _ORIGINS[key] = origin
    return origin


def _response(record: Any, url: str, limit: int,
              body: Callable[[Sequence[Tuple[str, str]]], bool] = lambda headers: True
              ) -> _Response:
    """Read one response record (see :class:`_Response`); when ``body(headers)`` is False
    the payload is left unread (only the record's completeness is checked)."""
    raw = record.raw_stream
    origin = _origin(url)  # InvalidURL: counted as a bad record by the caller
    date = utc(record.rec_headers.get_header("WARC-Date"))
    status, headers, damage, start = _http_head(raw)
    data, truncated, read = b"", False, 0
    wanted = damage is None and body(headers)
    if wanted:
        data, truncated, damage, read = _read_body(raw, headers, limit, start)
    short, drained = _drain(record)
    if not wanted:
        drained += len(start)
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
    value = _header(headers, "content-type")
    essence = (value or "").split(";", 1)[0].strip().lower()
    if essence in _UNKNOWN_TYPES:
        return None
    return is_html(value)


def _page_capture(record: Any, max_bytes: int) -> Optional[PageCapture]:
    url = _target(record)
    if url is None or _is_robots(url):
        return None
    kinds: List[Optional[bool]] = []

    def wanted(headers: Sequence[Tuple[str, str]]) -> bool:
        kinds.append(_page_kind(headers))
        return kinds[0] is not False

    found = _response(record, url, max_bytes, body=wanted)
    status = _status(found.status_text)
    damage = found.damaged
    if damage is None and status is None:
        damage = f"impossible HTTP status {str(found.status_text)[:20]!r}"
    record_id = record.rec_headers.get_header("WARC-Record-ID")
    if damage is not None:
        return PageCapture(url, found.origin, status, found.date, found.headers, None, damage,
                           record_id)
    kind = kinds[0] if kinds else _page_kind(found.headers)
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
