"""``robotsrules stance``: has this site opted out of these crawlers? (all / none / some).

Decided from the rules alone (:meth:`RobotsTxt.stance`), exactly as ``check`` would answer
for every URL. Exit codes: 0 nothing is disallowed for any agent, 1 something is (some or
all paths), 2 usage or I/O error (a message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, TextIO, Tuple, cast

from .._crawlers import Crawler
from .._stance import Stance
from ..errors import InvalidAgent, RobotsError

__all__ = [
    "add_agent_options",
    "add_command",
    "by_category_cmd",
    "command_agents",
    "crawler_json",
    "crawler_table",
    "expand_agents",
    "stance_json",
]

_SAYS = {
    "all": "every path disallowed (robots.txt aside)",
    "none": "nothing disallowed",
    "some": "some paths disallowed",
}


def stance_json(agent: str, stance: Stance) -> Dict[str, Any]:
    """One agent's stance as a JSON-ready dict (the ``--json`` form)."""
    return {
        "agent": agent,
        "kind": stance.kind,
        "scope": stance.scope,
        "complete": stance.complete,
        "lines": [
            {"line": rule.line, "directive": rule.directive, "value": rule.value,
             "pattern": rule.pattern}
            for rule in stance.lines
        ],
        "disallowed": list(stance.disallowed),
        "allowed": list(stance.allowed),
    }


def crawler_json(crawler: Crawler) -> Dict[str, Any]:
    """One registry entry as a JSON object (``agents --json``, ``stance --json``)."""
    said = crawler.robots_txt
    return {
        "name": crawler.label, "token": crawler.token, "operator": crawler.operator,
        "purpose": crawler.purpose, "categories": list(crawler.categories),
        "trigger": crawler.trigger, "stoppable": crawler.stoppable,
        "robots_txt": {"obeys": said.obeys, "statement": said.statement,
                       "source": said.source, "checked": said.checked, "stated": said.stated,
                       "via": said.via},
        "verify": {"ip_ranges": list(crawler.verify.ip_ranges),
                   "reverse_dns": list(crawler.verify.reverse_dns),
                   "web_bot_auth": crawler.verify.web_bot_auth},
        "source": crawler.source,
    }


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    """``--agent-category`` (repeatable) and ``--crawlers FILE``: expand a crawler category
    of the table (:mod:`robotsrules._crawlers`) to its tokens, next to ``--agent``."""
    from .._crawlers import registry

    shipped = registry()
    aliases: Dict[str, List[str]] = {}
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


def crawler_table(args: argparse.Namespace) -> Tuple[Crawler, ...]:
    """The crawler table the command line asked for (shipped, extended or replaced)."""
    from .._crawlers import known_crawlers

    table = getattr(args, "crawlers", None)
    replace = bool(getattr(args, "crawlers_replace", False))
    if replace and table is None:
        raise RobotsError("--crawlers-replace needs --crawlers FILE")
    return known_crawlers(table, replace=replace)


def expand_agents(args: argparse.Namespace) -> List[str]:
    """``--agent`` values then the tokens of every ``--agent-category``, without repeats."""
    from .._crawlers import category_tokens

    given = getattr(args, "agent", None)
    agents: List[str] = [given] if isinstance(given, str) else list(given or [])
    categories = getattr(args, "agent_category", None)
    if categories:
        agents.extend(category_tokens(categories, crawler_table(args)))
    return list(dict.fromkeys(agents))


def command_agents(args: argparse.Namespace) -> List[str]:
    """:func:`expand_agents` for a command that needs at least one agent: each checked as a
    product token, a ``RobotsError`` (exit 2, one line) when none is given."""
    from .._agents import agent_tokens

    agents = expand_agents(args)
    if not agents:
        raise RobotsError("no agent given: pass --agent NAME or --agent-category CATEGORY")
    for agent in agents:  # a caller mistake: say so before any work
        try:
            agent_tokens(agent)
        except InvalidAgent as error:
            raise InvalidAgent(f"{error}{_published_hint(agent, args)}") from None
    return agents


def _published_hint(agent: str, args: argparse.Namespace) -> str:
    """For a name the registry lists as published but robots.txt reads otherwise."""
    from .._crawlers import crawler_for

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


