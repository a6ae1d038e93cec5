"""The ``robotsrules`` command line: may this agent fetch this URL, and which line decides?

``check`` fetches each URL's robots.txt through the SQLite cache (or reads ``--robots
FILE``); ``fetch`` shows what fetching one robots.txt gives. Exit codes (as Google's
``robots_main``): 0 every URL allowed, 1 at least one disallowed, 2 usage or I/O error (a
one-line message on stderr, never a traceback), 130 interrupted (Ctrl-C), 143 terminated
(SIGTERM). Every text that came from outside (a robots.txt, an HTTP error, a URL) is
printed through :func:`robotsrules._terminal.visible`.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import functools
import json
import os
import sys
import time
from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    NoReturn,
    Optional,
    Sequence,
    TextIO,
    Tuple,
)

from .._agents import agent_tokens
from .._scope import origin_of
from .._terminal import visible
from ..errors import RobotsError
from ..model import Verdict
from ..robotstxt import RobotsTxt
from ._common import (
    EXIT_ALLOWED,
    EXIT_DISALLOWED,
    EXIT_ERROR,
    URL_SOURCE,
    Progress,
    describe,
    fail,
    fetch_options,
    in_mode,
    load,
    mode_option,
    outcome_meaning,
    painter,
    read_bytes,
    read_robots,
    served_note,
    user_agent,
    why,
)
from ._interrupt import Gate
from ._usage import usage_lines_json

__all__ = ["entry", "main"]



def _plural(count: int, word: str, plural: str = "") -> str:
    """``"1 rule"``, ``"2 rules"``."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _when(seconds: float) -> str:
    try:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(
            timespec="seconds")
    except (OverflowError, OSError, ValueError):  # a clock or cache row out of range
        return "-"


def _outcome_note(served: Any) -> str:
    result = served.result
    note = served_note(served.reason)
    if note is not None:
        return f"{note} ({result.error})"
    if result.outcome == "ok":
        return ""
    return f"{result.outcome}: {result.error} -> {outcome_meaning(result.outcome)}"


_Judge = Callable[[str], Tuple[Callable[[str], Verdict], str, Dict[str, Any]]]
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
def _judge_from_cache(args: argparse.Namespace) -> Iterator[_Judge]:
    from .._robotscache import RobotsCache
    from ..cache import MemoryStore, SQLiteStore, Store

    store = MemoryStore() if args.no_cache else SQLiteStore(args.cache)
    used: Store = _Refreshing(store) if args.refresh else store
    started = time.time()
    with RobotsCache(used, user_agent=user_agent(args), agent=args.agents[0],
                     timeout=args.timeout) as cache:
        reread: Dict[int, RobotsTxt] = {}  # --mode: each fetched file re-read once

        def judge(url: str) -> Tuple[Callable[[str], Verdict], str, Dict[str, Any]]:
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
            note = _outcome_note(served)
            if note and cached:
                note += (f" (cached {_when(result.fetched_at)}, kept until "
                         f"{_when(result.expires_at)}; --refresh fetches it again)")
            fetch = {"source": result.url, "outcome": result.outcome, "status": result.status,
                     "error": result.error, "served": served.reason, "cached": cached,
                     "fetched_at": _when(result.fetched_at),
                     "expires_at": _when(result.expires_at)}
            return functools.partial(_explain_for, robots, url), note, fetch

        yield judge


def _explain_for(robots: RobotsTxt, url: str, agent: str) -> Verdict:
    return robots.explain(url, agent=agent)


def _judge_from_file(args: argparse.Namespace) -> _Judge:
    robots = read_robots(args.robots, args.mode)
    rules = {agent: robots.for_agent(agent) for agent in args.agents}
    fetch = {"source": args.robots, "outcome": "ok", "status": None, "error": None,
             "served": "file", "cached": False, "fetched_at": None, "expires_at": None}

    def judge(url: str) -> Tuple[Callable[[str], Verdict], str, Dict[str, Any]]:
        return (lambda agent: rules[agent].explain(url)), "", fetch

    return judge


