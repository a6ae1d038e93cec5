"""Stores written before issue 34 §5 (FetchResult without its body, parsed when fetched and
when read) stay readable: a SQLite file, a Redis server's keys and values, and the codec's
bytes, all written by that robotsrules (``tests/fetch/data/stored-v1/make.py``), are read
by this one into the same entries, rules, verdicts, TDMRep files and licence documents."""

from __future__ import annotations

import base64
import importlib.util
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import redis

from robotsrules.cache import SQLiteStore
from robotsrules.cache.codec import decode
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import Entry
from tests.network.test_stores import redis_url  # noqa: F401 - a real redis-server

DATA = Path(__file__).resolve().parent.parent / "fetch" / "data" / "stored-v1"


def _maker() -> ModuleType:
    """The script that wrote the fixtures: its ``expected`` is the view compared."""
    spec = importlib.util.spec_from_file_location("stored_v1_make", DATA / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _maker()
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text())


def _check(key: str, entry: Any) -> None:
    assert isinstance(entry, Entry), key
    # Through JSON, as the expected view was written (tuples become lists).
    seen = json.loads(json.dumps(MAKER.expected(key, entry)))
    assert seen == EXPECTED[key], key


def test_the_fixtures_cover_every_kind_of_entry() -> None:
    reasons = {EXPECTED[key][moment]["reason"] for key in EXPECTED for moment in ("now", "stale")}
    assert reasons == {"fresh", "stale", "last-good-copy", "unreachable", "30-days"}
    assert any(key.startswith("rsl:") for key in EXPECTED)
    assert any(key.endswith("/.well-known/tdmrep.json") for key in EXPECTED)
    modes = {EXPECTED[key]["latest"]["robots"]["mode"] for key in EXPECTED}
    assert modes == {"google", "legacy"}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_codec_bytes_written_before_read_the_same(key: str) -> None:
    data = base64.b64decode(json.loads((DATA / "codec.json").read_text())[key])
    _check(key, decode(data))


def test_sqlite_file_written_before_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "entries.sqlite3"
    shutil.copyfile(DATA / "entries.sqlite3", path)
    store = SQLiteStore(path)
    try:
        for key in EXPECTED:
            _check(key, store.get(key))
    finally:
        store.close()


@pytest.fixture
def loaded(redis_url: str) -> Iterator[redis.Redis]:  # noqa: F811
    client = redis.Redis.from_url(redis_url, socket_timeout=2)
    client.flushdb()
    for name, value in json.loads((DATA / "redis.json").read_text()).items():
        client.set(name, base64.b64decode(value))
    yield client
    client.flushdb()
    client.close()


def test_redis_keys_written_before_read_the_same(loaded: redis.Redis) -> None:
    store = RedisStore(loaded)
    for key in EXPECTED:
        _check(key, store.get(key))


def test_a_checker_finds_every_kind_of_entry_under_its_old_name(tmp_path: Path) -> None:
    """The typed keys of RobotsCache name the entries as the string keys did: every answer
    comes from the store written before, and nothing is fetched."""
    from robotsrules import RobotsCache

    path = tmp_path / "entries.sqlite3"
    shutil.copyfile(DATA / "entries.sqlite3", path)
    with RobotsCache(SQLiteStore(path), user_agent="ExampleBot/1.0",
                     clock=lambda: MAKER.NOW) as cache:
        assert not cache.allowed("https://b.test/private/p")
        assert cache.lookup("https://a.test/").reason == "last-good-copy"
        assert not cache.allowed("https://d.test/")
        assert cache.tdmrep("https://a.test/private/p").reservation(
            "https://a.test/private/p") == 1
        assert cache.tdmrep("https://c.test/").state == "absent"
        document = cache.license_document("https://l.test/terms.xml", origin="https://a.test")
        assert document.state == "ok"
        assert document.license_for("https://a.test/x").status("search") == "permitted"
        assert cache.license_document("https://l.test/down.xml").state == "unreachable"
        assert cache.fetches == 0
