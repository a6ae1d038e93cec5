"""Visitor verdicts (issue 36 §2 and §4): what ``robotsrules.verify`` costs per distinct
visitor offline (the address lists only, ``dns=False``), and what the column function
``robots_verify`` costs on DuckDB for a million-line log with 10,000 distinct addresses.

Run from the repository root::

    .venv/bin/python benchmarks/bench_verify.py --repeat 3

The visitors claim Googlebot (its full User-Agent header) from 10,000 addresses: half in
66.249.64.0/19, where most of Google's list for its common crawlers lies (3,904 of them are
in it), half in documentation space (192.0.2.0/24 and 198.51.100.0/24, in no list).
``verify`` runs once per distinct visitor; the DuckDB query runs with one thread
(``SET threads=1``) over 1,000,000 rows that repeat those 10,000 addresses, first with a
fresh process memo (cold), then again (warm).
Best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def addresses(count: int) -> list[str]:
    found: list[str] = []
    for i in range(count):
        if i % 2:
            found.append(f"66.249.{64 + (i // 2) // 256 % 32}.{(i // 2) % 256}")
        else:
            found.append(f"{'192.0.2' if i % 4 else '198.51.100'}.{(i // 4) % 256}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import robotsrules
    from robotsrules._tables._addresses import load_snapshot

    lists = load_snapshot()
    visitors = addresses(10_000)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        verdicts = [robotsrules.verify(a, GOOGLEBOT, dns=False, snapshot=lists).verdict
                    for a in visitors]
        best = min(best, time.perf_counter() - start)
    print(f"verify, 10,000 distinct visitors: {best:.2f} s, {best / 1e4 * 1e6:.0f} us each "
          f"({verdicts.count('verified')} verified)")
    try:
        import duckdb

        import robotsrules.duckdb as engine
    except ImportError:
        print("DuckDB not installed: the column function is not measured")
        return 0
    query = ("SELECT count(*) FILTER (WHERE robots_verify(a, ?).verdict = 'verified') "
             "FROM (SELECT a FROM (SELECT unnest(?) AS a), range(100))")
    for label in ("cold", "warm"):
        times = []
        for _ in range(args.repeat if label == "warm" else 1):
            if label == "cold":
                from robotsrules.bulk import _columns

                _columns._VISITORS.clear()  # a fresh process's memo
            connection = engine.register(duckdb.connect())
            connection.execute("SET threads=1")
            start = time.perf_counter()
            row = connection.execute(query, [GOOGLEBOT, visitors]).fetchone()
            times.append(time.perf_counter() - start)
        print(f"robots_verify on DuckDB, 1,000,000 rows, 10,000 distinct ({label}): "
              f"{min(times):.2f} s, {min(times):.2f} us a row ({row[0] if row else 0} "
              "verified)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
