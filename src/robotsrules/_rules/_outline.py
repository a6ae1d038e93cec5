"""The outline of a file: where its groups are and whom they name, without reading the rules.

Theory of operation. A crawler asks one file about one agent (or a few), so reading every
rule of every group up front is wasted work: most files carry groups for crawlers that
will never ask. :func:`outline` finds only what choosing groups needs — each group's
``user-agent`` lines and the stretch of text that holds its rules — and
:func:`read_rules` reads the rules of a chosen stretch when an agent first asks.

Both lean on C-speed string searches and hand every candidate line to the exact line reader
(:func:`robotsrules._rules._parser.read_line`), so they cannot read a line differently from
:func:`robotsrules._rules._parser.build`; the tests check that outlines and rules equal ``build``'s
on the conformance tables, the corpus and random files.

* ``user-agent`` lines: every key Google reads as ``user-agent`` (``user-agent``,
  ``useragent``, ``user agent`` and any longer key starting with them, any case) starts with
  ``user`` after optional blanks, so a search for ``user`` in the lower-cased text finds
  every candidate; those not at the start of their line are skipped before reading, and
  the rest of a line after its first hit is never searched, so the search is linear
  whatever a line holds. A large text is lower-cased 32 KiB at a time.
* Group boundaries (RFC 9309 §2.1): a ``user-agent`` line opens a new group only if an
  ``allow``/``disallow`` line stands between it and the previous ``user-agent`` line. Every
  key Google reads as one of those starts with ``allow``, ``dis`` or ``dia``; a regular
  expression finds the first such line in the gap and the line reader confirms it. Gaps are
  usually a few lines long and the search stops at the first rule, so this is cheap.

The text given to both functions has LF line ends only (see :func:`normalise`).
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from typing import Final, NamedTuple, Optional

from .._compiled import COMPILED
from ._agents import SPACE, file_agent_token
from ._parser import ALLOW, DISALLOW, KEYS, MAX_LINE_BYTES, USER_AGENT, read_line
from ._precedence import ALLOW_BASE, LINE_MASK, PRIORITY_SHIFT, Row
from ._urls import normalize_escapes

__all__ = [
    "Outline",
    "Span",
    "normalise",
    "outline",
    "read_rules",
]

_BLANKS: Final = " \t\v\f"
# The start of a line whose key may be read as allow/disallow (confirmed by read_line).
_RULE_START: Final = re.compile(r"^[ \t\v\f]*(?:allow|dis|dia)", re.IGNORECASE | re.MULTILINE)

class Span(NamedTuple):
    """Where one group is: its rules at text offsets ``[start, end)``, ``line`` being the
    number of the line at ``start``; the whole group (user-agent lines first) at
    ``[head, end)``, ``head_line`` being the number of its first line."""

    start: int
    end: int
    line: int
    head: int
    head_line: int


class Outline(NamedTuple):
    """What :func:`outline` finds: per group (file order) its agent tokens and rule span."""

    agents: tuple[tuple[str, ...], ...]
    spans: tuple[Span, ...]


def normalise(text: str) -> str:
    """LF for every line end (CRLF and lone CR too; RFC 9309 §2.2)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _line_at(text: str, start: int) -> tuple[int, str]:
    """The end offset and the text of the line starting at ``start``."""
    end = text.find("\n", start)
    if end < 0:
        end = len(text)
    return end, text[start:end]


def _read_key(line: str) -> tuple[Optional[str], str]:
    """The field and value of one line, as :func:`read_line` reads them (fast path first)."""
    key_text, colon, value = line.partition(":")
    if colon and "#" not in key_text and "\x00" not in line and len(line) <= MAX_LINE_BYTES:
        if "#" in value:
            value = value[: value.find("#")]
        return KEYS[key_text], value.strip(SPACE)
    record = read_line(0, line)
    return record.key, record.value


class _Tokens(dict[str, str]):
    """``user-agent`` value as written -> product token (bounded; values repeat a lot)."""

    def __missing__(self, value: str) -> str:
        token = file_agent_token(value)
        if len(self) < 4096:
            self[value] = token
        return token


_TOKENS: Final = _Tokens()


