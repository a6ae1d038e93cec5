"""Is this signed request who it says? :func:`verify_request` (Web Bot Auth, issue 38).

Theory of operation. The request's signature is checked by
:func:`~robotsrules._identity._httpsig.verify_signature` with keys from the signer's key
directory (:mod:`._directory`: fetched through the guard against server-side request
forgery, bounded, cached, keys by the pair (directory URL, ``keyid``)). Then the claim:

* the crawler the request's ``User-Agent`` names (the one product-token reading of
  :func:`robotsrules.product_token`, then the registry), else
* the registry's crawlers whose key directory is exactly the signer's directory
  (:func:`~robotsrules._tables._crawlers.crawlers_signing_from`: ``https://chatgpt.com``,
  whose well-known directory the registry names, is OpenAI's ChatGPT agent, which sends a
  browser's User-Agent; another JWK Set on the same origin is not).

With a claim, the answer is :func:`robotsrules.verify`'s, by the same one rule over the
three kinds of evidence (:func:`._verify.combined_verdict`): the signature is ``confirmed`` only
when it verifies with a key of the claimed crawler's published directory, that very URL
(:func:`~robotsrules._tables._crawlers.directory_key`: not its origin, never percent-decoded); the
address list and the DNS names, which need the visitor's address, are ``not-checked`` (so
an operator that also publishes those is ``unknown`` on a failed signature, never "not
verified" by half its evidence). Without a claim there is nothing in the registry to verify
against: a request that is not signed, or signed with a key of a directory the registry
does not know, is ``unverifiable`` (a valid signature proves who holds that directory's keys,
not an operator: :attr:`~._verify.Verification.signature` still says ``verified`` and
:attr:`~._verify.Verification.directory` names the directory, for a site's own list of
signers); a signature that fails is ``not-verified`` and one that could not be checked is
``unknown``.

Replays. A signature that verifies for a registry crawler (its directory the crawler's) is
remembered until it expires (:class:`SeenSignatures`, by the SHA-256 of (directory,
``keyid``, ``nonce``) when the signature has a nonce, else of the signature's bytes): the
same one again is ``not-confirmed`` ("replayed"). The memory is bounded by count and never
drops an unexpired entry: when full, a new signature is ``unknown``
("replay-memory-full"), never "verified". Signatures of directories the registry does not
name are not remembered: they never verify a claim, and so cannot fill the memory.
"""

from __future__ import annotations

import datetime
import hashlib
import heapq
import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Callable, Literal, Optional, Union

from .._tables._crawlers import (
    Crawler,
    crawler_for,
    crawlers_signing_from,
    directory_key,
    known_crawlers,
)
from .._terminal import visible
from ..errors import InvalidAgent, InvalidArgument
from ..useragent import product_token
from ._directory import KeyDirectories, KeyDirectory
from ._httpsig import DirectoryUnavailable, PublicKey, SignatureCheck, verify_signature
from ._verify import Evidence, EvidenceOutcome, VerdictName, Verification, combined_verdict

__all__ = ["DEFAULT_SEEN", "MAX_DIRECTORIES", "SeenSignatures", "verify_request"]

DEFAULT_SEEN = 100_000
"""Signatures remembered against replays by default (each until it expires)."""
MAX_HEADERS = 200
"""Header fields read from one request (a stranger's request is bounded)."""
MAX_DIRECTORIES = 2
"""Distinct key directories fetched for one request: the rest of its signatures are
``directory-unreachable`` (a request naming eight silent directories would otherwise wait
for each in turn)."""

Fetch = Callable[[str], KeyDirectory]
"""What ``fetch`` is: a directory URL to its :class:`~._directory.KeyDirectory`."""


Seen = Literal["new", "replayed", "full"]
"""What :meth:`SeenSignatures.remember` answers."""


