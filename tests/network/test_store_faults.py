"""The cache stores under faults, against real back ends: a SQLite file that is random bytes,
truncated, damaged while in use, a directory, unwritable, read-only, vanished, held by
another process's exclusive or write lock; tampered rows; two processes racing a refresh
(SQLite and Redis); a Redis server frozen with SIGSTOP and one killed with SIGKILL.

The promise under test (issue 13, findings 10-14): the state of a store never stops a
crawl, and never costs more than the store's stated time bound; a failure never replaces
a newer good copy; a tampered entry is a miss and is deleted.

No outcome here depends on the machine's speed (issue 21): a lock is held, or a Redis
frozen, for as long as the test needs, so that only the store's own bound can end a call
(each call that must end runs under a hang guard, :func:`tests.timing.finishes`); "no
network during the pause" is read in the error the store raises; "one bound per put" is
shown with the store's clock moved on, not with a stopwatch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest
import redis

from robotsrules._fetch._robotscache import AsyncRobotsCache, RobotsCache
from robotsrules.cache import SQLiteStore
from robotsrules.cache.codec import encode
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import Entry, effective
from tests.network.servers import Exchange, RawHTTPServer, free_port, respond
from tests.network.test_stores import (  # the session's real Redis, and entries
    REDIS_HINT,
    entry,
    fetch,
    redis_url,  # noqa: F401
)
from tests.timing import HANG, HEALTHY, finishes, wait_until

RULES = b"User-agent: *\nDisallow: /private\n"
UA = "FaultBot/1.0"
REPO = Path(__file__).resolve().parents[2]


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "robotsrules" and r.levelno >= logging.WARNING]


def run(args: list[str], env: Optional[dict] = None, timeout: float = HANG,
        prefix: Optional[list[str]] = None) -> subprocess.CompletedProcess[str]:
    """A real robotsrules command line in a fresh process."""
    return subprocess.run([*(prefix or []), sys.executable, "-m", "robotsrules", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def server() -> Iterator[RawHTTPServer]:
    with RawHTTPServer(respond(200, RULES)) as origin:
        yield origin


# A process that holds a lock on a SQLite file until its stdin closes: "exclusive" (the
# file locked in exclusive mode: nobody else may even read) or "write" (BEGIN IMMEDIATE:
# the write lock, as a long transaction in another crawler would).
HOLDER = r"""
import sqlite3, sys
path, how = sys.argv[1], sys.argv[2]
conn = sqlite3.connect(path, isolation_level=None)
if how == "exclusive":
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
else:
    conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


class Holder:
    """Another process holding a SQLite lock (see HOLDER) for the ``with`` block."""

    def __init__(self, path: Path, how: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), how],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __enter__(self) -> Holder:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line == "locked\n", f"the lock holder failed (exit {self.proc.poll()})"
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.communicate(timeout=HANG)  # closes stdin: the holder lets go and exits


def make_cache(path: Path, origins: int = 60, pad: int = 3000) -> None:
    """A real cache file with many rows (so that it spans many pages)."""
    store = SQLiteStore(path)
    for i in range(origins):
        origin = f"https://h{i}.example"
        store.put(origin, entry(origin, body=RULES + b"#" + b"x" * pad + b"\n"))
    store.close()  # the last connection checkpoints: everything is in the main file
    assert not Path(f"{path}-wal").exists()


# -- finding 10: a store that cannot be opened never stops a crawl -------------------------

def _random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _directory(path: Path) -> None:
    path.mkdir()


def _parent_is_a_file(path: Path) -> None:
    path.parent.mkdir(exist_ok=True)


