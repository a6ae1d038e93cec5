"""Where the log audit's memory goes (issue 37): resident memory phase by phase.

Run from the repository root on a log that ``audit_logs_bench.py`` generated::

    .venv/bin/python benchmarks/audit_logs_memory.py /tmp/audit-bench/log-1000000 \\
        [--lines 3000000] [--tracemalloc] [--out FILE.parquet] [--every 0.2]

The job (``robotsrules logs LOG --site ... --robots-history DIR``, with ``--out`` when
given, through :func:`robotsrules.cli.main` in a child process) is watched from this
process, which reads the child's ``VmRSS`` from ``/proc/PID/status`` every ``--every``
seconds (a time series, printed as a few points). The child reports at each phase's end
(the first pass, reading; the sorted robots.txt answers; the second pass, judging; the
summary, DuckDB; each of the summary's queries run again alone; the ``--out`` copy): its
resident memory then (anonymous and file-backed), the highest resident memory of the
phase (``VmHWM``, reset at each phase's start by writing ``5`` to
``/proc/self/clear_refs``), pyarrow's allocated bytes, its pool's backend and highest use,
glibc's heap (``mallinfo2``), Python's arenas, the largest anonymous mappings (resident/
mapped MiB; pyarrow's mimalloc reserves 1 GiB at once), DuckDB's ``duckdb_memory()``
after each query, and with ``--tracemalloc`` Python's own allocations (current, peak and
the top lines; it slows the job several times). ``--lines N`` audits the first N lines of
the log (a copy in ``--scratch``, made once). ``--pool``, ``--release`` and ``--decay0``
try pyarrow's allocator settings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from audit_logs_generate import SITE  # noqa: E402

_CHILD = r'''
import json, os, sys, time
import pyarrow as pa
TRACE = os.environ.get("AUDIT_TRACE") == "1"
RELEASE = os.environ.get("AUDIT_RELEASE") == "1"
if os.environ.get("AUDIT_DECAY0") == "1":
    pa.jemalloc_set_decay_ms(0)
if TRACE:
    import tracemalloc
    tracemalloc.start(1)
from robotsrules._audit import _job, _summary
from robotsrules import cli

def status():
    found = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(("VmRSS:", "VmHWM:", "RssAnon:", "RssFile:")):
                found[line.split(":")[0]] = int(line.split()[1]) // 1024
    return found

def reset():
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")

import ctypes, io
class _Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]
_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _Info

def heaps():
    """glibc's heap (in use, free but kept, mmapped) and Python's arenas, in MiB."""
    info = _libc.mallinfo2()
    import tempfile
    with tempfile.TemporaryFile("w+") as scratch:
        saved = os.dup(2)
        os.dup2(scratch.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        scratch.seek(0)
        text = scratch.read()
    arenas = [line.split("=")[1].replace(",", "") for line in text.splitlines()
              if line.startswith("# arenas allocated current")]
    return {"malloc_used_MiB": info.uordblks >> 20, "malloc_free_MiB": info.fordblks >> 20,
            "malloc_mmap_MiB": info.hblkhd >> 20,
            "py_arenas_MiB": int(arenas[0]) * 256 >> 10 if arenas else None}

def mappings():
    """The largest anonymous mappings by resident size: (MiB resident, MiB mapped, name)."""
    found, current = [], None
    with open("/proc/self/smaps") as handle:
        for line in handle:
            head = line.split()
            if "-" in head[0] and not head[0].endswith(":"):
                start, end = (int(x, 16) for x in head[0].split("-"))
                current = [0, (end - start) >> 20, head[5] if len(head) > 5 else "anon"]
                found.append(current)
            elif head[0] == "Rss:" and current is not None:
                current[0] = int(head[1]) >> 10
    anon = sorted((m for m in found if m[2] in ("anon", "[heap]")), reverse=True)
    return {"anon_maps": len(anon),
            "anon_top": [f"{r}/{v}{'H' if n == '[heap]' else ''}" for r, v, n in anon[:8]]}

def report(phase, **more):
    pool = pa.default_memory_pool()
    if RELEASE:
        pool.release_unused()
    row = {"phase": phase, "t": time.monotonic(), **status(), **heaps(), **mappings(),
           "arrow_MiB": pa.total_allocated_bytes() >> 20,
           "arrow_peak_MiB": pool.max_memory() >> 20, "pool": pool.backend_name, **more}
    if TRACE:
        current, peak = tracemalloc.get_traced_memory()
        row["py_MiB"], row["py_peak_MiB"] = current >> 20, peak >> 20
        top = tracemalloc.take_snapshot().statistics("lineno")[:8]
        row["py_top"] = [f"{s.size >> 10} KiB {s.count} blocks "
                         f"{s.traceback[0].filename.rsplit('/', 2)[-1]}:{s.traceback[0].lineno}"
                         for s in top]
        tracemalloc.reset_peak()
    print("PHASE " + json.dumps(row), file=sys.stderr, flush=True)
    reset()

def after(owner, name, phase, before=None):
    inner = getattr(owner, name)
    def wrapped(*args, **kwargs):
        if before:
            report(before)
        result = inner(*args, **kwargs)
        report(phase)
        return result
    setattr(owner, name, wrapped)

after(_job._Fetches, "kept", "answers sorted", before="first pass")
after(_job, "_second_pass", "second pass")
tables = _summary.engine_tables
def engine_tables(path, engine="duckdb", spark=None):
    found = tables(path, engine, spark)
    report("summary")
    for name, sql in _summary.QUERIES.items():  # again, one at a time: which holds the peak
        with _summary._connect(path) as con:
            con.register("requests", con.read_parquet(path))
            con.execute(sql.format(**_summary.DIALECTS["duckdb"])).fetchall()
            use = con.execute("SELECT sum(memory_usage_bytes) >> 20, "
                              "sum(temporary_storage_bytes) >> 20 FROM duckdb_memory()"
                              ).fetchone()
        report(f"query {name}", duckdb_held_MiB=use[0], duckdb_spilled_MiB=use[1])
    return found
_summary.engine_tables = engine_tables
reset()
code = cli.main(sys.argv[1:])
report("out written")
sys.exit(code)
'''


def head(log: Path, lines: int, scratch: Path) -> Path:
    """The first ``lines`` lines of ``log``, copied once into ``scratch``."""
    part = scratch / f"{log.parent.name}-head-{lines}.log"
    if not part.exists():
        with open(log, "rb") as source, open(f"{part}.part", "wb") as target:
            for number, line in enumerate(source):
                if number >= lines:
                    break
                target.write(line)
        os.rename(f"{part}.part", part)
    return part


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder audit_logs_bench.py made")
    parser.add_argument("--lines", type=int, default=None)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--out", default=None, help="the --out file (.parquet, .csv, ...)")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()),
                        help="where the --lines copy is made (default: the temporary folder)")
    parser.add_argument("--every", type=float, default=0.2)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--pool", choices=("mimalloc", "jemalloc", "system"), default=None,
                        help="pyarrow's memory pool (ARROW_DEFAULT_MEMORY_POOL)")
    parser.add_argument("--release", action="store_true",
                        help="pyarrow's release_unused() at each phase's end")
    parser.add_argument("--decay0", action="store_true",
                        help="jemalloc_set_decay_ms(0) at the start (with --pool jemalloc)")
    args = parser.parse_args(argv)
    log = args.folder / "access.log"
    if args.lines:
        log = head(log, args.lines, args.scratch)
    command = [args.python, "-c", _CHILD, "logs", str(log), "--site", SITE,
               "--robots-history", str(args.folder / "history"), "--json"]
    if args.out:
        command += ["--out", args.out]
    env = dict(os.environ, AUDIT_TRACE="1" if args.tracemalloc else "0",
               AUDIT_RELEASE="1" if args.release else "0",
               AUDIT_DECAY0="1" if args.decay0 else "0")
    if args.pool:
        env["ARROW_DEFAULT_MEMORY_POOL"] = args.pool
    started = time.monotonic()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    samples: list[tuple[float, int]] = []
    import threading

    phases: list[dict[str, object]] = []
    errors: list[str] = []

    def listen() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            if line.startswith("PHASE "):
                phases.append(json.loads(line[6:]))
            else:
                errors.append(line)

    listener = threading.Thread(target=listen)
    listener.start()
    status = f"/proc/{child.pid}/status"
    while child.poll() is None:
        try:
            with open(status) as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        samples.append((time.monotonic() - started, int(line.split()[1]) >> 10))
        except OSError:
            break
        time.sleep(args.every)  # a watcher's sampling interval, not a synchronisation
    listener.join()
    if child.returncode not in (0, 1):
        print("".join(errors[-20:]), file=sys.stderr)
        return 2
    print(f"{log}: exit {child.returncode}, {time.monotonic() - started:.0f} s")
    base = float(phases[0]["t"]) if phases else 0.0
    for row in phases:
        top = row.pop("py_top", None)
        row["t"] = round(float(row["t"]) - base, 1)
        print("  " + ", ".join(f"{k} {v}" for k, v in row.items()))
        for entry in top or ():
            print(f"      {entry}")
    if samples:
        step = max(1, len(samples) // 24)
        print("  VmRSS (s, MiB): " + "  ".join(f"{t:.0f}:{m}" for t, m in samples[::step])
              + f"; highest {max(m for _, m in samples)} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
