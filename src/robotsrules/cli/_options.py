"""Option values and URLs, validated in one place for every command.

Each option type here is an argparse ``type=``: a bad value is a one-line usage error
(exit 2) naming the option, before any work. :func:`source_url` is the one check of a URL
that a command is about to fetch: its scheme is one the command fetches, and it parses
(a host, a port in range, brackets that close), so that no URL reaches a fetch it would
break, and no URL-shaped argument is opened as a file.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from .._terminal import visible
from .._version import __version__
from ..errors import InvalidURL, RobotsError
from ..robotstxt import MODES

if TYPE_CHECKING:
    from .._fetch._sign import Sign

__all__ = [
    "MAX_COUNT",
    "MAX_TIMEOUT",
    "SIGNATURE_AGENT_ENV",
    "SIGNING_KEY_ENV",
    "URL_SOURCE",
    "HelpLayout",
    "add_command",
    "byte_count",
    "color_option",
    "count",
    "days",
    "dns_server_option",
    "dns_setting",
    "fetch_options",
    "header_value",
    "header_value_problem",
    "intermixed",
    "is_url",
    "json_option",
    "mode_option",
    "positive_seconds",
    "signer",
    "source_url",
    "user_agent",
]

SIGNING_KEY_ENV = "ROBOTSRULES_SIGNING_KEY"
"""The environment variable naming the signing key file (``--signing-key`` wins)."""
SIGNATURE_AGENT_ENV = "ROBOTSRULES_SIGNATURE_AGENT"
"""The environment variable holding the Signature-Agent URL (``--signature-agent`` wins)."""

MAX_TIMEOUT = 86_400.0
"""Seconds: beyond a day, sockets and waits overflow."""

MAX_COUNT = 64 << 20
"""The largest octet count an option may name (64 MiB): what a command holds in memory."""

URL_SOURCE = re.compile(r"(?i)(https?|ftp)://")
"""A FILE_OR_URL that is a URL to fetch (the robots.txt commands fetch http, https, ftp)."""

_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.-]*)://")


def _number(text: str) -> float:
    """``text`` as a float; NaN for anything that is not a number."""
    try:
        return float(text)
    except ValueError:
        return math.nan


def _positive(text: str, what: str, high: float) -> float:
    value = _number(text)
    if not (math.isfinite(value) and 0 < value <= high):
        raise argparse.ArgumentTypeError(
            f"expected {what} above 0 and at most {high:g}, not '{visible(text)}'")
    return value


def positive_seconds(text: str) -> float:
    """--timeout: a positive, finite number of seconds, at most :data:`MAX_TIMEOUT`."""
    return _positive(text, "a number of seconds", MAX_TIMEOUT)


def per_second(text: str) -> float:
    """--rate: a positive, finite number of events a second, at most a billion."""
    return _positive(text, "a number a second", 1e9)


def days(text: str) -> float:
    """--strictest: a number of days from 0 to 36,500 (a century)."""
    value = _number(text)
    if not (math.isfinite(value) and 0 <= value <= 36_500):
        raise argparse.ArgumentTypeError(f"expected a number of days from 0 to 36,500, not "
                                         f"'{visible(text)}'")
    return value


def _integer(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text.strip(), 10)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, not "
                                         f"'{visible(text)}'")
    return value


def byte_count(text: str) -> int:
    """A number of octets from 0 to :data:`MAX_COUNT` (``--max-head-bytes``)."""
    return _integer(text, 0, MAX_COUNT, "a whole number of bytes")


def count(low: int, high: int = 1 << 31) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (``--top``, ``--cache-size``, ...)."""

    def parse(text: str) -> int:
        return _integer(text, low, high, "a whole number")

    parse.__name__ = "count"  # argparse names the type in its message
    return parse


def header_value_problem(text: str) -> Optional[str]:
    """Why ``text`` cannot be sent as an HTTP header value (None: it can)."""
    if not text or text != text.strip(" \t"):
        return "is empty or starts or ends with white space"
    for column, char in enumerate(text, 1):
        if not " " <= char <= "~":
            return (f"has '{visible(char)}' at column {column}: a header value is printable "
                    "ASCII")
    return None


