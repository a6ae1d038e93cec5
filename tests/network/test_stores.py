"""The cache stores against real back ends: one behaviour suite run over MemoryStore,
SQLiteStore (a file in tmp_path) and RedisStore (a real redis-server on loopback), then what
is particular to each: LRU eviction, pruning, key TTLs, several processes sharing one SQLite
file, and a writer killed with SIGKILL.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Callable, Optional

import pytest
import redis

from robotsrules.cache import MemoryStore, SQLiteStore, Store, default_cache_path
from robotsrules.cache.codec import decode, encode
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import DAY, Answer, Entry, FetchResult, fetch_flow
from tests.timing import HANG

REDIS_HINT = ("the Redis tests need a real redis-server: install it with "
              "`apt-get install redis-server` (scripts/test.sh does this when run as root)")


def fetch(origin: str, status: Optional[int] = 200, body: Optional[bytes] = None, *,
          now: float = 1_000.0) -> FetchResult:
    """A FetchResult made by the real policy from a canned answer."""
    flow = fetch_flow(origin + "/robots.txt", now)
    next(flow)
    if body is None:
        body = f"User-agent: *\nDisallow: /private\n# {origin}\n".encode()
    error = "connection refused" if status is None else None
    try:
        flow.send(Answer(status=status, body=body, error=error))
    except StopIteration as stop:
        result: FetchResult = stop.value
        return result
    raise AssertionError("unexpected redirect")


def entry(origin: str, **kwargs: object) -> Entry:
    return Entry.first(fetch(origin, **kwargs))  # type: ignore[arg-type]


# -- the back ends -------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server on a free loopback port for the whole session; no persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip(f"redis-server not found on PATH; {REDIS_HINT}")
    workdir = tmp_path_factory.mktemp("redis")
    log = workdir / "redis.log"
    for _attempt in range(3):  # the free port may be taken before the server binds it
        port = free_port()
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(workdir)],
                stdout=out, stderr=subprocess.STDOUT)
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(url, socket_timeout=1)
        try:
            deadline = time.monotonic() + HANG
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    if client.ping():
                        break
                except (redis.ConnectionError, redis.TimeoutError):
                    time.sleep(0.05)
            else:
                continue  # exited or never answered: try another port
            yield url
            return
        finally:
            client.close()
            proc.kill()
            proc.wait()
    pytest.skip(f"redis-server did not start: {log.read_text(errors='replace')[-400:]!r}; "
                f"{REDIS_HINT}")


@dataclasses.dataclass
class Case:
    """A store under test, and how to write raw bytes behind its back and see whether an
    origin has a row or key (None: it keeps no bytes)."""

    store: Store
    write_raw: Optional[Callable[[str, bytes], None]] = None
    has_raw: Optional[Callable[[str], bool]] = None


@pytest.fixture(params=["memory", "sqlite", "redis"])
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Case]:
    if request.param == "memory":
        store: Store = MemoryStore()
        yield Case(store)
    elif request.param == "sqlite":
        path = tmp_path / "robots.sqlite3"
        sqlite_store = SQLiteStore(path)

        def write_sqlite(origin: str, data: bytes) -> None:
            with sqlite3.connect(path) as other:  # another connection: a real second writer
                other.execute("UPDATE entries SET data = ? WHERE origin = ?", (data, origin))
            other.close()

        def has_sqlite(origin: str) -> bool:
            with sqlite3.connect(path) as other:
                rows = other.execute("SELECT 1 FROM entries WHERE origin = ?", (origin,))
                found = rows.fetchone() is not None
            other.close()
            return found

        yield Case(sqlite_store, write_sqlite, has_sqlite)
        sqlite_store.close()
    else:
        client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
        client.flushdb()
        redis_store = RedisStore(client, prefix=f"test-{uuid.uuid4().hex}:")

        def write_redis(origin: str, data: bytes) -> None:
            client.set(redis_store.key(origin), data)

        def has_redis(origin: str) -> bool:
            return bool(client.exists(redis_store.key(origin)))

        yield Case(redis_store, write_redis, has_redis)
        redis_store.close()
        client.close()


# -- the behaviour every store shares ------------------------------------------------------

def test_is_a_store(case: Case) -> None:
    assert isinstance(case.store, Store)


def test_miss_is_none(case: Case) -> None:
    assert case.store.get("https://nowhere.example") is None


def test_put_then_get_gives_an_equal_entry(case: Case) -> None:
    origin = "https://example.com"
    stored = entry(origin)
    case.store.put(origin, stored)
    got = case.store.get(origin)
    assert got == stored
    assert got is not None and got.latest.robots == stored.latest.robots
    assert not got.latest.robots.allowed(origin + "/private/x", agent="Bot")


def test_entries_with_a_good_copy_and_an_outage_survive(case: Case) -> None:
    origin = "http://example.org:8080"
    stored = Entry.first(fetch(origin, now=10.0)).after(fetch(origin, 503, b"", now=90_000.0))
    assert stored.good is not None and stored.unreachable_since == 90_000.0
    case.store.put(origin, stored)
    assert case.store.get(origin) == stored
    unavailable = entry(origin, status=404, body=b"\xff\xfe not here", now=100_000.0)
    case.store.put(origin, unavailable)  # newer, and not a failure: it replaces all
    assert case.store.get(origin) == unavailable


def test_put_overwrites(case: Case) -> None:
    origin = "https://example.com"
    first, second = entry(origin, now=1.0), entry(origin, body=b"User-agent: *\nAllow: /\n",
                                                  now=2.0)
    case.store.put(origin, first)
    case.store.put(origin, second)
    assert case.store.get(origin) == second


def test_origins_are_kept_apart(case: Case) -> None:
    origins = ["https://a.example", "http://a.example", "https://a.example:8443",
               "https://b.example", "https://xn--caf-dma.example"]
    for origin in origins:
        case.store.put(origin, entry(origin))
    for origin in origins:
        got = case.store.get(origin)
        assert got is not None and got.latest.url == origin + "/robots.txt"


def test_delete(case: Case) -> None:
    origin = "https://example.com"
    case.store.put(origin, entry(origin))
    case.store.put("https://other.example", entry("https://other.example"))
    case.store.delete(origin)
    assert case.store.get(origin) is None
    assert case.store.get("https://other.example") is not None
    case.store.delete(origin)  # absent: no error
    case.store.delete("https://never.example")


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x80\x04\x95pickle",
                                    b'{"format":"robotsrules.entry","version":99}\n'])
def test_undecodable_data_is_a_miss_and_is_deleted(case: Case, damage: bytes) -> None:
    if case.write_raw is None or case.has_raw is None:
        pytest.skip("MemoryStore keeps objects, not bytes")
    origin = "https://example.com"
    case.store.put(origin, entry(origin))
    case.store.put("https://other.example", entry("https://other.example"))
    case.write_raw(origin, damage)
    assert case.has_raw(origin)
    assert case.store.get(origin) is None
    assert not case.has_raw(origin)
    assert case.store.get("https://other.example") is not None
    case.write_raw("https://other.example", encode(entry("https://other.example", now=7.0)))
    got = case.store.get("https://other.example")  # bytes written by another client decode
    assert got is not None and got.latest.fetched_at == 7.0


def test_threads_share_one_store(case: Case) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(25):
                origin = f"https://t{n}-{i}.example"
                case.store.put(origin, entry(origin))
                got = case.store.get(origin)
                assert got is not None and got.latest.url == origin + "/robots.txt"
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for n in range(8):
        for i in range(25):
            assert case.store.get(f"https://t{n}-{i}.example") is not None


# -- MemoryStore ---------------------------------------------------------------------------

def test_memory_evicts_the_least_recently_used() -> None:
    store = MemoryStore(max_entries=2)
    a, b, c = "https://a.example", "https://b.example", "https://c.example"
    store.put(a, entry(a))
    store.put(b, entry(b))
    assert store.get(a) is not None  # a is now the most recently used
    store.put(c, entry(c))
    assert store.get(b) is None
    assert store.get(a) is not None and store.get(c) is not None
    assert len(store) == 2
    store.put(a, entry(a, now=5.0))  # an overwrite counts as a use and does not grow
    store.put(b, entry(b))
    assert store.get(c) is None and len(store) == 2


def test_memory_bound_must_be_a_positive_int() -> None:
    with pytest.raises(ValueError):
        MemoryStore(max_entries=0)
    with pytest.raises(TypeError):
        MemoryStore(max_entries=2.5)  # type: ignore[arg-type]


def test_memory_keeps_the_object_and_close_empties_it() -> None:
    store = MemoryStore()
    stored = entry("https://a.example")
    store.put("https://a.example", stored)
    assert store.get("https://a.example") is stored
    store.close()
    assert len(store) == 0


# -- SQLiteStore ---------------------------------------------------------------------------

def test_sqlite_persists_creates_directories_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "cache.sqlite3"
    store = SQLiteStore(path)
    stored = entry("https://a.example")
    store.put("https://a.example", stored)
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        store.get("https://a.example")
    reopened = SQLiteStore(str(path))
    assert reopened.get("https://a.example") == stored
    reopened.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [row[1] for row in conn.execute("PRAGMA table_info(entries)")]
    assert columns == ["origin", "data", "expires_at", "updated_at"]
    (data, expires_at, updated_at), = conn.execute(
        "SELECT data, expires_at, updated_at FROM entries")
    conn.close()
    assert decode(data) == stored
    assert expires_at == stored.latest.expires_at
    assert abs(updated_at - time.time()) < 60


def test_sqlite_prunes_what_expired_more_than_30_days_ago(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "c.sqlite3")
    now = 100 * DAY

    def expiring(origin: str, expires_at: float) -> Entry:
        return Entry.first(dataclasses.replace(fetch(origin), expires_at=expires_at))

    store.put("https://old.example", expiring("https://old.example", now - 31 * DAY))
    store.put("https://recent.example", expiring("https://recent.example", now - 29 * DAY))
    store.put("https://fresh.example", expiring("https://fresh.example", now + DAY))
    # An outage is judged by its latest result: retried recently, it is kept.
    outage = Entry.first(dataclasses.replace(fetch("https://down.example"),
                                             expires_at=now - 40 * DAY))
    outage = outage.after(dataclasses.replace(fetch("https://down.example", 503),
                                              expires_at=now - 10 * DAY))
    store.put("https://down.example", outage)
    assert store.prune(now) == 1
    assert store.get("https://old.example") is None
    for kept in ("recent", "fresh", "down"):
        assert store.get(f"https://{kept}.example") is not None
    assert store.prune(now) == 0
    assert len(store) == 3
    store.close()


def test_sqlite_default_path_follows_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTSRULES_CACHE", str(tmp_path / "env" / "here.db"))
    assert default_cache_path() == tmp_path / "env" / "here.db"
    store = SQLiteStore()
    store.put("https://a.example", entry("https://a.example"))
    store.close()
    assert (tmp_path / "env" / "here.db").is_file()


def test_default_cache_path_per_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROBOTSRULES_CACHE", raising=False)
    monkeypatch.setenv("HOME", "/home/u")
    monkeypatch.setenv("USERPROFILE", "/home/u")
    tail = Path("robotsrules", "robots.sqlite3")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert default_cache_path() == Path("/xdg") / tail
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert default_cache_path() == Path("/home/u/.cache") / tail
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_path() == Path("/home/u/.cache") / tail
    monkeypatch.setattr(sys, "platform", "darwin")
    assert default_cache_path() == Path("/home/u/Library/Caches") / tail
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", "/appdata/local")
    assert default_cache_path() == Path("/appdata/local") / tail
    monkeypatch.setenv("ROBOTSRULES_CACHE", "/custom/file.db")
    assert default_cache_path() == Path("/custom/file.db")


# A writer process: opens the store, says "ready", waits for a line on stdin, then puts
# COUNT origins (or without end: "forever"; or until a file exists: "until:PATH"), printing
# each origin once its put returned.
WRITER = r"""
import itertools, os, sys
from robotsrules.cache.sqlite import SQLiteStore
from robotsrules.policy import Answer, Entry, fetch_flow

