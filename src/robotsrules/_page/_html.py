"""The ``<meta>`` elements of an HTML document's head, read as the HTML standard reads them.

Theory of operation. The HTML Living Standard (§13.2, as of 2026-11) defines one way to turn
bytes into elements: sniff the encoding (:mod:`._encoding`), tokenize, and build the tree
through *insertion modes*. This module follows both stages exactly as far as they decide
which ``<meta>`` elements end up in the head, and a little further:

* the tokenizer's states that can hide or reveal markup: comments (ending at ``-->`` or
  ``--!>``, and at once for ``<!-->`` / ``<!--->``), bogus comments (``<!x>``, ``<?x>``,
  ``</ x>``), DOCTYPE, RCDATA (``title``, ``textarea``), RAWTEXT (``style``, ``xmp``,
  ``iframe``, ``noembed``, ``noframes``), PLAINTEXT, script data with its *escaped* and
  *double escaped* states (``<script><!--<script></script>--></script>``), attributes with
  every quoting form, character references in attribute values (the attribute rules), and
  CDATA sections, which are text only in foreign (SVG, MathML) content;
* the tree builder's modes "initial", "before html", "before head", "in head", "in head
  noscript" (scripting disabled: a crawler runs no script, so ``<noscript>`` content is
  markup), "after head" (where ``</head><meta>`` still puts the meta *in the head*) and
  ``<template>`` contents (not part of the document: their metas are not read; ``<body>``
  and ``</head>`` inside them do nothing).

The head ends where the standard ends it: ``</head>``, or the first token the head cannot
hold (text that is not blank, an ``<img>``, a ``<div>``, Google Tag Manager's
``<noscript><iframe>``). The tree builder then moves what follows into an implied
``<body>``. Authors do not see that: a robots meta after such a token is still, to them, in
their head. So reading goes on past the head's end up to the author's ``<body>`` start tag
(or a ``<frameset>``, or PLAINTEXT, or the end of the window), and the metas read there are
marked ``in_head=False``; the signal layer lets them restrict and never permit
(:mod:`._signals`). In that implied body the reader tracks raw text, templates and foreign
content (with its breakout tags and integration points) as the standard does, without the
rest of the tree builder (formatting elements, tables, ``<select>``): where that shortcut
could differ from the standard it reads *more* metas, never fewer
(``tests/page/test_html_differential.py`` checks both directions against html5lib and
lexbor).

Beside the metas, the head's ``<link>`` elements whose ``rel`` names ``license``, the first
``<base href>`` (the document's base URL) and ``<script type="application/rsl+xml">``
elements (RSL 1.0's inline licence, with their text) are read, in the same places and with
the same ``in_head`` marking; a cheap probe of the tag's text decides whether such a tag's
attributes are read at all, so pages without them cost what they did.

Every step moves forward with ``str.find`` and anchored or forward-searching regular
expressions, so the cost is linear in the characters read, whatever the input.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import html
import html.entities
import re
import sys
from typing import Final, NamedTuple, Optional, Union

from ._encoding import (
    decode_html,
    decode_prefix,
    extract_mime_type,
    prefix_encoding,
    transport_encoding,
    utf8_or_1252,
)

__all__ = ["DEFAULT_HEAD_BYTES", "MAX_HEAD_LINKS", "RSL_MEDIA_TYPE", "Head", "InlineScript",
           "Link", "Meta", "html_type", "is_rsl_type", "read_head", "read_head_meta",
           "reads_as_html", "sniffs_html", "starts_as_markup"]

DEFAULT_HEAD_BYTES = 512 * 1024
"""How much of an HTML body is read for its head (inline styles and scripts make heads of
a few hundred KiB common); what lies beyond is never looked at."""


class Meta(NamedTuple):
    """One ``<meta name=... content=...>`` element: its ``name`` (as written, blanks
    stripped) and ``content``, the character ``offset`` of its ``<`` in the decoded document,
    its 1-based ``line``, and whether the standard puts it ``in_head`` (``False``: in the
    body that an early element or text implied, before the ``<body>`` tag)."""

    name: str
    content: str
    offset: int
    line: int
    in_head: bool


class Link(NamedTuple):
    """One ``<link>`` element whose ``rel`` names ``license``: its ``rel`` tokens
    (lower-cased), ``type`` (as written, blanks stripped; ``None`` without one) and ``href``
    (as written, ``None`` without one), its ``offset``, ``line`` and ``in_head`` as for
    :class:`Meta`."""

    rel: tuple[str, ...]
    type: Optional[str]
    href: Optional[str]
    offset: int
    line: int
    in_head: bool


class InlineScript(NamedTuple):
    """One ``<script type="application/rsl+xml">`` element (RSL 1.0's inline licence): its
    ``text`` as written (character references are not decoded in script data), ``offset``,
    ``line`` and ``in_head`` as for :class:`Meta`."""

    text: str
    offset: int
    line: int
    in_head: bool


class Head(NamedTuple):
    """What :func:`read_head` read: the ``metas``, the document's ``encoding`` (WHATWG name;
    ``""`` for text given as ``str``) and ``end``, the character offset where reading
    stopped (the ``<body>`` tag, or the end of what was read); ``links`` (the licence
    ``<link>`` elements), ``base`` (the first ``<base href>``, as written) and ``scripts``
    (the inline RSL licences), at most :data:`MAX_HEAD_LINKS` of each. ``cut``: the document
    went on past what was read and reading had not yet reached the ``<body>`` tag (nor a
    ``<frameset>`` or ``<plaintext>``), so the head may hold metas that were not read."""

    metas: tuple[Meta, ...]
    encoding: str
    end: int
    links: tuple[Link, ...] = ()
    base: Optional[str] = None
    scripts: tuple[InlineScript, ...] = ()
    cut: bool = False


MAX_HEAD_LINKS = 256
"""Licence links and inline RSL scripts kept per document (each); later ones are not read."""
RSL_MEDIA_TYPE = "application/rsl+xml"
"""RSL 1.0's media type (the ``type`` of its ``<link>`` and ``<script>`` elements)."""


def is_rsl_type(value: str) -> bool:
    """Whether a ``type`` (a MIME type, parameters allowed) is RSL's, compared
    case-insensitively."""
    return value.split(";", 1)[0].strip(_WS).lower() == RSL_MEDIA_TYPE


