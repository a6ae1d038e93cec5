"""The agent options, one convention for every command.

``--agent NAME`` is repeatable everywhere, and ``--agent-category CATEGORY`` adds every
token of a crawler category of the registry (``--crawlers FILE`` extends the registry,
``--crawlers-replace`` replaces it). A command answers once per agent, in the order given,
each answer labelled with its agent when there are several; a repeated agent is answered
once. An agent that is no product token is a usage error (exit 2) before any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .._tables._crawlers import Crawler
from ..errors import InvalidAgent, RobotsError

__all__ = ["add_agent_options", "command_agents", "crawler_table", "expand_agents"]

_REPEAT = " (repeatable: one answer per agent, each labelled)"


def add_agent_options(parser: argparse.ArgumentParser, agent_help: str = "",
                      categories: bool = True) -> None:
    """``--agent`` (repeatable), and unless ``categories`` is false ``--agent-category``
    (repeatable), ``--crawlers FILE`` and ``--crawlers-replace``."""
    parser.add_argument("--agent", action="append", metavar="NAME",
                        help=(agent_help or "a crawler's product token, e.g. GPTBot") + _REPEAT)
    if not categories:
        return
    from .._tables._crawlers import registry

    shipped = registry()
    aliases: dict[str, list[str]] = {}
    for alias, category in shipped.aliases.items():
        aliases.setdefault(category, []).append(alias)
    listed = ", ".join(name + (f" ({', '.join(aliases[name])})" if name in aliases else "")
                       for name in shipped.categories)
    parser.add_argument("--agent-category", action="append", metavar="CATEGORY",
                        help=f"add every token of a crawler category of the registry: {listed} "
                             "(repeatable)")
    parser.add_argument("--crawlers", metavar="FILE",
                        help="extend the crawler registry from a JSON file (the shape of "
                             "robotsrules/data/crawlers.json, checked against "
                             "crawlers.schema.json)")
    parser.add_argument("--crawlers-replace", action="store_true",
                        help="use only the --crawlers file, not the shipped table")


def crawler_table(args: argparse.Namespace) -> tuple[Crawler, ...]:
    """The crawler table the command line asked for (shipped, extended or replaced)."""
    from .._tables._crawlers import known_crawlers

    table = getattr(args, "crawlers", None)
    replace = bool(getattr(args, "crawlers_replace", False))
    if replace and table is None:
        raise RobotsError("--crawlers-replace needs --crawlers FILE")
    return known_crawlers(table, replace=replace)


def expand_agents(args: argparse.Namespace, more: Sequence[str] = ()) -> list[str]:
    """``--agent`` values, then ``more`` (names the command read elsewhere), then the tokens
    of every ``--agent-category``, without repeats."""
    from .._tables._crawlers import category_tokens

    given = getattr(args, "agent", None)
    agents: list[str] = [given] if isinstance(given, str) else list(given or [])
    agents.extend(more)
    categories = getattr(args, "agent_category", None)
    if categories:
        agents.extend(category_tokens(categories, crawler_table(args)))
    elif getattr(args, "crawlers", None) is not None:
        crawler_table(args)  # a --crawlers file is read (and refused if bad) even unused
    return list(dict.fromkeys(agents))


def command_agents(args: argparse.Namespace, more: Sequence[str] = ()) -> list[str]:
    """:func:`expand_agents` for a command that needs at least one agent: each checked as a
    product token, a ``RobotsError`` (exit 2, one line) when none is given."""
    agents = expand_agents(args, more)
    if not agents:
        raise RobotsError("no agent given: pass --agent NAME or --agent-category CATEGORY")
    check_agents(agents, args)
    return agents


def check_agents(agents: list[str], args: argparse.Namespace) -> None:
    """Each agent checked as a product token (a caller mistake: said before any work)."""
    from .._rules._agents import agent_tokens

    for agent in agents:
        try:
            agent_tokens(agent)
        except InvalidAgent as error:
            raise InvalidAgent(f"{error}{_published_hint(agent, args)}") from None


def _published_hint(agent: str, args: argparse.Namespace) -> str:
    """For a name the registry lists as published but robots.txt reads otherwise."""
    from .._tables._crawlers import crawler_for

    try:
        crawler = crawler_for(agent, crawler_table(args))
    except RobotsError:
        return ""
    if crawler is None or crawler.token == agent:
        return ""
    if crawler.token is None:
        return f" ({crawler.label!r} is listed in the crawler registry: {crawler.token_note})"
    return (f" ({crawler.label!r} is listed in the crawler registry: robots.txt reads it as "
            f"{crawler.token!r}; pass --agent {crawler.token})")
