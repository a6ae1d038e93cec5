"""The WARC page path's answers, unchanged by the work on its pace (issue 27).

The rows of :func:`robotsrules.warc.page_batches` (one and three agents), the records of
:func:`~robotsrules.warc.iter_pages` (record ids aside: the benchmark's writer makes random
ones), each page's head as :func:`robotsrules._page.read_head` reads it, each page's
:func:`~robotsrules._page.page_signals_for` in full, and the counts and notes of
:class:`~robotsrules.warc.WarcStats`, over the benchmark's WARC files (real page heads and
generated pages) and the hostile WARC set, hashed into one digest. The digest below was made
by the same code run against main at 5983208 (before the shortcuts of issue 27's WARC goal);
any answer that changes changes it. Issue 33 added fields (``PageCapture.truncated``,
``Head.cut``, ``PageSignals.head_cut``, the page table's ``head_cut`` column): the digest
was remade then, after checking that every other answer of the same run, the new fields
left out, is byte for byte main's at baaff8e. Run this file as a script to print the digest of the
tree it runs in (``PYTHONPATH=<other checkout>/src python tests/page/test_warc_page_digest.py``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("warcio")
pytest.importorskip("brotli")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from robotsrules import warc  # noqa: E402
from robotsrules._page import page_signals_for, read_head  # noqa: E402
from tests.hostile import warcs  # noqa: E402

MAIN_DIGEST = "21cd5feecf4d59adfeb609ff345facc98e70c63684f2a396e71c272ccc611bd8"
AGENTS = ["GPTBot", "CCBot", "Googlebot"]
RECORDS = 150


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("page_signals_digest",
                                                  ROOT / "benchmarks" / "page_signals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _digest_of(data: bytes, out: Any) -> None:
    for count in (1, 3):
        stats = warc.WarcStats()
        for batch in warc.page_batches([io.BytesIO(data)], agents=AGENTS[:count], stats=stats,
                                       purposes=["search", "ai-train"]):
            out.update(json.dumps(batch.to_pylist(), default=str, sort_keys=True).encode())
        out.update(repr((stats.records, stats.captures, stats.skipped, stats.damaged,
                         stats.problems, stats.errors)).encode())
    for page in warc.iter_pages(io.BytesIO(data)):
        out.update(repr(page._replace(record_id=None)).encode())
        if page.damaged or page.head is None:
            continue
        kind = next((v for k, v in page.headers if k.lower() == "content-type"), None)
        out.update(repr(read_head(page.head, content_type=kind)).encode())
        for signals in page_signals_for(page.headers, page.head, AGENTS, url=page.url,
                                        now=page.date, strict=False, status=page.status):
            out.update(json.dumps(signals.as_dict(), default=str, sort_keys=True).encode())


def digest() -> str:
    """The digest of every answer over the benchmark WARCs and the hostile set."""
    bench = _benchmark()
    out = hashlib.sha256()
    with tempfile.TemporaryDirectory() as scratch:
        for make in (bench.make_real_warc, bench.make_warc):
            path = Path(scratch) / "pages.warc.gz"
            make(str(path), RECORDS)
            _digest_of(path.read_bytes(), out)
    for name, data in sorted(warcs.files().items()):
        out.update(name.encode())
        _digest_of(data, out)
    return out.hexdigest()


def test_the_answers_are_mains() -> None:
    assert digest() == MAIN_DIGEST


if __name__ == "__main__":
    print(digest())