_EXTRA_TAGS: Final = frozenset({"link", "base", "script"})
_MAX_EXTRAS: Final = 3 * MAX_HEAD_LINKS
_SCRIPT_CLOSE: Final = re.compile(r"</script", re.IGNORECASE | re.ASCII)


_WS: Final = "\t\n\f\r "
# One step through a tag's attributes, as the tokenizer takes them: blanks and "/" skipped,
# then the tag's ">" (group 1) or an attribute: its name, then optionally blanks, "=", blanks
# and a value, double-quoted, single-quoted (each with its closing quote captured: an empty
# group is a quote the input ends inside) or unquoted.
_STEP: Final = re.compile(
    r"""[\t\n\f\r /]*(?:(>)|([^\t\n\f\r />][^\t\n\f\r />=]*)"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)("?)|'([^']*)('?)|([^\t\n\f\r >]*)))?)""")
# The rest of a tag in the common, unambiguous form only (each attribute after a blank, no
# blanks around "=", no quote, "<", "=" or "`" where the tokenizer would take them as part of
# a name or an unquoted value, no "/" in a name, and an unquoted value ended by a blank, or
# by ">" unless its last character is "/": the tokenizer takes that "/" into the value, so
# ``<svg width=1/>`` is no self-closing tag): where it matches, its ">" and its "/>" are the
# tokenizer's, and its attributes are :data:`_PLAIN_ATTRIBUTE`'s matches (one attribute
# each, in order: the form leaves one way to split it). Other tags take the full attribute
# reader. (Unquoted URLs, ``href=https://example.com/a``, are in the form.)
#
# The form is unambiguous, so no match of it ever needs a repetition given back: where
# Python has them (3.11 and later), the repetitions are possessive, which spares the regular
# expression engine a backtracking point per attribute and per run of characters (about a
# third of its time on a tag; the same matches: a test compares both spellings).
#
# A plain attribute's name, and its unquoted value's characters (one spelling for both).
_PLAIN_NAME: Final = r"""[^\t\n\f\r />="'<]"""
_PLAIN_BARE: Final = r"""[^\t\n\f\r >"'=<`]"""


def _plain_tag(possessive: bool) -> str:
    """:data:`_PLAIN_TAG`'s pattern, with possessive repetitions or without."""
    more = "+" if possessive else ""
    return (rf"""(?:[\t\n\f\r ]+{more}{_PLAIN_NAME}+{more}"""
            rf"""(?:=(?:"[^"]*{more}"|'[^']*{more}'"""
            rf"""|{_PLAIN_BARE}+{more}(?=[\t\n\f\r ]|(?<!/)>)))?)*{more}"""
            r"""[\t\n\f\r ]*/?>""")


_PLAIN_TAG: Final = _plain_tag(sys.version_info >= (3, 11))
_PLAIN_ATTRIBUTE: Final = re.compile(
    rf"""[\t\n\f\r ]+({_PLAIN_NAME}+)(?:=(?:"([^"]*)"|'([^']*)'|({_PLAIN_BARE}+)))?""")
# Matched after a tag's "<": the "/" of an end tag (group 1), the tag's name (group 2) and,
# where the rest is in that plain form, the rest (group 3): one match per tag. (No shorter
# name can be followed by the plain form, which starts with a blank, "/" or ">", so the name
# is always the tokenizer's whole name.)
_TAG: Final = re.compile(rf"(/?)([A-Za-z][^\t\n\f\r />]*)({_PLAIN_TAG})?")
# The common step between two tags: blanks at most (no text the tree builder would act on),
# then a start or end tag (groups as in _TAG), matched at once from where the last token
# ended.
_NEXT_TAG: Final = re.compile(rf"[\t\n\f\r ]*<{_TAG.pattern}")
# The start tags whose attributes matter here.
_READ_ATTRIBUTES: Final = frozenset({"meta", "annotation-xml", "font", "input"})
_NO_ATTRIBUTES: Final[dict[str, str]] = {}
_COMMENT_END: Final = re.compile(r"--!?>")
# Tag names are compared ASCII case-insensitively (the tokenizer lowers A-Z only): with
# re.ASCII, "(?i)s" does not match U+017F (long s), nor "i" U+0130/U+0131, nor "k" U+212A
# (Kelvin), so "</\u017ftyle>" does not end a style sheet here either.
_NAME_CASE: Final = re.IGNORECASE | re.ASCII
_SCRIPT_DATA: Final = re.compile(r"<!--|</script[\t\n\f\r />]", _NAME_CASE)
_SCRIPT_ESCAPED: Final = re.compile(r"-->|</script[\t\n\f\r />]|<script[\t\n\f\r />]",
                                    _NAME_CASE)
_SCRIPT_DOUBLE: Final = re.compile(r"-->|</script[\t\n\f\r />]", _NAME_CASE)
_CLOSERS: Final = {name: re.compile(f"</{name}[\t\n\f\r />]", _NAME_CASE)
            for name in ("title", "textarea", "style", "xmp", "iframe", "noembed", "noframes")}
_RAW_ENDS: Final = {**_CLOSERS, "noscript": re.compile("</noscript[\t\n\f\r />]", _NAME_CASE)}
"""The end tags of :data:`_CLOSERS` and of ``noscript``, raw text when scripting is
enabled (:func:`_scripted`)."""
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                    "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(name: str) -> str:
    """A tag or attribute name as the tokenizer lowers it: A-Z only (``str.lower`` would
    also turn U+212A, the Kelvin sign, into ``k``, and U+0130 into two characters)."""
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


_VOID: Final = frozenset({"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame",
                          "hr", "img", "input", "keygen", "link", "meta", "param", "source",
                          "track", "wbr"})
# "in head": the start tags the head keeps (the rest end it).
_HEAD_VOID: Final = frozenset({"base", "basefont", "bgsound", "link"})
# "in foreign content": start tags that leave SVG/MathML for HTML.
_BREAKOUT: Final = frozenset({
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
    "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
    "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong",
    "strike", "sub", "sup", "table", "tt", "u", "ul", "var"})
