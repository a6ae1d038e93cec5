"""How robotsrules's check time, parse time and memory grow with pattern, file and URL size.

Run from the repository root::

    .venv/bin/python benchmarks/growth.py            # everything (a few minutes)
    .venv/bin/python benchmarks/growth.py --quick    # smaller sizes, fewer repeats

Experiments 1-3 (check time), using the public API only: ``robotsrules.parse(body, max_bytes=None)``
(no 500 KiB cut, so the large files are read whole) and
``RobotsTxt.for_agent(agent).allowed(url)``.

1. Wildcard pattern against path length. ``Disallow: /*a*a*a*a*a*a*a*a*b`` (and the same
   pattern ending in ``$``) against ``/`` followed by 1, 2, 4 and 8 KiB of ``a``. The
   pattern never matches: the worst case for a backtracking matcher (exponential) or a
   naive one (polynomial in the path length).
2. Rule count. Files of 1k, 10k and 100k ``Disallow`` rules, nine in ten literal
   (``/section-17/page-4711.html``) and one in ten with wildcards, in four corpus-like
   shapes (``/section-17/*.pdf$``, ``/*?session=4711``, ``/archive-4711/*/print``,
   ``/*/tag-4711/``). Measured: parse, the first ``for_agent`` (it compiles the agent's
   rules; later calls are a cache hit), and one check for a URL that a literal rule
   decides ("hit") and for one that no rule matches ("miss", which must rule out every
   wildcard rule).
3. URL length. Paths of 1 to 16 KiB against a typical file (WordPress/shop-like, 16 rules,
   8 with wildcards), once plain ASCII and once with non-ASCII characters and
   percent-escapes that the matcher must normalise.

4. Pattern length. ``Disallow: /*a*a...*a*c`` with 512 to 8,192 ``*a`` pieces (1 to
   16 KiB) against a fixed 16 KiB path of ``ab`` (every piece is found, the final ``c``
   never is: a check must walk the whole pattern), also anchored (``...*a*c*d$`` against
   the path with a final ``d``: the anchor holds, the middle pieces are all searched).
5. File size. Robots-like files of 64 KiB to 4 MiB (blocks of a named group, a ``*``
   group every fourth block, rules of every shape, comments, sitemaps), read whole
   (``max_bytes=None``): parse time, lint time, and the memory a parsed file retains
   (``tracemalloc``: what is still allocated while the object is kept), without and with
   the compiled rules of one agent.
6. The corpus (``../shared/corpus/robots``, or ``$ROBOTSRULES_CORPUS/robots``; skipped
   with a message when absent), in a fresh process: the peak memory of parsing its largest
   file (default 500 KiB limit, and whole), and of keeping every file parsed at once
   (``tracemalloc`` peak and retained, and the growth of the process's resident set).

A closing table lists every curve claimed linear (or better) with its fitted exponent:
each must be at most 1.1.

Timing: ``timeit`` (GC paused), each batch at least 0.2 s (``Timer.autorange``), best of
``--repeat`` batches, reported per call. The compile step is timed once per freshly parsed
object (best of ``--repeat``). The growth exponent is the least-squares slope of
log(time) against log(size): about 0 means constant, 1 linear, 2 quadratic.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time
import timeit
import tracemalloc
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Callable, Optional

import robotsrules

KIB = 1024
PATTERN = "/*a*a*a*a*a*a*a*a*b"
PATH_SIZES_KIB = (1, 2, 4, 8)
RULE_COUNTS = (1_000, 10_000, 100_000)
URL_SIZES_KIB = (1, 2, 4, 8, 16)
PIECES = (512, 1024, 2048, 4096, 8192)
FILE_SIZES_KIB = (64, 256, 1024, 4096)
LINEAR = 1.1  # the largest exponent still called linear

TYPICAL_FILE = b"""\
# A typical robots.txt: a CMS with a shop, a few named crawlers.
User-agent: *
Disallow: /wp-admin/
Allow: /wp-admin/admin-ajax.php
Disallow: /cgi-bin/
Disallow: /search
Disallow: /*?s=
Disallow: /*?replytocom=
Disallow: /*/feed/$
Disallow: /*.pdf$
Disallow: /tag/*/page/
Disallow: /checkout/
Disallow: /cart/
Disallow: /my-account/
Disallow: /*add-to-cart=*
Allow: /*.css$
Allow: /*.js$
Crawl-delay: 5

User-agent: Googlebot-Image
Disallow: /private-images/

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
"""


# -- helpers ------------------------------------------------------------------------------


def per_call(fn: Callable[[], Any], repeat: int) -> float:
    """Seconds per call of ``fn``: best of ``repeat`` batches of at least 0.2 s."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) against log(sizes)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table, padded so that it also reads well as plain text."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for n, (cell, width) in enumerate(zip(cells, widths)):
            out.append(str(cell).ljust(width) if n == 0 else str(cell).rjust(width))
        return "| " + " | ".join(out) + " |"

    rule = "|" + "|".join("-" * (w + 1) + (":" if n else "-") for n, w in enumerate(widths)) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def expect(actual: bool, wanted: bool, what: str) -> None:
    """Stop if a verdict is not the one the experiment is built around."""
    if actual is not wanted:
        sys.exit(f"error: {what}: allowed() returned {actual}, expected {wanted}")


def source_digest() -> str:
    """Short sha256 of robotsrules's source files, to tie the numbers to a code state."""
    root = Path(robotsrules.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def command_line() -> str:
    exe = sys.executable
    rel = os.path.relpath(exe)
    if not rel.startswith(".."):
        exe = rel
    return shlex.join([exe, *sys.argv])


# -- experiments --------------------------------------------------------------------------


def pattern_growth(agent: str, repeat: int) -> list[dict[str, Any]]:
    out = []
    for pattern in (PATTERN, PATTERN + "$"):
        rules = robotsrules.parse(f"User-agent: *\nDisallow: {pattern}\n".encode()).for_agent(
            agent
        )
        times = []
        for kib in PATH_SIZES_KIB:
            path = "/" + "a" * (kib * KIB)
            expect(rules.allowed(path), True, f"{pattern} against {kib} KiB of 'a'")
            times.append(per_call(partial(rules.allowed, path), repeat))
        out.append({
            "pattern": pattern,
            "sizes_kib": list(PATH_SIZES_KIB),
            "check_us": [t * 1e6 for t in times],
            "exponent": exponent(PATH_SIZES_KIB, times),
        })
    return out


def rule_file(count: int) -> bytes:
    lines = ["User-agent: *"]
    for i in range(count):
        if i % 10 == 0:
            shape = (i // 10) % 4
            if shape == 0:
                lines.append(f"Disallow: /section-{i % 97}/*.pdf$")
            elif shape == 1:
                lines.append(f"Disallow: /*?session={i}")
            elif shape == 2:
                lines.append(f"Disallow: /archive-{i}/*/print")
            else:
                lines.append(f"Disallow: /*/tag-{i}/")
        else:
            lines.append(f"Disallow: /section-{i % 97}/page-{i}.html")
    return ("\n".join(lines) + "\n").encode()


