"""The optional compiled build (see build_backend/robotsrules_build.py); everything else
about the package is in pyproject.toml.

With ``ROBOTSRULES_COMPILE=1`` the core modules below (parse, match, check: one mypyc group,
since a pure subclass of a compiled class is refused at run time) are compiled with mypyc
from the same source the pure package runs. ``_sfv`` (subclasses of ``str`` and ``int``)
and ``errors`` (a subclass of ``ImportError``) stay pure, as does everything else.
"""

from __future__ import annotations

import os
import sys
from typing import Any, List

from setuptools import setup

COMPILED_MODULES = [
    "_rules._agents", "_compiled", "_rules._legacy", "_rules._matcher", "_rules._outline", "_rules._parser", "_rules._pattern",
    "_rules._precedence", "_tables._purposes", "_rules._stance", "_terminal", "_rules._urls", "_rules._usage", "model",
    "robotstxt", "useragent",
    # The WARC page path (issue 27): the head scan, encoding sniffing, the header reader;
    # the lean WARC reader and a record's reading, the body decoder, the date reader; the
    # fold of a page's directives for an agent (its public boundary, _page._signals, stays
    # pure: it reads a stranger's values of any type as pure Python does).
    "_page._encoding", "_page._headers", "_page._html", "_page._fold", "_warcread",
    "_decoder", "_dates",
    # The one memoised origin splitter, called per WARC record by _warcread (issue 34).
    "_scope",
]
"""The modules of ``src/robotsrules`` the compiled build compiles."""

ext_modules: List[Any] = []
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
