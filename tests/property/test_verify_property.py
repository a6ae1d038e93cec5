"""The one promise of visitor verification, as a property (issue 36): no address outside
every published list and without a confirming DNS answer is ever "verified".

Lists are generated (prefixes of every length from /12 to /32 and /28 to /128, shared and
single-agent lists, fresh and stale, captured or not), the claim is any registry token, a
full User-Agent header, a stranger's name, or nothing; the address is drawn outside every
generated prefix (checked with the ``ipaddress`` module, not with the index under test).
With DNS on, a real server on loopback answers whatever the example says: PTR names under
the operators' patterns or not, odd names, forward records that hold anything but the
address, NXDOMAIN, SERVFAIL, silence.
"""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Iterator, Sequence
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("dns.resolver")
pytest.importorskip("dnslib")

from dnslib import AAAA, PTR, QTYPE, RR, A, DNSLabel

import robotsrules
from robotsrules._identity import _verify
from robotsrules._tables._addresses import (
    AddressIndex,
    AddressList,
    Snapshot,
    load_snapshot,
)
from robotsrules._tables._crawlers import known_crawlers
from tests.network.dns_server import DnsServer

NOW = datetime.datetime(2026, 11, 27, tzinfo=datetime.timezone.utc)
TOKENS = sorted({c.token for c in known_crawlers() if c.token})
PATTERNS = load_snapshot().name_patterns
SUFFIXES = sorted({s for p in PATTERNS for s in p.suffixes})


@st.composite
def prefixes(draw: Any) -> str:
    if draw(st.booleans()):
        length = draw(st.integers(12, 32))
        base = draw(st.integers(0, 2**32 - 1))
        return str(ipaddress.ip_network((base, length), strict=False))
    length = draw(st.integers(28, 128))
    base = draw(st.integers(0, 2**128 - 1))
    return str(ipaddress.ip_network((base, length), strict=False))


@st.composite
def address_lists(draw: Any) -> AddressList:
    tokens = draw(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=4, unique=True))
    captured = draw(st.booleans())
    read = NOW - datetime.timedelta(days=draw(st.integers(0, 400)))
    return AddressList(f"list-{draw(st.integers(0, 10**6))}", "https://lists.example/x.json",
                       draw(st.sampled_from(["Google", "OpenAI", "Anthropic", "Microsoft",
                                             "Example"])),
                       tuple(tokens), read if captured else None, None, None, captured, "test",
                       tuple(draw(st.lists(prefixes(), max_size=6))) if captured else ())


@st.composite
def snapshots(draw: Any) -> Snapshot:
    lists = draw(st.lists(address_lists(), max_size=5, unique_by=lambda item: item.name))
    return Snapshot(AddressIndex(lists), tuple(lists), PATTERNS, "file", "generated", NOW, 1)


def outside(address: Any, snapshot: Snapshot) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address  # looked up as the IPv4 address it maps
    return not any(address in ipaddress.ip_network(prefix)
                   for item in snapshot.lists for prefix in item.prefixes)


addresses = st.one_of(st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address),
                      st.integers(0, 2**128 - 1).map(ipaddress.IPv6Address))
claims = st.one_of(st.none(), st.sampled_from(TOKENS),
                   st.sampled_from(TOKENS).map(lambda t: f"Mozilla/5.0 (compatible; {t}/2.1; "
                                                         "+https://bot.example/)"),
                   st.text(max_size=40))


def listed_claims(snapshot: Snapshot) -> Any:
    """Claims, half of them the tokens the generated lists cover (so that the lists answer)."""
    covered = sorted({token for item in snapshot.lists for token in item.tokens})
    if not covered:
        return claims
    return st.one_of(claims, st.sampled_from(covered),
                     st.sampled_from(covered).map(lambda t: f"Mozilla/5.0 (compatible; {t}/1)"))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(snapshot=snapshots(), address=addresses, data=st.data(), agent=st.booleans())
def test_never_verified_outside_every_list_without_dns(snapshot: Snapshot, address: Any,
                                                       data: Any, agent: bool) -> None:
    assume(outside(address, snapshot))
    claim = data.draw(listed_claims(snapshot))
    shown = str(address)
    answer = robotsrules.verify(shown, None if agent else claim,
                                agent=claim if agent and claim else None, now=NOW, dns=False,
                                snapshot=snapshot)
    assert answer.verdict != "verified", answer


@pytest.fixture(scope="module")
def server() -> Iterator[DnsServer]:
    with DnsServer([]) as running:
        yield running


labels = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
odd_labels = st.binary(min_size=1, max_size=12)


@st.composite
def ptr_names(draw: Any) -> list[bytes]:
    head = draw(st.lists(st.one_of(labels.map(str.encode), odd_labels), min_size=1,
                         max_size=3))
    tail = draw(st.one_of(st.sampled_from(SUFFIXES), labels.map(lambda x: x + ".example")))
    return head + [part.encode() for part in tail.split(".")]


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.function_scoped_fixture])
@given(snapshot=snapshots(), address=addresses, data=st.data(),
       names=st.lists(ptr_names(), max_size=3), others=st.lists(addresses, max_size=4),
       failure=st.sampled_from([None, None, None, "servfail", "servfail-forward"]))
def test_never_verified_without_a_confirming_dns_answer(
    server: DnsServer, snapshot: Snapshot, address: Any, data: Any,
    names: Sequence[list[bytes]], others: Sequence[Any], failure: Optional[str],
) -> None:
    assume(outside(address, snapshot))
    claim = data.draw(listed_claims(snapshot))
    reverse = address.reverse_pointer
    records = {}
    ptrs = [RR(reverse + ".", QTYPE.PTR, ttl=300, rdata=PTR(DNSLabel(name)))
            for name in names]
    records[(reverse, "PTR")] = ptrs
    server.names.clear()
    server.names.add(reverse)
    behaviour = {}
    for name in names:
        owner = DNSLabel(name)
        text = str(owner).rstrip(".").lower()  # as the server reads the question
        server.names.add(text)
        forward = [other for other in others if other != address]  # never the address
        records[(text, "A")] = [RR(owner, QTYPE.A, ttl=300, rdata=A(str(o)))
                                for o in forward if o.version == 4]
        records[(text, "AAAA")] = [RR(owner, QTYPE.AAAA, ttl=300, rdata=AAAA(str(o)))
                                   for o in forward if o.version == 6]
        if failure == "servfail-forward":
            behaviour[(text, "A")] = behaviour[(text, "AAAA")] = "servfail"
    if failure == "servfail":
        behaviour[(reverse, "PTR")] = "servfail"
    server.records = records
    server.behaviour = behaviour
    _verify._CHECKERS.clear()  # no answer cached from another example
    answer = robotsrules.verify(str(address), claim, now=NOW, dns=server.address,
                                snapshot=snapshot)
    assert answer.verdict != "verified", answer
