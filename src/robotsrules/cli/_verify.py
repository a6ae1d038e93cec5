"""``robotsrules verify``: is the visitor at this address, or this signed request, the crawler
it claims to be?

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. One synopsis, two forms:
``verify (ADDRESS (--user-agent UA | --agent TOKEN) | --request FILE)``. ``--request FILE``
(``-``: standard input) reads one request as received, a raw HTTP request (its request line
and header lines; a body after them is ignored) or its header fields as JSON (an object of
names to values, or ``{"method": ..., "url": ..., "headers": {...}}``), at most
:data:`MAX_REQUEST` bytes and :data:`~robotsrules._identity._request.MAX_HEADERS` fields, and
answers :func:`robotsrules.verify_request`'s verdict (Web Bot Auth). One address (with the visitor's
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

__all__ = ["MAX_REQUEST", "add_command", "read_request", "shown"]

MAX_REQUEST = 64 * 1024
"""The largest request ``--request`` reads (a request head; servers cap theirs lower)."""


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
    if answer.token is None and answer.crawler is not None:
        return f"{answer.crawler} ({answer.operator}, signed)"
    if answer.token is None:
        return "no crawler claimed"
    who = ", ".join(part for part in (answer.operator, answer.category) if part)
    return f"{answer.token} ({who})" if who else f"{answer.token} (not in the registry)"


def _text(answer: Any, out: TextIO, paint: Any, what: str = "") -> None:
    text, colour = shown(answer.verdict)
    word = paint(text, colour, bold=True)
    out.write(f"{visible(what or answer.address)}  {visible(_claim(answer))}: {word}\n")
    out.write(f"  {visible(answer.reason)}\n")
    for item in answer.evidence:
        out.write(f"  {item.kind:<13} {item.outcome:<14} {visible(item.detail)}\n")
    if answer.signature is not None:
        out.write(f"  signature: {visible(answer.signature)}; key directory: "
                  f"{visible(answer.directory or '-')}\n")
    if answer.listed_by:
        out.write(f"  listed by: {visible(', '.join(answer.listed_by))}\n")
    if answer.snapshot:
        out.write(f"  address lists: {visible(answer.snapshot)}\n")


def _line(answer: Any) -> str:
    return "  ".join((answer.address, answer.verdict, answer.token or "-",
                      visible(answer.reason)))


def _problem(where: str, said: str) -> Any:
    from ..errors import RobotsError

    return RobotsError(f"--request {where}: {said}")


def _request_json(text: str, where: str) -> tuple[str, Optional[str], list[tuple[str, str]]]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise _problem(where, "not JSON (give a raw HTTP request or its headers as a JSON "
                              "object)") from None
    if not isinstance(document, dict):
        raise _problem(where, "the JSON is not an object of header names to values")
    method: Any = "GET"
    url: Any = None
    fields: Any = document
    if isinstance(document.get("headers"), dict):
        method, url, fields = document.get("method", "GET"), document.get("url"), \
            document["headers"]
    if not isinstance(method, str) or (url is not None and not isinstance(url, str)):
        raise _problem(where, "'method' and 'url' are strings")
    pairs = []
    for name, value in fields.items():
        if not isinstance(value, str):
            raise _problem(where, f"the value of header '{visible(str(name)[:60])}' is not a "
                                  "string")
        pairs.append((str(name), value))
    return method, url, pairs


def _request_raw(text: str, where: str) -> tuple[str, Optional[str], list[tuple[str, str]]]:
    lines = text.replace("\r\n", "\n").split("\n")
    method, target, version = ([*lines[0].split(" "), "", ""])[:3]
    if not method or not target or not version.startswith("HTTP/") or len(
            lines[0].split(" ")) != 3:
        raise _problem(where, f"line 1 is not a request line (METHOD TARGET HTTP/1.1): "
                              f"'{visible(lines[0][:80])}'")
    pairs: list[tuple[str, str]] = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            break  # the head ends; a body is not read
        name, colon, value = line.partition(":")
        if line[:1] in " \t" or not colon or not name or name != name.strip():
            raise _problem(where, f"line {number} is not a header field (Name: value): "
                                  f"'{visible(line[:80])}'")
        pairs.append((name, value.strip(" \t")))
    url = target if target.lower().startswith(("http://", "https://")) else None
    if url is None and not target.startswith("/"):
        raise _problem(where, f"the request target '{visible(target[:80])}' is neither a path "
                              "nor an absolute URL")
    return method, url or target, pairs


def read_request(name: str) -> tuple[str, str, dict[str, str]]:
    """The request ``--request`` names (``-``: standard input): its method, URL and header
    fields (a field sent on several lines joined with ``", "``, RFC 9110 §5.3). A path
    target takes its authority from ``Host`` and the ``https`` scheme. Anything that is
    no request is a :class:`~robotsrules.RobotsError` (exit 2) saying where."""
    from .._identity._request import MAX_HEADERS
    from ._input import read_input

    got = read_input(name, MAX_REQUEST)
    where = got.name
    if got.cut:
        raise _problem(where, f"longer than {MAX_REQUEST:,} bytes")
    text = got.data.decode("latin-1")  # RFC 9110 §5.5: field values are octets
    if not text.strip():
        raise _problem(where, "empty")
    reader = _request_json if text.lstrip()[:1] in ("{", "[") else _request_raw
    method, target, pairs = reader(text, where)
    if len(pairs) > MAX_HEADERS:
        raise _problem(where, f"more than {MAX_HEADERS} header fields")
    headers: dict[str, str] = {}
    spelled: dict[str, str] = {}
    for field, value in pairs:
        key = field.lower()
        if key in spelled:
            headers[spelled[key]] += ", " + value
        else:
            spelled[key] = field
            headers[field] = value
    if target is None or target.startswith("/"):
        host = headers.get(spelled.get("host", ""), "").strip()
        if not host or any(c in host for c in "/ @\\"):
            raise _problem(where, "no absolute URL and no usable Host header to make one")
        target = f"https://{host}{target or '/'}"
    return method, target, headers


def _run_request(args: argparse.Namespace, out: TextIO, paint: Any) -> int:
    from .._identity import verify_request
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED

    if args.ca_bundle is not None:
        from .._identity._directory import tls_context
        from ..errors import RobotsError

        try:
            tls_context(args.ca_bundle)
        except (OSError, ValueError) as error:
            raise RobotsError(f"--ca-bundle {visible(args.ca_bundle)}: cannot read it as PEM "
                              f"certificates: {visible(str(error)[:200])}") from None
    method, url, headers = read_request(args.request)
    if args.crawlers is not None:
        from .._tables._crawlers import load_crawlers

        load_crawlers(args.crawlers)  # a bad file is a usage error before any fetch
    answer = verify_request(method, url, headers,
                            allow_private_addresses=args.allow_private_addresses,
                            ca_bundle=args.ca_bundle, crawlers=args.crawlers)
    if args.json:
        out.write(json.dumps({"request": {"method": visible(method), "url": visible(url)},
                              **answer.as_dict()}, ensure_ascii=False) + "\n")
    else:
        _text(answer, out, paint, f"{method} {url}")
    return EXIT_ALLOWED if answer.verified else EXIT_DISALLOWED


def _options(args: argparse.Namespace) -> dict[str, Any]:
    from ._options import dns_setting

    return {"dns": dns_setting(args), "dns_deadline": args.dns_deadline,
            "snapshot": args.snapshot}


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._identity import parse_address, verify
    from ..errors import RobotsError
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED
    from ._output import painter

    if args.user_agent is not None and args.agent is not None:
        raise RobotsError("give the visitor's --user-agent or an --agent token, not both")
    if args.request is not None:
        if args.address is not None or args.file is not None or args.user_agent is not None \
                or args.agent is not None or args.snapshot is not None:
            raise RobotsError("--request FILE is checked alone: no ADDRESS, --file, "
                              "--user-agent, --agent or --snapshot with it")
        return _run_request(args, out, painter(out, args))
    if args.crawlers is not None:
        raise RobotsError("--crawlers FILE goes with --request FILE")
    if args.user_agent is not None and ("\r" in args.user_agent or "\n" in args.user_agent):
        raise RobotsError("--user-agent: a header value has no line breaks")
    if (args.address is None) == (args.file is None):
        raise RobotsError("give one ADDRESS, --file FILE or --request FILE ('-' for "
                          "standard input)")
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
    from ._options import color_option, dns_server_option, json_option, positive_seconds

    verify = new_command(commands, "verify")
    # One synopsis for the three forms (argparse would list every option flat)
    indent = "\n" + " " * len("usage: robotsrules verify ")
    verify.usage = ("%(prog)s (ADDRESS [--user-agent UA | --agent TOKEN] | --file FILE |"
                    f"{indent}--request FILE) [--dns | --no-dns] [--allow-private-addresses]"
                    f"{indent}[--ca-bundle FILE] [--json] [options]")
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
    dns_server_option(verify)
    verify.add_argument("--dns-deadline", metavar="SECONDS", type=positive_seconds,
                        default=10.0, help="the DNS work of one address may take this long "
                                           "(default 10); past it the answer is unknown")
    verify.add_argument("--snapshot", metavar="FILE",
                        help="read the address lists from this snapshot (default: the newer "
                             "of the bundled and the refreshed copy)")
    # The signed-request form's options: (flag, metavar or None for a switch, help)
    signed = (
        ("--request", "FILE", "a signed request as received: a raw HTTP request (request "
                              "line and headers) or its headers as JSON; '-' reads standard "
                              "input"),
        ("--allow-private-addresses", None, "with --request: fetch a key directory on a "
                                            "loopback or private address too (refused by "
                                            "default: the URL comes from the request)"),
        ("--ca-bundle", "FILE", "with --request: trust these PEM certificates for key "
                                "directories instead of the system's store (SSL_CERT_FILE "
                                "is honoured without it)"),
        ("--crawlers", "FILE", "with --request: a crawler registry file of your own added "
                               "to the shipped one (signers you know: verify.web_bot_auth)"),
    )
    for flag, metavar, text in signed:
        if metavar is None:
            verify.add_argument(flag, action="store_true", help=text)
        else:
            verify.add_argument(flag, metavar=metavar, help=text)
    json_option(verify, "print JSON (one object a line)")
    color_option(verify)
    verify.set_defaults(run=_run)
