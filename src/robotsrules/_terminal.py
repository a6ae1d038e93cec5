"""Text from strangers made safe to print on a terminal: one home for the escaping.

A robots.txt, an HTTP error, a URL list or a redirect target can carry ESC, CSI and OSC
sequences that set a window title, write the clipboard or clear the screen when printed
raw. Everything the command line and the lint report print that did not come from the
program itself goes through :func:`visible`: control characters are shown as escapes
(``\\x1b``, ``\\x9b``, ``\\u202e``), everything else is left as it is.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from typing import Dict, Final

__all__ = ["CONTROL_ESCAPES", "first_line", "visible"]

_BIDI: Final = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))  # embeddings, overrides, isolates
CONTROL_ESCAPES: Final[Dict[int, str]] = {
    **{i: f"\\x{i:02x}" for i in (*range(0x20), *range(0x7F, 0xA0))},
    **{i: f"\\u{i:04x}" for i in (*_BIDI, 0x2028, 0x2029)},
}
"""A :meth:`str.translate` table: C0 and C1 controls, DEL, the bidirectional overrides and
the Unicode line and paragraph separators, each to a visible escape."""


def visible(text: str) -> str:
    """``text`` with every control character made visible (see :data:`CONTROL_ESCAPES`).

    >>> visible("a\\x1b]0;owned\\x07b")
    'a\\\\x1b]0;owned\\\\x07b'
    """
    return text.translate(CONTROL_ESCAPES)


def first_line(error: BaseException) -> str:
    """The first line of an exception's message (an engine's can run to pages), or its
    class name when it has none: what a one-line error report quotes."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
