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
from typing import Any, Dict, Literal, Optional, Sequence, Tuple, Union

from datatrove.data import Document
from datatrove.pipeline.filters.base_filter import BaseFilter
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
from .robotstxt import RobotsTxt

__all__ = ["RobotsFilter"]

Action = Literal["drop", "mark"]


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
    ) -> None:
        super().__init__(exclusion_writer)
        names = [agents] if isinstance(agents, str) else list(agents)
        if categories:
            names.extend(category_tokens(categories))
        self.agents = check_agents(tuple(dict.fromkeys(names)))
        if (robots is None) == (robots_warc is None):
            raise ValueError("pass one of robots (a table or file) or robots_warc (WARC paths)")
        if action not in ("drop", "mark") or missing not in ("keep", "drop"):
            raise ValueError("action must be 'drop' or 'mark'; missing 'keep' or 'drop'")
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

    def verdict(self, url: Any, date: Any = None) -> Dict[str, Any]:
        """The metadata written for a document at ``url`` (crawled at ``date``)."""
        history = self._load()
        origin = fast_origin(url)
        if origin is None:
            return {"disallowed": None, "agent": None, "line": None, "reason": INVALID_URL}
        site = history.site(url)
        when: Any = date if self.date_key is not None else datetime.datetime.max.replace(
            tzinfo=datetime.timezone.utc)
        capture = history.as_of(site, when) if site is not None else None
        if capture is None:
            return {"disallowed": None, "agent": None, "line": None, "reason": NO_ROBOTS}
        robots = self._rules(capture)
        unknown: Optional[str] = None
        for agent in self.agents:
            allowed, line, reason = verdict_of(robots, url, agent)
            if allowed is False:
                return {"disallowed": True, "agent": agent, "line": line, "reason": reason}
            if allowed is None and unknown is None:
                unknown = reason
        if unknown is not None:
            return {"disallowed": None, "agent": None, "line": None, "reason": unknown}
        return {"disallowed": False, "agent": None, "line": None, "reason": "allowed"}

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
