"""The reading of one source as it was (commit 5805bb3): a line at a time, each through
the old parser (:mod:`.old_formats`), over the library's unchanged parts (the tally, the
line-too-long marker, the decoding)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping
from typing import Optional, Union

from robotsrules._audit import _logs as live
from robotsrules._audit._formats import (
    FORMATS,
    SIBLINGS,
    FormatName,
    Parser,
    Problem,
    Request,
    is_binary,
    scan_token,
)
from robotsrules._audit._logs import (
    EXAMPLES,
    MAX_LINE,
    SNIFF_LINES,
    Tally,
    TooLong,
    _decode,
)

from .old_formats import make_parser

__all__ = ["LineSplitter", "LogReader"]


class LineSplitter:
    """The library's splitter with the old feed: a line found at a time (the library's
    splitter held, not subclassed: the compiled build's is a native class, which an
    interpreted one cannot subclass; its buffer keeps the unfinished line as before)."""

    def __init__(self, max_line: int) -> None:
        self.live = live.LineSplitter(max_line)

    def feed(self, chunk: bytes) -> list[Union[bytes, TooLong]]:
        """The lines ``chunk`` ends (the rest is kept, up to the bound)."""
        splitter = self.live
        if splitter._after_cr and chunk[:1] == b"\n":
            chunk = chunk[1:]
        after_cr = chunk[-1:] == b"\r"
        if b"\r" in chunk:  # CR LF and a lone CR end lines too (CR-only files exist)
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        out: list[Union[bytes, TooLong]] = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            splitter._line(chunk[start:end], out)
            start = end + 1
        splitter._after_cr = False
        out += splitter.feed(chunk[start:])  # no line end in it: kept, up to the bound
        splitter._after_cr = after_cr
        return out

    def close(self) -> Optional[Union[bytes, TooLong]]:
        """The last line if the input did not end with a line end, else ``None``."""
        return self.live.close()


class LogReader:
    """The library's reader with the old reading of a source (its options and tally as the
    library's, held rather than inherited: the compiled build's reader is a native class)."""

    def __init__(self, format: Optional[FormatName] = None, *,
                 fields: Optional[Mapping[str, str]] = None, max_line: int = MAX_LINE,
                 examples: int = EXAMPLES,
                 skew: datetime.timedelta = datetime.timedelta(minutes=1)) -> None:
        self.format = format
        self.fields = fields
        self.max_line = max_line
        self.skew = skew
        self.tally = Tally(examples)

    def read_chunks(self, chunks: Iterable[bytes], name: str,
                    failure: Optional[list[str]] = None) -> Iterator[Request]:
        """The requests of one source given as byte chunks of any size (a lazy iterable is
        pulled only as far as the requests taken need, plus the sniffing window).
        ``failure``, filled by the chunks' producer when it stopped on an error, turns the
        unfinished last line into a ``damaged`` count."""
        tally = self.tally
        tally.sources += 1
        splitter = LineSplitter(self.max_line)
        lines = _lines(chunks, splitter, failure, tally)
        state = _Source(self, name)
        window: list[tuple[int, Union[bytes, TooLong]]] = []
        if self.format is not None:
            state.use(self.format)
        decided = self.format is not None
        texts = 0
        for item in lines:
            if not decided:
                window.append(item)
                texts += isinstance(item[1], bytes)
                if texts < SNIFF_LINES:
                    continue
                state.choose(window)
                decided = True
                for number, line in window:
                    yield from state.take(number, line)
                window = []
                continue
            yield from state.take(*item)
        if window:
            state.choose(window)
            for number, line in window:
                yield from state.take(number, line)
        if failure:
            tally.count("damaged", f"{name}:{state.last + 1}", failure[0])


def _lines(chunks: Iterable[bytes], splitter: LineSplitter, failure: Optional[list[str]],
           tally: Tally) -> Iterator[tuple[int, Union[bytes, TooLong]]]:
    """Numbered lines (1-based, numbered as an editor shows them) of a chunk stream,
    blank lines counted in the tally and not yielded; the unterminated tail of a
    damaged stream is withheld (it is the damage)."""
    number = 0
    for chunk in chunks:
        for line in splitter.feed(chunk):
            number += 1
            if line == b"":
                tally.blank += 1
            else:
                yield number, line
    tail = splitter.close()
    if tail is not None and not failure:
        yield number + 1, tail


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

    def lost(self, kind: Problem, where: str, text: str) -> None:
        """A line that gave no request: counted, and noted when it names a crawler."""
        self.tally.count(kind, where, text)
        if scan_token(text) is not None:
            self.tally.crawler_lines_unread += 1

    def take(self, number: int, line: Union[bytes, TooLong]) -> Iterator[Request]:
        tally = self.tally
        tally.lines += 1
        self.last = number
        where = f"{self.name}:{number}"
        if isinstance(line, TooLong):
            tally.count("too_long", where, _decode(line.head) + "...")
            return
        text = _decode(line)
        if is_binary(text):
            self.lost("binary", where, text)
            return
        if self.unknown or self.parser is None:
            self.lost("unknown_format", where, text)
            return
        outcome = self.parser.parse(text)
        if outcome == "malformed":
            for sibling in self.siblings:
                outcome = sibling.parse(text)
                if isinstance(outcome, Request):
                    break
            else:
                outcome = "malformed"
        if outcome is None:
            tally.comments += 1
            return
        if not isinstance(outcome, Request):
            self.lost(outcome, where, text)
            return
        tally.requests += 1
        if self.latest is None or outcome.time > self.latest:
            self.latest = outcome.time
        elif outcome.time < self.latest - self.reader.skew:
            latest = self.latest
            tally.count("clock_backwards", where,
                        lambda: f"{outcome.time.isoformat()} after {latest.isoformat()}: {text}")
        if self.has_agent and outcome.user_agent is None:
            tally.count("missing_user_agent", where, text)
        yield outcome


