"""Any-agent answers (one row per URL: is any agent disallowed, which, by which line) on the
Python core, DuckDB, Spark local[2] and the CLI; and keying robots rows by host name."""

from __future__ import annotations

import datetime
import shutil
from typing import Any, Optional

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
import pyarrow.parquet as pq  # noqa: E402

from robotsrules import bulk  # noqa: E402
from robotsrules import duckdb as embedded  # noqa: E402
from robotsrules.bulk import _any, _judge, _schemas  # noqa: E402
from robotsrules.bulk import _rows as bulk_rows  # noqa: E402
from robotsrules.cli import main  # noqa: E402
from tests.bulk.conftest import AGENTS, Sample, plain_rows  # noqa: E402

AnyRow = tuple[Any, Optional[bool], Optional[str], Optional[int], str]


def _expected_any(sample: Sample) -> list[AnyRow]:
    """The any-agent rows worked out from the plain per-URL API's verdicts."""
    by_url: dict[Any, dict[str, tuple[Any, ...]]] = {}
    for url, agent, allowed, line, reason in plain_rows(sample, AGENTS):
        by_url.setdefault(url, {})[agent] = (allowed, line, reason)
    rows: list[AnyRow] = []
    for url in sample.urls:
        verdicts = [by_url[url][agent] for agent in AGENTS]
        hit = next((a for a, v in zip(AGENTS, verdicts) if v[0] is False), None)
        unknown = next((v[2] for v in verdicts if v[0] is None), None)
        if hit is not None:
            rows.append((url, True, hit, by_url[url][hit][1], by_url[url][hit][2]))
        elif unknown is not None:
            rows.append((url, None, None, None, unknown))
        else:
            rows.append((url, False, None, None, "allowed"))
    return sorted(rows, key=repr)


def _rows(records: list[dict[str, Any]]) -> list[AnyRow]:
    return sorted(((r["url"], r["disallowed"], r["agent"], r["line"], r["reason"])
                   for r in records), key=repr)


def test_any_agent_on_the_core_and_duckdb(sample: Sample, robots_table: Any,
                                           urls_table: Any) -> None:
    expected = _expected_any(sample)
    assert {row[1] for row in expected} == {True, False, None}  # every case is covered
    core = pa.Table.from_batches(
        list(bulk.any_agent(bulk.verdicts(robots_table, urls_table, AGENTS), AGENTS)),
        schema=bulk.ANY_AGENT_SCHEMA)
    assert _rows(core.to_pylist()) == expected
    on_duckdb = embedded.any_agent_verdicts(robots_table, urls_table, AGENTS).read_all()
    assert on_duckdb.schema == bulk.ANY_AGENT_SCHEMA
    assert _rows(on_duckdb.to_pylist()) == expected


@pytest.mark.parametrize("missing", ["null", "allow", "disallow"])
def test_direct_any_agent_equals_the_fold(robots_table: Any, urls_table: Any,
                                          missing: bulk.Missing) -> None:
    """Judge.any_batch (each distinct rule set asked once), judge_sorted_any (the Spark
    partition function, fed a hand-sorted stream) and the fold of per-agent verdicts agree."""
    folded = [r for b in bulk.any_agent(bulk.verdicts(robots_table, urls_table, AGENTS,
                                                      missing=missing), AGENTS)
              for r in b.to_pylist()]
    direct = [r for b in bulk.any_agent_verdicts(robots_table, urls_table, AGENTS,
                                                 missing=missing) for r in b.to_pylist()]
    assert direct == folded
    index = bulk.RobotsIndex.from_arrow(robots_table)
    rows = []
    for origin in index.origins():
        body, status = index.get(origin) or (None, None)
        rows.append((origin, 0, None, body, status))
    for url in urls_table.column("url").to_pylist():
        rows.append((bulk_rows.fast_origin(url), 1, url, None, None))
    rows.sort(key=lambda r: ((r[0] is not None, r[0] or ""), r[1]))
    stream = pa.RecordBatch.from_pylist(
        [dict(zip(_schemas.SORTED_COLUMNS, r)) for r in rows],
        schema=pa.schema([("origin", pa.string()), ("kind", pa.int32()), ("url", pa.string()),
                          ("body", pa.binary()), ("status", pa.int32())]))
    sorted_any = [r for b in _judge.judge_sorted_any([stream], AGENTS, missing=missing)
                  for r in b.to_pylist()]
    key = lambda r: (r["url"] or "", repr(r))  # noqa: E731
    assert sorted(sorted_any, key=key) == sorted(folded, key=key)


