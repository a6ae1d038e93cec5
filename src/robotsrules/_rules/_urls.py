"""URLs as the matcher sees them: the match target of a URL, and percent-encoding.

The match target is the URL's path with its ``;params`` and ``?query``, never the
fragment; an empty path is ``/`` (RFC 9309 §2.2.2). Extraction is plain slicing, as in
Google's library: ``..``, ``\\`` and ``//`` inside the path are not normalised.

Before extraction the URL is canonicalised (deliberate deviations of SPEC §0):

* D1 — characters outside US-ASCII are percent-encoded as UTF-8 (RFC 9309 §2.2.2);
  a NUL is encoded as ``%00`` too, because Google's library would silently cut the
  path there; a lone surrogate ``\\udc80`` to ``\\udcff`` stands for the byte it escaped
  (PEP 383 ``surrogateescape``, how Python decodes undecodable bytes), and any other lone
  surrogate raises :class:`~robotsrules.InvalidURL` (it stands for no byte), see
  :func:`url_octets`;
* D2 — the hex digits of ``%xx`` escapes are upper-cased (RFC 3986 §6.2.2.1);
* D6 — a URL must be absolute (``scheme://...``) or a target starting with ``/``.

RFC 9309 mode (``parse(..., mode="rfc")``) normalises both sides further, after the
above: see :func:`rfc_target` and :func:`rfc_pattern`. The exact normalisation chosen:

* ``%XX`` escapes of unreserved characters (ALPHA / DIGIT / ``-`` / ``.`` / ``_`` / ``~``,
  RFC 3986 §2.3) are decoded, in patterns and targets alike (RFC 9309 §2.2.2; RFC 3986
  §6.2.2.2 says decoding them never changes a URI's meaning). Escapes of reserved and other
  characters stay encoded, and an encoded reserved character differs from the bare one
  (``%2F`` is not ``/``, ``%3F`` is not ``?``), as RFC 3986 §2.2 requires: the RFC 9309
  §2.2.2 table row ``/foo/bar?baz=https://foo.bar`` shows the crawler *encoding* data that
  holds reserved characters, which only the crawler that built the URL can know; we do not
  guess, so ``?baz=https://foo.bar`` and ``?baz=https%3A%2F%2Ffoo.bar`` are different targets.
* ``*`` and ``$`` as data are always written ``%2A`` and ``%24`` (RFC 9309 §2.2.3: "If
  crawlers match special characters verbatim in the URI, crawlers SHOULD use percent-encoding"):
  every ``*`` and ``$`` of the target is encoded; in a pattern ``*`` is always the wildcard,
  a final ``$`` the end anchor, and any other ``$`` is encoded. So ``%2A``/``%24`` in a pattern
  are never special and match a literal ``*``/``$`` (or ``%2A``/``%24``) in the URL.
* The result is what rules compare and what priority counts (octets of the normalised
  pattern: ``/%62%61%7A`` ranks as ``/baz``).
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from typing import Final

from .._compiled import COMPILED
from ..errors import InvalidURL

__all__ = ["encoded_pattern", "match_target", "normalize_escapes", "rfc_pattern", "rfc_target",
           "text_octets", "unencoded", "url_octets", "url_text"]

# An escape that has a lower-case hex digit (Google upper-cases them in patterns).
_LOWER_ESCAPE: Final = re.compile(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")
_HEX_PAIRS: Final = frozenset(
    a + b for a in "0123456789abcdefABCDEF" for b in "0123456789abcdefABCDEF")
# Octets that are percent-encoded: everything outside US-ASCII, and NUL (see D1 above). A
# table for str.translate, indexed by octet (a list: translate looks it up faster than a
# dict); every other octet maps to itself.
_ESCAPE: Final = ["%00"] + [chr(code) for code in range(1, 0x80)] + [
    f"%{code:02X}" for code in range(0x80, 0x100)]


# Lone surrogates that surrogateescape did not produce (\ud800-\udc7f, \udd00-\udfff).
# Written as the regular expression's own escapes (raw strings): the compiled build refuses
# surrogates in string literals.
_OTHER_SURROGATES: Final = re.compile(r"([\ud800-\udc7f\udd00-\udfff]+)")
# What surrogateescape makes of an octet that is not UTF-8 (PEP 383).
_ESCAPED_OCTET: Final = re.compile(r"[\udc80-\udcff]")
_REPLACEMENT: Final = "\ufffd".encode()


def text_octets(text: str) -> bytes:
    """Content given as ``text`` (a robots.txt, its lines) as UTF-8 octets, never raising.

    A lone surrogate ``\\udc80`` to ``\\udcff`` is the byte ``0x80`` to ``0xff`` it stands for
    (PEP 383: what ``bytes.decode("utf-8", "surrogateescape")`` and ``os.fsdecode`` make of
    an undecodable byte), so text decoded that way encodes back to the bytes it came from.
    Any other lone surrogate has no byte to stand for: in content it is read as U+FFFD
    (content never raises; SPEC D1). A URL is held to more: see :func:`url_octets`.

    >>> text_octets("/caf\\u00e9/\\udcf0"), text_octets("/\\ud800")
    (b'/caf\\xc3\\xa9/\\xf0', b'/\\xef\\xbf\\xbd')
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    parts = _OTHER_SURROGATES.split(text)  # odd indexes: runs of other surrogates
    return b"".join(_REPLACEMENT * len(part) if index % 2 else
                    part.encode("utf-8", "surrogateescape")
                    for index, part in enumerate(parts))


