"""Structured Field Dictionaries and Lists (RFC 9651 §3.2 and §3.1, parsed as §4.2.2 and
§4.2.1 say), for ``Content-Usage`` and ``Robots-Tag``.

draft-ietf-aipref-vocab serialises preferences as an RFC 9651 Dictionary; the attach draft
puts that text after the path of a robots.txt ``Content-Usage`` rule. This is a small,
strict, hand-written parser of exactly that type (and of the List that
draft-illyes-repext makes ``Robots-Tag``), kept here rather than taken from
``http-sfv`` because the core of robotsrules imports nothing outside the standard library
(robots.txt reading must not pull a dependency), and a Dictionary parser is short: one pass,
no recursion beyond one inner-list level, no regular expressions, linear in the input,
refusing input longer than ``max_length`` characters. Every failure raises ``ValueError``
with the offset, which the linter reports; the reader treats a failed value as stating
nothing (vocab §6.5: "If the parsing of the Dictionary fails, preferences are unknown").

Grammar (RFC 9651 §3)::

    sf-dictionary = dict-member *( OWS "," OWS dict-member )
    dict-member   = member-key ( parameters / ( "=" member-value ))
    member-key    = key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )
    member-value  = sf-item / inner-list
    inner-list    = "(" *SP [ sf-item *( 1*SP sf-item ) *SP ] ")" parameters
    parameters    = *( ";" *SP key [ "=" bare-item ] )
    bare-item     = sf-integer / sf-decimal / sf-string / sf-token
                    / sf-binary / sf-boolean / sf-date / sf-displaystring
"""

from __future__ import annotations

import base64
import binascii
from typing import Union

__all__ = [
    "BareItem",
    "Date",
    "DisplayString",
    "InnerList",
    "Item",
    "Token",
    "parse_dictionary",
    "parse_list",
    "split_members",
    "split_members_closed",
]


class Token(str):
    """An sf-token (``y``, ``n``, ``foo/bar``): a ``str`` that is not a quoted String."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Token({str.__repr__(self)})"


class DisplayString(str):
    """An sf-displaystring (``%"caf%c3%a9"``), decoded to text."""

    __slots__ = ()


class Date(int):
    """An sf-date (``@1659578233``): seconds since the epoch."""

    __slots__ = ()


BareItem = Union[int, float, str, bytes, bool]
"""int (Integer, :class:`Date`), float (Decimal), str (String, :class:`Token`,
:class:`DisplayString`), bytes (Byte Sequence), bool (Boolean)."""
Parameters = dict[str, BareItem]
Item = tuple[BareItem, Parameters]
InnerList = tuple[list[Item], Parameters]

_LCALPHA = frozenset("abcdefghijklmnopqrstuvwxyz")
_DIGIT = frozenset("0123456789")
_KEY_FIRST = _LCALPHA | {"*"}
_KEY_CHAR = _LCALPHA | _DIGIT | frozenset("_-.*")
_ALPHA = _LCALPHA | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TCHAR = _ALPHA | _DIGIT | frozenset("!#$%&'*+-.^_`|~")
_TOKEN_CHAR = _TCHAR | frozenset(":/")
_BASE64 = _ALPHA | _DIGIT | frozenset("+/=")
_LCHEX = frozenset("0123456789abcdef")

DEFAULT_MAX_LENGTH = 16384
"""Longest value parsed (characters); Google's reader cuts robots.txt lines far shorter."""


