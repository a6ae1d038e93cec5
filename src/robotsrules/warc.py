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
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import (
    Any,
    BinaryIO,
    Callable,
    Optional,
    Union,
)

import pyarrow as pa
from warcio.archiveiterator import ArchiveIterator

from ._page._html import sniffs_html
from ._scope import join_url
from ._warcread import GZIP as _GZIP
from ._warcread import MAX_HTTP_HEAD, MAX_WARC_HEAD, Capture, PageCapture
from ._warcread import READ_SIZE as _READ
from ._warcread import Octets as _Octets
from ._warcread import WarcReader as _WarcReader
from ._warcread import drain as _drain
from ._warcread import page_capture as _page_capture
from ._warcread import robots_capture as _robots_capture
from .bulk import DEFAULT_PAGE_BATCH_ROWS, page_schema, rank
from .bulk._rows import Rank
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
_READER = "lean"
"""Which reader frames WARC files: ``"lean"`` (:class:`_WarcReader`) or ``"warcio"`` (the
differential tests set it to compare the two)."""


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
    errors: list[str] = field(default_factory=list)
    """A note for each of the first :data:`MAX_NOTES` problems (the rest are only counted
    in :attr:`problems`, so that memory stays bounded whatever a file holds)."""

    def note(self, message: str) -> None:
        """Count a problem; keep its note if fewer than :data:`MAX_NOTES` are kept."""
        self.problems += 1
        if len(self.errors) < MAX_NOTES:
            self.errors.append(message)

    def warnings(self, shown: int = 10) -> list[str]:
        """The first ``shown`` notes, then how many problems more there were (one line each,
        control characters made visible: the notes quote strangers' files)."""
        from ._terminal import visible

        lines = [visible(note) for note in self.errors[:shown]]
        if self.problems > len(lines):
            lines.append(f"{self.problems - len(lines):,} more problems")
        return lines


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
        return _robots_capture(record, limit, all_paths)

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
            archive = _WarcReader(_Octets(handle, start, _ZLIB))
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
    newest: dict[str, Capture] = {}  # by origin
    by_url: dict[str, Capture] = {}  # newest capture of each exact URL (redirect targets)
    for source in sources:
        for capture in iter_captures(source, max_bytes=max_bytes, stats=stats):
            if _better(capture, newest.get(capture.origin)):
                newest[capture.origin] = capture
            if _better(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    return _table((newest[origin] for origin in sorted(newest)), by_url, stats,
                  follow_redirects)


def _table(captures: Iterable[Capture], by_url: dict[str, Capture], stats: WarcStats,
           follow_redirects: bool) -> pa.Table:
    """A robots table with one row per capture, each redirect followed within ``by_url``;
    a damaged capture (or redirect target) becomes an unreachable row, never a file."""
    columns: dict[str, list[Any]] = {name: [] for name in ROBOTS_SCHEMA.names}
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


def _follow(capture: Capture, by_url: dict[str, Capture], stats: WarcStats) -> Capture:
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

# The WHATWG MIME Sniffing Standard (Living Standard, as of 2024), §7.1 "Identifying a
# resource with an unknown MIME type": the HTML signatures, case-insensitive, after leading
# whitespace, each followed by a space or ">"; read only when the type is missing or says
# nothing (``unknown/unknown``, ``application/unknown``, ``*/*``), as browsers and crawlers do.

def iter_pages(source: Union[str, os.PathLike[str], BinaryIO], *,
               max_head_bytes: Optional[int] = None,
               stats: Optional[WarcStats] = None) -> Iterator[PageCapture]:
    """The ``response`` records of one WARC file other than robots.txt, in file order.

    Of an HTML body (by its ``Content-Type``, or, when it has no usable one, sniffed as
    browsers do, :func:`sniffs_html`, or starting with markup: the page layer's
    ``starts_as_markup``, a deliberate deviation) only the first ``max_head_bytes`` (default
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

    Memory stays bounded whatever the size of the WARC files: one run of pages read ahead
    (at most 64, read until their heads hold 4 MiB: under 4 MiB plus one head of at most
    ``max_head_bytes``; reading records in runs, then scanning their heads, is faster than
    taking each in turn) and at most
    ``batch_rows`` rows are held at a time (a batch is cut before the page whose rows would
    make it longer, so it holds at most ``max(batch_rows, len(agents))`` rows). ``robots``
    maps an origin to its parsed :class:`~robotsrules.RobotsTxt` (a dict), or is a
    :class:`robotsrules.bulk.RobotsIndex`, whose rows are parsed on first use with ``mode``
    (a bounded cache: each site's file is parsed once while its pages come together).
    ``check`` is called before each record is read (a stop signal raises from it at once,
    the pages of the run dropped); ``observe`` is
    :func:`robotsrules.bulk.page_batches`' (the manifest's hook). The columns are described
    at :func:`page_table`.
    """
    from .bulk import page_batches as signal_batches

    stats = stats if stats is not None else WarcStats()

    def pages() -> Iterator[PageCapture]:
        for source in sources:
            yield from iter_pages(source, max_head_bytes=max_head_bytes, stats=stats)

    # The stop check runs before each record is read (not again before it is scanned).
    return signal_batches(_read_ahead(pages(), check=check), agents=agents,
                          purposes=purposes, robots=robots, now=now, batch_rows=batch_rows,
                          mode=mode, observe=observe)


_READ_AHEAD_PAGES = 64  # page_batches' docstring states both
_READ_AHEAD_OCTETS = 4 << 20


def _read_ahead(pages: Iterable[PageCapture], *, most: int = _READ_AHEAD_PAGES,
                octets: int = _READ_AHEAD_OCTETS,
                check: Optional[Callable[[], None]] = None) -> Iterator[PageCapture]:
    """``pages`` as they are, in order, read in runs: pages are read until ``most`` are
    read or their heads hold ``octets`` octets or more, and only then handed on, one by one.

    Reading a run of records, then scanning a run of heads, keeps each loop's code warm in
    the processor's caches: read one record, scan it, read the next, and each costs about a
    tenth more (the performance page has the figures). Memory holds one run: at most
    ``most`` heads, and under ``octets`` octets of heads before its last page (so under
    ``octets`` plus one head's bound). ``check`` is called before each page is read, and
    what it raises (a stop) is raised at once. An ``Exception`` raised by ``pages`` is
    raised after the pages read before it are handed on: the consumer sees what it would
    see without reading ahead.
    """
    source = iter(pages)
    ended = False
    while not ended:
        run: list[PageCapture] = []
        size = 0
        failure: Optional[Exception] = None
        while len(run) < most and size < octets:
            if check is not None:
                check()
            try:
                page = next(source, None)
            except Exception as error:  # handed on after the pages read before it
                failure = error
                break
            if page is None:
                ended = True
                break
            run.append(page)
            size += len(page.head) if page.head is not None else 0
        yield from run
        if failure is not None:
            raise failure


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
    from ._tables._purposes import check_purposes

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
    every: list[Capture] = []
    by_url: dict[str, Capture] = {}
    for source in sources:
        for capture in iter_captures(source, max_bytes=max_bytes, stats=stats):
            every.append(capture)
            if _better(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    every.sort(key=lambda c: (c.origin, c.date is not None, c.date or ""))
    return _table(every, by_url, stats, follow_redirects)
