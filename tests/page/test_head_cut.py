"""A head cut at the head-size bound before its ``<body>`` tag (issue 33): never "nothing
stated". ``PageSignals.head_cut``, the CLI's note and JSON field, the page rows' ``head_cut``
column (page schema version 2) and the combined answer ("not known" instead of an allowed or
"nothing stated" answer; a refusal read before the cut still refuses), through the library,
``robotsrules page``, ``bulk --pages-warc`` / ``warc.page_table`` and the datatrove filter.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules import combine, page_signals, parse
from robotsrules._page import DEFAULT_HEAD_BYTES, read_head

# A head whose inline script outgrows the bound; the meta saying noai comes after it.
SCRIPT = b"<script>" + b"var x = 1;\n" * (DEFAULT_HEAD_BYTES // 10) + b"</script>"
CUT = b"<html><head>" + SCRIPT + b'<meta name="robots" content="noai"></head><body>x</body>'
# The same page with its meta before the script: the refusal is read before the cut.
REFUSED_FIRST = (b'<html><head><meta name="robots" content="noai">' + SCRIPT
                 + b"</head><body>x</body>")
# A short head and a long body: not cut (the <body> tag is read).
LONG_BODY = b"<html><head><title>t</title></head><body>" + b"x" * (2 * DEFAULT_HEAD_BYTES)
HEADERS = [("Content-Type", "text/html"), ("Content-Signal", "ai-train=yes, search=yes")]
ROBOTS = b"User-agent: *\nContent-Signal: ai-train=yes, search=yes\nAllow: /\n"
URL = "https://site.example/page"


def test_the_head_reader_flags_a_cut_head() -> None:
    assert read_head(CUT).cut and read_head(CUT.decode()).cut
    assert not read_head(LONG_BODY).cut and not read_head(LONG_BODY.decode()).cut
    assert not read_head(CUT, max_bytes=len(CUT)).cut  # all of it read: its <body> too
    small = b"<html><head><title>t</title>"  # no meta, link or script: still scanned when cut
    assert read_head(small + b" " * 100, max_bytes=len(small)).cut
    assert not read_head(small).cut  # the whole document: nothing more to read
    assert read_head(small, max_bytes=len(small), cut=True).cut  # a capture's first bytes


def test_a_cut_head_is_not_known_never_nothing_stated() -> None:
    signals = page_signals(HEADERS, CUT, agent="GPTBot")
    assert signals.head_cut and not signals.noai  # the meta was never read
    assert signals.allows("ai-train") is None  # the header's yes is not the answer
    assert signals.as_dict()["head_cut"] is True
    both = combine(parse(ROBOTS).usage(URL, agent="GPTBot"), signals)
    answer = both.decide("ai-train")
    assert (answer.allowed, answer.level) == (None, "page")
    assert answer.describe().startswith("not known: the page's head was cut")
    # A refusal read before the cut refuses.
    first = page_signals(HEADERS, REFUSED_FIRST, agent="GPTBot")
    assert first.head_cut and first.allows("ai-train") is False
    assert combine(None, first).allows("ai-train") is False
    whole = page_signals(HEADERS, LONG_BODY, agent="GPTBot")
    assert not whole.head_cut and whole.allows("ai-train") is True


def test_the_command_line_says_the_head_was_cut(tmp_path: Path) -> None:
    from robotsrules.cli import main

    saved = tmp_path / "page.http"
    saved.write_bytes(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                      b"Content-Signal: ai-train=yes\r\n\r\n" + CUT)
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--purpose", "ai-train"],
                out=out) == 0
    text = out.getvalue()
    assert "note: the head was cut at --max-head-bytes" in text
    assert "ai-train: not known (head cut)" in text
    assert "no page-level signal" not in text
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--purpose", "ai-train", "--json",
                 "--robots", str(robots)], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["head_cut"] is True and data["purposes"]["ai-train"]["allowed"] is None
    assert data["combined"]["ai-train"]["allowed"] is None
    assert data["combined"]["ai-train"]["why"].startswith("not known")
    out = io.StringIO()  # the whole head read: no note, the page's yes
    assert main(["page", str(saved), "--agent", "GPTBot", "--purpose", "ai-train",
                 "--max-head-bytes", str(len(CUT) + 10)], out=out) == 0
    assert "head was cut" not in out.getvalue() and "ai-train: refused" in out.getvalue()


def _warc(path: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for name, body in (("cut", CUT), ("first", REFUSED_FIRST), ("long", LONG_BODY)):
            http = StatusAndHeaders("200 OK", HEADERS, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                f"https://site.example/{name}", "response", payload=io.BytesIO(body),
                http_headers=http, warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


def _rows(table: Any) -> Any:
    return {r["url"].rsplit("/", 1)[1]: (r["head_cut"], r["noai"], r["ai_train"])
            for r in table.to_pylist()}


def test_the_page_rows_carry_head_cut(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from robotsrules.bulk import PAGE_SCHEMA, page_schema
    from robotsrules.cli import main
    from robotsrules.warc import iter_pages, page_table

    assert PAGE_SCHEMA.field("head_cut").type == pa.bool_()
    assert PAGE_SCHEMA.metadata[b"robotsrules.page_schema_version"] == b"2"
    assert page_schema(["ai-train"]).names[-2:] == ["head_cut", "ai_train"]
    path = tmp_path / "pages.warc.gz"
    _warc(path)
    assert [p.truncated for p in iter_pages(str(path))] == [True, True, True]
    expected = {"cut": (True, False, None), "first": (True, True, False),
                "long": (False, False, True)}
    assert _rows(page_table([str(path)], agents=["GPTBot"], purposes=["ai-train"])) == expected
    # A smaller bound of the WARC reader: the capture is its first bytes (PageCapture.truncated).
    small = page_table([str(path)], agents=["GPTBot"], purposes=["ai-train"],
                       max_head_bytes=4096)
    assert _rows(small)["cut"] == (True, False, None)
    out = tmp_path / "rows.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--agent", "GPTBot", "--purpose",
                 "ai-train", "--out", str(out)], out=io.StringIO()) == 0
    assert _rows(pq.read_table(out)) == expected


def test_the_datatrove_filter_says_not_known() -> None:
    pytest.importorskip("datatrove")
    from robotsrules.datatrove import PageSignalsFilter

    step = PageSignalsFilter(["GPTBot"], purposes=["ai-train"], action="mark")
    found = step.decide(URL, CUT.decode(), HEADERS)
    assert (found["refused"], found["level"]) == (None, "page")
    assert found["decided_by"].startswith("not known")
    assert step.decide(URL, LONG_BODY.decode(), HEADERS)["refused"] is False
