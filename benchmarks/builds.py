"""The pure and the compiled build of robotsrules against protego, run after run.

Both builds import as ``robotsrules``, so each run is one process of
``benchmarks/bench_peers.py`` in one build's environment, with protego (and Google's library
for the bulk ratio) timed in the same process, interleaved with robotsrules: each run's ratios
are made under one machine state. The builds alternate (pure, compiled, pure, ...) so that a
change of load over the session touches both alike. The report gives, per build and ratio,
the median and the range over the runs, and the goals of issue 27 beside them. These are
benchmark targets, never timed tests.

    .venv/bin/python benchmarks/builds.py --pure .venv/bin/python \\
        --compiled .venv-compiled/bin/python --runs 8 --sample 500

Each environment needs robotsrules (pure, or built with ``ROBOTSRULES_COMPILE=1``) and the
``bench`` extra's peers (protego; jwm.robotstxt for the bulk ratio).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
RATIOS = (("parse", "protego", "parse"), ("check", "protego", "check"),
          ("warm_check", "protego", "warm check"), ("bulk", "google", "bulk (vs Google)"))
GOALS = {  # build -> ratio -> (median at least, every run at least)
    "compiled": {"check": (6.0, 5.0), "warm_check": (12.0, None), "parse": (8.0, None),
                 "bulk": (40.0, None)},
}


def one_run(python: str, build: str, sample: int, repeat: int, seed: int,
            corpus: Optional[str]) -> dict[str, dict[str, Optional[float]]]:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "run.json"
        command = [python, str(HERE / "bench_peers.py"), "--sample", str(sample),
                   "--repeat", str(repeat), "--seed", str(seed), "--peers", "protego,google",
                   "--no-memory", "--no-largest", "--json-file", str(out)]
        if corpus:
            command += ["--corpus", corpus]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        document = json.loads(out.read_text())
    version = str(document["versions"].get("robotsrules"))
    print(f"  {version}", file=sys.stderr)
    if (build == "compiled") != version.endswith("(compiled)"):
        raise SystemExit(f"{python} runs robotsrules {version}, not the {build} build")
    ratios: dict[str, dict[str, Optional[float]]] = document["ratios_peer_over_ours"]
    return ratios


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pure", required=True, metavar="PYTHON",
                        help="the interpreter of the pure build's environment")
    parser.add_argument("--compiled", required=True, metavar="PYTHON",
                        help="the interpreter of the compiled build's environment")
    parser.add_argument("--runs", type=int, default=8, help="runs per build (default 8)")
    parser.add_argument("--sample", type=int, default=500, help="corpus files (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats within a run, best kept")
    parser.add_argument("--seed", type=int, default=9309)
    parser.add_argument("--corpus", default=None)
    args = parser.parse_args(argv)
    found: dict[str, dict[str, list[float]]] = {"pure": {}, "compiled": {}}
    for run in range(args.runs):
        for build, python in (("pure", args.pure), ("compiled", args.compiled)):
            print(f"run {run + 1}/{args.runs}: {build}", file=sys.stderr)
            ratios = one_run(python, build, args.sample, args.repeat, args.seed, args.corpus)
            for key, peer, _ in RATIOS:
                value = ratios.get(peer, {}).get(key)
                if value is not None:
                    found[build].setdefault(key, []).append(value)
    print(f"# robotsrules builds vs peers: {args.runs} alternating runs a build, "
          f"{args.sample} corpus files (seed {args.seed}), best of {args.repeat} a run")
    print()
    print("| build | ratio | median | range | goal | status |")
    print("|---|---|---:|---:|---|---|")
    for build in ("pure", "compiled"):
        for key, _peer, label in RATIOS:
            values = found[build].get(key)
            if not values:
                print(f"| {build} | {label} | n/a | n/a | | |")
                continue
            median = statistics.median(values)
            low, high = min(values), max(values)
            goal = GOALS.get(build, {}).get(key)
            status, wanted = "", ""
            if goal is not None:
                at_least, floor = goal
                wanted = f"median >= {at_least:g}x" + (f", every run >= {floor:g}x"
                                                        if floor else "")
                ok = median >= at_least and (floor is None or low >= floor)
                status = "PASS" if ok else "FAIL"
            print(f"| {build} | {label} | {median:.2f}x | {low:.2f}x-{high:.2f}x | {wanted} "
                  f"| {status} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
