"""The two drivers of every sans-I/O flow in robotsrules: :func:`run` and :func:`arun`.

A *flow* is a generator that yields the I/O it needs (a step), receives the outcome of
each step, and returns its result: :func:`robotsrules.policy.fetch_flow` (steps
:class:`~robotsrules.policy.Request`, replies :class:`~robotsrules.policy.Answer`) and the
refresh flow of the caches (:mod:`robotsrules._fetch._refresh`: ``Load``, ``Fetch``, ``Save``).
A driver owns the loop; the caller only says how to do one step (``do``)::

    result = run(fetch_flow(url, now, policy), perform)          # perform(Request) -> Answer
    result = await arun(fetch_flow(url, now, policy), aperform)  # awaited per step

Standard library only. An exception raised by ``do`` is not sent into the flow: it
propagates to the caller (the flow is closed), as the hand-written loops did; a step whose
failure the flow should see is answered with a value saying so (the refresh flow takes the
store's exception as the reply).
"""

from __future__ import annotations

from collections.abc import Awaitable, Generator
from typing import Callable, Generic, Optional, TypeVar, Union, cast

__all__ = ["arun", "run"]

StepT = TypeVar("StepT")
ReplyT = TypeVar("ReplyT")
ResultT = TypeVar("ResultT")


def run(flow: Generator[StepT, ReplyT, ResultT], do: Callable[[StepT], ReplyT]) -> ResultT:
    """Drive ``flow`` to its end, doing each step it yields with ``do``; its result."""
    try:
        step = _send(flow, None)
        while not isinstance(step, _End):
            step = _send(flow, do(step))
        return step.value
    finally:
        flow.close()


async def arun(flow: Generator[StepT, ReplyT, ResultT],
               do: Callable[[StepT], Awaitable[ReplyT]]) -> ResultT:
    """:func:`run` with a step done by awaiting ``do(step)``."""
    try:
        step = _send(flow, None)
        while not isinstance(step, _End):
            step = _send(flow, await do(step))
        return step.value
    finally:
        flow.close()


class _End(Generic[ResultT]):
    """What a flow returned (a value of its own type, never mistaken for a step)."""

    __slots__ = ("value",)

    def __init__(self, value: ResultT) -> None:
        self.value = value


def _send(flow: Generator[StepT, ReplyT, ResultT],
          reply: Optional[ReplyT]) -> Union[StepT, _End[ResultT]]:
    """The flow's next step after ``reply`` (``None`` starts it), or its end."""
    try:
        return flow.send(cast(ReplyT, reply))
    except StopIteration as stop:
        return _End(stop.value)
