"""Access logs streamed to requests: files, directories and standard input, plain or
compressed, never read whole, every line a request or counted.

Theory of operation. A *source* (a file, each file of a directory in name order, or ``-``
for standard input) is opened and its first bytes tell its compression by their magic
number (:mod:`._streams`: gzip, bzip2, zstd when a zstd module is installed, else plain; a
zstd file with no module to read it is counted as an unknown format, never guessed at). The
decompressed bytes are pulled :data:`CHUNK` bytes at a time, so a compression bomb of one
endless line inflates one chunk at a time and never past the line bound.

:class:`LineSplitter` (sans-I/O: bytes in, lines out) cuts the chunks into lines at LF, CR
LF and a lone CR (CR-only files exist; a CR LF split between two chunks is still one line
end), and turns a line longer than the bound (:data:`MAX_LINE`, 64 KiB) into one
:class:`TooLong` marker without keeping it: its bytes are skipped as they arrive. Lines are
numbered as an editor shows them (for the examples); blank lines are counted, not read.
The first :data:`SNIFF_LINES` lines of a source choose its format (the one that reads the
most of them as requests; a named format skips this), then every line goes through that
format's parser (:mod:`._formats`). A chunk's lines are read together
(:meth:`_Source.take_batch`): Apache/nginx lines from one search of their text joined by
LF (:attr:`~._formats.Clf.lines`, one match per line that reads it: as many matches as
lines, or the chunk is read line by line, which gives the same answers for the lines the
search reads); other lines after one look for control bytes in all of them, then each
line's match. For an Apache/nginx source the splitter first offers a chunk's lines uncut
(:meth:`LineSplitter.block`: the bytes from the line it ends first to its last LF, with
the rest of the line before, already joined by LF) where that gives the same lines (no CR
in or just before the chunk, no line being skipped, the chunk within the line bound, so
that only its first line can be over it, and that one is measured); the lines are cut
apart only if the batch is read line by line or one of them is needed as text (an
example, a time the search hands over). A reader given ``keep`` lets go of the
Apache/nginx lines whose User-Agent it does not keep (most of a log is browsers): such a
line costs its share of the search, its time and one question, and is counted, not
yielded. Memory is one chunk and its lines, and the sniffing window, whatever the number
of lines.

Each line ends as exactly one of: a request (yielded), a header or comment line of the
format, or a counted :data:`~._formats.Problem` with a few examples (control characters
made visible). Two problems are notes on requests that are still yielded: a time earlier
than the latest one before it in the same source by more than ``skew`` (servers write a
line when a request ends, so a slow request's line comes after quicker ones that started
later: Apache's ``%t`` is the request's start), and a missing user agent in a format that
has the field. Nothing here raises on content; a source that cannot be opened raises
:class:`~robotsrules.errors.InvalidArgument`, and one that fails while being read (a cut or
corrupt compressed file) is counted ``damaged``, the requests before the damage kept.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import codecs
import datetime
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import (
    IO,
    Any,
    BinaryIO,
    Callable,
    Final,
    Optional,
    Union,
    cast,
)

from .._terminal import visible
from ..errors import InvalidArgument
from ._formats import (
    FORMATS,
    SIBLINGS,
    Clf,
    FormatName,
    Parser,
    Problem,
    Request,
    clf_time,
    is_binary,
    make_parser,
    passes,
    scan_token,
)
from ._streams import CHUNK, ERRORS, Readable, open_log

__all__ = [
    "CHUNK",
    "MAX_LINE",
    "SNIFF_LINES",
    "LineSplitter",
    "LogReader",
    "Readable",
    "Tally",
    "TooLong",
    "open_log",
]

MAX_LINE: Final = 64 * 1024
"""The longest line read, in bytes; longer lines are counted ``too_long`` and skipped."""
SNIFF_LINES: Final = 16
"""Lines of a source read before its format is chosen."""
_NEVER: Final = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)
EXAMPLES: Final = 3
EXAMPLE_CHARS: Final = 200

Source = Union[str, "os.PathLike[str]", BinaryIO]


# A JSON log with bytes that are not UTF-8 (nginx's escape=json writes bytes from 0x80 up
# raw): each such byte becomes %hh (as rules encode it: RFC 9309 §2.2.2; a request
# target "/caf\xe9" is "/caf%E9", never text that no rule matches).
def _json_escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start:error.end]
    return "".join(f"%{byte:02X}" for byte in bad), error.end


_JSON_ERRORS: Final = "robotsrules-json-backslash"
codecs.register_error(_JSON_ERRORS, _json_escape)


class TooLong:
    """A line over the bound, of which only the first bytes were kept (for the example)."""

    __slots__ = ("head",)

    def __init__(self, head: bytes) -> None:
        self.head = head


class LineSplitter:
    """Byte chunks in, lines out (sans-I/O): ``feed`` returns the lines a chunk completes,
    ``close`` the unterminated last one. A line is ``bytes`` without its end (``b""`` for
    a blank line), or a :class:`TooLong` marker."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping: Optional[bytes] = None  # the head of the line being skipped
        self._after_cr = False  # the last chunk ended with CR: a LF first is its CR LF

    def _line(self, piece: bytes, out: list[Union[bytes, TooLong]]) -> None:
        if self._skipping is not None:
            out.append(TooLong(self._skipping))
            self._skipping = None
        elif len(self._buffer) + len(piece) > self.max_line:
            out.append(TooLong(bytes(self._buffer[:EXAMPLE_CHARS]) or piece[:EXAMPLE_CHARS]))
        elif self._buffer:
            self._buffer += piece
            out.append(bytes(self._buffer))
        else:
            out.append(piece)
        self._buffer.clear()

    def feed(self, chunk: bytes) -> list[Union[bytes, TooLong]]:
        """The lines ``chunk`` ends (the rest is kept, up to the bound)."""
        if not chunk:  # nothing: a CR before it still pairs with an LF after it
            return []
        if self._after_cr and chunk[:1] == b"\n":
            chunk = chunk[1:]
        self._after_cr = chunk[-1:] == b"\r"
        if b"\r" in chunk:  # CR LF and a lone CR end lines too (CR-only files exist)
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        pieces = chunk.split(b"\n")
        rest = pieces.pop()
        out: list[Union[bytes, TooLong]] = []
        if pieces:
            # the first piece ends the line kept from the chunks before; the others are
            # whole lines, taken as they are unless one is over the bound
            self._line(pieces[0], out)
            if len(pieces) > 1:
                if max(map(len, pieces)) <= self.max_line:
                    out += pieces[1:]
                else:
                    for piece in pieces[1:]:
                        self._line(piece, out)
        if self._skipping is None and len(self._buffer) + len(rest) > self.max_line:
            self._skipping = (bytes(self._buffer) + rest[:EXAMPLE_CHARS])[:EXAMPLE_CHARS]
            self._buffer.clear()
        elif self._skipping is None:
            self._buffer += rest
        return out

    def block(self, chunk: bytes) -> Optional[tuple[int, bytes]]:
        """:meth:`feed` without cutting the lines apart, where that is sure to give the
        same lines: the number of lines ``chunk`` ends and their bytes joined by LF (as
        ``b"\\n".join(feed(chunk))`` would give them), or ``None``, nothing taken, when
        it is not sure: a CR anywhere (or one before ``chunk``), a line being skipped, no
        LF in ``chunk``, ``chunk`` longer than the bound (a line inside it could be over
        it) or its first line over it."""
        if self._after_cr or self._skipping is not None or len(chunk) > self.max_line \
                or b"\r" in chunk:
            return None
        first = chunk.find(b"\n")
        if first < 0 or len(self._buffer) + first > self.max_line:
            return None
        last = chunk.rfind(b"\n")
        if self._buffer:
            self._buffer += chunk[:last]
            lines = bytes(self._buffer)
            self._buffer.clear()
        else:
            lines = chunk[:last]
        self._buffer += chunk[last + 1:]  # shorter than the chunk: within the bound
        return lines.count(b"\n") + 1, lines

    def close(self) -> Optional[Union[bytes, TooLong]]:
        """The last line if the input did not end with a line end, else ``None``."""
        if self._skipping is not None:
            head, self._skipping = self._skipping, None
            return TooLong(head)
        if not self._buffer:
            return None
        line = bytes(self._buffer)
        self._buffer.clear()
        return line


