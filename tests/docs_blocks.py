"""Run the Python blocks of documentation pages outside pytest (for a venv that holds only
one extra, ``tests/test_extras.py``): ``python tests/docs_blocks.py PAGE...`` from the
repository root. Blocks run in page order in one namespace per page; a block written as a
doctest is checked as one; a block after ``<!-- not run: reason -->`` is only compiled (the
rules of ``tests/test_docs_examples.py``). Exit status 1, with the failures on standard
error, if any block fails.
"""

from __future__ import annotations

import doctest
import re
import sys
import traceback
from pathlib import Path

BLOCK = re.compile(
    r"(?:<!-- not run: (?P<why>[^>]*?) -->\s*\n)?^```python[^\n]*\n(?P<code>.*?)^```\s*$",
    re.MULTILINE | re.DOTALL)


def run_page(page: Path) -> list[str]:
    """The failures of one page's blocks (empty if every block ran)."""
    text = page.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    failures: list[str] = []
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code")) + 1
        code, where = match.group("code"), f"{page}:{line}"
        if match.group("why"):
            compile(code, where, "exec")
            continue
        try:
            if re.search(r"^>>> ", code, re.MULTILINE):
                test = doctest.DocTestParser().get_doctest(code, namespace, where, where, line)
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS
                                               | doctest.NORMALIZE_WHITESPACE)
                runner.run(test, clear_globs=False)
                namespace.update(test.globs)
                if runner.summarize(verbose=False).failed:
                    failures.append(f"{where}: doctest failed (output above)")
            else:
                exec(compile(code, where, "exec"), namespace)
        except Exception:
            failures.append(f"{where}:\n{traceback.format_exc()}")
    return failures


def main(pages: list[str]) -> int:
    failures = [failure for page in pages for failure in run_page(Path(page))]
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
