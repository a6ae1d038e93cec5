"""Opt-out summaries by crawler category: which kinds of crawlers a robots.txt turns away.

:func:`crawler_verdicts` says, for a parsed file, whether each crawler of the registry may
fetch a URL and which group decides. :func:`by_category` asks :meth:`RobotsTxt.stance` for
every token of the crawler registry (:mod:`robotsrules._tables._crawlers`) and counts, per category,
the tokens fully blocked, partly blocked and allowed. :func:`warnings` points out the
opt-out mistakes that need the registry to be seen; each is a lint code (the linter reports
them too, ``robotsrules lint``):


* R210 ``catch-all-blocks-retrieval``: a file blocks training crawlers by name and its
  ``*`` group disallows everything, so search and retrieval crawlers that no group names are
  turned away together with them (often not meant: it also removes the site from AI search
  answers and search engines; a file with only ``User-agent: *`` / ``Disallow: /`` means to
  block everyone and gets no warning);
* R211 ``control-token-crawl-delay``: a usage-control token (``Google-Extended``,
  ``Applebot-Extended``) given a ``Crawl-delay``/``Request-rate``: no request ever carries
  it, so the value does nothing;
* R212 ``control-token-shares-group``: a control token in one group with a crawler's own
  token (``Googlebot``): the group's disallow rules stop that crawler's fetching too;
* R213 ``group-cannot-stop-agent``: a group that disallows paths names an agent whose
  operator states robots.txt does not bind it (``ChatGPT-User``, ``Perplexity-User``,
  ``Google-Agent``): the rules may not stop it.

Stances are computed once per named token and once for all the tokens no group names (they
all read the ``*`` groups), so a file costs a handful of stances, not one per registry entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, NamedTuple, Optional

from ._rules._stance import Stance, StanceTooComplex
from ._tables._crawlers import Crawler, categories, known_crawlers
from .model import Group, Verdict
from .robotstxt import RobotsTxt

__all__ = ["CODES", "CategorySummary", "CrawlerVerdict", "OptOutWarning", "by_category",
           "crawler_verdicts", "file_warnings", "warnings"]

CODES: dict[str, str] = {
    "R210": "catch-all-blocks-retrieval",
    "R211": "control-token-crawl-delay",
    "R212": "control-token-shares-group",
    "R213": "group-cannot-stop-agent",
}
"""The lint codes of these warnings and their names (the linter's table holds the rest)."""


class CrawlerVerdict(NamedTuple):
    """A crawler's verdict for one URL, and which group decided it."""

    crawler: Crawler
    verdict: Verdict

    @property
    def group_line(self) -> Optional[int]:
        """Line of the first group that applied (``None`` when no group applies)."""
        return self.verdict.groups[0].line if self.verdict.groups else None


class CategorySummary(NamedTuple):
    """How one category of crawlers fares under a file."""

    category: str
    blocked: tuple[str, ...]
    """Tokens for which every path is disallowed."""
    partly: tuple[str, ...]
    """Tokens for which some paths are disallowed."""
    allowed: tuple[str, ...]
    """Tokens for which nothing is disallowed."""
    named: tuple[str, ...]
    """Tokens a group names (the others get the ``*`` groups)."""
    unstoppable: tuple[str, ...] = ()
    """Names of the category robots.txt cannot stop, by their operators' word."""

    @property
    def total(self) -> int:
        """Number of tokens in the category."""
        return len(self.blocked) + len(self.partly) + len(self.allowed)

    def __str__(self) -> str:
        if not self.blocked and not self.partly:
            text = f"{self.category}: allowed ({self.total} tokens)"
        else:
            text = f"{self.category}: {len(self.blocked)} of {self.total} blocked"
            if self.partly:
                text += f", {len(self.partly)} partly"
        if self.unstoppable:
            text += f"; robots.txt cannot stop {len(self.unstoppable)}"
        return text


class OptOutWarning(NamedTuple):
    """A likely mistake in how a file opts out (see the module docstring)."""

    code: str
    """The lint code (``"R210"``)."""
    line: Optional[int]
    message: str

    @property
    def name(self) -> str:
        """The lint code's name (``"catch-all-blocks-retrieval"``)."""
        return CODES[self.code]

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message} [{self.code} {self.name}]"