class Tally:
    """What the reader counted: lines, requests, header lines, blank lines, and problems by
    kind, with up to ``examples`` examples each (``source:line: text``, control characters
    made visible, cut to 200 characters)."""

    def __init__(self, examples: int = EXAMPLES) -> None:
        self.examples_kept = examples
        self.lines = 0
        self.octets = 0
        """Octets read from the files (as stored: compressed ones before decompression)."""
        self.requests = 0
        self.comments = 0
        self.blank = 0
        self.sources = 0
        self.formats: dict[str, str] = {}
        self.problems: dict[Problem, int] = {}
        self.examples: dict[Problem, list[str]] = {}
        self.crawler_lines_unread = 0
        """Lines naming a registry crawler that gave no request (the audit is incomplete)."""
        self.passed = 0
        """Requests counted but not yielded: the reader's ``keep`` let them go."""
        self.matched = 0
        """Lines read from their batch's one search (Apache/nginx lines in batches whose
        every line the format's pattern matches); the others were read one at a time."""

    def count(self, kind: Problem, where: str, text: Union[str, Callable[[], str]]) -> None:
        """One more ``kind``; ``text`` (or what it makes, called only when an example is
        still wanted) kept as an example while fewer than ``examples`` are."""
        self.problems[kind] = self.problems.get(kind, 0) + 1
        kept = self.examples.setdefault(kind, [])
        if len(kept) < self.examples_kept:
            shown = text if isinstance(text, str) else text()
            kept.append(visible(f"{where}: {shown[:EXAMPLE_CHARS]}"))

    @property
    def dropped(self) -> int:
        """Lines that gave no request (every problem but the two notes)."""
        return sum(n for kind, n in self.problems.items()
                   if kind not in ("clock_backwards", "missing_user_agent"))


