"""robotsrules.spark on local[2]: the same rows as DuckDB and the plain per-URL API.

One Spark session for the module (the JVM takes seconds to start). Skipped with a message
when Java or pyspark is missing.
"""

from __future__ import annotations

import datetime
import shutil
from typing import Any

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="Spark tests need the 'spark' extra (pyspark)")
if shutil.which("java") is None:  # pragma: no cover - depends on the machine
    pytest.skip("Spark tests need Java 17+ (java not found on PATH)", allow_module_level=True)

import pyarrow as pa
import pyarrow.parquet as pq

import robotsrules
from robotsrules import spark as engine
from robotsrules.cli import main
from tests.bulk.conftest import AGENTS, Sample, as_rows


@pytest.fixture(scope="module")
def _sessions() -> Any:
    held: list[Any] = []
    yield held
    if held:
        held[-1].stop()


@pytest.fixture
def spark(_sessions: list[Any]) -> Any:
    """The module's session, started again when something stopped it: a command-line run
    with ``--engine spark`` stops the process's SparkContext when it ends, in this module or
    in another that ran before on the same xdist worker."""
    from pyspark import SparkContext

    if not _sessions or SparkContext._active_spark_context is None:
        _sessions.append(engine.local_session("local[2]",
                                              **{"spark.sql.shuffle.partitions": "4"}))
    return _sessions[-1]


def test_spark_job_equals_duckdb_and_the_plain_api(spark: Any, robots_table: Any,
                                                   urls_table: Any,
                                                   expected: list[Any]) -> None:
    from robotsrules import duckdb as embedded

    robots = spark.createDataFrame(robots_table)
    urls = spark.createDataFrame(urls_table)
    rows = [r.asDict() for r in engine.verdicts(robots, urls, AGENTS).collect()]
    assert as_rows(rows) == expected
    on_duckdb = embedded.verdicts(robots_table, urls_table, AGENTS).read_all().to_pylist()
    key = lambda r: (r["url"], r["agent"])  # noqa: E731
    assert sorted(rows, key=key) == sorted(on_duckdb, key=key)  # origin column too


def test_spark_picks_the_same_robots_row_as_the_index(spark: Any) -> None:
    import datetime

    new = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    table = pa.table({
        "url": ["https://a.example/robots.txt", "https://a.example/", "https://b.example/",
                "https://b.example/robots.txt", "https://c.example/"],
        "body": [b"User-agent: *\nDisallow: /x", b"User-agent: *\nDisallow: /y",
                 b"User-agent: *\nDisallow: /\xff", b"User-agent: *\nDisallow: /a", None],
        "status": [200, 200, None, 200, 503],
        "date": [None, new, None, None, None],
    })
    urls = pa.table({"url": ["https://a.example/x", "https://a.example/y",
                             "https://b.example/a", "https://b.example/\xff", "https://c.example/"]})
    want = robotsrules.bulk.verdicts(table, urls, "a")
    got = engine.verdicts(spark.createDataFrame(table), spark.createDataFrame(urls), "a")
    key = lambda r: r["url"]  # noqa: E731
    assert sorted((r.asDict() for r in got.collect()), key=key) == sorted(
        (r for b in want for r in b.to_pylist()), key=key)


def test_column_functions(spark: Any, sample: Sample) -> None:
    from pyspark.sql import functions as F

    row = sample.robots[0]
    urls = [*sample.urls[:30], "nope"]
    frame = spark.createDataFrame(pa.table({"url": urls}))
    body = F.lit(row["body"])
    got = frame.select(
        "url", engine.robots_origin("url").alias("origin"),
        engine.robots_allowed(body, "url", "GPTBot").alias("allowed"),
        engine.robots_line(body, "url", "GPTBot").alias("line"),
        engine.robots_verdict(body, F.lit(503), "url", F.lit("GPTBot")).alias("v")).collect()
    parsed = robotsrules.parse(row["body"])
    for r in got:
        if r.url == "nope":
            assert (r.origin, r.allowed, r.line) == (None, None, None)
            continue
        core = parsed.explain(r.url, agent="GPTBot")
        assert r.allowed == core.allowed
        assert r.line == (core.rule.line if core.rule else None)
        assert r.origin == robotsrules.origin_of(r.url)
        assert (r.v.allowed, r.v.reason) == (False, "disallow-all")


