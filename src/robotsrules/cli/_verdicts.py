"""``robotsrules check`` and ``robotsrules explain``: may these agents fetch these URLs, and
which line decides?

``check`` fetches each URL's robots.txt through the SQLite cache (or reads ``--robots
FILE_OR_URL``) and prints one line per URL and agent; ``explain`` shows one file with the
groups that apply and the deciding line marked. Exit codes (as Google's ``robots_main``):
0 every URL allowed for every agent, 1 at least one disallowed, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import os
import time
from collections.abc import Iterator
from typing import Any, Callable, Optional, TextIO

from .._rules._parser import MAX_LINE_BYTES
from .._rules._pattern import matches
from .._rules._urls import rfc_pattern, unencoded
from .._tables._words import fetch_json
from .._terminal import visible
from ..errors import RobotsError
from ..linter._checks import path_fix
from ..model import Verdict
from ..robotstxt import RobotsTxt, parse
from ._agent_options import add_agent_options, command_agents
from ._common import (
    EXIT_ALLOWED,
    EXIT_DISALLOWED,
    EXIT_ERROR,
    Progress,
    describe,
    outcome_meaning,
    served_note,
    verdict_json,
    when,
    why,
)
from ._input import explain_fetch, in_mode, load_source, robots_source, url_lines
from ._options import (
    color_option,
    fetch_options,
    intermixed,
    is_url,
    json_option,
    mode_option,
    signer,
    source_url,
    user_agent,
)
from ._output import fail, note, painter

__all__ = ["add_commands"]


def _outcome_note(served: Any) -> str:
    result = served.result
    said = served_note(served.reason)
    if said is not None:
        return f"{said} ({result.error})"
    if result.outcome == "ok":
        return ""
    return f"{result.outcome}: {result.error} -> {outcome_meaning(result.outcome)}"


_Judge = Callable[[str], tuple[Callable[[str], Verdict], str, dict[str, Any]]]
"""A URL -> (its verdict for an agent, a note on the fetch, the fetch as JSON)."""


class _Refreshing:
    """A store whose entries read as due for a refresh, once per origin (``--refresh``):
    each origin is fetched again, and an older good copy is still kept by the entry."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._done: set[str] = set()

    def get(self, origin: str) -> Any:
        entry = self.store.get(origin)
        if entry is None or origin in self._done:
            return entry
        self._done.add(origin)
        return dataclasses.replace(entry, latest=dataclasses.replace(entry.latest,
                                                                     expires_at=0.0))

    def put(self, origin: str, entry: Any) -> None:
        self.store.put(origin, entry)

    def delete(self, origin: str) -> None:
        self.store.delete(origin)

    def close(self) -> None:
        self.store.close()


@contextlib.contextmanager
def _judge_from_cache(args: argparse.Namespace, agents: list[str]) -> Iterator[_Judge]:
    from .._fetch._robotscache import RobotsCache
    from ..cache import MemoryStore, SQLiteStore, Store

    store = MemoryStore() if args.no_cache else SQLiteStore(args.cache)
    used: Store = _Refreshing(store) if args.refresh else store
    started = time.time()
    told: set[str] = set()  # origins whose failed fetch was explained on stderr
    with RobotsCache(used, user_agent=user_agent(args, agents=agents), agent=agents[0],
                     timeout=args.timeout, sign=signer(args)) as cache:
        reread: dict[int, RobotsTxt] = {}  # --mode: each fetched file re-read once

        def judge(url: str) -> tuple[Callable[[str], Verdict], str, dict[str, Any]]:
            if is_url(url):
                source_url(url)
            served = cache.lookup(url)
            robots = served.robots
            if args.mode != robots.mode:
                key = id(robots)
                if key not in reread:
                    reread.clear()  # URLs usually come grouped by site: keep one
                    reread[key] = in_mode(robots, args.mode)
                robots = reread[key]
            result = served.result
            cached = result.fetched_at < started  # not fetched by this run
            said = _outcome_note(served)
            if said and cached:
                said += (f" (cached {when(result.fetched_at)}, kept until "
                         f"{when(result.expires_at)}; --refresh fetches it again)")
            if result.outcome != "ok" and served.reason not in ("last-good-copy", "30-days") \
                    and result.url not in told:
                told.add(result.url)  # once per site: the answer on stdout rests on it
                explain_fetch(result.url, result.outcome, result.error, result.status,
                              when(result.expires_at) if not args.no_cache else None,
                              "name a file with --robots FILE")
            fetch = fetch_json(result.url, result, served.reason, cached)
            return functools.partial(_explain_for, robots, url), said, fetch

        yield judge


