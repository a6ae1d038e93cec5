"""Cache-backed checkers for crawlers: "may I fetch this URL?" at any scale, sync and async.

:class:`RobotsCache` (and its twin :class:`AsyncRobotsCache`) finds the robots.txt that
governs a URL, fetches it when the store has no fresh copy, keeps the result for its
lifetime, and answers with the rules :func:`robotsrules.policy.effective` says to apply
(last good copy while a site is unreachable, the 30-day rule).

Each origin is fetched at most once at a time: concurrent callers asking about one origin
wait for that one fetch (single flight, per process). A store with a fleet lock
(:class:`~robotsrules.cache.redis.RedisStore`) makes it one fetch per fleet: the processes
sharing the store wait for one holder's fetch and read its copy
(:mod:`robotsrules._fetch._fleet`; when the lock fails, per process again). At most
``max_concurrency`` robots.txt fetches (64 by default) are in flight at once per checker,
whatever the number of origins asked about together: the others wait for a slot, so a
crawler that starts thousands of tasks does not open thousands of sockets. A small
in-process memo of entries spares the store a round trip while an entry is fresh; when it
goes stale the store is read again first, since another process sharing it may have
refreshed it already.

A store that fails (a Redis outage, a locked database) does not stop a crawl: the error is
counted in :attr:`RobotsCache.store_errors` and logged (one warning per outage, the rest at
debug level), and the checker goes on with what it has in memory; a miss in the store (a
dropped write, a failed read) never loses the good copy held in memory. A shared store's
``put`` may return the entry it merged with another process's (see
:func:`robotsrules.cache.merge`): that is the entry the checker serves.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import (
    Any,
    Callable,
    Literal,
    NamedTuple,
    Optional,
    TypeVar,
    Union,
    overload,
)

import httpx

from .._page import TDMREP_PATH, TdmRepFile, tdmrep_from
from .._rsl import (
    LICENSE_KEY,
    LicenseDocument,
    LicenseTerms,
    checked,
    license_from,
    license_url_problem,
    robots_unknown,
    too_old,
    unread,
)
from .._rules._agents import Agent, agent_tokens
from .._rules._usage import Usage
from .._scope import origin_of
from .._tables._purposes import Purpose, check_purpose
from ..cache import MemoryStore, Store
from ..errors import InvalidAgent, InvalidArgument
from ..model import Verdict
from ..policy import DAY, Entry, Policy, Served, effective
from ._drive import arun, run
from ._fetcher import DEFAULT_TIMEOUT, afetch, fetch
from ._fleet import Fleet, Refresh
from ._refresh import MEMO_LIMIT, Fetch, Load, Refresher, RefreshReply, RefreshStep, Save
from ._sign import Sign

__all__ = ["AsyncRobotsCache", "RobotsCache"]

DEFAULT_MAX_CONCURRENCY = 64
"""robots.txt fetches a checker runs at once, by default (``max_concurrency``)."""
FTP_THREADS = 8
"""Threads of an :class:`AsyncRobotsCache` for FTP fetches, at most (each fetch still ends by
its deadline, waiting for a thread included)."""

_T = TypeVar("_T")


@dataclass
class _Flight:
    """One origin's refresh under way in a :class:`RobotsCache`: the lock its callers take
    turns on, and how many of them hold or wait for it (the record goes at zero)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


@dataclass
class _AsyncFlight:
    """:class:`_Flight` for an :class:`AsyncRobotsCache` (an asyncio lock)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class _Key(NamedTuple):
    """What a checker keeps an entry under: the kind of file and its URL, fetched under the
    same policy. Its :attr:`stored` name in the store is what it always was (a robots.txt
    by its origin, a TDMRep file by its URL, a licence document by ``LICENSE_KEY`` + its
    URL), so that stores written before read the same."""

    kind: Literal["robots", "tdmrep", "license"]
    url: str
    """The origin (``robots``); the file's URL (``tdmrep``: origin + ``TDMREP_PATH``;
    ``license``: the licence document's URL)."""

    @property
    def stored(self) -> str:
        """The name of the entry in the store."""
        return LICENSE_KEY + self.url if self.kind == "license" else self.url

    @property
    def resource(self) -> Optional[str]:
        """The URL fetched instead of the origin's robots.txt (``None``: robots.txt)."""
        return None if self.kind == "robots" else self.url

    @property
    def credentials(self) -> bool:
        """Whether the caller's credentials may be sent: a licence document may live on any
        origin (RSL 1.0 §4.4), and the credentials are meant for the sites crawled."""
        return self.kind != "license"

    def __str__(self) -> str:  # as the refresher logs it
        return self.stored


