"""Page-level signals: what a response itself says may be done with it.

robots.txt says where a crawler may go; the page it fetched can say more, in its response
headers and in the ``<meta>`` elements of its HTML head:

* ``X-Robots-Tag`` headers and ``<meta name="robots">`` / ``<meta name="TOKEN">``
  (Google Search Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag
  specifications"): ``noindex``, ``nofollow``, ``none``, ``nosnippet``, ``max-snippet``,
  ``max-image-preview``, ``unavailable_after`` ... and the community tokens ``noai`` and
  ``noimageai`` (DeviantArt, November 2022);
* ``tdm-reservation`` / ``tdm-policy`` headers and meta names (W3C TDMRep community group
  final report, 2024);
* the ``Content-Usage`` header (draft-ietf-aipref-attach §2), a structured-field
  dictionary read with the vocabulary of :mod:`robotsrules._purposes`.

Theory of operation. :func:`page_signals` reads every source into one flat list of
:class:`Directive` records (where it was read, which agent it is scoped to, whether it
applies to the caller's agent, its value) and then folds the directives that apply into
a :class:`PageSignals` by one rule: the most restrictive wins (Google: "In the case of
conflicting robots rules, the more restrictive rule applies"; the aipref vocabulary §5.1
says the same for usage preferences). The only exception is TDMRep, whose own processing
order (file, then header, then HTML metadata, each superseding the previous) is followed
as the report states. Nothing here performs I/O, and no content raises: values that do not
parse are kept as directives with ``valid=False`` and have no effect. Every decision and
its source is written down in ``docs/guides/page-signals.md``.
"""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import dataclass, field
from typing import (
    Any,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from ._agents import Agent, agent_tokens
from ._dates import read_date
from ._purposes import Purpose
from ._tdmrep import TDMREP_PATH, TdmRepFile
from ._usage import Usage
from .model import UsageLine

__all__ = [
    "DEFAULT_HEAD_BYTES",
    "TDM_SIGNALS",
    "Answer",
    "Combined",
    "Directive",
    "Headers",
    "PageSignals",
    "combine",
    "decide",
    "is_html",
    "iter_header_pairs",
    "page_signals",
    "page_signals_for",
    "parse_content_usage",
    "parse_header_block",
    "read_head_meta",
    "refusal",
]

Headers = Union[Mapping[Any, Any], Iterable[Tuple[Any, Any]]]
"""Response headers: a mapping (``dict``, ``httpx.Headers``, Scrapy ``Headers``,
``http.client.HTTPMessage``, aiohttp's ``CIMultiDictProxy``) or an iterable of
``(name, value)`` pairs; names and values may be ``str`` or ``bytes``."""

DEFAULT_HEAD_BYTES = 512 * 1024
"""How much of an HTML body is read for its head (inline styles and scripts make heads of
a few hundred KiB common); what lies beyond is never looked at."""

# The rules Google documents for robots meta tags and X-Robots-Tag, plus the ones other
# engines and conventions use (noarchive/nocache: Bing; noai/noimageai: DeviantArt).
_BARE_RULES = frozenset({
    "all", "noindex", "index", "nofollow", "follow", "none", "nosnippet", "snippet",
    "indexifembedded", "notranslate", "noimageindex", "noarchive", "nocache", "noodp",
    "noydir", "noai", "noimageai", "archive", "imageindex", "translate",
})
_VALUE_RULES = frozenset({
    "max-snippet", "max-image-preview", "max-video-preview", "unavailable_after",
})
_IMAGE_PREVIEW = {"none": 0, "standard": 1, "large": 2}
_IMAGE_PREVIEW_NAMES = ("none", "standard", "large")

_HEADER_ROBOTS = "x-robots-tag"
_HEADER_TDM = "tdm-reservation"
_HEADER_TDM_POLICY = "tdm-policy"
_HEADER_USAGE = "content-usage"

# "googlebot: noindex": a product token (RFC 9309 §2.2.1: letters, '-' and '_') and a
# colon; the rule names that take a value ("max-snippet: 20") are told apart by name.
_PREFIX = re.compile(r"\s*([A-Za-z_\-]+)\s*:\s*(.*)\Z", re.DOTALL)
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}\Z")


