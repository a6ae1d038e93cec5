"""``robotsrules lint``: what is wrong with a robots.txt, with stable codes.

Exit codes: 0 no finding at or above ``--fail-on``, 1 some finding at or above it, 2 usage
or I/O error (or a URL whose robots.txt could not be fetched), 3 a URL has no robots.txt
(HTTP 4xx: there was nothing to lint; said on standard output too). A finding wins over a
missing file: 1 before 3.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Optional, TextIO

from .._scope import origin_of
from .._terminal import visible
from ..errors import RobotsError
from ..robotstxt import DEFAULT_MAX_BYTES
from ._agent_options import add_agent_options, check_agents, expand_agents
from ._common import EXIT_ALLOWED, EXIT_DISALLOWED, EXIT_NO_FILE, outcome_meaning
from ._input import read_input, size_words
from ._options import (
    add_command,
    color_option,
    fetch_options,
    is_url,
    json_option,
    signer,
    source_url,
    user_agent,
)
from ._output import fail, note, painter

__all__ = ["add_commands"]

_FAIL_ON = {"error": 1, "warning": 2, "info": 3, "never": 0}  # how many severities fail
_LINT_BYTES = 2 * DEFAULT_MAX_BYTES
"""Octets a lint reads: past the 500 KiB limit, so that it can say what a crawler ignores."""


class _Linted:
    """One source's findings (``content`` None: there was no file to lint)."""

    def __init__(self, name: str, diagnostics: list[Any], absent: Optional[str]) -> None:
        self.name = name
        self.diagnostics = diagnostics
        self.absent = absent


def _read(source: str, agent: Optional[str], args: argparse.Namespace
          ) -> tuple[Optional[bytes], str, Optional[str]]:
    """The octets to lint, the name to report them under, and why there are none."""
    if not is_url(source):
        got = read_input(source, _LINT_BYTES)
        if got.cut:
            note(f"{got.name} {size_words(got, _LINT_BYTES)}: the lint reads its first "
                 f"{_LINT_BYTES:,} (a crawler reads {DEFAULT_MAX_BYTES:,})")
        return got.data, source, None
    from .._fetch._fetcher import fetch

    source_url(source)
    # Read past the 500 KiB limit so that the lint can say the file is over it.
    result = fetch(source, user_agent=user_agent(args, agent), timeout=args.timeout,
                   max_bytes=_LINT_BYTES, sign=signer(args))
    if result.outcome == "ok":
        return result.robots.source, result.url, None
    meaning = outcome_meaning(result.outcome)
    message = f"{result.url}: {result.outcome}: {result.error} -> {meaning}; nothing to lint"
    if result.outcome == "unavailable":  # no file is a valid state: say so, find nothing
        note(message)
        return None, result.url, f"no robots.txt (HTTP {result.status}): nothing to lint; " \
                                 f"crawlers read that as {meaning}"
    raise RobotsError(message)


def _lint_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from ..linter import CODES, SEVERITIES, lint
    from ..linter._output import render, summary_line, to_json, to_sarif_many, to_text

    if args.list_codes:
        for code, row in CODES.items():
            out.write(f"{code}  {row.severity:<8} {row.name:<28} {row.summary}\n")
        return EXIT_ALLOWED
    if getattr(args, "robots", None) is not None:
        note(f"'lint --robots {args.robots}' read as 'lint {args.robots}' (the files are the "
             "arguments)")
        args.sources.append(args.robots)
    if not args.sources:
        return fail("no file given: pass FILE_OR_URL (or '-' for stdin)")
    if args.sources.count("-") > 1:
        return fail("'-' (standard input) can be given once")
    agents = expand_agents(args)
    check_agents(agents, args)
    form = "json" if args.json else args.format
    failing = set(SEVERITIES[:_FAIL_ON[args.fail_on]])
    found: list[_Linted] = []
    for source in args.sources:
        # a URL is fetched as each agent (a server may answer each differently); a file once
        asked: list[Optional[str]] = list(agents) if agents and is_url(source) else [None]
        for agent in asked:
            content, name, absent = _read(source, agent, args)
            if agent is not None and len(agents) > 1:
                name = f"{name} (as {agent})"
            diagnostics = [] if content is None else lint(content)
            if args.fetch and content is not None:  # R702-R704: the licence documents
                from ._license import fetched_diagnostics

                site = origin_of(source) if is_url(source) else None
                diagnostics = sorted(diagnostics + fetched_diagnostics(content, site, args),
                                     key=lambda d: (d.line, d.column, d.code))
            found.append(_Linted(name, diagnostics, absent))
    pairs = [(item.name, item.diagnostics) for item in found]
    if form == "sarif":
        out.write(json.dumps(to_sarif_many(pairs), indent=2, ensure_ascii=False) + "\n")
    elif form == "json" and len(found) > 1:  # one schema-valid object per file
        out.write(json.dumps([to_json(d, name) for name, d in pairs], indent=2,
                             ensure_ascii=False) + "\n")
    elif form == "json":
        out.write(render(pairs[0][1], "json", pairs[0][0]))
    else:
        colour = painter(out, args)("x", "0") != "x"
        for item in found:
            if item.diagnostics:
                out.write(to_text(item.diagnostics, item.name, color=colour))
            summary = (item.absent if item.absent is not None
                       else summary_line(item.diagnostics) if item.diagnostics
                       else "no problems")
            out.write(f"{visible(item.name)}: {summary}\n")
    if any(d.severity in failing for item in found for d in item.diagnostics):
        return EXIT_DISALLOWED
    if any(item.absent is not None for item in found):
        return EXIT_NO_FILE
    return EXIT_ALLOWED


def add_commands(commands: Any) -> None:
    """Add ``lint`` to the ``robotsrules`` subcommands."""
    linter = add_command(commands, "lint")
    linter.add_argument("sources", nargs="*", metavar="FILE_OR_URL")
    linter.add_argument("--robots", metavar="FILE_OR_URL", help=argparse.SUPPRESS)
    linter.add_argument("--format", choices=["text", "json", "sarif"], default="text",
                        help="text (default), json (lint.schema.json) or sarif (SARIF 2.1.0)")
    json_option(linter, "the same as --format json")
    linter.add_argument("--fail-on", choices=list(_FAIL_ON), default="error",
                        help="the lowest severity that makes the exit code 1 (default "
                             "error; never: always 0)")
    linter.add_argument("--list-codes", action="store_true",
                        help="print every code with its severity and meaning, then exit")
    color_option(linter)
    add_agent_options(linter, "product token for the User-Agent header (URLs are fetched "
                              "once per agent)")
    linter.add_argument("--fetch", action="store_true",
                        help="also fetch the RSL licence documents that License lines name "
                             "and report those that are unreachable (R702) or invalid "
                             "(R703), and <content url> values on another origin (R704)")
    fetch_options(linter)
    linter.set_defaults(run=_lint_cmd)
