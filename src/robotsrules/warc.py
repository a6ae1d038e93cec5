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

from ._scope import join_url, origin_of
from .robotstxt import DEFAULT_MAX_BYTES

__all__ = ["DAMAGED_STATUS", "DEFAULT_PAGE_BATCH_ROWS", "ROBOTS_SCHEMA", "Capture", "PageCapture",
           "WarcStats", "iter_captures", "iter_pages", "page_batches", "page_table",
           "page_table_schema", "read_warc_captures", "read_warcs"]

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
    """Captures that did not arrive whole (see the module docstring); each also has a note
    in :attr:`errors`."""
    errors: List[str] = field(default_factory=list)


def _date(value: Optional[str]) -> Optional[datetime.datetime]:
    """A ``WARC-Date`` (ISO 8601, ``Z``, up to nanoseconds) as an aware UTC datetime."""
    if not value:
        return None
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    if "." in text:  # fromisoformat takes at most 6 fraction digits before 3.11
        head, _, rest = text.partition(".")
        digits = len(rest) - len(rest.lstrip("0123456789"))
        text = f"{head}.{(rest[:digits] + '000000')[:6]}{rest[digits:]}"
    try:
        when = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.astimezone(datetime.timezone.utc)


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
    yield from _open_and_read(source, stats, max_bytes, all_paths, None)


class _Archive(ArchiveIterator):  # type: ignore[misc]  # warcio has no type information
    """warcio's record iterator, noting whether the file ended in the middle of something,
    which warcio passes over quietly: a gzip member without its end, or (plain files) octets
    after the last complete record that are not a whole record (a cut record header)."""

    cut: Optional[str] = None

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
                   max_bytes: int, all_paths: bool,
                   read: Optional[Callable[[Any, int], Any]]) -> Iterator[Any]:
    """Open ``source`` (a path, or a binary file object left open) and yield what
    :func:`_captures` reads from it; a file that cannot be opened is one error in ``stats``."""
    name = source if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "WARC")
    label = os.fspath(name) if isinstance(name, (str, os.PathLike)) else "WARC"
    stats.files += 1
    try:
        handle: BinaryIO = (open(source, "rb") if isinstance(source, (str, os.PathLike))  # noqa: SIM115
                            else source)
    except OSError as error:
        stats.errors.append(f"{label}: {error.strerror or error}")
        return
    try:
        yield from _captures(handle, label, max_bytes, stats, all_paths, read)
    finally:
        if handle is not source:
            handle.close()


def _captures(handle: BinaryIO, label: str, max_bytes: int, stats: WarcStats,
              all_paths: bool, read: Optional[Callable[[Any, int], Any]] = None
              ) -> Iterator[Any]:
    archive = _Archive(handle, arc2warc=True)
    records = iter(archive)
    while True:
        try:
            record = next(records)
        except StopIteration:
            break
        except Exception as error:  # Leniency: garbled or truncated archive: stop this file
            stats.errors.append(f"{label}: unreadable after {stats.records} records: "
                                f"{type(error).__name__}: {error}")
            return
        stats.records += 1
        try:
            capture = (_capture(record, max_bytes, all_paths) if read is None
                       else read(record, max_bytes))
        except Exception as error:  # Leniency: one bad record; the next may be fine
            stats.errors.append(f"{label}: record {stats.records}: {type(error).__name__}: "
                                f"{error}")
            _drain(record)
            continue
        if capture is None:
            short = _drain(record)
            if short:
                stats.errors.append(f"{label}: record {stats.records}: {short}")
            stats.skipped += 1
            continue
        if getattr(capture, "damaged", None):  # page records (iter_pages) carry no such flag
            stats.damaged += 1
            stats.errors.append(f"{label}: record {stats.records} ({capture.url}): damaged: "
                                f"{capture.damaged}; not read as a robots.txt")
        stats.captures += 1
        yield capture
    if archive.cut:
        stats.errors.append(f"{label}: {archive.cut} (cut short?): whatever followed record "
                            f"{stats.records} is lost")


def _drain(record: Any) -> Optional[str]:
    """Read the rest of a record's block; why it is short of its Content-Length, or None."""
    raw = record.raw_stream
    while raw.read(_DRAIN):
        pass
    left = getattr(raw, "limit", None)  # a warcio LimitReader: octets of Content-Length unread
    if not isinstance(left, int) or not callable(getattr(raw, "tell", None)):
        return "no usable Content-Length"
    if left > 0:
        got = raw.tell()
        return f"record cut short: {got:,} of {got + left:,} octets (Content-Length)"
    return None


