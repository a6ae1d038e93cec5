"""SIGINT and SIGTERM for the command line: one handler for the whole run.

A :class:`Gate` is the only SIGINT/SIGTERM handler the command line installs. The
``robotsrules`` program (:func:`robotsrules.cli.entry`) installs it before any work and keeps
it until the process ends; :func:`robotsrules.cli.main`, called in-process, installs it for
the call and gives the caller's handlers back. Nothing swaps handlers while a command runs,
so there is no moment at which a signal meets Python's default disposition (a death by
SIGTERM, a ``KeyboardInterrupt`` traceback) once the gate is in place.

What a signal does depends on the moment, and the exit code is always 128 + the *first*
signal's number (130 for SIGINT, 143 for SIGTERM), whichever signal comes second:

* **during ordinary work** (``check``, ``lint``, ...): the first signal raises
  ``KeyboardInterrupt`` (SIGTERM: its subclass :class:`Terminated`) in the main thread, so
  that ``finally`` blocks clean up; the program gives the clean-up :data:`GRACE` seconds,
  then (or at a second signal) exits at once;
* **while a job that writes ``--out`` runs in a worker thread** (``bulk``, ``stance
  --out``): the gate hands the signal to the job's :class:`JobStop`, which records it and asks
  the engine to stop (DuckDB's ``interrupt()``, Spark's ``cancelAllJobs()``) instead of raising
  wherever Python happens to be; the worker unwinds at its next check and removes its
  temporary file; a second signal, or a worker still running after the grace period, removes
  the temporary file and exits at once;
* **once the outcome is settled** (:meth:`Gate.settle`: the output file has its final name,
  or the command has returned its exit code): a signal no longer changes the outcome. The
  program exits at once with the settled code (so a finished ``bulk`` exits 0 with its
  complete file, its summary line possibly unprinted); an in-process :func:`main` ignores it
  and returns the code. During the interpreter's own last steps (after every ``atexit``
  function) the program ignores both signals, because Python restores their default
  disposition there and a signal would otherwise kill a process whose work is done.

Not covered: a signal during the interpreter's start and ``import robotsrules.cli`` (about
0.1 s, before any file is opened or written) meets Python's defaults. Off the main thread
(an embedding that calls :func:`~robotsrules.cli.main` from a thread) no handler is installed.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, Callable, Optional

__all__ = ["GRACE", "GRACE_ENGINE", "GRACE_PYTHON", "Gate", "Interrupted", "JobStop",
           "Terminated", "current"]

SIGNALS = (signal.SIGINT, signal.SIGTERM)

GRACE = 3.0
"""Seconds the ``robotsrules`` program has to wind down after a first signal during ordinary
work; then it exits at once with 130/143."""
GRACE_ENGINE = 10.0
"""Seconds an interrupted engine query gets to wind down before the program exits anyway."""
GRACE_PYTHON = 1.0
"""Seconds pure Python work of a job (reading WARC files, counting lines) gets to reach a
check before the program exits anyway."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is so that the same clean-up as Ctrl-C runs."""


class Interrupted(Exception):
    """Raised by :meth:`JobStop.check` at a safe point once a stop signal has arrived."""


_current: list[Gate] = []


def current() -> Optional[Gate]:
    """The gate handling this process's signals now (None: none installed)."""
    return _current[-1] if _current else None


def force_exit(code: int) -> None:
    """Flush what was printed and leave the process at once with ``code``."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _raise_for(signum: int) -> None:
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


class JobStop:
    """The stop of a job writing ``--out`` in a worker thread (:meth:`Gate.run_job`).

    The gate calls :meth:`handle` (main thread) on the first signal: it records the signal
    and calls the running engine's :attr:`interrupt`, and never raises. The worker calls
    :meth:`check` between phases and batches. :meth:`hard_stop` removes the temporary output
    and exits; :attr:`lock` keeps it from racing the rename into place.
    """

    def __init__(self, out: str = "") -> None:
        self.signum: Optional[int] = None
        self.when = 0.0
        self.interrupt: Optional[Callable[[], None]] = None
        """The running engine's interrupt (None: pure Python work)."""
        self.partial: Optional[str] = None
        """The temporary output file to remove on a hard stop."""
        self.scratch: list[str] = []
        """Directories to remove on a hard stop."""
        self.lock = threading.Lock()
        """Held while the output is renamed to its final name."""
        self.out = out
        """The ``--out`` name, for messages."""
        self.gate: Optional[Gate] = None
        """The gate this job runs under (None off the main thread)."""

    def handle(self, signum: int) -> None:
        """Record the first signal and ask the engine to stop (main thread; never raises)."""
        self.signum, self.when = signum, time.monotonic()
        interrupt = self.interrupt
        if interrupt is not None:
            with contextlib.suppress(Exception):  # already closed: the flag stops the worker
                interrupt()

    def grace(self) -> float:
        """Seconds left for the worker to finish after the signal."""
        limit = GRACE_ENGINE if self.interrupt is not None else GRACE_PYTHON
        return self.when + limit - time.monotonic()

    def check(self) -> None:
        """Raise :class:`Interrupted` if a stop signal has arrived (worker thread)."""
        if self.signum is not None:
            raise Interrupted

    def message(self) -> str:
        """``robotsrules: interrupted (SIGINT)``."""
        name = signal.Signals(self.signum or signal.SIGINT).name
        return f"robotsrules: interrupted ({name})"

    def settled(self) -> None:
        """The output has its final name: from now on a signal does not undo the run."""
        if self.gate is not None:
            self.gate.settle(0)

    def hard_stop(self) -> None:
        """Remove the temporary output and exit now (the worker may be anywhere)."""
        signum = self.signum or signal.SIGINT
        renaming = self.lock.acquire(timeout=5.0)  # never between the check and the rename
        if renaming and self.partial is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.partial)
        for directory in self.scratch:
            shutil.rmtree(directory, ignore_errors=True)
        with contextlib.suppress(OSError):
            sys.stderr.flush()
            os.write(2, f"{self.message()}; {self.out} not written\n".encode(errors="replace"))
        os._exit(128 + signum)


