"""Typing helpers shared by the package (standard library only)."""

from __future__ import annotations

from typing import NoReturn

__all__ = ["assert_never"]


def assert_never(value: NoReturn) -> NoReturn:
    """The end of an exhaustive ``if`` chain over a ``Literal`` vocabulary: ``mypy`` reports
    a call here whose argument can still hold a value (a case the chain forgot), and at run
    time it raises, since it is never reached when the types hold
    (``typing.assert_never`` from Python 3.11, for the versions before it)."""
    raise AssertionError(f"unhandled value: {value!r}")
