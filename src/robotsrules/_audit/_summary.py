"""The audit's summary: aggregated from the request table by DuckDB or Spark, folded into a
plain JSON-able ``dict``.

Theory of operation. :data:`QUERIES` are the aggregations, one SQL text each, written once
for both engines (only how a timestamp becomes microseconds since the epoch differs:
:data:`DIALECTS`); each answers with a result whose size depends on bots, sites and days,
never on the number of lines. :func:`engine_tables` runs them and sorts their rows (the
tables two engines must agree on); :func:`fold` turns them into the summary.

The summary, field by field (``schema`` names this layout; fields are added, never renamed):

``schema``
    ``"robotsrules-log-audit/1"``.
``site``, ``window_hours``, ``engine``, ``verification``
    The audited site as given, RFC 9309 §2.4's caching window in hours, the engine that
    aggregated (``duckdb`` or ``spark``), how addresses were verified (``offline``: the
    published address lists; ``dns``: lists and forward-confirmed reverse DNS; ``off``).
``provenance``
    The versions of robotsrules and of its data (as every bulk table carries them).
``input``
    What was read: ``sources``, ``lines``, ``requests`` (lines read as requests),
    ``comments`` (header lines of the format), ``blank``, ``formats`` (source → format),
    ``dropped`` (lines that gave no request), ``crawler_lines_unread`` (those of them
    naming a registry crawler: when not 0 the audit is incomplete) and ``problems``:
    kind → ``{"count", "examples"}`` for ``malformed``, ``unknown_format``, ``too_long``,
    ``binary``,
    ``unparsable_time``, ``damaged`` (lines lost) and ``clock_backwards``,
    ``missing_user_agent`` (notes on requests still read); examples are
    ``source:line: text`` with control characters made visible.
``robots``
    The robots.txt judged against: ``versions`` (``[{"since", "source"}]``, ``since`` ISO
    8601 UTC, ``null`` for a single file in force at every time), ``findings`` (kind →
    ``{"count", "examples"}`` of a history folder), ``fetches_left_out`` (the log's own
    robots.txt answers past the bound).
``totals``
    ``requests`` (rows of crawlers, their robots.txt fetches included), ``bots``,
    ``violations``, ``caching_allowance``, ``no_file``, ``rfc_only`` (requests Google's
    reading of the file in force allows and RFC 9309's reading of it disallows: "disallowed
    only in RFC 9309's reading", never violations; see :mod:`._inforce`), ``paid`` (status
    402), ``bytes``,
    ``robots_fetches`` (by anyone), ``other_requests`` (lines of no crawler, not
    robots.txt: browsers and the like, counted only), ``other_hosts`` (crawler requests for
    another host than the site's: verdict ``no-file``), ``addresses_checked`` (distinct
    (address, token) pairs verified: each once, however many requests it made, while the
    memo of 65,536 pairs holds it; the memo is emptied when full, so past that many pairs
    one asked again is checked, and counted, again),
    ``tokens_found_by_scan`` (crawler requests whose header names a registry token only
    behind control or format characters, quotes and the like: found by scanning it),
    ``several_crawlers_named`` (crawler requests whose header names other registry
    crawlers too: judged and verified as the first, by product-token matching, only),
    ``targets_not_normalised`` (``{"count", "examples"}``: crawler requests whose path holds
    a percent-encoded unreserved character or a dot segment, which RFC 9309 §2.2.2 decodes
    before comparison and Google's library, whose verdict is given, does not).
``days``
    ``[{"day", ...counts}]`` over every crawler, by UTC day.
``bots``
    One entry per product token, most requests first (at most :data:`MAX_BOTS`; the rest in
    ``other_bots``: ``{"bots", "requests"}``): ``token``, ``crawler`` (the registry's name,
    ``null`` when unregistered), ``operator``, ``category`` (``unregistered`` when the
    registry does not know the token), the counts (below), ``days``
    (``[{"day", ...counts}]``), ``violations`` (below), ``robots_txt`` (``fetched``,
    ``count``, ``first``, ``last``, ``statuses``), ``crawl_delay`` (below), ``usage``
    (``[{"content_signal", "content_usage", "requests"}]``: the usage preferences the file
    in force stated for what it fetched).
``categories``
    One entry per registry category (and ``unregistered``): ``category``, ``bots``, the
    counts and ``days``.
``robots_fetches``
    ``/robots.txt`` requests by anyone: ``count``, ``by_crawlers``, ``by_others``,
    ``statuses`` (status → count), ``first``, ``last``.

The counts (in a bot, a category, a day): ``requests``, ``bytes``, ``verification``
(``verified``, ``not-verified``, ``unverifiable``, ``unknown``, ``not-checked`` → count),
``verification_shares`` (the same over ``requests``, 0 to 1), ``verdicts`` (``allowed``,
``violation``, ``caching-allowance``, ``no-file`` → count; a robots.txt fetch is
``allowed``), ``statuses`` (HTTP status as text, ``"none"`` when the log has none →
count), ``paid`` (402 answers, counted apart), ``robots_fetches``, ``rfc_only``
(disallowed only in RFC 9309's reading, as in ``totals``).

A violation entry: ``status`` (``violation``, or ``caching-allowance``: disallowed by a
file younger than the window, reported apart), ``line`` and ``rule`` (the deciding line of
the file in force), ``count``, ``examples`` (``[{"time", "url"}]``, the first three; a URL
cut to :data:`MAX_URL` characters). A token is cut to 200 characters.

``crawl_delay``: ``reads`` (the registry's "reads crawl-delay": ``yes``, ``no``,
``unknown``), ``delay`` (the longest Crawl-delay, in seconds, a file in force asked of it;
``null`` for none), ``judged`` (only when ``reads`` is ``yes`` and a delay was asked),
``intervals`` (gaps between its consecutive requests to one host, where a delay was
asked), ``too_fast`` (those shorter than the delay), ``kept`` (``true``/``false`` when
judged, else ``null``: a crawler that does not read Crawl-delay is never called a breaker
of it).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Optional

__all__ = ["DIALECTS", "MAX_BOTS", "QUERIES", "SCHEMA", "engine_tables", "fold", "in_order",
           "summarise"]

SCHEMA = "robotsrules-log-audit/1"
MAX_BOTS = 1000
MAX_VIOLATIONS = 20
MAX_USAGE = 10
EXAMPLES = 3
MAX_URL = 1000
"""Characters of an example URL kept in the summary (the table keeps it whole)."""
VERIFICATIONS = ("verified", "not-verified", "unverifiable", "unknown", "not-checked")
VERDICTS = ("allowed", "violation", "caching-allowance", "no-file")

DIALECTS: Mapping[str, Mapping[str, str]] = {
    "duckdb": {"us": "epoch_us(time)"},
    "spark": {"us": "unix_micros(time)"},
}

QUERIES: Mapping[str, str] = {
    "groups": """
        SELECT token, crawler, operator, category, day, verification, verdict, status,
               robots_fetch, paid, count(*) AS n, sum(bytes) AS b,
               sum(CASE WHEN rfc_disallowed THEN 1 ELSE 0 END) AS r
        FROM requests
        GROUP BY token, crawler, operator, category, day, verification, verdict, status,
                 robots_fetch, paid""",
    "violations": """
        SELECT token, verdict, line, rule, count(*) AS n
        FROM requests WHERE verdict IN ('violation', 'caching-allowance')
        GROUP BY token, verdict, line, rule""",
    "examples": """
        SELECT token, verdict, line, us, url FROM (
            SELECT token, verdict, line, url, {us} AS us,
                   row_number() OVER (PARTITION BY token, verdict, line
                                      ORDER BY {us}, url) AS k
            FROM requests JOIN (
                SELECT token AS t, verdict AS v, coalesce(line, -1) AS l,
                       coalesce(min(CASE WHEN upto >= 3 THEN day END), max(day)) AS last_day
                FROM (
                    SELECT token, verdict, line, day,
                           sum(n) OVER (PARTITION BY token, verdict, line ORDER BY day) AS upto
                    FROM (SELECT token, verdict, line, day, count(*) AS n FROM requests
                          WHERE verdict IN ('violation', 'caching-allowance')
                          GROUP BY token, verdict, line, day) AS daily) AS running
                GROUP BY token, verdict, line) AS cut
            ON token = t AND verdict = v AND coalesce(line, -1) = l AND day <= last_day
            WHERE verdict IN ('violation', 'caching-allowance')) AS ranked
        WHERE k <= 3""",
    "fetches": """
        SELECT token, status, count(*) AS n, min({us}) AS first, max({us}) AS last
        FROM requests WHERE robots_fetch
        GROUP BY token, status""",
    "usage": """
        SELECT token, content_signal, content_usage, count(*) AS n
        FROM requests
        WHERE token IS NOT NULL AND (content_signal IS NOT NULL OR content_usage IS NOT NULL)
        GROUP BY token, content_signal, content_usage""",
}
"""The aggregations of the request table (called ``requests``), for both engines."""

SLICE_ROWS = 1_000_000
"""Requests whose gaps one engine query orders at most (a slice of whole minutes; a single
minute with more is one slice of its own)."""
MAX_DELAYED = 1000
"""Crawlers asked a Crawl-delay named in the gaps' queries, at most (more: every crawler's
requests are ordered, the answers the same)."""
_DELAYED = "token IS NOT NULL AND NOT robots_fetch{delayed}"
_MINUTE = "CAST(floor({us} / 60000000.0) AS BIGINT)"
DELAY_QUERIES: Mapping[str, str] = {
    "asked": "SELECT DISTINCT token FROM requests WHERE crawl_delay IS NOT NULL",
    "minutes": f"""
        SELECT {_MINUTE} AS minute, count(*) AS n FROM requests WHERE {_DELAYED}
        GROUP BY {_MINUTE}""",
    "slice": f"""
        SELECT token, h, reads,
               count(CASE WHEN delay IS NOT NULL THEN gap END) AS intervals,
               sum(CASE WHEN delay IS NOT NULL AND gap < delay * 1000000 THEN 1 ELSE 0 END)
                   AS too_fast,
               max(delay) AS delay, min(us) AS first, max(us) AS last,
               max(CASE WHEN gap IS NULL THEN delay END) AS first_delay
        FROM (
            SELECT token, h, reads, delay, us,
                   us - lag(us) OVER (PARTITION BY token, h ORDER BY us) AS gap
            FROM (SELECT token, coalesce(host, '') AS h, reads_crawl_delay AS reads,
                         crawl_delay AS delay, {{us}} AS us
                  FROM requests WHERE {_DELAYED} AND {_MINUTE} >= {{lo}}
                      AND {_MINUTE} < {{hi}}) AS inside) AS gaps
        GROUP BY token, h, reads""",
}
"""The gaps between a crawler's requests to a host (for Crawl-delay), over the crawlers a
file in force asked a delay of: ordering every such request at once made the engine's
memory grow with them (DuckDB's sort keeps a part of each row that does not spill), so
the minutes are counted first (``minutes``: a row per minute with such requests) and the
gaps ordered slice by slice (``slice``: the minutes ``[lo, hi)``, at most
:data:`SLICE_ROWS` requests unless one minute has more), a row per crawler and host: the
gaps inside the slice, and its first and last request; the first request's gap is counted
from the last one of an earlier slice (kept per crawler and host, in order of the slices).
The slices' rows are added up per crawler: the same answers as one query over all the
requests."""


def _key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((value is None, "" if value is None else value) for value in row)


def engine_tables(path: str, engine: str = "duckdb", spark: Any = None,
                  slice_rows: int = SLICE_ROWS) -> dict[str, list[tuple[Any, ...]]]:
    """Every query of :data:`QUERIES` over the request table at ``path`` (Parquet), its rows
    as tuples in a fixed order: the same answers from either engine."""
    dialect = DIALECTS[engine]
    texts = {name: sql.format(**dialect) for name, sql in QUERIES.items()}
    if engine == "duckdb":
        with _connect(path) as con:
            con.register("requests", con.read_parquet(path))

            def run(sql: str) -> list[tuple[Any, ...]]:
                return [tuple(row) for row in con.execute(sql).fetchall()]

            found = {name: run(sql) for name, sql in texts.items()}
            found["delays"] = _delays(run, dialect, slice_rows)
    else:
        from ..spark import local_session

        session = spark if spark is not None else local_session(
            "local[1]", **{"spark.sql.shuffle.partitions": "4"})
        session.read.parquet(path).createOrReplaceTempView("requests")

        def run(sql: str) -> list[tuple[Any, ...]]:
            return [tuple(row) for row in session.sql(sql).collect()]

        found = {name: run(sql) for name, sql in texts.items()}
        found["delays"] = _delays(run, dialect, slice_rows)
    return {name: sorted((_plain(row) for row in rows), key=_key)
            for name, rows in found.items()}


def _delays(run: Callable[[str], list[tuple[Any, ...]]], dialect: Mapping[str, str],
            slice_rows: int) -> list[tuple[Any, ...]]:
    """The ``delays`` table (token, reads, intervals, too_fast, delay) by
    :data:`DELAY_QUERIES`: the gaps ordered a slice of minutes at a time."""
    asked = [token for (token,) in run(DELAY_QUERIES["asked"]) if token is not None]
    if not asked:
        return []
    # the crawlers by the hexadecimal of their tokens' UTF-8 (a stranger's text never
    # becomes SQL); a semi-join on a subquery could build its table on the requests
    delayed = " AND hex(token) IN ({})".format(", ".join(
        f"'{token.encode('utf-8').hex().upper()}'" for token in asked)) \
        if len(asked) <= MAX_DELAYED else ""
    minutes = sorted((int(minute), int(n)) for minute, n in
                     run(DELAY_QUERIES["minutes"].format(delayed=delayed, **dialect)))
    slices: list[tuple[int, int]] = []
    start, held = None, 0
    for minute, n in minutes:
        if start is not None and held + n > slice_rows:
            slices.append((start, minute))
            start, held = None, 0
        if start is None:
            start = minute
        held += n
    if start is not None:
        slices.append((start, minutes[-1][0] + 1))
    totals: dict[tuple[Any, Any], list[Any]] = {}
    last: dict[tuple[Any, Any], int] = {}  # per crawler and host: its latest request so far
    for lo, hi in slices:
        rows = run(DELAY_QUERIES["slice"].format(lo=lo, hi=hi, delayed=delayed, **dialect))
        for token, host, reads, intervals, too_fast, delay, first, _last, first_delay in rows:
            before = last.get((token, host))
            if delay is not None:
                entry = totals.setdefault((token, reads), [0, 0, None])
                entry[0] += int(intervals or 0)
                entry[1] += int(too_fast or 0)
                if entry[2] is None or float(delay) > entry[2]:
                    entry[2] = float(delay)
                if before is not None and first_delay is not None:  # its gap from before
                    entry[0] += 1
                    entry[1] += int(first) - before < float(first_delay) * 1_000_000
        for token, host, *_counts, latest, _first_delay in rows:
            if last.get((token, host)) is None or int(latest) > last[(token, host)]:
                last[(token, host)] = int(latest)
    return [(token, reads, intervals, too_fast, delay)
            for (token, reads), (intervals, too_fast, delay) in totals.items()]


def in_order(path: str, order: str, rows: int) -> Iterator[Any]:
    """The Parquet file at ``path`` in record batches of ``rows``, sorted by ``order`` (SQL),
    by DuckDB: on disk past its memory limit, never whole in Python."""
    with _connect(path) as con:
        con.execute("SET TimeZone = 'UTC'")
        ordered = con.read_parquet(path).order(order)
        # DuckDB 2 renamed fetch_record_batch (1.x) to to_arrow_reader.
        method = getattr(ordered, "to_arrow_reader", None) or ordered.fetch_record_batch
        yield from method(rows)


DUCKDB_MEMORY = "256MB"
"""DuckDB's memory limit in the audit: past it, sorts and windows spill to disk (beside
the request table; DuckDB's default is 80 % of the machine's memory). Only two queries
sort requests rather than groups, each over as few as gives the same answer: the
Crawl-delay gaps over the crawlers some file asked a delay of, the examples over each
violation's first days up to its third. Not lower: DuckDB's sort keeps a part of every
row that does not spill (2,989,424 requests fail under 32 MB)."""


def _connect(path: str) -> Any:
    """A DuckDB connection bounded in memory (:data:`DUCKDB_MEMORY`, one thread), spilling
    to the folder of the table at ``path``."""
    import os

    import duckdb

    con = duckdb.connect(config={"memory_limit": DUCKDB_MEMORY, "threads": 1,
                                 "preserve_insertion_order": False,
                                 "temp_directory": os.path.join(
                                     os.path.dirname(os.path.abspath(path)), "duckdb.tmp")})
    return con


def _plain(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Engine values as plain Python: integers as ``int``, decimals as ``float``."""
    out: list[Any] = []
    for value in row:
        if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
            out.append(value)
        elif isinstance(value, int):
            out.append(int(value))
        else:
            out.append(float(value))
    return tuple(out)


