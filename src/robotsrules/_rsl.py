"""RSL 1.0 licence documents: a bounded, safe reader and the terms they give a URL.

Really Simple Licensing 1.0 (RSL-SPEC-1.0, an Industry Specification of the RSL Technical
Steering Committee, status Recommendation, published 2025-11-06; https://rslstandard.org/rsl)
lets a site name, in robots.txt (``License: <absolute URI>``, §4.4), an XML document that
says on what terms its content may be used. This module reads such a document and answers,
for a URL and a purpose, what it says. Nothing here touches the network: fetching goes
through :meth:`robotsrules.RobotsCache.license_for` (the same fetch policy, bounds and store
as robots.txt) and :func:`license_from`.

Theory of operation.

*Reading* (:func:`parse_license`). The octets (at most ``max_bytes``; a longer document is
refused, never cut: a cut could drop a prohibition) go to defusedxml's parser with DTDs,
entity declarations and external references forbidden, so nothing is fetched and no
entity expands (a "billion laughs" document is refused with a clear error). A builder of
our own keeps the elements, refusing a document nested deeper than :data:`MAX_DEPTH` or
holding more than :data:`MAX_ELEMENTS` elements. The tree is then read into frozen records
(:class:`Content`, :class:`License`, :class:`Payment`): the root is ``<rsl>`` in the
namespace ``https://rslstandard.org/rsl`` (§2.2; Leniency: a root without namespace is read,
with a warning); elements of other namespaces are extensions and are skipped (§3), unless
they spell an RSL element name (``<prohibits>`` unprefixed under ``<rsl:rsl>``): neither RSL
nor an extension, such an element refuses the document. An unknown element of the RSL
namespace, a ``<content>`` without ``url`` or without ``<license>``, a usage token, user
class or geo code outside the vocabulary, or two ``<payment>`` in one licence make the
document invalid (§3, Appendix A), since reading around them could turn a prohibition into
a permission (and with two payments the answer would depend on their order).
So does an RSL element where §3 does not place it (:data:`_CHILDREN`: a ``<prohibits>``
in a ``<content>``, a ``<payment>`` in a ``<permits>``, a ``<license>`` in a ``<terms>``),
any element inside a token list or an ``<amount>``, and an attribute that could be misread
(:data:`_ATTRIBUTES`: ``Type=``, ``rsl:type=``, an unknown attribute of ``<content>``...,
``server=""``, a ``free`` payment with an amount). A ``<payment>`` without a known type is
a payment asked (nothing says free). Token lists are split on XML white space (space, tab,
CR, LF) only; a ``prefix:name`` token whose prefix is bound to the RSL namespace is the RSL
token ``name``, one bound to another namespace an extension, an unbound one refuses.
User classes and geo codes are compared in their canonical case (``us`` is ``US``); a
region code (``EU``) stands for each of its member states (``data/rsl.json``), on both
sides and restrictively (see :func:`_conditions`).
Leniency: token lists may be separated by commas (the 0.9 draft's habit) as well as by
white space, with a warning. A ``<content url>`` that is a full URL on another origin than
the site's is ignored (kept in :attr:`LicenseDocument.ignored`).

*Answering* (:meth:`LicenseDocument.license_for`, :class:`LicenseTerms`). A purpose is an
RSL usage token (``all``, ``ai-all``, ``ai-train``, ``ai-input``, ``ai-index``, ``search``)
or one of the library's purposes, read as the token the data table ``data/rsl.json``
names for it (``train-ai`` is ``ai-train``, ``bots`` is ``all``...). For a URL:

1. the ``<content>`` elements whose ``url`` matches it apply (RFC 9309 patterns, §3.3,
   matched in RFC 9309 mode's normal form: :func:`robotsrules._rules._pattern.rfc_location`,
   with the ASCII characters a URI cannot hold percent-encoded on both sides);
   the most specific (the longest pattern, in octets, ``**`` read ``*`` and a final ``*``
   dropped) decide, as a narrower scope takes precedence over a broader one (§3.1.1);
   when several are equally specific, the most restrictive answer wins;
2. within one ``<content>``, each ``<license>`` is an offer: it *prohibits* the use when
   a ``<prohibits type="usage">`` token covers it (``ai-all`` covers ``ai-train``...), or,
   for a broad use (``all``, ``ai-all``), covers any part of it; it *grants* the use when it
   has no ``<permits type="usage">`` or one whose tokens cover it (a ``<permits>`` is a
   closed list, §3.5); a ``<permits>``/``<prohibits>`` of ``type="user"`` or ``"geo"``
   restricts who and where (the caller's ``user=``/``geo=``; unknown, they are a condition);
3. any licence that prohibits the use makes it ``"prohibited"`` (the most restrictive
   combination, §3.1.1); else a licence that grants it with nothing to meet makes it
   ``"permitted"``; else one that grants it on terms (a payment other than ``free``,
   attribution, a licence ``server``, encryption, ``<reporting>``, a user class or region)
   makes it ``"licensed"``; else no licence grants it: ``"prohibited"`` (not licensed);
4. no ``<content>`` matches: ``"unstated"``; the document could not be fetched or read:
   ``"unknown"``, with the fetch outcome or the reading error (RSL §4.3 tells clients to
   treat such content as unlicensed: never "permitted").

:meth:`LicenseTerms.allows` answers ``True`` for ``"permitted"`` only, ``False`` for
``"prohibited"`` and ``"licensed"`` (offered on terms the caller has not met: see
:meth:`LicenseTerms.answer` for them), ``None`` for ``"unstated"`` and ``"unknown"``.
Several documents (several ``License`` lines) combine per purpose, most restrictive
first: prohibited, unknown, licensed, permitted, unstated.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Literal,
    NamedTuple,
    Optional,
    Union,
)
from urllib.parse import urlsplit

from ._rules._pattern import Pattern, rfc_location
from ._rules._urls import rfc_target
from ._scope import origin_of
from ._tables._purposes import PURPOSES
from .errors import InvalidPurpose, InvalidURL

if TYPE_CHECKING:
    from .policy import Served

__all__ = [
    "LICENSE_KEY",
    "MAX_CONTENTS",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_ELEMENTS",
    "MEDIA_TYPE",
    "NAMESPACE",
    "STATUSES",
    "USAGE_TOKENS",
    "Content",
    "DocumentCache",
    "License",
    "LicenseAnswer",
    "LicenseDocument",
    "LicenseSource",
    "LicenseState",
    "LicenseStatus",
    "LicenseTerms",
    "Payment",
    "checked",
    "geo_code",
    "license_answers",
    "license_from",
    "license_url_problem",
    "parse_license",
    "robots_unknown",
    "rsl_data",
    "too_old",
    "unmatchable",
    "unread",
    "usage_token",
    "user_class",
    "without_credentials",
]

NAMESPACE = "https://rslstandard.org/rsl"
"""The RSL namespace (RSL 1.0 §2.2)."""
MEDIA_TYPE = "application/rsl+xml"
"""The media type of RSL documents (RSL 1.0 §2.2)."""
MAX_DEPTH = 32
"""Elements nested deeper than this refuse the document (RSL needs five levels)."""
MAX_ELEMENTS = 100_000
"""Elements in one document, at most; more refuse it."""
MAX_DOCUMENT_BYTES = 512_000
"""Octets of one licence document, at most; a longer one is refused whole, never cut. RSL 1.0
(RSL-SPEC-1.0, 2025-11-06) names no size limit. A licence document is a few KiB of XML; the
bound keeps a stranger's document bounded in memory before the XML parser sees it, with the
same 500 KiB RFC 9309 (2022-09) gives robots.txt, so the fetch policy's one ``max_bytes``
fits both."""
MAX_CONTENTS = 10_000
"""``<content>`` elements in one document, at most; more refuse it (none is dropped)."""

LicenseStatus = Literal["permitted", "licensed", "prohibited", "unstated", "unknown"]
"""What a document says of a use at a URL (see the module docstring)."""
LicenseState = Literal["ok", "invalid", "unavailable", "unreachable"]
"""Whether a licence document was read (``"ok"``), could not be read (``"invalid"``), was
not there (``"unavailable"``: a 4xx answer, a bad redirect) or could not be fetched
(``"unreachable"``: 5xx, 429, a network error)."""

STATUSES: tuple[LicenseStatus, ...] = ("prohibited", "unknown", "licensed", "permitted",
                                       "unstated")
"""The statuses, most restrictive first: the order in which several answers combine."""
_RANK = {status: rank for rank, status in enumerate(STATUSES)}

_ELEMENTS = frozenset({
    "rsl", "content", "license", "permits", "prohibits", "payment", "standard", "custom",
    "amount", "accepts", "reporting", "legal", "alternate", "schema", "copyright", "terms",
})
_LIST_TYPES = ("usage", "user", "geo")
_CHILDREN: Mapping[str, frozenset[str]] = {
    "rsl": frozenset({"content"}),
    "content": frozenset({"license", "alternate", "schema", "copyright", "terms"}),
    "license": frozenset({"permits", "prohibits", "payment", "reporting", "legal"}),
    "payment": frozenset({"standard", "custom", "amount", "accepts"}),
}
"""Where each RSL element may stand (RSL 1.0 §3): the RSL children an element may hold.
Every other RSL element is a leaf: no RSL element (nor one that spells an RSL name) in it."""
_TEXT_ONLY = frozenset({"permits", "prohibits", "amount"})
"""Leaves whose text is read as values: no element at all inside them."""
_ATTRIBUTES: Mapping[str, frozenset[str]] = {
    "rsl": frozenset({"max-age"}),
    "content": frozenset({"url", "server", "encrypted", "lastmod"}),
    "license": frozenset(),
    "permits": frozenset({"type"}),
    "prohibits": frozenset({"type"}),
    "payment": frozenset({"type"}),
    "amount": frozenset({"currency"}),
    "accepts": frozenset({"type"}),
    "reporting": frozenset({"type", "profile", "endpoint"}),
}
"""The attributes read on RSL elements. On the elements whose attributes decide an answer
(all but ``rsl``, ``accepts`` and ``reporting`` here) any other unprefixed attribute
refuses the document; on every RSL element, an attribute that differs from a known name
only in case, or a known name in the RSL namespace or another one, refuses it."""
_STRICT = frozenset({"content", "license", "permits", "prohibits", "payment", "amount"})
_KNOWN_ATTRIBUTES = frozenset().union(*_ATTRIBUTES.values())
_XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
_SPACE = " \t\r\n"
"""XML white space (XML 1.0 §2.3 ``S``): the only separators of token lists."""
_SPLIT = re.compile(r"[ \t\r\n,]+")
_QNAME = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*):([A-Za-z_][A-Za-z0-9_.\-]*)")
_UNSAFE = re.compile(r'[\x00-\x20"<>\\^`{|}\x7f]')
"""ASCII characters a URI cannot hold (RFC 3986 §2): percent-encoded in ``<content url>``
patterns and in the URLs matched against them (RFC 9309 §2.2.2), so ``/a b`` and
``/a%20b`` are one path."""
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")


# -- the data table -----------------------------------------------------------------------

@lru_cache(maxsize=1)
def rsl_data() -> Mapping[str, Any]:
    """``data/rsl.json``: the RSL 1.0 vocabularies and the purposes' join (read once)."""
    text = resources.files("robotsrules").joinpath("data/rsl.json").read_text("utf-8")
    data: Mapping[str, Any] = json.loads(text)
    return data


