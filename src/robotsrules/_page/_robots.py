"""Robots rules of a page: ``X-Robots-Tag`` values and robots ``<meta>`` contents.

Google Search Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications"
(developers.google.com/search/docs/crawling-indexing/robots-meta-tag, as of 2026-11) is the
source of the rule names and their values; Bing's "Robots Metatags" adds ``nocache`` and
the retired ``noodp``/``noydir``; DeviantArt (November 2022) ``noai`` and ``noimageai``.

A value is a comma-separated list of rules. In a header, ``NAME: rules`` scopes the rules
after it, up to the next prefix or the end of the header, to the crawler called ``NAME``
(Google: ``X-Robots-Tag: otherbot: noindex, nofollow``; MDN: ``X-Robots-Tag:
<indexing-rule>, <bot-name>: <indexing-rule>``). The sources name crawlers as their
operators publish them, not as RFC 9309 product tokens: ``AI2Bot`` and ``bigsur.ai`` are
names a header may scope to. So a prefix is any run of letters, digits, ``.``, ``_`` and
``-`` that is not a rule name, compared case-insensitively and whole (``AI2Bot: noindex`` is
for AI2Bot, never for Foobot or for ``AI``), and a caller may ask as such a name
(:func:`page_agents`) although robots.txt cannot address it. Nothing here performs I/O.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from typing import NamedTuple, Optional

from .._dates import read_date
from .._rules._agents import Agent, agent_tokens
from ..errors import InvalidAgent

__all__ = ["BARE_RULES", "IMAGE_PREVIEW", "IMAGE_PREVIEWS", "VALUE_RULES", "RobotsRule",
           "crawler_name", "page_agents", "parse_date", "robots_rules", "rule_valid"]

# The rules Google documents, plus the ones other engines and conventions use
# (noarchive/nocache/noodp/noydir: Bing; noai/noimageai: DeviantArt).
BARE_RULES = frozenset({
    "all", "noindex", "index", "nofollow", "follow", "none", "nosnippet", "snippet",
    "indexifembedded", "notranslate", "noimageindex", "noarchive", "nocache", "noodp",
    "noydir", "noai", "noimageai", "archive", "imageindex", "translate",
})
VALUE_RULES = frozenset({
    "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after",
})
_RULES = BARE_RULES | VALUE_RULES
IMAGE_PREVIEW = {"none": 0, "standard": 1, "large": 2}
IMAGE_PREVIEWS = ("none", "standard", "large")

# "name: rest": a crawler name or a rule name (a crawler's with an optional "/version",
# which is dropped: "GPTBot/1.0: noindex" is GPTBot's), a colon, the rest.
# "*:" is a prefix for every crawler; a "(...)" comment after the name is skipped, as in a
# User-Agent ("GPTBot/1.0 (+https://openai.com/gptbot): noai").
_PREFIX = re.compile(r"\s*(\*|[A-Za-z0-9._\-]+)(?:/[^\s:,;()]*)?(?:\s*\([^()]*\))?\s*:\s*(.*)\Z",
                     re.DOTALL)
_CRAWLER_NAME = re.compile(r"\s*([A-Za-z0-9._\-]+)(?:/[^\s:,;]*)?\s*\Z")
_SEPARATORS = re.compile(r"[;\s]+")
_MAX_DEPTH = 2  # a piece split again at ";" or blanks, and its parts once more
_PAGE_AGENT = re.compile(r"([A-Za-z0-9._\-]+)(?:/\S*)?")
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}\Z")
_MAX_DATE = 100  # the date reader's own bound on a date's text (robotsrules._dates)


def page_agents(agent: Agent) -> frozenset[str]:
    """The lower-cased names a caller's ``agent`` answers to in page signals.

    Product tokens and ``Token/version`` as everywhere (:func:`robotsrules.agent_tokens`),
    and also crawler names with digits and dots (``AI2Bot``, ``bigsur.ai``), which headers
    and meta names use (module docstring). Anything else raises
    :class:`~robotsrules.InvalidAgent`.

    >>> sorted(page_agents(["AI2Bot/1.0", "Googlebot"]))
    ['ai2bot', 'googlebot']
    """
    try:
        return frozenset(agent_tokens(agent))
    except InvalidAgent:
        if isinstance(agent, str):
            names: Sequence[str] = [agent]
        elif isinstance(agent, Sequence) and not isinstance(agent, (bytes, bytearray)):
            names = list(agent)
        else:
            raise
        out = set()
        for name in names:
            match = _PAGE_AGENT.fullmatch(name.strip()) if isinstance(name, str) else None
            if match is None:
                if isinstance(name, str) and name.strip() == "*":
                    out.add("*")
                    continue
                raise
            out.add(match.group(1).lower())
        return frozenset(out)


class RobotsRule(NamedTuple):
    """One rule of a value: the crawler ``scope`` (``"*"`` or a lower-cased name), the
    lower-cased ``rule``, its ``value`` (``None`` for bare rules) and ``valid``."""

    scope: str
    rule: str
    value: Optional[str]
    valid: bool


def parse_date(text: str) -> Optional[datetime.datetime]:
    """An ``unavailable_after`` date: RFC 822/1123, RFC 850, ISO 8601 and dates written with
    a month name (``June 25, 2010``, ``25-Jun-2010``); naive means UTC.

    Google: "The date/time must be specified in a widely adopted format including, but not
    limited to RFC 822, RFC 850, and ISO 8601. The rule is ignored if no valid date/time is
    specified." Read by the one date reader (:func:`robotsrules._dates.read_date`, which
    bulk tables and WARC files share); ``None`` for anything else.
    """
    return read_date(text) if isinstance(text, str) else None


def crawler_name(text: str) -> Optional[str]:
    """The lower-cased crawler name a header scopes rules to (``X-Robots-Tag``'s ``NAME:``
    prefix and ``Robots-Tag``'s member alike): letters, digits, ``.``, ``_`` and ``-``,
    an optional ``/version`` dropped; ``None`` for anything else.

    >>> crawler_name("GPTBot/1.0"), crawler_name(" AI2Bot "), crawler_name("a b")
    ('gptbot', 'ai2bot', None)
    """
    match = _CRAWLER_NAME.match(text)
    return None if match is None else match.group(1).lower()


_KNOWN: list[frozenset[str]] = []


def _known_crawler(word: str) -> Optional[str]:
    """The lower-cased name of a crawler of the registry that ``word`` (``GPTBot``,
    ``GPTBot/1.0``) names, else ``None``."""
    name = crawler_name(word)
    if name is None or name in _RULES:
        return None
    if not _KNOWN:
        from .._tables._crawlers import known_crawlers

        _KNOWN.append(frozenset(c.token.lower() for c in known_crawlers() if c.token)
                      | {"googlebot", "googlebot-news", "bingbot"})
    return name if name in _KNOWN[0] else None


def _is_rule_start(piece: str) -> bool:
    if piece.strip().lower() in BARE_RULES:
        return True
    return _PREFIX.match(piece) is not None


def _date_rule_value(piece: str) -> Optional[str]:
    """The date text of an ``unavailable_after`` piece (agent prefix allowed), else None."""
    rest = piece
    for _ in range(2):
        match = _PREFIX.match(rest)
        if match is None:
            return None
        name = match.group(1).lower()
        if name == "unavailable_after":
            return match.group(2).strip()
        if name in _RULES:
            return None
        rest = match.group(2)
    return None


def _split(text: str) -> list[str]:
    """Comma-separated pieces; a date's own commas stay with ``unavailable_after``.

    ``unavailable_after: Friday, 25-Jun-10 15:00:00 GMT`` splits at the comma; a piece
    that follows an unparsed date and does not start a rule is glued back to it.
    """
    out: list[str] = []
    for piece in text.split(","):
        if out:
            last = out[-1]
            # Bounded: no date is longer than _MAX_DATE, so gluing stops there (and a
            # value of many commas costs linear time).
            date = _date_rule_value(last) if len(last) <= _MAX_DATE + 40 else None
            if date is not None and parse_date(date) is None and not _is_rule_start(piece):
                out[-1] = last + "," + piece
                continue
        out.append(piece)
    return out


def _read(piece: str) -> tuple[str, Optional[str]]:
    match = _PREFIX.match(piece)
    if match is not None and match.group(1).lower() in _RULES:
        return match.group(1).lower(), match.group(2).strip()
    # Leniency: "content=noindex/>" leaves the "/" in an unquoted value (HTML tokenizer);
    # a rule name never ends in "/", so it is dropped.
    return piece.strip().lower().rstrip("/").rstrip(), None


def rule_valid(rule: str, value: Optional[str]) -> bool:
    """Whether ``value`` is a valid argument of the robots rule ``rule`` (``None``: bare)."""
    if rule in BARE_RULES:
        return True
    if value is None:
        return False
    if rule in ("max-snippet", "max-video-preview"):
        return _INTEGER.match(value) is not None and int(value) >= -1
    if rule == "max-image-preview":
        return value.lower() in IMAGE_PREVIEW
    if rule == "unavailable_after":
        return parse_date(value) is not None
    return False


def _parts(piece: str) -> Optional[list[str]]:
    """A piece that is no rule split where a writer used another separator than the comma
    (``noindex;``, ``nofollow; noindex``, ``nofollow noindex``): at ``;``, then a part that
    does not start a rule at blanks (a token ending in ``:`` kept with the next one, so
    ``googlebot: noindex`` stays whole). ``None`` when no part is a rule or a prefix (the
    piece is reported as it stands)."""
    parts: list[str] = []
    for part in piece.split(";"):
        if not part.strip():
            continue
        if _is_rule_start(part):
            parts.append(part)
            continue
        words = [word for word in _SEPARATORS.split(part) if word]
        glued: list[str] = []
        for word in words:
            if glued and glued[-1].endswith(":"):
                glued[-1] += " " + word
            else:
                glued.append(word)
        parts.extend(glued)
    if len(parts) == 1 and parts[0].strip() == piece.strip():
        return None
    if not any(_is_rule_start(part) for part in parts):
        return None
    return parts


def robots_rules(text: str, *, scope: str = "*", prefixes: bool) -> list[RobotsRule]:
    """The rules of one ``X-Robots-Tag`` value (``prefixes=True``: ``name:`` scopes the
    rules after it) or one robots meta ``content`` (its scope is the meta's name).

    Rules are separated by commas; a piece that is no rule is read again split at ``;`` and
    blanks (:func:`_parts`: ``nofollow noindex`` is two rules, each restricting; a word
    there that is no rule is reported; in a header, one naming a registry crawler scopes
    what follows to it as well as to the scope before it), so no separator hides a rule.
    A rule stated again for the same scope with the same value is listed once (it says
    nothing more: ``noai, noai, ...`` is one rule, so a long value cannot multiply every
    agent's answer); every distinct rule is kept.

    >>> [(r.scope, r.rule) for r in robots_rules("noarchive, AI2Bot: noindex, nofollow",
    ...                                          prefixes=True)]
    [('*', 'noarchive'), ('ai2bot', 'noindex'), ('ai2bot', 'nofollow')]
    >>> [(r.scope, r.rule) for r in robots_rules("nofollow noindex;", prefixes=True)]
    [('*', 'nofollow'), ('*', 'noindex')]
    """
    return list(_read_rules(text, scope, prefixes))


@functools.lru_cache(maxsize=8)
def _read_rules(text: str, scope: str, prefixes: bool) -> tuple[RobotsRule, ...]:
    # A few values at a time: every agent of one response reads the same long value again
    # (the review's 900 KB X-Robots-Tag for 50 agents); at most 8 values are kept.
    out: list[RobotsRule] = []
    current = [scope]
    for piece in _split(text):
        _piece_rules(piece, current, prefixes, out, 0)
    return tuple(dict.fromkeys(out))  # each rule once, in the order first stated


def _piece_rules(piece: str, current: list[str], prefixes: bool, out: list[RobotsRule],
                 depth: int) -> None:
    """The rules of one piece appended to ``out``, once for every scope in ``current``
    (the scopes in force: a ``name:`` prefix replaces them; in a header, a word naming a
    registry crawler inside a piece read again, ``googlebot: nofollow, GPTBot noai``, adds
    its crawler in front of them: what follows restricts both, the restrictive reading of
    a missing colon)."""
    if not piece.strip():
        return
    if prefixes:
        match = _PREFIX.match(piece)
        if match is not None and match.group(1).lower() not in _RULES:
            current[:] = [match.group(1).lower()]
            piece = match.group(2)
            if not piece.strip():
                return
        elif depth > 0:
            known = _known_crawler(piece)
            if known is not None:
                current[:] = [known] + [name for name in current if name != known]
                return
    rule, value = _read(piece)
    valid = rule_valid(rule, value)
    if not valid and depth < _MAX_DEPTH:
        parts = _parts(piece)
        if parts is not None:
            for part in parts:
                _piece_rules(part, current, prefixes, out, depth + 1)
            return
    for name in current:
        out.append(RobotsRule(name, rule, value, valid))
