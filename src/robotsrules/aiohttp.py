"""An aiohttp client middleware that obeys robots.txt: :class:`RobotsMiddleware`.

Needs aiohttp 3.12 or later (client middlewares): ``pip install 'robotsrules[aiohttp]'``.
This is the only module that imports aiohttp. ::

    import aiohttp
    from robotsrules.aiohttp import RobotsMiddleware

    robots = RobotsMiddleware(user_agent="ExampleBot/1.0")
    async with aiohttp.ClientSession(middlewares=(robots,),
                                     headers={"User-Agent": "ExampleBot/1.0"}) as session:
        async with session.get("https://example.com/page") as response:  # or RobotsDisallowed
            ...
    await robots.aclose()

The same rules as :mod:`robotsrules.httpx`: every request, redirect hops included (aiohttp
runs middlewares for each hop), is checked against its origin's robots.txt; a forbidden one
raises :class:`robotsrules.RobotsDisallowed` (URL, agent, deciding line) and is not sent;
requests to one origin are spaced by its ``Crawl-delay``/``Request-rate`` (capped at
``max_crawl_delay``; ``crawl_delay=False`` turns it off); one robots.txt fetch per origin
under concurrency. Pass ``middlewares=()`` to one request to skip the check.

``page_signals=True`` reads each response's page-level signals (``X-Robots-Tag``, robots
meta tags of an HTML body, TDMRep, ``Content-Usage``); :func:`page_signals_of` returns them
for a response. ``purposes=["ai-train"]`` (which implies it) raises
:class:`robotsrules.PageRefused` for a response whose signals, combined with its robots.txt's
usage preferences, refuse one of them. An HTML (by its ``Content-Type``, or untyped and
starting as markup, the admission step's one rule) body
is then read by the middleware, only its head: at most :data:`robotsrules._page.DEFAULT_HEAD_BYTES`
(512 KiB) decoded octets and one more, then put back in front of the stream, so
``await response.read()`` still returns the whole body. aiohttp decodes ``Content-Encoding``
and bounds that decoding by what is read (aiohttp 3.13.3 or later; older versions inflate
each received chunk whole); with ``auto_decompress=False`` the bounded decoder of the
robots.txt fetch decodes the head. A body that cannot be decoded is "not known", never
"nothing stated". Every ``Content-Type`` field is read (the last valid one decides).
A response that asks to be paid for (HTTP 402 with ``crawler-price``, pay-per-crawl) has its
:class:`robotsrules.Pricing` in the signals; with ``purposes`` it raises
:class:`robotsrules.PagePriced`. Nothing is ever paid and a 402 is never retried.

``sign=`` a Web Bot Auth signer (``robotsrules.Signer``) signs every request of the
session, each redirect hop afresh (aiohttp runs the middleware per hop), and the robots.txt
fetches of the cache built here. Off by default.

The robots.txt files are fetched by the fetch layer of robotsrules (httpx, through an
:class:`~robotsrules.AsyncRobotsCache`), not by the session: its bounded, decompression-safe
reader and redirect policy are the ones tested. To route those fetches through a proxy,
pass ``cache=AsyncRobotsCache(..., client=httpx.AsyncClient(proxy=...))``.
"""

from __future__ import annotations

import asyncio
import warnings
import weakref
from collections.abc import Sequence
from typing import Optional

from .errors import MissingExtra

with MissingExtra.guard("robotsrules.aiohttp", "aiohttp"):
    import aiohttp

# The ``name as name`` imports keep importable from here the names this module held before
# its shared step moved to ``_fetch._gate`` (issue 34; tests/test_moves.py).
from ._fetch._fetcher import DEFAULT_TIMEOUT
from ._fetch._gate import Gate
from ._fetch._pacing import DEFAULT_MAX_CRAWL_DELAY
from ._fetch._pacing import Spacing as Spacing
from ._fetch._pacing import admit as admit
from ._fetch._pacing import resolve_agent as resolve_agent
from ._fetch._robotscache import AsyncRobotsCache
from ._fetch._sign import Sign
from ._page import HeadReader, PageSignals, reads_body_of
from ._page import admit_page as admit_page
from ._rules._agents import Agent
from ._scope import SCHEMES
from ._scope import origin_of as origin_of
from ._tables._purposes import check_purposes as check_purposes
from .cache import Store
from .policy import Policy

