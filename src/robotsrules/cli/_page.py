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
from typing import Any, Optional, TextIO

from .._page import DEFAULT_HEAD_BYTES, PageSignals, admit_page
from .._rules._usage import Usage
from .._tables._purposes import check_purposes
from .._tables._words import PAGE_PROPERTIES, page_decider, page_report
from .._terminal import visible
from ..errors import RobotsError

__all__ = ["add_command", "read_response"]

from ._common import EXIT_OK
from ._options import is_url, signer, source_url, user_agent

_HEADER_BYTES = 1 << 20
"""Octets of a saved response read before its body (the header blocks of a redirect chain
saved by ``curl -iL``): with ``--max-head-bytes``, all that is read of a file or stdin."""

def read_response(data: bytes) -> tuple[list[tuple[str, str]], bytes]:
    """Split a saved HTTP response into its header pairs and body.

    Data that does not start with an HTTP status line is a body without headers. Every
    response of a redirect chain saved by ``curl -iL`` is skipped but the last. The header
    block is read by the page layer's one reader (folded lines unfolded).
    """
    headers, body, _ = _read_saved(data)
    return headers, body


def _read_saved(data: bytes) -> tuple[list[tuple[str, str]], bytes, Optional[int]]:
    """:func:`read_response` and the last response's status (``None``: no status line).
    The final response's block is found by the page layer's one rule
    (:func:`robotsrules._page._headers.final_block`) within :data:`_HEADER_BYTES`."""
    from .._page._headers import block_status, final_block, header_block, response_start

    text = data[:_HEADER_BYTES].decode("latin-1")  # one character per octet: same offsets
    if response_start(text) is None:  # the page layer's rule (a BOM, blank lines skipped)
        return [], data, None
    start, end, body = final_block(text)
    head = text[start:end]
    headers = [(f.name, f.value) for f in header_block(head)]
    # No blank line within the bound: the headers run past it, no body is read.
    return headers, data[body:] if end < len(text) else b"", block_status(head)


_Loaded = tuple[list[tuple[str, str]], bytes, str, Optional[int], bool]
"""Headers, body, the source's description, status, and whether the body read is only a
start that does not show it (a saved file read up to its bound: ``got.cut``)."""


def _fetch(url: str, args: argparse.Namespace, agents: list[str]) -> _Loaded:
    """The page at ``url`` by the project's fetch (:func:`robotsrules._fetch._fetcher.fetch_page`:
    its time-outs, whole-fetch deadline and bounded body decoder)."""
    from .._fetch._fetcher import fetch_page

    source_url(url, ("http", "https"))
    # One octet past the bound: a longer body shows as cut (PageSignals.head_cut).
    page = fetch_page(url, user_agent=user_agent(args, agents=agents),
                      max_bytes=args.max_head_bytes + 1, timeout=args.timeout,
                      sign=signer(args))
    if page.error is not None:
        raise RobotsError(f"{url}: {page.error}")
    return list(page.headers), page.body, f"{page.url}: HTTP {page.status}", page.status, \
        False  # a longer body shows by its length


def _load(source: str, args: argparse.Namespace, agents: list[str]) -> _Loaded:
    """The page: fetched (a URL), or read from a saved response or HTML file ('-': stdin),
    its header blocks and the first ``--max-head-bytes`` of its body, never more; with the
    last response's status (``None``: a file without a status line)."""
    from ._input import read_input

    if is_url(source):
        return _fetch(source, args, agents)
    got = read_input(source, _HEADER_BYTES + args.max_head_bytes + 1)
    headers, body, status = _read_saved(got.data)
    # +1: the page layer tells a cut head from one that ends at the bound
    # Not known, never "nothing stated": the file went on past what was read, or its
    # headers ran past their bound (no body read at all).
    cut = got.cut or (not body and len(got.data) > _HEADER_BYTES)
    return headers, _decoded(headers, body, args.max_head_bytes + 1, got.cut, got.name), \
        got.name, status, cut


_MARKUP_START = b"\t\n\x0c\r \xef\xbb\xbf"
_CHUNK_SIZE_LINE = re.compile(rb"[0-9A-Fa-f]{1,16}[ \t]*(?:;[^\r\n]*)?\r?\n")


def _markup(body: bytes) -> bool:
    """Whether a body starts as markup (blanks and a UTF-8 BOM aside) or as UTF-16 text: a
    body that tools saved decoded, whatever its header says."""
    return body.lstrip(_MARKUP_START).startswith(b"<") or body.startswith(
        (b"\xff\xfe", b"\xfe\xff"))  # or a UTF-16 text, by its byte order mark


