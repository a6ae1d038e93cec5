"""Forward-confirmed reverse DNS, real and bounded (dnspython, the ``verify`` extra).

Theory of operation. A request claims to come from a crawler; its address's PTR names are
read (whoever controls the reverse zone writes them, so they prove nothing alone), the
names under the operator's patterns are kept (:mod:`._names`: label by label, odd names
refused, generic cloud names refused), and each kept name's A or AAAA records (the
address's family; CNAME chains followed, at most :data:`MAX_CHAIN` links, a loop is a
failure) must hold the address. Only then is the answer ``"confirmed"``:

============================  ================================================================
outcome                       when
============================  ================================================================
``"confirmed"``               a PTR name under a pattern resolves forward to the address
``"not-confirmed"``           the DNS answered and nothing confirmed: no PTR (NXDOMAIN or no
                              record), no PTR name under a pattern, or the names' addresses
                              do not hold this one (NXDOMAIN forward too)
``"failed"``                  an answer could not be had: time-out, the deadline, SERVFAIL,
                              a refusal, a broken or looping chain, a damaged message
============================  ================================================================

A failure is never read as either of the others (the verdict it gives is "unknown").

Bounds. Each query has its own time-out (``timeout``) and the whole check a deadline
(``deadline``, 10 s by default; both finite, at most :data:`MAX_DEADLINE`): every attempt
is one query given the time-out or what is left of the deadline, whichever is less (a
time-out is tried again, at most :data:`MAX_ATTEMPTS` times, never past the deadline), and a
check that runs out says so ("the deadline of 10 s passed"). A check reads at most
:data:`MAX_PTR` PTR records and forward-checks at most :data:`MAX_CANDIDATES` names; CNAME
chains (a PTR's too: RFC 2317 delegates reverse zones by CNAME) are followed across answers,
at most :data:`MAX_CHAIN` links. A message is at most 64 KiB by the protocol (UDP first with
a 1,232-byte EDNS buffer, TCP when the answer comes truncated). Answers are cached by
:class:`DnsChecker` (PTR names per address, addresses per name; negative answers too, each
for its TTL, capped at :data:`MAX_TTL` and :data:`MAX_NEGATIVE_TTL`; a failure a server
answered, SERVFAIL or REFUSED, for :data:`FAILURE_TTL`; our own time-out or deadline never:
one address's slow answer must not decide another's), at most ``cache_size`` entries each,
least recently used dropped first.

The resolver is the system's (``/etc/resolv.conf``) or a named server (``"192.0.2.53"``,
``"192.0.2.53:5353"``, ``"[2001:db8::53]:53"``). dnspython is imported here only.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Sequence
from typing import (
    Any,
    Callable,
    Literal,
    NamedTuple,
    Optional,
    Union,
)

from .._lru import LRU
from ..errors import InvalidArgument, MissingExtra
from ._names import cloud_refused, host_name, under

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_TIMEOUT",
    "DnsCheck",
    "DnsChecker",
    "DnsOutcome",
    "parse_server",
]

Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
DnsOutcome = Literal["confirmed", "not-confirmed", "failed"]

DEFAULT_TIMEOUT = 2.0
"""Seconds one query may take."""
DEFAULT_DEADLINE = 10.0
"""Seconds one whole check may take."""
MAX_CHAIN = 8
"""CNAME links followed from a forward name (across queries)."""
MAX_PTR = 16
MAX_CANDIDATES = 4
MAX_TTL = 86_400
MAX_NEGATIVE_TTL = 3_600
FAILURE_TTL = 30
MAX_ATTEMPTS = 3
"""Attempts per question (each its own time-out), all within the deadline."""
MAX_DEADLINE = 86_400.0
"""The longest deadline (and time-out) accepted, as the CLI's ``--timeout``."""
_EDNS_PAYLOAD = 1232  # the DNS flag day 2020 size: no fragmentation on ordinary paths


class DnsCheck(NamedTuple):
    """What forward-confirmed reverse DNS found for one address."""

    outcome: DnsOutcome
    detail: str
    """One line, for people (names shown with control characters made visible)."""
    names: tuple[str, ...] = ()
    """The PTR names read (at most :data:`MAX_PTR`)."""
    name: Optional[str] = None
    """The name that confirmed the address (or, when none did, the first name checked)."""


