"""robotsrules._fetch._pacing.Spacing: request starts to one origin are spaced by the delay,
measured from when each request was let go, whatever the callers' sleeps do."""

from __future__ import annotations

import threading
import time

import pytest

from robotsrules._fetch._drive import run
from robotsrules._fetch._pacing import DEFAULT_MAX_CRAWL_DELAY, Spacing, admit
from robotsrules.errors import RobotsDisallowed
from robotsrules.policy import Answer, Entry, Served, effective, fetch_flow
from tests.timing import HANG


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
        self.granted: list[float] = []
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
        thread.join(HANG)
    starts = sorted(spacing.granted)
    assert len(starts) == 12
    assert min(b - a for a, b in zip(starts, starts[1:])) >= delay


# -- admit: the one decision the integrations take before a request ----------------------

def _served(body: bytes, status: int = 200) -> Served:
    result = run(fetch_flow("http://site.test/robots.txt", 0.0),
                 lambda request: Answer(status=status, body=body))
    return effective(Entry.first(result), 1.0)


RULES = (b"User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\n"
         b"User-agent: SlowBot\nCrawl-delay: 100\n")


def test_admit_allows_with_the_delay_asked() -> None:
    decision = admit(_served(RULES), "http://site.test/page", "Bot")
    assert decision.allowed and decision.delay == 5.0 and decision.detail is None
    assert decision.verdict.allowed


def test_admit_with_crawl_delay_off_keeps_no_delay() -> None:
    decision = admit(_served(RULES), "http://site.test/page", "Bot", crawl_delay=False)
    assert decision.allowed and decision.delay == 0.0


def test_admit_caps_the_delay() -> None:
    slow = admit(_served(RULES), "http://site.test/page", "SlowBot")
    assert slow.delay == DEFAULT_MAX_CRAWL_DELAY
    assert admit(_served(RULES), "http://site.test/page", "SlowBot",
                 max_crawl_delay=60.0).delay == 60.0
    assert DEFAULT_MAX_CRAWL_DELAY == 30.0


def test_admit_refuses_with_the_deciding_line() -> None:
    decision = admit(_served(RULES), "http://site.test/private/x", ("Bot", "OtherBot"))
    assert not decision.allowed and decision.delay == 0.0
    assert decision.verdict.rule is not None and decision.verdict.rule.line == 2
    error = decision.refusal(("Bot", "OtherBot"))
    assert isinstance(error, RobotsDisallowed)
    assert (error.url, error.agent, error.detail) == (
        "http://site.test/private/x", "Bot, OtherBot", None)


def test_admit_refuses_an_unreachable_site_and_says_why() -> None:
    decision = admit(_served(b"", status=503), "http://site.test/page", "Bot")
    assert not decision.allowed and decision.served.reason == "unreachable"
    assert decision.detail == "http://site.test/robots.txt unreachable: HTTP 503"
    assert "unreachable: HTTP 503" in str(decision.refusal("Bot"))


def test_delay_for_reads_per_agent_and_takes_the_slower_of_delay_and_rate() -> None:
    import robotsrules
    from robotsrules._fetch._pacing import delay_for

    robots = robotsrules.parse(b"User-agent: a\nCrawl-delay: 2\nUser-agent: b\n"
                               b"Request-rate: 1/10\nCrawl-delay: 4\n")
    assert delay_for(robots, "a", 60.0) == 2.0  # b's rate is not a's (issue 22)
    assert delay_for(robots, "b", 60.0) == 10.0  # 10 s a request beats 4 s
    assert delay_for(robots, "other", 60.0) == 0.0
    # A rate of no requests (legacy mode reads "0/5" as urllib does) asks for the cap.
    legacy = robotsrules.parse(b"User-agent: *\nRequest-rate: 0/5\n", mode="legacy")
    assert delay_for(legacy, "x", 30.0) == 30.0
