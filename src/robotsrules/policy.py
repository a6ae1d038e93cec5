"""The fetch policy, sans I/O: what each answer to a robots.txt request means, and for how long.

Nothing here touches the network, a disk or the clock: time is always passed in (``now``,
seconds since the epoch). The drivers (:mod:`robotsrules._fetch._fetcher`) perform the requests that
:func:`fetch_flow` asks for and send back what came; caches call :func:`lifetime` and
:func:`effective` to decide what to serve.

Theory of operation. A fetch is a short conversation: GET the robots.txt URL; on a redirect,
GET the target, up to :attr:`Policy.max_redirects` times; then classify the final answer with
:data:`STATUS_OUTCOMES` (RFC 9309 §2.3.1, Google):

=============================  =============  ===========================================
answer                         outcome        meaning
=============================  =============  ===========================================
2xx                            ``ok``         the body's rules
3xx, > max redirects or loop   ``unavailable``  allow all (RFC 9309 §2.3.1.2)
4xx except 429                 ``unavailable``  allow all (RFC 9309 §2.3.1.3)
429, 5xx, network error        ``unreachable``  disallow all for now, retry (§2.3.1.4)
401/403 with ``legacy_auth``   ``forbidden``  disallow all (1996 draft; off by default)
=============================  =============  ===========================================

Freshness (:func:`lifetime`): a result is fresh for :attr:`Policy.default_lifetime`
(24 hours, RFC 9309 §2.4), or for ``Cache-Control: max-age`` clamped to
[:attr:`Policy.min_lifetime`, :attr:`Policy.max_lifetime`]. An unreachable result is retried
after :attr:`Policy.retry_after` (or the server's ``Retry-After``, clamped likewise).

What to serve (:func:`effective`): the newest ok/unavailable result while the site answers;
when a refresh fails as unreachable, the last good copy keeps being served (RFC 9309 §2.4
allows caching past 24 hours when the file is unreachable); with no good copy, disallow all,
until the site has been unreachable for :attr:`Policy.unreachable_limit` (30 days, Google),
after which everything is allowed.
"""

from __future__ import annotations

import email.utils
import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import (
    Any,
    Callable,
    Literal,
    Optional,
    Union,
    overload,
)
from urllib.parse import unquote, urlsplit

from ._rules._agents import Agent
from ._rules._usage import Usage
from ._scope import host_problem, join_url, origin_of, split_origin
from .errors import InvalidArgument, InvalidURL
from .robotstxt import DEFAULT_MAX_BYTES, MODES, Mode, RobotsTxt, Synthetic, reparse

__all__ = [
    "FORBIDDEN",
    "OK",
    "STATUS_OUTCOMES",
    "UNAVAILABLE",
    "UNREACHABLE",
    "Answer",
    "Entry",
    "FetchResult",
    "Outcome",
    "Policy",
    "Request",
    "Served",
    "ServedReason",
    "effective",
    "fetch_flow",
    "lifetime",
    "outcome_for_status",
    "target_problem",
]

Outcome = Literal["ok", "unavailable", "unreachable", "forbidden"]
"""What a fetch of robots.txt came to (see the table above)."""
ServedReason = Literal["fresh", "stale", "last-good-copy", "unreachable", "30-days"]
"""Why a cache serves the rules it serves (see :class:`Served`)."""

OK: Outcome = "ok"
UNAVAILABLE: Outcome = "unavailable"
UNREACHABLE: Outcome = "unreachable"
FORBIDDEN: Outcome = "forbidden"

DAY = 86_400.0

# Status classes -> outcome (RFC 9309 §2.3.1; Google: 429 is treated like 5xx). Checked after
# the exact codes of _EXACT_STATUS; redirects (3xx) are followed before this table is used.
STATUS_OUTCOMES: dict[int, Outcome] = {1: UNREACHABLE, 2: OK, 3: UNAVAILABLE, 4: UNAVAILABLE,
                                   5: UNREACHABLE}
_EXACT_STATUS: dict[int, Outcome] = {429: UNREACHABLE}
_LEGACY_AUTH: dict[int, Outcome] = {401: FORBIDDEN, 403: FORBIDDEN}  # 1996 draft §3.1
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

