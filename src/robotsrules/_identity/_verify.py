"""Who is really asking: :func:`verify` gives one visitor's verdict with its evidence.

Theory of operation. A request claims a crawler by its User-Agent header (read with the one
product-token reading of :func:`robotsrules.product_token`, then the registry's
:func:`~robotsrules._tables._crawlers.crawler_for`) or the caller names the token. Every
kind of evidence an operator can publish is then looked at, each giving one outcome:

=================  ===========================================================================
kind               how
=================  ===========================================================================
``address-list``   the operator's published lists that cover the token (the address snapshot,
                   :mod:`robotsrules._tables._addresses`): the address in one of them
``name-pattern``   forward-confirmed reverse DNS (:mod:`._dns`): a PTR name under the
                   operator's documented suffixes whose A/AAAA records hold the address
``web-bot-auth``   signed requests (HTTP message signatures): needs the request itself; the
                   signing work adds it, here it is ``not-checked`` when published
=================  ===========================================================================

Outcomes: ``confirmed``, ``not-confirmed``, ``unknown`` (the evidence could not be had: a
DNS failure, a list the snapshot could not capture, no snapshot), ``not-checked`` (DNS
turned off, or not needed once a list confirmed), ``not-published``. The verdict, in order:

* ``verified``: some evidence is ``confirmed``. Only positive evidence verifies;
* ``unverifiable``: the operator publishes no evidence, or the claim names no crawler the
  registry knows, or a User-Agent header was given that names none (a browser, ``*``, an
  empty header: nothing to verify; never "verified" because the address is in some list);
* ``unknown``: some evidence is ``unknown``, or some published kind could not be checked
  (signatures without the request: Google-Agent's address outside its list is ``unknown``,
  as a signed request could still verify it), or every published kind went unchecked (only
  DNS, turned off). A DNS failure is never "verified" nor "not verified";
* ``not-verified``: every published kind was checked and failed. A kind the caller turned
  off (DNS, :attr:`Evidence.turned_off`) is left out: with DNS turned off, the lists alone
  decide for an operator that publishes lists (the answer says DNS was not checked).

This is the one rule of issue 38 for the three kinds (:func:`combined_verdict`);
:func:`~robotsrules._identity._request.verify_request` answers by it too.

A list shared by several agents (Anthropic's one list for three agents) verifies the
operator, not which of its agents asked: :attr:`Verification.operator_only` says so and the
reason names the agents. A DNS name always verifies the operator only: operators publish
their names per operator (Bing's "Verifying Bingbot" page, undated, read 2026-11-27, calls a
confirmed ``search.msn.com`` name "a Bing crawler", not Bingbot), and no pattern of the
snapshot documents names for one agent alone. A registry mask
(``rate-limited-proxy-***-***-***-***.google.com``) is matched whole, its first labels'
shape too, never reduced to its bare domain.

A list or a name pattern whose ``role`` is ``cloud-customers`` never verifies. Google's
"Verifying Googlebot and other Google crawlers" says addresses of its
``user-triggered-fetchers.json`` "resolve to gae.googleusercontent.com hostnames" and serve
Google Cloud customers' features (a site on Google Cloud fetching feeds for its users),
while Google's own fetchers come from ``user-triggered-fetchers-google.json`` with
``google.com`` names: such an address is answered "a Google Cloud customer's fetcher
(Google's list google-user-triggered-fetchers), not Google", ``not-verified`` (the list is
positive evidence that the requester is not Google, which ``unverifiable``, "nothing to
check", would hide). An address in
another list of the same operator (GPTBot claimed from ChatGPT-User's addresses) does not
verify the claim: the reason names the list. A stale list (read longer ago than
:data:`~robotsrules._tables._addresses.STALE_AFTER`) still answers, flagged with its age;
staleness never makes a verdict "unknown".

Without a claim (no header, no agent) the question is "whose published list holds this
address?": every list holding it is named, and with DNS on, a PTR name under any operator's
documented suffixes is forward-confirmed; the verdict is ``verified`` (for that operator)
when either finds it.
"""

from __future__ import annotations

import datetime
import ipaddress
import math
import os
import threading
from collections.abc import Sequence
from typing import (
    Any,
    Literal,
    NamedTuple,
    Optional,
    Union,
)