def _stance_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .._terminal import visible
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED, fail, load

    table = getattr(args, "run_table", None)
    if table is not None and (getattr(args, "robots", None) or getattr(args, "robots_warc", None)
                              or getattr(args, "out", None)):
        return int(table(args, out))  # the bulk form: one row per site and agent
    if args.source is None:
        return fail("stance needs FILE_OR_URL, or --robots/--robots-warc with --out")
    agents = command_agents(args)  # a name that is no product token: exit 2, with a hint
    robots, origin = load(args.source, args)
    stances = [(agent, robots.stance(agent)) for agent in agents]
    code = EXIT_DISALLOWED if any(s.kind != "none" for _, s in stances) else EXIT_ALLOWED
    from .._crawlers import crawler_for

    table = crawler_table(args)
    known = {agent: crawler_for(agent, table) for agent in agents}
    if args.json:
        report = {"source": origin, "stances": [
            {**stance_json(a, s), "crawler": None if known[a] is None
             else crawler_json(cast(Crawler, known[a]))} for a, s in stances]}
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return code
    out.write(f"{origin}\n")
    width = max(len(agent) for agent in agents)
    for agent, stance in stances:
        scope = {"specific": "its own group", "global": "the '*' group",
                 "none": "no group"}.get(stance.scope, stance.scope)
        out.write(f"{agent:<{width}}  {stance.kind:<4}  {_SAYS[stance.kind]} ({scope})\n")
        for rule in stance.lines:
            out.write(f"{'':<{width}}    {rule}\n")
        if stance.kind == "some":
            out.write(f"{'':<{width}}    e.g. disallowed: {' '.join(stance.disallowed)}"
                      f"; allowed: {' '.join(stance.allowed)}\n")
        if not stance.complete:
            out.write(f"{'':<{width}}    (lines incomplete: the rules are too complex to "
                      "list every deciding line)\n")
        crawler = known[agent]
        if crawler is not None and crawler.stoppable is not True:
            out.write(f"{'':<{width}}    note: {visible(crawler.robots_txt_note())}\n")
    return code


def add_command(commands: Any) -> argparse.ArgumentParser:
    """Add ``stance`` to the CLI's subcommands; returns its parser."""
    from ._common import fetch_options, mode_option

    stance: argparse.ArgumentParser = commands.add_parser(
        "stance", help="does the file disallow all, none or some paths for each agent?",
        description="For each AGENT, whether SOURCE (a file, '-' or a URL) disallows every "
                    "path ('all'), none ('none') or some ('some'), decided from the rules "
                    "alone and exactly as 'check' would answer for every URL; with the lines "
                    "that decide and example paths.",
        epilog="Exit codes: 0 nothing disallowed for any agent, 1 some path disallowed for "
               "some agent, 2 usage or I/O error. The table form (--robots or --robots-warc "
               "with --out): 0 done, 2 usage or I/O error, 130/143 interrupted.")
    stance.add_argument("source", metavar="FILE_OR_URL", nargs="?",
                        help="a robots.txt file, '-' or a URL (or use --robots for a table)")
    stance.add_argument("--agent", action="extend", nargs="+", metavar="NAME",
                        help="product token(s) to ask about (repeatable)")
    add_agent_options(stance)
    stance.add_argument("--json", action="store_true", help="print JSON")
    mode_option(stance)
    fetch_options(stance)
    stance.set_defaults(run=_stance_cmd)
    return stance


def by_category_cmd(args: argparse.Namespace, out: TextIO) -> int:
    """``agents --by-category``: per crawler category, how many tokens are blocked; and the
    likely opt-out mistakes (:mod:`robotsrules._optout`)."""
    from .._optout import by_category, warnings
    from ._common import EXIT_ALLOWED, load

    wanted = set(expand_agents(args))  # --agent-category: only those categories
    robots, origin = load(args.source, args)
    table = crawler_table(args)
    summary = [s for s in by_category(robots, table) if not wanted or wanted & {
        c.token for c in table if c.category == s.category}]
    found = warnings(robots, table)
    if args.json:
        report = {
            "source": origin,
            "categories": [
                {"category": s.category, "total": s.total, "blocked": list(s.blocked),
                 "partly": list(s.partly), "allowed": list(s.allowed), "named": list(s.named)}
                for s in summary
            ],
            "warnings": [w._asdict() for w in found],
        }
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
    out.write(f"{origin}\n")
    for item in summary:
        out.write(f"  {item}\n")
    for warning in found:
        out.write(f"warning: {warning}\n")
    return EXIT_ALLOWED
