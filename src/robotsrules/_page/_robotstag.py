"""The ``Robots-Tag`` response header: draft-illyes-repext's structured form of ``X-Robots-Tag``.

draft-illyes-repext-03 (G. Illyes, "Robots Exclusion Protocol Extension for URL Level
Control", Internet-Draft, intended status Informational, 2026-04-18) moves the
``X-Robots-Tag`` header out of the experimental ``X-`` space as ``Robots-Tag``, an RFC 9651
*List*: each member is an Item naming a product token (RFC 9309 §2.2.1) or ``*`` (every
crawler), and the rules for it are that Item's *Parameters*::

    Robots-Tag: *;nosnippet, ExampleBot;noindex

is ``nosnippet`` for every crawler and ``noindex`` too for ExampleBot. The draft's reading,
which this module follows:

* every rule is restrictive; several members for one token, and a token's rules together
  with ``*``'s, are their union (the draft: "MUST apply the union of all restrictive
  rules"), which is the page layer's one fold (most restrictive wins,
  :mod:`._signals`), the same fold that reads ``X-Robots-Tag`` beside it;
* several ``Robots-Tag`` fields are one List (RFC 9651 §4.2: joined with ``", "``);
* the rule names and values are the robots rules of :mod:`._robots` (``noindex``,
  ``nosnippet`` are the draft's; the others are the ones ``X-Robots-Tag`` carries, which the
  draft lets implementors support): a bare rule is a Boolean ``true`` parameter, a rule with
  a value carries it as an Integer, a Token or a String (``max-snippet=20``,
  ``max-image-preview=large``, ``unavailable_after="2026-01-01"``);
* the field is read up to :data:`MAX_ROBOTS_TAG_LENGTH` characters (the draft: a limit of
  at least 8 KiB); past it, the complete members before the limit are honoured and the cut
  one and everything after it are ignored (the draft's rule), and the field is reported.

Where the field is not what the draft describes, nothing is silently dropped:

* a field that does not parse as a List is reported (a directive ``robots-tag`` with
  ``valid=False``), and two readings of it are both kept, each restricting only: every
  member that parses on its own is read as the draft says, and the whole value is read as an
  ``X-Robots-Tag`` value (``Robots-Tag: googlebot: noindex`` is the old syntax under the new
  name); all robots rules restrict, so reading both never permits anything;
* a member whose name is a robots rule (``Robots-Tag: noindex`` or ``noindex;noai``: a valid
  List naming a crawler called ``noindex``) is read as that rule, and its parameters as
  rules, for every crawler, the ``X-Robots-Tag`` form: no crawler has a rule's name, and
  dropping them would be a wrong "nothing stated";
* a member that is a Token holding a colon (``gptbot:noai``, ``*:noai``) is the
  ``X-Robots-Tag`` syntax and is read that way;
* a member that only fails because of upper-case letters (``ExampleBot;NoIndex``: RFC 9651
  keys are lower-case, the draft's rule names "case insensitive") is read lower-cased;
* a parameter that is not a rule, a rule with a value of the wrong kind and a rule set to
  ``?0`` (the draft defines no "false") are reported (``valid=False``) and not applied.

Pure: standard library and the core only.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, Optional

from .. import _sfv as sfv
from ._robots import BARE_RULES, VALUE_RULES, RobotsRule, crawler_name, robots_rules, rule_valid

__all__ = ["MAX_ROBOTS_TAG_LENGTH", "ROBOTS_TAG", "RobotsTag", "robots_tag"]

ROBOTS_TAG = "robots-tag"
"""The field's name, lower-cased (draft-illyes-repext-03 §3.1.1)."""

MAX_ROBOTS_TAG_LENGTH = 64 * 1024
"""Characters of the ``Robots-Tag`` field (all its lines joined) read: eight times the
draft's lower bound of 8 KiB. Past it the draft's truncation rule applies."""

_RULES = BARE_RULES | VALUE_RULES
_PARAMETER_NAME = re.compile(r"[a-z*][a-z0-9_\-.*]*")  # an RFC 9651 key


class RobotsTag(NamedTuple):
    """One reading of the joined ``Robots-Tag`` field: the ``rules`` it states (scoped as
    :class:`._robots.RobotsRule`), whether it parsed as a List (``valid``), whether it was
    cut at :data:`MAX_ROBOTS_TAG_LENGTH` (``too_large``) and the parse ``error``."""

    rules: tuple[RobotsRule, ...]
    valid: bool
    too_large: bool = False
    error: Optional[str] = None


def _scope(item: Any) -> Optional[str]:
    """The crawler a member names: a Token or a String (``*`` for all), lower-cased; a
    ``Name/1.0`` form is read as its name. ``None`` for another kind of item."""
    if not isinstance(item, str) or isinstance(item, sfv.DisplayString):
        return None
    if item.strip() == "*":
        return "*"
    return crawler_name(item)  # the X-Robots-Tag prefix's reading of a name


def _value(value: Any) -> tuple[Optional[str], bool]:
    """A parameter value as a rule value: ``(text, stated)``; ``True`` is a bare rule."""
    if value is True:
        return None, True
    if value is False:
        return "?0", False
    if isinstance(value, bytes):
        return f":{len(value)} bytes:", False
    if isinstance(value, float):
        return repr(value), True
    return str(value), True


