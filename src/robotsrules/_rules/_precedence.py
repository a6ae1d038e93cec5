"""Which rule decides: RFC 9309 §2.2.2 precedence and Google's index.html rule, in one place.

Among the allow/disallow rules that match a target, the one with the longest pattern (in
octets) decides; an allow wins a tie with a disallow (RFC 9309: "the least restrictive
rule"; Google: the same); among equal rules the first in the file is reported. That order
is encoded as one int per rule, the *precedence key* ``(priority, is_allow, -line)``, so
that comparing two rules is one integer comparison, and the largest key that matches wins.

Google-specific (not in RFC 9309): an allow whose last path segment starts with
``index.htm`` (``allow: /d/index.html``) also allows exactly the directory ``/d/``, as an
extra rule ``/d/$`` with the extra pattern's own priority, the same line and the allow bit.

Every reader and checker of this package ranks rules through this module: the outline
reader builds keys (:mod:`robotsrules._rules._outline`), the matcher compares them and adds the
index.html rows (:mod:`robotsrules._rules._matcher`), the stance solver reads them
(:mod:`robotsrules._rules._stance`), and the linter ranks rules and explains the index.html rule
with :func:`rule_rank` and :func:`index_html_folder` (:mod:`robotsrules.linter`). The legacy
reader (``mode="legacy"``) is first-match by design and has no precedence.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Optional

from ..model import Group, Rule

__all__ = [
    "ALLOW_BIT",
    "LINE_MASK",
    "PRIORITY_SHIFT",
    "Row",
    "index_html_folder",
    "index_html_rows",
    "rows_of",
    "rule_key",
    "rule_rank",
]

Row = tuple[int, str]
"""One allow/disallow rule as the matcher takes it: (precedence key, normalised pattern)."""

PRIORITY_SHIFT: Final = 33
"""``key >> PRIORITY_SHIFT`` is the rule's priority: its pattern's length in octets."""
ALLOW_BIT: Final = 1 << 32
"""Set in the key of an allow rule."""
LINE_MASK: Final = ALLOW_BIT - 1
"""``LINE_MASK - (key & LINE_MASK)`` is the rule's line number."""
ALLOW_BASE: Final = ALLOW_BIT | LINE_MASK
"""``ALLOW_BASE - line`` is the low part of an allow's key (``LINE_MASK - line`` of a
disallow's): readers that inline :func:`rule_key` in a hot loop use it."""
_LOW_MASK: Final = (1 << PRIORITY_SHIFT) - 1  # everything but the priority


def rule_key(allow: bool, priority: int, line: int) -> int:
    """The precedence key of a rule: larger wins.

    >>> rule_key(True, 2, 7) > rule_key(False, 2, 3) > rule_key(True, 1, 1)
    True
    """
    return (priority << PRIORITY_SHIFT) | ((ALLOW_BASE if allow else LINE_MASK) - line)


def rule_rank(rule: Rule) -> int:
    """The precedence key of a parsed :class:`~robotsrules.model.Rule` (its pattern as
    normalised for matching)."""
    return rule_key(rule.directive == "allow", len(rule.pattern), rule.line)


def rows_of(groups: Iterable[Group]) -> list[Row]:
    """The rules of ``groups`` as matcher rows (rules with an empty pattern left out: it
    matches everything with priority 0, which never decides)."""
    return [(rule_rank(rule), rule.pattern)
            for group in groups for rule in group.rules if rule.pattern]


def index_html_folder(pattern: str) -> Optional[str]:
    """The directory (``/d/``) that Google's index.html rule also allows for an allow
    rule with this normalised ``pattern``, or ``None`` when the rule does not apply."""
    slash = pattern.rfind("/")
    if slash >= 0 and pattern.startswith("/index.htm", slash):
        return pattern[: slash + 1]
    return None


def index_html_rows(keyed: Iterable[Row]) -> list[Row]:
    """The extra rows Google's index.html rule adds to ``keyed``: for each allow
    ``/d/index.htm*``, a rule ``/d/$`` with its own priority, the same line and allow bit."""
    return [
        ((slash + 2) << PRIORITY_SHIFT | (key & _LOW_MASK), pattern[: slash + 1] + "$")
        for key, pattern in keyed
        if key & ALLOW_BIT
        and "/index.htm" in pattern
        and pattern.startswith("/index.htm", slash := pattern.rfind("/"))
    ]
