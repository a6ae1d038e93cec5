"""Adversarial robots.txt files and URLs: what a hostile or broken website can serve.

Run from the repository root to measure time and peak memory of every input through
parse (all three modes), lint, explain and allowed::

    .venv/bin/python benchmarks/hostile.py            # full sizes (a few minutes)
    .venv/bin/python benchmarks/hostile.py --json     # the same, then the figures as JSON
    .venv/bin/python benchmarks/hostile.py --max-bytes 0   # no 500 KiB cut: every octet read

Importable: :data:`INPUTS` maps a name to an :class:`Input` (its body, the URLs to check
and a description), built lazily at a chosen ``scale`` (1.0 = the sizes named in the
issue; the test suite, ``tests/hostile/``, uses the same generators). Every generator is
deterministic, so a figure printed here can be reproduced byte for byte.

The inputs (at scale 1.0):

* ``stars``: 500 KiB of ``*`` (one line), and as ``Disallow: ****…`` rules;
* ``agents``: 100,000 ``User-agent`` lines (one group naming them all, then one rule);
* ``rules``: 100,000 rules in one group (literal and wildcard mixed);
* ``wild_rules``: 100,000 wildcard rules that never match (the matcher's worst case);
* ``index_defeat``: 28,000 wildcard rules with pieces too short for the 3-gram index, so
  every check tries every rule against the whole URL (the worst check time per URL);
* ``alt_pattern``: a 16 KB pattern of alternating ``*a`` against long paths of ``a``/``b``;
* ``long_urls``: 8 KB URLs (ASCII, non-ASCII, escapes) against a typical file;
* ``deep_escapes``: percent-encoding of percent-encoding (``%25252525…``) in rules and URLs;
* ``nul``: NUL bytes everywhere (inside keys, values, between lines);
* ``bad_utf8``: invalid UTF-8 (lone continuation bytes, overlongs, surrogates, 0xFF);
* ``cr_only``: lone CR line endings (classic Mac);
* ``mixed_eol``: LF, CR, CRLF and LFCR mixed;
* ``utf16``: a UTF-16 file with its byte-order mark (LE and BE), as some servers send;
* ``long_lines``: lines far past Google's 16,663-octet cut, with ``$`` past the cut;
* ``html``: a 500 KiB HTML page served as robots.txt;
* ``many_groups``: 50,000 small groups, each naming a different agent;
* ``oversize``: a 4 MiB file (content past 500 KiB is ignored, but it is still read).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from robotsrules import Mode

KIB = 1024
TYPICAL = b"""User-agent: *
Disallow: /wp-admin/
Allow: /wp-admin/admin-ajax.php
Disallow: /*?s=
Disallow: /*.pdf$
Disallow: /tag/*/page/
Allow: /*.css$

User-agent: GPTBot
Disallow: /
"""


@dataclass(frozen=True)
class Input:
    """One adversarial case: a robots.txt body and the URLs to check against it."""

    name: str
    description: str
    body: bytes
    urls: tuple[str, ...] = ("https://example.com/", "/a/b?c=d")
    agents: tuple[str, ...] = ("ExampleBot", "*")
    notes: dict[str, object] = field(default_factory=dict)


def _n(count: int, scale: float, floor: int = 1) -> int:
    return max(floor, int(count * scale))


# -- generators --------------------------------------------------------------------------


def stars(scale: float = 1.0) -> Input:
    size = _n(500 * KIB, scale)
    lines = b"User-agent: *\nDisallow: " + b"*" * size + b"\n" + b"*" * size + b"\n"
    return Input("stars", f"{size:,} octets of '*' as a pattern and as a line", lines,
                 urls=("/" + "*" * 4096, "/" + "a" * 4096, "/"))


def agents(scale: float = 1.0) -> Input:
    count = _n(100_000, scale)
    body = b"".join(b"User-agent: bot%d-x\n" % i for i in range(count)) + b"Disallow: /p\n"
    # Tokens are letters, '-' and '_': 'bot17-x' is read as the token 'bot'.
    body += b"".join(b"User-agent: agent%s\n" % _letters(i).encode() for i in range(count))
    body += b"Disallow: /q\n"
    return Input("agents", f"{2 * count:,} user-agent lines in two groups", body,
                 urls=("/p", "/q", "/r"), agents=("bot", "agentabc", "ExampleBot"))


def _letters(i: int) -> str:
    out = ""
    while True:
        out += "abcdefghijklmnopqrstuvwxyz"[i % 26]
        i //= 26
        if i == 0:
            return out


def rules(scale: float = 1.0) -> Input:
    count = _n(100_000, scale)
    lines = ["User-agent: *"]
    for i in range(count):
        if i % 10 == 0:
            lines.append(f"Disallow: /s{i % 97}/*.pdf$" if i % 20 else f"Allow: /*?id={i}")
        else:
            lines.append(f"{'Allow' if i % 3 == 0 else 'Disallow'}: /s{i % 97}/p-{i}.html")
    body = ("\n".join(lines) + "\n").encode()
    return Input("rules", f"{count:,} rules in one group", body,
                 urls=(f"/s{(count // 2 + 1) % 97}/p-{count // 2 + 1}.html", "/s5/x.pdf",
                       "/nothing/here", "/s1/p-1.html?id=0"))


def wild_rules(scale: float = 1.0) -> Input:
    count = _n(100_000, scale)
    # Every rule has '*' and a short literal (no 3-gram to index by), and none matches.
    body = b"User-agent: *\n" + b"".join(
        b"Disallow: /*%s*z$\n" % _letters(i).encode()[:2] for i in range(count))
    return Input("wild_rules", f"{count:,} wildcard rules, none matching", body,
                 urls=("/" + "ab" * 2048 + "y", "/x"))


def index_defeat(scale: float = 1.0) -> Input:
    """Wildcard rules whose literal pieces are all shorter than 3 octets, so the matcher's
    3-gram index cannot rule any out: every check tries every rule against the whole URL
    (the worst case per check: O(file size x URL length))."""
    count = _n(28_000, scale)
    letters = "cdefghijklmnopqrstuvwxyz"  # never in the URLs ('a' and 'b' only)
    pairs = [x + y for x in letters for y in letters]
    body = b"User-agent: *\n" + b"".join(
        b"Disallow: /*%s*%s\n" % (pairs[i % len(pairs)].encode(),
                                   pairs[(i // len(pairs)) % len(pairs)].encode())
        for i in range(count))
    return Input("index_defeat", f"{count:,} wildcard rules the 3-gram index cannot skip", body,
                 urls=("/" + "ab" * 4096, "/" + "ab" * 512, "/x"), agents=("ExampleBot",))


def alt_pattern(scale: float = 1.0) -> Input:
    size = _n(16 * KIB, scale, floor=4)
    pattern = "/" + "*a" * (size // 2)
    body = f"User-agent: *\nDisallow: {pattern}\nAllow: {pattern}b$\n".encode()
    half = size // 2
    return Input("alt_pattern", f"a {len(pattern):,}-octet pattern of alternating '*a'", body,
                 urls=("/" + "a" * (half - 1), "/" + "a" * half, "/" + "ab" * half,
                       "/" + "b" * (8 * KIB)))


def long_urls(scale: float = 1.0) -> Input:
    size = _n(8 * KIB, scale, floor=16)
    return Input("long_urls", f"{size:,}-octet URLs against a typical file", TYPICAL,
                 urls=("https://example.com/" + "a" * size,
                       "https://example.com/" + "\u00e9" * (size // 2),
                       "https://example.com/" + "%7e" * (size // 3),
                       "https://example.com/?" + "s=" * (size // 2),
                       "https://example.com/" + "/" * size + "x.pdf"))


def deep_escapes(scale: float = 1.0) -> Input:
    depth = _n(64, scale, floor=4)
    deep = "%" + "25" * depth + "41"
    body = (f"User-agent: *\nDisallow: /{deep}\nAllow: /{'%' * 4096}\n"
            f"Disallow: /{'%e2%82%ac' * 1000}\nDisallow: /%zz%4%%%\n").encode()
    return Input("deep_escapes", f"%-escapes nested {depth} deep, and runs of '%'", body,
                 urls=(f"/{deep}", "/" + "%" * 4096, "/" + "\u20ac" * 1000, "/%zz%4%%%",
                       "/" + "%25" * 2048))


def nul(scale: float = 1.0) -> Input:
    count = _n(20_000, scale)
    body = (b"User-agent: *\x00bot\nDis\x00allow: /a\nDisallow: /b\x00/c\n\x00\x00\n"
            + b"Allow: /\x00\n" * count + b"\x00" * count)
    return Input("nul", "NUL bytes in keys, values and between lines", body,
                 urls=("/a", "/b", "/b\x00/c", "/\x00"))


def bad_utf8(scale: float = 1.0) -> Input:
    count = _n(20_000, scale)
    junk = b"\x80\xbf\xc0\xaf\xed\xa0\x80\xf8\x88\x80\x80\x80\xff\xfe\xc3"
    body = (b"User-agent: *\nDisallow: /" + junk + b"\nAllow: /\xe9t\xe9\nUser-agent: \xff\n"
            + (b"Disallow: /" + junk + b"%d\n") * count)
    return Input("bad_utf8", "invalid UTF-8 in keys, values and agents", body,
                 urls=("/\u00e9t\u00e9", "/\udc80\udcff", "/" + "\ufffd" * 10))


def cr_only(scale: float = 1.0) -> Input:
    count = _n(50_000, scale)
    body = b"User-agent: *\r" + b"".join(b"Disallow: /c%d\r" % i for i in range(count))
    return Input("cr_only", f"{count:,} lines ending in a lone CR", body,
                 urls=("/c1", f"/c{count - 1}", "/d"))


def mixed_eol(scale: float = 1.0) -> Input:
    count = _n(50_000, scale)
    ends = (b"\n", b"\r", b"\r\n", b"\n\r")
    body = b"User-agent: *\r\n" + b"".join(
        b"Disallow: /m%d%s" % (i, ends[i % 4]) for i in range(count))
    return Input("mixed_eol", f"{count:,} lines with LF, CR, CRLF and LFCR mixed", body,
                 urls=("/m1", "/m2", "/m3", "/n"))


def utf16(scale: float = 1.0) -> Input:
    count = _n(5_000, scale)
    text = "User-agent: *\r\nDisallow: /priv\u00e9\r\n" + "".join(
        f"Disallow: /u{i}\r\n" for i in range(count))
    body = b"\xff\xfe" + text.encode("utf-16-le") + b"\xfe\xff" + text.encode("utf-16-be")
    return Input("utf16", "UTF-16 (LE then BE) with byte-order marks", body,
                 urls=("/priv\u00e9", "/u1"))


def long_lines(scale: float = 1.0) -> Input:
    size = _n(200 * KIB, scale, floor=20_000)
    body = (b"User-agent: *\nDisallow: /" + b"x" * size + b"$\n"
            + b"Allow: /" + b"*a" * (size // 2) + b"\n# " + b"c" * size + b"\n"
            + b"Sitemap: https://e.com/" + b"s" * size + b"\n")
    return Input("long_lines", f"lines of {size:,} octets, cut at 16,663", body,
                 urls=("/" + "x" * 20_000, "/x"))


def html(scale: float = 1.0) -> Input:
    size = _n(500 * KIB, scale)
    row = b"<tr><td><a href='/disallow: x'>User-agent: *</a></td></tr>\n"
    body = b"<!DOCTYPE html><html><body><table>\n" + row * (size // len(row)) + b"</table>"
    return Input("html", f"a {size:,}-octet HTML page served as robots.txt", body)


def many_groups(scale: float = 1.0) -> Input:
    count = _n(50_000, scale)
    body = b"".join(b"User-agent: g%s\nDisallow: /%d\n\n" % (_letters(i).encode(), i)
                    for i in range(count))
    return Input("many_groups", f"{count:,} groups, one agent each", body,
                 urls=("/1", "/2"), agents=("gb", "ga", "ExampleBot"))


def oversize(scale: float = 1.0) -> Input:
    size = _n(4 * 1024 * KIB, scale)
    line = b"Disallow: /over/size/file\n"
    body = b"User-agent: *\n" + line * (size // len(line))
    return Input("oversize", f"a {size:,}-octet file (content past 500 KiB ignored)", body,
                 urls=("/over/size/file", "/x"))


def one_line(scale: float = 1.0) -> Input:
    size = _n(500 * KIB, scale)
    unit = b"user User-agent: x Disallow: / dis "
    body = b"User-agent: a\nDisallow: /p " + unit * (size // len(unit)) + b"\nUser-agent: b\n"
    return Input("one_line", f"key words repeated on one {size:,}-octet line", body,
                 urls=("/p", "/x"), agents=("a", "b", "ExampleBot"))


INPUTS: dict[str, Callable[[float], Input]] = {
    "stars": stars,
    "agents": agents,
    "rules": rules,
    "wild_rules": wild_rules,
    "index_defeat": index_defeat,
    "alt_pattern": alt_pattern,
    "long_urls": long_urls,
    "deep_escapes": deep_escapes,
    "nul": nul,
    "bad_utf8": bad_utf8,
    "cr_only": cr_only,
    "mixed_eol": mixed_eol,
    "utf16": utf16,
    "long_lines": long_lines,
    "html": html,
    "many_groups": many_groups,
    "oversize": oversize,
    "one_line": one_line,
}
"""Every generator by name: ``INPUTS[name](scale)`` builds the input."""

MODES: tuple[Mode, ...] = ("google", "rfc", "legacy")


# -- running one input -------------------------------------------------------------------


def exercise(case: Input, max_bytes: Optional[int] = 512_000) -> dict[str, int]:
    """Everything a caller may do with a hostile file: parse in every mode, the line report,
    lint, then allowed/explain for each agent and URL. Returns a few counts (so that the
    work cannot be optimised away and tests can check the result is sane). The only
    exception allowed through is none: a URL the mode refuses (``InvalidURL``, a caller
    mistake) is counted in ``refused``."""
    import robotsrules

    counts = {"groups": 0, "lines": 0, "diagnostics": 0, "checks": 0, "refused": 0}
    for mode in MODES:
        robots = robotsrules.parse(case.body, max_bytes=max_bytes, mode=mode)
        counts["groups"] += len(robots.groups)
        for agent in case.agents:
            rules = robots.for_agent(agent)
            for url in case.urls:
                try:
                    verdict = robots.explain(url, agent=agent)
                except robotsrules.InvalidURL:
                    # A caller mistake, not content: legacy mode refuses URLs urllib cannot
                    # read (lone surrogates). The check must refuse it the same way.
                    counts["refused"] += 1
                    continue
                if verdict.allowed is not rules.allowed(url):
                    raise AssertionError(f"{case.name}: explain and allowed disagree on {url!r}")
                counts["checks"] += 1
            robots.crawl_delay(agent)
            robots.request_rate(agent)
    counts["lines"] = len(robotsrules.parse(case.body, max_bytes=max_bytes).lines)
    counts["diagnostics"] = len(robotsrules.lint(case.body, max_bytes=max_bytes))
    return counts


def measure(step: Callable[[], object]) -> tuple[float, int]:
    """Seconds and peak traced memory (octets) of one call of ``step``."""
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    try:
        step()
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return elapsed, peak


def timed(fn: Callable[[], object]) -> float:
    """Seconds of one call of ``fn`` (GC collected first, not traced)."""
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def rss_peak_of(case: Input, max_bytes: Optional[int] = 512_000,
                timeout: float = 300.0) -> dict[str, float]:
    """Peak resident memory of :func:`exercise` on ``case``, measured in a fresh process.

    The body is handed over in a file, so that generating it costs the child nothing; the
    child reads it, notes its resident set (interpreter, robotsrules, the body), resets
    its peak, runs :func:`exercise`, and reports the new peak (Linux only: ``/proc``).
    Returns MiB: ``baseline``, ``peak`` and ``growth`` (what reading the input took on top
    of the baseline); and ``cpu_s``, the CPU seconds :func:`exercise` took in the child
    (process time: unlike wall time, barely moved by other jobs on the machine).
    """
    import subprocess
    import tempfile

    # ru_maxrss is no good here: Linux carries the parent's peak over into a child it
    # spawns. VmHWM (/proc/self/status) is the peak of this process's own memory map, and
    # writing 5 to /proc/self/clear_refs resets it to the current resident set.
    child = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from benchmarks import hostile\n"
        "def status(key):\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith(key + ':'):\n"
        "            return int(line.split()[1])\n"
        "body = open(sys.argv[2], 'rb').read()\n"
        "case = hostile.Input('x', '', body, tuple(json.loads(sys.argv[3])),"
        " tuple(json.loads(sys.argv[4])))\n"
        "limit = int(sys.argv[5]) or None\n"
        "import robotsrules; robotsrules.parse(b'User-agent: *\\nDisallow: /x\\n')\n"
        "base = status('VmRSS')\n"
        "open('/proc/self/clear_refs', 'w').write('5')\n"
        "import time; cpu = time.process_time()\n"
        "hostile.exercise(case, limit)\n"
        "cpu = time.process_time() - cpu\n"
        "print(json.dumps([base, status('VmHWM'), cpu]))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as out:
        out.write(case.body)
    try:
        done = subprocess.run(
            [sys.executable, "-c", child, root, out.name, json.dumps(case.urls),
             json.dumps(case.agents), str(max_bytes or 0)],
            capture_output=True, text=True, timeout=timeout, check=True)
    finally:
        os.unlink(out.name)
    base, peak, cpu = json.loads(done.stdout)  # KiB, KiB, seconds
    return {"baseline": base / KIB, "peak": peak / KIB, "growth": (peak - base) / KIB,
            "cpu_s": cpu}


def run(names: Sequence[str], scale: float, max_bytes: Optional[int] = 512_000
        ) -> list[dict[str, Any]]:
    """Time and peak memory of each input, step by step (time untraced, memory traced)."""
    import robotsrules

    rows: list[dict[str, Any]] = []
    for name in names:
        case = INPUTS[name](scale)
        row: dict[str, Any] = {"name": name, "description": case.description,
                                  "bytes": len(case.body)}
        body = case.body
        def all_modes(body: bytes = body) -> list[robotsrules.RobotsTxt]:
            return [robotsrules.parse(body, max_bytes=max_bytes, mode=m) for m in MODES]

        steps: dict[str, Callable[[], object]] = {
            "parse": partial(robotsrules.parse, body, max_bytes=max_bytes),
            "parse_all_modes": all_modes,
            "lint": partial(robotsrules.lint, body, max_bytes=max_bytes),
            "everything": partial(exercise, case, max_bytes),
        }
        for step, fn in steps.items():
            row[f"{step}_s"] = min(timed(fn) for _ in range(2))
            row[f"{step}_peak_mib"] = measure(fn)[1] / 2**20
        robots = robotsrules.parse(body, max_bytes=max_bytes)
        check_s = 0.0
        for agent in case.agents:
            rules = robots.for_agent(agent)
            for url in case.urls:
                check_s = max(check_s, timed(partial(rules.allowed, url)))
        row["worst_check_ms"] = check_s * 1e3
        if os.path.exists("/proc/self/clear_refs"):
            row["everything_rss_growth_mib"] = rss_peak_of(case, max_bytes)["growth"]
        rows.append(row)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="inputs to run (default: all): " + ", ".join(INPUTS))
    parser.add_argument("--scale", type=float, default=1.0,
                        help="size factor (default 1.0: the sizes in the docstring)")
    parser.add_argument("--max-bytes", type=int, default=512_000,
                        help="parse limit in octets, 0 for none (default: %(default)s, "
                             "robotsrules's default)")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)
    names = args.names or list(INPUTS)
    unknown = [name for name in names if name not in INPUTS]
    if unknown:
        parser.error(f"unknown input(s) {', '.join(unknown)}; choose from {', '.join(INPUTS)}")
    wall = time.perf_counter()
    max_bytes = args.max_bytes or None
    rows = run(names, args.scale, max_bytes)
    print("# robotsrules on adversarial inputs")
    print()
    print(f"python: {platform.python_implementation()} {platform.python_version()} on "
          f"{platform.system()} {platform.machine()}; scale {args.scale}; "
          f"max_bytes {max_bytes if max_bytes is None else f'{max_bytes:,}'}; "
          "time: best of 2 untraced runs; memory: tracemalloc peak of one run")
    print()
    headers = ["input", "KiB", "parse ms", "3 modes ms", "lint ms", "all ms", "worst check ms",
               "parse MiB", "lint MiB", "all MiB", "all RSS MiB"]
    table = [[r["name"], f"{r['bytes'] / KIB:,.0f}",
              *(f"{r[k] * 1e3:,.1f}"
                for k in ("parse_s", "parse_all_modes_s", "lint_s", "everything_s")),
              f"{r['worst_check_ms']:.3f}",
              *(f"{r[k]:.1f}" for k in ("parse_peak_mib", "lint_peak_mib", "everything_peak_mib")),
              f"{r.get('everything_rss_growth_mib', float('nan')):.1f}"]
             for r in rows]
    widths = [max(len(c) for c in col) for col in zip(headers, *table)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for cells in table:
        print("| " + " | ".join(c.rjust(w) if i else c.ljust(w)
                                for i, (c, w) in enumerate(zip(cells, widths))) + " |")
    print()
    print("all = parse in 3 modes, line report, lint, explain/allowed/crawl_delay/request_rate "
          "for every agent and URL of the input. MiB columns: tracemalloc peak (Python "
          "allocations); 'all RSS MiB': growth of the peak resident set of a fresh process "
          "running 'all' (Linux).")
    print(f"Total run time: {time.perf_counter() - wall:.0f} s")
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
