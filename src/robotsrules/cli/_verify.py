"""``robotsrules verify``: is the visitor at this address the crawler it claims to be?

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. One address (with the visitor's
``--user-agent`` header or an ``--agent`` token, or neither: "whose published list holds
it?"), or many (``--file FILE`` or ``--file -``: one address a line, the visitor's
User-Agent header after it, separated by a tab or spaces; an answer a line: the address,
the verdict, the claimed token and the reason, two spaces apart). Text or JSON (``--json``:
one object a line). Exit codes (as ``check``): 0 every address verified, 1 any
other verdict, 2 usage or I/O error (an address that is not one, given as the argument,
is a usage error; in a file, its line answers ``invalid``).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Optional, TextIO

from .._terminal import visible
from .._typing import assert_never

if TYPE_CHECKING:
    from .._identity import VerdictName

__all__ = ["add_command", "shown"]



def shown(verdict: VerdictName) -> tuple[str, str]:
    """A verdict as the text output shows it, and its colour (an SGR code)."""
    if verdict == "verified":
        return "VERIFIED", "32"
    if verdict == "not-verified":
        return "NOT VERIFIED", "31"
    if verdict == "unverifiable":
        return "UNVERIFIABLE", "33"
    if verdict == "unknown":
        return "UNKNOWN", "33"
    assert_never(verdict)


def _claim(answer: Any) -> str:
    if answer.token is None:
        return "no crawler claimed"
    who = ", ".join(part for part in (answer.operator, answer.category) if part)
    return f"{answer.token} ({who})" if who else f"{answer.token} (not in the registry)"


def _text(answer: Any, out: TextIO, paint: Any) -> None:
    text, colour = shown(answer.verdict)
    word = paint(text, colour, bold=True)
    out.write(f"{answer.address}  {visible(_claim(answer))}: {word}\n")
    out.write(f"  {visible(answer.reason)}\n")
    for item in answer.evidence:
        out.write(f"  {item.kind:<13} {item.outcome:<14} {visible(item.detail)}\n")
    if answer.listed_by:
        out.write(f"  listed by: {visible(', '.join(answer.listed_by))}\n")
    out.write(f"  address lists: {visible(answer.snapshot)}\n")


def _line(answer: Any) -> str:
    return "  ".join((answer.address, answer.verdict, answer.token or "-",
                      visible(answer.reason)))


def _options(args: argparse.Namespace) -> dict[str, Any]:
    dns: Any = False
    if args.dns:
        dns = args.dns_server if args.dns_server else True
    return {"dns": dns, "dns_deadline": args.dns_deadline, "snapshot": args.snapshot}


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._identity import parse_address, verify
    from ..errors import RobotsError
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED
    from ._output import painter

    if args.user_agent is not None and args.agent is not None:
        raise RobotsError("give the visitor's --user-agent or an --agent token, not both")
    if args.user_agent is not None and ("\r" in args.user_agent or "\n" in args.user_agent):
        raise RobotsError("--user-agent: a header value has no line breaks")
    if args.dns_server is not None:
        from .._identity._dns import parse_server

        parse_server(args.dns_server)
    if (args.address is None) == (args.file is None):
        raise RobotsError("give one ADDRESS or --file FILE (or --file - for standard input)")
    options = _options(args)
    if args.snapshot is not None:  # a snapshot that cannot be read: an error, before any work
        from .._tables._addresses import load_snapshot

        options["snapshot"] = load_snapshot(args.snapshot)
    paint = painter(out, args)
    if args.address is not None:
        parse_address(args.address)  # a usage error (exit 2) before any work
        answer = verify(args.address, args.user_agent, agent=args.agent, **options)
        if args.json:
            out.write(json.dumps(answer.as_dict(), ensure_ascii=False) + "\n")
        else:
            _text(answer, out, paint)
        return EXIT_ALLOWED if answer.verified else EXIT_DISALLOWED
    return _many(args, out, options, verify, parse_address)


def _many(args: argparse.Namespace, out: TextIO, options: dict[str, Any], verify: Any,
          parse_address: Any) -> int:
    from ..errors import InvalidArgument
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED
    from ._input import list_lines

    code = EXIT_ALLOWED
    seen = 0
    for where, line, problem in list_lines(args.file, fields=True):
        seen += 1
        address = ""
        answer: Optional[Any] = None
        if line is not None:
            address, separator, rest = line.replace("\t", " ").partition(" ")
            # A header field after the address is the visitor's header, even empty (a log's
            # "-" or "" names no crawler: never the no-claim question); an address alone
            # takes the command's --user-agent or --agent, or asks whose list holds it.
            user_agent, agent = ((rest.strip(), None) if separator
                                 else (args.user_agent, args.agent))
            try:
                parse_address(address)
            except InvalidArgument as error:
                problem = str(error)
            else:
                answer = verify(address, user_agent, agent=agent, **options)
        if answer is None:
            code = EXIT_DISALLOWED
            shown = visible(address[:80])
            if args.json:
                out.write(json.dumps({"where": where, "address": shown, "verdict": "invalid",
                                      "reason": problem}, ensure_ascii=False) + "\n")
            else:
                out.write(f"{shown or '-'}  invalid  -  {where}: {visible(problem or '')}\n")
            continue
        if not answer.verified:
            code = EXIT_DISALLOWED
        if args.json:
            out.write(json.dumps({"where": where, **answer.as_dict()}, ensure_ascii=False)
                      + "\n")
        else:
            out.write(_line(answer) + "\n")
    if seen == 0:
        code = EXIT_DISALLOWED  # nothing was verified
    return code


def add_command(commands: Any) -> None:
    """Add ``verify`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from ._options import add_command as new_command
    from ._options import color_option, json_option, positive_seconds

    verify = new_command(
        commands, "verify", help="is a visitor the crawler it claims to be? (address lists, "
                                 "reverse DNS)",
        description="Verify a visitor by its address: is it in the published address list "
                    "of the crawler its User-Agent header claims, or does its reverse DNS "
                    "name lie under the operator's documented names and resolve back to "
                    "it? Answers verified, not-verified, unverifiable (the operator "
                    "publishes no evidence, or the header names no known crawler) or "
                    "unknown (the evidence could not be had: a DNS failure, a list not "
                    "captured), with every kind of evidence and its outcome. Google's "
                    "user-triggered-fetchers list and gae.googleusercontent.com names are "
                    "Google Cloud customers', never Google. Without --user-agent or "
                    "--agent: whose published list holds the address. Here --user-agent is "
                    "the header the VISITOR sent (in the commands that fetch, it is the "
                    "header robotsrules sends).",
        exits="0 verified (every address, with --file), 1 any other verdict, 2 usage or "
              "I/O error.",
        examples=["robotsrules verify 66.249.66.1 --user-agent 'Mozilla/5.0 (compatible; "
                  "Googlebot/2.1; +http://www.google.com/bot.html)'",
                  "robotsrules verify 20.171.207.2 --agent GPTBot --no-dns",
                  "robotsrules verify 66.249.66.1",
                  "robotsrules verify --file visitors.txt --json"])
    verify.add_argument("address", metavar="ADDRESS", nargs="?",
                        help="the visitor's IPv4 or IPv6 address")
    claim = verify.add_mutually_exclusive_group()
    claim.add_argument("--user-agent", metavar="UA",
                       help="the User-Agent header the visitor sent (its product token is "
                            "read as everywhere in robotsrules)")
    claim.add_argument("--agent", metavar="TOKEN",
                       help="the crawler's product token the visitor claims (GPTBot)")
    verify.add_argument("--file", metavar="FILE",
                        help="many visitors: one address a line, its User-Agent header "
                             "after it (tab or space); '-' reads standard input; an answer "
                             "a line")
    verify.add_argument("--dns", action=argparse.BooleanOptionalAction, default=True,
                        help="forward-confirmed reverse DNS (default: on; needs "
                             "'robotsrules[verify]')")
    verify.add_argument("--dns-server", metavar="IP[:PORT]",
                        help="ask this DNS server (default: the system's resolver)")
    verify.add_argument("--dns-deadline", metavar="SECONDS", type=positive_seconds,
                        default=10.0, help="the DNS work of one address may take this long "
                                           "(default 10); past it the answer is unknown")
    verify.add_argument("--snapshot", metavar="FILE",
                        help="read the address lists from this snapshot (default: the newer "
                             "of the bundled and the refreshed copy)")
    json_option(verify, "print JSON (one object a line)")
    color_option(verify)
    verify.set_defaults(run=_run)