_Item = Tuple[str, Optional[str], Optional[str]]  # where, URL, what is wrong with the line
MAX_LIST_LINE = 65_536
"""Octets of a URL list line at most (a longer one is reported, not held in memory)."""


def _lines(readline: Callable[[int], bytes]) -> Iterator[Tuple[bytes, bool]]:
    """The lines of a binary stream, each with True when it was longer than
    :data:`MAX_LIST_LINE` (then only its start is kept; the rest is read and dropped)."""
    while True:
        raw = readline(MAX_LIST_LINE + 1)
        if not raw:
            return
        if len(raw) <= MAX_LIST_LINE or raw.endswith(b"\n"):
            yield raw, False
            continue
        while True:  # skip to the end of the over-long line
            rest = readline(MAX_LIST_LINE)
            if not rest or rest.endswith(b"\n"):
                break
        yield raw[:MAX_LIST_LINE], True


def _listed(name: str) -> Iterator[_Item]:
    """The URLs of a list file ('-': stdin), streamed, as ``bulk`` reads text lists: one a
    line, blank lines and '#' comments skipped, of ``host<TAB>url`` the last field; a
    ``.gz`` file is decompressed. A line that is not UTF-8 comes with a problem instead."""
    import gzip
    import zlib

    label = "<stdin>" if name == "-" else name
    with contextlib.ExitStack() as stack:
        handle: Any
        if name == "-":
            handle = sys.stdin.buffer
        elif name.lower().endswith((".gz", ".gzip")):
            handle = stack.enter_context(gzip.open(name, "rb"))
        else:
            handle = stack.enter_context(open(name, "rb"))
        number = 0
        try:
            for number, (raw, too_long) in enumerate(_lines(handle.readline), 1):
                where = f"{label}:{number}"
                if too_long:
                    yield where, None, f"longer than {MAX_LIST_LINE:,} octets"
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    yield where, None, (f"not UTF-8 (octet 0x{raw[error.start]:02x} at column "
                                        f"{error.start + 1}); percent-encode it (%"
                                        f"{raw[error.start]:02X})")
                    continue
                line = text.lstrip("\ufeff").strip() if number == 1 else text.strip()
                if line and not line.startswith("#"):
                    yield where, line.rsplit("\t", 1)[-1].strip(), None
        except (EOFError, zlib.error, gzip.BadGzipFile) as error:
            raise RobotsError(f"{label}: cannot read past line {number}: {error}") from None


def _check_items(args: argparse.Namespace) -> Iterator[_Item]:
    for url in args.urls:
        yield "", url, None
    if args.urls_file:
        yield from _listed(args.urls_file)


def _check(args: argparse.Namespace, out: TextIO) -> int:
    if args.robots == "-" and args.urls_file == "-":
        return fail("--robots - and --urls-file - cannot both read standard input")
    if not args.urls and not args.urls_file:
        return fail("no URL given: pass URLs as arguments or --urls-file FILE ('-': stdin)")
    from ._stance import command_agents

    args.agents = agents = command_agents(args)  # --agent and --agent-category tokens
    several = len(agents) > 1
    width = max(len(visible(agent)) for agent in agents)
    status, bad, judged = EXIT_ALLOWED, 0, 0
    flush = args.urls_file == "-"  # in a pipeline: each answer as soon as it is known
    progress = Progress(None if args.urls_file else len(args.urls))
    with contextlib.ExitStack() as stack:
        judge = (_judge_from_file(args) if args.robots is not None
                 else stack.enter_context(_judge_from_cache(args)))
        for where, url, problem in _check_items(args):
            if url is not None:
                try:
                    explain, note, fetch = judge(url)
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
                                          **_verdict_json(verdict), "fetch": fetch},
                                         ensure_ascii=False) + "\n")
                    continue
                word = "allowed" if verdict.allowed else "disallowed"
                detail = note if note and verdict.rule is None else describe(verdict)
                if note and verdict.rule is not None:
                    detail += f"  [{note}]"
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


