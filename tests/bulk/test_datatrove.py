"""robotsrules.datatrove.RobotsFilter in a real datatrove pipeline on local data: JSONL
documents read by datatrove's JsonlReader, robots.txt from a Parquet table or WARC captures,
kept documents written by its JsonlWriter."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("datatrove", reason="needs the 'datatrove' extra")
pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402
from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import JsonlReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from robotsrules.datatrove import PageSignalsFilter, RobotsFilter  # noqa: E402

ROBOTS = {
    "https://news.example/robots.txt": b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    "https://shop.example/robots.txt": b"User-agent: *\nDisallow: /cart\n",
    "https://old.example/robots.txt": b"User-agent: CCBot\nDisallow: /archive\n",
}
DOCS = [
    {"id": "1", "text": "a", "url": "https://news.example/story", "date": "2024-05-01T00:00:00Z"},
    {"id": "2", "text": "b", "url": "https://shop.example/cart/1", "date": "2024-05-01T00:00:00Z"},
    {"id": "3", "text": "c", "url": "https://shop.example/item/2", "date": "2024-05-01T00:00:00Z"},
    {"id": "4", "text": "d", "url": "https://old.example/archive/x", "date": "2024-05-01T00:00:00Z"},
    {"id": "5", "text": "e", "url": "https://unknown.example/", "date": "2024-05-01T00:00:00Z"},
    {"id": "6", "text": "f", "url": "not a url", "date": "2024-05-01T00:00:00Z"},
]


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    with gzip.open(docs / "part.jsonl.gz", "wt", encoding="utf-8") as handle:
        for doc in DOCS:
            handle.write(json.dumps(doc) + "\n")
    pq.write_table(pa.table({"url": list(ROBOTS), "body": list(ROBOTS.values())}),
                   tmp_path / "robots.parquet")
    return tmp_path


def _run(data: Path, step: RobotsFilter, name: str) -> dict[str, dict[str, Any]]:
    out = data / name
    LocalPipelineExecutor(
        pipeline=[JsonlReader(str(data / "docs")), step, JsonlWriter(str(out))],
        tasks=1, workers=1, logging_dir=str(data / f"logs-{name}"),
    ).run()
    kept: list[dict[str, Any]] = []
    for path in sorted(out.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            kept.extend(json.loads(line) for line in handle)
    return {doc["id"]: doc["metadata"]["robots"] for doc in kept}


def test_pipeline_drops_disallowed_documents(data: Path) -> None:
    kept = _run(data, RobotsFilter(str(data / "robots.parquet"), ["GPTBot", "Googlebot"],
                                   categories=["ai-training"]), "drop")
    # 1: GPTBot blocked everywhere; 2: /cart disallowed for all; 4: CCBot (ai-training).
    assert sorted(kept) == ["3", "5", "6"]
    assert kept["3"] == {"disallowed": False, "agent": None, "line": None, "reason": "allowed"}
    assert kept["5"]["reason"] == "no-robots" and kept["6"]["reason"] == "invalid-url"


def test_pipeline_marks_documents_from_warc_captures(data: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = data / "robots.warc.gz"
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, body in ROBOTS.items():
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")],
                                       protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=headers,
                warc_headers_dict={"WARC-Date": "2024-01-01T00:00:00Z"}))
    step = RobotsFilter(robots_warc=[str(path)], agents=["GPTBot", "CCBot"], action="mark",
                        date_key="date", missing="drop")
    kept = _run(data, step, "mark")
    assert sorted(kept) == ["1", "2", "3", "4", "5", "6"]  # marked, none dropped
    assert kept["1"] == {"disallowed": True, "agent": "GPTBot", "line": 2,
                         "reason": "longest-match"}
    assert kept["2"]["agent"] == "GPTBot" and kept["2"]["line"] == 2
    assert kept["4"] == {"disallowed": True, "agent": "CCBot", "line": 2,
                         "reason": "longest-match"}
    # Before the captures' date no robots.txt was known: unknown, and dropped when asked.
    early = RobotsFilter(robots_warc=[str(path)], agents=["GPTBot"], date_key="date",
                         missing="drop")
    assert early.verdict("https://news.example/x", "2023-01-01")["reason"] == "no-robots"


def test_arguments_are_checked() -> None:
    from robotsrules.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="one of robots"):
        RobotsFilter(agents=["GPTBot"])
    with pytest.raises(InvalidArgument, match="action"):
        RobotsFilter("x.parquet", ["GPTBot"], action="delete")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="purposes"):
        PageSignalsFilter(["GPTBot"], purposes=[])
    with pytest.raises(InvalidArgument, match="action"):
        PageSignalsFilter(["GPTBot"], action="delete")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="RobotsFilter"):
        PageSignalsFilter(["GPTBot"], robots="robots.parquet")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one of robots"):
        RobotsFilter(agents=["GPTBot"])
    with pytest.raises(ValueError, match="action"):
        RobotsFilter("x.parquet", ["GPTBot"], action="delete")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        RobotsFilter("x.parquet")  # no agent


PAGES = [  # url, extra response headers, html
    ("https://news.example/meta", [], b'<html><head><meta name="robots" content="noai">'
     b"</head><body>story</body></html>"),
    ("https://shop.example/header", [("X-Robots-Tag", "noai")],
     b"<html><head><title>t</title></head><body>item</body></html>"),
    ("https://signal.example/page", [], b"<html><head></head><body>text</body></html>"),
    ("https://shop.example/plain", [], b"<html><head></head><body>plain</body></html>"),
    ("https://shop.example/gpt", [("X-Robots-Tag", "CCBot: noai")],
     b"<html><head></head><body>scoped</body></html>"),
]


def _page_warc(path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, extra, html in PAGES:
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html"), *extra],
                                       protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(html), http_headers=headers,
                warc_headers_dict={"WARC-Date": "2024-05-01T00:00:00Z",
                                   "WARC-Identified-Payload-Type": "text/html"}))


def test_page_signals_pipeline_on_a_warc(tmp_path: Path) -> None:
    """WARC -> WarcHeadersReader -> RobotsFilter (mark) -> PageSignalsFilter -> JsonlWriter:
    a meta noai, an X-Robots-Tag header, and a robots.txt Content-Signal refuse ai-train;
    a header scoped to another agent and a page stating nothing are kept."""
    pytest.importorskip("warcio")
    pytest.importorskip("magic")
    pytest.importorskip("cchardet")
    from robotsrules.datatrove import WarcHeadersReader

    (tmp_path / "pages").mkdir()
    _page_warc(tmp_path / "pages" / "crawl.warc.gz")
    robots = pa.table({
        "url": ["https://shop.example/robots.txt", "https://signal.example/robots.txt"],
        "body": [b"User-agent: *\nAllow: /\n",
                 b"User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n"]})
    pq.write_table(robots, tmp_path / "robots.parquet")
    site = RobotsFilter(str(tmp_path / "robots.parquet"), ["GPTBot"], action="mark",
                        date_key="date")
    out = tmp_path / "kept"
    LocalPipelineExecutor(
        pipeline=[WarcHeadersReader(str(tmp_path / "pages")), site,
                  PageSignalsFilter(["GPTBot"], purposes=["ai-train"], robots=site),
                  JsonlWriter(str(out))],
        tasks=1, workers=1, logging_dir=str(tmp_path / "logs")).run()
    kept: dict[str, dict[str, Any]] = {}
    for path in sorted(out.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                kept[doc["metadata"]["url"]] = doc["metadata"]
    assert sorted(kept) == ["https://shop.example/gpt", "https://shop.example/plain"]
    assert kept["https://shop.example/plain"]["page_signals"] == {
        "refused": None, "agent": None, "purpose": None, "level": None,
        "decided_by": "nothing stated", "priced": None}
    assert kept["https://shop.example/gpt"]["http_headers"][-1] == ["X-Robots-Tag",
                                                                   "CCBot: noai"]
    assert kept["https://shop.example/gpt"]["robots"]["disallowed"] is False
    # The same filter in mark mode: the deciding level and statement of each refusal.
    step = PageSignalsFilter("GPTBot", robots=site, action="mark")
    html = {url: page for url, _, page in PAGES}
    meta = step.decide("https://news.example/meta", html["https://news.example/meta"].decode())
    assert meta["refused"] is True and meta["level"] == "page" and "meta" in meta["decided_by"]
    header = step.decide("https://shop.example/header", "<p>x", [["X-Robots-Tag", "noai"]])
    assert header["level"] == "page" and "X-Robots-Tag" in header["decided_by"]
    assert step.decide("https://shop.example/header", "", "X-Robots-Tag: noai\r\n")["refused"]
    signal = step.decide("https://signal.example/page", "<p>text</p>", {}, "2024-05-01")
    assert signal["level"] == "robots.txt" and "content-signal" in signal["decided_by"]
    # After an extractor replaced the HTML with plain text, meta tags are gone.
    assert step.decide("https://news.example/meta", "story", None)["refused"] is None
    # Strangers' metadata never raises.
    assert step.decide(None, None, 42)["refused"] is None


def test_page_signals_filter_drops_a_priced_page() -> None:
    # A pay-per-crawl 402 (Cloudflare's "Crawl pages": crawler-price) is not the content:
    # marked with the price, dropped with action="drop", whatever the purposes say.
    from datatrove.data import Document

    from robotsrules.datatrove import PageSignalsFilter

    def doc(status: Any, headers: Any) -> Document:
        return Document(text="<html><head></head>", id="1",
                        metadata={"url": "https://shop.example/p", "http_status": status,
                                  "http_headers": headers})

    step = PageSignalsFilter("GPTBot")
    priced = doc(402, [["crawler-price", "USD 0.01"]])
    assert step.filter(priced) == (False, "page_signals_priced")
    assert priced.metadata["page_signals"]["priced"] == "HTTP 402: asks USD 0.01 per crawl"
    assert step.filter(doc(402, [])) == (False, "page_signals_priced")  # the status alone
    named = doc(200, [["crawler-price", "USD 0.01"]])  # a price named on a served page
    assert step.filter(named) is True and named.metadata["page_signals"]["priced"] is None
    marking = PageSignalsFilter("GPTBot", action="mark")
    assert marking.filter(doc("402", [["crawler-price", "USD 1"]])) is True  # status unknown


def test_page_signals_filter_reads_a_truncated_document_as_cut(tmp_path: Path) -> None:
    """Issue 33 review: WarcHeadersReader keeps max_body_bytes of a body and says so in
    metadata["truncated"]; the filter reads that text as a start, so a head running past it
    is "not known" (level "page"), never "nothing stated"; read whole, it refuses."""
    pytest.importorskip("warcio")
    pytest.importorskip("magic")
    pytest.importorskip("cchardet")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    from robotsrules.datatrove import WarcHeadersReader

    body = (b"<html><head><title>" + b"x" * 3000 + b"</title>"
            b"<meta name=robots content=noai></head><body>hi</body></html>")
    (tmp_path / "pages").mkdir()
    with open(tmp_path / "pages" / "long.warc.gz", "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        writer.write_record(writer.create_warc_record(
            "https://long.example/page", "response", payload=io.BytesIO(body),
            http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")],
                                          protocol="HTTP/1.1"),
            warc_headers_dict={"WARC-Date": "2024-05-01T00:00:00Z"}))

    def run(name: str, **reader: Any) -> dict[str, Any]:
        out = tmp_path / name
        LocalPipelineExecutor(
            pipeline=[WarcHeadersReader(str(tmp_path / "pages"), **reader),
                      PageSignalsFilter(["GPTBot"], purposes=["ai-train"], action="mark"),
                      JsonlWriter(str(out))],
            tasks=1, workers=1, logging_dir=str(tmp_path / f"logs-{name}")).run()
        (path,) = sorted(out.glob("*.jsonl.gz"))
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            (line,) = handle.readlines()
        metadata: dict[str, Any] = json.loads(line)["metadata"]
        return metadata

    cut = run("cut", max_body_bytes=1000)
    assert cut["truncated"] is True
    assert cut["page_signals"]["refused"] is None
    assert cut["page_signals"]["level"] == "page"
    assert cut["page_signals"]["decided_by"].startswith("not known")
    whole = run("whole")
    assert whole["truncated"] is False and whole["page_signals"]["refused"] is True
