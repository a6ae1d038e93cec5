"""The fleet lock's sans-I/O flow (issue 41): which step follows which reply.

The I/O (a real Redis, processes, a held origin) is tested in tests/network/test_fleet.py;
here, the decisions alone: a fresh copy or a failing store skips the lock, the holder's
refresh carries its token, a lock failure falls back at once, and the waiting is bounded.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from robotsrules._fetch._fleet import FLEET_ROUNDS, Read, Refresh, Take, Wait, fleet_flow
from robotsrules.policy import OK, Answer, Entry, FetchResult, Request, fetch_flow

NOW = 1_000.0


def entry(now: float) -> Entry:
    flow = fetch_flow("https://a.example/robots.txt", now)
    assert isinstance(next(flow), Request)
    with pytest.raises(StopIteration) as stop:
        flow.send(Answer(status=200, body=b"User-agent: *\nDisallow: /x\n"))
    result = stop.value.value
    assert isinstance(result, FetchResult) and result.outcome == OK
    return Entry.first(result)


FRESH = entry(NOW)
STALE = entry(NOW - 10 * 86_400.0)
SERVED = entry(NOW + 1)  # what a Refresh step answers with


def steps(replies: dict[type, list[object]]) -> list[object]:
    """Drive the flow, answering each kind of step with the next of its replies; the steps
    it took (a Refresh ends it)."""
    flow: Generator[object, object, Entry] = fleet_flow(NOW)
    taken: list[object] = []
    step = next(flow)
    while True:
        taken.append(step)
        reply = SERVED if isinstance(step, Refresh) else replies[type(step)].pop(0)
        try:
            step = flow.send(reply)
        except StopIteration as stop:
            assert stop.value is SERVED
            return taken


def test_a_fresh_copy_in_the_store_is_used_without_the_lock() -> None:
    assert steps({Read: [FRESH]}) == [Read(), Refresh(True, FRESH)]


def test_a_failing_store_skips_the_lock_and_hands_the_failure_to_the_refresh() -> None:
    error = ConnectionError("down")
    assert steps({Read: [error]}) == [Read(), Refresh(True, error)]


def test_the_holder_refreshes_with_its_token() -> None:
    assert steps({Read: [STALE], Take: ["t1"]}) == [Read(), Take(), Refresh(False, token="t1")]


def test_a_waiter_reads_the_holders_fresh_copy() -> None:
    assert steps({Read: [None, FRESH], Take: [None], Wait: [None]}) == [
        Read(), Take(), Wait(), Read(), Refresh(True, FRESH)]


@pytest.mark.parametrize("failing", [Take, Wait])
def test_a_lock_failure_falls_back_to_a_refresh_of_its_own(failing: type) -> None:
    replies: dict[type, list[object]] = {Read: [STALE], Take: [None], Wait: [None]}
    replies[failing] = [TimeoutError("frozen")]
    taken = steps(replies)
    assert taken[-1] == Refresh(False) and taken[-2] == failing()


def test_waiting_is_bounded_then_the_process_fetches_itself() -> None:
    taken = steps({Read: [STALE] * FLEET_ROUNDS, Take: [None] * FLEET_ROUNDS,
                   Wait: [None] * FLEET_ROUNDS})
    assert taken.count(Wait()) == FLEET_ROUNDS
    assert taken[-1] == Refresh(False)  # no token: it did not hold the lock