def test_usage_columns_and_function(spark: Any) -> None:
    # Before the CLI test below, whose job stops the shared session. issue 15: --purpose columns and robots_usage, equal to the plain API (test_bulk_usage)
    from tests.bulk.test_bulk_usage import AGENTS as USAGE_AGENTS
    from tests.bulk.test_bulk_usage import BODY_A, COLUMNS, PURPOSES, ROBOTS, URLS, _expected

    session = spark
    frame = engine.verdicts(session.createDataFrame(ROBOTS), session.createDataFrame(URLS),
                            USAGE_AGENTS, purposes=PURPOSES)
    rows = {(r["url"], r["agent"]): [r[c] for c in COLUMNS] for r in frame.collect()}
    expected = iter(_expected())
    for url in URLS.column("url").to_pylist():
        for agent in USAGE_AGENTS:
            assert rows[(url, agent)] == next(expected)
    pages = session.createDataFrame([(BODY_A, "/open/x")], "body binary, url string")
    value = pages.select(engine.robots_usage("body", "url", "ExampleBot", "train-ai")
                         .alias("v")).collect()[0]["v"]
    assert value is False


def test_every_column_function_on_spark_equals_duckdb(spark: Any) -> None:
    # issue 24: one set of Arrow column functions, registered by both engines, with the
    # Spark types generated from the same Arrow types as DuckDB's.
    import duckdb

    import robotsrules.duckdb as duck
    from robotsrules.bulk import _bodies, _columns, _schemas
    from tests.bulk.test_bulk_package import ROW, call_all

    on_duckdb = {f.name: value for f, _, value in call_all(duck.register(duckdb.connect()))}
    frame = spark.createDataFrame(pa.table({k: [v] for k, v in ROW.items()}))
    from pyspark.sql import functions as F

    functions = _columns.column_functions(_bodies.BodyCache)

    def call(function: Any) -> Any:
        return getattr(engine, function.name)(*[F.col(a) for a in function.arguments])

    row = frame.select(*[call(f).alias(f.name) for f in functions]).collect()[0]
    for function in functions:
        value = row[function.name]
        value = value.asDict() if hasattr(value, "asDict") else value
        assert value == on_duckdb[function.name], function.name
        kind = frame.select(call(function).alias("v")).schema["v"].dataType
        assert kind.simpleString() == _schemas.spark_type(function.returns).replace("`", ""), \
            function.name


def test_page_verdicts_equal_the_warc_path(spark: Any, tmp_path: Any) -> None:
    # Before the CLI test below, whose job stops the shared session. issue 16: page signals
    # of WARC files, one task per file, the robots table broadcast: the rows of page_table.
    pytest.importorskip("warcio")
    from robotsrules.bulk import RobotsIndex
    from robotsrules.warc import page_table
    from tests.page.test_page_stream import ROBOTS, many_pages
    from tests.page.test_page_warc import PAGES, write_warc

    write_warc(tmp_path / "a.warc.gz")
    many_pages(tmp_path / "b.warc.gz", 60)
    paths = [str(tmp_path / "a.warc.gz"), str(tmp_path / "b.warc.gz")]
    robots = pa.table({"url": ["https://a.example/robots.txt", "https://site1.example/",
                               "https://site2.example/robots.txt"],
                       "body": [PAGES[0][3], ROBOTS, ROBOTS], "status": [200, 200, 503]})
    agents, purposes = ["GPTBot", "ExampleBot"], ["ai-train", "search"]
    frame = engine.page_verdicts(spark, paths, agents, purposes,
                                 robots=spark.createDataFrame(robots))
    assert frame.rdd.getNumPartitions() == 2  # one task per WARC file
    got = [r.asDict() for r in frame.collect()]
    want = page_table(paths, agents=agents, purposes=purposes,
                      robots=RobotsIndex.from_arrow(robots)).to_pylist()
    key = lambda r: (r["url"], r["agent"])  # noqa: E731
    assert len(got) == len(want) == 2 * (4 + 60)
    for row in got:  # Spark hands timestamps back naive, in the session's time zone
        row["date"] = row["date"].astimezone(datetime.timezone.utc)
    assert sorted(got, key=key) == sorted(want, key=key)
    assert {r["crawl_allowed"] for r in got if "site2." in r["url"]} == {False}  # 503
