"""One fetch per fleet (issue 41): the fleet lock of RedisStore, with real parts only.

A real redis-server per test, a loopback origin that counts robots.txt requests and holds
the first answer until the test lets it go (the test waits for its "request arrived"
event), and two separate Python processes, each with its own cache on the same Redis.
Every outcome is a count or an answer, never a duration: the short lock bound of the
killed-holder test only decides how soon the other process takes over, not whether.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

import robotsrules
from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import Answer, Entry, fetch_flow
from tests.network.servers import Exchange, RawHTTPServer, head, respond
from tests.network.test_store_faults import RedisServer
from tests.timing import HANG, HEALTHY, finishes, wait_until

RULES = b"User-agent: *\nDisallow: /private\n"
ANSWERS = [False, True]  # /private/x, /public under RULES

CHILD = r"""
import asyncio, json, sys
from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import Answer, Entry, fetch_flow

mode, url, bound, origin, timeout = sys.argv[1:]
store = RedisStore(url=url, prefix="fleet:", retry_after=600,
                   lock_bound=None if bound == "none" else float(bound))
urls = [origin + "/private/x", origin + "/public"]
print("ready", flush=True)
sys.stdin.readline()
if mode == "sync":
    cache = RobotsCache(store, user_agent="FleetBot/1.0", timeout=float(timeout))
    answers = [cache.allowed(u) for u in urls]
else:
    async def main():
        return [await cache.allowed(u) for u in urls]
    cache = AsyncRobotsCache(store, user_agent="FleetBot/1.0", timeout=float(timeout))
    answers = asyncio.run(main())
print(json.dumps({"answers": answers, "fetches": cache.fetches,
                  "store_errors": cache.store_errors}), flush=True)
"""


class HeldOrigin:
    """Answers robots.txt with RULES; the first request is held until :attr:`release` is
    set (:attr:`arrived` says it came), the others are answered at once."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()
        self._seen = 0

    def __call__(self, exchange: Exchange) -> None:
        with self._lock:
            self._seen += 1
            first = self._seen == 1
        if first:
            self.arrived.set()
            self.release.wait(HANG)
        exchange.send(head(200, [("Content-Length", str(len(RULES)))]) + RULES)