def _usage() -> Mapping[str, Any]:
    usage: Mapping[str, Any] = rsl_data()["usage"]
    return usage


USAGE_TOKENS: tuple[str, ...] = tuple(_usage())
"""The RSL 1.0 usage tokens (§3.4.1.1), from the data table."""


@cache
def _covered(token: str) -> frozenset[str]:
    """``token`` and every usage token it covers, directly or not (``all`` covers all)."""
    found = {token}
    todo = [token]
    while todo:
        for child in _usage()[todo.pop()]["covers"]:
            if child not in found:
                found.add(child)
                todo.append(child)
    return frozenset(found)


def usage_token(name: str) -> str:
    """The RSL usage token that answers ``name``: an RSL token itself, or the token
    ``data/rsl.json`` names for one of the library's purposes. Raises
    :class:`~robotsrules.InvalidPurpose` for anything else.

    >>> usage_token("train-ai"), usage_token("ai-index")
    ('ai-train', 'ai-index')
    """
    if name in _usage():
        return name
    purposes: Mapping[str, Any] = rsl_data()["purposes"]
    entry = purposes.get(name)
    if entry is None:
        names = sorted(set(USAGE_TOKENS) | set(PURPOSES))
        raise InvalidPurpose(f"unknown purpose {name!r}; expected one of: {', '.join(names)}")
    token: str = entry["token"]
    return token


@cache
def _user_classes() -> frozenset[str]:
    return frozenset(rsl_data()["user"]["tokens"])


@cache
def _countries() -> frozenset[str]:
    return frozenset(rsl_data()["geo"]["countries"]["codes"])


@cache
def _regions() -> Mapping[str, frozenset[str]]:
    regions: Mapping[str, Any] = rsl_data()["geo"]["regions"]
    return {code: frozenset(entry["members"]) for code, entry in regions.items()}


def _user_token(text: str) -> Optional[str]:
    """``text`` as a user class of ``data/rsl.json`` (any case), or ``None``."""
    token = text.lower() if text.isascii() else text
    return token if token in _user_classes() else None


def _geo_token(text: str) -> Optional[str]:
    """``text`` as an ISO 3166-1 alpha-2 code or a region code (any case), or ``None``.
    Non-ASCII text is refused before case folding (``"ß".upper()`` is ``"SS"``)."""
    token = text.upper() if text.isascii() else text
    return token if token in _countries() or token in _regions() else None


def _places(code: str) -> frozenset[str]:
    """The countries a geo code stands for: a region its members, a country itself."""
    return _regions().get(code, frozenset((code,)))


def user_class(value: str) -> str:
    """A caller's user class, checked and in lower case (``"Commercial"`` is
    ``"commercial"``); anything outside RSL 1.0's classes (``data/rsl.json``) raises
    :class:`~robotsrules.InvalidArgument`.

    >>> user_class("Non-Commercial")
    'non-commercial'
    """
    from .errors import InvalidArgument

    token = _user_token(value) if isinstance(value, str) else None
    if token is None:
        raise InvalidArgument(f"unknown user class {value!r}; expected one of: "
                              f"{', '.join(rsl_data()['user']['tokens'])}")
    return token


def geo_code(value: str) -> str:
    """A caller's region, checked and in upper case: an ISO 3166-1 alpha-2 code
    (``"us"`` is ``"US"``) or a region code of ``data/rsl.json`` (``EU``); anything else
    (``"Usa"``, ``"UK"``) raises :class:`~robotsrules.InvalidArgument`.

    >>> geo_code("de"), geo_code("EU")
    ('DE', 'EU')
    """
    from .errors import InvalidArgument

    token = _geo_token(value) if isinstance(value, str) else None
    if token is None:
        raise InvalidArgument(f"unknown region {value!r}; expected an ISO 3166-1 alpha-2 "
                              f"country code (US, DE...) or {', '.join(sorted(_regions()))}")
    return token


def checked(user: Optional[str], geo: Optional[str]) -> None:
    """Raise :class:`~robotsrules.InvalidArgument` for a caller's unknown ``user`` class or
    ``geo`` region (``None``: not given), before anything is fetched."""
    if user is not None:
        user_class(user)
    if geo is not None:
        geo_code(geo)


def _free_payment(kind: Optional[str]) -> Optional[bool]:
    types: Mapping[str, Any] = rsl_data()["payment"]["types"]
    entry = types.get(kind) if kind is not None else None
    return None if entry is None else bool(entry["free"])


# -- the records ----------------------------------------------------------------------------

class Amount(NamedTuple):
    """A price: the decimal ``value`` as written and its ISO 4217 ``currency``."""

    value: str
    currency: str