def _foreign_table(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()


BAD_FILES: list[tuple[str, Callable[[Path], None], str]] = [
    ("random-bytes", _random_bytes, "cache.sqlite3"),
    ("directory", _directory, "cache.sqlite3"),
    ("parent-is-a-file", lambda p: None, "afile/cache.sqlite3"),
    ("foreign-table", _foreign_table, "cache.sqlite3"),
    ("another-programs-db", lambda p: (_foreign_table(p), sqlite3.connect(p).executescript(
        "DROP TABLE entries; CREATE TABLE notes (text TEXT);")), "cache.sqlite3"),
]


@pytest.mark.parametrize("name, make, where", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_file_that_cannot_be_used_is_bypassed_with_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str,
        make: Callable[[Path], None], where: str) -> None:
    (tmp_path / "afile").write_bytes(b"not a directory")
    path = tmp_path / where
    make(path)
    before = path.read_bytes() if path.is_file() else None
    caplog.set_level(logging.WARNING, logger="robotsrules")
    store = SQLiteStore(path)  # never raises for the file
    assert store.problem is not None
    assert len(warnings_of(caplog)) == 1 and str(path) in warnings_of(caplog)[0]
    origin = "https://a.example"
    assert store.get(origin) is None
    stored = entry(origin)
    assert store.put(origin, stored) == stored  # kept in memory
    assert store.get(origin) == stored and len(store) == 1
    store.delete(origin)
    assert store.get(origin) is None
    assert store.prune(time.time()) == 0
    store.close()
    if before is not None:  # not ours: left exactly as it was
        assert path.read_bytes() == before
    assert store.quarantined is None
    assert len(warnings_of(caplog)) == 1


def test_a_truncated_database_is_moved_aside_and_a_new_one_started(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    make_cache(path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3])  # a copy or a disk that stopped part way
    caplog.set_level(logging.WARNING, logger="robotsrules")
    store = SQLiteStore(path)
    for i in range(60):  # the damage shows at opening or at the first read of a lost page
        store.get(f"https://h{i}.example")  # never raises
    assert store.problem is None
    assert store.quarantined is not None
    assert Path(store.quarantined).read_bytes() == data[:len(data) // 3]
    assert len(warnings_of(caplog)) == 1
    origin = "https://new.example"
    stored = entry(origin)
    assert store.put(origin, stored) == stored
    store.close()
    reopened = SQLiteStore(path)  # the new file persists
    assert reopened.get(origin) == stored and reopened.problem is None
    reopened.close()


def test_a_database_damaged_while_in_use_is_moved_aside(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    make_cache(path)
    store = SQLiteStore(path)  # opens fine: the first page is intact
    assert store.problem is None
    with open(path, "r+b") as handle:  # then pages holding rows are overwritten
        size = handle.seek(0, os.SEEK_END)
        handle.seek(4096 * 2)
        handle.write(os.urandom(size - 4096 * 2))
    caplog.set_level(logging.WARNING, logger="robotsrules")
    answers = [store.get(f"https://h{i}.example") for i in range(60)]  # never raises
    assert any(answer is None for answer in answers)
    assert store.quarantined is not None and Path(store.quarantined).exists()
    assert len(warnings_of(caplog)) == 1
    stored = entry("https://after.example")
    assert store.put("https://after.example", stored) == stored
    assert store.get("https://after.example") == stored
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_threads_finding_one_damaged_file_move_it_aside_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    make_cache(path, origins=200, pad=500)
    store = SQLiteStore(path)
    with open(path, "r+b") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(4096 * 2)
        handle.write(os.urandom(size - 4096 * 2))
    caplog.set_level(logging.WARNING, logger="robotsrules")
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def read(n: int) -> None:
        try:
            start.wait(HANG)
            for i in range(n, 200, 8):
                store.get(f"https://h{i}.example")
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    assert len(list(tmp_path.glob("cache.sqlite3.corrupt-*"))) in (1, 2)  # + its -wal
    assert len([p for p in tmp_path.glob("cache.sqlite3.corrupt-*")
                if not p.name.endswith(("-wal", "-shm"))]) == 1
    assert len(warnings_of(caplog)) == 1
    stored = entry("https://after.example")
    assert store.put("https://after.example", stored) == stored
    store.close()


def test_an_exclusively_locked_database_is_bypassed_within_the_open_time_out(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    make_cache(path, origins=3)
    caplog.set_level(logging.WARNING, logger="robotsrules")
    with Holder(path, "exclusive"):  # held until the store has given up: only its bound ends it
        store = finishes(lambda: SQLiteStore(path, open_timeout=0.5))
        assert store.problem is not None and "locked" in store.problem
        assert len(warnings_of(caplog)) == 1
        stored = entry("https://a.example")
        assert store.put("https://a.example", stored) == stored
        assert store.get("https://a.example") == stored
        store.close()
    store = SQLiteStore(path)  # the lock gone, the file is used again, untouched
    assert store.problem is None and len(store) == 3
    store.close()


def test_a_vanished_file_is_opened_again_at_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "dir" / "cache.sqlite3"
    store = SQLiteStore(path)
    store.put("https://a.example", entry("https://a.example"))
    shutil.rmtree(path.parent)  # a user cleaning their cache directory
    assert store.get("https://a.example") is not None or True  # no exception either way
    stored = entry("https://b.example")
    assert store.put("https://b.example", stored) == stored
    assert path.is_file()
    other = SQLiteStore(path)  # another process sees what was written after the deletion
    assert other.get("https://b.example") == stored
    other.close()
    store.close()


def _unprivileged() -> list[str]:
    """A command prefix that runs without the power to ignore file permissions."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only to us")
    caps = "-dac_override,-dac_read_search,-fowner"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}", "--"]


@pytest.mark.parametrize("where", ["read-only-file", "unwritable-directory"])
def test_cli_check_over_an_unwritable_cache(tmp_path: Path, server: RawHTTPServer,
                                            where: str) -> None:
    prefix = _unprivileged()
    cache_dir = tmp_path / "ro"
    cache_dir.mkdir()
    path = cache_dir / "cache.sqlite3"
    if where == "read-only-file":
        make_cache(path, origins=2)
        path.chmod(0o444)
    cache_dir.chmod(0o555)
    try:
        done = run(["check", "--agent", "FaultBot", "--cache", str(path),
                    server.url("/private/x"), server.url("/public")], prefix=prefix)
    finally:
        cache_dir.chmod(0o755)
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr  # /private/x disallowed: the crawl went on
    assert "disallowed" in done.stdout and "allowed" in done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and str(path) in lines[0], done.stderr


@pytest.mark.parametrize("name, make, where", [
    *BAD_FILES, ("truncated", lambda p: (make_cache(p), p.write_bytes(p.read_bytes()[:9000])),
                 "cache.sqlite3")], ids=[*(b[0] for b in BAD_FILES), "truncated"])
@pytest.mark.parametrize("how", ["--cache", "ROBOTSRULES_CACHE"])
def test_cli_check_goes_on_over_a_bad_cache(tmp_path: Path, server: RawHTTPServer,
                                            name: str, make: Callable[[Path], None],
                                            where: str, how: str) -> None:
    (tmp_path / "afile").write_bytes(b"not a directory")
    path = tmp_path / where
    make(path)
    args = ["check", "--agent", "FaultBot", server.url("/private/x")]
    if how == "--cache":
        done = run([*args[:1], "--cache", str(path), *args[1:]])
    else:
        done = run(args, env={"ROBOTSRULES_CACHE": str(path)})
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr  # disallowed, as the site says
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and str(path) in lines[0], done.stderr


def test_cli_check_goes_on_over_an_exclusively_locked_cache(
        tmp_path: Path, server: RawHTTPServer) -> None:
    path = tmp_path / "cache.sqlite3"
    make_cache(path, origins=2)
    with Holder(path, "exclusive"):  # held all along: only the open time-out (2 s) ends the wait
        done = run(["check", "--agent", "FaultBot", "--cache", str(path),
                    server.url("/public")])  # run's own time-out is the hang guard
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert len([line for line in done.stderr.splitlines() if line.strip()]) == 1


# -- finding 11: another process's write lock --------------------------------------------

def test_reads_do_not_queue_behind_a_write_waiting_for_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    # The write would wait ten minutes for the lock: the reads can only be answered while it
    # waits if they do not queue behind it.
    store = SQLiteStore(path, busy_timeout=5 * HANG)
    stored = entry("https://a.example")
    store.put("https://a.example", stored)
    waiting = threading.Event()  # the write holds the store's write lock and asks the file's
    store._writer.set_trace_callback(  # type: ignore[union-attr]
        lambda sql: waiting.set() if sql.startswith("BEGIN IMMEDIATE") else None)
    with Holder(path, "write"):
        writer = threading.Thread(
            target=store.put, args=("https://b.example", entry("https://b.example")),
            daemon=True)
        writer.start()
        assert waiting.wait(HANG), "the write never began"
        answers = finishes(lambda: [store.get("https://a.example") for _ in range(5)])
        assert answers == [stored] * 5
        assert writer.is_alive()  # the write was waiting all along
    writer.join(HANG)  # the other process let go: the write goes through
    assert not writer.is_alive()
    assert store.dropped_writes == 0 and store.get("https://b.example") is not None
    store.close()


def test_a_write_that_cannot_get_the_lock_is_dropped_and_counted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.3)
    caplog.set_level(logging.DEBUG, logger="robotsrules")
    with Holder(path, "write"):  # held all along: only busy_timeout can end each put
        for i in range(3):
            assert finishes(store.put, f"https://{i}.example",
                            entry(f"https://{i}.example")) is None
    assert store.dropped_writes == 3
    assert len(warnings_of(caplog)) == 1  # one warning, then debug messages
    stored = entry("https://later.example")
    assert store.put("https://later.example", stored) == stored  # the lock gone: written
    assert store.get("https://later.example") == stored and store.dropped_writes == 3
    store.close()


def test_one_bound_per_put_however_many_threads_write(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A put that waited for this process's other writer does not then wait the whole
    busy_timeout again for the file's lock: every put ends within one busy_timeout."""
    path = tmp_path / "cache.sqlite3"
    SQLiteStore(path).close()
    # The wait for another writer of this process is bounded: the test holds the store's
    # write lock (as a thread in the middle of a put does) until the put has given up.
    quick = SQLiteStore(path, busy_timeout=0.3)
    with quick._write_lock:
        assert finishes(quick.put, "https://a.example", entry("https://a.example")) is None
    assert quick.dropped_writes == 1
    quick.close()

    # What a put waited for the other writer is taken from what it may wait for the file:
    # the store's clock moves on by the whole busy_timeout (ten minutes) while the put waits
    # for the write lock, so nothing is left for the file's lock, held by another process;
    # the put is dropped at once (one bound per wait would wait ten more minutes).
    store = SQLiteStore(path, busy_timeout=5 * HANG)
    real, ahead = time.monotonic, [0.0]
    began = threading.Event()
    putter: list[threading.Thread] = []

    def clock() -> float:
        now = real() + ahead[0]
        if putter and threading.current_thread() is putter[0]:
            began.set()  # the put has read its start time
        return now

    monkeypatch.setattr(time, "monotonic", clock)
    results: list[Optional[Entry]] = []
    with Holder(path, "write"):
        with store._write_lock:
            putter.append(threading.Thread(target=lambda: results.append(store.put(
                "https://b.example", entry("https://b.example"))), daemon=True))
            putter[0].start()
            assert began.wait(HANG), "the put never began"
            ahead[0] += store.busy_timeout
        putter[0].join(HANG)
        assert not putter[0].is_alive(), "the put waited for the file's lock again"
    assert results == [None] and store.dropped_writes == 1
    store.close()


def test_a_crawl_over_a_write_locked_store_answers_promptly(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)
    caplog.set_level(logging.WARNING, logger="robotsrules")
    servers = [RawHTTPServer(respond(200, RULES)) for _ in range(4)]

    def crawl(cache: RobotsCache) -> list[bool]:
        return [cache.allowed(origin.url(path)) for origin in servers
                for path in ("/private/x", "/public")]  # the second one from memory

    try:
        with Holder(path, "write"):  # held all along: only busy_timeout ends each put
            cache = RobotsCache(store, user_agent=UA, timeout=HEALTHY)
            assert finishes(crawl, cache) == [False, True] * 4
        assert store.dropped_writes == 4 and cache.store_errors == 0
        assert all(origin.count() == 1 for origin in servers)
    finally:
        for origin in servers:
            origin.stop()
    store.close()


# -- finding 12: two processes racing a refresh ---------------------------------------------

# A crawler process: asks whether URL may be fetched, through a RobotsCache over the store
# named by its first argument ("sqlite:PATH" or "redis:URL").
CRAWLER = r"""
import sys
from robotsrules._fetch._robotscache import AsyncRobotsCache, RobotsCache
spec, url = sys.argv[1], sys.argv[2]
if spec.startswith("sqlite:"):
    from robotsrules.cache import SQLiteStore
    store = SQLiteStore(spec[len("sqlite:"):])
else:
    from robotsrules.cache.redis import RedisStore
    # No fleet lock: the race it prevents (issue 41) is the one under test here, as when
    # the lock fails or expires.
    store = RedisStore(url=spec[len("redis:"):], prefix="race:", fleet_lock=False)
with RobotsCache(store, user_agent="RaceBot/1.0", timeout=120) as cache:
    print(cache.lookup(url).result.outcome, cache.allowed(url), flush=True)
"""


def answers_in_turn(plan: list[tuple[threading.Event, int]]) -> Callable[[Exchange], None]:
    """The n-th request waits for the n-th event (a hang guard at most), then gets that
    status: the rules for a 200, "busy" for anything else."""
    lock = threading.Lock()
    seen = [0]

    def scenario(exchange: Exchange) -> None:
        with lock:
            turn = min(seen[0], len(plan) - 1)
            seen[0] += 1
        event, status = plan[turn]
        event.wait(HANG)
        respond(status, RULES if status == 200 else b"busy")(exchange)

    return scenario


def crawler(spec: str, url: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CRAWLER, spec, url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def race(spec: str, read: Callable[[str], Optional[Entry]], a_first: bool) -> None:
    """Process A reads no entry, fetches and gets a 503 after process B has stored a good
    copy; a third process must still be served the rules, and the store must still hold
    the good copy. ``a_first``: A's fetch began before B's (A's failure is older news than
    B's copy); else after (A's failure is the latest news, B's copy the last good one)."""
    release, now = threading.Event(), threading.Event()
    now.set()
    # A is held until B is done; B (when second) answers at once; (when first) waits
    # until A has asked, so that A has read the empty store before B writes.
    plan = [(release, 503), (now, 200)] if a_first else [(threading.Event(), 200),
                                                         (release, 503)]
    with RawHTTPServer(answers_in_turn(plan)) as origin:
        url = origin.url("/private/x")
        if a_first:
            slow = crawler(spec, url)
            wait_until(lambda: origin.count() == 1, "process A never asked")
            fast = crawler(spec, url)
        else:
            fast = crawler(spec, url)
            wait_until(lambda: origin.count() == 1, "process B never asked")
            slow = crawler(spec, url)
            wait_until(lambda: origin.count() == 2, "process A never asked")
            plan[0][0].set()  # now B gets its 200 and stores it
        out_b, err_b = fast.communicate(timeout=HANG)
        release.set()  # B has stored its good copy: now A's fetch fails
        out_a, err_a = slow.communicate(timeout=HANG)
        assert fast.returncode == 0 and slow.returncode == 0, err_a + err_b
        assert out_b.split() == ["ok", "False"]
        # A's own answer: its 503 merged with B's copy. Began first: older news than the
        # copy, which A adopts; began later: the latest news, with B's copy as the good one.
        assert out_a.split() == ["ok" if a_first else "unreachable", "False"], out_a
        stored = read(origin.origin)
        assert stored is not None and stored.good is not None
        assert stored.good.outcome == "ok"
        assert stored.latest.outcome == ("ok" if a_first else "unreachable")
        served = effective(stored, time.time())
        assert served.robots.allowed(origin.url("/public"), agent="RaceBot")
        third = crawler(spec, origin.url("/public"))  # the third process: served the copy
        out_c, err_c = third.communicate(timeout=HANG)
        assert out_c.split()[1:] == ["True"], out_c + err_c
        assert origin.count() == 2


@pytest.mark.parametrize("a_first", [True, False], ids=["a-began-first", "b-began-first"])
def test_two_processes_racing_a_refresh_keep_the_good_copy_sqlite(tmp_path: Path,
                                                                 a_first: bool) -> None:
    path = tmp_path / "race.sqlite3"

    def read(origin: str) -> Optional[Entry]:
        store = SQLiteStore(path)
        try:
            return store.get(origin)
        finally:
            store.close()

    race(f"sqlite:{path}", read, a_first)


@pytest.mark.parametrize("a_first", [True, False], ids=["a-began-first", "b-began-first"])
def test_two_processes_racing_a_refresh_keep_the_good_copy_redis(
        redis_url: str, a_first: bool) -> None:  # noqa: F811
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter("race:*"):
        client.delete(key)

    def read(origin: str) -> Optional[Entry]:
        return RedisStore(client, prefix="race:").get(origin)

    try:
        race(f"redis:{redis_url}", read, a_first)
    finally:
        client.close()


def test_an_older_failure_written_late_leaves_the_stored_entry_alone(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path)
    origin = "https://a.example"
    good = entry(origin, now=2_000.0)
    store.put(origin, good)
    late = Entry.first(fetch(origin, 503, b"", now=1_000.0))  # began before, ended after
    assert store.put(origin, late) == good
    assert store.get(origin) == good
    newer = Entry.first(fetch(origin, 503, b"", now=3_000.0))  # a newer failure: merged
    merged = store.put(origin, newer)
    assert merged is not None and merged.good == good.good
    assert merged.latest == newer.latest and merged.unreachable_since == 3_000.0
    assert store.get(origin) == merged
    store.close()


# -- finding 13: tampered rows ----------------------------------------------------------------

def _header_with(**changes: Any) -> bytes:
    data = encode(entry("https://t.example"))
    head, _, body = data.partition(b"\n")
    header = json.loads(head)
    for key, value in changes.items():
        header["latest"][key] = value
    return json.dumps(header).encode() + b"\n" + body


TAMPERED: list[tuple[str, Any]] = [
    ("text", "this is TEXT, not a BLOB"),
    ("integer", 10**18),  # bytes(10**18) would try to allocate an exabyte
    ("real", 1.5),
    ("nested", b'{"format":"robotsrules.entry","version":1,"latest":'
               + b"[" * 100_000 + b"]" * 100_000 + b"}\n"),
    ("huge-int", _header_with(size=0).replace(b'"size": 0', b'"size": ' + b"9" * 4000)),
    ("float-overflow", _header_with(fetched_at=0).replace(b'"fetched_at": 0',
                                                          b'"fetched_at": ' + b"9" * 400)),
    ("unknown-outcome", _header_with(outcome="great")),
    ("wrong-type", _header_with(redirects={"a": 1})),
]


@pytest.mark.parametrize("name, value", TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_tampered_row_is_a_miss_and_is_deleted(tmp_path: Path, name: str,
                                                 value: Any) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path)
    origin = "https://t.example"
    store.put(origin, entry(origin))
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE entries SET data = ? WHERE origin = ?", (value, origin))
    assert finishes(store.get, origin) is None  # no exabyte allocated, no deep recursion
    assert conn.execute("SELECT COUNT(*) FROM entries WHERE origin = ?",
                        (origin,)).fetchone() == (0,)
    conn.close()
    stored = entry(origin, now=5.0)
    assert store.put(origin, stored) == stored  # and a put over it works
    assert store.get(origin) == stored
    store.close()


@pytest.mark.parametrize("name, value", [t for t in TAMPERED if isinstance(t[1], bytes)],
                         ids=[t[0] for t in TAMPERED if isinstance(t[1], bytes)])
def test_a_tampered_redis_value_is_a_miss_and_is_deleted(
        redis_url: str, name: str, value: bytes) -> None:  # noqa: F811
    client = redis.Redis.from_url(redis_url)
    store = RedisStore(client, prefix="tamper:")
    client.set(store.key("https://t.example"), value)
    assert store.get("https://t.example") is None
    assert not client.exists(store.key("https://t.example"))
    client.close()


def test_cli_check_over_a_tampered_row(tmp_path: Path, server: RawHTTPServer) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path)
    store.put(server.origin, entry(server.origin))
    store.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE entries SET data = ?", (_header_with(outcome="great"),))
    conn.close()
    done = run(["check", "--agent", "FaultBot", "--cache", str(path), server.url("/private/x")])
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert done.returncode == 1
    assert server.count() == 1  # a miss: fetched again


# -- finding 14: Redis frozen or killed ---------------------------------------------------------

class RedisServer:
    """A redis-server of this test alone (it is stopped, frozen and killed)."""

    def __init__(self, workdir: Path, port: Optional[int] = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip(f"redis-server not found on PATH; {REDIS_HINT}")
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        probe = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + HANG
        try:
            while time.monotonic() < deadline:
                try:
                    if probe.ping():
                        return
                except (redis.ConnectionError, redis.TimeoutError):
                    time.sleep(0.05)
        finally:
            probe.close()
        self.stop()
        pytest.skip(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
        self.proc.wait(timeout=HANG)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def test_redis_store_makes_its_client_with_time_outs_and_no_retries(
        own_redis: RedisServer) -> None:
    store = RedisStore(url=own_redis.url)
    kwargs = store.client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 2.0 and kwargs["socket_connect_timeout"] == 2.0
    store.close()


PAUSED = "not retried yet"  # what the store raises while it leaves the server alone


def connections(url: str) -> int:
    """Connections the Redis server at ``url`` has accepted so far (this one included)."""
    probe = redis.Redis.from_url(url, socket_timeout=HANG)
    try:
        return int(probe.info("stats")["total_connections_received"])
    finally:
        probe.close()


def test_a_frozen_redis_costs_one_time_out_then_nothing(own_redis: RedisServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # The default time-outs (2 s); a pause after a failure longer than the test, then the
    # store's clock moved past it.
    store = RedisStore(url=own_redis.url, prefix="frozen:", retry_after=600.0)
    stored = entry("https://a.example")
    store.put("https://a.example", stored)
    before = connections(own_redis.url)
    os.kill(own_redis.proc.pid, signal.SIGSTOP)  # frozen until the test thaws it
    try:
        started = time.monotonic()
        with pytest.raises((redis.TimeoutError, redis.ConnectionError)) as first:
            finishes(store.get, "https://a.example")  # ended by the time-out, nothing else
        assert PAUSED not in str(first.value)
        assert time.monotonic() - started >= 1.9  # the 2 s time-out, not less
        for _ in range(20):  # within retry_after: no network at all
            with pytest.raises(redis.ConnectionError, match=PAUSED):
                store.get("https://a.example")
            with pytest.raises(redis.ConnectionError, match=PAUSED):
                store.put("https://a.example", stored)
    finally:
        os.kill(own_redis.proc.pid, signal.SIGCONT)
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + store.retry_after)
    assert store.get("https://a.example") == stored  # thawed, and past the pause: back
    # The server, thawed, counts the connections made while it was frozen (the kernel
    # queued them): none (one try on the open connection, no retries, nothing during the
    # pause), then the one that got the entry back, then this count's own.
    assert connections(own_redis.url) - before == 2
    store.close()


def test_every_call_to_a_frozen_redis_is_bounded(own_redis: RedisServer) -> None:
    store = RedisStore(url=own_redis.url, prefix="bound:", timeout=0.5, connect_timeout=0.5,
                       retry_after=0)
    stored = entry("https://a.example")
    store.put("https://a.example", stored)
    os.kill(own_redis.proc.pid, signal.SIGSTOP)
    try:
        fresh = RedisStore(url=own_redis.url, prefix="bound:", timeout=0.5,
                           connect_timeout=0.5)  # must open a new connection first
        calls: list[Callable[[], object]] = [
            lambda: store.put("https://a.example", stored),  # WATCH, GET, MULTI/EXEC
            lambda: store.get("https://a.example"),
            lambda: store.delete("https://a.example"),
            lambda: fresh.put("https://b.example", stored),
        ]
        for call in calls:  # frozen all along: only the store's time-outs end each call
            with pytest.raises((redis.TimeoutError, redis.ConnectionError)):
                finishes(call)
    finally:
        os.kill(own_redis.proc.pid, signal.SIGCONT)
    assert store.get("https://a.example") == stored
    store.close()
    fresh.close()


def test_a_crawl_over_a_frozen_redis_goes_on(own_redis: RedisServer,
                                             caplog: pytest.LogCaptureFixture) -> None:
    store = RedisStore(url=own_redis.url, prefix="crawl:", timeout=0.5,
                       connect_timeout=0.5, retry_after=600)
    origins = [RawHTTPServer(respond(200, RULES)) for _ in range(5)]
    caplog.set_level(logging.WARNING, logger="robotsrules")

    def crawl(cache: RobotsCache) -> list[bool]:
        return [cache.allowed(origin.url(path)) for origin in origins
                for path in ("/private/x", "/public")]

    before = connections(own_redis.url)
    os.kill(own_redis.proc.pid, signal.SIGSTOP)
    try:
        cache = RobotsCache(store, user_agent=UA, timeout=HEALTHY)
        assert finishes(crawl, cache) == [False, True] * 5
    finally:
        os.kill(own_redis.proc.pid, signal.SIGCONT)
        for origin in origins:
            origin.stop()
    assert cache.store_errors == 10  # a get and a put per origin, counted
    # One time-out, then the pause: of the ten calls, one reached the (frozen) server; the
    # thawed server counts that connection, then this count's own.
    assert connections(own_redis.url) - before == 2
    assert len(warnings_of(caplog)) == 1  # one warning for the outage, not ten
    store.close()


def test_a_killed_redis_fails_fast_and_comes_back(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    try:
        store = RedisStore(url=server.url, prefix="killed:", retry_after=0.2)
        stored = entry("https://a.example")
        store.put("https://a.example", stored)
        server.proc.kill()
        server.proc.wait(timeout=HANG)
        with pytest.raises(redis.ConnectionError) as refused:
            finishes(store.get, "https://a.example")
        assert PAUSED not in str(refused.value)  # tried, and refused (at once, by nature)
        assert not isinstance(refused.value, redis.TimeoutError)
        cache = RobotsCache(store, user_agent=UA, timeout=HEALTHY)
        with RawHTTPServer(respond(200, RULES)) as origin:
            assert cache.allowed(origin.url("/private/x")) is False
        assert cache.store_errors == 2
        server = RedisServer(tmp_path, port=server.port)  # restarted, empty
        time.sleep(0.3)  # past retry_after (0.2 s since the failure): sleeps never end early
        assert store.get("https://a.example") is None
        assert store.put("https://a.example", stored) == stored
        store.close()
    finally:
        server.stop()


def test_a_callers_client_without_a_socket_timeout_is_warned_about(
        own_redis: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="robotsrules")
    client = redis.Redis.from_url(own_redis.url, socket_timeout=None)
    RedisStore(client)
    assert any("socket_timeout" in message for message in warnings_of(caplog))
    caplog.clear()
    timed = redis.Redis.from_url(own_redis.url, socket_timeout=1)
    RedisStore(timed)
    assert warnings_of(caplog) == []
    client.close()
    timed.close()


def test_a_callers_client_keeps_its_own_time_out(own_redis: RedisServer) -> None:
    client = redis.Redis.from_url(own_redis.url, socket_timeout=0.3,
                                  socket_connect_timeout=0.3)
    store = RedisStore(client, prefix="lent:", retry_after=60)
    os.kill(own_redis.proc.pid, signal.SIGSTOP)
    try:
        # redis-py retries a time-out of a caller's client as that client says (by
        # default 3 more tries with a short back-off): each try is bounded by its 0.3 s,
        # and nothing else can end the call (the server is frozen until the test ends).
        with pytest.raises((redis.TimeoutError, redis.ConnectionError)):
            finishes(store.get, "https://a.example")
    finally:
        os.kill(own_redis.proc.pid, signal.SIGCONT)
    client.close()


# -- the checker over a store that loses writes ----------------------------------------------

def test_a_dropped_write_does_not_lose_the_good_copy(tmp_path: Path) -> None:
    """The store missed the write (locked); when the site later fails, the checker still
    serves the good copy it fetched, not "unreachable, disallow all"."""
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)
    clock = [1_700_000_000.0]
    with RawHTTPServer(respond(200, RULES)) as origin, Holder(path, "write"):
        cache = RobotsCache(store, user_agent=UA, timeout=HEALTHY, clock=lambda: clock[0])
        assert cache.allowed(origin.url("/public")) is True
        assert store.dropped_writes == 1
        clock[0] += 2 * 86_400  # expired: refreshed, and the site now fails
        origin.handler = respond(503, b"busy")
        served = cache.lookup(origin.url("/public"))
        assert served.reason == "last-good-copy"
        assert cache.allowed(origin.url("/public")) is True
        assert cache.allowed(origin.url("/private/x")) is False
        assert origin.count() == 2
    store.close()


def test_an_older_stored_entry_does_not_replace_a_newer_one_in_memory(tmp_path: Path) -> None:
    """The store kept an older copy (the newer write was dropped); when the site later
    fails, the checker serves the newer copy it remembers, not the store's older one."""
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)
    clock = [1_700_000_000.0]
    old_rules, new_rules = b"User-agent: *\nDisallow: /old\n", b"User-agent: *\nDisallow: /new\n"
    with RawHTTPServer(respond(200, old_rules)) as origin:
        cache = RobotsCache(store, user_agent=UA, timeout=HEALTHY, clock=lambda: clock[0])
        assert cache.allowed(origin.url("/old")) is False  # stored
        clock[0] += 2 * 86_400
        origin.handler = respond(200, new_rules)
        with Holder(path, "write"):
            assert cache.allowed(origin.url("/new")) is False  # fetched, write dropped
        assert store.dropped_writes == 1
        clock[0] += 2 * 86_400
        origin.handler = respond(503, b"busy")
        served = cache.lookup(origin.url("/x"))
        assert served.reason == "last-good-copy"
        assert cache.allowed(origin.url("/old")) is True  # the newer copy's rules
        assert cache.allowed(origin.url("/new")) is False
        assert origin.count() == 3
    store.close()


def test_the_async_checker_over_a_write_locked_store(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.2)

    async def crawl(origins: list[RawHTTPServer]) -> list[bool]:
        cache = AsyncRobotsCache(store, user_agent=UA, timeout=HEALTHY)
        return list(await asyncio.gather(
            *(cache.allowed(origin.url(p)) for origin in origins
              for p in ("/private/x", "/public"))))

    origins = [RawHTTPServer(respond(200, RULES)) for _ in range(3)]
    try:
        with Holder(path, "write"):  # held all along: only busy_timeout ends each put
            answers = finishes(lambda: asyncio.run(crawl(origins)))
        assert answers == [False, True] * 3
        assert store.dropped_writes == 3
    finally:
        for origin in origins:
            origin.stop()
    store.close()
