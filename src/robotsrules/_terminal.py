"""Text from strangers made safe to print on a terminal: one home for the escaping.

A robots.txt, an HTTP error, a URL list or a redirect target can carry ESC, CSI and OSC
sequences that set a window title, write the clipboard or clear the screen when printed
raw. Everything the command line and the lint report print that did not come from the
program itself goes through :func:`visible`: control characters are shown as escapes
(``\\x1b``, ``\\x9b``, ``\\u202e``, ``\\u200b``), and so are characters that show as
nothing (``\\u3164``); everything else is left as it is.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from typing import Final

__all__ = ["CONTROL_ESCAPES", "first_line", "visible"]

# Unicode's format characters (General_Category Cf, Unicode 14.0, Python 3.10's
# unicodedata; tests/test_terminal_escapes.py checks the running Python's table against
# it): zero-width and invisible characters (U+00AD, U+200B-U+200D, U+2060-U+2064, U+FEFF),
# every Bidi_Control character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, which
# reorder the text around them on a terminal) and the tag characters. None is visible
# where it stands, so a quoted value holding one reads as something it is not.
_FORMAT: Final = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F),
    (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)
# Characters that are not Cf but show as nothing (Unicode's Default_Ignorable_Code_Point
# letters and marks: the combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160,
# U+3164 and U+FFA0, the Khmer inherent vowels U+17B4-U+17B5) and the blank Braille pattern
# U+2800: a name or path holding one looks like one without it.
_BLANK: Final = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x2800, 0x2800),
                 (0x3164, 0x3164), (0xFFA0, 0xFFA0))
_FORMAT_CODES: Final = [code for first, last in (*_FORMAT, *_BLANK)
                        for code in range(first, last + 1)]
CONTROL_ESCAPES: Final[dict[int, str]] = {
    **{i: f"\\x{i:02x}" for i in (*range(0x20), *range(0x7F, 0xA0))},
    **{i: f"\\u{i:04x}" if i <= 0xFFFF else f"\\U{i:08x}"
       for i in (*_FORMAT_CODES, 0x2028, 0x2029)},
}
"""A :meth:`str.translate` table: C0 and C1 controls, DEL, Unicode's format characters
(Cf: the bidirectional controls, zero-width characters, the byte-order mark, soft hyphen,
tags), the blank characters that are not Cf (Hangul fillers, U+034F, U+2800) and the line
and paragraph separators, each to a visible escape."""


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
