"""The audit job (issue 37): access logs in, the per-request table and its summary out.

Theory of operation. Two streaming passes, memory bounded by the batch size and the memos,
never by the number of lines:

1. the logs are read (:class:`~._logs.LogReader`); a request is kept when its User-Agent
   names a crawler (:func:`robotsrules.product_token` then the registry's
   :func:`~robotsrules._tables._crawlers.crawler_for`, once per distinct header, in a
   bounded memo; when that finds no registry crawler, a registry token written in the
   header as a word, :func:`~._formats.scan_token`, counted as found by scan; a product
   that is not a browser's and that the registry does not know is kept too, category
   ``unregistered``: never a silently dropped bot) or when it fetches ``/robots.txt``
   (whoever asks). Its address is verified once per distinct (address, token)
   (:func:`robotsrules._identity.verify`, offline lists by default, read once; without
   DNS, once per token and set of lists holding the address). The reader asks about each
   Apache/nginx line's User-Agent as soon as it is matched (``LogReader(keep=...)``), so
   a browser's line is counted and never made a request. Rows go to a Parquet
   file in batches; each crawler's own fetches of the site's ``/robots.txt`` (a ``GET`` or
   ``HEAD`` of exactly that path, from an address not shown to be someone else's) are
   noted with their status, by claimed token;
2. those statuses move that crawler's history in force (:func:`~._inforce.with_fetches`;
   RFC 9309 §2.3.1: the crawler's own fetch, no one else's), then each
   row is judged (:class:`~._inforce.Judge`: the file in force at its time, RFC 9309
   §2.4's caching window) and written to the request table, again in batches.

The summary (:mod:`._summary`) is aggregated from that table by the engine (DuckDB, or
Spark for fleets) with one set of queries, the same for both.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import contextlib
import datetime
import gc
import ipaddress
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, Optional, Union

from .._lru import LRU
from .._tables._crawlers import Crawler, crawler_for
from .._terminal import visible
from ..errors import InvalidArgument
from ..model import Verdict
from ..robotstxt import RobotsTxt, parse
from ..useragent import product_token
from ._formats import FormatName, Request, scan_token, scan_tokens
from ._inforce import DAY, History, Judge, Judgement, Version, with_fetches
from ._logs import LogReader, Source

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["BATCH_ROWS", "CLIENT_FIELDS", "COLUMNS", "LogAudit", "audit_logs", "request_schema"]

BATCH_ROWS = 65_536
"""Rows written at a time, at most."""
BATCH_BYTES = 8 * 1024 * 1024
"""Text octets held before a batch is written (long lines: fewer rows at a time)."""
KEY_CHARS = 256
"""Longer memo keys (a stranger's User-Agent or URL) are kept as a 16-octet digest."""
MEMO = 65_536
"""Distinct User-Agent headers, and distinct (address, token) pairs, remembered."""
MAX_FETCHES = 1_000_000
"""The site's own ``/robots.txt`` answers noted, at most (later ones: counted, not used)."""
MAX_CRAWLERS = 10_000
"""Distinct crawlers (claimed tokens) whose own ``/robots.txt`` answers are followed; the
requests of crawlers past it are ``no-file`` (their state is not known)."""
GC_THRESHOLD = 100_000
"""The cyclic garbage collector's first threshold while a job runs (the one in force, if
higher, is kept; the thresholds are put back when the last job running ends: a
threshold the caller sets while jobs run is replaced then). A job makes and drops millions
of tuples (a line's fields, a row's keys) and none of them in a cycle; at the default
(700 allocations) the collector ran about 1,500 times on the 1 M-line benchmark log and
went through the job's memos (up to :data:`MEMO` entries each) in every full collection:
about 6 % of the job's CPU time. Cycles, if any, are still collected, 100,000 allocations
apart (a bounded memory)."""
MAX_TOKEN = 200
"""A product token's characters kept (a stranger's header may hold a token of 60 KiB)."""
_EPOCH = datetime.datetime(1, 1, 1, tzinfo=datetime.timezone.utc)

Engine = Literal["duckdb", "spark"]
CLIENT_FIELDS: Mapping[str, str] = {
    "client": "client", "remote_addr": "client", "remote_ip": "client", "c-ip": "client",
    "x-forwarded-for": "forwarded", "forwarded": "forwarded", "clientip": "forwarded",
    "client_ip": "forwarded", "true-client-ip": "forwarded", "cf-connecting-ip": "forwarded",
}
"""``client_ip_field`` names, case-insensitive: the connection's peer (the default), or the
client address a proxy or CDN named (``X-Forwarded-For``'s last address: the one the proxy
in front of the server added, Cloudflare's
``ClientIP``, Caddy's ``client_ip``), as each format reads it."""


COLUMNS = ("time", "day", "client", "host", "method", "url", "status", "bytes", "user_agent",
           "token", "crawler", "operator", "category", "robots_fetch", "verification",
           "verdict", "allowed", "line", "rule", "version", "crawl_delay", "reads_crawl_delay",
           "content_signal", "content_usage", "paid", "rfc_disallowed")
"""The request table's columns, in order (their types: :func:`request_schema`).
``rfc_disallowed``: for a request the file in force allows, whether RFC 9309's reading of
it disallows the URL (reported apart, never a violation: :mod:`._inforce`); else null."""


def request_schema() -> pa.Schema:
    """The request table's columns, with the bulk tables' provenance metadata."""
    import pyarrow as pa

    from ..bulk import with_provenance

    text, number, flag = pa.string(), pa.int32(), pa.bool_()
    types = {"time": pa.timestamp("us", tz="UTC"), "status": number, "bytes": pa.int64(),
             "robots_fetch": flag, "allowed": flag, "line": number,
             "crawl_delay": pa.float64(), "paid": flag, "rfc_disallowed": flag}
    return with_provenance(pa.schema([pa.field(name, types.get(name, text))
                                      for name in COLUMNS]))


class _Claim:
    """What a User-Agent header claims, read once per distinct header."""

    __slots__ = ("category", "crawler", "operator", "reads_delay", "scanned", "several",
                 "token")

    def __init__(self, token: str, crawler: Optional[Crawler], scanned: bool = False) -> None:
        self.scanned = scanned
        """The token was found by scanning the header, not by product-token matching."""
        self.several = False
        """The header names other registry crawlers too (judged as this one only)."""
        self.token = crawler.token if crawler is not None and crawler.token else token
        self.crawler = crawler.label if crawler is not None else None
        self.operator = crawler.operator if crawler is not None else None
        self.category = crawler.category if crawler is not None else "unregistered"
        self.reads_delay = crawler.reads_crawl_delay if crawler is not None else "unknown"


_NO_CLAIM = _Claim("", None)


def memo_key(text: str) -> Union[str, bytes]:
    """``text`` as a memo key: itself when short, else its BLAKE2b digest (16 octets), so
    a memo's memory is bounded whatever the lines' sizes."""
    if len(text) <= KEY_CHARS:
        return text
    import hashlib

    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _claim_of(user_agent: Optional[str],
              memo: LRU[Union[str, bytes], _Claim]) -> Optional[_Claim]:
    if not user_agent:
        return None
    key = memo_key(user_agent)
    claim = memo.get(key)
    if claim is None:
        try:
            token = product_token(user_agent)
        except (ValueError, TypeError):
            token = "*"
        token = token.split("/", 1)[0][:MAX_TOKEN]
        crawler = crawler_for(token) if token != "*" and token else None
        if crawler is None:  # a registry token hidden behind control bytes, quotes...
            found = scan_token(user_agent)
            if found is not None:
                claim = _Claim(found, crawler_for(found), scanned=True)
        if claim is not None:
            pass
        elif token == "*" or not token:
            claim = _NO_CLAIM
        else:
            claim = _Claim(token, crawler)
        if claim is not _NO_CLAIM and crawler is not None:
            claim.several = any(other.lower() != claim.token.lower()
                                for other in scan_tokens(user_agent))
        memo.put(key, claim)
    return None if claim is _NO_CLAIM else claim


class _Keep:
    """Whether a User-Agent header claims a crawler (the reader keeps its requests), and
    the claim (the first pass), each header's claim remembered in a plain bounded ``dict``
    (asked for most lines of a log: cheaper than the claims' LRU, which it consults once
    per header)."""

    __slots__ = ("answers", "claims")

    def __init__(self, claims: LRU[Union[str, bytes], _Claim]) -> None:
        self.claims = claims
        self.answers: dict[Optional[str], _Claim] = {}
        """By header: its claim, or :data:`_NO_CLAIM` for none."""

    def __call__(self, agent: str) -> bool:
        found = self.answers.get(agent)  # (the reader asks for most lines: one call less)
        return found is not _NO_CLAIM if found is not None else self.claim(agent) is not None

    def claim(self, agent: Optional[str]) -> Optional[_Claim]:
        """What ``agent`` claims (:func:`_claim_of`), or ``None`` for no crawler."""
        found = self.answers.get(agent)
        if found is None:
            if not agent:
                return None
            found = _claim_of(agent, self.claims) or _NO_CLAIM
            if len(agent) <= KEY_CHARS:
                if len(self.answers) >= MEMO:
                    self.answers.clear()
                self.answers[agent] = found
        return None if found is _NO_CLAIM else found


def _path_of(target: Optional[str]) -> str:
    """The path of a request target (origin form or absolute form)."""
    if not target:
        return ""
    if "://" in target[:12]:
        rest = target.split("://", 1)[1]
        slash = rest.find("/")
        target = rest[slash:] if slash >= 0 else "/"
    return target.split("?", 1)[0].split("#", 1)[0]


def _site_host(site: str) -> str:
    from .._scope import origin_of

    try:
        origin = origin_of(site)
    except Exception as error:  # InvalidURL and what a bad URL raises
        raise InvalidArgument(f"--site: {error}") from None
    return origin.split("://", 1)[1].split(":", 1)[0].lower()


def _same_host(host: Optional[str], site: str) -> bool:
    if host is None:
        return True
    host = host.lower()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    else:  # the port first, then the root's dot: "example.com.:443" is example.com
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return host.rstrip(".") == site


class _Verifier:
    """Address verification once per distinct (address, token) while the memo holds it.
    The address lists are read once (not looked for again at every call); without DNS,
    the verdict depends on the token and on which lists hold the address only, so it is
    also remembered by those: a new address in the same lists costs a look-up in the
    index. The memo is a plain ``dict`` emptied when it holds :data:`MEMO` pairs (asked
    for every crawler row: a hit is one C call, where an LRU's is a call into Python and
    a ``move_to_end``); a pair asked again after that is checked again and counted again
    in :attr:`asked` (``addresses_checked``)."""

    def __init__(self, enabled: bool, dns: Union[bool, str], snapshot: Any) -> None:
        self.enabled = enabled
        self.dns = dns
        self.snapshot = snapshot
        self.memo: dict[tuple[Union[str, bytes], str], str] = {}
        self.by_lists: dict[tuple[str, tuple[int, ...]], str] = {}
        self.lists: Any = None
        self.read = False
        self.asked = 0

    def _lists(self) -> Any:
        """The address lists in force (read on the first call), or ``None`` when there are
        none to read (each call to ``verify`` then says why)."""
        if not self.read:
            from .._identity import current_snapshot
            from .._tables._addresses import Snapshot
            from ..errors import RobotsError

            self.read = True
            try:
                self.lists = self.snapshot if isinstance(self.snapshot, Snapshot) \
                    else current_snapshot(self.snapshot)
            except RobotsError:
                self.lists = None
        return self.lists

    def __call__(self, address: Optional[str], token: str) -> Optional[str]:
        if not self.enabled:
            return None
        if not address:
            return "unknown"
        key = (address if len(address) <= KEY_CHARS else memo_key(address), token)
        answer = self.memo.get(key)
        if answer is None:
            from .._identity import parse_address, verify

            self.asked += 1
            lists = self._lists()
            bare = address.strip("[]")
            try:
                parsed = ipaddress.ip_address(bare)
                if lists is None or self.dns is not False:
                    answer = verify(bare, agent=token, dns=self.dns,
                                    snapshot=lists if lists is not None else self.snapshot
                                    ).verdict
                else:
                    held = (token, tuple(id(hit.list) for hit in
                                         lists.index.lookup(parse_address(parsed))))
                    answer = self.by_lists.get(held)
                    if answer is None:
                        answer = verify(bare, agent=token, dns=False, snapshot=lists).verdict
                        if len(self.by_lists) >= MEMO:
                            self.by_lists.clear()
                        self.by_lists[held] = answer
            except (ValueError, InvalidArgument):
                answer = "unknown"  # no address to check: not verified, not accused
            if len(self.memo) >= MEMO:
                self.memo.clear()
            self.memo[key] = answer
        return answer


def _history_of(robots: Any, history: Any, findings: dict[str, Any], site: str,
                history_path: str) -> History:
    """The history in force: one file (bytes, text, a path, a ``RobotsTxt``) in force
    always, or a history (a :class:`History`, or what ``read_history`` reads: a folder of
    dated files, a git repository, WARC captures, a robots cache's SQLite store)."""
    if (robots is None) == (history is None):
        raise InvalidArgument("give robots (one file) or history (dated versions), not both")
    if history is not None:
        if isinstance(history, History):
            return history
        from ._history import read_history
        from ._inforce import Findings

        found = Findings()
        try:
            read = read_history(history, findings=found, site=site, path_in_repo=history_path)
        except OSError as error:
            raise InvalidArgument(f"cannot read the history {history}: "
                                  f"{error.strerror or error}") from None
        findings.update({kind: {"count": count, "examples": found.examples.get(kind, [])}
                         for kind, count in found.counts.items()})
        return read
    if isinstance(robots, RobotsTxt):
        return History([Version(_EPOCH, robots, "robots.txt")])
    if isinstance(robots, (bytes, bytearray)):
        return History([Version(_EPOCH, parse(bytes(robots)), "robots.txt")])
    try:
        with open(robots, "rb") as handle:
            from ..robotstxt import DEFAULT_MAX_BYTES

            body = handle.read(DEFAULT_MAX_BYTES + 1)
    except OSError as error:
        raise InvalidArgument(f"cannot read {robots}: {error.strerror or error}") from None
    return History([Version(_EPOCH, parse(body), os.path.basename(os.fspath(robots)))])


class _Fetches:
    """Each crawler's own ``/robots.txt`` answers (RFC 9309 §2.3.1: the crawler's fetch
    moves that crawler's state, no one else's), keyed by the claimed product token,
    written to a Parquet file as they come, then read back in order (DuckDB sorts on disk)
    and kept only where they may move the state in force: an answer read as the one before
    it (the fetch policy's outcome), with no version of the history published between
    them, changes nothing and is left out. At most :data:`MAX_FETCHES` answers and
    :data:`MAX_CRAWLERS` crawlers are kept (the rest counted, left out)."""

    def __init__(self, history: History, path: str, writer: Any) -> None:
        import pyarrow as pa

        self.history = history
        self.path = path
        schema = pa.schema([pa.field("token", pa.string()),
                            pa.field("time", pa.timestamp("us", tz="UTC")),
                            pa.field("status", pa.int32())])
        self.rows = _Rows(writer(path, schema), schema, ("token", "time", "status"))
        self.unknown: set[str] = set()
        """Tokens past :data:`MAX_CRAWLERS`: their state is not known."""

    def add(self, token: str, time: datetime.datetime, status: int) -> None:
        self.rows.add((token, time, status))

    def kept(self) -> tuple[dict[str, list[tuple[datetime.datetime, int]]], int]:
        """Per token, the answers that may move its state, in time order; and how many
        were left out past the bounds."""
        from ..policy import REDIRECT_STATUSES, outcome_for_status
        from ._summary import in_order

        self.rows.flush()
        self.rows.writer.close()
        kept: dict[str, list[tuple[datetime.datetime, int]]] = {}
        total = left_out = 0
        last: Optional[tuple[str, datetime.datetime, str]] = None
        for batch in in_order(self.path, "token, time, status", BATCH_ROWS):
            for token, time, status in zip(batch.column("token").to_pylist(),
                                           batch.column("time").to_pylist(),
                                           batch.column("status").to_pylist()):
                if status in REDIRECT_STATUSES:
                    continue  # changes nothing (with_fetches skips it too)
                outcome = "ok" if status == 304 else outcome_for_status(status)
                if last is not None and last[0] == token and last[2] == outcome and \
                        self.history.index_at(time) == self.history.index_at(last[1]):
                    continue
                answers = kept.get(token)
                if answers is None and len(kept) >= MAX_CRAWLERS:
                    self.unknown.add(token)  # judged "no-file": its state is not known
                    left_out += 1
                    continue
                if total >= MAX_FETCHES:
                    left_out += 1
                    continue
                kept.setdefault(token, []).append((time, status))
                total += 1
                last = (token, time, outcome)
        return kept, left_out


class LogAudit:
    """What :func:`audit_logs` found: :attr:`summary` (a JSON-able ``dict``, documented
    field by field in :mod:`robotsrules._audit._summary`) and the request table (one row
    per crawler request and per ``/robots.txt`` fetch; columns: :func:`request_schema`),
    kept in a Parquet file (:attr:`path`) read on demand with :meth:`table` or
    :meth:`batches`. :meth:`close` (or leaving a ``with`` block) removes the file when the
    audit made it in a temporary folder."""

    def __init__(self, path: str, summary: dict[str, Any], owned: Optional[str]) -> None:
        self.path = path
        self.summary = summary
        self._owned = owned

    @property
    def violations(self) -> int:
        """Requests judged violations (disallowed under every version in the window)."""
        return int(self.summary["totals"]["violations"])

    def table(self) -> pa.Table:
        """The whole request table (memory-mapped from the Parquet file)."""
        import pyarrow.parquet as pq

        return pq.read_table(self.path, memory_map=True)

    def batches(self, rows: int = BATCH_ROWS) -> Iterator[pa.RecordBatch]:
        """The request table in record batches, read as they are taken."""
        import pyarrow.parquet as pq

        with pq.ParquetFile(self.path) as handle:
            for group in range(handle.num_row_groups):  # written bounded in octets
                yield from handle.read_row_group(group).to_batches(max_chunksize=rows)

    def close(self) -> None:
        """Remove the request table's temporary folder (if the audit made one)."""
        if self._owned is not None:
            shutil.rmtree(self._owned, ignore_errors=True)
            self._owned = None

    def __enter__(self) -> LogAudit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _RawRows:
    """The first pass's rows, written to a Parquet writer every :data:`BATCH_ROWS` rows or
    ``batch_bytes`` octets of targets and User-Agents. Per row only what the log gave is
    kept, with the claim's index in the batch's claims and the verification's answer; the
    claim's columns (token, crawler, operator, category, reads_crawl_delay) are taken
    from the batch's claims, ``day`` and ``paid`` computed from the time and status
    columns, once per batch (pyarrow)."""

    __slots__ = ("agents", "batch_bytes", "claimed", "claims", "clients", "fetches", "hosts",
                 "known", "methods", "octets", "schema", "size", "statuses", "times", "urls",
                 "verifications", "writer")

    def __init__(self, writer: Any, schema: pa.Schema, batch_bytes: int) -> None:
        self.writer = writer
        self.schema = schema
        self.batch_bytes = batch_bytes
        self.times: list[datetime.datetime] = []
        self.clients: list[Optional[str]] = []
        self.hosts: list[Optional[str]] = []
        self.methods: list[Optional[str]] = []
        self.urls: list[Optional[str]] = []
        self.statuses: list[Optional[int]] = []
        self.octets: list[Optional[int]] = []
        self.agents: list[Optional[str]] = []
        self.claims: list[int] = []
        self.fetches: list[bool] = []
        self.verifications: list[Optional[str]] = []
        self.claimed: list[_Claim] = []
        """The batch's claims; a row's index is 1 + its claim's place here (0: none, a
        ``/robots.txt`` fetch by no crawler)."""
        self.known: dict[_Claim, int] = {}
        self.size = 0

    def add(self, request: Request, address: Optional[str], host: Optional[str],
            claim: Optional[_Claim], robots_fetch: bool, verification: Optional[str]) -> None:
        """One row."""
        target, agent = request.target, request.user_agent
        self.times.append(request.time)
        self.clients.append(address)
        self.hosts.append(host)
        self.methods.append(request.method)
        self.urls.append(target)
        self.statuses.append(request.status)
        self.octets.append(request.bytes)
        self.agents.append(agent)
        self.fetches.append(robots_fetch)
        self.verifications.append(verification)
        if claim is None:
            self.claims.append(0)
        else:
            index = self.known.get(claim)
            if index is None:
                self.claimed.append(claim)
                index = self.known[claim] = len(self.claimed)
            self.claims.append(index)
        self.size += (len(target) if target else 0) + (len(agent) if agent else 0)
        if len(self.times) >= BATCH_ROWS or self.size >= self.batch_bytes:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        if not self.times:
            return
        schema = self.schema
        time = pa.array(self.times, schema.field("time").type)
        status = _integers(self.statuses, pa.int32(), _INT32)
        claims = pa.array(self.claims, pa.int32())
        claimed = self.claimed
        columns = {
            "time": time, "day": time.cast(pa.date32()).cast(pa.string()),  # UTC's date
            "client": pa.array(self.clients, pa.string()),
            "host": pa.array(self.hosts, pa.string()),
            "method": pa.array(self.methods, pa.string()),
            "url": pa.array(self.urls, pa.string()), "status": status,
            "bytes": _integers(self.octets, pa.int64(), _INT64),
            "user_agent": pa.array(self.agents, pa.string()),
            "robots_fetch": pa.array(self.fetches, pa.bool_()),
            "verification": pa.array(self.verifications, pa.string()),
            "paid": pc.fill_null(pc.equal(status, 402), False)}
        for name, values in (
                ("token", [claim.token for claim in claimed]),
                ("crawler", [claim.crawler for claim in claimed]),
                ("operator", [claim.operator for claim in claimed]),
                ("category", [claim.category for claim in claimed]),
                ("reads_crawl_delay", [claim.reads_delay for claim in claimed])):
            columns[name] = pa.array([None, *values], pa.string()).take(claims)
        size = len(self.times)
        self.writer.write_batch(pa.RecordBatch.from_arrays(
            [columns[field.name] if field.name in columns else pa.nulls(size, field.type)
             for field in schema], schema=schema))
        lists: tuple[list[Any], ...] = (
            self.times, self.clients, self.hosts, self.methods, self.urls, self.statuses,
            self.octets, self.agents, self.claims, self.fetches, self.verifications,
            self.claimed)
        for values in lists:
            values.clear()
        self.known.clear()
        self.size = 0


_INT32: Final = 2**31 - 1
_INT64: Final = 2**63 - 1


def _integers(values: list[Optional[int]], kind: pa.DataType, top: int) -> pa.Array:
    """A column of a stranger's non-negative numbers; one past ``top`` (the column's
    largest: a 19-digit byte count, a JSON status of any size) is not known (``None``),
    never a traceback. The plain conversion first: the look at each value only when it
    failed."""
    import pyarrow as pa

    try:
        return pa.array(values, kind)
    except (OverflowError, pa.ArrowInvalid):
        return pa.array([v if v is None or v <= top else None for v in values], kind)


class _Rows:
    """Column lists flushed to a Parquet writer every :data:`BATCH_ROWS` rows."""

    def __init__(self, writer: Any, schema: pa.Schema, names: Iterable[str]) -> None:
        self.writer = writer
        self.schema = schema
        self.names = tuple(names)
        self.columns: dict[str, list[Any]] = {name: [] for name in self.names}
        self._lists = [self.columns[name] for name in self.names]
        self.count = 0
        self.size = 0

    def add(self, values: tuple[Any, ...]) -> None:
        """One row: a value per name, in the order of the names."""
        size = 0
        for column, value in zip(self._lists, values):
            column.append(value)
            if value.__class__ is str:
                size += len(value)
        self.count += 1
        self.size += size
        if self.count % BATCH_ROWS == 0 or self.size >= BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        if not self.columns[self.names[0]]:
            return
        batch = pa.RecordBatch.from_arrays(
            [pa.array(self.columns[field.name], field.type) if field.name in self.columns
             else pa.nulls(len(self.columns[self.names[0]]), field.type)
             for field in self.schema], schema=self.schema)
        self.writer.write_batch(batch)
        self.size = 0
        for values in self.columns.values():
            values.clear()


def audit_logs(
    logs: Union[Source, Iterable[Source]],
    *,
    site: str,
    robots: Union[bytes, str, os.PathLike[str], RobotsTxt, None] = None,
    history: Union[str, os.PathLike[str], History, None] = None,
    history_path: str = "robots.txt",
    format: Optional[FormatName] = None,
    fields: Optional[Mapping[str, str]] = None,
    verify: bool = True,
    dns: Union[bool, str] = False,
    snapshot: Any = None,
    client_ip_field: Optional[str] = None,
    window: Union[float, datetime.timedelta] = DAY,
    engine: Engine = "duckdb",
    spark: Any = None,
    directory: Union[str, os.PathLike[str], None] = None,
    progress: Any = None,
) -> LogAudit:
    """Audit access logs of ``site``: which crawlers visited, were they who they claimed,
    and did they obey the robots.txt in force at each request?

    ``logs``: a path (a file or a folder of logs), ``"-"`` for standard input, a binary
    stream, or several of them; plain, gzip, bzip2 or zstd; ``format`` names their format
    (else each file's first lines choose it; see ``robotsrules logs --help``) and
    ``fields`` maps nginx JSON keys. ``site``: the site's URL (its host: requests the log
    gives another host are not judged: ``no-file``). The robots.txt: ``robots``, one file
    in force at every time (bytes, a path or a parsed :class:`~robotsrules.RobotsTxt`), or
    ``history``, dated versions: a folder of files named by ISO 8601 date or UTC
    timestamp, a git repository whose commits of ``history_path`` (default
    ``robots.txt``) give the times, a WARC file of robots.txt captures, a robots cache's
    SQLite store (``site`` chooses the origin in the last two), or a ``History``.
    ``window`` (hours, or a ``timedelta``; default 24, RFC 9309 §2.4): a request is a violation
    only if every version in force during the window before it disallows it. ``verify``: check
    each distinct address against the
    operators' published lists (``dns=True`` or ``"ip[:port]"`` adds forward-confirmed
    reverse DNS; ``snapshot`` chooses the address lists); ``client_ip_field``: the client
    address is the one a proxy or CDN logged (:data:`CLIENT_FIELDS`).
    ``engine``: ``"duckdb"`` (the ``bulk`` extra) or ``"spark"`` (``spark``: a session;
    default: a local one) aggregates the summary. ``directory``: where the request table
    is written (default: a temporary folder, removed by :meth:`LogAudit.close`).
    ``progress``: called now and then as ``progress(lines, octets, total)``: the lines
    read, the octets of the files read so far (compressed ones as stored) and their total
    (``None`` when not known: standard input, a stream).

    Raises :class:`~robotsrules.InvalidArgument` for a log or history that cannot be
    opened and for bad options; nothing in a log's content raises: what cannot be read is
    counted by kind in ``summary["input"]``.
    """
    import pyarrow.parquet as pq

    from ._summary import summarise

    if engine not in ("duckdb", "spark"):
        raise InvalidArgument(f"engine must be 'duckdb' or 'spark', not {engine!r}")
    try:
        span = window if isinstance(window, datetime.timedelta) else \
            datetime.timedelta(hours=_hours(window))
    except OverflowError:  # more hours than a timedelta holds (about 2.7 million years)
        raise InvalidArgument(f"the window is too long: {window!r} hours") from None
    if span < datetime.timedelta(0):
        raise InvalidArgument("the window cannot be negative")
    side = "client"
    if client_ip_field is not None:
        side = CLIENT_FIELDS.get(client_ip_field.lower(), "")
        if not side:
            raise InvalidArgument(
                f"client_ip_field: {client_ip_field!r} is not one of "
                f"{', '.join(sorted(CLIENT_FIELDS))}")
    host = _site_host(site)
    robots_findings: dict[str, Any] = {}
    base = _history_of(robots, history, robots_findings, site, history_path)
    claims: LRU[Union[str, bytes], _Claim] = LRU(MEMO)
    keep = _Keep(claims)
    reader = LogReader(format, fields=fields, keep=keep)
    owned = None if directory is not None else tempfile.mkdtemp(prefix="robotsrules-audit-")
    folder = os.fspath(directory) if directory is not None else str(owned)
    raised = False
    spill: Optional[str] = None  # the first pass's file, once made
    try:
        _collector_raised()
        raised = True
        sources: list[Source] = _sources(logs)
        raw_path = os.path.join(folder, "raw.arrow")
        schema = request_schema()
        verifier = _Verifier(verify, dns, snapshot)
        fetches = _Fetches(base, os.path.join(folder, "fetches.parquet"), pq.ParquetWriter)
        total = _octets(sources) if progress is not None else None
        counts = {"other_requests": 0, "other_hosts": 0, "fetches_left_out": 0,
                  "addresses_checked": 0, "tokens_found_by_scan": 0,
                  "targets_not_normalised": 0, "several_crawlers_named": 0}
        examples: list[str] = []
        spill = raw_path
        with open(raw_path, "wb") as sink, _raw_writer(sink, schema) as writer:
            rows = _RawRows(writer, schema, BATCH_BYTES)
            for number, request in enumerate(reader.read(sources), 1):
                if progress is not None and number % 65_536 == 0:
                    progress(reader.tally.lines, reader.tally.octets, total)
                _first_pass(request, rows, keep, verifier, fetches, counts, host, side,
                            examples)
            rows.flush()
        if progress is not None:
            progress(reader.tally.lines, reader.tally.octets, total)
        counts["addresses_checked"] = verifier.asked
        counts["other_requests"] += reader.tally.passed  # no crawler's, read no further
        answers, left_out = fetches.kept()
        counts["fetches_left_out"] += left_out
        judges = _Judges(base, span, fetches.unknown)
        for token, theirs in answers.items():
            inforce, left_out = with_fetches(base, theirs)
            counts["fetches_left_out"] += left_out
            judges.own[token] = Judge(inforce, window=span, verdicts=judges.verdicts)
        table_path = os.path.join(folder, "requests.parquet")
        _second_pass(raw_path, table_path, schema, judges, host)
        os.unlink(raw_path)
        summary = summarise(table_path, engine=engine, spark=spark, reader=reader,
                            history=base, site=site, window=span, counts=counts,
                            robots_findings=robots_findings, verified=verify, dns=dns)
        summary["totals"]["several_crawlers_named"] = counts["several_crawlers_named"]
        summary["totals"]["targets_not_normalised"] = {
            "count": counts["targets_not_normalised"], "examples": examples}
    except BaseException:
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)
        elif spill is not None:  # the caller's folder: the first pass's file goes
            with contextlib.suppress(OSError):
                os.unlink(spill)
        raise
    finally:
        if raised:
            _collector_put_back()
    return LogAudit(table_path, summary, owned)