class Gate:
    """The SIGINT/SIGTERM handler of one command-line run (see the module docstring).

    ``process`` is True for the ``robotsrules`` program itself: it may leave the process
    (``os._exit``) when a clean-up overruns or a second signal comes; an in-process
    :func:`~robotsrules.cli.main` never does.
    """

    def __init__(self, process: bool) -> None:
        self.process = process
        self.first: Optional[int] = None
        """The first signal's number (None: no signal yet)."""
        self.code: Optional[int] = None
        """The settled exit code (:meth:`settle`)."""
        self.job: Optional[JobStop] = None
        self.handled = 0
        """Signals handled so far (see :meth:`wait`)."""
        self._changed = threading.Condition(threading.RLock())

    # -- installing -----------------------------------------------------------------------

    def install(self) -> bool:
        """Become the handler of both signals for the rest of the process (the program's
        entry point). False (nothing done) off the main thread."""
        if threading.current_thread() is not threading.main_thread():
            return False
        for signum in SIGNALS:
            signal.signal(signum, self.handle)
        _current.append(self)
        # atexit runs its functions last-registered first, so this one runs after every
        # atexit function a library registers later (Spark's gateway, ...).
        atexit.register(self._quiet)
        return True

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """The handler of both signals while the block runs, the caller's after (an
        in-process :func:`~robotsrules.cli.main`); nothing off the main thread."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {signum: signal.signal(signum, self.handle) for signum in SIGNALS}
        _current.append(self)
        try:
            yield
        finally:
            _current.remove(self)
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _quiet(self) -> None:
        # Python's last steps restore the default dispositions (a death by signal, after
        # the work is done); an ignored signal stays ignored through them.
        for signum in SIGNALS:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(signum, signal.SIG_IGN)

    # -- the outcome ----------------------------------------------------------------------

    def settle(self, code: int) -> None:
        """The run's outcome is ``code`` whatever signal comes from now on."""
        self.code = code

    def exit_code(self) -> int:
        """128 + the first signal's number (130 when none was recorded)."""
        return 128 + (self.first if self.first is not None else signal.SIGINT)

    # -- the handler ----------------------------------------------------------------------

    def handle(self, signum: int, frame: Optional[FrameType] = None) -> None:
        """The signal handler (the main thread; see the module docstring)."""
        try:
            self._dispatch(signum)
        finally:
            with self._changed:
                self.handled += 1
                self._changed.notify_all()

    def _dispatch(self, signum: int) -> None:
        if self.code is not None:  # settled: the outcome stands
            if self.process:
                force_exit(self.code)
            return
        first = self.first
        job = self.job
        if first is not None:  # again: the user insists
            if job is not None:
                job.hard_stop()  # exits with the first signal's code
            if self.process:
                force_exit(128 + first)
            _raise_for(first)
        self.first = signum
        if job is not None:
            job.handle(signum)
            return
        if self.process:
            timer = threading.Timer(GRACE, force_exit, (128 + signum,))
            timer.daemon = True
            timer.start()
        _raise_for(signum)

    def wait(self, count: int, timeout: float) -> bool:
        """Block until ``count`` signals have been handled (or ``timeout`` seconds pass):
        for code that must act only once a signal has been dealt with, as the command
        line's signal tests do. True when they have."""
        with self._changed:
            return self._changed.wait_for(lambda: self.handled >= count, timeout)

    # -- jobs in a worker thread ----------------------------------------------------------

    def run_job(self, stop: JobStop, work: Callable[[], int]) -> Optional[int]:
        """Run ``work`` in a worker thread while the main thread waits, signals going to
        ``stop``. Its exit code, or None when a signal stopped it (the exception it raised
        then is dropped); any other exception it raised is raised here."""
        outcome: dict[str, Any] = {}

        def worker_main() -> None:
            try:
                outcome["code"] = work()
            except BaseException as error:  # handed to the main thread
                outcome["error"] = error

        stop.gate = self
        self.job = stop  # before the worker starts: a signal from now on goes to the job
        try:
            if self.first is not None:  # a signal came just before: never start
                stop.handle(self.first)
            worker = threading.Thread(target=worker_main, name="robotsrules-job", daemon=True)
            worker.start()
            while worker.is_alive():
                worker.join(0.1)
                if stop.signum is not None and worker.is_alive() and stop.grace() <= 0:
                    stop.hard_stop()
        finally:
            self.job = None
        error = outcome.pop("error", None)
        code = outcome.pop("code", None)
        if stop.signum is not None and code is None:
            return None
        if error is not None:
            raise error
        return int(code)
