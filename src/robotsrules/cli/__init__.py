"""The ``robotsrules`` command line: may this agent fetch this URL, and which line decides?

This module only builds the parser, one module per command group, and runs a command:

* ``_verdicts``: ``check``, ``explain``; ``_site``: ``fetch``, ``agents``, ``diff``;
  ``_lint``: ``lint``; ``_usage``, ``_page``, ``_stance``, ``_license``: the AI layer;
  ``_bulk``: ``bulk``, ``report`` and the table form of ``stance``; ``_verify``:
  ``verify`` (who is really asking); ``_keys``: ``keys`` (the Web Bot Auth signing key);
  ``verify`` (who is really asking); ``_logs``: ``logs`` (the log audit);
  ``verify`` (who is really asking); ``_generate``: ``generate`` (write the file);
* the homes they share: ``_agent_options`` (``--agent``, repeatable everywhere, and
  ``--agent-category``), ``_input`` (every file, ``-`` and URL read through one bounded
  reader), ``_options`` (option values and URLs validated in one place), ``_output``
  (terminal-safe output: control characters made visible), ``_common`` (exit codes and
  the presentation tables), ``_interrupt`` (signals).

Exit codes (as Google's ``robots_main``): 0 every URL allowed, 1 at least one disallowed,
2 usage or I/O error (a one-line message on stderr, never a traceback), 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM); each command's ``--help`` lists its own.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Optional, TextIO, cast

from .._terminal import visible
from ..errors import RobotsError
from ._common import EXIT_ERROR
from ._input import not_utf8
from ._interrupt import Gate
from ._options import HelpLayout, dashes_back, dashes_kept
from ._output import fail, screen

__all__ = ["entry", "main"]

_EXAMPLES = """Examples:
  robotsrules check --agent ExampleBot https://www.python.org/downloads/
  robotsrules explain examples/robots.txt --agent GPTBot https://example.com/a.pdf
  robotsrules agents examples/robots.txt
  robotsrules usage examples/robots.txt --agent GPTBot /
  robotsrules lint robots.txt
  robotsrules COMMAND --help"""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``robotsrules check: error: ...``), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_ERROR, f"{self.prog}: error: {visible(message)} "
                              f"(see '{self.prog} --help')\n")


class _Version(argparse.Action):
    """``--version``: the library's version and its data tables' (read only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: Optional[str] = None) -> None:
        from .._tables._provenance import version_text

        sys.stdout.write(version_text())  # where argparse's own --version writes
        parser.exit(0)


def _parser() -> argparse.ArgumentParser:
    """The whole grammar: the root, then each command group's module adds its commands."""
    parser = _Parser(
        prog="robotsrules",
        description="Read robots.txt files the way Google and RFC 9309 do, and the AI "
                    "usage preferences, page signals and licences around them.",
        formatter_class=HelpLayout,
        epilog="Exit codes: 0 all allowed, 1 some URL disallowed, 2 usage or I/O error, "
               "130 interrupted, 143 terminated (each command's --help lists its "
               "own).\n\n" + _EXAMPLES,
    )
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the version and the dates of the shipped data, then exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=_Parser)
    from . import _bulk, _license, _lint, _page, _site, _stance, _usage, _verdicts, _verify

    _verdicts.add_commands(commands)  # check, explain
    _site.add_commands(commands)  # fetch, agents, diff
    _bulk.add_commands(commands)  # bulk, report
    stance = _stance.add_command(commands)
    _bulk.add_stance_table_options(stance)  # stance --robots TABLE --out FILE
    _page.add_command(commands)
    _usage.add_command(commands)
    _license.add_command(commands)
    _lint.add_commands(commands)
    _verify.add_command(commands)
    from . import _logs

    _logs.add_command(commands)  # logs (issue 37)
    from . import _generate

    _generate.add_command(commands)  # generate (issue 40)
    from . import _crawlers

    _crawlers.add_command(commands)  # crawlers refresh
    from . import _keys

    _keys.add_command(commands)  # keys generate, keys directory
    from . import _serve

    _serve.add_command(commands)  # serve: the workbench page
    return parser


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


def _undecodable_url(argv: Sequence[str]) -> Optional[str]:
    """Why a URL on the command line cannot be used: the shell passed octets that are not
    UTF-8 (Python holds them as lone surrogates), which no URL may hold and which would
    reach the output raw; the same words as a ``--urls-file`` line's."""
    for text in argv:
        if "://" not in text:
            continue  # a file name may be in any encoding the file system takes
        for column, char in enumerate(text, 1):
            if "\udc80" <= char <= "\udcff":
                octet = ord(char) - 0xDC00
                shown = visible(text.encode("utf-8", "surrogateescape")
                                .decode("utf-8", "backslashreplace"))
                return f"{shown}: {not_utf8(octet, column)}"
    return None


def _main(argv: Optional[Sequence[str]], out: Optional[TextIO]) -> int:
    problem = _undecodable_url(sys.argv[1:] if argv is None else argv)
    if problem is not None:
        return fail(problem)
    parser = _parser()
    try:
        args = parser.parse_args(dashes_kept(sys.argv[1:] if argv is None else argv))
        dashes_back(args)
    except SystemExit as exit_:  # argparse: --help/--version exit 0, usage errors exit 2
        return int(exit_.code or 0)
    if args.command is None:  # no command: the list of commands, and how to start
        (out or sys.stdout).write(parser.format_help())
        return 0
    answer = cast(TextIO, screen(out or sys.stdout, args))  # control characters made visible
    try:
        return int(args.run(args, answer))
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