_COLLECTOR_LOCK = threading.Lock()
_COLLECTOR: list[tuple[int, int, int]] = []
"""The thresholds in force before the first of the jobs running now, once per running job
(jobs in several threads may end in any order: the last one out puts back the first's)."""


def _collector_raised() -> None:
    with _COLLECTOR_LOCK:
        thresholds = _COLLECTOR[0] if _COLLECTOR else gc.get_threshold()
        _COLLECTOR.append(thresholds)
        gc.set_threshold(max(thresholds[0], GC_THRESHOLD), thresholds[1], thresholds[2])


def _collector_put_back() -> None:
    with _COLLECTOR_LOCK:
        thresholds = _COLLECTOR.pop()
        if not _COLLECTOR:
            gc.set_threshold(*thresholds)


def _octets(sources: list[Source]) -> Optional[int]:
    """The size of the files to read, or ``None`` when it is not known (a stream, standard
    input, a file that cannot be looked at: the reader says why)."""
    total = 0
    for source in sources:
        if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
            return None
        try:
            path = os.fspath(source)
            total += (sum(os.path.getsize(os.path.join(root, name))
                          for root, _dirs, names in os.walk(path) for name in names)
                      if os.path.isdir(path) else os.path.getsize(path))
        except OSError:
            return None
    return total


