"""robots.txt captures from WARC files (Common Crawl's robots.txt archives, or any crawl).

Needs the ``warc`` extra (``warcio``, and ``pyarrow`` for :func:`read_warcs`). warcio rather
than fastwarc: robots.txt captures are small, so parsing them costs more than reading the
archive; warcio is pure Python (a wheel everywhere), reads gzip'd and plain WARCs alike, decodes
chunked and compressed HTTP payloads, and has the writer the tests use.

Each ``response`` record whose target URI path is ``/robots.txt`` becomes a :class:`Capture`
with the HTTP status and the ``WARC-Date``; other records are skipped (counted). Reading is
lenient: a garbled record or a truncated file ends that file with a note in
:attr:`WarcStats.errors`, never an exception; captures read before the damage are kept.

:func:`read_warcs` turns captures into a robots table for :mod:`robotsrules.bulk`: the newest
capture per origin wins (RFC 9309 §2.4: the freshest copy is the one to obey). A redirect
(3xx) is followed within the captures read, up to 5 hops (RFC 9309 §2.3.1.2), and the
target's answer stands for the original origin; a redirect whose target was not captured keeps
its 3xx status, which the fetch policy reads as *unavailable* (allow all).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Dict, Iterable, Iterator, List, NamedTuple, Optional, Union
from urllib.parse import urlsplit

import pyarrow as pa
from warcio.archiveiterator import ArchiveIterator

from .robotstxt import DEFAULT_MAX_BYTES
from .scope import join_url, origin_of

__all__ = ["ROBOTS_SCHEMA", "Capture", "WarcStats", "iter_captures", "read_warc_captures",
           "read_warcs"]

ROBOTS_SCHEMA = pa.schema([
    pa.field("url", pa.string()),
    pa.field("origin", pa.string()),
    pa.field("status", pa.int32()),
    pa.field("date", pa.timestamp("us", tz="UTC")),
    pa.field("body", pa.binary()),
    pa.field("truncated", pa.bool_()),
    pa.field("final_url", pa.string()),
])
"""Columns of :func:`read_warcs`' table: a robots table for :mod:`robotsrules.bulk`, plus
``origin``, ``truncated`` (body cut at ``max_bytes`` or by the crawler) and ``final_url``
(where the answer came from after redirects)."""

MAX_REDIRECTS = 5


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


@dataclass
class WarcStats:
    """What reading WARC files gave: counts and the problems met (never raised)."""

    files: int = 0
    records: int = 0
    captures: int = 0
    skipped: int = 0
    """Records that are not robots.txt responses (requests, metadata, other URLs)."""
    redirects_followed: int = 0
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
        yield from _captures(handle, label, max_bytes, stats, all_paths)
    finally:
        if handle is not source:
            handle.close()


def _captures(handle: BinaryIO, label: str, max_bytes: int, stats: WarcStats,
              all_paths: bool) -> Iterator[Capture]:
    records = iter(ArchiveIterator(handle, arc2warc=True))
    while True:
        try:
            record = next(records)
        except StopIteration:
            return
        except Exception as error:  # Leniency: garbled or truncated archive: stop this file
            stats.errors.append(f"{label}: unreadable after {stats.records} records: "
                                f"{type(error).__name__}: {error}")
            return
        stats.records += 1
        try:
            capture = _capture(record, max_bytes, all_paths)
        except Exception as error:  # Leniency: one bad record; the next may be fine
            stats.errors.append(f"{label}: record {stats.records}: {type(error).__name__}: "
                                f"{error}")
            continue
        if capture is None:
            stats.skipped += 1
            continue
        stats.captures += 1
        yield capture


def _capture(record: Any, max_bytes: int, all_paths: bool) -> Optional[Capture]:
    if record.rec_type != "response":
        return None
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip().strip("<>")
    if not url or not (all_paths or _is_robots(url)):
        return None
    origin = origin_of(url)  # InvalidURL: counted as a bad record by the caller
    http = record.http_headers
    if http is None:
        raise ValueError(f"no HTTP headers for {url}")
    status = int(http.get_statuscode())
    body = record.content_stream().read(max_bytes + 1)
    truncated = len(body) > max_bytes or bool(record.rec_headers.get_header("WARC-Truncated"))
    location = http.get_header("Location")
    return Capture(url, origin, status, _date(record.rec_headers.get_header("WARC-Date")),
                   body[:max_bytes], truncated, location.strip() if location else None)


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
    counted in ``stats``; the table holds whatever could be read.
    """
    stats = stats if stats is not None else WarcStats()
    newest: Dict[str, Capture] = {}  # by origin
    by_url: Dict[str, Capture] = {}  # newest capture of each exact URL (redirect targets)
    for source in sources:
        for capture in iter_captures(source, max_bytes=max_bytes, stats=stats):
            if _newer(capture, newest.get(capture.origin)):
                newest[capture.origin] = capture
            if _newer(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    columns: Dict[str, List[Any]] = {name: [] for name in ROBOTS_SCHEMA.names}
    for origin in sorted(newest):
        capture = newest[origin]
        final = capture
        if follow_redirects:
            final = _follow(capture, by_url, stats)
        columns["url"].append(capture.url)
        columns["origin"].append(origin)
        columns["status"].append(final.status)
        columns["date"].append(capture.date)
        columns["body"].append(final.body)
        columns["truncated"].append(final.truncated)
        columns["final_url"].append(final.url)
    return pa.table(columns, schema=ROBOTS_SCHEMA)


def _follow(capture: Capture, by_url: Dict[str, Capture], stats: WarcStats) -> Capture:
    current = capture
    seen = {capture.url}
    for _ in range(MAX_REDIRECTS):
        if current.status is None or not 300 <= current.status < 400 or not current.location:
            break
        target = join_url(current.url, current.location)
        if target is None or target in seen or target not in by_url:
            break
        seen.add(target)
        current = by_url[target]
    if current is not capture:
        stats.redirects_followed += 1
    return current


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
            if _newer(capture, by_url.get(capture.url)):
                by_url[capture.url] = capture
    columns: Dict[str, List[Any]] = {name: [] for name in ROBOTS_SCHEMA.names}
    every.sort(key=lambda c: (c.origin, c.date is not None, c.date or ""))
    for capture in every:
        final = _follow(capture, by_url, stats) if follow_redirects else capture
        columns["url"].append(capture.url)
        columns["origin"].append(capture.origin)
        columns["status"].append(final.status)
        columns["date"].append(capture.date)
        columns["body"].append(final.body)
        columns["truncated"].append(final.truncated)
        columns["final_url"].append(final.url)
    return pa.table(columns, schema=ROBOTS_SCHEMA)