def test_any_agent_cli(tmp_path: Any, sample: Sample, robots_table: Any,
                       urls_table: Any, capsys: Any) -> None:
    pq.write_table(robots_table, tmp_path / "robots.parquet")
    pq.write_table(urls_table, tmp_path / "urls.parquet")
    out = tmp_path / "any.parquet"
    argv = ["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
            str(tmp_path / "urls.parquet"), "--out", str(out), "--any-agent"]
    for agent in AGENTS:
        argv += ["--agent", agent]
    assert main(argv) == 0
    assert _rows(pq.read_table(out).to_pylist()) == _expected_any(sample)
    assert f"{len(sample.urls):,} URLs (" in capsys.readouterr().out


def test_any_agent_streams_rows_split_across_batches_and_checks_order() -> None:
    rows = [("u1", "A", True, None, "no-match", "o"), ("u1", "B", False, 3, "longest-match", "o"),
            ("u2", "A", None, None, "no-robots", "p"), ("u2", "B", True, 5, "longest-match", "p")]
    batches = [pa.RecordBatch.from_pylist([dict(zip(bulk.VERDICT_SCHEMA.names, r))],
                                          schema=bulk.VERDICT_SCHEMA) for r in rows]
    out = [r for b in bulk.any_agent(batches, ["A", "B"]) for r in b.to_pylist()]
    assert [(r["url"], r["disallowed"], r["agent"], r["line"], r["reason"]) for r in out] == [
        ("u1", True, "B", 3, "longest-match"), ("u2", None, None, None, "no-robots")]
    with pytest.raises(ValueError, match="out of order"):
        list(bulk.any_agent(batches, ["B", "A"]))
    with pytest.raises(ValueError, match="left over"):
        list(bulk.any_agent(batches[:3], ["A", "B"]))


def test_key_host_shares_one_file_across_schemes_and_ports() -> None:
    day = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    robots = pa.table({
        "url": ["http://example.com/robots.txt", "https://example.com/robots.txt"],
        "body": [b"User-agent: *\nDisallow: /old", b"User-agent: *\nDisallow: /new"],
        "date": [day, day + datetime.timedelta(days=1)]})
    urls = pa.table({"url": ["http://example.com/new", "https://example.com/old",
                             "http://EXAMPLE.com:8080/new", "mailto:x@example.com"]})

    def run(key: bulk.Key) -> list[Any]:
        index = bulk.RobotsIndex.from_arrow(robots, key)
        return [r["allowed"] for b in bulk.verdicts(index, urls, ["x"]) for r in b.to_pylist()]

    # By origin each scheme has its own file and port 8080 has none.
    assert run("origin") == [True, True, None, None]
    # By host the newest capture (https, Disallow: /new) governs every scheme and port.
    assert run("host") == [False, True, False, None]
    with pytest.raises(ValueError, match="key must be"):
        bulk.RobotsIndex("domain")  # type: ignore[arg-type]
    assert bulk_rows.host_key("http://[::1]:8080/x") == "[::1]"
    assert bulk_rows.host_key("https://[::1]/x") == "[::1]"


@pytest.mark.slow  # a JVM start and two jobs: minutes on a busy 2-core machine
@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java 17+ (not found)")
def test_any_agent_on_spark(sample: Sample, robots_table: Any, urls_table: Any) -> None:
    pytest.importorskip("pyspark", reason="Spark tests need the 'spark' extra (pyspark)")
    from robotsrules import spark as engine

    session = engine.local_session("local[2]", **{"spark.sql.shuffle.partitions": "4"})
    try:
        job = engine.any_agent_verdicts(session.createDataFrame(robots_table),
                                        session.createDataFrame(urls_table), AGENTS)
        rows = [r.asDict() for r in job.collect()]
    finally:
        session.stop()
    assert _rows(rows) == _expected_any(sample)


def test_any_verdict_asks_every_distinct_rule_set() -> None:
    import robotsrules

    robots = robotsrules.parse(b"User-agent: CCBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n")
    agents = ["GPTBot", "ClaudeBot", "CCBot"]  # the first two share the '*' rules
    assert _any.any_verdict(robots, "https://x.example/a", agents) == (
        True, "CCBot", 2, "longest-match")
    assert _any.any_verdict(robots, "https://x.example/b", agents) == (
        True, "GPTBot", 5, "longest-match")
    assert _any.any_verdict(robots, "https://x.example/c", agents) == (
        False, None, None, "allowed")
    assert _any.any_verdict(robots, "mailto:x", agents)[3] == "invalid-url"
    assert _any.any_verdict(robots, None, agents)[3] == "invalid-url"
