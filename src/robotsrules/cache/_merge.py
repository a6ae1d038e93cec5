"""Merge on write: what a shared store keeps when two processes refresh one origin at once.

Process A reads no entry (or an old one) and starts a fetch; meanwhile process B fetches
the same origin and stores a good copy; then A's fetch fails (503). Had A simply written
``Entry.first(503)`` over B's row, every process would serve "unreachable, disallow all" for
an hour although a good copy had been fetched a moment before. So a shared store never
replaces what it holds: it writes :func:`merge` of the stored entry and the incoming one,
inside the same transaction (SQLite) or check-and-set (Redis) as the read.

The merged entry is what one process would hold had it seen every fetch of both, in the
order they were made (by ``fetched_at``):

* ``latest``: the newer of the two latest results (the incoming one on a tie);
* ``good``: the newer of the two good copies; a good copy is never dropped for a failure;
* ``unreachable_since``: when ``latest`` is unreachable, the earliest start of an outage
  that began after that good copy (without one: the earliest start either side knows);
  ``None`` otherwise.
"""

from __future__ import annotations

from typing import Optional

from ..policy import UNREACHABLE, Entry, FetchResult

__all__ = ["merge"]


def _newer(a: Optional[FetchResult], b: Optional[FetchResult]) -> Optional[FetchResult]:
    """The later of two results (``b`` on a tie); ``None`` only when both are."""
    if a is None:
        return b
    if b is None:
        return a
    return a if a.fetched_at > b.fetched_at else b


def merge(stored: Optional[Entry], incoming: Entry) -> Entry:
    """The entry to store when ``incoming`` is written over ``stored`` (see the module
    docstring): ``stored`` itself when ``incoming`` brings nothing newer (the write can be
    skipped), ``incoming`` itself when it knows everything ``stored`` does."""
    if stored is None or stored is incoming:
        return incoming
    latest = _newer(stored.latest, incoming.latest)
    good = _newer(stored.good, incoming.good)
    assert latest is not None  # both entries have a latest result
    if latest.outcome != UNREACHABLE:
        # A result that is not a failure is its own good copy (Entry.after).
        merged = Entry(latest=latest, good=latest, unreachable_since=None)
    else:
        starts = [since for since in (stored.unreachable_since, incoming.unreachable_since)
                  if since is not None and (good is None or since >= good.fetched_at)]
        merged = Entry(latest=latest, good=good,
                       unreachable_since=min(starts) if starts else latest.fetched_at)
    if merged == stored:  # nothing newer came in: callers may skip the write
        return stored
    if merged == incoming:
        return incoming
    return merged