class _Counted:
    """A file whose octets read are counted in a :class:`Tally` (for progress)."""

    def __init__(self, handle: IO[bytes], tally: Tally) -> None:
        self._handle = handle
        self._tally = tally
        self.name = handle.name

    def read(self, size: int = -1, /) -> bytes:
        data = self._handle.read(size)
        self._tally.octets += len(data)
        return data


class LogReader:
    """Requests from access logs, streamed; what could not be read is in :attr:`tally`.

    ``format`` names the format of every source (else each source's first lines choose
    it); ``fields`` maps nginx JSON fields to the site's keys; ``max_line`` bounds a line
    in bytes; ``skew`` is how far back a line's time may go before it is counted
    ``clock_backwards``. ``keep``, when given, is asked about the User-Agent of each
    Apache or nginx (``common``/``combined`` family) line whose request cannot be a
    ``/robots.txt`` fetch and whose fields hold no escape: a request it does not keep is
    counted (:attr:`Tally.requests`, :attr:`Tally.passed`, its time for
    ``clock_backwards``) and not yielded, nothing more of its line read.
    """

    def __init__(self, format: Optional[FormatName] = None, *,
                 fields: Optional[Mapping[str, str]] = None, max_line: int = MAX_LINE,
                 examples: int = EXAMPLES,
                 skew: datetime.timedelta = datetime.timedelta(minutes=1),
                 keep: Optional[Callable[[str], bool]] = None) -> None:
        # an unknown format or nginx JSON field fails here, not in the middle of a log
        make_parser(format or "nginx_json", fields)
        if max_line < 1:
            raise InvalidArgument(f"max_line must be positive, not {max_line}")
        self.format = format
        self.fields = fields
        self.max_line = max_line
        self.skew = skew
        self.keep = keep
        self.tally = Tally(examples)

    # -- sources ------------------------------------------------------------------------

    def read(self, sources: Iterable[Source]) -> Iterator[Request]:
        """The requests of every source in turn: a path to a file or a directory (its
        files, recursively, in name order), ``"-"`` for standard input, or a binary
        stream."""
        for source in sources:
            if isinstance(source, (str, os.PathLike)):
                if str(source) == "-":
                    yield from self.read_stream(sys.stdin.buffer, "<stdin>")
                    continue
                path = Path(source)
                try:
                    files = sorted(p for p in path.rglob("*") if p.is_file()) \
                        if path.is_dir() else [path]
                except OSError as error:
                    raise InvalidArgument(f"cannot list logs in {path}: {error.strerror}") \
                        from error
                for file in files:
                    try:
                        handle = open(file, "rb")  # noqa: SIM115 (closed below, lazily)
                    except OSError as error:
                        raise InvalidArgument(f"cannot read log {file}: {error.strerror}") \
                            from error
                    with handle:
                        yield from self.read_stream(
                            cast(IO[bytes], _Counted(handle, self.tally)), str(file))
            else:
                yield from self.read_stream(source, getattr(source, "name", "<stream>"))

    def read_stream(self, stream: IO[bytes], name: str) -> Iterator[Request]:
        """The requests of one binary stream, plain or compressed."""
        try:
            compression, data = open_log(stream)
        except ERRORS as error:
            self.tally.sources += 1
            self.tally.count("damaged", name, f"unreadable: {error}")
            return
        if compression == "zstd-unreadable":
            self.tally.sources += 1
            self.tally.count("unknown_format", name, "zstd-compressed, and no zstd module "
                             "(Python 3.14's compression.zstd or backports.zstd) is installed")
            return
        failure: list[str] = []

        def chunks() -> Iterator[bytes]:
            while True:
                try:
                    chunk = data.read(CHUNK)
                except ERRORS as error:
                    failure.append(f"{compression} stream damaged: {error}")
                    return
                if not chunk:
                    return
                yield chunk

        yield from self.read_chunks(chunks(), name, failure)

    # -- the sans-I/O core --------------------------------------------------------------

    def read_chunks(self, chunks: Iterable[bytes], name: str,
                    failure: Optional[list[str]] = None) -> Iterator[Request]:
        """The requests of one source given as byte chunks of any size (a lazy iterable is
        pulled only as far as the requests taken need, plus the sniffing window).
        ``failure``, filled by the chunks' producer when it stopped on an error, turns the
        unfinished last line into a ``damaged`` count."""
        tally = self.tally
        tally.sources += 1
        splitter = LineSplitter(self.max_line)
        state = _Source(self, name)
        window: list[tuple[int, Union[bytes, TooLong]]] = []
        if self.format is not None:
            state.use(self.format)
        decided = self.format is not None
        texts = 0
        for number, lines in _batches(chunks, splitter, failure, state):
            if isinstance(lines, tuple):  # a batch the splitter did not cut (Clf only)
                yield from state.take_joined(number, lines[0], lines[1], None)
                continue
            if decided:
                yield from state.take_batch(number, lines)
                continue
            for index, line in enumerate(lines):
                if decided:
                    yield from state.take_batch(number + index, lines[index:])
                    break
                if line == b"":
                    tally.blank += 1
                    continue
                window.append((number + index + 1, line))
                texts += isinstance(line, bytes)
                if texts < SNIFF_LINES:
                    continue
                state.choose(window)
                decided = True
                for numbered, taken in window:
                    yield from state.take_batch(numbered - 1, [taken])
                window = []
        if window:
            state.choose(window)
            for numbered, taken in window:
                yield from state.take_batch(numbered - 1, [taken])
        if failure:
            tally.count("damaged", f"{name}:{state.last + 1}", failure[0])


