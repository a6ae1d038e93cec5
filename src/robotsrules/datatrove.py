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
of ``categories``, see :mod:`robotsrules._crawlers`), exactly as :meth:`RobotsTxt.explain`
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
from typing import Any, Dict, Iterator, Literal, Optional, Sequence, Tuple, Union

from datatrove.data import Document
from datatrove.pipeline.filters.base_filter import BaseFilter
from datatrove.pipeline.readers.warc import WarcReader, process_record
from datatrove.pipeline.writers.disk_base import DiskWriter

from ._crawlers import category_tokens
from ._lru import LRU
from .bulk import (
    INVALID_URL,
    NO_ROBOTS,
    Key,
    RobotsHistory,
    check_agents,
    fast_origin,
    robots_for,
    verdict_of,
)
from .errors import InvalidArgument, InvalidURL
from .robotstxt import RobotsTxt

__all__ = ["PageSignalsFilter", "RobotsFilter", "WarcHeadersReader"]

Action = Literal["drop", "mark"]


def _agent_names(agents: Union[str, Sequence[str]],
                 categories: Union[str, Sequence[str]]) -> Tuple[str, ...]:
    """The agents a filter judges for: those given, then the tokens of the categories,
    without repeats (a caller mistake raises :class:`~robotsrules.InvalidAgent`)."""
    names = [agents] if isinstance(agents, str) else list(agents)
    if categories:
        names.extend(category_tokens(categories))
    return check_agents(tuple(dict.fromkeys(names)))


class RobotsFilter(BaseFilter):  # type: ignore[misc]  # datatrove ships no type hints
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
        self._cache: Optional[LRU[Any, RobotsTxt]] = None

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_history"] = None  # rebuilt in each worker
        state["_cache"] = None
        state["_manifest"] = None
        return state

    def _load(self) -> RobotsHistory:
        if self._history is None:
            if self.robots_warc is not None:
                from .warc import read_warc_captures

                table = read_warc_captures(self.robots_warc)
            elif isinstance(self.robots, RobotsHistory):
                self._history = self.robots
                self._cache = LRU(4096)
                return self.robots
            elif isinstance(self.robots, str):
                import duckdb

                from .duckdb import load_history

                con = duckdb.connect()
                try:
                    self._history = load_history(con, self.robots, self.key)
                finally:
                    con.close()
                self._cache = LRU(4096)
                return self._history
            else:
                table = self.robots
            self._history = RobotsHistory.from_arrow(table, self.key)
            self._cache = LRU(4096)
        return self._history

    def _rules(self, capture: Tuple[int, Any, Any]) -> RobotsTxt:
        cache = self._cache
        assert cache is not None
        robots = cache.get(capture[0])
        if robots is None:
            robots = robots_for(capture[2][0], capture[2][1])
            cache.put(capture[0], robots)
        return robots

    def robots_txt(self, url: Any, date: Any = None) -> Optional[RobotsTxt]:
        """The robots.txt in force for ``url`` (at ``date`` when ``date_key`` is set), with
        the fetch policy applied to its status; ``None`` when the index has none for it."""
        capture = self._capture(url, date)
        return None if capture is None else self._rules(capture)

    def _capture(self, url: Any, date: Any) -> Optional[Tuple[int, Any, Any]]:
        history = self._load()
        site = history.site(url) if fast_origin(url) is not None else None
        when: Any = date if self.date_key is not None else datetime.datetime.max.replace(
            tzinfo=datetime.timezone.utc)
        return history.as_of(site, when) if site is not None else None

    def verdict(self, url: Any, date: Any = None) -> Dict[str, Any]:
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
        unknown: Optional[str] = None
        for agent in self.agents:
            allowed, line, reason = verdict_of(robots, url, agent)
            if allowed is False:
                if manifest is not None:
                    manifest.refusal(origin, agent, line, reason, key=key)
                return {"disallowed": True, "agent": agent, "line": line, "reason": reason}
            if allowed is None and unknown is None:
                unknown = reason
        if unknown is not None:
            return {"disallowed": None, "agent": None, "line": None, "reason": unknown}
        return {"disallowed": False, "agent": None, "line": None, "reason": "allowed"}

    def run(self, data: Any, rank: int = 0, world_size: int = 1) -> Iterator[Document]:
        """datatrove's filter loop; with ``manifest``, the task's manifest is written once
        its documents are all through (a task that fails writes none)."""
        if self.manifest is None:
            yield from super().run(data, rank, world_size)
            return
        import os

        from ._manifest import Manifest

        source = (f"{len(self.robots_warc)} WARC file(s)" if self.robots_warc is not None
                  else self.robots if isinstance(self.robots, str) else "a robots table")
        self._manifest = Manifest(mode="google", agents=self.agents, source=source,
                                  has_dates=True, has_statuses=True,
                                  producer="robotsrules.datatrove.RobotsFilter")
        yield from super().run(data, rank, world_size)
        os.makedirs(self.manifest, exist_ok=True)
        self._manifest.write(os.path.join(self.manifest, f"manifest-{rank:05d}.jsonl"))

    def filter(self, doc: Document) -> Union[bool, Tuple[bool, str]]:
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


