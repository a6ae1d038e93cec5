"""The bulk package's shared pieces (issue 24): one date reader, one capture ranking, one
any-agent fold, engine types generated from the Arrow schemas, one set of column functions."""

from __future__ import annotations

import datetime
import io
import itertools
from typing import Any, Optional

import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

from robotsrules import bulk  # noqa: E402
from robotsrules._dates import read_date, utc  # noqa: E402
from robotsrules.bulk import _any, _bodies, _columns, _schemas  # noqa: E402

UTC = datetime.timezone.utc


@pytest.mark.parametrize(("text", "want"), [
    # WARC-Date (ISO 28500: up to nanoseconds), as warc.py read them
    ("2024-03-01T10:00:00Z", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("2024-03-01T10:00:00.123456789Z", datetime.datetime(2024, 3, 1, 10, 0, 0, 123456, UTC)),
    ("2024-03-01t10:00:00z", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    # bulk date cells: dates, naive times (UTC), offsets
    ("2024-03-01", datetime.datetime(2024, 3, 1, tzinfo=UTC)),
    ("2024-03-01 10:00", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("2024-03-01T12:00:00+02:00", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("2024-03-01T12:00:00+0200", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("2024-03-01T12:00+02", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    # unavailable_after (RFC 822 / RFC 850), as the page layer read them
    ("Fri, 01 Mar 2024 10:00:00 GMT", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("Friday, 01-Mar-24 10:00:00 GMT", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    ("1 Mar 2024 12:00:00 +0200", datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)),
    # not dates
    ("", None), ("soon", None), ("2024-13-01", None), ("2024-02-30T00:00Z", None),
    ("2" * 200, None), ("0001-01-01T00:00+05:00", None),
])
def test_one_date_reader_reads_what_each_of_the_three_read(text: str,
                                                           want: Optional[datetime.datetime]
                                                           ) -> None:
    assert utc(text) == want


def test_date_values_and_zones() -> None:
    assert utc(datetime.date(2024, 3, 1)) == datetime.datetime(2024, 3, 1, tzinfo=UTC)
    assert utc(datetime.datetime(2024, 3, 1, 10)) == datetime.datetime(2024, 3, 1, 10, tzinfo=UTC)
    assert utc(20240301) is None and utc(None) is None
    # read_date keeps the zone it was given (the page layer shows it as written)
    assert read_date("2024-03-01T12:00+02:00").utcoffset() == datetime.timedelta(hours=2)


def test_text_dates_rank_by_time_not_as_text() -> None:
    # 22:30 UTC on 31 May sorts after 23:00 UTC the same day as text: the later time wins.
    table = pa.table({
        "url": ["https://a.example/robots.txt", "https://a.example/robots.txt",
                "https://b.example/robots.txt", "https://b.example/robots.txt"],
        # the older capture has the larger body each time: only the dates can pick
        "body": [b"User-agent: *\nDisallow: /zz-earlier", b"User-agent: *\nDisallow: /later",
                 b"User-agent: *\nDisallow: /text", b"User-agent: *\nDisallow: /zz-stamp"],
        "date": ["2024-06-01T00:30:00+02:00", "2024-05-31T23:00:00Z",
                 "2024-06-01T01:00:00+02:00", "2024-05-31 22:00"],
    })
    index = bulk.RobotsIndex.from_arrow(table)
    assert index.get("https://a.example") == (b"User-agent: *\nDisallow: /later", None)
    assert index.get("https://b.example") == (b"User-agent: *\nDisallow: /text", None)
    history = bulk.RobotsHistory.from_arrow(table)
    capture = history.as_of("https://a.example", "2024-05-31T22:45:00Z")
    assert capture is not None and capture[2][0] == b"User-agent: *\nDisallow: /zz-earlier"


CAPTURES: list[tuple[Optional[datetime.datetime], bytes, int]] = [
    (None, b"User-agent: *\nDisallow: /undated-long-body", 200),
    (datetime.datetime(2024, 1, 1, tzinfo=UTC), b"User-agent: *\nDisallow: /a", 200),
    (datetime.datetime(2024, 1, 1, tzinfo=UTC), b"User-agent: *\nDisallow: /b", 200),
    (datetime.datetime(2024, 1, 1, tzinfo=UTC), b"User-agent: *\nDisallow: /b", 503),
    (datetime.datetime(2023, 1, 1, tzinfo=UTC), b"User-agent: *\nDisallow: /zzzz", 200),
    (datetime.datetime(2024, 1, 1, tzinfo=UTC), b"User-agent: *\nDisallow: /a", 504),
]


def _warc(order: tuple[int, ...]) -> bytes:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    handle = io.BytesIO()
    writer = WARCWriter(handle, gzip=False)
    for i in order:
        date, body, status = CAPTURES[i]
        warc_headers = {} if date is None else {"WARC-Date": date.strftime("%Y-%m-%dT%H:%M:%SZ")}
        http = StatusAndHeaders(f"{status} X", [("Content-Type", "text/plain")],
                                protocol="HTTP/1.1")
        record = writer.create_warc_record("https://a.example/robots.txt", "response",
                                           payload=io.BytesIO(body), http_headers=http,
                                           warc_headers_dict=warc_headers)
        if date is None:
            record.rec_headers.remove_header("WARC-Date")
        writer.write_record(record)
    return handle.getvalue()


def test_one_ranking_picks_the_same_capture_everywhere() -> None:
    pytest.importorskip("warcio")
    from robotsrules import warc

    want = max(range(len(CAPTURES)), key=lambda i: bulk.rank(*CAPTURES[i]))
    assert want == 3  # newest date, then the larger body, then the larger status
    for order in itertools.permutations(range(len(CAPTURES))):
        rows = [CAPTURES[i] for i in order]
        table = pa.table({"url": ["https://a.example/robots.txt"] * len(rows),
                          "body": [r[1] for r in rows], "status": [r[2] for r in rows],
                          "date": pa.array([r[0] for r in rows], pa.timestamp("us", tz="UTC"))})
        assert bulk.RobotsIndex.from_arrow(table).get("https://a.example") == \
            (CAPTURES[want][1], CAPTURES[want][2]), order
        history = bulk.RobotsHistory.from_arrow(table)
        found = history.as_of("https://a.example", "2030-01-01")
        assert found is not None and found[2] == (CAPTURES[want][1], CAPTURES[want][2]), order
        if order[0] in (0, 4) and order[1] in (1, 5):  # a sample of the orders for the (slower) WARC reader
            read = warc.read_warcs([io.BytesIO(_warc(order))]).to_pylist()
            assert (read[0]["body"], read[0]["status"]) == CAPTURES[want][1:], order


def test_one_any_agent_fold() -> None:
    fold = _any.first_disallowed
    assert fold([("A", (True, 1, "longest-match")), ("B", (False, 3, "longest-match")),
                 ("C", (False, 4, "longest-match"))]) == (True, "B", 3, "longest-match")
    assert fold([("A", (None, None, "no-robots")), ("B", (True, None, "no-match"))]) == \
        (None, None, None, "no-robots")
    assert fold([("A", (True, None, "no-match"))]) == (False, None, None, "allowed")
    assert _any.missing_any(False, ["A", "B"]) == (True, "A", None, "no-robots")
    assert _any.missing_any(True, ["A", "B"]) == (False, None, None, "allowed")
    assert _any.missing_any(None, ["A"]) == (None, None, None, "no-robots")


ROW = {"body": b"License: https://a.example/license.xml\nUser-agent: *\nDisallow: /p\n"
               b"Content-Usage: train-ai=n\n", "status": 200,
       "url": "https://a.example/q", "agent": "GPTBot", "purpose": "ai-train",
       "headers": "X-Robots-Tag: noai\r\ntdm-reservation: 1",
       "html": b"<html><head><meta name=robots content=noindex></head>",
       "xml": b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
              b'<prohibits type="usage">ai-train</prohibits></license></content></rsl>',
       "address": "66.249.66.1", "user_agent": "Googlebot/2.1"}


def call_all(connection: Any) -> list[Any]:
    """Every column function on ROW in DuckDB: its value, and its Arrow type."""
    connection.register("t", pa.table({k: [v] for k, v in ROW.items()}))
    out = []
    for function in _columns.column_functions(_bodies.BodyCache):
        result = connection.sql(f"SELECT {function.name}({', '.join(function.arguments)}) "
                                "AS v FROM t").to_arrow_table()
        out.append((function, result.column("v").type, result.column("v").to_pylist()[0]))
    return out


def test_duckdb_registers_every_column_function_with_its_generated_type() -> None:
    import robotsrules.duckdb as engine

    con = engine.register(duckdb.connect())
    names = {row[0] for row in con.sql("SELECT function_name FROM duckdb_functions() "
                                       "WHERE function_name LIKE 'robots_%'").fetchall()}
    assert names == {f.name for f in _columns.column_functions(_bodies.BodyCache)}
    for function, kind, value in call_all(con):
        assert kind == function.returns, function.name
        assert value is not None or function.name == "robots_line", function.name
    assert _schemas.sql_type(_schemas.STANCE_TYPE).startswith('STRUCT("kind" VARCHAR')
    assert _schemas.spark_ddl(bulk.VERDICT_SCHEMA) == (
        "`url` string, `agent` string, `allowed` boolean, `line` int, `reason` string, "
        "`origin` string")
