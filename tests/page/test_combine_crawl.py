"""Issue 33's decision: for an agent that robots.txt does not allow to fetch a URL, the
combined usage answer is "not allowed", whatever the page says (a page's ``train-ai=y`` or
``Content-Signal: ai-train=yes`` does not override the site's ``Disallow`` for that crawler),
through every entry point: ``robotsrules.combine`` and ``admit_page``, ``robotsrules page
URL --robots``, the page rows of ``bulk --pages-warc`` (``crawl_allowed=false`` is never
beside ``ai_train=true``; DuckDB and, behind ``--run-slow``, Spark) and the datatrove filter.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from robotsrules import combine, page_signals, parse
from robotsrules._page import admit_page
from tests.network.servers import Exchange, RawHTTPServer, head

ROBOTS = (b"User-agent: *\nContent-Signal: search=yes, ai-train=yes\nAllow: /\n\n"
          b"User-agent: GPTBot\nContent-Signal: search=yes, ai-train=yes\nDisallow: /private\n")
# The page says yes to everything, in both vocabularies, in a header and a meta.
PAGE_HEADERS = [("Content-Type", "text/html"), ("Content-Usage", "train-ai=y, search=y"),
                ("Content-Signal", "ai-train=yes, search=yes, ai-input=yes")]
PAGE = b'<html><head><meta name="tdm-reservation" content="0"></head><body>x</body></html>'
PURPOSES = ["ai-train", "search", "ai-input", "train-ai"]
PRIVATE = "https://site.example/private/page"
OPEN = "https://site.example/open/page"


def _answers(url: str, agent: str) -> list[Any]:
    robots = parse(ROBOTS)
    both = combine(robots.usage(url, agent=agent),
                   page_signals(PAGE_HEADERS, PAGE, agent=agent, url=url))
    return [both.allows(p) for p in PURPOSES]


def test_a_disallowed_agent_is_refused_every_purpose() -> None:
    assert _answers(PRIVATE, "GPTBot") == [False] * len(PURPOSES)
    assert _answers(PRIVATE, "CCBot") == [True] * len(PURPOSES)  # CCBot may fetch it
    assert _answers(OPEN, "GPTBot") == [True] * len(PURPOSES)
    robots = parse(ROBOTS)
    answer = combine(robots.usage(PRIVATE, agent="GPTBot"),
                     page_signals(PAGE_HEADERS, PAGE, agent="GPTBot")).decide("ai-train")
    assert (answer.allowed, answer.level) == (False, "robots.txt")
    assert answer.describe() == "refused by robots.txt: the agent may not fetch this URL"
    admission = admit_page(PAGE_HEADERS, PAGE, agents=["GPTBot", "CCBot"],
                           purposes=["ai-train"], url=PRIVATE,
                           usage=lambda agent: robots.usage(PRIVATE, agent=agent))
    assert admission.refused is not None and admission.refused.agent == "GPTBot"
    assert [a.answer.allowed for a in admission.answers] == [False, True]


def _serve(exchange: Exchange) -> None:
    exchange.send(head(200, [*PAGE_HEADERS, ("Content-Length", str(len(PAGE)))]) + PAGE)


def _robots(exchange: Exchange) -> None:
    exchange.send(head(200, [("Content-Type", "text/plain"),
                             ("Content-Length", str(len(ROBOTS)))]) + ROBOTS)


def test_page_url_with_the_sites_robots_txt() -> None:
    from robotsrules.cli import main

    with RawHTTPServer({"/robots.txt": _robots, "/private/page": _serve}) as server:
        out = io.StringIO()
        assert main(["page", server.url("/private/page"), "--agent", "GPTBot", "--robots",
                     server.url("/"), "--purpose", "ai-train"], out=out) == 0
        text = out.getvalue()
        out = io.StringIO()
        assert main(["page", server.url("/private/page"), "--agent", "GPTBot", "--agent",
                     "CCBot", "--robots", server.url("/"), "--purpose", "ai-train",
                     "--json"], out=out) == 0
        data = json.loads(out.getvalue())
    assert "with the site's robots.txt (crawl disallowed):" in text
    assert "ai-train: refused by robots.txt: the agent may not fetch this URL" in text
    gpt, cc = data
    assert (gpt["crawl_allowed"], gpt["combined"]["ai-train"]["allowed"]) == (False, False)
    assert gpt["combined"]["ai-train"]["level"] == "robots.txt"
    assert (cc["crawl_allowed"], cc["combined"]["ai-train"]["allowed"]) == (True, True)


def _warc(path: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        records = [("https://site.example/robots.txt", [("Content-Type", "text/plain")], ROBOTS),
                   (PRIVATE, PAGE_HEADERS, PAGE), (OPEN, PAGE_HEADERS, PAGE)]
        for url, headers, body in records:
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=http,
                warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


def _check_rows(rows: list[Any]) -> None:
    got = {(r["url"], r["agent"]): (r["crawl_allowed"], r["ai_train"], r["search"])
           for r in rows}
    assert got == {(PRIVATE, "GPTBot"): (False, False, False),
                   (PRIVATE, "CCBot"): (True, True, True),
                   (OPEN, "GPTBot"): (True, True, True), (OPEN, "CCBot"): (True, True, True)}
    assert not any(r["crawl_allowed"] is False and r["ai_train"] for r in rows)


def test_bulk_page_rows_never_allow_a_disallowed_fetch(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from robotsrules.cli import main
    from robotsrules.warc import page_table

    path = tmp_path / "site.warc.gz"
    _warc(path)
    table = page_table([str(path)], agents=["GPTBot", "CCBot"], purposes=["ai-train", "search"],
                       robots={"https://site.example": parse(ROBOTS)})
    _check_rows(table.to_pylist())
    out = tmp_path / "rows.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--robots-warc", str(path), "--agent",
                 "GPTBot", "--agent", "CCBot", "--purpose", "ai-train", "--purpose", "search",
                 "--engine", "duckdb", "--out", str(out)], out=io.StringIO()) == 0
    _check_rows(pq.read_table(out).to_pylist())


@pytest.mark.slow  # a Spark session of its own
@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java 17+")
def test_spark_page_rows_never_allow_a_disallowed_fetch(tmp_path: Path) -> None:
    pytest.importorskip("pyspark")
    pq = pytest.importorskip("pyarrow.parquet")
    from robotsrules.cli import main

    path = tmp_path / "site.warc.gz"
    _warc(path)
    out = tmp_path / "rows.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--robots-warc", str(path), "--agent",
                 "GPTBot", "--agent", "CCBot", "--purpose", "ai-train", "--purpose", "search",
                 "--engine", "spark", "--out", str(out)], out=io.StringIO()) == 0
    _check_rows(pq.read_table(out).to_pylist())


def test_the_datatrove_filter_refuses_a_disallowed_fetch(tmp_path: Path) -> None:
    pytest.importorskip("datatrove")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from robotsrules.datatrove import PageSignalsFilter, RobotsFilter

    pq.write_table(pa.table({"url": ["https://site.example/robots.txt"], "body": [ROBOTS]}),
                   tmp_path / "robots.parquet")
    site = RobotsFilter(str(tmp_path / "robots.parquet"), ["GPTBot"], action="mark")
    step = PageSignalsFilter(["GPTBot"], purposes=["ai-train"], robots=site, action="mark")
    found = step.decide(PRIVATE, PAGE.decode(), PAGE_HEADERS)
    assert (found["refused"], found["level"]) == (True, "robots.txt")
    assert found["decided_by"] == "refused by robots.txt: the agent may not fetch this URL"
    assert step.decide(OPEN, PAGE.decode(), PAGE_HEADERS)["refused"] is False