class SeenSignatures:
    """Signatures already verified, each until it expires: the replay check of
    :func:`verify_request`. At most ``limit`` are kept, each by the SHA-256 digest of its key
    (a stranger's long nonce costs no more memory than a short one). An entry that has not
    expired is never dropped: when the memory is full, a new signature is answered
    ``"full"`` (its check ``unknown``), never let through as new, so no flood of other
    signatures can push a genuine one out to be replayed. Safe to share between threads."""

    def __init__(self, limit: int = DEFAULT_SEEN) -> None:
        if not isinstance(limit, int) or limit < 1:
            raise InvalidArgument("limit is a whole number of at least 1")
        self.limit = limit
        self._expiry: dict[bytes, float] = {}
        self._heap: list[tuple[float, bytes]] = []
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._expiry)

    @staticmethod
    def _digest(key: tuple[str, ...]) -> bytes:
        digest = hashlib.sha256()
        for part in key:
            encoded = part.encode("utf-8", "surrogatepass")
            digest.update(len(encoded).to_bytes(8, "big") + encoded)
        return digest.digest()

    def remember(self, key: tuple[str, ...], expires: float, now: float) -> Seen:
        """Record ``key`` until ``expires`` (seconds since the epoch): ``"new"``;
        ``"replayed"`` when it was recorded and has not expired at ``now``; ``"full"`` when
        ``limit`` unexpired entries are kept (nothing is recorded, nothing dropped)."""
        digest = self._digest(key)
        with self._lock:
            # One heap entry per key kept (a key is recorded again only once expired, by
            # then popped here): the heap and the map stay the same size.
            while self._heap and self._heap[0][0] < now:
                when, old = heapq.heappop(self._heap)
                if self._expiry.get(old) == when:
                    del self._expiry[old]
            seen = self._expiry.get(digest)
            if seen is not None and seen >= now:
                return "replayed"
            if len(self._expiry) >= self.limit:
                return "full"
            self._expiry[digest] = expires
            heapq.heappush(self._heap, (expires, digest))
            return "new"

    def first_time(self, key: tuple[str, ...], expires: float, now: float) -> bool:
        """:meth:`remember` as a yes or no: True only for ``"new"`` (a replay, and a
        signature that a full memory cannot record, are both False)."""
        return self.remember(key, expires, now) == "new"


_SEEN = SeenSignatures()
_DIRECTORIES: dict[tuple[bool, Optional[str]], KeyDirectories] = {}
_DIRECTORIES_LOCK = threading.Lock()


def _directories(allow_private_addresses: bool, ca_bundle: Optional[str]) -> KeyDirectories:
    """One shared :class:`KeyDirectories` per setting (their caches shared by every call)."""
    key = (bool(allow_private_addresses), ca_bundle)
    with _DIRECTORIES_LOCK:
        found = _DIRECTORIES.get(key)
        if found is None:
            if len(_DIRECTORIES) >= 8:
                _DIRECTORIES.clear()
            found = KeyDirectories(allow_private_addresses=key[0], ca_bundle=ca_bundle)
            _DIRECTORIES[key] = found
        return found


def _epoch(now: Optional[datetime.datetime]) -> float:
    if now is None:
        return time.time()
    if not isinstance(now, datetime.datetime):
        raise TypeError("now is a datetime.datetime")
    return (now if now.tzinfo is not None else now.replace(
        tzinfo=datetime.timezone.utc)).timestamp()


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _claimed(headers: Mapping[str, str], check: SignatureCheck,
             table: Optional[Sequence[Crawler]]) -> tuple[Optional[str], tuple[Crawler, ...]]:
    """(the User-Agent's product token, or None; the crawlers claimed)."""
    user_agent = _header(headers, "user-agent")
    token: Optional[str] = None
    if user_agent is not None:
        try:
            token = product_token(user_agent[:1000]).split("/", 1)[0]
        except (InvalidAgent, ValueError):
            token = None
        named = crawler_for(token, table) if token and token != "*" else None
        if named is not None:
            return named.token or token, (named,)
    if check.directory_url is not None:
        return None, crawlers_signing_from(check.directory_url, table)
    return None, ()


def _same_directory(first: str, second: str) -> bool:
    key = directory_key(first)
    return key is not None and key == directory_key(second)


