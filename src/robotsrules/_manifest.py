"""Evidence manifests: which opt-outs a dataset build consulted, per origin, as JSON Lines.

The EU General-Purpose AI Code of Practice (copyright chapter, published by the European
Commission on 2025-07-10) asks signatories to honour robots.txt (RFC 9309) and other
machine-readable opt-outs when they crawl, and to be able to show it. A manifest is that
record for one run of ``robotsrules bulk --manifest FILE`` or of a datatrove filter with
``manifest=``: a header record, then one record per origin (per robots.txt capture, when a
run judged an origin by several), in the shape of ``data/manifest.schema.json``.

* the header: ``manifest_version``, the library and its version, the crawler registry's
  ``version`` and ``compiled`` date when ``data/crawlers.json`` carries them (else null,
  said in ``notes``), the usage vocabularies read (``vocabularies``: the table's version,
  the draft-ietf-aipref-vocab revision and the purpose-group draft's revision, how much of
  it was read and its tokens; the aipref revision and its date also as ``aipref_revision``
  and ``aipref_revision_date``), the reading mode, the agents and purposes, the time the
  manifest was written, the protocols consulted, and ``null_fields``: each field the input
  could not fill and why (a robots table without ``date`` gives no fetch time);
* an origin record: the robots.txt octets' SHA-256 and size, its fetch time and HTTP
  status (null when the input does not carry them), the fetch policy's outcome, the
  protocols consulted for it, the verdicts given (URL and agent pairs), and every refusal
  with its deciding line (agent, line number, the line as written, the reason, how many
  URLs it refused);
* when a run read page signals (``bulk --pages-warc --manifest``, the datatrove
  ``PageSignalsFilter(manifest=...)``; manifest version 2), an origin record also has
  ``pages`` (page and agent pairs read), ``page_refusals`` (every purpose refused, with the
  deciding directive: the header, meta or file statement, or the robots.txt usage lines;
  how many pages it refused and the first one), ``priced`` (responses that asked to be paid
  for, HTTP 402 pay-per-crawl) and ``license_urls`` (the RSL licences the pages named, at
  most :data:`MAX_LICENSE_URLS`). Records without pages are as in version 1.

Pure and standard-library only: the callers feed it what they judged (:meth:`observe_batch`
for Arrow verdict batches, :meth:`refusal` row by row) and :meth:`write` it at the end.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, Callable, Optional

from ._tables._purposes import vocabulary_info
from ._version import __version__
from .policy import outcome_for_status
from .robotstxt import RobotsTxt, parse

__all__ = ["MANIFEST_VERSION", "MAX_LICENSE_URLS", "PAGE_PROTOCOLS", "PROTOCOLS", "Manifest",
           "registry_version"]

MANIFEST_VERSION = 2
"""The manifest format's version (``manifest_version`` of the header): 2 added the page
fields of origin records (version 1 records are version 2 records without them)."""

PROTOCOLS: tuple[str, ...] = ("robots.txt", "content-signal", "content-usage",
                              "x-robots-tag", "robots-tag", "robots-meta", "tdmrep", "rsl",
                              "pay-per-crawl")
"""The protocols a record can say were consulted."""

PAGE_PROTOCOLS: tuple[str, ...] = ("content-signal", "content-usage", "x-robots-tag",
                                   "robots-tag", "robots-meta", "tdmrep", "rsl",
                                   "pay-per-crawl")
"""The protocols the page layer reads in every response (``rsl``: its licence links)."""

MAX_LICENSE_URLS = 100
"""Distinct licence URLs kept per origin record (the count of all is kept too)."""
_MAX_TEXT = 300

_Key = tuple[str, Optional[str]]  # (origin, robots.txt SHA-256 or None)


def _page_key(agent: str, purpose: str, answer: Any) -> _PageKey:
    """What a page refusal is counted under: the agent, the purpose, the level and the
    deciding statement (a page directive without its place in the page, or the robots.txt
    usage lines as written with the first line's number)."""
    directive = answer.directive
    if answer.level == "page" and directive is not None:
        return (agent, purpose, "page", directive.source, directive.field, directive.rule,
                _short(directive.value), None)
    lines = tuple(answer.lines)
    rule = "; ".join(("Content-Signal" if u.directive == "content-signal" else "Content-Usage")
                     + f": {u.value}" for u in lines) if lines else None
    return (agent, purpose, answer.level or "robots.txt", None, None, _short(rule), None,
            lines[0].line if lines else None)


def registry_version() -> tuple[Optional[int], Optional[str], Optional[str]]:
    """(``version``, ``compiled``, a note when missing) of the shipped crawler registry."""
    try:
        text = resources.files("robotsrules").joinpath("data/crawlers.json").read_text("utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return None, None, "the crawler registry could not be read"
    version, compiled = data.get("version"), data.get("compiled")
    note = None
    if version is None or compiled is None:
        note = "the crawler registry carries no version/compiled date"
    return (version if isinstance(version, int) else None,
            compiled if isinstance(compiled, str) else None, note)


def _when(value: Any) -> Optional[str]:
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        if value.year <= 1:  # "undated" (robotsrules.bulk's earliest possible date)
            return None
        return str(value.astimezone(datetime.timezone.utc).isoformat(timespec="seconds"))
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.datetime.fromtimestamp(value, datetime.timezone.utc).isoformat(
                timespec="seconds")
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _short(text: Optional[str]) -> Optional[str]:
    if text is None or len(text) <= _MAX_TEXT:
        return text
    return text[:_MAX_TEXT - 3] + "..."


_PageKey = tuple[str, str, Optional[str], Optional[str], Optional[str], Optional[str],
                 Optional[str], Optional[int]]


class _Origin:
    __slots__ = ("body", "fetched_at", "licenses", "page_refusals", "pages", "priced",
                 "protocols", "refusals", "robots", "status", "urls")

    def __init__(self, body: Optional[bytes], status: Optional[int], fetched_at: Any) -> None:
        self.body = body
        self.status = status
        self.fetched_at = fetched_at
        self.urls = 0
        self.refusals: dict[tuple[str, Optional[int], str], int] = {}
        self.protocols: set[str] = set()
        self.robots: Optional[RobotsTxt] = None
        self.pages: Optional[int] = None  # None: the run read no page of this origin
        self.page_refusals: dict[_PageKey, list[Any]] = {}  # key -> [urls, first url, reason]
        self.priced = 0
        self.licenses: dict[str, None] = {}


class Manifest:
    """What one run consulted, gathered as it judges; :meth:`write` writes it.

    ``source`` names the input (a file, "WARC files"); ``has_dates`` / ``has_statuses``
    say whether the robots input carries fetch times and HTTP statuses (if not, those
    fields are null and the header says why); ``protocols`` are those the run consults for
    every origin (``robots.txt``, plus ``content-signal``/``content-usage`` when purposes
    are asked...).
    """

    def __init__(self, *, mode: str, agents: Sequence[str], purposes: Sequence[str] = (),
                 source: str = "", has_dates: bool = True, has_statuses: bool = True,
                 protocols: Sequence[str] = ("robots.txt",), producer: str = "",
                 lookup: Optional[Callable[[str], Optional[tuple[Any, Any, Any]]]] = None
                 ) -> None:
        self.lookup = lookup
        """origin -> its robots row ``(body, status, date)`` or None: the capture of an
        origin first seen in :meth:`judged`/:meth:`refusal` (the bulk job's table)."""
        self.mode = mode
        self.agents = list(agents)
        self.purposes = list(purposes)
        self.source = source
        self.producer = producer
        self.has_dates = has_dates
        self.has_statuses = has_statuses
        self.protocols = [p for p in PROTOCOLS if p in protocols]
        self._origins: dict[_Key, _Origin] = {}
        self._current: dict[str, _Key] = {}

    # -- gathering ----------------------------------------------------------------------------

    def capture(self, origin: str, body: Optional[bytes], status: Optional[int] = None,
                fetched_at: Any = None) -> _Key:
        """Register the robots.txt capture an origin was judged by (idempotent)."""
        digest = None if body is None else hashlib.sha256(body).hexdigest()
        key = (origin, digest if body is not None or status is None else f"status:{status}")
        if key not in self._origins:
            self._origins[key] = _Origin(body, status, fetched_at)
        self._current[origin] = key
        return key

    def judged(self, origin: str, urls: int = 1, key: Optional[_Key] = None,
               protocols: Sequence[str] = ()) -> None:
        """Count ``urls`` judged for ``origin`` (by its latest capture, unless ``key``)."""
        entry = self._entry(origin, key)
        entry.urls += urls
        entry.protocols.update(protocols)

    def refusal(self, origin: str, agent: str, line: Optional[int], reason: str,
                urls: int = 1, key: Optional[_Key] = None) -> None:
        """Record that ``agent`` was refused ``urls`` URLs of ``origin`` by ``line``."""
        entry = self._entry(origin, key)
        slot = (agent, line, reason)
        entry.refusals[slot] = entry.refusals.get(slot, 0) + urls

    def page(self, origin: str, agent: str, url: Optional[str], signals: Any,
             answers: Sequence[tuple[str, Any]] = (), key: Optional[_Key] = None) -> None:
        """Record that ``agent``'s page signals (a :class:`robotsrules.PageSignals`) were
        read for a page of ``origin`` at ``url``, with ``answers``: ``(purpose,``
        :class:`robotsrules.Answer```)`` pairs, of which each refusal is kept with its
        deciding directive."""
        entry = self._entry(origin, key)
        entry.pages = (entry.pages or 0) + 1
        entry.protocols.update(PAGE_PROTOCOLS)
        if signals.priced:
            entry.priced += 1
        for found in signals.license_urls:
            if found not in entry.licenses and len(entry.licenses) < MAX_LICENSE_URLS:
                entry.licenses[found] = None
        for purpose, answer in answers:
            if answer.allowed is not False:
                continue
            slot = _page_key(agent, purpose, answer)
            known = entry.page_refusals.get(slot)
            if known is None:
                entry.page_refusals[slot] = [1, url, _short(answer.describe())]
            else:
                known[0] += 1

    def _entry(self, origin: str, key: Optional[_Key]) -> _Origin:
        chosen = key or self._current.get(origin)
        if chosen is None:
            row = self.lookup(origin) if self.lookup is not None else None
            body, status, date = row if row is not None else (None, None, None)
            if isinstance(body, str):
                body = body.encode("utf-8")
            chosen = self.capture(origin, body, status, date)
        return self._origins[chosen]

    def observe_batch(self, batch: Any) -> None:
        """Count an Arrow batch of verdicts (``robotsrules.bulk.VERDICT_SCHEMA``, or the
        any-agent schema with ``disallowed``): URLs per origin, refusals per line."""
        names = batch.schema.names
        origins = batch.column("origin").to_pylist()
        agents = batch.column("agent").to_pylist()
        lines = batch.column("line").to_pylist()
        reasons = batch.column("reason").to_pylist()
        if "allowed" in names:
            refused = [a is False for a in batch.column("allowed").to_pylist()]
        else:
            refused = [d is True for d in batch.column("disallowed").to_pylist()]
        seen: dict[str, int] = {}
        for origin, agent, line, reason, no in zip(origins, agents, lines, reasons, refused):
            if origin is None:
                continue
            seen[origin] = seen.get(origin, 0) + 1
            if no:
                self.refusal(origin, agent or "", line, reason or "")
        for origin, count in seen.items():
            self.judged(origin, count)

    # -- writing ---------------------------------------------------------------------------------

    def header(self, created: Optional[datetime.datetime] = None,
               records: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        """The header record (``records``: the origin records, whose null fields it
        explains)."""
        version, compiled, note = registry_version()
        vocabulary = vocabulary_info()
        notes: list[str] = []
        if note:
            notes.append(note)
        null_fields: dict[str, str] = {}
        if not self.has_dates:
            null_fields["robots.fetched_at"] = ("the robots input has no date column: when "
                                               "each robots.txt was fetched is not known")
        if not self.has_statuses:
            null_fields["robots.status"] = ("the robots input has no status column: every "
                                            "body is read as a 2xx answer")
        captures = [r["robots"] for r in records if r.get("robots") is not None]
        undated = sum(1 for c in captures if c["fetched_at"] is None)
        if undated and "robots.fetched_at" not in null_fields:
            null_fields["robots.fetched_at"] = (f"{undated} of {len(captures)} robots.txt "
                                                "captures carry no date in the input")
        missing = sum(1 for r in records if r.get("robots") is None)
        if missing:
            null_fields["robots"] = (f"{missing} origins have no robots.txt in the input "
                                     "(their verdicts are unknown, or --missing decided)")
        when = created or datetime.datetime.now(datetime.timezone.utc)
        return {
            "record": "header",
            "manifest_version": MANIFEST_VERSION,
            "library": "robotsrules",
            "library_version": __version__,
            "registry_version": version,
            "registry_compiled": compiled,
            # the reading of the IETF categories behind every usage answer of the run
            "aipref_revision": vocabulary["aipref"],
            "aipref_revision_date": vocabulary["aipref_date"],
            "vocabularies": vocabulary_info(),
            "reading_mode": self.mode,
            "created": when.isoformat(timespec="seconds"),
            "producer": self.producer,
            "source": self.source,
            "agents": self.agents,
            "purposes": self.purposes,
            "protocols": self.protocols,
            "null_fields": null_fields,
            "notes": notes,
        }

    def records(self) -> list[dict[str, Any]]:
        """The origin records, sorted by origin (then capture)."""
        out = []
        for key in sorted(self._origins, key=lambda k: (k[0], k[1] or "")):
            out.append(self._record(key[0], self._origins[key]))
        return out

    def _record(self, origin: str, entry: _Origin) -> dict[str, Any]:
        body = entry.body
        status = entry.status
        if body is None and status is None:
            outcome = "no-robots"
        else:
            outcome = "ok" if status is None else outcome_for_status(status)
        robots = None
        if body is not None or status is not None:
            robots = {
                "sha256": None if body is None else hashlib.sha256(body).hexdigest(),
                "bytes": None if body is None else len(body),
                "fetched_at": _when(entry.fetched_at) if self.has_dates else None,
                "status": status if self.has_statuses else None,
                "outcome": outcome,
            }
        record: dict[str, Any] = {
            "record": "origin",
            "origin": origin,
            "robots": robots,
            "reading_mode": self.mode,
            "protocols": sorted(set(self.protocols) | entry.protocols,
                                key=PROTOCOLS.index),
            "verdicts": entry.urls,
            "refusals": self._refusals(entry),
        }
        if entry.pages is not None:
            record["pages"] = entry.pages
            record["page_refusals"] = self._page_refusals(entry)
            record["priced"] = entry.priced
            record["license_urls"] = list(entry.licenses)
        return record

    def _page_refusals(self, entry: _Origin) -> list[dict[str, Any]]:
        found = []
        for slot, (count, first, reason) in sorted(
                entry.page_refusals.items(),
                key=lambda i: tuple("" if v is None else str(v) for v in i[0])):
            agent, purpose, level, source, field, rule, value, line = slot
            found.append({"agent": agent, "purpose": purpose, "level": level,
                          "source": source, "field": field, "rule": rule, "value": value,
                          "line": line, "reason": reason, "urls": count, "first_url": first})
        return found

    def _refusals(self, entry: _Origin) -> list[dict[str, Any]]:
        found = []
        for (agent, line, reason), count in sorted(
                entry.refusals.items(), key=lambda i: (i[0][0], i[0][1] or 0, i[0][2])):
            found.append({"agent": agent, "line": line, "rule": self._line(entry, line),
                          "reason": reason, "urls": count})
        return found

    def _line(self, entry: _Origin, line: Optional[int]) -> Optional[str]:
        if line is None or entry.body is None:
            return None
        if entry.robots is None:
            entry.robots = parse(entry.body)
        lines = entry.robots.lines
        return lines[line - 1].raw if 0 < line <= len(lines) else None

    def write(self, path: str, created: Optional[datetime.datetime] = None) -> int:
        """Write the manifest to ``path`` (atomically: a temporary file renamed); return the
        number of origin records."""
        records = self.records()
        folder = os.path.dirname(os.path.abspath(path))
        handle, temporary = tempfile.mkstemp(prefix=".manifest-", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                for record in [self.header(created, records), *records]:
                    out.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        return len(records)
