"""Whether the core runs compiled: the one place that knows (:data:`robotsrules.COMPILED`
reads it).

This module belongs to the group of core modules that the optional compiled build compiles
with mypyc (``setup.py``): compiled with them or not at all, so its own file tells. A few
hot paths read :data:`COMPILED` to take, in the compiled build, a way that is faster there
and slower in pure Python (plain ``str`` methods in a loop instead of one regular
expression); both ways give the same answers, and the differential test in
``tests/compiled`` compares the builds.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from typing import Final

__all__ = ["COMPILED"]

COMPILED: Final[bool] = not __file__.endswith((".py", ".pyc"))
"""True in the compiled build, False for pure Python (sources or byte code)."""
