"""httpx transports that obey robots.txt: :class:`RobotsTransport` and its async twin.

Wrap any httpx transport; every request is then checked against the robots.txt of its
origin before it is sent::

    import httpx
    from robotsrules.httpx import RobotsTransport

    transport = RobotsTransport(httpx.HTTPTransport(retries=2), user_agent="ExampleBot/1.0")
    with httpx.Client(transport=transport, headers={"User-Agent": "ExampleBot/1.0"}) as client:
        client.get("https://example.com/page")      # raises robotsrules.RobotsDisallowed

* The robots.txt of each origin is fetched once (single flight under concurrency), through
  the *wrapped* transport (so its proxy and TLS settings apply), kept for its lifetime in a
  :class:`robotsrules.RobotsCache` (or :class:`~robotsrules.AsyncRobotsCache`) whose store
  you may choose (SQLite, Redis: shared across runs and processes), with all the fetch rules
  of :mod:`robotsrules.policy` (4xx allow all; 429, 5xx and network errors disallow all and
  are retried later; redirects; the 30-day rule).
* A request robots.txt forbids raises :class:`robotsrules.RobotsDisallowed` carrying the
  URL, the agent and the :class:`~robotsrules.Verdict` with the deciding line. Nothing is
  sent. ``/robots.txt`` itself is always allowed (RFC 9309 §2.2.2).
* Requests to one origin are spaced by its ``Crawl-delay`` (or ``Request-rate``, whichever
  asks for more), capped at ``max_crawl_delay`` seconds, counted from when the previous
  request really started (see :class:`~robotsrules._fetch._pacing.Spacing`); ``crawl_delay=False``
  turns the spacing off. The spacing is per transport (share one transport between clients to share
  it).
* A request with ``extensions={"robotsrules.obey": False}`` skips all of this.
* ``sign=`` a Web Bot Auth signer (``robotsrules.Signer``) signs every request sent through
  the transport, robots.txt fetches included (``robotsrules.obey: False`` ones too: signing
  says who is asking, not whether robots.txt was read), afresh for each redirect hop (httpx
  sends each hop through the transport); the signer's ``origins`` may leave some origins
  unsigned. Off by default.
* ``page_signals=True`` reads each response's page-level signals (``X-Robots-Tag``, robots
  meta tags of an HTML body, TDMRep, ``Content-Usage``; :func:`robotsrules.page_signals`)
  and puts them in ``response.extensions["robotsrules.page"]``; ``purposes=["ai-train"]``
  (which implies it) raises :class:`robotsrules.PageRefused` for a response whose signals,
  combined with its robots.txt's usage preferences (``Content-Signal``, ``Content-Usage``),
  refuse one of them. The body is read when the response is HTML by its ``Content-Type``
  or, without a usable one, starts as markup (the page admission step's one rule): only its
  head, at most :data:`robotsrules._page.DEFAULT_HEAD_BYTES` (512 KiB) decoded octets and one
  more, decoded by ``Content-Encoding`` with the bounded decoder of the robots.txt fetch
  (a compression bomb is never inflated past that). The raw octets read are kept and
  replayed: the response handed back still streams its whole body (``response.read()``,
  ``iter_bytes()``), the rest read from the connection as it was. A body whose coding
  cannot be decoded (unknown, bad or cut data) is "not known", never "nothing stated".
* A response that asks to be paid for (HTTP 402 with ``crawler-price``, Cloudflare's
  pay-per-crawl) carries its :class:`robotsrules.Pricing` in the signals (``.pricing``: the
  price and the terms links); with ``purposes`` it raises :class:`robotsrules.PagePriced`
  (a :class:`~robotsrules.PageRefused`). Nothing is ever paid (no ``crawler-exact-price`` or
  ``crawler-max-price`` header is added) and a 402 is never retried.

Only this module imports httpx for these integrations; the fetch layer uses httpx anyway.
"""

from __future__ import annotations

# The ``name as name`` imports keep importable from here the names this module held before
# its shared step moved to ``_fetch._gate`` (issue 34; tests/test_moves.py).
import asyncio
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Optional, cast
from typing import Tuple as Tuple  # noqa: UP035 (importable from here before issue 34)

