"""robotsrules.bulk, the engine-independent helper: the same rows as the plain per-URL API."""

from __future__ import annotations

import datetime
import subprocess
import sys
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")

from robotsrules import bulk  # noqa: E402
from robotsrules._scope import origin_of  # noqa: E402
from robotsrules.bulk import _bodies, _judge, _rows, _schemas  # noqa: E402
from robotsrules.errors import InvalidAgent, InvalidURL  # noqa: E402
from tests.bulk.conftest import AGENTS, Sample, as_rows, plain_rows  # noqa: E402


def test_verdicts_equal_the_plain_api_row_for_row(robots_table: Any, urls_table: Any,
                                                  expected: list[Any]) -> None:
    batches = list(bulk.verdicts(robots_table, urls_table.to_batches(max_chunksize=500),
                                 AGENTS))
    assert all(b.schema == bulk.VERDICT_SCHEMA for b in batches)
    rows = [r for b in batches for r in b.to_pylist()]
    assert as_rows(rows) == expected
    # All reasons of the mapping show up, so the sample exercises every branch.
    reasons = {r["reason"] for r in rows}
    assert {"allow-all", "disallow-all", "no-robots", "invalid-url", "longest-match",
            "no-match"} <= reasons


def test_output_is_url_major_in_input_order(robots_table: Any, urls_table: Any) -> None:
    table = pa.Table.from_batches(list(bulk.verdicts(robots_table, urls_table, AGENTS)))
    urls = urls_table.column("url").to_pylist()
    assert table.column("url").to_pylist() == [u for u in urls for _ in AGENTS]
    assert table.column("agent").to_pylist() == AGENTS * len(urls)


def test_missing_option_gives_a_verdict_but_keeps_the_reason(sample: Sample,
                                                             robots_table: Any,
                                                             urls_table: Any) -> None:
    for missing, value in (("allow", True), ("disallow", False)):
        rows = [r for b in bulk.verdicts(robots_table, urls_table, AGENTS, missing=missing)
                for r in b.to_pylist()]
        assert as_rows(rows) == plain_rows(sample, AGENTS, missing=value)
    with pytest.raises(ValueError, match="missing must be one of"):
        _judge.Judge(bulk.RobotsIndex(), AGENTS, missing="maybe")  # type: ignore[arg-type]


def test_each_origin_is_parsed_once_per_worker(robots_table: Any, urls_table: Any) -> None:
    index = bulk.RobotsIndex.from_arrow(robots_table)
    judge = _judge.Judge(index, AGENTS)
    shuffled = sorted(urls_table.column("url").to_pylist(), key=lambda u: u[::-1])
    for start in range(0, len(shuffled), 97):  # many small batches, sites interleaved
        judge.verdict_batch(shuffled[start:start + 97])
    assert judge.parses == len(index)
    # A cache of one file re-parses whenever the site changes, and still answers right.
    small = _judge.Judge(index, AGENTS, cache_size=1)
    assert small.verdict_batch(shuffled).to_pylist() == judge.verdict_batch(shuffled).to_pylist()
    assert small.parses > len(index)


def test_newest_row_of_an_origin_wins_with_a_deterministic_tie_break() -> None:
    old = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    new = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    table = pa.table({
        "url": ["https://a.example/robots.txt", "https://A.example:443/any", "https://a.example/x",
                "https://b.example/robots.txt", "https://b.example/robots.txt"],
        "body": [b"User-agent: *\nDisallow: /new", b"User-agent: *\nDisallow: /old",
                 b"User-agent: *\nDisallow: /undated", b"User-agent: *\nDisallow: /a",
                 b"User-agent: *\nDisallow: /b"],
        "date": [new, old, None, None, None],
    })
    index = bulk.RobotsIndex.from_arrow(table)
    assert len(index) == 2
    assert index.get("https://a.example") == (b"User-agent: *\nDisallow: /new", None)
    assert index.get("https://b.example") == (b"User-agent: *\nDisallow: /b", None)  # larger


