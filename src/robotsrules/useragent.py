"""From a User-Agent header to the crawler's product token: :func:`product_token`.

A robots.txt names crawlers by product token (RFC 9309 §2.2.1: letters, ``-`` and ``_``),
but HTTP clients and crawling frameworks are configured with a whole User-Agent header
(RFC 9110 §10.1.5): products ``name/version`` and parenthesised comments, in the style of
``Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)``. This module picks
the crawler out of such a header, with one documented rule, so that every integration
(Scrapy, ``urllib.robotparser``, httpx, aiohttp) obeys the same groups for the same header.

The rule, in order (the first step that finds a name wins):

1. the whole header is a product token or ``Token/version``: it is returned **unchanged**
   (``"ExampleBot/2.1"``; the matcher drops the version itself, SPEC D5); ``"*"`` is
   returned as ``"*"`` (only the rules a file gives every crawler apply, SPEC D5);
2. a product right after ``compatible;`` inside a comment, the convention of crawlers that
   borrow a browser's header (``(compatible; Googlebot/2.1; +http://...)``);
3. the first top-level product whose name is not one of :data:`BROWSER_NAMES`: products
   are listed "in decreasing order of their significance for identifying the user agent
   software" (RFC 9110 §10.1.5), so the crawler's own comes first
   (``Scrapy/2.11 (+https://scrapy.org)`` → ``Scrapy``;
   ``FigTree/0.1 Robot/1.0 libwww-perl/5.04`` → ``FigTree``, the 1996 draft's example in
   §3.2.1, which "might scan" for ``figtree``: a later product does not outrank the first
   because its name contains ``bot``);
4. in a browser's header (every top-level product is a browser or platform name), the first
   item of a comment whose name says it is a crawler: it contains ``bot``, ``crawl``,
   ``spider``, ``slurp``, ``fetch``, ``scrap`` or ``archiver`` (case-insensitive;
   ``Mozilla/5.0 (compatible; Yahoo! Slurp; ...)`` → ``Slurp``);
5. a header made only of browser and platform names (a plain browser's header) names no
   crawler: ``"*"`` is returned, so that only the rules a file gives *every* crawler apply.

A product's name counts only if it starts with a letter, ``-`` or ``_``; it is cut at the
first other character, as Google cuts a file's ``user-agent`` values (``Bot2000/1.0`` →
``Bot``). Anything else (an empty header, only comments, only numbers or punctuation)
raises ``ValueError``: there is nothing to obey.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final, Optional, Union

from .errors import InvalidAgent

__all__ = ["BROWSER_NAMES", "product_token"]

BROWSER_NAMES: Final = frozenset(
    name.lower()
    for name in (
        "Mozilla", "AppleWebKit", "KHTML", "Gecko", "like", "Chrome", "Chromium",
        "CriOS", "FxiOS", "Safari", "Firefox", "Version", "Mobile", "Edg", "Edge", "EdgA",
        "EdgiOS", "OPR", "Opera", "Presto", "Trident", "MSIE", "SamsungBrowser",
        "YaBrowser", "Vivaldi", "Brave", "UCBrowser", "HeadlessChrome", "compatible",
        "Windows", "Linux", "Android", "Macintosh", "Intel", "Mac", "X11", "U", "CPU",
        "iPhone", "iPad", "iPod", "OS", "Win64", "WOW64", "x64", "x86_64", "Ubuntu",
        "Fedora", "CrOS", "like-Gecko", "rv", "Build", "wv",
    )
)
"""Product names that browsers put in their headers; they never name a crawler (step 4)."""

_TOKEN_OR_VERSIONED: Final = re.compile(r"[A-Za-z_\-]+(?:/\S*)?")
_NAME: Final = re.compile(r"[A-Za-z_\-]+")
_CRAWLER_WORDS: Final = ("bot", "crawl", "spider", "slurp", "fetch", "scrap", "archiver")


def _split(header: str) -> Iterator[tuple[str, str]]:
    """Yield ``("product", text)`` for top-level words and ``("comment", text)`` for the
    inside of each parenthesised comment (nested parentheses kept inside it)."""
    i, size = 0, len(header)
    while i < size:
        char = header[i]
        if char.isspace():
            i += 1
        elif char == "(":
            depth, j = 1, i + 1
            while j < size and depth:
                if header[j] == "\\":
                    j += 1
                elif header[j] == "(":
                    depth += 1
                elif header[j] == ")":
                    depth -= 1
                j += 1
            yield "comment", header[i + 1: j - 1 if depth == 0 else j]
            i = j
        else:
            j = i
            while j < size and not header[j].isspace() and header[j] != "(":
                j += 1
            yield "product", header[i:j]
            i = j


def _name(product: str) -> Optional[str]:
    """The product token of ``name[/version]``: the name cut at the first character that is
    not a letter, ``-`` or ``_``; None when it does not start with one."""
    match = _NAME.match(product.strip().lstrip("+"))
    return match.group() if match else None


def product_token(user_agent_header: Union[str, bytes]) -> str:
    """The crawler's product token from a full User-Agent header (see the module docstring).

    ``bytes`` are decoded as ISO-8859-1, as HTTP header values are. Raises ``ValueError``
    when the header names nothing (and ``TypeError`` for other types).

    >>> product_token("Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)")
    'ExampleBot'
    >>> product_token("ExampleBot/2.1"), product_token("Scrapy/2.19 (+https://scrapy.org)")
    ('ExampleBot/2.1', 'Scrapy')
    >>> product_token("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)")
    '*'
    """
    if isinstance(user_agent_header, (bytes, bytearray)):
        user_agent_header = bytes(user_agent_header).decode("latin-1")
    if not isinstance(user_agent_header, str):
        raise TypeError(
            f"user agent must be str or bytes, not {type(user_agent_header).__name__}")
    header = user_agent_header.strip()
    if header == "*" or _TOKEN_OR_VERSIONED.fullmatch(header):  # step 1
        return header
    top: list[str] = []
    comments: list[str] = []  # the items of the comments, in order
    compatible: Optional[str] = None
    for kind, text in _split(header):
        if kind == "product":
            top.append(text)
            continue
        parts = [part.strip() for part in text.split(";")]
        for index, part in enumerate(parts):
            comments.extend(part.split())
            if (compatible is None and part.lower() == "compatible" and index + 1 < len(parts)
                    and _TOKEN_OR_VERSIONED.fullmatch(parts[index + 1])):
                compatible = _name(parts[index + 1])
    if compatible is not None and compatible.lower() not in BROWSER_NAMES:  # step 2
        return compatible
    top_names = [name for name in map(_name, top) if name]
    for name in top_names:  # step 3
        if name.lower() not in BROWSER_NAMES:
            return name
    for name in filter(None, map(_name, comments)):  # step 4
        lowered = name.lower()
        if lowered not in BROWSER_NAMES and any(word in lowered for word in _CRAWLER_WORDS):
            return name
    if top_names:  # step 5: a browser's header
        return "*"
    raise InvalidAgent(
        f"no crawler name in the user agent {user_agent_header!r}: pass your crawler's "
        "product token (letters, '-' and '_', e.g. 'ExampleBot') or a header that names it"
    )