import httpx

from ._fetch._fetcher import DEFAULT_TIMEOUT
from ._fetch._gate import Gate
from ._fetch._pacing import DEFAULT_MAX_CRAWL_DELAY, delay_for
from ._fetch._pacing import Spacing as Spacing
from ._fetch._pacing import admit as admit
from ._fetch._pacing import resolve_agent as resolve_agent
from ._fetch._robotscache import AsyncRobotsCache, RobotsCache
from ._fetch._sign import Sign
from ._page import HeadReader, reads_body_of
from ._page import admit_page as admit_page
from ._rules._agents import Agent
from ._scope import SCHEMES
from ._scope import origin_of as origin_of
from ._tables._purposes import check_purposes as check_purposes
from .cache import Store
from .errors import PageRefused as PageRefused
from .policy import Policy, Served

__all__ = ["DEFAULT_MAX_CRAWL_DELAY", "OBEY_EXTENSION", "PAGE_EXTENSION",
           "AsyncRobotsTransport", "RobotsTransport", "delay_for"]


OBEY_EXTENSION = "robotsrules.obey"
"""Request extension: ``False`` sends the request without consulting robots.txt."""


PAGE_EXTENSION = "robotsrules.page"
"""Response extension holding the :class:`robotsrules.PageSignals` (``page_signals=True``)."""


def _reader(response: httpx.Response) -> Optional[HeadReader]:
    """A reader for the body's head when the page admission step needs it (HTML by type, or
    no usable type: sniffed; every ``Content-Type`` field read), else ``None``."""
    if not reads_body_of(response.headers.raw):
        return None
    return HeadReader(", ".join(response.headers.get_list("content-encoding")) or None)


class _Replay(httpx.SyncByteStream):
    """The raw chunks already read, then the rest of the original stream."""

    def __init__(self, chunks: list[bytes], rest: Iterator[bytes],
                 source: httpx.SyncByteStream) -> None:
        self._chunks, self._rest, self._source = chunks, rest, source

    def __iter__(self) -> Iterator[bytes]:
        chunks, self._chunks = self._chunks, []
        yield from chunks
        yield from self._rest

    def close(self) -> None:
        self._source.close()


class _AsyncReplay(httpx.AsyncByteStream):
    """The async twin of :class:`_Replay`."""

    def __init__(self, chunks: list[bytes], rest: AsyncIterator[bytes],
                 source: httpx.AsyncByteStream) -> None:
        self._chunks, self._rest, self._source = chunks, rest, source

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks, self._chunks = self._chunks, []
        for chunk in chunks:
            yield chunk
        async for chunk in self._rest:
            yield chunk

    async def aclose(self) -> None:
        await self._source.aclose()


def _read_head(response: httpx.Response) -> Optional[HeadReader]:
    """Read the head of ``response``'s raw stream (bounded), and put back a stream that
    replays it before the rest."""
    reader = _reader(response)
    if reader is None:
        return None
    source = cast(httpx.SyncByteStream, response.stream)  # a sync transport's stream
    rest = iter(source)
    for chunk in rest:
        if reader.feed(chunk):
            break
    else:
        reader.finish()
    response.stream = _Replay(reader.chunks, rest, source)
    return reader


async def _aread_head(response: httpx.Response) -> Optional[HeadReader]:
    """The async twin of :func:`_read_head`."""
    reader = _reader(response)
    if reader is None:
        return None
    source = cast(httpx.AsyncByteStream, response.stream)  # an async transport's stream
    rest = source.__aiter__()
    async for chunk in rest:
        if reader.feed(chunk):
            break
    else:
        reader.finish()
    response.stream = _AsyncReplay(reader.chunks, rest, source)
    return reader


def _judge(gate: Gate, request: httpx.Request, response: httpx.Response,
           reader: Optional[HeadReader], served: Optional[Served]) -> Optional[PageRefused]:
    """Put the response's page signals in its extensions; the refusal to raise, if any
    (:meth:`Gate._judge_page <robotsrules._fetch._gate.Gate._judge_page>`)."""
    signals, refused = gate._judge_page(response.headers.raw, reader, str(request.url),
                                       response.status_code, served)
    response.extensions[PAGE_EXTENSION] = signals
    return refused


