"""The JSON service's load benchmark (``benchmarks/service_load.py``) in its smoke mode, so
that it cannot rot: ``wrk`` drives a worker of ``serve --api`` for one second per scenario
and every answer must be a 2xx (the script fails on any other, and when a request of the
first-fetch scenario did not fetch). Nothing here reads a rate or a latency: only that each
scenario ran and was answered.

Run in the pure build only: the script is the same for both builds and the compiled one's
answers are compared with the pure one's elsewhere (``tests/compiled``); the suite's time
is spent once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.timing import HANG

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "service_load.py"


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed "
                                                        "(apt-get install wrk)")
@pytest.mark.skipif(os.environ.get("ROBOTSRULES_EXPECT_COMPILED") == "1",
                    reason="the same script in both builds: run once, in the pure build")
def test_the_load_benchmark_runs_every_scenario_against_a_real_worker() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--tiny"], capture_output=True,
                          text=True, timeout=HANG, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = re.findall(r"^(single|batch-body|batch-cached|batch-first-fetch) +1 +([0-9,]+) ",
                      done.stdout, re.MULTILINE)
    assert [name for name, _ in rows] == ["single", "batch-body", "batch-cached",
                                          "batch-first-fetch"], done.stdout
    assert all(int(count.replace(",", "")) > 0 for _, count in rows), done.stdout
    assert "service check step, cached" in done.stdout
    assert len(re.findall(r": (met|NOT met); p99 .*: (met|NOT met)$", done.stdout,
                          re.MULTILINE)) == 3
