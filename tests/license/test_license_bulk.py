"""``robotsrules bulk --license-url / --licenses``: RSL columns beside the verdicts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from robotsrules.cli import main  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
ROBOTS = {
    "https://a.example/robots.txt": (b"License: https://a.example/license.xml\n"
                                     b"User-agent: GPTBot\nDisallow: /private\n"
                                     b"License: https://lic.example/gpt.xml\n"
                                     b"User-agent: *\nDisallow:\n"),
    "https://b.example/robots.txt": b"User-agent: *\nDisallow: /x\n",
}


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    pq.write_table(pa.table({"url": list(ROBOTS), "body": list(ROBOTS.values())}),
                   tmp_path / "robots.parquet")
    pq.write_table(pa.table({
        "url": ["https://a.example/license.xml", "https://lic.example/gpt.xml"],
        "body": [(FIXTURES / "articles.xml").read_text(),
                 (FIXTURES / "pay-per-crawl.xml").read_text()]}), tmp_path / "licences.parquet")
    (tmp_path / "urls.txt").write_text("https://a.example/articles/1\nhttps://a.example/about\n"
                                       "https://b.example/y\nhttps://c.example/z\n")
    return tmp_path


def _bulk(tables: Path, *extra: str) -> list:
    out = tables / "v.parquet"
    code = main(["bulk", "--robots", str(tables / "robots.parquet"), "--urls",
                 str(tables / "urls.txt"), "--agent", "GPTBot", "--agent", "CCBot",
                 "--out", str(out), *extra], out=io.StringIO())
    assert code == 0
    return pq.read_table(out).to_pylist()


def test_license_url_column(tables: Path) -> None:
    rows = _bulk(tables, "--license-url")
    found = {(r["url"], r["agent"]): r["license_url"] for r in rows}
    assert found[("https://a.example/about", "GPTBot")] == "https://lic.example/gpt.xml"
    assert found[("https://a.example/about", "CCBot")] == "https://a.example/license.xml"
    assert found[("https://b.example/y", "CCBot")] == ""
    assert found[("https://c.example/z", "CCBot")] is None  # no robots row


def test_rsl_answers_per_purpose_from_a_licence_table(tables: Path) -> None:
    rows = _bulk(tables, "--licenses", str(tables / "licences.parquet"), "--purpose",
                 "ai-train", "--purpose", "search")
    found = {(r["url"], r["agent"]): (r["rsl_ai_train"], r["rsl_search"]) for r in rows}
    assert found[("https://a.example/articles/1", "CCBot")] == ("prohibited", "permitted")
    assert found[("https://a.example/about", "CCBot")] == ("permitted", "permitted")
    assert found[("https://a.example/about", "GPTBot")] == ("licensed", "licensed")
    assert found[("https://b.example/y", "GPTBot")] == ("unstated", "unstated")
    assert found[("https://c.example/z", "GPTBot")] == (None, None)
    assert rows[0].keys() >= {"allowed", "ai_train", "license_url"}


def test_a_licence_missing_from_the_table_is_unknown(tables: Path) -> None:
    pq.write_table(pa.table({"url": ["https://a.example/license.xml"],
                             "body": [(FIXTURES / "articles.xml").read_text()]}),
                   tables / "licences.parquet")
    rows = _bulk(tables, "--licenses", str(tables / "licences.parquet"), "--purpose",
                 "ai-train")
    found = {(r["url"], r["agent"]): r["rsl_ai_train"] for r in rows}
    assert found[("https://a.example/about", "GPTBot")] == "unknown"
    assert found[("https://a.example/about", "CCBot")] == "permitted"


def test_licence_columns_need_plain_verdicts(tables: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bulk", "--robots", str(tables / "robots.parquet"), "--urls",
                 str(tables / "urls.txt"), "--agent", "GPTBot", "--any-agent", "--out",
                 str(tables / "v.parquet"), "--license-url"], out=io.StringIO())
    assert code == 2 and "not available with" in capsys.readouterr().err