class Child:
    """A Python process with a cache on the shared Redis; ``go`` makes it ask."""

    def __init__(self, mode: str, url: str, origin: str, bound: str = "none") -> None:
        package_root = str(Path(robotsrules.__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": package_root}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, mode, url, bound, origin, str(HEALTHY)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line == "ready\n", f"child failed to start (exit {self.proc.poll()})"

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def result(self) -> dict[str, object]:
        out, _ = self.proc.communicate(timeout=HANG)
        assert self.proc.returncode == 0, out
        found: dict[str, object] = json.loads(out.strip().splitlines()[-1])
        return found

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(HANG)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    own = RedisServer(tmp_path)
    try:
        yield own
    finally:
        own.stop()


@pytest.fixture
def origin() -> Iterator[tuple[RawHTTPServer, HeldOrigin]]:
    held = HeldOrigin()
    http = RawHTTPServer(held)
    try:
        yield http, held
    finally:
        held.release.set()
        http.stop()


def waiting(url: str, http: RawHTTPServer) -> None:
    """Until a second process waits on the origin's release channel (or, with a broken
    lock, has fetched by itself: the test's count then fails)."""
    client = redis.Redis.from_url(url, socket_timeout=HANG)
    channel = "fleet:released:" + http.origin
    try:
        wait_until(lambda: dict(client.pubsub_numsub(channel)).get(channel.encode(), 0) >= 1
                   or http.count() >= 2, "the second process to wait for the lock")
    finally:
        client.close()


@pytest.mark.parametrize(("holder", "waiter"), [("sync", "async"), ("async", "sync")])
def test_two_processes_one_fetch(server: RedisServer,
                                 origin: tuple[RawHTTPServer, HeldOrigin],
                                 holder: str, waiter: str) -> None:
    http, held = origin
    first = Child(holder, server.url, http.origin)
    second = Child(waiter, server.url, http.origin)
    try:
        first.go()
        assert held.arrived.wait(HANG)
        second.go()
        waiting(server.url, http)
        held.release.set()
        one, other = first.result(), second.result()
    finally:
        first.kill()
        second.kill()
    assert http.count() == 1  # the fleet fetched once
    assert one["answers"] == other["answers"] == ANSWERS  # and both answer from it
    assert (one["fetches"], other["fetches"]) == (1, 0)
    assert one["store_errors"] == other["store_errors"] == 0


def test_a_killed_holder_is_taken_over_after_its_bound(
        server: RedisServer, origin: tuple[RawHTTPServer, HeldOrigin]) -> None:
    http, held = origin
    first = Child("sync", server.url, http.origin, bound="1")  # its lock lives 1 s
    second = Child("async", server.url, http.origin)
    try:
        first.go()
        assert held.arrived.wait(HANG)  # the holder is mid-fetch, its answer held
        second.go()
        waiting(server.url, http)
        first.kill()  # SIGKILL: no release; only the bound frees the lock
        other = second.result()
    finally:
        first.kill()
        second.kill()
    assert other["answers"] == ANSWERS and other["fetches"] == 1
    assert http.count() == 2
    client = redis.Redis.from_url(server.url, socket_timeout=HANG)
    try:  # the dead holder's lock did not outlive its bound; the second released its own
        assert client.exists("fleet:lock:" + http.origin) == 0
    finally:
        client.close()


def test_stopping_redis_mid_run_falls_back_to_per_process_fetching(
        server: RedisServer, origin: tuple[RawHTTPServer, HeldOrigin]) -> None:
    http, held = origin
    first = Child("sync", server.url, http.origin)
    second = Child("async", server.url, http.origin)
    try:
        first.go()
        assert held.arrived.wait(HANG)  # the first holds the lock, the second waits
        second.go()
        waiting(server.url, http)
        server.stop()  # Redis gone mid-run: the wait, the save and the release fail
        held.release.set()
        one, other = first.result(), second.result()
    finally:
        first.kill()
        second.kill()
    assert one["answers"] == other["answers"] == ANSWERS  # the crawl went on
    assert http.count() == 2  # each process fetched for itself
    assert isinstance(one["store_errors"], int) and one["store_errors"] >= 1
    assert isinstance(other["store_errors"], int) and other["store_errors"] >= 1


def test_only_the_holder_releases_its_lock(server: RedisServer) -> None:
    one = RedisStore(url=server.url, prefix="own:")
    two = RedisStore(url=server.url, prefix="own:")
    assert one.fleet is not None and two.fleet is not None
    client = redis.Redis.from_url(server.url, socket_timeout=HANG)
    try:
        token = one.fleet.take("https://a.example", 60.0)
        assert token is not None
        assert two.fleet.take("https://a.example", 60.0) is None  # held
        key = "own:lock:https://a.example"
        assert 60_000 < client.pttl(key) <= 65_000  # the deadline plus the margin
        assert two.fleet.release("https://a.example", "not-the-token") is False
        assert client.get(key) == token.encode()  # still the holder's
        # The holder's lock gone (as if expired) and taken by another: the late release
        # of the first holder must not free the second's.
        client.delete(key)
        later = two.fleet.take("https://a.example", 60.0)
        assert later is not None
        assert one.fleet.release("https://a.example", token) is False
        assert client.get(key) == later.encode()
        assert two.fleet.release("https://a.example", later) is True
        assert client.exists(key) == 0
        two.fleet.wait("https://a.example", 60.0)  # free: returns at once
    finally:
        client.close()
        one.close()
        two.close()


def test_fleet_lock_can_be_turned_off_and_bounded(server: RedisServer) -> None:
    assert RedisStore(url=server.url, fleet_lock=False).fleet is None
    with pytest.raises(robotsrules.InvalidArgument):
        RedisStore(url=server.url, lock_bound=0)


def test_a_refused_release_script_is_counted_said_once_and_the_lock_expires(
        server: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    admin = redis.Redis.from_url(server.url, socket_timeout=HANG)
    # A real server that refuses scripts to this user: taking the lock works, releasing
    # it (a Lua script) fails every time.
    admin.acl_setuser("crawler", enabled=True, nopass=True, keys=["*"], channels=["*"],
                      commands=["+@all", "-eval", "-evalsha"])
    store = RedisStore(url=f"redis://crawler@127.0.0.1:{server.port}/0", prefix="acl:")
    origins = [RawHTTPServer(respond(200, RULES)) for _ in range(3)]
    caplog.set_level(logging.DEBUG, logger="robotsrules")
    try:
        cache = RobotsCache(store, user_agent="FleetBot/1.0", timeout=HEALTHY)
        assert [cache.allowed(o.url("/private/x")) for o in origins] == [False] * 3
        assert [cache.allowed(o.url("/public")) for o in origins] == [True] * 3
        assert [o.count() for o in origins] == [1, 1, 1]  # the crawl went on
        assert cache.store_errors == 3  # one refused release per refresh, counted
        said = [r for r in caplog.records if "fleet lock failed" in r.getMessage()]
        assert [r.levelno for r in said] == [logging.WARNING] + [logging.DEBUG] * 2
        for o in origins:  # left to its bound, which it has
            assert admin.pttl("acl:lock:" + o.origin) > 0
        assert store.get(origins[0].origin) is not None  # the store itself still works
    finally:
        for o in origins:
            o.stop()
        store.close()
        admin.close()


def test_async_waits_never_take_the_threads_the_store_needs(
        server: RedisServer) -> None:
    # Another process (a second store) holds the locks of more origins than the default
    # thread pool has threads; this process's async cache waits for all of them, and must
    # still refresh an origin no one holds: its store calls are not queued behind waits.
    other = RedisStore(url=server.url, prefix="pool:", lock_bound=2 * HANG)
    store = RedisStore(url=server.url, prefix="pool:")
    assert other.fleet is not None
    held = [f"http://held-{i}.invalid" for i in range(40)]
    tokens = [other.fleet.take(name, 1.0) for name in held]
    assert all(tokens)
    allow_all = fresh_entry(b"User-agent: *\nAllow: /\n")

    async def scenario(http: RawHTTPServer) -> tuple[bool, list[bool]]:
        cache = AsyncRobotsCache(store, user_agent="FleetBot/1.0", timeout=HEALTHY)
        waiting = [asyncio.create_task(cache.allowed(name + "/private/x")) for name in held]
        free = await asyncio.wait_for(cache.allowed(http.url("/private/x")), HANG)
        for name, token in zip(held, tokens):  # the other process stores, then releases
            other.put(name, allow_all)
            assert token is not None and other.fleet is not None
            other.fleet.release(name, token)
        answers = await asyncio.wait_for(asyncio.gather(*waiting), HANG)
        await cache.aclose()
        return free, answers

    with RawHTTPServer(respond(200, RULES)) as http:
        free, answers = asyncio.run(scenario(http))
        assert http.count() == 1
    assert free is False and answers == [True] * len(held)  # read from the other's copies
    other.close()


def fresh_entry(body: bytes) -> Entry:
    """An entry fetched now with ``body``."""
    flow = fetch_flow("http://held.invalid/robots.txt", time.time())
    next(flow)
    with pytest.raises(StopIteration) as stop:
        flow.send(Answer(status=200, body=body))
    return Entry.first(stop.value.value)


def test_a_lock_held_past_the_waiters_own_bound_is_not_waited_for(
        server: RedisServer, origin: tuple[RawHTTPServer, HeldOrigin]) -> None:
    # Review of issue 41, F5: a stranger's lock key (or a peer's larger bound) lives far
    # longer than this process would hold its own; the waiter waits at most its own bound,
    # then fetches by itself.
    http, held = origin
    held.release.set()  # every request answered at once
    client = redis.Redis.from_url(server.url, socket_timeout=HANG)
    try:
        client.set("fleet:lock:" + http.origin, "stranger", px=int(HANG * 10_000))
        store = RedisStore(url=server.url, prefix="fleet:", lock_bound=0.05)
        cache = RobotsCache(store, user_agent="FleetBot/1.0", timeout=HEALTHY)
        answers = finishes(lambda: [cache.allowed(http.origin + p)
                                    for p in ("/private/x", "/public")])
        assert answers == ANSWERS and http.count() == 1
        assert client.get("fleet:lock:" + http.origin) == b"stranger"  # never taken over
        store.close()
    finally:
        client.close()
