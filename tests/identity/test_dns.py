"""Forward-confirmed reverse DNS against a real DNS server on loopback (issue 36 §3).

Every check here talks to :class:`tests.network.dns_server.DnsServer` over UDP and TCP;
nothing reaches the internet. Outcomes are proved by answers and by the questions the
server counted, never by how long a check took (time appears only as hang guards and as
the short deadlines a test wants to fire).
"""

from __future__ import annotations

import ipaddress

import pytest

pytest.importorskip("dns.resolver")
pytest.importorskip("dnslib")

from dnslib import PTR, QTYPE, RR, DNSLabel

from robotsrules._identity._dns import (
    FAILURE_TTL,
    MAX_ATTEMPTS,
    MAX_CHAIN,
    DnsChecker,
    parse_server,
)
from robotsrules._identity._names import host_name, suffix_of, under
from robotsrules.errors import InvalidArgument
from tests.network.dns_server import DnsServer, cname
from tests.timing import HEALTHY, finishes

ADDRESS = ipaddress.ip_address("192.0.2.1")
V6 = ipaddress.ip_address("2001:db8::1")
GOOGLE = ("googlebot.com", "geo.googlebot.com")
REV = "1.2.0.192.in-addr.arpa."
REV_NAME = "1.2.0.192.in-addr.arpa"


def ptr(target: str, reverse: str = REV) -> str:
    return f"{reverse} 300 PTR {target}"


def checker(server: DnsServer, **options: float) -> DnsChecker:
    options.setdefault("timeout", HEALTHY)
    options.setdefault("deadline", HEALTHY)
    return DnsChecker(server.address, **options)  # type: ignore[arg-type]


