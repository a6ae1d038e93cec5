"""Instructions per check, counted by callgrind: a measure that repeats where timings do not.

Wall-clock timings on a shared 2-core VM move by about ±8 % from run to run, too much to
judge a change of a few per cent. ``valgrind --tool=callgrind`` counts the instructions a
process executes; for the same interpreter, code and inputs the count repeats to about
±1 %, whatever else the machine is doing. Instructions are not cycles (cache misses, which
matter in the shuffled cross-host order, do not show), so use this to compare two versions
of the code, and ``bench_peers.py`` for the figures quoted against peers.

Method: the same corpus sample as ``bench_peers.py`` (``--sample`` files chosen with
``--seed``, all their URLs, shuffled across hosts). Four child processes run under
callgrind: the sample loaded only; parse only; parse and one pass of
``robots.allowed(url, agent=A)``; parse and two passes. "parse" is (parse only - loaded
only) / files. "first pass" is (one pass - parse only) / URLs: it includes reading and
compiling the agent's rules on first use, as ``bench_peers.py``'s "check" does. "warm
pass" is (two passes - one pass) / URLs. Each child takes about 10 s at the default
sample. The figures are those of whichever build of robotsrules the interpreter imports
(pure or compiled, named in the first line).

``--library protego`` counts protego (``Protego.parse`` of the body decoded as
``bench_peers.py`` decodes it, then ``can_fetch(url, agent)``) in the same harness, so that
protego's instructions divided by ours track ``bench_peers.py``'s timed ratios well enough to
steer by on a loaded machine (protego's parse indexes its rules, ours reads them on first
use: compare "first pass" with "first pass", parse excluded, as the timed "check" does).

Run from the repository root (needs valgrind: ``apt-get install valgrind``)::

    .venv/bin/python benchmarks/instructions.py                # 600 files
    .venv/bin/python benchmarks/instructions.py --sample 2000
    .venv-compiled/bin/python benchmarks/instructions.py --sample 500 --library protego
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_peers import DEFAULT_CORPUS, decode, read_corpus

Sample = list[tuple[bytes, list[str]]]


def choose(corpus: Path, size: int, seed: int) -> Sample:
    """``size`` corpus files with URLs, chosen as bench_peers.py chooses them."""
    bodies, urls = read_corpus(corpus)
    hosts = sorted(host for host in bodies if urls.get(host))
    if 0 < size < len(hosts):
        hosts = sorted(random.Random(seed).sample(hosts, size))
    return [(bodies[host], urls[host]) for host in hosts]


def child(sample_file: str, passes: int, agent: str, seed: int, method: str = "allowed"
          ) -> None:
    """What runs under callgrind: parse the sample, then check every URL ``passes`` times
    (``method``: ``robots.allowed``, ``robots.usage``, or ``protego`` for protego's
    ``can_fetch``)."""
    if method == "protego":
        from protego import Protego

        with open(sample_file, "rb") as handle:
            texts = [(decode(body), urls) for body, urls in pickle.load(handle)]
        if passes < 0:
            return
        found = [Protego.parse(text) for text, _ in texts]
        checks = [(found[i], url) for i, (_, urls) in enumerate(texts) for url in urls]
        random.Random(seed).shuffle(checks)
        for _ in range(passes):
            for protego, url in checks:
                protego.can_fetch(url, agent)
        return
    import robotsrules

    with open(sample_file, "rb") as handle:
        sample: Sample = pickle.load(handle)
    if passes < 0:  # the sample loaded only: what "parse" is measured against
        return
    parsed = [robotsrules.parse(body, max_bytes=None) for body, _ in sample]
    pairs = [(parsed[i], url) for i, (_, urls) in enumerate(sample) for url in urls]
    random.Random(seed).shuffle(pairs)
    for _ in range(passes):
        if method == "usage":
            for robots, url in pairs:
                robots.usage(url, agent=agent)
            continue
        for robots, url in pairs:
            robots.allowed(url, agent=agent)


def count(sample_file: str, passes: int, agent: str, seed: int, method: str = "allowed") -> int:
    """Instructions executed by :func:`child` under callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             __file__, "--child", sample_file, str(passes), agent, str(seed), method],
            capture_output=True, text=True, check=False,
        )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"error: callgrind run failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if len(sys.argv) == 7 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS),
                        help="corpus with robots/ and urls.txt (default: ../shared/corpus)")
    parser.add_argument("--agent", default="Googlebot", help="user agent (default: %(default)s)")
    parser.add_argument("--sample", type=int, default=600,
                        help="files to use, 0 for all (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=9309, help="sampling/shuffling seed")
    parser.add_argument("--method", choices=["allowed", "usage"], default="allowed",
                        help="what each check calls: robots.allowed (default) or robots.usage "
                             "(AI usage preferences, issue 15)")
    parser.add_argument("--library", choices=["robotsrules", "protego"], default="robotsrules",
                        help="whose checks to count (default: %(default)s); protego checks "
                             "with can_fetch (--method is then ignored)")
    args = parser.parse_args()
    method = "protego" if args.library == "protego" else args.method
    if shutil.which("valgrind") is None:
        sys.exit("error: valgrind not found; install it (apt-get install valgrind)")
    sample = choose(Path(args.corpus), args.sample, args.seed)
    urls = sum(len(found) for _, found in sample)
    with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as handle:
        pickle.dump(sample, handle)
    try:
        loaded, base, one, two = (count(handle.name, passes, args.agent, args.seed, method)
                                  for passes in (-1, 0, 1, 2))
    finally:
        os.unlink(handle.name)
    if method == "protego":
        from importlib.metadata import version

        library = f"protego {version('protego')}"
    else:
        import robotsrules

        library = f"robotsrules {'compiled' if robotsrules.COMPILED else 'pure'}"
    print(f"corpus {args.corpus}: {len(sample):,} files, {urls:,} URLs; agent {args.agent!r}; "
          f"method {method}; {sys.implementation.name} {sys.version.split()[0]}, {library}")
    print(f"parse:      {(base - loaded) / len(sample):,.0f} instructions per file")
    print(f"first pass: {(one - base) / urls:,.0f} instructions per URL "
          "(reading and compiling rules included)")
    print(f"warm pass:  {(two - one) / urls:,.0f} instructions per URL")


if __name__ == "__main__":
    main()