def _fetch(args: argparse.Namespace, out: TextIO) -> int:
    from .._fetcher import fetch

    result = fetch(args.url, user_agent=user_agent(args), timeout=args.timeout)
    robots = result.robots
    if args.json:
        report = {
            "url": result.url, "outcome": result.outcome, "status": result.status,
            "error": result.error, "final_url": result.final_url,
            "redirects": list(result.redirects), "fetched_at": _when(result.fetched_at),
            "expires_at": _when(result.expires_at), "size": result.size,
            "truncated": result.truncated, "rules": robots.synthetic or "file",
            "groups": [{"line": g.line, "agents": list(g.agent_values), "rules": len(g.rules)}
                       for g in robots.groups] if robots.synthetic is None else [],
            "sitemaps": list(robots.sitemaps),
        }
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
    out.write(f"robots.txt  {visible(result.url)}\n")
    out.write(f"outcome     {result.outcome}"
              f"{'' if result.outcome == 'ok' else ' -> ' + outcome_meaning(result.outcome)}\n")
    out.write(f"status      {result.status if result.status is not None else '-'}\n")
    if result.error:
        out.write(f"error       {visible(result.error)}\n")
    for hop in result.redirects:
        out.write(f"redirect    -> {visible(hop)}\n")
    out.write(f"fetched     {_when(result.fetched_at)}\n")
    out.write(f"expires     {_when(result.expires_at)}\n")
    out.write(f"size        {_plural(result.size, 'byte')}"
              f"{' (truncated)' if result.truncated else ''}\n")
    if robots.synthetic is not None:
        out.write(f"rules       none: {robots.synthetic.replace('-', ' ')}\n")
        return EXIT_ALLOWED
    out.write(f"groups      {len(robots.groups)}\n")
    for group in robots.groups:
        names = visible(", ".join(group.agent_values)) or "-"
        out.write(f"  line {group.line:<5} {names}: {_plural(len(group.rules), 'rule')}\n")
    for sitemap in robots.sitemaps:
        out.write(f"sitemap     {visible(sitemap)}\n")
    return EXIT_ALLOWED


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
        "usage": usage_lines_json(verdict.usage),
    }


def _at_lines(numbers: List[int]) -> str:
    """``"at line 2"``, ``"at lines 2, 9"``."""
    return ("at line " if len(numbers) == 1 else "at lines ") + ", ".join(map(str, numbers))


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    """One agent: the file, marked, then the verdict. Several (``--agent-category``): the
    file once, marked for all of them, then one verdict block per agent; JSON: a list."""
    from ._stance import command_agents

    agents = command_agents(args)
    robots, origin = load(args.source, args)
    verdicts = [(agent, robots.explain(args.url, agent=agent)) for agent in agents]
    several = len(verdicts) > 1
    code = EXIT_ALLOWED if all(v.allowed for _, v in verdicts) else EXIT_DISALLOWED
    if args.json:
        reports = [{"source": origin, "agent": agent, "url": args.url, **_verdict_json(v)}
                   for agent, v in verdicts]
        out.write(json.dumps(reports if several else reports[0], indent=2,
                             ensure_ascii=False) + "\n")
        return code
    paint = painter(out, args)
    group_lines: set[int] = set()
    decides: Dict[int, bool] = {}  # deciding line -> allowed (the first agent's, if several)
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
            break
        marker = ">" if line.number in decides else ("|" if line.number in group_lines else " ")
        text = f"{marker} {line.number:>5}  {visible(line.raw)}"
        if line.number in decides:
            text = paint(text, "32" if decides[line.number] else "31", bold=True)
        elif line.number not in group_lines:
            text = paint(text, "2")
        out.write(text + "\n")
    for agent, verdict in verdicts:
        _explain_verdict(args.url, agent, verdict, out, paint, several)
    return code


