"""The Scrapy middleware refreshes through the checker's flow (robotsrules._fetch._refresh): a
store holding an older copy than the one the middleware remembers does not lose the newer
one (the merge the middleware used to lack), and a store outage is counted and warned
once. Real SQLite and Redis stores (a refused connection), Twisted's real thread pool, in
a subprocess (``scrapy_memo_script.py`` says the timelines)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.network.servers import free_port
from tests.timing import HANG

pytest.importorskip("scrapy", reason="Scrapy is not installed: install the 'test' extra")

SCRIPT = os.path.join(os.path.dirname(__file__), "scrapy_memo_script.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_scrapy_keeps_the_newer_good_copy_it_remembers_over_an_older_stored_one(
        tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "robots.sqlite3")],
                          capture_output=True, text=True, timeout=HANG, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["first_reason"] == "fresh"
    assert found["left"] == 0  # both fetches were made: the stored copy was stale
    # Unreachable now: the last good copy served is the newer one (Disallow: /new/)...
    assert found["reason"] == "last-good-copy"
    assert found["new_allowed"] is False
    assert found["old_allowed"] is True
    # ... and the entry written back carries it, for the other processes.
    assert found["stored_good_at"] == 200.0
    assert found["store_errors"] is None


def test_scrapy_store_outage_is_counted_and_warned_once() -> None:
    # A Redis store on a port nothing listens on: every get and put is refused.
    done = subprocess.run([sys.executable, SCRIPT, "--outage", str(free_port())],
                          capture_output=True, text=True, timeout=HANG, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["reasons"] == ["fresh", "fresh"]  # the crawl goes on from memory
    assert found["newer_allowed"] is False  # the second fetch's rules are served
    assert found["store_errors"] == 4  # a get and a put per refresh, all counted
    assert found["levels"] == ["WARNING", "DEBUG", "DEBUG", "DEBUG"]  # one warning per outage