def _member_rules(member: Any) -> list[RobotsRule]:
    """The rules one List member states (a malformed member states only reports)."""
    item, params = member
    if isinstance(item, list):  # an inner list names no crawler
        return [RobotsRule("*", "robots-tag", "(an inner list names no crawler)", False)]
    if isinstance(item, str) and not isinstance(item, sfv.DisplayString) and ":" in item:
        return _colon_member(item, params)
    scope = _scope(item)
    if scope is None:
        return [RobotsRule("*", "robots-tag", f"(not a product token: {item!r})"[:200],
                           False)]
    if scope in _RULES:
        # "Robots-Tag: noindex" or "noindex;noai": a List naming a crawler called
        # "noindex"; no crawler has a rule's name, so the X-Robots-Tag form (leniency): the
        # name and every parameter are rules for every crawler.
        out = [RobotsRule("*", scope, None, scope in BARE_RULES)]
        for name, raw in params.items():
            text, stated = _value(raw)
            out.append(RobotsRule("*", name, text, stated and rule_valid(name, text)))
        return out
    if not params:
        return []  # a crawler named with no rule: nothing stated
    out = []
    for name, raw in params.items():
        text, stated = _value(raw)
        valid = stated and rule_valid(name, text)
        out.append(RobotsRule(scope, name, text, valid))
    return out


def _colon_member(item: str, params: dict[str, Any]) -> list[RobotsRule]:
    """A member whose Token holds a colon (``gptbot:noai``, ``*:noai``: valid RFC 9651
    Tokens, the X-Robots-Tag syntax under the new name) read the X-Robots-Tag way, its
    parameters as rules after it (so for the crawler its prefix names); the rules it does
    not understand are reported, the others restrict."""
    pieces = [item]
    for name, raw in params.items():
        text, stated = _value(raw)
        pieces.append(name if raw is True else f"{name}: {text}" if stated else name + "=?")
    return robots_rules(", ".join(pieces), prefixes=True)


def _lenient_member(text: str) -> Optional[list[Any]]:
    """A member the List grammar refuses only for its blanks and semicolons
    (``gptbot;noindex;``, ``gptbot ;noindex``, ``* ; noindex``): the name before the first
    ``;`` and every non-empty ``;``-separated part after it as a parameter (``rule`` or
    ``rule=value``, a value's quotes dropped, names lower-cased). ``None`` when the name is
    no crawler name or ``*``, or a part is not of that form."""
    pieces = text.split(";")
    name = pieces[0].strip(" \t")
    if name != "*" and crawler_name(name) is None:
        return None
    params: dict[str, Any] = {}
    for part in pieces[1:]:
        key, equals, value = part.partition("=")
        key = key.strip(" \t").lower()
        if not key:
            if equals or part.strip(" \t"):
                return None
            continue  # an empty part: "gptbot;noindex;"
        if not _PARAMETER_NAME.fullmatch(key):
            return None
        value = value.strip(" \t")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if key not in params:
            params[key] = value if equals else True
    return [(name, params)] if params else None


def _parse_member(piece: str) -> tuple[Optional[list[Any]], Optional[str]]:
    """One member's text parsed as a List: ``(members or None, error)``; a member that only
    fails for its upper-case letters is read lower-cased (``ExampleBot;NoIndex``: the
    draft's rule names are case-insensitive), one that fails for its blanks or semicolons
    as :func:`_lenient_member` reads it."""
    text = piece.strip(" \t")
    try:
        return list(sfv.parse_list(text, max_length=len(text) + 1)), None
    except ValueError as failed:
        try:
            return list(sfv.parse_list(text.lower(), max_length=len(text) + 1)), str(failed)
        except ValueError:
            return _lenient_member(text), str(failed)


def _read_members(text: str) -> tuple[list[RobotsRule], Optional[str]]:
    """The rules of a List's text, member by member: ``(rules, error)``; ``error`` is the
    first parse failure (its members are skipped, the others read). A piece that does not
    parse is split again at every comma (an unclosed ``(`` or ``"`` would otherwise hide the
    members after it) and each part tried once more."""
    rules: list[RobotsRule] = []
    error: Optional[str] = None
    for piece in sfv.split_members(text):
        if not piece.strip(" \t"):
            continue
        parsed, failed = _parse_member(piece)
        error = error or failed
        if parsed is None:
            parsed = []
            if "," in piece:
                for part in piece.split(","):
                    found, _ = _parse_member(part) if part.strip(" \t") else ([], None)
                    parsed.extend(found or [])
        for member in parsed:
            rules.extend(_member_rules(member))
    return rules, error


def robots_tag(text: str) -> RobotsTag:
    """Read a ``Robots-Tag`` field (every line of it joined with ``", "``).

    >>> [(r.scope, r.rule) for r in robots_tag("*;nosnippet, ExampleBot;noindex").rules]
    [('*', 'nosnippet'), ('examplebot', 'noindex')]
    >>> reading = robots_tag("googlebot: noindex")
    >>> reading.valid, [(r.scope, r.rule) for r in reading.rules]
    (False, [('googlebot', 'noindex')])
    """
    too_large = len(text) > MAX_ROBOTS_TAG_LENGTH
    if too_large:
        # The draft: complete members within the limit count; the cut one and the rest not
        # (the last piece before the limit is complete only when a ',' follows it).
        kept = sfv.split_members(text[:MAX_ROBOTS_TAG_LENGTH])
        if not text[MAX_ROBOTS_TAG_LENGTH:].lstrip(" \t").startswith(","):
            kept.pop()
        rules, error = _read_members(", ".join(kept))
        return RobotsTag(tuple(rules), False, True, error)
    try:
        parsed = sfv.parse_list(text, max_length=MAX_ROBOTS_TAG_LENGTH)
    except ValueError as failed:
        rules, _ = _read_members(text)
        # The whole value read as X-Robots-Tag: only the rules it understood (all restrict).
        legacy = [r for r in robots_rules(text, prefixes=True) if r.valid]
        return RobotsTag(tuple(rules + legacy), False, False, str(failed))
    out: list[RobotsRule] = []
    for member in parsed:
        out.extend(_member_rules(member))
    return RobotsTag(tuple(out), True)
