"""The documentation stays true: its tables, transcripts and generated parts match the code."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from robotsrules.cli import main
from robotsrules.linter import CODES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def test_lint_codes_page_lists_every_code_with_its_name_and_severity() -> None:
    text = (DOCS / "reference" / "lint-codes.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (R\d{3}) \| (`[a-z0-9-]+` \| \w+) \|", text, re.MULTILINE))
    assert rows == {code: f"`{row.name}` | {row.severity}" for code, row in CODES.items()}


def test_lint_example_is_real_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (DOCS / "guides" / "site-owners.md").read_text(encoding="utf-8")
    block = text.split("$ robotsrules lint robots.txt\n", 1)[1].split("```", 1)[0]
    (tmp_path / "robots.txt").write_bytes(
        b"User-agent: *\nDisalow: /x\n\nUser-agent: MJ12bot\nDisallow: fish\n")
    out = io.StringIO()
    monkeypatch.chdir(tmp_path)
    main(["lint", "--color", "never", "robots.txt"], out=out)
    assert out.getvalue() == block


@pytest.mark.parametrize("page", [README, DOCS / "guides" / "site-owners.md"],
                         ids=lambda page: page.name)
def test_explain_transcript_is_real_output(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = page.read_text(encoding="utf-8")
    command = "$ robotsrules explain examples/robots.txt --agent ExampleBot https://example.com/a.pdf\n"
    shown = text.split(command, 1)[1].split("\n\n", 1)[0].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    code = main([*command[2:].split()[1:], "--color", "never"], out=out)
    assert code == 1
    real = out.getvalue()
    # The transcript may elide the listing with '...': every line it shows is real, in order.
    shown_lines = [line for line in shown.rstrip("\n").split("\n") if line != "..."]
    real_lines = real.rstrip("\n").split("\n")
    assert shown_lines == [line for line in real_lines if line in shown_lines]
    assert shown_lines[-4:] == real_lines[-4:]


@pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                    reason="the help text is generated with CPython 3.11's argparse")
def test_cli_reference_is_current() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "docs_cli.py"), "--check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_cli_reference_covers_every_command() -> None:
    from robotsrules.cli import main as cli_main

    buffer = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(buffer):
        cli_main(["--help"])
    commands = re.findall(r"^    ([a-z]+)\s", buffer.getvalue(), re.MULTILINE)
    assert len(commands) >= 8
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    for command in commands:
        assert f"<!-- generated: robotsrules {command} --help -->" in page, command


def test_readme_is_a_landing_page() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 250


def test_every_docs_page_is_in_the_site_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        rel = page.relative_to(DOCS).as_posix()
        assert rel in nav, f"{rel} is not in mkdocs.yml's nav"


def test_site_builds_strict(tmp_path: Path) -> None:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    if not mkdocs.exists():
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    result = subprocess.run([str(mkdocs), "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                            cwd=ROOT, capture_output=True, text=True, check=False,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stdout + result.stderr


def test_json_reference_examples_have_the_outputs_shape() -> None:
    pytest.importorskip("duckdb")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "docs_json.py"), "--check"],
                            capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr


def test_json_reference_covers_every_json_command() -> None:
    page = (DOCS / "reference" / "json.md").read_text(encoding="utf-8")
    for command in ("check", "fetch", "explain", "agents", "diff", "lint", "usage", "page",
                    "report", "license"):
        assert f"<!-- json: robotsrules {command} " in page, command


def test_readme_links_point_at_files_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#]+)\)", text) if "://" not in t]
    assert len(targets) >= 10
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, missing