def _sources(logs: Any) -> list[Source]:
    """One source or several, as a list."""
    if isinstance(logs, (str, os.PathLike)) or hasattr(logs, "read"):
        return [logs]
    return list(logs)


def _hours(value: Any) -> float:
    import math

    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise InvalidArgument(f"the window is a number of hours, not {value!r}")
    return float(value)


def _first_pass(request: Request, rows: _RawRows, keep: _Keep, verifier: _Verifier,
                fetches: _Fetches, counts: dict[str, int],
                host: str, side: str, examples: list[str]) -> None:
    target = request.target
    path = _path_of(target)
    robots_fetch = path == "/robots.txt"
    claim = keep.claim(request.user_agent)
    if claim is None and not robots_fetch:
        counts["other_requests"] += 1
        return
    request_host = _absolute_host(target) or request.host
    address = request.client if side == "client" else request.forwarded
    if claim is None:
        rows.add(request, address, request_host, None, robots_fetch, None)
        return
    if claim.scanned:
        counts["tokens_found_by_scan"] += 1
    if claim.several:
        counts["several_crawlers_named"] += 1
    if ("%" in path or "/." in path) and _NOT_NORMALISED.search(path) is not None:
        counts["targets_not_normalised"] += 1
        if len(examples) < 5:
            examples.append(visible(path[:200]))
    ours = _same_host(request_host, host)
    if not ours:
        counts["other_hosts"] += 1
    verification = verifier(address, claim.token)
    # RFC 9309 §2.3.1: the crawler's own fetch of the file moves its state: a GET (or
    # HEAD) of exactly /robots.txt on the site, by a client not proven to be someone else
    if robots_fetch and ours and request.status is not None \
            and request.method in ("GET", "HEAD") and path == _target_only(target) \
            and verification != "not-verified":
        fetches.add(claim.token, request.time, request.status)
    rows.add(request, address, request_host, claim, robots_fetch, verification)


