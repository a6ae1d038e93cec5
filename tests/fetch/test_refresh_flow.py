"""robotsrules._fetch._drive and robotsrules._fetch._refresh: the two drivers every flow goes through, and
the one refresh flow both caches and the Scrapy middleware share (typed Load/Fetch/Save
steps; memo, store merge, store-failure counting and logging). No I/O here: a flow is
sans-I/O, so each test answers its steps itself, with real stores where a store answers."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Generator
from pathlib import Path
from typing import Optional

import pytest

from robotsrules._fetch._drive import arun, run
from robotsrules._fetch._refresh import Fetch, Load, Refresher, RefreshReply, RefreshStep, Save
from robotsrules.cache import MemoryStore, SQLiteStore, Store
from robotsrules.policy import OK, UNREACHABLE, Answer, Entry, FetchResult, Request, fetch_flow

URL = "http://site.test/robots.txt"
KEY = "http://site.test"


def _result(now: float, answer: Answer) -> FetchResult:
    return run(fetch_flow(URL, now), lambda request: answer)


def ok(now: float, body: bytes = b"User-agent: *\nDisallow: /x\n") -> FetchResult:
    return _result(now, Answer(status=200, headers={"Cache-Control": "max-age=100"}, body=body))


def down(now: float) -> FetchResult:
    return _result(now, Answer(status=503))


# -- the drivers -------------------------------------------------------------------------

HOPS = {URL: Answer(status=301, headers={"Location": "/real.txt"}),
        "http://site.test/real.txt": Answer(status=200, body=b"User-agent: *\nDisallow: /\n")}


def test_run_drives_the_fetch_flow_through_a_redirect() -> None:
    asked: list[str] = []

    def perform(request: Request) -> Answer:
        asked.append(request.url)
        return HOPS[request.url]

    found = run(fetch_flow(URL, 10.0), perform)
    assert asked == [URL, "http://site.test/real.txt"]
    assert found.outcome == OK and found.redirects == ("http://site.test/real.txt",)
    assert not found.robots.allowed("http://site.test/a", agent="Bot")


def test_arun_drives_the_fetch_flow_awaiting_each_step() -> None:
    asked: list[str] = []

    async def perform(request: Request) -> Answer:
        await asyncio.sleep(0)
        asked.append(request.url)
        return HOPS[request.url]

    found = asyncio.run(arun(fetch_flow(URL, 10.0), perform))
    assert asked == [URL, "http://site.test/real.txt"]
    assert found.outcome == OK and found.final_url == "http://site.test/real.txt"


def _counting(log: list[str]) -> Generator[int, str, str]:
    try:
        log.append((yield 1))
        log.append((yield 2))
        return "done"
    finally:
        log.append("closed")


def test_a_flow_that_needs_no_step_returns_at_once() -> None:
    def nothing() -> Generator[int, str, str]:
        return "ready"
        yield 0  # pragma: no cover - makes this a generator

    assert run(nothing(), lambda step: pytest.fail("no step expected")) == "ready"
    assert asyncio.run(arun(nothing(), lambda step: pytest.fail("no step expected"))) == "ready"


def test_the_driver_sends_each_reply_and_returns_the_result() -> None:
    log: list[str] = []
    assert run(_counting(log), lambda step: f"reply {step}") == "done"
    assert log == ["reply 1", "reply 2", "closed"]


def test_a_failing_step_propagates_and_closes_the_flow() -> None:
    for driver in ("sync", "async"):
        log: list[str] = []

        def boom(step: int) -> str:
            if step == 2:
                raise OSError("disk on fire")
            return "fine"

        async def aboom(step: int) -> str:
            return boom(step)

        flow = _counting(log)
        with pytest.raises(OSError, match="disk on fire"):
            if driver == "sync":
                run(flow, boom)
            else:
                asyncio.run(arun(flow, aboom))
        assert inspect.getgeneratorstate(flow) == inspect.GEN_CLOSED, driver
        assert log == ["fine", "closed"], driver


# -- the refresh flow --------------------------------------------------------------------

class Doer:
    """Does a refresh flow's steps: a real store (or a failure given per step), and fetch
    results given in turn. Records the steps."""

    def __init__(self, store: Optional[Store], results: list[FetchResult],
                 fail_load: bool = False, fail_save: bool = False) -> None:
        self.store, self.results = store, results
        self.fail_load, self.fail_save = fail_load, fail_save
        self.steps: list[RefreshStep] = []

    def __call__(self, step: RefreshStep) -> RefreshReply:
        self.steps.append(step)
        if isinstance(step, Fetch):
            return self.results.pop(0)
        if isinstance(step, Load):
            if self.fail_load:
                return OSError("store down (get)")
            return None if self.store is None else self.store.get(KEY)
        if self.fail_save:
            return OSError("store down (put)")
        return None if self.store is None else self.store.put(KEY, step.entry)


def test_a_fresh_remembered_entry_needs_no_step() -> None:
    refresher = Refresher()
    entry = Entry.first(ok(0.0))
    refresher.remember(KEY, entry)
    doer = Doer(MemoryStore(), [])
    assert run(refresher.flow(KEY, 50.0), doer) is entry
    assert doer.steps == [] and refresher.fetches == 0


def test_a_miss_loads_fetches_saves_and_remembers() -> None:
    refresher, store = Refresher(), MemoryStore()
    doer = Doer(store, [ok(10.0)])
    entry = run(refresher.flow(KEY, 10.0), doer)
    assert [type(step) for step in doer.steps] == [Load, Fetch, Save]
    assert doer.steps[1] == Fetch(10.0)
    assert store.get(KEY) == entry and refresher.memo.peek(KEY) is entry
    assert (refresher.fetches, refresher.store_errors) == (1, 0)


def test_a_fresh_stored_entry_is_used_without_a_fetch(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "r.sqlite3"))
    store.put(KEY, Entry.first(ok(0.0)))
    refresher = Refresher()
    doer = Doer(store, [])
    entry = run(refresher.flow(KEY, 50.0), doer)
    assert doer.steps == [Load()] and entry.latest.fetched_at == 0.0
    store.close()


def test_a_store_failing_on_load_is_counted_and_the_memo_serves(
        caplog: pytest.LogCaptureFixture) -> None:
    refresher = Refresher()
    refresher.remember(KEY, Entry.first(ok(0.0, b"User-agent: *\nDisallow: /kept/\n")))
    doer = Doer(MemoryStore(), [down(200.0)], fail_load=True)
    with caplog.at_level(logging.DEBUG, logger="robotsrules"):
        entry = run(refresher.flow(KEY, 200.0), doer)
    assert refresher.store_errors == 1
    assert entry.latest.outcome == UNREACHABLE
    assert entry.good is not None and entry.good.fetched_at == 0.0  # the remembered copy
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "store get failed" in caplog.records[0].getMessage()


def test_a_store_failing_on_save_still_remembers_and_serves_the_entry() -> None:
    refresher = Refresher()
    doer = Doer(MemoryStore(), [ok(10.0)], fail_save=True)
    entry = run(refresher.flow(KEY, 10.0), doer)
    assert refresher.store_errors == 1 and refresher.memo.peek(KEY) is entry
    assert entry.latest.fetched_at == 10.0
    assert doer.store is not None and doer.store.get(KEY) is None


def test_one_warning_per_outage(caplog: pytest.LogCaptureFixture) -> None:
    refresher = Refresher(logger=logging.getLogger("robotsrules.test"))
    with caplog.at_level(logging.DEBUG, logger="robotsrules.test"):
        run(refresher.flow(KEY, 0.0), Doer(None, [ok(0.0)], fail_load=True, fail_save=True))
        run(refresher.flow(KEY, 500.0), Doer(None, [ok(500.0)]))  # the store is back
        run(refresher.flow(KEY, 1000.0), Doer(None, [ok(1000.0)], fail_save=True))
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.DEBUG,
                                                   logging.WARNING]
    assert refresher.store_errors == 3


def test_a_write_that_succeeds_ends_the_outage(caplog: pytest.LogCaptureFixture) -> None:
    refresher = Refresher(logger=logging.getLogger("robotsrules.test"))
    with caplog.at_level(logging.DEBUG, logger="robotsrules.test"):
        run(refresher.flow(KEY, 0.0), Doer(None, [ok(0.0)], fail_load=True))  # put works
        run(refresher.flow(KEY, 500.0), Doer(None, [ok(500.0)], fail_load=True))
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.WARNING]


def test_an_older_stored_entry_does_not_replace_a_newer_remembered_one(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "r.sqlite3"))
    store.put(KEY, Entry.first(ok(0.0, b"User-agent: *\nDisallow: /old/\n")))
    refresher = Refresher()
    refresher.remember(KEY, Entry.first(ok(200.0, b"User-agent: *\nDisallow: /new/\n")))
    entry = run(refresher.flow(KEY, 400.0), Doer(store, [down(400.0)]))
    assert entry.good is not None and entry.good.fetched_at == 200.0
    assert not entry.good.robots.allowed(KEY + "/new/a", agent="Bot")
    stored = store.get(KEY)
    assert stored is not None and stored.good is not None and stored.good.fetched_at == 200.0
    store.close()


def test_the_entry_a_shared_store_merged_is_the_one_served() -> None:
    refresher = Refresher()
    merged = Entry.first(ok(300.0))

    def doer(step: RefreshStep) -> RefreshReply:
        if isinstance(step, Fetch):
            return ok(step.now)
        return merged if isinstance(step, Save) else None

    assert run(refresher.flow(KEY, 250.0), doer) is merged
    assert refresher.memo.peek(KEY) is merged


def test_a_driver_answering_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Fetch step"):
        run(Refresher().flow(KEY, 0.0), lambda step: None)
    with pytest.raises(TypeError, match="Load step"):
        run(Refresher().flow(KEY, 0.0), lambda step: ok(0.0))


def test_the_memo_is_bounded() -> None:
    refresher = Refresher(memo_limit=2)
    for n in range(3):
        run(refresher.flow(f"http://h{n}.test", 0.0), Doer(None, [ok(0.0)]))
    assert list(refresher.memo) == ["http://h1.test", "http://h2.test"]


def test_the_async_driver_runs_the_refresh_flow() -> None:
    refresher, store = Refresher(), MemoryStore()

    async def ado(step: RefreshStep) -> RefreshReply:
        await asyncio.sleep(0)
        return Doer(store, [ok(5.0)])(step)

    entry = asyncio.run(arun(refresher.flow(KEY, 5.0), ado))
    assert store.get(KEY) == entry and refresher.fetches == 1