def rules_growth(agent: str, repeat: int) -> dict[str, Any]:
    rows = []
    for count in RULE_COUNTS:
        body = rule_file(count)
        parse_s = per_call(partial(robotsrules.parse, body, max_bytes=None), repeat)
        compile_s = math.inf
        for _ in range(repeat):
            robots = robotsrules.parse(body, max_bytes=None)
            gc.collect()
            gc.disable()
            start = time.perf_counter()
            rules = robots.for_agent(agent)
            compile_s = min(compile_s, time.perf_counter() - start)
            gc.enable()
        k = count // 2 + 1  # a literal rule (k % 10 != 0)
        hit = f"https://example.com/section-{k % 97}/page-{k}.html?ref=1"
        miss = "https://example.com/section-5/index.html"
        expect(rules.allowed(hit), False, f"hit URL with {count} rules")
        expect(rules.allowed(miss), True, f"miss URL with {count} rules")
        rows.append({
            "rules": count,
            "file_kib": len(body) / KIB,
            "parse_ms": parse_s * 1e3,
            "compile_ms": compile_s * 1e3,
            "hit_us": per_call(partial(rules.allowed, hit), repeat) * 1e6,
            "miss_us": per_call(partial(rules.allowed, miss), repeat) * 1e6,
        })
    counts = [r["rules"] for r in rows]
    fitted = {
        key: exponent(counts, [r[key] for r in rows])
        for key in ("parse_ms", "compile_ms", "hit_us", "miss_us")
    }
    return {"rows": rows, "exponents": fitted}


