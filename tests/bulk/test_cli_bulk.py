"""`robotsrules bulk` (DuckDB engine) and `robotsrules report`: files in, files and figures out."""

from __future__ import annotations

import json
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from robotsrules.cli import main  # noqa: E402
from tests.bulk.conftest import AGENTS, Sample, as_rows  # noqa: E402


@pytest.fixture()
def files(tmp_path: Any, robots_table: Any, urls_table: Any) -> Any:
    pq.write_table(robots_table, tmp_path / "robots.parquet")
    pq.write_table(urls_table, tmp_path / "urls.parquet")
    return tmp_path


def _bulk(files: Any, out: str, *extra: str) -> int:
    args = ["bulk", "--robots", str(files / "robots.parquet"), "--urls",
            str(files / "urls.parquet"), "--out", out]
    for agent in AGENTS:
        args += ["--agent", agent]
    return main(args + list(extra))


@pytest.mark.parametrize("ending", ["parquet", "csv"])
def test_bulk_writes_the_plain_api_rows(files: Any, ending: str, expected: list[Any],
                                        capsys: Any) -> None:
    out = str(files / f"v.{ending}")
    assert _bulk(files, out) == 0
    table = pq.read_table(out) if ending == "parquet" else pacsv.read_csv(
        out, convert_options=pacsv.ConvertOptions(column_types={"line": pa.int32()}))
    assert as_rows(table.to_pylist()) == expected
    summary = capsys.readouterr().out
    assert f"{len(expected):,} verdicts" in summary and "[duckdb]" in summary
    assert not (files / f"v.{ending}.partial").exists()


def test_report_text_json_and_chart(files: Any, capsys: Any) -> None:
    out = str(files / "v.parquet")
    assert _bulk(files, out) == 0
    capsys.readouterr()
    chart = files / "chart.png"
    assert main(["report", out, "--chart", str(chart), "--top", "3"]) == 0
    text = capsys.readouterr().out
    assert "sites that block the most URLs" in text and "GPTBot" in text
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["report", out, "--json", "--top", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    table = pq.read_table(out).to_pylist()
    for summary in data["agents"]:
        rows = [r for r in table if r["agent"] == summary["agent"]]
        judged = [r for r in rows if r["allowed"] is not None]
        assert summary["urls"] == len(rows)
        assert summary["judged"] == len(judged)
        assert summary["disallowed"] == sum(1 for r in judged if not r["allowed"])
        assert summary["unknown"] == len(rows) - len(judged)
        by_site: dict[str, list[bool]] = {}
        for r in judged:
            by_site.setdefault(r["origin"], []).append(r["allowed"])
        assert summary["sites"] == len(by_site)
        assert summary["sites_fully"] == sum(1 for v in by_site.values() if not any(v))
        assert len(summary["top_sites"]) <= 3
        if summary["top_sites"]:
            most = max(sum(1 for a in v if not a) for v in by_site.values())
            assert summary["top_sites"][0]["disallowed"] == most
    pairs = {(d["blocked"], d["allowed"]): d["urls"] for d in data["differentials"]}
    verdict = {(r["url"], r["agent"]): r["allowed"] for r in table}
    urls = {r["url"] for r in table}
    for (a, b), count in pairs.items():
        assert count == sum(1 for u in urls if verdict[(u, a)] is False
                            and verdict[(u, b)] is True)


def test_report_on_a_handmade_table(tmp_path: Any, capsys: Any) -> None:
    rows = [("https://s.example/1", "GPTBot", False, "https://s.example"),
            ("https://s.example/1", "Googlebot", True, "https://s.example"),
            ("https://t.example/1", "GPTBot", False, "https://t.example"),
            ("https://t.example/1", "Googlebot", False, "https://t.example"),
            ("https://u.example/1", "GPTBot", None, "https://u.example"),
            ("https://u.example/1", "Googlebot", None, "https://u.example")]
    path = tmp_path / "v.csv"
    pacsv.write_csv(pa.table({"url": [r[0] for r in rows], "agent": [r[1] for r in rows],
                              "allowed": [r[2] for r in rows], "origin": [r[3] for r in rows]}),
                    path)
    assert main(["report", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    gpt = next(a for a in data["agents"] if a["agent"] == "GPTBot")
    assert (gpt["judged"], gpt["disallowed"], gpt["unknown"]) == (2, 2, 1)
    assert (gpt["sites"], gpt["sites_fully"], gpt["url_share"]) == (2, 2, 1.0)
    diff = next(d for d in data["differentials"] if d["blocked"] == "GPTBot")
    assert (diff["urls"], diff["sites"], diff["examples"]) == (1, 1, ["https://s.example"])


@pytest.mark.parametrize(("args", "message"), [
    (["--agent", "not a token!"], "not a crawler product token"),
    (["--out", "v.txt"], "cannot tell the output format"),
    (["--urls", "missing.parquet"], "missing.parquet: no such file"),
    (["--robots", "robots.json"], "no such file"),
    (["--cache-size", "0"], "argument --cache-size: expected a whole number from 1"),
])
def test_bulk_errors_exit_2_without_traceback(files: Any, args: list[str], message: str,
                                              capsys: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(files)
    base = {"--robots": "robots.parquet", "--urls": "urls.parquet", "--out": "v.parquet",
            "--agent": "GPTBot"}
    for key, value in zip(args[::2], args[1::2]):
        base[key] = value
    argv = ["bulk"] + [x for pair in base.items() for x in pair]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(("robotsrules: error: ", "robotsrules bulk: error: ")) \
        and message in err  # a bad option value is a usage error (issue 25)
    assert "Traceback" not in err
    assert not (files / "v.parquet").exists()


def test_report_errors(tmp_path: Any, capsys: Any) -> None:
    assert main(["report", str(tmp_path / "none.parquet")]) == 2
    assert "no such file" in capsys.readouterr().err
    pq.write_table(pa.table({"x": [1]}), tmp_path / "x.parquet")
    assert main(["report", str(tmp_path / "x.parquet")]) == 2
    assert "not a verdict table" in capsys.readouterr().err


def test_missing_option_from_the_cli(files: Any, sample: Sample) -> None:
    out = str(files / "v.parquet")
    assert _bulk(files, out, "--missing", "allow") == 0
    rows = pq.read_table(out).to_pylist()
    assert all(r["allowed"] is True for r in rows if r["reason"] == "no-robots")
    assert any(r["reason"] == "no-robots" for r in rows)