class _Parser:
    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"not a structured-field dictionary: {what} at offset {self.pos}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip(self, chars: str) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in chars:
            pos += 1
        self.pos = pos

    def last_member(self) -> bool:
        """After a member of a List or Dictionary: True at the end of the field, else past
        the ``,`` and blanks before the next member (RFC 9651 §4.2.1, §4.2.2)."""
        self.skip(" \t")
        if self.pos >= len(self.text):
            return True
        if self.peek() != ",":
            raise self.fail("members must be separated by ','")
        self.pos += 1
        self.skip(" \t")
        if self.pos >= len(self.text):
            raise self.fail("trailing ','")
        return False

    def key(self) -> str:
        start = self.pos
        if self.peek() not in _KEY_FIRST or self.peek() == "":
            raise self.fail("a key must start with a-z or '*'")
        self.pos += 1
        while self.peek() and self.peek() in _KEY_CHAR:
            self.pos += 1
        return self.text[start:self.pos]

    def parameters(self) -> Parameters:
        params: Parameters = {}
        while self.peek() == ";":
            self.pos += 1
            self.skip(" ")
            name = self.key()
            value: BareItem = True
            if self.peek() == "=":
                self.pos += 1
                value = self.bare_item()
            params[name] = value
        return params

    def item(self) -> Item:
        value = self.bare_item()
        return value, self.parameters()

    def member_value(self) -> Union[Item, InnerList]:
        if self.peek() != "(":
            return self.item()
        self.pos += 1
        items: list[Item] = []
        while True:
            self.skip(" ")
            char = self.peek()
            if char == "":
                raise self.fail("unterminated inner list")
            if char == ")":
                self.pos += 1
                return items, self.parameters()
            items.append(self.item())
            if self.peek() not in (" ", ")"):
                raise self.fail("inner-list items must be separated by spaces")

    def bare_item(self) -> BareItem:
        char = self.peek()
        if char == "-" or (char in _DIGIT and char):
            return self.number()
        if char == '"':
            return self.string()
        if char and (char in _ALPHA or char == "*"):
            return self.token()
        if char == ":":
            return self.binary()
        if char == "?":
            return self.boolean()
        if char == "@":
            self.pos += 1
            number = self.number()
            if not isinstance(number, int):
                raise self.fail("a date must be an integer")
            return Date(number)
        if char == "%":
            return self.display_string()
        raise self.fail("a value must be a number, string, token, byte sequence, boolean, date "
                        "or display string")

    def number(self) -> Union[int, float]:
        sign = 1
        if self.peek() == "-":
            sign = -1
            self.pos += 1
        if not (self.peek() and self.peek() in _DIGIT):
            raise self.fail("a number needs a digit")
        start = self.pos
        decimal = False
        while True:
            char = self.peek()
            if char and char in _DIGIT:
                self.pos += 1
            elif char == "." and not decimal:
                if self.pos - start > 12:
                    raise self.fail("a decimal has at most 12 integer digits")
                decimal = True
                self.pos += 1
            else:
                break
            if not decimal and self.pos - start > 15:
                raise self.fail("an integer has at most 15 digits")
            if decimal and self.pos - start > 16:
                raise self.fail("a decimal is too long")
        text = self.text[start:self.pos]
        if not decimal:
            return sign * int(text)
        fraction = text.split(".", 1)[1]
        if not 1 <= len(fraction) <= 3:
            raise self.fail("a decimal has 1 to 3 fraction digits")
        return sign * float(text)

    def string(self) -> str:
        self.pos += 1
        out: list[str] = []
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            self.pos += 1
            if char == "\\":
                escaped = self.peek()
                if escaped not in ('"', "\\") or escaped == "":
                    raise self.fail("only \\\" and \\\\ may be escaped in a string")
                out.append(escaped)
                self.pos += 1
            elif char == '"':
                return "".join(out)
            elif not " " <= char <= "~":
                raise self.fail("a string holds printable ASCII only")
            else:
                out.append(char)
        raise self.fail("unterminated string")

    def token(self) -> Token:
        start = self.pos
        self.pos += 1
        while self.peek() and self.peek() in _TOKEN_CHAR:
            self.pos += 1
        return Token(self.text[start:self.pos])

    def binary(self) -> bytes:
        self.pos += 1
        start = self.pos
        while self.peek() and self.peek() in _BASE64:
            self.pos += 1
        if self.peek() != ":":
            raise self.fail("unterminated byte sequence")
        data = self.text[start:self.pos]
        self.pos += 1
        try:
            return base64.b64decode(data + "=" * (-len(data) % 4), validate=True)
        except (binascii.Error, ValueError):
            raise self.fail("bad base64 in byte sequence") from None

    def boolean(self) -> bool:
        self.pos += 1
        char = self.peek()
        if char not in ("0", "1") or char == "":
            raise self.fail("a boolean is ?0 or ?1")
        self.pos += 1
        return char == "1"

    def display_string(self) -> DisplayString:
        if self.text[self.pos:self.pos + 2] != '%"':
            raise self.fail('a display string starts with %"')
        self.pos += 2
        out = bytearray()
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            self.pos += 1
            if not " " <= char <= "~":
                raise self.fail("a display string holds printable ASCII only")
            if char == "%":
                digits = text[self.pos:self.pos + 2]
                if len(digits) != 2 or not set(digits) <= _LCHEX:
                    raise self.fail("a display string escapes as %xx in lower-case hex")
                out.append(int(digits, 16))
                self.pos += 2
            elif char == '"':
                try:
                    return DisplayString(out.decode("utf-8"))
                except UnicodeDecodeError:
                    raise self.fail("a display string must be UTF-8") from None
            else:
                out.append(ord(char))
        raise self.fail("unterminated display string")


