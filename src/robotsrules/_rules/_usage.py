"""AI usage preferences in robots.txt: ``Content-Signal`` and ``Content-Usage`` lines.

Theory of operation. Two kinds of line state what a crawler's operator may do with what it
fetched (the vocabularies are in :mod:`robotsrules._tables._purposes`; every decision below, with
its source, is in docs/guides/usage-preferences.md):

* ``Content-Signal: search=yes, ai-input=yes, ai-train=no`` (Content Signals Policy,
  contentsignals.org): covers every path of its group. Read leniently: entries are split on
  ``,``; names and values are compared case-insensitively; ``yes``/``no`` are the values;
  unknown names and other values state nothing.
* ``Content-Usage: /path train-ai=n`` (draft-ietf-aipref-attach, vocabulary of
  draft-ietf-aipref-vocab): a path pattern, whitespace, then an RFC 9651 Dictionary
  (:func:`robotsrules._sfv.parse_dictionary`; a value that is not one states nothing).
  Known labels with the Token ``y``/``n`` state a preference; anything else states nothing.
  A value with no path (``Content-Usage: train-ai=n``) is read as covering every path.

Both belong to the group they stand in (:func:`robotsrules._rules._parser.build` keeps them on
:attr:`Group.usage`), are chosen with the same group selection as the allow/disallow rules
(the groups naming the agent, else ``*``), and never change a crawl verdict.

For one URL (:func:`evaluate`): the ``Content-Usage`` rules whose pattern matches the target
are ranked like allow/disallow rules (longest pattern in octets first); the longest ones
decide, and when several of that length match, their statements are combined, most
restrictive first (attach draft: identical paths with conflicting preferences combine per
the vocabulary's rule). Every ``Content-Signal`` line of the groups applies, combined the
same way. When the agent may not fetch the URL, no preference applies (attach draft:
"paths that cannot be crawled have no associated usage preferences").

Purpose groups (draft-kelley-aipref-training-preference-signal-00, 2026-10-30). The draft
binds a usage preference to paths with an ordinary group whose ``User-agent`` value is a
per-purpose policy token, with no new directive and no new grammar (its abstract: the
only part of it read here). Such a group is a statement for its purpose, for every crawler,
over the paths it allows or disallows: :func:`purpose_group_line` turns the group's own
verdict for a URL (the same matcher and longest-match precedence as any group,
:mod:`robotsrules._rules._precedence`) into a ``purpose-group`` :class:`UsageLine`: its
deciding ``Disallow`` states the purpose refused, its deciding ``Allow`` permitted, and a
URL no rule of the group matches gets no statement. A crawler's own group does not hide it,
and :func:`with_purpose_groups` combines it with the ``Content-Signal``/``Content-Usage``
answer most restrictively (the draft's rule for combining was not read: the restrictive
reading). The tokens are data (:func:`robotsrules._tables._purposes.purpose_group_draft`);
the shipped table holds none yet, because the sections defining them were not read, so no
file is read this way until they are.

A ``Content-Usage`` line whose value does not parse (``/a/ train-ai=n,``, a bare ``/a/``)
is read as the ``Content-Usage`` header is (:func:`refusals`): only its refusals count, and
it takes part in the longest match only with them. It never decides alone: the longest
valid lines decide, and a broken line at least as long adds its refusals to theirs, so a
broader refusal (``/ train-ai=n``) is never erased by a broken narrower line, and a broken
line with no refusal changes nothing. The attach draft (draft-ietf-aipref-attach-05,
2026-08-18) and the vocabulary (draft-ietf-aipref-vocab-07, 2026-08-19) say a value that
does not parse states nothing; this is our deliberate, restrictive reading of that case.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, NamedTuple, Optional, Union

from .._sfv import InnerList, Item, Token, parse_dictionary, split_members, split_members_closed
from .._tables._purposes import (
    CATEGORIES,
    CONTENT_SIGNALS,
    PURPOSES,
    Purpose,
    related,
    resolve,
    statements,
    superseded,
)
from ..model import Group, UsageDirective, UsageLine, Verdict
from ._pattern import Pattern
from ._urls import normalize_escapes, rfc_pattern

__all__ = [
    "PURPOSE_GROUP", "STATES_NOTHING", "Reading", "Usage", "UsageRules", "dictionary_statements",
    "evaluate", "purpose_group_line", "read_value", "refusals", "usage_line",
    "with_purpose_groups",
]

CONTENT_SIGNAL: Final[UsageDirective] = "content-signal"
CONTENT_USAGE: Final[UsageDirective] = "content-usage"
PURPOSE_GROUP: Final[UsageDirective] = "purpose-group"
_SIGNAL_VALUES: Final = {"yes": True, "no": False}
_CATEGORY_VALUES: Final = {"y": True, "n": False}
_SIGNAL_SET: Final = frozenset(CONTENT_SIGNALS)
# Content-signal names that are not yes/no purposes: known, so not "unknown", and ignored.
# "use" (immediate/reference/full: how AI systems may consume the content) is in the policy
# text Cloudflare's managed robots.txt carries since 2026 (``use=reference``).
OTHER_SIGNALS: Final = frozenset({"use"})
_CATEGORY_SET: Final = frozenset(CATEGORIES)
_WS: Final = " \t"


class Reading(NamedTuple):
    """Everything read from one value, for the reader and the linter.

    ``statements`` are the preferences stated (file order, duplicates kept);
    ``unknown`` the names that are not in the vocabulary; ``bad_values`` the
    ``(name, value)`` pairs of known names whose value is not yes/no (y/n); ``repeated``
    the known names given more than once; ``error`` why the value could not be read at all
    (``None`` if it could); ``path`` the path as written (``Content-Usage``; ``None`` when
    there is none).
    """

    statements: tuple[tuple[str, bool], ...]
    unknown: tuple[str, ...]
    bad_values: tuple[tuple[str, str], ...]
    repeated: tuple[str, ...]
    error: Optional[str]
    path: Optional[str]


def _signal_reading(value: str) -> Reading:
    said: list[tuple[str, bool]] = []
    unknown: list[str] = []
    bad: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    empty = False
    for part in value.split(","):
        entry = part.split(";", 1)[0].strip(_WS)  # parameters carry nothing (as in RFC 9651)
        if not entry:
            empty = True
            continue
        name, equals, answer = entry.partition("=")
        name = name.strip(_WS).lower()
        answer = answer.strip(_WS).lower() if equals else ""
        if name not in _SIGNAL_SET:
            if name not in OTHER_SIGNALS:
                unknown.append(entry.partition("=")[0].strip(_WS))
            continue
        seen[name] = seen.get(name, 0) + 1
        stated = _SIGNAL_VALUES.get(answer)
        if stated is None:
            bad.append((name, answer if equals else "(no value)"))
            continue
        said.append((name, stated))
    error = None
    if not value.strip(_WS):
        error = "empty value"
    elif empty:
        error = "an empty entry between commas"
    repeated = tuple(name for name, count in seen.items() if count > 1)
    return Reading(tuple(said), tuple(unknown), tuple(bad), repeated, error, None)


def _usage_reading(value: str) -> Reading:
    text = value.strip(_WS)
    path: Optional[str] = None
    if text[:1] == "/" or (text[:1] == "*" and not _is_dictionary(text)):
        # attach: a path starts with "/"; a value starting with "*" is a Dictionary (a key
        # may start with "*") when it parses as one, else its first word is a pattern, the
        # restrictive reading of "*/private/ train-ai=n" (see docs/guides/usage-preferences.md)
        cut = len(text)
        for char in _WS:
            at = text.find(char)
            if 0 <= at < cut:
                cut = at
        path, text = text[:cut], text[cut:].lstrip(_WS)
    if not text:
        return Reading((), (), (), (), "no preference after the path", path)
    try:
        parsed = parse_dictionary(text)
    except ValueError as error:
        return Reading(refusals(text), (), (), (), str(error), path)
    said, unknown, bad = dictionary_statements(parsed)
    # RFC 9651 keeps the last value of a repeated key, so the dictionary cannot tell:
    # count keys in the text (a cheap scan; only the linter reads this field).
    repeated = tuple(
        name for name in parsed
        if name in _CATEGORY_SET and _count_key(text, name) > 1
    )
    return Reading(said, unknown, bad, repeated, None, path)


def _is_dictionary(text: str) -> bool:
    try:
        parse_dictionary(text)
    except ValueError:
        return False
    return True


def dictionary_statements(parsed: Mapping[str, Union[Item, InnerList]]) -> tuple[
        tuple[tuple[str, bool], ...], tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The preferences an RFC 9651 Dictionary states, for a robots.txt ``Content-Usage``
    line and the ``Content-Usage`` header alike (the one home of this rule): ``(statements,
    unknown labels, (label, bad value) pairs)``.

    A label given twice has already been reduced to its last value by the parser (RFC 9651
    (September 2024) §4.2.2), and only that value counts: the Token ``y`` or ``n`` states a
    preference, any other value states nothing for the label, even when an earlier member
    gave a valid one (draft-ietf-aipref-vocab-07, 2026-08-19, "Multiple Preferences": "if
    the same key appears multiple times, the algorithms in [RFC 9651] ensure that only the
    last value applies", and ``train-ai=y, train-ai, search=n, search="n"`` "results in all
    preferences being unknown"; the working copy of -08, 2026-09-14, was not read here).

    >>> dictionary_statements(parse_dictionary("train-ai=n, search=y, train-ai"))
    ((('search', True),), (), (('train-ai', '?1'),))
    >>> dictionary_statements(parse_dictionary("train-ai=y, foo=n, train-ai=n"))
    ((('train-ai', False),), ('foo',), ())
    """
    said: list[tuple[str, bool]] = []
    unknown: list[str] = []
    bad: list[tuple[str, str]] = []
    for name, (item, _params) in parsed.items():
        if name not in _CATEGORY_SET:
            unknown.append(name)
            continue
        stated = _CATEGORY_VALUES.get(item) if isinstance(item, Token) else None
        if stated is None:
            bad.append((name, _written(item)))
            continue
        said.append((name, stated))
    return tuple(said), tuple(unknown), tuple(bad)


