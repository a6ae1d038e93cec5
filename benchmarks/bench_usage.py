"""What ``robots.usage`` costs next to ``robots.allowed`` (issue 15), on the real corpus.

Run from the repository root::

    .venv/bin/python benchmarks/bench_usage.py --sample 500 --repeat 3

Same inputs and method as benchmarks/bench_peers.py (its corpus reader and stopwatch): a
seeded sample of files with all their URLs, a shuffled (file, URL) order, best of
``--repeat``. For each repeat the files are parsed afresh and then checked twice: "first"
(lazy set-up included: the agent's rules compiled, and for usage the one search for usage
keys) and "warm" (the same pairs again). Three variants: ``allowed``, ``usage`` on the files
as they are (the corpus predates these lines: none carries them), and ``usage`` on the same
files with a ``User-agent: *`` group holding ``Content-Signal``/``Content-Usage`` lines
appended (so usage lines are read, compiled and matched for every agent the ``*`` groups
serve). µs per URL.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_peers import read_corpus, timed

import robotsrules

EXTRA = b"\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /private/ train-ai=n\n"


def _with_usage(body: bytes) -> bytes:
    out = body.replace(b"\r\n", b"\n")
    return (out if out.endswith(b"\n") else out + b"\n") + b"User-agent: *" + EXTRA


def main() -> None:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=str(here.parent.parent.parent / "shared" / "corpus"))
    parser.add_argument("--agent", default="Googlebot")
    parser.add_argument("--sample", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=9309)
    args = parser.parse_args()
    bodies, urls = read_corpus(Path(args.corpus))
    rng = random.Random(args.seed)
    hosts = sorted(h for h in bodies if urls.get(h))
    hosts = rng.sample(hosts, min(args.sample, len(hosts)))
    pairs: list[tuple[str, str]] = [(h, u) for h in hosts for u in urls[h]]
    rng.shuffle(pairs)
    agent = args.agent
    variants: dict[str, tuple[Callable[[bytes], bytes], str]] = {
        "allowed": (lambda b: b, "allowed"),
        "usage (files as they are)": (lambda b: b, "usage"),
        "usage (usage lines added)": (_with_usage, "usage"),
    }
    print(f"robotsrules {robotsrules.__file__}")
    print(f"{len(hosts)} files, {len(pairs)} URLs, agent {agent}, best of {args.repeat}")
    print(f"{'variant':<28} {'first µs/URL':>13} {'warm µs/URL':>12}")
    for name, (prepare, method) in variants.items():
        inputs = {h: prepare(bodies[h]) for h in hosts}
        best_first = best_warm = float("inf")
        for _ in range(args.repeat):
            parsed = {h: robotsrules.parse(inputs[h], max_bytes=None) for h in hosts}
            work = [(parsed[h], u) for h, u in pairs]
            for label in ("first", "warm"):
                with timed() as watch:
                    if method == "allowed":
                        for robots, url in work:
                            robots.allowed(url, agent=agent)
                    else:
                        for robots, url in work:
                            robots.usage(url, agent=agent)
                per_url = watch.seconds / len(work) * 1e6
                if label == "first":
                    best_first = min(best_first, per_url)
                else:
                    best_warm = min(best_warm, per_url)
        print(f"{name:<28} {best_first:>13.2f} {best_warm:>12.2f}")


if __name__ == "__main__":
    main()
