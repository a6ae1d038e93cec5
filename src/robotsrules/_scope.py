"""Which robots.txt governs a URL: origins, the robots.txt URL, redirect targets.

The rules of ``scheme://host:port/robots.txt`` apply to URLs with the same scheme, host and
port only (RFC 9309 §2.3; Google). Scheme and host compare case-insensitively; the default
port of the scheme (http 80, https 443, ftp 21) equals no port; an internationalised host
name equals its punycode form (UTS-46, through the ``idna`` package); an IP literal is its
own scope; userinfo, query and fragment play no part.

The compiled build compiles this module with the core (``setup.py``): the WARC reader, itself
compiled, calls :func:`memo_origin` once per record.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import ipaddress
import re
from typing import Optional
from urllib.parse import unquote_to_bytes, urljoin, urlsplit

from .errors import InvalidURL

__all__ = ["DEFAULT_PORTS", "LDH_LABEL", "SCHEMES", "host_problem", "join_url", "memo_origin",
           "origin_of", "robots_url", "split_origin"]

DEFAULT_PORTS = {"http": 80, "https": 443, "ftp": 21}
SCHEMES = frozenset(DEFAULT_PORTS)
LDH_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
"""One host-name label as regular-expression text: letters, digits and hyphens inside, 1 to
63 characters (RFC 1123 §2.1), lower case. The readers of host names (the extension table,
the address lists, reverse DNS names) build their patterns from it; one in mixed case wraps
it in ``(?ai:...)`` (ASCII letters only, either case)."""

_HOST_CHARS = re.compile(r"[A-Za-z0-9.\-_]+")
# WHATWG URL Standard (living standard; the host parser has percent-decoded hosts before
# IDNA since at least its 4 December 2014 version): forbidden domain code points are the
# forbidden host code points (NUL, TAB, LF, CR, space, # / : < > ? @ [ \ ] ^ |), the C0
# controls, % and DEL.
_FORBIDDEN_DOMAIN = re.compile("[\x00-\x20#%/:<>?@\\[\\\\\\]^|\x7f]")


def _host(raw: str, url: str) -> str:
    if not raw:
        raise InvalidURL(f"URL has no host: {url!r}")
    if raw.startswith("["):  # IPv6 literal
        inner = raw[1:-1] if raw.endswith("]") else raw[1:]
        try:
            return "[" + ipaddress.IPv6Address(inner.split("%", 1)[0]).compressed + "]"
        except ValueError:
            raise InvalidURL(f"bad IPv6 host in {url!r}") from None
    if "%" in raw:
        raw = _percent_decoded(raw, url)
    host = raw.rstrip(".").lower()
    if _HOST_CHARS.fullmatch(host):
        return host
    try:
        import idna  # the fetch layer's dependency; only needed for non-ASCII host names
    except ImportError:  # pragma: no cover - idna is installed with robotsrules
        try:
            return host.encode("idna").decode("ascii")
        except UnicodeError:
            raise InvalidURL(f"bad host name in {url!r}") from None
    try:
        return idna.encode(host, uts46=True, transitional=False).decode("ascii")
    except idna.IDNAError as error:
        raise InvalidURL(f"bad host name in {url!r}: {error}") from None


def _percent_decoded(raw: str, url: str) -> str:
    """A host with ``%XX`` escapes decoded, as the WHATWG URL standard does before IDNA
    ("host parser", step 4-5: percent-decode, then UTF-8 decode without BOM or fail), so
    that ``www.m%C3%BCnich.com`` is ``www.münich.com``. A host whose octets are not UTF-8,
    or that decodes to a forbidden domain code point (C0 controls, space, ``%``, ``/``,
    ``:``, ``?``, ``#``, ``@`` and the like; DEL), raises :class:`~robotsrules.InvalidURL`.
    """
    try:
        decoded = unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidURL(
            f"host {raw!r} of {url!r} percent-decodes to octets that are not UTF-8 "
            f"(0x{error.object[error.start]:02X}), which no host name holds"
        ) from None
    bad = _FORBIDDEN_DOMAIN.search(decoded)
    if bad is not None:
        raise InvalidURL(
            f"host {raw!r} of {url!r} percent-decodes to {bad.group()!r}, which no host name "
            "may hold (a forbidden domain code point of the WHATWG URL standard)"
        )
    return decoded


def split_origin(url: str) -> tuple[str, str, Optional[int]]:
    """``(scheme, host, port)`` of ``url`` in canonical form (port ``None`` when default).

    Raises :class:`~robotsrules.InvalidURL` for schemes other than http, https and ftp, and
    for URLs without a host.
    """
    if not isinstance(url, str):
        raise InvalidURL(f"url must be a str, not {type(url).__name__}")
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise InvalidURL(f"bad URL {url!r}: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise InvalidURL(
            f"robots.txt applies to http, https and ftp URLs only, not {url!r}"
        )
    netloc = parts.netloc.rpartition("@")[2]
    if netloc.startswith("["):
        raw_host = netloc[: netloc.find("]") + 1] if "]" in netloc else netloc
    else:
        raw_host = netloc.rsplit(":", 1)[0] if ":" in netloc else netloc
    host = _host(raw_host, url)
    if port == DEFAULT_PORTS[scheme]:
        port = None
    return scheme, host, port


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, canonical: the key of its robots.txt scope.

    >>> origin_of("HTTPS://Example.COM:443/a?b#c")
    'https://example.com'
    """
    scheme, host, port = split_origin(url)
    return f"{scheme}://{host}" if port is None else f"{scheme}://{host}:{port}"


_ORIGINS: dict[str, str] = {}
"""``scheme://authority`` as written -> its origin (``""``: not a robots.txt origin)."""
_MAX_ORIGINS = 200_000  # all dropped when full: a bound on memory (some 50 MB at most)
# (a plain dict, not _lru.LRU: a hit per URL of a bulk column; the figure is in _lru)
_AUTHORITY_END = re.compile(r"[/?#]")  # where urlsplit ends the netloc


def memo_origin(url: str, memo: Optional[dict[str, str]] = None,
                bound: int = _MAX_ORIGINS) -> str:
    """:func:`origin_of` ``url``, remembered by the URL's ``scheme://authority`` as written,
    the only part it reads (the URLs of a bulk column or a WARC file share a few). The one
    memoised origin splitter: the bulk row readers and the WARC reader call it per URL.

    ``memo`` and ``bound``: a caller's own memo and its size (all keys dropped when full),
    where the shared one's bound is too large for what it promises (the WARC reader keeps a
    few hundred: its memory per record is bounded, and a site's records come together).

    A URL with TAB, CR or LF (which ``urlsplit`` drops) or an unusual scheme is not
    remembered, only read; a key that is no origin raises :class:`~robotsrules.InvalidURL`
    each time, with the message :func:`origin_of` gives for that URL.

    >>> memo_origin("HTTPS://Example.COM:443/a?b")
    'https://example.com'
    """
    text = url.strip()
    scheme = text.find("://")
    if scheme <= 0 or not text[:scheme].isalnum() or any(c in text for c in "\t\r\n"):
        return origin_of(url)
    found = _AUTHORITY_END.search(text, scheme + 3)
    key = text if found is None else text[:found.start()]
    origins = _ORIGINS if memo is None else memo
    origin = origins.get(key)
    if origin is None:
        if len(origins) >= bound:
            origins.clear()
        origins[key] = ""  # until origin_of returns: a key that raises stays ""
        origin = origins[key] = origin_of(url)
    elif not origin:
        return origin_of(url)  # raises, with this URL's own message
    return origin


def robots_url(url: str) -> str:
    """The robots.txt URL whose rules govern ``url``.

    Scheme and host lower-cased, default port dropped, internationalised host names as
    punycode (UTS-46), IP literals kept; userinfo, path, query and fragment dropped.

    >>> robots_url("http://User@BÜCHER.example:80/a/b?c#d")
    'http://xn--bcher-kva.example/robots.txt'
    >>> robots_url("https://[2001:DB8::1]:8443/x")
    'https://[2001:db8::1]:8443/robots.txt'
    """
    return origin_of(url) + "/robots.txt"


def join_url(base: str, location: str) -> Optional[str]:
    """Resolve a ``Location`` header against ``base``; ``None`` if it is not a usable URL."""
    try:
        target = urljoin(base, location)
        parts = urlsplit(target)
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return target.split("#", 1)[0]


def host_problem(host: str) -> Optional[str]:
    """Why a canonical host name (see :func:`split_origin`) cannot be looked up, or None."""
    if host.startswith("["):
        return None
    if len(host) > 253:
        return "host name longer than 253 octets"
    labels = host.split(".")
    for label in labels:
        if not label:
            return "empty label in host name"
        if len(label) > 63:
            return "host name label longer than 63 octets"
        if label.startswith("xn--"):
            try:
                import idna  # the fetch layer's dependency; only needed for punycode labels

                idna.decode(label)
            except (ImportError, UnicodeError, ValueError) as error:
                return f"bad punycode label {label!r}: {error}"
    return None