def _member_refusal(member: str) -> Optional[str]:
    """The label a member refuses (``train-ai=n``): blanks around ``=`` and ``;`` trimmed;
    failing that, each blank-separated word before any ``;`` (parameters carry nothing)."""
    text = member.strip(_WS)
    for mark in ("=", ";"):
        text = mark.join(part.strip(_WS) for part in text.split(mark))
    for candidate in [text, *text.split(";", 1)[0].split()]:
        try:
            parsed = parse_dictionary(candidate, max_length=len(candidate) + 1)
        except ValueError:
            continue
        for name, (item, _params) in parsed.items():
            if name in _CATEGORY_SET and isinstance(item, Token) and item == "n":
                return name
    return None


def refusals(text: str) -> tuple[tuple[str, bool], ...]:
    """The refusals (``label=n``) of a ``Content-Usage`` value that does not parse as an
    RFC 9651 Dictionary, read member by member: the one rule for the header and for
    robots.txt's lines (docs/guides/usage-preferences.md). The vocabulary
    (draft-ietf-aipref-vocab-07, 2026-08-19) says such a value states nothing; we keep what
    restricts from it, never what permits. Members are split at top-level commas, or at
    every comma when that split ends inside a string or an inner list (``foo="x,
    train-ai=n``); blanks around ``=`` and ``;`` are trimmed (``train-ai =n``,
    ``train-ai=n ; x``).

    >>> refusals('foo="x, train-ai=n'), refusals("train-ai =n, search=y, bad=(")
    ((('train-ai', False),), (('train-ai', False),))
    """
    members, closed = split_members_closed(text)
    if not closed:
        members = text.split(",")
    found: dict[str, bool] = {}
    for member in members:
        name = _member_refusal(member)
        if name is not None:
            found[name] = False
    return tuple(found.items())


