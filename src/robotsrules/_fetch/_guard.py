"""The address policy of the one guard against server-side request forgery (sans-I/O).

A URL that comes from a stranger (a ``Signature-Agent`` header, a service caller, a URL
found in a fetched document, a redirect target) must not make robotsrules reach the
machine it runs on, its private network or a cloud's metadata service. This module only
*decides*: :func:`refusal` says why an address is refused (or ``None``), and
:func:`host_address` reads a URL's host as an address when it is one, in every numeric
form a URL parser or the C library accepts (WHATWG URL Standard's IPv4 parser: one to
four parts, each decimal, octal ``0…`` or hex ``0x…``). The I/O half,
:mod:`robotsrules._fetch._pinned`, resolves a name once at connect time, asks
:func:`refusal` about every address, and connects only to a vetted one.

Theory of operation: an address is refused when it falls in a named range of the table
below (the reason names the range), when it embeds an IPv4 address that is refused
(IPv4-mapped ``::ffff:0:0/96``, IPv4-compatible ``::/96``, SIIT ``::ffff:0:0:0/96``,
NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``, Teredo's client), or when Python's
:mod:`ipaddress` does not hold it globally reachable (the IANA special-purpose registries:
the rest of the IANA special-purpose registries). The special-purpose blocks a web server
could be mistaken for are named in the tables below (IANA's IPv6 Special-Purpose Address
Registry, last updated 2024-10-22, was found but its table not re-read entry by entry on
2026-11-27; the IPv4 registry was not read: the blocks are those of RFC 6890, April 2013,
and later RFCs as the author knows them). When unsure the restrictive reading wins: a name
with one refused address among several is refused whole, and a block the tables do not
name is refused when ``ipaddress`` holds it not global.
"""

from __future__ import annotations

import ipaddress
from typing import Optional, Union

__all__ = ["IPAddress", "host_address", "ipv4_literal", "refusal"]

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

# Cloud metadata services first: they sit inside link-local, CGNAT or ULA ranges and get
# the more telling name. 169.254.169.254: AWS, GCP (metadata.google.internal), Azure,
# OpenStack, Oracle; fd00:ec2::254: AWS over IPv6; fd20:ce::254: GCP over IPv6;
# 100.100.100.200: Alibaba Cloud; 192.0.0.192: Oracle Cloud (legacy); 168.63.129.16:
# Azure's host endpoint (a globally routed address, refused all the same). Vendors'
# pages not re-read for this table (2026-11-27): the addresses are the ones widely
# documented by the vendors and by SSRF guides.
_METADATA: tuple[IPAddress, ...] = tuple(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "fd00:ec2::254", "fd20:ce::254", "100.100.100.200", "192.0.0.192",
    "168.63.129.16"))

_V4_RANGES: tuple[tuple[_V4, str], ...] = (
    (_V4("0.0.0.0/8"), "unspecified (\"this network\", RFC 791)"),
    (_V4("127.0.0.0/8"), "loopback"),
    (_V4("10.0.0.0/8"), "private (RFC 1918)"),
    (_V4("172.16.0.0/12"), "private (RFC 1918)"),
    (_V4("192.168.0.0/16"), "private (RFC 1918)"),
    (_V4("100.64.0.0/10"), "carrier-grade NAT (RFC 6598)"),
    (_V4("169.254.0.0/16"), "link-local"),
    (_V4("224.0.0.0/4"), "multicast"),
    (_V4("255.255.255.255/32"), "broadcast"),
    (_V4("240.0.0.0/4"), "reserved (240.0.0.0/4)"),
    # IANA special-purpose blocks, named here rather than left to ``ipaddress.is_global``,
    # whose table differs between Python releases (192.0.0.0/24 changed in 3.12.4).
    (_V4("192.0.0.0/24"), "reserved (IANA special-purpose: IETF protocol assignments)"),
    (_V4("192.0.2.0/24"), "reserved (IANA special-purpose: documentation)"),
    (_V4("198.51.100.0/24"), "reserved (IANA special-purpose: documentation)"),
    (_V4("203.0.113.0/24"), "reserved (IANA special-purpose: documentation)"),
    (_V4("198.18.0.0/15"), "reserved (IANA special-purpose: benchmarking)"),
    (_V4("192.88.99.0/24"), "reserved (IANA special-purpose: 6to4 relay anycast, deprecated)"),
)

