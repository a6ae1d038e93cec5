"""``robotsrules serve --api`` as a program, driven by the guide's own curl and Node examples
(docs/guides/service.md): the text users copy is the text that runs here."""

from __future__ import annotations

import json
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.timing import HANG

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "service.md"
SHOWN = "http://127.0.0.1:8339"
ACCESS: queue.Queue[str] = queue.Queue()
"""The lines of the service's standard output (its access log), read by a thread."""


def _block(language: str, containing: str) -> str:
    for match in re.finditer(rf"```{language}\n(.*?)```", GUIDE.read_text(), re.DOTALL):
        if containing in match.group(1):
            return match.group(1)
    raise AssertionError(f"no {language} block with {containing!r} in {GUIDE}")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    child = subprocess.Popen([sys.executable, "-m", "robotsrules", "serve", "--api",
                              "--port", "0", "--allowed-host", "api.example"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline() if child.stdout else ""  # printed once it listens
        assert line.startswith("robotsrules JSON service on http://"), line
        reader = threading.Thread(target=lambda: [ACCESS.put(out) for out in child.stdout
                                                  or ()], daemon=True)
        reader.start()
        yield line.split()[4].rstrip("/")
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=HANG)
        assert child.returncode == 143
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate(timeout=HANG)


def _expected(answer: dict[str, object]) -> None:
    results = answer["results"]
    assert isinstance(results, list)
    assert [(r["url"], r["allowed"]) for r in results] == [
        ("https://example.com/private/a", False), ("https://example.com/", True)]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_guides_curl_example(service: str) -> None:
    script = _block("sh", "curl").replace(SHOWN, service)
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=HANG,
                          check=True)
    _expected(json.loads(done.stdout))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_guides_node_example(service: str) -> None:
    script = _block("js", "fetch(").replace(SHOWN, service)
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=HANG, check=True)
    assert done.stdout.splitlines() == [
        "disallowed ExampleBot https://example.com/private/a",
        "allowed ExampleBot https://example.com/"]


def test_serve_api_checks_the_host_and_answers_health(service: str) -> None:
    assert httpx.get(service + "/healthz", timeout=HANG).json()["status"] == "ok"
    assert httpx.get(service + "/readyz", timeout=HANG).status_code == 200
    port = service.rsplit(":", 1)[1]
    refused = httpx.get(service + "/healthz", headers={"Host": f"evil.example:{port}"},
                        timeout=HANG)
    assert refused.status_code == 421 and refused.json()["error"]["code"] == "host-refused"
    allowed = httpx.get(service + "/healthz", headers={"Host": "api.example"}, timeout=HANG)
    assert allowed.status_code == 200


def test_serve_api_writes_an_access_log_line_per_request(service: str) -> None:
    httpx.post(service + "/v1/lint", json={"robots": "x"}, timeout=HANG)
    # the fixture's child prints one JSON line per /v1/ request on its standard output
    line = json.loads(ACCESS.get(timeout=HANG))
    while line["path"] != "/v1/lint":
        line = json.loads(ACCESS.get(timeout=HANG))
    assert line["status"] == 200 and line["method"] == "POST"