def _explain_verdict(url: str, agent: str, verdict: Verdict, out: TextIO,
                     paint: Callable[..., str], several: bool) -> None:
    """The verdict block of ``explain`` for one agent (named on its first line if several)."""
    at = _at_lines([g.line for g in verdict.groups])
    if verdict.scope == "specific":
        applied = f"{'group' if len(verdict.groups) == 1 else 'groups'} naming {agent!r} {at}"
    elif verdict.scope == "global":
        applied = (f"no group names {agent!r}: the '*' "
                   f"{'group' if len(verdict.groups) == 1 else 'groups'} {at}")
    else:
        applied = f"no group names {agent!r} and there is no '*' group"
    word = "ALLOWED" if verdict.allowed else "DISALLOWED"
    who = f"  for {visible(agent)}" if several else ""
    out.write(f"\n{paint(word, '32' if verdict.allowed else '31', bold=True)}  {visible(url)}"
              f"  (target {visible(verdict.target)}){who}\n")
    out.write(f"  applies: {applied}\n")
    if verdict.rule is not None:
        rank = "" if verdict.reason == "first-match" else f" (priority {verdict.rule.priority})"
        out.write(f"  decides: line {describe(verdict)}{rank}\n")
    out.write(f"  why:     {why(verdict.reason)}\n")
    for usage in verdict.usage:  # AI usage preferences (robotsrules usage)
        out.write(f"  usage:   line {usage}\n")


def _agents_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .._crawlers import crawler_verdicts, registry_info, unstoppable

    if args.by_category:
        from ._stance import by_category_cmd

        return by_category_cmd(args, out)

    from ._stance import crawler_json, crawler_table, expand_agents

    wanted = set(expand_agents(args))  # --agent-category: only its tokens are listed
    table = crawler_table(args)
    robots, origin = load(args.source, args)
    verdicts = [v for v in crawler_verdicts(robots, args.url, table)
                if not wanted or v.crawler.token in wanted]
    said = [robots.usage(args.url, agent=v.crawler.token or "*") for v in verdicts]
    cannot = [c for c in unstoppable(table) if not wanted or c.token in wanted]
    info = registry_info()
    if args.json:
        report = {
            "source": origin,
            "registry": info,
            "groups": [{"line": g.line, "agents": list(g.agent_values),
                        "tokens": list(g.agents), "rules": len(g.rules)} for g in robots.groups],
            "crawlers": [{**crawler_json(v.crawler), "url": args.url,
                          **_verdict_json(v.verdict), "preferences": u.preferences}
                         for v, u in zip(verdicts, said)],
            "robots_txt_cannot_stop": [crawler_json(c) for c in cannot],
        }
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        return EXIT_ALLOWED
    out.write(f"{visible(origin)}\n\ngroups:\n")
    for group in robots.groups:
        names = visible(", ".join(group.agent_values)) or "(empty)"
        out.write(f"  line {group.line:<5} {names}: {_plural(len(group.rules), 'rule')}\n")
    if not robots.groups:
        out.write("  (none)\n")
    out.write(f"\nknown crawlers (registry {info['version']}, compiled {info['compiled']}), may "
              f"they fetch {visible(args.url)}? (then search, ai-input, ai-train: yes, no, - "
              "nothing stated)\n")
    for item, usage in zip(verdicts, said):
        v = item.verdict
        crawler = item.crawler
        word = "allowed" if v.allowed else "disallowed"
        where = {"specific": f"its group at line {item.group_line}",
                 "global": f"'*' group at line {item.group_line}",
                 "none": "no group"}[v.scope]
        rule = f", {visible(str(v.rule))}" if v.rule is not None else ""
        prefs = " ".join(f"{ {True: 'yes', False: 'no', None: '-'}[usage.allows(p)]:<3}"
                         for p in ("search", "ai-input", "ai-train"))
        name = visible(crawler.label)  # a --crawlers file is written by someone else
        if crawler.token and crawler.token != crawler.label:
            name = f"{name} (read as {crawler.token})"
        flag = ("" if crawler.stoppable is not False
                else "  ! " + visible(crawler.robots_txt_note()))
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