def long_path(size: int, escapes: bool) -> str:
    """A path of ``size`` characters that no rule of TYPICAL_FILE matches."""
    segment = "caf\u00e9-%C3%BCber-x/" if escapes else "products-and-more/"
    path = "/shop/"
    while len(path) < size:
        path += segment
    return path[:size]


def url_growth(agent: str, repeat: int) -> dict[str, Any]:
    rules = robotsrules.parse(TYPICAL_FILE).for_agent(agent)
    rows = []
    for kib in URL_SIZES_KIB:
        row: dict[str, Any] = {"size_kib": kib}
        for escapes in (False, True):
            url = "https://example.com" + long_path(kib * KIB, escapes)
            expect(rules.allowed(url), True, f"{kib} KiB URL (escapes={escapes})")
            key = "escaped_us" if escapes else "plain_us"
            row[key] = per_call(partial(rules.allowed, url), repeat) * 1e6
        rows.append(row)
    fitted = {
        key: exponent(URL_SIZES_KIB, [r[key] for r in rows]) for key in ("plain_us", "escaped_us")
    }
    return {"rows": rows, "exponents": fitted}


def pattern_length_growth(agent: str, repeat: int, pieces: Sequence[int]) -> dict[str, Any]:
    rows = []
    for count in pieces:
        row: dict[str, Any] = {"pieces": count, "pattern_kib": (2 * count + 3) / KIB}
        for anchored in (False, True):
            # Anchored: the last piece 'd' is found at the end, so the middle pieces are
            # all searched for in the room before it, and 'c' never is.
            pattern = "/" + "*a" * count + ("*c*d$" if anchored else "*c")
            path = "/" + "ab" * 8192 + ("d" if anchored else "")
            rules = robotsrules.parse(f"User-agent: *\nDisallow: {pattern}\n".encode(),
                                      max_bytes=None).for_agent(agent)
            expect(rules.allowed(path), True, f"{count} pieces against 16 KiB of 'ab'")
            key = "anchored_us" if anchored else "plain_us"
            row[key] = per_call(partial(rules.allowed, path), repeat) * 1e6
        rows.append(row)
    sizes = [r["pattern_kib"] for r in rows]
    fitted = {key: exponent(sizes, [r[key] for r in rows]) for key in ("plain_us", "anchored_us")}
    return {"rows": rows, "exponents": fitted}


def robots_like(size: int) -> bytes:
    """A robots-like file of about ``size`` octets (see experiment 5)."""
    out: list[bytes] = []
    total = i = 0
    while total < size:
        agent = "*" if i % 4 == 0 else f"bot{i}x"
        block = (f"# block {i}\nUser-agent: {agent}\nDisallow: /private-{i}/\n"
                 f"Allow: /private-{i}/press/\nDisallow: /*?session={i}\n"
                 f"Disallow: /archive-{i}/*.pdf$\nCrawl-delay: {i % 10}\n"
                 f"Sitemap: https://example.com/sitemap-{i}.xml\n\n").encode()
        out.append(block)
        total += len(block)
        i += 1
    return b"".join(out)


