"""What changes between two versions of a robots.txt: the (agent, URL) verdicts that flip.

Without a URL list, the URLs compared are derived from both files: ``/`` and, for every
rule, a path it matches (its pattern with ``*`` read as ``x`` and a final ``$`` dropped),
that path with a query after it (``?x``, or ``x`` when it has one: only a pattern without
a final ``$`` matches it) and the pattern's literal prefix. Without agents, every token
either file names is compared, plus ``*`` (any crawler that no group names); values that
are not product tokens (legacy mode keeps whole values such as ``MJ12bot``) are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Optional

from ._rules._agents import agent_tokens
from .errors import InvalidAgent
from .model import Verdict
from .robotstxt import RobotsTxt

__all__ = ["Change", "diff", "sample_urls"]


class Change(NamedTuple):
    """One (agent, URL) whose verdict differs between the old and the new file."""

    agent: str
    url: str
    old: Verdict
    new: Verdict


def sample_urls(*files: RobotsTxt) -> list[str]:
    """Paths that exercise every rule of ``files`` (see the module docstring)."""
    paths = {"/"}
    for robots in files:
        for group in robots.groups:
            for rule in group.rules:
                pattern = rule.pattern
                if not pattern or pattern[0] not in "/*":
                    continue
                concrete = pattern[:-1] if pattern.endswith("$") else pattern
                concrete = concrete.replace("*", "x")
                concrete = concrete if concrete.startswith("/") else "/" + concrete
                # and something after the pattern's end: where "/*.pdf" and "/*.pdf$"
                # part ("/x.pdf?x": only the first matches it)
                paths.update((concrete, concrete + ("x" if "?" in concrete else "?x")))
                prefix = pattern.split("*", 1)[0].rstrip("$")
                if prefix.startswith("/"):
                    paths.add(prefix)
    return sorted(paths)


def _agents(*files: RobotsTxt) -> list[str]:
    names = set()
    for robots in files:
        for name in robots.agents:
            try:
                agent_tokens(name)
            except InvalidAgent:  # a legacy-mode record value such as "mj12bot/1.0 (+x)"
                continue
            names.add(name)
    return [*sorted(names - {"*"}), "*"]


def diff(
    old: RobotsTxt,
    new: RobotsTxt,
    urls: Optional[Iterable[str]] = None,
    agents: Optional[Sequence[str]] = None,
) -> list[Change]:
    """The verdicts that change from ``old`` to ``new``, agent by agent, URL by URL."""
    url_list = list(urls) if urls is not None else sample_urls(old, new)
    changes = []
    for agent in agents or _agents(old, new):
        before, after = old.for_agent(agent), new.for_agent(agent)
        for url in url_list:
            was, now = before.explain(url), after.explain(url)
            if was.allowed != now.allowed:
                changes.append(Change(agent, url, was, now))
    return changes
