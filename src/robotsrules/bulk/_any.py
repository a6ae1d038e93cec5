"""The any-agent answer: is any of several agents disallowed, and which one first.

One fold, :func:`first_disallowed`, makes every any-agent answer: from the verdict rows of
:func:`any_agent`, from the rules directly (:func:`any_verdict`), for a site without a
robots row (:func:`missing_any`), and in datatrove's filter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Optional, Union

import pyarrow as pa

from ..errors import InvalidURL
from ..robotstxt import RobotsTxt
from ._rows import Row, check_agents
from ._schemas import ANY_AGENT_SCHEMA, INVALID_URL, NO_ROBOTS

__all__ = ["ALLOWED", "AnyColumns", "AnyRow", "any_agent", "any_verdict", "first_disallowed",
           "missing_any"]

AnyRow = tuple[Optional[bool], Optional[str], Optional[int], str]
"""(disallowed, first disallowed agent, its line, its reason): one any-agent answer."""

ALLOWED = "allowed"
"""Reason of an any-agent row whose agents are all allowed."""


def first_disallowed(answers: Iterable[tuple[str, Row]]) -> AnyRow:
    """The any-agent answer from ``(agent, (allowed, line, reason))`` pairs in the agents'
    order: the first disallowed agent with its line and reason; else, when some verdict is
    unknown (``None``), unknown with the first such reason; else allowed. The pairs are
    read only up to the first disallowed one (they may be made lazily)."""
    unknown: Optional[str] = None
    for agent, (allowed, line, reason) in answers:
        if allowed is False:
            return True, agent, line, reason
        if allowed is None and unknown is None:
            unknown = reason
    if unknown is not None:
        return None, None, None, unknown
    return False, None, None, ALLOWED


def missing_any(verdict: Optional[bool], agents: Sequence[str]) -> AnyRow:
    """The any-agent answer for a site without a robots row, each agent's verdict being
    ``verdict`` (from :func:`~robotsrules.bulk._schemas.missing_verdict`) with reason
    ``no-robots``."""
    return first_disallowed((agent, (verdict, None, NO_ROBOTS)) for agent in agents)


def any_verdict(robots: RobotsTxt, url: Any, agents: Sequence[str]) -> AnyRow:
    """The any-agent answer for ``url`` under ``robots`` (what :func:`any_agent` folds from
    the per-agent verdicts), asking each distinct set of compiled rules once: agents that no
    group names share the ``*`` rules, so 15 AI tokens often cost one or two checks."""
    if not isinstance(url, str):
        return None, None, None, INVALID_URL

    def answers() -> Iterator[tuple[str, Row]]:
        seen = set()
        for agent in agents:
            rules = robots.for_agent(agent)
            if id(rules) in seen:
                continue
            seen.add(id(rules))
            try:
                if rules.allowed(url):
                    yield agent, (True, None, ALLOWED)
                    continue
                verdict = rules.explain(url)
            except InvalidURL:
                yield agent, (None, None, INVALID_URL)
                return
            rule = verdict.rule
            yield agent, (verdict.allowed, None if rule is None else rule.line, verdict.reason)

    return first_disallowed(answers())


class AnyColumns:
    """Column builders of :data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`."""

    __slots__ = ("columns",)

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {name: [] for name in ANY_AGENT_SCHEMA.names}

    def add(self, url: Any, origin: Optional[str], row: AnyRow) -> None:
        """One URL's row."""
        columns = self.columns
        columns["url"].append(url if isinstance(url, str) or url is None else str(url))
        columns["disallowed"].append(row[0])
        columns["agent"].append(row[1])
        columns["line"].append(row[2])
        columns["reason"].append(row[3])
        columns["origin"].append(origin)

    def __len__(self) -> int:
        return len(self.columns["url"])

    def batch(self) -> pa.RecordBatch:
        """The rows so far as one batch."""
        return pa.RecordBatch.from_pydict(self.columns, schema=ANY_AGENT_SCHEMA)


def any_agent(
    batches: Iterable[pa.RecordBatch], agents: Union[str, Sequence[str]]
) -> Iterator[pa.RecordBatch]:
    """One row per URL (:data:`~robotsrules.bulk.ANY_AGENT_SCHEMA`) from verdict batches
    that hold, for each URL, one row per agent in the order of ``agents``, one after the
    other (what :class:`~robotsrules.bulk._judge.Judge`, :func:`~robotsrules.bulk.verdicts` and
    :func:`~robotsrules.bulk._judge.judge_sorted` write). A URL's rows may be split across
    batches; rows out of that order raise ``ValueError``.

    >>> import pyarrow as pa
    >>> from robotsrules.bulk import verdicts
    >>> robots = pa.table({"url": ["https://example.com/robots.txt"],
    ...                    "body": [b"User-agent: CCBot\\nDisallow: /a"]})
    >>> urls = pa.table({"url": ["https://example.com/a", "https://example.com/b"]})
    >>> agents = ["GPTBot", "CCBot"]
    >>> [(r["disallowed"], r["agent"], r["line"]) for b in any_agent(
    ...     verdicts(robots, urls, agents), agents) for r in b.to_pylist()]
    [(True, 'CCBot', 2), (False, None, None)]
    """
    names = check_agents(agents)
    size = len(names)
    carry: list[tuple[Any, ...]] = []
    for batch in batches:
        columns = [batch.column(n).to_pylist()
                   for n in ("url", "agent", "allowed", "line", "reason", "origin")]
        rows = carry + list(zip(*columns))
        whole = len(rows) - len(rows) % size
        carry = rows[whole:]
        out = AnyColumns()
        for start in range(0, whole, size):
            group = rows[start:start + size]
            url = group[0][0]
            for name, row in zip(names, group):
                if row[1] != name or row[0] != url:
                    raise ValueError(
                        f"verdict rows out of order at {row[0]!r} / {row[1]!r}: expected "
                        f"{url!r} / {name!r} (one row per agent per URL, agents in order)")
            out.add(url, group[0][5],
                    first_disallowed((row[1], (row[2], row[3], row[4])) for row in group))
        if len(out):
            yield out.batch()
    if carry:
        raise ValueError(f"{len(carry)} verdict rows left over: not one row per agent per URL")
