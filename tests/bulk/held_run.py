"""Run the ``robotsrules`` program with a hold: a test's way to signal it at an exact moment.

``python held_run.py FD HOLD [--grace SECONDS] -- ARGS...`` runs ``robotsrules ARGS...``
through the program's own entry point (:func:`robotsrules.cli.entry`, as the installed
command and ``python -m robotsrules`` do), after wrapping one function so that the run stops
at the moment named by ``HOLD``. There it writes ``held NAME`` on file descriptor ``FD``
and waits until the command line's signal handler has handled a signal, writing
``handled K`` after the K-th, then goes on. The test sends its signals only after reading
``held``, and a second one only after ``handled 1``: the moment is fixed by events, never
by a sleep or by an amount of work that ought to take long enough.

``HOLD`` is ``NAME``, ``NAME@N`` (at the N-th call) or either with ``:K`` (wait until K
signals have been handled in all), or several such, comma-separated. Names:

* ``parse``: in the main thread, as the command line builds its parser (before any work);
* ``writer``: in the worker, once the temporary output file exists, before any work;
* ``check@N``: in the worker, at the N-th stop check of a job (between batches of URLs,
  before a WARC record);
* ``judge@N``: inside the N-th verdict batch (the core judging URLs);
* ``udf@N``: inside the N-th call DuckDB makes to the any-agent SQL function (mid-query);
* ``write@N``: after the N-th batch is written to the temporary file;
* ``settle``: every batch written, before the output is renamed into place;
* ``renamed``: just after the rename;
* ``stopped``: in the main thread, after a signal stopped the job, before the message;
* ``exit``: in the main thread, once the exit code is settled, before the interpreter ends;
* ``atexit``: in the interpreter's last ``atexit`` step, where both signals are ignored;
  there the run waits for a line ``go`` on its standard input instead (an ignored signal
  is never handled).

``--grace`` sets the seconds a stopped job gets before the program exits anyway (both
grace periods); tests of a second signal set it high so that the grace never decides.
"""

from __future__ import annotations

import atexit
import functools
import os
import sys
from typing import Any, Callable

WAIT = 120.0  # a hang guard only: the test sends its signal as soon as it reads "held"


def main() -> None:
    fd = int(sys.argv[1])
    spec = sys.argv[2]
    rest = sys.argv[3:]
    grace = None
    if rest[:1] == ["--grace"]:
        grace, rest = float(rest[1]), rest[2:]
    assert rest[:1] == ["--"], rest
    args = rest[1:]

    import robotsrules.cli as cli
    from robotsrules import bulk
    from robotsrules.cli import _bulk, _interrupt, _writer

    if grace is not None:
        _interrupt.GRACE_ENGINE = _interrupt.GRACE_PYTHON = grace

    def say(text: str) -> None:
        os.write(fd, (text + "\n").encode())

    for one in spec.split(","):
        _install(one, say, cli, bulk, _bulk, _writer, _interrupt)
    sys.argv = ["robotsrules", *args]
    cli.entry()


def _install(spec: str, say: Callable[[str], None], cli: Any, bulk: Any, _bulk: Any,
             _writer: Any, _interrupt: Any) -> None:
    name, _, count = spec.partition(":")
    wanted = int(count or 1)
    name, _, nth = name.partition("@")
    at = int(nth or 1)
    calls = {"n": 0}

    def hold() -> None:
        say(f"held {name}")
        if name == "atexit":
            line = sys.stdin.readline()
            assert line.strip() == "go", line
            say("went")  # the signal sent meanwhile was ignored: the run goes on
            return
        gate = _interrupt.current()
        assert gate is not None, "no signal handler installed"
        for k in range(1, wanted + 1):
            if not gate.wait(k, WAIT):
                say("timeout")
                os._exit(99)
            say(f"handled {k}")

    def due() -> bool:
        calls["n"] += 1
        return calls["n"] == at

    def before(owner: Any, attr: str) -> None:
        original = getattr(owner, attr)

        @functools.wraps(original)
        def wrapped(*a: Any, **k: Any) -> Any:
            if due():
                hold()
            return original(*a, **k)

        setattr(owner, attr, wrapped)

    def after(owner: Any, attr: str, when: Callable[[Any], bool] = lambda result: True
              ) -> None:
        original = getattr(owner, attr)

        @functools.wraps(original)
        def wrapped(*a: Any, **k: Any) -> Any:
            result = original(*a, **k)
            if when(result) and due():
                hold()
            return result

        setattr(owner, attr, wrapped)

    points: dict[str, Callable[[], None]] = {
        "parse": lambda: before(cli, "_parser"),
        "writer": lambda: after(_writer.Writer, "__init__"),
        "check": lambda: before(_interrupt.JobStop, "check"),
        "judge": lambda: before(bulk.Judge, "verdict_batch"),
        "udf": lambda: before(bulk.Judge, "any_batch"),
        "write": lambda: after(_writer.Writer, "write"),
        "settle": lambda: before(_bulk, "settle"),
        "renamed": lambda: after(_bulk, "settle", bool),
        "stopped": lambda: before(_interrupt.JobStop, "message"),
        "exit": lambda: after(_interrupt.Gate, "settle"),
        "atexit": lambda: atexit.register(hold),  # runs after the gate's own atexit step
    }
    points[name]()


if __name__ == "__main__":
    main()
