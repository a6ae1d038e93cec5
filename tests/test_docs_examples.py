"""The documentation cannot drift from the code: every Python example in it runs.

Each ```python block of README.md and of every page under docs/ is executed, in page order,
in one namespace per page (so a page can build on its earlier blocks), with the repository
root as the working directory. A block written as a doctest (lines starting with `>>> `)
is run by doctest, so its printed results are checked too.

A block that cannot run here (it needs the internet, a Spark cluster, or is a settings
file) is preceded by an HTML comment saying why: `<!-- not run: reason -->`. Such a block
must still compile, and a reason is required, so a skip is always visible in the source.
"""

from __future__ import annotations

import ast
import doctest
import os
import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

_BLOCK = re.compile(
    r"(?:<!-- not run: (?P<why>[^>]*?) -->\s*\n)?^```python[^\n]*\n(?P<code>.*?)^```\s*$",
    re.MULTILINE | re.DOTALL)


def _blocks(page: Path) -> List[Tuple[int, str, str]]:
    """(line number, code, reason it is not run or '') for each python block of a page."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code")) + 1
        found.append((line, match.group("code"), (match.group("why") or "").strip()))
    return found


def _pages_with_blocks() -> List[Path]:
    return [page for page in PAGES if _blocks(page)]


def test_the_docs_have_examples() -> None:
    # The harness must find blocks, or every test below would pass vacuously.
    assert len(_pages_with_blocks()) >= 5
    assert sum(len(_blocks(page)) for page in PAGES) >= 20


@pytest.mark.parametrize("page", _pages_with_blocks(),
                         ids=lambda page: str(page.relative_to(ROOT)))
def test_page_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    # Keep examples that use the CLI's default cache away from the user's cache.
    monkeypatch.setenv("ROBOTSRULES_CACHE", os.devnull)
    namespace: Dict[str, object] = {"__name__": "__docs__"}
    for line, code, why in _blocks(page):
        where = f"{page.relative_to(ROOT)}:{line}"
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        if why:
            compile(code, where, "exec", flags=flags)   # still valid Python
            continue
        if re.search(r"^>>> ", code, re.MULTILINE):
            test = doctest.DocTestParser().get_doctest(code, namespace, where, where, line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS
                                           | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)     # DocTest runs in a copy: keep its names
            failed = runner.summarize(verbose=False).failed
            assert not failed, f"{where}: {failed} doctest example(s) failed (output above)"
        else:
            exec(compile(code, where, "exec"), namespace)


def test_every_skipped_block_says_why() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"<!-- not run:(.*?)-->", text):
            assert match.group(1).strip(), f"{page}: a not-run block needs a reason"
