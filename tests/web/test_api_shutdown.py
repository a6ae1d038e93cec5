"""Graceful shutdown of ``robotsrules serve --api`` (issue 41), over real HTTP with a child
process: on SIGTERM a request in flight finishes within ``--shutdown-timeout``; one still
running past it gets a whole ``shutting-down`` error or a closed connection, never a part
of an answer. The loopback origin holds its robots.txt answer until the test releases it;
the test waits on events (the origin saw the fetch; the child closed its listening socket
after the signal), never on a sleep."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.timing import HANG, wait_until

from .conftest import HeldOrigin

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")


@contextmanager
def _child(grace: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    child = subprocess.Popen([sys.executable, "-m", "robotsrules", "serve", "--api",
                              "--port", "0", "--allow-private-addresses", "--no-access-log",
                              "--shutdown-timeout", grace],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline() if child.stdout else ""  # printed once it listens
        assert line.startswith("robotsrules JSON service on http://"), line
        yield child, int(line.split()[4].rstrip("/").rsplit(":", 1)[1])
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate(timeout=HANG)


def _ask(port: int, url: str, got: list[bytes]) -> None:
    """POST /v1/check on a raw connection and keep every octet until the server closes it."""
    body = json.dumps({"urls": [url], "agents": ["Bot"]}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as conn:
        conn.sendall(b"POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n%s" % (port, len(body), body))
        while chunk := conn.recv(65536):
            got.append(chunk)


def _refused(port: int) -> bool:
    """Whether the child stopped listening (it does so first when it begins to stop)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=HANG).close()
    except ConnectionRefusedError:
        return True
    return False


def _whole(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """A response read to its end: status, header fields, body, and its length checked."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert len(body) == int(fields["content-length"]), raw  # never a cut answer
    return int(lines[0].split()[1]), fields, body


def _stopped_during(grace: str, release: bool) -> tuple[bytes, int]:
    """What the client got of a check in flight when SIGTERM came, and the exit code."""
    got: list[bytes] = []
    with HeldOrigin() as origin, _child(grace) as (child, port):
        client = threading.Thread(target=_ask, args=(port, f"{origin.base}/held/x", got),
                                  daemon=True)
        client.start()
        assert origin.seen.wait(HANG)  # the service is fetching: the request is in flight
        child.send_signal(signal.SIGTERM)
        wait_until(lambda: _refused(port), "the child stops listening")
        if release:
            origin.release.set()
        child.wait(HANG)
        client.join(HANG)
        assert not client.is_alive()
        return b"".join(got), child.returncode


def test_a_request_in_flight_finishes_after_sigterm() -> None:
    raw, code = _stopped_during("60", release=True)
    status, fields, body = _whole(raw)
    assert status == 200 and fields["content-type"] == "application/json"
    assert json.loads(body)["results"][0]["allowed"] is False  # the held file's answer
    assert code == 143


def test_a_request_past_the_grace_gets_a_whole_error_or_nothing() -> None:
    raw, code = _stopped_during("1", release=False)  # the origin never answers in time
    assert code == 143
    if raw:  # else the connection closed without a byte: the client knows to retry
        status, _, body = _whole(raw)
        assert status == 503, raw
        assert json.loads(body)["error"]["code"] == "shutting-down"
