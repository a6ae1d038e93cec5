"""The hostile WARC set (``tests/hostile/warcs.py``) through every WARC entry point (issue 24).

``bulk --robots-warc`` and ``bulk --pages-warc`` on the DuckDB engine (in process) and on
Spark (``local[2]``, skipped without Java), :mod:`robotsrules.warc` itself, and datatrove
(``RobotsFilter(robots_warc=...)``, ``WarcHeadersReader``): each gives the answers
:data:`warcs.ROBOTS` and :data:`warcs.PAGES`, so a damaged record is never a clean row, br
is decoded, a page without ``Content-Type`` is sniffed, upper-case schemes keep their
headers, and thousands of bad records leave a bounded list of notes.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path
from typing import Optional

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")
pytest.importorskip("brotli")

import pyarrow.parquet as pq

from robotsrules import warc
from robotsrules.cli import main
from tests.hostile import warcs

AGENT = "GPTBot"


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("hostile-warcs")
    return warcs.write(str(folder))


def _urls(tmp_path: Path) -> str:
    path = tmp_path / "urls.txt"
    path.write_text("".join(url + "\n" for url, _, _ in warcs.ROBOTS), encoding="utf-8")
    return str(path)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    err = capsys.readouterr().err
    assert code == 0, err
    return err


def _robots_rows(path: str) -> list[tuple[str, Optional[bool], str]]:
    rows = pq.read_table(path).to_pylist()
    return sorted((r["url"], r["allowed"], r["reason"]) for r in rows)


def _page_rows(path: str) -> dict[str, tuple[Optional[bool], Optional[bool], bool]]:
    return {r["url"]: (r["noai"], r["index"], r["damaged"] is not None)
            for r in pq.read_table(path).to_pylist()}


def test_bulk_robots_warc_duckdb(paths: list[str], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "v.parquet")
    err = _run(["bulk", "--robots-warc", *paths, "--urls", _urls(tmp_path), "--agent", AGENT,
                "--out", out], capsys)
    assert _robots_rows(out) == sorted(warcs.ROBOTS)
    assert "damaged" in err and "WARNING" not in err  # our notes only, not warcio's prints
    assert len(err.splitlines()) <= 12


def test_bulk_pages_warc_duckdb(paths: list[str], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "p.parquet")
    err = _run(["bulk", "--pages-warc", *paths, "--agent", AGENT, "--purpose", "ai-train",
                "--out", out], capsys)
    rows = _page_rows(out)
    assert rows == warcs.PAGES
    damaged = [r for r in pq.read_table(out).to_pylist() if r["damaged"]]
    assert all(r["ai_train"] is None and r["follow"] is None for r in damaged)
    assert "more problems" in err and len(err.splitlines()) <= 12  # ten notes, then a count


def test_the_python_readers(paths: list[str]) -> None:
    stats = warc.WarcStats()
    table = warc.read_warcs(paths, stats=stats)
    by_site = {r["origin"]: r for r in table.to_pylist()}
    assert by_site["https://br.example"]["body"] == warcs.DISALLOW_ALL
    assert by_site["http://upper.example"]["body"] == b"User-agent: *\nDisallow: /private\n"
    for site in ("cut", "nohead", "hugehead", "cutfile"):
        assert by_site[f"https://{site}.example"]["status"] == warc.DAMAGED_STATUS, site
    assert "https://lost.example" not in by_site
    pages = warc.WarcStats()
    found = {p.url: p for path in paths for p in warc.iter_pages(path, stats=pages)}
    assert {url for url, p in found.items() if p.damaged} == {
        url for url, (_, _, damaged) in warcs.PAGES.items() if damaged}
    # Thousands of bad records: every one counted, a bounded list of notes kept.
    assert pages.problems >= warcs.BAD_RECORDS and len(pages.errors) == warc.MAX_NOTES
    assert pages.damaged >= warcs.BAD_RECORDS


def test_datatrove(paths: list[str], tmp_path: Path) -> None:
    pytest.importorskip("datatrove")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter

    from robotsrules.datatrove import RobotsFilter, WarcHeadersReader

    step = RobotsFilter(robots_warc=paths, agents=[AGENT])
    got = sorted((url, *(lambda v: (v["disallowed"], v["reason"]))(step.verdict(url)))
                 for url, _, _ in warcs.ROBOTS)
    want = sorted((url, None if allowed is None else not allowed,
                   "allowed" if allowed else reason) for url, allowed, reason in warcs.ROBOTS)
    assert got == want
    folder = tmp_path / "warcs"
    folder.mkdir()
    for path in paths:
        shutil.copy(path, folder / os.path.basename(path))
    out = tmp_path / "docs"
    with contextlib.redirect_stderr(io.StringIO()):
        LocalPipelineExecutor(pipeline=[WarcHeadersReader(str(folder)), JsonlWriter(str(out))],
                              tasks=1, workers=1, logging_dir=str(tmp_path / "logs")).run()
    import gzip
    import json

    docs = {}
    for path in out.glob("*.jsonl.gz"):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                docs[doc["metadata"]["url"]] = doc
    # Only whole HTML responses become documents; damaged ones are counted and skipped.
    assert sorted(docs) == sorted(url for url, (_, _, damaged) in warcs.PAGES.items()
                                  if not damaged)
    assert 'content="noai' in docs["https://br.example/page"]["text"]  # br decoded
    assert ["X-Robots-Tag", "noai"] in docs["HTTPS://UPPER.EXAMPLE/p"]["metadata"][
        "http_headers"]


@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java 17+ (not found)")
def test_spark_engine(paths: list[str], tmp_path: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspark")
    spark = ["--engine", "spark", "--spark-master", "local[2]"]
    out = str(tmp_path / "v.parquet")
    _run(["bulk", "--robots-warc", *paths, "--urls", _urls(tmp_path), "--agent", AGENT,
          "--out", out, *spark], capsys)
    assert _robots_rows(out) == sorted(warcs.ROBOTS)
    pages = str(tmp_path / "p.parquet")
    _run(["bulk", "--pages-warc", *paths, "--agent", AGENT, "--out", pages, *spark], capsys)
    assert _page_rows(pages) == warcs.PAGES


def test_any_reader_answers_the_set(paths: list[str]) -> None:
    """The set itself: each file is what its description says (so a later reader is judged
    on the same octets)."""
    data = {os.path.basename(p): Path(p).read_bytes() for p in paths}
    assert data["cut-file.warc"].endswith(b"HTTP/1.1 200")
    assert b"HTTP://UPPER.EXAMPLE/robots.txt" in data["plain.warc"]
    assert data["many-bad.warc"].count(b"WARC/1.0\r\n") == warcs.BAD_RECORDS
    assert b"garbage, not a gzip member" in data["bad-member.warc.gz"]
