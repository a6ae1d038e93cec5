"""Stances in bulk: one row per site and agent, no URL table (issue 17)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, Union

import pyarrow as pa

from .._rules._matcher import AgentRules
from .._tables._crawlers import Crawler, crawler_for
from ..errors import InvalidArgument
from ..policy import Policy
from ..robotstxt import Mode, RobotsTxt
from ._index import RobotsIndex
from ._rows import DEFAULT_POLICY, Data, as_status, check_agents, robots_for
from ._schemas import STANCE_SCHEMA, STANCE_SORTED_COLUMNS, TOO_COMPLEX, Key

__all__ = ["GroupStance", "StanceColumns", "StanceRow", "Stoppable", "agent_stoppable",
           "check_stance_mode", "group_stance", "stance_row", "stances", "stances_sorted"]

GroupStance = tuple[Optional[str], str, Optional[str], list[int], list[str], list[str], bool]
"""(kind, reason, scope, lines, disallowed, allowed, complete): what the rules say, shared
by every agent the same group governs."""
StanceRow = tuple[Optional[str], str, Optional[str], list[int], list[str], list[str], bool,
                  Optional[bool]]
"""(kind, reason, scope, lines, disallowed, allowed, complete, stoppable): one stance answer."""


def agent_stoppable(agent: str, crawlers: Optional[Sequence[Crawler]] = None) -> Optional[bool]:
    """The ``stoppable`` column of ``agent``: :attr:`Crawler.stoppable
    <robotsrules._tables._crawlers.Crawler.stoppable>` of the crawler registry's entry for it (a
    published name or a product token, case-insensitive: the entry ``robotsrules stance
    --json`` shows), ``None`` when the registry does not list it. ``crawlers``: another
    table than the shipped registry (``--crawlers``). The one place the stance tables
    read the registry.

    >>> agent_stoppable("GPTBot"), agent_stoppable("ChatGPT-User"), agent_stoppable("QuuxBot")
    (True, False, None)
    """
    crawler = crawler_for(agent, crawlers)
    return None if crawler is None else crawler.stoppable


class Stoppable:
    """:func:`agent_stoppable` per agent, each looked up once (a registry scan)."""

    __slots__ = ("_crawlers", "_found")

    def __init__(self, crawlers: Optional[Sequence[Crawler]] = None) -> None:
        self._crawlers = crawlers
        self._found: dict[str, Optional[bool]] = {}

    def __call__(self, agent: str) -> Optional[bool]:
        if agent not in self._found:
            self._found[agent] = agent_stoppable(agent, self._crawlers)
        return self._found[agent]


def group_stance(robots: RobotsTxt, rules: AgentRules) -> GroupStance:
    """The stance of the group ``rules`` (``robots.for_agent(...)``) under ``robots``,
    without the agent's own column; never raises for data."""
    from .._rules._stance import StanceTooComplex, stance_of

    reason = robots.synthetic or "rules"
    try:
        found = stance_of(rules)
    except StanceTooComplex:
        return None, TOO_COMPLEX, rules.scope, [], [], [], False
    lines = [] if robots.synthetic else [rule.line for rule in found.lines]
    return (found.kind, reason, found.scope, lines, list(found.disallowed),
            list(found.allowed), found.complete)


def stance_row(robots: RobotsTxt, agent: str,
               crawlers: Optional[Sequence[Crawler]] = None) -> StanceRow:
    """The stance of ``agent`` under ``robots`` (from :func:`~robotsrules.bulk._rows.robots_for`)
    as a row of :data:`~robotsrules.bulk.STANCE_SCHEMA` (without site and agent), its
    ``stoppable`` from the crawler registry (:func:`agent_stoppable`); never raises for
    data."""
    return (*group_stance(robots, robots.for_agent(agent)),
            agent_stoppable(agent, crawlers))


def check_stance_mode(mode: Mode) -> None:
    """Stances need a longest-match mode; legacy mode raises
    :class:`~robotsrules.InvalidArgument` (the caller's choice)."""
    if mode == "legacy":
        raise InvalidArgument("stances need mode 'google' or 'rfc' (legacy mode is "
                              "first-match)")


