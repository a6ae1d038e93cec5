"""A datatrove filter: drop (or mark) documents whose URL robots.txt disallows for given agents.

``RobotsFilter`` is a :class:`datatrove.pipeline.filters.base_filter.BaseFilter` for the
pipelines dataset builders run (``pip install robotsrules[datatrove]``)::

    from datatrove.pipeline.readers import JsonlReader
    from datatrove.pipeline.writers import JsonlWriter
    from robotsrules.datatrove import RobotsFilter

    pipeline = [
        JsonlReader("crawl/"),
        RobotsFilter("robots.parquet", categories=["ai-training"]),   # or robots_warc=[...]
        JsonlWriter("kept/"),
    ]

Each document's ``metadata["url"]`` is judged, for every agent (``agents`` plus the tokens
of ``categories``, see :mod:`robotsrules._tables._crawlers`), exactly as :meth:`RobotsTxt.explain`
does, against the robots.txt of its origin (or host, ``key="host"``) from a robots table
(Parquet/CSV/JSONL read with DuckDB, or an Arrow table) or from WARC captures. With
``date_key`` (e.g. ``"date"``, which datatrove's WARC reader fills) the file in force at the
document's date is used (:class:`robotsrules.bulk.RobotsHistory`), else the newest.

The answer goes into ``metadata[metadata_key]`` (default ``"robots"``): ``disallowed``
(True, False, or None when unknown), ``agent`` (the first disallowed agent), ``line`` and
``reason`` (as in :data:`robotsrules.bulk.ANY_AGENT_SCHEMA`). ``action="drop"`` (default)
removes disallowed documents (datatrove counts them as ``dropped_robots_disallowed``);
``action="mark"`` keeps every document and only writes the metadata. Documents whose site
has no robots.txt in the index are kept unless ``missing="drop"``; documents without a
usable URL are kept and marked ``invalid-url``. Nothing raises on data.

The index is built once per worker on first use (the step itself holds only the paths, so
it pickles to datatrove's worker processes cheaply).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from datatrove.data import Document
from datatrove.pipeline.filters.base_filter import BaseFilter
from datatrove.pipeline.readers.warc import WarcReader
from datatrove.pipeline.writers.disk_base import DiskWriter

from ._rules._usage import Usage
from ._tables._crawlers import category_tokens
from .bulk import DEFAULT_CACHE_SIZE, INVALID_URL, NO_ROBOTS, Key, RobotsHistory
from .bulk._any import first_disallowed
from .bulk._rows import ParsedCache, check_agents, fast_origin, verdict_of
from .errors import InvalidArgument, InvalidURL
from .robotstxt import RobotsTxt

if TYPE_CHECKING:
    from ._manifest import Manifest

__all__ = ["PageSignalsFilter", "RobotsFilter", "WarcHeadersReader"]

Action = Literal["drop", "mark"]


def _agent_names(agents: Union[str, Sequence[str]],
                 categories: Union[str, Sequence[str]]) -> tuple[str, ...]:
    """The agents a filter judges for: those given, then the tokens of the categories,
    without repeats (a caller mistake raises :class:`~robotsrules.InvalidAgent`)."""
    names = [agents] if isinstance(agents, str) else list(agents)
    if categories:
        names.extend(category_tokens(categories))
    return check_agents(tuple(dict.fromkeys(names)))


class _ManifestFilter(BaseFilter):  # type: ignore[misc]  # datatrove ships no type hints
    """What both filters do with ``manifest``, a folder for evidence manifests (issue 26):
    each task makes its manifest (:meth:`_new_manifest`) as it starts and writes it there
    as ``<_MANIFEST_NAME>-<rank>.jsonl`` once its documents are all through."""

    _MANIFEST_NAME = "manifest"
    manifest: Optional[str]
    _manifest: Any

    def _new_manifest(self) -> Manifest:
        raise NotImplementedError

    def run(self, data: Any, rank: int = 0, world_size: int = 1) -> Iterator[Document]:
        """datatrove's filter loop; with ``manifest``, the task's manifest is written once
        its documents are all through (a task that fails writes none)."""
        if self.manifest is None:
            yield from super().run(data, rank, world_size)
            return
        import os

        self._manifest = self._new_manifest()
        yield from super().run(data, rank, world_size)
        os.makedirs(self.manifest, exist_ok=True)
        self._manifest.write(os.path.join(self.manifest,
                                          f"{self._MANIFEST_NAME}-{rank:05d}.jsonl"))


class RobotsFilter(_ManifestFilter):
    """Drop or mark documents that robots.txt disallows for any of the given agents."""

    name = "🤖 robots.txt"

    def __init__(
        self,
        robots: Any = None,
        agents: Union[str, Sequence[str]] = (),
        *,
        categories: Union[str, Sequence[str]] = (),
        robots_warc: Optional[Sequence[str]] = None,
        action: Action = "drop",
        missing: Literal["keep", "drop"] = "keep",
        key: Key = "origin",
        date_key: Optional[str] = None,
        url_key: str = "url",
        metadata_key: str = "robots",
        exclusion_writer: Optional[DiskWriter] = None,
        manifest: Optional[str] = None,
    ) -> None:
        super().__init__(exclusion_writer)
        self.agents = _agent_names(agents, categories)
        self.manifest = manifest
        """A folder for evidence manifests (issue 26): each task writes
        ``manifest-<rank>.jsonl`` there when its documents are done
        (``data/manifest.schema.json``)."""
        self._manifest: Any = None
        if (robots is None) == (robots_warc is None):
            raise InvalidArgument("pass one of robots (a table or file) or robots_warc "
                                  "(WARC paths)")
        if action not in ("drop", "mark") or missing not in ("keep", "drop"):
            raise InvalidArgument("action must be 'drop' or 'mark'; missing 'keep' or 'drop'")
        self.robots = robots
        self.robots_warc = list(robots_warc) if robots_warc is not None else None
        self.action = action
        self.missing = missing
        self.key: Key = key
        self.date_key = date_key
        self.url_key = url_key
        self.metadata_key = metadata_key
        self._history: Optional[RobotsHistory] = None
        self._cache: Optional[ParsedCache] = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_history"] = None  # rebuilt in each worker
        state["_cache"] = None
        state["_manifest"] = None
        return state

    def _load(self) -> RobotsHistory:
        if self._history is None:
            self._cache = ParsedCache(DEFAULT_CACHE_SIZE)
            if self.robots_warc is not None:
                from .warc import read_warc_captures

                self._history = RobotsHistory.from_arrow(
                    read_warc_captures(self.robots_warc), self.key)
            elif isinstance(self.robots, RobotsHistory):
                self._history = self.robots
            elif isinstance(self.robots, str):
                import duckdb

                from .duckdb import load_history

                con = duckdb.connect()
                try:
                    self._history = load_history(con, self.robots, self.key)
                finally:
                    con.close()
            else:
                self._history = RobotsHistory.from_arrow(self.robots, self.key)
        return self._history

    def _rules(self, capture: tuple[int, Any, Any]) -> RobotsTxt:
        cache = self._cache
        assert cache is not None
        return cache.rules(capture[0], capture[2])

    def robots_txt(self, url: Any, date: Any = None) -> Optional[RobotsTxt]:
        """The robots.txt in force for ``url`` (at ``date`` when ``date_key`` is set), with
        the fetch policy applied to its status; ``None`` when the index has none for it."""
        capture = self._capture(url, date)
        return None if capture is None else self._rules(capture)

    def _capture(self, url: Any, date: Any) -> Optional[tuple[int, Any, Any]]:
        history = self._load()
        site = history.site(url) if fast_origin(url) is not None else None
        when: Any = date if self.date_key is not None else datetime.datetime.max.replace(
            tzinfo=datetime.timezone.utc)
        return history.as_of(site, when) if site is not None else None

    def verdict(self, url: Any, date: Any = None) -> dict[str, Any]:
        """The metadata written for a document at ``url`` (crawled at ``date``)."""
        origin = fast_origin(url)
        if origin is None:
            return {"disallowed": None, "agent": None, "line": None, "reason": INVALID_URL}
        capture = self._capture(url, date)
        manifest = self._manifest
        key = None
        if manifest is not None:
            key = (manifest.capture(origin, None) if capture is None else manifest.capture(
                origin, capture[2][0], capture[2][1], capture[1]))
            manifest.judged(origin, len(self.agents), key)
        if capture is None:
            return {"disallowed": None, "agent": None, "line": None, "reason": NO_ROBOTS}
        robots = self._rules(capture)
        found = first_disallowed((agent, verdict_of(robots, url, agent))
                                 for agent in self.agents)
        if found[0] is True and manifest is not None:
            manifest.refusal(origin, found[1], found[2], found[3], key=key)
        return dict(zip(("disallowed", "agent", "line", "reason"), found))

    def _new_manifest(self) -> Manifest:
        from ._manifest import Manifest

        source = (f"{len(self.robots_warc)} WARC file(s)" if self.robots_warc is not None
                  else self.robots if isinstance(self.robots, str) else "a robots table")
        return Manifest(mode="google", agents=self.agents, source=source, has_dates=True,
                        has_statuses=True, producer="robotsrules.datatrove.RobotsFilter")

    def filter(self, doc: Document) -> Union[bool, tuple[bool, str]]:
        """Keep the document unless robots.txt disallows it (``action="drop"``)."""
        metadata = doc.metadata
        date = metadata.get(self.date_key) if self.date_key is not None else None
        found = self.verdict(metadata.get(self.url_key), date)
        metadata[self.metadata_key] = found
        if self.action == "mark":
            return True
        if found["disallowed"]:
            return False, "robots_disallowed"
        if found["reason"] == NO_ROBOTS and self.missing == "drop":
            return False, "robots_missing"
        return True


class PageSignalsFilter(_ManifestFilter):
    """Drop or mark documents whose page signals (and, with ``robots``, whose site's
    robots.txt usage preferences) refuse one of ``purposes`` to one of the agents.

    Put it BEFORE the text extractor: it reads the ``<head>`` of ``doc.text`` (the raw
    HTML datatrove's WARC readers fill it with) and the HTTP response headers from
    ``metadata[headers_key]`` when present (:class:`WarcHeadersReader` keeps them; any form
    the page layer reads: a dict whose values may be lists, tuples or bytes, ``[name,
    value]`` pairs, a raw ``Name: value`` block with folded lines). After an extractor
    replaced the text, no meta tag is found (only headers are read). A document whose
    ``metadata["truncated"]`` is True (:class:`WarcHeadersReader` kept only the first
    ``max_body_bytes``) is read as the start of the body: a head running to its end is cut,
    and the answer is "not known" (``refused`` None, ``level`` ``"page"``), never "nothing
    stated". See docs/guides/datasets.md.

    A document whose response asks to be paid for (HTTP 402 with ``crawler-price``: the
    status from ``metadata[status_key]`` when present, which :class:`WarcHeadersReader`
    fills, else the ``crawler-price`` header alone) is not the content: it is marked
    (``priced`` in the metadata: the price and terms described) and dropped with
    ``action="drop"`` (``page_signals_priced``). ``manifest``: a folder where each task
    writes ``manifest-pages-<rank>.jsonl`` (``data/manifest.schema.json`` version 2: per
    origin the page refusals with their deciding directives, priced pages, licence links).
    """

    name = "🤖 page signals"

    _MANIFEST_NAME = "manifest-pages"

    def __init__(
        self,
        agents: Union[str, Sequence[str]] = (),
        *,
        categories: Union[str, Sequence[str]] = (),
        purposes: Union[str, Sequence[str]] = ("ai-train",),
        robots: Optional[RobotsFilter] = None,
        action: Action = "drop",
        headers_key: str = "http_headers",
        url_key: str = "url",
        metadata_key: str = "page_signals",
        exclusion_writer: Optional[DiskWriter] = None,
        status_key: str = "http_status",
        manifest: Optional[str] = None,
    ) -> None:
        from ._tables._purposes import check_purposes

        super().__init__(exclusion_writer)
        self.status_key = status_key
        self.manifest = manifest
        self._manifest: Any = None
        self.agents = _agent_names(agents, categories)
        self.purposes = check_purposes(purposes, at_least_one=True)
        if action not in ("drop", "mark"):
            raise InvalidArgument("action must be 'drop' or 'mark'")
        if robots is not None and not isinstance(robots, RobotsFilter):
            raise InvalidArgument("robots must be a RobotsFilter (its index is reused)")
        self.robots = robots
        self.action = action
        self.headers_key = headers_key
        self.url_key = url_key
        self.metadata_key = metadata_key

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_manifest"] = None  # one per task, made in run()
        return state

    def decide(self, url: Any, html: Any, headers: Any = None, date: Any = None,
               status: Any = None, cut: Any = False) -> dict[str, Any]:
        """The metadata written for a document: ``refused`` (True, False, or None when
        nothing is stated, or when the page's head was cut before its ``<body>``, ``cut``
        telling that ``html`` is only the start of the body: then
        ``level`` is ``"page"`` and ``decided_by`` says it is not known), ``agent`` and
        ``purpose`` (the first refused pair, else None), ``level`` (``"page"`` or
        ``"robots.txt"``), ``decided_by`` (the deciding directive or robots.txt lines,
        described) and ``priced`` (what a 402 response asks, described; else None)."""
        from ._page import admit_page

        robots = None
        origin = fast_origin(url)
        capture = None
        if self.robots is not None and origin is not None:
            capture = self.robots._capture(url, date)
            robots = None if capture is None else self.robots._rules(capture)
        page_url = url if isinstance(url, str) else None

        def usage(agent: Any) -> Optional[Usage]:
            if robots is None or page_url is None:
                return None
            try:
                return robots.usage(page_url, agent=agent)
            except InvalidURL:  # a URL the core rejects: no site-level answer
                return None

        # Metadata is a stranger's data: headers in any stored form, read without raising.
        admission = admit_page(headers, html, agents=list(self.agents), purposes=self.purposes,
                               url=page_url, usage=usage, strict=False, status=status,
                               cut=cut is True)
        if self._manifest is not None and origin is not None:
            self._record(origin, page_url, capture, admission)
        pricing = admission.pricing
        priced = pricing.describe() if pricing is not None and pricing.asked else None
        refused = admission.refused
        if refused is not None:
            return {"refused": True, "agent": refused.agent, "purpose": refused.purpose,
                    "level": refused.answer.level, "decided_by": refused.answer.describe(),
                    "priced": priced}
        stated = admission.stated
        if stated is not None:
            return {"refused": False, "agent": None, "purpose": None,
                    "level": stated.answer.level, "decided_by": stated.answer.describe(),
                    "priced": priced}
        unknown = next((a for a in admission.answers if a.answer.level == "page"), None)
        if unknown is not None:  # the head was cut: not known, never "nothing stated"
            return {"refused": None, "agent": None, "purpose": None, "level": "page",
                    "decided_by": unknown.answer.describe(), "priced": priced}
        return {"refused": None, "agent": None, "purpose": None, "level": None,
                "decided_by": "nothing stated", "priced": priced}

    def _record(self, origin: str, url: Optional[str], capture: Any, admission: Any) -> None:
        """Record one document's page reading in the task's manifest."""
        manifest = self._manifest
        key = (manifest.capture(origin, None) if capture is None else manifest.capture(
            origin, capture[2][0], capture[2][1], capture[1]))
        per_agent = len(self.purposes)
        for number, (agent, signals) in enumerate(zip(self.agents, admission.signals)):
            answers = admission.answers[number * per_agent:(number + 1) * per_agent]
            manifest.page(origin, agent, url, signals,
                          [(a.purpose, a.answer) for a in answers], key=key)

    def _new_manifest(self) -> Manifest:
        from ._manifest import PAGE_PROTOCOLS, Manifest

        robots = self.robots
        source = ("document metadata" if robots is None else "document metadata, robots.txt "
                  "from " + (f"{len(robots.robots_warc)} WARC file(s)"
                             if robots.robots_warc is not None
                             else robots.robots if isinstance(robots.robots, str)
                             else "a robots table"))
        protocols = (["robots.txt"] if robots is not None else []) + list(PAGE_PROTOCOLS)
        return Manifest(mode="google", agents=self.agents, purposes=self.purposes,
                        source=source, protocols=protocols,
                        producer="robotsrules.datatrove.PageSignalsFilter")

    def filter(self, doc: Document) -> Union[bool, tuple[bool, str]]:
        """Keep the document unless its signals refuse a purpose (``action="drop"``)."""
        metadata = doc.metadata
        robots = self.robots
        date = (metadata.get(robots.date_key) if robots is not None
                and robots.date_key is not None else None)
        status = metadata.get(self.status_key)
        found = self.decide(metadata.get(self.url_key), doc.text,
                            metadata.get(self.headers_key), date,
                            status if isinstance(status, int) else None,
                            metadata.get("truncated") is True)
        metadata[self.metadata_key] = found
        if self.action == "drop" and found["priced"] is not None:
            return False, "page_signals_priced"
        if self.action == "drop" and found["refused"]:
            return False, "page_signals_refused"
        return True


class WarcHeadersReader(WarcReader):  # type: ignore[misc]  # datatrove ships no type hints
    """A datatrove WARC reader (a :class:`~datatrove.pipeline.readers.WarcReader` with the
    same arguments) whose records are read by :func:`robotsrules.warc.iter_pages`, keeping
    each response's HTTP headers, as ``[name, value]`` pairs in ``metadata["http_headers"]``
    (datatrove's own reader drops them) and its status in ``metadata["http_status"]``, so
    that :class:`PageSignalsFilter` can read ``X-Robots-Tag``, ``Robots-Tag``,
    ``Content-Usage``, ``tdm-reservation``, licence links and a pay-per-crawl 402.

    One document per HTML response (by its ``Content-Type``, or sniffed when it has none),
    its text the body decoded (gzip, deflate, br; chunked) by the one bounded decoder, at most
    ``max_body_bytes`` of it (default 10 MiB; ``metadata["truncated"]`` is then True), as
    UTF-8 or, failing that, the charset ``cchardet`` detects. A record that did not arrive
    whole (cut, undecodable, its HTTP head cut short) gives no document: it is counted
    (``warc_damaged``) and logged, never passed on as a page that states nothing. Needs
    ``warcio`` (and ``faust-cchardet`` for non-UTF-8 pages)."""

    name = "🕷 Warc (with headers)"

    def __init__(self, *args: Any, max_body_bytes: int = 10 * 1024 * 1024, **kwargs: Any
                 ) -> None:
        super().__init__(*args, **kwargs)
        self.max_body_bytes = max_body_bytes

    def read_file(self, filepath: str) -> Iterator[Document]:
        """The documents of one WARC file, each with its response headers in metadata."""
        from datatrove.utils.logging import logger

        from .warc import WarcStats, iter_pages

        stats = WarcStats()
        with self.data_folder.open(filepath, "rb", compression=self.compression) as handle:
            pages = iter_pages(handle, max_head_bytes=self.max_body_bytes + 1, stats=stats)
            for index, page in enumerate(pages):
                with self.track_time():
                    if page.damaged is not None:
                        self.stat_update("warc_damaged")
                        logger.warning(f"{filepath}: {page.url}: damaged WARC record "
                                       f"({page.damaged}): skipped")
                        continue
                    if page.head is None:
                        continue
                    truncated = len(page.head) > self.max_body_bytes
                    data = {"text": _text(page.head[: self.max_body_bytes]),
                            "id": page.record_id or f"{filepath}/{index}", "url": page.url,
                            "date": page.date.isoformat() if page.date else None,
                            "http_status": page.status,
                            "http_headers": [[k, v] for k, v in page.headers],
                            "truncated": truncated}
                    document = self.get_document_from_dict(data, filepath, index)
                    if not document:
                        continue
                yield document
        for problem in stats.warnings():
            logger.warning(f"{filepath}: {problem}")


def _text(body: bytes) -> str:
    """An HTML body as text: UTF-8, else the charset cchardet detects, else Latin-1."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        import cchardet

        found = cchardet.detect(body).get("encoding")
        if found:
            return body.decode(found, "replace")
    except (ImportError, LookupError):
        pass
    return body.decode("latin-1")