class _Failure(Exception):
    """An answer could not be had (the message says why). ``answered``: a server said so
    (SERVFAIL, REFUSED, a looping chain): cached for :data:`FAILURE_TTL`. Our own time-out
    or deadline is never cached: one address's slow answer must not decide another's."""

    def __init__(self, message: str, *, answered: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.answered = answered


class _TimedOut(Exception):
    """One attempt got no answer within its lifetime."""


class _Chased(NamedTuple):
    records: tuple[Any, ...]
    ttl: float
    nxdomain: bool
    failure: Optional[_Failure]


class _Names(NamedTuple):
    names: tuple[tuple[str, bool], ...]  # (text, usable)
    failure: Optional[str]


class _Addresses(NamedTuple):
    addresses: frozenset[str]
    failure: Optional[str]
    nxdomain: bool


def parse_server(server: str) -> tuple[str, int]:
    """``ip``, ``ip:port`` or ``[ipv6]:port`` → (ip, port); :class:`InvalidArgument` else."""
    text = server.strip()
    host, port = text, 53
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise InvalidArgument(f"DNS server {server!r}: expected [address]:port")
            port = _port(rest[1:], server)
    elif text.count(":") == 1:
        host, _, rest = text.partition(":")
        port = _port(rest, server)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise InvalidArgument(f"DNS server {server!r} is not an IP address (with an optional "
                              "port: 192.0.2.53:5353, [2001:db8::53]:53)") from None
    return host, port


def _port(text: str, server: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise InvalidArgument(f"DNS server {server!r}: the port is not 1-65535")
    return int(text)


def _dns() -> Any:
    try:
        import dns.exception
        import dns.flags
        import dns.message
        import dns.name
        import dns.rdatatype
        import dns.resolver
        import dns.reversename
    except ImportError:
        raise MissingExtra("reverse DNS verification", "verify", "dnspython") from None
    return dns


class DnsChecker:
    """Forward-confirmed reverse DNS with time-outs, a deadline and a bounded cache.

    ``server``: ``None`` for the system's resolver (``resolv_conf``, read on POSIX systems;
    when it cannot be read, every check fails: the verdict is "unknown"), else
    ``"ip[:port]"``. ``clock``: the monotonic clock of the deadline and the cache (tests
    pass their own). Thread-safe.
    """

    def __init__(self, server: Optional[str] = None, *, timeout: float = DEFAULT_TIMEOUT,
                 deadline: float = DEFAULT_DEADLINE, cache_size: int = 4096,
                 clock: Callable[[], float] = time.monotonic,
                 resolv_conf: str = "/etc/resolv.conf") -> None:
        if not (math.isfinite(timeout) and math.isfinite(deadline)
                and 0 < timeout <= MAX_DEADLINE and 0 < deadline <= MAX_DEADLINE):
            raise InvalidArgument(f"DNS time-out and deadline must be finite seconds above 0 "
                                  f"and at most {MAX_DEADLINE:g}")
        dns = _dns()
        self._broken: Optional[str] = None
        try:
            resolver = dns.resolver.Resolver(resolv_conf, configure=server is None)
        except dns.exception.DNSException as error:  # no /etc/resolv.conf, say
            resolver = dns.resolver.Resolver(configure=False)
            self._broken = f"no system resolver: {type(error).__name__}"
        if server is not None:
            host, port = parse_server(server)
            resolver.nameservers = [host]
            resolver.port = port
        resolver.timeout = timeout
        resolver.lifetime = deadline
        resolver.cache = None
        resolver.retry_servfail = False
        resolver.use_edns(0, 0, _EDNS_PAYLOAD)
        self._dns = dns
        self._resolver = resolver
        self.server = server
        self.timeout = timeout
        self.deadline = deadline
        self._clock = clock
        self._lock = threading.Lock()
        self._ptr: LRU[str, tuple[float, _Names]] = LRU(cache_size)
        self._forward: LRU[tuple[str, int], tuple[float, _Addresses]] = LRU(cache_size)

    # -- the check -------------------------------------------------------------------

    def check(self, address: Address, suffixes: Sequence[str]) -> DnsCheck:
        """Whether a PTR name of ``address`` under one of ``suffixes`` (plain suffixes or
        registry masks: :func:`._names.under`) resolves back to it (see the module
        docstring). Never raises for what the DNS answers."""
        if self._broken is not None:
            return DnsCheck("failed", self._broken)
        until = self._clock() + self.deadline
        read = self._reverse(address, until)
        shown = tuple(text for text, _ in read.names)
        if read.failure is not None:
            return DnsCheck("failed", f"reverse lookup failed: {read.failure}", shown)
        if not read.names:
            return DnsCheck("not-confirmed", f"no PTR record for {address}")
        candidates: list[str] = []
        refused: list[str] = []
        for text, usable in read.names:
            if not usable:
                refused.append(f"{text} (not a plain host name)")
            elif under(text, suffixes) is None:
                refused.append(text)
            else:
                cloud = cloud_refused(text)
                if cloud is not None:
                    refused.append(f"{text} (generic cloud name under {cloud})")
                else:
                    candidates.append(text)
        if not candidates:
            wanted = ", ".join(suffixes) or "no pattern"
            return DnsCheck("not-confirmed", f"PTR {', '.join(refused)}: not under {wanted}",
                            shown)
        failures: list[str] = []
        for name in candidates[:MAX_CANDIDATES]:
            found = self._addresses(name, address.version, until)
            if found.failure is not None:
                failures.append(f"{name}: {found.failure}")
            elif address.compressed in found.addresses:
                return DnsCheck("confirmed", f"PTR {name}, whose "
                                f"{'A' if address.version == 4 else 'AAAA'} records hold "
                                f"{address}", shown, name)
        if failures:
            return DnsCheck("failed", "forward lookup failed: " + "; ".join(failures), shown,
                            candidates[0])
        return DnsCheck("not-confirmed", f"PTR {candidates[0]} does not resolve back to "
                        f"{address}", shown, candidates[0])

    # -- cached lookups ----------------------------------------------------------------

    def addresses(self, host: str) -> list[str]:
        """``host``'s IPv4, then IPv6 addresses, within the deadline: a resolver for the
        fetch layer's address guard (``Guard(resolve=...)``, ``serve --api --dns-server``),
        which vets every address answered. Raises :class:`OSError` when no address came
        back (the failure named)."""
        if self._broken is not None:
            raise OSError(self._broken)
        until = self._clock() + self.deadline
        found: list[str] = []
        failure = "no address"
        for version in (4, 6):
            read = self._addresses(host.rstrip("."), version, until)
            found += sorted(read.addresses)
            failure = read.failure or failure
        if not found:
            raise OSError(f"{host}: {failure}")
        return found

    def _cached(self, cache: LRU[Any, tuple[float, Any]], key: Any) -> Any:
        with self._lock:
            hit = cache.get(key)
            if hit is not None and hit[0] > self._clock():
                return hit[1]
            if hit is not None:
                cache.pop(key)
        return None

    def _store(self, cache: LRU[Any, tuple[float, Any]], key: Any, ttl: float,
               value: Any) -> None:
        if ttl > 0:
            with self._lock:
                cache.put(key, (self._clock() + ttl, value))

    def _reverse(self, address: Address, until: float) -> _Names:
        key = address.compressed
        hit: Optional[_Names] = self._cached(self._ptr, key)
        if hit is not None:
            return hit
        found = self._chase(self._dns.reversename.from_address(key), "PTR", until)
        if found.failure is not None:
            value = _Names((), found.failure.message)
            if found.failure.answered:
                self._store(self._ptr, key, FAILURE_TTL, value)
            return value
        names: list[tuple[str, bool]] = []
        for record in found.records[:MAX_PTR]:
            names.append(host_name(record.target.labels))
        value = _Names(tuple(names), None)
        self._store(self._ptr, key, min(found.ttl, MAX_TTL if names else MAX_NEGATIVE_TTL),
                    value)
        return value

    def _addresses(self, name: str, version: int, until: float) -> _Addresses:
        key = (name, version)
        hit: Optional[_Addresses] = self._cached(self._forward, key)
        if hit is not None:
            return hit
        found = self._chase(self._dns.name.from_text(name), "A" if version == 4 else "AAAA",
                            until)
        if found.failure is not None:
            value = _Addresses(frozenset(), found.failure.message, False)
            if found.failure.answered:
                self._store(self._forward, key, FAILURE_TTL, value)
            return value
        value = _Addresses(frozenset(ipaddress.ip_address(record.address).compressed
                                     for record in found.records), None, found.nxdomain)
        self._store(self._forward, key,
                    found.ttl if value.addresses else min(found.ttl, MAX_NEGATIVE_TTL), value)
        return value

    def _chase(self, qname: Any, rdtype: str, until: float) -> _Chased:
        """One question's records, its CNAME chain followed across answers (a server that
        is not recursive for the chain's target answers the first links only: RFC 2317's
        delegated reverse zones do this for PTR), at most :data:`MAX_CHAIN` links."""
        seen = {qname}
        ttl = float(MAX_TTL)
        for _ in range(MAX_CHAIN + 1):
            try:
                answer, step_ttl, nxdomain, canonical = self._query(qname, rdtype, until)
            except _Failure as failure:
                return _Chased((), 0.0, False, failure)
            ttl = min(ttl, step_ttl)
            if nxdomain or answer is not None:
                return _Chased(() if answer is None else tuple(answer), ttl, nxdomain, None)
            # NOERROR without the records: no record of this type, or a chain that ends in a
            # name this answer did not resolve (then the next link is asked for).
            if canonical is None or canonical == qname:
                return _Chased((), ttl, False, None)
            if canonical in seen:
                return _Chased((), 0.0, False, _Failure("CNAME loop", answered=True))
            seen.add(canonical)
            qname = canonical
        return _Chased((), 0.0, False, _Failure(f"CNAME chain longer than {MAX_CHAIN}",
                                                answered=True))

    def _query(self, qname: Any, rdtype: str, until: float) -> tuple[Any, float, bool, Any]:
        """(the answer's records or ``None``, its TTL, NXDOMAIN?, the end of its CNAME
        chain) for one question; :class:`_Failure` when no answer could be had before
        ``until``. Each attempt is one query (``lifetime`` = the time-out, or what is left
        of the deadline when less: dnspython's own retries and back-off never outlive it);
        a time-out is tried again, at most :data:`MAX_ATTEMPTS` times, while time is left."""
        for _ in range(MAX_ATTEMPTS):
            left = until - self._clock()
            if left <= 0:
                raise _Failure(f"the deadline of {self.deadline:g} s passed")
            lifetime = min(self.timeout, left)
            try:
                return self._attempt(qname, rdtype, lifetime)
            except _TimedOut:
                if lifetime < self.timeout:  # this attempt had the deadline's rest
                    raise _Failure(f"the deadline of {self.deadline:g} s passed") from None
        raise _Failure(f"time-out ({MAX_ATTEMPTS} attempts of {self.timeout:g} s)")

    def _attempt(self, qname: Any, rdtype: str,
                 lifetime: float) -> tuple[Any, float, bool, Any]:
        dns = self._dns
        try:
            answer = self._resolver.resolve(qname, rdtype, search=False, lifetime=lifetime,
                                            raise_on_no_answer=False)
        except dns.resolver.NXDOMAIN as error:
            return None, _negative_ttl(error), True, None
        except dns.resolver.LifetimeTimeout:
            raise _TimedOut() from None
        except dns.message.ChainTooLong:
            raise _Failure("CNAME chain too long (or a loop)", answered=True) from None
        except dns.resolver.NoNameservers as error:
            text, answered = _rcode_text(error)
            raise _Failure(text, answered=answered) from None
        except dns.exception.DNSException as error:
            raise _Failure(f"{type(error).__name__}: {str(error)[:120]}") from None
        except (OSError, ValueError) as error:
            raise _Failure(f"{type(error).__name__}: {str(error)[:120]}") from None
        ttl = float(answer.chaining_result.minimum_ttl)
        return answer.rrset, ttl, False, answer.canonical_name


def _negative_ttl(error: Any) -> float:
    try:
        responses = error.responses()
        for response in responses.values():
            return float(response.resolve_chaining().minimum_ttl)
    except Exception:  # a damaged NXDOMAIN answer: the short default
        pass
    return 60.0


def _rcode_text(error: Any) -> tuple[str, bool]:
    """(why no server answered, whether a server did answer: an answer is cached briefly,
    our own failure to get one never is)."""
    for problem in (error.kwargs or {}).get("errors", ()):
        if len(problem) > 3 and type(problem[3]).__name__ == "ChainTooLong":
            return "CNAME chain too long (or a loop)", True
    text = str(error)
    for code in ("SERVFAIL", "REFUSED", "NOTIMP", "FORMERR"):
        if code in text:
            return f"the server answered {code}", True
    return "no server gave an answer", False
