"""The ``robotsrules`` command line: may this agent fetch this URL, and which line decides?

``check`` fetches each URL's robots.txt through the SQLite cache (or reads ``--robots
FILE``); ``fetch`` shows what fetching one robots.txt gives. Exit codes (as Google's
``robots_main``): 0 every URL allowed, 1 at least one disallowed, 2 usage or I/O error (a
message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Optional, Sequence, TextIO

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


_OUTCOME_MEANING = {
    "unavailable": "all allowed",
    "unreachable": "all disallowed",
    "forbidden": "all disallowed",
}
_SERVED_NOTES = {
    "last-good-copy": "unreachable now; using the last good copy",
    "30-days": "unreachable for over 30 days; all allowed",
}


def _user_agent(args: argparse.Namespace) -> str:
    if args.user_agent:
        return str(args.user_agent)
    token = str(args.agent).split("/", 1)[0]
    return f"{token} (robotsrules/{__version__})"


def _outcome_note(served: Any) -> str:
    result = served.result
    if served.reason in _SERVED_NOTES:
        return f"{_SERVED_NOTES[served.reason]} ({result.error})"
    if result.outcome == "ok":
        return ""
    return f"{result.outcome}: {result.error} \u2192 {_OUTCOME_MEANING[result.outcome]}"


def _check_urls(args: argparse.Namespace, out: TextIO) -> int:
    from .cache import MemoryStore, SQLiteStore
    from .checker import RobotsCache

    store = MemoryStore() if args.no_cache else SQLiteStore(args.cache)
    status = EXIT_ALLOWED
    with RobotsCache(store, user_agent=_user_agent(args), agent=args.agent,
                     timeout=args.timeout) as cache:
        for url in args.urls:
            served = cache.lookup(url)
            verdict = served.robots.explain(url, agent=args.agent)
            if not verdict.allowed:
                status = EXIT_DISALLOWED
            note = _outcome_note(served)
            word = "allowed" if verdict.allowed else "disallowed"
            detail = note if note and verdict.rule is None else _describe(verdict)
            if note and verdict.rule is not None:
                detail += f"  [{note}]"
            out.write(f"{word:<10}  {url}  {detail}\n")
    return status


def _fetch(args: argparse.Namespace, out: TextIO) -> int:
    import datetime

    from .fetch import fetch

    result = fetch(args.url, user_agent=_user_agent(args), timeout=args.timeout)

    def when(seconds: float) -> str:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(
            timespec="seconds")

    out.write(f"robots.txt  {result.url}\n")
    out.write(f"outcome     {result.outcome}"
              f"{'' if result.outcome == 'ok' else ' -> ' + _OUTCOME_MEANING[result.outcome]}\n")
    out.write(f"status      {result.status if result.status is not None else '-'}\n")
    if result.error:
        out.write(f"error       {result.error}\n")
    for hop in result.redirects:
        out.write(f"redirect    -> {hop}\n")
    out.write(f"fetched     {when(result.fetched_at)}\n")
    out.write(f"expires     {when(result.expires_at)}\n")
    out.write(f"size        {result.size} bytes{' (truncated)' if result.truncated else ''}\n")
    robots = result.robots
    if robots.synthetic is not None:
        out.write(f"rules       none: {robots.synthetic.replace('-', ' ')}\n")
        return EXIT_ALLOWED
    out.write(f"groups      {len(robots.groups)}\n")
    for group in robots.groups:
        names = ", ".join(group.agent_values) or "-"
        out.write(f"  line {group.line:<5} {names}: {len(group.rules)} rules\n")
    for sitemap in robots.sitemaps:
        out.write(f"sitemap     {sitemap}\n")
    return EXIT_ALLOWED


def _read_robots(path: str) -> RobotsTxt:
    if path == "-":
        return parse(sys.stdin.buffer.read())
    with open(path, "rb") as handle:
        return parse(handle.read())


def _check(args: argparse.Namespace, out: TextIO) -> int:
    if args.robots is None:
        return _check_urls(args, out)
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
    check.add_argument("--robots", metavar="FILE",
                       help="read this robots.txt file instead of fetching ('-': stdin)")
    check.add_argument("--agent", required=True, metavar="NAME",
                       help="the crawler's product token, e.g. Googlebot (Token/1.0 accepted)")
    _fetch_options(check)
    check.add_argument("--no-cache", action="store_true",
                       help="do not read or write the robots.txt cache")
    check.add_argument("--cache", metavar="PATH", default=None,
                       help="SQLite cache file (default: the user cache directory, or "
                            "$ROBOTSRULES_CACHE)")
    check.add_argument("urls", nargs="+", metavar="URL",
                       help="absolute URLs (https://host/path); with --robots, paths too")
    check.set_defaults(run=_check)
    fetch = commands.add_parser(
        "fetch",
        help="fetch the robots.txt that governs URL and show what it means",
        description="Fetch the robots.txt of URL's origin (no cache): status, outcome, "
                    "redirects, expiry, size and a summary of the groups.",
        epilog="Exit codes: 0 fetched (whatever the outcome), 2 usage error.",
    )
    fetch.add_argument("--agent", default="robotsrules", metavar="NAME",
                       help="product token for the default User-Agent header")
    _fetch_options(fetch)
    fetch.add_argument("url", metavar="URL", help="any URL of the site")
    fetch.set_defaults(run=_fetch)
    return parser


def _fetch_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="connect and read time-out (default 10)")
    parser.add_argument("--user-agent", metavar="HEADER",
                        help="User-Agent header to send (default: 'NAME (robotsrules/VERSION)')")


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