_MATH_TEXT: Final = frozenset({"mi", "mo", "mn", "ms", "mtext"})
_RAW: Final = frozenset(_CLOSERS) | {"script"}
# "in body": the start tags that set the frameset-ok flag to "not ok" (a later <frameset>
# is then ignored instead of replacing the body).
_NOT_FRAMESET: Final = frozenset({
    "pre", "listing", "li", "dd", "dt", "button", "applet", "marquee", "object", "table",
    "area", "br", "embed", "img", "image", "keygen", "wbr", "hr", "textarea", "xmp",
    "iframe", "select"})

# Insertion modes (before html/head are one: they differ in nothing that decides here).
_PRE: Final = 0
_HEAD: Final = 1
_NOSCRIPT: Final = 2
_AFTER: Final = 3
_BODY: Final = 4
_STOP: Final = -1


# The "special" category (§13.2.4.3): an end tag looking for its element stops at these.
_SPECIAL: Final = frozenset({
    "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound",
    "blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd",
    "details", "dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure",
    "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li", "link",
    "listing", "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript",
    "object", "ol", "p", "param", "plaintext", "pre", "script", "search", "section", "select",
    "source", "style", "summary", "table", "tbody", "td", "template", "textarea", "tfoot",
    "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp"})
_MAX_OPEN: Final = 1024
"""Elements of the implied body tracked at once; deeper ones are read as if void (a bound
on memory, whatever the nesting; every end tag costs the same at any depth)."""


# The names this reader compares against, each mapped to itself: a tag name found here, as
# written, is its own lower-case form (no A-Z in it), so the lowering is skipped.
_NAMES: Final[dict[str, str]] = {name: name for name in (
    _VOID | _HEAD_VOID | _BREAKOUT | _MATH_TEXT | _SPECIAL | _NOT_FRAMESET | _RAW
    | _READ_ATTRIBUTES | _EXTRA_TAGS
    | {"html", "head", "body", "noscript", "template", "svg", "math", "mglyph", "malignmark",
       "foreignobject", "desc", "frameset", "plaintext", "image", "a"})}


class _Open:
    """An open element of the implied body: its namespace (``html``, ``svg``, ``math``),
    lower-cased name, ``kind`` (``hip``: HTML integration point, ``mtip``: MathML text
    integration point, else ``""``) and whether it is ``special``."""

    __slots__ = ("kind", "name", "ns", "special")

    def __init__(self, ns: str, name: str, kind: str, special: bool) -> None:
        self.ns = ns
        self.name = name
        self.kind = kind
        self.special = special


def _open(ns: str, name: str, attributes: dict[str, str]) -> _Open:
    if ns == "html":
        return _Open(ns, name, "", name in _SPECIAL)
    kind = ""
    if ns == "svg" and name in ("foreignobject", "desc", "title"):
        kind = "hip"
    elif ns == "math":
        if name in _MATH_TEXT:
            kind = "mtip"
        elif name == "annotation-xml" and attributes.get("encoding", "").lower() in (
                "text/html", "application/xhtml+xml"):
            kind = "hip"
    special = kind != "" or (ns == "math" and name == "annotation-xml")
    return _Open(ns, name, kind, special)


_REFERENCE: Final = re.compile(r"&(#[xX][0-9A-Fa-f]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)")
_ENTITIES: Final = html.entities.html5


def _attribute_reference(match: re.Match[str]) -> str:
    body = match.group(1)
    if body[0] == "#":
        return html.unescape(match.group())
    for cut in range(len(body), 0, -1):
        name = body[:cut]
        if name in _ENTITIES:
            rest = body[cut:]
            after = rest[:1] or match.string[match.end():match.end() + 1]
            # The attribute rule: a reference without ";" followed by "=" or an
            # alphanumeric is left as written ("&copy=" in a URL query).
            if not name.endswith(";") and after and (after == "=" or after.isalnum()):
                return match.group()
            return str(_ENTITIES[name]) + rest
    return match.group()


def _attribute_value(value: str) -> str:
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    return _REFERENCE.sub(_attribute_reference, value) if "&" in value else value


# The attribute names read here (and common others), each mapped to itself, as _NAMES.
_ATTRIBUTE_NAMES: Final[dict[str, str]] = {name: name for name in (
    "name", "content", "http-equiv", "charset", "property", "itemprop", "encoding", "color",
    "face", "size", "type", "rel", "href", "src", "id", "class", "lang", "media", "as")}


def _attributes(text: str, here: int) -> tuple[Optional[dict[str, str]], bool, int]:
    """``(attributes, self_closing, end)`` of a tag whose name ends at ``here``;
    ``attributes`` is ``None`` when the input ends inside the tag (HTML drops it)."""
    attributes: dict[str, str] = {}
    step = _STEP.match
    while True:
        found = step(text, here)
        if found is None:
            return None, False, len(text)
        key, double, closed, single, closed_single, bare = found.group(2, 3, 4, 5, 6, 7)
        here = found.end()
        if key is None:  # the tag's ">"
            return attributes, here - 2 >= found.start() and text[here - 2] == "/", here
        if (double is not None and not closed) or (single is not None and not closed_single):
            return None, False, len(text)  # an unterminated quoted value runs to the end
        key = _ATTRIBUTE_NAMES.get(key, "") or _ascii_lower(key)
        if key not in attributes:  # the first of repeated attributes wins
            value = double if double is not None else single if single is not None else bare
            attributes[key] = value or ""


def _plain_attributes(text: str, start: int, end: int) -> dict[str, str]:
    """The attributes of a tag whose rest ``text[start:end]`` is in the plain form
    (:data:`_PLAIN_TAG`), as :func:`_attributes` reads them, taken at once."""
    attributes: dict[str, str] = {}
    for key, double, single, bare in _PLAIN_ATTRIBUTE.findall(text, start, end):
        key = _ATTRIBUTE_NAMES.get(key, "") or _ascii_lower(key)
        if key not in attributes:  # the first of repeated attributes wins
            attributes[key] = double or single or bare
    return attributes


def _end_tag_end(text: str, here: int) -> int:
    """Where an end tag whose name ends at ``here`` ends (its attributes, if any, are
    tokenized and dropped); ``len(text)`` at the end of input. The common ``</name>`` is
    not tokenized."""
    if here < len(text) and text[here] == ">":
        return here + 1
    return _attributes(text, here)[2]