def _batches(chunks: Iterable[bytes], splitter: LineSplitter, failure: Optional[list[str]],
             state: _Source
             ) -> Iterator[tuple[int, Union[list[Union[bytes, TooLong]], tuple[int, bytes]]]]:
    """The lines of a chunk stream, chunk by chunk: the number of the lines before them
    (lines are numbered from 1 as an editor shows them) and the lines, blank ones
    included (``b""``), or, once ``state`` reads an Apache/nginx format, where
    :meth:`LineSplitter.block` gives them uncut, their number and their bytes joined by
    LF; the unterminated tail of a damaged stream is withheld (it is the damage)."""
    number = 0
    for chunk in chunks:
        if state.clf is not None:
            block = splitter.block(chunk)
            if block is not None:
                yield number, block
                number += block[0]
                continue
        lines = splitter.feed(chunk)
        if lines:
            yield number, lines
            number += len(lines)
    tail = splitter.close()
    if tail is not None and not failure:
        yield number, [tail]


# C0 controls but tab and LF: a line's text has one exactly when its bytes do (invalid
# UTF-8 is decoded to printable escapes). A batch's lines, joined by LF (a line never holds
# a line end, LF or CR, of its own), have none when deleting them deletes nothing: one pass
# in C, ten times quicker than a regular expression's search
_CONTROL: Final = bytes(range(0x00, 0x09)) + bytes(range(0x0b, 0x20))


