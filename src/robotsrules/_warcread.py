"""WARC reading in one room (issues 27 and 34): the lean WARC reader, the records it gives
(:class:`Capture`, :class:`PageCapture`) and the reading of one ``response`` record, with
neither pyarrow nor warcio, so that the compiled build compiles it (``setup.py``);
:mod:`robotsrules.warc` is the public face, the warcio fallback (ARC files) and the tables.

:class:`WarcReader` frames WARC files over :class:`Octets` (plain, or gzip members inflated in
bounded steps) as warcio frames them; :func:`read_response_record` reads a record's HTTP head
and bounded payload (from the lean reader's records or warcio's alike), and the two record
readers make a capture of it: :func:`robots_capture` (a robots.txt) and :func:`page_capture`
(a page). Pure: no network, no files but the handle given.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import datetime
import re
import zlib
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, Optional
from urllib.parse import urlsplit

from ._dates import utc
from ._decoder import BodyDecoder, Dechunker
from ._page._headers import header_pairs
from ._page._html import html_type, starts_as_markup
from ._scope import memo_origin

__all__ = ["DRAIN_SIZE", "GZIP", "INFLATE_SIZE", "MAX_HTTP_HEAD", "MAX_WARC_HEAD", "READ_SIZE",
           "Block", "Capture", "Octets", "PageCapture", "ResponseRecord", "WarcReader", "drain",
           "header_value", "is_robots", "page_capture", "page_kind", "read_response_record",
           "robots_capture", "status_code", "target_uri"]

MAX_HTTP_HEAD = 64 * 1024
"""Octets of a record's HTTP status line and headers read; a longer head is damage."""
MAX_WARC_HEAD = 1 << 20
"""Octets of a record's WARC header block read; a longer one ends the file (a problem)."""
DRAIN_SIZE = 1 << 16
"""Octets read at a time where a payload is read in parts."""


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


class PageCapture(NamedTuple):
    """One captured response: its URL, status, date, every header and the head of its body."""

    url: str
    origin: str
    status: Optional[int]
    date: Optional[datetime.datetime]
    headers: tuple[tuple[str, str], ...]
    head: Optional[bytes]
    """The first bytes of an HTML body (``None`` for other content types)."""
    damaged: Optional[str] = None
    """Why the record is not a whole response (``None``: it is): its signals are unknown,
    never "nothing stated" (a cut record may have lost the header or tag that says no)."""
    record_id: Optional[str] = None
    """The record's ``WARC-Record-ID``."""
    truncated: bool = False
    """The body went on past ``head`` (only its first ``max_head_bytes`` were kept): a head
    that runs to the end of ``head`` is cut (:attr:`robotsrules.PageSignals.head_cut`)."""


def is_robots(url: str) -> bool:
    """Whether ``url``'s path is ``/robots.txt``."""
    if "/robots.txt" not in url:  # the path is "/robots.txt" only where the URL holds it
        return False
    try:
        return urlsplit(url).path == "/robots.txt"
    except ValueError:
        return False


GZIP = b"\x1f\x8b"
READ_SIZE = 1 << 16  # octets read from the file at a time
INFLATE_SIZE = 1 << 20  # octets inflated at a time, whatever the compression ratio
_WARC_VERSIONS = ("WARC/1.1", "WARC/1.0", "WARC/0.17", "WARC/0.18")


class Octets:
    """The octets of a WARC file: plain, or gzip members inflated one at a time.

    Reads stop at the end of the current gzip member (a record of a gzip'd WARC is its own
    member, as warcio reads it); :meth:`next_member` moves on. Inflating is bounded: at most
    :data:`INFLATE_SIZE` octets at a time, so a bomb member costs time, never memory. Octets that
    follow the last gzip member and do not start a new one are read as plain octets (warcio
    does the same), so they are reported as whatever they parse as.
    """

    __slots__ = ("_at", "_buf", "_ended", "_handle", "_inflater", "_raw", "_z", "cut")

    def __init__(self, handle: Any, start: bytes, inflater: Any = zlib) -> None:
        self._handle = handle
        self._inflater = inflater
        self._raw = start  # octets read from the file and not yet inflated or used
        self._z: Any = inflater.decompressobj(31) if start[:2] == GZIP else None
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
        data = self._handle.read(READ_SIZE)
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
            out: bytes = z.decompress(data, INFLATE_SIZE)  # zlib.error: the caller's problem
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
        self._z = self._inflater.decompressobj(31) if GZIP.startswith(rest[:2]) else None
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
        buf = self._buf
        if len(buf) - at >= size:
            self._at = at + size
            # The whole buffer as it is (compiled, a slice is always a copy).
            return buf if at == 0 and size == len(buf) else buf[at:at + size]
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