def _explain_for(robots: RobotsTxt, url: str, agent: str) -> Verdict:
    return robots.explain(url, agent=agent)


@contextlib.contextmanager
def _judge_from_source(args: argparse.Namespace, agents: list[str]) -> Iterator[_Judge]:
    """``--robots FILE_OR_URL``: one robots.txt for every URL (a URL is fetched once)."""
    loaded = load_source(args.robots, args, agents)
    robots = loaded.robots
    result = loaded.fetched
    fetch = fetch_json(args.robots, result, "file" if result is None else "fresh", False)
    if result is None:
        said = ""
    else:
        said = ("" if result.outcome == "ok" else
                f"{result.outcome}: {result.error} -> {outcome_meaning(result.outcome)}")

    def judge(url: str) -> tuple[Callable[[str], Verdict], str, dict[str, Any]]:
        # the whole explain (not the compiled rules alone): --json lists the usage lines
        return functools.partial(_explain_for, robots, url), said, fetch

    yield judge


_Item = tuple[str, Optional[str], Optional[str]]  # where, URL, what is wrong with the line


def _check_items(args: argparse.Namespace) -> Iterator[_Item]:
    for url in args.urls:
        yield "", url, None
    if args.urls_file:
        yield from url_lines(args.urls_file)


def _robots_first(args: argparse.Namespace) -> None:
    """``check FILE URL...``: a first argument that is a file (or '-'), not a URL or a
    path, is the robots.txt; accepted, with a hint naming ``--robots``."""
    if args.robots is not None or not args.urls or (len(args.urls) < 2 and not args.urls_file):
        return
    first = args.urls[0]  # without --robots a path is no URL to check: a file may be meant
    if not is_url(first) and (first == "-" or os.path.isfile(first)):
        note(f"'check {first} URL...' read as 'check --robots {first} URL...' (the "
             "robots.txt is named with --robots)")
        args.robots = first
        args.urls = args.urls[1:]


def _check(args: argparse.Namespace, out: TextIO) -> int:
    _robots_first(args)
    if args.robots == "-" and args.urls_file == "-":
        return fail("--robots - and --urls-file - cannot both read standard input")
    if not args.urls and not args.urls_file:
        return fail("no URL given: pass URLs as arguments or --urls-file FILE ('-': stdin)")
    agents = command_agents(args)  # --agent and --agent-category tokens
    several = len(agents) > 1
    width = max(len(visible(agent)) for agent in agents)
    status, bad, judged = EXIT_ALLOWED, 0, 0
    flush = args.urls_file == "-"  # in a pipeline: each answer as soon as it is known
    progress = Progress(None if args.urls_file else len(args.urls))
    with contextlib.ExitStack() as stack:
        judge = stack.enter_context(_judge_from_source(args, agents) if args.robots is not None
                                    else _judge_from_cache(args, agents))
        for where, url, problem in _check_items(args):
            if url is not None:
                try:
                    explain, said, fetch = judge(url)
                    verdicts = [(agent, explain(agent)) for agent in agents]
                except RobotsError as error:
                    problem = str(error)
                except Exception as error:  # a bug for this URL: say so, go on with the rest
                    if os.environ.get("ROBOTSRULES_DEBUG"):
                        raise
                    problem = f"internal error: {type(error).__name__}: {error} (a bug)"
            if problem is not None or url is None:
                bad += 1
                progress.done()  # the message on a line of its own; the bar comes back
                fail(f"{where + ': ' if where else ''}{problem}")
                continue
            judged += 1
            for agent, verdict in verdicts:  # one line per agent, in the given order
                if not verdict.allowed:
                    status = EXIT_DISALLOWED
                if args.json:
                    out.write(json.dumps({"url": url, "agent": agent,
                                          **verdict_json(verdict), "fetch": fetch},
                                         ensure_ascii=False) + "\n")
                    continue
                word = "allowed" if verdict.allowed else "disallowed"
                detail = said if said and verdict.rule is None else describe(verdict)
                if said and verdict.rule is not None:
                    detail += f"  [{said}]"
                who = f"{visible(agent):<{width}}  " if several else ""
                out.write(f"{word:<10}  {who}{visible(url)}  {visible(detail)}\n")
            if flush:
                out.flush()
            progress.step()
        progress.done()
    if bad:
        return EXIT_ERROR
    if not judged:
        return fail(f"no URL in {args.urls_file}")
    return status


