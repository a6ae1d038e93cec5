"""Benchmark robotsrules against its peers on the real-world corpus, in one run.

Peers: protego, urllib.robotparser (stdlib), robotspy, and Google's C++ robotstxt library
through its Python binding jwm.robotstxt. A peer that cannot be imported is skipped with a
note. Run from the repository root::

    .venv/bin/python benchmarks/bench_peers.py                 # whole corpus
    .venv/bin/python benchmarks/bench_peers.py --sample 500    # quick run

Methodology
-----------
Inputs. The corpus (``--corpus``, see its SOURCES.md) holds ``robots/<host>.txt`` and
``urls.txt`` (``host<TAB>url``). ``--sample N`` takes N files at random (seeded) with all
their URLs. Every library sees exactly the same files and URLs. robotsrules and Google's
library get the raw bytes; the str-only parsers get the body decoded as UTF-8 with
``errors="replace"``, decoded once before timing (decoding is not charged to them);
urllib.robotparser takes lines, so its ``splitlines()`` is part of its parse. robotsrules is
called with ``max_bytes=None`` so that, like every peer, it reads whole files (its default
stops after 500 KiB as Google's crawler does, which would make the largest files cheaper).

Validation pass (untimed; also the warm-up). Each library parses every file and checks
every URL. A file that any library fails to parse, or a URL that any library fails to check,
is left out of every timing and counted under "errors". The verdicts are compared with
Google's library called the same way (whole body, URL as given): "agree" is the share of
identical verdicts. It is context, not a conformance test (the test suite does that).

Timing. ``time.perf_counter`` around a whole loop, per library and measurement, after
``gc.collect()`` and with the cyclic GC paused during the loop (as ``timeit`` does); the
total is divided by the number of files or URLs. Each measurement runs ``--repeat`` times,
libraries interleaved within a repeat, and the best (lowest) repeat is reported.

* parse: parse every file (µs per file). Google's library has no parse step: n/a.
* check: the objects made by the same repeat's parse loop, so lazy set-up done on first
  use (robotsrules compiles an agent's rules, protego indexes its rules) is charged here;
  every URL once, in a seeded shuffled order across hosts as a crawler interleaves sites
  (µs per URL). robotsrules: ``robots.allowed(url, agent=A)``. Google: one
  ``OneAgentAllowedByRobots(body, A, url)`` call per URL, which re-parses the body.
* warm check: the same pairs again on the same objects, lazy set-up done (steady state).
  Google keeps no state between calls: its warm check is its check.
* bulk: for each host, parse its file once and check all its URLs (µs per URL, parse
  included). robotsrules: ``parse(body).for_agent(A)`` then ``.allowed(url)``. Google: one
  call per URL, as above.

Memory (tracemalloc). For a sample of the timed files (``--mem-sample``; default all), a
fresh copy of the input is made inside the traced window and dropped after parsing, so
whatever a parser keeps of its input counts (robotsrules keeps the body bytes). "parsed":
memory still held after parsing, per file. "in use": after also checking that file's URLs,
so lazily built indexes count too. Process-wide caches were warmed by the validation pass.

Largest file. The corpus file with the most lines (over 30,000) is parsed whole by each
library (best of ``--repeat``), then checked against a few hundred URLs: its host's lines
in urls.txt plus seeded synthetic ones (its own rule paths expanded, children, near misses,
unrelated paths). "first" is the first check after parsing (lazy set-up included), "check"
the mean of the others. Google re-parses the file on every call, so it gets only the first
20 URLs.

Ratios are peer time / robotsrules time (and peer memory / robotsrules memory): above 1
means robotsrules is faster (smaller).

The header gives the command line, the Python and library versions and a short sha256 of
robotsrules's source files; the run warns if that source changed while it ran. On two
CPUs the whole corpus takes about ten minutes with ``--repeat 1`` (Google's per-call API,
robotspy and the memory pass dominate) and ``--sample 1000`` about two.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import os
import platform
import random
import re
import shlex
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
LARGE_MIN_LINES = 30_000
LARGE_URLS = 300
LARGE_GOOGLE_URLS = 20
OURS = "robotsrules"
PROTEGO = "protego"
GOOGLE = "google"

# Targets: (key, label, threshold). Ratios are peer / ours.
TARGETS = (
    ("parse_protego", "parse >= 4x faster than protego", 4.0),
    ("check_protego", "check >= 5x faster than protego", 5.0),
    ("warm_check_protego", "(info) warm check >= 5x faster than protego", 5.0),
    ("bulk_google", "bulk >= 15x faster than Google's per-call API", 15.0),
    ("mem_parsed_protego", "memory (parsed) <= protego's", 1.0),
    ("mem_in_use_protego", "memory (in use) <= protego's", 1.0),
    ("largest_check", "largest-file check < 50 µs", 50.0),
)

_RULE_LINE = re.compile(r"^\s*(?:dis)?allow\s*:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


# -- corpus -------------------------------------------------------------------------------


@dataclass
class Site:
    """One corpus file and the URLs to check against it."""

    host: str
    body: bytes
    text: str
    urls: list[str]


def decode(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


def read_urls(path: Path) -> dict[str, list[str]]:
    urls: dict[str, list[str]] = {}
    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as handle:
        for line in handle:
            host, sep, url = line.rstrip("\n").partition("\t")
            if sep:
                urls.setdefault(host, []).append(url)
    return urls


def read_corpus(corpus: Path) -> tuple[dict[str, bytes], dict[str, list[str]]]:
    robots_dir, urls_file = corpus / "robots", corpus / "urls.txt"
    if not robots_dir.is_dir() or not urls_file.is_file():
        sys.exit(
            f"error: corpus not found at {corpus} (expected robots/<host>.txt and urls.txt); "
            "pass --corpus PATH"
        )
    bodies = {
        path.name[: -len(".txt")]: path.read_bytes()
        for path in sorted(robots_dir.iterdir())
        if path.name.endswith(".txt")
    }
    if not bodies:
        sys.exit(f"error: no robots/<host>.txt files under {corpus}")
    return bodies, read_urls(urls_file)


# -- timing helpers -----------------------------------------------------------------------


class Stopwatch:
    seconds = 0.0


@contextmanager
def timed() -> Iterator[Stopwatch]:
    """Time the block with perf_counter: GC collected before, paused during."""
    watch = Stopwatch()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    start = time.perf_counter()
    try:
        yield watch
    finally:
        watch.seconds = time.perf_counter() - start
        if enabled:
            gc.enable()


def source_digest() -> str:
    """Short sha256 of robotsrules's source files, to tie the numbers to a code state."""
    import robotsrules

    root = Path(robotsrules.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- the libraries ------------------------------------------------------------------------
# Each library has single-call parse()/check() (validation, memory) and tight timing loops
# written out per library, so no adapter call sits inside a timed loop.

Pair = tuple[Any, str]
Work = list[tuple[Any, list[str]]]


class Library:
    key = ""
    label = ""
    dist = ""  # distribution name for the version; "" for the stdlib
    has_parse = True
    takes_bytes = False

    def __init__(self, agent: str) -> None:
        self.agent = agent

    def version(self) -> str:
        return metadata.version(self.dist) if self.dist else f"stdlib {platform.python_version()}"

    def input(self, site: Site) -> Any:
        return site.body if self.takes_bytes else site.text

    def fresh_input(self, site: Site) -> Any:
        """A new copy of the input (for memory accounting)."""
        return bytes(bytearray(site.body)) if self.takes_bytes else decode(site.body)

    def parse(self, data: Any) -> Any:
        raise NotImplementedError

    def check(self, parsed: Any, url: str) -> bool:
        raise NotImplementedError

    def time_parse(self, inputs: Sequence[Any]) -> tuple[float, list[Any]]:
        raise NotImplementedError

    def time_check(self, pairs: Sequence[Pair]) -> float:
        raise NotImplementedError

    def time_bulk(self, work: Work) -> float:
        raise NotImplementedError


class RobotsRulesLib(Library):
    key = label = dist = OURS
    takes_bytes = True

    def __init__(self, agent: str) -> None:
        super().__init__(agent)
        import robotsrules

        self._parse = robotsrules.parse
        self.compiled = bool(getattr(robotsrules, "COMPILED", False))

    def version(self) -> str:
        build = "compiled" if self.compiled else "pure Python"
        return f"{super().version()} ({build})"

    def parse(self, data: bytes) -> Any:
        return self._parse(data, max_bytes=None)

    def check(self, parsed: Any, url: str) -> bool:
        return bool(parsed.allowed(url, agent=self.agent))

    def time_parse(self, inputs: Sequence[bytes]) -> tuple[float, list[Any]]:
        parse, out = self._parse, []
        with timed() as watch:
            for body in inputs:
                out.append(parse(body, max_bytes=None))
        return watch.seconds, out

    def time_check(self, pairs: Sequence[Pair]) -> float:
        agent = self.agent
        with timed() as watch:
            for robots, url in pairs:
                robots.allowed(url, agent=agent)
        return watch.seconds

    def time_bulk(self, work: Work) -> float:
        parse, agent = self._parse, self.agent
        with timed() as watch:
            for body, urls in work:
                rules = parse(body, max_bytes=None).for_agent(agent)
                for url in urls:
                    rules.allowed(url)
        return watch.seconds


class ProtegoLib(Library):
    key = label = dist = PROTEGO

    def __init__(self, agent: str) -> None:
        super().__init__(agent)
        from protego import Protego

        self._parse = Protego.parse

    def parse(self, data: str) -> Any:
        return self._parse(data)

    def check(self, parsed: Any, url: str) -> bool:
        return bool(parsed.can_fetch(url, self.agent))

    def time_parse(self, inputs: Sequence[str]) -> tuple[float, list[Any]]:
        parse, out = self._parse, []
        with timed() as watch:
            for text in inputs:
                out.append(parse(text))
        return watch.seconds, out

    def time_check(self, pairs: Sequence[Pair]) -> float:
        agent = self.agent
        with timed() as watch:
            for robots, url in pairs:
                robots.can_fetch(url, agent)
        return watch.seconds

    def time_bulk(self, work: Work) -> float:
        parse, agent = self._parse, self.agent
        with timed() as watch:
            for text, urls in work:
                robots = parse(text)
                for url in urls:
                    robots.can_fetch(url, agent)
        return watch.seconds


class UrllibLib(Library):
    key = "urllib"
    label = "urllib.robotparser"

    def __init__(self, agent: str) -> None:
        super().__init__(agent)
        from urllib.robotparser import RobotFileParser

        self._new = RobotFileParser

    def parse(self, data: str) -> Any:
        parser = self._new()
        parser.parse(data.splitlines())
        return parser

    def check(self, parsed: Any, url: str) -> bool:
        return bool(parsed.can_fetch(self.agent, url))

    def time_parse(self, inputs: Sequence[str]) -> tuple[float, list[Any]]:
        new, out = self._new, []
        with timed() as watch:
            for text in inputs:
                parser = new()
                parser.parse(text.splitlines())
                out.append(parser)
        return watch.seconds, out

    def time_check(self, pairs: Sequence[Pair]) -> float:
        agent = self.agent
        with timed() as watch:
            for robots, url in pairs:
                robots.can_fetch(agent, url)
        return watch.seconds

    def time_bulk(self, work: Work) -> float:
        new, agent = self._new, self.agent
        with timed() as watch:
            for text, urls in work:
                robots = new()
                robots.parse(text.splitlines())
                for url in urls:
                    robots.can_fetch(agent, url)
        return watch.seconds


class RobotspyLib(Library):
    key = label = "robotspy"
    dist = "robotspy"

    def __init__(self, agent: str) -> None:
        super().__init__(agent)
        from robots import RobotsParser

        self._parse = RobotsParser.from_string

    def parse(self, data: str) -> Any:
        return self._parse(data)

    def check(self, parsed: Any, url: str) -> bool:
        return bool(parsed.can_fetch(self.agent, url))

    def time_parse(self, inputs: Sequence[str]) -> tuple[float, list[Any]]:
        parse, out = self._parse, []
        with timed() as watch:
            for text in inputs:
                out.append(parse(text))
        return watch.seconds, out

    def time_check(self, pairs: Sequence[Pair]) -> float:
        agent = self.agent
        with timed() as watch:
            for robots, url in pairs:
                robots.can_fetch(agent, url)
        return watch.seconds

    def time_bulk(self, work: Work) -> float:
        parse, agent = self._parse, self.agent
        with timed() as watch:
            for text, urls in work:
                robots = parse(text)
                for url in urls:
                    robots.can_fetch(agent, url)
        return watch.seconds


class GoogleLib(Library):
    """Google's C++ library: no parsed form, every call parses the body again."""

    key = GOOGLE
    label = "google (jwm.robotstxt)"
    dist = "jwm.robotstxt"
    has_parse = False
    takes_bytes = True

    def __init__(self, agent: str) -> None:
        super().__init__(agent)
        from jwm.robotstxt import googlebot

        self._matcher = googlebot.RobotsMatcher()

    def parse(self, data: bytes) -> Any:
        return data  # nothing to parse ahead: the "parsed" form is the body

    def check(self, parsed: Any, url: str) -> bool:
        return bool(self._matcher.OneAgentAllowedByRobots(parsed, self.agent, url))

    def time_check(self, pairs: Sequence[Pair]) -> float:
        call, agent = self._matcher.OneAgentAllowedByRobots, self.agent
        with timed() as watch:
            for body, url in pairs:
                call(body, agent, url)
        return watch.seconds

    def time_bulk(self, work: Work) -> float:
        call, agent = self._matcher.OneAgentAllowedByRobots, self.agent
        with timed() as watch:
            for body, urls in work:
                for url in urls:
                    call(body, agent, url)
        return watch.seconds


LIBRARIES = (RobotsRulesLib, ProtegoLib, UrllibLib, RobotspyLib, GoogleLib)


def load_libraries(agent: str, peers: Optional[Sequence[str]] = None
                   ) -> tuple[list[Library], list[str]]:
    libs: list[Library] = []
    skipped: list[str] = []
    for cls in LIBRARIES:
        if peers is not None and cls is not RobotsRulesLib and cls.key not in peers:
            continue
        try:
            libs.append(cls(agent))
        except ImportError as exc:
            if cls is RobotsRulesLib:
                sys.exit(f"error: cannot import robotsrules: {exc}")
            skipped.append(f"{cls.label}: not installed ({exc})")
    return libs, skipped


# -- validation ---------------------------------------------------------------------------


def validate(libs: Sequence[Library], sites: Sequence[Site]) -> dict[str, Any]:
    """Parse and check everything once per library; find what must be left out."""
    bad_files: set = set()
    bad_urls: set = set()
    errors: dict[str, dict[str, int]] = {}
    verdicts: dict[str, list[Optional[list[Optional[bool]]]]] = {}
    for lib in libs:
        start = time.perf_counter()
        counts = {"parse": 0, "check": 0}
        mine: list[Optional[list[Optional[bool]]]] = []
        for i, site in enumerate(sites):
            try:
                parsed = lib.parse(lib.input(site))
            except Exception:
                counts["parse"] += 1
                bad_files.add(i)
                mine.append(None)
                continue
            answers: list[Optional[bool]] = []
            for j, url in enumerate(site.urls):
                try:
                    answers.append(lib.check(parsed, url))
                except Exception:
                    counts["check"] += 1
                    bad_urls.add((i, j))
                    answers.append(None)
            mine.append(answers)
        errors[lib.key] = counts
        verdicts[lib.key] = mine
        progress(f"validated {lib.label} in {time.perf_counter() - start:.1f} s: {counts}")

    kept_sites: list[Site] = []
    agree: dict[str, Optional[float]] = {lib.key: None for lib in libs}
    same = {lib.key: 0 for lib in libs}
    total = 0
    google = verdicts.get(GOOGLE)
    for i, site in enumerate(sites):
        if i in bad_files:
            continue
        urls = []
        for j, url in enumerate(site.urls):
            if (i, j) in bad_urls:
                continue
            urls.append(url)
            if google is not None:
                total += 1
                reference = google[i][j]  # type: ignore[index]
                for key, mine in verdicts.items():
                    same[key] += mine[i][j] == reference  # type: ignore[index]
        kept_sites.append(Site(site.host, site.body, site.text, urls))
    if google is not None and total:
        agree = {key: 100.0 * same[key] / total for key in same}
        agree[GOOGLE] = None
    return {
        "sites": kept_sites,
        "errors": errors,
        "agree": agree,
        "excluded_files": len(bad_files),
        "excluded_urls": len({(i, j) for i, j in bad_urls if i not in bad_files}),
    }


# -- measurements -------------------------------------------------------------------------


def run_timings(
    libs: Sequence[Library], sites: Sequence[Site], repeat: int, seed: int
) -> dict[str, dict[str, Optional[float]]]:
    order = [(i, j) for i, site in enumerate(sites) for j in range(len(site.urls))]
    random.Random(seed).shuffle(order)
    n_files, n_urls = len(sites), len(order)
    best: dict[str, dict[str, float]] = {
        lib.key: {"parse": math.inf, "check": math.inf, "warm": math.inf, "bulk": math.inf}
        for lib in libs
    }
    for r in range(repeat):
        for lib in libs:
            start = time.perf_counter()
            inputs = [lib.input(site) for site in sites]
            mine = best[lib.key]
            if lib.has_parse:
                seconds, parsed = lib.time_parse(inputs)
                mine["parse"] = min(mine["parse"], seconds)
            else:
                parsed = inputs
            pairs = [(parsed[i], sites[i].urls[j]) for i, j in order]
            mine["check"] = min(mine["check"], lib.time_check(pairs))
            if lib.has_parse:  # again, now that lazy set-up is done
                mine["warm"] = min(mine["warm"], lib.time_check(pairs))
            del pairs, parsed
            work = [(inputs[i], site.urls) for i, site in enumerate(sites) if site.urls]
            mine["bulk"] = min(mine["bulk"], lib.time_bulk(work))
            del work, inputs
            progress(f"repeat {r + 1}/{repeat} {lib.label}: {time.perf_counter() - start:.1f} s")
    results: dict[str, dict[str, Optional[float]]] = {}
    for lib in libs:
        mine = best[lib.key]
        results[lib.key] = {
            "parse_us": mine["parse"] / n_files * 1e6 if lib.has_parse and n_files else None,
            "check_us": mine["check"] / n_urls * 1e6 if n_urls else None,
            "warm_check_us": mine["warm" if lib.has_parse else "check"] / n_urls * 1e6
            if n_urls
            else None,
            "bulk_us": mine["bulk"] / n_urls * 1e6 if n_urls else None,
        }
    return results


def measure_memory(lib: Library, sites: Sequence[Site]) -> dict[str, float]:
    """KiB per file held by parsed objects: after parsing, and after checking the URLs."""
    kept: list[Any] = [None] * len(sites)
    parse, check, fresh = lib.parse, lib.check, lib.fresh_input
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for k, site in enumerate(sites):
            kept[k] = parse(fresh(site))  # the input copy is dropped right away
        gc.collect()
        parsed_bytes = tracemalloc.get_traced_memory()[0] - base
        for k, site in enumerate(sites):
            for url in site.urls:
                check(kept[k], url)
        gc.collect()
        in_use_bytes = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    del kept
    n = max(len(sites), 1)
    return {"parsed_kib": parsed_bytes / n / 1024, "in_use_kib": in_use_bytes / n / 1024}


def largest_urls(site: Site, seed: int) -> list[str]:
    """The host's URLs from urls.txt plus synthetic ones, LARGE_URLS in all."""
    rng = random.Random(seed)
    base = f"https://{site.host}"
    urls = list(site.urls)
    paths = [p for p in _RULE_LINE.findall(site.text) if p.startswith("/")]
    rng.shuffle(paths)
    room = LARGE_URLS - len(urls)
    for n, path in enumerate(paths[: max(room * 2 // 3, 0)]):
        path = path.replace("*", "x").rstrip("$") or "/"
        kind = n % 3
        if kind == 1:
            path = path.rstrip("/") + "/child/page.html"
        elif kind == 2 and len(path) > 1:
            path = path[:-1]  # near miss
        urls.append(base + path)
    while len(urls) < LARGE_URLS:
        urls.append(f"{base}/news/{rng.randrange(2000, 2026)}/article-{rng.randrange(10**6)}.html")
    return urls[:LARGE_URLS]


def run_largest(
    libs: Sequence[Library],
    bodies: dict[str, bytes],
    urls_by_host: dict[str, list[str]],
    repeat: int,
    seed: int,
) -> Optional[dict[str, Any]]:
    lines, host = max((len(body.splitlines()), host) for host, body in bodies.items())
    if lines <= LARGE_MIN_LINES:
        return None
    body = bodies[host]
    site = Site(host, body, decode(body), urls_by_host.get(host, []))
    urls = largest_urls(site, seed)
    info: dict[str, Any] = {
        "file": f"{host}.txt",
        "lines": lines,
        "bytes": len(body),
        "rule_lines": len(_RULE_LINE.findall(site.text)),
        "urls": len(urls),
        "host_urls": len(site.urls),
        "results": {},
    }
    for lib in libs:
        mine = urls if lib.has_parse else urls[:LARGE_GOOGLE_URLS]
        data = lib.input(site)
        parse_s = first_s = rest_s = math.inf
        try:
            for _ in range(repeat):
                if lib.has_parse:
                    with timed() as watch:
                        parsed = lib.parse(data)
                    parse_s = min(parse_s, watch.seconds)
                else:
                    parsed = data
                first_s = min(first_s, lib.time_check([(parsed, mine[0])]))
                rest = [(parsed, url) for url in mine[1:]]
                rest_s = min(rest_s, lib.time_check(rest) / max(len(rest), 1))
                del parsed
        except Exception as exc:  # a peer failing here is reported, not fatal
            info["results"][lib.key] = {"error": repr(exc)}
            continue
        info["results"][lib.key] = {
            "parse_ms": parse_s * 1e3 if lib.has_parse else None,
            "first_check_us": first_s * 1e6,
            "check_us": rest_s * 1e6,
            "urls": len(mine),
        }
        progress(f"largest file: {lib.label} done")
    return info


# -- report -------------------------------------------------------------------------------


def fmt(value: Optional[float], unit: str = "") -> str:
    if value is None or math.isnan(value) or math.isinf(value):
        return "n/a"
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return text + unit


def ratio(peer: Optional[float], ours: Optional[float]) -> Optional[float]:
    if peer is None or ours is None or ours <= 0:
        return None
    return peer / ours


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


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def command_line() -> str:
    exe = sys.executable
    try:
        rel = os.path.relpath(exe)
        if not rel.startswith(".."):
            exe = rel
    except ValueError:
        pass
    return shlex.join([exe, *sys.argv])


def evaluate_targets(
    timings: dict[str, dict[str, Optional[float]]],
    memory: dict[str, dict[str, float]],
    largest: Optional[dict[str, Any]],
) -> list[dict[str, Any]]:
    ours, protego, google = timings[OURS], timings.get(PROTEGO), timings.get(GOOGLE)
    values: dict[str, Optional[float]] = {
        "parse_protego": ratio(protego["parse_us"], ours["parse_us"]) if protego else None,
        "check_protego": ratio(protego["check_us"], ours["check_us"]) if protego else None,
        "warm_check_protego": ratio(protego["warm_check_us"], ours["warm_check_us"])
        if protego
        else None,
        "bulk_google": ratio(google["bulk_us"], ours["bulk_us"]) if google else None,
        "mem_parsed_protego": None,
        "mem_in_use_protego": None,
        "largest_check": None,
    }
    if PROTEGO in memory and OURS in memory:
        for kind in ("parsed", "in_use"):
            values[f"mem_{kind}_protego"] = ratio(
                memory[PROTEGO][f"{kind}_kib"], memory[OURS][f"{kind}_kib"]
            )
    if largest is not None:
        values["largest_check"] = largest["results"].get(OURS, {}).get("check_us")
    out = []
    for key, label, threshold in TARGETS:
        value = values[key]
        if value is None:
            status = "n/a"
        elif key == "largest_check":
            status = "PASS" if value < threshold else "FAIL"
        else:
            status = "PASS" if value >= threshold else "FAIL"
        out.append({"target": label, "key": key, "value": value, "status": status})
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS),
                        help="corpus folder with robots/ and urls.txt (default: %(default)s)")
    parser.add_argument("--agent", default="Googlebot", help="user agent (default: %(default)s)")
    parser.add_argument("--sample", type=int, default=None,
                        help="number of files, chosen at random (default: all)")
    parser.add_argument("--mem-sample", type=int, default=None,
                        help="files measured for memory, from the timed ones (default: all)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="repeats per measurement, best kept (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=9309, help="sampling/shuffling seed")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--json-file", metavar="FILE",
                        help="also write the results as JSON to FILE")
    parser.add_argument("--peers", metavar="KEYS",
                        help="comma-separated peers to measure (default: all installed; keys: "
                             + ", ".join(cls.key for cls in LIBRARIES[1:]) + ")")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory pass")
    parser.add_argument("--no-largest", action="store_true", help="skip the largest file")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    wall = time.perf_counter()

    corpus = Path(args.corpus).resolve()
    bodies, urls_by_host = read_corpus(corpus)
    hosts = sorted(bodies)
    if args.sample is not None and 0 < args.sample < len(hosts):
        hosts = sorted(random.Random(args.seed).sample(hosts, args.sample))
    sites = [Site(h, bodies[h], decode(bodies[h]), urls_by_host.get(h, [])) for h in hosts]
    libs, skipped = load_libraries(
        args.agent, None if args.peers is None else args.peers.split(","))
    digest = source_digest()  # the code just imported

    header = [
        "# robotsrules vs peers",
        "",
        f"command: {command_line()}",
        f"python:  {platform.python_implementation()} {platform.python_version()} "
        f"on {platform.system()} {platform.machine()}, {cpu_name()} ({os.cpu_count()} CPUs)",
        "versions: " + ", ".join(
            f"{lib.label} {lib.version()}" + (f" (src sha256 {digest})" if lib.key == OURS else "")
            for lib in libs
        ),
        f"corpus:  {corpus}: {len(sites):,} of {len(bodies):,} files"
        + (f" (seed {args.seed})" if len(sites) < len(bodies) else "")
        + f", {sum(len(s.urls) for s in sites):,} URLs; agent {args.agent!r}; "
        f"best of {args.repeat}",
    ]
    header += [f"skipped: {note}" for note in skipped]
    print("\n".join(header), flush=True)

    checked = validate(libs, sites)
    sites = checked["sites"]
    n_urls = sum(len(s.urls) for s in sites)
    timings = run_timings(libs, sites, args.repeat, args.seed)

    mem_sites = sites
    if args.mem_sample is not None and 0 < args.mem_sample < len(sites):
        mem_sites = random.Random(args.seed + 1).sample(sites, args.mem_sample)
    memory: dict[str, dict[str, float]] = {}
    for lib in libs:
        if lib.has_parse and not args.no_memory:
            memory[lib.key] = measure_memory(lib, mem_sites)
            progress(f"memory {lib.label} done")

    largest = (None if args.no_largest
               else run_largest(libs, bodies, urls_by_host, args.repeat, args.seed))
    targets = evaluate_targets(timings, memory, largest)

    # -- tables
    print()
    print(f"## Corpus: {len(sites):,} files, {n_urls:,} URLs "
          f"(memory over {len(mem_sites):,} files)")
    if checked["excluded_files"] or checked["excluded_urls"]:
        print(f"Left out of all timings after a library raised: {checked['excluded_files']} "
              f"files, {checked['excluded_urls']} URLs.")
    print()
    rows = []
    for lib in libs:
        t, mem, err = timings[lib.key], memory.get(lib.key, {}), checked["errors"][lib.key]
        agree = checked["agree"].get(lib.key)
        rows.append([
            lib.label, fmt(t["parse_us"]), fmt(t["check_us"]), fmt(t["warm_check_us"]),
            fmt(t["bulk_us"]),
            fmt(mem.get("parsed_kib")), fmt(mem.get("in_use_kib")),
            f"{err['parse']}/{err['check']}",
            "-" if agree is None else f"{agree:.2f}%",
        ])
    print(table(["library", "parse µs/file", "check µs/URL", "warm check µs/URL", "bulk µs/URL",
                 "KiB/file parsed", "KiB/file in use", "errors parse/check",
                 "agree w/ Google"], rows))
    print()
    print("Ratios, peer / robotsrules (above 1: robotsrules faster or smaller):")
    print()
    rows = []
    ours_t, ours_m = timings[OURS], memory.get(OURS, {})
    ratios: dict[str, dict[str, Optional[float]]] = {}
    for lib in libs:
        if lib.key == OURS:
            continue
        t, mem = timings[lib.key], memory.get(lib.key, {})
        ratios[lib.key] = {
            "parse": ratio(t["parse_us"], ours_t["parse_us"]),
            "check": ratio(t["check_us"], ours_t["check_us"]),
            "warm_check": ratio(t["warm_check_us"], ours_t["warm_check_us"]),
            "bulk": ratio(t["bulk_us"], ours_t["bulk_us"]),
            "mem_parsed": ratio(mem.get("parsed_kib"), ours_m.get("parsed_kib")),
            "mem_in_use": ratio(mem.get("in_use_kib"), ours_m.get("in_use_kib")),
        }
        rows.append([lib.label, *(fmt(v, "x") for v in ratios[lib.key].values())])
    print(table(["peer", "parse", "check", "warm check", "bulk", "memory parsed",
                 "memory in use"], rows))

    if largest is not None:
        print()
        print(f"## Largest file: {largest['file']}: {largest['lines']:,} lines, "
              f"{largest['bytes']:,} bytes, {largest['rule_lines']:,} allow/disallow lines")
        print(f"URLs: {largest['urls']} ({largest['host_urls']} from urls.txt, the rest "
              f"synthetic); Google: first {LARGE_GOOGLE_URLS} (each call re-parses)")
        print()
        rows = []
        for lib in libs:
            res = largest["results"][lib.key]
            if "error" in res:
                rows.append([lib.label, "error", res["error"][:40], "", ""])
                continue
            rows.append([lib.label, fmt(res["parse_ms"]), fmt(res["first_check_us"]),
                         fmt(res["check_us"]), str(res["urls"])])
        print(table(["library", "parse ms", "first check µs", "check µs (mean)", "URLs"], rows))
    else:
        print()
        print(f"## Largest file: no corpus file has over {LARGE_MIN_LINES:,} lines")

    print()
    print("## Targets")
    print()
    rows = []
    for item in targets:
        value = item["value"]
        shown = fmt(value, " µs") if item["key"] == "largest_check" else fmt(value, "x")
        rows.append([item["target"], shown, item["status"]])
    print(table(["target", "measured", "status"], rows))
    elapsed = time.perf_counter() - wall
    print()
    print(f"Total run time: {elapsed:.0f} s")
    digest_now = source_digest()
    if digest_now != digest:
        print(f"WARNING: robotsrules's source changed during the run (src sha256 now "
              f"{digest_now}); the numbers are for the code imported at the start.")

    if args.json or args.json_file:
        document = {
            "command": command_line(),
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpu": cpu_name(),
            "versions": {lib.key: lib.version() for lib in libs},
            "skipped": skipped,
            "corpus": str(corpus),
            "agent": args.agent,
            "repeat": args.repeat,
            "seed": args.seed,
            "files": len(sites),
            "urls": n_urls,
            "memory_files": len(mem_sites),
            "excluded_files": checked["excluded_files"],
            "excluded_urls": checked["excluded_urls"],
            "errors": checked["errors"],
            "agree_with_google_percent": checked["agree"],
            "timings_us": timings,
            "memory_kib": memory,
            "ratios_peer_over_ours": ratios,
            "largest_file": largest,
            "targets": targets,
            "run_seconds": elapsed,
            "source_sha256": digest,
            "source_changed_during_run": digest_now != digest,
        }
        if args.json:
            print()
            print(json.dumps(document, indent=2, ensure_ascii=False))
        if args.json_file:
            Path(args.json_file).write_text(json.dumps(document, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