@dataclass(frozen=True)
class Payment:
    """A licence's ``<payment>`` (RSL 1.0 §3.7-§3.11)."""

    type: Optional[str]
    """``purchase``, ``subscription``, ``training``, ``crawl``, ``use``, ``contribution``,
    ``attribution``, ``free``, or ``None`` when the attribute is absent."""
    amount: Optional[Amount] = None
    standard: Optional[str] = None
    """The shared licence framework's URI (an opaque identifier, §3.8)."""
    custom: Optional[str] = None
    """Where to ask for a licence (§3.9)."""
    accepts: Optional[str] = None
    """The media type of the payment protocol accepted (``application/x402+json``, §3.11)."""

    @property
    def free(self) -> bool:
        """True when nothing is asked: type ``free`` only. A ``<payment>`` without a type
        (or of a type RSL 1.0 does not name) is read as a payment asked: nothing in the
        element says it is free (restrictive)."""
        return self.type is not None and _free_payment(self.type) is True

    def describe(self) -> str:
        """``payment crawl 0.015 USD`` (and the framework or process, if named)."""
        text = f"payment {self.type or '(no type)'}"
        if self.amount is not None:
            text += f" {self.amount.value} {self.amount.currency}"
        for label, value in (("standard", self.standard), ("custom", self.custom),
                             ("accepts", self.accepts)):
            if value:
                text += f", {label} {value}"
        return text


class Reporting(NamedTuple):
    """A licence's ``<reporting>`` obligation (§3.12): a client that cannot meet it must
    treat the use as unlicensed."""

    type: str
    profile: str
    endpoint: Optional[str]


@dataclass(frozen=True)
class License:
    """One ``<license>`` of a ``<content>``: an offer of terms (RSL 1.0 §3.4)."""

    index: int
    """1-based position in its ``<content>``."""
    line: int
    """The line of the ``<license>`` start tag."""
    permits: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``(type, tokens)`` of each ``<permits>``: ``usage``, ``user`` or ``geo``."""
    prohibits: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``(type, tokens)`` of each ``<prohibits>``."""
    payment: Optional[Payment] = None
    """``None``: no ``<payment>``, the licence is free (§3.7)."""
    reporting: tuple[Reporting, ...] = ()
    legal: tuple[tuple[str, str], ...] = ()
    """``(type, text)`` of each ``<legal>`` (warranties, disclaimers...), as written."""

    def listed(self, which: Literal["permits", "prohibits"], kind: str
               ) -> Optional[tuple[str, ...]]:
        """The tokens of the ``permits``/``prohibits`` element of ``kind``, or ``None``."""
        for name, tokens in (self.permits if which == "permits" else self.prohibits):
            if name == kind:
                return tokens
        return None

    def describe(self) -> str:
        """``licence 1: permits usage search; prohibits usage ai-train; payment crawl``."""
        parts = [f"permits {kind} {' '.join(tokens)}" for kind, tokens in self.permits]
        parts += [f"prohibits {kind} {' '.join(tokens)}" for kind, tokens in self.prohibits]
        if self.payment is not None:
            parts.append(self.payment.describe())
        parts += [f"reporting {r.type} ({r.profile})" for r in self.reporting]
        return f"licence {self.index}: " + ("; ".join(parts) or "no terms (everything, free)")


@dataclass(frozen=True)
class Content:
    """One ``<content>``: the URLs it covers and the licences offered for them (§3.3)."""

    url: str
    """The ``url`` attribute as written (a path pattern or a full URL)."""
    path: Optional[str]
    """The pattern matched against URL paths; ``None`` when :attr:`url` is on another
    origin than the document's site (the content is ignored)."""
    line: int
    licenses: tuple[License, ...]
    server: Optional[str] = None
    """An RSL licence server: a licence token is needed before access, even when free."""
    encrypted: bool = False
    lastmod: Optional[str] = None
    origin: Optional[str] = None
    """The origin of a full-URL :attr:`url` (``None`` for a path)."""

    def describe(self) -> str:
        """``content url="/articles/" (line 3)``."""
        server = f" server={self.server}" if self.server else ""
        return f'content url="{self.url}"{server} (line {self.line})'


class LicenseAnswer(NamedTuple):
    """What the licence documents say of one use at one URL."""

    name: str
    """The purpose as asked (``"train-ai"``)."""
    token: str
    """The RSL usage token it was read as (``"ai-train"``)."""
    status: LicenseStatus
    reason: str
    """One line: the deciding elements, or why nothing could be known."""
    source: Optional[str]
    """The URL of the licence document that decides (``None``: none does, or read from a
    file)."""
    licenses: tuple[License, ...] = ()
    """The licences that decide: those that prohibit, or those that grant (with their
    terms)."""

    @property
    def allowed(self) -> Optional[bool]:
        """``True`` permitted, ``False`` prohibited or only on terms, ``None`` unknown or
        unstated (see :meth:`LicenseTerms.allows`)."""
        return _ALLOWED[self.status]


_ALLOWED: dict[str, Optional[bool]] = {
    "permitted": True, "licensed": False, "prohibited": False, "unstated": None,
    "unknown": None,
}