def _at_lines(numbers: list[int]) -> str:
    """``"at line 2"``, ``"at lines 2, 9"``."""
    return ("at line " if len(numbers) == 1 else "at lines ") + ", ".join(map(str, numbers))


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    """One agent: the file, marked, then the verdict. Several: the file once, marked for
    all of them, then one verdict block per agent; JSON: a list."""
    source = robots_source(args, "explain")
    agents = command_agents(args)
    loaded = load_source(source, args)
    robots, origin = loaded.robots, loaded.origin
    verdicts = [(agent, robots.explain(args.url, agent=agent)) for agent in agents]
    several = len(verdicts) > 1
    code = EXIT_ALLOWED if all(v.allowed for _, v in verdicts) else EXIT_DISALLOWED
    if args.json:
        reports = [{"source": origin, "agent": agent, "url": args.url, **verdict_json(v)}
                   for agent, v in verdicts]
        out.write(json.dumps(reports if several else reports[0], indent=2,
                             ensure_ascii=False) + "\n")
        return code
    paint = painter(out, args)
    group_lines: set[int] = set()
    decides: dict[int, bool] = {}  # deciding line -> allowed (the first agent's, if several)
    for _, verdict in verdicts:
        for group in verdict.groups:
            group_lines.update(group.agent_lines)
            group_lines.update(rule.line for rule in group.rules)
            group_lines.update(usage.line for usage in group.usage)
        if verdict.rule is not None:
            decides.setdefault(verdict.rule.line, verdict.allowed)
    out.write(f"{visible(origin)}\n")
    lines = robots.lines
    if lines and lines[-1].raw == "" and len(lines) > 1:
        lines = lines[:-1]  # the empty "line" after the final line break
    for line in lines:
        if robots.synthetic is not None:
            break  # no file: no line to show
        marker = ">" if line.number in decides else ("|" if line.number in group_lines else " ")
        text = f"{marker} {line.number:>5}  {visible(line.raw)}"
        if line.number in decides:
            text = paint(text, "32" if decides[line.number] else "31", bold=True)
        elif line.number not in group_lines:
            text = paint(text, "2")
        out.write(text + "\n")
    rfc: Optional[dict[int, str]] = None
    if robots.mode == "rfc":  # the Google reading of each rule line: the form to write
        rfc = {rule.line: rule.pattern for group in parse(robots.source).groups
               for rule in group.rules}
    for agent, verdict in verdicts:
        _explain_verdict(args.url, agent, verdict, out, paint, several)
        if robots.mode != "legacy":  # legacy reading compares its own way (urllib's)
            _explain_encoding(verdict, rfc, out)
    return code


def _explain_verdict(url: str, agent: str, verdict: Verdict, out: TextIO,
                     paint: Callable[..., str], several: bool) -> None:
    """The verdict block of ``explain`` for one agent (named on its first line if several)."""
    at = _at_lines([g.line for g in verdict.groups])
    shown = visible(agent)
    if verdict.reason in ("allow-all", "disallow-all"):
        applied = "no file: the status rules decide"
    elif verdict.scope == "specific":
        applied = f"{'group' if len(verdict.groups) == 1 else 'groups'} naming {shown!r} {at}"
    elif verdict.scope == "global":
        applied = (f"no group names {shown!r}: the '*' "
                   f"{'group' if len(verdict.groups) == 1 else 'groups'} {at}")
    else:
        applied = f"no group names {shown!r} and there is no '*' group"
    word = "ALLOWED" if verdict.allowed else "DISALLOWED"
    who = f"  for {shown}" if several else ""
    out.write(f"\n{paint(word, '32' if verdict.allowed else '31', bold=True)}  {visible(url)}"
              f"  (target {visible(verdict.target)}){who}\n")
    out.write(f"  applies: {applied}\n")
    if verdict.rule is not None:
        rank = "" if verdict.reason == "first-match" else f" (priority {verdict.rule.priority})"
        out.write(f"  decides: line {describe(verdict)}{rank}\n")
    out.write(f"  why:     {why(verdict.reason)}\n")
    for usage in verdict.usage:  # AI usage preferences (robotsrules usage)
        out.write(f"  usage:   line {visible(str(usage))}\n")