def _dechunked(headers: list[tuple[str, str]], body: bytes, cut: bool, name: str) -> bytes:
    """A saved body whose ``Transfer-Encoding`` names ``chunked`` and that is still chunked
    (RFC 9112 §7.1: it starts with a chunk-size line) de-chunked by the one bounded
    de-chunker (:class:`robotsrules._decoder.Dechunker`: never more octets than the saved
    ones); a body that tools saved de-chunked is read as it stands."""
    from .._decoder import Dechunker

    coding = ",".join(value for key, value in headers if key.lower() == "transfer-encoding")
    if "chunked" not in coding.lower() or _CHUNK_SIZE_LINE.match(body) is None:
        return body
    chunks = Dechunker()
    data = chunks.feed(body)
    if chunks.error is not None or not (chunks.done or cut):
        if _markup(body):
            return body
        raise RobotsError(f"{name}: the body could not be read: chunked transfer coding: "
                          f"{chunks.error or 'the last chunk never arrives'}")
    return data


def _decoded(headers: list[tuple[str, str]], body: bytes, limit: int, cut: bool, name: str
             ) -> bytes:
    """At most ``limit`` octets of a saved body, de-chunked when it is still chunked
    (:func:`_dechunked`) and decoded as its ``Content-Encoding`` says by the one bounded body
    decoder (:class:`robotsrules._decoder.BodyDecoder`: a bomb never inflates past
    ``limit``); a body starting with the gzip magic and no ``Content-Encoding`` is gzip.
    Tools that decode a body as they save it (``curl -i --compressed``) keep the header: a
    coded body that does not decode but starts as markup is read as it stands. A body that
    cannot be decoded otherwise is an error, never "no signal". ``cut``: the read stopped at
    its bound, so a stream without its end is no damage."""
    from .._decoder import BodyDecoder

    body = _dechunked(headers, body, cut, name)
    coding = ", ".join(value for key, value in headers if key.lower() == "content-encoding")
    decoder = BodyDecoder(coding, limit)
    if not decoder.kind and decoder.error is None:
        if not body.startswith(b"\x1f\x8b"):
            return body[:limit]  # identity
        decoder = BodyDecoder("gzip", limit)  # the gzip magic, and no header says so
    if decoder.kind == "gzip" and not body.startswith(b"\x1f\x8b"):
        if _markup(body):
            return body[:limit]  # saved decoded under the header it came with
        raise RobotsError(f"{name}: the body could not be read: Content-Encoding says gzip, "
                          "but the body is neither gzip data nor markup")
    decoder.feed(body)
    if not cut:
        decoder.finish()
    if decoder.error is not None:
        if decoder.kind in ("deflate", "br") and _markup(body):
            return body[:limit]  # markup, not a compressed stream: saved decoded
        raise RobotsError(f"{name}: the body could not be read: {decoder.error}")
    return decoder.body


def _purposes(args: argparse.Namespace) -> list[str]:
    from .._tables._purposes import CONTENT_SIGNALS

    return list(check_purposes(args.purpose)) if args.purpose else list(CONTENT_SIGNALS)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _print_text(signals: PageSignals, source: str, purposes: list[str], out: TextIO,
                heading: str = "purposes:") -> None:
    out.write(f"{visible(source)} (agent {visible(', '.join(signals.agent))})\n")
    if signals.head_cut:
        out.write("note: the head was cut at --max-head-bytes before its <body> tag: a "
                  "signal past it may be missing (answers not refused are not known)\n")
    if not signals.directives and not signals.head_cut:
        out.write("no page-level signal: the defaults apply\n")
    else:
        out.write("signals read:\n")
        for d in signals.directives:
            state = "applies" if d.applies else "other crawler"
            if not d.valid:
                state = "ignored: value not understood"
            out.write(f"  {visible(d.describe())}  [{state}]\n")
    out.write("for this agent:\n")
    for name in PAGE_PROPERTIES:
        value = getattr(signals, name)
        directive = page_decider(signals, name)
        because = f"  <- {visible(directive.describe())}" if directive and not value else ""
        out.write(f"  {name}: {_yes(value)}{because}\n")
    for name in ("max_snippet", "max_image_preview", "max_video_preview"):
        value = getattr(signals, name)
        if value is not None:
            out.write(f"  {name}: {visible(str(value))}\n")
    if signals.unavailable_after is not None:
        state = "passed" if signals.expired else "not yet"
        out.write(f"  unavailable_after: {signals.unavailable_after.isoformat()} ({state})\n")
    if signals.tdm_reservation is not None:
        policy = f", policy {signals.tdm_policy}" if signals.tdm_policy else ""
        out.write(f"  tdm-reservation: {visible(f'{signals.tdm_reservation}{policy}')}\n")
    out.write(heading + "\n")
    for purpose in purposes:
        answer, directive = signals.decide(purpose)
        text = {True: "allowed", False: "refused",
                None: "not known (head cut)" if signals.head_cut else "nothing stated"}[answer]
        because = f"  <- {visible(directive.describe())}" if directive else ""
        out.write(f"  {purpose}: {text}{because}\n")
    _print_licences(signals, out)


