"""Deployment of ``robotsrules serve --api`` (issue 41): several worker processes on one
socket bound once, stopped together by SIGTERM; and the guide's compose file
(``examples/service/compose.yaml``), whose robotsrules commands must parse with the real
command-line parser and whose options must be the guide's settings table's."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.timing import HANG, wait_until

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "examples" / "service" / "compose.yaml"
GUIDE = ROOT / "docs" / "guides" / "service.md"


def test_workers_answer_from_several_processes_on_one_socket() -> None:
    child = subprocess.Popen([sys.executable, "-m", "robotsrules", "serve", "--api",
                              "--port", "0", "--workers", "2", "--no-access-log"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)  # its workers too, on failure below
    try:
        line = child.stdout.readline() if child.stdout else ""  # printed once it listens
        assert line.startswith("robotsrules JSON service on http://"), line
        base = line.split()[4]
        seen: set[int] = set()

        def two_workers() -> bool:  # a fresh connection each: the kernel picks a worker
            answer = httpx.get(base + "healthz", timeout=HANG)
            seen.add(answer.json()["pid"])
            return len(seen) == 2

        wait_until(two_workers, "both workers answer on the one port")
        assert child.pid not in seen  # the supervisor serves nothing itself
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=HANG)
        assert child.returncode == 0
        assert not any(Path(f"/proc/{pid}").exists() for pid in seen)  # stopped together
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)  # the supervisor and its workers
            child.communicate(timeout=HANG)


def _settings_table() -> set[str]:
    """The options named in the first column of the guide's settings table."""
    text = GUIDE.read_text(encoding="utf-8")
    table = text.split("## Deployment", 1)[1].split("\n\n| setting |", 1)[1]
    rows = table.split("\n\n", 1)[0].splitlines()[1:]
    return {option for row in rows for option in re.findall(r"`(--[a-z-]+)", row.split("|")[1])}


def test_the_compose_file_runs_real_commands_with_documented_settings() -> None:
    yaml = pytest.importorskip("yaml")
    from robotsrules.cli import _parser

    services = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]
    assert {"redis", "robotsrules", "balancer"} <= set(services)
    command = services["robotsrules"]["command"]
    assert command[0] == "robotsrules"
    args = _parser().parse_args(command[1:])  # the real parser: exit 2 on a wrong option
    assert args.api and args.workers == 2 and args.store == "redis://redis:6379/0"
    assert args.store.split("//")[1].split(":")[0] in services  # Redis is a service here
    given = {word for word in command if word.startswith("--")}
    documented = _settings_table()
    serve = next(a for a in _parser()._actions if a.dest == "command").choices["serve"]
    known = {o for a in serve._actions for o in a.option_strings if o.startswith("--")}
    assert given <= documented <= known  # set here, in the table, real options
    assert known - {"--help", "--open"} <= documented  # every setting is in the table
    nginx = (COMPOSE.parent / "nginx.conf").read_text(encoding="utf-8")
    assert "server robotsrules:8339;" in nginx and "--port" in given
    assert "proxy_set_header Host robotsrules.example;" in nginx
    assert args.allowed_host == ["robotsrules.example"]