def test_genuine_crawler_confirmed() -> None:
    zone = [ptr("crawl-192-0-2-1.googlebot.com."),
            "crawl-192-0-2-1.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "confirmed"
    assert found.name == "crawl-192-0-2-1.googlebot.com"
    assert found.names == ("crawl-192-0-2-1.googlebot.com",)


def test_ipv6_confirmed_by_aaaa_only() -> None:
    reverse = ipaddress.ip_address(V6).reverse_pointer + "."
    zone = [ptr("crawl.googlebot.com.", reverse), "crawl.googlebot.com. 300 A 192.0.2.1",
            "crawl.googlebot.com. 300 AAAA 2001:db8::1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, V6, GOOGLE)
        assert found.outcome == "confirmed"
        assert server.count("crawl.googlebot.com", "A") == 0  # the family's records only


def test_lying_ptr_is_not_confirmed() -> None:
    # The spoofer controls its reverse zone, not googlebot.com: the forward name does not
    # hold the address.
    zone = [ptr("crawl-66-249-66-1.googlebot.com."),
            "crawl-66-249-66-1.googlebot.com. 300 A 66.249.66.1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "not-confirmed"
    assert "does not resolve back" in found.detail


@pytest.mark.parametrize("target", ["googlebot.com.evil.example.", "evilgooglebot.com.",
                                    "googlebot.com.", "crawl.googlebot.co."])
def test_ptr_outside_the_pattern_is_not_confirmed(target: str) -> None:
    # The forward name holds the address: only the pattern keeps it out.
    zone = [ptr(target), f"{target} 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
        assert found.outcome == "not-confirmed"
        assert server.count(target.rstrip(".").lower(), "A") == 0


@pytest.mark.parametrize("labels", [
    [b"crawl.googlebot", b"com"],          # a dot inside a label reads as googlebot.com as text
    [b"crawl\x1b[2J", b"googlebot", b"com"],  # a terminal escape
    [b"xn--crwl-8ra", b"googlebot", b"com"],  # an IDNA A-label
    [b"crawl_1", b"googlebot", b"com"],      # not a host name
    [b"crawl 1", b"googlebot", b"com"],
])
def test_odd_ptr_names_are_refused(labels: list[bytes]) -> None:
    record = RR(REV, QTYPE.PTR, ttl=300, rdata=PTR(DNSLabel(labels)))
    forward = ".".join(label.decode("latin-1") for label in labels) + "."
    zone = [str(record)]
    server = DnsServer(zone)
    server.records[(REV_NAME, "PTR")] = [record]
    # The forward name, as text, holds the address: a reader that went by text would confirm.
    text = forward.rstrip(".").lower()
    server.names.add(text)
    server.records[(text, "A")] = [RR(forward, QTYPE.A, ttl=300, rdata=__import__(
        "dnslib").A("192.0.2.1"))]
    with server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "not-confirmed"
    assert "not a plain host name" in found.detail
    assert "\x1b" not in found.detail and all("\x1b" not in n for n in found.names)


def test_forward_name_with_many_addresses_goes_over_tcp() -> None:
    many = [f"crawl.googlebot.com. 300 A 10.{i // 250}.{i % 250}.1" for i in range(2000)]
    zone = [ptr("crawl.googlebot.com."), *many, "crawl.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
        assert found.outcome == "confirmed"
        assert server.count("crawl.googlebot.com", "A", "tcp") == 1  # truncated over UDP


def test_huge_answer_without_the_address() -> None:
    many = [f"crawl.googlebot.com. 300 A 10.{i // 250}.{i % 250}.1" for i in range(3000)]
    with DnsServer([ptr("crawl.googlebot.com."), *many]) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "not-confirmed"


def test_many_ptr_names_bounded() -> None:
    zone = [ptr(f"n{i}.googlebot.com.") for i in range(40)]
    zone += [f"n{i}.googlebot.com. 300 A 198.51.100.1" for i in range(40)]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
        assert found.outcome == "not-confirmed"
        asked = sum(server.count(f"n{i}.googlebot.com", "A") for i in range(40))
    assert asked == 4 and len(found.names) == 16


def test_cname_chain_in_one_answer() -> None:
    zone = [ptr("crawl.googlebot.com."), cname("crawl.googlebot.com.", "a.example."),
            cname("a.example.", "b.example."), "b.example. 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        assert finishes(checker(server).check, ADDRESS, GOOGLE).outcome == "confirmed"


def test_cname_chain_across_servers_answers_is_followed() -> None:
    zone = [ptr("crawl.googlebot.com."), cname("crawl.googlebot.com.", "a.example."),
            cname("a.example.", "b.example."), "b.example. 300 A 192.0.2.1"]
    with DnsServer(zone, follow_cnames=False) as server:
        assert finishes(checker(server).check, ADDRESS, GOOGLE).outcome == "confirmed"
        assert server.count("a.example", "A") == 1 and server.count("b.example", "A") == 1


@pytest.mark.parametrize("follow", [True, False])
def test_cname_loop_fails(follow: bool) -> None:
    zone = [ptr("crawl.googlebot.com."), cname("crawl.googlebot.com.", "a.example."),
            cname("a.example.", "crawl.googlebot.com.")]
    with DnsServer(zone, follow_cnames=follow) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "failed"
    assert "loop" in found.detail


def test_cname_chain_too_long_fails() -> None:
    links = [cname(f"c{i}.example.", f"c{i + 1}.example.") for i in range(MAX_CHAIN + 2)]
    zone = [ptr("crawl.googlebot.com."), cname("crawl.googlebot.com.", "c0.example."),
            *links, f"c{MAX_CHAIN + 2}.example. 300 A 192.0.2.1"]
    with DnsServer(zone, follow_cnames=False) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "failed" and "longer" in found.detail


def test_nxdomain_reverse_is_not_confirmed() -> None:
    with DnsServer([]) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "not-confirmed" and "no PTR" in found.detail


def test_nxdomain_forward_is_not_confirmed() -> None:
    with DnsServer([ptr("crawl.googlebot.com.")]) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "not-confirmed"


@pytest.mark.parametrize("question", [(REV_NAME, "PTR"), ("crawl.googlebot.com", "A")])
def test_servfail_is_a_failure(question: tuple) -> None:
    zone = [ptr("crawl.googlebot.com."), "crawl.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone, behaviour={question: "servfail"}) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "failed"
    assert "SERVFAIL" in found.detail


def test_server_that_never_answers_hits_the_deadline() -> None:
    # Time-outs of 0.1 s against a deadline of 0.25 s: the third attempt gets only what is
    # left, so the deadline (not a fourth attempt, nor dnspython's back-off) ends the check.
    with DnsServer([], behaviour={("*", "*"): "drop"}) as server:
        found = finishes(checker(server, timeout=0.1, deadline=0.25).check, ADDRESS, GOOGLE)
        assert 1 <= server.count(REV_NAME, "PTR") <= MAX_ATTEMPTS
    assert found.outcome == "failed"
    assert "deadline of 0.25 s passed" in found.detail


def test_deadline_shorter_than_the_time_out_is_one_query() -> None:
    # Issue 36 review, finding 4: one attempt, its lifetime the deadline's rest.
    with DnsServer([], behaviour={("*", "*"): "drop"}) as server:
        found = finishes(checker(server, timeout=HEALTHY, deadline=0.3).check, ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR") == 1
    assert found.outcome == "failed" and "deadline of 0.3 s passed" in found.detail


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), 0.0, -1.0, 86_401.0])
def test_deadline_and_time_out_must_be_finite_and_bounded(bad: float) -> None:
    # Issue 36 review, finding 4: an infinite deadline hung against a silent server.
    with pytest.raises(InvalidArgument, match="finite"):
        DnsChecker("127.0.0.1:53", deadline=bad)
    with pytest.raises(InvalidArgument, match="finite"):
        DnsChecker("127.0.0.1:53", timeout=bad)


def test_slow_answer_got_by_a_retry() -> None:
    # The first copy of each question is dropped: only a retry after the per-query time-out
    # gets an answer, well within the deadline.
    zone = [ptr("crawl.googlebot.com."), "crawl.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone, behaviour={(REV_NAME, "PTR"): "drop-first-udp"}) as server:
        found = finishes(checker(server, timeout=1.0).check, ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR", "udp") >= 2
    assert found.outcome == "confirmed"


def test_truncated_then_dripping_tcp_hits_the_deadline() -> None:
    zone = [ptr("crawl.googlebot.com."), "crawl.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone, behaviour={(REV_NAME, "PTR"): "drip"}, drip_every=0.05) as server:
        found = finishes(checker(server, deadline=0.5).check, ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR", "tcp") == 1  # it did switch to TCP
    assert found.outcome == "failed" and "deadline" in found.detail


def test_generic_cloud_name_never_confirms() -> None:
    name = "ec2-192-0-2-1.compute.amazonaws.com."
    zone = [ptr(name), f"{name} 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        found = finishes(checker(server).check, ADDRESS, ("amazonaws.com",))
        assert found.outcome == "not-confirmed" and "generic cloud" in found.detail
        google = finishes(checker(server).check, ADDRESS, ("compute.amazonaws.com",),
                          )
        assert google.outcome == "not-confirmed"


def test_googleusercontent_never_confirms_even_for_google() -> None:
    # Issue 36 review, finding 1: gae.googleusercontent.com names are Google Cloud
    # customers' machines (Google's "Verifying Googlebot and other Google crawlers"), never
    # Google's own fetchers, whoever asks.
    name = "1-2-0-192.gae.googleusercontent.com."
    zone = [ptr(name), f"{name} 300 A 192.0.2.1"]
    with DnsServer(zone) as server:
        dns = checker(server)
        found = dns.check(ADDRESS, ("gae.googleusercontent.com",))
    assert found.outcome == "not-confirmed" and "generic cloud name" in found.detail


def test_cname_ptr_from_a_non_recursive_server_is_followed() -> None:
    # Issue 36 review, finding 7: RFC 2317 delegates a reverse zone by CNAME; a server that
    # does not hold the target answers the first link only: the checker asks for the next.
    delegated = "1.0-25.2.0.192.in-addr.arpa"
    zone = [cname(REV_NAME, delegated), ptr("crawl.googlebot.com.", delegated + "."),
            "crawl.googlebot.com. 300 A 192.0.2.1"]
    with DnsServer(zone, follow_cnames=False) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
        assert server.count(delegated, "PTR") == 1
    assert found.outcome == "confirmed"


def test_cname_ptr_whose_target_cannot_be_had_is_a_failure() -> None:
    delegated = "1.0-25.2.0.192.in-addr.arpa"
    zone = [cname(REV_NAME, delegated), ptr("crawl.googlebot.com.", delegated + ".")]
    with DnsServer(zone, follow_cnames=False,
                   behaviour={(delegated, "PTR"): "servfail"}) as server:
        found = finishes(checker(server).check, ADDRESS, GOOGLE)
    assert found.outcome == "failed" and "SERVFAIL" in found.detail


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_answers_cached_for_their_ttl() -> None:
    zone = [ptr("crawl.googlebot.com.").replace(" 300 ", " 120 "),
            "crawl.googlebot.com. 600 A 192.0.2.1"]
    clock = Clock()
    with DnsServer(zone) as server:
        dns = DnsChecker(server.address, timeout=HEALTHY, deadline=HEALTHY, clock=clock)
        assert dns.check(ADDRESS, GOOGLE).outcome == "confirmed"
        assert dns.check(ADDRESS, GOOGLE).outcome == "confirmed"
        assert server.count(REV_NAME, "PTR") == 1
        clock.now += 121  # the PTR's TTL has passed, the A record's has not
        assert dns.check(ADDRESS, GOOGLE).outcome == "confirmed"
        assert server.count(REV_NAME, "PTR") == 2
        assert server.count("crawl.googlebot.com", "A") == 1


def test_negative_answers_cached_for_the_soa_minimum() -> None:
    clock = Clock()
    with DnsServer([]) as server:
        dns = DnsChecker(server.address, timeout=HEALTHY, deadline=HEALTHY, clock=clock)
        dns.check(ADDRESS, GOOGLE)
        dns.check(ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR") == 1
        clock.now += 61  # the SOA's minimum (60) bounds the negative answer's life
        dns.check(ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR") == 2


def test_failures_are_cached_briefly() -> None:
    clock = Clock()
    with DnsServer([], behaviour={("*", "*"): "servfail"}) as server:
        dns = DnsChecker(server.address, timeout=HEALTHY, deadline=HEALTHY, clock=clock)
        assert dns.check(ADDRESS, GOOGLE).outcome == "failed"
        assert dns.check(ADDRESS, GOOGLE).outcome == "failed"
        assert server.count(REV_NAME, "PTR") == 1
        clock.now += FAILURE_TTL + 1
        dns.check(ADDRESS, GOOGLE)
        assert server.count(REV_NAME, "PTR") == 2


class JumpingClock:
    """A clock that jumps past the deadline once a given question has been asked: a slow
    answer, without waiting for one."""

    def __init__(self, server: DnsServer, question: tuple, jump: float) -> None:
        self.server, self.question, self.jump = server, question, jump

    def __call__(self) -> float:
        return 1000.0 + (self.jump if self.server.count(*self.question) else 0.0)


def test_own_deadline_is_never_cached() -> None:
    # Issue 36 review, finding 3: an attacker's address whose PTR names a genuine crawler's
    # name, answered slowly, must not leave that name's forward lookup failed for the next
    # (genuine) visitor.
    name = "crawl-66-249-66-1.googlebot.com"
    attacker = ipaddress.ip_address("198.51.100.7")
    genuine = ipaddress.ip_address("66.249.66.1")
    zone = [ptr(name + ".", attacker.reverse_pointer + "."),
            ptr(name + ".", genuine.reverse_pointer + "."), f"{name}. 300 A 66.249.66.1"]
    with DnsServer(zone) as server:
        clock = JumpingClock(server, (attacker.reverse_pointer, "PTR"), HEALTHY + 1)
        dns = DnsChecker(server.address, timeout=HEALTHY, deadline=HEALTHY, clock=clock)
        first = dns.check(attacker, GOOGLE)
        assert first.outcome == "failed" and "deadline" in first.detail
        assert dns.check(genuine, GOOGLE).outcome == "confirmed"
        assert server.count(name, "A") == 1  # asked only by the genuine visitor's check


def test_cache_is_bounded() -> None:
    addresses = [ipaddress.ip_address(f"192.0.2.{i}") for i in (1, 2, 3)]
    zone = [ptr(f"n{a.packed[-1]}.googlebot.com.", a.reverse_pointer + ".")
            for a in addresses]
    with DnsServer(zone) as server:
        dns = DnsChecker(server.address, timeout=HEALTHY, deadline=HEALTHY, cache_size=2)
        for address in addresses:
            dns.check(address, GOOGLE)
        dns.check(addresses[0], GOOGLE)  # evicted by the third: asked again
        dns.check(addresses[2], GOOGLE)  # still held
        assert server.count(addresses[0].reverse_pointer, "PTR") == 2
        assert server.count(addresses[2].reverse_pointer, "PTR") == 1


@pytest.mark.parametrize("text,expected", [
    ("192.0.2.53", ("192.0.2.53", 53)), ("192.0.2.53:5353", ("192.0.2.53", 5353)),
    ("[2001:db8::53]:53", ("2001:db8::53", 53)), ("2001:db8::53", ("2001:db8::53", 53)),
])
def test_parse_server(text: str, expected: tuple) -> None:
    assert parse_server(text) == expected


@pytest.mark.parametrize("text", ["dns.example", "192.0.2.53:0", "192.0.2.53:x", "[::1]x",
                                  "", "192.0.2.53:70000"])
def test_parse_server_refuses(text: str) -> None:
    with pytest.raises(InvalidArgument):
        parse_server(text)


@pytest.mark.parametrize(("name", "held"), [
    ("rate-limited-proxy-66-249-90-1.google.com", True),
    ("google-proxy-66-249-90-1.google.com", False),
    ("x.corp.google.com", False),
    ("rate-limited-proxy-66-249-90-1.x.google.com", False),
    ("rate-limited-proxy--.google.com", False),
])
def test_masks_match_the_documented_first_label(name: str, held: bool) -> None:
    # Issue 36 review, finding 6: a mask is not reduced to its bare domain.
    assert (under(name, ("rate-limited-proxy-***-***-***-***.google.com",)) is not None) is held
    assert under("msnbot-1-2-3-4.search.msn.com", ("*.search.msn.com",)) is not None
    # An IPv6 address written in a name has more groups than the mask's IPv4 form.
    assert under("crawl-2001-4860-4801-10--1.googlebot.com",
                 ("crawl-***-***-***-***.googlebot.com",)) is not None
    assert under("evil-crawl-1-2-3-4.googlebot.com",
                 ("crawl-***-***-***-***.googlebot.com",)) is None


def test_names() -> None:
    assert suffix_of("crawl-***-***-***-***.googlebot.com") == "googlebot.com"
    assert suffix_of("*.search.msn.com") == "search.msn.com"
    assert suffix_of("*.com") is None
    assert under("A.GoogleBot.COM.", GOOGLE) == "googlebot.com"
    assert under("agooglebot.com", GOOGLE) is None
    assert host_name([b"Crawl", b"GoogleBot", b"com", b""]) == ("crawl.googlebot.com", True)
    assert host_name([b"-x", b"com"])[1] is False


def test_no_system_resolver_is_a_failure(tmp_path: object) -> None:
    dns = DnsChecker(None, resolv_conf=f"{tmp_path}/absent-resolv.conf")
    found = dns.check(ADDRESS, GOOGLE)
    assert found.outcome == "failed" and "no system resolver" in found.detail
