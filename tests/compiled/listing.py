"""The modules the compiled build compiles, read from ``setup.py`` (the one list)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> List[str]:
    """``setup.py``'s ``COMPILED_MODULES``, names relative to ``robotsrules`` (``_page._html``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "COMPILED_MODULES"):
            names: List[str] = ast.literal_eval(node.value)
            return names
    raise AssertionError("setup.py assigns no COMPILED_MODULES list")