@dataclass(frozen=True)
class LicenseDocument:
    """A parsed RSL document, or why there is none (:attr:`state`).

    Build one with :func:`parse_license` (octets you hold) or get it from
    :meth:`robotsrules.RobotsCache.license_for` (fetched and cached); ask it with
    :meth:`license_for`. Immutable and picklable.
    """

    url: Optional[str] = None
    """Where the document came from (``None``: a file or bytes)."""
    origin: Optional[str] = None
    """The site the document was found for (``scheme://host[:port]``): a ``<content url>``
    on another origin is ignored. ``None``: any origin (full-URL contents then match URLs
    of their own origin)."""
    state: LicenseState = "ok"
    error: Optional[str] = None
    """Why the document is not ``"ok"`` (the reading error or the fetch outcome)."""
    contents: tuple[Content, ...] = ()
    ignored: tuple[Content, ...] = ()
    """``<content>`` elements on another origin than :attr:`origin` (RSL: not this site's)."""
    max_age: int = 30
    """Days the document may be relied on (``<rsl max-age>``, §3.2; default 30).
    :meth:`robotsrules.RobotsCache.license_document` keeps a copy fresh for the fetch
    policy's lifetime (24 hours by default, ``Cache-Control`` honoured up to 7 days), but
    never longer than max-age, and relies on a last good copy (while the server is
    unreachable) only until it is max-age days old."""
    warnings: tuple[str, ...] = ()
    """What was read leniently (a root without namespace, comma-separated tokens...)."""
    status: Optional[int] = None
    """The HTTP status of the fetch, when fetched."""
    _patterns: tuple[Pattern, ...] = field(default=(), compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # The compiled patterns are not pickled: the compiled build's Pattern cannot be
        # rebuilt by pickle, and they follow from the contents.
        return (_unpickled, (self.url, self.origin, self.state, self.error, self.contents,
                             self.ignored, self.max_age, self.warnings, self.status))

    @property
    def valid(self) -> bool:
        """True when the document was read (``state == "ok"``)."""
        return self.state == "ok"

    def license_for(self, url: str, *, user: Optional[str] = None,
                    geo: Optional[str] = None) -> LicenseTerms:
        """The terms this document gives ``url``: an absolute URL (on another origin than
        :attr:`origin`, every answer is ``"unstated"``), or a path (of :attr:`origin`, when
        the document has one); ``user`` (``"commercial"``...) and ``geo`` (``"US"``...)
        say who asks and where, for the licences that restrict them."""
        return LicenseTerms(url, (self,), user=user, geo=geo)

    def _matching(self, url: str) -> tuple[tuple[int, Content], ...]:
        """The contents whose pattern matches ``url``, with the pattern's length."""
        try:
            site = origin_of(url) if _ABSOLUTE.match(url) else self.origin
            target = rfc_target(url)
        except InvalidURL:
            return ()
        if site is not None and self.origin is not None and site != self.origin:
            return ()  # the document speaks for its own site only
        target = _escaped(target)
        found = []
        for content, pattern in zip(self.contents, self._patterns):
            if content.origin is not None and (site is None or content.origin != site):
                continue
            if pattern.match(target):
                found.append((_specificity(pattern.text), content))
        return tuple(found)


def _escaped(text: str) -> str:
    """``text`` with the ASCII characters a URI cannot hold percent-encoded (:data:`_UNSAFE`)."""
    return _UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", text)


def _location(path: str) -> Pattern:
    """A ``<content url>`` path compiled for matching against :func:`_escaped` targets."""
    return rfc_location(_escaped(path))


def _specificity(text: str) -> int:
    """How specific a pattern is: its length in octets once written in its shortest
    equivalent form (``**`` is ``*``, and a final ``*`` matches what its absence does:
    ``/*`` is as specific as ``/``)."""
    text = re.sub(r"\*+", "*", text)
    return len(text if text.endswith("$") else text.rstrip("*"))


def _unpickled(url: Optional[str], origin: Optional[str], state: LicenseState,
               error: Optional[str], contents: tuple[Content, ...],
               ignored: tuple[Content, ...], max_age: int, warnings: tuple[str, ...],
               status: Optional[int]) -> LicenseDocument:
    return LicenseDocument(url=url, origin=origin, state=state, error=error,
                           contents=contents, ignored=ignored, max_age=max_age,
                           warnings=warnings, status=status,
                           _patterns=tuple(_location(c.path or "") for c in contents))


@dataclass(frozen=True)
class LicenseTerms:
    """What one or several licence documents say of a URL: ask :meth:`allows`,
    :meth:`status` or :meth:`answer` per purpose.

    ``documents`` empty means no ``License`` line applies: every answer is ``"unstated"``.
    A ``url`` that is neither an absolute URL nor a path (``"private"``) raises
    :class:`~robotsrules.InvalidURL`, as :meth:`robotsrules.RobotsTxt.allowed` does.
    ``user`` and ``geo`` are checked and put in their canonical case (:func:`user_class`,
    :func:`geo_code`); an unknown class or region raises
    :class:`~robotsrules.InvalidArgument`, and so does a path (``/a``) asked of a document
    whose ``<content url>`` values are full URLs while its site is not known (give
    ``origin=`` to :func:`parse_license`): such a path could never be matched, and
    "unstated" would hide what the document says.
    """

    url: str
    documents: tuple[LicenseDocument, ...]
    user: Optional[str] = None
    geo: Optional[str] = None

    def __post_init__(self) -> None:
        rfc_target(self.url)  # InvalidURL for what is neither a URL nor a path, as allowed()
        if self.user is not None:
            object.__setattr__(self, "user", user_class(self.user))
        if self.geo is not None:
            object.__setattr__(self, "geo", geo_code(self.geo))
        problem = unmatchable(self.url, self.documents)
        if problem is not None:
            from .errors import InvalidArgument

            raise InvalidArgument(problem)

    def answer(self, name: str) -> LicenseAnswer:
        """The answer for ``name`` (an RSL usage token or a library purpose)."""
        token = usage_token(name)
        if not self.documents:
            return LicenseAnswer(name, token, "unstated", "no License line applies", None)
        answers = [_document_answer(d, self.url, name, token, self.user, self.geo)
                   for d in self.documents]
        return min(answers, key=lambda a: _RANK[a.status])

    def status(self, name: str) -> LicenseStatus:
        """``"permitted"``, ``"licensed"``, ``"prohibited"``, ``"unstated"`` or
        ``"unknown"`` for ``name``."""
        return self.answer(name).status

    def allows(self, name: str) -> Optional[bool]:
        """``True`` when the use is permitted with nothing to meet; ``False`` when it is
        prohibited, or offered only on terms (a payment, attribution, a licence server,
        reporting, a user class or region not given); ``None`` when nothing is stated or
        the document could not be fetched or read.

        >>> doc = parse_license(b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
        ...     b'<license><prohibits type="usage">ai-train</prohibits></license>'
        ...     b'</content></rsl>')
        >>> terms = doc.license_for("/page")
        >>> terms.allows("ai-train"), terms.allows("search")
        (False, True)
        """
        return self.answer(name).allowed


def unmatchable(url: str, documents: tuple[LicenseDocument, ...]) -> Optional[str]:
    """Why the path ``url`` cannot be matched against ``documents`` (one line), or
    ``None``: a document without a site (:attr:`LicenseDocument.origin`) whose contents
    name full URLs cannot say whether a path is theirs."""
    if _ABSOLUTE.match(url):
        return None
    for document in documents:
        if document.origin is not None or document.state != "ok":
            continue
        full = next((c for c in document.contents if c.origin is not None), None)
        if full is not None:
            return (f"{url}: a path cannot be matched against <content url=\"{full.url}\"> "
                    "(a full URL) without the site it is on: give the site's origin "
                    "(--origin https://example.com/, or origin= to parse_license) or a "
                    "full URL")
    return None


def _document_answer(document: LicenseDocument, url: str, name: str, token: str,
                     user: Optional[str], geo: Optional[str]) -> LicenseAnswer:
    source = document.url
    if document.state != "ok":
        return LicenseAnswer(name, token, "unknown",
                             f"licence document {document.state}: {document.error}", source)
    matching = document._matching(url)
    if not matching:
        return LicenseAnswer(name, token, "unstated",
                             "no <content url> of the licence document matches", source)
    longest = max(length for length, _ in matching)
    deciding = [content for length, content in matching if length == longest]
    answers = [_content_answer(content, name, token, user, geo, source) for content in deciding]
    return min(answers, key=lambda a: _RANK[a.status])


def _content_answer(content: Content, name: str, token: str, user: Optional[str],
                    geo: Optional[str], source: Optional[str]) -> LicenseAnswer:
    prohibiting: list[tuple[License, str]] = []
    free: list[tuple[License, str]] = []
    on_terms: list[tuple[License, list[str]]] = []
    refused: list[tuple[License, str]] = []
    for license in content.licenses:
        verdict, why = _usage_verdict(license, token)
        if verdict == "prohibited":
            prohibiting.append((license, why))
            continue
        if verdict == "not-granted":
            refused.append((license, why))
            continue
        conditions = _conditions(content, license, user, geo)
        if conditions is None:
            refused.append((license, f"not for user {user!r} / region {geo!r}"))
        elif conditions:
            on_terms.append((license, conditions))
        else:
            free.append((license, why))
    where = content.describe()
    if prohibiting:
        text = "; ".join(f"licence {lic.index} {why}" for lic, why in prohibiting)
        return LicenseAnswer(name, token, "prohibited", f"{where}: {text}", source,
                             tuple(lic for lic, _ in prohibiting))
    if free:
        license, why = free[0]
        return LicenseAnswer(name, token, "permitted",
                             f"{where}: licence {license.index} {why}, nothing asked", source,
                             tuple(lic for lic, _ in free))
    if on_terms:
        text = "; ".join(f"licence {lic.index} on terms: {', '.join(terms)}"
                         for lic, terms in on_terms)
        return LicenseAnswer(name, token, "licensed", f"{where}: {text}", source,
                             tuple(lic for lic, _ in on_terms))
    text = "; ".join(f"licence {lic.index} {why}" for lic, why in refused) or "no licence"
    return LicenseAnswer(name, token, "prohibited", f"{where}: not licensed ({text})", source,
                         tuple(lic for lic, _ in refused))


def _usage_verdict(license: License, token: str) -> tuple[str, str]:
    """``("prohibited" | "not-granted" | "granted", why)`` for a usage token."""
    asked = _covered(token)
    prohibited = license.listed("prohibits", "usage") or ()
    for listed in prohibited:
        if listed in _usage() and (token in _covered(listed) or listed in asked):
            return "prohibited", f"prohibits usage {listed}"
    permitted = license.listed("permits", "usage")
    if permitted is None:
        return "granted", "no usage restriction"
    for listed in permitted:
        if listed in _usage() and token in _covered(listed):
            return "granted", f"permits usage {listed}"
    return "not-granted", f"permits usage {' '.join(permitted) or '(nothing)'} only"


def _conditions(content: Content, license: License, user: Optional[str],
                geo: Optional[str]) -> Optional[list[str]]:
    """What a granting licence asks: ``[]`` nothing, ``None`` it excludes the caller."""
    found: list[str] = []
    for kind, value in (("user", user), ("geo", geo)):
        allowed = license.listed("permits", kind)
        refused = license.listed("prohibits", kind)
        if allowed is None and refused is None:
            continue
        if value is None:
            text = f"{kind} {' '.join(allowed)}" if allowed is not None else ""
            if refused is not None:
                text += f"{', ' if text else ''}not {kind} {' '.join(refused)}"
            found.append(text)
        else:
            # a region stands for each of its member states (data/rsl.json "geo"), on
            # both sides: the caller is excluded by any overlap with a prohibited place,
            # and admitted only if every place it may be in is permitted (restrictive)
            asked = _places(value) if kind == "geo" else frozenset((value,))
            places = _places if kind == "geo" else (lambda code: frozenset((code,)))
            if refused is not None and asked & frozenset().union(*map(places, refused)):
                return None
            if allowed is not None and not asked <= frozenset().union(*map(places,
                                                                          allowed)):
                return None
    payment = license.payment
    if payment is not None and not payment.free:
        found.append(payment.describe())
    if content.server:
        found.append(f"a licence token from {content.server}")
    if content.encrypted:
        found.append("encrypted content (a key from the licence server)")
    found += [f"reporting {r.type} ({r.profile})" for r in license.reporting]
    return found


# -- reading ----------------------------------------------------------------------------------

class _Node:
    __slots__ = ("attrib", "children", "line", "ns", "parent", "tag", "text")

    def __init__(self, tag: str, attrib: dict[str, str], line: int,
                 parent: Optional[_Node], ns: Optional[dict[str, str]]) -> None:
        self.tag = tag
        self.attrib = attrib
        self.line = line
        self.parent = parent
        self.ns = ns
        """The namespace prefixes this element declares (prefix to URI), or ``None``."""
        self.children: list[_Node] = []
        self.text: list[str] = []


def _prefix(node: _Node, prefix: str) -> Optional[str]:
    """The namespace ``prefix`` is bound to at ``node`` (``None``: unbound); the walk up is
    at most :data:`MAX_DEPTH` elements."""
    here: Optional[_Node] = node
    while here is not None:
        if here.ns is not None and prefix in here.ns:
            return here.ns[prefix] or None
        here = here.parent
    return _XML_NAMESPACE if prefix == "xml" else None


class _Refused(Exception):
    """A document this reader will not read (too deep, too many elements)."""


class _Builder:
    """The parser's target: a bounded tree of :class:`_Node` (depth and count limits)."""

    def __init__(self) -> None:
        self.stack: list[_Node] = []
        self.root: Optional[_Node] = None
        self.count = 0
        self.line: Callable[[], int] = lambda: 0
        self.declared: list[tuple[str, str]] = []

    def start_ns(self, prefix: str, uri: str) -> None:
        self.declared.append((prefix or "", uri or ""))

    def end_ns(self, prefix: str) -> None:
        pass

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise _Refused(f"more than {MAX_ELEMENTS:,} elements")
        if len(self.stack) >= MAX_DEPTH:
            raise _Refused(f"elements nested deeper than {MAX_DEPTH} levels")
        declared = dict(self.declared) if self.declared else None
        self.declared = []
        node = _Node(tag, dict(attrib), self.line(), self.stack[-1] if self.stack else None,
                     declared)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text.append(text)

    def close(self) -> Optional[_Node]:
        return self.root


class _Invalid(Exception):
    """The document is not a valid RSL 1.0 document; the message says why."""


def _tree(data: bytes) -> _Node:
    try:
        from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
        from defusedxml.ElementTree import DefusedXMLParser, ParseError
    except ImportError as exc:
        from .errors import MissingExtra

        raise MissingExtra("RSL licence documents", "rsl", "defusedxml") from exc
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=True, forbid_entities=True,
                              forbid_external=True)
    builder.line = lambda: int(parser.parser.CurrentLineNumber)
    try:
        parser.feed(data)
        root = parser.close()
    except DTDForbidden as error:
        raise _Invalid(f"a document type declaration (<!DOCTYPE {error.name}>) is refused: "
                       "RSL needs none, and a DTD can hold entity bombs") from None
    except EntitiesForbidden as error:
        raise _Invalid(f"an entity declaration ({error.name}) is refused") from None
    except ExternalReferenceForbidden:
        raise _Invalid("an external entity reference is refused (nothing is fetched)"
                       ) from None
    except _Refused as error:
        raise _Invalid(f"refused: {error}") from None
    except ParseError as error:
        raise _Invalid(f"not well-formed XML: {error}") from None
    except (ValueError, RecursionError, MemoryError) as error:  # nothing may raise
        raise _Invalid(f"cannot be read: {type(error).__name__}: {error}") from None
    if root is None:
        raise _Invalid("empty document")
    assert isinstance(root, _Node)
    return root