def _signature_evidence(check: SignatureCheck, crawler: Crawler,
                        replay: Optional[Seen]) -> Evidence:
    published = crawler.verify.web_bot_auth
    directory = check.directory_url
    shown = visible(directory[:300]) if directory else None
    if published is None:
        said = f" (the request is signed with a key of {shown}: {check.reason})" \
            if directory else ""
        return Evidence("web-bot-auth", "not-published",
                        "the operator publishes no signing keys for it" + said, directory)
    outcome: EvidenceOutcome
    if check.verified and directory is not None and not _same_directory(directory, published):
        outcome = "not-confirmed"
        detail = f"signed with a key of {shown}, not of {crawler.operator}'s directory " \
                 f"{published}"
    elif check.verified and replay == "replayed":
        outcome, detail = "not-confirmed", "replayed: this signature was already seen " \
                                           "within its validity"
    elif check.verified and replay == "full":
        outcome, detail = "unknown", "the replay memory is full of unexpired signatures: " \
                                     "a replay could not be ruled out"
    elif check.verified:
        outcome = "confirmed"
        detail = f"signed with key {visible((check.keyid or '')[:60])} of {shown}"
    else:
        outcome = "unknown" if check.outcome == "unknown" else "not-confirmed"
        detail = f"{check.reason}: {visible(check.detail[:300])}"
    return Evidence("web-bot-auth", outcome, detail, directory or published)


def _address_evidence(crawler: Crawler) -> tuple[Evidence, Evidence]:
    kinds = crawler.verify.evidence
    listed = Evidence("address-list", "not-checked", "needs the visitor's address",
                      (crawler.verify.ip_ranges or (None,))[0]) \
        if "address-list" in kinds else Evidence("address-list", "not-published",
                                                 "the operator publishes no address list")
    named = Evidence("name-pattern", "not-checked", "needs the visitor's address") \
        if "name-pattern" in kinds else Evidence("name-pattern", "not-published",
                                                 "the operator documents no DNS names")
    return listed, named


def _unclaimed(base: Verification, check: SignatureCheck) -> Verification:
    """No registry crawler is claimed: the signature alone is said, never "verified"."""
    shown = visible(check.directory_url[:300]) if check.directory_url else None
    verdict: VerdictName
    outcome: EvidenceOutcome
    if check.reason == "no-signature":
        verdict, outcome, detail = "unverifiable", "not-checked", "not signed"
        reason = "the request is not signed and names no known crawler: nothing to verify"
    elif check.verified:
        verdict, outcome = "unverifiable", "not-checked"
        reason = f"the signature verifies with a key of {shown}, a directory the crawler " \
                 "registry does not know: it proves who holds that directory's keys, not an " \
                 "operator"
        detail = f"no claim to check: {reason}"
    else:
        verdict = "unknown" if check.outcome == "unknown" else "not-verified"
        outcome = "unknown" if verdict == "unknown" else "not-confirmed"
        reason = detail = f"{check.reason}: {visible(check.detail[:300])}"
    evidence = (Evidence("address-list", "not-published", "no known crawler claimed"),
                Evidence("name-pattern", "not-published", "no known crawler claimed"),
                Evidence("web-bot-auth", outcome, detail, shown))
    return base._replace(verdict=verdict, reason=reason, evidence=evidence)