def _diff_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from .._diff import diff

    reading = [name for name in (args.old, args.new, args.urls) if name == "-"]
    if len(reading) > 1:
        return fail("only one of OLD, NEW and --urls can be '-' (standard input)")
    from ._stance import expand_agents

    agents = expand_agents(args)  # --agent and --agent-category tokens
    for agent in agents:
        agent_tokens(agent)  # a caller mistake: say so before any work
    old, old_name = load(args.old, args)
    new, new_name = load(args.new, args)
    urls: Optional[List[str]] = None
    bad = 0
    if args.urls:
        urls = []
        for where, url, problem in _listed(args.urls):
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
            urls.append(url)
    changes = diff(old, new, urls, agents or None)
    if args.json:
        report = {"old": old_name, "new": new_name, "changes": [
            {"agent": c.agent, "url": c.url, "old": _verdict_json(c.old),
             "new": _verdict_json(c.new)} for c in changes]}
        out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        for c in changes:
            before = "allowed" if c.old.allowed else "disallowed"
            after = "allowed" if c.new.allowed else "disallowed"
            why_old = str(c.old.rule) if c.old.rule else why(c.old.reason)
            why_new = str(c.new.rule) if c.new.rule else why(c.new.reason)
            out.write(f"{visible(c.agent):<16} {visible(c.url)}  {before} -> {after}\n"
                      f"    old: {visible(why_old)}\n    new: {visible(why_new)}\n")
        if not changes:
            out.write("no verdict changes\n")
    if bad:
        return EXIT_ERROR
    return EXIT_DISALLOWED if changes else EXIT_ALLOWED


_FAIL_ON = {"error": 1, "warning": 2, "info": 3, "never": 0}  # how many severities fail


def _lint_source(source: str, args: argparse.Namespace) -> Tuple[Optional[bytes], str]:
    """The octets to lint and the name to report them under (None: nothing to lint)."""
    if not URL_SOURCE.match(source):
        return read_bytes(source), source
    from .._fetcher import fetch
    from ..robotstxt import DEFAULT_MAX_BYTES

    # Read past the 500 KiB limit so that the lint can say the file is over it.
    result = fetch(source, user_agent=user_agent(args), timeout=args.timeout,
                   max_bytes=2 * DEFAULT_MAX_BYTES)
    if result.outcome == "ok":
        return result.robots.source, result.url
    meaning = outcome_meaning(result.outcome)
    message = f"{result.url}: {result.outcome}: {result.error} -> {meaning}; nothing to lint"
    if result.outcome == "unavailable":  # no file is a valid state: say so, find nothing
        sys.stderr.write(f"robotsrules: {visible(message)}\n")
        return None, result.url
    raise RobotsError(message)


