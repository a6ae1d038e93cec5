"""The two levels read together: a site's robots.txt usage preferences and a page's signals.

For every purpose the most restrictive answer of the two levels wins
(draft-ietf-aipref-vocab "Combining Preferences"); when both say the same, the page is
named as the decider (the narrower statement).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional, Tuple

from .._purposes import Purpose, check_purpose
from .._usage import Usage
from ..model import UsageLine
from ._signals import Decision, Directive, PageSignals

__all__ = ["Answer", "Combined", "combine"]


class Answer(NamedTuple):
    """One purpose's answer from both levels, and which level and statement decided it.

    ``level`` is ``"page"``, ``"robots.txt"`` or ``None`` (nothing stated anywhere);
    ``directive`` is the page directive that decided (page level), ``lines`` the robots.txt
    usage lines that stated the answer (robots.txt level).
    """

    allowed: Optional[bool]
    level: Optional[str]
    directive: Optional[Directive]
    lines: Tuple[UsageLine, ...] = ()

    def describe(self) -> str:
        """``refused by page: header X-Robots-Tag (header #2): noai``, or similar."""
        if self.allowed is None:
            return "nothing stated"
        verb = "allowed" if self.allowed else "refused"
        if self.level == "page" and self.directive is not None:
            return f"{verb} by page: {self.directive.describe()}"
        shown = "; ".join(f"line {u.line}: {u.directive}: {u.value}" for u in self.lines)
        return f"{verb} by robots.txt" + (f" {shown}" if shown else "")


@dataclass(frozen=True)
class Combined:
    """The site's usage preferences (robots.txt) and a page's signals, read together.

    Returned by :func:`combine`. For every purpose the most restrictive answer of the two
    levels wins (draft-ietf-aipref-vocab "Combining Preferences"); when both say the same,
    the page is named as the decider (the narrower statement).
    """

    usage: Optional[Usage]
    page: Optional[PageSignals]

    @property
    def crawl_allowed(self) -> Optional[bool]:
        """The site level's crawl verdict (``Usage.crawl_allowed``), ``None`` without one."""
        return None if self.usage is None else self.usage.crawl_allowed

    def allows(self, purpose: str) -> Optional[bool]:
        """``True``, ``False`` or ``None`` for ``purpose``, from both levels."""
        return self.decide(purpose).allowed

    def decide(self, purpose: str) -> Answer:
        """The answer for ``purpose`` with the level and statement that decided it."""
        name = check_purpose(purpose)
        page: Decision = self.page.decide(name) if self.page is not None else (None, None)
        site = self.usage.allows(name) if self.usage is not None else None
        if page[0] is False:
            return Answer(False, "page", page[1])
        if site is False:
            return Answer(False, "robots.txt", None, self._lines(name, False))
        if page[0] is True:
            return Answer(True, "page", page[1])
        if site is True:
            return Answer(True, "robots.txt", None, self._lines(name, True))
        return Answer(None, None, None)

    def _lines(self, purpose: Purpose, value: bool) -> Tuple[UsageLine, ...]:
        assert self.usage is not None
        lines = self.usage.deciding(purpose)
        stating = tuple(u for u in lines if any(v is value for _, v in u.statements))
        return stating or lines


def combine(usage: Optional[Usage], page_signals: Optional[PageSignals]) -> Combined:
    """Read a site's usage preferences and a page's signals together.

    ``usage`` is what :meth:`RobotsTxt.usage` returned for the page's URL (``None`` when
    there is no robots.txt to ask), ``page_signals`` what :func:`page_signals` read::

        both = robotsrules.combine(robots.usage(url, agent="ExampleBot"), signals)
        both.allows("ai-train"), both.decide("ai-train").describe()
    """
    if page_signals is not None and not isinstance(page_signals, PageSignals):
        raise TypeError(f"page_signals must be a PageSignals, not {type(page_signals).__name__}")
    if usage is not None and not isinstance(usage, Usage):
        raise TypeError(f"usage must be a Usage (RobotsTxt.usage), not {type(usage).__name__}")
    return Combined(usage, page_signals)
