"""``robotsrules page``: what a response's headers and HTML head say, and what it means.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. The source is a URL (fetched
with one GET, at most ``--max-head-bytes`` of the body read), a file holding an HTTP
response (``HTTP/1.1 200 OK`` then headers, a blank line and the body, as ``curl -i``
writes it), an HTML file, or ``-`` for standard input. Exit codes: 0 done, 2 usage or I/O
error (``robotsrules: error: ...`` on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, Dict, List, Optional, TextIO, Tuple

from .._signals import DEFAULT_HEAD_BYTES, Directive, PageSignals, combine, page_signals
from .._usage import Usage
from ..errors import RobotsError
from ..robotstxt import parse

__all__ = ["add_command", "read_response"]

EXIT_OK, EXIT_ERROR = 0, 2

_URL = re.compile(r"(?i)https?://")
_STATUS_LINE = re.compile(rb"HTTP/\d(?:\.\d)? +\d{3}")
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")

# Which rules make each indexing property "no" (the rules are Google's).
_WHY = {
    "index": ("noindex", "none", "unavailable_after"),
    "follow": ("nofollow", "none"),
    "archive": ("noarchive", "nocache"),
    "snippet": ("nosnippet", "max-snippet"),
    "image_index": ("noimageindex",),
    "translate": ("notranslate",),
}


def read_response(data: bytes) -> Tuple[List[Tuple[str, str]], bytes]:
    """Split a saved HTTP response into its header pairs and body.

    Data that does not start with an HTTP status line is a body without headers. Every
    response of a redirect chain saved by ``curl -iL`` is skipped but the last.
    """
    headers: List[Tuple[str, str]] = []
    rest = data
    while _STATUS_LINE.match(rest):
        end = _BLANK_LINE.search(rest)
        head, body = (rest, b"") if end is None else (rest[:end.start()], rest[end.end():])
        headers = []
        for line in head.splitlines()[1:]:
            name, colon, value = line.partition(b":")
            if colon and name.strip():
                headers.append((name.strip().decode("latin-1"),
                                value.strip().decode("latin-1")))
        rest = body
        if end is None:
            break
    return headers, rest


def _fetch(url: str, args: argparse.Namespace) -> Tuple[List[Tuple[str, str]], bytes, str]:
    import httpx

    from .. import __version__

    agent = str(args.agent).split("/", 1)[0]
    user_agent = args.user_agent or f"{agent} (robotsrules/{__version__})"
    try:
        with httpx.Client(follow_redirects=True, timeout=args.timeout,
                          headers={"User-Agent": user_agent}) as client, \
                client.stream("GET", url) as response:
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) >= args.max_head_bytes:
                    break
            note = f"{response.url}: HTTP {response.status_code}"
            pairs = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in response.headers.raw]
            return pairs, bytes(body), note
    except httpx.HTTPError as error:
        raise RobotsError(f"{url}: {error.__class__.__name__}: {error}") from None


def _load(source: str, args: argparse.Namespace) -> Tuple[List[Tuple[str, str]], bytes, str]:
    if _URL.match(source):
        return _fetch(source, args)
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(source, "rb") as handle:
            data = handle.read()
    headers, body = read_response(data)
    return headers, body, source


def _why(signals: PageSignals, name: str) -> Optional[Directive]:
    for directive in signals.directives:
        if directive.applies and directive.valid and directive.rule in _WHY[name]:
            if directive.rule == "unavailable_after" and not signals.expired:
                continue
            if directive.rule == "max-snippet" and directive.value != "0":
                continue
            return directive
    return None


def _purposes(args: argparse.Namespace) -> List[str]:
    from .._purposes import CONTENT_SIGNALS, check_purpose

    return [check_purpose(p) for p in args.purpose] if args.purpose else list(CONTENT_SIGNALS)


def _report(signals: PageSignals, source: str, purposes: List[str]) -> Dict[str, Any]:
    data = signals.as_dict()
    data["source"] = source
    data["decided_by"] = {name: (d._asdict() if (d := _why(signals, name)) else None)
                          for name in _WHY}
    answers = {}
    for purpose in purposes:
        answer, directive = signals.decide(purpose)
        answers[purpose] = {"allowed": answer,
                            "decided_by": directive._asdict() if directive else None}
    data["purposes"] = answers
    return data


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _print_text(signals: PageSignals, source: str, purposes: List[str], out: TextIO) -> None:
    out.write(f"{source} (agent {', '.join(signals.agent)})\n")
    if not signals.directives:
        out.write("no page-level signal: the defaults apply\n")
    else:
        out.write("signals read:\n")
        for d in signals.directives:
            state = "applies" if d.applies else "other crawler"
            if not d.valid:
                state = "ignored: value not understood"
            out.write(f"  {d.describe()}  [{state}]\n")
    out.write("for this agent:\n")
    for name in _WHY:
        value = getattr(signals, name)
        directive = _why(signals, name)
        because = f"  <- {directive.describe()}" if directive and not value else ""
        out.write(f"  {name}: {_yes(value)}{because}\n")
    for name in ("max_snippet", "max_image_preview", "max_video_preview"):
        value = getattr(signals, name)
        if value is not None:
            out.write(f"  {name}: {value}\n")
    if signals.unavailable_after is not None:
        state = "passed" if signals.expired else "not yet"
        out.write(f"  unavailable_after: {signals.unavailable_after.isoformat()} ({state})\n")
    if signals.tdm_reservation is not None:
        policy = f", policy {signals.tdm_policy}" if signals.tdm_policy else ""
        out.write(f"  tdm-reservation: {signals.tdm_reservation}{policy}\n")
    out.write("purposes:\n")
    for purpose in purposes:
        answer, directive = signals.decide(purpose)
        text = {True: "allowed", False: "refused", None: "nothing stated"}[answer]
        because = f"  <- {directive.describe()}" if directive else ""
        out.write(f"  {purpose}: {text}{because}\n")


def _site(args: argparse.Namespace) -> Optional[Any]:
    """The site's robots.txt (``--robots``), or ``None``."""
    if not args.robots:
        return None
    if _URL.match(args.robots):
        from .. import __version__
        from .._fetcher import fetch

        agent = str(args.agent).split("/", 1)[0]
        result = fetch(args.robots, user_agent=args.user_agent or
                       f"{agent} (robotsrules/{__version__})", timeout=args.timeout)
        robots = result.robots
    else:
        with open(args.robots, "rb") as handle:
            robots = parse(handle.read())
    return robots


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from ._stance import command_agents

    agents = command_agents(args)  # --agent and --agent-category tokens
    args.agent = agents[0]  # the User-Agent header's token when fetching
    purposes = _purposes(args)
    headers, body, note = _load(args.source, args)
    url = args.url or (args.source if _URL.match(args.source) else "/")
    robots = _site(args)
    documents: List[Dict[str, Any]] = []
    for agent in agents:  # one agent: the output of before --agent-category
        usage: Optional[Usage] = None if robots is None else robots.usage(url, agent=agent)
        signals = page_signals(headers, body, agent=agent, url=url,
                               max_head_bytes=args.max_head_bytes)
        both = combine(usage, signals) if args.robots else None
        if args.json:
            data = _report(signals, note, purposes)
            if both is not None:
                data["combined"] = {
                    p: {"allowed": (a := both.decide(p)).allowed, "level": a.level,
                        "why": a.describe()} for p in purposes}
                data["crawl_allowed"] = both.crawl_allowed
            documents.append(data)
            continue
        if len(agents) > 1:
            out.write(f"{'' if agent == agents[0] else chr(10)}agent {agent}\n")
        _print_text(signals, note, purposes, out)
        if both is not None:
            crawl = "allowed" if both.crawl_allowed else "disallowed"
            out.write(f"with the site's robots.txt (crawl {crawl}):\n")
            for purpose in purposes:
                out.write(f"  {purpose}: {both.decide(purpose).describe()}\n")
    if args.json:
        json.dump(documents[0] if len(documents) == 1 else documents, out, indent=2,
                  default=str)
        out.write("\n")
    return EXIT_OK


