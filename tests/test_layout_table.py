"""``docs/development.md``'s layout table is checked against the tree: every module and
package of ``src/robotsrules`` (and every module of its packages) is named in it, and no
row names a module that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "robotsrules"
# Not rooms of the house: the package's face, its entry point and its version string.
UNLISTED = {"__init__", "__main__", "_version"}


def _table() -> dict[str, set[str]]:
    """Module or package named in the first column -> the submodules named with it."""
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    start = text.index("| module | what it holds |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1])
    named: dict[str, set[str]] = {}
    for cell in rows:
        outside = re.sub(r"\([^)]*\)", "", cell)
        inside = re.findall(r"`(\w+)`\s*\(([^)]*)\)", cell)
        for name in re.findall(r"`(\w+)`", outside):
            named.setdefault(name, set())
        for package, parts in inside:
            named[package].update(re.findall(r"`(\w+)`", parts))
    return named


def _modules(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob("*.py")} | {
        p.name for p in folder.iterdir() if (p / "__init__.py").exists()}


def test_every_module_of_the_package_is_in_the_layout_table() -> None:
    named = _table()
    missing = sorted(_modules(PACKAGE) - UNLISTED - set(named))
    assert not missing, f"docs/development.md's layout table does not name: {missing}"
    for package, parts in named.items():
        if (PACKAGE / package / "__init__.py").exists():
            inner = _modules(PACKAGE / package) - {"__init__"}
            missing = sorted(inner - parts)
            assert not missing, f"the layout table's {package} row does not name: {missing}"


def test_the_layout_table_names_no_module_that_does_not_exist() -> None:
    for package, parts in _table().items():
        assert package in _modules(PACKAGE), f"the layout table names {package}: no such module"
        for part in parts:
            assert part in _modules(PACKAGE / package), \
                f"the layout table names {package}.{part}: no such module"
