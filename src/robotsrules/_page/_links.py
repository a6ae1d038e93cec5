"""``Link`` response headers (RFC 8288, October 2017) and the licences they and the HTML head name.

RFC 8288 §3: a ``Link`` field is a comma-separated list of link-values, each
``<URI-Reference>`` then ``;``-separated parameters (``rel``, ``type``, ``anchor``...), a
parameter's value a token or a quoted-string. What the page layer takes from it:

* ``rel="license"`` links: RSL 1.0 (RSL-SPEC-1.0, 2025-11-06) associates a licence document
  with a response by ``Link: <URL>; rel="license"; type="application/rsl+xml"`` and, in
  HTML, by ``<link rel="license" type="application/rsl+xml" href="URL">`` or an inline
  ``<script type="application/rsl+xml">`` (rslstandard.org's guides "Adding RSL to HTTP
  Headers" and "File Format", read 2026-11). ``license`` is also the generic relation
  (RFC 4946; HTML's ``license`` keyword, which Creative Commons pages use): a link without
  the RSL media type is kept and reported (:attr:`LicenseLink.rsl` false) but is not an RSL
  licence URL.
* ``rel="terms-of-service"`` links (RFC 6903 §4): the terms a pay-per-crawl ``402`` response
  names (:mod:`._pricing`).

The reader is one forward pass (``str.find`` and character tests, no regular expression
that can backtrack), linear in the field; at most :data:`MAX_LINK_LENGTH` characters of the
joined fields are read (past that the field is reported as too large and the link-value cut
at the limit is dropped) and at most :data:`MAX_LINKS` link-values are kept. A link-value
that is not well-formed is skipped up to the next top-level comma and counted. RFC 8288
§3.3 and §3.4.1: a ``rel`` or ``type`` given twice keeps the first. A link with an
``anchor`` parameter is about another resource (§3.2) unless the anchor resolves to the page
itself. Targets are resolved against the page's URL (RFC 3986 §5; an HTML ``href`` against
the document's base URL, its first ``<base href>``); the URL must then be ``http`` or
``https``. Licences on other origins are allowed: RSL 1.0 names licence servers and hosted
licences on other hosts, and its robots.txt guide says the ``License`` URL need not be on
the file's host. Pure: standard library only.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from collections.abc import Sequence
from typing import NamedTuple, Optional

from ._html import is_rsl_type

__all__ = ["MAX_LINKS", "MAX_LINK_LENGTH", "LicenseLink", "LinkReading", "WebLink",
           "license_links", "license_urls", "read_links", "resolve", "same_document"]

MAX_LINK_LENGTH = 64 * 1024
"""Characters of the ``Link`` field (every line joined with ``", "``) read: the size of a
whole HTTP head the WARC reader accepts (:data:`robotsrules.warc.MAX_HTTP_HEAD`), and far
beyond the preload lists servers send."""
MAX_LINKS = 1024
"""Link-values kept per response (the licence and terms links among them are always kept)."""

_WANTED = frozenset({"license", "terms-of-service"})
_OWS = " \t"
_SCHEMES = ("http", "https")


class WebLink(NamedTuple):
    """One link-value: its ``target`` as written, its ``rel`` tokens (lower-cased), its
    ``type`` (``None``: not given) and ``anchor`` (``None``: the response itself)."""

    target: str
    rel: tuple[str, ...]
    type: Optional[str]
    anchor: Optional[str]


class LinkReading(NamedTuple):
    """What :func:`read_links` read: the ``links`` and how many link-values were
    ``malformed``; ``too_large`` when the field was cut at :data:`MAX_LINK_LENGTH`."""

    links: tuple[WebLink, ...]
    malformed: int
    too_large: bool


class LicenseLink(NamedTuple):
    """A licence a response names. ``url``: the target resolved against the page (or the
    document's base URL); as written when no page URL was given or it does not resolve;
    ``written``: as written; ``source``: ``"header"`` (a ``Link`` field) or ``"html"`` (a
    ``<link>`` element); ``rsl``: its type is ``application/rsl+xml``; ``valid``: ``url`` is
    an ``http(s)`` URL and the link is about this response (no other ``anchor``); ``offset``
    and ``line``: the header's number or the element's place (as for
    :class:`._signals.Directive`); ``in_head``: false for an element after the head."""

    url: str
    written: str
    source: str
    rsl: bool
    valid: bool
    offset: int
    line: Optional[int] = None
    in_head: bool = True


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _OWS:
        pos += 1
    return pos


_COMMA_STOPS = re.compile(r'[",<]')
# Characters no valid target holds: C0 controls, DEL, C1 controls, and a space inside (a
# URI-Reference holds none, RFC 3986; a control in a header value is read as a space, RFC
# 9110 §5.5); format characters (Cf: U+202E turns text around, U+00AD hides) and line and
# paragraph separators (Zl, Zp) are refused too.
_CONTROL = re.compile("[\x00-\x20\x7f-\x9f\u2028\u2029]")
_QUOTE_STOPS = re.compile(r'["\\]')


def _next_comma(text: str, pos: int) -> int:
    """The next comma outside ``<...>`` and quoted strings, or the end."""
    size = len(text)
    while True:
        found = _COMMA_STOPS.search(text, pos)
        if found is None:
            return size
        char, pos = found.group(), found.start()
        if char == ",":
            return pos
        if char == "<":
            close = text.find(">", pos + 1)
            if close < 0:
                return size
            pos = close + 1
        else:
            _, pos = _quoted(text, pos)


def _token(text: str, pos: int, stops: str) -> int:
    while pos < len(text) and text[pos] not in stops:
        pos += 1
    return pos


def _quoted(text: str, pos: int) -> tuple[Optional[str], int]:
    """A quoted-string starting at ``pos`` (its ``"``): ``(value, end)``; ``None`` when it
    does not end."""
    out: list[str] = []
    size = len(text)
    pos += 1
    while pos < size:
        found = _QUOTE_STOPS.search(text, pos)
        if found is None:
            return None, size
        close = found.start()
        out.append(text[pos:close])
        if text[close] == '"':
            return "".join(out), close + 1
        out.append(text[close + 1:close + 2])  # a quoted-pair
        pos = close + 2
    return None, size


def _link_value(text: str, pos: int) -> tuple[Optional[WebLink], int]:
    """One link-value starting at ``pos`` (after blanks): ``(link or None, end)``."""
    if pos >= len(text) or text[pos] != "<":
        return None, _next_comma(text, pos)
    close = text.find(">", pos + 1)
    if close < 0:
        return None, len(text)
    target = text[pos + 1:close]
    params: dict[str, str] = {}
    pos = close + 1
    while True:
        pos = _skip(text, pos)
        if pos >= len(text) or text[pos] == ",":
            break
        if text[pos] != ";":
            return None, _next_comma(text, pos)
        pos = _skip(text, pos + 1)
        end = _token(text, pos, "=;, \t")
        name = text[pos:end].lower()
        pos = _skip(text, end)
        value = ""
        if pos < len(text) and text[pos] == "=":
            pos = _skip(text, pos + 1)
            if pos < len(text) and text[pos] == '"':
                quoted, pos = _quoted(text, pos)
                if quoted is None:
                    return None, len(text)
                value = quoted
            else:
                end = _token(text, pos, ";, \t")
                value, pos = text[pos:end], end
        if name and name not in params:  # RFC 8288 §3.3, §3.4.1: the first one counts
            params[name] = value
    rel = tuple(params.get("rel", "").lower().split())
    return WebLink(target, rel, params.get("type"), params.get("anchor")), pos


def read_links(text: str) -> LinkReading:
    """Read a ``Link`` field (every line of it joined with ``", "``).

    >>> reading = read_links('</l.xml>; rel="license"; type="application/rsl+xml", <x>; rel=next')
    >>> [(link.target, link.rel, link.type) for link in reading.links]
    [('/l.xml', ('license',), 'application/rsl+xml'), ('x', ('next',), None)]
    """
    too_large = len(text) > MAX_LINK_LENGTH
    if too_large:
        text = text[:MAX_LINK_LENGTH]
    links: list[WebLink] = []
    malformed = 0
    pos = 0
    size = len(text)
    while pos < size:
        pos = _skip(text, pos)
        if pos < size and text[pos] == ",":
            pos += 1
            continue
        if pos >= size:
            break
        link, end = _link_value(text, pos)
        if too_large and end >= size:
            malformed += 1  # the link-value cut at the limit
            break
        if link is None:
            malformed += 1
        elif len(links) < MAX_LINKS or _WANTED.intersection(link.rel):
            links.append(link)
        pos = end
    return LinkReading(tuple(links), malformed, too_large)


def _clean(target: str) -> str:
    # The URL standard's leniency: leading/trailing blanks dropped, tabs and newlines removed.
    target = target.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
                          "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
    if "\t" in target or "\n" in target or "\r" in target:
        target = target.replace("\t", "").replace("\n", "").replace("\r", "")
    return target


def resolve(target: str, base: Optional[str]) -> tuple[str, bool]:
    """``target`` resolved against ``base`` (RFC 3986 §5) and whether the result is an
    ``http(s)`` URL with a host. Without ``base`` the target is kept as written (valid only
    when it is such a URL already).

    >>> resolve("../l.xml", "https://example.com/a/b/page")
    ('https://example.com/a/l.xml', True)
    >>> resolve("javascript:alert(1)", "https://example.com/")
    ('javascript:alert(1)', False)
    >>> resolve("/l\\x1b[2J.xml", "https://example.com/")[1]
    False

    A target that still holds a control character once the URL standard's leniency has
    removed the blanks around it and its tabs and newlines (C0 controls, DEL, C1 controls:
    the URL standard reports them as validation errors, and a terminal or a log would
    obey them) is never a valid URL.
    """
    cleaned = _clean(target)
    if _CONTROL.search(cleaned) is not None or (not cleaned.isascii() and any(
            unicodedata.category(char) in ("Cf", "Zl", "Zp") for char in cleaned)):
        return cleaned, False  # a control character inside: no URL to hand to a caller
    try:
        url = urllib.parse.urljoin(base, cleaned) if base else cleaned
        parts = urllib.parse.urlsplit(url)
        return url, parts.scheme.lower() in _SCHEMES and bool(parts.hostname)
    except ValueError:  # e.g. an invalid IPv6 literal
        return cleaned, False


def same_document(anchor: str, url: Optional[str]) -> bool:
    """Whether a link's ``anchor`` names the response itself (RFC 8288 §3.2)."""
    if url is None:
        return False
    found, valid = resolve(anchor, url)
    return valid and urllib.parse.urldefrag(found)[0] == urllib.parse.urldefrag(url)[0]


def _octets_as_utf8(target: str) -> str:
    """A header's target as UTF-8 when its characters are octets (a field given as bytes is
    read as latin-1, RFC 9110 §5.5) that decode as UTF-8: the same URL whether a client
    gave the field as ``str`` or as ``bytes``."""
    if target.isascii() or max(target) > "\xff":
        return target
    try:
        return target.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return target


def license_links(reading: LinkReading, first: int, url: Optional[str]) -> list[LicenseLink]:
    """The ``rel=license`` links of a ``Link`` field read (``first``: the number of its
    first line), resolved against ``url``."""
    out = []
    for link in reading.links:
        if "license" not in link.rel:
            continue
        resolved, valid = resolve(_octets_as_utf8(link.target), url)
        if link.anchor is not None and not same_document(link.anchor, url):
            valid = False
        rsl = link.type is not None and is_rsl_type(link.type)
        out.append(LicenseLink(resolved, link.target, "header", rsl, valid, first))
    return out


def license_urls(licenses: Sequence[LicenseLink]) -> tuple[str, ...]:
    """The RSL licence URLs among ``licenses``, each once, in order: links typed
    ``application/rsl+xml`` whose URL is ``http(s)`` and about the response."""
    return tuple(dict.fromkeys(link.url for link in licenses if link.rsl and link.valid))
