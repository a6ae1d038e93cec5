"""robotsrules._pacing.Spacing: request starts to one origin are spaced by the delay,
measured from when each request was let go, whatever the callers' sleeps do."""

from __future__ import annotations

import threading
import time
from typing import List

import pytest

from robotsrules._pacing import Spacing


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(time, "monotonic", fake)  # the module pacing reads the clock from
    return fake


def test_the_first_request_goes_at_once_the_next_waits_the_delay(clock: Clock) -> None:
    spacing = Spacing()
    assert spacing.turn("a", 2.0) == 0.0
    clock.now += 0.5
    assert spacing.turn("a", 2.0) == pytest.approx(1.5)
    assert spacing.turn("b", 2.0) == 0.0  # origins are spaced independently
    clock.now += 1.5
    assert spacing.turn("a", 2.0) == 0.0


def test_a_late_start_pushes_the_next_one_back(clock: Clock) -> None:
    """The caller slept past its turn (a busy machine): the next request is spaced from
    when this one really went, never closer (a booked slot would let it catch up)."""
    spacing = Spacing()
    assert spacing.turn("a", 1.0) == 0.0  # t = 100
    clock.now += 0.2
    wait = spacing.turn("a", 1.0)
    assert wait == pytest.approx(0.8)
    clock.now += wait + 0.5  # overslept by half a second: t = 101.5
    assert spacing.turn("a", 1.0) == 0.0
    clock.now += 0.6  # t = 102.1: a slot booked at 102.0 would have let this one go
    assert spacing.turn("a", 1.0) == pytest.approx(0.4)


def test_no_delay_means_no_wait_and_forgets_the_origin(clock: Clock) -> None:
    spacing = Spacing()
    assert spacing.turn("a", 5.0) == 0.0
    assert spacing.turn("a", 0.0) == 0.0
    assert spacing.turn("a", 5.0) == 0.0  # nothing remembered from before


class Recording(Spacing):
    """Spacing that notes the moment of every turn it grants (under one more lock, so that
    the note is the time the grant recorded, not when the thread got round to it)."""

    def __init__(self) -> None:
        super().__init__()
        self.granted: List[float] = []
        self._guard = threading.Lock()

    def turn(self, origin: str, delay: float) -> float:
        with self._guard:
            wait = super().turn(origin, delay)
            if wait == 0:
                self.granted.append(self._last[origin])
            return wait


def test_threads_sharing_an_origin_never_start_closer_than_the_delay() -> None:
    spacing, delay = Recording(), 0.05

    def worker() -> None:
        for _ in range(3):
            while (wait := spacing.turn("a", delay)) > 0:
                time.sleep(wait)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    starts = sorted(spacing.granted)
    assert len(starts) == 12
    assert min(b - a for a, b in zip(starts, starts[1:])) >= delay