def test_status_mapping_follows_the_fetch_policy() -> None:
    body = b"User-agent: *\nAllow: /\n"
    assert _rows.robots_for(body, 200).allowed("/x", agent="a")
    assert _rows.robots_for(body, None).allowed("/x", agent="a")
    assert _rows.robots_for(body, 404).synthetic == "allow-all"
    assert _rows.robots_for(body, 301).synthetic == "allow-all"  # a redirect nobody followed
    assert _rows.robots_for(body, 429).synthetic == "disallow-all"
    assert _rows.robots_for(body, 500).synthetic == "disallow-all"
    assert _rows.robots_for(None, None).allowed("/x", agent="a")  # no body: empty file


def test_fast_origin_equals_origin_of(sample: Sample) -> None:
    tricky = ["HTTPS://Example.COM:443/a", "http://example.com:80", "http://例え.jp/x",
              "https://[2001:DB8::1]:8443/x", "http://user:pw@Host.example:8080/p?q#f",
              "http://host.example:bad/", "ftp://ftp.example:21/robots.txt", "gopher://x/",
              " https://padded.example/ ", "https://host.example?q", "https://host.example#f",
              "http://ex\tample.com/", "https://xn--bcher-kva.example./a"]
    for url in sample.urls + tricky:
        try:
            want = origin_of(url)
        except InvalidURL:
            want = None
        assert _rows.fast_origin(url) == want, url
    assert _rows.fast_origin(None) is None


def test_invalid_agent_raises_before_any_work() -> None:
    with pytest.raises(InvalidAgent):
        _judge.Judge(bulk.RobotsIndex(), ["GPTBot", "not a token"])
    with pytest.raises(ValueError, match="no agent"):
        _judge.Judge(bulk.RobotsIndex(), [])


def test_missing_columns_are_named() -> None:
    with pytest.raises(ValueError, match="no 'body' column"):
        bulk.RobotsIndex.from_arrow(pa.table({"url": ["https://a.example/"]}))
    judge = _judge.Judge(bulk.RobotsIndex(), "GPTBot")
    with pytest.raises(ValueError, match="no 'url' column"):
        list(judge.verdicts(pa.table({"link": ["https://a.example/"]})))


def test_judge_sorted_equals_the_index_judge(robots_table: Any, urls_table: Any,
                                             expected: list[Any]) -> None:
    """The distributed plan's partition function, fed the stream Spark would sort."""
    rows = []
    for row in robots_table.to_pylist():
        rows.append((_rows.fast_origin(row["url"]), 0, row["url"], row["body"], row["status"]))
    for url in urls_table.column("url").to_pylist():
        rows.append((_rows.fast_origin(url), 1, url, None, None))
    rows.sort(key=lambda r: ("" if r[0] is None else "~" + r[0], r[1]))
    columns = list(zip(*rows))
    table = pa.table({name: pa.array(values) for name, values in
                      zip(_schemas.SORTED_COLUMNS, columns)})
    out = [r for b in _judge.judge_sorted(table.to_batches(max_chunksize=333), AGENTS)
           for r in b.to_pylist()]
    assert as_rows(out) == expected


def test_body_cache_rows_for_sql_and_dataframe_functions() -> None:
    cache = _bodies.BodyCache(2)
    body = "User-agent: *\nDisallow: /p\n"
    rows = cache.rows([body, body, None, None, body], [None, 200, 404, None, 503],
                      ["/p", "https://x.example/q", "/p", "/p", "/p"],
                      ["a", "a", "a", "a", "a"])
    assert rows == [(False, 2, "longest-match"), (True, None, "no-match"),
                    (True, None, "allow-all"), (None, None, "no-robots"),
                    (False, None, "disallow-all")]
    assert cache.parses == 4  # str body + 2 statuses; the repeated row is not re-parsed
    assert cache.rows([body], None, ["no scheme"], ["a"]) == [(None, None, "invalid-url")]
    with pytest.raises(InvalidAgent):
        cache.rows([body], None, ["/p"], ["bad agent!"])


def test_import_robotsrules_loads_no_engine() -> None:
    code = ("import sys, robotsrules, robotsrules.cli; robotsrules.cli._parser(); "
            "print([m for m in ('pyarrow', 'duckdb', 'pyspark', 'warcio', 'matplotlib') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_cli_constants_mirror_bulk() -> None:
    from robotsrules.cli import _bulk as cli_bulk

    assert cli_bulk.MISSING == bulk.MISSING
    assert cli_bulk.DEFAULT_CACHE_SIZE == bulk.DEFAULT_CACHE_SIZE