def _has_rule(text: str, start: int, end: int) -> bool:
    """True when an allow/disallow line starts in ``text[start:end]``.

    ``start`` is the offset of a line break (or 0), so that ``^`` can match after it.
    """
    search = _RULE_START.search
    while True:
        match = search(text, start, end)
        if match is None:
            return False
        stop, line = _line_at(text, match.start())  # ^: the match starts its line
        key = _read_key(line)[0]
        if key is ALLOW or key is DISALLOW:
            return True
        start = stop


_CHUNK: Final = 1 << 15
# What an allow/disallow line may start with: the first letter of "allow", "dis" or "dia"
# (KEY_PREFIXES, compared in any case; no other octet lower-cases to an ASCII letter), or a
# blank (_parser.read_line strips SPACE around the key).
_RULE_STARTS: Final = "aAdD" + SPACE


class _Caseless:
    """Finds a lower-case word in ``text`` in any case, lower-casing ``text`` one 32 KiB
    chunk at a time: no copy of a large file is made (nor paid for in page faults)."""

    __slots__ = ("_lower", "_start", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._start = -1
        self._lower = ""

    def find(self, word: str, pos: int) -> int:
        """The offset of the first ``word`` at or after ``pos`` (any case), or -1."""
        text, size = self._text, len(self._text)
        while pos < size:
            start = pos - pos % _CHUNK
            if start != self._start:
                # latin-1 lower-cases within latin-1: offsets stay the same.
                self._lower = text[start : start + _CHUNK + len(word) - 1].lower()
                self._start = start
            hit = self._lower.find(word, pos - start)
            if 0 <= hit < _CHUNK:
                return start + hit
            pos = start + _CHUNK  # not in this chunk (or it starts in the next one)
        return -1


def outline(text: str) -> Outline:
    """Find the groups of ``text`` (octet text with LF line ends): agents and rule spans."""
    size = len(text)
    groups: list[list[str]] = []  # the agent tokens of each group
    heads: list[tuple[int, int]] = []  # offset and number of each group's first line
    spans: list[Span] = []
    lines_to = 0  # offset up to which line breaks are counted
    number = 1  # the line number at lines_to
    last_end = -1  # end offset of the previous user-agent line
    last_number = 0
    pos = 0
    find = text.lower().find if size <= _CHUNK else _Caseless(text).find
    while True:
        hit = find("user", pos)
        if hit < 0:
            break
        begin = text.rfind("\n", pos, hit) + 1 or pos  # pos is always a line start
        end = text.find("\n", hit)
        if end < 0:
            end = size
        pos = end + 1  # a key starts its line: no later "user" on this line can be one
        if text[begin:hit].strip(_BLANKS):
            continue
        line = text[begin:end]
        key, value = _read_key(line)
        if key is not USER_AGENT:
            continue
        number += text.count("\n", lines_to, begin)
        lines_to = begin
        token = _TOKENS[value]
        if groups and not _has_rule(text, last_end, begin):
            groups[-1].append(token)  # no rule since the last user-agent line: same group
        else:
            if groups:
                spans.append(Span(last_end + 1, begin, last_number + 1, *heads[-1]))
            groups.append([token])
            heads.append((begin, number))
        last_end, last_number = end, number
    if groups:
        spans.append(Span(min(last_end + 1, size), size, last_number + 1, *heads[-1]))
    return Outline(tuple(tuple(tokens) for tokens in groups), tuple(spans))


def read_rules(chunk: str, line: int, out: Optional[list[Row]] = None) -> list[Row]:
    """The allow/disallow rules in ``chunk``, a group's span of text starting at line
    number ``line``, as :func:`build` reads them.

    Rules with an empty pattern are left out: they match everything with priority 0, so
    they never decide (Google).
    """
    rows: list[Row] = [] if out is None else out
    if chunk:
        # The same reading two ways: each the faster in its build (tests/compiled compares
        # them in both).
        if COMPILED:
            _rules_by_search(chunk, line, rows)
        else:
            _rules_by_split(chunk, line, rows)
    return rows


def _rules_by_split(chunk: str, line: int, rows: list[Row]) -> None:
    """:func:`read_rules` over the lines split up front, each read after a split at its
    first colon (pure Python's way: the fewest steps in the interpreter)."""
    nul = "\x00" in chunk
    plain = chunk.isascii() and "%" not in chunk
    keys = KEYS
    number = line - 1
    key: Optional[str]  # a field name, or None for a line read_line finds no key in
    for text in chunk.split("\n"):
        number += 1
        # A rule's key starts with "allow", "dis" or "dia" (any case) after blanks: every
        # other line (a comment, "Noindex:", a blank) is skipped on its first character.
        if not text or text[0] not in _RULE_STARTS:
            continue
        key_text, colon, value = text.partition(":")
        if colon and not nul and len(text) <= MAX_LINE_BYTES and "#" not in key_text:
            # (_read_key's fast path, inlined: this loop runs once per line of the group;
            # the key text classified once per spelling.)
            key = keys[key_text]
            if key is not DISALLOW and key is not ALLOW:
                continue
            if "#" in value:
                value = value[: value.find("#")]
            value = value.strip(SPACE)
        else:
            record = read_line(number, text)
            key, value = record.key, record.value
            if key is not DISALLOW and key is not ALLOW:
                continue
        if value:
            _add_rule(rows, key is ALLOW, value, number, plain)


def _rules_by_search(chunk: str, line: int, rows: list[Row]) -> None:
    """:func:`read_rules` finding each line end with ``str.find`` and cutting out only the
    lines that may be rules, the common spellings read without a key lookup (the compiled
    build's way: no list of every line, fewer objects per rule, characters compared by
    code)."""
    size = len(chunk)
    nul = "\x00" in chunk
    plain = chunk.isascii() and "%" not in chunk
    keys = KEYS
    key: Optional[str]  # a field name, or None for a line read_line finds no key in
    value = ""
    number = line - 1
    hash_at = chunk.find("#")  # the next "#" at or after the line start (-1: none left)
    end = -1
    while end < size:
        pos = end + 1  # the start of this line
        end = chunk.find("\n", pos)
        if end < 0:
            end = size
        number += 1
        if pos == end:
            continue
        # As _rules_by_split skips lines on their first character (_RULE_STARTS), by code.
        code = ord(chunk[pos])
        if not (code == 68 or code == 100 or code == 65 or code == 97  # D d A a
                or code == 32 or 9 <= code <= 13):  # SPACE
            continue
        text = chunk[pos:end]
        start = -1  # where the value starts in text, or -1 when read_line reads the line
        if nul or end - pos > MAX_LINE_BYTES:
            pass
        elif text.startswith("Disallow:") or text.startswith("disallow:"):
            # The spellings nearly every file uses, colon right after the key. (str
            # arguments, not a tuple constant: compiled, that tuple is built at every use.)
            key = DISALLOW
            start = 9
        elif text.startswith("Allow:") or text.startswith("allow:"):
            key = ALLOW
            start = 6
        else:
            key_text, colon, _ = text.partition(":")
            if colon and "#" not in key_text:
                key = keys[key_text]
                start = len(key_text) + 1
        if start < 0:
            record = read_line(number, text)
            key, value = record.key, record.value
        elif key is DISALLOW or key is ALLOW:
            if 0 <= hash_at < pos:
                hash_at = chunk.find("#", pos)
            stop = end - pos if hash_at < 0 or hash_at >= end else hash_at - pos
            if start < stop and ord(text[start]) == 32:
                start += 1  # the usual blank after the colon: one string fewer to make
            value = text[start:stop].strip(SPACE)
        if key is not DISALLOW and key is not ALLOW:
            continue
        if value:
            _add_rule(rows, key is ALLOW, value, number, plain)


def _add_rule(rows: list[Row], allow: bool, value: str, line: int, plain: bool) -> None:
    """Add a rule's row: its value (not empty) normalised as a pattern unless ``plain``
    (the group holds no ``%`` and no octet outside US-ASCII), and its precedence key
    (:func:`~robotsrules._rules._precedence.rule_key`, inlined: one call per rule)."""
    if not plain and ("%" in value or not value.isascii()):
        value = normalize_escapes(value)
    rows.append(((len(value) << PRIORITY_SHIFT) | ((ALLOW_BASE if allow else LINE_MASK) - line),
                 value))
