"""The one gate of the HTTP client drop-ins (:mod:`robotsrules.httpx`'s two transports and
:mod:`robotsrules.aiohttp`'s middleware), without their I/O.

:class:`Gate` is their base class: it holds the options they all take (the agent,
``crawl_delay``, ``max_crawl_delay``, ``page_signals``, ``purposes``, checked once here, and
kept as their attributes), the decision before a request (:meth:`Gate._admit`: robots.txt's
verdict, else the refusal to raise, and the delay to keep), the per-origin spacing
(:meth:`Gate._turn`: the caller sleeps what it answers) and the decision after the response
(:meth:`Gate._judge_page`: the page admission step), and the signer of their requests
(:meth:`Gate._sign`, the fetch layer's one signing step). Each drop-in keeps only how it
looks up robots.txt, sleeps, and reads a response's head.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any, Optional

from .._page import HeadReader, PageSignals, admit_page
from .._page._headers import Headers
from .._rules._agents import Agent
from .._scope import origin_of
from .._tables._purposes import check_purposes
from ..errors import PageRefused
from ..policy import Served
from ._pacing import Spacing, admit, resolve_agent
from ._sign import Sign, sign_headers

__all__ = ["Gate"]


class Gate:
    """The options, decisions and spacing shared by the HTTP client drop-ins: their base
    class (its options are their attributes; its steps are private methods).

    ``agent`` is the product token(s) to obey (default: :func:`robotsrules.product_token` of
    ``user_agent``); ``purposes`` are checked (:class:`ValueError` for an unknown one) and
    imply ``page_signals``. The spacing is per gate: one drop-in, one gate. ``sign``: the
    signer of every request the drop-in sends and of its robots.txt fetches (None: the
    requests are left as they are).
    """

    def __init__(self, *, user_agent: str, agent: Optional[Agent], crawl_delay: bool,
                 max_crawl_delay: float, page_signals: bool, purposes: Sequence[str],
                 sign: Optional[Sign] = None) -> None:
        self.purposes = check_purposes(purposes)
        self.page_signals = page_signals or bool(self.purposes)
        self.agent = resolve_agent(user_agent, agent)
        self.crawl_delay = crawl_delay
        self.max_crawl_delay = max_crawl_delay
        self._spacing = Spacing()
        self.sign = sign

    def _sign(self, method: str, url: str, headers: MutableMapping[Any, Any]) -> None:
        """Sign one outgoing request in place (its earlier signature headers dropped), when
        a signer is configured; the client runs this for each redirect hop anew."""
        if self.sign is not None:
            sign_headers(self.sign, method, url, headers)

    def _admit(self, served: Served, url: str) -> float:
        """The delay (seconds) to keep before sending ``url`` under the rules ``served``;
        raises :class:`robotsrules.RobotsDisallowed` when they forbid it (send nothing)."""
        admission = admit(served, url, self.agent, crawl_delay=self.crawl_delay,
                          max_crawl_delay=self.max_crawl_delay)
        if not admission.allowed:
            raise admission.refusal(self.agent)
        return admission.delay

    def _turn(self, url: str, delay: float) -> float:
        """0 when a request to ``url`` may start now (it is recorded as started), else the
        seconds to sleep before asking again (:meth:`Spacing.turn
        <robotsrules._fetch._pacing.Spacing.turn>` for its origin); always 0, nothing
        recorded, with ``crawl_delay`` off."""
        if not self.crawl_delay:
            return 0.0
        return self._spacing.turn(origin_of(url), delay)

    def _judge_page(self, headers: Headers, reader: Optional[HeadReader], url: str,
                   status: int, served: Optional[Served]
                   ) -> tuple[PageSignals, Optional[PageRefused]]:
        """The response's page signals, and the refusal to raise (after releasing the
        response), if any: a 402 asking to be paid when ``purposes`` are given (never paid),
        else the page's signals and its robots.txt's usage preferences combined
        (:func:`robotsrules._page.admit_page`). ``reader`` holds the body's head, or is
        ``None`` when the admission step reads no body."""
        robots = served.robots if served is not None else None
        admission = admit_page(headers, None if reader is None else reader.body,
                               agents=[self.agent], purposes=self.purposes, url=url,
                               usage=None if robots is None else
                               (lambda a: robots.usage(url, agent=a)),
                               status=status, cut=reader is not None and reader.cut)
        signals = admission.signals[0]
        if self.purposes and admission.priced:  # a 402: the content was not served
            return signals, admission.price_error()
        return signals, None if admission.refused is None else admission.error()
