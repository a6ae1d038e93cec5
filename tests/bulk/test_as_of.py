"""The file in force at crawl time: ``RobotsHistory``, ``as_of_verdicts``, ``bulk --as-of``
(and ``--strictest``), checked against DuckDB's ASOF join; WARC dumps keep every capture."""

from __future__ import annotations

import datetime
from typing import Any, Optional

import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
import pyarrow.parquet as pq  # noqa: E402

import robotsrules  # noqa: E402
from robotsrules import bulk  # noqa: E402
from robotsrules.bulk import _rows  # noqa: E402
from robotsrules.cli import main  # noqa: E402

UTC = datetime.timezone.utc


def day(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=UTC)


ROBOTS = pa.table({
    "url": ["https://a.example/robots.txt"] * 3 + ["https://b.example/robots.txt"],
    "body": [b"User-agent: *\nDisallow: /a\n", b"User-agent: *\nDisallow: /b\n",
             b"User-agent: *\nDisallow: /c\n", b"User-agent: *\nDisallow: /\n"],
    "date": pa.array([None, day("2020-01-01"), day("2022-01-01"), day("2021-01-01")],
                     pa.timestamp("us", tz="UTC")),
})
URLS = pa.table({
    "url": ["https://a.example/b", "https://a.example/b", "https://a.example/c",
            "https://a.example/c", "https://b.example/x", "https://b.example/x",
            "https://a.example/b", "not a url"],
    "crawled": pa.array([day("2019-05-01"), day("2020-06-01"), day("2021-06-01"),
                         day("2022-02-01"), day("2020-06-01"), day("2021-06-01"),
                         None, day("2022-01-01")], pa.timestamp("us", tz="UTC")),
})
# (allowed, line) per URL row above, for the newest capture not after the date.
AS_OF: list[tuple[Optional[bool], Optional[int]]] = [
    (True, None), (False, 2), (True, None), (False, 2), (None, None), (False, 2),
    (None, None), (None, None)]


def _judge(strictest: Optional[datetime.timedelta] = None) -> list[tuple[Any, Any]]:
    history = bulk.RobotsHistory.from_arrow(ROBOTS)
    return [(r["allowed"], r["line"]) for b in bulk.as_of_verdicts(
        history, URLS, ["GPTBot"], "crawled", strictest=strictest) for r in b.to_pylist()]


def test_newest_capture_not_after_the_date() -> None:
    assert _judge() == AS_OF
    reasons = [r["reason"] for b in bulk.as_of_verdicts(
        bulk.RobotsHistory.from_arrow(ROBOTS), URLS, ["GPTBot"], "crawled")
        for r in b.to_pylist()]
    assert reasons[4] == reasons[6] == "no-robots" and reasons[7] == "invalid-url"
    # A capture dated exactly at the crawl is in force ("not after").
    history = bulk.RobotsHistory.from_arrow(ROBOTS)
    capture = history.as_of("https://a.example", day("2020-01-01"))
    assert capture is not None and capture[2][0] == b"User-agent: *\nDisallow: /b\n"


def test_same_capture_as_duckdb_asof_join() -> None:
    """DuckDB's ASOF join picks, per URL, the capture our history calls in force."""
    con = duckdb.connect()
    con.register("robots", ROBOTS)
    con.register("urls", URLS)
    rows = con.sql(
        "SELECT u.url, u.crawled, r.body FROM urls u ASOF LEFT JOIN "
        "(SELECT *, regexp_extract(url, '^https?://[^/]+') AS site FROM robots "
        " WHERE date IS NOT NULL) r "
        "ON regexp_extract(u.url, '^https?://[^/]+') = r.site AND u.crawled >= r.date "
        "WHERE u.crawled IS NOT NULL AND u.url LIKE 'http%' AND u.crawled >= '2020-01-01'"
    ).fetchall()
    history = bulk.RobotsHistory.from_arrow(ROBOTS)
    assert rows
    for url, crawled, body in rows:
        capture = history.as_of(_rows.fast_origin(url) or "", crawled)
        assert (capture[2][0] if capture else None) == body, (url, crawled)


def test_strictest_over_a_window() -> None:
    # /c crawled 2022-02-01 is disallowed by the 2022 capture either way; /b crawled then
    # would be allowed by it, but the 2020 capture (in force until 2022-01-01) forbade it.
    strict = _judge(datetime.timedelta(days=60))
    assert strict[3] == (False, 2)
    urls = pa.table({"url": ["https://a.example/b"] * 2,
                     "crawled": pa.array([day("2022-02-01")] * 2, pa.timestamp("us", tz="UTC"))})
    history = bulk.RobotsHistory.from_arrow(ROBOTS)

    def one(days: float) -> Any:
        window = datetime.timedelta(days=days)
        return next(iter(bulk.as_of_verdicts(history, urls.slice(0, 1), ["x"], "crawled",
                                             strictest=window))).to_pylist()[0]["allowed"]

    assert one(60) is False and one(10) is True