__all__ = ["RobotsMiddleware", "page_signals_of"]

_PAGES: weakref.WeakKeyDictionary[aiohttp.ClientResponse, PageSignals] = (
    weakref.WeakKeyDictionary())


def page_signals_of(response: aiohttp.ClientResponse) -> Optional[PageSignals]:
    """The page signals a :class:`RobotsMiddleware` read for ``response`` (else ``None``)."""
    return _PAGES.get(response)


_READ = 65536  # decoded octets asked of aiohttp at a time


async def _read_head(response: aiohttp.ClientResponse) -> HeadReader:
    """Read the head of ``response``'s body (at most ``DEFAULT_HEAD_BYTES`` and one more
    decoded octets), then put the octets read back in front of its stream: the caller still
    reads the whole body. aiohttp decodes the content coding itself (its decompression is
    bounded by what is read, aiohttp 3.13.3 or later); a session with
    ``auto_decompress=False`` hands over coded octets, decoded here by the bounded decoder."""
    content = response.content
    reader: Optional[HeadReader] = None
    while True:
        chunk = await content.read(_READ)
        if reader is None:
            decoded = getattr(content, "total_compressed_bytes", None) is not None
            coding = ", ".join(response.headers.getall("Content-Encoding", ()))
            reader = HeadReader(None if decoded else coding or None)
        if not chunk:
            reader.finish()
            break
        if reader.feed(chunk):
            break
    with warnings.catch_warnings():  # deprecated since aiohttp 3.x, still the one way back
        warnings.simplefilter("ignore", DeprecationWarning)
        content.unread_data(b"".join(reader.chunks))
    return reader


class RobotsMiddleware(Gate):
    """An aiohttp client middleware (``ClientSession(middlewares=(this,))``).

    ``user_agent`` is the User-Agent header of the robots.txt fetches; ``agent`` the product
    token(s) to obey (default: :func:`robotsrules.product_token` of ``user_agent``).
    ``store``, ``policy`` and ``timeout`` configure the :class:`~robotsrules.AsyncRobotsCache`
    built here, or pass your own ``cache``. One middleware may serve several sessions; it
    then spaces their requests together. Close it with :meth:`aclose`. ``sign``: the
    signer of every request (module docstring) and of the cache built here.
    """

    def __init__(
        self,
        *,
        user_agent: str,
        agent: Optional[Agent] = None,
        cache: Optional[AsyncRobotsCache] = None,
        store: Optional[Store] = None,
        policy: Optional[Policy] = None,
        timeout: float = DEFAULT_TIMEOUT,
        crawl_delay: bool = True,
        max_crawl_delay: float = DEFAULT_MAX_CRAWL_DELAY,
        page_signals: bool = False,
        purposes: Sequence[str] = (),
        sign: Optional[Sign] = None,
    ) -> None:
        super().__init__(user_agent=user_agent, agent=agent, crawl_delay=crawl_delay,
                         max_crawl_delay=max_crawl_delay, page_signals=page_signals,
                         purposes=purposes, sign=sign)
        self.cache = cache if cache is not None else AsyncRobotsCache(
            store, user_agent=user_agent, agent=self.agent, timeout=timeout, policy=policy,
            sign=sign)

    async def __call__(self, request: aiohttp.ClientRequest,
                       handler: aiohttp.ClientHandlerType) -> aiohttp.ClientResponse:
        """Check ``request``, wait its turn, then pass it on (the middleware protocol)."""
        if request.url.scheme in SCHEMES:
            url = str(request.url)
            served = await self.cache.lookup(url)
            delay = self._admit(served, url)
            while (wait := self._turn(url, delay)) > 0:
                await asyncio.sleep(wait)
        self._sign(request.method, str(request.url), request.headers)
        response = await handler(request)
        if self.page_signals and request.url.scheme in SCHEMES:
            reader = await _read_head(response) if reads_body_of(response.raw_headers) \
                else None
            signals, refused = self._judge_page(response.raw_headers, reader,
                                                     str(request.url), response.status,
                                                     served)
            _PAGES[response] = signals
            if refused is not None:  # a 402 is not served, never paid, not retried
                response.release()
                raise refused
        return response

    async def aclose(self) -> None:
        """Close the cache (its store)."""
        await self.cache.aclose()