class _Stances:
    """Stances by token, computed once for each named token and once for the rest; the
    file is read for them only when a stance is first asked for."""

    def __init__(self, groups: Sequence[Group], robots: Callable[[], RobotsTxt]) -> None:
        self.robots = robots
        self.named: set[str] = {t for g in groups for t in g.agents if t and t != "*"}
        self.cache: dict[str, Optional[Stance]] = {}
        self.unnamed: list[Optional[Stance]] = []

    def get(self, token: str) -> Optional[Stance]:
        """The stance of ``token`` (``None`` when the rules are too complex to decide)."""
        key = token.lower()
        if key not in self.named:
            if not self.unnamed:
                self.unnamed.append(self._compute(token))
            return self.unnamed[0]
        if key not in self.cache:
            self.cache[key] = self._compute(token)
        return self.cache[key]

    def allowed_home(self, token: str) -> bool:
        """A cheap first look: may ``token`` fetch ``/`` (then its stance is not "all")?"""
        return self.robots().allowed("/", agent=token)

    def _compute(self, token: str) -> Optional[Stance]:
        try:
            return self.robots().stance(token)
        except StanceTooComplex:
            return None


def _tokens(table: Sequence[Crawler], category: str) -> list[str]:
    """Tokens of the category, each once, registry order (entries without a token left out)."""
    found: dict[str, str] = {}
    for crawler in table:
        if crawler.token and category in (crawler.categories or (crawler.category,)):
            found.setdefault(crawler.token.lower(), crawler.token)
    return list(found.values())


def by_category(
    robots: RobotsTxt, crawlers: Optional[Sequence[Crawler]] = None
) -> list[CategorySummary]:
    """Per category (in the registry's order, empty ones left out): which tokens are
    blocked, partly blocked, allowed, named by a group, and which entries robots.txt
    cannot stop. Raises :class:`~robotsrules.StanceTooComplex` if a stance cannot be
    decided within its bound."""
    table = known_crawlers() if crawlers is None else crawlers
    stances: dict[str, Stance] = {}
    found: list[CategorySummary] = []
    listed = list(categories())
    listed += [c for crawler in table for c in crawler.categories if c not in listed]
    for category in listed:
        members = _tokens(table, category)
        if not members and not any(category in c.categories for c in table):
            continue
        for token in members:
            if token not in stances:
                stances[token] = robots.stance(token)
        found.append(CategorySummary(
            category,
            tuple(t for t in members if stances[t].kind == "all"),
            tuple(t for t in members if stances[t].kind == "some"),
            tuple(t for t in members if stances[t].kind == "none"),
            tuple(t for t in members if stances[t].scope == "specific"),
            tuple(c.label for c in table if category in c.categories
                  and c.stoppable is False and c.trigger != "control-token"),
        ))
    return found


_RETRIEVAL = ("search", "ai-search", "user-triggered")


class _Index(NamedTuple):
    """What the warnings need of a registry, computed once per registry."""

    tokens: dict[str, list[str]]  # category -> tokens
    by_token: dict[str, Crawler]  # lower-cased token -> the first entry reading it


_INDEXES: dict[int, tuple[Sequence[Crawler], _Index]] = {}


def _index(table: Sequence[Crawler]) -> _Index:
    cached = _INDEXES.get(id(table))
    if cached is not None and cached[0] is table:
        return cached[1]
    by_token: dict[str, Crawler] = {}
    for crawler in table:
        if crawler.token:
            by_token.setdefault(crawler.token.lower(), crawler)
    names = {c for crawler in table for c in crawler.categories} | {"ai-training", *_RETRIEVAL}
    index = _Index({name: _tokens(table, name) for name in names}, by_token)
    if len(_INDEXES) > 8:
        _INDEXES.clear()
    _INDEXES[id(table)] = (table, index)
    return index


def warnings(
    robots: RobotsTxt, crawlers: Optional[Sequence[Crawler]] = None
) -> list[OptOutWarning]:
    """Likely opt-out mistakes in ``robots`` (see the module docstring), file order.
    Never raises for content: a stance too complex to decide gives no warning."""
    return file_warnings(robots.groups, lambda: robots, crawlers)


