"""Bugs found while hammering robotsrules (issue 5), one named test each.

Fuzzing (``fuzz/fuzz_robots.py``: atheris, the plain loop and hypothesis, with and without
the Google-oracle differential) found no crash and no disagreement so far; inputs that
ever break its invariant go to ``fuzz/regressions/`` (replayed by ``test_fuzz.py``) and get
a test here. Bugs found by reading the code or sweeping input shapes get one too.
"""

from __future__ import annotations

import subprocess
import sys

from tests.timing import HANG, run_with_cpu_limit


def run(script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a fresh interpreter (no state shared with the test process)."""
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=HANG)


def test_regression_public_fetch_stays_the_function_after_the_cache_is_imported() -> None:
    """``from robotsrules import RobotsCache, fetch`` must give the function ``fetch``.

    The fetch layer's module was once ``robotsrules/fetch.py``: importing it (as
    ``robotsrules._fetch._robotscache`` does) bound the package attribute ``fetch`` to the module. The
    module is now ``robotsrules._fetch._fetcher``.
    """
    script = ("from robotsrules import RobotsCache, fetch\n"
              "import robotsrules\n"
              "assert callable(fetch), fetch\n"
              "assert callable(robotsrules.fetch), robotsrules.fetch\n"
              "import robotsrules._fetch._fetcher, robotsrules._fetch._robotscache, robotsrules.httpx\n"
              "for name in robotsrules.__all__:\n"
              "    value = getattr(robotsrules, name)\n"
              "    assert not isinstance(value, type(robotsrules)), name\n")
    done = run(script)
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1]


def test_regression_a_line_full_of_user_is_read_in_linear_time() -> None:
    """The outline reader looks for ``user`` to find user-agent lines. It once searched back
    to the line's start for every hit, so one long line of ``user`` cost quadratic time
    (4 MiB: about a minute). A key starts its line, so the rest of a line is now skipped
    after its first hit. Run under a CPU-time limit: a linear reader takes milliseconds."""
    script = ("import robotsrules\n"
              "body = b'x' + b'user' * 1_000_000 + b'\\nUser-agent: a\\nDisallow: /' \n"
              "robots = robotsrules.parse(body, max_bytes=None)\n"
              "assert not robots.allowed('/p', agent='a')\n"
              "assert robotsrules.parse(b'User-agent: a\\nDisallow: /user' * 1_000_000,\n"
              "                         max_bytes=None).allowed('/x', agent='a')\n")
    done = run_with_cpu_limit(script, cpu_seconds=20)
    assert done.returncode == 0, done.stderr.strip()[-500:] or f"killed: {done.returncode}"
