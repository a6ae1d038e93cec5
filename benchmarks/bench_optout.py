"""Opt-out answers: ``stance`` per file, and the any-agent bulk job against protego.

Prints, for a sample of the corpus (every ``--every``-th site of ``urls.txt``):

* ``RobotsTxt.stance`` per file for one agent (GPTBot) over every ``--stance-every``-th
  corpus file: files per second, median / p99 / max time, and how many were all / none /
  some (parse time excluded: files are parsed first);
* the any-agent job (one row per URL: is any of 15 AI agents disallowed, which, by which
  line) in URLs and verdicts per second on one core: robotsrules' Arrow helper
  (``bulk.any_agent_verdicts``; and the fold of 15 per-agent verdicts, ``bulk.any_agent``),
  DuckDB (``threads=1``), Spark ``local[2]`` (per core = rate / 2), and the same job written
  with protego in a Python loop (parse each site once, ``can_fetch`` per agent until one
  refuses): the Apertus filter's way;
* the bulk stance job (one row per site and agent, no URL table: ``robotsrules stance
  --robots ... --out``) over the same sites and 15 agents, in stances and sites per second on
  one core: DuckDB (``threads=1``, ``duckdb.stances``) and a plain loop (parse each file,
  ``RobotsTxt.stance`` per agent).

Run: ``.venv/bin/python benchmarks/bench_optout.py [--every 10] [--no-spark]
[--only-stances]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_bulk import CORPUS, load  # noqa: E402

# 15 AI crawler tokens, as in a pretraining filter that drops a document if any is blocked.
AGENTS = ["GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot", "anthropic-ai", "Claude-Web",
          "CCBot", "Google-Extended", "Applebot-Extended", "PerplexityBot", "Bytespider",
          "meta-externalagent", "FacebookBot", "cohere-ai", "Diffbot"]


def bench_stance(every: int) -> None:
    import robotsrules
    from robotsrules._rules._stance import StanceTooComplex

    names = sorted(os.listdir(os.path.join(CORPUS, "robots")))[::every]
    parsed = []
    for name in names:
        with open(os.path.join(CORPUS, "robots", name), "rb") as handle:
            parsed.append(robotsrules.parse(handle.read()))
    times: list[float] = []
    kinds: dict[str, int] = {}
    for robots in parsed:
        start = time.perf_counter()
        try:
            stance = robots.stance("GPTBot")
            kind = stance.kind + ("" if stance.complete else " (lines incomplete)")
        except StanceTooComplex:
            kind = "too complex"
        times.append(time.perf_counter() - start)
        kinds[kind] = kinds.get(kind, 0) + 1
    times.sort()
    total = sum(times)
    print(f"stance (GPTBot) over {len(parsed):,} corpus files: {len(parsed) / total:,.0f} "
          f"files/s; median {statistics.median(times) * 1e3:.2f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1e3:.1f} ms, max {times[-1] * 1e3:.0f} ms; "
          + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())))


def with_protego(robots: list[dict[str, Any]], urls: list[str]) -> int:
    from protego import Protego

    from robotsrules.bulk._rows import fast_origin

    parsed = {fast_origin(r["url"]): Protego.parse(r["body"].decode("utf-8", "replace"))
              for r in robots}
    rows = 0
    for url in urls:
        rules = parsed.get(fast_origin(url))
        first = None
        if rules is not None:
            for agent in AGENTS:
                try:
                    if not rules.can_fetch(url, agent):
                        first = agent
                        break
                except Exception:  # protego raises on some URLs; the loop must go on
                    break
        _ = first
        rows += 1
    return rows


def with_fold(robots_table: Any, urls_table: Any) -> int:
    from robotsrules import bulk

    batches = bulk.verdicts(robots_table, urls_table.to_batches(65_536), AGENTS)
    return sum(b.num_rows for b in bulk.any_agent(batches, AGENTS))


def with_helper(robots_table: Any, urls_table: Any) -> int:
    from robotsrules import bulk

    batches = bulk.any_agent_verdicts(robots_table, urls_table.to_batches(65_536), AGENTS)
    return sum(b.num_rows for b in batches)


def with_duckdb(robots_table: Any, urls_table: Any) -> int:
    import duckdb

    from robotsrules import duckdb as engine

    con = duckdb.connect(config={"threads": 1})
    try:
        reader = engine.any_agent_verdicts(robots_table, urls_table, AGENTS, connection=con)
        return sum(b.num_rows for b in reader)
    finally:
        con.close()


def with_spark(robots_path: str, urls_path: str) -> tuple[float, int]:
    from robotsrules import spark as engine

    session = engine.local_session("local[2]", **{"spark.sql.shuffle.partitions": "8"})
    try:
        robots = engine.read(session, robots_path)
        urls = engine.read(session, urls_path)
        out = tempfile.mkdtemp(prefix="bench-optout-")
        engine.any_agent_verdicts(robots, urls, AGENTS).write.mode("overwrite").parquet(out)
        start = time.perf_counter()
        engine.any_agent_verdicts(robots, urls, AGENTS).write.mode("overwrite").parquet(out)
        seconds = time.perf_counter() - start
        rows = urls.count()
        shutil.rmtree(out, ignore_errors=True)
        return seconds, rows
    finally:
        session.stop()


def stances_duckdb(robots_table: Any) -> int:
    import duckdb

    from robotsrules import duckdb as engine

    con = duckdb.connect(config={"threads": 1})
    try:
        return sum(b.num_rows for b in engine.stances(robots_table, AGENTS, connection=con))
    finally:
        con.close()


def stances_loop(robots: list[dict[str, Any]]) -> int:
    import robotsrules
    from robotsrules.bulk._rows import robots_for

    rows = 0
    for row in robots:
        parsed = robots_for(row["body"], row.get("status"))
        for agent in AGENTS:
            with contextlib.suppress(robotsrules.RobotsError):
                parsed.stance(agent)
            rows += 1
    return rows


def bench_stance_table(robots: list[dict[str, Any]], robots_table: Any) -> None:
    print(f"bulk stance job: {len(robots):,} sites x {len(AGENTS)} agents")
    for name, job in (("plain loop (parse, stance/agent)", lambda: stances_loop(robots)),
                      ("robotsrules DuckDB (threads=1)", lambda: stances_duckdb(robots_table))):
        job()  # warm-up
        start = time.perf_counter()
        rows = job()
        seconds = time.perf_counter() - start
        print(f"  {name:<32} {rows / seconds:>9,.0f} stances/s  "
              f"({rows / len(AGENTS) / seconds:>7,.0f} sites/s) per core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=10, help="every N-th site (default 10)")
    parser.add_argument("--stance-every", type=int, default=5,
                        help="every N-th corpus file for the stance figure (default 5)")
    parser.add_argument("--no-spark", action="store_true")
    parser.add_argument("--only-stances", action="store_true",
                        help="only the bulk stance job")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(CORPUS, "robots")):
        sys.exit(f"corpus not found at {CORPUS} (set ROBOTSRULES_CORPUS)")
    if not args.only_stances:
        bench_stance(args.stance_every)

    import pyarrow as pa
    import pyarrow.parquet as pq

    robots, urls = load(args.every)
    robots_table = pa.Table.from_pylist(robots)
    urls_table = pa.table({"url": urls})
    bench_stance_table(robots, robots_table)
    if args.only_stances:
        return
    print(f"any-agent job: {len(robots):,} sites, {len(urls):,} URLs x {len(AGENTS)} agents")
    for name, job in (("protego, Python loop", lambda: with_protego(robots, urls)),
                      ("robotsrules, fold of 15 verdicts",
                       lambda: with_fold(robots_table, urls_table)),
                      ("robotsrules Arrow helper", lambda: with_helper(robots_table, urls_table)),
                      ("robotsrules DuckDB (threads=1)",
                       lambda: with_duckdb(robots_table, urls_table))):
        job()  # warm-up
        start = time.perf_counter()
        rows = job()
        seconds = time.perf_counter() - start
        print(f"  {name:<32} {rows / seconds:>9,.0f} URLs/s  "
              f"({rows * len(AGENTS) / seconds:>11,.0f} agent verdicts/s) per core")
    if not args.no_spark:
        scratch = tempfile.mkdtemp(prefix="bench-optout-in-")
        try:
            pq.write_table(robots_table, os.path.join(scratch, "robots.parquet"))
            pq.write_table(urls_table, os.path.join(scratch, "urls.parquet"))
            seconds, rows = with_spark(os.path.join(scratch, "robots.parquet"),
                                       os.path.join(scratch, "urls.parquet"))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        print(f"  {'robotsrules Spark local[2]':<32} {rows / seconds / 2:>9,.0f} URLs/s  "
              f"({rows * len(AGENTS) / seconds / 2:>11,.0f} agent verdicts/s) per core "
              f"({rows / seconds:,.0f} URLs/s on 2 workers)")


if __name__ == "__main__":
    main()
