"""Terminal-safe output: the one home of what the command line writes and how.

Every command writes its answer to a :class:`Screen`, which :func:`robotsrules.cli.main`
puts around standard output once, so that no control character from a robots.txt, a page,
an HTTP error or a URL list reaches the terminal raw, whichever command printed it and
whether or not that command remembered :func:`~robotsrules._terminal.visible`:

* text output: every control character but the line break is shown as an escape (the table
  of :data:`robotsrules._terminal.CONTROL_ESCAPES`, the one the lint report uses); with
  ``--color`` on, the colour sequences the program itself adds (SGR, ``ESC [ ... m``: they
  change colours only, never titles, the clipboard or the cursor) are kept;
* JSON output (``--json``, ``--format json|sarif``): the characters JSON leaves raw (C1
  controls, DEL, Unicode's format characters, U+2028/2029) are written as ``\\uXXXX``
  escapes, which mean the same string to every JSON reader.

Standard error gets one line per message, starting ``robotsrules``: :func:`fail` (errors),
:func:`warn` and :func:`note`, each through ``visible``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, Callable, TextIO

from .._terminal import CONTROL_ESCAPES, visible
from ._common import EXIT_ERROR

__all__ = ["Screen", "colour_on", "fail", "note", "painter", "screen", "warn"]


def _json_escape(code: int) -> str:
    """The JSON escape of one character (RFC 8259 §7: a UTF-16 surrogate pair above U+FFFF)."""
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


_TEXT = {code: escape for code, escape in CONTROL_ESCAPES.items() if code != 0x0A}
_JSON: dict[int, str] = {code: _json_escape(code) for code in CONTROL_ESCAPES if code >= 0x7F}
_SGR = re.compile(r"(\x1b\[[0-9;]*m)")


class Screen:
    """A text stream that writes what it is given with control characters made visible
    (``json``: as JSON escapes; ``colour``: the program's own colour sequences kept)."""

    def __init__(self, out: TextIO, json: bool = False, colour: bool = False) -> None:
        self.out = out
        self._json = json
        self._colour = colour

    def write(self, text: str) -> int:
        if self._json:
            safe = text.translate(_JSON)
        elif self._colour and "\x1b" in text:
            parts = _SGR.split(text)  # odd positions: the colour sequences themselves
            safe = "".join(part if i % 2 else part.translate(_TEXT)
                           for i, part in enumerate(parts))
        else:
            safe = text.translate(_TEXT)
        self.out.write(safe)
        return len(text)

    def flush(self) -> None:
        self.out.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.out, "isatty", lambda: False)())

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, ...: the stream's own
        return getattr(self.out, name)


def colour_on(out: TextIO, args: argparse.Namespace) -> bool:
    """Whether text output is coloured: ``--color always``, or ``auto`` on a terminal
    without ``NO_COLOR``."""
    colour = getattr(args, "color", "auto")
    return colour == "always" or (colour == "auto" and hasattr(out, "isatty") and out.isatty()
                                  and not os.environ.get("NO_COLOR"))


def screen(out: TextIO, args: argparse.Namespace) -> Screen:
    """The :class:`Screen` for one command's answer (JSON or text, coloured or not)."""
    form = getattr(args, "format", None)
    as_json = bool(getattr(args, "json", False)) or form in ("json", "sarif")
    return Screen(out, json=as_json, colour=not as_json and colour_on(out, args))


def painter(out: TextIO, args: argparse.Namespace) -> Callable[..., str]:
    """``paint(text, code, bold=False)``: ``text`` in an SGR colour when colour is on."""
    on = colour_on(out, args)

    def paint(text: str, code: str, bold: bool = False) -> str:
        if not on:
            return text
        return f"\x1b[{'1;' if bold else ''}{code}m{text}\x1b[0m"

    return paint


def fail(message: str) -> int:
    """Say what went wrong on one line of standard error; the exit code for errors."""
    sys.stderr.write(f"robotsrules: error: {visible(message)}\n")
    return EXIT_ERROR


def warn(message: str) -> None:
    """A warning on one line of standard error (the run goes on)."""
    sys.stderr.write(f"robotsrules: warning: {visible(message)}\n")


def note(message: str) -> None:
    """A note on one line of standard error: what the answer on stdout rests on."""
    sys.stderr.write(f"robotsrules: note: {visible(message)}\n")