# RFC 9309 (September 2022) §2.2.2: percent-encoded unreserved characters (RFC 3986 §2.3)
# MUST be decoded before comparison; Google's library (whose verdicts the audit gives)
# does not decode them, nor dot segments: such targets are counted, the verdict kept.
_NOT_NORMALISED = re.compile(r"%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])"
                             r"|/\.\.?(?:/|\Z)")


def _absolute_host(target: Optional[str]) -> Optional[str]:
    """The host (and port) of an absolute-form request target, else ``None``."""
    if not target or "://" not in target[:12]:
        return None
    rest = target.split("://", 1)[1]
    end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0),
              default=len(rest))
    return rest[:end].rpartition("@")[2]


def _target_only(target: Optional[str]) -> str:
    """The request target without an absolute form's scheme and host."""
    if target and "://" in target[:12]:
        rest = target.split("://", 1)[1]
        slash = rest.find("/")
        return rest[slash:] if slash >= 0 else ""
    return target or ""


class _Judges:
    """A :class:`Judge` per crawler: the history moved by that crawler's own ``/robots.txt``
    answers (:attr:`own`), else the history as given; crawlers past :data:`MAX_CRAWLERS`
    are judged against a file not known."""

    def __init__(self, base: History, window: datetime.timedelta, unknown: set[str]) -> None:
        self.own: dict[str, Judge] = {}
        self.verdicts: dict[tuple[int, str, str], Verdict] = {}
        """One memo of verdicts for every crawler's judge: bounded whatever their number."""
        self.base = Judge(base, window=window, verdicts=self.verdicts)
        self.unknown = unknown
        self.none = Judge(History([Version(_EPOCH, None, "too many crawlers")]), window=window)

    def __call__(self, token: str) -> Judge:
        judge = self.own.get(token)
        if judge is not None:
            return judge
        return self.none if token in self.unknown else self.base