def _lint_cmd(args: argparse.Namespace, out: TextIO) -> int:
    from ..linter import CODES, SEVERITIES, lint
    from ..linter._output import render, summary_line, to_json, to_sarif_many, to_text

    if args.list_codes:
        for code, row in CODES.items():
            out.write(f"{code}  {row.severity:<8} {row.name:<28} {row.summary}\n")
        return EXIT_ALLOWED
    if not args.sources:
        return fail("no file given: pass FILE_OR_URL (or '-' for stdin)")
    if args.sources.count("-") > 1:
        return fail("'-' (standard input) can be given once")
    form = "json" if args.json else args.format
    failing = set(SEVERITIES[:_FAIL_ON[args.fail_on]])
    found: List[Tuple[str, List[Any]]] = []
    for source in args.sources:
        content, name = _lint_source(source, args)
        diagnostics = [] if content is None else lint(content)
        if args.fetch and content is not None:  # R702-R704: the licence documents (issue 26)
            from ._license import fetched_diagnostics

            site = origin_of(name) if URL_SOURCE.match(source) else None
            diagnostics = sorted(diagnostics + fetched_diagnostics(content, site, args),
                                 key=lambda d: (d.line, d.column, d.code))
        found.append((name, diagnostics))
    if form == "sarif":
        out.write(json.dumps(to_sarif_many(found), indent=2, ensure_ascii=False) + "\n")
    elif form == "json" and len(found) > 1:  # one schema-valid object per file
        out.write(json.dumps([to_json(d, name) for name, d in found], indent=2,
                             ensure_ascii=False) + "\n")
    elif form == "json":
        out.write(render(found[0][1], "json", found[0][0]))
    else:
        colour = painter(out, args)("x", "0") != "x"
        for name, diagnostics in found:
            if diagnostics:
                out.write(to_text(diagnostics, name, color=colour))
            out.write(f"{visible(name)}: "
                      f"{summary_line(diagnostics) if diagnostics else 'no problems'}\n")
    hit = any(d.severity in failing for _, diagnostics in found for d in diagnostics)
    return EXIT_DISALLOWED if hit else EXIT_ALLOWED


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``robotsrules check: error: ...``), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {visible(message)} "
                              f"(see '{self.prog} --help')\n")


class _Version(argparse.Action):
    """``--version``: the library's version and its data tables' (read only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: Optional[str] = None) -> None:
        from .._provenance import version_text

        sys.stdout.write(version_text())  # where argparse's own --version writes
        parser.exit(0)


class _Once(argparse.Action):
    """An option that may be given once: a second one is an error, not a silent
    replacement of the first."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: Optional[str] = None) -> None:
        seen = namespace.__dict__.setdefault("_given_once", set())
        if self.dest in seen:
            parser.error(f"{option_string} given twice: this command takes one (run it once "
                         "per agent; diff and bulk compare several)")
        seen.add(self.dest)
        setattr(namespace, self.dest, values)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="robotsrules",
        description="Read robots.txt files the way Google and RFC 9309 do.",
        epilog="Exit codes: 0 all allowed, 1 some URL disallowed, 2 usage or I/O error, "
               "130 interrupted, 143 terminated.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the version and the dates of the shipped data, then exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    check = commands.add_parser(
        "check",
        help="may AGENT fetch each URL? prints the verdict and the deciding line",
        description="Print, for each URL, whether AGENT may fetch it and which line decides.",
        epilog="Exit codes: 0 all allowed, 1 some URL disallowed (for any agent), 2 usage or "
               "I/O error.",
    )
    check.add_argument("--robots", metavar="FILE",
                       help="read this robots.txt file instead of fetching ('-': stdin)")
    check.add_argument("--agent", metavar="NAME", action=_Once,
                       help="the crawler's product token, e.g. Googlebot (Token/1.0 accepted; "
                            "once; more agents with --agent-category: one line per URL and "
                            "agent)")
    from ._stance import add_agent_options

    add_agent_options(check)
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
    check.add_argument("--json", action="store_true",
                       help="print one JSON object per URL (JSON Lines)")
    mode_option(check)
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
    fetch.add_argument("--agent", default="robotsrules", metavar="NAME", action=_Once,
                       help="product token for the default User-Agent header")
    fetch.add_argument("--json", action="store_true", help="print JSON")
    fetch_options(fetch)
    fetch.add_argument("url", metavar="URL", help="any URL of the site")
    fetch.set_defaults(run=_fetch)

    explain = commands.add_parser(
        "explain", help="show the file with the groups that apply and the line that decides",
        description="Show SOURCE (a file, '-' or a URL) with line numbers: '|' marks the "
                    "groups that apply to AGENT, '>' the deciding line; then the reason.",
        epilog="Exit codes: 0 allowed, 1 disallowed (for any agent), 2 usage or I/O error.")
    explain.add_argument("source", metavar="FILE_OR_URL")
    explain.add_argument("--agent", metavar="NAME", action=_Once,
                         help="the crawler's product token (once; more agents with "
                              "--agent-category: the file once, then one verdict per agent)")
    add_agent_options(explain)
    explain.add_argument("url", metavar="URL", help="the URL (or /path) to explain")
    _shared_options(explain)

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
    _shared_options(agents)
    from ._stance import add_agent_options

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
    differ.add_argument("--urls", metavar="FILE",
                        help="URLs or paths to compare, one a line ('-': standard input; "
                             "a bad line is reported and skipped, exit 2 at the end)")
    differ.add_argument("--agent", action="append", metavar="NAME",
                        help="an agent to compare (repeatable)")
    add_agent_options(differ)
    _shared_options(differ)
    from ._bulk import add_commands as add_bulk_commands  # bulk, report (issue 7)

    add_bulk_commands(commands)
    from ._stance import add_command as add_stance_command  # stance (issue 17)

    stance = add_stance_command(commands)
    from ._bulk import add_stance_table_options  # stance --robots --out (issue 17)

    add_stance_table_options(stance)
    from ._page import add_command as add_page_command  # page (issue 16)

    add_page_command(commands)
    from ._usage import add_command as add_usage_command  # usage (issue 15)

    add_usage_command(commands)
    from ._license import add_command as add_license_command  # license (issue 26)

    add_license_command(commands)

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
    linter.add_argument("--agent", default="robotsrules", metavar="NAME", action=_Once,
                        help="product token for the default User-Agent header (URLs)")
    linter.add_argument("--fetch", action="store_true",
                        help="also fetch the RSL licence documents that License lines name "
                             "and report those that are unreachable (R702) or invalid "
                             "(R703), and <content url> values on another origin (R704)")
    fetch_options(linter)
    linter.set_defaults(run=_lint_cmd)
    return parser