def _time(us: Optional[int]) -> Optional[str]:
    if us is None:
        return None
    moment = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + \
        datetime.timedelta(microseconds=int(us))
    return moment.isoformat().replace("+00:00", "Z")


def _counts() -> dict[str, Any]:
    return {"requests": 0, "bytes": 0, "verification": dict.fromkeys(VERIFICATIONS, 0),
            "verification_shares": dict.fromkeys(VERIFICATIONS, 0.0),
            "verdicts": dict.fromkeys(VERDICTS, 0), "statuses": {}, "paid": 0,
            "robots_fetches": 0, "rfc_only": 0}


def _add(counts: dict[str, Any], verification: Optional[str], verdict: Optional[str],
         status: Optional[int], robots_fetch: bool, paid: bool, n: int, b: int,
         r: int) -> None:
    counts["requests"] += n
    counts["rfc_only"] += r
    counts["bytes"] += b
    counts["verification"][verification or "not-checked"] += n
    counts["verdicts"][verdict or "allowed"] += n
    name = "none" if status is None else str(status)
    counts["statuses"][name] = counts["statuses"].get(name, 0) + n
    counts["paid"] += n if paid else 0
    counts["robots_fetches"] += n if robots_fetch else 0


def _finish(counts: dict[str, Any]) -> dict[str, Any]:
    total = counts["requests"]
    if total:
        counts["verification_shares"] = {k: round(v / total, 6)
                                         for k, v in counts["verification"].items()}
    counts["statuses"] = dict(sorted(counts["statuses"].items()))
    return counts