from .._tables._addresses import AddressList, Snapshot, default_data_path, load_snapshot
from .._tables._crawlers import Crawler, crawler_for, known_crawlers
from .._terminal import visible
from ..errors import InvalidAgent, InvalidArgument, RobotsError
from ..useragent import product_token
from ._dns import MAX_DEADLINE
from ._names import cloud_refused, shaped, suffix_of

__all__ = [
    "EVIDENCE_KINDS",
    "Evidence",
    "EvidenceKind",
    "EvidenceOutcome",
    "VerdictName",
    "Verification",
    "combined_verdict",
    "current_snapshot",
    "parse_address",
    "verify",
]

VerdictName = Literal["verified", "not-verified", "unverifiable", "unknown"]
EvidenceKind = Literal["address-list", "name-pattern", "web-bot-auth"]
EvidenceOutcome = Literal["confirmed", "not-confirmed", "unknown", "not-checked",
                          "not-published"]
EVIDENCE_KINDS: tuple[EvidenceKind, ...] = ("address-list", "name-pattern", "web-bot-auth")
"""Every kind of evidence, in the order an answer lists them."""

Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]


class Evidence(NamedTuple):
    """One kind of evidence and what it gave."""

    kind: EvidenceKind
    outcome: EvidenceOutcome
    detail: str
    """One line for people."""
    source: Optional[str] = None
    """The list's URL, or the name patterns' source, or the key directory."""
    list: Optional[str] = None
    """The snapshot's name of the list that holds the address."""
    prefix: Optional[str] = None
    """The prefix that holds it."""
    read: Optional[str] = None
    """When that list was read (``YYYY-MM-DD``)."""
    stale: bool = False
    """The list was read longer ago than the stale age: it still answers, flagged."""
    age_days: Optional[int] = None
    name: Optional[str] = None
    """The PTR name that confirmed (or was checked)."""
    turned_off: bool = False
    """``not-checked`` because the caller turned this kind off (DNS): the combined rule
    leaves it out, and the answer says it was not checked."""


