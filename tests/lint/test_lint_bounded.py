"""Lint keeps a bounded number of findings (issue 33): ``yes | robotsrules lint -`` (1 MB of
``y`` lines) made one R106 per line and peaked at 340 MiB. Now at most ``MAX_PER_CODE``
findings of a code are listed and one R007 per code counts the rest, in the text, JSON
(``unlisted``, in the schema) and SARIF (``properties.unlisted``) outputs. Memory is checked
by ``tracemalloc`` peak (allocations, not time or machine speed).
"""

from __future__ import annotations

import gc
import io
import json
import tracemalloc
from pathlib import Path

import pytest

import robotsrules
from robotsrules.cli import main
from robotsrules.linter import Diagnostic
from robotsrules.linter._codes import MAX_PER_CODE, cut_counts

MIB = 1024 * 1024
YES = b"y\n" * 500_000  # 1,000,000 bytes, as `yes | head -c 1000000`
READ_LINES = robotsrules.DEFAULT_MAX_BYTES // 2  # the lines within the size limit


def _traced_lint(data: bytes) -> tuple[list[Diagnostic], int]:
    gc.collect()
    tracemalloc.start()
    try:
        found = robotsrules.lint(data)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return found, peak


def test_a_megabyte_of_y_lines_lists_a_bounded_number_of_findings() -> None:
    found, peak = _traced_lint(YES)
    # Before: 157 MiB traced (one diagnostic per line). What remains is the line report the
    # parser builds (about 190 octets a line), bounded by the 500 KiB size limit.
    assert peak < 64 * MIB, peak / MIB
    invalid = [d for d in found if d.code == "R106"]
    assert [d.line for d in invalid] == list(range(1, MAX_PER_CODE + 1))
    cut = [d for d in found if d.code == "R007"]
    assert len(cut) == 1 and cut[0].line == MAX_PER_CODE + 1
    assert cut_counts(found) == {"R106": READ_LINES - MAX_PER_CODE}
    assert f"between lines {MAX_PER_CODE + 1} and {READ_LINES}" in cut[0].message
    assert len(found) <= MAX_PER_CODE + 5


def test_memory_does_not_grow_with_the_findings() -> None:
    # Same number of lines, one holding a finding each or none: the peaks stay close.
    rules = range(10_000, 40_000)  # 30,000 lines, within the size limit
    calm, quiet = _traced_lint(b"User-agent: *\n"
                               + b"".join(b"Disallow: /%d\n" % n for n in rules))
    found, noisy = _traced_lint(b"User-agent: *\n"
                                + b"".join(b"Disallow: %d\n" % n for n in rules))
    assert calm == []
    assert noisy < quiet + 4 * MIB, (noisy / MIB, quiet / MIB)
    assert cut_counts(found) == {"R301": 30_000 - MAX_PER_CODE}


def test_each_code_has_its_own_budget() -> None:
    body = (b"User-agent: *\n" + b"".join(b"Disalow: /x%d\n" % n for n in range(150))
            + b"".join(b"Disallow: fish%d\n" % n for n in range(120)))
    found = robotsrules.lint(body)
    assert sum(d.code == "R102" for d in found) == MAX_PER_CODE
    assert sum(d.code == "R301" for d in found) == MAX_PER_CODE
    assert cut_counts(found) == {"R102": 50, "R301": 20}


def test_a_file_under_the_budget_is_listed_whole() -> None:
    found = robotsrules.lint(b"User-agent: *\n" + b"Disallow: fish\n" * MAX_PER_CODE)
    assert sum(d.code == "R301" for d in found) == MAX_PER_CODE
    assert not any(d.code == "R007" for d in found) and cut_counts(found) == {}


@pytest.fixture()
def yes_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(YES)
    return str(path)


def _run(*argv: str) -> str:
    out = io.StringIO()
    main(["lint", *argv], out=out)
    return out.getvalue()


def test_cli_text(yes_file: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _run(yes_file)
    assert text.count(" R106 ") == MAX_PER_CODE
    assert f"info R007 findings-cut: {READ_LINES - MAX_PER_CODE} more `R106` findings" in text
    closing = text + capsys.readouterr().err
    assert f"({READ_LINES - MAX_PER_CODE} more not listed, see R007)" in closing


def test_cli_json_and_schema(yes_file: str) -> None:
    report = json.loads(_run("--json", yes_file))
    assert report["unlisted"] == {"R106": READ_LINES - MAX_PER_CODE}
    assert len(report["diagnostics"]) == report["summary"]["total"] <= MAX_PER_CODE + 5
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra)")
    from robotsrules.linter._output import json_schema

    jsonschema.validate(report, json_schema())
    small = Path(yes_file).with_name("small.txt")
    small.write_bytes(b"User-agent: *\nDisallow: fish\n")
    quiet = json.loads(_run("--json", str(small)))
    assert quiet["diagnostics"] and "unlisted" not in quiet


def test_cli_sarif(yes_file: str) -> None:
    log = json.loads(_run("--format", "sarif", yes_file))
    run = log["runs"][0]
    assert run["artifacts"][0]["properties"] == {"unlisted": {"R106": READ_LINES - MAX_PER_CODE}}
    assert sum(r["ruleId"] == "R106" for r in run["results"]) == MAX_PER_CODE
    assert [r["ruleId"] for r in run["results"]].count("R007") == 1
