"""The ``robotsrules`` command line: may this agent fetch this URL, and which line decides?

Exit codes (as Google's ``robots_main``): 0 every URL allowed, 1 at least one disallowed,
2 usage or I/O error (a message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence, TextIO

from . import __version__
from .errors import RobotsError
from .model import Verdict
from .robotstxt import RobotsTxt, parse

__all__ = ["main"]

EXIT_ALLOWED, EXIT_DISALLOWED, EXIT_ERROR = 0, 1, 2

_REASONS = {
    "no-match": "no rule matches",
    "no-group": "no group for this agent and no '*' group",
    "robots-txt": "/robots.txt is always allowed",
    "allow-all": "no robots.txt: everything allowed",
    "disallow-all": "robots.txt unreachable: everything disallowed",
}


def _describe(verdict: Verdict) -> str:
    if verdict.rule is None:
        return _REASONS.get(verdict.reason, verdict.reason)
    text = str(verdict.rule)
    if verdict.reason == "index-html":
        text += "  (also allows the directory itself)"
    elif verdict.reason == "tie-allow":
        text += "  (ties with a disallow; allow wins)"
    return text


def _read_robots(path: str) -> RobotsTxt:
    if path == "-":
        return parse(sys.stdin.buffer.read())
    with open(path, "rb") as handle:
        return parse(handle.read())


def _check(args: argparse.Namespace, out: TextIO) -> int:
    robots = _read_robots(args.robots)
    rules = robots.for_agent(args.agent)
    status = EXIT_ALLOWED
    for url in args.urls:
        verdict = rules.explain(url)
        if not verdict.allowed:
            status = EXIT_DISALLOWED
        word = "allowed" if verdict.allowed else "disallowed"
        out.write(f"{word:<10}  {url}  {_describe(verdict)}\n")
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="robotsrules",
        description="Read robots.txt files the way Google and RFC 9309 do.",
        epilog="Exit codes: 0 all allowed, 1 some URL disallowed, 2 usage or I/O error.",
    )
    parser.add_argument("--version", action="version", version=f"robotsrules {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    check = commands.add_parser(
        "check",
        help="may AGENT fetch each URL? prints the verdict and the deciding line",
        description="Print, for each URL, whether AGENT may fetch it and which line decides.",
        epilog="Exit codes: 0 all allowed, 1 some URL disallowed, 2 usage or I/O error.",
    )
    check.add_argument("--robots", required=True, metavar="FILE",
                       help="the robots.txt file to read ('-' for standard input)")
    check.add_argument("--agent", required=True, metavar="NAME",
                       help="the crawler's product token, e.g. Googlebot (Token/1.0 accepted)")
    check.add_argument("urls", nargs="+", metavar="URL",
                       help="absolute URLs (https://host/path) or paths starting with /")
    check.set_defaults(run=_check)
    return parser


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exit_.code or 0)
    try:
        return int(args.run(args, out or sys.stdout))
    except RobotsError as error:
        return _fail(str(error))
    except OSError as error:
        name = getattr(error, "filename", None)
        return _fail(f"{name + ': ' if name else ''}{error.strerror or error}")


def _fail(message: str) -> int:
    sys.stderr.write(f"robotsrules: error: {message}\n")
    return EXIT_ERROR


def _entry() -> None:  # pragma: no cover
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    _entry()