def test_as_of_on_spark_equals_duckdb_and_python(spark: Any, tmp_path: Any,
                                                 capsys: Any) -> None:
    # Before the CLI tests: a CLI run with --engine spark stops the shared session.
    """``spark.as_of_verdicts`` and ``bulk --as-of --engine spark`` give the rows of
    :func:`robotsrules.bulk.as_of_verdicts` and of the DuckDB engine: a URL dated before any
    capture of its site, one dated exactly on a capture, one undated, an invalid URL, and a
    ``--strictest`` window that reaches back to an older, stricter capture."""
    import datetime

    from robotsrules import bulk
    from tests.bulk.test_as_of import ROBOTS, URLS, day

    urls = pa.concat_tables([URLS, pa.table({
        "url": ["https://a.example/b", "https://b.example/x", "https://a.example/b"],
        "crawled": pa.array([day("2020-01-01"), day("2020-12-31"), day("2022-02-01")],
                            pa.timestamp("us", tz="UTC"))})])
    agents = ["GPTBot", "CCBot"]
    key = lambda r: (r["url"], str(r["reason"]), str(r["allowed"]), r["agent"])  # noqa: E731
    for window in (None, datetime.timedelta(days=60)):
        got = [r.asDict() for r in engine.as_of_verdicts(
            spark.createDataFrame(ROBOTS), spark.createDataFrame(urls), agents, "crawled",
            strictest=window).collect()]
        want = [r for b in bulk.as_of_verdicts(bulk.RobotsHistory.from_arrow(ROBOTS), urls,
                                               agents, "crawled", strictest=window)
                for r in b.to_pylist()]
        assert sorted(got, key=key) == sorted(want, key=key)
    on = {(r["url"], r["agent"], r["allowed"], r["reason"]) for r in got}
    # ISO 8601 text dates (naive = UTC, one with an offset) and key="host": the same rows.
    texts = pa.table({"url": urls.column("url"), "crawled": pa.array(
        [None if d is None else d.strftime("%Y-%m-%dT%H:%M:%S") for d in
         urls.column("crawled").to_pylist()[:-1]] + ["2022-02-01T01:00:00+02:00"])})
    got = [r.asDict() for r in engine.as_of_verdicts(
        spark.createDataFrame(ROBOTS), spark.createDataFrame(texts), agents, "crawled",
        key="host").collect()]
    want = [r for b in bulk.as_of_verdicts(bulk.RobotsHistory.from_arrow(ROBOTS, "host"),
                                           texts, agents, "crawled") for r in b.to_pylist()]
    assert sorted(got, key=key) == sorted(want, key=key)
    assert ("https://a.example/b", "GPTBot", False, "longest-match") in on  # on the capture date
    assert ("https://b.example/x", "GPTBot", None, "no-robots") in on  # before any capture
    pq.write_table(ROBOTS, tmp_path / "robots.parquet")
    pq.write_table(urls, tmp_path / "urls.parquet")
    outputs = {}
    for name in ("duckdb", "spark"):
        out = str(tmp_path / f"{name}.parquet")
        code = main(["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
                     str(tmp_path / "urls.parquet"), "--agent", "GPTBot", "--out", out,
                     "--as-of", "crawled", "--strictest", "60", "--engine", name,
                     "--spark-master", "local[2]"])
        assert code == 0, capsys.readouterr().err
        outputs[name] = pq.read_table(out).to_pylist()
    assert sorted(outputs["spark"], key=key) == sorted(outputs["duckdb"], key=key)
    assert len(outputs["spark"]) == urls.num_rows
    strict = [r for r in outputs["spark"] if r["url"] == "https://a.example/b"
              and r["allowed"] is False]
    assert len(strict) == 3  # 2020-06-01, 2020-01-01, and 2022-02-01 by the window