def verify_request(method: str, url: str, headers: Mapping[str, str], *,
                   now: Optional[datetime.datetime] = None,
                   fetch: Optional[Fetch] = None,
                   allow_private_addresses: bool = False,
                   ca_bundle: Optional[str] = None,
                   seen: Optional[SeenSignatures] = None,
                   crawlers: Union[str, os.PathLike[str], None] = None) -> Verification:
    """Is this signed request (Web Bot Auth: HTTP message signatures, RFC 9421) from the
    crawler it claims to be?

    ``method``, ``url`` (the full URL the request was sent to, ``https://site.example/page``)
    and ``headers`` (name to value; a field sent on several lines joined with ``", "``) are
    the request as received. The signer's key directory, named by its ``Signature-Agent``,
    is fetched through the guard against server-side request forgery
    (``allow_private_addresses=True`` lifts it), trusting the system's certificate store
    (``SSL_CERT_FILE`` honoured) or ``ca_bundle``, bounded in size and time (at most
    :data:`MAX_DIRECTORIES` directories per request, each within the fetch's deadline, so
    a request waits at most twice that), and cached (a failure or time-out too, a minute);
    ``fetch`` replaces that fetching (a :class:`~robotsrules._identity._directory.KeyDirectories`
    of your own settings, or any callable of a directory URL). ``now`` is the time to check
    ``created`` and ``expires`` against (default: now). ``seen`` remembers verified
    signatures against replays (default: one shared memory of the process). ``crawlers``:
    a crawler registry file of your own (the shape of ``data/crawlers.json``) added to the
    shipped one, as ``--crawlers`` does on the command line: the signers you know (their
    ``verify.web_bot_auth`` directories) beside the registry's.

    The answer is a :class:`~robotsrules.Verification` (``address`` empty): ``verdict``
    ``verified`` only when the signature verifies with a key of the directory the crawler
    registry names for the claimed crawler (the User-Agent's, else the one whose directory
    the signer uses); ``not-verified``, ``unknown`` or ``unverifiable`` with the ``reason``;
    :attr:`~robotsrules.Verification.signature` is the signature check's reason (one of
    ``verified``, ``no-signature``, ``expired``, ``created-in-future``,
    ``key-not-in-directory``, ``directory-unreachable``, ``signature-mismatch``,
    ``signature-agent-missing``, ... or ``replayed``, ``replay-memory-full``) and
    :attr:`~robotsrules.Verification.directory` the signer's key directory. Nothing a
    stranger sends raises: a malformed field is an answer.

    >>> answer = verify_request("GET", "https://site.example/", {"User-Agent": "curl/8"})
    >>> answer.verdict, answer.signature
    ('unverifiable', 'no-signature')
    """
    if not isinstance(method, str) or not isinstance(url, str):
        raise TypeError("method and url are str")
    if not isinstance(headers, Mapping):
        raise TypeError("headers is a mapping of names to values")
    moment = _epoch(now)
    if len(headers) > MAX_HEADERS:
        # A stranger's request: answered (malformed, never read further), never raised.
        refused = SignatureCheck("not-verified", "malformed",
                                 f"more than {MAX_HEADERS} header fields: not read")
        return _unclaimed(Verification("", "unknown", "", signature="malformed"), refused)
    table = known_crawlers(crawlers) if crawlers is not None else None
    directories: Fetch = fetch if fetch is not None else _directories(
        allow_private_addresses, ca_bundle)
    memory = _SEEN if seen is None else seen

    asked: set[str] = set()

    def key_for(directory_url: str, keyid: str) -> Optional[PublicKey]:
        if directory_url not in asked and len(asked) >= MAX_DIRECTORIES:
            raise DirectoryUnavailable(f"not fetched: one request names more than "
                                       f"{MAX_DIRECTORIES} key directories")
        asked.add(directory_url)
        found = directories(directory_url)
        if found.error is not None:
            raise DirectoryUnavailable(found.error)
        return found.keys.get(keyid)

    check = verify_signature(method, url, {str(k): str(v) for k, v in headers.items()},
                             key_for=key_for, now=moment)
    token, claimed = _claimed(headers, check, table)
    replay: Optional[Seen] = None
    if (claimed and check.verified and check.directory_url is not None
            and check.expires is not None and claimed[0].verify.web_bot_auth is not None
            and _same_directory(check.directory_url, claimed[0].verify.web_bot_auth)):
        # Only a signature that would confirm a registry crawler is remembered: a stranger's
        # own directory cannot fill the memory (and an unclaimed one is never "verified").
        marker = ("nonce", check.nonce) if check.nonce else (
            "signature", (check.signature or b"").hex())
        replay = memory.remember((check.directory_url, check.keyid or "", *marker),
                                 float(check.expires), moment)
    signature = {"replayed": "replayed", "full": "replay-memory-full"}.get(
        replay or "", check.reason)
    user_agent = _header(headers, "user-agent")
    base = Verification("", "unknown", "", user_agent=visible(user_agent[:500])
                        if user_agent is not None else None, signature=signature,
                        directory=check.directory_url)
    if not claimed:
        return _unclaimed(base, check)
    crawler = claimed[0]
    evidence = (*_address_evidence(crawler), _signature_evidence(check, crawler, replay))
    verdict, reason = combined_verdict(evidence)
    operators = {item.operator for item in claimed}
    operator_only = verdict == "verified" and len(claimed) > 1
    if operator_only:
        reason += f"; that directory signs for several of {crawler.operator}'s agents: it " \
                  f"verifies {crawler.operator}, not which agent"
    return base._replace(token=token or crawler.token, crawler=crawler.label,
                         operator=", ".join(sorted(operators)), category=crawler.category,
                         verdict=verdict, reason=reason, evidence=evidence,
                         operator_only=operator_only)
