"""The two levels read together: a site's robots.txt usage preferences and a page's signals.

For every purpose the most restrictive answer of the two levels wins
(draft-ietf-aipref-vocab "Combining Preferences"); when both say the same, the page is
named as the decider (the narrower statement). An agent that robots.txt does not allow to
fetch the URL is refused every purpose, whatever the page says (issue 33's decision: a
page's ``train-ai=y`` does not override the site's ``Disallow`` for that crawler; RFC 9309
§2.2.2 (2022-09) makes the rules a request not to access the URL at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Optional

from .._rules._usage import Usage
from .._tables._purposes import Purpose, check_purpose
from ..model import UsageLine
from ._signals import Decision, Directive, PageSignals

__all__ = ["Answer", "Combined", "combine"]


class Answer(NamedTuple):
    """One purpose's answer from both levels, and which level and statement decided it.

    ``level`` is ``"page"``, ``"robots.txt"`` or ``None`` (nothing stated anywhere; with
    ``allowed`` ``None`` and ``level`` ``"page"``: not known, the page's head was cut,
    :attr:`PageSignals.head_cut`);
    ``directive`` is the page directive that decided (page level), ``lines`` the robots.txt
    usage lines that stated the answer (robots.txt level; none when robots.txt does not
    allow the agent to fetch the URL, which refuses every purpose).
    """

    allowed: Optional[bool]
    level: Optional[str]
    directive: Optional[Directive]
    lines: tuple[UsageLine, ...] = ()

    def describe(self) -> str:
        """``refused by page: header X-Robots-Tag (header #2): noai``, or similar."""
        if self.allowed is None and self.level == "page":
            return ("not known: the page's head was cut at the size read, before its "
                    "<body> (a signal may be missing)")
        if self.allowed is None:
            return "nothing stated"
        if self.allowed is False and self.level == "robots.txt" and not self.lines:
            return "refused by robots.txt: the agent may not fetch this URL"
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
    the page is named as the decider (the narrower statement). When robots.txt does not
    allow the agent to fetch the URL (:attr:`crawl_allowed` false), every purpose is
    refused by the robots.txt level, whatever the page says.
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
        if self.usage is not None and self.usage.crawl_allowed is False:
            # The decision of issue 33: a page cannot permit what its site's robots.txt
            # forbids the agent to fetch (and a Usage without crawl states no preference).
            return Answer(False, "robots.txt", None)
        page: Decision = self.page.decide(name) if self.page is not None else (None, None)
        site = self.usage.allows(name) if self.usage is not None else None
        if page[0] is False:
            return Answer(False, "page", page[1])
        if site is False:
            return Answer(False, "robots.txt", None, self._lines(name, False))
        if self.page is not None and self.page.head_cut:
            return Answer(None, "page", None)  # not known: never "nothing stated"
        if page[0] is True:
            return Answer(True, "page", page[1])
        if site is True:
            return Answer(True, "robots.txt", None, self._lines(name, True))
        return Answer(None, None, None)

    def _lines(self, purpose: Purpose, value: bool) -> tuple[UsageLine, ...]:
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
