"""Page signals in bulk (issue 16): one row per captured response and agent, from its
headers and HTML head, combined with its site's robots.txt usage lines."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable, Optional

import pyarrow as pa

from .._tables._purposes import check_purposes
from ..errors import InvalidArgument
from ..robotstxt import Mode, RobotsTxt
from ._bodies import BodyCache
from ._index import RobotsIndex
from ._rows import check_agents
from ._schemas import page_schema

__all__ = ["DEFAULT_PAGE_BATCH_ROWS", "page_batches"]

DEFAULT_PAGE_BATCH_ROWS = 1024
"""Rows per batch of :func:`page_batches` (a page gives one row per agent)."""


def page_batches(pages: Iterable[Any], *, agents: Sequence[str], purposes: Sequence[str] = (),
                 robots: Any = None, now: Optional[datetime.datetime] = None,
                 batch_rows: int = DEFAULT_PAGE_BATCH_ROWS, mode: Mode = "google",
                 check: Optional[Callable[[], None]] = None,
                 observe: Optional[Callable[..., None]] = None) -> Iterator[pa.RecordBatch]:
    """Page signals of captured responses (records with the fields of
    :class:`robotsrules.warc.PageCapture`, in the order given) as a stream of Arrow batches
    (:func:`~robotsrules.bulk.page_schema`), one row per (URL, agent).

    One page's head and at most ``batch_rows`` rows are held at a time (a batch is cut
    before the page whose rows would make it longer, so it holds at most
    ``max(batch_rows, len(agents))`` rows). ``robots`` maps an origin to its parsed
    :class:`~robotsrules.RobotsTxt` (a dict), or is a :class:`~robotsrules.bulk.RobotsIndex`,
    whose rows are parsed on first use with ``mode`` (a bounded cache). A record with
    ``damaged`` set gives rows whose signal and purpose columns are null, with the reason in
    ``damaged`` (see :data:`~robotsrules.bulk.PAGE_SCHEMA`). ``check`` is called before each
    page (a stop signal raises from it). ``now`` decides ``unavailable_after``
    (default: each page's date, when it was served). ``observe(page, agent, site, signals,
    combined)`` is called for each row of a page read whole (the evidence manifest of
    ``bulk --pages-warc --manifest``): ``site`` is its parsed robots.txt or ``None``,
    ``combined`` the :class:`robotsrules.Combined` the purpose columns were answered from.
    """
    from .._page import combine, page_signals_for

    names = check_agents(agents) if agents else ()
    if batch_rows < 1:
        raise InvalidArgument("batch_rows must be at least 1")
    chosen = list(check_purposes(purposes))
    schema = page_schema(chosen)
    columns_of = schema.names
    index = robots if isinstance(robots, RobotsIndex) else None
    parsed = BodyCache(mode=mode) if index is not None else None

    def site_of(page: Any) -> Optional[RobotsTxt]:
        if robots is None:
            return None
        if index is None or parsed is None:
            found: Optional[RobotsTxt] = robots.get(page.origin)
            return found
        row = index.get(page.origin if index.key == "origin" else (index.site(page.url) or ""))
        return None if row is None else parsed.get(row[0], row[1])

    columns: dict[str, list[Any]] = {name: [] for name in columns_of}
    width = len(names)
    nulls = [None] * width
    signal_names = columns_of[5:9] + columns_of[10:]
    purpose_names = list(zip(chosen, columns_of[len(_BOUND):]))
    combined = bool(purpose_names) or observe is not None  # else no Combined is needed
    size = 0
    # The columns every page adds to, bound once a batch (not looked up for each row).
    (urls, agents_, statuses, dates, damages, allowed, indexes, follows, noais, reservations,
     licenses, cuts) = (columns[n] for n in _BOUND)
    for page in pages:
        if check is not None:
            check()
        if size and size + width > batch_rows:
            yield pa.record_batch([columns[n] for n in columns_of], schema=schema)
            columns = {name: [] for name in columns_of}
            (urls, agents_, statuses, dates, damages, allowed, indexes, follows, noais,
             reservations, licenses, cuts) = (columns[n] for n in _BOUND)
            size = 0
        site = site_of(page)
        damaged = getattr(page, "damaged", None)
        url = page.url
        status = page.status
        date = page.date
        every = () if damaged else page_signals_for(
            page.headers, page.head, names, url=url, now=now or date, strict=False,
            status=status, cut=bool(getattr(page, "truncated", False))
        )  # read once; a stranger's record
        # The columns that are the same for every agent of the page, at once.
        if width == 1:
            urls.append(url)
            statuses.append(status)
            dates.append(date)
            damages.append(damaged)
        else:
            urls.extend([url] * width)
            statuses.extend([status] * width)
            dates.extend([date] * width)
            damages.extend([damaged] * width)
        agents_.extend(names)
        if damaged:  # nothing is known of the page
            allowed.extend([None if site is None else
                            site.usage(url, agent=agent).crawl_allowed for agent in names])
            for name in signal_names:
                columns[name].extend(nulls)
            size += width
            continue
        for agent, signals in zip(names, every):
            usage = site.usage(url, agent=agent) if site is not None else None
            allowed.append(None if usage is None else usage.crawl_allowed)
            indexes.append(signals.index)
            follows.append(signals.follow)
            noais.append(signals.noai)
            reservations.append(signals.tdm_reservation)
            licenses.append(list(signals.license_urls))
            cuts.append(signals.head_cut)
            if combined:
                both = combine(usage, signals)
                for purpose, name in purpose_names:
                    columns[name].append(both.allows(purpose))
                if observe is not None:
                    observe(page, agent, site, signals, both)
        size += width
    if size:
        yield pa.record_batch([columns[n] for n in columns_of], schema=schema)


_BOUND = ("url", "agent", "status", "date", "damaged", "crawl_allowed", "index", "follow",
          "noai", "tdm_reservation", "license_urls", "head_cut")
"""The columns of :data:`~robotsrules.bulk.PAGE_SCHEMA` every page fills (the purposes'
columns come after them)."""
