"""A drop-in for :class:`urllib.robotparser.RobotFileParser` with robotsrules' semantics.

Change one import and keep your code::

    from robotsrules.robotparser import RobotFileParser   # was: from urllib.robotparser ...

    rp = RobotFileParser("https://example.com/robots.txt", user_agent="ExampleBot/1.0")
    rp.read()
    rp.can_fetch("ExampleBot", "https://example.com/page")
    rp.crawl_delay("ExampleBot"), rp.request_rate("ExampleBot"), rp.site_maps()

The methods and attributes of the standard library's class are all here (``set_url``,
``read``, ``parse(lines)``, ``can_fetch``, ``mtime``, ``modified``, ``crawl_delay``,
``request_rate``, ``site_maps``, ``url``, ``host``, ``path``, ``allow_all``,
``disallow_all``, ``last_checked``; and the module's ``RequestRate``), plus
:meth:`RobotFileParser.explain` (the deciding line) and the attributes
:attr:`~RobotFileParser.robots` and :attr:`~RobotFileParser.result`.

Where the answers differ from the standard library's, and why (each one is asserted by a
``test_difference_*`` test in ``tests/clients/test_robotparser.py``):

1. **Agents** (RFC 9309 §2.2.1). The crawler's product token is compared whole,
   case-insensitively, with the token at the start of each ``user-agent`` value; the
   standard library tests whether the value is a *substring* of the name
   (``User-agent: google`` applies to ``Googlebot`` there, not here). ``can_fetch`` takes
   a full User-Agent header and finds the crawler in it with
   :func:`robotsrules.product_token` (the standard library cuts it at the first ``/``, so
   ``Mozilla/5.0 (compatible; ExampleBot/2.1)`` becomes ``mozilla``). ``"*"`` works as
   there: the rules of the ``*`` groups only (the standard library's documented example).
2. **Groups** (RFC 9309 §2.1, §2.2.1). Blank lines do not end a group; all groups naming
   the crawler are merged; only a ``user-agent`` line after a rule starts a new group
   (a ``crawl-delay`` line does not, for the rules; item 11 for the delay). The standard
   library ends a record at an empty line, drops user-agent lines left without rules, and
   uses the first record that applies.
3. **Precedence** (RFC 9309 §2.2.2). The longest matching pattern wins, ``allow`` on a tie;
   the standard library takes the first matching line in file order.
4. **Wildcards** (RFC 9309 §2.2.3). ``*`` matches any run of characters and a final ``$``
   anchors; the standard library compares them literally.
5. **Percent-encoding** (RFC 9309 §2.2.2, Google). ``%xx`` escapes are compared as written
   (hex case aside), never decoded, so ``/a%2Fb`` does not match ``/a/b``; the standard
   library decodes both sides first. The fragment is never part of what is matched.
6. **Empty** ``Disallow:`` (RFC 9309 §2.2.2). It matches nothing; the standard library
   turns it into an allow-everything line that shadows every line after it.
7. **Reading leniency** (Google). Keys are matched by prefix with Google's typo list
   (``Disallowed:``, ``useragent``), a missing colon is accepted on two-word lines, a BOM is
   skipped, bytes that are not UTF-8 do not raise, and content past 500 KiB is ignored
   (RFC 9309 §2.5). The standard library needs exact keys and a colon, and its ``read()``
   raises ``UnicodeDecodeError`` on a non-UTF-8 file.
8. ``/robots.txt`` itself is always allowed (RFC 9309 §2.2.2 "implicitly allowed").
9. **Status codes** (RFC 9309 §2.3.1). 401 and 403 mean "no rules": everything allowed (the
   standard library disallows everything); 429 means unreachable: everything disallowed
   (the standard library allows everything); a 5xx or a network error (refused, reset,
   DNS, time-out) means unreachable too and never raises (the standard library raises
   ``URLError`` from ``read()`` on a network error). At most 5 redirects are followed, more
   mean "no rules" (RFC 9309 §2.3.1.2; the standard library follows 10).
10. **The request** (RFC 9309 §2.2.1, §2.3). ``read()`` sends the User-Agent header given as
    ``user_agent`` (default :data:`DEFAULT_USER_AGENT`, not ``Python-urllib/3.x``, which
    many sites refuse), has connect/read time-outs (``timeout``, 10 s; the standard library
    has none), reads at most 500 KiB, and always fetches ``/robots.txt`` at the root of the
    URL's origin (RFC 9309 §2.3: a robots.txt elsewhere is not one).
11. **Numbers** (extension). ``crawl_delay()`` is a float and accepts fractions
    (``Crawl-delay: 0.5``; the standard library ignores anything but digits); of several
    values for the crawler the slowest counts (the standard library keeps the last line of
    its record); ``request_rate().seconds`` is a float. A value is read for the user-agent
    lines directly above it, as the standard library's records read it, but a blank line
    does not end them, and a value before any user-agent line is asked of every crawler
    given none of its own (the standard library ignores it); see
    :meth:`robotsrules.RobotsTxt.crawl_delay`.
12. **Sitemaps** (Google). ``site_maps()`` lists the values as written, ``%xx`` left alone,
    with the same key leniency as 7 (the standard library decodes them).
13. **Caller mistakes raise** ``ValueError`` (SPEC D5/D6): a URL that is neither absolute
    nor a path starting with ``/`` (:class:`~robotsrules.InvalidURL`), a user agent that
    names nothing (:func:`~robotsrules.product_token`'s rule; ``"*"`` names every
    crawler). The standard library answers anything.
14. ``str(parser)`` is the file as it was read. The standard library prints its own
    rendering of the records it kept (the ``*`` record last, comments and unknown lines
    dropped).

Unchanged on purpose: ``parse(lines)`` takes lines with or without their line ends
(``io.StringIO(text).readlines()`` as well as ``text.splitlines()``); text decoded with
``surrogateescape`` (PEP 383), in lines or URLs, reads as the bytes it was decoded from;
``can_fetch`` is ``False`` until :meth:`~RobotFileParser.read` or
:meth:`~RobotFileParser.parse` has run; like the standard library, ``can_fetch`` compares
the URL's path, params and query only and does not check that the URL belongs to the file's
origin (use :class:`robotsrules.RobotsCache` for many sites); ``site_maps()`` is ``None``
when the file lists none; ``crawl_delay``/``request_rate`` are ``None`` before a read.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from itertools import repeat
from typing import AnyStr, Optional, Union, cast
from urllib.parse import urlsplit

from ._fetch._fetcher import DEFAULT_TIMEOUT, fetch
from ._fetch._sign import Sign
from ._rules._urls import text_octets
from ._version import __version__
from .model import RequestRate, Verdict
from .policy import OK, UNAVAILABLE, FetchResult, Policy
from .robotstxt import RobotsTxt, parse
from .useragent import product_token

__all__ = ["DEFAULT_USER_AGENT", "RequestRate", "RobotFileParser"]

DEFAULT_USER_AGENT = f"robotsrules/{__version__} (+https://pypi.org/project/robotsrules/)"
"""Sent by :meth:`RobotFileParser.read` when no ``user_agent`` is given: pass your own."""


def _body(lines: Iterable[Union[str, bytes]]) -> Union[str, bytes]:
    """The items given to :meth:`RobotFileParser.parse` as one body: each item is a line,
    one line end (``\\r\\n``, ``\\n`` or ``\\r``) at its end is removed, and the items are
    joined by ``\\n``. Text stays text (the parser encodes it once); bytes among the items
    make the body bytes."""
    items = list(lines)
    texts = cast(list[str], items)
    try:
        joined = "".join(texts)
    except TypeError:  # bytes (or something else) among the items
        joined = None
    if joined is None:
        return b"\n".join([_without_end(_octets(line)) for line in items])
    # The two usual cases at C speed: text.splitlines(), and readlines() of LF text.
    if "\r" not in joined:
        if "\n" not in joined:
            return "\n".join(texts)
        if all(map(str.endswith, texts[:-1], repeat("\n"))):
            return joined[:-1] if texts[-1].endswith("\n") else joined
    return "\n".join([_without_end(line) for line in texts])


def _octets(line: object) -> bytes:
    if isinstance(line, str):
        return text_octets(line)
    if isinstance(line, (bytes, bytearray)):
        return bytes(line)
    raise TypeError(f"robots.txt lines must be str, not {type(line).__name__}")


def _without_end(line: AnyStr) -> AnyStr:
    if line[-1:] in ("\n", b"\n"):
        return line[:-2] if line[-2:-1] in ("\r", b"\r") else line[:-1]
    return line[:-1] if line[-1:] in ("\r", b"\r") else line


class RobotFileParser:
    """``urllib.robotparser.RobotFileParser`` with RFC 9309 and Google's reading.

    ``url`` is the robots.txt URL (any URL of the site works: the file at the root of its
    origin is fetched). ``user_agent`` is the User-Agent header :meth:`read` sends (your
    crawler's); ``timeout`` the connect/read time-out in seconds; ``policy`` a
    :class:`robotsrules.Policy` for the fetch rules (e.g. ``Policy.legacy()`` for the 1996
    draft's 401/403 meaning); ``sign`` a Web Bot Auth signer (``robotsrules.Signer``)
    for :meth:`read`'s requests, each redirect hop signed afresh (default unsigned).
    """

    def __init__(self, url: str = "", *, user_agent: str = DEFAULT_USER_AGENT,
                 timeout: float = DEFAULT_TIMEOUT, policy: Optional[Policy] = None,
                 sign: Optional[Sign] = None) -> None:
        self.sign = sign
        self.user_agent = user_agent
        self.timeout = timeout
        self.policy = policy
        self.robots: Optional[RobotsTxt] = None
        """The parsed file once :meth:`read` or :meth:`parse` has run."""
        self.result: Optional[FetchResult] = None
        """What the last :meth:`read` fetched: outcome, status, redirects, error."""
        self.disallow_all = False
        self.allow_all = False
        self.last_checked = 0.0
        self.url = ""
        self.host = ""
        self.path = ""
        self.set_url(url)

    # -- the standard library's API -----------------------------------------------------
    def mtime(self) -> float:
        """When the file was last read or parsed (seconds since the epoch; 0 if never)."""
        return self.last_checked

    def modified(self) -> None:
        """Set the time the file was last read to now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Set the URL of the robots.txt (only its origin matters for :meth:`read`)."""
        self.url = url
        parts = urlsplit(url)
        self.host, self.path = parts.netloc, parts.path

    def read(self) -> None:
        """Fetch the robots.txt and apply the status rules (difference 9); never raises for
        network trouble: see :attr:`result` for what happened."""
        result = fetch(self.url, user_agent=self.user_agent, timeout=self.timeout,
                       policy=self.policy, sign=self.sign)
        self.result = result
        self.robots = result.robots
        self.allow_all = result.outcome == UNAVAILABLE
        self.disallow_all = result.outcome not in (OK, UNAVAILABLE)
        self.modified()

    def parse(self, lines: Iterable[Union[str, bytes]]) -> None:
        """Parse the lines of a robots.txt.

        Each item is one line, ``str`` (or ``bytes``), with or without its line end: one
        ``\\r\\n``, ``\\n`` or ``\\r`` at its end is removed, as the standard library
        ignores it, so ``io.StringIO(text).readlines()``, ``text.splitlines()`` and an open
        file all read the same. A whole body (one ``str`` or ``bytes``) is accepted too.
        """
        if isinstance(lines, (str, bytes)):  # a whole body: accepted, as it surely meant
            body: Union[str, bytes] = lines
        else:
            body = _body(lines)
        self.robots = parse(body)
        self.allow_all = self.disallow_all = False
        self.modified()

    def can_fetch(self, useragent: str, url: str) -> bool:
        """True when the crawler named by ``useragent`` (a token or a full User-Agent
        header) may fetch ``url`` (absolute, or a path starting with ``/``)."""
        verdict = self.explain(useragent, url)
        return verdict is not None and verdict.allowed

    def crawl_delay(self, useragent: str) -> Optional[float]:
        """The ``Crawl-delay`` for ``useragent`` in seconds, or ``None``."""
        if self.robots is None or not self.mtime():
            return None
        return self.robots.crawl_delay(product_token(useragent))

    def request_rate(self, useragent: str) -> Optional[RequestRate]:
        """The ``Request-rate`` for ``useragent`` (``requests``, ``seconds``), or ``None``."""
        if self.robots is None or not self.mtime():
            return None
        return self.robots.request_rate(product_token(useragent))

    def site_maps(self) -> Optional[list[str]]:
        """The ``Sitemap`` URLs in file order, or ``None`` when there are none."""
        if self.robots is None or not self.robots.sitemaps:
            return None
        return list(self.robots.sitemaps)

    def __str__(self) -> str:
        if self.robots is None:
            return ""
        return self.robots.source.decode("utf-8", "replace")

    # -- more -----------------------------------------------------------------------------
    def explain(self, useragent: str, url: str) -> Optional[Verdict]:
        """The :class:`~robotsrules.Verdict` behind :meth:`can_fetch` (the deciding line),
        or ``None`` before anything was read (then ``can_fetch`` is ``False``)."""
        agent = product_token(useragent)
        if self.disallow_all:
            return RobotsTxt.disallow_all().explain(url, agent=agent)
        if self.allow_all:
            return RobotsTxt.allow_all().explain(url, agent=agent)
        if self.robots is None or not self.last_checked:
            return None
        return self.robots.explain(url, agent=agent)
