"""Damaged WARC captures (issue 13, findings 15 and 16): a capture that did not arrive whole,
or whose HTTP status is impossible, is never read as a complete robots.txt.

A cut robots.txt usually *allows* what the whole file disallows (the rules after the cut are
lost), which is the worst mistake a robots.txt reader can make; so every cut point of small
plain and gzip'd WARC files is tried.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any, Optional

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotsrules import warc
from robotsrules.cli import main

BODIES = {f"https://h{i}.example/robots.txt":
          f"User-agent: *\nDisallow: /private{i}\nDisallow: /cart{i}\n".encode()
          for i in range(3)}


def _record(writer: Any, url: str, body: bytes, status_line: str = "200 OK",
            date: str = "2024-03-01T00:00:00Z", warc_headers: Optional[dict[str, str]] = None
            ) -> Any:
    headers = StatusAndHeaders(status_line, [("Content-Type", "text/plain")],
                               protocol="HTTP/1.1")
    return writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                     http_headers=headers,
                                     warc_headers_dict={"WARC-Date": date,
                                                        **(warc_headers or {})})


def _archive(gzip: bool) -> tuple[bytes, list[tuple[int, str]]]:
    """Three robots.txt responses, each followed by its request; (data, [(start, url)])."""
    handle = io.BytesIO()
    writer = WARCWriter(handle, gzip=gzip)
    starts = []
    for url, body in BODIES.items():
        starts.append((handle.tell(), url))
        writer.write_record(_record(writer, url, body))
        writer.write_record(writer.create_warc_record(
            url, "request", payload=io.BytesIO(b"GET /robots.txt HTTP/1.1\r\n\r\n")))
    return handle.getvalue(), starts


def _read(data: bytes) -> tuple[list[dict[str, Any]], warc.WarcStats]:
    stats = warc.WarcStats()
    with contextlib.redirect_stderr(io.StringIO()):  # warcio prints its own notes
        table = warc.read_warcs([io.BytesIO(data)], stats=stats)
    return table.to_pylist(), stats


@pytest.mark.parametrize("gzip", [False, True], ids=["plain", "gzip"])
def test_every_cut_point_is_whole_or_damaged_never_a_shorter_file(gzip: bool) -> None:
    data, starts = _archive(gzip)
    # Every 5th octet, and every octet near the record boundaries and the end.
    cuts = set(range(0, len(data) + 1, 5)) | {len(data) - d for d in range(12)}
    cuts |= {start + d for start, _ in starts for d in range(-8, 9) if start + d >= 0}
    for cut in sorted(cuts):
        rows, stats = _read(data[:cut])
        by_url = {row["url"]: row for row in rows}
        for row in rows:
            if row["damaged"] is None:
                assert row["status"] == 200, (cut, row)
                assert row["body"] == BODIES[row["url"]], (cut, row)  # never a cut body
            else:
                assert (row["status"], row["body"]) == (warc.DAMAGED_STATUS, b""), (cut, row)
        if not stats.errors:  # silent only when every capture begun before the cut is whole
            for start, url in starts:
                if start < cut:
                    assert url in by_url and by_url[url]["damaged"] is None, (cut, url)
    rows, stats = _read(data)
    assert not stats.errors and len(rows) == 3


def test_a_cut_plain_warc_no_longer_allows_what_the_file_disallows(tmp_path: Any,
                                                                   capsys: Any) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("duckdb")
    data, _ = _archive(False)
    # Cut the last record inside its body: "User-agent: *\nDisallow: /pri" is what remains.
    body = BODIES["https://h2.example/robots.txt"]
    cut = data.rindex(body) + body.index(b"/private2") + 4
    path = tmp_path / "cut.warc"
    path.write_bytes(data[:cut])
    urls = tmp_path / "urls.txt"
    urls.write_text("https://h2.example/cart2\nhttps://h0.example/cart0\n")
    out = tmp_path / "v.parquet"
    code = main(["bulk", "--robots-warc", str(path), "--urls", str(urls), "--agent", "GPTBot",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Traceback" not in err
    assert "damaged: record cut short" in err and "h2.example" in err
    got = {r["url"]: (r["allowed"], r["reason"]) for r in pq.read_table(out).to_pylist()}
    assert got == {"https://h2.example/cart2": (False, "disallow-all"),
                   "https://h0.example/cart0": (False, "longest-match")}


def test_a_cut_gzip_warc_says_so(tmp_path: Any) -> None:
    data, starts = _archive(True)
    last = starts[-1][0]
    rows, stats = _read(data[:last + 5])  # inside the gzip header of the last member
    assert {r["url"] for r in rows} == set(list(BODIES)[:2])
    assert any("ends inside a gzip member" in e for e in stats.errors)
    rows, stats = _read(data[:-3])  # the last member's trailer is gone; its record is whole
    assert len(rows) == 3 and all(r["damaged"] is None for r in rows)
    assert any("ends inside a gzip member" in e for e in stats.errors)


def _single(status_line: str, *, gzip: bool = False, older: bool = False,
            warc_headers: Optional[dict[str, str]] = None,
            body: bytes = b"User-agent: *\nDisallow: /x\n") -> bytes:
    handle = io.BytesIO()
    writer = WARCWriter(handle, gzip=gzip)
    url = "https://s.example/robots.txt"
    if older:
        writer.write_record(_record(writer, url, b"User-agent: *\nDisallow: /old\n",
                                    date="2020-01-01T00:00:00Z"))
    writer.write_record(_record(writer, url, body, status_line, warc_headers=warc_headers))
    return handle.getvalue()


@pytest.mark.parametrize("status_line", ["9999999999 OK", "20 OK", "2000 OK", "-200 OK",
                                         "abc OK", "099 Odd", "2OO OK", "+20 OK"])
def test_an_impossible_status_is_a_damaged_capture(status_line: str) -> None:
    rows, stats = _read(_single(status_line))  # no ArrowInvalid, no exception at all
    assert len(rows) == 1
    assert rows[0]["status"] == warc.DAMAGED_STATUS and rows[0]["body"] == b""
    assert "impossible HTTP status" in rows[0]["damaged"]
    assert stats.damaged == 1 and any("impossible HTTP status" in e for e in stats.errors)
    # An older intact capture of the site stays the answer (a failed refresh keeps it).
    rows, _ = _read(_single(status_line, older=True))
    assert rows[0]["status"] == 200 and rows[0]["damaged"] is None
    assert rows[0]["body"] == b"User-agent: *\nDisallow: /old\n"


def test_real_statuses_are_not_damage() -> None:
    for line in ("200 OK", "404 Not Found", "503 Busy", "999 Odd", "100 Continue"):
        rows, stats = _read(_single(line))
        assert rows[0]["damaged"] is None and rows[0]["status"] == int(line[:3]), line
        assert not stats.errors


def test_impossible_status_through_the_cli(tmp_path: Any, capsys: Any) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("duckdb")
    path = tmp_path / "odd.warc.gz"
    path.write_bytes(_single("9999999999 OK", gzip=True))
    urls = tmp_path / "urls.txt"
    urls.write_text("https://s.example/x\nhttps://s.example/y\n")
    out = tmp_path / "v.parquet"
    code = main(["bulk", "--robots-warc", str(path), "--urls", str(urls), "--agent", "GPTBot",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Traceback" not in err and "ArrowInvalid" not in err
    assert "robotsrules: warning:" in err and "impossible HTTP status" in err
    assert {r["allowed"] for r in pq.read_table(out).to_pylist()} == {False}


def test_crawler_truncation_short_of_max_bytes_is_damage() -> None:
    rows, stats = _read(_single("200 OK", warc_headers={"WARC-Truncated": "disconnect"}))
    assert rows[0]["status"] == warc.DAMAGED_STATUS
    assert "WARC-Truncated" in rows[0]["damaged"]
    # Cut by the crawler beyond what a parser reads: the part read is whole.
    big = b"User-agent: *\nDisallow: /x\n" + b"#" * 600_000
    rows, stats = _read(_single("200 OK", warc_headers={"WARC-Truncated": "length"},
                                body=big))
    assert rows[0]["damaged"] is None and rows[0]["truncated"] and not stats.errors


def test_a_damaged_redirect_target_is_unreachable_not_followed_to_its_cut_body() -> None:
    handle = io.BytesIO()
    writer = WARCWriter(handle, gzip=False)
    headers = StatusAndHeaders("301 Moved", [("Location", "https://new.example/robots.txt")],
                               protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(
        "https://old.example/robots.txt", "response", payload=io.BytesIO(b""),
        http_headers=headers, warc_headers_dict={"WARC-Date": "2024-03-01T00:00:00Z"}))
    writer.write_record(_record(writer, "https://new.example/robots.txt",
                                b"User-agent: *\nDisallow: /\n"))
    data = handle.getvalue()
    rows, _ = _read(data[:-10])  # the target's record loses its last octets
    old = next(r for r in rows if r["origin"] == "https://old.example")
    assert old["status"] == warc.DAMAGED_STATUS and old["damaged"]
    assert old["final_url"] == "https://new.example/robots.txt"
