"""The WARC page path's records per second for several builds, alternating, in rounds.

Usage::

    python benchmarks/page_rounds.py --build base=.venv/bin/python:/path/to/0363374/src \\
        --build pure=.venv/bin/python --build compiled=.venv-compiled/bin/python --rounds 3

Each ``--build`` is ``label=python[:PYTHONPATH]`` (a tree's ``src`` on ``PYTHONPATH`` runs
that tree with this tree's benchmark script). Every round runs
``benchmarks/page_signals.py --path-only`` once per case (real page heads and generated pages,
one agent and three) and build, the builds alternating, so that a change in the machine's
load falls on all of them; the table gives each build's median records per second and range
over the rounds and, against the first build, the ratio of the medians. Issue 27's figures
in docs/explanations/performance.md were taken this way (3 rounds, idle machine).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page_signals.py")
_CASES = [("real, 1 agent", ["--agents", "1"]), ("real, 3 agents", ["--agents", "3"]),
          ("generated, 1 agent", ["--generated", "--agents", "1"]),
          ("generated, 3 agents", ["--generated", "--agents", "3"])]
_RATE = re.compile(r"WARC path \(warc\.page_batches\)\s+([\d,]+) records/s")


def _build(spec: str) -> tuple[str, str, str]:
    label, _, rest = spec.partition("=")
    python, _, path = rest.partition(":")
    if not label or not python:
        raise argparse.ArgumentTypeError(f"expected label=python[:PYTHONPATH], got {spec!r}")
    return label, python, path


def _rate(python: str, path: str, case: list[str], records: int, repeat: int) -> int:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path
    run = subprocess.run([python, _SCRIPT, "--path-only", "--repeat", str(repeat), "--records",
                          str(records), *case], capture_output=True, text=True, env=env,
                         check=False)
    found = _RATE.search(run.stdout)
    if run.returncode != 0 or found is None:
        sys.exit(f"error: {python} {' '.join(case)} failed:\n{run.stdout}{run.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", type=_build, required=True,
                        help="label=python[:PYTHONPATH] (repeatable; the first is the base)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rates: dict[tuple[str, str], list[int]] = {}
    for round_ in range(1, args.rounds + 1):
        for case, flags in _CASES:
            for label, python, path in args.build:
                rate = _rate(python, path, flags, args.records, args.repeat)
                rates.setdefault((case, label), []).append(rate)
                print(f"round {round_}: {case}, {label}: {rate:,} records/s", flush=True)
    base = args.build[0][0]
    print(f"\n| case | {' | '.join(label for label, _, _ in args.build)} |")
    print(f"|---|{'---:|' * len(args.build)}")
    for case, _ in _CASES:
        first = statistics.median(rates[(case, base)])
        cells = []
        for label, _, _ in args.build:
            values = rates[(case, label)]
            median = statistics.median(values)
            ratio = "" if label == base else f", {median / first:.2f}x"
            cells.append(f"{median:,.0f} ({min(values):,}-{max(values):,}){ratio}")
        print(f"| {case} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
