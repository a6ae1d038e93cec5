"""Write (or, with --check, verify) the generated parts of docs/reference/cli.md.

The page holds hand-written text and, between `<!-- generated: robotsrules ARGS --help -->`
and `<!-- end generated -->`, the command's real `--help` output. Run this script after
changing an option; the test suite runs it with --check so the page cannot drift.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference" / "cli.md"
_MARK = re.compile(r"(<!-- generated: robotsrules (?P<args>[^>]*?) --help -->\n)(?P<body>.*?)"
                   r"(<!-- end generated -->)", re.DOTALL)


def help_text(args: str) -> str:
    """`robotsrules ARGS --help` as printed on an 88-column terminal."""
    from robotsrules.cli import main

    os.environ["COLUMNS"] = "88"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        main([*args.split(), "--help"])
    return buffer.getvalue()


def render(page: str) -> str:
    """The page with every generated block brought up to date."""
    return _MARK.sub(lambda m: m.group(1) + "```text\n" + help_text(m.group("args"))
                     + "```\n" + m.group(4), page)


def main() -> int:
    text = PAGE.read_text(encoding="utf-8")
    new = render(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(f"{PAGE} is out of date: run python scripts/docs_cli.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
