"""Scrapy integration: a robots.txt parser backend and a drop-in robots middleware.

Needs Scrapy 2.13 or later (``pip install 'robotsrules[scrapy]'``); tested with the Scrapy
the ``test`` extra installs. This is the only module that imports Scrapy or Twisted.

**The parser only** (Scrapy's own middleware, our matching)::

    # settings.py
    ROBOTSTXT_PARSER = "robotsrules.scrapy.RobotParser"

**The middleware** (our matching *and* our fetch policy)::

    # settings.py
    ROBOTSTXT_OBEY = True
    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotsrules.scrapy.RobotsTxtMiddleware": 100,
    }
    ROBOTSRULES_STORE = "sqlite:///var/cache/mycrawler/robots.sqlite3"  # optional

Scrapy's own middleware parses whatever body the robots.txt request returned, so a 403 or
a 503 page becomes an allow-all file, and a network error means "no robots.txt": allow all.
:class:`RobotsTxtMiddleware` sees the status and applies :mod:`robotsrules.policy`
(RFC 9309 §2.3.1, Google): 2xx the file; 4xx allow all; 429, 5xx and network errors
*disallow all* and are retried after the ``Retry-After``/policy delay (the last good copy
is served meanwhile, and allow-all after 30 days); redirects are followed by the policy (5
hops, loops and bad schemes detected; the rules apply to the original origin); lifetimes
from ``Cache-Control`` (24 hours by default).

The robots.txt requests go through Scrapy's own downloader (your proxies, headers, TLS
settings, download handlers and Scrapy's retry middleware apply) with the meta keys
``dont_obey_robotstxt``, ``dont_redirect``, ``handle_httpstatus_all`` and
``allow_offsite``: the middleware drives the sans-I/O :func:`robotsrules.policy.fetch_flow`
with the responses. Each origin is fetched once at a time (single flight) and cached for its
lifetime, in memory and, optionally, in a store shared across runs and processes.

Settings (all optional besides ``ROBOTSTXT_OBEY``):

==============================  ==========================================================
``ROBOTSTXT_OBEY``              must be true, as for Scrapy's middleware
``ROBOTSTXT_USER_AGENT``        the agent to obey; else the request's ``User-Agent`` header,
                                else ``USER_AGENT``; a full header is reduced with
                                :func:`robotsrules.product_token`
``ROBOTSRULES_STORE``           ``"sqlite:///path/file"`` (or ``"sqlite:"`` for the default
                                cache file), ``"redis://host:port/db"``, or a
                                :class:`robotsrules.cache.Store` object; default: memory only
``ROBOTSRULES_POLICY``          a :class:`robotsrules.Policy` (e.g. ``Policy.legacy()``)
``ROBOTSRULES_CRAWL_DELAY``     apply ``Crawl-delay``/``Request-rate`` to the download slot
                                of the request (default ``True``)
``ROBOTSRULES_MAX_CRAWL_DELAY`` upper bound of that delay in seconds (default 60)
``ROBOTSRULES_RETRY``           let Scrapy's retry middleware retry a failing robots.txt
                                request before the policy sees it (default ``True``)
==============================  ==========================================================

**Signing** (Web Bot Auth, issue 38; ``pip install 'robotsrules[scrapy,sign]'``): add
:class:`SigningMiddleware` and name the key and the Signature-Agent::

    DOWNLOADER_MIDDLEWARES = {..., "robotsrules.scrapy.SigningMiddleware": 800}
    ROBOTSRULES_SIGNING_KEY = "/etc/mycrawler/signing-key.pem"    # mode 0600
    ROBOTSRULES_SIGNATURE_AGENT = "https://bot.example"

Every request the downloader sends is signed (the robots.txt requests of
:class:`RobotsTxtMiddleware` too), afresh for each redirect hop and retry, since Scrapy
sends each through the middlewares again; earlier signature headers are dropped first.
``ROBOTSRULES_SIGNING_ORIGINS`` (a list of origins) limits signing to those origins (set
but empty, it is refused);
``ROBOTSRULES_SIGNER`` (any callable ``sign(method, url, headers) -> headers``, such as a
``robotsrules.Signer``) replaces the two settings.

``ROBOTSTXT_PARSER`` is not used: the middleware always matches with robotsrules.
Request meta ``dont_obey_robotstxt`` skips the check. Stats: Scrapy's
``robotstxt/request_count``, ``robotstxt/response_count``,
``robotstxt/response_status_count/<status>``, ``robotstxt/exception_count/<type>`` and
``robotstxt/forbidden``, plus ``robotstxt/outcome/<ok|unavailable|unreachable|forbidden>``
(one per robots.txt fetch), ``robotstxt/forbidden/unreachable`` (requests dropped because
their robots.txt was unreachable), ``robotstxt/store_errors`` and
``robotstxt/crawl_delay/slots`` (download slots slowed down). The ``robots_parsed`` signal
(in the Scrapy versions that have it) is sent with a :class:`RobotParser` for each file fetched.

Crawl-delay is applied to the request's download slot (Scrapy keys slots by host name, so
every origin of a host shares it): its delay is raised to the delay asked, never lowered,
and its random jitter is switched off, since ``RANDOMIZE_DOWNLOAD_DELAY`` would otherwise
send some requests early. It is re-applied to every request, so AutoThrottle cannot take it
below what the site asked.
"""