class PageSignalsFilter(BaseFilter):  # type: ignore[misc]  # datatrove ships no type hints
    """Drop or mark documents whose page signals (and, with ``robots``, whose site's
    robots.txt usage preferences) refuse one of ``purposes`` to one of the agents.

    Put it BEFORE the text extractor: it reads the ``<head>`` of ``doc.text`` (the raw
    HTML datatrove's WARC readers fill it with) and the HTTP response headers from
    ``metadata[headers_key]`` when present (:class:`WarcHeadersReader` keeps them; a dict,
    a list of ``[name, value]`` pairs, or a raw ``Name: value`` block). After an extractor
    replaced the text, no meta tag is found (only headers are read). See
    docs/guides/datasets.md.
    """

    name = "🤖 page signals"

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
    ) -> None:
        from ._purposes import check_purpose

        super().__init__(exclusion_writer)
        self.agents = _agent_names(agents, categories)
        wanted = [purposes] if isinstance(purposes, str) else list(purposes)
        if not wanted:
            raise InvalidArgument("purposes must name at least one purpose (e.g. 'ai-train')")
        self.purposes = tuple(dict.fromkeys(check_purpose(p) for p in wanted))
        if action not in ("drop", "mark"):
            raise InvalidArgument("action must be 'drop' or 'mark'")
        if robots is not None and not isinstance(robots, RobotsFilter):
            raise InvalidArgument("robots must be a RobotsFilter (its index is reused)")
        self.robots = robots
        self.action = action
        self.headers_key = headers_key
        self.url_key = url_key
        self.metadata_key = metadata_key

    def decide(self, url: Any, html: Any, headers: Any = None, date: Any = None
               ) -> Dict[str, Any]:
        """The metadata written for a document: ``refused`` (True, False, or None when
        nothing is stated), ``agent`` and ``purpose`` (the first refused pair, else None),
        ``level`` (``"page"`` or ``"robots.txt"``) and ``decided_by`` (the deciding
        directive or robots.txt lines, described)."""
        from ._signals import combine, page_signals

        pairs = _header_pairs(headers)
        robots = None
        if self.robots is not None and fast_origin(url) is not None:
            robots = self.robots.robots_txt(url, date)
        text = html if isinstance(html, (str, bytes)) else None
        page_url = url if isinstance(url, str) else None
        stated: Optional[Dict[str, Any]] = None
        for agent in self.agents:
            signals = page_signals(pairs, text, agent=agent, url=page_url)
            usage = None
            if robots is not None and page_url is not None:
                try:
                    usage = robots.usage(page_url, agent=agent)
                except InvalidURL:  # a URL the core rejects: no site-level answer
                    usage = None
            both = combine(usage, signals)
            for purpose in self.purposes:
                answer = both.decide(purpose)
                if answer.allowed is False:
                    return {"refused": True, "agent": agent, "purpose": purpose,
                            "level": answer.level, "decided_by": answer.describe()}
                if answer.allowed is True and stated is None:
                    stated = {"refused": False, "agent": None, "purpose": None,
                              "level": answer.level, "decided_by": answer.describe()}
        if stated is not None:
            return stated
        return {"refused": None, "agent": None, "purpose": None, "level": None,
                "decided_by": "nothing stated"}

    def filter(self, doc: Document) -> Union[bool, Tuple[bool, str]]:
        """Keep the document unless its signals refuse a purpose (``action="drop"``)."""
        metadata = doc.metadata
        robots = self.robots
        date = (metadata.get(robots.date_key) if robots is not None
                and robots.date_key is not None else None)
        found = self.decide(metadata.get(self.url_key), doc.text,
                            metadata.get(self.headers_key), date)
        metadata[self.metadata_key] = found
        if self.action == "drop" and found["refused"]:
            return False, "page_signals_refused"
        return True


def _header_pairs(headers: Any) -> list[Tuple[str, str]]:
    """Response headers as stored in metadata (dict, pairs, or a raw block) as pairs;
    anything else (a stranger's data) reads as no headers."""
    from ._signals import parse_header_block

    if isinstance(headers, (str, bytes)):
        return parse_header_block(headers)
    if isinstance(headers, dict):
        return [(str(k), str(v)) for k, v in headers.items() if v is not None]
    pairs: list[Tuple[str, str]] = []
    if isinstance(headers, (list, tuple)):
        for item in headers:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append((str(item[0]), str(item[1])))
    return pairs


class WarcHeadersReader(WarcReader):  # type: ignore[misc]  # datatrove ships no type hints
    """datatrove's :class:`~datatrove.pipeline.readers.WarcReader` that also keeps each
    response's HTTP headers, as ``[name, value]`` pairs in ``metadata["http_headers"]``
    (datatrove's own reader drops them), so that :class:`PageSignalsFilter` can read
    ``X-Robots-Tag``, ``Content-Usage`` and ``tdm-reservation``. Records are chosen and
    decoded by datatrove's own ``process_record``; needs datatrove's WARC dependencies
    (``warcio``, ``faust-cchardet``, ``python-magic``)."""

    name = "🕷 Warc (with headers)"

    def read_file(self, filepath: str) -> Iterator[Document]:
        """The documents of one WARC file, each with its response headers in metadata."""
        from warcio.archiveiterator import ArchiveIterator

        with self.data_folder.open(filepath, "rb", compression=self.compression) as handle:
            for index, record in enumerate(ArchiveIterator(handle)):
                with self.track_time():
                    data = process_record(record)
                    if not data:
                        continue
                    http = record.http_headers
                    data["http_headers"] = ([[str(k), str(v)] for k, v in http.headers]
                                            if http is not None else [])
                    document = self.get_document_from_dict(data, filepath, index)
                    if not document:
                        continue
                yield document