def url_octets(url: str) -> bytes:
    """A URL given as text, as the UTF-8 octets it is matched as (SPEC D1).

    A lone surrogate ``\\udc80`` to ``\\udcff`` is the byte it stands for (PEP 383), as in
    :func:`text_octets`. Any other lone surrogate stands for no byte, so no server can send
    a URL that holds it: the caller made a mistake, and :class:`~robotsrules.InvalidURL` is
    raised (``urllib.parse.quote`` refuses it too).

    >>> url_octets("/caf\\u00e9/\\udcf0")
    b'/caf\\xc3\\xa9/\\xf0'
    """
    try:
        return url.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as error:
        bad = ord(url[error.start])
        raise InvalidURL(
            f"a lone surrogate U+{bad:04X} at index {error.start} of the URL stands for no "
            "byte (only U+DC80-U+DCFF, from surrogateescape, do); percent-encode the "
            "octets the URL is made of"
        ) from None


def url_text(octets: str) -> str:
    """A URL-valued line (``Sitemap``, ``Host``) as text to hand on: the octets (latin-1
    text, one character each) decoded as UTF-8 where they are UTF-8, and every other octet
    percent-encoded, as rules encode it (``%E9``). Nothing is lost and no U+FFFD is added:
    a crawler can fetch what it is given.

    >>> url_text("https://x.example/caf\\xe9.xml"), url_text("/caf\\xc3\\xa9")
    ('https://x.example/caf%E9.xml', '/caf\\xe9')
    """
    if octets.isascii():
        return octets
    text = octets.encode("latin-1").decode("utf-8", "surrogateescape")
    if text.isascii() or _ESCAPED_OCTET.search(text) is None:
        return text
    return _ESCAPED_OCTET.sub(lambda m: f"%{ord(m.group()) - 0xDC00:02X}", text)


def normalize_escapes(octets: str) -> str:
    """Upper-case ``%xx`` escapes and percent-encode octets >= 0x80 and NUL.

    ``octets`` is a byte string decoded as latin-1 (one character per octet). This is the
    normalisation Google applies to patterns (and we apply to URLs too, D1/D2).

    >>> normalize_escapes("/a%7eb/\xc3\xa9%%41")
    '/a%7Eb/%C3%A9%%41'
    """
    if "%" in octets and (_has_lower_escape(octets) if COMPILED
                          else _LOWER_ESCAPE.search(octets) is not None):
        parts = octets.split("%")
        hex_pairs = _HEX_PAIRS
        parts[1:] = [
            pair.upper() + part[2:] if (pair := part[:2]) in hex_pairs else part
            for part in parts[1:]
        ]
        octets = "%".join(parts)
    if not octets.isascii() or "\x00" in octets:
        octets = octets.translate(_ESCAPE)
    return octets