def _obeyed(request: httpx.Request) -> bool:
    return (request.extensions.get(OBEY_EXTENSION, True) is not False
            and request.url.scheme in SCHEMES)


class RobotsTransport(Gate, httpx.BaseTransport):
    """A sync httpx transport that checks robots.txt before each request (module docstring).

    ``transport`` is the transport to wrap (default ``httpx.HTTPTransport()``); it also
    fetches the robots.txt files. ``user_agent`` is the User-Agent header of those fetches;
    ``agent`` the product token(s) to obey (default: :func:`robotsrules.product_token` of
    ``user_agent``). ``store``, ``policy`` and ``timeout`` configure the
    :class:`~robotsrules.RobotsCache` built here; or pass your own ``cache`` instead.
    ``sign``: the signer of every request sent through the transport (module docstring) and
    of the robots.txt fetches of the cache built here (a ``cache`` of your own keeps its
    own ``sign``).
    """

    def __init__(
        self,
        transport: Optional[httpx.BaseTransport] = None,
        *,
        user_agent: str,
        agent: Optional[Agent] = None,
        cache: Optional[RobotsCache] = None,
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
        self.transport = transport if transport is not None else httpx.HTTPTransport()
        if cache is None:
            # The robots.txt requests go through the wrapped transport; this client is never
            # closed (closing it would close the transport, which close() does once).
            client = httpx.Client(transport=self.transport, follow_redirects=False)
            cache = RobotsCache(store, user_agent=user_agent, agent=self.agent,
                                timeout=timeout, policy=policy, client=client, sign=sign)
        self.cache = cache

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Check ``request`` against its origin's robots.txt, wait its turn, then send it."""
        served: Optional[Served] = None
        if _obeyed(request):
            url = str(request.url)
            served = self.cache.lookup(url)
            delay = self._admit(served, url)
            while (wait := self._turn(url, delay)) > 0:
                time.sleep(wait)
        self._sign(request.method, str(request.url), request.headers)
        response = self.transport.handle_request(request)
        if self.page_signals and _obeyed(request):
            refused = _judge(self, request, response, _read_head(response), served)
            if refused is not None:
                response.close()
                raise refused
        return response

    def close(self) -> None:
        """Close the wrapped transport and the cache's store."""
        self.cache.close()
        self.transport.close()


class AsyncRobotsTransport(Gate, httpx.AsyncBaseTransport):
    """The async twin of :class:`RobotsTransport` (wraps ``httpx.AsyncHTTPTransport()`` by
    default, and uses an :class:`~robotsrules.AsyncRobotsCache`)."""

    def __init__(
        self,
        transport: Optional[httpx.AsyncBaseTransport] = None,
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
        self.transport = transport if transport is not None else httpx.AsyncHTTPTransport()
        if cache is None:
            client = httpx.AsyncClient(transport=self.transport, follow_redirects=False)
            cache = AsyncRobotsCache(store, user_agent=user_agent, agent=self.agent,
                                     timeout=timeout, policy=policy, client=client, sign=sign)
        self.cache = cache

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Check ``request`` against its origin's robots.txt, wait its turn, then send it."""
        served: Optional[Served] = None
        if _obeyed(request):
            url = str(request.url)
            served = await self.cache.lookup(url)
            delay = self._admit(served, url)
            while (wait := self._turn(url, delay)) > 0:
                await asyncio.sleep(wait)
        self._sign(request.method, str(request.url), request.headers)
        response = await self.transport.handle_async_request(request)
        if self.page_signals and _obeyed(request):
            refused = _judge(self, request, response, await _aread_head(response), served)
            if refused is not None:
                await response.aclose()
                raise refused
        return response

    async def aclose(self) -> None:
        """Close the wrapped transport and the cache's store."""
        await self.cache.aclose()
        await self.transport.aclose()
