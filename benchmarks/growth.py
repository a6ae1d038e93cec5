"""How robotsrules's check time grows with pattern, file and URL size.

Run from the repository root::

    .venv/bin/python benchmarks/growth.py

Three experiments, using the public API only: ``robotsrules.parse(body, max_bytes=None)``
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
import sys
import time
import timeit
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import robotsrules

KIB = 1024
PATTERN = "/*a*a*a*a*a*a*a*a*b"
PATH_SIZES_KIB = (1, 2, 4, 8)
RULE_COUNTS = (1_000, 10_000, 100_000)
URL_SIZES_KIB = (1, 2, 4, 8, 16)

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


def pattern_growth(agent: str, repeat: int) -> List[Dict[str, Any]]:
    out = []
    for pattern in (PATTERN, PATTERN + "$"):
        rules = robotsrules.parse(f"User-agent: *\nDisallow: {pattern}\n".encode()).for_agent(
            agent
        )
        times = []
        for kib in PATH_SIZES_KIB:
            path = "/" + "a" * (kib * KIB)
            expect(rules.allowed(path), True, f"{pattern} against {kib} KiB of 'a'")
            times.append(per_call(lambda r=rules, p=path: r.allowed(p), repeat))
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


def rules_growth(agent: str, repeat: int) -> Dict[str, Any]:
    rows = []
    for count in RULE_COUNTS:
        body = rule_file(count)
        parse_s = per_call(lambda body=body: robotsrules.parse(body, max_bytes=None), repeat)
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
            "hit_us": per_call(lambda r=rules, u=hit: r.allowed(u), repeat) * 1e6,
            "miss_us": per_call(lambda r=rules, u=miss: r.allowed(u), repeat) * 1e6,
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


def url_growth(agent: str, repeat: int) -> Dict[str, Any]:
    rules = robotsrules.parse(TYPICAL_FILE).for_agent(agent)
    rows = []
    for kib in URL_SIZES_KIB:
        row: Dict[str, Any] = {"size_kib": kib}
        for escapes in (False, True):
            url = "https://example.com" + long_path(kib * KIB, escapes)
            expect(rules.allowed(url), True, f"{kib} KiB URL (escapes={escapes})")
            key = "escaped_us" if escapes else "plain_us"
            row[key] = per_call(lambda u=url: rules.allowed(u), repeat) * 1e6
        rows.append(row)
    fitted = {
        key: exponent(URL_SIZES_KIB, [r[key] for r in rows]) for key in ("plain_us", "escaped_us")
    }
    return {"rows": rows, "exponents": fitted}


# -- main ---------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="Googlebot", help="user agent (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed batches per measurement, best kept (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    wall = time.perf_counter()
    digest = source_digest()

    print("# robotsrules check-time growth")
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
            "run_seconds": elapsed,
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
