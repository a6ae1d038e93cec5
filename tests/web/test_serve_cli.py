"""``robotsrules serve`` as a program: it says where it listens, answers there, refuses a
wrong Host, warns when bound beyond this computer, and stops on SIGTERM with exit 143."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.timing import HANG

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")


@contextmanager
def _serving(*options: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    child = subprocess.Popen([sys.executable, "-m", "robotsrules", "serve", "--port", "0",
                              *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        line = child.stdout.readline() if child.stdout else ""  # printed once it listens
        assert line.startswith("robotsrules workbench on http://"), line
        yield line.split()[3], child
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=HANG)


def test_serve_answers_on_loopback_and_stops_on_sigterm() -> None:
    with _serving() as (url, child):
        assert url.startswith("http://127.0.0.1:")
        page = httpx.get(url, timeout=HANG)
        assert page.status_code == 200 and 'name="token"' in page.text
        refused = httpx.get(url, headers={"Host": "rebind.example"}, timeout=HANG)
        assert refused.status_code == 421
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=HANG)
        assert child.returncode == 143
        assert "warning" not in err


def test_serve_on_every_interface_warns_and_still_checks_the_host() -> None:
    with _serving("--host", "0.0.0.0") as (url, child):
        port = url.rsplit(":", 1)[1]
        local = f"http://127.0.0.1:{port}"
        assert httpx.get(local, timeout=HANG).status_code == 200
        refused = httpx.get(local, headers={"Host": f"rebind.example:{port.rstrip('/')}"},
                            timeout=HANG)
        assert refused.status_code == 421
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=HANG)
        assert "warning: serving on 0.0.0.0, not on this computer alone" in err
