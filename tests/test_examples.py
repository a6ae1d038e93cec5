"""The runnable examples in examples/ run, against the example site served on loopback."""

from __future__ import annotations

import functools
import http.server
import json
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.timing import HANG

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(EXAMPLES / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def _run(args: list[str], cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env={**os.environ, "ROBOTSRULES_CACHE": os.devnull})


def test_httpx_crawler_obeys_the_site(site: str) -> None:
    result = _run([sys.executable, str(EXAMPLES / "httpx_crawler.py"), f"{site}/"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"fetched  {site}/  200" in lines
    assert f"fetched  {site}/private/press/launch.html  200" in lines
    assert f"refused  {site}/private/secret.html  (3: Disallow: /private/)" in lines
    assert f"refused  {site}/report.pdf  (5: Disallow: /*.pdf$)" in lines
    assert not any(line.startswith("fetched") and "/private/team" in line for line in lines)


def test_httpx_crawler_as_an_ai_crawler_gets_nothing(site: str) -> None:
    result = _run([sys.executable, str(EXAMPLES / "httpx_crawler.py"), f"{site}/",
                   "--agent", "GPTBot"])
    assert result.stdout.splitlines() == [f"refused  {site}/  (10: Disallow: /)"]


def test_scrapy_project_crawls_only_what_robots_txt_allows(site: str, tmp_path: Path) -> None:
    pytest.importorskip("scrapy")
    out = tmp_path / "pages.jsonl"
    result = _run([str(BIN / "scrapy"), "crawl", "site", "-a", f"start={site}/",
                   "-O", str(out), "-s", "LOG_LEVEL=WARNING"], cwd=EXAMPLES / "scrapy_project")
    assert result.returncode == 0, result.stderr
    pages = sorted(json.loads(line)["url"] for line in out.read_text().splitlines())
    assert pages == [f"{site}/", f"{site}/about.html", f"{site}/private/press/launch.html"]


def test_duckdb_report_runs(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    result = _run([sys.executable, str(EXAMPLES / "duckdb_report.py")])
    assert result.returncode == 0, result.stderr
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:5]]
            for line in result.stdout.splitlines()
            if line.startswith("│") and line.split("│")[2].strip().isdigit()}
    assert rows["GPTBot"] == ["1", "5", "1"]
    assert rows["Googlebot"] == ["2", "4", "1"]
    assert "https://example.com/ " in result.stdout


def test_duckdb_report_reads_parquet_files(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"],
                             "body": [b"User-agent: *\nDisallow: /\n"]}), tmp_path / "r.parquet")
    pq.write_table(pa.table({"url": ["https://a.example/x"]}), tmp_path / "u.parquet")
    result = _run([sys.executable, str(EXAMPLES / "duckdb_report.py"),
                   str(tmp_path / "r.parquet"), str(tmp_path / "u.parquet")])
    assert result.returncode == 0, result.stderr
    assert "│ GPTBot          │       0 │          1 │       0 │" in result.stdout


def _workflow_commands() -> list[str]:
    import yaml

    workflow = yaml.safe_load((EXAMPLES / "lint-in-ci" / "robots-lint.yml").read_text())
    steps = workflow["jobs"]["lint"]["steps"]
    return [step["run"] for step in steps if step.get("run", "").startswith("robotsrules ")]


@pytest.mark.parametrize(("content", "code"), [
    (b"User-agent: *\nDisallow: /private/\n", 0),
    (b"User-agent: *\nDisalow: /private/\n", 1),       # R102 key-typo: a warning
])
def test_lint_workflow_commands(tmp_path: Path, content: bytes, code: int) -> None:
    commands = _workflow_commands()
    assert len(commands) == 2
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "robots.txt").write_bytes(content)
    env = {**os.environ, "ROBOTS": "public/robots.txt",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    lint = subprocess.run(["bash", "-c", commands[0]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False, timeout=HANG)
    assert lint.returncode == code, lint.stderr
    sarif = json.loads((tmp_path / "robots.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ([] if code == 0 else ["R102"])
    show = subprocess.run(["bash", "-c", commands[1]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False, timeout=HANG)
    assert show.returncode == 0
    assert shlex.split(commands[1])[0] == "robotsrules"