_V6_RANGES: tuple[tuple[_V6, str], ...] = (
    (_V6("::/128"), "unspecified"),
    (_V6("::1/128"), "loopback"),
    (_V6("fc00::/7"), "private (unique local, RFC 4193)"),
    (_V6("fe80::/10"), "link-local"),
    (_V6("fec0::/10"), "site-local (deprecated, RFC 3879)"),
    (_V6("ff00::/8"), "multicast"),
    (_V6("64:ff9b:1::/48"), "local-use NAT64 (RFC 8215)"),
    (_V6("100::/64"), "reserved (IANA special-purpose: discard-only)"),
    (_V6("2001:db8::/32"), "reserved (IANA special-purpose: documentation)"),
    (_V6("3fff::/20"), "reserved (IANA special-purpose: documentation)"),
    (_V6("2001:2::/48"), "reserved (IANA special-purpose: benchmarking)"),
    (_V6("2001:10::/28"), "reserved (IANA special-purpose: ORCHID, deprecated)"),
    (_V6("5f00::/16"), "reserved (IANA special-purpose: segment routing SIDs)"),
)

# IPv6 ranges that carry an IPv4 address in their low 32 bits.
_EMBEDDING: tuple[tuple[_V6, str], ...] = (
    (_V6("::ffff:0:0/96"), "IPv4-mapped"),
    (_V6("::ffff:0:0:0/96"), "IPv4-translated (SIIT)"),
    (_V6("64:ff9b::/96"), "NAT64"),
    (_V6("::/96"), "IPv4-compatible"),
)


def _embedded(address: ipaddress.IPv6Address) -> Optional[tuple[ipaddress.IPv4Address, str]]:
    """The IPv4 address an IPv6 address carries, and the form's name, or None."""
    for network, name in _EMBEDDING:
        if address in network:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF), name
    if address.sixtofour is not None:
        return address.sixtofour, "6to4"
    if address.teredo is not None:
        return ipaddress.IPv4Address(address.teredo[1]), "Teredo"
    return None


def refusal(address: Union[str, IPAddress]) -> Optional[str]:
    """Why the guard refuses to connect to ``address`` (a phrase naming the range), or
    ``None`` for a globally reachable unicast address.

    >>> refusal("127.0.0.1")
    'loopback'
    >>> refusal("::ffff:10.0.0.1")
    'IPv4-mapped 10.0.0.1: private (RFC 1918)'
    >>> refusal("93.184.215.14") is None
    True

    Raises :class:`ValueError` for text that is no address.
    """
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if ip in _METADATA:
        return "cloud metadata service"
    if isinstance(ip, ipaddress.IPv4Address):
        for network4, reason in _V4_RANGES:
            if ip in network4:
                return reason
        if not ip.is_global:
            return "reserved (IANA special-purpose)"
        return None
    if ip.scope_id:
        return "scoped (zone index)"
    for network6, reason in _V6_RANGES:
        if ip in network6:
            return reason
    inner = _embedded(ip)
    if inner is not None:
        v4, form = inner
        why = refusal(v4)
        if why is not None:
            return f"{form} {v4}: {why}"
        if form in ("IPv4-compatible", "IPv4-translated (SIIT)", "Teredo"):
            return f"{form} (not globally reachable)"
        return None  # IPv4-mapped, NAT64 or 6to4 of a public address: reachable anyway
    if not ip.is_global:
        return "reserved (IANA special-purpose)"
    return None


def _v4_part(text: str) -> Optional[int]:
    """One part of a WHATWG IPv4 host: decimal, ``0x`` hex or ``0`` octal; None if not."""
    if text[:2] in ("0x", "0X"):
        digits, base = text[2:], 16
        if not digits:
            return 0
    elif len(text) > 1 and text[0] == "0":
        digits, base = text[1:], 8
    else:
        digits, base = text, 10
    allowed = "0123456789abcdefABCDEF"[: base + (6 if base == 16 else 0)]
    if not digits or any(c not in allowed for c in digits):
        return None
    return int(digits, base)


def ipv4_literal(host: str) -> Optional[ipaddress.IPv4Address]:
    """``host`` read as an IPv4 address by the WHATWG URL Standard's IPv4 parser (the forms
    ``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1`` are all 127.0.0.1), or None when
    it is not one (a name, or numbers out of range).

    >>> str(ipv4_literal("0x7f.1"))
    '127.0.0.1'
    """
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not 1 <= len(parts) <= 4 or any(not p for p in parts):
        return None
    numbers = [_v4_part(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    total = values[-1]
    for index, value in enumerate(values[:-1]):
        total += value << (8 * (3 - index))
    return ipaddress.IPv4Address(total)


def host_address(host: str) -> Optional[IPAddress]:
    """The address a URL's host names literally (``[::1]``, ``::1``, any IPv4 form of
    :func:`ipv4_literal`), or None for a name."""
    text = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in text:
        try:
            return ipaddress.IPv6Address(text)
        except ValueError:
            return None
    return ipv4_literal(text)