def add_command(commands: Any) -> None:
    """Add the ``page`` subcommand to :mod:`robotsrules.cli`'s parser."""
    page = commands.add_parser(
        "page", help="page-level signals of a response: X-Robots-Tag, meta robots, TDMRep...",
        description="Read a page's X-Robots-Tag, robots meta tags, noai/noimageai, TDMRep "
                    "and Content-Usage signals and say what they mean for AGENT and which "
                    "one decides. URL_OR_FILE: a URL (fetched), a saved HTTP response "
                    "(curl -i), an HTML file, or '-'.",
        epilog="Exit codes: 0 done, 2 usage or I/O error.")
    page.add_argument("source", metavar="URL_OR_FILE")
    page.add_argument("--agent", metavar="NAME",
                      help="the crawler's product token, e.g. GPTBot (more agents with "
                           "--agent-category: the answers of each in turn; JSON: a list)")
    from ._stance import add_agent_options

    add_agent_options(page)
    page.add_argument("--purpose", action="append", metavar="PURPOSE",
                      help="a purpose to answer (repeatable; default: search, ai-input, "
                           "ai-train)")
    page.add_argument("--json", action="store_true", help="print JSON")
    page.add_argument("--robots", metavar="FILE_OR_URL",
                      help="also read the site's robots.txt usage lines (Content-Signal, "
                           "Content-Usage): a file, or any URL of the site (its robots.txt "
                           "is fetched), and say which level decides")
    page.add_argument("--url", metavar="URL",
                      help="the page's URL when the source is a file (default: /)")
    page.add_argument("--max-head-bytes", type=int, default=DEFAULT_HEAD_BYTES,
                      metavar="N", help=f"read at most N bytes of the body (default "
                                        f"{DEFAULT_HEAD_BYTES})")
    page.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                      help="connect and read time-out for a URL (default 10)")
    page.add_argument("--user-agent", metavar="HEADER",
                      help="User-Agent header to send (default: 'NAME (robotsrules/VERSION)')")
    page.set_defaults(run=_run)


