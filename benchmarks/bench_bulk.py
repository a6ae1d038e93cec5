"""Bulk verdicts: throughput of the plain API, the Arrow helper, DuckDB and Spark, and memory.

Prints, for a sample of the corpus (robots bodies from ``corpus/robots``, URLs from
``urls.txt``; every ``--every``-th site):

* verdicts per second on one core for the plain per-URL API (``origin_of`` + a dict of parsed
  files + ``explain``), the Arrow helper (:mod:`robotsrules.bulk`), DuckDB (``threads=1``) and
  Spark ``local[1]``; then Spark ``local[2]`` and the speed-up from 1 to 2 workers;
* peak resident memory of the DuckDB CLI job on a URL file 1x and 10x the sample (each in a
  fresh process): streaming keeps it flat.

Run: ``.venv/bin/python benchmarks/bench_bulk.py [--every 10] [--no-spark]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("ROBOTSRULES_CORPUS",
                        os.path.join(HERE, "..", "..", "shared", "corpus"))
AGENTS = ["GPTBot", "CCBot", "Googlebot"]


def load(every: int) -> tuple[list[dict[str, Any]], list[str]]:
    by_host: dict[str, list[str]] = {}
    with open(os.path.join(CORPUS, "urls.txt"), encoding="utf-8") as handle:
        for line in handle:
            host, _, url = line.rstrip("\n").partition("\t")
            by_host.setdefault(host, []).append(url)
    robots, urls = [], []
    for host in sorted(by_host)[::every]:
        path = os.path.join(CORPUS, "robots", host + ".txt")
        if not os.path.exists(path):
            continue
        with open(path, "rb") as handle:
            robots.append({"url": f"https://{host}/robots.txt", "body": handle.read(),
                           "status": 200})
        urls += by_host[host]
    return robots, urls


def timed(function: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    count = function()
    return time.perf_counter() - start, count


def plain(robots: list[dict[str, Any]], urls: list[str]) -> int:
    import robotsrules
    from robotsrules.errors import InvalidURL

    parsed = {robotsrules.origin_of(r["url"]): robotsrules.parse(r["body"]) for r in robots}
    count = 0
    for url in urls:
        try:
            found = parsed.get(robotsrules.origin_of(url))
        except InvalidURL:
            found = None
        for agent in AGENTS:
            if found is not None:
                verdict = found.explain(url, agent=agent)
                _ = (verdict.allowed, verdict.rule.line if verdict.rule else None)
            count += 1
    return count


def helper(robots_table: Any, urls_table: Any) -> int:
    from robotsrules import bulk

    return sum(b.num_rows for b in bulk.verdicts(robots_table, urls_table.to_batches(65_536),
                                                 AGENTS))


def on_duckdb(robots_table: Any, urls_table: Any) -> int:
    import duckdb

    from robotsrules import duckdb as engine

    con = duckdb.connect(config={"threads": 1})
    try:
        return sum(b.num_rows for b in engine.verdicts(robots_table, urls_table, AGENTS,
                                                       connection=con))
    finally:
        con.close()


def on_spark(master: str, robots_path: str, urls_path: str) -> tuple[float, int]:
    from robotsrules import spark as engine

    session = engine.local_session(master, **{"spark.sql.shuffle.partitions": "8"})
    try:
        robots = engine.read(session, robots_path)
        urls = engine.read(session, urls_path)
        out = tempfile.mkdtemp(prefix="bench-spark-")
        # Warm-up (JVM JIT, Python workers), then the measured run.
        engine.verdicts(robots, urls, AGENTS).write.mode("overwrite").parquet(out)
        start = time.perf_counter()
        engine.verdicts(robots, urls, AGENTS).write.mode("overwrite").parquet(out)
        seconds = time.perf_counter() - start
        rows = urls.count() * len(AGENTS)
        shutil.rmtree(out, ignore_errors=True)
        return seconds, rows
    finally:
        session.stop()


def peak_rss(robots_path: str, urls_path: str, out: str) -> float:
    """Peak RSS (MiB) of `robotsrules bulk` on these files, in a fresh process."""
    code = ("import resource, sys; from robotsrules.cli import main; "
            f"rc = main(['bulk', '--robots', {robots_path!r}, '--urls', {urls_path!r}, "
            f"'--agent', 'GPTBot', '--agent', 'CCBot', '--agent', 'Googlebot', '--out', {out!r}]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.strip().splitlines()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=10, help="take every N-th site")
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq

    robots, urls = load(args.every)
    robots_table = pa.Table.from_pylist(robots)
    urls_table = pa.table({"url": urls})
    rows = len(urls) * len(AGENTS)
    print(f"sample: {len(robots):,} sites, {len(urls):,} URLs x {len(AGENTS)} agents = "
          f"{rows:,} verdicts (python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    print("\none core, verdicts per second:")
    results: dict[str, float] = {}
    for name, function in (("plain per-URL API", lambda: plain(robots, urls)),
                           ("Arrow helper (robotsrules.bulk)",
                            lambda: helper(robots_table, urls_table)),
                           ("DuckDB (threads=1)", lambda: on_duckdb(robots_table, urls_table))):
        seconds, count = timed(function)
        assert count == rows, (name, count, rows)
        results[name] = count / seconds
        print(f"  {name:<34} {count / seconds:>12,.0f}/s  ({seconds:.2f} s)")
    scratch = tempfile.mkdtemp(prefix="bench-bulk-")
    try:
        robots_path = os.path.join(scratch, "robots.parquet")
        urls_path = os.path.join(scratch, "urls.parquet")
        pq.write_table(robots_table, robots_path)
        pq.write_table(urls_table, urls_path)
        if not args.no_spark and shutil.which("java"):
            one, count = on_spark("local[1]", robots_path, urls_path)
            print(f"  {'Spark local[1]':<34} {count / one:>12,.0f}/s  ({one:.2f} s, warm)")
            two, count = on_spark("local[2]", robots_path, urls_path)
            print(f"\n  {'Spark local[2]':<34} {count / two:>12,.0f}/s  ({two:.2f} s, warm)")
            print(f"  speed-up from 1 to 2 workers: {one / two:.2f}x")
        big_path = os.path.join(scratch, "urls10.parquet")
        with pq.ParquetWriter(big_path, urls_table.schema) as writer:
            for _ in range(10):
                writer.write_table(urls_table)
        print("\nmemory, `robotsrules bulk` (DuckDB), peak RSS of a fresh process:")
        small = peak_rss(robots_path, urls_path, os.path.join(scratch, "v1.parquet"))
        large = peak_rss(robots_path, big_path, os.path.join(scratch, "v10.parquet"))
        print(f"  {len(urls):>10,} URLs: {small:7.0f} MiB")
        print(f"  {10 * len(urls):>10,} URLs: {large:7.0f} MiB  (x{large / small:.2f} for 10x "
              "the URLs)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