def test_spark_stances_equal_the_bulk_table(spark: Any, robots_table: Any) -> None:
    """Issue 17: the Spark stance job and ``robots_stance`` give the rows of
    ``robotsrules.bulk.stances`` (which equal ``RobotsTxt.stance``: tests/bulk/test_stances.py),
    with a second, older capture of one site that must lose."""
    from pyspark.sql import functions as F

    from robotsrules import bulk

    sample = robots_table.slice(0, 40)  # every status branch; Spark's costs are fixed ones
    first = sample.slice(0, 1).to_pylist()[0]
    older = dict(first, body=b"User-agent: *\nDisallow: /", status=200,
                 date=first["date"].replace(year=2000))
    table = pa.concat_tables([sample, pa.Table.from_pylist([older], schema=sample.schema)])
    agents = ["GPTBot", "Googlebot", "ChatGPT-User", "QuuxCrawler"]  # stoppable true/false/null
    expected = sorted(r for b in bulk.stances(sample, agents) for r in
                      (tuple(x.values()) for x in b.to_pylist()))
    frame = spark.createDataFrame(table)
    job = engine.stances(frame, agents, partitions=3)
    assert job.schema.simpleString() == spark.createDataFrame(
        [], engine.STANCE_DDL).schema.simpleString()
    found = sorted(tuple(r) for r in job.collect())
    assert [r[:3] for r in found] == [r[:3] for r in expected]
    assert found == expected
    columns = (frame.where(F.col("date") > F.lit("2001-01-01"))
               .select(engine.robots_origin("url").alias("site"),
                       engine.robots_stance("body", "status", "GPTBot").alias("s"))
               .select("site", "s.*").collect())
    by_site = {r["site"]: (r["kind"], r["reason"], list(r["lines"] or []), r["stoppable"])
               for r in columns}
    for row in expected:
        if row[1] == "GPTBot":
            assert by_site[row[0]] == (row[2], row[3], list(row[5]), row[9]), row[0]
    assert {r[1]: r[9] for r in found} == {"GPTBot": True, "Googlebot": True,
                                           "ChatGPT-User": False, "QuuxCrawler": None}
    from robotsrules._tables._crawlers import known_crawlers

    quux = next(c for c in known_crawlers() if c.token == "CCBot")._replace(
        name="QuuxCrawler", token="QuuxCrawler")  # another table (--crawlers) decides
    other = engine.stances(frame, ["QuuxCrawler"], crawlers=[quux]).collect()
    assert {r["stoppable"] for r in other} == {True}


def test_cli_spark_engine_equals_duckdb(spark: Any, tmp_path: Any, robots_table: Any,
                                        sample: Sample, capsys: Any) -> None:
    pq.write_table(robots_table, tmp_path / "robots.parquet")
    (tmp_path / "urls.txt").write_text("\n".join(sample.urls) + "\n")
    outputs = {}
    for name in ("duckdb", "spark"):
        out = str(tmp_path / f"{name}.csv")
        code = main(["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
                     str(tmp_path / "urls.txt"), "--agent", "GPTBot", "--agent", "CCBot",
                     "--out", out, "--engine", name, "--spark-master", "local[2]"])
        assert code == 0, capsys.readouterr().err
        import pyarrow.csv as pacsv

        outputs[name] = pacsv.read_csv(out).to_pylist()
    key = lambda r: (r["url"], r["agent"])  # noqa: E731
    assert sorted(outputs["spark"], key=key) == sorted(outputs["duckdb"], key=key)
    assert len(outputs["spark"]) == 2 * len(sample.urls)