def _split(tag: str) -> tuple[Optional[str], str]:
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return None, tag


class _Reader:
    """Reads the tree into records; ``namespace`` is what counts as RSL (None: no
    namespace, the lenient reading of a root without one)."""

    def __init__(self, namespace: Optional[str], origin: Optional[str]) -> None:
        self.namespace = namespace
        self.origin = origin
        self.warnings: list[str] = []
        self.commas = False

    def rsl(self, node: _Node) -> list[_Node]:
        """The RSL children of ``node``; an unknown RSL element refuses the document."""
        found = []
        for child in node.children:
            namespace, local = _split(child.tag)
            if namespace != self.namespace:
                if local in _ELEMENTS:
                    # An element that spells an RSL name in no namespace or another one
                    # (a prefixed root with an unprefixed or xmlns="" child): skipping it
                    # as an extension could drop a prohibition, and reading it as RSL
                    # would guess what its author meant: the document is refused.
                    where = f"namespace {namespace}" if namespace else "no namespace"
                    raise _Invalid(
                        f"line {child.line}: <{local}> in {where}, inside RSL elements of "
                        f"{'namespace ' + self.namespace if self.namespace else 'no namespace'}"
                        ": an RSL element name outside the RSL namespace is neither RSL nor "
                        "an extension (§3); refused rather than skipped")
                self.extension(child)
                continue  # an extension (§3): skipped
            if local not in _ELEMENTS:
                raise _Invalid(f"line {child.line}: <{local}> is not an RSL 1.0 element "
                               "(an unknown element of the RSL namespace makes the document "
                               "non-conformant, §3)")
            found.append(child)
        return found

    def check(self, root: _Node) -> None:
        """Refuse the document when an RSL element stands where RSL 1.0's element table does
        not place it (a ``<prohibits>`` in a ``<content>``, a ``<payment>`` in a
        ``<permits>``, a ``<license>`` in a ``<terms>``), when anything is nested in a
        token list or a price, or when an attribute could be misread (see
        :data:`_ATTRIBUTES`): reading around any of them could drop a prohibition or a
        price. Extension elements (§3) are checked by :meth:`extension`."""
        todo = [root]
        while todo:
            node = todo.pop()
            local = _split(node.tag)[1]
            self.attributes(node, local)
            allowed = _CHILDREN.get(local)
            for child in node.children:
                namespace, name = _split(child.tag)
                if allowed is None:  # a leaf: values only
                    self.leaf(node, local, child)
                    continue
                if namespace == self.namespace:
                    if name not in _ELEMENTS:
                        raise _Invalid(f"line {child.line}: <{name}> is not an RSL 1.0 "
                                       "element (an unknown element of the RSL namespace "
                                       "makes the document non-conformant, §3)")
                    if name not in allowed:
                        raise _Invalid(f"line {child.line}: <{name}> does not belong in "
                                       f"<{local}> (RSL 1.0 §3 places it elsewhere); refused "
                                       "rather than skipped")
                    todo.append(child)
                elif name.lower() in _ELEMENTS and name not in _ELEMENTS:
                    raise _Invalid(f"line {child.line}: <{name}> differs from the RSL "
                                   f"element <{name.lower()}> only in case: refused rather "
                                   "than skipped as an extension")

    def leaf(self, node: _Node, local: str, child: _Node) -> None:
        """``child`` stands in the leaf ``node``: refused if ``node`` holds values (a token
        list, a price), or if ``child`` or anything in it is or spells an RSL element."""
        if local in _TEXT_ONLY:
            raise _Invalid(f"line {child.line}: an element (<{_split(child.tag)[1]}>) inside "
                           f"<{local}>, which holds text only (§3): refused, its text "
                           "cannot be told")
        todo = [child]
        while todo:
            here = todo.pop()
            namespace, name = _split(here.tag)
            if (namespace == self.namespace) or name.lower() in _ELEMENTS:
                raise _Invalid(f"line {here.line}: <{name}> inside <{local}>, which holds no "
                               "RSL element (§3): refused rather than skipped")
            todo.extend(here.children)

    def attributes(self, node: _Node, local: str) -> None:
        """Refuse an attribute of an RSL element that could be misread (:data:`_ATTRIBUTES`)."""
        known = _ATTRIBUTES.get(local, frozenset())
        for key in node.attrib:
            namespace, name = _split(key)
            if namespace is None:
                if name in known:
                    continue
                if name != name.lower() and name.lower() in _KNOWN_ATTRIBUTES:
                    raise _Invalid(f"line {node.line}: <{local} {name}=...>: attribute names "
                                   f"are case-sensitive (RSL 1.0 writes {name.lower()!r}); "
                                   "refused rather than ignored")
                if local in _STRICT:
                    raise _Invalid(f"line {node.line}: <{local} {name}=...>: not an attribute "
                                   f"of <{local}> in RSL 1.0 (§3; expected: "
                                   f"{', '.join(sorted(known)) or 'none'}); refused rather "
                                   "than ignored")
            elif namespace == NAMESPACE or (namespace != _XML_NAMESPACE
                                            and name.lower() in _KNOWN_ATTRIBUTES):
                raise _Invalid(f"line {node.line}: <{local}> has the attribute {name!r} in "
                               f"namespace {namespace}: RSL attributes have no namespace "
                               "(§3); refused rather than ignored")

    def extension(self, node: _Node) -> None:
        """An extension element is skipped whole, unless it holds RSL elements: an RSL
        ``<prohibits>`` wrapped in an extension would be dropped with it."""
        todo = list(node.children)
        while todo:
            child = todo.pop()
            namespace, local = _split(child.tag)
            if namespace == self.namespace and self.namespace is not None:
                raise _Invalid(f"line {child.line}: <{local}> of the RSL namespace inside an "
                               "extension element: refused rather than skipped with it (§3)")
            if namespace is None and local.lower() in _ELEMENTS:
                raise _Invalid(f"line {child.line}: <{local}> in no namespace inside an "
                               "extension element spells an RSL element: refused rather than "
                               "skipped with it (§3)")
            todo.extend(child.children)

    def tokens(self, node: _Node, kind: str) -> tuple[str, ...]:
        text = "".join(node.text).strip(_SPACE)
        if "," in text:
            self.commas = True
        tokens = tuple(t for t in _SPLIT.split(text) if t)
        if kind == "user":
            return tuple(self.listed(node, token, _user_token(token), "a user class",
                                     f"§{rsl_data()['user']['section']}: "
                                     + ", ".join(rsl_data()["user"]["tokens"]))
                         for token in tokens)
        if kind == "geo":
            return tuple(self.listed(node, token, _geo_token(token), "a region",
                                     f"§{rsl_data()['geo']['section']}: ISO 3166-1 alpha-2 "
                                     "country codes, or " + ", ".join(sorted(_regions())))
                         for token in tokens)
        read: list[str] = []
        aliases: Mapping[str, Any] = rsl_data()["aliases"]
        for token in tokens:
            alias = aliases.get(token)
            if alias is not None:  # Leniency: see data/rsl.json "aliases"
                self.warnings.append(f"line {node.line}: usage {token!r} is read as "
                                     f"{alias['token']!r} (RSL 1.0 §3.4.1.1 writes it so)")
                token = alias["token"]
            elif token not in _usage():
                token = self.qualified(node, token)
            read.append(token)
        return tuple(read)

    def qualified(self, node: _Node, token: str) -> str:
        """A usage token outside RSL 1.0's list: ``prefix:name`` with the prefix bound in
        the document. A prefix bound to the RSL namespace names an RSL token (read as it);
        one bound to another namespace an extension (kept whole); anything else, or an
        unbound prefix, refuses the document."""
        match = _QNAME.fullmatch(token)
        if match is None:
            raise _Invalid(
                f"line {node.line}: {token!r} is not an RSL 1.0 usage token "
                f"(§3.4.1.1: {', '.join(USAGE_TOKENS)}; extensions are prefix:name)")
        bound = _prefix(node, match.group(1))
        if bound is None:
            raise _Invalid(f"line {node.line}: {token!r}: the prefix {match.group(1)!r} is "
                           "bound to no namespace here, so what the token means cannot be "
                           "told")
        if bound == NAMESPACE:
            name = match.group(2)
            if name not in _usage():
                raise _Invalid(f"line {node.line}: {token!r} is not an RSL 1.0 usage token "
                               f"(§3.4.1.1: {', '.join(USAGE_TOKENS)})")
            return name
        return token

    def listed(self, node: _Node, token: str, read: Optional[str], what: str,
               expected: str) -> str:
        """``read`` (the token in its canonical case), or the document is refused: a
        ``<prohibits>`` token this reader does not know could hide a prohibition."""
        if read is None:
            raise _Invalid(f"line {node.line}: {token!r} is not {what} of RSL 1.0 "
                           f"({expected})")
        return read

    def license(self, node: _Node, index: int) -> License:
        permits: list[tuple[str, tuple[str, ...]]] = []
        prohibits: list[tuple[str, tuple[str, ...]]] = []
        payment: Optional[Payment] = None
        reporting: list[Reporting] = []
        legal: list[tuple[str, str]] = []
        for child in self.rsl(node):
            local = _split(child.tag)[1]
            if local in ("permits", "prohibits"):
                kind = child.attrib.get("type", "usage").strip(_SPACE)
                if kind not in _LIST_TYPES:
                    raise _Invalid(f"line {child.line}: <{local} type={kind!r}>: the type is "
                                   "usage, user or geo (§3.5)")
                bucket = permits if local == "permits" else prohibits
                if any(name == kind for name, _ in bucket):
                    raise _Invalid(f"line {child.line}: a second <{local} type=\"{kind}\"> in "
                                   "one licence (at most one per type, §3.5)")
                bucket.append((kind, self.tokens(child, kind)))
            elif local == "payment":
                if payment is not None:
                    # Reading only one (the last won before) would make the answer
                    # depend on their order: "crawl 1 USD" then "free" read permitted.
                    raise _Invalid(f"line {child.line}: a second <payment> in one licence "
                                   "(which one applies cannot be told; each offer is a "
                                   "<license> of its own, §3.4)")
                payment = self.payment(child)
            elif local == "reporting":
                reporting.append(Reporting(child.attrib.get("type", ""),
                                           child.attrib.get("profile", ""),
                                           child.attrib.get("endpoint")))
            elif local == "legal":
                legal.append((child.attrib.get("type", ""), "".join(child.text).strip(_SPACE)))
            else:
                raise _Invalid(f"line {child.line}: <{local}> does not belong in <license>")
        return License(index, node.line, tuple(permits), tuple(prohibits), payment,
                       tuple(reporting), tuple(legal))

    def payment(self, node: _Node) -> Payment:
        kind = node.attrib.get("type")
        if kind is not None:
            kind = kind.strip(_SPACE)
            if _free_payment(kind) is None:
                self.warnings.append(f"line {node.line}: payment type {kind!r} is not one of "
                                     "RSL 1.0's (§3.7): read as a payment asked")
        values: dict[str, str] = {}
        amount: Optional[Amount] = None
        for child in self.rsl(node):
            local = _split(child.tag)[1]
            text = "".join(child.text).strip(_SPACE)
            if local == "amount":
                amount = Amount(text, child.attrib.get("currency", "").strip(_SPACE))
            elif local in ("standard", "custom", "accepts"):
                values[local] = (child.attrib.get("type", "").strip(_SPACE)
                                 if local == "accepts" else text)
            else:
                raise _Invalid(f"line {child.line}: <{local}> does not belong in <payment>")
        if kind == "free" and amount is not None:
            raise _Invalid(f"line {node.line}: <payment type=\"free\"> with an <amount> "
                           f"({amount.value} {amount.currency}): free or priced cannot be "
                           "told (§3.7)")
        return Payment(kind, amount, values.get("standard"), values.get("custom"),
                       values.get("accepts"))

    def content(self, node: _Node) -> Content:
        url = node.attrib.get("url")
        if url is None:
            raise _Invalid(f"line {node.line}: <content> has no url attribute (§3.3)")
        url = url.strip(_SPACE)
        licenses: list[License] = []
        for child in self.rsl(node):
            if _split(child.tag)[1] == "license":
                licenses.append(self.license(child, len(licenses) + 1))
        if not licenses:
            raise _Invalid(f"line {node.line}: <content url=\"{url}\"> has no <license> (§3.3)")
        path: Optional[str] = url
        origin: Optional[str] = None
        if _ABSOLUTE.match(url):
            try:
                origin = origin_of(url)
                parts = urlsplit(url)
            except (InvalidURL, ValueError):
                raise _Invalid(f"line {node.line}: <content url=\"{url}\"> is neither a path "
                               "nor a URL") from None
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            if self.origin is not None and origin != self.origin:
                path = None
        elif url and not url.startswith(("/", "*")):
            raise _Invalid(f"line {node.line}: <content url=\"{url}\"> is neither a path "
                           "(/...) nor a full URL (§3.3)")
        encrypted = node.attrib.get("encrypted", "false").strip(_SPACE)
        server = node.attrib.get("server")
        if server is not None and not server.strip(_SPACE):
            raise _Invalid(f"line {node.line}: <content server=\"{server}\">: an empty "
                           "licence server (§3.3 names a server's URL; whether a licence "
                           "token is needed cannot be told)")
        return Content(url, path, node.line, tuple(licenses), server,
                       encrypted != "false", node.attrib.get("lastmod"), origin)


