"""The modules the compiled build compiles: those holding ``setup.py``'s ``MARKER`` line (the
set is declared beside the modules, once; ``setup.py`` reads it the same way)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def marker() -> str:
    """``setup.py``'s ``MARKER``: the line that puts a module in the compiled group."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "MARKER"):
            value: str = ast.literal_eval(node.value)
            return value
    raise AssertionError("setup.py assigns no MARKER")


def compiled_modules() -> list[str]:
    """The marked modules, names relative to ``robotsrules`` (``_page._html``), sorted."""
    package = ROOT / "src" / "robotsrules"
    line = marker()
    return sorted(".".join(path.relative_to(package).with_suffix("").parts)
                  for path in package.rglob("*.py")
                  if line in path.read_text(encoding="utf-8").splitlines())