def _dated(days: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"day": day, **_finish(counts)} for day, counts in sorted(days.items())]


def fold(tables: Mapping[str, list[tuple[Any, ...]]]) -> dict[str, Any]:
    """The ``totals``, ``days``, ``bots``, ``categories`` and ``robots_fetches`` of the
    summary from :func:`engine_tables`' answers."""
    bots: dict[str, dict[str, Any]] = {}
    bot_days: dict[str, dict[str, dict[str, Any]]] = {}
    cats: dict[str, dict[str, Any]] = {}
    cat_days: dict[str, dict[str, dict[str, Any]]] = {}
    cat_bots: dict[str, set[str]] = {}
    days: dict[str, dict[str, Any]] = {}
    totals = {"requests": 0, "bots": 0, "violations": 0, "caching_allowance": 0,
              "no_file": 0, "paid": 0, "bytes": 0, "robots_fetches": 0, "rfc_only": 0}
    for (token, crawler, operator, category, day, verification, verdict, status,
         robots_fetch, paid, n, b, r) in tables["groups"]:
        b, r = int(b or 0), int(r or 0)
        totals["robots_fetches"] += n if robots_fetch else 0
        if token is None:
            continue
        bot = bots.get(token)
        if bot is None:
            bot = bots[token] = {"token": token, "crawler": crawler, "operator": operator,
                                 "category": category, **_counts()}
        category = category or "unregistered"
        cat = cats.get(category)
        if cat is None:
            cat = cats[category] = {"category": category, "bots": 0, **_counts()}
        cat_bots.setdefault(category, set()).add(token)
        args = (verification, verdict, status, bool(robots_fetch), bool(paid), n, b, r)
        for counts in (bot, cat, bot_days.setdefault(token, {}).setdefault(day, _counts()),
                       cat_days.setdefault(category, {}).setdefault(day, _counts()),
                       days.setdefault(day, _counts())):
            _add(counts, *args)
        totals["requests"] += n
        totals["bytes"] += b
        totals["paid"] += n if paid else 0
        totals["violations"] += n if verdict == "violation" else 0
        totals["caching_allowance"] += n if verdict == "caching-allowance" else 0
        totals["no_file"] += n if verdict == "no-file" else 0
        totals["rfc_only"] += r
    totals["bots"] = len(bots)
    examples: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for token, verdict, line, us, url in tables["examples"]:
        examples.setdefault((token, verdict, line), []).append(
            {"time": _time(us), "url": url[:MAX_URL] if url else url})
    violations: dict[str, list[dict[str, Any]]] = {}
    for token, verdict, line, rule, n in tables["violations"]:
        violations.setdefault(token, []).append({
            "status": verdict, "line": line, "rule": rule, "count": n,
            "examples": sorted(examples.get((token, verdict, line), []),
                               key=lambda e: (e["time"] or "", e["url"] or ""))[:EXAMPLES]})
    fetches: dict[Optional[str], dict[str, Any]] = {}
    for token, status, n, first, last in tables["fetches"]:
        entry = fetches.setdefault(token, {"fetched": True, "count": 0, "first": None,
                                           "last": None, "statuses": {}})
        entry["count"] += n
        name = "none" if status is None else str(status)
        entry["statuses"][name] = entry["statuses"].get(name, 0) + n
        entry["first"] = min(filter(None, (entry["first"], _time(first))), default=None)
        entry["last"] = max(filter(None, (entry["last"], _time(last))), default=None)
    delays: dict[str, dict[str, Any]] = {}
    for token, reads, intervals, too_fast, delay in tables["delays"]:
        judged = reads == "yes"
        delays[token] = {"reads": reads or "unknown", "delay": delay, "judged": judged,
                         "intervals": intervals, "too_fast": too_fast or 0,
                         "kept": (not too_fast) if judged else None}
    usage: dict[str, list[dict[str, Any]]] = {}
    for token, signal, content_usage, n in tables["usage"]:
        usage.setdefault(token, []).append(
            {"content_signal": signal, "content_usage": content_usage, "requests": n})
    ordered = sorted(bots.values(), key=lambda bot: (-bot["requests"], bot["token"]))
    for bot in ordered[:MAX_BOTS]:
        token = bot["token"]
        _finish(bot)
        bot["days"] = _dated(bot_days.get(token, {}))
        bot["violations"] = sorted(violations.get(token, []),
                                   key=lambda v: (-v["count"], v["status"], v["line"] or 0)
                                   )[:MAX_VIOLATIONS]
        bot["robots_txt"] = fetches.get(token) or {"fetched": False, "count": 0,
                                                  "first": None, "last": None, "statuses": {}}
        bot["crawl_delay"] = delays.get(token) or {
            "reads": "unknown", "delay": None, "judged": False, "intervals": 0,
            "too_fast": 0, "kept": None}
        bot["usage"] = sorted(usage.get(token, []), key=lambda u: -u["requests"])[:MAX_USAGE]
    rest = ordered[MAX_BOTS:]
    for category, cat in cats.items():
        cat["bots"] = len(cat_bots[category])
        _finish(cat)
        cat["days"] = _dated(cat_days.get(category, {}))
    everyone: dict[str, Any] = {"count": 0, "by_crawlers": 0, "by_others": 0,
                                "statuses": {}, "first": None, "last": None}
    for token, entry in fetches.items():
        everyone["count"] += entry["count"]
        everyone["by_crawlers" if token is not None else "by_others"] += entry["count"]
        for name, n in entry["statuses"].items():
            everyone["statuses"][name] = everyone["statuses"].get(name, 0) + n
        everyone["first"] = min(filter(None, (everyone["first"], entry["first"])), default=None)
        everyone["last"] = max(filter(None, (everyone["last"], entry["last"])), default=None)
    everyone["statuses"] = dict(sorted(everyone["statuses"].items()))
    return {
        "totals": totals,
        "days": _dated(days),
        "bots": ordered[:MAX_BOTS],
        "other_bots": {"bots": len(rest), "requests": sum(bot["requests"] for bot in rest)},
        "categories": sorted(cats.values(), key=lambda c: (-c["requests"], c["category"])),
        "robots_fetches": everyone,
    }