def retained(fn: Callable[[], Any]) -> tuple[int, Any]:
    """Octets still allocated (tracemalloc) after ``fn`` returns, while its result is kept."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = fn()
        gc.collect()
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return current, kept


def file_size_growth(agent: str, repeat: int, sizes_kib: Sequence[int]) -> dict[str, Any]:
    rows = []
    for kib in sizes_kib:
        body = robots_like(kib * KIB)
        runs = repeat if kib < 1024 else min(repeat, 3)
        parse_s = per_call(partial(robotsrules.parse, body, max_bytes=None), runs)
        lint_s = per_call(partial(robotsrules.lint, body, max_bytes=None), min(runs, 3))
        parsed, robots = retained(partial(robotsrules.parse, body, max_bytes=None))
        compiled, _ = retained(partial(robots.for_agent, agent))
        rows.append({
            "size_kib": len(body) / KIB,
            "parse_ms": parse_s * 1e3,
            "lint_ms": lint_s * 1e3,
            "retained_kib": parsed / KIB,
            "compiled_kib": (parsed + compiled) / KIB,
        })
        del robots
    sizes = [r["size_kib"] for r in rows]
    fitted = {key: exponent(sizes, [r[key] for r in rows])
              for key in ("parse_ms", "lint_ms", "retained_kib", "compiled_kib")}
    return {"rows": rows, "exponents": fitted}


def corpus_dir() -> Optional[Path]:
    base = os.environ.get("ROBOTSRULES_CORPUS") or str(
        Path(__file__).resolve().parents[2] / "shared" / "corpus")
    robots = Path(base) / "robots"
    return robots if robots.is_dir() else None


def rss_kib() -> int:
    """The process's resident set now, in KiB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // KIB)
    except OSError:
        return 0


def corpus_memory(folder: Path, agent: str) -> dict[str, Any]:
    """Experiment 6 (run in a fresh process by :func:`corpus_experiment`)."""
    paths = sorted(folder.iterdir())
    largest = max(paths, key=lambda p: p.stat().st_size)
    data = largest.read_bytes()
    out: dict[str, Any] = {"files": len(paths), "largest": largest.name,
                           "largest_bytes": len(data)}
    for label, limit in (("default", robotsrules.DEFAULT_MAX_BYTES), ("whole", None)):
        gc.collect()
        tracemalloc.start()
        robots = robotsrules.parse(data, max_bytes=limit)
        kept_parse, peak_parse = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        robots.for_agent(agent)
        kept, peak_compile = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[label] = {"parse_peak_kib": peak_parse / KIB, "retained_kib": kept_parse / KIB,
                      "compile_peak_kib": peak_compile / KIB,
                      "retained_compiled_kib": kept / KIB}
        del robots
    bodies = [p.read_bytes() for p in paths]
    total = sum(len(b) for b in bodies)
    # Resident set first, untraced (tracemalloc's own bookkeeping would inflate it).
    gc.collect()
    rss_before = rss_kib()
    parsed = [robotsrules.parse(b) for b in bodies]
    rss_parsed = rss_kib()
    for robots in parsed:
        robots.for_agent(agent)
    rss_compiled = rss_kib()
    del parsed, robots
    gc.collect()
    tracemalloc.start()
    parsed = [robotsrules.parse(b) for b in bodies]
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    for robots in parsed:
        robots.for_agent(agent)
    kept_compiled, peak_compiled = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    gc.collect()
    out["all"] = {
        "bytes": total,
        "parsed_retained_kib": kept / KIB, "parsed_peak_kib": peak / KIB,
        "compiled_retained_kib": kept_compiled / KIB,
        "compiled_peak_kib": max(peak, peak_compiled) / KIB,
        "rss_parsed_kib": rss_parsed - rss_before,
        "rss_compiled_kib": rss_compiled - rss_before,
    }
    del parsed
    return out


