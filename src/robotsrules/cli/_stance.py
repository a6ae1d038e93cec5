"""``robotsrules stance``: has this site opted out of these crawlers? (all / none / some).

Decided from the rules alone (:meth:`RobotsTxt.stance`), exactly as ``check`` would answer
for every URL. Exit codes: 0 nothing is disallowed for any agent, 1 something is (some or
all paths), 2 usage or I/O error (a message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any, TextIO

from .._tables._words import crawler_json, stance_json, stance_report
from .._terminal import visible
from ._agent_options import add_agent_options, command_agents, crawler_table
from ._common import EXIT_ALLOWED, EXIT_DISALLOWED
from ._input import load_source
from ._options import add_command as new_command
from ._options import fetch_options, intermixed, is_url, json_option, mode_option
from ._output import fail, note

_TABLES = (".parquet", ".pq", ".csv", ".json", ".jsonl", ".ndjson", ".csv.gz", ".json.gz",
           ".jsonl.gz")

__all__ = ["add_command", "crawler_json", "stance_json"]

_SAYS = {
    "all": "every path disallowed (robots.txt aside)",
    "none": "nothing disallowed",
    "some": "some paths disallowed",
}


def _table_form(args: argparse.Namespace) -> bool:
    """Whether the command line asks for the table form (one row per site and agent):
    ``--robots-warc``, ``--out``, or ``--robots`` naming a table. ``--robots FILE`` naming
    a robots.txt is the one-file form (accepted with a hint)."""
    if getattr(args, "robots_warc", None) or getattr(args, "out", None):
        return True
    robots = getattr(args, "robots", None)
    if robots is None:
        return False
    if robots.lower().endswith(_TABLES):
        return True
    if args.source is not None:
        return True  # both: the table form says what is wrong
    note(f"'stance --robots {robots}' read as 'stance {robots}' (one robots.txt is the first "
         "argument; --robots with --out is the table form)")
    args.source, args.robots = robots, None
    return False


def _agents_after(args: argparse.Namespace) -> list[str]:
    """``stance --agent GPTBot CCBot FILE`` (several names after one ``--agent``, the
    form of before): the robots.txt is the positional argument that is a URL, '-' or an
    existing path (else the first); the others are agents, accepted with a hint and
    returned (they follow the ``--agent`` values)."""
    given = list(args.source or [])
    table = bool(getattr(args, "robots", None) or getattr(args, "robots_warc", None)
                 or getattr(args, "out", None))
    found = [name for name in given if is_url(name) or name == "-" or os.path.exists(name)]
    source = found[0] if found else given[0] if given and not table else None
    if source is not None:
        given.remove(source)
    if given:
        note(f"{' '.join(given)} read as --agent {' --agent '.join(given)} (--agent takes one "
             "name; repeat it)")
    args.source = source
    return given


def _stance_cmd(args: argparse.Namespace, out: TextIO) -> int:
    more = _agents_after(args)
    table_run = getattr(args, "run_table", None)
    if table_run is not None and _table_form(args):
        return int(table_run(args, out, more))  # the bulk form: one row per site and agent
    if args.source is None:
        return fail("stance needs FILE_OR_URL, or --robots/--robots-warc with --out")
    agents = command_agents(args, more)  # a name that is no product token: exit 2, with a hint
    # the User-Agent header names the one agent named, if one (categories aside)
    loaded = load_source(args.source, args, [*(args.agent or []), *more])
    robots, origin = loaded.robots, loaded.origin
    stances = [(agent, robots.stance(agent)) for agent in agents]
    code = EXIT_DISALLOWED if any(s.kind != "none" for _, s in stances) else EXIT_ALLOWED
    from .._tables._crawlers import crawler_for

    table = crawler_table(args)
    known = {agent: crawler_for(agent, table) for agent in agents}
    absent = robots.synthetic is not None  # no file: no line to show
    if args.json:
        report = stance_report(origin, robots, stances, known)
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return code
    out.write(f"{visible(origin)}\n")
    width = max(len(visible(agent)) for agent in agents)
    for agent, stance in stances:
        scope = ("no file: the status rules" if absent else
                 {"specific": "its own group", "global": "the '*' group",
                  "none": "no group"}.get(stance.scope, stance.scope))
        out.write(f"{visible(agent):<{width}}  {stance.kind:<4}  {_SAYS[stance.kind]} "
                  f"({scope})\n")
        for rule in () if absent else stance.lines:
            out.write(f"{'':<{width}}    {visible(str(rule))}\n")
        if stance.kind == "some":
            out.write(f"{'':<{width}}    e.g. disallowed: {visible(' '.join(stance.disallowed))}"
                      f"; allowed: {visible(' '.join(stance.allowed))}\n")
        if not stance.complete:
            out.write(f"{'':<{width}}    (lines incomplete: the rules are too complex to "
                      "list every deciding line)\n")
        crawler = known[agent]
        if crawler is not None and crawler.stoppable is not True:
            out.write(f"{'':<{width}}    note: {visible(crawler.robots_txt_note())}\n")
    return code


def add_command(commands: Any) -> argparse.ArgumentParser:
    """Add ``stance`` to the CLI's subcommands; returns its parser."""
    stance = new_command(commands, "stance")
    stance.add_argument("source", metavar="FILE_OR_URL", nargs="*",
                        help="a robots.txt file, '-' or a URL (or --robots TABLE --out FILE "
                             "for a table)")
    add_agent_options(stance, "a product token to ask about")
    json_option(stance)
    mode_option(stance)
    fetch_options(stance)
    intermixed(stance)
    stance.set_defaults(run=_stance_cmd)
    return stance