class Verification(NamedTuple):
    """The answer of :func:`verify` for one visitor."""

    address: str
    """The address as read (an IPv4-mapped IPv6 address as its IPv4 address)."""
    verdict: VerdictName
    reason: str
    """One line: why."""
    token: Optional[str] = None
    """The product token claimed (``None``: no claim)."""
    crawler: Optional[str] = None
    """The registry's name of the claimed crawler (``None``: not in the registry)."""
    operator: Optional[str] = None
    category: Optional[str] = None
    evidence: tuple[Evidence, ...] = ()
    """Every kind of evidence (:data:`EVIDENCE_KINDS`), each with its outcome."""
    operator_only: bool = False
    """The evidence verifies the operator, not which of its agents (a shared list)."""
    stale: bool = False
    """A list that answered is stale (see :attr:`Evidence.stale`)."""
    listed_by: tuple[str, ...] = ()
    """Every list of the snapshot holding the address (its operators and names)."""
    user_agent: Optional[str] = None
    snapshot: str = ""
    """Which address snapshot answered (``bundled 2026-11-27``, ``refreshed ...``)."""
    signature: Optional[str] = None
    """A signed request's check (:func:`~robotsrules.verify_request`): ``verified``, or why
    not (``expired``, ``key-not-in-directory``, ``replayed``, ...); ``None`` for an address."""
    directory: Optional[str] = None
    """The signer's key directory URL (:func:`~robotsrules.verify_request`), where read."""

    @property
    def verified(self) -> bool:
        """``verdict == "verified"``."""
        return self.verdict == "verified"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``--json`` line of ``robotsrules verify``)."""
        found = self._asdict()
        found["evidence"] = [item._asdict() for item in self.evidence]
        found["listed_by"] = list(self.listed_by)
        return found


def parse_address(text: Union[str, Address]) -> Address:
    """An IP address from text: IPv4, IPv6, or IPv4-mapped IPv6 (read as its IPv4 address).
    A zone id (``fe80::1%eth0``: a link's address, which no list holds), surrounding junk,
    or anything else is an :class:`~robotsrules.InvalidArgument` with one clear line."""
    if isinstance(text, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        address: Address = text
    elif not isinstance(text, str):
        raise TypeError(f"an address is text, not {type(text).__name__}")
    else:
        shown = visible(text[:80])
        if "%" in text:
            raise InvalidArgument(f"address '{shown}' has a zone id: a link-local address "
                                  "with a zone names a link, never a crawler; give the address "
                                  "alone")
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise InvalidArgument(f"'{shown}' is not an IPv4 or IPv6 address") from None
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            raise InvalidArgument(f"address {str(address)!r} has a zone id; give the address "
                                  "alone")
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
    return address


# -- the DNS checkers, one per configuration, shared by every call (their caches too) ------

_CHECKERS: dict[tuple[Optional[str], float], Any] = {}
_CHECKERS_LOCK = threading.Lock()


def _checker(server: Optional[str], deadline: float) -> Any:
    from ._dns import DnsChecker

    key = (server, float(deadline))
    with _CHECKERS_LOCK:
        found = _CHECKERS.get(key)
        if found is None:
            if len(_CHECKERS) >= 16:
                _CHECKERS.clear()
            found = DnsChecker(server, deadline=deadline,
                               timeout=min(deadline, 2.0))
            _CHECKERS[key] = found
        return found


_LOADED: dict[tuple[str, int, int], Snapshot] = {}
_LOADED_LOCK = threading.Lock()


def current_snapshot(path: Optional[str] = None) -> Snapshot:
    """The snapshot in force (see :func:`load_snapshot`), read again only when the file it
    would read changed (its path, modification time and size): a log's every line is
    verified against one reading, not one each."""
    where = os.fspath(path) if path is not None else str(default_data_path())
    try:
        status = os.stat(where)
        key = (where, status.st_mtime_ns, status.st_size)
    except OSError:
        key = (where, -1, -1)  # absent: the bundled copy answers (or, named, an error)
    with _LOADED_LOCK:
        found = _LOADED.get(key)
    if found is None:
        found = load_snapshot(path)
        with _LOADED_LOCK:
            if len(_LOADED) >= 8:
                _LOADED.clear()
            _LOADED[key] = found
    return found


def _date(moment: Optional[datetime.datetime]) -> Optional[str]:
    return moment.strftime("%Y-%m-%d") if moment is not None else None


def _now(now: Optional[datetime.datetime]) -> datetime.datetime:
    if now is None:
        return datetime.datetime.now(datetime.timezone.utc)
    return now if now.tzinfo is not None else now.replace(tzinfo=datetime.timezone.utc)


def _snapshot_label(snapshot: Snapshot) -> str:
    return f"{snapshot.origin} {_date(snapshot.compiled)}"


def _agents(tokens: Sequence[str]) -> str:
    return ", ".join(tokens)


# -- the evidence ---------------------------------------------------------------------------


def _list_evidence(address: Address, token: str, crawler: Crawler,
                   snapshot: Optional[Snapshot], problem: Optional[str],
                   now: datetime.datetime) -> tuple[Evidence, bool, Optional[str]]:
    """(the evidence, operator only?, a note on another list of the operator holding it)."""
    published = "address-list" in crawler.verify.evidence
    if snapshot is None:
        if not published:
            return Evidence("address-list", "not-published", "the operator publishes no "
                            "address list for it"), False, None
        return Evidence("address-list", "unknown", f"no address snapshot: {problem}",
                        (crawler.verify.ip_ranges or (None,))[0]), False, None
    lists = tuple(item for item in snapshot.lists_for(token) + tuple(
        found for found in map(snapshot.named, crawler.verify.address_lists)
        if found is not None and token not in found.tokens) if item.role == "operator")
    if not lists:
        if published:
            return Evidence("address-list", "unknown", "the registry names an address list "
                            "the snapshot does not hold",
                            (crawler.verify.ip_ranges or (None,))[0]), False, None
        return Evidence("address-list", "not-published", "the operator publishes no address "
                        "list for it"), False, None
    hits = snapshot.index.lookup(address)
    covering = {item.name for item in lists}
    for hit in hits:
        if hit.list.name in covering:
            held = hit.list
            age = held.age(now)
            stale = held.stale(now)
            shared = len(held.tokens) > 1
            detail = f"in {held.operator}'s list {held.name} (prefix {hit.prefix}, read " \
                     f"{_date(held.read_at) or 'never'})"
            if stale and age is not None:
                detail += f", stale: read {age.days} days ago"
            return Evidence("address-list", "confirmed", detail, held.url, held.name,
                            hit.prefix, _date(held.read_at), stale,
                            age.days if age is not None else None), shared, None
    other: Optional[str] = None
    for hit in hits:
        if hit.list.role == "cloud-customers":
            other = f"the address is {_customers(hit.list)}"
            break
        if hit.list.operator == crawler.operator:
            other = f"the address is in {hit.list.operator}'s list {hit.list.name} " \
                    f"({_agents(hit.list.tokens) or 'other agents'}), not {token}'s"
            break
    missing = [item.name for item in lists if not item.captured]
    stale_lists = [item for item in lists if item.captured and item.stale(now)]
    flagged = bool(stale_lists)
    if missing:
        return Evidence("address-list", "unknown", f"not in the captured lists; "
                        f"{', '.join(missing)} could not be captured", lists[0].url,
                        stale=flagged), False, other
    names = ", ".join(item.name for item in lists)
    detail = f"not in {crawler.operator}'s list{'s' if len(lists) > 1 else ''} {names}"
    if stale_lists:
        oldest = max((item.age(now) or datetime.timedelta()).days for item in stale_lists)
        detail += f" (stale: read up to {oldest} days ago)"
    return Evidence("address-list", "not-confirmed", detail, lists[0].url, stale=flagged,
                    read=_date(lists[0].read_at)), False, other


def _customers(held: AddressList) -> str:
    """What an address in a ``cloud-customers`` list is (Google's user-triggered-fetchers)."""
    return (f"a {held.operator} Cloud customer's fetcher ({held.operator}'s list {held.name}),"
            f" not {held.operator}")


_MASKS: dict[tuple[int, str, Optional[str]], tuple[str, ...]] = {}


def _masks(suffix: str, token: Optional[str]) -> tuple[str, ...]:
    """The registry's masks with a documented shape under ``suffix`` (``token``'s own when
    it has some, else every crawler's): a name must match one, not only end in the suffix
    (``rate-limited-proxy-***-***-***-***.google.com`` never lets ``x.corp.google.com``
    in). None: the suffix alone (``*.search.msn.com``)."""
    crawlers = known_crawlers()
    key = (id(crawlers), suffix, token.lower() if token is not None else None)
    found = _MASKS.get(key)
    if found is not None:
        return found
    mine: dict[str, None] = {}
    every: dict[str, None] = {}
    for crawler in crawlers:
        for written in crawler.verify.reverse_dns:
            if shaped(written) and suffix_of(written) == suffix:
                every[written] = None
                if token is not None and (crawler.token or "").lower() == token.lower():
                    mine[written] = None
    found = tuple(mine or every)
    if len(_MASKS) >= 4096:  # a bounded memo: the registry is read once a process
        _MASKS.clear()
    _MASKS[key] = found
    return found


def _patterns(suffixes: Sequence[str], token: Optional[str]) -> tuple[str, ...]:
    """The suffixes as the DNS check takes them: each narrowed to its masks (:func:`_masks`),
    generic cloud names left out (they never confirm)."""
    found: dict[str, None] = {}
    for suffix in suffixes:
        if cloud_refused(f"name.{suffix}") is None:
            found.update(dict.fromkeys(_masks(suffix, token) or (suffix,)))
    return tuple(found)


def _suffixes(token: str, crawler: Crawler,
              snapshot: Optional[Snapshot]) -> tuple[tuple[str, ...], Optional[str]]:
    """(the DNS name patterns documented for the token, their source). A name verifies the
    operator only: operators publish their names per operator (Bing's ``search.msn.com``
    is "a Bing crawler", not Bingbot alone), and none of the snapshot's documents
    names for one agent alone."""
    found: dict[str, None] = {}
    source: Optional[str] = None
    if snapshot is not None:
        for pattern in snapshot.patterns_for(token):
            if pattern.role == "operator":
                found.update(dict.fromkeys(pattern.suffixes))
                source = source or pattern.source
    for written in crawler.verify.reverse_dns:
        suffix = suffix_of(written)
        if suffix is not None:
            found.setdefault(suffix, None)
    return _patterns(tuple(found), token), source or (crawler.source or None)


def _lent_names(names: Sequence[str], snapshot: Optional[Snapshot]) -> str:
    """A note when a PTR name is under a ``cloud-customers`` pattern (Google's
    ``gae.googleusercontent.com``): a cloud customer's machine, named as such."""
    for pattern in snapshot.name_patterns if snapshot is not None else ():
        if pattern.role == "cloud-customers":
            for name in names:
                if pattern.matches(name):
                    return f"; {name} is a {pattern.operator} Cloud customer's machine, " \
                           f"not {pattern.operator}"
    return ""


def _dns_evidence(address: Address, suffixes: tuple[str, ...], source: Optional[str],
                  snapshot: Optional[Snapshot], dns: Union[bool, str], deadline: float,
                  needed: bool) -> Evidence:
    if not suffixes:
        return Evidence("name-pattern", "not-published", "the operator documents no reverse "
                        "DNS names for it")
    wanted = ", ".join(suffixes)
    if not needed:
        return Evidence("name-pattern", "not-checked", f"not needed (names under {wanted})",
                        source)
    if dns is False:
        return Evidence("name-pattern", "not-checked", f"DNS turned off (names under {wanted})",
                        source, turned_off=True)
    checker = _checker(dns if isinstance(dns, str) else None, deadline)
    found = checker.check(address, suffixes)
    outcome: EvidenceOutcome = {"confirmed": "confirmed", "not-confirmed": "not-confirmed",
                                "failed": "unknown"}[found.outcome]  # type: ignore[assignment]
    detail = found.detail
    if outcome != "confirmed":
        detail += _lent_names(found.names, snapshot)
    return Evidence("name-pattern", outcome, detail, source, name=found.name)


def _signature_evidence(crawler: Crawler) -> Evidence:
    if crawler.verify.web_bot_auth is None:
        return Evidence("web-bot-auth", "not-published", "the operator publishes no signing "
                        "keys for it")
    return Evidence("web-bot-auth", "not-checked", "signed requests: verifying one needs the "
                    "request itself", crawler.verify.web_bot_auth)


def combined_verdict(evidence: Sequence[Evidence]) -> tuple[VerdictName, str]:
    """The one rule that combines the kinds of evidence (issue 38): ``verified`` if any
    kind confirms the claim; ``unverifiable`` if the operator publishes none; ``unknown`` if
    some published kind could not be had or could not be checked (a signature without the
    request, an address without it) and none confirmed; ``not-verified`` only when every
    kind the operator publishes was checked and failed. A kind the caller turned off (DNS:
    :attr:`Evidence.turned_off`) is left out: the others decide, and the answer says so."""
    confirmed = next((item for item in evidence if item.outcome == "confirmed"), None)
    if confirmed is not None:
        return "verified", confirmed.detail
    published = [item for item in evidence if item.outcome != "not-published"]
    if not published:
        return "unverifiable", "the operator publishes no way to verify it"
    unknown = [item for item in published if item.outcome == "unknown"]
    if unknown:
        return "unknown", unknown[0].detail
    failed = [item for item in published if item.outcome == "not-confirmed"]
    unchecked = [item for item in published
                 if item.outcome == "not-checked" and not item.turned_off]
    if unchecked:
        said = "; ".join(item.detail for item in failed)
        open_ = "; ".join(f"{item.kind} not checked: {item.detail}" for item in unchecked)
        return "unknown", f"{said}; {open_}" if said else open_
    if not failed:  # every published kind turned off: nothing was checked
        return "unknown", "; ".join(item.detail for item in published)
    return "not-verified", "; ".join(item.detail for item in failed)


# -- the answer -----------------------------------------------------------------------------


def verify(address: Union[str, ipaddress.IPv4Address, ipaddress.IPv6Address],
           user_agent: Optional[str] = None, *, agent: Optional[str] = None,
           now: Optional[datetime.datetime] = None, dns: Union[bool, str] = True,
           dns_deadline: float = 10.0,
           snapshot: Union[str, Snapshot, None] = None) -> Verification:
    """Is the visitor at ``address`` the crawler it claims to be?

    ``user_agent`` is the visitor's User-Agent header (its product token is read as
    everywhere in robotsrules); ``agent`` names the token instead. With neither, the answer
    says whose published list (or documented DNS names) holds the address. ``now`` dates
    the staleness of the lists (default: the current time). ``dns``: ``True`` uses the
    system's resolver, ``"ip[:port]"`` a named server, ``False`` turns reverse DNS off;
    ``dns_deadline`` bounds each verification's DNS work (finite seconds, at most 86,400;
    each query gets at most 2 s or what is left). ``snapshot``: the address lists to read
    (a path, or a loaded snapshot; default: the newer of the bundled and the refreshed
    copy). Raises :class:`~robotsrules.InvalidArgument` for an address that is not one or a
    ``dns_deadline`` out of range, and :class:`~robotsrules.MissingExtra` when DNS is on
    without dnspython (the ``verify`` extra). Everything the DNS or the lists say is data: a
    failure to get it is the verdict ``"unknown"``, never an exception. A User-Agent header
    that names no registry crawler is ``"unverifiable"``; an address in a list whose role is
    ``cloud-customers`` (Google's user-triggered-fetchers) is never ``"verified"``.

    >>> answer = verify("192.0.2.1", agent="GPTBot", dns=False)
    >>> answer.verdict, answer.operator
    ('not-verified', 'OpenAI')
    """
    if user_agent is not None and agent is not None:
        raise InvalidArgument("give the visitor's user_agent or an agent token, not both")
    if not isinstance(dns, (bool, str)):
        raise TypeError("dns is True, False or a server 'ip[:port]'")
    if isinstance(dns, str):
        from ._dns import parse_server

        parse_server(dns)
    if not (isinstance(dns_deadline, (int, float)) and math.isfinite(dns_deadline)
            and 0 < dns_deadline <= MAX_DEADLINE):
        raise InvalidArgument(f"dns_deadline must be finite seconds above 0 and at most "
                              f"{MAX_DEADLINE:g}")
    read = parse_address(address)
    moment = _now(now)
    problem: Optional[str] = None
    lists: Optional[Snapshot]
    if isinstance(snapshot, Snapshot):
        lists = snapshot
    else:
        try:
            lists = current_snapshot(snapshot)
        except RobotsError as error:
            lists, problem = None, str(error)
    label = _snapshot_label(lists) if lists is not None else f"none ({problem})"
    listed_by: tuple[str, ...] = ()
    if lists is not None:
        listed_by = tuple(dict.fromkeys(f"{hit.list.operator}: {hit.list.name}"
                                        for hit in lists.index.lookup(read)))
    shown_ua = visible(user_agent[:500]) if isinstance(user_agent, str) else None
    claimed: Optional[str] = agent
    if user_agent is not None:
        try:
            claimed = product_token(user_agent)
        except (InvalidAgent, ValueError):
            claimed = None
        if claimed == "*":
            claimed = None
        elif claimed is not None:
            claimed = claimed.split("/", 1)[0]
    base = Verification(read.compressed, "unknown", "", claimed, user_agent=shown_ua,
                        listed_by=listed_by, snapshot=label)
    if claimed is None:
        if user_agent is not None:
            # A header naming no registry crawler claims nothing there is to verify: never
            # "verified" (a browser from Google's addresses is not Googlebot), whoever's list
            # holds the address (said, offline: no DNS for every browser of a log).
            said = f"the header '{shown_ua}' names no known crawler: nothing to verify"
            whose = _whose(base, read, lists, False, dns_deadline, moment, said)
            # Whose list holds the address is said (listed_by), but as no claim's evidence:
            # nothing here is "confirmed", and no operator is named as the answer's.
            evidence = tuple(
                item._replace(outcome="not-checked", detail=f"no claim to check: {item.detail}")
                if item.outcome == "confirmed" else item for item in whose.evidence)
            held = f"; the address is in {', '.join(whose.listed_by)}" if whose.listed_by else ""
            return whose._replace(verdict="unverifiable", operator_only=False, operator=None,
                                  evidence=evidence, reason=said + held)
        return _whose(base, read, lists, dns, dns_deadline, moment, "")
    crawler = crawler_for(claimed)
    if crawler is None:
        others = f"; the address is in {', '.join(listed_by)}" if listed_by else ""
        return base._replace(
            verdict="unverifiable",
            reason=f"'{visible(claimed)}' is not in the crawler registry: nothing to verify "
                   f"it by{others}",
            evidence=tuple(Evidence(kind, "not-published", "unknown crawler")
                           for kind in EVIDENCE_KINDS))
    token = crawler.token or claimed
    list_found, list_shared, other = _list_evidence(read, token, crawler, lists, problem,
                                                    moment)
    suffixes, source = _suffixes(token, crawler, lists)
    dns_found = _dns_evidence(read, suffixes, source, lists, dns, dns_deadline,
                              needed=list_found.outcome != "confirmed")
    evidence = (list_found, dns_found, _signature_evidence(crawler))
    verdict, reason = combined_verdict(evidence)
    operator_only = False
    if verdict == "verified":
        by_list = list_found.outcome == "confirmed"
        operator_only = list_shared if by_list else True
        if operator_only:
            what = f"this list is shared by several of {crawler.operator}'s agents" if by_list \
                else f"a host name is {crawler.operator}'s, not one agent's"
            reason += f"; {what}: it verifies {crawler.operator}, not that the agent is {token}"
    elif other is not None:
        reason += f"; {other}"
    if verdict == "not-verified" and dns_found.outcome == "not-checked" and suffixes:
        reason += " (DNS not checked)"
    return base._replace(
        token=token, crawler=crawler.label, operator=crawler.operator,
        category=crawler.category, verdict=verdict, reason=reason, evidence=evidence,
        operator_only=operator_only, stale=list_found.stale)


def _whose(base: Verification, address: Address, snapshot: Optional[Snapshot],
           dns: Union[bool, str], deadline: float, now: datetime.datetime,
           prefix: str) -> Verification:
    """No claim: whose published list, or documented DNS name, holds the address."""
    lead = f"{prefix}; " if prefix else ""
    if snapshot is None:
        return base._replace(verdict="unknown", reason=f"{lead}no address snapshot")
    every = snapshot.index.lookup(address)
    hits = tuple(hit for hit in every if hit.list.role == "operator")
    lent = next((hit for hit in every if hit.list.role == "cloud-customers"), None)
    if lent is not None and not hits:
        # An operator's cloud customers' addresses: named, never the operator's verdict.
        lead += f"{_customers(lent.list)} (prefix {lent.prefix}); "
    if hits:
        first = hits[0]
        held: AddressList = first.list
        operators = tuple(dict.fromkeys(hit.list.operator for hit in hits))
        age = held.age(now)
        evidence = (Evidence("address-list", "confirmed",
                             f"in {held.operator}'s list {held.name} (prefix {first.prefix})",
                             held.url, held.name, first.prefix, _date(held.read_at),
                             held.stale(now), age.days if age is not None else None),
                    Evidence("name-pattern", "not-checked", "not needed"),
                    Evidence("web-bot-auth", "not-checked", "needs the request itself"))
        agents = _agents(held.tokens) or "agents the registry does not name"
        return base._replace(
            verdict="verified", operator=", ".join(operators), evidence=evidence,
            operator_only=True, stale=held.stale(now),
            reason=f"{lead}{held.operator}'s published list {held.name} holds it "
                   f"(prefix {first.prefix}; for {agents}): this verifies the operator, "
                   "not any claimed agent")
    patterns = tuple(p for p in snapshot.name_patterns if p.role == "operator")
    suffixes = _patterns(tuple(dict.fromkeys(s for p in patterns for s in p.suffixes)), None)
    if dns is False or not suffixes:
        dns_found = Evidence("name-pattern", "not-checked", "DNS turned off")
    else:
        checked = _checker(dns if isinstance(dns, str) else None, deadline).check(
            address, suffixes)
        outcome: EvidenceOutcome = {"confirmed": "confirmed", "not-confirmed":
                                    "not-confirmed", "failed": "unknown"}[
            checked.outcome]  # type: ignore[assignment]
        detail = checked.detail
        if outcome != "confirmed":
            detail += _lent_names(checked.names, snapshot)
        dns_found = Evidence("name-pattern", outcome, detail, name=checked.name)
    listed = Evidence("address-list", "not-confirmed", "in no published list")
    if lent is not None:
        listed = Evidence("address-list", "not-confirmed", _customers(lent.list), lent.list.url,
                          lent.list.name, lent.prefix, _date(lent.list.read_at))
    evidence = (listed, dns_found,
                Evidence("web-bot-auth", "not-checked", "needs the request itself"))
    if dns_found.outcome == "confirmed" and dns_found.name is not None:
        owner = next((p for p in patterns if p.matches(dns_found.name)), None)
        operator = owner.operator if owner is not None else None
        if owner is not None:
            dns_found = dns_found._replace(source=owner.source)
        return base._replace(
            verdict="verified", operator=operator, operator_only=True,
            evidence=(evidence[0], dns_found, evidence[2]),
            reason=f"{lead}{dns_found.detail}: {operator}'s documented names")
    verdict: VerdictName = "unknown" if dns_found.outcome == "unknown" else "not-verified"
    why = dns_found.detail if dns_found.outcome != "not-checked" else "DNS not checked"
    where = "in no other published list" if lent is not None else "in no published list"
    return base._replace(verdict=verdict, evidence=evidence, reason=f"{lead}{where}; {why}")