def summarise(path: str, *, engine: str, spark: Any, reader: Any, history: Any, site: str,
              window: datetime.timedelta, counts: Mapping[str, int],
              robots_findings: Mapping[str, Any], verified: bool, dns: Any) -> dict[str, Any]:
    """The whole summary (see the module docstring) of the request table at ``path``."""
    from ..bulk import provenance

    tally = reader.tally
    folded = fold(engine_tables(path, engine, spark))
    folded["totals"]["other_requests"] = counts["other_requests"]
    folded["totals"]["other_hosts"] = counts.get("other_hosts", 0)
    folded["totals"]["addresses_checked"] = counts.get("addresses_checked", 0)
    folded["totals"]["tokens_found_by_scan"] = counts.get("tokens_found_by_scan", 0)
    first = datetime.datetime(1, 1, 1, tzinfo=datetime.timezone.utc)
    return {
        "schema": SCHEMA,
        "site": site,
        "window_hours": window.total_seconds() / 3600,
        "engine": engine,
        "verification": ("off" if not verified else "dns" if dns else "offline"),
        "provenance": provenance(),
        "input": {
            "sources": tally.sources, "lines": tally.lines, "requests": tally.requests,
            "comments": tally.comments, "blank": tally.blank, "formats": dict(tally.formats),
            "dropped": tally.dropped,
            "crawler_lines_unread": tally.crawler_lines_unread,
            "problems": {kind: {"count": n, "examples": list(tally.examples.get(kind, []))}
                         for kind, n in sorted(tally.problems.items())},
        },
        "robots": {
            "versions": [{"since": None if v.since == first else
                          v.since.isoformat().replace("+00:00", "Z"), "source": v.source}
                         for v in history.versions],
            "findings": dict(robots_findings),
            "fetches_left_out": counts.get("fetches_left_out", 0),
        },
        **folded,
    }