def parse_dictionary(text: str, *,
                     max_length: int = DEFAULT_MAX_LENGTH) -> dict[str, Union[Item, InnerList]]:
    """Parse an RFC 9651 Dictionary; raise ``ValueError`` if ``text`` is not one.

    Values are ``(bare_item, parameters)`` or, for an inner list, ``([items], parameters)``.
    A key given twice keeps its first position and its last value (RFC 9651 §4.2.2). Leading
    and trailing spaces are ignored; an empty text is an empty dictionary.

    >>> parse_dictionary("train-ai=n, search=y")
    {'train-ai': (Token('n'), {}), 'search': (Token('y'), {})}
    >>> parse_dictionary("train-ai=y, train-ai")
    {'train-ai': (True, {})}
    >>> parse_dictionary("Train-AI=n")
    Traceback (most recent call last):
    ...
    ValueError: not a structured-field dictionary: a key must start with a-z or '*' at offset 0
    """
    if len(text) > max_length:
        raise ValueError(f"not a structured-field dictionary: longer than {max_length} characters")
    parser = _Parser(text.strip(" "))
    result: dict[str, Union[Item, InnerList]] = {}
    if not parser.text:
        return result
    while True:
        name = parser.key()
        if parser.peek() == "=":
            parser.pos += 1
            result[name] = parser.member_value()
        else:
            result[name] = (True, parser.parameters())
        if parser.last_member():
            return result


def parse_list(text: str, *, max_length: int = DEFAULT_MAX_LENGTH
               ) -> list[Union[Item, InnerList]]:
    """Parse an RFC 9651 List (§4.2.1); raise ``ValueError`` if ``text`` is not one.

    Members are ``(bare_item, parameters)`` or, for an inner list, ``([items],
    parameters)``, in order. Leading and trailing spaces are ignored; an empty text is an
    empty list.

    >>> parse_list("*;nosnippet, ExampleBot;noindex")
    [(Token('*'), {'nosnippet': True}), (Token('ExampleBot'), {'noindex': True})]
    >>> parse_list("a;b=1,")
    Traceback (most recent call last):
    ...
    ValueError: not a structured-field list: trailing ',' at offset 6
    """
    if len(text) > max_length:
        raise ValueError(f"not a structured-field list: longer than {max_length} characters")
    parser = _Parser(text.strip(" "))
    result: list[Union[Item, InnerList]] = []
    if not parser.text:
        return result
    try:
        while True:
            result.append(parser.member_value())
            if parser.last_member():
                return result
    except ValueError as error:
        raise ValueError(str(error).replace("structured-field dictionary",
                                            "structured-field list")) from None


def split_members(text: str) -> list[str]:
    """The top-level comma-separated members of a Dictionary's or a List's text (commas
    inside strings and inner lists are not separators), as written; linear in the text.
    A field that does not parse is read member by member from these.

    >>> split_members('a=1, b="x,y", c=(d e)')
    ['a=1', ' b="x,y"', ' c=(d e)']
    """
    return split_members_closed(text)[0]


def split_members_closed(text: str) -> tuple[list[str], bool]:
    """:func:`split_members`, and whether the text ends outside any string and inner list
    (``False`` for ``foo="x, train-ai=n``: the split swallowed the rest into one member).

    >>> split_members_closed('a=1, b="x, c=n')
    (['a=1', ' b="x, c=n'], False)
    """
    out: list[str] = []
    start = 0
    depth = 0
    quoted = False
    index = 0
    size = len(text)
    while index < size:
        char = text[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == "," and not depth:
            out.append(text[start:index])
            start = index + 1
        index += 1
    out.append(text[start:])
    return out, not quoted and not depth