class StanceColumns:
    """Column builders of :data:`~robotsrules.bulk.STANCE_SCHEMA`; ``stoppable`` reads the
    ``stoppable`` column of each agent (a :class:`Stoppable`)."""

    __slots__ = ("columns", "stoppable")

    def __init__(self, stoppable: Optional[Stoppable] = None) -> None:
        self.columns: list[list[Any]] = [[] for _ in STANCE_SCHEMA.names]
        self.stoppable = Stoppable() if stoppable is None else stoppable

    def add_site(self, site: str, robots: RobotsTxt, agents: Sequence[str]) -> None:
        """One row per agent; agents that share a group share one exploration."""
        seen: dict[int, tuple[Any, GroupStance]] = {}  # the value keeps the rules alive
        for agent in agents:
            rules = robots.for_agent(agent)
            found = seen.get(id(rules))
            if found is None:
                found = seen[id(rules)] = (rules, group_stance(robots, rules))
            row = (site, agent, *found[1], self.stoppable(agent))
            for column, value in zip(self.columns, row):
                column.append(value)

    def __len__(self) -> int:
        return len(self.columns[0])

    def batch(self) -> pa.RecordBatch:
        """The rows so far as one batch; the builders start again empty."""
        batch = pa.RecordBatch.from_arrays(
            [pa.array(column, field.type) for column, field in zip(self.columns, STANCE_SCHEMA)],
            schema=STANCE_SCHEMA)
        self.columns = [[] for _ in STANCE_SCHEMA.names]
        return batch


def stances(
    robots: Union[Data, RobotsIndex],
    agents: Union[str, Sequence[str]],
    *,
    key: Key = "origin",
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    batch_size: int = 1024,
    crawlers: Optional[Sequence[Crawler]] = None,
) -> Iterator[pa.RecordBatch]:
    """Stance batches (:data:`~robotsrules.bulk.STANCE_SCHEMA`): for every site of the robots
    table and every agent, whether the site disallows all, none or some of its paths, from
    the rules alone (:meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`, row for row).

    ``robots`` is a robots table (columns ``url``, ``body``, optional ``status`` and
    ``date``; the row that governs each site is picked as for
    :func:`~robotsrules.bulk.verdicts`) or a :class:`~robotsrules.bulk.RobotsIndex` (whose
    own key then applies). Each body is parsed once for all agents; the status, when there
    is one, applies the fetch policy first (4xx: ``none``, 429/5xx: ``all``; see
    :data:`~robotsrules.bulk.STANCE_SCHEMA`). Sites come in the index's order. Each row's
    ``stoppable`` says whether robots.txt can stop the agent at all, by its operator's word
    in the crawler registry (``crawlers``: another table than the shipped one; see
    :func:`agent_stoppable`).

    >>> import pyarrow as pa
    >>> robots = pa.table({"url": ["https://a.example/robots.txt", "https://b.example/"],
    ...                    "body": [b"User-agent: GPTBot\\nDisallow: /", b""],
    ...                    "status": [200, 503]})
    >>> [(r["site"], r["agent"], r["kind"], r["reason"])
    ...  for b in stances(robots, ["GPTBot", "CCBot"]) for r in b.to_pylist()]
    [('https://a.example', 'GPTBot', 'all', 'rules'), ('https://a.example', 'CCBot', 'none', \
'rules'), ('https://b.example', 'GPTBot', 'all', 'disallow-all'), ('https://b.example', \
'CCBot', 'all', 'disallow-all')]
    """
    names = check_agents(agents)
    check_stance_mode(mode)
    index = robots if isinstance(robots, RobotsIndex) else RobotsIndex.from_arrow(robots, key)
    out = StanceColumns(Stoppable(crawlers))
    for site in index.origins():
        row = index.get(site)
        assert row is not None
        out.add_site(site, robots_for(row[0], row[1], mode=mode, policy=policy), names)
        if len(out) >= batch_size:
            yield out.batch()
    if len(out):
        yield out.batch()


def stances_sorted(
    batches: Iterable[pa.RecordBatch],
    agents: Union[str, Sequence[str]],
    *,
    mode: Mode = "google",
    policy: Policy = DEFAULT_POLICY,
    crawlers: Optional[Sequence[Crawler]] = None,
) -> Iterator[pa.RecordBatch]:
    """Stance batches from robots rows sorted by ``origin``, each site's best row first
    (the order :func:`~robotsrules.bulk._judge.judge_sorted` expects; columns
    :data:`~robotsrules.bulk._schemas.STANCE_SORTED_COLUMNS`): the distributed form of
    :func:`stances` (see :mod:`robotsrules.spark`). Rows with a ``null`` origin are
    skipped."""
    names = check_agents(agents)
    check_stance_mode(mode)
    current: Optional[str] = None
    stoppable = Stoppable(crawlers)
    for batch in batches:
        out = StanceColumns(stoppable)
        columns = [batch.column(n).to_pylist() for n in STANCE_SORTED_COLUMNS]
        for origin, body, status in zip(*columns):
            if origin is None or origin == current:
                continue
            current = origin
            out.add_site(origin, robots_for(body, as_status(status), mode=mode,
                                            policy=policy), names)
        if len(out):
            yield out.batch()