class Directive(NamedTuple):
    """One directive read from a response: where, for whom, and what it says.

    ``source`` is ``"header"``, ``"meta"`` or ``"file"`` (the site's ``tdmrep.json``);
    ``field`` the header name, the meta ``name`` as written or the file's path; ``offset``
    the index of the header among the response's headers (0-based), the character offset
    of the ``<meta`` tag in the decoded HTML, or the rule's index in the file; ``line`` its
    1-based line in the HTML (``None`` otherwise). ``scope`` is ``"*"`` for directives
    that name no crawler (``robots``, an unprefixed ``X-Robots-Tag``, TDMRep, Content-Usage)
    or the lower-cased product token they name; ``applies`` tells whether it applies to the
    agent :func:`page_signals` was asked about. ``rule`` is the lower-cased rule name
    (``noindex``, ``max-snippet``, ``tdm-reservation``, ``content-usage`` ...), ``value``
    its argument (``None`` for bare rules), ``valid`` whether the value was understood.
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

    def describe(self) -> str:
        """A one-line human description: ``meta robots (line 4): noindex``."""
        where = (f"line {self.line}" if self.line is not None else
                 f"rule #{self.offset}" if self.source == "file" else f"header #{self.offset}")
        text = self.rule if self.value is None else f"{self.rule}: {self.value}"
        scope = "" if self.scope == "*" else f" [{self.scope}]"
        return f"{self.source} {self.field} ({where}){scope}: {text}"


Decision = Tuple[Optional[bool], Optional[Directive]]
"""An answer for a purpose and the directive that decided it (``None`` when none did)."""

_Stated = Mapping[str, Tuple[bool, Directive]]


@dataclass(frozen=True)
class PageSignals:
    """What one response says, for one agent (see :func:`page_signals`).

    Indexing and serving rules (Google's semantics; defaults when nothing is said):
    ``index`` (``False`` after ``noindex``/``none``, or once ``unavailable_after`` has
    passed at ``now``), ``follow``, ``archive``, ``snippet``, ``image_index``,
    ``translate``; ``max_snippet`` / ``max_video_preview`` (``None``: no limit stated;
    ``0``: none; ``-1`` is read as no limit), ``max_image_preview`` (``"none"``,
    ``"standard"``, ``"large"`` or ``None``), ``unavailable_after`` (an aware
    ``datetime``) and ``expired``. ``noai``/``noimageai``: the DeviantArt tokens.
    ``tdm_reservation`` (``1`` reserved, ``0`` not reserved, ``None`` unset) and
    ``tdm_policy``; ``content_usage``: the Content-Usage header's stated categories.
    ``directives``: everything read, including what names other crawlers.
    """

    agent: Tuple[str, ...]
    directives: Tuple[Directive, ...]
    index: bool = True
    follow: bool = True
    archive: bool = True
    snippet: bool = True
    image_index: bool = True
    translate: bool = True
    max_snippet: Optional[int] = None
    max_image_preview: Optional[str] = None
    max_video_preview: Optional[int] = None
    unavailable_after: Optional[datetime.datetime] = None
    expired: bool = False
    noai: bool = False
    noimageai: bool = False
    tdm_reservation: Optional[int] = None
    tdm_policy: Optional[str] = None
    content_usage: Mapping[str, bool] = field(default_factory=dict)
    signals: _Stated = field(default_factory=dict, repr=False)
    """Statements in Content Signals names (``search``, ``ai-input``, ``ai-train``) read
    from robots rules and TDMRep, each with the directive that made it."""
    categories: _Stated = field(default_factory=dict, repr=False)
    """Statements in IETF category labels, from the Content-Usage header."""

    def allows(self, purpose: str) -> Optional[bool]:
        """``True`` (stated yes), ``False`` (stated no) or ``None`` (nothing stated).

        ``purpose`` is one of the names :meth:`robotsrules.Usage.allows` takes
        (``"search"``, ``"ai-input"``, ``"ai-train"`` and the IETF vocabulary's categories);
        anything else raises :class:`~robotsrules.InvalidPurpose`.
        """
        return self.decide(purpose)[0]

    def decide(self, purpose: str) -> Decision:
        """The answer for ``purpose`` and the directive that decided it."""
        return decide(purpose, self.signals, self.categories)

    @property
    def applying(self) -> Tuple[Directive, ...]:
        """The directives that apply to the agent."""
        return tuple(d for d in self.directives if d.applies)

    def as_dict(self) -> Dict[str, Any]:
        """A JSON-ready summary (the CLI's ``--json`` shape)."""
        return {
            "agent": list(self.agent),
            "index": self.index, "follow": self.follow, "archive": self.archive,
            "snippet": self.snippet, "image_index": self.image_index,
            "translate": self.translate, "max_snippet": self.max_snippet,
            "max_image_preview": self.max_image_preview,
            "max_video_preview": self.max_video_preview,
            "unavailable_after": (self.unavailable_after.isoformat()
                                  if self.unavailable_after else None),
            "expired": self.expired, "noai": self.noai, "noimageai": self.noimageai,
            "tdm_reservation": self.tdm_reservation, "tdm_policy": self.tdm_policy,
            "content_usage": dict(self.content_usage),
            "directives": [d._asdict() for d in self.directives],
        }


def decide(purpose: str, signals: _Stated, categories: _Stated) -> Decision:
    """Answer ``purpose`` from stated signals and categories, with the deciding directive.

    The answer is :func:`robotsrules._purposes.explain`'s (the two vocabularies mapped onto
    each other as the current revision reads them, most restrictive first); the decider is
    the statement that gave that answer.
    """
    from . import _purposes as purposes

    answer, deciders = purposes.explain(purpose, {k: v for k, (v, _) in signals.items()},
                                        {k: v for k, (v, _) in categories.items()})
    for kind, name in deciders:
        value, directive = (signals if kind == "signal" else categories)[name]
        if value is answer:
            return (answer, directive)
    return (answer, None)


# --------------------------------------------------------------------------- headers

def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        # HTTP field values are octets; latin-1 keeps every one of them (RFC 9110 §5.5).
        return bytes(value).decode("latin-1")
    raise TypeError(f"header names and values must be str or bytes, not {type(value).__name__}")


def iter_header_pairs(headers: Headers) -> Iterator[Tuple[str, str]]:
    """Every ``(name, value)`` pair of ``headers``, repeated fields kept in order.

    Knows the containers that fold repeated fields: ``httpx.Headers`` (``multi_items``),
    Scrapy ``Headers`` (values are lists), ``email.message.Message`` /
    ``http.client.HTTPMessage`` and multidicts (``items()`` repeats names).
    """
    if isinstance(headers, (str, bytes, bytearray)):
        raise TypeError("headers must be a mapping or an iterable of (name, value) pairs")
    multi = getattr(headers, "multi_items", None)
    if callable(multi):
        pairs: Iterable[Any] = multi()
    elif isinstance(headers, Mapping) or hasattr(headers, "items"):
        pairs = headers.items()
    else:
        pairs = headers
    for pair in pairs:
        try:
            name, value = pair
        except (TypeError, ValueError):
            raise TypeError(f"not a (name, value) header pair: {pair!r}") from None
        if isinstance(value, (list, tuple)):
            for item in value:
                yield _text(name), _text(item)
        else:
            yield _text(name), _text(value)


# ------------------------------------------------------------------ rule lists

def _is_rule_start(piece: str) -> bool:
    word = piece.strip().lower()
    if word in _BARE_RULES:
        return True
    match = _PREFIX.match(piece)
    return match is not None


def _split_rules(text: str) -> List[str]:
    """Comma-separated pieces; a date's own commas stay with ``unavailable_after``.

    ``unavailable_after: Friday, 25-Jun-10 15:00:00 GMT`` splits at the comma; a piece
    that follows an unparsed date and does not start a rule is glued back to it.
    """
    pieces = text.split(",")
    out: List[str] = []
    for piece in pieces:
        if out:
            last = out[-1]
            # Bounded: no date is longer than _MAX_DATE, so gluing stops there (and a
            # header of many commas costs linear time).
            date = _date_rule_value(last) if len(last) <= _MAX_DATE + 40 else None
            if (date is not None and _parse_date(date) is None
                    and not _is_rule_start(piece)):
                out[-1] = last + "," + piece
                continue
        out.append(piece)
    return out


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
        if name in _VALUE_RULES or name in _BARE_RULES:
            return None
        rest = match.group(2)
    return None


_MAX_DATE = 100  # the date reader's own bound on a date's text (robotsrules._dates)


def _parse_date(text: str) -> Optional[datetime.datetime]:
    """An ``unavailable_after`` date: RFC 822/1123, RFC 850, ISO 8601; naive means UTC.

    Google: "The date/time must be specified in a widely adopted format including, but not
    limited to RFC 822, RFC 850, and ISO 8601. The rule is ignored if no valid date/time is
    specified." Read by the one date reader (:func:`robotsrules._dates.read_date`, which
    bulk tables and WARC files share); ``None`` for anything else.
    """
    return read_date(text) if isinstance(text, str) else None


def _read_rule(piece: str) -> Tuple[str, Optional[str]]:
    """``(rule, value)`` of one piece: ``("max-snippet", "20")``, ``("noindex", None)``."""
    match = _PREFIX.match(piece)
    if match is not None and match.group(1).lower() in _VALUE_RULES | _BARE_RULES:
        return match.group(1).lower(), match.group(2).strip()
    # Leniency: "content=noindex/>" leaves the "/" in an unquoted value (HTML tokenizer);
    # a rule name never ends in "/", so it is dropped.
    return piece.strip().lower().rstrip("/").rstrip(), None


def _valid(rule: str, value: Optional[str]) -> bool:
    if rule in _BARE_RULES:
        return True
    if value is None:
        return False
    if rule in ("max-snippet", "max-video-preview"):
        return _INTEGER.match(value) is not None and int(value) >= -1
    if rule == "max-image-preview":
        return value.lower() in _IMAGE_PREVIEW
    if rule == "unavailable_after":
        return _parse_date(value) is not None
    return False


def _robots_directives(text: str, *, source: str, fld: str, offset: int,
                       line: Optional[int], scope: str, tokens: FrozenSet[str],
                       scoped_prefixes: bool) -> List[Directive]:
    """Directives of one ``X-Robots-Tag`` value or one robots meta ``content``.

    In a header, ``token: rules`` scopes the rules that follow (up to the next prefix) to
    that crawler (Google: "X-Robots-Tag: otherbot: noindex, nofollow"); a meta tag's
    scope is its ``name`` and its content has no prefixes.
    """
    out: List[Directive] = []
    current = scope
    for piece in _split_rules(text):
        if not piece.strip():
            continue
        if scoped_prefixes:
            match = _PREFIX.match(piece)
            if match is not None and match.group(1).lower() not in _VALUE_RULES | _BARE_RULES:
                current = match.group(1).lower()
                piece = match.group(2)
                if not piece.strip():
                    continue
        rule, value = _read_rule(piece)
        applies = current == "*" or current in tokens
        out.append(Directive(source, fld, offset, line, current, applies, rule, value,
                             _valid(rule, value)))
    return out


# ------------------------------------------------------------------------- HTML head

class _Meta(NamedTuple):
    name: str
    content: str
    offset: int
    line: int


# The head scan is a small tokenizer after HTML's (WHATWG "Tokenization"), enough to find
# <meta> start tags and to skip what is not markup: comments, raw text (script, style,
# title, textarea...) and inert <template> contents. It walks forward with str.find and
# anchored regexes only, so its cost is linear in the bytes it reads, whatever the input.
# It stops at </head> or <body>; other elements an HTML parser would take as the start of
# the body (<div> in a head) do not stop it: pages do that, and a robots meta after one
# must not be missed (reading it can only restrict more).
_TAG_NAME = re.compile(r"[A-Za-z][^\t\n\f\r />]*")
_ATTRIBUTE = re.compile(
    r"""[\t\n\f\r /]*([^\t\n\f\r />][^\t\n\f\r />=]*)"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"?|'([^']*)'?|([^\t\n\f\r >]*)))?""")
_TAG_END = re.compile(r"[\t\n\f\r /]*>")
_RAW_TEXT = frozenset({"script", "style", "title", "textarea", "xmp", "iframe", "noembed",
                       "noframes", "plaintext", "template"})
_CLOSERS: Dict[str, re.Pattern[str]] = {
    name: re.compile(f"</{name}[\t\n\f\r />]", re.IGNORECASE) for name in _RAW_TEXT}


def _scan_head(text: str) -> List[Tuple[Dict[str, str], int]]:
    """``(attributes, offset)`` of every ``<meta>`` start tag of the head of ``text``."""
    metas: List[Tuple[Dict[str, str], int]] = []
    pos, size = 0, len(text)
    while True:
        lt = text.find("<", pos)
        if lt < 0 or lt + 1 >= size:
            return metas
        nxt = text[lt + 1]
        if text.startswith("!--", lt + 1):
            # A comment ends at "-->" (or at once for "<!-->" and "<!--->").
            if text.startswith(">", lt + 4) or text.startswith("->", lt + 4):
                pos = lt + 5
                continue
            end = text.find("-->", lt + 4)
            if end < 0:
                return metas
            pos = end + 3
            continue
        if nxt in "!?" or (nxt == "/" and not text[lt + 2:lt + 3].isalpha()):
            end = text.find(">", lt + 2)  # doctype, bogus comment, "</>"
            if end < 0:
                return metas
            pos = end + 1
            continue
        closing = nxt == "/"
        name_at = lt + 2 if closing else lt + 1
        found = _TAG_NAME.match(text, name_at)
        if found is None:  # "<" then text: not a tag
            pos = lt + 1
            continue
        name = found.group().lower()
        attributes: Dict[str, str] = {}
        here = found.end()
        while True:
            tail = _TAG_END.match(text, here)
            if tail is not None:
                here = tail.end()
                break
            attribute = _ATTRIBUTE.match(text, here)
            if attribute is None:
                return metas  # end of input inside a tag: HTML drops the tag
            key, double, single, bare = attribute.groups()
            here = attribute.end()
            if (double is not None and not text.startswith('"', here - 1)) or \
                    (single is not None and not text.startswith("'", here - 1)):
                return metas  # an unterminated quoted value runs to the end of input
            value = double if double is not None else single if single is not None else bare
            attributes.setdefault(key.lower(), value or "")  # the first of repeated wins
        if closing:
            if name == "head":
                return metas
            pos = here
            continue
        if name == "body":
            return metas
        if name == "meta":
            metas.append(({k: html.unescape(v) if "&" in v else v
                           for k, v in attributes.items()}, lt))
        elif name in _RAW_TEXT:
            closer = _CLOSERS[name].search(text, here)
            if closer is None:
                return metas
            here = closer.start()
        pos = here


_META_PROBE = re.compile(rb"<meta", re.IGNORECASE)
_META_PROBE_TEXT = re.compile("<meta", re.IGNORECASE)


def read_head_meta(html_text: Union[str, bytes, None], *,
                   max_bytes: int = DEFAULT_HEAD_BYTES) -> List[_Meta]:
    """The ``<meta name=... content=...>`` elements of an HTML document's head.

    Reads at most ``max_bytes`` of the document, and only up to ``</head>`` or
    ``<body>``; comments, ``<script>``/``<style>``/``<title>`` text and ``<template>``
    contents are not elements and are skipped; ``<noscript>`` contents count (a crawler
    that runs no script sees them). Bytes are decoded as UTF-8 with replacement (the
    names that matter are ASCII). Never raises for any document.
    """
    if html_text is None:
        return []
    if isinstance(html_text, (bytes, bytearray, memoryview)):
        raw = bytes(html_text[:max_bytes])
        if _META_PROBE.search(raw) is None:
            return []
        text = raw.decode("utf-8", "replace")
    elif isinstance(html_text, str):
        text = html_text[:max_bytes]
        if _META_PROBE_TEXT.search(text) is None:
            return []
    else:
        raise TypeError(f"html must be str or bytes, not {type(html_text).__name__}")
    out: List[_Meta] = []
    line, counted = 1, 0
    for values, offset in _scan_head(text):
        name = values.get("name")
        if name is None:
            continue
        line += text.count("\n", counted, offset)
        counted = offset
        out.append(_Meta(name.strip(), values.get("content", ""), offset, line))
    return out


# ------------------------------------------------------------------------ assembling

def _known_tokens() -> FrozenSet[str]:
    from ._crawlers import known_crawlers

    return frozenset(c.token.lower() for c in known_crawlers() if c.token)


_KNOWN: List[FrozenSet[str]] = []


def _crawler_names() -> FrozenSet[str]:
    if not _KNOWN:
        try:
            _KNOWN.append(_known_tokens() | {"googlebot-news", "googlebot", "bingbot"})
        except Exception:  # pragma: no cover - the shipped table is always there
            _KNOWN.append(frozenset({"googlebot-news", "googlebot", "bingbot"}))
    return _KNOWN[0]


def _tdm_value(value: str) -> Optional[int]:
    # TDMRep: "tdm-reservation is an integer" with values 1 and 0; "Other values are
    # considered protocol errors. In such a case the TDM Agents MUST consider that
    # tdm-reservation is unset."
    text = value.strip()
    return int(text) if text in ("0", "1") else None


def parse_content_usage(value: str) -> Optional[Dict[str, bool]]:
    """A Content-Usage field value as ``{category: allowed}`` (``None``: not a dictionary).

    draft-ietf-aipref-attach §2: the field is a structured-field Dictionary (RFC 9651
    §3.2) read with the vocabulary's rules: values ``y``/``n`` (tokens), keys the
    vocabulary does not define and other values are ignored; a field that does not parse
    as a dictionary states nothing (RFC 9651 §4.2: a parse failure discards the field).
    """
    from . import _purposes as purposes
    from . import _sfv as sfv

    try:
        members = sfv.parse_dictionary(value)
    except ValueError:
        return None
    out: Dict[str, bool] = {}
    known = frozenset(purposes.CATEGORIES)
    for key, member in members.items():
        item = member[0]
        if key in known and isinstance(item, sfv.Token) and item in ("y", "n"):
            out[key] = item == "y"
    return out


def page_signals(headers: Optional[Headers], html: Union[str, bytes, None] = None, *,
                 agent: Agent, url: Optional[str] = None,
                 now: Optional[datetime.datetime] = None,
                 max_head_bytes: int = DEFAULT_HEAD_BYTES,
                 tdmrep: Optional[TdmRepFile] = None) -> PageSignals:
    """Read a response's page-level signals for ``agent``.

    ``headers``: the response headers (see :data:`Headers`; ``None`` for none);
    ``html``: the body, of which only the head is read (at most ``max_head_bytes``);
    ``agent``: the crawler's product token(s) (as for :meth:`RobotsTxt.allowed`); ``url``
    is the page's URL (needed with ``tdmrep``); ``now`` decides whether
    ``unavailable_after`` has passed (default: the current time, UTC); ``tdmrep`` is the
    site's TDMRep file (:meth:`RobotsCache.tdmrep`), whose rule for ``url`` the response's
    own TDMRep header or meta supersede (TDMRep "Processing priority").

    >>> s = page_signals({"X-Robots-Tag": "googlebot: noindex"}, agent="Googlebot")
    >>> s.index, s.follow, s.allows("search")
    (False, True, False)
    """
    pairs = list(iter_header_pairs(headers)) if headers is not None else []
    return _assemble(frozenset(agent_tokens(agent)), pairs,
                     read_head_meta(html, max_bytes=max_head_bytes), url, now, tdmrep)


def page_signals_for(headers: Optional[Headers], html: Union[str, bytes, None],
                     agents: Sequence[Agent], *, url: Optional[str] = None,
                     now: Optional[datetime.datetime] = None,
                     max_head_bytes: int = DEFAULT_HEAD_BYTES) -> List[PageSignals]:
    """:func:`page_signals` for each of ``agents``, the headers and the HTML head read once
    (the bulk paths judge every page for several agents)."""
    pairs = list(iter_header_pairs(headers)) if headers is not None else []
    metas = read_head_meta(html, max_bytes=max_head_bytes)
    return [_assemble(frozenset(agent_tokens(agent)), pairs, metas, url, now, None)
            for agent in agents]


def _assemble(tokens: FrozenSet[str], pairs: Sequence[Tuple[str, str]],
              metas: Sequence[_Meta], url: Optional[str],
              now: Optional[datetime.datetime], tdmrep: Optional[TdmRepFile]) -> PageSignals:
    """The signals for one agent from a response already read (its header pairs and the
    meta elements of its head)."""
    directives: List[Directive] = []
    if tdmrep is not None:
        if url is None:
            raise TypeError("page_signals(..., tdmrep=...) needs the page's url")
        rule = tdmrep.match(url)
        if rule is not None:
            directives.append(Directive("file", TDMREP_PATH, rule.index, None, "*", True,
                                        "tdm-reservation", str(rule.reservation), True))
            if rule.policy is not None:
                directives.append(Directive("file", TDMREP_PATH, rule.index, None, "*", True,
                                            "tdm-policy", rule.policy, True))
    usage_directives: List[Tuple[Directive, Optional[Dict[str, bool]]]] = []
    if pairs:
        for index, (name, value) in enumerate(pairs):
            key = name.strip().lower()
            if key == _HEADER_ROBOTS:
                directives.extend(_robots_directives(
                    value, source="header", fld=name.strip(), offset=index, line=None,
                    scope="*", tokens=tokens, scoped_prefixes=True))
            elif key in (_HEADER_TDM, _HEADER_TDM_POLICY):
                valid = key == _HEADER_TDM_POLICY or _tdm_value(value) is not None
                directives.append(Directive("header", name.strip(), index, None, "*", True,
                                            key, value.strip(), valid))
            elif key == _HEADER_USAGE:
                prefs = parse_content_usage(value)
                d = Directive("header", name.strip(), index, None, "*", True, key,
                              value.strip(), prefs is not None)
                directives.append(d)
                usage_directives.append((d, prefs))
    crawlers = _crawler_names()
    for meta in metas:
        key = meta.name.lower()
        if key == "robots" or key in tokens or key in crawlers:
            scope = "*" if key == "robots" else key
            directives.extend(_robots_directives(
                meta.content, source="meta", fld=meta.name, offset=meta.offset,
                line=meta.line, scope=scope, tokens=tokens, scoped_prefixes=False))
        elif key in (_HEADER_TDM, _HEADER_TDM_POLICY):
            valid = key == _HEADER_TDM_POLICY or _tdm_value(meta.content) is not None
            directives.append(Directive("meta", meta.name, meta.offset, meta.line, "*",
                                        True, key, meta.content.strip(), valid))
    return _fold(tuple(sorted(tokens)), directives, usage_directives, now)


def _fold(agent: Tuple[str, ...], directives: List[Directive],
          usage: List[Tuple[Directive, Optional[Dict[str, bool]]]],
          now: Optional[datetime.datetime]) -> PageSignals:
    values: Dict[str, Any] = {}
    signals: Dict[str, Tuple[bool, Directive]] = {}
    categories: Dict[str, Tuple[bool, Directive]] = {}

    def state(table: Dict[str, Tuple[bool, Directive]], name: str, value: bool,
              directive: Directive) -> None:
        # Most restrictive wins; among equal values the first directive read is kept.
        if name not in table or (table[name][0] and not value):
            table[name] = (value, directive)

    when = now if now is not None else datetime.datetime.now(datetime.timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    snippet_limits: List[int] = []
    video_limits: List[int] = []
    previews: List[int] = []
    dates: List[Tuple[datetime.datetime, Directive]] = []
    tdm: Dict[str, List[Directive]] = {"header": [], "meta": [], "file": []}
    policies: Dict[str, List[Directive]] = {"header": [], "meta": [], "file": []}
    for d in directives:
        if not d.applies or not d.valid:
            continue
        rule = d.rule
        if rule in ("noindex", "none"):
            values["index"] = False
            state(signals, "search", False, d)
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
            state(signals, "ai-train", False, d)
        elif rule in ("max-snippet", "max-video-preview") and d.value is not None:
            number = int(d.value)
            if number >= 0:
                (snippet_limits if rule == "max-snippet" else video_limits).append(number)
        elif rule == "max-image-preview" and d.value is not None:
            previews.append(_IMAGE_PREVIEW[d.value.lower()])
        elif rule == "unavailable_after" and d.value is not None:
            date = _parse_date(d.value)
            if date is not None:
                dates.append((date, d))
        elif rule == "tdm-reservation":
            tdm[d.source].append(d)
        elif rule == "tdm-policy":
            policies[d.source].append(d)
    if snippet_limits:
        values["max_snippet"] = min(snippet_limits)
        if values["max_snippet"] == 0:
            values["snippet"] = False
    if video_limits:
        values["max_video_preview"] = min(video_limits)
    if previews:
        values["max_image_preview"] = _IMAGE_PREVIEW_NAMES[min(previews)]
    if dates:
        date, d = min(dates, key=lambda item: item[0])
        values["unavailable_after"] = date
        if date <= when:
            values["expired"] = True
            values["index"] = False
            state(signals, "search", False, d)
    # TDMRep "Processing priority": HTML metadata supersedes the header, which supersedes
    # the site file; within one technique the most restrictive value wins.
    for source in ("meta", "header", "file"):
        if tdm[source]:
            chosen = max(tdm[source], key=lambda d: int(d.value or "0"))
            values["tdm_reservation"] = int(chosen.value or "0")
            if values["tdm_reservation"] == 1 and policies[source]:
                values["tdm_policy"] = policies[source][0].value
            for purpose in TDM_SIGNALS:
                state(signals, purpose, values["tdm_reservation"] == 0, chosen)
            break
    merged: Dict[str, bool] = {}
    for d, prefs in usage:
        for category, allowed in (prefs or {}).items():
            merged[category] = merged.get(category, True) and allowed
            state(categories, category, allowed, d)
    values["content_usage"] = merged
    return PageSignals(agent=agent, directives=tuple(directives), signals=signals,
                       categories=categories, **values)


TDM_SIGNALS = ("ai-train", "ai-input")
"""The Content Signals a TDM reservation speaks about (see docs/guides/page-signals.md)."""


# ------------------------------------------------------------------ both levels

class Answer(NamedTuple):
    """One purpose's answer from both levels, and which level and statement decided it.

    ``level`` is ``"page"``, ``"robots.txt"`` or ``None`` (nothing stated anywhere);
    ``directive`` is the page directive that decided (page level), ``lines`` the robots.txt
    usage lines that stated the answer (robots.txt level).
    """

    allowed: Optional[bool]
    level: Optional[str]
    directive: Optional[Directive]
    lines: Tuple[UsageLine, ...] = ()

    def describe(self) -> str:
        """``refused by page: header X-Robots-Tag (header #2): noai``, or similar."""
        if self.allowed is None:
            return "nothing stated"
        verb = "allowed" if self.allowed else "refused"
        if self.level == "page" and self.directive is not None:
            return f"{verb} by page: {self.directive.describe()}"
        shown = "; ".join(f"line {u.line}: {u.directive}: {u.value}" for u in self.lines)
        return f"{verb} by robots.txt" + (f" {shown}" if shown else "")


@dataclass(frozen=True)
class Combined:
    """The site's usage preferences (robots.txt) and a page's signals, read together.

    Returned by :func:`combine`. For every purpose the most restrictive answer of the two
    levels wins (draft-ietf-aipref-vocab "Combining Preferences"); when both say the same,
    the page is named as the decider (the narrower statement).
    """

    usage: Optional[Usage]
    page: Optional[PageSignals]

    @property
    def crawl_allowed(self) -> Optional[bool]:
        """The site level's crawl verdict (``Usage.crawl_allowed``), ``None`` without one."""
        return None if self.usage is None else self.usage.crawl_allowed

    def allows(self, purpose: str) -> Optional[bool]:
        """``True``, ``False`` or ``None`` for ``purpose``, from both levels."""
        return self.decide(purpose).allowed

    def decide(self, purpose: str) -> Answer:
        """The answer for ``purpose`` with the level and statement that decided it."""
        from ._purposes import check_purpose

        name = check_purpose(purpose)
        page: Decision = self.page.decide(name) if self.page is not None else (None, None)
        site = self.usage.allows(name) if self.usage is not None else None
        if page[0] is False:
            return Answer(False, "page", page[1])
        if site is False:
            return Answer(False, "robots.txt", None, self._lines(name, False))
        if page[0] is True:
            return Answer(True, "page", page[1])
        if site is True:
            return Answer(True, "robots.txt", None, self._lines(name, True))
        return Answer(None, None, None)

    def _lines(self, purpose: Purpose, value: bool) -> Tuple[UsageLine, ...]:
        assert self.usage is not None
        lines = self.usage.deciding(purpose)
        stating = tuple(u for u in lines if any(v is value for _, v in u.statements))
        return stating or lines


def combine(usage: Optional[Usage], page_signals: Optional[PageSignals]) -> Combined:
    """Read a site's usage preferences and a page's signals together.

    ``usage`` is what :meth:`RobotsTxt.usage` returned for the page's URL (``None`` when
    there is no robots.txt to ask), ``page_signals`` what :func:`page_signals` read::

        both = robotsrules.combine(robots.usage(url, agent="ExampleBot"), signals)
        both.allows("ai-train"), both.decide("ai-train").describe()
    """
    if page_signals is not None and not isinstance(page_signals, PageSignals):
        raise TypeError(f"page_signals must be a PageSignals, not {type(page_signals).__name__}")
    if usage is not None and not isinstance(usage, Usage):
        raise TypeError(f"usage must be a Usage (RobotsTxt.usage), not {type(usage).__name__}")
    return Combined(usage, page_signals)


def refusal(signals: PageSignals, purposes: Iterable[str], usage: Optional[Usage] = None
            ) -> Optional[Tuple[str, str]]:
    """The first of ``purposes`` that the page (and the site's ``usage``, when given)
    refuse, with why: ``(purpose, description)``."""
    both = combine(usage, signals)
    for purpose in purposes:
        answer = both.decide(purpose)
        if answer.allowed is False:
            return purpose, answer.describe()
    return None


def parse_header_block(text: Union[str, bytes, None]) -> List[Tuple[str, str]]:
    """``(name, value)`` pairs of a raw header block (``Name: value`` lines, as stored by
    crawls); a status line, lines without a colon and obsolete folding are skipped."""
    if text is None:
        return []
    if isinstance(text, (bytes, bytearray, memoryview)):
        text = bytes(text).decode("latin-1")
    pairs: List[Tuple[str, str]] = []
    for line in text.splitlines():
        name, colon, value = line.partition(":")
        if colon and name.strip() and not name[:1].isspace() and " " not in name.strip():
            pairs.append((name.strip(), value.strip()))
    return pairs


def is_html(content_type: Optional[str]) -> bool:
    """Whether a ``Content-Type`` names an HTML (or XHTML) body, the only ones scanned."""
    return content_type is not None and "html" in content_type.lower()
