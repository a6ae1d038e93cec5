"""Shared data of the bulk tests: a sample of the corpus, and the plain per-URL API's answers.

The sample is every 90th site of the corpus that has URLs in ``urls.txt`` (about 150 sites,
4,000 URLs), with fetch statuses varied by position so that every branch of the status
mapping is exercised: 200, no status, 404, 503, 429, and sites with no robots row at all.
"""

from __future__ import annotations

import datetime
import os
from typing import Any, NamedTuple, Optional

import pytest

import robotsrules
from robotsrules._scope import origin_of
from robotsrules.errors import InvalidURL
from robotsrules.policy import OK, UNAVAILABLE, outcome_for_status

pytest.importorskip("pyarrow", reason="bulk tests need the 'bulk' extra (pyarrow, duckdb)")

AGENTS = ["GPTBot", "CCBot", "Googlebot"]
STATUS_BY_POSITION = {3: 404, 7: 503, 9: 429, 1: None}  # others: 200; position 5: no row
EXTRA_URLS = ["not a url", "mailto:someone@example.com", "https://", "/relative/path",
              "https://no-robots-row.example/page"]


class Sample(NamedTuple):
    robots: list[dict[str, Any]]  # url, body, status, date
    urls: list[str]


@pytest.fixture(scope="session")
def sample(corpus_dir: str) -> Sample:
    by_host: dict[str, list[str]] = {}
    with open(os.path.join(corpus_dir, "urls.txt"), encoding="utf-8") as handle:
        for line in handle:
            host, _, url = line.rstrip("\n").partition("\t")
            by_host.setdefault(host, []).append(url)
    hosts = sorted(h for h in by_host
                   if os.path.exists(os.path.join(corpus_dir, "robots", h + ".txt")))[::90]
    robots: list[dict[str, Any]] = []
    urls: list[str] = []
    when = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
    for position, host in enumerate(hosts):
        urls += by_host[host]
        slot = position % 10
        if slot == 5:
            continue  # no robots row: verdicts must be null, not allowed
        with open(os.path.join(corpus_dir, "robots", host + ".txt"), "rb") as handle:
            body = handle.read()
        robots.append({"url": f"https://{host}/robots.txt", "body": body,
                       "status": STATUS_BY_POSITION.get(slot, 200), "date": when})
    return Sample(robots, urls + EXTRA_URLS)


def plain_rows(sample: Sample, agents: list[str], missing: Optional[bool] = None
               ) -> list[tuple[Any, ...]]:
    """(url, agent, allowed, line, reason) by the plain per-URL API: parse + explain."""
    parsed: dict[str, robotsrules.RobotsTxt] = {}
    for row in sample.robots:
        status = row["status"]
        outcome = OK if status is None else outcome_for_status(status)
        if outcome == OK:
            robots = robotsrules.parse(row["body"])
        elif outcome == UNAVAILABLE:
            robots = robotsrules.RobotsTxt.allow_all()
        else:
            robots = robotsrules.RobotsTxt.disallow_all()
        parsed[origin_of(row["url"])] = robots
    out = []
    for url in sample.urls:
        for agent in agents:
            try:
                origin = origin_of(url)
            except InvalidURL:
                out.append((url, agent, None, None, "invalid-url"))
                continue
            if origin not in parsed:
                out.append((url, agent, missing, None, "no-robots"))
                continue
            verdict = parsed[origin].explain(url, agent=agent)
            line = verdict.rule.line if verdict.rule is not None else None
            out.append((url, agent, verdict.allowed, line, verdict.reason))
    return sorted(out, key=_key)


def _key(row: tuple[Any, ...]) -> tuple[str, str]:
    return (row[0], row[1])


def as_rows(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Verdict records (dicts) as sorted (url, agent, allowed, line, reason) tuples."""
    return sorted(((r["url"], r["agent"], r["allowed"], r["line"], r["reason"])
                   for r in records), key=_key)


@pytest.fixture(scope="session")
def robots_table(sample: Sample) -> Any:
    import pyarrow as pa

    return pa.Table.from_pylist(sample.robots, schema=pa.schema([
        ("url", pa.string()), ("body", pa.binary()), ("status", pa.int32()),
        ("date", pa.timestamp("us", tz="UTC"))]))


@pytest.fixture(scope="session")
def urls_table(sample: Sample) -> Any:
    import pyarrow as pa

    return pa.table({"url": pa.array(sample.urls, pa.string())})


@pytest.fixture(scope="session")
def expected(sample: Sample) -> list[tuple[Any, ...]]:
    return plain_rows(sample, AGENTS)
