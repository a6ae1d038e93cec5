"""Waiting in tests without depending on the machine's speed (issue 21).

A test proves a behaviour by an outcome or a count that only the correct code can produce,
never by how long it took: a loaded machine makes everything slower, and a test whose
outcome depends on that fails at random. Time appears in a test only as

* a *hang guard* (:data:`HANG`): how long to wait for something that happens at once on any
  machine before calling it hung; far longer than the healthy case ever takes, and it only
  turns a hang into a failure;
* a *healthy time-out* (:data:`HEALTHY`) given to the code under test where the test does not
  want its time-out to fire (a loopback server that answers at once);
* a *lower bound* (a deadline never fires early), which load cannot break.

:func:`wait_until` polls a condition that *is* the awaited event (a request reached the
server, a lock is held); :func:`finishes` runs a call that must return and fails the test if
it has not within the hang guard; :func:`run_with_cpu_limit` runs a script under a CPU-time
limit and :func:`thread_cpu` measures the CPU time of a call, the bounds on work of a
complexity test (CPU time, unlike wall time, does not grow with the load of the machine).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Optional, TypeVar

HANG = 120.0
"""Seconds before a test calls a wait that should end at once a hang."""

HEALTHY = 30.0
"""Seconds of time-out for an exchange with a loopback server that answers at once: a test
that wants a time-out to fire passes its own, short one."""

_T = TypeVar("_T")


def wait_until(condition: Callable[[], bool], what: str, guard: float = HANG) -> None:
    """Return once ``condition()`` is true (polled); fail with ``what`` after ``guard`` s."""
    deadline = time.monotonic() + guard
    while not condition():
        assert time.monotonic() < deadline, f"{what} (waited {guard:g} s)"
        time.sleep(0.01)


def finishes(call: Callable[..., _T], *args: Any, guard: float = HANG) -> _T:
    """``call(*args)`` run in a thread: its value (or its exception, raised here); the test
    fails if it has not returned within ``guard`` seconds (the thread is left behind, a
    daemon, stuck where the code under test hung)."""
    box: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            box.append(call(*args))
        except BaseException as error:  # handed to the test's thread
            failure.append(error)

    worker = threading.Thread(target=run, name=f"finishes-{getattr(call, '__name__', 'call')}",
                              daemon=True)
    worker.start()
    worker.join(guard)
    assert not worker.is_alive(), f"{getattr(call, '__name__', call)!s} hung ({guard:g} s)"
    if failure:
        raise failure[0]
    result: _T = box[0]
    return result


def thread_cpu(call: Callable[..., _T], *args: Any, **kwargs: Any) -> tuple[_T, float]:
    """``call(*args, **kwargs)`` and the CPU seconds this thread spent in it (Linux's
    per-thread clock): the work done, which other jobs on the machine do not inflate."""
    before = resource.getrusage(resource.RUSAGE_THREAD)
    value = call(*args, **kwargs)
    after = resource.getrusage(resource.RUSAGE_THREAD)
    return value, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_with_cpu_limit(script: str, cpu_seconds: int, guard: float = 600.0,
                       env: Optional[dict[str, str]] = None) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a fresh interpreter limited to ``cpu_seconds`` of CPU time (the
    kernel kills it with SIGXCPU past that). ``guard`` is the wall-time hang guard: on a
    loaded machine a process gets the CPU less often, so it is far above the CPU limit."""
    prelude = ("import resource\n"
               f"resource.setrlimit(resource.RLIMIT_CPU, ({cpu_seconds}, {cpu_seconds}))\n")
    return subprocess.run([sys.executable, "-c", prelude + script], capture_output=True,
                          text=True, timeout=guard, env=env)
