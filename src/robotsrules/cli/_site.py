"""``robotsrules fetch``, ``agents`` and ``diff``: one site's robots.txt as its owner sees it.

``fetch`` shows what fetching a robots.txt gives (once per agent: a server may answer each
User-Agent differently); ``agents`` lists the groups and, for the crawler registry, what
the file says to each crawler; ``diff`` lists the (agent, URL) verdicts that change between
two versions. Exit codes: ``fetch``, ``agents`` 0 done, 2 usage or I/O error; ``diff`` 0 no
change, 1 some verdict changes, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Optional, TextIO

from .._tables._words import changes_json, diff_summary
from .._terminal import visible
from ..errors import RobotsError
from ._agent_options import add_agent_options, check_agents, crawler_table, expand_agents
from ._common import (
    EXIT_ALLOWED,
    EXIT_DISALLOWED,
    EXIT_ERROR,
    outcome_meaning,
    plural,
    verdict_json,
    when,
    why,
)
from ._input import MAX_LIST_URLS, load, load_source, robots_source, url_lines
from ._options import (
    add_command,
    color_option,
    fetch_options,
    intermixed,
    json_option,
    mode_option,
    signer,
    source_url,
    user_agent,
)
from ._output import fail

__all__ = ["add_commands", "changes_table"]


def _fetch(args: argparse.Namespace, out: TextIO) -> int:
    from .._fetch._fetcher import fetch

    source_url(args.url)
    agents = expand_agents(args)
    check_agents(agents, args)
    reports = []
    for number, agent in enumerate(agents or [None]):
        result = fetch(args.url, user_agent=user_agent(args, agent), timeout=args.timeout,
                       sign=signer(args))
        if args.json:
            reports.append(_fetch_json(result, agent))
            continue
        if len(agents) > 1:
            out.write(f"{'' if number == 0 else chr(10)}agent       {visible(str(agent))}\n")
        _fetch_text(result, out)
    if args.json:
        out.write(json.dumps(reports if len(reports) > 1 else reports[0], indent=2,
                             ensure_ascii=False) + "\n")
    return EXIT_ALLOWED


def _fetch_json(result: Any, agent: Optional[str]) -> dict[str, Any]:
    robots = result.robots
    report = {
        "url": result.url, "outcome": result.outcome, "status": result.status,
        "error": result.error, "final_url": result.final_url,
        "redirects": list(result.redirects), "fetched_at": when(result.fetched_at),
        "expires_at": when(result.expires_at), "size": result.size,
        "truncated": result.truncated, "rules": robots.synthetic or "file",
        "groups": [{"line": g.line, "agents": list(g.agent_values), "rules": len(g.rules)}
                   for g in robots.groups] if robots.synthetic is None else [],
        "sitemaps": list(robots.sitemaps),
    }
    if agent is not None:
        report = {"agent": agent, **report}
    return report


def _fetch_text(result: Any, out: TextIO) -> None:
    robots = result.robots
    out.write(f"robots.txt  {visible(result.url)}\n")
    out.write(f"outcome     {result.outcome}"
              f"{'' if result.outcome == 'ok' else ' -> ' + outcome_meaning(result.outcome)}\n")
    out.write(f"status      {result.status if result.status is not None else '-'}\n")
    if result.error:
        out.write(f"error       {visible(result.error)}\n")
    for hop in result.redirects:
        out.write(f"redirect    -> {visible(hop)}\n")
    out.write(f"fetched     {when(result.fetched_at)}\n")
    out.write(f"expires     {when(result.expires_at)}\n")
    out.write(f"size        {plural(result.size, 'byte')}"
              f"{' (truncated)' if result.truncated else ''}\n")
    if robots.synthetic is not None:
        out.write(f"rules       none: {robots.synthetic.replace('-', ' ')}\n")
        return
    out.write(f"groups      {len(robots.groups)}\n")
    for group in robots.groups:
        names = visible(", ".join(group.agent_values)) or "-"
        out.write(f"  line {group.line:<5} {names}: {plural(len(group.rules), 'rule')}\n")
    for sitemap in robots.sitemaps:
        out.write(f"sitemap     {visible(sitemap)}\n")


def _agents_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .._optout import CrawlerVerdict, crawler_verdicts
    from .._tables._crawlers import registry_info, unstoppable

    robots_source(args, "agents")
    check_agents(expand_agents(args), args)
    if args.by_category:
        return _by_category(args, out)
    wanted = set(expand_agents(args))  # --agent, --agent-category: only those are listed
    table = crawler_table(args)
    loaded = load_source(args.source, args)
    robots, origin = loaded.robots, loaded.origin
    absent = robots.synthetic is not None  # no file: no group, no line to describe
    verdicts = [v for v in crawler_verdicts(robots, args.url, table)
                if not wanted or v.crawler.token in wanted]
    listed = {v.crawler.token for v in verdicts}
    for token in expand_agents(args):  # an agent the registry does not list: answered too
        if token not in listed:
            verdicts.append(CrawlerVerdict(_unlisted(token), robots.explain(args.url,
                                                                            agent=token)))
    said = [robots.usage(args.url, agent=v.crawler.token or "*") for v in verdicts]
    cannot = [c for c in unstoppable(table) if not wanted or c.token in wanted]
    info = registry_info()
    if args.json:
        report = {
            "source": origin,
            "file": "absent" if absent else "present",
            "registry": info,
            "groups": [] if absent else [
                {"line": g.line, "agents": list(g.agent_values), "tokens": list(g.agents),
                 "rules": len(g.rules)} for g in robots.groups],
            "crawlers": [{**_crawler_json(v.crawler), "url": args.url,
                          **verdict_json(v.verdict), "preferences": u.preferences}
                         for v, u in zip(verdicts, said)],
            "robots_txt_cannot_stop": [_crawler_json(c) for c in cannot],
        }
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
    out.write(f"{visible(origin)}\n\ngroups:\n")
    if absent:
        out.write(f"  (no file: {robots.synthetic.replace('-', ' ') if robots.synthetic else ''}"
                  " by the status rules, for every crawler)\n")
    for group in () if absent else robots.groups:
        names = visible(", ".join(group.agent_values)) or "(empty)"
        out.write(f"  line {group.line:<5} {names}: {plural(len(group.rules), 'rule')}\n")
    if not absent and not robots.groups:
        out.write("  (none)\n")
    out.write(f"\nknown crawlers (registry {info['version']}, compiled {info['compiled']}), may "
              f"they fetch {visible(args.url)}?\n"
              "  columns: the crawler; what this file says to its token (RFC 9309: the group\n"
              "  naming it, else '*'); the file's usage preferences for search, ai-input,\n"
              "  ai-train (yes, no, - nothing stated); the group that decides; [operator:\n"
              "  purpose] from the registry; after '!', what the operator says the crawler\n"
              "  does with robots.txt when it is bound only partly or not at all (then it\n"
              "  may not read the file as the second column does)\n")
    for item, usage in zip(verdicts, said):
        v = item.verdict
        crawler = item.crawler
        word = "allowed" if v.allowed else "disallowed"
        where = ("no file" if absent else
                 {"specific": f"its group at line {item.group_line}",
                  "global": f"'*' group at line {item.group_line}",
                  "none": "no group"}[v.scope])
        rule = f", {visible(str(v.rule))}" if v.rule is not None and not absent else ""
        prefs = " ".join(f"{ {True: 'yes', False: 'no', None: '-'}[usage.allows(p)]:<3}"
                         for p in ("search", "ai-input", "ai-train"))
        name = visible(crawler.label)  # a --crawlers file is written by someone else
        if crawler.token and crawler.token != crawler.label:
            name = f"{name} (read as {visible(crawler.token)})"
        bound = crawler.stoppable is not False and crawler.robots_txt.obeys != "partly"
        flag = "" if bound else "  ! " + visible(crawler.robots_txt_note())
        purpose = crawler.purpose if len(crawler.purpose) <= 70 else crawler.purpose[:67] + "..."
        out.write(f"  {name:<22} {word:<10} {prefs}  {where}{rule}"
                  f"  [{visible(crawler.operator)}: {visible(purpose)}]{flag}\n")
    if cannot:
        out.write("\nrobots.txt cannot stop these, by their operators' word (block them at the "
                  "server if they must be kept out):\n")
        for crawler in cannot:
            source = crawler.robots_txt.source
            out.write(f"  {visible(crawler.label):<22} {visible(crawler.robots_txt_note())}"
                      f"{f' <{visible(source)}>' if source else ''}\n")
    return EXIT_ALLOWED


def _unlisted(token: str) -> Any:
    """A registry entry for an agent the registry does not list (``agents --agent X``)."""
    from .._tables._crawlers import Crawler

    return Crawler(token=token, operator="unknown", purpose="not in the crawler registry",
                   source="")


def _crawler_json(crawler: Any) -> dict[str, Any]:
    from ._stance import crawler_json

    return crawler_json(crawler)


def _by_category(args: argparse.Namespace, out: TextIO) -> int:
    """``agents --by-category``: per crawler category, how many tokens are blocked; and the
    likely opt-out mistakes (:mod:`robotsrules._optout`)."""
    from .._optout import by_category, warnings

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
    out.write(f"{visible(origin)}\n")
    for item in summary:
        out.write(f"  {visible(str(item))}\n")
    for warning in found:
        out.write(f"warning: {visible(str(warning))}\n")
    return EXIT_ALLOWED


MAX_DIFF_OCTETS = 64 << 20
"""Octets of URLs ``diff --urls`` holds at most (with :data:`MAX_LIST_URLS`)."""


def _diff_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .._diff import diff

    reading = [name for name in (args.old, args.new, args.urls) if name == "-"]
    if len(reading) > 1:
        return fail("only one of OLD, NEW and --urls can be '-' (standard input)")
    agents = expand_agents(args)  # --agent and --agent-category tokens
    check_agents(agents, args)  # a caller mistake: say so before any work
    old, old_name = load(args.old, args)
    new, new_name = load(args.new, args)
    urls: Optional[list[str]] = None
    bad = 0
    if args.urls:
        urls = []
        held = 0
        for number, (where, url, problem) in enumerate(
                url_lines(args.urls, MAX_DIFF_OCTETS), 1):
            if number > MAX_LIST_URLS:
                raise RobotsError(f"{where}: diff reads at most {MAX_LIST_URLS:,} lines of "
                                  "URLs; for more, use robotsrules bulk on both files")
            if url is not None:
                try:  # a URL either file's mode cannot read is the line's problem
                    old.explain(url, agent="*")
                    new.explain(url, agent="*")
                except RobotsError as error:
                    problem = str(error)
            if problem is not None or url is None:
                bad += 1
                fail(f"{where}: {problem}")
                continue
            held += len(url)
            if len(urls) >= MAX_LIST_URLS or held > MAX_DIFF_OCTETS:
                raise RobotsError(f"{where}: diff compares at most {MAX_LIST_URLS:,} URLs "
                                  f"({MAX_DIFF_OCTETS >> 20} MiB); for more, use "
                                  "robotsrules bulk on both files")
            urls.append(url)
    changes = diff(old, new, urls, agents or None)
    if args.json:
        report = {"old": old_name, "new": new_name, **changes_json(changes)}
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        changes_table(changes, out)
    if bad:
        return EXIT_ERROR
    return EXIT_DISALLOWED if changes else EXIT_ALLOWED


def changes_table(changes: list[Any], out: TextIO) -> None:
    """The verdict changes as ``diff`` prints them (also ``generate --from``)."""
    if not changes:
        out.write("no verdict changes\n")
        return
    summary = diff_summary(changes)
    per_agent = ", ".join(f"{visible(agent)}: {count}"
                          for agent, count in summary["agents"].items())
    out.write(f"{plural(len(changes), 'verdict change')}: "
              f"{summary['newly_disallowed']} newly disallowed, "
              f"{summary['newly_allowed']} newly allowed ({per_agent})\n\n")
    for c in changes:
        before = "allowed" if c.old.allowed else "disallowed"
        after = "allowed" if c.new.allowed else "disallowed"
        why_old = str(c.old.rule) if c.old.rule else why(c.old.reason)
        why_new = str(c.new.rule) if c.new.rule else why(c.new.reason)
        out.write(f"{visible(c.agent):<16} {visible(c.url)}  {before} -> {after}\n"
                  f"    old: {visible(why_old)}\n    new: {visible(why_new)}\n")


def add_commands(commands: Any) -> None:
    """Add ``fetch``, ``agents`` and ``diff`` to the ``robotsrules`` subcommands."""
    fetch = add_command(commands, "fetch")
    add_agent_options(fetch, "product token for the User-Agent header (fetched once per "
                             "agent)")
    json_option(fetch)
    fetch_options(fetch)
    fetch.add_argument("url", metavar="URL", help="any URL of the site")
    fetch.set_defaults(run=_fetch)

    agents = add_command(commands, "agents")
    agents.add_argument("source", metavar="FILE_OR_URL", nargs="?")
    agents.add_argument("--robots", metavar="FILE_OR_URL", help=argparse.SUPPRESS)
    agents.add_argument("--url", default="/", help="the URL or path to ask about (default /)")
    agents.add_argument("--by-category", action="store_true",
                        help="summarise by crawler category (blocked / partly / allowed) "
                             "with warnings about likely opt-out mistakes")
    add_agent_options(agents, "list only this crawler")
    json_option(agents)
    mode_option(agents)
    color_option(agents)
    fetch_options(agents)
    intermixed(agents)
    agents.set_defaults(run=_agents_cmd)

    differ = add_command(commands, "diff")
    differ.add_argument("old", metavar="OLD")
    differ.add_argument("new", metavar="NEW")
    differ.add_argument("--urls", metavar="FILE",
                        help=f"URLs or paths to compare, one a line ('-': standard input; "
                             f"at most {MAX_LIST_URLS:,}; a bad line is reported and skipped, "
                             "exit 2 at the end)")
    add_agent_options(differ, "an agent to compare")
    json_option(differ)
    mode_option(differ)
    color_option(differ)
    fetch_options(differ)
    differ.set_defaults(run=_diff_cmd)