def file_warnings(groups: Sequence[Group], robots: Callable[[], RobotsTxt],
                  crawlers: Optional[Sequence[Crawler]] = None) -> list[OptOutWarning]:
    """:func:`warnings` for a file's ``groups`` (the linter's), reading the file through
    ``robots`` only when a stance is needed (a file naming training crawlers)."""
    table = known_crawlers() if crawlers is None else crawlers
    index = _index(table)
    found: list[OptOutWarning] = []
    found.extend(_catch_all(index, _Stances(groups, robots)))
    for group in groups:
        found.extend(_group_warnings(group, index.by_token))
    found.sort(key=lambda w: (w.line is None, w.line or 0, w.code))
    return found


def _catch_all(index: _Index, stances: _Stances) -> list[OptOutWarning]:
    # Only when the file names training crawlers (the author opting out of AI training, not
    # of everything) can the catch-all be a mistake; tokens no group names read the '*'
    # groups and share one stance, so the check costs one stance plus the named ones.
    named = stances.named
    training = [t for t in index.tokens["ai-training"] if t.lower() in named]
    if not training:
        return []
    caught = list(dict.fromkeys(t for category in _RETRIEVAL for t in index.tokens[category]
                                if t.lower() not in named))
    if not caught or stances.allowed_home(caught[0]):
        return []  # "/" is allowed to them: the '*' group does not block every path
    stance = stances.get(caught[0])
    if stance is None or stance.kind != "all" or stance.scope != "global":
        return []
    if not any((stances.get(t) or _NONE).kind == "all" for t in training):
        return []
    lines = sorted({r.line for r in stance.lines})
    shown = ", ".join(caught[:4]) + (f" and {len(caught) - 4} more" if len(caught) > 4 else "")
    return [OptOutWarning(
        "R210", lines[0] if lines else None,
        f"the '*' group blocks every path for crawlers no group names, so {len(caught)} "
        f"search and retrieval crawlers ({shown}) are turned away together with the "
        "training crawlers; name them in a group of their own if they are welcome")]


_NONE = Stance("none", (), "none", (), (), ())


def _group_warnings(group: Group, by_token: dict[str, Crawler]) -> list[OptOutWarning]:
    found: list[OptOutWarning] = []
    pairs = [(value, token, by_token.get(token)) for value, token
             in zip(group.agent_values, group.agents) if token]
    controls = [(v, c) for v, _, c in pairs if c is not None and c.trigger == "control-token"]
    disallows = any(r.directive == "disallow" and r.pattern for r in group.rules)
    if controls:
        names = ", ".join(v for v, _ in controls)
        if group.crawl_delay is not None or group.request_rate is not None:
            found.append(OptOutWarning(
                "R211", group.line,
                f"{names} is a usage-control token, not a crawler: no request carries it, so "
                "the Crawl-delay/Request-rate of its group has no effect"))
        fetching = [v for v, _, c in pairs if c is not None and c.trigger != "control-token"
                    and set(c.categories) & set(_RETRIEVAL)]
        if fetching and disallows:
            found.append(OptOutWarning(
                "R212", group.line,
                f"{names} (a usage-control token) shares a group with {', '.join(fetching)}: "
                "its disallow rules stop those crawlers from fetching too, not only the AI "
                "use"))
    if disallows:
        for value, _, crawler in pairs:
            if crawler is not None and crawler.trigger != "control-token" and (
                    crawler.robots_txt.obeys == "no"):
                said = crawler.robots_txt
                found.append(OptOutWarning(
                    "R213", group.line,
                    f"this group's rules may not stop {value}: {crawler.operator} states "
                    f"robots.txt does not bind it ({said.statement or said.obeys}; "
                    f"{said.source}, checked {said.checked})"))
    return found


def crawler_verdicts(robots: RobotsTxt, url: str = "/",
                     crawlers: Optional[Sequence[Crawler]] = None) -> list[CrawlerVerdict]:
    """For each crawler of the registry that a group can name: may it fetch ``url`` under
    ``robots``, and why."""
    table = known_crawlers() if crawlers is None else crawlers
    return [CrawlerVerdict(c, robots.explain(url, agent=c.token)) for c in table
            if c.token is not None]