def _explain_encoding(verdict: Verdict, rfc: Optional[dict[int, str]], out: TextIO) -> None:
    """How the applicable rules whose paths should be percent-encoded (lint R307) are
    matched: as written and encoded, where the two read this target differently. Shown
    only; matching is not changed (Google's library encodes octets >= 0x80 of a pattern,
    nothing else). The form to write is lint's fix in every mode (:func:`path_fix`, from
    the Google reading of the line: ``rfc`` maps a line to it in RFC 9309 mode), never
    RFC 9309 mode's normal form, which Google's library reads differently (``%24``)."""
    for group in verdict.groups:
        for rule in group.rules:
            if not rule.pattern or not unencoded(rule.value):
                continue
            google = rule.pattern if rfc is None else rfc.get(rule.line, "")
            if not google:
                continue
            directive = "Allow" if rule.directive == "allow" else "Disallow"
            form = path_fix(directive, google)
            written = matches(rule.pattern, verdict.target)
            deciding = verdict.rule is not None and verdict.rule.line == rule.line
            head = f"line {visible(str(rule))}"
            if form is None:
                said = (f"{'matches' if written else 'does not match'} this target as "
                        "written; written percent-encoded the line would pass the "
                        f"{MAX_LINE_BYTES:,} octets Google's library reads of a line (the "
                        "rest cut off): shorten the path (for example with `*`)")
                out.write(f"  path:    {head}: {said} (lint R307)\n")
                continue
            either = matches(rfc_pattern(form) if rfc is not None else form, verdict.target)
            if written == either and not deciding:
                continue
            if form == google and rule.pattern == form:  # only octets >= 0x80
                said = f"matched as {form}, the form to write (the same URLs)"
            elif form == google:  # RFC 9309 mode's normal form differs from the form to write
                said = (f"matched as {rule.pattern} (RFC 9309 mode's normal form, which "
                        f"Google's library reads differently); the form to write is {form} "
                        "(the same URLs)")
            elif written == either:
                said = (f"matched as written; written {form} it would match this "
                        "target too")
            else:
                said = (f"{'matches' if written else 'does not match'} this target as "
                        f"written; written {form} it {'would' if either else 'would not'}")
            out.write(f"  path:    {head}: {said} (lint R307)\n")


def add_commands(commands: Any) -> None:
    """Add ``check`` and ``explain`` to the ``robotsrules`` subcommands."""
    from ._options import add_command

    check = add_command(commands, "check")
    check.add_argument("--robots", metavar="FILE_OR_URL",
                       help="read this robots.txt (a file, '-' for stdin, or a URL fetched "
                            "once) for every URL instead of fetching each URL's own")
    add_agent_options(check, "the crawler's product token, e.g. Googlebot (Token/1.0 "
                             "accepted)")
    fetch_options(check)
    check.add_argument("--no-cache", action="store_true",
                       help="do not read or write the robots.txt cache")
    check.add_argument("--refresh", action="store_true",
                       help="fetch each site's robots.txt again even if the cache holds an "
                            "unexpired copy (or failure), and update the cache")
    check.add_argument("--cache", metavar="PATH", default=None,
                       help="SQLite cache file (default: the user cache directory, or "
                            "$ROBOTSRULES_CACHE)")
    check.add_argument("--urls-file", metavar="FILE",
                       help="also check the URLs in FILE, one a line ('-': standard input; "
                            "'#' comments; of 'host<TAB>url' the last field; .gz read), "
                            "answered as they are read; a bad line is reported and skipped "
                            "(exit 2 at the end)")
    json_option(check, "print one JSON object per URL and agent (JSON Lines)")
    mode_option(check)
    check.add_argument("urls", nargs="*", metavar="URL",
                       help="absolute URLs (https://host/path); with --robots, paths too")
    intermixed(check)  # URLs before and after options
    check.set_defaults(run=_check)

    explain = add_command(commands, "explain")
    explain.add_argument("source", metavar="FILE_OR_URL", nargs="?")
    explain.add_argument("url", metavar="URL", nargs="?", help="the URL (or /path) to explain")
    explain.add_argument("--robots", metavar="FILE_OR_URL", help=argparse.SUPPRESS)
    add_agent_options(explain, "the crawler's product token")
    json_option(explain)
    mode_option(explain)
    color_option(explain)
    fetch_options(explain)
    intermixed(explain)
    explain.set_defaults(run=_explain_args)


def _explain_args(args: argparse.Namespace, out: TextIO) -> int:
    """``explain FILE URL``, or ``explain --robots FILE URL`` (then the one positional is
    the URL)."""
    if args.robots is not None and args.source is not None and args.url is None:
        args.url, args.source = args.source, None
    if args.url is None:
        return fail("explain needs FILE_OR_URL and URL: robotsrules explain FILE_OR_URL "
                    "--agent NAME URL")
    return _explain(args, out)

