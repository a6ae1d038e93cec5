"""robotsrules.duckdb: SQL functions and the embedded bulk job give the plain API's rows."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import robotsrules  # noqa: E402
from robotsrules import duckdb as engine  # noqa: E402
from robotsrules.errors import RobotsError  # noqa: E402
from tests.bulk.conftest import AGENTS, Sample, as_rows  # noqa: E402


@pytest.fixture()
def con() -> Any:
    connection = duckdb.connect()
    yield engine.register(connection)
    connection.close()


def test_bulk_job_equals_the_plain_api(robots_table: Any, urls_table: Any,
                                       expected: list[Any]) -> None:
    reader = engine.verdicts(robots_table, urls_table, AGENTS, batch_size=1000)
    table = reader.read_all()
    assert table.schema == robotsrules.bulk.VERDICT_SCHEMA
    assert as_rows(table.to_pylist()) == expected
    urls = urls_table.column("url").to_pylist()  # URL-major, input order kept
    assert table.column("url").to_pylist() == [u for u in urls for _ in AGENTS]


@pytest.mark.parametrize("form", ["parquet", "csv", "jsonl", "txt"])
def test_bulk_job_reads_every_input_format(tmp_path: Any, form: str, sample: Sample,
                                           robots_table: Any, urls_table: Any,
                                           expected: list[Any]) -> None:
    robots_path = tmp_path / f"robots.{'txt' if form == 'txt' else form}"
    urls_path = tmp_path / f"urls.{form}"
    text_robots = robots_table.set_column(
        1, "body", pa.array([b.decode("utf-8", "replace") for b in
                             robots_table.column("body").to_pylist()]))
    if form == "parquet":
        pq.write_table(robots_table, robots_path)
        pq.write_table(urls_table, urls_path)
    elif form == "csv":
        pacsv.write_csv(text_robots, robots_path)
        pacsv.write_csv(urls_table, urls_path)
    elif form == "jsonl":
        with open(robots_path, "w", encoding="utf-8") as handle:
            for row in text_robots.to_pylist():
                row["date"] = row["date"].isoformat()
                handle.write(json.dumps(row) + "\n")
        with open(urls_path, "w", encoding="utf-8") as handle:
            for url in sample.urls:
                handle.write(json.dumps({"url": url}) + "\n")
    else:
        with open(urls_path, "w", encoding="utf-8") as handle:
            handle.write("# a comment line\n\n")
            handle.writelines(f"host\t{url}\n" for url in sample.urls)
        pq.write_table(robots_table, robots_path := tmp_path / "robots.parquet")
    table = engine.verdicts(str(robots_path), str(urls_path), AGENTS).read_all()
    rows = as_rows(table.to_pylist())
    if form in ("csv", "jsonl"):  # bodies went through text: compare with text bodies
        decoded = Sample([{**r, "body": r["body"].decode("utf-8", "replace").encode()}
                          for r in sample.robots], sample.urls)
        from tests.bulk.conftest import plain_rows

        assert rows == plain_rows(decoded, AGENTS)
    else:
        assert rows == expected


def test_sql_functions_equal_the_core(con: Any, sample: Sample) -> None:
    rows = [(r["body"], r["status"], url) for r in sample.robots[:20]
            for url in [*sample.urls[:3], r["url"].replace("robots.txt", "private/x")]]
    table = pa.table({"body": [r[0] for r in rows], "status": [r[1] for r in rows],
                      "url": [r[2] for r in rows]})
    con.register("t", table)
    got = con.sql("SELECT robots_allowed(body, url, 'GPTBot'), robots_line(body, url, 'GPTBot'),"
                  " robots_verdict(body, status, url, 'GPTBot') FROM t").fetchall()
    for (body, status, url), (allowed, line, verdict) in zip(rows, got):
        core = robotsrules.parse(body).explain(url, agent="GPTBot")
        assert allowed == core.allowed
        assert line == (core.rule.line if core.rule else None)
        want = robotsrules.bulk._rows.verdict_of(robotsrules.bulk._rows.robots_for(body, status), url,
                                           "GPTBot")
        assert (verdict["allowed"], verdict["line"], verdict["reason"]) == want


def test_sql_functions_keep_text_bodies_byte_exact(con: Any) -> None:
    # A VARCHAR->BLOB cast would read '\x41' as 'A' and refuse 'é': bodies must arrive intact.
    body = "User-agent: *\nDisallow: /a\\x41\nAllow: /é\nDisallow: /\n"
    text, blob = con.execute(
        "SELECT robots_line(?, '/a\\x41', 'x'), robots_allowed(?::BLOB, '/é', 'x')",
        [body, body.encode()]).fetchall()[0]
    assert text == 2
    assert blob is True
    assert con.sql("SELECT robots_origin('HTTPS://Example.COM:443/a'), robots_origin('nope'),"
                   " robots_allowed(NULL, '/a', 'x')").fetchall() == [
        ("https://example.com", None, None)]
    assert con.sql("SELECT robots_verdict(NULL, 503, '/a', 'x').reason").fetchall() == [
        ("disallow-all",)]


def test_bad_agent_in_sql_is_an_error(con: Any) -> None:
    with pytest.raises(duckdb.Error, match="not a crawler product token"):
        con.sql("SELECT robots_allowed('User-agent: *', '/a', 'not a token!')").fetchall()


def test_missing_inputs_and_columns_are_robots_errors(tmp_path: Any) -> None:
    with pytest.raises(RobotsError, match="no such file"):
        engine.verdicts(str(tmp_path / "nope.parquet"), str(tmp_path / "u.parquet"), "a")
    pq.write_table(pa.table({"link": ["x"]}), tmp_path / "u.parquet")
    pq.write_table(pa.table({"url": ["https://a.example/"], "body": ["x"]}),
                   tmp_path / "r.parquet")
    with pytest.raises(RobotsError, match="no 'url' column"):
        engine.verdicts(str(tmp_path / "r.parquet"), str(tmp_path / "u.parquet"), "a")
    with pytest.raises(RobotsError, match="unknown file type"):
        engine.verdicts(str(tmp_path / "r.parquet"), __file__, "a")
    assert os.path.exists(tmp_path / "r.parquet")


def test_a_read_error_on_the_way_is_an_engine_error(tmp_path: Any) -> None:
    """DuckDB raises some errors only while batches are read (a cast of a later row):
    they come out as one EngineError naming the step, never a DuckDB traceback."""
    import duckdb

    path = tmp_path / "n.csv"
    path.write_text("n\n" + "1\n" * 200_000 + "x\n")  # the bad row comes last
    con = duckdb.connect()
    relation = con.sql(f"SELECT n FROM read_csv('{path}', header = true, "
                       "columns = {'n': 'INTEGER'})")
    reader = engine._arrow_reader(relation, 1024)
    with pytest.raises(robotsrules.EngineError, match=r"^reading the test table failed: Conversion Error"):
        list(engine.guarded_batches(reader, "reading the test table"))
    assert [b.num_rows for b in engine.guarded_batches(
        engine._arrow_reader(con.sql("SELECT 1 AS n"), 1024), "x")] == [1]