def _default_agent(user_agent: str) -> Optional[Agent]:
    try:
        agent_tokens(user_agent)
    except InvalidAgent:
        return None
    return user_agent


class _Base:
    """What both checkers share: configuration, the refresher (memo, counters, refresh
    flow: :mod:`robotsrules._fetch._refresh`) and the agent default."""

    def __init__(
        self,
        store: Optional[Store],
        user_agent: str,
        agent: Optional[Agent],
        timeout: float,
        policy: Optional[Policy],
        clock: Callable[[], float],
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        sign: Optional[Sign] = None,
    ) -> None:
        if (not isinstance(max_concurrency, int) or isinstance(max_concurrency, bool)
                or max_concurrency < 1):
            raise InvalidArgument(
                f"max_concurrency must be a positive int, not {max_concurrency!r}")
        self.max_concurrency = max_concurrency
        """robots.txt fetches in flight at once, at most."""
        self.store: Store = store if store is not None else MemoryStore()
        self.user_agent = user_agent
        self.agent = agent if agent is not None else _default_agent(user_agent)
        self.timeout = timeout
        self.policy = policy or Policy()
        self.clock = clock
        self.sign = sign
        """The signer of every fetch (robots.txt, TDMRep, licence documents), or None."""
        # a memo larger than the memory store it stands before would keep what the store
        # drops: the store's bound is the memory the caller allowed
        self._refresher = Refresher(min(MEMO_LIMIT, self.store.max_entries) if isinstance(
            self.store, MemoryStore) else MEMO_LIMIT)
        self._memo = self._refresher.memo
        # A fetch ends by its total deadline (3 * timeout, see fetch()): the fleet lock's.
        self._fleet = Fleet.of(self.store, self._refresher, 3 * timeout)

    @property
    def store_errors(self) -> int:
        """Store operations that failed (logged on the ``robotsrules`` logger)."""
        return self._refresher.store_errors

    @property
    def fetches(self) -> int:
        """robots.txt fetches made by this checker."""
        return self._refresher.fetches

    def _agent(self, agent: Optional[Agent]) -> Agent:
        chosen = agent if agent is not None else self.agent
        if chosen is None:
            raise InvalidAgent(
                f"no agent given and the user agent {self.user_agent!r} is not a product "
                "token: pass agent='YourBot'"
            )
        return chosen

    def _license_read(self, entry: Entry, url: str, origin: Optional[str]
                      ) -> tuple[LicenseDocument, Optional[Entry]]:
        """The licence document ``entry`` serves, and the entry to keep instead when the
        document's ``<rsl max-age>`` (days, RSL 1.0 §3.2) ends its copy's freshness sooner
        than the fetch policy did (``None``: keep it). A last good copy older than max-age
        is not relied on: the document is ``"unreachable"`` (its answers unknown)."""
        now = self.clock()
        served = effective(entry, now, self.policy)
        document = license_from(served, url, origin=origin, max_bytes=self.policy.max_bytes)
        if not document.valid:
            return document, None
        limit = document.max_age * DAY
        if served.reason == "last-good-copy":
            good = entry.good
            if good is not None and now - good.fetched_at > limit:
                return too_old(document, now - good.fetched_at), None
            return document, None
        latest = entry.latest
        cap = latest.fetched_at + limit
        if latest.expires_at <= cap:
            return document, None
        capped = replace(latest, expires_at=cap)
        good = capped if entry.good is latest else entry.good
        return document, replace(entry, latest=capped, good=good)

    def _fresh(self, key: tuple[str, str]) -> Optional[Entry]:
        # The warm path of every question: the memo's entry while it is fresh. Refresher.fresh
        # written out here, so that a warm lookup makes no more calls than it did. A _Key
        # equals and hashes as the plain tuple of its fields, which lookup passes: making a
        # NamedTuple costs a Python call.
        entry = self._memo.peek(key)
        if entry is not None and entry.latest.is_fresh(self.clock()):
            return entry
        return None

    def peek(self, url: str) -> Optional[Served]:
        """The rules that apply to ``url``'s origin now if this process holds a fresh copy,
        without reading the store or the network; ``None`` otherwise (then :meth:`lookup`
        reads the store or fetches). For callers that answer from memory at once and send
        the rest to worker threads."""
        entry = self._fresh(("robots", origin_of(url)))
        return None if entry is None else effective(entry, self.clock(), self.policy)