def _written(item: object) -> str:
    """A parsed value as RFC 9651 writes it (``?1``, ``"n"``), for the linter's message."""
    if isinstance(item, Token):
        return str(item)
    if isinstance(item, bool):
        return "?1" if item else "?0"
    if isinstance(item, str):
        return '"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(item, (int, float)):
        return str(item)
    if isinstance(item, bytes):
        return ":…:"  # a byte sequence
    return "(…)"  # an inner list


def _count_key(text: str, name: str) -> int:
    count = 0
    for part in split_members(text):
        key = part.strip(_WS).split(";", 1)[0].split("=", 1)[0]
        if key == name:
            count += 1
    return count


def read_value(directive: str, value: str) -> Reading:
    """Read the value of a ``content-signal`` or ``content-usage`` line (``value`` as the
    line reader returns it: comment removed, blanks around it stripped).

    >>> read_value("content-signal", "search=yes, ai-train=no, ai_input=yes").statements
    (('search', True), ('ai-train', False))
    >>> read_value("content-usage", "/ train-ai=n, foo=y").statements
    (('train-ai', False),)
    >>> read_value("content-usage", "/ Train-AI=n").statements
    ()
    """
    if directive == CONTENT_SIGNAL:
        return _signal_reading(value)
    return _usage_reading(value)


