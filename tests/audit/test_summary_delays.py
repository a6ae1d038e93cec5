"""The Crawl-delay gaps of the log audit's summary (issue 37), ordered a slice of minutes
at a time so that the engine's memory does not grow with the crawlers' requests: the
slices give, crawler by crawler, what one ordering of every request gives (a plain-Python
reading of the summary's definition: the gap of each request from the crawler's request
before it to the same host, counted where a file in force asked a delay)."""

from __future__ import annotations

import datetime
import random
from pathlib import Path
from typing import Any, Optional

import pytest

pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from robotsrules._audit._job import request_schema  # noqa: E402
from robotsrules._audit._summary import engine_tables  # noqa: E402

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _table(path: Path, seed: int, rows: int = 400) -> list[dict[str, Any]]:
    """A request table in no time order: four crawlers (one never asked a delay, one asked
    only on a robots.txt fetch's row), three hosts (one not named), times over minutes to hours
    (whole seconds or not, across 1970's first instant too), delays asked by some versions only."""
    chooser = random.Random(seed)
    start = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc) \
        if seed % 2 else datetime.datetime(1969, 12, 31, 23, 55, tzinfo=datetime.timezone.utc)
    used: set[tuple[Any, ...]] = set()
    records = []
    while len(records) < rows:
        token = chooser.choice(("AhrefsBot", "bingbot", "GPTBot", "FetchOnly",
                                "Quote'Bot\\ é"))  # a stranger's token is never SQL
        host = chooser.choice(("www.example.com", "cdn.example.com", None))
        when = start + datetime.timedelta(
            seconds=chooser.randrange(1200 if seed % 2 else 600),
            microseconds=chooser.choice((0, chooser.randrange(1_000_000))))
        if (token, host or "", when) in used:  # a tie orders as either: not compared
            continue
        used.add((token, host or "", when))
        fetch = (token == "FetchOnly" and chooser.random() < 0.2) or chooser.random() < 0.05
        delay: Optional[float] = None
        if token in ("AhrefsBot", "Quote'Bot\\ é") \
                or (token == "bingbot" and chooser.random() < 0.6) \
                or (token == "FetchOnly" and fetch):
            delay = chooser.choice((1.0, 5.0, 10.0, 2.5))
        records.append({"time": when, "day": when.date().isoformat(), "host": host,
                        "token": token, "robots_fetch": fetch, "crawl_delay": delay,
                        "reads_crawl_delay": "yes" if token == "bingbot" else "unknown",
                        "verdict": "allowed", "paid": False})
    schema = request_schema()
    columns = {field.name: [record.get(field.name) for record in records]
               for field in schema}
    pq.write_table(pa.table(columns, schema=schema), path)
    return records


def _expected(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    delayed = {r["token"] for r in records if r["crawl_delay"] is not None}
    kept = sorted((r for r in records if not r["robots_fetch"] and r["token"] in delayed),
                  key=lambda r: (r["token"], r["host"] or "", r["time"]))
    totals: dict[tuple[str, str], list[Any]] = {}
    before: Optional[dict[str, Any]] = None
    for record in kept:
        same = before is not None and (before["token"], before["host"] or "") == (
            record["token"], record["host"] or "")
        gap = (record["time"] - before["time"]) // datetime.timedelta(microseconds=1) \
            if same and before is not None else None
        before = record
        if record["crawl_delay"] is None:
            continue
        entry = totals.setdefault((record["token"], record["reads_crawl_delay"]),
                                  [0, 0, None])
        entry[0] += gap is not None
        entry[1] += gap is not None and gap < record["crawl_delay"] * 1_000_000
        entry[2] = max(record["crawl_delay"], entry[2] or 0.0)
    return sorted((token, reads, *values) for (token, reads), values in totals.items())


@pytest.mark.parametrize(("seed", "named"), [(0, 1000), (1, 1000), (2, 1)])
def test_the_gaps_in_slices_equal_one_ordering_of_every_request(
        tmp_path: Path, seed: int, named: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from robotsrules._audit import _summary

    # named: the crawlers asked a delay named in the queries, at most (1: past it, every
    # crawler's requests are ordered)
    monkeypatch.setattr(_summary, "MAX_DELAYED", named)
    path = tmp_path / "requests.parquet"
    expected = _expected(_table(path, seed))
    assert expected and any(row[3] for row in expected)  # some gaps too short
    for rows in (1, 25, 10**9):  # every minute a slice; a few minutes a slice; one slice
        assert sorted(engine_tables(str(path), slice_rows=rows)["delays"]) == expected, rows
