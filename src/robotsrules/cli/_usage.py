"""``robotsrules usage``: what a robots.txt says about using what a crawler fetches.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. For each URL it prints the crawl
verdict and, for every purpose of :data:`robotsrules._tables._purposes.PURPOSES`, the answer (yes,
no, or ``-`` when nothing is stated) with the ``Content-Signal``/``Content-Usage`` lines
that state it. Exit codes (as ``check``): 0 every URL may be crawled, 1 at least one may
not, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Optional, TextIO

from .._tables._purposes import PURPOSES, revision
from .._tables._words import usage_report
from .._terminal import visible

__all__ = ["add_command"]

from ._common import EXIT_ALLOWED, EXIT_DISALLOWED

_WORD = {True: "yes", False: "no", None: "-"}


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from ._agent_options import command_agents
    from ._common import describe
    from ._input import load, robots_source
    from ._output import painter

    robots_source(args, "usage", urls="urls")
    agents = command_agents(args)  # --agent and --agent-category tokens
    reading = revision(args.aipref_revision)  # a revision without a reading: exit 2 first
    robots, origin = load(args.source, args)
    urls: list[str] = args.urls or ["/"]
    code = EXIT_ALLOWED
    documents: list[dict[str, Any]] = []
    paint = painter(out, args)
    if not args.json:
        out.write(f"{visible(origin)}\n(IETF categories read as {reading.name}, {reading.date}"
                  f"{'' if reading.broader else ', no nesting'})\n")
    for agent in agents:  # one answer per agent, labelled when there are several
        if len(agents) > 1 and not args.json:
            out.write(f"\nagent {visible(agent)}\n")
        reports: list[dict[str, Any]] = []
        documents.append({"source": origin, "agent": agent, "urls": reports})
        if _one_agent(robots, agent, urls, reports, out, paint, describe, args.json,
                      args.aipref_revision):
            code = EXIT_DISALLOWED
    if args.json:
        out.write(json.dumps(documents[0] if len(documents) == 1 else documents,
                             indent=2, ensure_ascii=False) + "\n")
    return code


def _one_agent(robots: Any, agent: str, urls: list[str], reports: list[dict[str, Any]],
               out: TextIO, paint: Any, describe: Any, as_json: bool,
               reading: Optional[str] = None) -> bool:
    """``usage`` for one agent (text written, or JSON reports gathered); True when some
    URL may not be crawled."""
    refused = False
    for url in urls:
        verdict = robots.explain(url, agent=agent)
        usage = robots.usage(url, agent=agent)
        if not usage.crawl_allowed:
            refused = True
        if as_json:
            reports.append(usage_report(robots, url, agent, reading))
            continue
        word = "may crawl" if usage.crawl_allowed else "may NOT crawl"
        out.write(f"\n{paint(visible(url), '1', bold=True)}  {word} ({describe(verdict)})\n")
        if not usage.crawl_allowed:
            note = ("no preference applies to a URL the agent may not fetch "
                    "(draft-ietf-aipref-attach)")
            if usage.ignored:
                numbers = ", ".join(str(u.line) for u in usage.ignored)
                plural = "s" if len(usage.ignored) > 1 else ""
                note += f"; line{plural} {numbers} would apply otherwise"
            out.write(f"  {note}\n")
            continue
        for purpose in PURPOSES:
            answer = usage.allows(purpose, reading)
            shown = _WORD[answer]
            if answer is not None:
                shown = paint(shown, "32" if answer else "31")
            deciding = usage.deciding(purpose, reading)
            where = "; ".join(visible(str(u)) for u in deciding) if deciding else \
                "nothing stated"
            pad = " " * (3 - len(_WORD[answer]))
            out.write(f"  {purpose:<12} {shown}{pad}  {where}\n")
        for label, defined in usage.superseded.items():
            out.write(f"  note: `{visible(label)}` is a label of {defined} only; readers "
                      "that follow the current revision ignore it (lint R609)\n")
    return refused


def add_command(commands: Any) -> None:
    """Add ``usage`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from ._agent_options import add_agent_options
    from ._options import add_command as new_command
    from ._options import color_option, fetch_options, intermixed, json_option, mode_option

    usage = new_command(commands, "usage")
    usage.add_argument("source", metavar="FILE_OR_URL", nargs="?")
    usage.add_argument("--robots", metavar="FILE_OR_URL", help=argparse.SUPPRESS)
    add_agent_options(usage, "the crawler's product token")
    usage.add_argument("urls", nargs="*", metavar="URL", help="URLs or /paths (default /)")
    json_option(usage)
    usage.add_argument("--aipref-revision", metavar="REV",
                       help="read the IETF categories as this revision of "
                            "draft-ietf-aipref-vocab did (e.g. 03: nesting under bots); "
                            "default: the current reading (-07, no nesting)")
    color_option(usage)
    mode_option(usage)
    fetch_options(usage)
    usage.set_defaults(run=_run)
    # URLs may follow --agent (`usage FILE --agent NAME URL...`): argparse's plain parsing
    # binds an optional list of positionals before the first option, so parse intermixed.
    intermixed(usage)
