"""The fold for one agent (compiled in the compiled build): a response already read
(:func:`._signals.read_response`) turned into the directives that apply to an agent and
folded into one answer (the module docstring of :mod:`._signals` says how), and what a
response says the same for every agent (:class:`Facts`).

The public functions of :mod:`._signals` check what a caller gives them and call in here;
the values that come from a caller unchecked (a response, a URL, a time, a TDMRep file,
facts) are typed ``Any`` here so that both builds treat a wrong one the same way.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import datetime
import functools
from collections.abc import Sequence
from typing import (
    Any,
    Callable,
    NamedTuple,
    Optional,
)

from ..errors import InvalidArgument
from ._headers import Field, joined
from ._html import Head, InlineScript, is_rsl_type
from ._links import LicenseLink, license_links, read_links, resolve
from ._prefs import Preferences, content_signal, content_usage
from ._pricing import CRAWLER_ERROR, CRAWLER_PRICE, Pricing, pricing
from ._robots import IMAGE_PREVIEW, IMAGE_PREVIEWS, RobotsRule, parse_date, robots_rules
from ._robotstag import ROBOTS_TAG, RobotsTag, robots_tag
from ._tdmrep import TDMREP_PATH, TdmRepFile, tdm_value

__all__ = ["TDM_SIGNALS", "Directive", "Facts", "Maker", "Response", "facts_of", "made", "signals"]


TDM_SIGNALS = ("ai-train", "ai-input")
"""The Content Signals a TDM reservation speaks about (see docs/guides/page-signals.md)."""

_ROBOTS_HEADER = "x-robots-tag"
_TDM = "tdm-reservation"
_TDM_POLICY = "tdm-policy"
_TDM_RULES = frozenset({_TDM, _TDM_POLICY})


class Directive(NamedTuple):
    """One directive read from a response: where, for whom, and what it says.

    ``source`` is ``"header"``, ``"meta"`` or ``"file"`` (the site's ``tdmrep.json``);
    a ``Robots-Tag`` member is a ``"header"`` directive like an ``X-Robots-Tag`` rule (its
    ``field`` tells them apart), and a field that could not be read as written is reported
    by a directive whose ``rule`` is the field's name (``robots-tag``, ``link``) with
    ``valid=False``;
    ``field`` the header name, the meta ``name`` as written or the file's path; ``offset``
    the index of the header among the response's headers (0-based; the first one for a
    field given several times), the character offset of the ``<meta`` tag in the decoded
    HTML, or the rule's index in the file; ``line`` its 1-based line in the HTML (``None``
    otherwise). ``scope`` is ``"*"`` for directives that name no crawler (``robots``, an
    unprefixed ``X-Robots-Tag``, TDMRep, Content-Usage, Content-Signal) or the lower-cased
    crawler name they name; ``applies`` tells whether it applies to the agent
    :func:`page_signals` was asked about. ``rule`` is the lower-cased rule name
    (``noindex``, ``max-snippet``, ``tdm-reservation``, ``content-usage`` ...), ``value``
    its argument (``None`` for bare rules), ``valid`` whether the value was understood as
    written. ``in_head`` is ``False`` for a meta the HTML standard puts in the body (after
    an element or text that ends the head, before the ``<body>`` tag): it may restrict,
    never permit.
    """

    source: str
    field: str
    offset: int
    line: Optional[int]
    scope: str
    applies: bool
    rule: str
    value: Optional[str]
    valid: bool
    in_head: bool = True

    def describe(self) -> str:
        """A one-line human description: ``meta robots (line 4): noindex``."""
        where = (f"line {self.line}" if self.line is not None else
                 f"rule #{self.offset}" if self.source == "file" else f"header #{self.offset}")
        if not self.in_head:
            where += ", after the head"
        value = self.value
        if value is not None and len(value) > 200:
            value = value[:197] + "..."
        text = self.rule if value is None else f"{self.rule}: {value}"
        scope = "" if self.scope == "*" else f" [{self.scope}]"
        return f"{self.source} {self.field} ({where}){scope}: {text}"


def _directive(source: str, fld: str, offset: int, line: Optional[int], scope: str,
               applies: bool, rule: str, value: Optional[str], valid: bool,
               in_head: bool = True) -> Directive:
    """``Directive(...)``, made with ``tuple.__new__``: a named tuple's own ``__new__`` is
    Python code, slow to call from the compiled build (the fold makes several a page and
    agent)."""
    return tuple.__new__(Directive, (source, fld, offset, line, scope, applies, rule, value,
                                     valid, in_head))


class Response(NamedTuple):
    """A response read once: its header ``fields``, its HTML ``head`` and its HTTP
    ``status`` (``None`` when not known)."""

    fields: tuple[Field, ...]
    head: Head
    status: Optional[int] = None


def _known_tokens() -> frozenset[str]:
    from .._tables._crawlers import known_crawlers

    return frozenset(c.token.lower() for c in known_crawlers() if c.token)


_KNOWN: list[frozenset[str]] = []


def _crawler_names() -> frozenset[str]:
    if not _KNOWN:
        try:
            _KNOWN.append(_known_tokens() | {"googlebot-news", "googlebot", "bingbot"})
        except Exception:  # pragma: no cover - the shipped table is always there
            _KNOWN.append(frozenset({"googlebot-news", "googlebot", "bingbot"}))
    return _KNOWN[0]


@functools.lru_cache(maxsize=4096)
def _rules(text: str, scope: str, prefixes: bool) -> tuple[RobotsRule, ...]:
    # The same values recur across agents of one response and across responses.
    return tuple(robots_rules(text, scope=scope, prefixes=prefixes))


def _robots_directives(text: str, source: str, fld: str, offset: int, line: Optional[int],
                       scope: str, names: frozenset[str], prefixes: bool,
                       in_head: bool = True) -> list[Directive]:
    rules = (_rules(text, scope, prefixes) if len(text) <= 1024
             else robots_rules(text, scope=scope, prefixes=prefixes))
    return [_directive(source, fld, offset, line, r.scope,
                       r.scope == "*" or r.scope in names, r.rule, r.value, r.valid, in_head)
            for r in rules]


def _preference(fields: Sequence[Field], key: str, read: Callable[[str], Preferences],
                directives: list[Directive]) -> Optional[tuple[Directive, Preferences]]:
    found = joined(fields, key)
    if found is None:
        return None
    text, first = found
    prefs = _read_preference(read, text) if len(text) <= 1024 else read(text)
    shown = f"(too large: {len(text):,} characters)" if prefs.too_large else text
    d = _directive("header", first.name, first.number, None, "*", True, key, shown,
                   prefs.valid)
    directives.append(d)
    return d, prefs


@functools.lru_cache(maxsize=1024)
def _read_preference(read: Callable[[str], Preferences], text: str) -> Preferences:
    # The same few values recur across agents of one response and across responses.
    return read(text)


class Facts(NamedTuple):
    """What a response says the same for every agent: its licences, its inline licences,
    its pricing, the directives reporting fields not read as written, and its
    ``Robots-Tag`` reading (the field's first line and the rules), read once."""

    licenses: tuple[LicenseLink, ...]
    inline: tuple[InlineScript, ...]
    pricing: Optional[Pricing]
    reports: tuple[Directive, ...]
    robots_tag: Optional[tuple[Field, str, RobotsTag]] = None


_FACT_KEYS = frozenset({"link", ROBOTS_TAG, CRAWLER_PRICE, CRAWLER_ERROR})


def facts_of(response: Any, url: Any) -> Facts:
    """The :class:`Facts` of a response (``url``: the page's, to resolve links against;
    both as a caller gave them: :func:`._signals.page_facts`)."""
    fields = [f for f in response.fields if f.key in _FACT_KEYS]  # one pass over them all
    head = response.head
    if not fields and not head.links and not head.scripts and response.status != 402:
        return _NO_FACTS
    licenses: list[LicenseLink] = []
    reports: list[Directive] = []
    terms: list[str] = []
    found = joined(fields, "link")
    if found is not None:
        text, first = found
        reading = read_links(text)
        licenses.extend(license_links(reading, first.number, url))
        for link in reading.links:
            if "terms-of-service" in link.rel or "license" in link.rel:
                target, valid = resolve(link.target, url)
                if valid:
                    terms.append(target)
        if reading.too_large or (reading.malformed and "licen" in text.lower()):
            what = (f"(too large: {len(text):,} characters)" if reading.too_large
                    else f"({reading.malformed} link-value(s) not well-formed)")
            reports.append(_directive("header", first.name, first.number, None, "*", True,
                                      "link", what, False))
    if head.links:
        base = url
        if head.base is not None:
            resolved, valid = resolve(head.base, url)
            base = resolved if valid else base
        for element in head.links:
            href = element.href
            target, valid = resolve(href, base) if href is not None else ("", False)
            licenses.append(LicenseLink(target, href or "", "html",
                                        element.type is not None and is_rsl_type(element.type),
                                        valid, element.offset, element.line, element.in_head))
    tag = joined(fields, ROBOTS_TAG)
    reading_tag = None
    if tag is not None:
        text, first = tag
        reading_tag = (first, text, _robots_tag(text) if len(text) <= 1024
                       else robots_tag(text))
    return Facts(tuple(licenses), head.scripts, pricing(fields, response.status, terms),
                 tuple(reports), reading_tag)


_NO_FACTS = Facts((), (), None, ())


@functools.lru_cache(maxsize=1024)
def _robots_tag(text: str) -> RobotsTag:
    return robots_tag(text)


def _robots_tag_directives(facts: Any, names: frozenset[str]) -> list[Directive]:
    """The directives of the ``Robots-Tag`` field (every line joined, RFC 9651 §4.2) for an
    agent called ``names``."""
    if facts.robots_tag is None:
        return []
    first, text, reading = facts.robots_tag
    out = [_directive("header", first.name, first.number, None, r.scope,
                      r.scope == "*" or r.scope in names, r.rule, r.value, r.valid)
           for r in reading.rules]
    if not reading.valid:
        shown = (f"(too large: {len(text):,} characters; the members before the limit read)"
                 if reading.too_large else text)
        out.append(_directive("header", first.name, first.number, None, "*", True,
                              ROBOTS_TAG, shown, False))
    return out


def signals(names: frozenset[str], response: Any, url: Any, now: Any, tdmrep: Any,
            given: Any, make: Maker) -> Any:
    """The signals for one agent (its lower-cased names) from a response already read, made
    by :func:`made` from ``make`` (:class:`._signals.PageSignals`' :data:`Maker`). ``response``,
    ``url``, ``now``, ``tdmrep`` and ``given`` (its :class:`Facts`, or ``None``) are what the
    public functions were given, checked here as pure Python checks them."""
    # Any: facts a caller gave are used as given (what is not Facts fails as in pure
    # Python, at its first missing attribute, not at a compiled type check).
    facts: Any = facts_of(response, url) if given is None else given
    directives: list[Directive] = []
    if tdmrep is not None:
        if not isinstance(tdmrep, TdmRepFile):
            raise TypeError(f"tdmrep must be a TdmRepFile (RobotsCache.tdmrep), not "
                            f"{type(tdmrep).__name__}")
        if url is None:
            raise InvalidArgument("page_signals(..., tdmrep=...) needs the page's url")
        rule = tdmrep.match(url)
        if rule is not None:
            directives.append(_directive(
                "file", TDMREP_PATH, rule.index, None, "*", True, _TDM,
                str(rule.reservation) if rule.valid else rule.written, rule.valid))
            if rule.policy is not None:
                directives.append(_directive("file", TDMREP_PATH, rule.index, None, "*", True,
                                             _TDM_POLICY, rule.policy, True))
    fields = response.fields
    for f in fields:
        if f.key == _ROBOTS_HEADER:
            directives.extend(_robots_directives(f.value, "header", f.name, f.number, None,
                                                 "*", names, True))
        elif f.key == _TDM:
            directives.append(_directive("header", f.name, f.number, None, "*", True, _TDM,
                                         f.value, tdm_value(f.value)[1]))
        elif f.key == _TDM_POLICY:
            directives.append(_directive("header", f.name, f.number, None, "*", True,
                                         _TDM_POLICY, f.value, True))
    directives.extend(_robots_tag_directives(facts, names))
    directives.extend(facts.reports)
    usage = _preference(fields, "content-usage", content_usage, directives)
    signal = _preference(fields, "content-signal", content_signal, directives)
    crawlers = _crawler_names()
    for meta in response.head.metas:
        key = meta.name.lower()
        if key == "robots" or key in names or key in crawlers:
            directives.extend(_robots_directives(
                meta.content, "meta", meta.name, meta.offset, meta.line,
                "*" if key == "robots" else key, names, False, meta.in_head))
        elif key in (_TDM, _TDM_POLICY):
            value = meta.content.strip()
            directives.append(_directive("meta", meta.name, meta.offset, meta.line, "*", True,
                                         key, value,
                                         key == _TDM_POLICY or tdm_value(value)[1],
                                         meta.in_head))
    return _fold(tuple(sorted(names)), directives, usage, signal, now, facts, make,
                 bool(response.head.cut))


def _tdm(directives: Sequence[Directive]
         ) -> tuple[Optional[int], bool, Optional[str], Optional[Directive]]:
    """TDMRep's processing order, field by field: ``(reservation, invalid, policy,
    deciding directive)``.

    The report's "Processing priority": the site file, then the header ("supercede any
    value inferred from a TDM file"), then the HTML metadata ("supercede previous values").
    Each level that states ``tdm-reservation`` replaces the earlier value; a level that does
    not state it leaves the earlier one (and the same for ``tdm-policy``). Within a level
    the values are read together (:func:`._tdmrep.tdm_value`: disagreeing values are
    invalid, read as reserved). A meta after the head may only reserve.
    """
    reservation: Optional[int] = None
    invalid = False
    policy: Optional[str] = None
    decider: Optional[Directive] = None
    directives = [d for d in directives if d.rule in _TDM_RULES]  # one pass over them all
    if not directives:  # most pages: nothing of TDMRep stated
        return reservation, invalid, policy, decider
    for source in ("file", "header", "meta"):
        stated = [d for d in directives if d.source == source and d.rule == _TDM
                  and d.applies and (d.in_head or tdm_value(d.value or "") != (0, True))]
        if stated:
            value, valid = tdm_value(", ".join(d.value or "" for d in stated))
            reservation, invalid = value, not valid
            decider = next((d for d in stated if tdm_value(d.value or "") != (0, True)),
                           stated[0]) if value == 1 else stated[0]
        policies = [d for d in directives if d.source == source and d.rule == _TDM_POLICY
                    and d.applies and d.in_head and d.value]
        if policies:
            policy = policies[0].value
    if reservation != 1:
        policy = None  # "TDM Agents SHOULD NOT process tdm-policy" when not reserved
    return reservation, invalid, policy, decider


def _fold(agent: tuple[str, ...], directives: list[Directive],
          usage: Optional[tuple[Directive, Preferences]],
          signal: Optional[tuple[Directive, Preferences]],
          now: Any, facts: Any, make: Maker, cut: bool = False) -> Any:
    values: dict[str, Any] = {}
    signals: dict[str, tuple[bool, Directive]] = {}
    categories: dict[str, tuple[bool, Directive]] = {}

    when = now if now is not None else datetime.datetime.now(datetime.timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    snippet_limits: list[int] = []
    video_limits: list[int] = []
    previews: list[int] = []
    dates: list[tuple[datetime.datetime, Directive]] = []
    for d in directives:
        if not d.applies or not d.valid:
            continue
        rule = d.rule
        if rule in ("noindex", "none"):
            values["index"] = False
            _state(signals, "search", False, d)
        if rule in ("nofollow", "none"):
            values["follow"] = False
        if rule in ("noarchive", "nocache"):
            values["archive"] = False
        if rule == "nosnippet":
            values["snippet"] = False
            snippet_limits.append(0)
        elif rule == "noimageindex":
            values["image_index"] = False
        elif rule == "notranslate":
            values["translate"] = False
        elif rule in ("noai", "noimageai"):
            values[rule] = True
            _state(signals, "ai-train", False, d)
        elif rule in ("max-snippet", "max-video-preview") and d.value is not None:
            number = int(d.value)
            if number >= 0:
                (snippet_limits if rule == "max-snippet" else video_limits).append(number)
        elif rule == "max-image-preview" and d.value is not None:
            previews.append(IMAGE_PREVIEW[d.value.lower()])
        elif rule == "unavailable_after" and d.value is not None:
            date = parse_date(d.value)
            if date is not None:
                dates.append((date, d))
    if snippet_limits:
        values["max_snippet"] = min(snippet_limits)
        if values["max_snippet"] == 0:
            values["snippet"] = False
    if video_limits:
        values["max_video_preview"] = min(video_limits)
    if previews:
        values["max_image_preview"] = IMAGE_PREVIEWS[min(previews)]
    if dates:
        date, d = min(dates, key=lambda item: item[0])
        values["unavailable_after"] = date
        if date <= when:
            values["expired"] = True
            values["index"] = False
            _state(signals, "search", False, d)
    reservation, invalid, policy, decider = _tdm(directives)
    if reservation is not None and decider is not None:
        values["tdm_reservation"] = reservation
        values["tdm_invalid"] = invalid
        values["tdm_policy"] = policy
        for purpose in TDM_SIGNALS:
            _state(signals, purpose, reservation == 0, decider)
    if usage is not None:
        d, prefs = usage
        values["content_usage"] = dict(prefs.statements)
        for category, allowed in prefs.statements:
            _state(categories, category, allowed, d)
    if signal is not None:
        d, prefs = signal
        values["content_signal"] = dict(prefs.statements)
        for name, allowed in prefs.statements:
            _state(signals, name, allowed, d)
    values["agent"] = agent
    values["directives"] = tuple(directives)
    values["signals"] = signals
    values["categories"] = categories
    values["licenses"] = facts.licenses
    values["inline_licenses"] = facts.inline
    values["pricing"] = facts.pricing
    if cut:
        values["head_cut"] = True
    return made(make, values)


Maker = tuple[type, dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]
"""How :func:`made` makes a frozen dataclass: the class, each field's default in the fields'
order, and the fields made by a factory with their factories."""


def made(maker: Maker, values: dict[str, Any]) -> Any:
    """The instance of the frozen dataclass ``maker`` describes whose fields are ``values``
    and, for the others, their defaults (a fresh object from each factory), made without
    the dataclass's ``__init__``, which sets each field through ``object.__setattr__`` (the
    fold makes one for every page and agent; compiled here, where the same steps in pure
    Python cost several times as much). The same object: its ``__dict__`` holds every field
    in the fields' order."""
    cls, template, factories = maker
    state = dict(template)
    for name, factory in factories:
        state[name] = factory()
    state.update(values)  # keys already there: the order stays the fields'
    out: Any = object.__new__(cls)
    object.__setattr__(out, "__dict__", state)
    return out


def _state(table: dict[str, tuple[bool, Directive]], name: str, value: bool,
           directive: Directive) -> None:
    # Most restrictive wins; among equal values the first directive read is kept.
    if name not in table or (table[name][0] and not value):
        table[name] = (value, directive)
