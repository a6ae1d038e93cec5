"""robotsrules.warc: robots.txt captures from WARC files written here with warcio's writer."""

from __future__ import annotations

import io
import os
from typing import Any, Optional

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotsrules import warc
from robotsrules.cli import main

# (url, status, date, body, extra headers)
CAPTURES: list[tuple[str, int, str, bytes, list[tuple[str, str]]]] = [
    ("https://ok.example/robots.txt", 200, "2024-03-01T10:00:00Z",
     b"User-agent: GPTBot\nDisallow: /\n", []),
    ("https://gone.example/robots.txt", 404, "2024-03-01T10:00:01Z", b"<h1>Not found</h1>", []),
    ("https://down.example/robots.txt", 503, "2024-03-01T10:00:02Z", b"busy", []),
    # Two captures of one site: the newer (written first) must win.
    ("https://twice.example/robots.txt", 200, "2024-06-01T00:00:00.123456789Z",
     b"User-agent: *\nDisallow: /new\n", []),
    ("https://twice.example/robots.txt", 200, "2023-01-01T00:00:00Z",
     b"User-agent: *\nDisallow: /old\n", []),
    # A redirect whose target was captured too: the target's answer stands for the origin.
    ("http://moved.example/robots.txt", 301, "2024-03-01T10:00:03Z", b"",
     [("Location", "https://moved.example/robots.txt")]),
    ("https://moved.example/robots.txt", 200, "2024-03-01T10:00:04Z",
     b"User-agent: *\nDisallow: /moved\n", []),
    # Not a robots.txt: skipped.
    ("https://ok.example/page.html", 200, "2024-03-01T10:00:05Z", b"<html></html>", []),
]


def write_warc(path: str, gzip: bool, garbage: Optional[bytes] = None) -> None:
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=gzip)
        for url, status, date, body, extra in CAPTURES:
            reason = {200: "OK", 301: "Moved Permanently", 404: "Not Found",
                      503: "Service Unavailable"}[status]
            headers = StatusAndHeaders(f"{status} {reason}",
                                       [("Content-Type", "text/plain"), *extra],
                                       protocol="HTTP/1.1")
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                               http_headers=headers,
                                               warc_headers_dict={"WARC-Date": date})
            writer.write_record(record)
            if status == 200:  # a request record too, as crawlers write them
                writer.write_record(writer.create_warc_record(
                    url, "request", payload=io.BytesIO(b"GET /robots.txt HTTP/1.1\r\n\r\n")))
        if garbage is not None:
            handle.write(garbage)


@pytest.mark.parametrize("gzip", [True, False])
def test_statuses_dates_and_newest_capture(tmp_path: Any, gzip: bool) -> None:
    path = str(tmp_path / ("crawl.warc.gz" if gzip else "crawl.warc"))
    write_warc(path, gzip)
    stats = warc.WarcStats()
    table = warc.read_warcs([path], stats=stats)
    rows = {r["origin"]: r for r in table.to_pylist()}
    assert set(rows) == {"https://ok.example", "https://gone.example", "https://down.example",
                         "https://twice.example", "http://moved.example",
                         "https://moved.example"}
    assert rows["https://ok.example"]["status"] == 200
    assert rows["https://ok.example"]["body"] == b"User-agent: GPTBot\nDisallow: /\n"
    assert rows["https://gone.example"]["status"] == 404
    assert rows["https://down.example"]["status"] == 503
    twice = rows["https://twice.example"]
    assert twice["body"] == b"User-agent: *\nDisallow: /new\n"
    assert twice["date"].isoformat() == "2024-06-01T00:00:00.123456+00:00"
    moved = rows["http://moved.example"]
    assert (moved["status"], moved["final_url"]) == (200, "https://moved.example/robots.txt")
    assert moved["body"] == b"User-agent: *\nDisallow: /moved\n"
    assert stats.captures == 7 and stats.redirects_followed == 1 and not stats.errors
    assert stats.skipped >= 5  # request records, the HTML page, warcinfo-less extras


def test_captures_keep_file_order_and_cap_bodies(tmp_path: Any) -> None:
    path = str(tmp_path / "crawl.warc.gz")
    write_warc(path, True)
    captures = list(warc.iter_captures(path, max_bytes=10))
    assert [c.status for c in captures] == [200, 404, 503, 200, 200, 301, 200]
    assert all(len(c.body) <= 10 for c in captures)
    assert captures[0].truncated and not captures[5].truncated
    assert captures[5].location == "https://moved.example/robots.txt"


