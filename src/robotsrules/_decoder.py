"""The one body decoder: HTTP content codings (gzip, deflate, br) and chunked transfer coding,
incremental and bounded, for every body robotsrules reads from strangers.

Used by the robots.txt fetch (:mod:`robotsrules._fetch._fetcher`, hence the client integrations
built on it), ``robotsrules page URL``, and the WARC readers (:mod:`robotsrules.warc`,
:mod:`robotsrules.datatrove`). Nothing here performs I/O: octets are fed in as they come.

Theory of operation. A :class:`BodyDecoder` receives the raw body in chunks (:meth:`feed`)
and keeps at most ``limit`` decoded octets, plus one more to tell that the body is longer:

* every decompressor is asked for at most the room left (zlib's ``max_length``; brotli's
  ``output_buffer_limit``, brotli 1.2 or later), so a compression bomb never inflates past
  the limit: memory stays within ``limit`` plus one decoder's window and output block;
* :meth:`finish` says, once the input has ended, whether the body was whole: a gzip,
  deflate or br stream without its end (final block, checksum and length) was cut, and is
  an error, never a shorter body (a cut robots.txt usually allows what the whole file
  disallows); so is a cut chunked body (:class:`Dechunker`);
* a gzip body may hold several members (RFC 1952 §2.2): all are decoded; octets after the
  end of a gzip or deflate stream that start no new member are junk: counted in
  :attr:`BodyDecoder.junk`, and the decoded body is kept. After a br stream they are an
  error (brotli does not tell where in a chunk its stream ended, so they could not be told
  apart from damage the same way for every chunking);
* ``deflate`` is read with its zlib wrapper (RFC 9110 §8.4.1.2) or, as browsers accept,
  without it (raw RFC 1951 data);
* a coding the decoder cannot read (an unknown name, several codings stacked, ``br``
  without the ``brotli`` package 1.2+) is an error: the body is not used.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import zlib
from typing import Any, Optional

__all__ = ["BodyDecoder", "Dechunker", "accept_encoding", "brotli_problem"]

_GZIP_MAGIC = b"\x1f\x8b"
_MAX_CHUNK_LINE = 4096  # a chunk-size line with extensions; longer is not HTTP


def _brotli() -> Any:
    """The ``brotli`` module if it can decode within a bound (1.2+), else None."""
    try:
        import brotli
    except ImportError:
        return None
    decompressor = brotli.Decompressor()
    if not hasattr(decompressor, "can_accept_more_data"):  # brotli < 1.2: no output limit
        return None
    return brotli


def brotli_problem() -> Optional[str]:
    """Why ``br`` bodies cannot be decoded here, or ``None`` when they can."""
    if _brotli() is not None:
        return None
    return "br needs the brotli package, 1.2 or later (pip install 'brotli>=1.2')"


def accept_encoding() -> str:
    """The ``Accept-Encoding`` header value for what this decoder reads."""
    return "gzip, deflate" + (", br" if _brotli() is not None else "")


class BodyDecoder:
    """Collects at most ``limit`` decoded octets of a body with content coding ``encoding``
    (the ``Content-Encoding`` header's value; empty or ``identity``: none). See the module
    docstring for the bounds and for what counts as whole.

    >>> import gzip
    >>> decoder = BodyDecoder("gzip", 5)
    >>> decoder.feed(gzip.compress(b"User-agent: *")), decoder.body, decoder.truncated
    (True, b'User-', True)
    >>> decoder = BodyDecoder("gzip", 100)
    >>> decoder.feed(gzip.compress(b"Disallow: /")[:-4]); decoder.finish(); decoder.error
    False
    'truncated gzip data: the stream has no end'
    """

    def __init__(self, encoding: Optional[str], limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        """Decoded octets kept (at most ``limit + 1``)."""
        self.truncated = False
        """The decoded body is longer than ``limit``; the rest was not decoded."""
        self.error: Optional[str] = None
        """Why the body cannot be used (bad or cut compressed data, unknown coding)."""
        self.junk = 0
        """Octets after the end of the compressed stream (not a new gzip member)."""
        self.raw = 0
        """Octets fed."""
        self.kind = ""
        """The content coding read: ``""``, ``"gzip"``, ``"deflate"`` or ``"br"``."""
        self._zlib: Optional[Any] = None
        self._brotli: Any = None
        self._raw_deflate = False  # "deflate" not yet known to have its zlib header
        self._first = b""  # the octets fed while that is unknown (replayed as raw deflate)
        self._after = b""  # octets after a finished gzip member, until 2 tell what they are
        codings = [c.strip().lower() for c in (encoding or "").split(",")]
        codings = [c for c in codings if c not in ("", "identity")]
        if len(codings) > 1:
            self.error = f"unsupported content-encoding {encoding!r} (several codings)"
        elif codings:
            self._start(codings[0], encoding or "")

    def _start(self, coding: str, encoding: str) -> None:
        if coding in ("gzip", "x-gzip"):
            self.kind = "gzip"
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self.kind = "deflate"
            self._zlib = zlib.decompressobj()
            self._raw_deflate = True
        elif coding == "br":
            self.kind = "br"
            module = _brotli()
            if module is None:
                self.error = f"cannot decode content-encoding br: {brotli_problem()}"
            else:
                self._brotli = module.Decompressor()
        else:
            self.error = f"unsupported content-encoding {encoding!r}"

    @property
    def body(self) -> bytes:
        """The decoded octets, at most ``limit`` of them."""
        # No slice of a whole body, nor a join of one part: the compiled build copies both
        # where pure Python hands the same object back.
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        return data if len(data) <= self.limit else data[: self.limit]

    def feed(self, raw: bytes) -> bool:
        """Add a raw chunk; True when no more is wanted (limit reached, junk, or error)."""
        if self.error is not None:
            return True
        if not raw:
            return False
        self.raw += len(raw)
        if self._brotli is not None:
            return self._decode_br(raw)
        if self._zlib is None:
            room = self.limit - self.size + 1
            return self._add(raw if len(raw) <= room else raw[:room])
        return self._decode_zlib(raw)

    def _add(self, data: bytes) -> bool:
        if data:
            self.parts.append(data)
            self.size += len(data)
        if self.size > self.limit:
            self.truncated = True
            return True
        return False

    def _decode_zlib(self, raw: bytes) -> bool:
        # A loop, not recursion: one chunk may hold thousands of tiny gzip members.
        while raw:
            decoder = self._zlib
            assert decoder is not None
            if decoder.eof:  # octets after the end of a stream: a new member, or junk
                if self.junk:
                    self.junk += len(raw)
                    return True
                self._after += raw
                if len(self._after) < len(_GZIP_MAGIC):
                    return False
                raw, self._after = self._after, b""
                if self.kind == "gzip" and raw.startswith(_GZIP_MAGIC):
                    self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    continue
                self.junk = len(raw)
                return True  # the stream was whole; the rest is not wanted
            room = self.limit - self.size + 1  # one octet more tells that the body is longer
            if self._raw_deflate:
                self._first += raw
            try:
                data = decoder.decompress(raw, room)
            except zlib.error as error:
                if self._raw_deflate:  # "deflate" without its zlib header: start again, raw
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._raw_deflate = False
                    raw, self._first = self._first, b""
                    continue
                self.error = f"bad {self.kind} data: {error}"
                return True
            if self._raw_deflate and (data or len(self._first) >= 2):  # the header passed
                self._raw_deflate = False
                self._first = b""
            if self._add(data):
                return True
            raw = decoder.unused_data if decoder.eof else b""
        return False

    def _decode_br(self, raw: bytes) -> bool:
        decoder = self._brotli
        if decoder.is_finished():  # brotli cannot say where in a chunk its stream ended, so
            # octets after the end are an error wherever the chunks are cut (gzip: junk)
            self.error = "octets after the end of the br stream"
            return True
        try:
            data = decoder.process(raw, output_buffer_limit=self.limit - self.size + 1)
            while True:
                if self._add(data):
                    return True
                if decoder.can_accept_more_data() or decoder.is_finished():
                    return False
                # The output limit was reached: the rest of this input is drained first.
                data = decoder.process(b"", output_buffer_limit=self.limit - self.size + 1)
        except Exception as error:  # brotli.error: the data is not br
            self.error = f"bad br data: {error}"
            return True

    def finish(self) -> None:
        """The input ended normally: check that a compressed stream ended too."""
        if self.error is not None or self.truncated or self.kind == "":
            return
        if self.raw == 0:  # no body at all (a HEAD-like empty answer): nothing was cut
            return
        if self._after:  # one lone octet after the end
            self.junk += len(self._after)
            self._after = b""
        ended = (self._brotli.is_finished() if self._brotli is not None
                 else self._zlib is not None and self._zlib.eof)
        if not ended:
            self.error = f"truncated {self.kind} data: the stream has no end"


class Dechunker:
    """Undoes HTTP/1.1 chunked transfer coding (RFC 9112 §7.1), incrementally: :meth:`feed`
    returns the data octets of the chunks fed so far (never more than were fed), and
    :attr:`done` tells that the last chunk and the trailer section have been read. A chunk
    size that is not hexadecimal, or a size line longer than 4 KiB, sets :attr:`error`.

    >>> chunks = Dechunker()
    >>> chunks.feed(b"5\\r\\nUser-\\r\\n8;x=y\\r\\nagent: *\\r\\n0\\r\\n\\r\\n"), chunks.done
    (b'User-agent: *', True)
    """

    def __init__(self) -> None:
        self.done = False
        self.error: Optional[str] = None
        self._line = b""
        self._left = -1  # octets of chunk data still to come; -1: reading a size line
        self._crlf = False  # the CRLF after a chunk's data is due
        self._trailer = False  # reading the trailer section after the last chunk

    def feed(self, raw: bytes) -> bytes:
        """The chunk data in ``raw`` (to be given to a :class:`BodyDecoder`)."""
        out: list[bytes] = []
        view = memoryview(raw)
        while view and not self.done and self.error is None:
            if self._left > 0:
                take = view[: self._left]
                out.append(bytes(take))
                self._left -= len(take)
                view = view[len(take):]
                if self._left == 0:
                    self._crlf = True
                    self._left = -1
                continue
            end = bytes(view[: _MAX_CHUNK_LINE + 2]).find(b"\n")
            if end < 0:
                self._line += bytes(view)
                view = view[len(view):]
                if len(self._line) > _MAX_CHUNK_LINE:
                    self.error = "a chunk-size line longer than 4 KiB"
                continue
            line = (self._line + bytes(view[:end])).rstrip(b"\r")
            self._line = b""
            view = view[end + 1:]
            if len(line) > _MAX_CHUNK_LINE:
                self.error = "a chunk-size line longer than 4 KiB"
            elif self._crlf:  # the end of a chunk's data: an empty line
                self._crlf = False
                if line:
                    self.error = "chunk data longer than its size"
            elif self._trailer:
                if not line:
                    self.done = True
            else:
                self._size(line)
        return b"".join(out)

    def _size(self, line: bytes) -> None:
        digits = line.split(b";", 1)[0].strip()
        if not digits or digits.strip(b"0123456789abcdefABCDEF"):
            self.error = f"bad chunk size {line[:40]!r}"
            return
        size = int(digits, 16)
        if size == 0:
            self._trailer = True
        else:
            self._left = size