def bulk_pages(args: argparse.Namespace, out: TextIO, form: str) -> int:
    """``robotsrules bulk --pages-warc``: a page-signal table from WARC response records."""
    import os
    import time

    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    from .._purposes import check_purpose
    from ..bulk import RobotsIndex, robots_for
    from ..warc import WarcStats, page_table, read_warcs

    purposes = [check_purpose(p) for p in args.purpose]
    for path in [*args.pages_warc, *(args.robots_warc or [])]:
        if not os.path.isfile(path):
            raise RobotsError(f"{path}: no such file")
    started = time.monotonic()
    stats = WarcStats()
    robots = None
    if args.robots or args.robots_warc:
        if args.robots_warc:
            index = RobotsIndex.from_arrow(read_warcs(args.robots_warc, stats=stats))
        else:
            import duckdb

            from .. import duckdb as engine

            with duckdb.connect() as con:
                index = engine.load_index(con, args.robots)
        robots = {}
        for origin in index.origins():
            row = index.get(origin)
            if row is not None:
                robots[origin] = robots_for(row[0], row[1])
    result = page_table(args.pages_warc, agents=args.agent, purposes=purposes, robots=robots,
                        stats=stats)
    for problem in stats.errors[:10]:
        sys.stderr.write(f"robotsrules: warning: {problem}\n")
    partial = args.out + ".partial"
    if form == "parquet":
        pq.write_table(result, partial, compression="zstd")
    else:
        pacsv.write_csv(result, partial)
    os.replace(partial, args.out)
    seconds = time.monotonic() - started
    noindex = result.num_rows - sum(1 for v in result.column("index").to_pylist() if v)
    out.write(f"{result.num_rows:,} page rows ({noindex:,} noindex) -> {args.out} in "
              f"{seconds:.1f} s\n")
    return EXIT_OK
