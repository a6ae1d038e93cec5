"""``bulk --agent-category``: a category expands to its tokens, like repeated --agent."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("duckdb")
pq = pytest.importorskip("pyarrow.parquet")

from robotsrules._tables._crawlers import category_tokens  # noqa: E402
from robotsrules.cli import main  # noqa: E402


def test_bulk_agent_category(tmp_path: Any, robots_table: Any, urls_table: Any) -> None:
    pq.write_table(robots_table, tmp_path / "robots.parquet")
    pq.write_table(urls_table.slice(0, 50), tmp_path / "urls.parquet")
    out = tmp_path / "v.parquet"
    argv = ["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
            str(tmp_path / "urls.parquet"), "--out", str(out), "--agent-category", "control",
            "--agent", "GPTBot"]
    assert main(argv) == 0
    agents = set(pq.read_table(out).column("agent").to_pylist())
    assert agents == {"GPTBot", *category_tokens("usage-control")}
    argv = [*argv[:-4], "--agent-category", "nope"]
    assert main(argv) == 2
    assert main(argv[:-2]) == 2  # no agent at all