@pytest.mark.parametrize("garbage", [b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99",
                                     b"\x1f\x8b\x08\x00garbled gzip member",
                                     b"complete nonsense\r\n\r\n"])
def test_damaged_files_are_read_leniently(tmp_path: Any, garbage: bytes) -> None:
    path = str(tmp_path / "damaged.warc.gz")
    write_warc(path, True, garbage)
    stats = warc.WarcStats()
    table = warc.read_warcs([path, str(tmp_path / "missing.warc")], stats=stats)
    assert table.num_rows == 6  # everything before the damage
    assert len(stats.errors) == 2
    assert any("missing.warc" in e for e in stats.errors)


def test_truncated_gzip_keeps_what_came_before(tmp_path: Any) -> None:
    path = str(tmp_path / "crawl.warc.gz")
    write_warc(path, True)
    with open(path, "rb") as handle:
        data = handle.read()
    with open(path, "wb") as handle:
        handle.write(data[: len(data) * 2 // 3])
    stats = warc.WarcStats()
    table = warc.read_warcs([path], stats=stats)
    # warcio ends a file cut inside a gzip member quietly (no error to report): the complete
    # captures before the cut are kept, the cut one is dropped, nothing raises.
    assert 1 <= table.num_rows < 6
    assert all(r["body"].startswith(b"User-agent") or r["status"] != 200
               for r in table.to_pylist())


def test_cli_bulk_from_warc(tmp_path: Any, capsys: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("duckdb")
    import pyarrow.parquet as pq

    path = str(tmp_path / "crawl.warc.gz")
    write_warc(path, True)
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(["https://ok.example/a", "https://gone.example/a",
                               "https://down.example/a", "https://twice.example/new",
                               "https://twice.example/old", "http://moved.example/moved",
                               "https://unknown.example/"]) + "\n")
    out = str(tmp_path / "v.parquet")
    code = main(["bulk", "--robots-warc", path, "--urls", str(urls), "--agent", "GPTBot",
                 "--out", out])
    assert code == 0, capsys.readouterr().err
    got = {r["url"]: (r["allowed"], r["reason"]) for r in pq.read_table(out).to_pylist()}
    assert got == {
        "https://ok.example/a": (False, "longest-match"),
        "https://gone.example/a": (True, "allow-all"),
        "https://down.example/a": (False, "disallow-all"),
        "https://twice.example/new": (False, "longest-match"),
        "https://twice.example/old": (True, "no-match"),
        "http://moved.example/moved": (False, "longest-match"),
        "https://unknown.example/": (None, "no-robots"),
    }
    assert "6 sites" in capsys.readouterr().err
    assert isinstance(pa.__version__, str)
    assert os.path.exists(out)


def test_cli_stance_table_from_warc(tmp_path: Any, capsys: Any) -> None:
    """``stance --robots-warc`` (issue 17): the newest capture per site, statuses through
    the fetch policy, one row per site and agent."""
    pytest.importorskip("pyarrow")
    pytest.importorskip("duckdb")
    import pyarrow.parquet as pq

    path = str(tmp_path / "crawl.warc.gz")
    write_warc(path, True)
    out = str(tmp_path / "s.parquet")
    code = main(["stance", "--robots-warc", path, "--agent", "GPTBot", "--out", out])
    assert code == 0, capsys.readouterr().err
    got = {r["site"]: (r["kind"], r["reason"], r["lines"], r["disallowed"])
           for r in pq.read_table(out).to_pylist()}
    assert got == {
        "https://ok.example": ("all", "rules", [2], ["/"]),
        "https://gone.example": ("none", "allow-all", [], []),
        "https://down.example": ("all", "disallow-all", [], ["/"]),
        "https://twice.example": ("some", "rules", [2], ["/new"]),
        "http://moved.example": ("some", "rules", [2], ["/moved"]),
        "https://moved.example": ("some", "rules", [2], ["/moved"]),
    }
    assert "6 stances (2 all, 3 some, 1 none, 0 unknown)" in capsys.readouterr().out