class _Source:
    """One source's reading: its parser, the latest time seen, the line count."""

    def __init__(self, reader: LogReader, name: str) -> None:
        self.reader = reader
        self.tally = reader.tally
        self.name = name
        self.parser: Optional[Parser] = None
        self.siblings: list[Parser] = []
        self.has_agent = True
        self.unknown = False
        self.latest: Optional[datetime.datetime] = None
        self.last = 0
        self.clf: Optional[Clf] = None
        """The parser when it is an Apache/nginx one (a batch of its lines is read at once,
        :meth:`take_matched`)."""

    def choose(self, window: list[tuple[int, Union[bytes, TooLong]]]) -> None:
        """The format that reads the most of the window's lines as requests (the first
        in :data:`FORMATS` order on a tie); none reading any line: an unknown format."""
        texts = [_decode(line) for _n, line in window
                 if isinstance(line, bytes) and not is_binary(_decode(line))]
        best: Optional[FormatName] = None
        best_score = 0
        for name in FORMATS:
            parser = make_parser(name, self.reader.fields)
            score = sum(1 for text in texts if isinstance(parser.parse(text), Request))
            if score > best_score:
                best, best_score = name, score
        if best is None:
            self.unknown = True
            return
        self.use(best)
        self.tally.formats[self.name] = best

    def use(self, name: FormatName) -> None:
        """Read with ``name``, and its family's other formats for lines it cannot read."""
        self.parser = make_parser(name, self.reader.fields)
        self.siblings = [make_parser(other, self.reader.fields)
                         for other in SIBLINGS.get(name, ()) if other != name]
        self.has_agent = name not in ("common", "vhost_common")
        self.clf = self.parser if isinstance(self.parser, Clf) else None

    def lost(self, kind: Problem, where: str, text: str) -> None:
        """A line that gave no request: counted, and noted when it names a crawler."""
        self.tally.count(kind, where, text)
        if scan_token(text) is not None:
            self.tally.crawler_lines_unread += 1

    def take_batch(self, number: int, lines: list[Union[bytes, TooLong]]) -> list[Request]:
        """The requests of consecutive lines, the first of them numbered ``number + 1``;
        every other line counted (blank, header, problem). An Apache/nginx batch whose
        every line its pattern reads (:attr:`Clf.lines`: no control byte either) is read
        from one search of its whole text (:meth:`take_matched`), any other line by line
        (:meth:`take_lines`)."""
        try:
            joined = b"\n".join(cast(list[bytes], lines))
        except TypeError:  # a TooLong among them
            return self.take_lines(number, lines, False)
        return self.take_joined(number, len(lines), joined, cast(list[bytes], lines))

    def take_joined(self, number: int, count: int, joined: bytes,
                    lines: Optional[list[bytes]]) -> list[Request]:
        """:meth:`take_batch` for ``count`` lines (none a :class:`TooLong`) joined by LF
        in ``joined``; ``lines``: the same lines apart, or ``None`` (cut here if needed)."""
        clf = self.clf
        if clf is not None:
            try:
                found = clf.lines.findall(joined.decode("utf-8"))
            except UnicodeDecodeError:  # read line by line: \xhh for the bad bytes
                found = []
            # a match is one whole line (Clf.lines), so as many as lines: each line read
            if len(found) == count:
                return self.take_matched(number, joined, lines, found)
        # one look for control bytes in the whole batch, most often none
        return self.take_lines(number, cast(list[Union[bytes, TooLong]],
                                            joined.split(b"\n") if lines is None else lines),
                               len(joined.translate(None, _CONTROL)) == len(joined))

    def take_matched(self, number: int, joined: bytes, lines: Optional[list[bytes]],
                     found: list[Any]) -> list[Request]:
        """:meth:`take_lines` for a batch of UTF-8 lines (``joined`` by LF; ``lines``: the
        same apart, or ``None``: cut only if a line is needed) that :attr:`clf`'s batch
        pattern all read (none holds a control byte), ``found`` their groups in order: the
        same requests and counts from the groups, with no match object and no text per
        line. A line whose time cannot be read is handed to :meth:`take_lines` (it counts
        it)."""
        clf = cast(Clf, self.clf)
        tally = self.tally
        keep = self.reader.keep if clf.combined else None
        has_agent = self.has_agent
        skew = self.reader.skew
        latest = self.latest
        out: list[Request] = []
        seen: Optional[str] = None  # the last time field read, and its time
        when = _NEVER
        handed = passed = 0
        for index, groups in enumerate(found):
            number += 1
            stamp = groups[4]
            if stamp != seen:  # consecutive lines often share their second
                try:
                    when = clf_time(stamp)
                except ValueError:  # counted unparsable_time there (no time: no clock)
                    handed += 1
                    if lines is None:
                        lines = joined.split(b"\n")
                    out += self.take_lines(number - 1, [lines[index]], True)
                    continue
                seen = stamp
            if latest is None or when > latest:
                latest = when
            elif latest - when > skew:
                self.latest = latest
                if lines is None:
                    lines = joined.split(b"\n")
                self.clock(when, number, lines[index].decode("utf-8"))
            if keep is not None and passes(groups[5], groups[9], keep):
                passed += 1
                continue
            request = clf.request(groups, when)
            out.append(request)
            if has_agent and request.user_agent is None:
                if lines is None:
                    lines = joined.split(b"\n")
                tally.count("missing_user_agent", f"{self.name}:{number}",
                            lines[index].decode("utf-8"))
        self.latest = latest
        self.last = number
        read = len(found) - handed
        tally.lines += read
        tally.matched += read
        tally.requests += read
        tally.passed += passed
        return out

    def take_lines(self, number: int, lines: list[Union[bytes, TooLong]], clean: bool
                   ) -> list[Request]:
        """The requests of consecutive lines read one by one, the first numbered
        ``number + 1``; ``clean``: no line holds a control byte."""
        tally = self.tally
        out: list[Request] = []
        clf, keep = self.clf, self.reader.keep
        parser = self.parser if not self.unknown else None
        requests = passed = read = 0
        last = self.last
        skew = self.reader.skew
        for line in lines:
            number += 1
            if line.__class__ is not bytes:
                last = number
                read += 1
                tally.count("too_long", f"{self.name}:{number}",
                            _decode(cast(TooLong, line).head) + "...")
                continue
            if not line:
                tally.blank += 1
                continue
            last = number
            read += 1
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                text = _decode(line)
            if not clean and is_binary(text):
                self.lost("binary", f"{self.name}:{number}", text)
                continue
            if parser is None:
                self.lost("unknown_format", f"{self.name}:{number}", text)
                continue
            if clf is not None:
                outcome = clf.parse(text, keep)
                if outcome.__class__ is datetime.datetime:  # a request let go unread
                    passed += 1
                    latest = self.latest
                    if latest is None or outcome > latest:
                        self.latest = outcome
                    elif latest - outcome > skew:
                        self.clock(outcome, number, text)
                    continue
            else:
                outcome = parser.parse(text)
            if outcome == "malformed":
                for sibling in self.siblings:
                    outcome = sibling.parse(text)
                    if isinstance(outcome, Request):
                        break
                else:
                    outcome = "malformed"
            if outcome is None:
                tally.comments += 1
                continue
            if not isinstance(outcome, Request):
                self.lost(cast(Problem, outcome), f"{self.name}:{number}", text)
                continue
            requests += 1
            self.clock(outcome.time, number, text)
            if self.has_agent and outcome.user_agent is None:
                tally.count("missing_user_agent", f"{self.name}:{number}", text)
            out.append(outcome)
        self.last = last
        tally.lines += read
        tally.requests += requests + passed
        tally.passed += passed
        return out

    def clock(self, time: datetime.datetime, number: int, text: str) -> None:
        """Note a request's time: ``clock_backwards`` when it is earlier than the latest
        one before it by more than the skew."""
        latest = self.latest
        if latest is None or time > latest:
            self.latest = time
        elif latest - time > self.reader.skew:  # (latest - skew: past year 1)
            self.tally.count("clock_backwards", f"{self.name}:{number}",
                             lambda: f"{time.isoformat()} after {latest.isoformat()}: {text}")


def _decode(line: bytes) -> str:
    """A line's text: UTF-8, bytes that are not UTF-8 as ``\\xhh`` text (inside a JSON
    object, as ``%hh``)."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        if line[:1] == b"{":
            return line.decode("utf-8", _JSON_ERRORS)
        return line.decode("utf-8", "backslashreplace")
