"""Parsed files keyed by their body: the cache behind the engines' column functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Union

from .._rules._agents import agent_tokens
from .._tables._purposes import check_purpose
from ..policy import OK, Policy, outcome_for_status
from ..robotstxt import Mode, RobotsTxt
from ._rows import (
    DEFAULT_CACHE_SIZE,
    DEFAULT_POLICY,
    ParsedCache,
    Row,
    as_status,
    usage_of,
    verdict_of,
)
from ._schemas import INVALID_URL, NO_ROBOTS
from ._stances import GroupStance, StanceRow, Stoppable, check_stance_mode, group_stance

__all__ = ["BodyCache"]


class BodyCache:
    """Parsed files keyed by ``(body, status)``: for functions that receive the body on every
    row (SQL and DataFrame functions after a user's own join). Bounded LRU, one per worker.
    """

    __slots__ = ("_documents", "_last", "_mode", "_parsed", "_policy")

    def __init__(self, size: int = DEFAULT_CACHE_SIZE, *, mode: Mode = "google",
                 policy: Policy = DEFAULT_POLICY) -> None:
        self._parsed = ParsedCache(size, mode=mode, policy=policy)
        self._mode: Mode = mode
        self._policy = policy
        self._last: Optional[tuple[Any, RobotsTxt]] = None
        self._documents: Any = None

    def documents(self) -> Any:
        """The RSL licence documents read by this worker
        (a :class:`robotsrules._rsl.DocumentCache`, made on first use: reading one needs the
        ``rsl`` extra)."""
        if self._documents is None:
            from .._rsl import DocumentCache

            self._documents = DocumentCache()
        return self._documents

    @property
    def parses(self) -> int:
        """How many bodies were parsed so far."""
        return self._parsed.parses

    def get(self, body: Union[bytes, str, None], status: Any = None) -> RobotsTxt:
        """The rules of a ``(body, status)`` pair, parsed once while cached."""
        key = (body, as_status(status))
        last = self._last
        if last is not None and last[0] == key:  # rows of one site usually come together
            return last[1]
        robots = self._parsed.rules(key, key)  # type: ignore[arg-type]
        self._last = (key, robots)
        return robots

    def _known(self, body: Any, code: Optional[int]) -> bool:
        """Whether a row says anything: a body, or a status the policy reads without one."""
        return body is not None or (code is not None
                                    and outcome_for_status(code, self._policy) != OK)

    def rows(self, bodies: Sequence[Any], statuses: Optional[Sequence[Any]],
             urls: Sequence[Any], agents: Sequence[Any]) -> list[Row]:
        """``(allowed, line, reason)`` per row of four equally long columns.

        A row with a ``null`` body and no 4xx/5xx status, a ``null`` URL or a ``null`` agent
        gives ``(None, None, reason)``; an invalid agent raises
        :class:`~robotsrules.InvalidAgent` (it is the query's mistake, not data).
        """
        out: list[Row] = []
        checked: dict[str, bool] = {}
        if statuses is None:
            statuses = [None] * len(urls)
        for body, status, url, agent in zip(bodies, statuses, urls, agents):
            if agent is None or url is None:
                out.append((None, None, INVALID_URL if url is None else "no-agent"))
                continue
            code = as_status(status)
            if not self._known(body, code):
                out.append((None, None, NO_ROBOTS))
                continue
            if agent not in checked:
                agent_tokens(agent)
                checked[agent] = True
            out.append(verdict_of(self.get(body, code), url, agent))
        return out

    def stances(self, bodies: Sequence[Any], statuses: Optional[Sequence[Any]],
                agents: Sequence[Any]) -> list[Optional[StanceRow]]:
        """The stance row (:func:`~robotsrules.bulk._stances.stance_row`) per row of three equally
        long columns; ``None`` for a ``null`` agent, or a ``null`` body with no 4xx/5xx
        status (nothing known). An invalid agent raises :class:`~robotsrules.InvalidAgent`;
        legacy mode raises :class:`~robotsrules.InvalidArgument` (the query's mistakes)."""
        check_stance_mode(self._mode)
        out: list[Optional[StanceRow]] = []
        checked: dict[str, bool] = {}
        stoppable = Stoppable()
        # Keyed by identity; the value keeps both objects alive, so no id is reused.
        seen: dict[tuple[int, int], tuple[Any, GroupStance]] = {}
        if statuses is None:
            statuses = [None] * len(agents)
        for body, status, agent in zip(bodies, statuses, agents):
            code = as_status(status)
            if agent is None or not self._known(body, code):
                out.append(None)
                continue
            if agent not in checked:
                agent_tokens(agent)
                checked[agent] = True
            robots = self.get(body, code)
            rules = robots.for_agent(agent)
            found = seen.get((id(robots), id(rules)))
            if found is None:
                found = seen[(id(robots), id(rules))] = ((robots, rules),
                                                         group_stance(robots, rules))
            out.append((*found[1], stoppable(agent)))
        return out

    def usage(self, bodies: Sequence[Any], urls: Sequence[Any], agents: Sequence[Any],
              purposes: Sequence[Any]) -> list[Optional[bool]]:
        """The answer for ``purpose`` per row of four equally long columns (a status-less
        body: the body decides). ``None`` for a ``null`` in any column, nothing stated, or a
        URL the agent may not fetch; an invalid agent or purpose raises (the query's
        mistake)."""
        out: list[Optional[bool]] = []
        checked: dict[Any, bool] = {}
        for body, url, agent, purpose in zip(bodies, urls, agents, purposes):
            if body is None or url is None or agent is None or purpose is None:
                out.append(None)
                continue
            if (agent, purpose) not in checked:
                agent_tokens(agent)
                check_purpose(purpose)
                checked[(agent, purpose)] = True
            out.append(usage_of(self.get(body), url, agent, (purpose,))[0])
        return out