def _status(text: Any) -> Optional[int]:
    """An HTTP status code: three ASCII digits (RFC 9110 §15), else None."""
    if isinstance(text, str) and len(text) == 3 and text.isascii() and text.isdigit():
        value = int(text)
        if value >= 100:
            return value
    return None


def _capture(record: Any, max_bytes: int, all_paths: bool) -> Optional[Capture]:
    if record.rec_type != "response":
        return None
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
    if not url or not (all_paths or _is_robots(url)):
        return None
    origin = origin_of(url)  # InvalidURL: counted as a bad record by the caller
    date = _date(record.rec_headers.get_header("WARC-Date"))
    http = record.http_headers
    if http is None:
        _drain(record)
        return Capture(url, origin, None, date, b"", False, None, "no HTTP headers")
    raw_status = http.get_statuscode()
    status = _status(raw_status)
    try:
        body = record.content_stream().read(max_bytes + 1)
        damage = _drain(record)
    except Exception as error:  # a payload the decoders cannot read
        damage = f"unreadable HTTP payload: {type(error).__name__}: {error}"
        body = b""
    if damage is None and status is None:
        shown = str(raw_status)[:20]
        damage = f"impossible HTTP status {shown!r}"
    cut = record.rec_headers.get_header("WARC-Truncated")
    if damage is None and cut and len(body) < max_bytes:
        damage = (f"WARC-Truncated: {cut.strip()[:40]} with only {len(body):,} octets kept "
                  f"(fewer than the {max_bytes:,} a parser reads)")
    if damage is not None:
        return Capture(url, origin, status, date, b"", False, None, damage)
    truncated = len(body) > max_bytes or bool(cut)
    location = http.get_header("Location")
    return Capture(url, origin, status, date, body[:max_bytes], truncated,
                   location.strip() if location else None)


def _better(a: Capture, b: Optional[Capture]) -> bool:
    """Whether capture ``a`` should answer instead of ``b``: an intact capture beats a damaged
    one; then the newer one (see :func:`_newer`)."""
    if b is None:
        return True
    if (a.damaged is None) != (b.damaged is None):
        return a.damaged is None
    return _newer(a, b)


def _newer(a: Capture, b: Optional[Capture]) -> bool:
    if b is None:
        return True
    if a.date is None or b.date is None:
        return b.date is None  # a dated capture beats an undated one; later wins ties
    return a.date >= b.date


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


def _page_capture(record: Any, max_bytes: int) -> Optional[PageCapture]:
    from ._page import is_html

    if record.rec_type != "response":
        return None
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
    if not url or _is_robots(url):
        return None
    origin = origin_of(url)  # InvalidURL: counted as a bad record by the caller
    http = record.http_headers
    if http is None:
        raise ValueError(f"no HTTP headers for {url}")
    headers = tuple((str(k), str(v)) for k, v in http.headers)
    head = None
    if is_html(http.get_header("Content-Type")):
        head = record.content_stream().read(max_bytes)
    return PageCapture(url, origin, int(http.get_statuscode()),
                       _date(record.rec_headers.get_header("WARC-Date")), headers, head)


def iter_pages(source: Union[str, os.PathLike[str], BinaryIO], *,
               max_head_bytes: Optional[int] = None,
               stats: Optional[WarcStats] = None) -> Iterator[PageCapture]:
    """The ``response`` records of one WARC file other than robots.txt, in file order.

    Of an HTML body only the first ``max_head_bytes`` (default
    :data:`robotsrules._page.DEFAULT_HEAD_BYTES`) are read; other bodies are not read.
    Problems are counted in ``stats``, never raised.
    """
    from ._page import DEFAULT_HEAD_BYTES

    stats = stats if stats is not None else WarcStats()
    limit = DEFAULT_HEAD_BYTES if max_head_bytes is None else max_head_bytes
    yield from _open_and_read(source, stats, limit, True, _page_capture)