def _find_at(pattern: re.Pattern[str], text: str, here: int, probe: str
             ) -> Optional[re.Match[str]]:
    """``pattern.search(text, here)`` for a pattern each of whose matches starts with
    ``probe``: the candidates are found with ``str.find`` (for one character a ``memchr``,
    where the regular expression engine steps one character at a time) and the pattern
    tried at each of them, in order, so the leftmost match is the one ``search`` finds."""
    while True:
        at = text.find(probe, here)
        if at < 0:
            return None
        found = pattern.match(text, at)
        if found is not None:
            return found
        here = at + 1


def _raw_end(text: str, name: str, here: int) -> int:
    """The end of an RCDATA or RAWTEXT element's end tag, from the end of its start tag."""
    closer = _find_at(_RAW_ENDS[name], text, here, "<")
    if closer is None:
        return len(text)
    return _end_tag_end(text, closer.end() - 1)


def _script_end(text: str, here: int) -> int:
    """The end of a script element's end tag: script data and its escaped and double
    escaped states (a ``</script>`` inside ``<!--<script>...-->`` ends nothing)."""
    size = len(text)
    state = 0  # 0 script data, 1 escaped, 2 double escaped
    while True:
        if state == 0:  # "<!--" or an end tag: both start with "<"
            found = _find_at(_SCRIPT_DATA, text, here, "<")
        else:
            found = (_SCRIPT_ESCAPED if state == 1 else _SCRIPT_DOUBLE).search(text, here)
        if found is None:
            return size
        token = found.group()
        if token == "<!--":
            state = 1
            here = found.end() - 2  # the escape's dashes count for an immediate "-->"
        elif token == "-->":
            state = 0
            here = found.end()
        elif token[1] == "/":
            if state == 2:
                state = 1
                here = found.end()
            else:
                return _end_tag_end(text, found.end() - 1)
        else:  # "<script" in the escaped state
            state = 2
            here = found.end()