def header_value(text: str) -> str:
    """--user-agent: a value an HTTP header can carry (printable ASCII, no CR/LF)."""
    problem = header_value_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"'{visible(text)}' {problem}")
    return text


def is_url(text: str) -> bool:
    """Whether an argument has the shape of a URL (``scheme://``): such an argument is
    fetched or refused, never opened as a file (``./ftp://x`` names a file)."""
    return _SCHEME.match(text) is not None


def source_url(text: str, schemes: Sequence[str] = ("http", "https", "ftp")) -> str:
    """``text``, a URL to fetch, checked: a scheme the command fetches, a host, a valid
    port and closed brackets. A :class:`~robotsrules.RobotsError` (exit 2) says what is
    wrong."""
    from .._scope import split_origin

    scheme = text.split("://", 1)[0].lower()
    if scheme not in schemes:
        names = ", ".join(schemes[:-1]) + " and " + schemes[-1] if len(schemes) > 1 \
            else schemes[0]
        raise RobotsError(f"{text}: this command fetches {names} URLs, not {scheme}:// "
                          f"(a file of that name: ./{text})")
    try:
        split_origin(text)
    except InvalidURL as error:
        raise RobotsError(f"{text}: {error}") from None
    return text


def user_agent(args: argparse.Namespace, agent: Optional[str] = None,
               agents: Optional[Sequence[str]] = None) -> str:
    """The User-Agent header: ``--user-agent``, else built from ``agent``, or from the one
    agent of ``agents`` (the command's agents; by default the ``--agent`` values given),
    else ``robotsrules/VERSION``."""
    given = getattr(args, "user_agent", None)
    if given:
        return str(given)
    if agent is None:
        named = getattr(args, "agent", None) if agents is None else agents
        if isinstance(named, str):
            agent = named
        elif named and len(named) == 1:
            agent = named[0]
    if agent is None:
        return f"robotsrules/{__version__}"
    token = agent.split("/", 1)[0].strip()
    problem = header_value_problem(token)
    if problem is not None:
        raise RobotsError(f"--agent {visible(agent)!r} cannot go in a User-Agent header: it "
                          f"{problem}; pass --user-agent")
    return f"{token} (robotsrules/{__version__})"


def fetch_options(parser: argparse.ArgumentParser) -> None:
    """``--timeout``, ``--user-agent`` and the signing pair (``--signing-key``,
    ``--signature-agent``: :func:`signer`), for every command that may fetch."""
    parser.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS",
                        help="connect and read time-out (default 10; above 0, at most a day)")
    parser.add_argument("--user-agent", metavar="HEADER", type=header_value,
                        help="User-Agent header to send (default: 'NAME (robotsrules/VERSION)' "
                             "for one --agent NAME, else 'robotsrules/VERSION')")
    parser.add_argument("--signing-key", metavar="FILE",
                        help="sign every request with this Ed25519 key (Web Bot Auth; PKCS#8 "
                             f"PEM readable by its owner only; default ${SIGNING_KEY_ENV}); "
                             "needs --signature-agent")
    parser.add_argument("--signature-agent", metavar="URL",
                        help="the https origin (or JWK Set URL) where verifiers find the "
                             f"signing key's directory (default ${SIGNATURE_AGENT_ENV})")