def test_cli_as_of_and_strictest(tmp_path: Any, capsys: Any) -> None:
    pq.write_table(ROBOTS, tmp_path / "robots.parquet")
    pq.write_table(URLS, tmp_path / "urls.parquet")
    out = tmp_path / "v.parquet"
    base = ["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
            str(tmp_path / "urls.parquet"), "--out", str(out), "--agent", "GPTBot"]
    assert main([*base, "--as-of", "crawled"]) == 0
    got = [(r["allowed"], r["line"]) for r in pq.read_table(out).to_pylist()]
    assert got == AS_OF
    assert main([*base, "--as-of", "crawled", "--strictest", "60", "--any-agent"]) == 0
    assert pq.read_table(out).column("disallowed").to_pylist()[3] is True
    capsys.readouterr()
    for extra, message in [(["--strictest", "3"], "needs --as-of"),
                           (["--as-of", "nope"], "no 'nope' column"),
                           (["--as-of", "crawled", "--strictest", "-1"], "from 0 to 36,500"),
                           (["--as-of", "crawled", "--strictest", "nan"], "from 0 to 36,500"),
                           (["--as-of", "crawled", "--strictest", "1e300"],
                            "from 0 to 36,500"),
                           (["--as-of", "crawled", "--purpose", "ai-train"], "--purpose")]:
        assert main([*base, *extra]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err


def test_warc_dumps_keep_every_capture(tmp_path: Any) -> None:
    pytest.importorskip("warcio")
    from robotsrules import warc
    from tests.bulk.test_warc import write_warc

    path = str(tmp_path / "dump.warc.gz")
    write_warc(path, gzip=True)
    newest = warc.read_warcs([path])
    every = warc.read_warc_captures([path])
    twice = [r for r in every.to_pylist() if r["origin"] == "https://twice.example"]
    assert [r["body"] for r in twice] == [b"User-agent: *\nDisallow: /old\n",
                                          b"User-agent: *\nDisallow: /new\n"]
    assert every.num_rows == newest.num_rows + 1
    history = bulk.RobotsHistory.from_arrow(every)
    capture = history.as_of("https://twice.example", day("2023-06-01"))
    assert capture is not None and capture[2][0] == b"User-agent: *\nDisallow: /old\n"


def test_dates_at_the_edge_of_the_calendar_never_raise() -> None:
    """Crawl dates come from strangers: a window reaching before year 1, or an offset that
    puts a date before it in UTC, is judged (or has no usable date), never an exception."""
    history = bulk.RobotsHistory.from_arrow(ROBOTS)
    urls = pa.table({
        "url": ["https://a.example/b", "https://a.example/b", "https://a.example/b"],
        "crawled": ["0001-01-03T00:00:00", "0001-01-01T00:00:00+05:00", "9999-12-31"],
    })
    rows = [r for b in bulk.as_of_verdicts(history, urls, ["x"], "crawled",
                                           strictest=datetime.timedelta(days=30))
            for r in b.to_pylist()]
    # Year 1: only the undated capture (in force before any dated one) applies: /b allowed;
    # before year 1 in UTC: no usable date; year 9999: the newest capture (/c): allowed.
    assert [(r["allowed"], r["reason"]) for r in rows] == [
        (True, "no-match"), (None, "no-robots"), (True, "no-match")]


@pytest.mark.parametrize("window", [datetime.timedelta(days=-1), 30])
def test_a_bad_window_is_a_caller_mistake(window: Any) -> None:
    with pytest.raises(robotsrules.InvalidArgument):
        list(bulk.as_of_verdicts(bulk.RobotsHistory.from_arrow(ROBOTS), URLS, ["x"], "crawled",
                                 strictest=window))


def test_duckdb_reads_dates_as_the_python_path_whatever_the_time_zone(tmp_path: Any) -> None:
    """Text dates without a zone are UTC on every path: a DuckDB session in New York (the
    machine's zone is DuckDB's default) must not move them by five hours."""
    from robotsrules import duckdb as engine

    robots = pa.table({
        "url": ["https://a.example/robots.txt"] * 2,
        "body": [b"User-agent: *\nDisallow: /old\n", b"User-agent: *\nDisallow: /new\n"],
        "date": ["2020-01-01T00:00:00Z", "2020-01-01T12:00:00Z"],
    })
    urls = pa.table({
        # 10:00 UTC is before the second capture; read in New York it would be 15:00 UTC.
        "url": ["https://a.example/new", "https://a.example/old"],
        "crawled": ["2020-01-01T10:00:00", "2020-01-01T12:00:00+02:00"],
    })
    pq.write_table(robots, tmp_path / "robots.parquet")
    pq.write_table(urls, tmp_path / "urls.parquet")
    expected = [(r["url"], r["allowed"]) for b in bulk.as_of_verdicts(
        bulk.RobotsHistory.from_arrow(robots), urls, ["x"], "crawled") for r in b.to_pylist()]
    assert expected == [("https://a.example/new", True), ("https://a.example/old", False)]
    con = duckdb.connect()
    con.execute("SET TimeZone = 'America/New_York'")
    history = engine.load_history(con, str(tmp_path / "robots.parquet"))
    reader = engine.as_of_reader(con, str(tmp_path / "urls.parquet"), "crawled")
    got = [(r["url"], r["allowed"]) for b in bulk.as_of_verdicts(history, reader, ["x"],
                                                                 "crawled")
           for r in b.to_pylist()]
    assert got == expected