# Octets a written rule path should hold percent-encoded (RFC 9309 §2.2.2 and the
# path-pattern grammar of §2.2, which excludes controls and space; Google's documentation
# recommends encoding them, its library encodes only the octets >= 0x80 itself).
_WRITE_ENCODED: Final = {code: f"%{code:02X}" for code in [*range(0x20), 0x20, 0x7F]}


def unencoded(value: str) -> tuple[str, ...]:
    """What a rule path as written (``value``, decoded as UTF-8) holds that should be
    percent-encoded: ``"non-ascii"``, ``"space"``, ``"control"`` (in that order; empty
    when nothing). U+FFFD, which stands for octets that are not UTF-8 (lint R002), is not
    counted.

    >>> unencoded("/caf\\u00e9 menu"), unencoded("/a%20b")
    (('non-ascii', 'space'), ())
    """
    if value.isprintable() and value.isascii() and " " not in value:
        return ()
    kinds: list[str] = []
    if any(ord(c) > 0x7F and c != "\ufffd" for c in value):
        kinds.append("non-ascii")
    if " " in value:
        kinds.append("space")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        kinds.append("control")
    return tuple(kinds)


def encoded_pattern(pattern: str) -> str:
    """A pattern as matched (octets >= 0x80 already encoded, see :func:`normalize_escapes`)
    with space and control characters percent-encoded too: the form to write.

    A ``%`` that starts no escape is kept as written: browsers send it raw (the WHATWG URL
    Standard's path state leaves such a ``%`` as it is), so writing it ``%25`` would stop a
    Disallow from matching the URLs they send.

    >>> encoded_pattern("/my page/%E3%83%84\\x7f"), encoded_pattern("/100% off/%4*")
    ('/my%20page/%E3%83%84%7F', '/100%%20off/%4*')
    """
    return pattern.translate(_WRITE_ENCODED)


def _has_lower_escape(octets: str) -> bool:
    """Whether ``octets`` holds an escape with a lower-case hex digit (what
    ``_LOWER_ESCAPE`` finds): the compiled build's way, faster there than the expression."""
    last = len(octets) - 3  # the last offset an escape can start at
    at = octets.find("%")
    while 0 <= at <= last:
        # The two characters after "%" by code: hex digits, one of them a-f.
        high = ord(octets[at + 1])
        low = ord(octets[at + 2])
        high_lower = 97 <= high <= 102
        low_lower = 97 <= low <= 102
        if ((high_lower or low_lower)
                and (high_lower or 48 <= high <= 57 or 65 <= high <= 70)
                and (low_lower or 48 <= low <= 57 or 65 <= low <= 70)):
            return True
        at = octets.find("%", at + 1)
    return False


# RFC 3986 §2.3 unreserved characters, by their (upper-case) escape.
_UNRESERVED: Final = {
    f"%{ord(char):02X}": char
    for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
}
_UPPER_ESCAPE: Final = re.compile(r"%[0-9A-F]{2}")


def _decode_unreserved(text: str) -> str:
    """Decode the ``%XX`` escapes of unreserved characters (``text`` already normalised)."""
    if "%" not in text:
        return text
    unreserved = _UNRESERVED
    return _UPPER_ESCAPE.sub(lambda m: unreserved.get(m.group(), m.group()), text)


def rfc_pattern(pattern: str) -> str:
    """A pattern (as :func:`normalize_escapes` left it) in RFC 9309 mode's normal form.

    Unreserved escapes are decoded and a ``$`` that does not end the pattern (a literal) is
    written ``%24``; ``*`` stays the wildcard and a final ``$`` the anchor.

    >>> rfc_pattern("/%62%61%7A/a$b/%2A*$")
    '/baz/a%24b/%2A*$'
    """
    pattern = _decode_unreserved(pattern)
    if "$" in pattern[:-1]:
        pattern = pattern[:-1].replace("$", "%24") + pattern[-1:]
    return pattern