def signer(args: argparse.Namespace) -> Optional[Sign]:
    """The signer of the command's requests, or None (signing off): ``--signing-key`` and
    ``--signature-agent``, each else its environment variable; one without the other, an
    unreadable key or a key file others may read is a usage error (exit 2). Built once per
    command; the key itself is never shown (the messages name the file)."""
    if "_signer" in vars(args):
        made: Optional[Sign] = vars(args)["_signer"]
        return made
    key = getattr(args, "signing_key", None) or os.environ.get(SIGNING_KEY_ENV) or None
    agent = (getattr(args, "signature_agent", None) or os.environ.get(SIGNATURE_AGENT_ENV)
             or None)
    sign: Optional[Sign] = None
    if key is None and agent is not None:
        raise RobotsError(f"--signature-agent needs --signing-key (or ${SIGNING_KEY_ENV})")
    if key is not None:
        if agent is None:
            raise RobotsError(f"--signing-key needs --signature-agent (or "
                              f"${SIGNATURE_AGENT_ENV}): the URL where verifiers find the key")
        if not agent.lower().startswith("https://"):  # verifiers refuse any other
            raise RobotsError(f"--signature-agent {visible(agent)!r}: an https URL, where "
                              "verifiers fetch the key directory")
        from .._identity._httpsig import Signer, SigningKey

        sign = Signer(SigningKey.load(key), agent,
                      form="origin" if _is_origin(agent) else "jwks")
    vars(args)["_signer"] = sign
    return sign


def _is_origin(url: str) -> bool:
    """True for a URL with no path beyond ``/`` (the Signature-Agent's origin form)."""
    rest = _SCHEME.sub("", url, count=1)
    return "/" not in rest.rstrip("/")


def dns_server_option(parser: argparse.ArgumentParser) -> None:
    """``--dns-server``: the DNS server ``--dns`` asks (``verify``, ``logs``)."""
    parser.add_argument("--dns-server", metavar="IP[:PORT]",
                        help="with --dns: ask this DNS server (default: the system's "
                             "resolver)")


def dns_setting(args: argparse.Namespace) -> Union[bool, str]:
    """``--dns`` and ``--dns-server`` as the verification's ``dns=`` (``False``, ``True``
    or ``"ip[:port]"``); a server that is not an address, or named while ``--dns`` is off,
    is a usage error."""
    from .._identity._dns import parse_server

    if args.dns_server is None:
        return bool(args.dns)
    parse_server(args.dns_server)  # InvalidArgument: exit 2, before any work
    if not args.dns:
        raise RobotsError("--dns-server names the server --dns asks: it cannot go with "
                          "--no-dns")
    return str(args.dns_server)


def mode_option(parser: argparse.ArgumentParser) -> None:
    """``--mode``: how a robots.txt is read."""
    parser.add_argument(
        "--mode", choices=MODES, default="google",
        help="how to read the file: google (default, Google's library), rfc (RFC 9309 "
             "where Google differs) or legacy (1994/1996, as urllib.robotparser)")


def color_option(parser: argparse.ArgumentParser) -> None:
    """``--color``: colour the text output."""
    parser.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour the text output (default: on a terminal, unless "
                             "NO_COLOR is set)")


def json_option(parser: argparse.ArgumentParser, help: str = "print JSON") -> None:
    """``--json``."""
    parser.add_argument("--json", action="store_true", help=help)