path, name, count, pad = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# These tests are about integrity, not time bounds: wait for the lock rather than drop.
# Time-outs far past any healthy wait: under load, opening the file (the schema and WAL set-up
# that four writers race for) may wait longer than the 2 s default, which is not what is tested.
store = SQLiteStore(path, busy_timeout=120, open_timeout=120, read_timeout=120)
print("ready", flush=True)
sys.stdin.readline()
until = count[len("until:"):] if count.startswith("until:") else None
numbers = itertools.count() if count == "forever" or until else range(int(count))
for i in numbers:
    if until and os.path.exists(until):
        break
    origin = f"https://{name}-{i}.example"
    flow = fetch_flow(origin + "/robots.txt", 1000.0 + i)
    next(flow)
    body = f"User-agent: *\nDisallow: /{name}/{i}\n# {'x' * pad}\n".encode()
    try:
        flow.send(Answer(status=200, body=body))
    except StopIteration as stop:
        assert store.put(origin, Entry.first(stop.value)) is not None
    print(origin, flush=True)
    if i % 10 == 0:
        assert store.get(origin) is not None
store.close()
"""


def start_writer(path: Path, name: str, count: str, pad: int = 200) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, count, str(pad)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc


def wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "ready\n", f"writer failed to start (exit {proc.poll()})"


def check_entry(store: SQLiteStore, origin: str) -> None:
    got = store.get(origin)
    assert got is not None, origin
    assert got.latest.url == origin + "/robots.txt"
    name, _, number = origin[len("https://"):-len(".example")].rpartition("-")
    assert not got.latest.robots.allowed(f"/{name}/{number}", agent="Bot")


def test_sqlite_four_processes_write_one_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"  # not created yet: the writers race to set it up too
    writers = [start_writer(path, f"w{n}", "200") for n in range(4)]
    try:
        for proc in writers:
            wait_ready(proc)
        for proc in writers:  # all four start writing together
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in writers:
            out, _ = proc.communicate(timeout=HANG)
            assert proc.returncode == 0
            assert len(out.splitlines()) == 200
    finally:
        for proc in writers:
            if proc.poll() is None:  # pragma: no cover - only after a failure
                proc.kill()
                proc.wait()
    store = SQLiteStore(path)
    assert len(store) == 800
    for n in range(4):
        for i in range(200):
            check_entry(store, f"https://w{n}-{i}.example")
    store.close()


def test_sqlite_survives_a_writer_killed_mid_stream(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite3"
    proc = start_writer(path, "k", "forever", pad=60_000)  # big rows: long writes
    assert proc.stdout is not None and proc.stdin is not None
    try:
        wait_ready(proc)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        committed = [proc.stdout.readline().strip() for _ in range(150)]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:  # pragma: no cover - only after a failure
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    committed += [line.strip() for line in proc.stdout if line.strip()]
    proc.stdout.close()
    proc.stdin.close()

    # The killed writer left its write-ahead log behind: opening the file recovers from it.
    assert Path(f"{path}-wal").stat().st_size > 0
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    rows = conn.execute("SELECT origin, data FROM entries").fetchall()
    conn.close()
    assert len(rows) >= len(committed)
    for _origin, data in rows:
        decode(data)  # every row there is whole
    store = SQLiteStore(path)
    for origin in committed:  # every put that returned is there
        check_entry(store, origin)

    after = start_writer(path, "after", "20")  # a new process can write and read
    wait_ready(after)
    out, _ = after.communicate("go\n", timeout=HANG)
    assert after.returncode == 0 and len(out.splitlines()) == 20
    for i in range(20):
        check_entry(store, f"https://after-{i}.example")
    store.close()


def test_sqlite_four_writers_one_killed_mid_write_loses_nothing(tmp_path: Path) -> None:
    """Four processes write one file at once; one is killed with SIGKILL while all four are
    writing (the survivors write until told to stop, after the kill). The file passes
    SQLite's integrity check, every put that returned in any process is there and whole,
    and the three survivors finish all their writes."""
    path = tmp_path / "four-one-killed.sqlite3"
    stop = tmp_path / "stop"  # the survivors write until it exists: still writing at the kill
    survivors = [start_writer(path, f"s{n}", f"until:{stop}") for n in range(3)]
    victim = start_writer(path, "v", "forever", pad=60_000)  # big rows: long writes
    procs = [*survivors, victim]
    assert victim.stdout is not None
    try:
        for proc in procs:
            wait_ready(proc)
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        committed = [victim.stdout.readline().strip() for _ in range(40)]
        still_writing = [proc.poll() is None for proc in survivors]
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=HANG)
        stop.touch()
        outs = [proc.communicate(timeout=HANG)[0] for proc in survivors]
    finally:
        for proc in procs:
            if proc.poll() is None:  # pragma: no cover - only after a failure
                proc.kill()
                proc.wait()
    assert victim.returncode == -signal.SIGKILL
    assert all(still_writing), "a survivor had stopped before the kill"
    committed += [line.strip() for line in victim.stdout if line.strip()]
    written = []  # every put that returned in a survivor
    for n, (proc, out) in enumerate(zip(survivors, outs)):
        assert proc.returncode == 0
        lines = out.split()
        assert lines == [f"https://s{n}-{i}.example" for i in range(len(lines))]
        written += lines
    for proc in procs:
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()

    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    rows = conn.execute("SELECT origin, data FROM entries").fetchall()
    conn.close()
    for _origin, data in rows:
        decode(data)  # every row there is whole
    origins = {origin for origin, _ in rows}
    assert len(rows) == len(origins) >= len(written) + len(committed)
    store = SQLiteStore(path)
    for origin in written:
        check_entry(store, origin)
    for origin in committed:  # every put of the killed writer that returned is there
        check_entry(store, origin)
    assert len(store) == len(rows)
    store.close()


# -- RedisStore ----------------------------------------------------------------------------

@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.close()


def test_redis_keys_values_and_ttls(redis_client: redis.Redis) -> None:
    now = 1_000_000.0
    store = RedisStore(redis_client, prefix="rr:", ttl_grace=30 * DAY, clock=lambda: now)
    origin = "https://example.com"
    fresh = Entry.first(dataclasses.replace(fetch(origin), expires_at=now + 3600))
    store.put(origin, fresh)
    assert store.key(origin) == "rr:https://example.com"
    raw = redis_client.get("rr:https://example.com")
    assert isinstance(raw, bytes) and raw.startswith(b'{"format":"robotsrules.entry"')
    assert decode(raw) == fresh
    ttl = redis_client.ttl("rr:https://example.com")
    assert 30 * DAY + 3600 - 5 <= ttl <= 30 * DAY + 3600
    # Expired long ago: the key still lives for the grace, so the good copy outlives it.
    stale = Entry.first(dataclasses.replace(fetch(origin), expires_at=now - 10 * DAY))
    store.put(origin, stale)
    assert 30 * DAY - 5 <= redis_client.ttl("rr:https://example.com") <= 30 * DAY
    short = RedisStore(redis_client, prefix="rr:", ttl_grace=0, clock=lambda: now)
    short.put(origin, stale)
    assert 0 < redis_client.ttl("rr:https://example.com") <= 1
    with pytest.raises(ValueError):
        RedisStore(redis_client, ttl_grace=-1)


def test_redis_store_closes_only_its_own_client(redis_url: str,
                                                redis_client: redis.Redis) -> None:
    own = RedisStore(url=redis_url)
    own.put("https://a.example", entry("https://a.example"))
    assert own.get("https://a.example") is not None
    own.close()
    lent = RedisStore(redis_client, prefix="robotsrules:")
    assert lent.get("https://a.example") is not None  # same default prefix, same server
    lent.close()
    assert redis_client.ping()


def test_redis_is_an_optional_extra() -> None:
    script = ("import sys; sys.modules['redis'] = None\n"
              "import robotsrules.cache as cache\n"
              "assert not hasattr(cache, 'RedisStore') and 'RedisStore' not in cache.__all__\n"
              "import robotsrules.cache.redis\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=HANG, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 1
    assert "MissingExtra" in done.stderr  # an ImportError that names the extra
    assert "pip install 'robotsrules[redis]'" in done.stderr