def parse_license(content: Union[bytes, str], *, url: Optional[str] = None,
                  origin: Optional[str] = None, max_bytes: int = MAX_DOCUMENT_BYTES
                  ) -> LicenseDocument:
    """Read an RSL 1.0 document. Never raises for content: a document that cannot be read
    is ``state="invalid"`` with the reason in ``error``.

    ``url`` is where it came from; ``origin`` the site it was found for (its
    ``<content url>`` on other origins are ignored; default: ``url``'s origin is not
    assumed, any origin is read). A document longer than ``max_bytes`` is refused whole.
    Needs ``defusedxml`` (``pip install 'robotsrules[rsl]'``).

    >>> doc = parse_license(b'<rsl xmlns="https://rslstandard.org/rsl">'
    ...     b'<content url="/"><license><permits type="usage">search</permits></license>'
    ...     b'</content></rsl>')
    >>> doc.license_for("/news/1").status("ai-train")
    'prohibited'
    """
    # a lone surrogate is kept as its octets, which the XML parser refuses (not well-formed)
    data = (content.encode("utf-8", "surrogatepass") if isinstance(content, str)
            else bytes(content))
    if origin is not None:
        origin = origin_of(origin)
    base = LicenseDocument(url=url, origin=origin)
    if len(data) > max_bytes:
        return _invalid(base, f"larger than {max_bytes:,} bytes: refused, not cut (a cut "
                              "could drop a prohibition)")
    try:
        root = _tree(data)
        namespace, local = _split(root.tag)
        if local != "rsl" or namespace not in (NAMESPACE, None):
            what = f"<{local}> in namespace {namespace}" if namespace else f"<{local}>"
            raise _Invalid(f"the root element is {what}, not <rsl xmlns=\"{NAMESPACE}\"> "
                           "(§2.2)")
        reader = _Reader(namespace, origin)
        reader.check(root)
        if namespace is None:
            reader.warnings.append(f"the <rsl> root has no namespace (RSL 1.0 §2.2 asks for "
                                   f"xmlns=\"{NAMESPACE}\"): read leniently")
        contents: list[Content] = []
        for child in reader.rsl(root):
            local = _split(child.tag)[1]
            if local != "content":
                raise _Invalid(f"line {child.line}: <{local}> does not belong in <rsl>")
            contents.append(reader.content(child))
            if len(contents) > MAX_CONTENTS:
                raise _Invalid(f"more than {MAX_CONTENTS:,} <content> elements")
        if not contents:
            raise _Invalid("no <content> element (§3.1)")
        max_age = _max_age(root.attrib.get("max-age"), reader)
    except _Invalid as error:
        return _invalid(base, str(error))
    if reader.commas:
        reader.warnings.append("tokens separated by commas (RSL 0.9); RSL 1.0 lists are "
                               "separated by spaces")
    kept = tuple(c for c in contents if c.path is not None)
    return LicenseDocument(
        url=url, origin=origin, contents=kept,
        ignored=tuple(c for c in contents if c.path is None), max_age=max_age,
        warnings=tuple(reader.warnings),
        _patterns=tuple(_location(c.path or "") for c in kept))


