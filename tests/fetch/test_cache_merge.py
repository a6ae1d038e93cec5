"""Unit and property tests of cache/_merge.py: what a shared store keeps when two processes
write one origin. The invariant: the merged entry is what one process would hold had it
seen every fetch of both, in the order they were made; a good copy is never lost to a
failure."""

from __future__ import annotations

from typing import Optional

from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules.cache import merge
from robotsrules.policy import UNREACHABLE, Answer, Entry, FetchResult, fetch_flow

ORIGIN = "https://example.com"


def result(status: int, at: float) -> FetchResult:
    """A real FetchResult for ``status`` fetched at ``at`` (bodies name the time)."""
    flow = fetch_flow(ORIGIN + "/robots.txt", at)
    next(flow)
    body = f"User-agent: *\nDisallow: /t{at:g}\n".encode()
    try:
        flow.send(Answer(status=status, body=body if status == 200 else b""))
    except StopIteration as stop:
        fetched: FetchResult = stop.value
        return fetched
    raise AssertionError("unexpected redirect")


def history(results: list[FetchResult]) -> Optional[Entry]:
    """The entry one process holds after seeing ``results`` in order."""
    entry: Optional[Entry] = None
    for item in results:
        entry = Entry.first(item) if entry is None else entry.after(item)
    return entry


def test_no_stored_entry_is_the_incoming_one() -> None:
    incoming = Entry.first(result(503, 5.0))
    assert merge(None, incoming) is incoming


def test_an_older_failure_does_not_replace_a_newer_good_copy() -> None:
    stored = Entry.first(result(200, 20.0))
    assert merge(stored, Entry.first(result(503, 10.0))) is stored


def test_a_newer_failure_keeps_the_stored_good_copy() -> None:
    stored = Entry.first(result(200, 10.0))
    failure = result(503, 20.0)
    merged = merge(stored, Entry.first(failure))
    assert merged == stored.after(failure)
    assert merged.good == stored.good and merged.unreachable_since == 20.0


def test_a_newer_success_replaces_everything() -> None:
    stored = Entry.first(result(200, 10.0)).after(result(503, 15.0))
    incoming = Entry.first(result(404, 20.0))
    assert merge(stored, incoming) is incoming


def test_the_earliest_start_of_the_current_outage_is_kept() -> None:
    good = result(200, 1.0)
    stored = Entry.first(good).after(result(503, 10.0))
    incoming = Entry.first(good).after(result(500, 5.0)).after(result(503, 20.0))
    merged = merge(stored, incoming)
    assert merged.latest.fetched_at == 20.0 and merged.good == good
    assert merged.unreachable_since == 5.0


def test_an_outage_before_the_newest_good_copy_is_forgotten() -> None:
    stored = Entry.first(result(503, 1.0))  # down since 1, no good copy
    incoming = Entry.first(result(200, 5.0)).after(result(503, 9.0))
    merged = merge(stored, incoming)
    assert merged.good is not None and merged.good.fetched_at == 5.0
    assert merged.unreachable_since == 9.0


fetches = st.lists(st.tuples(st.sampled_from([200, 404, 503, 500]),
                             st.integers(min_value=0, max_value=10**6)),
                   min_size=1, max_size=6, unique_by=lambda pair: pair[1])


@settings(max_examples=300, deadline=None)
@given(fetches, fetches)
def test_merge_is_what_one_process_seeing_both_would_hold(
        a: list[tuple[int, int]], b: list[tuple[int, int]]) -> None:
    times = {at for _, at in a}
    b = [(status, at) for status, at in b if at not in times]
    if not b:
        return
    seen_a = [result(status, float(at)) for status, at in sorted(a, key=lambda p: p[1])]
    seen_b = [result(status, float(at)) for status, at in sorted(b, key=lambda p: p[1])]
    stored, incoming = history(seen_a), history(seen_b)
    assert stored is not None and incoming is not None
    merged = merge(stored, incoming)
    both = sorted(seen_a + seen_b, key=lambda item: item.fetched_at)
    latest = both[-1]
    assert merged.latest == latest
    goods = [item for item in both if item.outcome != UNREACHABLE]
    assert merged.good == (goods[-1] if goods else None)  # never lost to a failure
    if latest.outcome != UNREACHABLE:
        assert merged.unreachable_since is None
    else:
        # The outage began at the first failure after the good copy that either side saw
        # begin (each side knows only the failures it saw itself).
        assert merged.unreachable_since is not None
        after_good = [item.fetched_at for item in both if item.outcome == UNREACHABLE
                      and (not goods or item.fetched_at > goods[-1].fetched_at)]
        assert merged.unreachable_since >= min(after_good)
        assert merged.unreachable_since <= latest.fetched_at
