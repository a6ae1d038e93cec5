"""Page signals from WARC response records: robotsrules.warc.page_table and
``robotsrules bulk --pages-warc`` (WARC files written here with warcio's writer)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotsrules import parse
from robotsrules.cli import main
from robotsrules.warc import WarcStats, iter_pages, page_table

Record = tuple[str, str, list[tuple[str, str]], bytes]
PAGES: list[Record] = [
    ("https://a.example/robots.txt", "2024-03-01T00:00:00Z", [("Content-Type", "text/plain")],
     b"User-agent: *\nContent-Signal: search=yes, ai-train=yes\nDisallow: /private\n"),
    ("https://a.example/open", "2024-03-01T00:00:01Z", [("Content-Type", "text/html")],
     b"<html><head><title>x</title></head><body>ok</body></html>"),
    ("https://a.example/noai", "2024-03-01T00:00:02Z",
     [("Content-Type", "text/html; charset=utf-8"), ("X-Robots-Tag", "noindex")],
     b'<html><head><meta name="robots" content="noai, nofollow"></head></html>'),
    ("https://a.example/private/doc.pdf", "2024-03-01T00:00:03Z",
     [("Content-Type", "application/pdf"), ("tdm-reservation", "1"),
      ("X-Robots-Tag", "gptbot: noindex")], b"%PDF-1.7"),
    ("https://b.example/expired", "2024-03-01T00:00:04Z",
     [("Content-Type", "text/html"), ("X-Robots-Tag", "unavailable_after: 2024-01-01")],
     b"<html></html>"),
]


def write_warc(path: Path, records: list[Record] = PAGES) -> None:
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, date, headers, body in records:
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=http,
                warc_headers_dict={"WARC-Date": date}))
            writer.write_record(writer.create_warc_record(
                url, "request", payload=io.BytesIO(b"GET / HTTP/1.1\r\n\r\n")))
        handle.write(b"garbage at the end")


def test_iter_pages_reads_headers_and_html_heads_only(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc.gz"
    write_warc(path)
    stats = WarcStats()
    pages = list(iter_pages(str(path), stats=stats))
    assert [p.url.rsplit("/", 1)[1] for p in pages] == ["open", "noai", "doc.pdf", "expired"]
    assert pages[2].head is None and ("tdm-reservation", "1") in pages[2].headers
    assert pages[1].head is not None and b"noai" in pages[1].head
    assert stats.errors  # the garbage, noted, not raised


def test_page_table_with_and_without_robots(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc.gz"
    write_warc(path)
    robots = {"https://a.example": parse(PAGES[0][3])}
    table = page_table([str(path)], agents=["GPTBot", "ExampleBot"],
                       purposes=["ai-train", "search"], robots=robots)
    rows = {(r["url"].rsplit("/", 1)[1], r["agent"]): r for r in table.to_pylist()}
    assert table.column_names[-2:] == ["ai_train", "search"]
    open_ = rows[("open", "GPTBot")]
    assert (open_["crawl_allowed"], open_["index"], open_["ai_train"], open_["search"]) == (
        True, True, True, True)  # from robots.txt's Content-Signal
    noai = rows[("noai", "ExampleBot")]
    assert (noai["index"], noai["follow"], noai["noai"], noai["ai_train"], noai["search"]) == (
        False, False, True, False, False)  # the page refuses what the site allowed
    pdf_gpt, pdf_other = rows[("doc.pdf", "GPTBot")], rows[("doc.pdf", "ExampleBot")]
    assert (pdf_gpt["crawl_allowed"], pdf_gpt["index"], pdf_other["index"]) == (False, False, True)
    assert pdf_gpt["tdm_reservation"] == 1 and pdf_other["ai_train"] is False
    expired = rows[("expired", "GPTBot")]  # judged at its WARC-Date, after the date
    assert (expired["crawl_allowed"], expired["index"], expired["search"]) == (None, False, False)
    assert expired["ai_train"] is None


def test_cli_bulk_pages_warc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "pages.warc.gz"
    write_warc(path)
    out = tmp_path / "pages.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--robots-warc", str(path),
                 "--agent", "GPTBot", "--purpose", "ai-train", "--out", str(out)]) == 0
    assert "4 page rows" in capsys.readouterr().out
    rows = pq.read_table(out).to_pylist()
    private = next(r for r in rows if r["url"].endswith("doc.pdf"))
    assert private["crawl_allowed"] is False and private["ai_train"] is False
    csv = tmp_path / "pages.csv"
    assert main(["bulk", "--pages-warc", str(path), "--agent", "x", "--out", str(csv)]) == 0
    assert csv.read_text().startswith('"url","agent","status"')
    assert main(["bulk", "--agent", "x", "--out", str(csv)]) == 2
    assert "bulk needs --urls" in capsys.readouterr().err
    assert main(["bulk", "--pages-warc", str(path), "--agent", "x", "--purpose", "ai_train",
                 "--out", str(csv)]) == 2


def test_duckdb_page_functions() -> None:
    duckdb = pytest.importorskip("duckdb")
    import robotsrules.duckdb as engine

    con = engine.register(duckdb.connect())
    con.sql("CREATE TABLE pages (headers VARCHAR, html BLOB)")
    long_head = (b"<html><head><title>" + b"x" * 600_000
                 + b'</title><meta name="robots" content="noai, noindex"></head><body>')
    con.execute("INSERT INTO pages VALUES (?, ?), (?, ?), (NULL, NULL), (?, ?)", [
        "HTTP/1.1 200 OK\r\nX-Robots-Tag: gptbot: noindex\r\ntdm-reservation: 1\r\n", b"",
        "Content-Type: text/html", b'<head><meta name="robots" content="noai, nofollow">',
        "Content-Type: text/html", long_head])
    rows = con.sql("SELECT robots_page(headers, html, 'GPTBot') AS p, "
                   "robots_page_allows(headers, html, 'GPTBot', 'ai-train') AS train, "
                   "robots_page_allows(headers, html, 'Other', 'search') AS search "
                   "FROM pages").fetchall()
    assert rows[0] == ({"index": False, "follow": True, "noai": False, "tdm_reservation": 1,
                        "head_cut": False}, False, None)
    assert rows[1] == ({"index": True, "follow": False, "noai": True, "tdm_reservation": None,
                        "head_cut": False}, False, None)
    assert rows[2] == ({"index": True, "follow": True, "noai": False, "tdm_reservation": None,
                        "head_cut": False}, None, None)
    # Issue 33 review: a head running past the 512 KiB read says so; its answers are "not
    # known" (null), and the struct tells them from "nothing stated".
    assert rows[3] == ({"index": True, "follow": True, "noai": False, "tdm_reservation": None,
                        "head_cut": True}, None, None)
    with pytest.raises(duckdb.Error):
        con.sql("SELECT robots_page_allows(NULL, NULL, 'x', 'ai_train')").fetchall()


@pytest.mark.slow  # a Spark session of its own
@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java 17+")
def test_spark_robots_page_says_when_the_head_was_cut() -> None:
    pytest.importorskip("pyspark")
    from robotsrules import spark as engine

    long_head = (b"<html><head><title>" + b"x" * 600_000
                 + b'</title><meta name="robots" content="noai"></head><body>')
    session = engine.local_session("local[1]", **{"spark.sql.shuffle.partitions": "1"})
    try:
        frame = session.createDataFrame(
            [("short", "Content-Type: text/html", b'<meta name="robots" content="noai">'),
             ("long", "Content-Type: text/html", long_head)],
            "name string, headers string, html binary")
        found = {r["name"]: (r["p"]["noai"], r["p"]["head_cut"], r["train"]) for r in frame.select(
            "name", engine.robots_page("headers", "html", "GPTBot").alias("p"),
            engine.robots_page_allows("headers", "html", "GPTBot", "ai-train").alias("train"),
        ).collect()}
    finally:
        session.stop()
    assert found == {"short": (True, False, False), "long": (False, True, None)}


def _raw_response(url: str, payload: bytes) -> bytes:
    """One uncompressed WARC response record holding ``payload`` exactly as sent."""
    head = ("WARC/1.0\r\nWARC-Type: response\r\n"
            f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{len(url):012d}>\r\n"
            "WARC-Date: 2026-01-01T00:00:00Z\r\n"
            f"WARC-Target-URI: {url}\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n").encode()
    return head + payload + b"\r\n\r\n"


@pytest.mark.parametrize("interim", [
    b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\n"])
def test_an_interim_response_before_the_final_one_is_never_nothing_stated(
        tmp_path: Path, interim: bytes) -> None:
    # Issue 33, second review: a raw-socket capture keeps a 1xx response before the final
    # one; reading the 1xx head alone hid the final X-Robots-Tag (noai read as nothing
    # stated). The record is damage now: not known, never "nothing stated".
    final = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Robots-Tag: noai\r\n\r\n"
             b"<html><head><title>x</title></head><body>x</body></html>")
    path = tmp_path / "interim.warc"
    path.write_bytes(_raw_response("http://a.example/page", interim + final)
                     + _raw_response("http://a.example/plain", final))
    rows = page_table([str(path)], agents=["GPTBot"], purposes=["ai-train"]).to_pylist()
    by_url = {row["url"]: row for row in rows}
    interim_row, plain_row = by_url["http://a.example/page"], by_url["http://a.example/plain"]
    assert interim_row["damaged"] and interim_row["ai_train"] is None
    assert plain_row["damaged"] is None and plain_row["ai_train"] is False