class RobotsCache(_Base):
    """A thread-safe, cache-backed robots.txt checker.

    >>> cache = RobotsCache(user_agent="ExampleBot/1.0")          # doctest: +SKIP
    >>> cache.allowed("https://example.com/some/page")            # doctest: +SKIP
    True

    ``store`` is any :class:`~robotsrules.cache.Store` (default: a bounded in-memory LRU,
    whose ``max_entries`` also bounds the entries the checker keeps beside it;
    :class:`~robotsrules.cache.SQLiteStore` to persist and share between processes,
    ``robotsrules.cache.redis.RedisStore`` for a fleet). ``user_agent`` is the User-Agent
    header sent; ``agent`` the product token(s) to obey (default: ``user_agent`` when it is
    a token or ``Token/version``). ``clock`` returns the time in seconds since the epoch.
    ``max_concurrency`` bounds the fetches running at once (threads beyond it wait).
    ``sign``: a signer (Web Bot Auth) for every fetch this checker makes, robots.txt,
    TDMRep and licence documents alike, afresh on every redirect hop (see :func:`fetch`);
    default unsigned.
    """

    def __init__(
        self,
        store: Optional[Store] = None,
        *,
        user_agent: str,
        agent: Optional[Agent] = None,
        timeout: float = DEFAULT_TIMEOUT,
        policy: Optional[Policy] = None,
        client: Optional[httpx.Client] = None,
        clock: Callable[[], float] = time.time,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        sign: Optional[Sign] = None,
    ) -> None:
        super().__init__(store, user_agent, agent, timeout, policy, clock, max_concurrency,
                         sign)
        self._client = client
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._guard = threading.Lock()
        self._flights: dict[_Key, _Flight] = {}

    def lookup(self, url: str) -> Served:
        """The rules that apply to ``url``'s origin now, fetching them if needed."""
        origin = origin_of(url)
        entry = self._fresh(("robots", origin))
        if entry is None:
            entry = self._refresh(_Key("robots", origin))
        return effective(entry, self.clock(), self.policy)

    def _refresh(self, key: _Key) -> Entry:
        with self._guard:
            flight = self._flights.get(key)
            if flight is None:
                flight = self._flights[key] = _Flight()
            flight.users += 1
        try:
            with flight.lock:  # one fetch per key at a time; the others wait for it
                fresh = self._fresh(key)
                if self._fleet is None or fresh is not None:
                    return fresh or self._flow(key, Refresh(False))
                return self._fleet.run(key.stored, self.clock(),
                                       lambda: self._do(key, Load()),
                                       lambda step: self._flow(key, step))
        finally:
            with self._guard:
                flight.users -= 1
                if flight.users == 0:
                    del self._flights[key]

    def _flow(self, key: _Key, how: Refresh) -> Entry:
        """The refresh flow of ``key`` (its ``Load`` answered as ``how`` says)."""
        return run(self._refresher.flow(key, self.clock()),
                   lambda step: how.loaded if how.preloaded and isinstance(step, Load)
                   else self._do(key, step))

    def _do(self, key: _Key, step: RefreshStep) -> RefreshReply:
        if isinstance(step, Fetch):
            with self._slots:
                return fetch(key.url, user_agent=self.user_agent, timeout=self.timeout,
                             policy=self.policy, max_bytes=self.policy.max_bytes,
                             client=self._client, now=step.now,
                             resource=key.resource, credentials=key.credentials,
                             sign=self.sign)
        try:  # a store outage must not stop a crawl: the flow logs and goes on
            if isinstance(step, Load):
                return self.store.get(key.stored)
            return self.store.put(key.stored, step.entry)
        except Exception as error:
            return error

    def allowed(self, url: str, agent: Optional[Agent] = None) -> bool:
        """True when ``agent`` may fetch ``url`` under its origin's robots.txt."""
        return self.lookup(url).robots.allowed(url, agent=self._agent(agent))

    def explain(self, url: str, agent: Optional[Agent] = None) -> Verdict:
        """The verdict for ``url`` with its deciding rule (see :meth:`lookup` for the fetch)."""
        return self.lookup(url).robots.explain(url, agent=self._agent(agent))

    def crawl_delay(self, url: str, agent: Optional[Agent] = None) -> Optional[float]:
        """The ``Crawl-delay`` that ``url``'s origin asks of ``agent``, or ``None``."""
        return self.lookup(url).robots.crawl_delay(self._agent(agent))

    def tdmrep(self, url: str) -> TdmRepFile:
        """The TDMRep site policy (``/.well-known/tdmrep.json``) of ``url``'s origin.

        Fetched, kept and refreshed like robots.txt (same policy, store and lifetimes);
        ``.reservation(url)`` / ``.match(url)`` answer for a URL (see
        :mod:`robotsrules._page._tdmrep`).
        """
        key = _Key("tdmrep", origin_of(url) + TDMREP_PATH)
        entry = self._fresh(key) or self._refresh(key)
        return tdmrep_from(effective(entry, self.clock(), self.policy))

    def license_document(self, license_url: str, *, origin: Optional[str] = None
                         ) -> LicenseDocument:
        """The RSL licence document at ``license_url`` (RSL 1.0), fetched, kept and
        refreshed like robots.txt (same policy, bounds, store and lifetimes; the client's
        credentials are never sent). ``origin`` is the site it is read for (its
        ``<content url>`` on other origins are ignored). Never raises for what the server
        does: an unreachable, missing or unreadable document comes back with its
        ``state`` and ``error``."""
        problem = license_url_problem(license_url)
        if problem is not None:
            return unread(license_url, origin, problem)
        key = _Key("license", license_url)
        entry = self._fresh(key) or self._refresh(key)
        for _ in range(2):  # a copy fresher than its max-age allows is capped, then fetched
            document, capped = self._license_read(entry, license_url, origin)
            if capped is None:
                break
            self._refresher.remember(key, capped)
            self._do(key, Save(capped))
            if capped.latest.is_fresh(self.clock()):
                break
            entry = self._refresh(key)
        return document

    def license_for(self, url: str, agent: Optional[Agent] = None, *,
                    user: Optional[str] = None, geo: Optional[str] = None) -> LicenseTerms:
        """The RSL licence terms for ``url``: the ``License`` lines of its origin's
        robots.txt (every one, for every agent: the line is global, RSL 1.0 §4.4), each
        document fetched through :meth:`license_document`; ask the result per purpose
        (``.allows("ai-train")``). No ``License`` line: every answer is ``"unstated"``; a
        document that cannot be fetched or read, or a robots.txt that is unreachable with
        no earlier good copy (whether it has a ``License`` line cannot be told):
        ``"unknown"``, never "permitted" or "unstated". An
        unknown ``user`` class or ``geo`` region raises
        :class:`~robotsrules.InvalidArgument` before anything is fetched."""
        checked(user, geo)
        served = self.lookup(url)
        site = origin_of(url)
        blind = robots_unknown(served, site)
        if blind is not None:
            return LicenseTerms(url, (blind,), user=user, geo=geo)
        links = dict.fromkeys(served.robots.license_urls(self._agent(agent)))
        documents = tuple(self.license_document(link, origin=site) for link in links)
        return LicenseTerms(url, documents, user=user, geo=geo)

    @overload
    def usage(self, url: str, agent: Optional[Agent] = None) -> Usage: ...

    @overload
    def usage(self, url: str, agent: Optional[Agent] = None, *,
              purpose: Purpose) -> Optional[bool]: ...

    def usage(self, url: str, agent: Optional[Agent] = None, *,
              purpose: Optional[Purpose] = None) -> Union[Usage, Optional[bool]]:
        """The AI usage preferences for ``url`` (:meth:`RobotsTxt.usage`) under the rules
        served now (see :meth:`lookup`); with ``purpose``, just its answer (``True``,
        ``False`` or ``None``). Unreachable with no good copy: ``crawl_allowed`` is
        ``False`` and nothing applies; with a last good copy, that copy's preferences; no
        robots.txt (4xx) or unreachable for 30 days: nothing is stated.
        """
        if purpose is not None:
            check_purpose(purpose)
        found = self.lookup(url).robots.usage(url, agent=self._agent(agent))
        return found if purpose is None else found.allows(purpose)

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def __enter__(self) -> RobotsCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncRobotsCache(_Base):
    """The asyncio twin of :class:`RobotsCache` (same arguments, awaitable methods).

    Store operations of stores other than the in-memory one run in worker threads. FTP
    fetches run in a pool of their own (at most :data:`FTP_THREADS` threads), each within
    its deadline, so slow FTP servers cannot starve the store or other origins.
    ``max_concurrency`` bounds the fetches running at once (other tasks wait for a slot).
    """

    def __init__(
        self,
        store: Optional[Store] = None,
        *,
        user_agent: str,
        agent: Optional[Agent] = None,
        timeout: float = DEFAULT_TIMEOUT,
        policy: Optional[Policy] = None,
        client: Optional[httpx.AsyncClient] = None,
        clock: Callable[[], float] = time.time,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        sign: Optional[Sign] = None,
    ) -> None:
        super().__init__(store, user_agent, agent, timeout, policy, clock, max_concurrency,
                         sign)
        self._client = client
        self._flights: dict[_Key, _AsyncFlight] = {}
        # Made on first use, inside the running loop (on Python 3.9 a Semaphore binds to
        # the loop current when it is made).
        self._slots: Optional[asyncio.Semaphore] = None
        # FTP fetches block a thread each: they get a bounded pool of their own, so that
        # slow FTP servers never take the loop's default threads (which the store uses).
        self._ftp_pool: Optional[ThreadPoolExecutor] = None

    async def _call(self, method: Callable[..., _T], *args: Any) -> _T:
        if isinstance(self.store, MemoryStore):
            return method(*args)
        return await asyncio.to_thread(method, *args)

    async def lookup(self, url: str) -> Served:
        """The rules that apply to ``url``'s origin now, fetching them if needed."""
        origin = origin_of(url)
        entry = self._fresh(("robots", origin))
        if entry is None:
            entry = await self._refresh(_Key("robots", origin))
        return effective(entry, self.clock(), self.policy)

    async def _refresh(self, key: _Key) -> Entry:
        flight = self._flights.get(key)
        if flight is None:
            flight = self._flights[key] = _AsyncFlight()
        flight.users += 1
        try:
            async with flight.lock:
                fresh = self._fresh(key)
                if self._fleet is None or fresh is not None:
                    return fresh or await self._flow(key, Refresh(False))
                return await self._fleet.arun(key.stored, self.clock(),
                                              lambda: self._do(key, Load()),
                                              lambda step: self._flow(key, step))
        finally:
            flight.users -= 1
            if flight.users == 0:
                del self._flights[key]

    async def _flow(self, key: _Key, how: Refresh) -> Entry:
        """:meth:`RobotsCache._flow`, awaited."""

        async def do(step: RefreshStep) -> RefreshReply:
            if how.preloaded and isinstance(step, Load):
                return how.loaded
            return await self._do(key, step)

        return await arun(self._refresher.flow(key, self.clock()), do)

    async def _do(self, key: _Key, step: RefreshStep) -> RefreshReply:
        if isinstance(step, Fetch):
            if self._slots is None:
                self._slots = asyncio.Semaphore(self.max_concurrency)
            if self._ftp_pool is None:
                self._ftp_pool = ThreadPoolExecutor(
                    min(self.max_concurrency, FTP_THREADS), thread_name_prefix="robotsrules-ftp")
            async with self._slots:
                return await afetch(key.url, user_agent=self.user_agent, timeout=self.timeout,
                                    policy=self.policy, max_bytes=self.policy.max_bytes,
                                    client=self._client, now=step.now,
                                    ftp_executor=self._ftp_pool, resource=key.resource,
                                    credentials=key.credentials, sign=self.sign)
        try:
            if isinstance(step, Load):
                return await self._call(self.store.get, key.stored)
            return await self._call(self.store.put, key.stored, step.entry)
        except Exception as error:
            return error

    async def allowed(self, url: str, agent: Optional[Agent] = None) -> bool:
        """True when ``agent`` may fetch ``url`` under its origin's robots.txt."""
        return (await self.lookup(url)).robots.allowed(url, agent=self._agent(agent))

    async def explain(self, url: str, agent: Optional[Agent] = None) -> Verdict:
        """The verdict for ``url`` with its deciding rule."""
        return (await self.lookup(url)).robots.explain(url, agent=self._agent(agent))

    async def crawl_delay(self, url: str, agent: Optional[Agent] = None) -> Optional[float]:
        """The ``Crawl-delay`` that ``url``'s origin asks of ``agent``, or ``None``."""
        return (await self.lookup(url)).robots.crawl_delay(self._agent(agent))

    async def tdmrep(self, url: str) -> TdmRepFile:
        """The TDMRep site policy of ``url``'s origin (see :meth:`RobotsCache.tdmrep`)."""
        key = _Key("tdmrep", origin_of(url) + TDMREP_PATH)
        entry = self._fresh(key) or await self._refresh(key)
        return tdmrep_from(effective(entry, self.clock(), self.policy))

    async def license_document(self, license_url: str, *, origin: Optional[str] = None
                               ) -> LicenseDocument:
        """The RSL licence document at ``license_url`` (see
        :meth:`RobotsCache.license_document`)."""
        problem = license_url_problem(license_url)
        if problem is not None:
            return unread(license_url, origin, problem)
        key = _Key("license", license_url)
        entry = self._fresh(key) or await self._refresh(key)
        for _ in range(2):  # see RobotsCache.license_document
            document, capped = self._license_read(entry, license_url, origin)
            if capped is None:
                break
            self._refresher.remember(key, capped)
            await self._do(key, Save(capped))
            if capped.latest.is_fresh(self.clock()):
                break
            entry = await self._refresh(key)
        return document

    async def license_for(self, url: str, agent: Optional[Agent] = None, *,
                          user: Optional[str] = None, geo: Optional[str] = None
                          ) -> LicenseTerms:
        """The RSL licence terms for ``url`` (see :meth:`RobotsCache.license_for`)."""
        checked(user, geo)
        served = await self.lookup(url)
        site = origin_of(url)
        blind = robots_unknown(served, site)
        if blind is not None:
            return LicenseTerms(url, (blind,), user=user, geo=geo)
        links = dict.fromkeys(served.robots.license_urls(self._agent(agent)))
        documents = tuple([await self.license_document(link, origin=site) for link in links])
        return LicenseTerms(url, documents, user=user, geo=geo)

    @overload
    async def usage(self, url: str, agent: Optional[Agent] = None) -> Usage: ...

    @overload
    async def usage(self, url: str, agent: Optional[Agent] = None, *,
                    purpose: Purpose) -> Optional[bool]: ...

    async def usage(self, url: str, agent: Optional[Agent] = None, *,
                    purpose: Optional[Purpose] = None) -> Union[Usage, Optional[bool]]:
        """:meth:`RobotsCache.usage`, awaited."""
        if purpose is not None:
            check_purpose(purpose)
        found = (await self.lookup(url)).robots.usage(url, agent=self._agent(agent))
        return found if purpose is None else found.allows(purpose)

    async def aclose(self) -> None:
        """Close the store (and stop the FTP threads and the fleet lock's waiting threads)."""
        if self._ftp_pool is not None:
            self._ftp_pool.shutdown(wait=False, cancel_futures=True)
            self._ftp_pool = None
        if self._fleet is not None:
            self._fleet.close()
        await self._call(self.store.close)

    async def __aenter__(self) -> AsyncRobotsCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
