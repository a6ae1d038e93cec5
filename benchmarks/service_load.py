"""The JSON service under a real load generator (issue 41, "Fast, measured"): ``wrk`` drives
``robotsrules serve --api`` on loopback, beside the in-process library doing the same work.

Run from the repository root (``wrk`` from Debian's package: ``apt-get install wrk``)::

    .venv/bin/python benchmarks/service_load.py [--duration 10] [--python PYTHON]
        [--workers 1 2] [--tiny]

The service runs in child processes of this script (``PYTHON``, this Python by default: give
``.venv-compiled/bin/python`` for the compiled build), each built by the command line's own
``serve --api`` options (access log on, written to ``/dev/null``; the rate limit raised out
of the way, still taken per request) and served by uvicorn on one socket this script binds
on 127.0.0.1 before they start, so several workers share it as uvicorn's own process model
does; the service is ready when every worker said it built the application and
``/healthz`` answers. With one worker, the worker is pinned to core 0 and ``wrk`` to core 1
(``taskset``); with two, nothing is pinned (the workers and ``wrk`` share both cores).

The scenarios, each a ``wrk --latency`` run of ``--duration`` seconds (POST bodies from a
small Lua script; ``wrk`` reports requests per second and the p50/p99 latency):

* ``single``: ``/v1/check`` with one URL and one agent, the site's robots.txt cached (the
  service fetched it from the loopback origin once before the run);
* ``batch-body``: 100 URLs x 1 agent per request, the robots.txt in the request (``robots``);
* ``batch-cached``: 100 URLs x 1 agent of one site whose robots.txt is cached;
* ``batch-first-fetch``: 100 URLs x 1 agent of a site never seen before, so each request
  fetches that site's robots.txt from the loopback origin first (``--allow-private-addresses``).
  The origin is this script: one asyncio loop in a thread answering on ``--origins`` loopback
  addresses (``127.0.x.y``, one host each: Linux routes ``127.0.0.0/8`` to loopback), each
  request of ``wrk`` naming the next unseen one; the origin counts the files it served (a
  few requests may find it too slow on a loaded machine: their fetch fails and the status
  rules answer), and the run fails when that is under 95 % of the requests.

For each run the script also reads the workers' CPU seconds from ``/proc/PID/stat`` (user +
system) and the load average: on a machine shared with other work the wall-clock rates move
with the load, while **requests per CPU second of the workers** is a figure per core that
the load does not move (it leaves out ``wrk`` and the origin). Every answer is checked:
``wrk`` counting any non-2xx answer or socket error fails the run.

The in-process figures are the library doing the same work without HTTP, on one core: the
file parsed once and ``RobotsTxt.allowed`` per URL; ``RobotsCache.allowed`` per URL with the
file cached; ``RobotsCache.allowed`` on a site never seen (a fetch from the loopback origin,
then 100 URLs); and the service's own ``check`` step called directly (records built, no HTTP,
no JSON), so the cost of HTTP, JSON and the ASGI stack is the difference.

``--tiny`` is the suite's smoke run (``tests/web/test_service_load.py``): one worker, a
fraction of a second per scenario, a few hundred requests; it proves the script runs, never
how fast.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

AGENT = "Googlebot"
ROBOTS = """\
# A site of some size: several groups, wildcards, an end anchor.
User-agent: *
Disallow: /cgi-bin/
Disallow: /search
Disallow: /*?sessionid=
Disallow: /*.pdf$
Allow: /search/about
Disallow: /private/
Disallow: /tmp/
Disallow: /account/
Allow: /account/login
Crawl-delay: 1

User-agent: Googlebot
User-agent: Googlebot-Image
Disallow: /nogoogle/
Disallow: /drafts/*
Allow: /drafts/public/
Disallow: /*/print$
Disallow: /search
Allow: /search/about
Disallow: /*?sort=
Disallow: /cart
Disallow: /checkout/

User-agent: GPTBot
User-agent: CCBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
"""
PATHS = [f"/{section}/{name}{i}{suffix}"
         for i, (section, name, suffix) in enumerate(
             (s, n, x) for s in ("blog", "drafts", "search", "shop", "nogoogle")
             for n in ("post", "item", "page", "list") for x in ("", ".pdf", "/print", "?sort=up",
                                                               "?id=7"))][:100]
GOALS = {"batch": (50_000.0, 50.0), "single": (3_000.0, 20.0)}
"""Per core: URL verdicts (batch) or requests (single) per second, and the p99 in ms."""


def _body(urls: list[str], robots: Optional[str] = None) -> str:
    payload: dict[str, Any] = {"urls": urls, "agents": [AGENT]}
    if robots is not None:
        payload["robots"] = robots
    return json.dumps(payload, separators=(",", ":"))


def _lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


def _fixed_script(body: str) -> str:
    return ('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {_lua_string(body)}\n")


def _first_fetch_script(hosts: list[str], port: int, threads: int) -> str:
    """Each request names the next unseen origin (thread ``k`` takes every ``threads``-th
    one from its ``k``)."""
    paths = ",".join('"' + p + '"' for p in PATHS)
    names = ",".join('"' + h + '"' for h in hosts)
    return f"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local hosts = {{{names}}}
local paths = {{{paths}}}
local counter = 0
function setup(thread)
  thread:set("first", counter)
  counter = counter + 1
end
function init(args)
  n = 0
end
function request()
  local i = first + 1 + n * {threads}
  n = n + 1
  i = (i - 1) % #hosts + 1  -- used up: origins seen again (the run then fails)
  local base = "http://" .. hosts[i] .. ":{port}"
  local urls = {{}}
  for k, p in ipairs(paths) do urls[k] = '"' .. base .. p .. '"' end
  return wrk.format(nil, nil, nil,
    '{{"urls":[' .. table.concat(urls, ",") .. '],"agents":["{AGENT}"]}}')
end
"""


class Origin:
    """The loopback origin: ``count`` addresses ``127.0.x.y`` on one port, each answering
    ``GET /robots.txt`` with :data:`ROBOTS` (``Connection: close``), in one thread."""

    def __init__(self, count: int) -> None:
        self.hosts = [f"127.{1 + i // 62500}.{(i // 250) % 250 + 1}.{i % 250 + 1}"
                      for i in range(count)]
        self.fetches = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.port = 0

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            body = ROBOTS.encode()
            self.fetches += 1
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def _start(self) -> None:
        first = await asyncio.start_server(self._answer, self.hosts[0], 0, backlog=1024)
        self.port = first.sockets[0].getsockname()[1]
        for host in self.hosts[1:]:
            await asyncio.start_server(self._answer, host, self.port, backlog=64)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    def start(self) -> Origin:
        self._thread.start()
        if not self._ready.wait(120):
            raise RuntimeError("the loopback origin did not start")
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Service:
    """``workers`` processes of ``robotsrules serve --api`` on one socket bound here."""

    def __init__(self, python: str, workers: int, pinned: Optional[str]) -> None:
        from robotsrules._web._server import listen

        self.sock = listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        command = [python, str(Path(__file__).resolve()), "--child", str(self.sock.fileno())]
        if pinned is not None:
            command = ["taskset", "-c", pinned, *command]
        self.workers = [subprocess.Popen(command, pass_fds=[self.sock.fileno()],
                                         stdout=subprocess.PIPE, text=True)
                        for _ in range(workers)]
        for worker in self.workers:
            assert worker.stdout is not None
            if worker.stdout.readline().strip() != "ready":
                self.stop()
                raise RuntimeError("a service worker did not start")
        self.get("/healthz")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url(path), timeout=120) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: str) -> Any:
        request = urllib.request.Request(self.url(path), data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read())

    def cpu(self) -> float:
        return sum(_cpu_seconds(worker.pid) for worker in self.workers)

    def stop(self) -> None:
        for worker in self.workers:
            worker.terminate()
        for worker in self.workers:
            worker.wait(60)
        self.sock.close()


def _child(fd: int) -> None:
    """One worker: the application ``serve --api`` builds, on the inherited socket."""
    import logging

    from robotsrules._web._server import server
    from robotsrules.cli import _parser
    from robotsrules.cli._serve import _api

    args = _parser().parse_args(["serve", "--api", "--allow-private-addresses",
                                 "--rate", "1000000000", "--burst", "1000000000"])
    sink = open(os.devnull, "w")  # noqa: SIM115 (open while the worker runs)
    handler = logging.StreamHandler(sink)  # as serve's access log
    handler.setFormatter(logging.Formatter("%(message)s"))
    access = logging.getLogger("robotsrules.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False
    app = _api(args)
    sock = socket.socket(fileno=fd)
    print("ready", flush=True)
    server(app).run(sockets=[sock])


@dataclass
class Run:
    """One ``wrk`` run's figures."""

    name: str
    workers: int
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    cpu: float
    load: tuple[float, float]
    verdicts_per_request: int
    note: str = ""

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def per_cpu_second(self) -> float:
        return self.requests / self.cpu if self.cpu else float("nan")

    def line(self) -> str:
        unit = self.verdicts_per_request
        return (f"{self.name:<18} {self.workers:>2} {self.requests:>8,} "
                f"{self.rate:>9,.0f} {self.rate * unit:>10,.0f} "
                f"{self.per_cpu_second * unit:>11,.0f} {self.p50_ms:>7.2f} {self.p99_ms:>7.2f} "
                f"{self.cpu / self.requests * 1000:>8.3f} "
                f"{self.load[0]:>5.1f}-{self.load[1]:<5.1f} {self.note}").rstrip()


HEADER = (f"{'scenario':<18} {'w':>2} {'requests':>8} {'req/s':>9} {'verdicts/s':>10} "
          f"{'verdicts/cpu-s':>11} {'p50 ms':>7} {'p99 ms':>7} {'cpu-s/1k':>8} load")


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def _ms(text: str) -> float:
    found = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", text)
    if found is None:
        raise RuntimeError(f"wrk's time {text!r} was not understood")
    number, unit = found.groups()
    return float(number) * _UNITS[unit]


def wrk(service: Service, script: str, seconds: float, threads: int, connections: int,
        core: Optional[str]) -> tuple[int, float, float, float]:
    """(requests, seconds, p50 ms, p99 ms) of one ``wrk`` run; raises on any non-2xx answer
    or socket error."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    try:
        command = ["wrk", "-t", str(threads), "-c", str(connections),
                   "-d", f"{max(1, round(seconds))}s", "--timeout", "60s", "--latency",
                   "-s", file.name, service.url("/v1/check")]
        if core is not None:
            command = ["taskset", "-c", core, *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    finally:
        os.unlink(file.name)
    out = done.stdout
    if done.returncode:
        raise RuntimeError(f"wrk failed ({done.returncode}):\n{out}{done.stderr}")
    if "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError("wrk saw failed requests:\n" + out)
    found = re.search(r"(\d+) requests in ([0-9.]+)(ms|s|m)", out)
    p50 = re.search(r"^\s*50%\s+(\S+)", out, re.MULTILINE)
    p99 = re.search(r"^\s*99%\s+(\S+)", out, re.MULTILINE)
    if not (found and p50 and p99):
        raise RuntimeError("wrk's output was not understood:\n" + out)
    wall = _ms(found.group(2) + found.group(3)) / 1000
    return int(found.group(1)), wall, _ms(p50.group(1)), _ms(p99.group(1))


def run(name: str, service: Service, script: str, unit: int, seconds: float, threads: int,
        connections: int, core: Optional[str]) -> Run:
    cpu = service.cpu()
    load = os.getloadavg()[0]
    requests, wall, p50, p99 = wrk(service, script, seconds, threads, connections, core)
    return Run(name, len(service.workers), requests, wall, p50, p99, service.cpu() - cpu,
               (load, os.getloadavg()[0]), unit)


def scenarios(python: str, workers: int, origin: Origin, hosts: list[str], seconds: float,
              tiny: bool) -> list[Run]:
    """The four runs against ``workers`` workers; ``hosts``: origins no run has seen."""
    pin = workers == 1 and (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None
    pinned, core = ("0", "1") if pin else (None, None)  # else: said in the output
    threads, connections = (1, 1) if tiny else (workers, 8 * workers)
    service = Service(python, workers, pinned)
    try:
        site = f"http://{hosts[0]}:{origin.port}"
        for _ in range(10 * workers):  # new connections: each worker likely reads the site
            service.post("/v1/check", _body([site + "/"]))  # (its own memory store)
        first = service.post("/v1/check", _body([site + p for p in PATHS]))["results"]
        assert all("allowed" in record for record in first), first[:2]
        runs = [
            run("single", service, _fixed_script(_body([site + "/blog/post0"])), 1,
                seconds, threads, connections, core),
            run("batch-body", service, _fixed_script(_body(PATHS, ROBOTS)), len(PATHS),
                seconds, threads, connections, core),
            run("batch-cached", service, _fixed_script(_body([site + p for p in PATHS])),
                len(PATHS), seconds, threads, connections, core),
        ]
        unseen = hosts[1:]
        before = origin.fetches
        fetching = run("batch-first-fetch", service,
                       _first_fetch_script(unseen, origin.port, threads), len(PATHS),
                       seconds, threads, connections, core)
        fetched = origin.fetches - before
        if fetched < fetching.requests * 0.95:
            raise RuntimeError(f"only {fetched} of {fetching.requests} requests fetched: "
                               "give more --origins")
        fetching.note = f"{fetched:,} robots.txt served by the origin"
        runs.append(fetching)
        return runs
    finally:
        service.stop()


def _best(work: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def in_process(origin: Origin, hosts: list[str], rounds: int) -> list[tuple[str, float]]:
    """Verdicts per CPU second of the library doing each scenario's work in this process."""
    import httpx

    from robotsrules import RobotsCache, parse
    from robotsrules._web._api import Limits, _Metrics, _Service
    from robotsrules.cache import MemoryStore

    figures: list[tuple[str, float]] = []
    urls = ["https://example.com" + p for p in PATHS]

    def parse_and_allowed() -> None:
        for _ in range(rounds):
            robots = parse(ROBOTS)
            for url in urls:
                robots.allowed(url, agent=AGENT)

    figures.append(("parse + allowed x100", rounds * len(urls)
                    / _best(parse_and_allowed, 3)))
    with httpx.Client() as client:
        cache = RobotsCache(MemoryStore(), user_agent="bench", client=client)
        site = f"http://{hosts[0]}:{origin.port}"
        cached = [site + p for p in PATHS]
        cache.allowed(cached[0], agent=AGENT)

        def cached_allowed() -> None:
            for _ in range(rounds):
                for url in cached:
                    cache.allowed(url, agent=AGENT)

        figures.append(("RobotsCache.allowed, cached", rounds * len(urls)
                        / _best(cached_allowed, 3)))
        unseen = iter(hosts[1:])

        def first_fetch() -> None:
            for _ in range(max(1, rounds // 10)):
                base = f"http://{next(unseen)}:{origin.port}"
                for path in PATHS:
                    cache.allowed(base + path, agent=AGENT)

        figures.append(("RobotsCache.allowed, first fetch", max(1, rounds // 10) * len(PATHS)
                        / _best(first_fetch, 1)))
    service = _Service(Limits(), MemoryStore(), "bench", True, None, None, _Metrics(),
                       time.monotonic)
    body = {"urls": PATHS, "agents": [AGENT], "robots": ROBOTS}
    figures.append(("service check step, body", rounds * len(PATHS)
                    / _best(lambda: [service.check(body) for _ in range(rounds)], 3)))
    cached_body = {"urls": cached, "agents": [AGENT]}
    service.check(cached_body)
    figures.append(("service check step, cached", rounds * len(PATHS)
                    / _best(lambda: [service.check(cached_body) for _ in range(rounds)], 3)))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds per wrk run (default 10)")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python of the service's workers (default: this one)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--origins", type=int, default=15000,
                        help="loopback origins for the first-fetch runs (default 15000)")
    parser.add_argument("--tiny", action="store_true",
                        help="a smoke run of a few hundred requests (the suite's)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        _child(args.child)
        return 0
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    if args.tiny:
        args.duration, args.workers, args.origins = 1, [1], 800
    build = "not asked (--tiny)" if args.tiny else subprocess.run(
        [args.python, "-c", "import robotsrules; print(robotsrules.COMPILED)"],
        capture_output=True, text=True, check=True).stdout.strip()
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores "
          f"({platform.processor() or platform.machine()}), compiled build: {build}, "
          f"wrk {args.duration:g} s per run, one worker pinned: "
          f"{(os.cpu_count() or 1) >= 2 and shutil.which('taskset') is not None}, "
          f"load average at start "
          f"{os.getloadavg()[0]:.1f}")
    origin = Origin(args.origins).start()
    share = len(origin.hosts) // (len(args.workers) + 1)  # the last share: in-process
    shares = [origin.hosts[i * share:(i + 1) * share] for i in range(len(args.workers) + 1)]
    try:
        runs: list[Run] = []
        for workers, hosts in zip(args.workers, shares):
            runs += scenarios(args.python, workers, origin, hosts, args.duration, args.tiny)
        print("\n" + HEADER)
        for one in runs:
            print(one.line())
        print("\nverdicts/cpu-s: URL verdicts per CPU second of the service's workers (the "
              "figure per core); req/s, verdicts/s: wall clock, all workers; cpu-s/1k: "
              "the workers' CPU seconds per 1,000 requests; load: 1-minute load average "
              "before-after the run")
        figures = in_process(origin, shares[-1], 10 if args.tiny else 2000)
    finally:
        origin.stop()
    print("\nIn-process, one core (URL verdicts per CPU second):")
    for name, rate in figures:
        print(f"  {name:<34} {rate:>12,.0f}")
    print("\nGoals, per core (one worker; rates per CPU second of the worker, p99 from wrk):")
    for one in runs:
        kind = "single" if one.name == "single" else "batch"
        if one.workers != 1 or one.name == "batch-first-fetch":
            continue
        goal, p99 = GOALS[kind]
        rate = one.per_cpu_second * one.verdicts_per_request
        print(f"  {one.name:<14} {rate:>10,.0f}/s (goal {goal:,.0f}): "
              f"{'met' if rate >= goal else 'NOT met'}; p99 {one.p99_ms:.1f} ms "
              f"(goal < {p99:.0f}): {'met' if one.p99_ms < p99 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
