"""Writes the stored-format fixtures of tests/network/test_stored_format.py.

Run once, with the robotsrules of before issue 34 §5 (FetchResult without its body), from
the repository root: ``python tests/fetch/data/stored-v1/make.py``. It needs a
redis-server on PATH. It writes, beside itself:

* ``entries.sqlite3``: a SQLiteStore file holding every entry of :func:`entries`;
* ``redis.json``: the keys and values a RedisStore wrote for them into a real redis-server
  (base64), to be loaded into another server with SET;
* ``codec.json``: the codec's bytes of each entry (base64);
* ``expected.json``: what that robotsrules read back from each: every field, the rules'
  source, flags and a few verdicts, and what the TDMRep and RSL readers made of it.

The entries are made by the real fetch policy from canned answers: robots.txt files (ok,
cut at the size limit, 404, 503 with and without a good copy), a legacy-mode file (built by
hand, as a caller of the library may), a tdmrep.json and an RSL licence document, under the
keys the cache used for them (an origin, origin + TDMREP_PATH, "rsl:" + URL).
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

import redis

from robotsrules._page import tdmrep_from
from robotsrules._rsl import license_from
from robotsrules.cache import SQLiteStore
from robotsrules.cache.codec import encode
from robotsrules.cache.redis import RedisStore
from robotsrules.policy import Answer, Entry, FetchResult, Policy, effective, fetch_flow
from robotsrules.robotstxt import parse

HERE = Path(__file__).resolve().parent
NOW = 4_000_000_000.0  # 2096: nothing expires before the test reads it
LICENSE = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
           b'<license><permits type="usage">search</permits></license></content></rsl>')
TDMREP = b'[{"location": "/private/*", "tdm-reservation": 1}, {"location": "/", ' \
         b'"tdm-reservation": 0}]'


def result(url: str, status: Optional[int], body: bytes = b"", *, at: float = NOW,
           policy: Optional[Policy] = None, truncated: bool = False) -> FetchResult:
    flow = fetch_flow(url, at, policy or Policy())
    next(flow)
    error = "connection refused" if status is None else None
    try:
        flow.send(Answer(status=status, body=body, error=error, truncated=truncated,
                         headers={"cache-control": "max-age=3600"}))
    except StopIteration as stop:
        value: FetchResult = stop.value
        return value
    raise AssertionError("a redirect")


def entries() -> dict[str, Entry]:
    robots = b"User-agent: *\nDisallow: /private\nLicense: https://l.test/terms.xml\n"
    good = result("https://a.test/robots.txt", 200, robots, at=NOW - 7200)
    legacy = result("https://e.test/robots.txt", 200, b"User-agent: *\nDisallow: /x\n")
    legacy = FetchResult(
        url=legacy.url, robots=parse(b"User-agent: *\nDisallow: /x\n", mode="legacy"),
        outcome=legacy.outcome, status=legacy.status, final_url=legacy.final_url,
        redirects=legacy.redirects, fetched_at=legacy.fetched_at,
        expires_at=legacy.expires_at, error=legacy.error, size=legacy.size,
        truncated=legacy.truncated)
    return {
        "https://a.test": Entry.first(good).after(
            result("https://a.test/robots.txt", 503, b"down")),
        "https://b.test": Entry.first(result("https://b.test/robots.txt", 200, robots)),
        "https://c.test": Entry.first(result("https://c.test/robots.txt", 404, b"no")),
        "https://d.test": Entry.first(result("https://d.test/robots.txt", None)),
        "https://e.test": Entry.first(legacy),
        "https://f.test": Entry.first(result(  # cut by parse: a longer body than the limit
            "https://f.test/robots.txt", 200, b"User-agent: *\nDisallow: /a\nDisallow: /b\n",
            policy=Policy(max_bytes=30))),
        "https://g.test": Entry.first(result(  # cut by the fetcher (truncated answer)
            "https://g.test/robots.txt", 200, b"User-agent: *\nDisallow: /g", truncated=True)),
        "https://a.test/.well-known/tdmrep.json": Entry.first(
            result("https://a.test/.well-known/tdmrep.json", 200, TDMREP)),
        "https://c.test/.well-known/tdmrep.json": Entry.first(
            result("https://c.test/.well-known/tdmrep.json", 404, b"")),
        "rsl:https://l.test/terms.xml": Entry.first(
            result("https://l.test/terms.xml", 200, LICENSE)),
        "rsl:https://l.test/down.xml": Entry.first(
            result("https://l.test/down.xml", None)),
    }


def fields(found: Optional[FetchResult]) -> Any:
    if found is None:
        return None
    robots = found.robots
    return {
        "url": found.url, "outcome": found.outcome, "status": found.status,
        "final_url": found.final_url, "redirects": list(found.redirects),
        "fetched_at": found.fetched_at, "expires_at": found.expires_at,
        "error": found.error, "size": found.size, "truncated": found.truncated,
        "robots": {"source": base64.b64encode(robots.source).decode("ascii"),
                   "truncated": robots.truncated, "synthetic": robots.synthetic,
                   "mode": robots.mode},
    }


def expected(key: str, entry: Entry) -> dict[str, Any]:
    """What this robotsrules reads from ``entry``: its fields, and for every moment a
    reader of the cache serves it, the verdicts and what each reader makes of it."""
    out: dict[str, Any] = {"unreachable_since": entry.unreachable_since,
                           "latest": fields(entry.latest), "good": fields(entry.good)}
    for moment, at in (("now", NOW), ("stale", NOW + 40 * 86_400.0)):
        served = effective(entry, at)
        seen: dict[str, Any] = {"reason": served.reason}
        if key.startswith("rsl:"):
            document = license_from(served, key[4:], origin="https://a.test")
            seen["license"] = [document.state, document.error,
                               document.license_for("https://a.test/x").status("search")
                               if document.valid else None]
        elif key.endswith("/.well-known/tdmrep.json"):
            tdm = tdmrep_from(served)
            seen["tdmrep"] = [tdm.state, tdm.reservation("https://a.test/private/p"),
                              tdm.reservation("https://a.test/open")]
        else:
            seen["allowed"] = [served.robots.allowed(key + path, agent="ExampleBot")
                               for path in ("/", "/private/p", "/x", "/a", "/b", "/g")]
        out[moment] = seen
    return out


def redis_values(made: dict[str, Entry]) -> dict[str, str]:
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is needed")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                 "--save", "", "--appendonly", "no", "--dir", workdir],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=2)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            store = RedisStore(client)
            for key, entry in made.items():
                store.put(key, entry)
            values = {name.decode(): base64.b64encode(client.get(name)).decode("ascii")
                      for name in sorted(client.keys("*"))}
            client.close()
            return values
        finally:
            proc.kill()
            proc.wait()


def main() -> None:
    made = entries()
    database = HERE / "entries.sqlite3"
    database.unlink(missing_ok=True)
    store = SQLiteStore(database)
    for key, entry in made.items():
        store.put(key, entry)
    store.close()
    for extra in (HERE / "entries.sqlite3-wal", HERE / "entries.sqlite3-shm"):
        assert not extra.exists(), extra
    codec = {key: base64.b64encode(encode(entry)).decode("ascii") for key, entry in made.items()}
    written = {"redis.json": redis_values(made), "codec.json": codec,
               "expected.json": {key: expected(key, entry) for key, entry in made.items()}}
    for name, value in written.items():
        (HERE / name).write_text(json.dumps(value, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
