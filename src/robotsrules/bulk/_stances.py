"""Stances in bulk: one row per site and agent, no URL table (issue 17)."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import pyarrow as pa

from ..errors import InvalidArgument
from ..policy import Policy
from ..robotstxt import Mode, RobotsTxt
from ._index import RobotsIndex
from ._rows import DEFAULT_POLICY, Data, as_status, check_agents, robots_for
from ._schemas import STANCE_SCHEMA, STANCE_SORTED_COLUMNS, TOO_COMPLEX, Key

__all__ = ["StanceColumns", "StanceRow", "check_stance_mode", "stance_row", "stances",
           "stances_sorted"]

StanceRow = Tuple[Optional[str], str, Optional[str], List[int], List[str], List[str], bool]
"""(kind, reason, scope, lines, disallowed, allowed, complete): one stance answer."""


def stance_row(robots: RobotsTxt, agent: str) -> StanceRow:
    """The stance of ``agent`` under ``robots`` (from :func:`~robotsrules.bulk.robots_for`)
    as a row of :data:`~robotsrules.bulk.STANCE_SCHEMA` (without site and agent); never
    raises for data."""
    from .._stance import StanceTooComplex, stance_of

    reason = robots.synthetic or "rules"
    rules = robots.for_agent(agent)
    try:
        found = stance_of(rules)
    except StanceTooComplex:
        return None, TOO_COMPLEX, rules.scope, [], [], [], False
    lines = [] if robots.synthetic else [rule.line for rule in found.lines]
    return (found.kind, reason, found.scope, lines, list(found.disallowed),
            list(found.allowed), found.complete)


def check_stance_mode(mode: Mode) -> None:
    """Stances need a longest-match mode; legacy mode raises
    :class:`~robotsrules.InvalidArgument` (the caller's choice)."""
    if mode == "legacy":
        raise InvalidArgument("stances need mode 'google' or 'rfc' (legacy mode is "
                              "first-match)")


class StanceColumns:
    """Column builders of :data:`~robotsrules.bulk.STANCE_SCHEMA`."""

    __slots__ = ("columns",)

    def __init__(self) -> None:
        self.columns: List[List[Any]] = [[] for _ in STANCE_SCHEMA.names]

    def add_site(self, site: str, robots: RobotsTxt, agents: Sequence[str]) -> None:
        """One row per agent; agents that share a group share one exploration."""
        seen: Dict[int, Tuple[Any, StanceRow]] = {}  # the value keeps the rules alive
        for agent in agents:
            rules = robots.for_agent(agent)
            found = seen.get(id(rules))
            if found is None:
                found = seen[id(rules)] = (rules, stance_row(robots, agent))
            row = found[1]
            for column, value in zip(self.columns, (site, agent, *row)):
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
) -> Iterator[pa.RecordBatch]:
    """Stance batches (:data:`~robotsrules.bulk.STANCE_SCHEMA`): for every site of the robots
    table and every agent, whether the site disallows all, none or some of its paths, from
    the rules alone (:meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`, row for row).

    ``robots`` is a robots table (columns ``url``, ``body``, optional ``status`` and
    ``date``; the row that governs each site is picked as for
    :func:`~robotsrules.bulk.verdicts`) or a :class:`~robotsrules.bulk.RobotsIndex` (whose
    own key then applies). Each body is parsed once for all agents; the status, when there
    is one, applies the fetch policy first (4xx: ``none``, 429/5xx: ``all``; see
    :data:`~robotsrules.bulk.STANCE_SCHEMA`). Sites come in the index's order.

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
    out = StanceColumns()
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
) -> Iterator[pa.RecordBatch]:
    """Stance batches from robots rows sorted by ``origin``, each site's best row first
    (the order :func:`~robotsrules.bulk.judge_sorted` expects; columns
    :data:`~robotsrules.bulk.STANCE_SORTED_COLUMNS`): the distributed form of
    :func:`stances` (see :mod:`robotsrules.spark`). Rows with a ``null`` origin are
    skipped."""
    names = check_agents(agents)
    check_stance_mode(mode)
    current: Optional[str] = None
    for batch in batches:
        out = StanceColumns()
        columns = [batch.column(n).to_pylist() for n in STANCE_SORTED_COLUMNS]
        for origin, body, status in zip(*columns):
            if origin is None or origin == current:
                continue
            current = origin
            out.add_site(origin, robots_for(body, as_status(status), mode=mode,
                                            policy=policy), names)
        if len(out):
            yield out.batch()