def usage_line(directive: UsageDirective, value: str, line: int, shown: str) -> UsageLine:
    """The :class:`~robotsrules.UsageLine` of one line (``value`` octet text, ``shown`` the
    value as displayed)."""
    reading = read_value(directive, value)
    pattern = ""
    valid = True
    if directive == CONTENT_USAGE:
        pattern = normalize_escapes(reading.path) if reading.path else "/"
        valid = reading.error is None
    return UsageLine(directive, pattern, shown, line, reading.statements, valid)


class Usage(NamedTuple):
    """The usage preferences for one URL and agent (:meth:`RobotsTxt.usage`).

    ``allows(purpose)`` answers ``True`` (stated yes), ``False`` (stated no) or ``None``
    (nothing stated) for every purpose of :data:`robotsrules._tables._purposes.PURPOSES`.
    ``signals`` and ``categories`` are what the lines stated, per vocabulary (combined per
    name, most restrictive first); ``lines`` the lines that stated them. ``crawl_allowed``
    is the crawl verdict: when it is ``False``, no preference applies (the attach draft:
    paths that cannot be crawled have no usage preferences), ``lines`` is empty and
    ``ignored`` holds the lines that would otherwise have applied.
    """

    crawl_allowed: bool
    signals: Mapping[str, bool]
    categories: Mapping[str, bool]
    lines: tuple[UsageLine, ...]
    ignored: tuple[UsageLine, ...] = ()

    def allows(self, purpose: Purpose, revision: Optional[str] = None) -> Optional[bool]:
        """``True``/``False`` when a preference for ``purpose`` is stated, else ``None``.

        Read as the current revision of draft-ietf-aipref-vocab reads it (no nesting);
        ``revision="03"`` (for example) asks for that revision's reading, nesting included
        (:func:`robotsrules._tables._purposes.revision`). Raises
        :class:`~robotsrules.InvalidPurpose` for a name outside
        :data:`~robotsrules._tables._purposes.PURPOSES` and
        :class:`~robotsrules.InvalidArgument` for a revision without a reading.
        """
        return resolve(purpose, self.signals, self.categories, revision)

    @property
    def preferences(self) -> dict[str, bool]:
        """Every purpose with a stated answer (directly or through the other vocabulary),
        mapped to that answer, in :data:`PURPOSES` order, as the current revision reads."""
        found: dict[str, bool] = {}
        for purpose in PURPOSES:
            answer = resolve(purpose, self.signals, self.categories)
            if answer is not None:
                found[purpose] = answer
        return found

    @property
    def superseded(self) -> dict[str, str]:
        """The stated IETF labels that the current revision no longer defines, each with the
        revisions that did (``{"bots": "draft-ietf-aipref-vocab-03 to -04"}``). They are
        read and answer for themselves; lint R609 reports them."""
        found: dict[str, str] = {}
        for label in self.categories:
            defined = superseded(label)
            if defined is not None:
                found[label] = defined
        return found

    def deciding(self, purpose: Purpose, revision: Optional[str] = None
                 ) -> tuple[UsageLine, ...]:
        """The lines that speak of ``purpose`` (or its counterpart in the other vocabulary,
        or, in a revision with nesting, a broader category)."""
        names = related(purpose, revision)
        return tuple(line for line in self.lines
                     if any(name in names for name, _ in line.statements))


_EMPTY: Final[Mapping[str, bool]] = MappingProxyType({})
STATES_NOTHING: Final[Mapping[bool, Usage]] = MappingProxyType({
    True: Usage(True, _EMPTY, _EMPTY, ()),
    False: Usage(False, _EMPTY, _EMPTY, ()),
})
"""The answer when nothing is stated, by crawl verdict (shared: every field is immutable)."""


