"""The ``robotsrules`` command line: may this agent fetch this URL, and which line decides?

``check`` fetches each URL's robots.txt through the SQLite cache (or reads ``--robots
FILE``); ``fetch`` shows what fetching one robots.txt gives. Exit codes (as Google's
``robots_main``): 0 every URL allowed, 1 at least one disallowed, 2 usage or I/O error (a
message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple

from . import __version__
from .errors import RobotsError
from .model import Verdict
from .robotstxt import MODES, Mode, RobotsTxt, parse

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


def _verdicts_from_cache(args: argparse.Namespace, urls: Iterable[str]
                         ) -> Iterator[Tuple[str, Verdict, str]]:
    from .cache import MemoryStore, SQLiteStore
    from .checker import RobotsCache

    store = MemoryStore() if args.no_cache else SQLiteStore(args.cache)
    with RobotsCache(store, user_agent=_user_agent(args), agent=args.agent,
                     timeout=args.timeout) as cache:
        reread: Dict[int, RobotsTxt] = {}  # --mode: each fetched file re-read once
        for url in urls:
            served = cache.lookup(url)
            robots = served.robots
            if args.mode != robots.mode:
                key = id(robots)
                if key not in reread:
                    reread.clear()  # URLs usually come grouped by site: keep one
                    reread[key] = _in_mode(robots, args.mode)
                robots = reread[key]
            yield url, robots.explain(url, agent=args.agent), _outcome_note(served)


def _verdicts_from_file(args: argparse.Namespace, urls: Iterable[str]
                        ) -> Iterator[Tuple[str, Verdict, str]]:
    rules = _read_robots(args.robots, args.mode).for_agent(args.agent)
    for url in urls:
        yield url, rules.explain(url), ""


def _urls(args: argparse.Namespace) -> List[str]:
    """The URLs to check: arguments, then --urls-file lines ('-': stdin; '#' comments)."""
    urls: List[str] = list(args.urls)
    if args.urls_file == "-":
        urls += _listed(sys.stdin)
    elif args.urls_file:
        with open(args.urls_file, encoding="utf-8") as handle:
            urls += _listed(handle)
    return urls


def _listed(lines: Iterable[str]) -> List[str]:
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _check(args: argparse.Namespace, out: TextIO) -> int:
    urls = _urls(args)
    if not urls:
        return _fail("no URL given: pass URLs as arguments or --urls-file FILE ('-': stdin)")
    verdicts = (_verdicts_from_file if args.robots is not None else _verdicts_from_cache)(
        args, urls)
    progress = _Progress(len(urls))
    status = EXIT_ALLOWED
    for url, verdict, note in verdicts:
        if not verdict.allowed:
            status = EXIT_DISALLOWED
        if args.json:
            out.write(json.dumps({"url": url, "agent": args.agent, **_verdict_json(verdict),
                                  "fetch": note or None}, ensure_ascii=False) + "\n")
        else:
            word = "allowed" if verdict.allowed else "disallowed"
            detail = note if note and verdict.rule is None else _describe(verdict)
            if note and verdict.rule is not None:
                detail += f"  [{note}]"
            out.write(f"{word:<10}  {url}  {detail}\n")
        progress.step()
    progress.done()
    return status


class _Progress:
    """'checked N/M' on stderr, only on a terminal and only for long runs."""

    def __init__(self, total: int) -> None:
        self.total, self.count, self.shown = total, 0, 0.0
        self.on = total >= 50 and sys.stderr.isatty()

    def step(self) -> None:
        self.count += 1
        now = time.monotonic()
        if self.on and now - self.shown > 0.2:
            self.shown = now
            width = 30
            filled = width * self.count // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                             f"{self.count}/{self.total}")
            sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _fetch(args: argparse.Namespace, out: TextIO) -> int:
    import datetime

    from .fetcher import fetch

    result = fetch(args.url, user_agent=_user_agent(args), timeout=args.timeout)

    def when(seconds: float) -> str:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(
            timespec="seconds")

    robots = result.robots
    if args.json:
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
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
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


_URL_SOURCE = re.compile(r"(?i)(https?|ftp)://")


def _load(source: str, args: argparse.Namespace) -> Tuple[RobotsTxt, str]:
    """A robots.txt from a file path, '-' (stdin) or a URL (fetched); with a note on how."""
    if _URL_SOURCE.match(source):
        from .fetcher import fetch

        result = fetch(source, user_agent=_user_agent(args), timeout=args.timeout)
        note = f"{result.url}: HTTP {result.status}" if result.status else result.url
        if result.outcome != "ok":
            note += f", {result.outcome}: {result.error} -> {_OUTCOME_MEANING[result.outcome]}"
        return _in_mode(result.robots, args.mode), note
    return _read_robots(source, args.mode), source


def _verdict_json(verdict: Verdict) -> Dict[str, Any]:
    rule = verdict.rule
    return {
        "allowed": verdict.allowed,
        "reason": verdict.reason,
        "scope": verdict.scope,
        "target": verdict.target,
        "rule": None if rule is None else {
            "line": rule.line, "directive": rule.directive, "value": rule.value,
            "pattern": rule.pattern, "priority": rule.priority},
        "groups": [group.line for group in verdict.groups],
    }


_WHY = {
    "longest-match": "the longest matching rule decides (RFC 9309 \u00a72.2.2)",
    "tie-allow": "an allow and a disallow of equal length match; allow wins the tie",
    "index-html": "an Allow of .../index.html also allows the directory itself (Google)",
    "first-match": "legacy reading: the first matching rule of the record decides",
    "no-match": "no rule of the applicable groups matches, so the URL is allowed",
    "no-group": "no group names this agent and there is no '*' group, so all is allowed",
    "robots-txt": "/robots.txt itself is always allowed (RFC 9309 \u00a72.2.2)",
    "allow-all": "there is no robots.txt (4xx), so everything is allowed",
    "disallow-all": "the robots.txt is unreachable, so everything is disallowed for now",
}


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    robots, origin = _load(args.source, args)
    verdict = robots.explain(args.url, agent=args.agent)
    code = EXIT_ALLOWED if verdict.allowed else EXIT_DISALLOWED
    if args.json:
        report = {"source": origin, "agent": args.agent, "url": args.url,
                  **_verdict_json(verdict)}
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return code
    paint = _painter(out, args)
    group_lines: set[int] = set()
    for group in verdict.groups:
        group_lines.update(group.agent_lines)
        group_lines.update(rule.line for rule in group.rules)
    deciding = verdict.rule.line if verdict.rule is not None else None
    out.write(f"{origin}\n")
    lines = robots.lines
    if lines and lines[-1].raw == "" and len(lines) > 1:
        lines = lines[:-1]  # the empty "line" after the final line break
    for line in lines:
        if robots.synthetic is not None:
            break
        marker = ">" if line.number == deciding else ("|" if line.number in group_lines else " ")
        text = f"{marker} {line.number:>5}  {line.raw}"
        if line.number == deciding:
            text = paint(text, "32" if verdict.allowed else "31", bold=True)
        elif line.number not in group_lines:
            text = paint(text, "2")
        out.write(text + "\n")
    if verdict.scope == "specific":
        applied = f"groups naming {args.agent!r} at lines " + ", ".join(
            str(g.line) for g in verdict.groups)
    elif verdict.scope == "global":
        applied = f"no group names {args.agent!r}: the '*' groups at lines " + ", ".join(
            str(g.line) for g in verdict.groups)
    else:
        applied = f"no group names {args.agent!r} and there is no '*' group"
    word = "ALLOWED" if verdict.allowed else "DISALLOWED"
    out.write(f"\n{paint(word, '32' if verdict.allowed else '31', bold=True)}  {args.url}"
              f"  (target {verdict.target})\n")
    out.write(f"  applies: {applied}\n")
    if verdict.rule is not None:
        rank = "" if verdict.reason == "first-match" else f" (priority {verdict.rule.priority})"
        out.write(f"  decides: line {_describe(verdict)}{rank}\n")
    out.write(f"  why:     {_WHY.get(verdict.reason, verdict.reason)}\n")
    return code


def _agents_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .crawlers import crawler_verdicts

    if args.by_category:
        from .cli_stance import by_category_cmd

        return by_category_cmd(args, out)

    robots, origin = _load(args.source, args)
    verdicts = crawler_verdicts(robots, args.url)
    if args.json:
        report = {
            "source": origin,
            "groups": [{"line": g.line, "agents": list(g.agent_values),
                        "tokens": list(g.agents), "rules": len(g.rules)} for g in robots.groups],
            "crawlers": [{"token": v.crawler.token, "operator": v.crawler.operator,
                          "purpose": v.crawler.purpose, "url": args.url,
                          **_verdict_json(v.verdict)} for v in verdicts],
        }
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
    out.write(f"{origin}\n\ngroups:\n")
    for group in robots.groups:
        names = ", ".join(group.agent_values) or "(empty)"
        out.write(f"  line {group.line:<5} {names}: {len(group.rules)} rules\n")
    if not robots.groups:
        out.write("  (none)\n")
    out.write(f"\nwell-known crawlers, may they fetch {args.url}?\n")
    for item in verdicts:
        v = item.verdict
        word = "allowed" if v.allowed else "disallowed"
        where = {"specific": f"its group at line {item.group_line}",
                 "global": f"'*' group at line {item.group_line}",
                 "none": "no group"}[v.scope]
        rule = f", {v.rule}" if v.rule is not None else ""
        out.write(f"  {item.crawler.token:<22} {word:<10}  {where}{rule}"
                  f"  [{item.crawler.operator}: {item.crawler.purpose}]\n")
    return EXIT_ALLOWED


def _diff_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .diff import diff

    old, old_name = _load(args.old, args)
    new, new_name = _load(args.new, args)
    urls = None
    if args.urls:
        with open(args.urls, encoding="utf-8") as handle:
            urls = [line.strip() for line in handle if line.strip() and line[0] != "#"]
    changes = diff(old, new, urls, args.agent or None)
    if args.json:
        report = {"old": old_name, "new": new_name, "changes": [
            {"agent": c.agent, "url": c.url, "old": _verdict_json(c.old),
             "new": _verdict_json(c.new)} for c in changes]}
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        for c in changes:
            before = "allowed" if c.old.allowed else "disallowed"
            after = "allowed" if c.new.allowed else "disallowed"
            why_old = str(c.old.rule) if c.old.rule else _WHY.get(c.old.reason, c.old.reason)
            why_new = str(c.new.rule) if c.new.rule else _WHY.get(c.new.reason, c.new.reason)
            out.write(f"{c.agent:<16} {c.url}  {before} -> {after}\n"
                      f"    old: {why_old}\n    new: {why_new}\n")
        if not changes:
            out.write("no verdict changes\n")
    return EXIT_DISALLOWED if changes else EXIT_ALLOWED


_FAIL_ON = {"error": 1, "warning": 2, "info": 3, "never": 0}  # how many severities fail


def _lint_source(source: str, args: argparse.Namespace) -> Tuple[Optional[bytes], str]:
    """The octets to lint and the name to report them under (None: nothing to lint)."""
    if not _URL_SOURCE.match(source):
        return _read_bytes(source), source
    from .fetcher import fetch
    from .robotstxt import DEFAULT_MAX_BYTES

    # Read past the 500 KiB limit so that the lint can say the file is over it.
    result = fetch(source, user_agent=_user_agent(args), timeout=args.timeout,
                   max_bytes=2 * DEFAULT_MAX_BYTES)
    if result.outcome == "ok":
        return result.robots.source, result.url
    meaning = _OUTCOME_MEANING[result.outcome]
    message = f"{result.url}: {result.outcome}: {result.error} -> {meaning}; nothing to lint"
    if result.outcome == "unavailable":  # no file is a valid state: say so, find nothing
        sys.stderr.write(f"robotsrules: {message}\n")
        return None, result.url
    raise RobotsError(message)


def _lint_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .linter import CODES, SEVERITIES, lint
    from .report import render, summary_line, to_json, to_sarif_many, to_text

    if args.list_codes:
        for code, row in CODES.items():
            out.write(f"{code}  {row.severity:<8} {row.name:<28} {row.summary}\n")
        return EXIT_ALLOWED
    if not args.sources:
        return _fail("no file given: pass FILE_OR_URL (or '-' for stdin)")
    form = "json" if args.json else args.format
    failing = set(SEVERITIES[:_FAIL_ON[args.fail_on]])
    found: List[Tuple[str, List[Any]]] = []
    for source in args.sources:
        content, name = _lint_source(source, args)
        found.append((name, [] if content is None else lint(content)))
    if form == "sarif":
        out.write(json.dumps(to_sarif_many(found), indent=2, ensure_ascii=False) + "\n")
    elif form == "json" and len(found) > 1:  # one schema-valid object per file
        out.write(json.dumps([to_json(d, name) for name, d in found], indent=2,
                             ensure_ascii=False) + "\n")
    elif form == "json":
        out.write(render(found[0][1], "json", found[0][0]))
    else:
        colour = _painter(out, args)("x", "0") != "x"
        for name, diagnostics in found:
            if diagnostics:
                out.write(to_text(diagnostics, name, color=colour))
            out.write(f"{name}: {summary_line(diagnostics) if diagnostics else 'no problems'}\n")
    hit = any(d.severity in failing for _, diagnostics in found for d in diagnostics)
    return EXIT_DISALLOWED if hit else EXIT_ALLOWED


def _painter(out: TextIO, args: argparse.Namespace) -> Callable[..., str]:
    colour = getattr(args, "color", "auto")
    on = colour == "always" or (colour == "auto" and hasattr(out, "isatty") and out.isatty()
                                and not os.environ.get("NO_COLOR"))

    def paint(text: str, code: str, bold: bool = False) -> str:
        if not on:
            return text
        return f"\x1b[{'1;' if bold else ''}{code}m{text}\x1b[0m"

    return paint


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _read_robots(path: str, mode: Mode = "google") -> RobotsTxt:
    return parse(_read_bytes(path), mode=mode)


def _in_mode(robots: RobotsTxt, mode: Mode) -> RobotsTxt:
    """``robots`` read in ``mode``: fetched files are parsed as Google does, then re-read."""
    if robots.mode == mode or robots.synthetic is not None:
        return robots  # allow-all / disallow-all mean the same in every mode
    return parse(robots.source, max_bytes=None, mode=mode)  # already cut when fetched


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
    check.add_argument("--urls-file", metavar="FILE",
                       help="also check the URLs in FILE, one a line ('-': standard input)")
    check.add_argument("--json", action="store_true",
                       help="print one JSON object per URL (JSON Lines)")
    _mode_option(check)
    check.add_argument("urls", nargs="*", metavar="URL",
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
    fetch.add_argument("--json", action="store_true", help="print JSON")
    _fetch_options(fetch)
    fetch.add_argument("url", metavar="URL", help="any URL of the site")
    fetch.set_defaults(run=_fetch)

    explain = commands.add_parser(
        "explain", help="show the file with the groups that apply and the line that decides",
        description="Show SOURCE (a file, '-' or a URL) with line numbers: '|' marks the "
                    "groups that apply to AGENT, '>' the deciding line; then the reason.",
        epilog="Exit codes: 0 allowed, 1 disallowed, 2 usage or I/O error.")
    explain.add_argument("source", metavar="FILE_OR_URL")
    explain.add_argument("--agent", required=True, metavar="NAME")
    explain.add_argument("url", metavar="URL", help="the URL (or /path) to explain")
    _common(explain)

    agents = commands.add_parser(
        "agents", help="groups and their agents; may well-known crawlers fetch a URL?",
        description="List the groups of SOURCE with their agents and rule counts, then, for "
                    "a shipped table of well-known crawler tokens (search engines and AI "
                    "crawlers), whether each may fetch URL and which group decides.",
        epilog="Exit codes: 0 done, 2 usage or I/O error.")
    agents.add_argument("source", metavar="FILE_OR_URL")
    agents.add_argument("--url", default="/", help="the URL or path to ask about (default /)")
    agents.add_argument("--by-category", action="store_true",
                        help="summarise by crawler category (blocked / partly / allowed) "
                             "with warnings about likely opt-out mistakes")
    _common(agents)
    from .cli_stance import add_agent_options

    add_agent_options(agents)

    differ = commands.add_parser(
        "diff", help="the (agent, URL) verdicts that change between two files",
        description="Compare two versions of a robots.txt: every (agent, URL) whose verdict "
                    "changes, with the lines responsible. Without --urls, URLs are derived "
                    "from the rules of both files; without --agent, every agent either file "
                    "names is compared, and '*'.",
        epilog="Exit codes: 0 no change, 1 some verdict changes, 2 usage or I/O error.")
    differ.add_argument("old", metavar="OLD")
    differ.add_argument("new", metavar="NEW")
    differ.add_argument("--urls", metavar="FILE", help="URLs or paths to compare, one a line")
    differ.add_argument("--agent", action="append", metavar="NAME",
                        help="an agent to compare (repeatable)")
    _common(differ)
    from .cli_bulk import add_commands as add_bulk_commands  # bulk, report (issue 7)

    add_bulk_commands(commands)
    from .cli_stance import add_command as add_stance_command  # stance (issue 17)

    add_stance_command(commands)

    linter = commands.add_parser(
        "lint", help="find what is wrong with a robots.txt: codes, lines, fixes",
        description="Check each FILE_OR_URL (a path, '-' for stdin, or a URL to fetch) and "
                    "print diagnostics with a stable code, severity, line, column, message "
                    "and fix hint. '--list-codes' prints the table of codes.",
        epilog="Exit codes: 0 no finding at or above --fail-on, 1 some finding at or above "
               "it, 2 usage or I/O error (or the URL could not be fetched).")
    linter.add_argument("sources", nargs="*", metavar="FILE_OR_URL")
    linter.add_argument("--format", choices=["text", "json", "sarif"], default="text",
                        help="text (default), json (lint.schema.json) or sarif (SARIF 2.1.0)")
    linter.add_argument("--json", action="store_true", help="the same as --format json")
    linter.add_argument("--fail-on", choices=list(_FAIL_ON), default="error",
                        help="the lowest severity that makes the exit code 1 (default "
                             "error; never: always 0)")
    linter.add_argument("--list-codes", action="store_true",
                        help="print every code with its severity and meaning, then exit")
    linter.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour the text output (default: on a terminal)")
    linter.add_argument("--agent", default="robotsrules", metavar="NAME",
                        help="product token for the default User-Agent header (URLs)")
    _fetch_options(linter)
    linter.set_defaults(run=_lint_cmd)
    return parser


def _mode_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mode", choices=MODES, default="google",
        help="how to read the file: google (default, Google's library), rfc (RFC 9309 "
             "where Google differs) or legacy (1994/1996, as urllib.robotparser)")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    _mode_option(parser)
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour the text output (default: on a terminal)")
    _fetch_options(parser)
    parser.set_defaults(run={"explain": _explain, "agents": _agents_cmd,
                             "diff": _diff_cmd}[parser.prog.split()[-1]])


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
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep Python's exit flush quiet
        return EXIT_ERROR
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