def _max_age(value: Optional[str], reader: _Reader) -> int:
    if value is None:
        return 30
    text = value.strip(_SPACE)
    if text.isdigit() and text.isascii() and 0 < int(text) < 100_000:
        return int(text)
    reader.warnings.append(f"max-age {value!r} is not a positive number of days (§3.2): "
                           "30 days assumed")
    return 30


def _invalid(base: LicenseDocument, error: str) -> LicenseDocument:
    return LicenseDocument(url=base.url, origin=base.origin, state="invalid", error=error)


class DocumentCache:
    """Parsed licence documents keyed by their octets: for functions that receive the XML on
    every row (SQL functions after a join). A bounded LRU, one per worker thread."""

    def __init__(self, size: int = 1024) -> None:
        from ._lru import LRU

        self._cache: LRU[bytes, LicenseDocument] = LRU(size)

    def get(self, xml: Union[bytes, str]) -> LicenseDocument:
        """The document of ``xml``, parsed once while cached."""
        data = (xml.encode("utf-8", "surrogatepass") if isinstance(xml, str)
                else bytes(xml))
        document = self._cache.get(data)
        if document is None:
            document = parse_license(data)
            self._cache.put(data, document)
        return document

    def statuses(self, xmls: list[Any], urls: list[Any], purposes: list[Any]
                 ) -> list[Optional[str]]:
        """The status per row of three equally long columns (``None`` where a value is
        ``None``, or the URL is one the core rejects); an unknown purpose raises
        :class:`~robotsrules.InvalidPurpose` (the query's mistake)."""
        out: list[Optional[str]] = []
        for xml, url, purpose in zip(xmls, urls, purposes):
            if xml is None or url is None or purpose is None:
                out.append(None)
                continue
            usage_token(purpose)
            try:
                rfc_target(url)
            except InvalidURL:
                out.append(None)
                continue
            document = self.get(xml)
            if unmatchable(url, (document,)) is not None:
                out.append(None)  # a path against full-URL contents: not answerable
                continue
            out.append(document.license_for(url).status(purpose))
        return out


LICENSE_KEY = "rsl:"
"""Cache keys of licence documents are this prefix and the document's URL (robots.txt
entries are keyed by origin, TDMRep's by its file's URL)."""


def license_url_problem(url: str) -> Optional[str]:
    """Why ``url`` (a ``License`` value) cannot be fetched, or ``None``: RSL 1.0 §4.4 asks
    for an absolute URI, and licence documents are served over HTTP(S) (§8)."""
    if not re.match(r"(?i)https?://[^/?#\s]", url):
        return "not an absolute http(s) URL (RSL 1.0 §4.4)"
    if "@" in re.split(r"[/?#]", url.split("://", 1)[1], maxsplit=1)[0]:
        return ("carries credentials (user:password@): refused, so that they are never "
                "sent to the licence server")
    try:
        origin_of(url)
    except InvalidURL as error:
        return str(error)
    return None


def without_credentials(url: str) -> str:
    """``url`` with a ``user:password@`` part shown as ``***@`` (never echoed)."""
    scheme, sep, rest = url.partition("://")
    authority = re.split(r"([/?#])", rest, maxsplit=1)
    if not sep or "@" not in authority[0]:
        return url
    return scheme + sep + "***@" + authority[0].rpartition("@")[2] + "".join(authority[1:])


def unread(url: str, origin: Optional[str], problem: str) -> LicenseDocument:
    """The document a ``License`` value that cannot be fetched stands for: ``invalid``."""
    return LicenseDocument(url=without_credentials(url), origin=origin and origin_of(origin),
                           state="invalid", error=problem)