def test_cli_pages_warc_spark_equals_duckdb(tmp_path: Any, capsys: Any) -> None:
    # Last: the CLI starts (and stops) its own session. issue 16: the same table, row for row.
    pytest.importorskip("warcio")
    from tests.page.test_page_stream import many_pages
    from tests.page.test_page_warc import write_warc

    write_warc(tmp_path / "a.warc.gz")
    many_pages(tmp_path / "b.warc.gz", 30)
    outputs = {}
    for name in ("duckdb", "spark"):
        out = str(tmp_path / f"{name}.parquet")
        code = main(["bulk", "--pages-warc", str(tmp_path / "a.warc.gz"),
                     str(tmp_path / "b.warc.gz"), "--robots-warc", str(tmp_path / "a.warc.gz"),
                     "--agent", "GPTBot", "--agent", "ExampleBot", "--purpose", "ai-train",
                     "--out", out, "--engine", name, "--spark-master", "local[2]"])
        assert code == 0, capsys.readouterr().err
        assert f"[{name}]" in capsys.readouterr().out
        outputs[name] = pq.read_table(out)
    assert outputs["spark"].schema == outputs["duckdb"].schema
    key = lambda r: (r["url"], r["agent"])  # noqa: E731
    rows = sorted(outputs["duckdb"].to_pylist(), key=key)
    assert sorted(outputs["spark"].to_pylist(), key=key) == rows
    assert len(rows) == 2 * (4 + 30) and any(r["crawl_allowed"] is False for r in rows)
def test_cli_stance_table_on_spark_equals_duckdb(tmp_path: Any, robots_table: Any,
                                                 capsys: Any) -> None:
    """``stance --robots --out --engine spark`` writes the DuckDB engine's rows (runs last:
    the command stops the session it gets when it ends)."""
    from tests.bulk.test_stances import assert_registry_metadata

    pq.write_table(robots_table.slice(0, 40), tmp_path / "robots.parquet")
    outputs = {}
    for name in ("duckdb", "spark"):
        out = str(tmp_path / f"{name}.parquet")
        code = main(["stance", "--robots", str(tmp_path / "robots.parquet"), "--agent",
                     "GPTBot", "--agent", "ChatGPT-User", "--agent", "QuuxCrawler", "--out",
                     out, "--engine", name, "--spark-master", "local[2]"])
        assert code == 0, capsys.readouterr().err
        outputs[name] = pq.read_table(out).to_pylist()
        assert_registry_metadata(pq.read_schema(out).metadata)  # who said "stoppable"
    key = lambda r: (r["site"], r["agent"])  # noqa: E731
    assert sorted(outputs["spark"], key=key) == sorted(outputs["duckdb"], key=key)
    assert len(outputs["spark"]) == 3 * 40  # one row per site and agent
    assert {(r["agent"], r["stoppable"]) for r in outputs["spark"]} == {
        ("GPTBot", True), ("ChatGPT-User", False), ("QuuxCrawler", None)}


def test_spark_verify_column_equals_duckdb(spark: Any) -> None:
    # robots_verify (issue 36 §4): the same rows from both engines and the plain API.
    from tests.bulk.test_verify_column import duckdb_rows, expected, visitors_table

    frame = spark.createDataFrame(visitors_table())
    got = frame.select("n", engine.robots_verify("address", "ua").alias("v")).collect()
    rows = [None if r["v"] is None else r["v"].asDict()
            for r in sorted(got, key=lambda r: r["n"])]
    assert rows == duckdb_rows() == expected()


