"""``robotsrules usage``: what a robots.txt says about using what a crawler fetches.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. For each URL it prints the crawl
verdict and, for every purpose of :data:`robotsrules._purposes.PURPOSES`, the answer (yes,
no, or ``-`` when nothing is stated) with the ``Content-Signal``/``Content-Usage`` lines
that state it. Exit codes (as ``check``): 0 every URL may be crawled, 1 at least one may
not, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Optional, TextIO, Tuple

from .._purposes import PURPOSES, revision
from .._usage import Usage
from ..model import UsageLine

__all__ = ["Intermixed", "add_command", "usage_json", "usage_lines_json"]

from ._common import EXIT_ALLOWED, EXIT_DISALLOWED

_WORD = {True: "yes", False: "no", None: "-"}


def usage_lines_json(lines: Tuple[UsageLine, ...]) -> List[Dict[str, Any]]:
    """Usage lines as JSON objects (also used by ``explain --json``)."""
    return [{"line": u.line, "directive": u.directive, "value": u.value,
             "pattern": u.pattern or None,
             "states": {name: value for name, value in u.statements}} for u in lines]


def usage_json(usage: Usage, reading: Optional[str] = None) -> Dict[str, Any]:
    """One URL's :class:`~robotsrules._usage.Usage` as a JSON object, answered in the
    reading of draft-ietf-aipref-vocab revision ``reading`` (``None``: the current one)."""
    return {
        "crawl_allowed": usage.crawl_allowed,
        "purposes": {p: {"answer": usage.allows(p, reading),
                         "lines": [u.line for u in usage.deciding(p, reading)]}
                     for p in PURPOSES},
        "aipref_revision": revision(reading).name,
        "superseded": usage.superseded,
        "lines": usage_lines_json(usage.lines),
        "ignored": usage_lines_json(usage.ignored),
    }


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from ._common import describe, load, painter
    from ._stance import command_agents

    agents = command_agents(args)  # --agent and --agent-category tokens
    reading = revision(args.aipref_revision)  # a revision without a reading: exit 2 first
    robots, origin = load(args.source, args)
    urls: List[str] = args.urls or ["/"]
    code = EXIT_ALLOWED
    documents: List[Dict[str, Any]] = []
    paint = painter(out, args)
    if not args.json:
        out.write(f"{origin}\n(IETF categories read as {reading.name}, {reading.date}"
                  f"{'' if reading.broader else ', no nesting'})\n")
    for agent in agents:  # one agent: the output of before --agent-category
        if len(agents) > 1 and not args.json:
            out.write(f"\nagent {agent}\n")
        reports: List[Dict[str, Any]] = []
        documents.append({"source": origin, "agent": agent, "urls": reports})
        if _one_agent(robots, agent, urls, reports, out, paint, describe, args.json,
                      args.aipref_revision):
            code = EXIT_DISALLOWED
    if args.json:
        out.write(json.dumps(documents[0] if len(documents) == 1 else documents,
                             indent=2, ensure_ascii=False) + "\n")
    return code


def _one_agent(robots: Any, agent: str, urls: List[str], reports: List[Dict[str, Any]],
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
            reports.append({"url": url, "target": verdict.target,
                            "crawl_rule": None if verdict.rule is None else verdict.rule.line,
                            **usage_json(usage, reading)})
            continue
        word = "may crawl" if usage.crawl_allowed else "may NOT crawl"
        out.write(f"\n{paint(url, '1', bold=True)}  {word} ({describe(verdict)})\n")
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
            where = "; ".join(str(u) for u in deciding) if deciding else "nothing stated"
            pad = " " * (3 - len(_WORD[answer]))
            out.write(f"  {purpose:<12} {shown}{pad}  {where}\n")
        for label, defined in usage.superseded.items():
            out.write(f"  note: `{label}` is a label of {defined} only; readers that follow "
                      "the current revision ignore it (lint R609)\n")
    return refused


def add_command(commands: Any) -> None:
    """Add ``usage`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from ._common import fetch_options, mode_option

    usage = commands.add_parser(
        "usage", help="AI usage preferences (Content-Signal, Content-Usage) for URLs",
        description="For each URL (default /): may AGENT crawl it, and what does SOURCE (a "
                    "file, '-' or a URL) say about using it for search, as AI input, for AI "
                    "training (Content-Signal names and the IETF aipref categories), with "
                    "the lines that say so. '-' means nothing is stated.",
        epilog="Exit codes: 0 every URL may be crawled, 1 at least one may not, 2 usage or "
               "I/O error.")
    usage.add_argument("source", metavar="FILE_OR_URL")
    usage.add_argument("--agent", metavar="NAME",
                       help="the crawler's product token (more agents with --agent-category: "
                            "the answers of each in turn; JSON: a list)")
    from ._stance import add_agent_options

    add_agent_options(usage)
    usage.add_argument("urls", nargs="*", metavar="URL", help="URLs or /paths (default /)")
    usage.add_argument("--json", action="store_true", help="print JSON")
    usage.add_argument("--aipref-revision", metavar="REV",
                       help="read the IETF categories as this revision of "
                            "draft-ietf-aipref-vocab did (e.g. 03: nesting under bots); "
                            "default: the current reading (-07, no nesting)")
    usage.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                       help="colour the text output (default: on a terminal)")
    mode_option(usage)
    fetch_options(usage)
    usage.set_defaults(run=_run)
    # URLs may follow --agent (`usage FILE --agent NAME URL...`): argparse's plain parsing
    # binds an optional list of positionals before the first option, so parse intermixed.
    setattr(usage, "parse_known_args", Intermixed(usage))  # noqa: B010


class Intermixed:
    """``parse_known_args`` of one parser, done as ``parse_known_intermixed_args``."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        self.inside = False

    def __call__(self, args: Optional[List[str]] = None,
                 namespace: Optional[argparse.Namespace] = None) -> Any:
        if self.inside:  # parse_known_intermixed_args calls parse_known_args itself
            return argparse.ArgumentParser.parse_known_args(self.parser, args, namespace)
        self.inside = True
        try:
            return self.parser.parse_known_intermixed_args(args, namespace)
        finally:
            self.inside = False