def _raw_writer(sink: Any, schema: pa.Schema) -> Any:
    """The first pass's rows, a file read once by the second pass and removed: Arrow's IPC
    file format, LZ4-compressed where pyarrow has the codec (measured on the 1 M-line
    benchmark's 300,000 rows: written and read in about a third of Parquet's time, for
    four to five times its size on disk)."""
    import pyarrow as pa

    codec = "lz4" if pa.Codec.is_available("lz4") else None
    return pa.ipc.new_file(sink, schema, options=pa.ipc.IpcWriteOptions(compression=codec))


def _second_pass(raw_path: str, table_path: str, schema: pa.Schema, judges: _Judges,
                 host: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    delays: LRU[tuple[int, str], tuple[Optional[float]]] = LRU(MEMO)
    with pa.OSFile(raw_path, "rb") as source, pq.ParquetWriter(table_path, schema) as writer:
        raw = pa.ipc.open_file(source)  # read a batch at a time (bounded in octets)
        for index in range(raw.num_record_batches):
            # one batch's arrays alive at a time: the batch is read, judged and written in
            # a function of its own (in the compiled build, a loop body's temporaries
            # otherwise lived until the loop ended: every batch of the file held at once)
            writer.write_batch(_judged(raw.get_batch(index), schema, judges, host, delays))


def _judged(batch: pa.RecordBatch, schema: pa.Schema, judges: _Judges, host: str,
            delays: LRU[tuple[int, str], tuple[Optional[float]]]) -> pa.RecordBatch:
    """A batch of the first pass's rows with its judged columns."""
    import pyarrow as pa

    tokens = batch.column("token").to_pylist()  # only what judging reads
    urls = batch.column("url").to_pylist()
    hosts = batch.column("host").to_pylist()
    times = batch.column("time").cast(pa.int64()).to_pylist()  # microseconds
    outcomes = _Outcomes(delays)
    ids = [0] * batch.num_rows
    judge_of: dict[str, Judge] = {}  # by token, for the batch
    for i, token in enumerate(tokens):
        if token is None:
            continue
        target = urls[i]
        named = hosts[i]
        if not target or (named is not None and not _same_host(named, host)):
            ids[i] = 1  # no-file
            continue
        judge = judge_of.get(token)
        if judge is None:
            judge = judge_of[token] = judges(token)
        ids[i] = outcomes.of(judge, token, target, times[i])
    judged = outcomes.columns(pa.array(ids, pa.int32()), schema)
    return pa.RecordBatch.from_arrays(
        [judged[f.name] if f.name in judged else batch.column(f.name) for f in schema],
        schema=schema)


_JUDGED = ("verdict", "version", "allowed", "line", "rule", "crawl_delay", "content_signal",
           "content_usage", "rfc_disallowed")
"""The columns the second pass writes, in the order of an outcome's values."""
_NOTHING: tuple[Any, ...] = (None,) * len(_JUDGED)


class _Outcomes:
    """A batch's distinct outcomes: each request judged gets the index of its outcome (one
    per distinct status, version, verdict's rule and usage lines, RFC reading and crawler),
    whose judged columns are made once; 0 is no crawler's (all null), 1 ``no-file``."""

    __slots__ = ("delays", "index", "pinned", "values")

    def __init__(self, delays: LRU[tuple[int, str], tuple[Optional[float]]]) -> None:
        self.delays = delays
        self.values: list[tuple[Any, ...]] = [_NOTHING, ("no-file", *_NOTHING[1:])]
        self.index: dict[tuple[Any, ...], int] = {}
        self.pinned: list[Judgement] = []
        """The judgements whose objects' ids are in :attr:`index`'s keys: alive, so that
        an id stays theirs while the batch lasts."""

    def of(self, judge: Judge, token: str, target: str, micros: int) -> int:
        """The index of the outcome of ``token`` fetching ``target`` at ``micros``."""
        try:
            answer = judge.judge_micros(token, target, micros)
        except (ValueError, InvalidArgument):  # a target no rule can read: not judged
            return 1
        verdict = answer.verdict
        key: tuple[Any, ...] = (answer.status, id(answer.version)) if verdict is None else (
            answer.status, id(answer.version), token, verdict.allowed, answer.rfc_disallowed,
            id(verdict.rule), id(verdict.usage))
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.values)
            self.values.append(self._values(answer, token))
            self.pinned.append(answer)
        return found

    def _values(self, answer: Judgement, token: str) -> tuple[Any, ...]:
        """The judged columns of ``answer``, in the order of :data:`_JUDGED`."""
        version, verdict = answer.version, answer.verdict
        source = version.source if version is not None else None
        if verdict is None:
            return (answer.status, source, *_NOTHING[2:])
        rule = verdict.rule
        signals = [u.value for u in verdict.usage if u.directive == "content-signal"]
        usages = [u.value for u in verdict.usage if u.directive == "content-usage"]
        robots = version.robots if version is not None else None
        delay: Optional[float] = None
        if robots is not None:
            key = (id(robots), token)
            held = self.delays.get(key)
            if held is None:
                held = (robots.crawl_delay(token),)
                self.delays.put(key, held)
            delay = held[0]
        return (answer.status, source, verdict.allowed,
                rule.line if rule is not None else None,
                f"{rule.directive.capitalize()}: {rule.value}" if rule is not None else None,
                delay, "; ".join(signals) if signals else None,
                "; ".join(usages) if usages else None, answer.rfc_disallowed)

    def columns(self, ids: pa.Array, schema: pa.Schema) -> dict[str, pa.Array]:
        """The judged columns of a batch whose rows have the outcomes ``ids``."""
        import pyarrow as pa

        return {name: pa.array([values[k] for values in self.values],
                               schema.field(name).type).take(ids)
                for k, name in enumerate(_JUDGED)}