def test_logs_engine_spark_equals_duckdb_through_the_cli(spark: Any, tmp_path: Any,
                                                         monkeypatch: Any) -> None:
    """Issue 37: ``robotsrules logs --engine spark`` (in-process, so the module's session
    is the one the audit gets: no second JVM) writes the same ``--out`` table, prints the
    same summary and aggregates the same tables as ``--engine duckdb``. The log is 15
    lines, chosen so that every summary query has rows and every verdict (allowed,
    violation, caching allowance, no file, disallowed only in RFC 9309's reading),
    verification answer the offline lists give (verified, not verified), 402 and
    robots.txt fetch by a crawler and by anyone appears:
    a query Spark answers differently changes a compared table (each query's rows are
    compared whole, as both CLI runs aggregated them, before any folding). The cost is
    Spark's per-query work, not the rows: one pass of the queries, as before the CLI joined."""
    import io
    import json

    from robotsrules._audit import _summary
    from tests.audit.test_cli_logs import GOOGLEBOT, SITE, entry, logs

    aggregated: dict[str, Any] = {}
    real = _summary.engine_tables

    def recorded(path: str, engine: str = "duckdb", spark: Any = None) -> Any:
        # the real queries, kept to compare; the Crawl-delay gaps a minute at a time (every
        # slice of the gaps' queries, and the gap from an earlier slice, in both engines)
        aggregated[engine] = real(path, engine, spark, slice_rows=1)
        return aggregated[engine]

    monkeypatch.setattr(_summary, "engine_tables", recorded)
    history = tmp_path / "history"
    history.mkdir()
    (history / "2026-11-01.txt").write_text(
        "User-agent: *\nDisallow: /private/\nDisallow: /%7Ejoe\nCrawl-delay: 5\n"
        "Content-Signal: search=yes\n")
    (history / "2026-11-03T09:30:00Z.txt").write_text(  # younger than the window at 10:00
        "User-agent: *\nDisallow: /private/\nDisallow: /new/\nCrawl-delay: 5\n")
    bing = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
    log = logs(tmp_path, entry("192.0.2.1", "31/Oct/2026:10:00:00", "/early", bing),  # no file
               *[entry(address, f"0{day}/Nov/2026:10:00:{s:02d}", path, agent, status)
                 for day in (2, 3) for s, address, path, agent, status in (
                     (0, "192.0.2.1", "/robots.txt", bing, 200),
                     (1, "192.0.2.1", "/private/a", bing, 200),
                     (3, "192.0.2.1", "/x", bing, 402),
                     (4, "192.0.2.1", "/private/b", GOOGLEBOT, 404),
                     (5, "192.0.2.9", "/robots.txt", "curl/8", 503),
                     (6, "66.249.66.1", "/new/c", GOOGLEBOT, 200))],
               entry("66.249.66.1", "04/Nov/2026:10:00:00", "/new/d", GOOGLEBOT),
               entry("192.0.2.1", "02/Nov/2026:11:00:00", "/~joe/a", bing))  # RFC 9309 only
    outputs: dict[str, Any] = {}
    for name in ("duckdb", "spark"):
        printed = io.StringIO()
        argv = ["logs", log, "--site", SITE, "--robots-history", str(history), "--json",
                "--engine", name, "--out", str(tmp_path / f"{name}.parquet")]
        assert main(argv, out=printed) == 1  # violations found
        summary = json.loads(printed.getvalue())
        assert summary.pop("engine") == name
        outputs[name] = (summary, pq.read_table(tmp_path / f"{name}.parquet"))
    from pyspark import SparkContext

    assert SparkContext._active_spark_context is spark.sparkContext  # the one session
    assert all(aggregated["duckdb"].values()), aggregated["duckdb"]  # every query has rows
    assert aggregated["spark"] == aggregated["duckdb"]
    (summary, table), (fleet_summary, fleet_table) = outputs["duckdb"], outputs["spark"]
    assert fleet_summary == summary
    assert fleet_table.schema.remove_metadata() == table.schema.remove_metadata()
    assert fleet_table.to_pylist() == table.to_pylist()
    verdicts = summary["totals"]
    assert verdicts["violations"] and verdicts["caching_allowance"] and verdicts["paid"]
    assert verdicts["rfc_only"] == 1
    shares = {k for bot in summary["bots"] for k, n in bot["verification"].items() if n}
    assert {"verified", "not-verified"} <= shares
    assert {row["verdict"] for row in table.to_pylist()} == {
        "allowed", "violation", "caching-allowance", "no-file"}