class Block:
    """A record's block: the octets its ``Content-Length`` promises (``limit`` of them still
    unread; ``None`` when it has no usable one: then up to the end of the member or file)."""

    __slots__ = ("_got", "_octets", "limit")

    def __init__(self, octets: Octets, length: Optional[int]) -> None:
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

    def __init__(self, headers: list[tuple[str, str]]) -> None:
        self.headers = headers
        first: dict[str, str] = {}
        for key, value in reversed(headers):
            first[key.lower()] = value
        self._first = first

    def get_header(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self._first.get(name.lower(), default)


class _Record:
    """One WARC record as the readers below use it (the part of warcio's record they read)."""

    __slots__ = ("raw_stream", "rec_headers", "rec_type")

    def __init__(self, headers: _WarcHeaders, stream: Block) -> None:
        self.rec_headers = headers
        self.rec_type = headers.get_header("WARC-Type")
        self.raw_stream = stream


def _text(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1")


class WarcReader:
    """The records of a WARC file, framed as warcio frames them (the same records, blocks and
    problems for every file the tests and the hostile set hold), in plain Python over
    :class:`Octets`: a record's header block is read within :data:`MAX_WARC_HEAD` octets;
    its block is its ``Content-Length`` (an invalid or negative one counts as 0, none reads to
    the end of the member or file); after it, blank lines are skipped, and a line that is
    not blank where the blank line should be is counted in :attr:`err_count` and dropped;
    a gzip member that holds more than one record stops the file (an error), as with warcio.
    """

    def __init__(self, octets: Octets) -> None:
        self.octets = octets
        self.err_count = 0
        self.cut: Optional[str] = None

    def _line(self, budget: int) -> bytes:
        line = self.octets.readline(budget + 1)
        if len(line) > budget:
            raise ValueError(f"a WARC record header longer than {MAX_WARC_HEAD:,} octets")
        return line

    def _fields(self) -> Optional[tuple[str, list[tuple[str, str]]]]:
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
        fields: list[tuple[str, str]] = []
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
        fields: list[tuple[str, str]] = []
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

    def _record(self, status: str, fields: list[tuple[str, str]]) -> _Record:
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
        return _Record(headers, Block(self.octets, length))

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


def drain(record: Any) -> tuple[Optional[str], int]:
    """Read the rest of a record's block: (why it is short of its Content-Length, or None;
    the octets read)."""
    raw = record.raw_stream
    drained = 0
    if isinstance(raw, Block):  # the lean reader's: passed over, not copied
        drained = raw.skip()
    while True:
        block = raw.read(DRAIN_SIZE)
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


def status_code(text: Any) -> Optional[int]:
    """An HTTP status code: three ASCII digits (RFC 9110 §15), else None."""
    if isinstance(text, str) and len(text) == 3 and text.isascii() and text.isdigit():
        value = int(text)
        if value >= 100:
            return value
    return None


_STATUS_LINE = re.compile(rb"HTTP/[0-9]+(?:\.[0-9]+)?[ \t]+(\S*)")


class ResponseRecord:
    """One ``response`` record read: its target, the HTTP head, the decoded body (or its
    first ``limit`` octets) and why it is not whole, if it is not; for a page, ``kind``
    (:func:`page_kind`: True HTML by its type, None no usable type, False another type)."""

    __slots__ = ("body", "damaged", "date", "headers", "kind", "origin", "status_text",
                 "truncated", "url")

    def __init__(self, url: str, origin: str, date: Optional[datetime.datetime],
                 status_text: Optional[str], headers: tuple[tuple[str, str], ...], body: bytes,
                 truncated: bool, damaged: Optional[str], kind: Optional[bool]) -> None:
        self.url = url
        self.origin = origin
        self.date = date
        self.status_text = status_text
        self.headers = headers
        self.body = body
        self.truncated = truncated
        self.damaged = damaged
        self.kind = kind


def header_value(headers: Sequence[tuple[str, str]], name: str) -> Optional[str]:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def target_uri(record: Any) -> Optional[str]:
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


def _http_head(raw: Any) -> tuple[Optional[str], tuple[tuple[str, str], ...], Optional[str],
                                  bytes]:
    """(status code text, header pairs, damage, the payload octets read after the head) of
    the HTTP head at the start of a record block. The head ends at its blank line; a block
    that ends first, or a head longer than :data:`MAX_HTTP_HEAD`, is damage (a head cut
    after its status line has lost the headers that may say no)."""
    if isinstance(raw, Block):  # the lean reader's: the head read where it lies
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
                return (match.group(1).decode("latin-1"),
                        header_pairs(data[first + 1:blank.start() + 1]), None, b"")
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
    return (status, header_pairs(data[line_end:blank.start() + 1]), None,  # the one reader
            data[blank.end():])


def _read_body(raw: Any, headers: Sequence[tuple[str, str]], limit: int, start: bytes = b""
               ) -> tuple[bytes, bool, Optional[str], int]:
    """(body, truncated, damage, payload octets read) of the payload after the HTTP head
    (``start``: its first octets, already read): de-chunked and decoded by the one bounded
    decoder (:mod:`robotsrules._decoder`), at most ``limit`` octets kept; a payload that does
    not end as its coding says is damage."""
    coding = header_value(headers, "transfer-encoding") or ""
    chunks = Dechunker() if "chunked" in coding.lower() else None
    decoder = BodyDecoder(header_value(headers, "content-encoding"), limit)
    # A body without coding is read at once, up to the octet past the limit (one slice
    # of what was inflated, no joining); coded ones a part at a time, so that a fault
    # past what the decoder keeps is never reached, as before.
    step = limit + 1 if chunks is None and not decoder.kind and decoder.error is None \
        else DRAIN_SIZE
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


_ORIGINS: dict[str, str] = {}
_MAX_ORIGINS = 256  # a site's records come together; a few hundred keys cost some 40 KB, so
# the memory a record leaves behind stays bounded (tests/hostile/test_bounds.py)


def read_response_record(record: Any, url: str, limit: int, page: bool = False) -> ResponseRecord:
    """Read one response record (see :class:`ResponseRecord`); with ``page``, the payload of a
    response whose type is not HTML (:func:`page_kind`) is left unread (only the record's
    completeness is checked)."""
    raw = record.raw_stream
    origin = memo_origin(url, _ORIGINS, _MAX_ORIGINS)  # InvalidURL: a bad record
    date = utc(record.rec_headers.get_header("WARC-Date"))
    status, headers, damage, start = _http_head(raw)
    data, truncated, read = b"", False, 0
    kind: Optional[bool] = None
    if page and damage is None and status is not None and status[:1] == "1":
        # An interim response (100 Continue, 103 Early Hints) stored before the final one:
        # the final response's headers, which may say no, are not read, so the page is
        # damage ("not known"), never a page that states nothing (RFC 9110 §15.2).
        damage = (f"an interim {status[:20]!r} response heads the record: the final one is "
                  "not read")
    if page and damage is None:
        kind = page_kind(headers)
    wanted = damage is None and kind is not False
    if wanted:
        data, truncated, damage, read = _read_body(raw, headers, limit, start)
    short, drained = drain(record)
    if not wanted:
        drained += len(start)
    if damage is None and short is not None:
        damage = short
    length = header_value(headers, "content-length")
    if (damage is None and wanted and length is not None and length.strip().isdigit()
            and header_value(headers, "transfer-encoding") is None
            and read + drained < int(length.strip())):
        damage = (f"payload cut short: {read + drained:,} of {int(length.strip()):,} octets "
                  "(HTTP Content-Length)")
    cut = record.rec_headers.get_header("WARC-Truncated")
    if damage is None and cut and wanted and not truncated:
        damage = (f"WARC-Truncated: {cut.strip()[:40]} with only {len(data):,} octets kept "
                  f"(fewer than the {limit:,} read)")
    if damage is not None:
        return ResponseRecord(url, origin, date, status, headers, b"", False, damage, kind)
    return ResponseRecord(url, origin, date, status, headers, data, truncated or bool(cut), None,
                    kind)


def page_kind(headers: Sequence[tuple[str, str]]) -> Optional[bool]:
    """True: HTML by its type; None: no usable type (sniff the body); False: another type.
    Every ``Content-Type`` field is read, joined (Fetch's "extract a MIME type": the last
    valid one decides), as :func:`._headers.content_type` reads them."""
    values = [value for key, value in headers if key.lower() == "content-type"]
    return html_type(", ".join(values) if values else None)  # the page layer's one rule


def page_capture(record: Any, max_bytes: int) -> Optional[PageCapture]:
    """The page a ``response`` record holds (None for other records and robots.txt), the
    first ``max_bytes`` of an HTML body kept."""
    url = target_uri(record)
    if url is None or is_robots(url):
        return None
    found = read_response_record(record, url, max_bytes, True)
    status = status_code(found.status_text)
    damage = found.damaged
    if damage is None and status is None:
        damage = f"impossible HTTP status {str(found.status_text)[:20]!r}"
    record_id = record.rec_headers.get_header("WARC-Record-ID")
    if damage is not None:
        return PageCapture(url, found.origin, status, found.date, found.headers, None, damage,
                           record_id)
    kind = found.kind
    html = kind or (kind is None and starts_as_markup(found.body))
    return PageCapture(url, found.origin, status, found.date, found.headers,
                       found.body if html else None, None, record_id,
                       bool(html and found.truncated))


def robots_capture(record: Any, max_bytes: int, all_paths: bool = False) -> Optional[Capture]:
    """The robots.txt capture a ``response`` record holds (with ``all_paths``: of any URL),
    or None for other records; ``max_bytes`` of its body kept."""
    url = target_uri(record)
    if url is None or not (all_paths or is_robots(url)):
        return None
    found = read_response_record(record, url, max_bytes)
    status = status_code(found.status_text)
    damage = found.damaged
    if damage is None and status is None:
        damage = f"impossible HTTP status {str(found.status_text)[:20]!r}"
    if damage is not None:
        return Capture(url, found.origin, status, found.date, b"", False, None, damage)
    location = header_value(found.headers, "location")
    return Capture(url, found.origin, status, found.date, found.body, found.truncated,
                   location.strip() if location else None)
