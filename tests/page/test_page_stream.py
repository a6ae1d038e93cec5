"""``bulk --pages-warc`` streams (issue 16): :func:`robotsrules.warc.page_batches` yields
small batches whatever the WARC's size, and the command writes them through the same safe
writer as the verdict job (bad ``--out`` fails first with one line, nothing left behind by a
failed run). Signals during a run are in ``tests/bulk/test_bulk_signals.py``."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("warcio")
pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402
from warcio.statusandheaders import StatusAndHeaders  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402

from robotsrules import parse  # noqa: E402
from robotsrules.bulk import RobotsIndex  # noqa: E402
from robotsrules.cli import main  # noqa: E402
from robotsrules.warc import WarcStats, _read_ahead, page_batches, page_table  # noqa: E402
from tests.page.test_page_warc import PAGES, write_warc  # noqa: E402

ROBOTS = b"User-agent: *\nContent-Signal: ai-train=no\nDisallow: /s3/\n"


def many_pages(path: Path, count: int, gzip: bool = True) -> None:
    """``count`` small HTML responses over 7 sites; every 5th says noindex in a meta tag,
    every 3rd in an X-Robots-Tag header."""
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=gzip)
        for i in range(count):
            headers = [("Content-Type", "text/html")]
            if i % 3 == 0:
                headers.append(("X-Robots-Tag", "nofollow"))
            meta = '<meta name="robots" content="noindex">' if i % 5 == 0 else ""
            body = f"<html><head><title>{i}</title>{meta}</head><body>x</body></html>"
            writer.write_record(writer.create_warc_record(
                f"https://site{i % 7}.example/s{i % 4}/page{i}", "response",
                payload=io.BytesIO(body.encode()),
                http_headers=StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1"),
                warc_headers_dict={"WARC-Date": "2024-03-01T00:00:00Z"}))


def test_page_batches_are_small_and_many_and_add_up_to_the_table(tmp_path: Path) -> None:
    path = tmp_path / "many.warc.gz"
    many_pages(path, 300)
    agents = ["GPTBot", "CCBot", "ExampleBot"]
    robots = {f"https://site{k}.example": parse(ROBOTS) for k in range(7)}
    sizes: list[int] = []
    rows: list[Any] = []
    for batch in page_batches([str(path)], agents=agents, purposes=["ai-train"],
                              robots=robots, batch_rows=32):
        sizes.append(batch.num_rows)
        rows += batch.to_pylist()
    assert max(sizes) <= 32 and len(sizes) >= 900 // 32  # bounded, not one table
    assert all(size % len(agents) == 0 for size in sizes)  # a page's rows stay together
    assert len(rows) == 900
    whole = page_table([str(path)], agents=agents, purposes=["ai-train"], robots=robots)
    assert whole.to_pylist() == rows
    noindex = [r for r in rows if r["index"] is False]
    assert len(noindex) == 3 * 60 and all(r["url"].endswith(("0", "5")) for r in noindex)
    allowed = [r for r in rows if "/s3/" not in r["url"]]
    assert {r["ai_train"] for r in allowed} == {False}  # the site's Content-Signal
    assert {r["crawl_allowed"] for r in rows if "/s3/" in r["url"]} == {False}


def test_a_robots_index_answers_like_a_dict_of_parsed_files(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc.gz"
    write_warc(path)
    body = PAGES[0][3]
    index = RobotsIndex.from_arrow(pa.table({"url": ["https://a.example/robots.txt"],
                                             "body": [body]}))
    args: Any = {"agents": ["GPTBot", "ExampleBot"], "purposes": ["ai-train", "search"]}
    by_index = page_table([str(path)], robots=index, **args)
    by_dict = page_table([str(path)], robots={"https://a.example": parse(body)}, **args)
    assert by_index.to_pylist() == by_dict.to_pylist()
    assert by_index.column("crawl_allowed").null_count == 2  # b.example has no robots row


def test_a_stop_check_runs_before_every_record_is_read(tmp_path: Path) -> None:
    # Records are read ahead in runs (up to 64); the check runs before each read, so a
    # stop reads nothing more (and the pages of the run are not scanned).
    path = tmp_path / "many.warc"
    many_pages(path, 50, gzip=False)
    calls: list[int] = []

    class Stop(Exception):
        pass

    def check() -> None:
        calls.append(1)
        if len(calls) == 7:
            raise Stop

    stats = WarcStats()
    with pytest.raises(Stop):
        for _ in page_batches([str(path)], agents=["a"], check=check, batch_rows=4,
                              stats=stats):
            pass
    assert stats.records == 6


def _pulled(heads: list[int], log: list[str], fail_after: int = -1) -> Iterator[Any]:
    """Pages with heads of the given sizes (None for a negative size), each logged as it is
    read; an error after ``fail_after`` of them."""
    for number, size in enumerate(heads):
        if number == fail_after:
            raise ValueError("a broken record")
        log.append(f"read {number}")
        yield SimpleNamespace(number=number, head=None if size < 0 else b"x" * size)


def _reads_before_each(heads: list[int], **bounds: Any) -> list[int]:
    """For each page handed on, how many pages had been read by then."""
    log: list[str] = []
    seen = []
    for page in _read_ahead(_pulled(heads, log), **bounds):
        seen.append(page.number)
        log.append(f"hand {page.number}")
    assert seen == list(range(len(heads)))  # every page, once, in order
    reads = 0
    out = []
    for entry in log:
        if entry.startswith("read"):
            reads += 1
        else:
            out.append(reads)
    return out


@pytest.mark.parametrize("count", [0, 1, 63, 64, 65, 130])
def test_read_ahead_hands_on_every_page_in_order_in_runs_of_64(count: int) -> None:
    before = _reads_before_each([10] * count)
    assert before == [min(count, (n // 64 + 1) * 64) for n in range(count)]


def test_read_ahead_reads_until_the_heads_hold_4_mib() -> None:
    mib = 1 << 20
    assert _reads_before_each([mib] * 9) == [4] * 4 + [8] * 4 + [9]
    assert _reads_before_each([5 * mib, 1, 1]) == [1, 3, 3]  # one larger head alone
    # The page that crosses 4 MiB is the run's last: under 4 MiB before it, plus its head.
    assert _reads_before_each([3 * mib, 3 * mib, 1]) == [2, 2, 3]
    assert _reads_before_each([mib - 1] * 4 + [mib, 1]) == [5] * 5 + [6]
    assert _reads_before_each([-1] * 70) == [64] * 64 + [70] * 6  # no head: no octets
    assert _reads_before_each([5] * 5, most=2, octets=12) == [2, 2, 4, 4, 5]


def test_read_ahead_hands_on_the_pages_read_before_an_error() -> None:
    log: list[str] = []
    got = []
    with pytest.raises(ValueError, match="a broken record"):
        for page in _read_ahead(_pulled([1] * 10, log, fail_after=3)):
            got.append(page.number)
    assert got == [0, 1, 2]


def test_read_ahead_raises_a_stop_at_once() -> None:
    class Stop(Exception):
        pass

    log: list[str] = []
    calls: list[int] = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop):
        for page in _read_ahead(_pulled([1] * 10, log), check=check):
            log.append(f"hand {page.number}")
    assert log == ["read 0", "read 1"]  # nothing handed on, nothing more read


def test_the_warc_page_path_reads_records_ahead(tmp_path: Path) -> None:
    path = tmp_path / "many.warc.gz"
    many_pages(path, 80)
    stats = WarcStats()
    read_at: list[int] = []

    def observe(*_: Any) -> None:
        read_at.append(stats.records)

    rows = sum(batch.num_rows for batch in page_batches(
        [str(path)], agents=["a"], stats=stats, observe=observe))
    assert rows == 80
    assert read_at[0] == 64 and read_at[63] == 64 and read_at[64] == 80


def _bulk(warc: Path, out: str, *extra: str) -> int:
    return main(["bulk", "--pages-warc", str(warc), "--agent", "GPTBot", "--out", out,
                 *extra])


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if "partial" in name)


@pytest.mark.parametrize("kind", ["directory", "missing parent", "unwritable"])
def test_a_bad_out_fails_first_with_one_line(tmp_path: Path, capsys: Any, kind: str) -> None:
    warc = tmp_path / "pages.warc.gz"
    write_warc(warc)
    if kind == "directory":
        out, message = str(tmp_path / "results"), "is a directory"
        os.mkdir(out)
    elif kind == "missing parent":
        out, message = str(tmp_path / "nowhere" / "v.parquet"), "no such directory"
    else:  # a directory nobody can create files in, root included
        out, message = "/proc/self/pages.parquet", "cannot write there"
    before = sorted(os.listdir(tmp_path))
    assert _bulk(warc, out, "--format", "parquet") == 2
    err = capsys.readouterr().err
    assert err.startswith("robotsrules: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == before


def test_a_failed_run_leaves_no_temporary_file(tmp_path: Path, capsys: Any) -> None:
    warc = tmp_path / "pages.warc.gz"
    write_warc(warc)
    (tmp_path / "robots.parquet").write_bytes(b"PAR1 this is not parquet")
    out = tmp_path / "v.parquet"
    assert _bulk(warc, str(out), "--robots", str(tmp_path / "robots.parquet")) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert not out.exists() and _leftovers(tmp_path) == []


@pytest.mark.parametrize("flag", [["--urls", "u.txt"], ["--any-agent"], ["--as-of", "date"]])
def test_verdict_options_are_refused(tmp_path: Path, capsys: Any, flag: list[str]) -> None:
    warc = tmp_path / "pages.warc.gz"
    write_warc(warc)
    assert _bulk(warc, str(tmp_path / "v.csv"), *flag) == 2
    err = capsys.readouterr().err
    assert f"cannot be combined with {flag[0]}" in err and err.count("\n") == 1
    assert os.listdir(tmp_path) == ["pages.warc.gz"]


def test_the_output_follows_the_umask_and_counts_noindex(tmp_path: Path, capsys: Any) -> None:
    warc = tmp_path / "many.warc.gz"
    many_pages(warc, 40)
    out = tmp_path / "v.parquet"
    old = os.umask(0o027)
    try:
        assert _bulk(warc, str(out), "--purpose", "ai-train", "--purpose", "ai-train") == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o640
    assert "40 page rows (8 noindex)" in capsys.readouterr().out
    table = pq.read_table(out)
    assert table.num_rows == 40 and table.column_names[-1] == "ai_train"
    assert table.column_names.count("ai_train") == 1
    assert _leftovers(tmp_path) == []


def test_a_damaged_warc_warns_once_per_problem_and_keeps_its_pages(tmp_path: Path,
                                                                  capsys: Any) -> None:
    warc = tmp_path / "pages.warc.gz"
    write_warc(warc)  # ends with octets that are not a record
    out = tmp_path / "v.csv"
    assert _bulk(warc, str(out)) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    warnings = [line for line in captured.err.splitlines()
                if line.startswith("robotsrules: warning: ")]
    assert len(warnings) == 1 and "unreadable after 10 records" in warnings[0], captured.err
    assert "4 page rows" in captured.out and _leftovers(tmp_path) == []
