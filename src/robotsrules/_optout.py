"""Opt-out summaries by crawler category: which kinds of crawlers a robots.txt turns away.

:func:`by_category` asks :meth:`RobotsTxt.stance` for every token of the crawler table
(:mod:`robotsrules._crawlers`) and counts, per category, the tokens fully blocked, partly
blocked and allowed. :func:`warnings` points out two common mistakes:

* ``catch-all``: the ``*`` group disallows everything, so search and retrieval crawlers
  that no group names are turned away together with the training crawlers (often not
  meant: it also removes the site from AI search answers and search engines);
* ``control-token``: a usage-control token (``Google-Extended``, ``Applebot-Extended``)
  treated as a crawler: no request ever carries it, so a ``Crawl-delay`` in its group does
  nothing, and a group that names it together with a crawler's own token (``Googlebot``)
  governs that crawler's fetching too.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ._crawlers import CATEGORIES, Crawler, known_crawlers
from ._stance import Stance
from .robotstxt import RobotsTxt

__all__ = ["CategorySummary", "OptOutWarning", "by_category", "warnings"]


class CategorySummary(NamedTuple):
    """How one category of crawlers fares under a file."""

    category: str
    blocked: Tuple[str, ...]
    """Tokens for which every path is disallowed."""
    partly: Tuple[str, ...]
    """Tokens for which some paths are disallowed."""
    allowed: Tuple[str, ...]
    """Tokens for which nothing is disallowed."""
    named: Tuple[str, ...]
    """Tokens a group names (the others get the ``*`` groups)."""

    @property
    def total(self) -> int:
        """Number of tokens in the category."""
        return len(self.blocked) + len(self.partly) + len(self.allowed)

    def __str__(self) -> str:
        if not self.blocked and not self.partly:
            return f"{self.category}: allowed ({self.total} tokens)"
        text = f"{self.category}: {len(self.blocked)} of {self.total} blocked"
        if self.partly:
            text += f", {len(self.partly)} partly"
        return text


class OptOutWarning(NamedTuple):
    """A likely mistake in how a file opts out (see the module docstring)."""

    code: str
    line: Optional[int]
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message} [{self.code}]"


def _stances(robots: RobotsTxt, crawlers: Sequence[Crawler]) -> Dict[str, Stance]:
    return {c.token: robots.stance(c.token) for c in crawlers}


def by_category(
    robots: RobotsTxt, crawlers: Optional[Sequence[Crawler]] = None
) -> List[CategorySummary]:
    """Per category (in :data:`~robotsrules._crawlers.CATEGORIES` order, empty ones left
    out): which tokens are blocked, partly blocked, allowed, and named by a group."""
    table = known_crawlers() if crawlers is None else crawlers
    stances = _stances(robots, table)
    found: List[CategorySummary] = []
    for category in CATEGORIES:
        members = [c.token for c in table if c.category == category]
        if not members:
            continue
        found.append(CategorySummary(
            category,
            tuple(t for t in members if stances[t].kind == "all"),
            tuple(t for t in members if stances[t].kind == "some"),
            tuple(t for t in members if stances[t].kind == "none"),
            tuple(t for t in members if stances[t].scope == "specific"),
        ))
    return found


_RETRIEVAL = ("search", "ai-search", "user-triggered")


def warnings(
    robots: RobotsTxt, crawlers: Optional[Sequence[Crawler]] = None
) -> List[OptOutWarning]:
    """Likely opt-out mistakes in ``robots`` (see the module docstring), file order."""
    table = known_crawlers() if crawlers is None else crawlers
    category = {c.token.lower(): c.category for c in table}
    found: List[OptOutWarning] = []
    stances = _stances(robots, table)
    training_blocked = [c.token for c in table
                        if c.category == "ai-training" and stances[c.token].kind == "all"]
    caught = [c.token for c in table if c.category in _RETRIEVAL
              and stances[c.token].kind == "all" and stances[c.token].scope == "global"]
    if training_blocked and caught:
        lines = sorted({r.line for c in caught for r in stances[c].lines})
        shown = ", ".join(caught[:4]) + (f" and {len(caught) - 4} more" if len(caught) > 4 else "")
        found.append(OptOutWarning(
            "catch-all", lines[0] if lines else None,
            f"the '*' group blocks every path for crawlers no group names, so {len(caught)} "
            f"search and retrieval crawlers ({shown}) are turned away together with the "
            "training crawlers; name them in a group of their own if they are welcome"))
    for group in robots.groups:
        controls = [t for t in group.agents if category.get(t) == "usage-control"]
        if not controls:
            continue
        names = ", ".join(v for v, t in zip(group.agent_values, group.agents) if t in controls)
        if group.crawl_delay is not None or group.request_rate is not None:
            found.append(OptOutWarning(
                "control-token", group.line,
                f"{names} is a usage-control token, not a crawler: no request carries it, so "
                "the Crawl-delay/Request-rate of its group has no effect"))
        crawlers_here = [v for v, t in zip(group.agent_values, group.agents)
                         if category.get(t) in _RETRIEVAL]
        if crawlers_here and any(r.directive == "disallow" and r.pattern for r in group.rules):
            found.append(OptOutWarning(
                "control-token", group.line,
                f"{names} (a usage-control token) shares a group with {', '.join(crawlers_here)}: "
                "its disallow rules stop those crawlers from fetching too, not only the AI use"))
    found.sort(key=lambda w: (w.line is None, w.line or 0))
    return found