def page_table_schema(purposes: Sequence[str] = ()) -> pa.Schema:
    """The columns of :func:`page_table`: one nullable boolean per purpose at the end."""
    from ._purposes import column_name

    return pa.schema([
        pa.field("url", pa.string()),
        pa.field("agent", pa.string()),
        pa.field("status", pa.int32()),
        pa.field("date", pa.timestamp("us", tz="UTC")),
        pa.field("crawl_allowed", pa.bool_()),
        pa.field("index", pa.bool_()),
        pa.field("follow", pa.bool_()),
        pa.field("noai", pa.bool_()),
        pa.field("tdm_reservation", pa.int8()),
        *(pa.field(column_name(p), pa.bool_()) for p in purposes),
    ])


DEFAULT_PAGE_BATCH_ROWS = 1024
"""Rows per batch of :func:`page_batches` (a page gives one row per agent)."""


def page_batches(sources: Iterable[Union[str, os.PathLike[str], BinaryIO]], *,
                 agents: Sequence[str], purposes: Sequence[str] = (),
                 robots: Any = None, max_head_bytes: Optional[int] = None,
                 stats: Optional[WarcStats] = None, now: Optional[datetime.datetime] = None,
                 batch_rows: int = DEFAULT_PAGE_BATCH_ROWS, mode: Any = "google",
                 check: Optional[Callable[[], None]] = None) -> Iterator[pa.RecordBatch]:
    """Page signals of every response record as a stream of Arrow batches
    (:func:`page_table_schema`), one row per (URL, agent), in file order.

    Memory stays bounded whatever the size of the WARC files: one record's head and at most
    ``batch_rows`` rows are held at a time (a batch is cut before the page whose rows would
    make it longer, so it holds at most ``max(batch_rows, len(agents))`` rows). ``robots``
    maps an origin to its parsed :class:`~robotsrules.RobotsTxt` (a dict), or is a
    :class:`robotsrules.bulk.RobotsIndex`, whose rows are parsed on first use with ``mode``
    (a bounded cache: each site's file is parsed once while its pages come together).
    ``check`` is called before each record (a stop signal raises from it). The columns are
    described at :func:`page_table`.
    """
    from ._agents import agent_tokens
    from ._page import check_purposes, combine, page_signals_for
    from .bulk import BodyCache, RobotsIndex, host_key
    from .errors import InvalidArgument

    for agent in agents:
        agent_tokens(agent)
    if batch_rows < 1:
        raise InvalidArgument("batch_rows must be at least 1")
    chosen = list(check_purposes(purposes))
    schema = page_table_schema(chosen)
    names = schema.names
    index = robots if isinstance(robots, RobotsIndex) else None
    parsed = BodyCache(mode=mode) if index is not None else None
    stats = stats if stats is not None else WarcStats()

    def site_of(page: PageCapture) -> Any:
        if robots is None:
            return None
        if index is None or parsed is None:
            return robots.get(page.origin)
        row = index.get(page.origin if index.key == "origin" else (host_key(page.url) or ""))
        return None if row is None else parsed.get(row[0], row[1])

    columns: Dict[str, List[Any]] = {name: [] for name in names}
    size = 0
    for source in sources:
        for page in iter_pages(source, max_head_bytes=max_head_bytes, stats=stats):
            if check is not None:
                check()
            if size and size + len(agents) > batch_rows:
                yield pa.record_batch([columns[n] for n in names], schema=schema)
                columns = {name: [] for name in names}
                size = 0
            site = site_of(page)
            every = page_signals_for(page.headers, page.head, agents, url=page.url,
                                     now=now or page.date, strict=False)  # read once
            for agent, signals in zip(agents, every):
                usage = site.usage(page.url, agent=agent) if site is not None else None
                both = combine(usage, signals)
                columns["url"].append(page.url)
                columns["agent"].append(agent)
                columns["status"].append(page.status)
                columns["date"].append(page.date)
                columns["crawl_allowed"].append(None if usage is None else usage.crawl_allowed)
                columns["index"].append(signals.index)
                columns["follow"].append(signals.follow)
                columns["noai"].append(signals.noai)
                columns["tdm_reservation"].append(signals.tdm_reservation)
                for purpose, name in zip(chosen, names[9:]):
                    columns[name].append(both.allows(purpose))
            size += len(agents)
    if size:
        yield pa.record_batch([columns[n] for n in names], schema=schema)


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
    from ._page import check_purposes

    schema = page_table_schema(list(check_purposes(purposes)))
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