def corpus_experiment(agent: str) -> Optional[dict[str, Any]]:
    folder = corpus_dir()
    if folder is None:
        return None
    done = subprocess.run([sys.executable, __file__, "--corpus-child", str(folder),
                           "--agent", agent], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# -- main ---------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="Googlebot", help="user agent (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed batches per measurement, best kept (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--quick", action="store_true",
                        help="smaller sizes and 2 repeats (a smoke run; figures are rougher)")
    parser.add_argument("--corpus-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.corpus_child:  # experiment 6, in a fresh process
        print(json.dumps(corpus_memory(Path(args.corpus_child), args.agent)))
        return 0
    if args.quick:
        args.repeat = min(args.repeat, 2)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    wall = time.perf_counter()
    digest = source_digest()

    print("# robotsrules growth: check time, parse time and memory")
    print()
    print(f"command: {command_line()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()} on "
          f"{platform.system()} {platform.machine()}; robotsrules {robotsrules.__version__} "
          f"(src sha256 {digest}); "
          f"agent {args.agent!r}; best of {args.repeat}")

    patterns = pattern_growth(args.agent, args.repeat)
    print()
    print("## 1. Wildcard pattern against a path of n KiB of 'a' (never matches): µs per check")
    print()
    print(table(
        ["pattern", *(f"{k} KiB" for k in PATH_SIZES_KIB), "exponent"],
        [[p["pattern"], *(fmt(t) for t in p["check_us"]), f"{p['exponent']:.2f}"]
         for p in patterns],
    ))

    rules = rules_growth(args.agent, args.repeat)
    print()
    print("## 2. Files of n Disallow rules (9/10 literal, 1/10 wildcard)")
    print()
    rows = [[f"{r['rules']:,}", fmt(r["file_kib"]), fmt(r["parse_ms"]), fmt(r["compile_ms"]),
             fmt(r["hit_us"]), fmt(r["miss_us"])] for r in rules["rows"]]
    fitted = rules["exponents"]
    rows.append(["exponent", "", *(f"{fitted[k]:.2f}"
                                   for k in ("parse_ms", "compile_ms", "hit_us", "miss_us"))])
    print(table(["rules", "file KiB", "parse ms", "first for_agent ms", "check hit µs",
                 "check miss µs"], rows))

    urls = url_growth(args.agent, args.repeat)
    print()
    print("## 3. URL length against a typical 16-rule file (no rule matches): µs per check")
    print()
    rows = [[f"{r['size_kib']} KiB", fmt(r["plain_us"]), fmt(r["escaped_us"])]
            for r in urls["rows"]]
    fitted = urls["exponents"]
    rows.append(["exponent", f"{fitted['plain_us']:.2f}", f"{fitted['escaped_us']:.2f}"])
    print(table(["URL path", "ASCII µs", "non-ASCII + %-escapes µs"], rows))

    lengths = pattern_length_growth(args.agent, args.repeat,
                                    PIECES[:3] if args.quick else PIECES)
    print()
    print("## 4. Pattern length: '/*a*a...*a*c' against a 16 KiB path of 'ab' (never matches): "
          "µs per check")
    print()
    rows = [[f"{r['pieces']:,}", fmt(r["pattern_kib"]), fmt(r["plain_us"]),
             fmt(r["anchored_us"])] for r in lengths["rows"]]
    fitted = lengths["exponents"]
    rows.append(["exponent", "", f"{fitted['plain_us']:.2f}", f"{fitted['anchored_us']:.2f}"])
    print(table(["'*a' pieces", "pattern KiB", "µs", "anchored ($) µs"], rows))

    files = file_size_growth(args.agent, args.repeat,
                             FILE_SIZES_KIB[:3] if args.quick else FILE_SIZES_KIB)
    print()
    print("## 5. File size: robots-like files read whole (max_bytes=None)")
    print()
    rows = [[fmt(r["size_kib"]), fmt(r["parse_ms"]), fmt(r["lint_ms"]), fmt(r["retained_kib"]),
             fmt(r["compiled_kib"]), f"{r['retained_kib'] / r['size_kib']:.1f}"]
            for r in files["rows"]]
    fitted = files["exponents"]
    rows.append(["exponent", *(f"{fitted[k]:.2f}" for k in
                               ("parse_ms", "lint_ms", "retained_kib", "compiled_kib")), ""])
    print(table(["file KiB", "parse ms", "lint ms", "retained KiB", "+ compiled KiB",
                 "retained / size"], rows))

    corpus = corpus_experiment(args.agent)
    print()
    print("## 6. The corpus: peak and retained memory (tracemalloc; RSS growth)")
    print()
    if corpus is None:
        print("skipped: corpus not found at ../shared/corpus/robots "
              "(set ROBOTSRULES_CORPUS to the folder holding robots/)")
    else:
        mib = 1.0 / KIB
        rows = []
        for label in ("default", "whole"):
            c = corpus[label]
            rows.append([f"largest file, {'500 KiB limit' if label == 'default' else 'whole'}",
                         fmt(c["parse_peak_kib"] * mib), fmt(c["retained_kib"] * mib),
                         fmt(c["compile_peak_kib"] * mib), fmt(c["retained_compiled_kib"] * mib),
                         "", ""])
        a = corpus["all"]
        rows.append([f"all {corpus['files']:,} files at once", fmt(a["parsed_peak_kib"] * mib),
                     fmt(a["parsed_retained_kib"] * mib), fmt(a["compiled_peak_kib"] * mib),
                     fmt(a["compiled_retained_kib"] * mib), fmt(a["rss_parsed_kib"] * mib),
                     fmt(a["rss_compiled_kib"] * mib)])
        print(f"largest file: {corpus['largest']} ({corpus['largest_bytes']:,} bytes); "
              f"all files: {a['bytes'] / KIB / KIB:,.1f} MiB")
        print()
        print(table(["what", "parse peak MiB", "retained MiB", "+ compile peak MiB",
                     "retained with rules MiB", "RSS parsed MiB", "RSS with rules MiB"], rows))
        print()
        print(f"(compiled rules: for_agent({args.agent!r}) on every file; RSS: growth of the "
              "resident set of a fresh process, measured untraced)")

    claims = [
        ("1. check vs path length, " + p["pattern"], p["exponent"]) for p in patterns
    ] + [
        ("2. parse vs rules", rules["exponents"]["parse_ms"]),
        ("2. first for_agent (compile) vs rules", rules["exponents"]["compile_ms"]),
        ("2. check (hit) vs rules", rules["exponents"]["hit_us"]),
        ("2. check (miss) vs rules", rules["exponents"]["miss_us"]),
        ("3. check vs URL length (ASCII)", urls["exponents"]["plain_us"]),
        ("3. check vs URL length (escapes)", urls["exponents"]["escaped_us"]),
        ("4. check vs pattern length", lengths["exponents"]["plain_us"]),
        ("4. check vs pattern length ($)", lengths["exponents"]["anchored_us"]),
        ("5. parse vs file size", files["exponents"]["parse_ms"]),
        ("5. lint vs file size", files["exponents"]["lint_ms"]),
        ("5. retained memory vs file size", files["exponents"]["retained_kib"]),
        ("5. retained memory with compiled rules vs file size",
         files["exponents"]["compiled_kib"]),
    ]
    print()
    print(f"## Claimed linear or better: fitted exponent <= {LINEAR}")
    print()
    print(table(["curve", "exponent", "status"],
                [[name, f"{value:.2f}", "PASS" if value <= LINEAR else "FAIL"]
                 for name, value in claims]))
    failed = [name for name, value in claims if value > LINEAR]
    elapsed = time.perf_counter() - wall
    print()
    print(f"Total run time: {elapsed:.0f} s")
    if source_digest() != digest:
        print("WARNING: robotsrules's source changed during the run; the numbers are for the "
              "code imported at the start.")

    if args.json:
        print()
        print(json.dumps({
            "command": command_line(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "robotsrules": robotsrules.__version__,
            "source_sha256": digest,
            "agent": args.agent,
            "repeat": args.repeat,
            "patterns": patterns,
            "rules": rules,
            "urls": urls,
            "pattern_lengths": lengths,
            "file_sizes": files,
            "corpus": corpus,
            "claims": dict(claims),
            "run_seconds": elapsed,
        }, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
