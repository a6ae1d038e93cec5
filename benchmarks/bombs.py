"""Compression bombs and dripping servers against ``robotsrules page URL`` (issue 24).

Each case runs the real command line in a fresh process against a loopback server and
prints that process's peak resident set (its own ``ru_maxrss``) and how long it ran::

    .venv/bin/python benchmarks/bombs.py                 # this tree
    .venv/bin/python benchmarks/bombs.py --tree /old     # another checkout's src/ (before)

Cases: a br body of 256 MiB of zeros (about 400 octets on the wire), a gzip body of 200 MiB
of zeros (about 200 KiB), and ``--timeout 1`` against a server that drips one octet every
0.3 s for a minute (a run still going after 60 s is killed and shown as such).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.network.servers import (  # noqa: E402
    RawHTTPServer,
    br_bomb,
    drip,
    gzip_bomb,
    serve_bytes,
)

# The child's own peak (VmHWM, Linux): ru_maxrss would carry over this process's resident set.
CHILD = (
    "import sys\n"
    "from robotsrules.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "peak = [int(l.split()[1]) / 1024 for l in open('/proc/self/status') "
    "if l.startswith('VmHWM:')][0]\n"
    "sys.stderr.write(f'\\nPEAK {peak:.1f} EXIT {code}\\n')\n"
)


def run(url: str, extra: list[str], tree: Optional[str], kill_after: float = 60.0
        ) -> tuple[str, float]:
    """(peak RSS in MiB or "killed", seconds) of ``robotsrules page URL`` in a new process."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = os.path.join(tree, "src")
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, "page", url, "--agent", "GPTBot",
                               *extra], capture_output=True, text=True, env=env,
                              timeout=kill_after)
    except subprocess.TimeoutExpired:
        return "killed", time.monotonic() - start
    seconds = time.monotonic() - start
    for line in done.stderr.splitlines():
        if line.startswith("PEAK "):
            return line.split()[1] + " MiB", seconds
    return "crashed: " + done.stderr.strip().splitlines()[-1][:60], seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", help="a checkout whose src/ to run instead of this one")
    args = parser.parse_args()
    cases = [
        ("br bomb, 256 MiB of zeros", serve_bytes(br_bomb(256), {"Content-Encoding": "br"},
                                                  "text/html"), []),
        ("gzip bomb, 200 MiB of zeros", serve_bytes(gzip_bomb(200),
                                                    {"Content-Encoding": "gzip"},
                                                    "text/html"), []),
        ("drip 1 octet / 0.3 s, --timeout 1", drip(b"<html>" + b" " * 200, 0.3),
         ["--timeout", "1"]),
    ]
    print(f"{'case':<36} {'peak RSS':>12} {'seconds':>8}")
    for name, scenario, extra in cases:
        with RawHTTPServer(scenario) as server:
            peak, seconds = run(server.url("/"), extra, args.tree)
        print(f"{name:<36} {peak:>12} {seconds:>8.1f}")


if __name__ == "__main__":
    main()
