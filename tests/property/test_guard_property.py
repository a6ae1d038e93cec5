"""The address guard's one promise, as a property (issue 38): an address in a refused range
is refused in every form it can take: IPv4, IPv4-mapped, IPv4-translated, IPv4-compatible,
NAT64, 6to4 and Teredo IPv6, and every numeric spelling of a URL host (decimal, octal and
hex, in one to four parts, as the WHATWG URL Standard and the C library's inet_aton read
them). The ranges are written here from the RFCs, not read from the module under test."""

from __future__ import annotations

import ipaddress
from typing import Callable

from hypothesis import given
from hypothesis import strategies as st

from robotsrules._fetch._guard import host_address, refusal

V4_REFUSED = ["0.0.0.0/8", "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
              "100.64.0.0/10", "169.254.0.0/16", "224.0.0.0/4", "240.0.0.0/4",
              "255.255.255.255/32", "192.0.0.0/24", "192.0.2.0/24", "198.51.100.0/24",
              "203.0.113.0/24", "198.18.0.0/15",
              "169.254.169.254/32", "100.100.100.200/32"]
V6_REFUSED = ["::1/128", "::/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
              "2001:db8::/32", "100::/64", "64:ff9b:1::/48", "fd00:ec2::254/128"]


def _in(network: str) -> st.SearchStrategy[int]:
    net = ipaddress.ip_network(network)
    first = int(net.network_address)
    return st.integers(first, first + net.num_addresses - 1)


v4_refused = st.sampled_from(V4_REFUSED).flatmap(_in).map(ipaddress.IPv4Address)
v6_refused = st.sampled_from(V6_REFUSED).flatmap(_in).map(ipaddress.IPv6Address)


def _v6(value: int) -> ipaddress.IPv6Address:
    return ipaddress.IPv6Address(value)


# Each IPv6 form that carries an IPv4 address, as a function of the address and 80 free bits.
FORMS: list[Callable[[ipaddress.IPv4Address, int], ipaddress.IPv6Address]] = [
    lambda v4, _: _v6(0xFFFF << 32 | int(v4)),                      # ::ffff:a.b.c.d
    lambda v4, _: _v6(0xFFFF << 48 | int(v4)),                      # ::ffff:0:a.b.c.d
    lambda v4, _: _v6(int(v4)),                                     # ::a.b.c.d
    lambda v4, _: _v6(0x64FF9B << 96 | int(v4)),                    # 64:ff9b::a.b.c.d
    lambda v4, rest: _v6(0x2002 << 112 | int(v4) << 80 | rest),     # 2002:AABB:CCDD::/48
    lambda v4, rest: _v6(0x20010000 << 96 | (rest >> 32) << 32      # Teredo, client
                         | (int(v4) ^ 0xFFFFFFFF)),                 # obfuscated
]


@given(v4_refused)
def test_ipv4_in_a_refused_range_is_refused(address: ipaddress.IPv4Address) -> None:
    assert refusal(address) is not None
    assert refusal(str(address)) is not None


@given(v6_refused)
def test_ipv6_in_a_refused_range_is_refused(address: ipaddress.IPv6Address) -> None:
    assert refusal(address) is not None


@given(v4_refused, st.sampled_from(range(len(FORMS))), st.integers(0, 2**80 - 1))
def test_every_ipv6_form_of_a_refused_ipv4_is_refused(
        address: ipaddress.IPv4Address, form: int, rest: int) -> None:
    assert refusal(FORMS[form](address, rest)) is not None


def _spell(value: int, base: str) -> str:
    if base == "hex":
        return hex(value)
    if base == "oct":
        return "0" + format(value, "o")
    return str(value)


@given(v4_refused, st.integers(1, 4), st.lists(st.sampled_from(["dec", "hex", "oct"]),
                                               min_size=4, max_size=4),
       st.booleans())
def test_every_numeric_url_host_of_a_refused_ipv4_is_refused(
        address: ipaddress.IPv4Address, parts: int, bases: list[str], dot: bool) -> None:
    octets = list(address.packed)
    values = [*octets[:parts - 1], int.from_bytes(bytes(octets[parts - 1:]), "big")]
    host = ".".join(_spell(v, b) for v, b in zip(values, bases)) + ("." if dot else "")
    assert host_address(host) == address, host
    assert refusal(address) is not None
    bracketed = f"[{FORMS[0](address, 0)}]"
    parsed = host_address(bracketed)
    assert parsed is not None and refusal(parsed) is not None