def _print_licences(signals: PageSignals, out: TextIO) -> None:
    """The licences (RSL 1.0) and the pay-per-crawl price a response names (issue 26)."""
    if signals.licenses or signals.inline_licenses:
        out.write("licences:\n")
    for link in signals.licenses:
        where = (f"Link header #{link.offset}" if link.source == "header"
                 else f"<link> line {link.line}" + ("" if link.in_head else ", after the head"))
        kind = "RSL" if link.rsl else "not RSL (no type application/rsl+xml)"
        state = "" if link.valid else "  [not an http(s) URL for this page]"
        out.write(visible(f"  {link.url or '(no href)'}  ({kind}; {where}){state}") + "\n")
    for script in signals.inline_licenses:
        out.write(f"  inline RSL licence: <script> line {script.line} "
                  f"({len(script.text):,} characters)\n")
    if signals.pricing is not None:
        out.write(visible(f"payment: {signals.pricing.describe()}") + "\n")


def _site_tdmrep(url: str, args: argparse.Namespace, agents: list[str]) -> Optional[Any]:
    """The TDMRep site file (``/.well-known/tdmrep.json``) of a fetched page's origin,
    through :meth:`robotsrules.RobotsCache.tdmrep` (the robots.txt fetch policy: a 4xx is
    absent, an unreachable site reserved); ``None`` for a page read from a file."""
    if not is_url(args.source):
        return None
    from .._fetch._robotscache import RobotsCache

    with RobotsCache(user_agent=user_agent(args, agents=agents), timeout=args.timeout,
                     sign=signer(args)) as cache:
        return cache.tdmrep(url)


def _site(args: argparse.Namespace, agents: list[str]) -> Optional[Any]:
    """The site's robots.txt (``--robots``), or ``None``."""
    if not args.robots:
        return None
    from ._input import load_source

    return load_source(args.robots, args, agents).robots


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from ._agent_options import command_agents

    if args.source == "-" and args.robots == "-":
        raise RobotsError("the page and --robots cannot both read standard input")
    agents = command_agents(args)  # --agent and --agent-category tokens (the User-Agent
    # header names the one agent, if one)
    purposes = _purposes(args)
    headers, body, note, status, cut = _load(args.source, args, agents)
    url = args.url or (args.source if is_url(args.source) else "/")
    robots = _site(args, agents)
    tdmrep = _site_tdmrep(url, args, agents)

    def usage(agent: Any) -> Optional[Usage]:
        return None if robots is None else robots.usage(url, agent=agent)

    # The response read once for every agent and purpose (the page admission step).
    admission = admit_page(headers, body, agents=agents, purposes=purposes, url=url,
                           usage=usage, max_head_bytes=args.max_head_bytes, status=status,
                           cut=cut, tdmrep=tdmrep)
    if args.json:
        json.dump(page_report(admission, agents, note, purposes,
                              None if robots is None else usage), out, indent=2, default=str)
        out.write("\n")
        return EXIT_OK
    for number, (agent, signals) in enumerate(zip(agents, admission.signals)):
        # one agent: the output of before --agent-category
        answers = admission.answers[number * len(purposes):(number + 1) * len(purposes)]
        if len(agents) > 1:
            out.write(f"{'' if agent == agents[0] else chr(10)}agent {visible(agent)}\n")
        _print_text(signals, note, purposes, out, "purposes:" if robots is None else
                    "the page alone (without robots.txt):")
        if robots is not None:
            site = usage(agent)
            crawl = "allowed" if site is not None and site.crawl_allowed else "disallowed"
            out.write(f"purposes, with the site's robots.txt (crawl {crawl}):\n")
            for a in answers:
                out.write(f"  {a.purpose}: {visible(a.answer.describe())}\n")
    return EXIT_OK


def add_command(commands: Any) -> None:
    """Add the ``page`` subcommand to :mod:`robotsrules.cli`'s parser."""
    from ._agent_options import add_agent_options
    from ._options import add_command as new_command
    from ._options import byte_count, fetch_options, json_option

    page = new_command(commands, "page")
    page.add_argument("source", metavar="URL_OR_FILE")
    add_agent_options(page, "the crawler's product token, e.g. GPTBot")
    page.add_argument("--purpose", action="append", metavar="PURPOSE",
                      help="a purpose to answer (repeatable; default: search, ai-input, "
                           "ai-train)")
    json_option(page)
    page.add_argument("--robots", metavar="FILE_OR_URL",
                      help="also read the site's robots.txt usage lines (Content-Signal, "
                           "Content-Usage): a file, '-', or any URL of the site (its "
                           "robots.txt is fetched), and say which level decides")
    page.add_argument("--url", metavar="URL",
                      help="the page's URL when the source is a file (default: /)")
    page.add_argument("--max-head-bytes", type=byte_count, default=DEFAULT_HEAD_BYTES,
                      metavar="N", help=f"read at most N bytes of the body (default "
                                        f"{DEFAULT_HEAD_BYTES:,}; at most 64 MiB)")
    fetch_options(page)
    page.set_defaults(run=_run)
