"""The optional compiled build (see build_backend/robotsrules_build.py); everything else
about the package is in pyproject.toml.

With ``ROBOTSRULES_COMPILE=1`` the modules marked with :data:`MARKER` (one mypyc group, since
a pure subclass of a compiled class is refused at run time) are compiled with mypyc from the
same source the pure package runs. ``_sfv`` (subclasses of ``str`` and ``int``)
and ``errors`` (a subclass of ``ImportError``) stay pure, as does everything else.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

MARKER = ("# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled "
          "read this line)")
"""The line that puts a module in the compiled group: the set is declared beside the modules
(one marker line each, above ``from __future__``), read here and by ``tests/compiled``.

Today's group: the core (parse, match, check; one group, since a pure subclass of a compiled
class is refused at run time) and the WARC page path (issue 27: the head scan, encoding
sniffing, the header reader; the lean WARC reader, the body decoder, the date reader; the fold
of a page's directives, whose public boundary ``_page._signals`` stays pure: it reads a
stranger's values of any type as pure Python does)."""


def compiled_modules(root: str) -> list[str]:
    """The modules of ``src/robotsrules`` holding :data:`MARKER` (``_rules._parser``)."""
    package = os.path.join(root, "src", "robotsrules")
    found = []
    for folder, _dirs, files in os.walk(package):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                if MARKER not in handle.read().splitlines():
                    continue
            relative = os.path.relpath(path, package)[:-len(".py")]
            found.append(relative.replace(os.sep, "."))
    return sorted(found)


COMPILED_MODULES = compiled_modules(os.path.dirname(os.path.abspath(__file__)))
"""The modules of ``src/robotsrules`` the compiled build compiles."""

ext_modules: list[Any] = []
if os.environ.get("ROBOTSRULES_COMPILE", "").lower() in ("1", "true", "yes"):
    if sys.version_info < (3, 10):
        raise SystemExit("the compiled build of robotsrules needs CPython 3.10 or later; "
                         "install without ROBOTSRULES_COMPILE for pure Python")
    from mypyc.build import mypycify

    # Imports outside the group (the package's own lazy exports of the fetch layer, which
    # import httpx and idna) are followed silently: the build environment holds only
    # setuptools and mypy, and the group's types do not depend on those modules.
    ext_modules = mypycify(
        ["--follow-imports=silent",
         *(os.path.join("src", "robotsrules", *name.split(".")) + ".py"
           for name in COMPILED_MODULES)],
        opt_level="3", group_name="robotsrules_core",
    )

setup(ext_modules=ext_modules)