def rfc_target(url: str) -> str:
    """:func:`match_target` in RFC 9309 mode's normal form (see the module docstring).

    >>> rfc_target("https://example.com/%7Ejoe/file-*.html?p=$1")
    '/~joe/file-%2A.html?p=%241'
    """
    target = _decode_unreserved(match_target(url))
    if "*" in target or "$" in target:
        target = target.replace("*", "%2A").replace("$", "%24")
    return target


def _canonical(target: str, url: str) -> str:
    """``target`` (cut from ``url``) canonicalised: D1 and D2."""
    if not url.isascii():  # one test for both: an ASCII URL has an ASCII target
        url_octets(url)  # D1: a lone surrogate anywhere in the URL (host, fragment) raises
        return normalize_escapes(url_octets(target).decode("latin-1"))
    if "%" in target or "\x00" in target:
        return normalize_escapes(target)
    return target


def _root(url: str) -> str:
    """The target of a URL without a path: ``/`` (after D1's check of the URL)."""
    if not url.isascii():
        url_octets(url)
    return "/"


# scheme://authority then the path, params and query up to the fragment. Percent-encoding
# adds no "/", "?", ";" or "#", so the target can be cut first and canonicalised after.
_ABSOLUTE: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?;#]*([/?;][^#]*)?")


def match_target(url: str) -> str:
    """The part of ``url`` that rules are matched against: path, params and query.

    ``url`` is absolute (``http://host/path?q``) or already a target (``/path?q``).
    Raises :class:`~robotsrules.InvalidURL` for anything else.

    >>> match_target("https://example.com/a/b;p?q=1#frag")
    '/a/b;p?q=1'
    >>> match_target("http://example.com")
    '/'
    >>> match_target("/caf\\u00e9?x=%7e")
    '/caf%C3%A9?x=%7E'
    """
    if COMPILED and (url.startswith("https://") or url.startswith("http://")):
        return _web_target(url)
    try:
        match = _ABSOLUTE.match(url)
    except TypeError:
        raise InvalidURL(f"url must be a str, not {type(url).__name__}") from None
    if match is not None:
        target = match.group(1)
        if target is None:
            return _root(url)
        if target[0] != "/":
            target = "/" + target
        return _canonical(target, url)
    if url[:1] != "/":
        raise InvalidURL(
            f"not an absolute URL or a path: {url!r}; pass 'scheme://host/path' or '/path'"
        )
    # Leniency: the same slicing as Google's GetPathParamsQuery, so verdicts agree with it.
    start = 2 if url[:2] == "//" else 0
    early = _find_first_of(url, start)
    proto = url.find("://", start)
    if proto < 0 or (early >= 0 and early < proto):
        proto = start
    else:
        proto += 3
    path_start = _find_first_of(url, proto)
    if path_start < 0:
        return _root(url)
    hash_pos = url.find("#", start)
    if 0 <= hash_pos < path_start:
        return _root(url)
    target = url[path_start:] if hash_pos < 0 else url[path_start:hash_pos]
    if target[0] != "/":
        target = "/" + target
    return _canonical(target, url)


def _web_target(url: str) -> str:
    """:func:`match_target` of an ``http://`` or ``https://`` URL by a scan of its
    authority and ``str.find``: what ``_ABSOLUTE`` reads, the compiled build's way (faster
    there than the expression)."""
    size = len(url)
    stop = 8 if url[4] == "s" else 7
    # The authority ends at the first "/", "?", ";" or "#": one pass over its characters
    # (short; each a native comparison when compiled) rather than four searches.
    while stop < size:
        code = ord(url[stop])
        if code == 47 or code == 63 or code == 59 or code == 35:  # / ? ; #
            break
        stop += 1
    if stop == size or url[stop] == "#":
        return _root(url)
    end = url.find("#", stop)
    target = url[stop:] if end < 0 else url[stop:end]
    if target[0] != "/":
        target = "/" + target
    return _canonical(target, url)


def _find_first_of(url: str, start: int) -> int:
    """Index of the first ``/``, ``?`` or ``;`` at or after ``start``, or -1."""
    best = -1
    for char in "/?;":
        i = url.find(char, start)
        if i >= 0 and (best < 0 or i < best):
            best = i
    return best