_MAX_AGE = re.compile(r"(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*\"?([0-9]+)", re.IGNORECASE)
# RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds, delay-seconds = 1*DIGIT (ASCII).
_DELAY_SECONDS = re.compile(r"[0-9]+")
_HTTP_DATE_CHARS = re.compile(r"[A-Za-z0-9 ,:\-]+")
_NO_STORE = re.compile(r"(?:^|,)\s*(?:no-store|no-cache)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Policy:
    """Every knob of the fetch policy; the defaults follow RFC 9309 and Google."""

    max_redirects: int = 5
    """Redirect hops followed (RFC 9309 §2.3.1.2: at least five); more is ``unavailable``."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Octets of the decompressed body read; the rest is not downloaded (RFC 9309 §2.5)."""
    default_lifetime: float = DAY
    """Freshness without ``Cache-Control: max-age`` (RFC 9309 §2.4: 24 hours)."""
    min_lifetime: float = 60.0
    """Lower bound of any lifetime, so ``max-age=0`` cannot make a crawler hammer a site."""
    max_lifetime: float = 7 * DAY
    """Upper bound of a ``max-age`` the server asks for."""
    retry_after: float = 3600.0
    """When to retry an unreachable robots.txt (a ``Retry-After`` header may say otherwise)."""
    unreachable_limit: float = 30 * DAY
    """Unreachable this long with no good copy: allow all (Google's 30-day rule)."""
    legacy_auth: bool = False
    """1996 draft (and urllib.robotparser): 401/403 mean disallow all (outcome ``forbidden``)."""

    @classmethod
    def legacy(cls) -> Policy:
        """The 1996 draft's conventions: 401/403 disallow all, 7-day default lifetime."""
        return cls(legacy_auth=True, default_lifetime=7 * DAY)


@dataclass(frozen=True)
class Request:
    """What :func:`fetch_flow` asks a driver to fetch: an unconditional GET or an FTP RETR."""

    url: str


@dataclass(frozen=True)
class Answer:
    """What a driver sends back: the status and headers, up to ``max_bytes`` of the
    (decompressed) body, or the network error that prevented an answer.

    For FTP, a successful RETR is status 200 and a missing file 404 (RFC 9309 §2.3 leaves
    FTP status mapping to the crawler; a permanent 5xx FTP reply means "no file").
    """

    status: Optional[int] = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    truncated: bool = False
    error: Optional[str] = None
    bad_redirect: Optional[str] = None
    """A redirect whose target the client could not even represent (``javascript:...``)."""


class _ReadOnce:
    """:attr:`FetchResult.robots`: the rules read from the result's body on first use and
    kept in its ``__dict__`` under the same name, where every later read finds them without
    calling this (a descriptor without ``__set__``, as :class:`functools.cached_property`,
    without its lock: threads that race read the body twice and all get the first object
    kept). The warm path of a cache reads them on every question."""

    @overload
    def __get__(self, result: None, owner: Any = None) -> _ReadOnce: ...

    @overload
    def __get__(self, result: FetchResult, owner: Any = None) -> RobotsTxt: ...

    def __get__(self, result: Optional[FetchResult], owner: Any = None
                ) -> Union[_ReadOnce, RobotsTxt]:
        if result is None:
            return self
        kept: RobotsTxt = result.__dict__.setdefault("robots", result._read())
        return kept


@dataclass(frozen=True)
class FetchResult:
    """The outcome of fetching one robots.txt, with the rules to apply until ``expires_at``.

    The result keeps the file's octets (:attr:`body`) and reads its rules, :attr:`robots`,
    on first use only: the parsed file for ``ok``; :meth:`RobotsTxt.allow_all` for
    ``unavailable``; :meth:`RobotsTxt.disallow_all` for ``unreachable`` and ``forbidden``.
    A fetch of another file under the same policy (a ``tdmrep.json``, an RSL licence
    document) is read from :attr:`body` by its own reader, and never as a robots.txt.
    Immutable, picklable and safe to share between threads (the first use of
    :attr:`robots` by two threads at once may read the body twice; both get one object).
    Times are seconds since the epoch.
    """

    url: str
    """The robots.txt URL asked for; its rules govern that origin only (redirects or not)."""
    outcome: Outcome
    status: Optional[int]
    final_url: str
    redirects: tuple[str, ...]
    fetched_at: float
    expires_at: float
    error: Optional[str] = None
    size: int = 0
    """Octets of the body read (at most ``max_bytes``)."""
    truncated: bool = False
    """The body was longer than ``max_bytes``; the rest was not read."""
    body: bytes = field(default=b"", repr=False)
    """The octets the rules are read from (:attr:`RobotsTxt.source`): for ``ok``, the body
    as read, cut at ``max_bytes``; empty when the rules come from no file (:attr:`synthetic`)."""
    cut: bool = False
    """The body given to the parser was longer than ``max_bytes`` and was cut to
    :attr:`body` (:attr:`RobotsTxt.truncated`)."""
    synthetic: Optional[Synthetic] = None
    """``"allow-all"`` (``unavailable``) or ``"disallow-all"`` (``unreachable``,
    ``forbidden``): with an empty :attr:`body`, the rules are
    :meth:`RobotsTxt.allow_all` or :meth:`RobotsTxt.disallow_all`; ``None`` for a file read."""
    mode: Mode = "google"
    """How :attr:`body` is read (:func:`~robotsrules.robotstxt.parse`'s ``mode``)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidArgument(f"unknown mode {self.mode!r}")
        if self.synthetic is not None and self.synthetic not in _SYNTHETIC:
            raise InvalidArgument(f"unknown synthetic rules {self.synthetic!r}")

    robots = _ReadOnce()
    """The rules, read from :attr:`body` on first use and kept."""

    def _read(self) -> RobotsTxt:
        if self.synthetic is not None and not self.body:
            return _SYNTHETIC[self.synthetic]()
        return reparse(self.body, self.cut, self.synthetic, self.mode)

    def with_robots(self, robots: RobotsTxt) -> FetchResult:
        """This result with the rules ``robots`` (their source, flags and mode) instead."""
        synthetic = robots.synthetic
        constructor = _SYNTHETIC.get(synthetic) if synthetic is not None else None
        plain = constructor is not None and robots == constructor()
        made = replace(self, body=b"" if plain else robots.source,
                       cut=False if plain else robots.truncated, synthetic=synthetic,
                       mode="google" if plain else robots.mode)
        made.__dict__["robots"] = robots
        return made

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("robots", None)  # read again from the body when first used
        return state

    @property
    def origin(self) -> str:
        """``scheme://host[:port]`` whose URLs these rules govern."""
        return origin_of(self.url)

    def is_fresh(self, now: float) -> bool:
        """True until ``expires_at``."""
        return now < self.expires_at

    def usage(self, url: str, *, agent: Agent) -> Usage:
        """The AI usage preferences for ``url`` (:meth:`RobotsTxt.usage`) under this result.

        ``ok``: what the file states. ``unavailable`` (allow all): nothing is stated.
        ``unreachable``/``forbidden`` (disallow all): ``crawl_allowed`` is ``False`` and no
        preference applies (nothing may be fetched, so nothing is there to use).
        """
        return self.robots.usage(url, agent=agent)


_SYNTHETIC: dict[Synthetic, Callable[[], RobotsTxt]] = {
    "allow-all": RobotsTxt.allow_all,
    "disallow-all": RobotsTxt.disallow_all,
}


def outcome_for_status(status: int, policy: Policy = Policy()) -> Outcome:
    """The outcome of a final (non-redirect) status code; see :data:`STATUS_OUTCOMES`."""
    if policy.legacy_auth and status in _LEGACY_AUTH:
        return _LEGACY_AUTH[status]
    exact = _EXACT_STATUS.get(status)
    if exact is not None:
        return exact
    return STATUS_OUTCOMES.get(status // 100, UNREACHABLE)


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    value = headers.get(name)
    if value is None:
        for key, item in headers.items():
            if key.lower() == name:
                return item
    return value


def _clamp(seconds: float, policy: Policy) -> float:
    return min(max(seconds, policy.min_lifetime), policy.max_lifetime)


def lifetime(outcome: str, headers: Mapping[str, str], now: float,
             policy: Policy = Policy()) -> float:
    """Seconds a result of ``outcome`` with these response headers stays fresh."""
    if outcome in (UNREACHABLE,):
        retry = _header(headers, "retry-after")
        if retry is not None:
            seconds = _retry_after_seconds(retry.strip(), now)
            if seconds is not None:
                return _clamp(seconds, policy)
        return _clamp(policy.retry_after, policy)
    control = _header(headers, "cache-control") or ""
    if _NO_STORE.search(control):
        return policy.min_lifetime
    match = _MAX_AGE.search(control)
    if match is not None:
        return _clamp(float(match.group(1)), policy)
    return _clamp(policy.default_lifetime, policy)


def _retry_after_seconds(value: str, now: float) -> Optional[float]:
    """Seconds from ``now`` that a ``Retry-After`` value asks for, or ``None`` when the value
    is not one the HTTP grammar allows (RFC 9110 §10.2.3): ASCII digits, or an HTTP-date
    (whose characters are ASCII letters, digits, space, comma, colon and hyphen). Anything
    else (other digits that ``str.isdigit`` accepts, signs, fractions) is ignored."""
    if len(value) > 64:  # no valid value is that long (a date is 29 characters)
        return None if not _DELAY_SECONDS.fullmatch(value) else float("inf")
    if _DELAY_SECONDS.fullmatch(value):
        return float(value)
    if not _HTTP_DATE_CHARS.fullmatch(value) or not any(c.isalpha() for c in value):
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
        seconds = when.timestamp() - now
    except (TypeError, ValueError, IndexError, OverflowError, OSError, AttributeError):
        return None
    if seconds != seconds:  # NaN cannot come from a date, but be sure
        return None
    return max(seconds, 0.0)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def target_problem(url: str) -> Optional[str]:
    """Why ``url`` (an absolute redirect target) cannot be requested, or ``None`` if it can.

    Only http, https and ftp; a port in 1..65535 (or none); a host name that IDNA accepts,
    without empty or over-long labels; no control characters anywhere, nor in the
    percent-decoded user, password and path of an FTP URL (they go into FTP commands).
    """
    if _CONTROL.search(url):
        return "control character in URL"
    try:
        scheme, host, port = split_origin(url)
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError when out of range
    except (InvalidURL, ValueError) as error:
        return str(error)
    if port is not None and not 0 < port < 65536:
        return f"port {port} out of range"
    problem = host_problem(host)
    if problem is not None:
        return problem
    if scheme == "ftp":
        for part in (parts.username, parts.password, parts.path):
            if part and _CONTROL.search(unquote(part)):
                return "control character in FTP user, password or path"
    return None


def fetch_flow(
    url: str, now: float, policy: Policy = Policy()
) -> Generator[Request, Answer, FetchResult]:
    """The fetch conversation as a generator: yields requests, receives answers, returns
    the :class:`FetchResult`. ``url`` is a robots.txt URL (see :func:`robots_url`).

    Drive it with ``send`` (the library's one sync and one async driver are
    ``robotsrules._fetch._drive.run`` and ``arun``: ``run(fetch_flow(url, now), perform)`` where
    ``perform`` turns each :class:`Request` into an :class:`Answer`).
    """
    current = url
    seen = {url}
    redirects: list[str] = []
    while True:
        answer = yield Request(current)
        if answer.bad_redirect is not None:
            return _result(url, current, redirects, UNAVAILABLE, answer, now, policy,
                           f"redirect to an unsupported URL: {answer.bad_redirect}")
        if answer.error is not None or answer.status is None:
            return _result(url, current, redirects, UNREACHABLE, answer, now, policy,
                           answer.error or "no answer")
        status = answer.status
        if status in REDIRECT_STATUSES or (300 <= status < 400 and status != 304):
            location = _header(answer.headers, "location")
            if not location:
                return _result(url, current, redirects, UNAVAILABLE, answer, now, policy,
                               f"HTTP {status} without a Location header")
            target = join_url(current, location.strip())
            problem = "not a URL" if target is None else target_problem(target)
            if problem is not None:
                return _result(url, current, redirects, UNAVAILABLE, answer, now, policy,
                               f"redirect to an unsupported URL: {location!r} ({problem})")
            assert target is not None
            if target in seen:
                return _result(url, current, redirects, UNAVAILABLE, answer, now, policy,
                               f"redirect loop at {target}")
            if len(redirects) >= policy.max_redirects:
                return _result(url, current, redirects, UNAVAILABLE, answer, now, policy,
                               f"more than {policy.max_redirects} redirects")
            redirects.append(target)
            seen.add(target)
            current = target
            continue
        outcome = outcome_for_status(status, policy)
        error = None if outcome == OK else f"HTTP {status}"
        return _result(url, current, redirects, outcome, answer, now, policy, error)


def _result(url: str, final: str, redirects: list[str], outcome: Outcome, answer: Answer,
            now: float, policy: Policy, error: Optional[str]) -> FetchResult:
    body = b""
    cut = False
    synthetic: Optional[Synthetic] = None
    if outcome == OK:  # read as parse(answer.body, max_bytes=...) reads it, when first used
        body = bytes(answer.body)
        limit = policy.max_bytes
        cut = limit is not None and len(body) > limit
        if cut:
            body = body[:max(limit, 0)]
    else:
        synthetic = "allow-all" if outcome == UNAVAILABLE else "disallow-all"
    return FetchResult(
        url=url,
        outcome=outcome,
        status=answer.status,
        final_url=final,
        redirects=tuple(redirects),
        fetched_at=now,
        expires_at=now + lifetime(outcome, answer.headers, now, policy),
        error=error,
        size=len(answer.body),
        truncated=answer.truncated,
        body=body,
        cut=cut,
        synthetic=synthetic,
    )


@dataclass(frozen=True)
class Served:
    """What a cache serves for an origin at a moment: the rules and why these ones.

    The rules come from :attr:`copy` (read on first use of :attr:`robots`); a reader of
    another file fetched under the policy (TDMRep, an RSL licence document) reads
    :attr:`body`, :attr:`synthetic` and :attr:`cut` instead, and never parses a robots.txt.
    """

    copy: Optional[FetchResult]
    """The result whose rules are served (the latest, or the last good copy); ``None`` when
    the 30-day rule serves allow all."""
    result: FetchResult
    """The latest fetch result (possibly unreachable)."""
    reason: ServedReason
    """``"fresh"``, ``"stale"`` (a refresh is due), ``"last-good-copy"`` (unreachable, an
    older good copy is served), ``"unreachable"`` (disallow all), ``"30-days"`` (unreachable
    for longer than the limit with no copy: allow all)."""

    @property
    def robots(self) -> RobotsTxt:
        """The rules served (read on first use)."""
        if self.copy is not None:
            return self.copy.robots
        found: Optional[RobotsTxt] = self.__dict__.get("_robots")
        if found is None:
            found = self.__dict__.setdefault("_robots", RobotsTxt.allow_all())
        return found

    @property
    def body(self) -> bytes:
        """The octets of the file served (:attr:`FetchResult.body`); empty for none."""
        return self.copy.body if self.copy is not None else b""

    @property
    def synthetic(self) -> Optional[Synthetic]:
        """``"allow-all"`` or ``"disallow-all"`` when the rules served come from no file
        (:attr:`FetchResult.synthetic`; ``"allow-all"`` for the 30-day rule)."""
        return self.copy.synthetic if self.copy is not None else "allow-all"

    @property
    def cut(self) -> bool:
        """The file served was cut at the size limit when read (:attr:`FetchResult.cut`)."""
        return self.copy.cut if self.copy is not None else False


@dataclass(frozen=True)
class Entry:
    """What a cache keeps per origin: the latest result, the last good one, and since when
    the site has been unreachable without interruption."""

    latest: FetchResult
    good: Optional[FetchResult] = None
    unreachable_since: Optional[float] = None

    def after(self, result: FetchResult) -> Entry:
        """The entry once ``result`` (a new fetch) has come in."""
        if result.outcome == UNREACHABLE:
            since = self.unreachable_since if self.unreachable_since is not None else (
                result.fetched_at)
            return replace(self, latest=result, unreachable_since=since)
        return Entry(latest=result, good=result, unreachable_since=None)

    @classmethod
    def first(cls, result: FetchResult) -> Entry:
        """The entry for a first fetch."""
        if result.outcome == UNREACHABLE:
            return cls(latest=result, good=None, unreachable_since=result.fetched_at)
        return cls(latest=result, good=result)


def effective(entry: Entry, now: float, policy: Policy = Policy()) -> Served:
    """The rules to apply for an origin at ``now`` (see the module docstring)."""
    latest = entry.latest
    freshness: ServedReason = "fresh" if latest.is_fresh(now) else "stale"
    if latest.outcome != UNREACHABLE:
        return Served(latest, latest, freshness)
    if entry.good is not None:
        return Served(entry.good, latest, "last-good-copy")
    since = entry.unreachable_since if entry.unreachable_since is not None else (
        latest.fetched_at)
    if now - since > policy.unreachable_limit:
        return Served(None, latest, "30-days")
    return Served(latest, latest, "unreachable")