class HelpLayout(argparse.HelpFormatter):
    """argparse's help layout, except that an epilog paragraph whose lines are indented
    (the examples) is kept line by line instead of being re-wrapped."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text
        return "\n\n".join(
            paragraph if paragraph.startswith("  ") or "\n  " in paragraph
            else fill(paragraph, width, indent) for paragraph in text.split("\n\n"))


def add_command(commands: Any, name: str, *,
                texts: Optional[str] = None) -> argparse.ArgumentParser:
    """A subcommand with its words from the one table of them (:mod:`._texts`: its help line,
    description, exit codes and examples, by ``texts`` or else by ``name``), whose
    ``--help`` ends with its exit codes, then its examples: how every command is made
    (``commands`` is the subparsers object a module's ``add_command(s)`` is given). The
    options every command shares come from this module too (:func:`json_option`,
    :func:`color_option`, :func:`mode_option`, :func:`fetch_options`, :func:`intermixed`;
    the agent options from ``cli._agent_options``); the command's own options follow, then
    ``parser.set_defaults(run=...)``."""
    from ._texts import TEXTS

    words = TEXTS[texts or name]
    lines = "\n".join(f"  {example}" for example in words.examples)
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=words.help, description=words.description, formatter_class=HelpLayout,
        epilog=f"Exit codes: {words.exits}\n\nExamples:\n{lines}")
    return parser


def intermixed(parser: argparse.ArgumentParser) -> None:
    """Let positional arguments and options mix in any order (``explain FILE --agent A
    URL``, ``usage FILE --agent A URL...``): argparse's plain parsing binds optional
    positionals before the first option, so the parser parses intermixed. Everything after
    the first ``--`` is positional, as in every other command (POSIX utility syntax
    guideline 10): argparse's intermixed parsing reads an option there when no positional
    stands before the ``--`` (``check --agent a -- --robots=x /p`` set ``--robots``)."""
    setattr(parser, "parse_known_args", _Intermixed(parser))  # noqa: B010


class _Intermixed:
    """``parse_known_args`` of one parser, done as ``parse_known_intermixed_args``; the
    arguments after ``--`` are given to it as stand-ins no option can match (they start
    with a NUL, which no argument of a program can hold), put back once it has parsed."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        self.inside = False

    def __call__(self, args: Optional[list[str]] = None,
                 namespace: Optional[argparse.Namespace] = None) -> Any:
        if self.inside:  # parse_known_intermixed_args calls parse_known_args itself
            return argparse.ArgumentParser.parse_known_args(self.parser, args, namespace)
        given = list(sys.argv[1:] if args is None else args)
        tail: list[str] = []
        if "--" in given:
            at = given.index("--")
            given, tail = given[:at], given[at + 1:]
        stand_ins = {f"\0--{number}": text for number, text in enumerate(tail)}
        if stand_ins.keys() & set(given):
            raise RobotsError("an argument holds a NUL character")  # main(argv) only
        self.inside = True
        try:
            parsed, extras = self.parser.parse_known_intermixed_args(
                [*given, *stand_ins], namespace)
        finally:
            self.inside = False

        def back(value: Any) -> Any:
            if isinstance(value, list):
                return [back(item) for item in value]
            return stand_ins.get(value, value) if isinstance(value, str) else value

        for action in self.parser._get_positional_actions():
            if hasattr(parsed, action.dest):
                setattr(parsed, action.dest, back(getattr(parsed, action.dest)))
        for action in self.parser._get_optional_actions():
            value = getattr(parsed, action.dest, None)
            if any(isinstance(word, str) and word in stand_ins  # --agent -- /p: it took one
                   for word in _words(value)):
                self.parser.error(f"argument {'/'.join(action.option_strings)}: expected one "
                                  "argument")
        return parsed, back(extras)


def _words(value: Any) -> list[Any]:
    """``value``, or the items of a list value (an ``append`` option's), as a list."""
    return value if isinstance(value, list) else [value]


_DASHES = "\0="
"""The stand-in of an explicit ``--`` value (``--agent=--``) while the parser parses."""


def dashes_kept(argv: Sequence[str]) -> list[str]:
    """``argv`` with every ``--name=--`` before the first lone ``--`` holding a stand-in
    for its value: Python 3.11's argparse drops an explicit ``--`` value (``--agent=--``
    parsed as ``[]``), which :func:`dashes_back` puts back once parsed. The workbench's
    copied commands give ``--agent=--`` for the product token ``--``."""
    words = list(argv)
    end = words.index("--") if "--" in words else len(words)
    return [f"{word[:-2]}{_DASHES}" if at < end and word.startswith("--")
            and word.find("=") == len(word) - 3 and word.endswith("=--") else word
            for at, word in enumerate(words)]


def dashes_back(args: argparse.Namespace) -> None:
    """Put back the explicit ``--`` values :func:`dashes_kept` stood in for."""
    for name, value in vars(args).items():
        if any(isinstance(word, str) and word == _DASHES for word in _words(value)):
            setattr(args, name, [("--" if item == _DASHES else item) for item in value]
                    if isinstance(value, list) else "--")
