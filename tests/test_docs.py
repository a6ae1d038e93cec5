"""The README stays true: its table of lint codes and its lint example match the code."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from robotsrules.cli import main
from robotsrules.linter import CODES

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_lists_every_lint_code_with_its_name_and_severity() -> None:
    text = README.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (R\d{3}) \| (`[a-z0-9-]+` \| \w+) \|", text, re.MULTILINE))
    assert rows == {code: f"`{row.name}` | {row.severity}" for code, row in CODES.items()}


def test_readme_lint_example_is_real_output(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("$ robotsrules lint robots.txt\n", 1)[1].split("```", 1)[0]
    (tmp_path / "robots.txt").write_bytes(
        b"User-agent: *\nDisalow: /x\n\nUser-agent: MJ12bot\nDisallow: fish\n")
    out = io.StringIO()
    monkeypatch.chdir(tmp_path)
    main(["lint", "--color", "never", "robots.txt"], out=out)
    assert out.getvalue() == block