def _has_text(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a character other than ASCII whitespace."""
    chunk = text[start:end].strip(_WS)
    if not chunk:
        return False
    if "&" in chunk:  # "&#32;" is a space to the tree builder
        return bool(html.unescape(chunk).strip(_WS))
    return True


_Extra = tuple[str, dict[str, str], int, bool, str]


def _spells(text: str, start: int, end: int, word: str) -> bool:
    """Whether ``text[start:end]`` holds ``word`` (lower case) in any case: lower-cased, a
    ``find``, where a case-insensitive search costs several times as much."""
    return text[start:end].lower().find(word) >= 0


def _may_keep(extras: Optional[list[_Extra]], name: str, text: str, at: int, end: int
              ) -> bool:
    """Whether the tag ``text[at:end]`` (``name``: ``link``, ``base`` or ``script``) may be a
    licence link, a base or an RSL script to keep in ``extras`` (not when ``None``, nor when
    :data:`_MAX_EXTRAS` are kept already): a probe of the tag's own text, so that other links
    and scripts cost little (the attributes are read, and decide, only where it holds). The
    tag must spell "licen" or "rsl" (:func:`_spells`), or hold a numeric character reference
    (``&#``), which may spell a letter of either: no named reference does (the one whose
    value holds an ASCII letter is ``&fjlig;``, "fj"; a test checks the table), so ``&amp;``
    in a URL is no reason to read a link's attributes."""
    if extras is None or len(extras) >= _MAX_EXTRAS:
        return False
    if name == "base":
        return True
    return text.find("&#", at, end) >= 0 or _spells(text, at, end,
                                                    "licen" if name == "link" else "rsl")


def _scan(text: str, extras: Optional[list[_Extra]] = None, scripting: bool = False
          ) -> tuple[list[tuple[dict[str, str], int, bool]], int]:
    """``(attributes, offset, in_head)`` of every ``<meta>`` read, and where reading
    stopped (module docstring). With ``extras``, the licence links, base elements and RSL
    scripts are appended to it as ``(tag name, attributes, offset, in_head, script text)``.
    ``scripting``: the parse with the scripting flag enabled (``<noscript>`` holds raw
    text; :func:`_scripted`)."""
    metas: list[tuple[dict[str, str], int, bool]] = []
    size = len(text)
    pos = 0
    mode = _PRE
    depth = 0  # open <template> elements
    back = _HEAD  # the mode the outermost template returns to
    stack: list[_Open] = []  # the open elements of the implied body and of templates
    # Indexes into the stack, so that no end tag walks it: per (is HTML, name), of the
    # special elements, of the HTML elements (each in increasing order).
    named: dict[tuple[bool, str], list[int]] = {}
    specials: list[int] = []
    htmls: list[int] = []
    frameset_ok = True

    def in_foreign() -> bool:
        return bool(stack) and stack[-1].ns != "html"

    def extra(name: str, at: int, name_end: int, end: int, in_head: bool) -> int:
        """Keep a licence ``<link>``, a ``<base>`` or an RSL ``<script>`` (:func:`_may_keep`
        said it may be one); the position after the element."""
        assert extras is not None
        after = _script_end(text, end) if name == "script" else end
        attributes = _attributes(text, name_end)[0] or {}
        content = ""
        if name == "script":
            if not is_rsl_type(_attribute_value(attributes.get("type", ""))):
                return after
            close = [m.start() for m in _SCRIPT_CLOSE.finditer(text, end, after)]
            content = text[end:close[-1] if close else after]
        extras.append((name, attributes, at, in_head, content))
        return after

    def push(element: _Open) -> None:
        if len(stack) >= _MAX_OPEN:
            return
        index = len(stack)
        stack.append(element)
        named.setdefault((element.ns == "html", element.name), []).append(index)
        if element.special:
            specials.append(index)
        if element.ns == "html":
            htmls.append(index)

    def cut(index: int) -> None:
        """Pop the element at ``index`` and every element above it."""
        for element in stack[index:]:
            named[(element.ns == "html", element.name)].pop()
        while specials and specials[-1] >= index:
            specials.pop()
        while htmls and htmls[-1] >= index:
            htmls.pop()
        del stack[index:]

    def leave_foreign() -> None:
        # Pop until the current node is an integration point or an HTML element.
        while stack and stack[-1].ns != "html" and stack[-1].kind == "":
            cut(len(stack) - 1)

    def body_start(name: str, attributes: dict[str, str], closing: bool, end: int,
                   at: int, name_end: int) -> int:
        """A start tag in the (implied) body or in template contents: the next position,
        or _STOP."""
        nonlocal depth, back, frameset_ok
        if in_foreign():
            top = stack[-1]
            html_rules = (top.kind == "hip"
                          or (top.kind == "mtip" and name not in ("mglyph", "malignmark"))
                          or (top.ns == "math" and top.name == "annotation-xml"
                              and name == "svg"))
            if not html_rules:
                if name in _BREAKOUT or (name == "font" and (
                        "color" in attributes or "face" in attributes
                        or "size" in attributes)):
                    leave_foreign()
                else:
                    if not closing:
                        push(_open(top.ns, name, attributes))
                    return end
        if name in ("svg", "math"):
            if not closing:
                push(_open(name, name, attributes))
            return end
        if frameset_ok and (name in _NOT_FRAMESET or (
                name == "input" and attributes.get("type", "").lower() != "hidden")):
            frameset_ok = False
        if name == "frameset" and frameset_ok and depth == 0:
            return _STOP  # it replaces the body; nothing after it is read
        if name == "meta":
            if depth == 0:
                metas.append((attributes, at, False))
            return end
        if name in _EXTRA_TAGS and depth == 0 and _may_keep(extras, name, text, at, end):
            return extra(name, at, name_end, end, False)
        if name == "body":
            return _STOP if depth == 0 else end
        if name == "plaintext":
            return _STOP  # the rest of the input is text: nothing more to read
        if name == "template":
            if depth == 0:
                back = _BODY
            depth += 1
            push(_open("html", name, attributes))
            return end
        if name == "script":
            return _script_end(text, end)
        if name in _CLOSERS or (scripting and name == "noscript"):
            return _raw_end(text, name, end)
        if name not in _VOID and name not in ("html", "head", "frameset", "image"):
            push(_open("html", name, attributes))
        return end

    def html_end(name: str) -> None:
        # "Any other end tag" (§13.2.6.4.7): the nearest open HTML element of that name,
        # unless a special element comes first (a special element of that name matches).
        found = named.get((True, name))
        if found and (not specials or specials[-1] <= found[-1]):
            cut(found[-1])

    def body_end(name: str) -> None:
        nonlocal depth, mode, frameset_ok
        if name == "template":
            if depth:
                found = named.get((True, "template"))
                if found:
                    cut(found[-1])
                depth -= 1
                if depth == 0:
                    mode = back
            return
        if in_foreign():
            if name in ("br", "p"):
                leave_foreign()
            else:
                # "Any other end tag" in foreign content: the nearest foreign element of
                # that name above the last HTML element, else the HTML rules.
                found = named.get((False, name))
                if found and found[-1] > (htmls[-1] if htmls else -1):
                    cut(found[-1])
                    return
        if name == "br":
            frameset_ok = False  # "</br>" is read as "<br>"
            return
        html_end(name)

    while True:
        found = _NEXT_TAG.match(text, pos)
        if found is not None:  # blanks at most, then a tag: the common step
            start, name_end = found.span(2)
            closing = text[start - 1] == "/"
            lt = start - 2 if closing else start - 1
        else:
            lt = text.find("<", pos)
            if lt < 0:
                lt = size
            if lt > pos and (frameset_ok or mode != _BODY) and _has_text(text, pos, lt):
                if mode != _BODY and depth == 0:
                    mode = _BODY  # text the head cannot hold: an implied body starts
                if mode == _BODY or depth:
                    frameset_ok = False
            if lt + 1 >= size:
                return metas, size
            nxt = text[lt + 1]
            if nxt == "!":
                if text.startswith("--", lt + 2):
                    if text.startswith(">", lt + 4):
                        pos = lt + 5
                    elif text.startswith("->", lt + 4):
                        pos = lt + 6
                    else:
                        found = _COMMENT_END.search(text, lt + 4)
                        if found is None:
                            return metas, size
                        pos = found.end()
                    continue
                if text.startswith("[CDATA[", lt + 2) and in_foreign():
                    end = text.find("]]>", lt + 9)
                    if end < 0:
                        return metas, size
                    pos = end + 3
                    continue
                end = text.find(">", lt + 2)  # DOCTYPE, a bogus comment
                if end < 0:
                    return metas, size
                pos = end + 1
                continue
            after = text[lt + 2:lt + 3]  # an end tag's name starts with an ASCII letter
            if nxt == "?" or (nxt == "/" and not (after.isascii() and after.isalpha())):
                if nxt == "/" and text.startswith(">", lt + 2):
                    pos = lt + 3  # "</>" is dropped
                    continue
                if nxt == "/" and lt + 2 >= size:
                    return metas, size
                end = text.find(">", lt + 2)
                if end < 0:
                    return metas, size
                pos = end + 1
                continue
            closing = nxt == "/"
            found = _TAG.match(text, lt + 1)
            if found is None:  # "<" then text
                if mode != _BODY and depth == 0:
                    mode = _BODY
                frameset_ok = False
                pos = lt + 1
                continue
            start, name_end = found.span(2)
        raw = text[start:name_end]
        name = _NAMES.get(raw, "")
        if not name:
            name = _ascii_lower(raw)
            if "\x00" in name:
                name = name.replace("\x00", "\ufffd")
        end = found.end(3)
        if end >= 0:
            if name not in _READ_ATTRIBUTES or (
                    # Of a meta only a named one is kept: one without "name" anywhere in
                    # its tag (in any case) has no name attribute, and nothing is read of it.
                    name == "meta" and not _spells(text, name_end, end, "name")):
                attributes = _NO_ATTRIBUTES
            else:
                attributes = _plain_attributes(text, name_end, end)
            self_closing = text[end - 2] == "/"
        else:
            read, self_closing, end = _attributes(text, name_end)
            if read is None:
                return metas, size
            attributes = read
        if closing:
            if depth or mode == _BODY:
                body_end(name)
            elif mode == _NOSCRIPT:
                if name == "noscript":
                    mode = _HEAD
                elif name == "br":
                    mode = _BODY
            elif name == "head" and mode in (_PRE, _HEAD):
                mode = _AFTER
            elif name in ("body", "html", "br"):
                mode = _BODY
            pos = end
            continue
        if depth or mode == _BODY:
            pos = body_start(name, attributes, self_closing, end, lt, name_end)
            if pos == _STOP:
                return metas, lt
            continue
        # The head's modes.
        if mode == _NOSCRIPT:
            if name == "meta":
                metas.append((attributes, lt, True))
                pos = end
                continue
            if name == "link" and _may_keep(extras, name, text, lt, end):
                pos = extra(name, lt, name_end, end, True)
                continue
            if name in ("link", "basefont", "bgsound", "head", "noscript", "html"):
                pos = end
                continue
            if name in ("style", "noframes"):
                pos = _raw_end(text, name, end)
                continue
            mode = _HEAD  # anything else ends the noscript element: read it in the head
        if name in ("body", "frameset"):
            return metas, lt
        if name == "html" or (name == "head" and mode != _PRE):
            pos = end
            continue
        if mode == _PRE:
            if name == "head":
                mode = _HEAD
                pos = end
                continue
            mode = _HEAD  # an implied head: read the tag in it
        if name == "meta":
            metas.append((attributes, lt, True))
            pos = end
        elif name in _EXTRA_TAGS and _may_keep(extras, name, text, lt, end):
            pos = extra(name, lt, name_end, end, True)
        elif name in _HEAD_VOID:
            pos = end
        elif name in ("title", "style", "noframes"):
            pos = _raw_end(text, name, end)
        elif name == "script":
            pos = _script_end(text, end)
        elif name == "template":
            back = _AFTER if mode == _AFTER else _HEAD
            depth = 1
            push(_open("html", name, attributes))
            pos = end
        elif name == "noscript" and mode == _HEAD:
            if scripting:
                pos = _raw_end(text, name, end)  # "in head", scripting enabled: raw text
            else:
                mode = _NOSCRIPT
                pos = end
        else:
            mode = _BODY
            pos = body_start(name, attributes, self_closing, end, lt, name_end)
            if pos == _STOP:
                return metas, lt


_NOSCRIPT_PROBE: Final = re.compile("<noscript", re.IGNORECASE)


def _scripted(text: str, found: list[tuple[dict[str, str], int, bool]], end: int
              ) -> tuple[list[tuple[dict[str, str], int, bool]], int]:
    """The metas of both of the HTML standard's parses (issue 33's decision).

    The standard parses ``<noscript>`` one way with scripting disabled (its content is
    markup: :func:`_scan`'s reading, a crawler's) and another with it enabled (raw text, a
    browser's), and the two can place a meta differently
    (``<head><noscript><body></noscript><meta name=robots content=noindex>``: in the body,
    never read, with scripting disabled; in the head with it enabled). A restriction found
    under either counts: the metas only the scripting-enabled parse reads are added, marked
    ``in_head=False`` (they restrict and never permit). Returns the metas and where the
    later of the two readings stopped (``end`` stays the first's: the crawler's parse). The
    two parses differ only from a ``<noscript>`` start tag on, so the second runs only when
    one comes before the end of the first."""
    if _NOSCRIPT_PROBE.search(text, 0, end) is None:
        return found, end
    other, other_end = _scan(text, None, True)
    seen = {offset for _, offset, _ in found}
    added = [(attributes, offset, False) for attributes, offset, _ in other
             if offset not in seen]
    if added:
        found = sorted(found + added, key=_offset)
    return found, max(end, other_end)


def _offset(meta: tuple[dict[str, str], int, bool]) -> int:
    return meta[1]


def _count_lines(text: str, start: int, end: int) -> int:
    """Line breaks in ``text[start:end]`` (CRLF, CR and LF each one, as HTML reads them)."""
    count = text.count("\n", start, end)
    if text.find("\r", start, end) >= 0:
        count += text.count("\r", start, end) - text.count("\r\n", start, end)
        if end < len(text) and text[end - 1:end + 1] == "\r\n":
            count += 1  # a CRLF cut at the boundary is counted on this side
    return count


# Whether a document can hold anything read here: a meta, else a licence link or an RSL
# script (each probe a literal search, fast; the second only for a document without metas).
_META_PROBE: Final = re.compile(rb"<meta", re.IGNORECASE)
_META_PROBE_TEXT: Final = re.compile("<meta", re.IGNORECASE)
_LINK_PROBE: Final = re.compile(rb"<link", re.IGNORECASE)
_LINK_PROBE_TEXT: Final = re.compile("<link", re.IGNORECASE)
_SCRIPT_PROBE: Final = re.compile(rb"<script", re.IGNORECASE)
_SCRIPT_PROBE_TEXT: Final = re.compile("<script", re.IGNORECASE)


def _nothing_to_read(document: Union[str, bytes]) -> bool:
    """Whether a document holds no ``<meta``, ``<link`` or ``<script`` at all."""
    if isinstance(document, str):
        return (_META_PROBE_TEXT.search(document) is None
                and _LINK_PROBE_TEXT.search(document) is None
                and _SCRIPT_PROBE_TEXT.search(document) is None)
    return (_META_PROBE.search(document) is None and _LINK_PROBE.search(document) is None
            and _SCRIPT_PROBE.search(document) is None)


def read_head(document: Union[str, bytes, bytearray, memoryview, None], *,
              max_bytes: int = DEFAULT_HEAD_BYTES, content_type: Optional[str] = None,
              cut: bool = False) -> Head:
    """Read the head of an HTML ``document`` (module docstring).

    Bytes are decoded as the HTML standard sniffs them (:mod:`._encoding`; ``content_type``
    is the response's ``Content-Type``, whose charset comes second after a byte-order mark);
    at most ``max_bytes`` bytes (characters for ``str``) are read. ``cut``: ``document`` is
    itself only the start of a longer body (a capture kept its first bytes); with a document
    longer than ``max_bytes``, it makes :attr:`Head.cut` true when reading ran to the end
    of what was read. Never raises for any document.
    """
    if document is None:
        return Head((), "", 0)
    encoding = ""
    if isinstance(document, (bytes, bytearray, memoryview)):
        cut = cut or len(document) > max_bytes
        if type(document) is bytes and not cut:
            raw = document  # no copy (a compiled slice copies even the whole object)
        else:
            raw = bytes(document[:max_bytes])
        utf16 = raw[:2] in (b"\xfe\xff", b"\xff\xfe") or raw[:6] in (
            b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")
        if not utf16 and _nothing_to_read(raw):
            if transport_encoding(content_type) in _UTF16:
                utf16 = True  # UTF-16 without a BOM: no ASCII tag in its bytes
            elif not cut:
                return Head((), "", 0)
        encoding, skip = ("", 0) if utf16 else prefix_encoding(raw, content_type)
        if encoding:
            window = _scan_prefixes(raw, encoding, skip)
            return _head(window[0], window[1], window[2], window[3], encoding,
                         cut and window[4] >= len(window[0]))
        text, encoding = decode_html(raw, content_type, cut=cut)
        if encoding in _UTF16 or encoding == "replacement":
            return _unreadable_head(raw, text, encoding, cut)
    elif isinstance(document, str):
        cut = cut or len(document) > max_bytes
        text = document[:max_bytes]
        if not cut and _nothing_to_read(text):
            return Head((), "", 0)
    else:
        raise TypeError(f"html must be str or bytes, not {type(document).__name__}")
    extras: list[_Extra] = []
    found, end = _scan(text, extras)
    found, reach = _scripted(text, found, end)
    return _head(text, found, end, extras, encoding, cut and reach >= len(text))


_UTF16: Final = ("utf-16le", "utf-16be")


def _unreadable_head(raw: bytes, text: str, encoding: str, cut: bool) -> Head:
    """The head of a body decoded as UTF-16 or as the replacement encoding (the encodings
    whose text shows no tag where ASCII bytes do). When that text holds no ``<meta`` while
    the bytes read as autodetection reads them (UTF-8, else windows-1252, a byte-order mark
    left out) hold metas, a label or BOM contradicts the markup (``charset=utf-16`` on an
    ASCII page, ``iso-2022-kr``, ``FF FE`` before ASCII): that reading's metas are added
    marked ``in_head=False``, so they restrict and never permit (the ``<noscript>`` rule of
    the signal layer). Only these rare bodies pay for the second reading."""
    if not cut and _nothing_to_read(text):
        head = Head((), encoding, 0)
    else:
        extras: list[_Extra] = []
        found, end = _scan(text, extras)
        found, reach = _scripted(text, found, end)
        head = _head(text, found, end, extras, encoding, cut and reach >= len(text))
    if head.metas or _META_PROBE.search(raw) is None:
        return head
    start = 2 if raw[:2] in (b"\xfe\xff", b"\xff\xfe") else 0
    other, _ = utf8_or_1252(raw[start:], cut)
    extras = []
    found, end = _scan(other, extras)
    found, _reach = _scripted(other, found, end)
    ascii_head = _head(other, found, end, extras, encoding)
    metas = tuple(meta._replace(in_head=False) for meta in ascii_head.metas)
    return head._replace(metas=head.metas + metas)


_WINDOW_SLACK = 4096  # not Final: a test sets it
"""Bytes decoded for the first scan (:func:`_scan_prefixes`) past the first ``<body`` of the
raw bytes (else the first ``<BODY``: where the head usually ends); a larger window is decoded
(eight times larger each time) only when the scan ran to the end of the text it was given.
The window's size decides only the work, never the answer."""


def _scan_prefixes(raw: bytes, encoding: str, skip: int
                   ) -> tuple[str, list[tuple[dict[str, str], int, bool]], int, list[_Extra],
                            int]:
    """:func:`_scan` of the text of ``raw`` (``encoding``, ``skip``: from
    :func:`._encoding.prefix_encoding`), decoded a window at a time: the text of a window is
    exactly the start of the whole text, and a scan that stopped before the end of that
    text (at a ``<body>``, ``<frameset>`` or ``<plaintext>`` tag, whose decision reads
    nothing past the tag) reads what the scan of the whole text reads; a scan that ran to the
    end of its window is made again over a larger one. Returns ``(text, metas, end, extras,
    reach)`` as :func:`_scan` and :func:`_scripted` give them for the window read last."""
    body = raw.find(b"<body", skip)
    if body < 0:
        body = raw.find(b"<BODY", skip)
    size = _WINDOW_SLACK + (body - skip if body >= 0 else len(raw))
    while True:
        text, whole = decode_prefix(raw, encoding, skip, size)
        extras: list[_Extra] = []
        found, end = _scan(text, extras)
        if whole or end < len(text):
            found, reach = _scripted(text, found, end)
            if whole or reach < len(text):
                return text, found, end, extras, reach
        size *= 8


class _Lines:
    """The 1-based line of each offset asked for, counted on from the last one asked (from
    the start again for an earlier one)."""

    __slots__ = ("at", "line", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.line = 1

    def of(self, offset: int) -> int:
        if offset < self.at:
            self.at, self.line = 0, 1
        self.line += _count_lines(self.text, self.at, offset)
        self.at = offset
        return self.line


def _head(text: str, found: list[tuple[dict[str, str], int, bool]], end: int,
          extras: list[_Extra], encoding: str, cut: bool = False) -> Head:
    # cut: the body went on past the text read, and reading ran to the end of that text
    """The :class:`Head` of what :func:`_scan` read of ``text``. (The named tuples are made
    with ``tuple.__new__``: their own ``__new__`` is Python code, slow to call from the
    compiled build.)"""
    out: list[Meta] = []
    lines = _Lines(text)
    for attributes, offset, in_head in found:
        name = attributes.get("name")
        if name is None:
            continue
        out.append(tuple.__new__(Meta, (
            _attribute_value(name).strip(_WS), _attribute_value(attributes.get("content", "")),
            offset, lines.of(offset), in_head)))
    if not extras:
        return tuple.__new__(Head, (tuple(out), encoding, end, (), None, (), cut))
    links: list[Link] = []
    scripts: list[InlineScript] = []
    base: Optional[str] = None
    for name, attributes, offset, in_head, content in extras:
        if name == "base":
            if base is None and "href" in attributes:  # the first base with an href
                base = _attribute_value(attributes["href"]).strip(_WS)
            continue
        if name == "script":
            if len(scripts) < MAX_HEAD_LINKS:
                scripts.append(tuple.__new__(InlineScript, (content, offset, lines.of(offset),
                                                            in_head)))
            continue
        rel = tuple(_attribute_value(attributes.get("rel", "")).lower().split())
        if "license" not in rel or len(links) >= MAX_HEAD_LINKS:
            continue
        kind = attributes.get("type")
        href = attributes.get("href")
        links.append(tuple.__new__(Link, (
            rel, None if kind is None else _attribute_value(kind).strip(_WS),
            None if href is None else _attribute_value(href).strip(_WS), offset,
            lines.of(offset), in_head)))
    return tuple.__new__(Head, (tuple(out), encoding, end, tuple(links), base, tuple(scripts),
                                cut))


# ------------------------------------------------------------------ what is HTML

_HTML_SIGNATURES: Final = (
    b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1", b"<div", b"<font",
    b"<table", b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p", b"<!--")
_UNKNOWN_TYPES: Final = frozenset({"", "unknown/unknown", "application/unknown", "*/*"})


_RESOURCE_HEADER: Final = 1445  # MIME Sniffing §5.2 "reading the resource header"
_WS_SNIFF: Final = b"\t\n\x0c\r "
_BOMS: Final = ((b"\xef\xbb\xbf", ""), (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le"))


def _resource_header(data: Union[str, bytes, bytearray, memoryview]) -> bytes:
    """The first 1445 octets of a body, its leading blanks skipped (MIME Sniffing §5.2 and
    the pattern matching algorithm's leading whitespace)."""
    if isinstance(data, str):
        raw = data[:_RESOURCE_HEADER].encode("utf-8", "replace")[:_RESOURCE_HEADER]
    else:
        raw = bytes(data[:_RESOURCE_HEADER])
    return raw.lstrip(_WS_SNIFF)


def sniffs_html(data: Union[str, bytes, bytearray, memoryview]) -> bool:
    """Whether a body of unknown type starts as HTML (WHATWG MIME Sniffing, as of 2026-11,
    §7.1 "identifying a resource with an unknown MIME type": the resource header, its first
    1445 octets, with its leading blanks skipped, then one of the HTML signatures followed by
    a space or ``>``). Leniency: a UTF-8 byte-order mark before the signature is skipped too
    (the standard reads it as text/plain; the page is still HTML to its author).

    >>> sniffs_html(b"\\n  <!DOCTYPE html><title>x</title>"), sniffs_html(b"%PDF-1.7")
    (True, False)
    """
    start = _resource_header(data)
    start = start[3:] if start.startswith(b"\xef\xbb\xbf") else start
    lower = start[:16].lower()
    for signature in _HTML_SIGNATURES:
        if lower.startswith(signature) and lower[len(signature):len(signature) + 1] in (b" ",
                                                                                         b">"):
            return True
    return False


def starts_as_markup(data: Union[str, bytes, bytearray, memoryview]) -> bool:
    """Whether an untyped body is read for its ``<meta>`` elements: it sniffs as HTML
    (:func:`sniffs_html`) or, after its leading blanks and a byte-order mark (UTF-8 or
    UTF-16), starts with ``<`` and a letter, ``!`` or ``?``. Deviation (the page layer's,
    deliberate): the standard's sniff reads ``<meta name=robots content=noai>`` alone as
    text/plain; reading it here can only add restrictions, and "nothing stated" where the
    page says no is the worse mistake.

    >>> starts_as_markup(b"  <meta name=robots content=noai>"), starts_as_markup(b"< 1")
    (True, False)
    """
    if sniffs_html(data):
        return True
    start = _resource_header(data)
    for bom, codec in _BOMS:
        if start.startswith(bom):
            start = start[len(bom):]
            if codec:
                start = start[:64].decode(codec, "replace").encode("utf-8", "replace")
            start = start.lstrip(_WS_SNIFF)
            break
    if len(start) < 2 or start[0] != 0x3C:  # "<"
        return False
    second = start[1]
    return second in (0x21, 0x3F) or 0x41 <= second <= 0x5A or 0x61 <= second <= 0x7A


def html_type(content_type: Optional[str]) -> Optional[bool]:
    """What a ``Content-Type`` says of the body: ``True`` HTML (or XHTML) by its type,
    ``None`` no usable type (sniff the body, :func:`starts_as_markup`), ``False`` another
    type. ``content_type`` is every ``Content-Type`` value joined with ``", "``
    (:func:`._headers.content_type`); its type is the Fetch Standard's "extract a MIME type"
    (read 2026-11; :func:`._encoding.extract_mime_type`: the last value that parses). No
    type is usable when the field is absent, no value is a MIME type (``charset=UTF-8``,
    ``text``, ``text/``: MIME Sniffing §7.1 calls such a supplied type undefined, and
    sniffs), or the type is ``unknown/unknown``, ``application/unknown`` or ``*/*``. A
    supplied type that is not unknown is kept, so ``text/plain`` and
    ``application/octet-stream`` are never HTML, whatever they hold.

    >>> html_type("text/html; charset=utf-8"), html_type("charset=UTF-8"), html_type("text/plain")
    (True, None, False)
    """
    if content_type is None:
        return None
    found = extract_mime_type(content_type)
    if found is None or found[0] in _UNKNOWN_TYPES:
        return None
    return "html" in found[0]


def reads_as_html(content_type: Optional[str],
                  body: Union[str, bytes, bytearray, memoryview, None]) -> bool:
    """Whether a response's body is read as HTML: by its type, else sniffed
    (:func:`html_type`, :func:`starts_as_markup`). The one rule of the page admission step
    and of the WARC path."""
    kind = html_type(content_type)
    if kind is not None:
        return kind
    return body is not None and starts_as_markup(body)


def read_head_meta(document: Union[str, bytes, bytearray, memoryview, None], *,
                   max_bytes: int = DEFAULT_HEAD_BYTES) -> tuple[Meta, ...]:
    """The named ``<meta>`` elements :func:`read_head` reads (the benchmark's entry)."""
    return read_head(document, max_bytes=max_bytes).metas
