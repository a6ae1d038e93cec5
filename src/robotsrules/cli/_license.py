"""``robotsrules license``: what RSL 1.0 licence documents say about URLs; ``lint --fetch``.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. SOURCE is a licence document (a
file, '-' or a URL) or a robots.txt (a file, a URL ending in ``/robots.txt``, or a site's
URL such as ``https://example.com/``, which means its robots.txt) whose ``License`` lines
are followed: every one of them, for every agent (a ``License`` line is global, RSL 1.0
§4.4; see :meth:`robotsrules.RobotsTxt.license_urls`). Documents are
fetched through :class:`robotsrules.RobotsCache` (the robots.txt fetch policy and bounds; no
credentials). Without URLs it lists each document's contents and licences; with URLs, the
answer per purpose (RSL usage tokens by default, or ``--purpose``) and the deciding
element. Exit codes: 0 every answer permitted or unstated, 1 some use prohibited or offered
only on terms, 2 usage or I/O error, or a licence document that could not be fetched or read
(its answers are "unknown"), or a robots.txt SOURCE unreachable with no earlier copy (whether
it has License lines cannot be told: "unknown" too). Everything that came from outside is
printed through :func:`robotsrules._terminal.visible`.

:func:`fetched_diagnostics` gives ``lint --fetch`` its R702-R704 findings.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Optional, TextIO

from .._rsl import (
    USAGE_TOKENS,
    LicenseDocument,
    LicenseSource,
    geo_code,
    license_answers,
    license_url_problem,
    usage_token,
    user_class,
)
from .._rules._urls import match_target
from .._scope import origin_of
from .._tables._words import license_json
from .._terminal import CONTROL_ESCAPES, visible
from ..errors import InvalidURL, RobotsError
from ..linter import Diagnostic, diagnostic
from ..robotstxt import DEFAULT_MAX_BYTES, parse
from ._common import EXIT_ALLOWED, EXIT_DISALLOWED, EXIT_ERROR
from ._input import read_input
from ._options import is_url, source_url

__all__ = ["add_command", "fetched_diagnostics"]

_COLOURS = {"permitted": "32", "licensed": "33", "prohibited": "31", "unstated": "2",
            "unknown": "35"}


def _checker(args: argparse.Namespace) -> Any:
    from .._fetch._robotscache import RobotsCache
    from ._options import signer, user_agent

    return RobotsCache(user_agent=user_agent(args), agent="*", timeout=args.timeout,
                       sign=signer(args))


def _names(args: argparse.Namespace) -> list[str]:
    names = list(dict.fromkeys(args.purpose)) or list(USAGE_TOKENS)
    for name in names:
        usage_token(name)  # InvalidPurpose (a RobotsError): exit 2 before any fetch
    return names


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from ._agent_options import check_agents, expand_agents
    from ._output import painter

    names = _names(args)
    agents = expand_agents(args)
    check_agents(agents, args)
    if not agents:
        agents = ["*"]  # the License lines for every crawler
    if args.origin is not None:
        args.origin = origin_of(args.origin)
    # the caller's class and region: a mistake is exit 2 before any fetch
    args.user = None if args.user is None else user_class(args.user)
    args.geo = None if args.geo is None else geo_code(args.geo)
    for url in args.urls:
        try:
            match_target(url)  # a URL the core rejects is the caller's mistake
        except (InvalidURL, ValueError) as error:
            raise RobotsError(f"{url}: {error}") from None
    with _checker(args) as cache:
        if is_url(args.source):
            source_url(args.source)
            source = LicenseSource.fetched(cache, args.source, args.origin)
        else:
            # one octet past a licence's limit: a longer document is refused, not cut
            got = read_input(args.source, DEFAULT_MAX_BYTES + 1)
            source = LicenseSource.read(cache, got.data, args.source, args.origin)
        found = [(agent, source.documents(agent)) for agent in agents]
    code = EXIT_ALLOWED
    broken = list(dict.fromkeys(d.url or "(file)" for _, documents in found
                                for d in documents if d.state != "ok"))
    if broken:
        code = EXIT_ERROR
    results = [(agent, documents, license_answers(tuple(documents), args.urls, names,
                                                  args.user, args.geo))
               for agent, documents in found]
    if code == EXIT_ALLOWED and any(a.allowed is False for _, _, reports in results
                                    for _, answers in reports for a in answers):
        code = EXIT_DISALLOWED
    if args.json:
        out.write(json.dumps(license_json(args.source, results), indent=2,
                             ensure_ascii=False) + "\n")
        return _said(code, broken)
    paint = painter(out, args)
    out.write(f"{visible(source.where)}\n")
    width = max((len(n) for n in names), default=8)
    for number, (agent, documents, reports) in enumerate(results):
        if len(results) > 1:
            out.write(f"{chr(10) if number else ''}agent {visible(agent)}\n")
        if not documents:
            out.write(f"  no License line applies to {visible(agent)}\n")
        for document in documents:
            _document_text(document, out, show_contents=not args.urls)
        for url, answers in reports:
            out.write(f"\n{visible(url)}\n")
            for answer in answers:
                status = paint(f"{answer.status:<10}", _COLOURS[answer.status])
                out.write(f"  {answer.name:<{width}}  {status}  {visible(answer.reason)}\n")
    return _said(code, broken)


def _said(code: int, broken: list[str]) -> int:
    """``code``; exit 2 for documents that could not be had says so on standard error."""
    if broken:
        from ._output import fail

        more = f" and {len(broken) - 1} more" if len(broken) > 1 else ""
        what = "" if broken[0].endswith("/robots.txt") else "licence document "
        fail(f"{what}{visible(broken[0])}{more} could not be fetched or read: its answers "
             "are unknown")
    return code


def _document_text(document: LicenseDocument, out: TextIO, show_contents: bool) -> None:
    name = visible(document.url or "(file)")
    status = f", HTTP {document.status}" if document.status is not None else ""
    if document.state != "ok":
        out.write(f"  licence {name}: {document.state}{status}: "
                  f"{visible(document.error or '')} -> every answer is unknown\n")
        return
    out.write(f"  licence {name}: ok{status}, {len(document.contents)} content, "
              f"max-age {document.max_age} days\n")
    for warning in document.warnings:
        out.write(f"    warning: {visible(warning)}\n")
    for content in document.ignored:
        out.write(f"    ignored: {visible(content.describe())}: another origin than "
                  f"{visible(document.origin or '')}\n")
    if show_contents:
        for content in document.contents:
            out.write(f"    {visible(content.describe())}\n")
            for licence in content.licenses:
                out.write(f"      {visible(licence.describe())}\n")


# -- lint --fetch ---------------------------------------------------------------------------------

def fetched_diagnostics(content: bytes, origin: Optional[str], args: argparse.Namespace
                        ) -> list[Diagnostic]:
    """R702-R704 for the ``License`` lines of ``content``: each document is fetched (the
    robots.txt fetch policy; no credentials) and judged. ``origin``: the site the file is
    for (None: a local file, whose ``<content url>`` origins cannot be checked)."""
    robots = parse(content)
    lines = [line for line in robots.lines if line.key == "license" and line.value]
    found: list[Diagnostic] = []
    documents: dict[str, LicenseDocument] = {}
    with _checker(args) as cache:
        for line in lines:
            url = line.value
            if license_url_problem(url) is not None:
                continue  # R701 says so already
            if url not in documents:
                documents[url] = cache.license_document(url, origin=origin)
            found += _judged(documents[url], line.number, _column(line.raw, url), url)
    return found


def _column(raw: str, value: str) -> int:
    at = raw.find(value)
    return at + 1 if at >= 0 else 1


def _judged(document: LicenseDocument, number: int, column: int, url: str
            ) -> list[Diagnostic]:
    escapes = CONTROL_ESCAPES
    if document.state in ("unreachable", "unavailable"):
        status = f" (HTTP {document.status})" if document.status is not None else ""
        return [diagnostic(
            "R702", number, column,
            f"the licence document {url} could not be fetched{status}: {document.state}, "
            f"{document.error}; RSL readers treat the site as unlicensed", escapes, url=url)]
    if document.state == "invalid":
        return [diagnostic(
            "R703", number, column,
            f"the licence document {url} is not a valid RSL 1.0 document: {document.error}",
            escapes, url=url, problem=document.error or "")]
    return [diagnostic(
        "R704", number, column,
        f"{content.describe()} of {url} is on another origin than {document.origin}: "
        "ignored for this site", escapes,
        path=_path_of(content.url), origin=document.origin or "")
        for content in document.ignored]


def _path_of(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return "/" + rest.partition("/")[2]


# -- the command ----------------------------------------------------------------------------------

def add_command(commands: Any) -> None:
    """Add ``license`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from ._agent_options import add_agent_options
    from ._options import add_command as new_command
    from ._options import color_option, fetch_options, intermixed, json_option

    parser = new_command(commands, "license")
    parser.add_argument("source", metavar="FILE_OR_URL")
    parser.add_argument("urls", nargs="*", metavar="URL",
                        help="URLs (or /paths) to answer for")
    add_agent_options(parser, "the crawler to answer for (a robots.txt SOURCE's License "
                              "lines apply to every crawler, wherever they stand: the "
                              "answers are the same for each; default '*')")
    parser.add_argument("--purpose", metavar="NAME", action="append", default=[],
                        help="an RSL usage token (all, ai-all, ai-train, ai-input, ai-index, "
                             "search) or a purpose of 'robotsrules usage' (train-ai...); "
                             "repeatable")
    parser.add_argument("--user", metavar="CLASS",
                        help="who uses the content: commercial, non-commercial, education, "
                             "government or personal, in any case (licences may be "
                             "restricted to some; another value is exit 2)")
    parser.add_argument("--geo", metavar="CODE",
                        help="where: an ISO 3166-1 alpha-2 code or EU, in any case "
                             "(licences may be restricted to some; EU stands for each of its "
                             "member states; another value, such as Usa or UK, is exit 2)")
    parser.add_argument("--origin", metavar="URL",
                        help="the site a licence file or a local robots.txt is for: <content "
                             "url> values on other origins are ignored")
    json_option(parser)
    color_option(parser)
    fetch_options(parser)
    parser.set_defaults(run=_run)
    intermixed(parser)
