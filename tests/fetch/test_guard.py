"""The address guard's policy (issue 38), sans-I/O: which addresses are refused and why,
and how a URL's host reads as an address (WHATWG URL Standard's IPv4 parser)."""

from __future__ import annotations

import ipaddress

import pytest

from robotsrules._fetch._guard import host_address, ipv4_literal, refusal

REFUSED = [
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("100.127.255.255", "carrier-grade NAT"),
    ("169.254.1.1", "link-local"),
    ("169.254.169.254", "cloud metadata"),
    ("100.100.100.200", "cloud metadata"),
    ("168.63.129.16", "cloud metadata"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("255.255.255.255", "broadcast"),
    ("240.0.0.1", "reserved"),
    ("192.0.2.1", "reserved"),      # TEST-NET-1
    ("198.18.0.1", "reserved"),     # benchmarking
    ("192.0.0.8", "reserved"),      # IETF protocol assignments
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("fc00::1", "private"),
    ("fd12:3456::1", "private"),
    ("fd00:ec2::254", "cloud metadata"),
    ("fd20:ce::254", "cloud metadata"),
    ("fe80::1", "link-local"),
    ("fe80::1%2", "scoped"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("2001:db8::1", "reserved"),    # documentation
    ("100::1", "reserved"),         # discard-only
    ("64:ff9b:1::1", "NAT64"),
    ("::ffff:127.0.0.1", "IPv4-mapped 127.0.0.1: loopback"),
    ("::ffff:169.254.169.254", "IPv4-mapped 169.254.169.254: cloud metadata"),
    ("::ffff:0:10.0.0.1", "IPv4-translated (SIIT) 10.0.0.1"),
    ("::10.0.0.1", "IPv4-compatible 10.0.0.1"),
    ("::8.8.8.8", "IPv4-compatible"),  # deprecated (RFC 4291 §2.5.5.1): never reached
    ("64:ff9b::10.0.0.1", "NAT64 10.0.0.1: private"),
    ("64:ff9b::a9fe:a9fe", "NAT64 169.254.169.254: cloud metadata"),
    ("2002:7f00:1::1", "6to4 127.0.0.1: loopback"),
    ("2002:c0a8:101::", "6to4 192.168.1.1: private"),
]

ALLOWED = ["8.8.8.8", "93.184.215.14", "1.1.1.1", "2606:4700:4700::1111",
           "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]


@pytest.mark.parametrize("address, reason", REFUSED)
def test_refused_with_the_range_named(address: str, reason: str) -> None:
    why = refusal(address)
    assert why is not None and reason in why, (address, why)


@pytest.mark.parametrize("address", ALLOWED)
def test_globally_reachable_unicast_is_allowed(address: str) -> None:
    assert refusal(address) is None


def test_not_an_address_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        refusal("localhost")


# WHATWG URL Standard, "IPv4 parser": the forms a browser (and the C library's inet_aton,
# which getaddrinfo uses) reads as one address.
@pytest.mark.parametrize("host, address", [
    ("127.0.0.1", "127.0.0.1"),
    ("2130706433", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0X7F000001", "127.0.0.1"),
    ("017700000001", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0177.1", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("127.0.0.1.", "127.0.0.1"),
    ("0x7f.0x0.0x0.0x1", "127.0.0.1"),
    ("0xa9.0376.43518", "169.254.169.254"),
    ("0", "0.0.0.0"),
    ("0x", "0.0.0.0"),
    ("4294967295", "255.255.255.255"),
])
def test_ipv4_forms(host: str, address: str) -> None:
    assert ipv4_literal(host) == ipaddress.IPv4Address(address)
    assert host_address(host) == ipaddress.IPv4Address(address)


@pytest.mark.parametrize("host", ["example.com", "4294967296", "256.0.0.1", "1.2.3.4.5",
                                  "08.1.1.1", "0x1g.1", "1..1", "", ".", "1.2.3.x",
                                  "1.256.1"])
def test_not_ipv4(host: str) -> None:
    assert ipv4_literal(host) is None


@pytest.mark.parametrize("host, address", [
    ("[::1]", "::1"), ("::1", "::1"), ("[::ffff:127.0.0.1]", "::ffff:7f00:1"),
    ("[64:ff9b::a00:1]", "64:ff9b::a00:1"),
])
def test_ipv6_hosts(host: str, address: str) -> None:
    assert host_address(host) == ipaddress.IPv6Address(address)


def test_a_name_is_no_address() -> None:
    assert host_address("metadata.google.internal") is None
    assert host_address("[not-v6]") is None