def _shared_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    mode_option(parser)
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour the text output (default: on a terminal)")
    fetch_options(parser)
    parser.set_defaults(run={"explain": _explain, "agents": _agents_cmd,
                             "diff": _diff_cmd}[parser.prog.split()[-1]])


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    """Run the command line in-process; return the exit code (see the module docstring).

    ``argv`` defaults to ``sys.argv[1:]``. From the main thread, SIGINT and SIGTERM are
    handled while the command runs (exit codes 130 and 143) and the caller's handlers are
    given back when it returns; the ``robotsrules`` program itself is :func:`entry`."""
    gate = Gate(process=False)
    with gate.installed():
        return _guarded(argv, out, gate)


def entry() -> NoReturn:
    """The ``robotsrules`` program (and ``python -m robotsrules``): the signal handling is
    in place before any work and stays until the process exits, so a signal at any moment
    after it gives the documented exit code, never a death by signal
    (:mod:`robotsrules.cli._interrupt`)."""
    gate = Gate(process=True)
    gate.install()
    code = _guarded(None, None, gate)
    gate.settle(code)
    sys.exit(code)


def _guarded(argv: Optional[Sequence[str]], out: Optional[TextIO], gate: Gate) -> int:
    try:
        return _main(argv, out)
    except KeyboardInterrupt:  # a signal (Terminated for SIGTERM): stop quietly
        return gate.exit_code()


def _main(argv: Optional[Sequence[str]], out: Optional[TextIO]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exit_.code or 0)
    try:
        return int(args.run(args, out or sys.stdout))
    except RobotsError as error:
        return fail(str(error))
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep Python's exit flush quiet
        return EXIT_ERROR
    except OSError as error:
        name = getattr(error, "filename", None)
        return fail(f"{name + ': ' if name else ''}{error.strerror or error}")
    except Exception as error:  # a bug: one line, not a traceback (unless asked for)
        if os.environ.get("ROBOTSRULES_DEBUG"):
            raise
        return fail(f"internal error: {type(error).__name__}: {error} (a bug; please report "
                     "it; ROBOTSRULES_DEBUG=1 shows the traceback)")


if __name__ == "__main__":  # pragma: no cover
    entry()


