"""The second adversarial review of issue 41's JSON service (the merged service): each
finding of the check path fixed, over real HTTP on loopback (review-41b.md, G2, G4, G6, G7);
every outcome is an answer or a count, never a duration."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.timing import HANG, HEALTHY

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules import RobotsCache
from robotsrules._fetch._pinned import Guard
from robotsrules._web._api import Limits
from robotsrules.cache import SQLiteStore

from .conftest import Site
from .test_api import _api, _code, _post


def test_a_stored_copy_dated_in_the_future_is_vetted_all_the_same(site: Site,
                                                                   tmp_path: Path) -> None:
    # G2: a crawler without the guard, its clock two minutes ahead, shares the store: its
    # copy's fetched_at is later than the check's start, yet the service never fetched it.
    url = f"{site.base}/from-the-site/secret"
    ahead = RobotsCache(SQLiteStore(tmp_path / "shared.sqlite"), user_agent="IntranetBot/1.0",
                        timeout=HEALTHY, clock=lambda: time.time() + 120)
    assert ahead.allowed(url, agent="a") is False  # the loopback site's file, stored
    before = len(site.hits)
    with _api(store=SQLiteStore(tmp_path / "shared.sqlite")) as base:
        answer = _post(base, "/v1/check", {"urls": [url], "agents": ["a"], "explain": True})
    [record] = answer.json()["results"]
    assert record["error"]["code"] == "address-refused" and "allowed" not in record
    assert "Disallow" not in answer.text
    assert answer.headers["cache-control"] == "private, no-cache"
    assert len(site.hits) == before


def test_a_held_copy_is_vetted_within_the_check_deadline(site: Site) -> None:
    # G4: with the guard on, a copy this process holds is vetted by asking the resolver,
    # in a worker thread under --check-deadline: a resolver that does not answer holds the
    # check no longer than that (the answer is the deadline's, never "allowed").
    port = int(site.base.rsplit(":", 1)[1])
    answering = threading.Event()
    answering.set()
    asked: list[str] = []

    def resolve(host: str) -> list[str]:
        asked.append(host)
        answering.wait(HANG)  # once cleared, the resolver answers only when the test ends
        return ["127.0.0.1"]

    guard = Guard(resolve=resolve, exempt=frozenset({("127.0.0.1", port)}))
    url = f"http://held.test:{port}/from-the-site/x"
    try:
        with _api(guard=guard, limits=Limits(check_deadline=0.2, fetch_timeout=HANG)) as base:
            first = _post(base, "/v1/check", {"urls": [url], "agents": ["a"]}).json()
            assert first["results"][0]["allowed"] is False  # fetched, and held since
            answering.clear()
            late = _post(base, "/v1/check", {"urls": [url], "agents": ["a"]}).json()
            [record] = late["results"]
            assert record["error"]["code"] == "deadline-exceeded" and "allowed" not in record
            assert len(asked) == 2  # the held copy's vetting was asked
    finally:
        answering.set()


def test_ipv4_callers_of_a_dual_stack_socket_keep_buckets_of_their_own() -> None:
    # G6: "::ffff:a.b.c.d" is the IPv4 client a.b.c.d, never the /64 "::/64" all IPv4
    # callers would share (here as a trusted proxy's X-Forwarded-For, the same reading).
    with _api(token="s3cret", limits=Limits(rate=1e-6, burst=1),
              trusted_proxies=("127.0.0.1/32",)) as base:
        def status(forwarded: str) -> int:
            return _post(base, "/v1/lint", {"robots": ""}, authorization="Bearer wrong",
                         **{"x-forwarded-for": forwarded}).status_code

        assert status("::ffff:192.0.2.1") == 401
        assert status("::ffff:192.0.2.9") == 401  # another IPv4 client: its own bucket
        assert status("192.0.2.1") == 429  # the first one's bucket, mapped or not


def test_a_purge_waits_the_refresh_interval_too(site: Site) -> None:
    # G7: purge then check fetched again each time: a purge is a refresh by another name.
    port = int(site.base.rsplit(":", 1)[1])
    guard = Guard(exempt=frozenset({("127.0.0.1", port)}))
    with _api(guard=guard) as base:
        body = {"url": site.base + "/"}
        assert _post(base, "/v1/cache/purge", body).status_code == 200
        again = _post(base, "/v1/cache/purge", body)
        assert again.status_code == 429 and _code(again) == "refresh-too-soon"
        assert int(again.headers["retry-after"]) >= 1
        assert _code(_post(base, "/v1/cache/refresh", body)) == "refresh-too-soon"
