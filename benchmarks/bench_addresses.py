"""Address lookups against the crawler address snapshot (issue 36 §4): lookups per second on
one core from the bundled snapshot's index, beside a naive scan of the same lists and beside
the ``ipaddress`` module's own ``in`` test, and the cost of a million-line log with 10,000
distinct addresses (each looked up once).

Run from the repository root::

    .venv/bin/python benchmarks/bench_addresses.py --lookups 200000 --repeat 5

The addresses are a seeded mix: half hits (an address drawn inside a prefix drawn from the
snapshot's lists) and half misses (random addresses, tested to be in no list), four in five
IPv4, the rest IPv6, as text (what a log holds) and, separately, as ``ipaddress`` objects.
The naive scan walks every (first, last) integer range of every list for each address (the
address parsed once with ``ipaddress``); the ``ipaddress`` way tests ``address in network``
for every network. Both answer a sample of the addresses (they are slow) and must agree with
the index on every one of them. Best of ``--repeat``, garbage collector paused.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from robotsrules import COMPILED
from robotsrules._tables._addresses import AddressIndex, load_snapshot


def best(repeat: int, run: Callable[[], Any]) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def mix(index: AddressIndex, count: int, rng: random.Random) -> list[str]:
    """``count`` addresses as text: half hits, half misses, four in five IPv4."""
    networks = [ipaddress.ip_network(text) for item in index.lists for text in item.prefixes]
    v4 = [net for net in networks if net.version == 4]
    v6 = [net for net in networks if net.version == 6]
    out: list[str] = []
    while len(out) < count:
        ipv4 = rng.random() < 0.8
        if len(out) % 2 == 0:
            net = rng.choice(v4 if ipv4 else v6)
            number = int(net.network_address) + rng.randrange(net.num_addresses)
            out.append(str(ipaddress.IPv4Address(number) if ipv4
                           else ipaddress.IPv6Address(number)))
        else:
            address: Any = (ipaddress.IPv4Address(rng.getrandbits(32)) if ipv4
                            else ipaddress.IPv6Address((0x2 << 124) | rng.getrandbits(124)))
            if not index.lookup(address):
                out.append(str(address))
    return out


def naive(index: AddressIndex) -> Callable[[str], list[tuple[str, str]]]:
    ranges = []
    for item in index.lists:
        for text in item.prefixes:
            net = ipaddress.ip_network(text)
            ranges.append((net.version, int(net.network_address), int(net.broadcast_address),
                           item.name, text))

    def scan(text: str) -> list[tuple[str, str]]:
        address = ipaddress.ip_address(text)
        number, version = int(address), address.version
        return [(name, prefix) for v, first, last, name, prefix in ranges
                if v == version and first <= number <= last]

    return scan


def with_ipaddress(index: AddressIndex) -> Callable[[str], list[tuple[str, str]]]:
    networks = [(ipaddress.ip_network(text), item.name, text)
                for item in index.lists for text in item.prefixes]

    def scan(text: str) -> list[tuple[str, str]]:
        address = ipaddress.ip_address(text)
        return [(name, prefix) for net, name, prefix in networks
                if net.version == address.version and address in net]

    return scan


def run_all(addresses: Sequence[Any], lookup: Callable[[Any], Any]) -> None:
    for address in addresses:
        lookup(address)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lookups", type=int, default=200_000)
    parser.add_argument("--sample", type=int, default=2_000, help="addresses the scans answer")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    start = time.perf_counter()
    snapshot = load_snapshot()
    loaded = time.perf_counter() - start
    index = snapshot.index
    start = time.perf_counter()
    AddressIndex(snapshot.lists)
    built = time.perf_counter() - start
    print(f"robotsrules ({'compiled' if COMPILED else 'pure Python'}), Python "
          f"{sys.version.split()[0]}; snapshot {snapshot.origin}, {len(snapshot.lists)} lists, "
          f"{index.size} prefixes; read, checked and indexed in {loaded * 1000:.0f} ms "
          f"(index alone {built * 1000:.0f} ms)")

    addresses = mix(index, args.lookups, rng)
    objects = [ipaddress.ip_address(text) for text in addresses]
    sample = addresses[: args.sample]
    scan, slow = naive(index), with_ipaddress(index)
    for text in sample:  # the three ways agree before anything is timed
        want = sorted((hit.list.name, hit.prefix) for hit in index.lookup(text))
        assert sorted(scan(text)) == want == sorted(slow(text)), text

    lookup = index.lookup
    repeat = args.repeat
    rows = [
        ("index, text addresses", len(addresses), best(repeat, lambda: run_all(addresses, lookup))),
        ("index, ipaddress objects", len(objects), best(repeat, lambda: run_all(objects, lookup))),
        ("naive scan of the ranges", len(sample), best(1, lambda: run_all(sample, scan))),
        ("ipaddress `in` over every network", len(sample), best(1, lambda: run_all(sample, slow))),
    ]
    print(f"{'way':<36} {'lookups/s':>12} {'µs each':>9}")
    for name, count, seconds in rows:
        print(f"{name:<36} {count / seconds:>12,.0f} {seconds / count * 1e6:>9.2f}")

    distinct = mix(index, 10_000, rng)
    log = [rng.choice(distinct) for _ in range(1_000_000)]

    def audit() -> int:
        seen = dict.fromkeys(log)  # each address looked up once
        verified = 0
        for address in seen:
            if lookup(address):
                verified += 1
        return verified

    seconds = best(args.repeat, audit)
    print(f"a 1,000,000-line log, 10,000 distinct addresses: {seconds * 1000:.0f} ms "
          f"({seconds / len(log) * 1e9:.0f} ns a line; the lookups alone "
          f"{best(args.repeat, lambda: run_all(distinct, lookup)) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