class UsageRules:
    """The usage lines of the groups chosen for one agent, compiled for repeated checks."""

    __slots__ = ("_patterns", "_rules", "_signal_lines", "_signals")

    def __init__(self, groups: Sequence[Group], rfc: bool = False) -> None:
        signal_lines: list[UsageLine] = []
        rules: list[UsageLine] = []
        for group in groups:
            for line in group.usage:
                (signal_lines if line.directive == CONTENT_SIGNAL else rules).append(line)
        self._signal_lines = tuple(signal_lines)
        self._signals: Mapping[str, bool] = MappingProxyType(
            statements(s for line in signal_lines for s in line.statements))
        self._rules = tuple(rules)
        self._patterns = tuple(
            Pattern(rfc_pattern(line.pattern) if rfc else line.pattern) for line in rules
        )

    @property
    def empty(self) -> bool:
        """True when the groups hold no usage line."""
        return not self._rules and not self._signal_lines

    def evaluate(self, target: str, crawl_allowed: bool) -> Usage:
        """The :class:`Usage` for a match target (see :mod:`robotsrules._rules._urls`)."""
        best = -1
        deciding: list[UsageLine] = []
        broken: list[tuple[int, UsageLine]] = []
        for line, pattern in zip(self._rules, self._patterns):
            if pattern.match(target):
                length = len(pattern.text)
                if not line.valid:  # a line that does not parse: only its refusals count
                    if line.statements:
                        broken.append((length, line))
                elif length > best:
                    best, deciding = length, [line]
                elif length == best:
                    deciding.append(line)
        # A broken line never takes the decision from a broader valid line; its refusals
        # join the decision when it is at least as specific (module docstring).
        deciding.extend(line for length, line in broken if length >= best)
        lines = tuple(sorted(self._signal_lines + tuple(deciding), key=lambda ln: ln.line))
        if not crawl_allowed:
            return Usage(False, _EMPTY, _EMPTY, (), lines)
        categories = MappingProxyType(statements(s for line in deciding for s in line.statements))
        return Usage(True, self._signals, categories, lines)


def purpose_group_line(token: str, purpose: Purpose, verdict: Verdict) -> Optional[UsageLine]:
    """What the purpose group of ``token`` states for one URL, from that group's own verdict
    (``verdict``: :meth:`AgentRules.explain` of the token, whose groups must be the token's
    own, never ``*``): its deciding rule as a ``purpose-group`` line stating ``purpose``
    refused (``Disallow``) or permitted (``Allow``); ``None`` when no rule of the group
    decided (no rule matches: the group states nothing for the URL).

    >>> from robotsrules import parse
    >>> robots = parse(b"User-agent: example-token\\nDisallow: /private/\\n")
    >>> line = purpose_group_line("example-token", "train-ai",
    ...                           robots.for_agent("example-token").explain("/private/a"))
    >>> str(line), line.statements
    ('2: [User-agent: example-token] Disallow: /private/', (('train-ai', False),))
    """
    rule = verdict.rule
    if rule is None or verdict.scope != "specific":
        return None
    written = f"[User-agent: {token}] {rule.directive.capitalize()}: {rule.value}"
    return UsageLine(PURPOSE_GROUP, rule.pattern, written, rule.line,
                     ((purpose, verdict.allowed),))


def with_purpose_groups(usage: Usage, lines: Sequence[UsageLine]) -> Usage:
    """``usage`` with the statements of purpose-group ``lines`` joined to it, most
    restrictive first (a refusal from either side wins). When the crawl is not allowed, no
    preference applies: the lines join ``ignored``, as the other usage lines do."""
    if not lines:
        return usage
    if not usage.crawl_allowed:
        ignored = tuple(sorted(usage.ignored + tuple(lines), key=lambda ln: ln.line))
        return usage._replace(ignored=ignored)
    signals = dict(usage.signals)
    categories = dict(usage.categories)
    for line in lines:
        for name, value in line.statements:
            side = signals if name in _SIGNAL_SET else categories
            side[name] = side.get(name, True) and value
    merged = tuple(sorted(usage.lines + tuple(lines), key=lambda ln: ln.line))
    return Usage(True, MappingProxyType(signals), MappingProxyType(categories), merged,
                 usage.ignored)


def evaluate(groups: Sequence[Group], target: str, crawl_allowed: bool) -> Usage:
    """The :class:`Usage` of ``groups`` (chosen for an agent) for one match target."""
    return UsageRules(groups).evaluate(target, crawl_allowed)
