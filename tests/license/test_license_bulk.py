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
    # issue 33's decision: every License line applies to every agent, wherever it stands
    both = "https://a.example/license.xml https://lic.example/gpt.xml"
    assert found[("https://a.example/about", "GPTBot")] == both
    assert found[("https://a.example/about", "CCBot")] == both
    assert found[("https://b.example/y", "CCBot")] == ""
    assert found[("https://c.example/z", "CCBot")] is None  # no robots row


def test_rsl_answers_per_purpose_from_a_licence_table(tables: Path) -> None:
    rows = _bulk(tables, "--licenses", str(tables / "licences.parquet"), "--purpose",
                 "ai-train", "--purpose", "search")
    found = {(r["url"], r["agent"]): (r["rsl_ai_train"], r["rsl_search"]) for r in rows}
    # both documents bind both agents: the articles' prohibition and the priced offer
    for agent in ("CCBot", "GPTBot"):
        assert found[("https://a.example/articles/1", agent)] == ("prohibited", "licensed")
        assert found[("https://a.example/about", agent)] == ("licensed", "licensed")
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
    assert found[("https://a.example/about", "CCBot")] == "unknown"


TRAPS = {
    # issue 33 §2: each read "permitted" for ai-train before
    "namespace": ('<r:rsl xmlns:r="https://rslstandard.org/rsl"><r:content url="/"><r:license>'
                  '<prohibits xmlns="" type="usage">ai-train</prohibits></r:license>'
                  '</r:content></r:rsl>'),
    "payments": ('<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
                 '<payment type="crawl"><amount currency="USD">1</amount></payment>'
                 '<payment type="free"/></license></content></rsl>'),
    "geo": ('<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
            '<prohibits type="geo">USA</prohibits></license></content></rsl>'),
}


@pytest.mark.parametrize("trap", sorted(TRAPS))
def test_a_document_the_reader_refuses_is_an_unknown_row(tables: Path, trap: str) -> None:
    pq.write_table(pa.table({"url": ["https://a.example/license.xml",
                                     "https://lic.example/gpt.xml"],
                             "body": [TRAPS[trap], TRAPS[trap]]}),
                   tables / "licences.parquet")
    rows = _bulk(tables, "--licenses", str(tables / "licences.parquet"), "--purpose",
                 "ai-train")
    found = {(r["url"], r["agent"]): r["rsl_ai_train"] for r in rows}
    assert found[("https://a.example/about", "GPTBot")] == "unknown"
    assert found[("https://a.example/about", "CCBot")] == "unknown"


def test_licence_columns_need_plain_verdicts(tables: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bulk", "--robots", str(tables / "robots.parquet"), "--urls",
                 str(tables / "urls.txt"), "--agent", "GPTBot", "--any-agent", "--out",
                 str(tables / "v.parquet"), "--license-url"], out=io.StringIO())
    assert code == 2 and "not available with" in capsys.readouterr().err
