"""The log audit against GoAccess on one core (issue 37): lines per second per core and
peak memory, for generated logs of 1 M and 10 M lines.

Run from the repository root (as root, GoAccess is installed with apt when missing)::

    .venv/bin/python benchmarks/audit_logs_bench.py --sizes 1000000 10000000 \\
        [--compiled .venv-compiled/bin/python] [--profile] [--work /tmp/audit-bench]

For each size, :mod:`audit_logs_generate` writes a log and a robots.txt history (once; kept
in ``--work``, a temporary directory by default, never committed). Then, each pinned to
one core with ``taskset -c CORE`` and measured by ``/usr/bin/time -v`` (wall time, CPU
time, and the peak resident memory of the process and its children; lines per second per
core are lines per CPU second, which other work on a shared machine does not move):

* ``robotsrules logs LOG --site ... --robots-history DIR --out audit.parquet`` for each
  build given (the pure one, ``--pure``, by default this Python; the compiled one with
  ``--compiled``); while the command is not there, the same job through
  ``robotsrules.audit_logs`` (said in the output);
* GoAccess reading and classifying the same log (``--log-format=COMBINED``, a JSON report
  written): it judges nothing against robots.txt; it is the yardstick for reading lines.

``--profile`` runs the pure build's job once more under cProfile on the smaller log and
prints the top entries by cumulative and by own time: where the time goes when the goal
(150,000 lines per second per core on the embedded engine, under 1 GiB) is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from audit_logs_generate import SITE, generate  # noqa: E402

GOAL_RATE = 150_000
GOAL_MEMORY = 1 << 30
_JOB = ("import sys; from robotsrules import audit_logs\n"
        "with audit_logs(sys.argv[1], site=sys.argv[2], history=sys.argv[3],"
        " directory=sys.argv[4]) as audit: print(audit.summary['totals'])")


def measured(command: list[str], core: int) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds (user + system), peak resident octets) of ``command`` on
    one core; raises when it fails. On a shared machine the CPU seconds are the figure:
    the wall time also counts the time other processes held the core."""
    timed = ["taskset", "-c", str(core), "/usr/bin/time", "-v", *command]
    started = time.perf_counter()
    done = subprocess.run(timed, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):  # robotsrules logs: 1 = violations found
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n"
                           f"{done.stderr[-2000:]}")
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    cpu = sum(float(found) for found in re.findall(
        r"(?:User|System) time \(seconds\): ([0-9.]+)", done.stderr))
    return wall, cpu, int(peak.group(1)) * 1024 if peak else 0


def show(row: tuple[str, int, float, float, int]) -> None:
    name, size, wall, cpu, peak = row
    print(f"  {name:<26} {size:>11,} lines {wall:7.1f} s wall {cpu:7.1f} s CPU "
          f"{size / cpu:>9,.0f} lines per CPU second {peak / 2**20:7,.0f} MiB peak; load "
          f"{os.getloadavg()[0]:.1f}", flush=True)


def has_logs_command(python: str) -> bool:
    probe = subprocess.run([python, "-m", "robotsrules", "logs", "--help"],
                           capture_output=True, check=False)
    return probe.returncode == 0


def robotsrules_command(python: str, log: Path, history: Path, out: Path) -> list[str]:
    if has_logs_command(python):
        return [python, "-m", "robotsrules", "logs", str(log), "--site", SITE,
                "--robots-history", str(history), "--out", str(out / "audit.parquet")]
    return [python, "-c", _JOB, str(log), SITE, str(history), str(out)]


def goaccess() -> str:
    found = shutil.which("goaccess")
    if found is None and hasattr(os, "geteuid") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "goaccess"], check=True)
        found = shutil.which("goaccess")
    if found is None:
        raise SystemExit("GoAccess is missing: apt-get install goaccess (as root)")
    return found


def profile(python: str, log: Path, history: Path, out: Path, core: int) -> None:
    script = ("import cProfile, pstats, sys\n"
              "from robotsrules import audit_logs\n"
              "profiler = cProfile.Profile()\nprofiler.enable()\n"
              "with audit_logs(sys.argv[1], site=sys.argv[2], history=sys.argv[3],"
              " directory=sys.argv[4]) as audit: pass\n"
              "profiler.disable()\nstats = pstats.Stats(profiler)\n"
              "stats.sort_stats('cumulative').print_stats(15)\n"
              "stats.sort_stats('tottime').print_stats(15)\n")
    subprocess.run(["taskset", "-c", str(core), python, "-c", script, str(log), SITE, str(history),
                    str(out)], check=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--pure", default=sys.executable)
    parser.add_argument("--compiled", default=None)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-goaccess", action="store_true")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="audit-bench-"))
    builds = [("pure", args.pure)] + ([("compiled", args.compiled)] if args.compiled else [])
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.platform()}; "
          f"{platform.processor() or platform.machine()}; {os.cpu_count()} cores; "
          f"one core used (taskset -c {args.core})")
    rows = []
    for size in args.sizes:
        folder = work / f"log-{size}"
        log, history = folder / "access.log", folder / "history"
        if not log.exists():  # written aside and renamed: a cut run leaves no half log
            started = time.perf_counter()
            generate(folder.with_name(folder.name + ".part"), size, 30, 37)
            folder.with_name(folder.name + ".part").rename(folder)
            print(f"generated {size:,} lines ({log.stat().st_size / 2**20:,.0f} MiB) in "
                  f"{time.perf_counter() - started:.0f} s")
        for build, python in builds:
            out = folder / f"out-{build}"
            out.mkdir(exist_ok=True)
            command = robotsrules_command(python, log, history, out)
            how = "robotsrules logs" if "-m" in command else "audit_logs()"
            rows.append((f"{how} ({build})", size, *measured(command, args.core)))
            show(rows[-1])
        if not args.no_goaccess:
            report = folder / "goaccess.json"
            rows.append(("GoAccess 'COMBINED'", size, *measured(
                [goaccess(), str(log), "--log-format=COMBINED", "--no-global-config", "-o",
                 str(report)], args.core)))
            show(rows[-1])
    for name, size, _, cpu, peak in rows:
        if name.startswith(("robotsrules", "audit_logs")) and size >= 10_000_000:
            met = size / cpu >= GOAL_RATE and peak < GOAL_MEMORY
            print(f"goal (>= {GOAL_RATE:,} lines/s/core, < 1 GiB) for {name} at {size:,}: "
                  f"{'met' if met else 'NOT met'}")
    if args.profile:
        smallest = work / f"log-{min(args.sizes)}"
        profile(args.pure, smallest / "access.log", smallest / "history",
                smallest / "out-profile", args.core)
    print(f"logs kept in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
