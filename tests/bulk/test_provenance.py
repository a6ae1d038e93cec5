"""Issue 26 item 5: what judged a bulk table travels with it.

The tables the public Python bulk API returns (verdicts, any-agent, as-of verdicts, stance
tables, page tables; the DuckDB drivers' readers) and the Parquet files the CLI writes carry
the versions of robotsrules and of the crawler registry as Arrow key-value metadata; the
expected values are read from the registry's data file, not restated here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

from robotsrules import bulk  # noqa: E402
from robotsrules import duckdb as embedded  # noqa: E402
from robotsrules.cli import main  # noqa: E402
from tests.bulk.test_stances import assert_registry_metadata  # noqa: E402

ROBOTS = pa.table({
    "url": ["https://a.example/robots.txt", "https://b.example/robots.txt"],
    "body": [b"User-agent: GPTBot\nDisallow: /\n", b"User-agent: *\nDisallow: /x\n"],
    "status": pa.array([200, 200], pa.int32()),
    "date": pa.array([datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)] * 2,
                     pa.timestamp("us", tz="UTC")),
})
URLS = pa.table({
    "url": ["https://a.example/p", "https://b.example/x", "https://c.example/"],
    "crawled": pa.array([datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)] * 3,
                        pa.timestamp("us", tz="UTC")),
})


def _every(batches: Iterable[Any]) -> int:
    count = 0
    for batch in batches:
        assert_registry_metadata(batch.schema.metadata)
        count += 1
    return count


def test_python_bulk_tables_carry_the_versions() -> None:
    assert _every(bulk.verdicts(ROBOTS, URLS, ["GPTBot"], purposes=["ai-train"])) == 1
    assert _every(bulk.any_agent_verdicts(ROBOTS, URLS, ["GPTBot", "CCBot"])) == 1
    assert _every(bulk.any_agent(bulk.verdicts(ROBOTS, URLS, ["GPTBot"]), ["GPTBot"])) == 1
    history = bulk.RobotsHistory.from_arrow(ROBOTS)
    assert _every(bulk.as_of_verdicts(history, URLS, ["GPTBot"], "crawled")) == 1
    assert _every(bulk.stances(ROBOTS, ["GPTBot"])) == 1
    for schema in (bulk.VERDICT_SCHEMA, bulk.ANY_AGENT_SCHEMA, bulk.STANCE_SCHEMA,
                   bulk.PAGE_SCHEMA, bulk.verdict_schema(["ai-train"]),
                   bulk.page_schema(["ai-train"])):
        assert_registry_metadata(schema.metadata)


def test_duckdb_readers_carry_the_versions() -> None:
    for reader in (embedded.verdicts(ROBOTS, URLS, ["GPTBot"]),
                   embedded.any_agent_verdicts(ROBOTS, URLS, ["GPTBot"]),
                   embedded.stances(ROBOTS, ["GPTBot"])):
        assert_registry_metadata(reader.schema.metadata)
        assert_registry_metadata(reader.read_all().schema.metadata)


def test_page_table_carries_the_versions(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    from robotsrules import warc
    from tests.page.test_page_warc import write_warc

    write_warc(tmp_path / "a.warc.gz")
    table = warc.page_table([str(tmp_path / "a.warc.gz")], agents=["GPTBot"],
                            purposes=["ai-train"])
    assert table.num_rows > 0
    assert_registry_metadata(table.schema.metadata)
    assert _every(warc.page_batches([str(tmp_path / "a.warc.gz")], agents=["GPTBot"])) >= 1


@pytest.mark.parametrize("extra", [[], ["--any-agent"], ["--purpose", "ai-train"]])
def test_cli_parquet_carries_the_versions(tmp_path: Path, capsys: Any, extra: Any) -> None:
    pq.write_table(ROBOTS, tmp_path / "robots.parquet")
    pq.write_table(URLS, tmp_path / "urls.parquet")
    out = tmp_path / "out.parquet"
    code = main(["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
                 str(tmp_path / "urls.parquet"), "--agent", "GPTBot", "--out", str(out),
                 *extra])
    assert code == 0, capsys.readouterr().err
    assert_registry_metadata(pq.read_schema(out).metadata)