from __future__ import annotations

import inspect
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar, Union

from .errors import MissingExtra

with MissingExtra.guard("robotsrules.scrapy", "scrapy"):
    from scrapy import signals
    from scrapy.core.downloader import Slot
    from scrapy.exceptions import IgnoreRequest, NotConfigured
    from scrapy.http import Request, Response
    from scrapy.http.request import NO_CALLBACK
    from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
    from scrapy.utils.defer import maybe_deferred_to_future
    from twisted.internet.defer import Deferred
    from twisted.internet.threads import deferToThread

from ._fetch._drive import arun
from ._fetch._pacing import admit
from ._fetch._refresh import Fetch, Load, Refresher, RefreshReply, RefreshStep
from ._fetch._sign import Sign, sign_headers
from ._rules._usage import Usage
from ._scope import origin_of
from ._terminal import visible
from .cache import MemoryStore, SQLiteStore, Store
from .errors import InvalidArgument, InvalidURL
from .model import Verdict
from .policy import UNREACHABLE, Answer, Entry, FetchResult, Policy, Served, effective, fetch_flow
from .policy import Request as PolicyRequest
from .robotstxt import RobotsTxt, parse
from .useragent import product_token

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["DEFAULT_MAX_CRAWL_DELAY", "PAGE_SIGNALS_PRIORITY", "ForbiddenByRobots",
           "NofollowMiddleware", "PageSignalsMiddleware", "PricedByPage", "RefusedByPage",
           "RobotParser", "RobotsTxtMiddleware", "SigningMiddleware", "make_store"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_CRAWL_DELAY = 60.0
"""Default of ``ROBOTSRULES_MAX_CRAWL_DELAY``: the longest slot delay a site can impose.
Longer than the HTTP clients' (``robotsrules._fetch._pacing.DEFAULT_MAX_CRAWL_DELAY``, 30 s)
because here it delays only that site's download slot, not the caller."""

_MEMO_LIMIT = 100_000
_T = TypeVar("_T")
_SLOT_HAS_JITTER = "jitter" in inspect.signature(Slot.__init__).parameters  # Scrapy >= 2.19


def _text(value: Union[str, bytes]) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _url(url: Union[str, bytes]) -> str:
    """A URL given as bytes, as text whose undecodable bytes stand for themselves (PEP 383:
    the matcher encodes them back to the same octets, SPEC D1)."""
    return url.decode("utf-8", "surrogateescape") if isinstance(url, bytes) else url


def _agent(user_agent: Union[str, bytes, None], override: Optional[str]) -> str:
    """The product token to obey: ``ROBOTSTXT_USER_AGENT`` if set, else the header's."""
    source = override or user_agent
    if not source:
        return "*"
    try:
        return product_token(source)
    except ValueError:
        logger.warning("user agent %r names no crawler: obeying the rules for '*' only",
                       source)
        return "*"


class RobotParser(_ScrapyRobotParser):
    """robots.txt read as Google and RFC 9309 read it, for Scrapy's ``ROBOTSTXT_PARSER``.

    ``robotstxt_body`` is the body as bytes (an empty body allows everything);
    ``user_agent`` is ``ROBOTSTXT_USER_AGENT`` when set: it then decides the agent whatever
    :meth:`allowed` is passed. Full User-Agent headers go through
    :func:`robotsrules.product_token`.
    """

    def __init__(self, robotstxt_body: Union[bytes, RobotsTxt], user_agent: Optional[str] = None
                 ) -> None:
        if isinstance(robotstxt_body, RobotsTxt):
            self.robots = robotstxt_body
        else:
            self.robots = parse(robotstxt_body or b"")
        self.user_agent = user_agent

    @classmethod
    def from_crawler(cls, crawler: Optional[Crawler], robotstxt_body: bytes) -> RobotParser:
        """Scrapy's constructor: parse ``robotstxt_body`` with the crawler's settings.

        ``crawler`` may be ``None`` (Scrapy's own parser tests build every backend so): then
        no ``ROBOTSTXT_USER_AGENT`` applies and :meth:`allowed` obeys the agent it is given.
        """
        settings = getattr(crawler, "settings", None)
        user_agent = settings.get("ROBOTSTXT_USER_AGENT") if settings is not None else None
        return cls(robotstxt_body, user_agent or None)

    def agent(self, user_agent: Union[str, bytes]) -> str:
        """The product token obeyed for ``user_agent`` (see the class docstring)."""
        return _agent(user_agent, self.user_agent)

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        """True when the agent of ``user_agent`` may fetch ``url`` (absolute)."""
        return self.robots.allowed(_url(url), agent=self.agent(user_agent))

    def explain(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> Verdict:
        """The verdict behind :meth:`allowed`, with the deciding line."""
        return self.robots.explain(_url(url), agent=self.agent(user_agent))

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The ``Crawl-delay`` asked of the agent of ``user_agent``, in seconds, or None."""
        return self.robots.crawl_delay(self.agent(user_agent))


class ForbiddenByRobots(IgnoreRequest):
    """The ``IgnoreRequest`` raised for a request robots.txt forbids; ``verdict`` has the
    deciding line, ``served`` the fetch outcome behind it."""

    def __init__(self, url: str, verdict: Verdict, served: Served) -> None:
        self.url = url
        self.verdict = verdict
        self.served = served
        if verdict.rule is not None:
            why = f"line {verdict.rule}"
        elif served.reason == "unreachable":
            why = f"{served.result.url} unreachable ({served.result.error})"
        else:
            why = verdict.reason
        super().__init__(f"Forbidden by robots.txt: {why}")


def make_store(value: Union[str, Store, None]) -> Optional[Store]:
    """The store named by ``ROBOTSRULES_STORE`` (see the module docstring); None: memory."""
    if value is None or value == "" or value == "memory":
        return None
    if not isinstance(value, str):
        return value
    if value.startswith("sqlite:"):
        path = value[len("sqlite:"):]
        if path.startswith("//"):
            path = path[2:]
        return SQLiteStore(path or None)
    if value.startswith(("redis://", "rediss://", "unix://")):
        from .cache.redis import RedisStore

        return RedisStore(url=value)
    raise ValueError(
        f"ROBOTSRULES_STORE must be 'sqlite:///path', 'redis://host:port/db' or a Store, "
        f"not {value!r}")


class RobotsTxtMiddleware:
    """A drop-in for ``scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware`` that
    applies robotsrules' fetch policy and matching (see the module docstring)."""

    DOWNLOAD_PRIORITY: int = 1000

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        self.crawler = crawler
        self.stats = crawler.stats
        self._default_user_agent: Optional[str] = settings.get("USER_AGENT")
        self._robots_user_agent: Optional[str] = settings.get("ROBOTSTXT_USER_AGENT") or None
        policy = settings.get("ROBOTSRULES_POLICY")
        self.policy: Policy = policy if isinstance(policy, Policy) else Policy()
        self.store: Optional[Store] = make_store(settings.get("ROBOTSRULES_STORE"))
        self.apply_crawl_delay = settings.getbool("ROBOTSRULES_CRAWL_DELAY", True)
        self.max_crawl_delay = settings.getfloat("ROBOTSRULES_MAX_CRAWL_DELAY",
                                                 DEFAULT_MAX_CRAWL_DELAY)
        self.retry = settings.getbool("ROBOTSRULES_RETRY", True)
        self.clock: Callable[[], float] = time.time
        # The memo, counters and refresh flow RobotsCache has (robotsrules._fetch._refresh).
        self._refresher = Refresher(_MEMO_LIMIT, logger)
        self._flights: dict[str, list[Deferred[Entry]]] = {}
        self._slowed: dict[str, float] = {}
        crawler.signals.connect(self._close, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsTxtMiddleware:
        """Scrapy's constructor."""
        return cls(crawler)

    # -- the downloader middleware API ----------------------------------------------------
    async def process_request(self, request: Request, spider: Any = None) -> None:
        """Let ``request`` through, or raise :class:`ForbiddenByRobots` (an IgnoreRequest)."""
        if request.meta.get("dont_obey_robotstxt"):
            return
        try:
            origin = origin_of(request.url)
        except InvalidURL:  # data:, file:, s3: ... have no robots.txt
            return
        served = await self.served(origin)
        admission = admit(served, request.url, self.agent_for(request),
                          crawl_delay=self.apply_crawl_delay,
                          max_crawl_delay=self.max_crawl_delay)
        if not admission.allowed:
            self.stats.inc_value("robotstxt/forbidden")
            if served.reason == "unreachable":
                self.stats.inc_value("robotstxt/forbidden/unreachable")
            error = ForbiddenByRobots(request.url, admission.verdict, served)
            logger.debug("%s: %s", error, request, extra={"spider": self.crawler.spider})
            raise error
        if admission.delay > 0:
            self._slow_down(request, admission.delay)

    def agent_for(self, request: Request) -> str:
        """The product token obeyed for ``request`` (``ROBOTSTXT_USER_AGENT``, else its
        ``User-Agent`` header, else ``USER_AGENT``)."""
        header = request.headers.get(b"User-Agent") or self._default_user_agent
        return _agent(header, self._robots_user_agent)

    # -- the rules of an origin ---------------------------------------------------------------
    async def served(self, origin: str) -> Served:
        """The rules that apply to ``origin`` now, fetching its robots.txt when needed."""
        entry = self._refresher.fresh(origin, self.clock())
        if entry is None:
            entry = await self._refresh(origin)
        return effective(entry, self.clock(), self.policy)

    async def _refresh(self, origin: str) -> Entry:
        waiting = self._flights.get(origin)
        if waiting is not None:  # single flight: wait for the fetch under way
            done: Deferred[Entry] = Deferred()
            waiting.append(done)
            return await maybe_deferred_to_future(done)
        self._flights[origin] = []
        try:
            entry = await arun(self._refresher.flow(origin, self.clock()),
                               lambda step: self._do(origin, step))
        except BaseException as error:
            for done in self._flights.pop(origin):
                done.errback(error)
            raise
        for done in self._flights.pop(origin):
            done.callback(entry)
        return entry

    async def _do(self, origin: str, step: RefreshStep) -> RefreshReply:
        # The I/O of the shared refresh flow: the store through Twisted's thread pool, the
        # file through Scrapy's downloader; the stats are Scrapy's own.
        if isinstance(step, Fetch):
            return await self.fetch(origin + "/robots.txt", step.now)
        store = self.store
        if store is None:  # memory only: nothing stored, nothing to write
            return None
        try:  # a store outage must not stop a crawl: the flow logs it and goes on
            if isinstance(step, Load):
                return await self._in_thread(store, lambda: store.get(origin))
            entry = step.entry
            return await self._in_thread(store, lambda: store.put(origin, entry))
        except Exception as error:
            self.stats.inc_value("robotstxt/store_errors")
            return error

    @staticmethod
    async def _in_thread(store: Store, call: Callable[[], _T]) -> _T:
        if isinstance(store, MemoryStore):
            return call()
        return await maybe_deferred_to_future(deferToThread(call))

    # -- fetching through Scrapy ------------------------------------------------------------------
    async def fetch(self, robots_url: str, now: float) -> FetchResult:
        """Fetch ``robots_url`` through Scrapy's downloader, driving the policy's flow."""
        result = await arun(fetch_flow(robots_url, now, self.policy), self._answer)
        self.stats.inc_value(f"robotstxt/outcome/{result.outcome}")
        if result.outcome == UNREACHABLE:
            logger.warning("robots.txt %s unreachable (%s): disallowing the site until %s",
                           robots_url, result.error, time.ctime(result.expires_at),
                           extra={"spider": self.crawler.spider})
        parsed = getattr(signals, "robots_parsed", None)  # not in Scrapy 2.13
        if parsed is not None:
            self.crawler.signals.send_catch_log(
                signal=parsed,
                robotparser=RobotParser(result.robots, self._robots_user_agent),
                request=Request(robots_url, callback=NO_CALLBACK),
            )
        return result

    async def _answer(self, step: PolicyRequest) -> Answer:
        url = step.url
        try:
            request = Request(
                url,
                priority=self.DOWNLOAD_PRIORITY,
                callback=NO_CALLBACK,
                # Scrapy decodes gzip leniently (a cut stream gives what it holds, with no
                # error): ask for the file as it is, so that a cut shows as a short body.
                headers={"Accept-Encoding": "identity"},
                meta={"dont_obey_robotstxt": True, "dont_redirect": True,
                      "handle_httpstatus_all": True, "allow_offsite": True,
                      "dont_retry": not self.retry},
            )
        except ValueError as error:  # a redirect to a URL Scrapy cannot request
            return Answer(bad_redirect=f"{url}: {error}")
        self.stats.inc_value("robotstxt/request_count")
        try:
            response = await self._download(request)
        except IgnoreRequest as error:
            return Answer(error=f"robots.txt request ignored: {error}")
        except Exception as error:
            self.stats.inc_value(f"robotstxt/exception_count/{type(error)}")
            return Answer(error=f"{type(error).__name__}: {error}" if str(error)
                          else type(error).__name__)
        self.stats.inc_value("robotstxt/response_count")
        self.stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        headers = {_text(name): ", ".join(_text(value) for value in values)
                   for name, values in response.headers.items()}
        body, limit = response.body, self.policy.max_bytes
        return Answer(status=response.status, headers=headers, body=body[:limit],
                      truncated=len(body) > limit)

    async def _download(self, request: Request) -> Response:
        engine = self.crawler.engine
        assert engine is not None
        download_async = getattr(engine, "download_async", None)
        if download_async is not None:  # Scrapy >= 2.14
            response: Response = await download_async(request)
            return response
        return await maybe_deferred_to_future(engine.download(request))

    # -- crawl-delay ------------------------------------------------------------------------
    def _slow_down(self, request: Request, delay: float) -> None:
        engine = self.crawler.engine
        downloader = getattr(engine, "downloader", None)
        if downloader is None:
            return
        get_key = getattr(downloader, "get_slot_key", None)
        key: str = get_key(request) if get_key is not None else downloader._get_slot_key(
            request, None)
        jitter = ("jitter", 0.0) if _SLOT_HAS_JITTER else ("randomize_delay", False)
        per_slot = getattr(downloader, "per_slot_settings", None)
        if isinstance(per_slot, dict):  # a slot created later (or re-created) starts slow
            settings = per_slot.setdefault(key, {})
            if settings.get("delay", 0.0) < delay:
                settings["delay"] = delay
                settings[jitter[0]] = jitter[1]
        slot = downloader.slots.get(key)
        if slot is not None and slot.delay < delay:
            slot.delay = delay
            setattr(slot, *jitter)
        if self._slowed.get(key, 0.0) < delay:
            self._slowed[key] = delay
            self.stats.inc_value("robotstxt/crawl_delay/slots")
            logger.debug("download slot %r: %.2f s between requests (robots.txt of %s)",
                         key, delay, origin_of(request.url))

    def _close(self, spider: Any = None) -> None:
        if self.store is not None:
            self.store.close()


# -- request signing (issue 38) ------------------------------------------------------------

def _signing_origins(settings: Any) -> Optional[list[str]]:
    """``ROBOTSRULES_SIGNING_ORIGINS`` as a list (``"a, b"`` or a list), ``None`` when unset;
    set but empty is refused: read as "any origin" it would sign everywhere."""
    if settings.get("ROBOTSRULES_SIGNING_ORIGINS") is None:
        return None
    origins = [origin.strip() for origin in settings.getlist("ROBOTSRULES_SIGNING_ORIGINS")
               if origin.strip()]
    if not origins:
        raise InvalidArgument("ROBOTSRULES_SIGNING_ORIGINS is set but names no origin: name "
                              "the origins to sign for, or remove the setting to sign for all")
    return origins


class SigningMiddleware:
    """A downloader middleware signing every request with Web Bot Auth (module docstring:
    ``ROBOTSRULES_SIGNING_KEY`` and ``ROBOTSRULES_SIGNATURE_AGENT``, or
    ``ROBOTSRULES_SIGNER``; ``ROBOTSRULES_SIGNING_ORIGINS``). Without them it is not
    configured (Scrapy leaves it out); one of the two settings without the other is an
    :class:`~robotsrules.InvalidArgument`, as is a key file others may read."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        signer = settings.get("ROBOTSRULES_SIGNER")
        key = settings.get("ROBOTSRULES_SIGNING_KEY")
        agent = settings.get("ROBOTSRULES_SIGNATURE_AGENT")
        if signer is None and not key and not agent:
            raise NotConfigured("no ROBOTSRULES_SIGNING_KEY: requests are not signed")
        if signer is None:
            if not key or not agent:
                raise InvalidArgument("ROBOTSRULES_SIGNING_KEY and ROBOTSRULES_SIGNATURE_AGENT "
                                      "go together")
            from ._identity._httpsig import Signer, SigningKey

            signer = Signer(SigningKey.load(key), agent, origins=_signing_origins(settings))
        if not callable(signer):
            raise InvalidArgument("ROBOTSRULES_SIGNER must be callable (a robotsrules.Signer)")
        self.sign: Sign = signer

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SigningMiddleware:
        """Scrapy's constructor."""
        return cls(crawler)

    def process_request(self, request: Request, spider: Any = None) -> None:
        """Sign ``request`` in place (its earlier signature headers dropped)."""
        sign_headers(self.sign, request.method, request.url, request.headers)


# -- page-level signals (issue 16) ---------------------------------------------------------

class RefusedByPage(IgnoreRequest):
    """The response's signals (with its robots.txt's usage lines) refuse a declared purpose.

    ``answer`` is the :class:`robotsrules.Answer`: the level and statement that
    decided."""

    def __init__(self, url: str, purpose: str, answer: Any) -> None:
        self.url, self.purpose, self.answer = url, purpose, answer
        super().__init__(f"{purpose} refused for {url}: {answer.describe()}")


class PricedByPage(IgnoreRequest):
    """The response asks to be paid for (HTTP 402 with ``crawler-price``): nothing was paid,
    nothing is retried. ``pricing`` is the :class:`robotsrules.Pricing`."""

    def __init__(self, url: str, pricing: Any) -> None:
        self.url, self.pricing = url, pricing
        super().__init__(f"{url} asks to be paid for: {pricing.describe()}")


PAGE_SIGNALS_PRIORITY = 580
"""The ``DOWNLOADER_MIDDLEWARES`` priority to give :class:`PageSignalsMiddleware`: below
Scrapy's ``HttpCompressionMiddleware`` (590), so that its ``process_response`` sees the body
decompressed."""


def _page_body(response: Response) -> tuple[Optional[bytes], bool]:
    """The body :func:`robotsrules._page.admit_page` reads (``None`` when the response is
    not HTML by its ``Content-Type`` fields, all of them read, nor untyped) and whether it is
    only a start. A body still coded (a ``Content-Encoding`` left: the middleware runs
    before ``HttpCompressionMiddleware``, or that one could not decode it) is decoded here
    by the bounded decoder, at most ``DEFAULT_HEAD_BYTES`` and one more octet; one that
    cannot be decoded is "not known"."""
    from ._page import DEFAULT_HEAD_BYTES, HeadReader, reads_body_of

    if not reads_body_of(response.headers):
        return None, False
    codings = b", ".join(response.headers.getlist("Content-Encoding")).decode("latin-1")
    if not codings.strip(", \t").lower().replace("identity", "").strip(", \t"):
        return response.body, False
    reader = HeadReader(codings, DEFAULT_HEAD_BYTES)
    if not reader.feed(response.body):
        reader.finish()
    return reader.body, reader.cut


class PageSignalsMiddleware:
    """Downloader middleware: read each response's page-level signals.

    ``response.meta["robotsrules"]`` is set to the :class:`robotsrules.PageSignals` of the
    response (``X-Robots-Tag``, robots meta tags, TDMRep, ``Content-Usage``) for the agent
    the robots middleware obeys (``ROBOTSTXT_USER_AGENT``, else the request's
    ``User-Agent``). With ``ROBOTSRULES_PURPOSES = ["ai-train", ...]`` a response whose
    signals refuse a declared purpose, or whose robots.txt does (its ``Content-Signal`` /
    ``Content-Usage`` lines, as held by :class:`RobotsTxtMiddleware`), is dropped
    (:class:`RefusedByPage`) and counted under
    ``robotsrules/page/refused/<purpose>/<rule>`` (``<rule>`` is ``robots.txt`` for the
    site's lines); every response read is counted under
    ``robotsrules/page/responses``. The body is read when the response is HTML by its
    ``Content-Type`` or, without a usable one, sniffs as HTML (the admission step's one
    rule). A response that asks to be paid for (HTTP 402 with
    ``crawler-price``, pay-per-crawl) is counted under ``robotsrules/page/priced``, logged
    with its price and terms link, and marked ``dont_retry`` (Scrapy's retry middleware
    leaves it alone even if 402 is in ``RETRY_HTTP_CODES``); with ``ROBOTSRULES_PURPOSES``
    it is dropped (:class:`PricedByPage`). No payment header is ever sent. Enable it next
    to the robots middleware, below Scrapy's ``HttpCompressionMiddleware`` (590;
    :data:`PAGE_SIGNALS_PRIORITY`), whose ``process_response`` then runs first::

        DOWNLOADER_MIDDLEWARES = {..., "robotsrules.scrapy.PageSignalsMiddleware": 580}

    Given a higher priority (it then sees the body before it is decompressed), it decodes a
    body still carrying its ``Content-Encoding`` itself, with the bounded decoder of the
    robots.txt fetch (at most :data:`robotsrules._page.DEFAULT_HEAD_BYTES` decoded octets); a
    coding it cannot decode makes the page's signals "not known", never "nothing stated".
        SPIDER_MIDDLEWARES = {"robotsrules.scrapy.NofollowMiddleware": 100}

    Request meta ``dont_obey_robotstxt`` skips it, as it skips the robots check.
    """

    def __init__(self, crawler: Crawler) -> None:
        from ._tables._purposes import check_purposes

        self.crawler = crawler
        self.stats = crawler.stats
        self.override: Optional[str] = crawler.settings.get("ROBOTSTXT_USER_AGENT") or None
        self.purposes = check_purposes(crawler.settings.getlist("ROBOTSRULES_PURPOSES"))
        self._robots: Union[RobotsTxtMiddleware, bool, None] = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageSignalsMiddleware:
        """Scrapy's constructor."""
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Any = None) -> Response:
        """Attach the signals to ``response.meta``; drop the response if they refuse."""
        from ._page import admit_page

        if request.meta.get("dont_obey_robotstxt"):
            return response
        header = request.headers.get("User-Agent")
        agent = _agent(header, self.override)
        body, cut = _page_body(response)
        admission = admit_page(response.headers, body, agents=[agent], purposes=self.purposes,
                               url=response.url,
                               usage=lambda a: self._usage(response.url, agent),
                               status=response.status, cut=cut)
        request.meta["robotsrules"] = admission.signals[0]
        self.stats.inc_value("robotsrules/page/responses")
        pricing = admission.pricing
        if pricing is not None and pricing.asked:
            self.stats.inc_value("robotsrules/page/priced")
            request.meta["dont_retry"] = True  # a price is no failure: never retried
            logger.info("%s asks to be paid for: %s", response.url,
                        visible(pricing.describe()))
            if self.purposes:
                raise PricedByPage(response.url, pricing)
        refused = admission.refused
        if refused is not None:
            answer = refused.answer
            rule = answer.directive.rule if answer.directive is not None else "robots.txt"
            self.stats.inc_value(f"robotsrules/page/refused/{refused.purpose}/{rule}")
            raise RefusedByPage(response.url, refused.purpose, answer)
        return response

    def _usage(self, url: str, agent: str) -> Optional[Usage]:
        """The robots.txt usage preferences of ``url``, from the rules the robots middleware
        holds for its origin (``None`` when it is not enabled or holds nothing)."""
        if self._robots is None:
            engine = getattr(self.crawler, "engine", None)
            chain = getattr(getattr(getattr(engine, "downloader", None), "middleware", None),
                            "middlewares", ())
            self._robots = next((m for m in chain if isinstance(m, RobotsTxtMiddleware)), False)
        robots = self._robots
        if not isinstance(robots, RobotsTxtMiddleware):
            return None
        try:
            entry = robots._refresher.memo.peek(origin_of(url))
        except InvalidURL:
            return None
        if entry is None:
            return None
        served = effective(entry, robots.clock(), robots.policy)
        return served.robots.usage(url, agent=agent)


class NofollowMiddleware:
    """Spider middleware: no requests from a page whose signals say ``nofollow``.

    Reads ``response.meta["robotsrules"]`` (set by :class:`PageSignalsMiddleware`); the
    items a callback yields pass, the requests are dropped and counted under
    ``robotsrules/page/nofollow_dropped``. Google: nofollow - "Do not follow the links on
    this page".
    """

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NofollowMiddleware:
        """Scrapy's constructor."""
        return cls(crawler)

    def _keep(self, response: Response, result: Any) -> bool:
        signals_ = response.meta.get("robotsrules") if response.request is not None else None
        if isinstance(result, Request) and signals_ is not None and not signals_.follow:
            self.stats.inc_value("robotsrules/page/nofollow_dropped")
            return False
        return True

    def process_spider_output(self, response: Response, result: Any,
                              spider: Any = None) -> Any:
        """Filter the callback's output (sync iterables)."""
        return (r for r in result if self._keep(response, r))

    async def process_spider_output_async(self, response: Response, result: Any,
                                          spider: Any = None) -> Any:
        """Filter the callback's output (async iterables)."""
        async for r in result:
            if self._keep(response, r):
                yield r
