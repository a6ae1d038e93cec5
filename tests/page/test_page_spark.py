"""robotsrules.spark.robots_page_allows on local[1]: the page answer, as the core gives it.

Behind the ``slow`` marker (``--run-slow``): it starts its own JVM.
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="Spark tests need the 'spark' extra (pyspark)")
if shutil.which("java") is None:  # pragma: no cover - depends on the machine
    pytest.skip("Spark tests need Java 17+ (java not found on PATH)", allow_module_level=True)

from robotsrules import page_signals
from robotsrules import spark as engine
from robotsrules._page import header_block

ROWS = [
    ("X-Robots-Tag: noai\r\n", b"<html></html>", "GPTBot"),
    ("Content-Type: text/html", b'<head><meta name="GPTBot" content="noindex">', "GPTBot"),
    ("Content-Usage: train-ai=y", None, "Other"),
    (None, None, "x"),
]


@pytest.mark.slow  # a Spark session of its own: minutes on a loaded machine
def test_spark_robots_page_allows_equals_the_core() -> None:
    spark = engine.local_session("local[1]", **{"spark.sql.shuffle.partitions": "1"})
    try:
        frame = spark.createDataFrame(ROWS, "headers string, html binary, agent string")
        got = [(r.train, r.search) for r in frame.select(
            engine.robots_page_allows("headers", "html", frame.agent, "ai-train").alias("train"),
            engine.robots_page_allows("headers", "html", frame.agent, "search").alias("search"),
        ).collect()]
    finally:
        spark.stop()
    expected = []
    for head, body, agent in ROWS:
        signals = page_signals(header_block(head or ""), body, agent=agent)
        expected.append((signals.allows("ai-train"), signals.allows("search")))
    assert got == expected == [(False, None), (None, False), (True, None), (None, None)]