def robots_unknown(served: Served, site: str) -> Optional[LicenseDocument]:
    """The document standing for a robots.txt whose ``License`` lines cannot be known, or
    ``None``: when robots.txt is unreachable with no earlier good copy (a 5xx, 429 or
    network error; or so for 30 days), whether it names a licence cannot be told, so the
    answers are ``"unknown"`` (``state="unreachable"``), never "unstated"."""
    if served.reason not in ("unreachable", "30-days"):
        return None
    result = served.result
    why = result.error or result.outcome
    return LicenseDocument(url=f"{site}/robots.txt", origin=site, state="unreachable",
                           error=f"robots.txt is unreachable ({why}) with no earlier copy: "
                                 "whether it names a licence document cannot be told",
                           status=result.status)


def too_old(document: LicenseDocument, age: float) -> LicenseDocument:
    """``document`` (a last good copy, ``age`` seconds old) past its ``max-age``: not relied
    on, ``"unreachable"`` (RSL 1.0 §3.2; its answers are unknown)."""
    return LicenseDocument(
        url=document.url, origin=document.origin, state="unreachable",
        error=f"the server is unreachable and the last good copy is {age / 86400:.1f} days "
              f"old, past the document's max-age of {document.max_age} days (§3.2)",
        status=document.status)


def license_from(served: Served, url: str, *, origin: Optional[str] = None,
                 max_bytes: int = MAX_DOCUMENT_BYTES) -> LicenseDocument:
    """What a cache serves for a licence document's fetch, as a :class:`LicenseDocument`.

    An ``ok`` fetch (or the last good copy while the server is unreachable, with a
    warning) is read; a body cut at the size limit is ``invalid``; every other outcome is
    ``"unavailable"`` (4xx, bad redirects, the 30-day rule) or ``"unreachable"`` (5xx, 429,
    network errors), with the fetch's error.
    """
    result = served.result
    synthetic = served.synthetic
    if synthetic is not None:
        state: LicenseState = "unreachable" if synthetic == "disallow-all" else "unavailable"
        if served.reason == "30-days":
            state = "unreachable"
        return LicenseDocument(url=url, origin=origin and origin_of(origin), state=state,
                               error=result.error or result.outcome, status=result.status)
    good = served.body
    truncated = served.cut or (served.reason != "last-good-copy" and result.truncated)
    if truncated:
        return LicenseDocument(url=url, origin=origin and origin_of(origin), state="invalid",
                               error=f"larger than {max_bytes:,} bytes: refused, not cut",
                               status=result.status)
    document = parse_license(good, url=url, origin=origin, max_bytes=max_bytes)
    extra: tuple[str, ...] = ()
    if served.reason == "last-good-copy":
        extra = (f"the server is unreachable now ({result.error}): the last good copy is "
                 "read",)
    return LicenseDocument(
        url=document.url, origin=document.origin, state=document.state, error=document.error,
        contents=document.contents, ignored=document.ignored, max_age=document.max_age,
        warnings=document.warnings + extra, status=result.status,
        _patterns=document._patterns)


def _looks_like_xml(data: bytes) -> bool:
    """True when ``data`` starts like an XML document: a UTF-16 byte order mark, or ``<``
    after a UTF-8 one and any XML white space (XML 1.0 Fifth Edition, 2008-11-26, §2.3
    ``S``), read as single octets or as UTF-16 code units without a mark (their NUL
    halves skipped: ``\x00<`` and ``<\x00``). ``data`` is bounded by the read (the
    licence size limit plus one octet), so the skip is too."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.lstrip(b" \t\r\n\x00").startswith(b"<")


class LicenseSource:
    """What ``robotsrules license`` (and the service's ``/v1/license``) reads, once: a
    licence document, or a robots.txt whose ``License`` lines are followed for each agent
    (a ``License`` line is global, RSL 1.0 §4.4). ``cache`` is a
    :class:`robotsrules.RobotsCache` (its fetch policy, bounds and client: the service's
    goes through the address guard); ``site`` the origin the documents are for; ``vet``
    says why a URL's host may not be reached (or ``None``), asked before the cache is read
    for it: a copy another process stored must not answer for a refused address."""

    def __init__(self, cache: Any, site: Optional[str],
                 vet: Optional[Callable[[str], Optional[str]]] = None) -> None:
        self.cache, self.site, self.vet = cache, site, vet
        self.document: Optional[LicenseDocument] = None
        self.robots: Optional[Any] = None
        self.blind: Optional[LicenseDocument] = None
        """A robots.txt unreachable with no earlier copy: its License lines are unknown."""
        self.where = ""

    @classmethod
    def fetched(cls, cache: Any, url: str, site: Optional[str],
                vet: Optional[Callable[[str], Optional[str]]] = None) -> LicenseSource:
        """``url``: a licence document's, a robots.txt's, or a site's (``https://x/``: its
        robots.txt, whose front page is no licence document)."""
        source = cls(cache, site, vet)
        try:
            path = url.split("://", 1)[1].partition("/")[2].split("?", 1)[0]
        except IndexError:
            path = ""
        if "?" not in url and "#" not in url and path == "":
            url, path = origin_of(url) + "/robots.txt", "robots.txt"
        if path == "robots.txt":
            source.site = origin_of(url)
            source.blind = source.refused(url)
            if source.blind is not None:
                source.where = f"robots.txt {url} (refused)"
                return source
            served = cache.lookup(url)
            source.robots = served.robots
            source.blind = robots_unknown(served, source.site)
            source.where = f"robots.txt {url} ({served.result.outcome})"
        else:
            source.document = source.licence(url)
            source.where = f"licence {url}"
        return source

    @classmethod
    def read(cls, cache: Any, data: bytes, name: str, site: Optional[str],
             vet: Optional[Callable[[str], Optional[str]]] = None) -> LicenseSource:
        """``data`` (at most a licence's size limit plus one octet: a longer document is
        refused, not cut): a licence document when it starts as XML, else a robots.txt."""
        from .robotstxt import parse

        source = cls(cache, site, vet)
        if _looks_like_xml(data):
            source.document = parse_license(data, origin=site)
            source.where = f"licence {name}"
        else:
            source.robots = parse(data)  # past 500 KiB: cut there, as a crawler does
            source.where = f"robots.txt {name}"
        return source

    def refused(self, url: str) -> Optional[LicenseDocument]:
        """The ``"unreachable"`` document standing for ``url`` when :attr:`vet` refuses
        its host (its answers unknown), or ``None``."""
        why = None if self.vet is None else self.vet(url)
        return None if why is None else self.unreachable(url, why)

    def unreachable(self, url: str, why: str) -> LicenseDocument:
        """The ``"unreachable"`` document standing for ``url`` (its answers unknown)."""
        return LicenseDocument(url=without_credentials(url),
                               origin=self.site and origin_of(self.site),
                               state="unreachable", error=why)

    def licence(self, url: str) -> LicenseDocument:
        """The licence document at ``url``, through the cache once :attr:`vet` let it."""
        problem = license_url_problem(url)
        if problem is not None:
            return unread(url, self.site, problem)
        return self.refused(url) or self.cache.license_document(url, origin=self.site)

    def links(self, agent: str) -> list[str]:
        """The licence URLs the robots.txt names for ``agent`` (none for a document)."""
        if self.robots is None or self.blind is not None:
            return []
        return list(dict.fromkeys(self.robots.license_urls(agent)))

    def documents(self, agent: str, read: Optional[Callable[[str], LicenseDocument]] = None
                  ) -> list[LicenseDocument]:
        """The licence documents for ``agent``, each read by ``read`` (by default
        :meth:`licence`: fetched through the cache)."""
        if self.document is not None:
            return [self.document]
        if self.blind is not None:
            return [self.blind]
        return [(read or self.licence)(link) for link in self.links(agent)]


def license_answers(documents: tuple[LicenseDocument, ...], urls: list[str],
                    names: list[str], user: Optional[str], geo: Optional[str]
                    ) -> list[tuple[str, list[LicenseAnswer]]]:
    """Each URL's answers, one per purpose in ``names``, from ``documents``."""
    return [(url, [LicenseTerms(url, documents, user=user, geo=geo).answer(name)
                   for name in names]) for url in urls]
