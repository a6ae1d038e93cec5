"""Page admission: read a response once, for every agent and purpose, and say what refuses.

The page counterpart of :func:`robotsrules._fetch._pacing.admit`. The client integrations
(:mod:`robotsrules.httpx`, :mod:`robotsrules.aiohttp`, :mod:`robotsrules.scrapy`), the
datatrove filter and ``robotsrules page`` all call :func:`admit_page` and then only act:
raise :class:`~robotsrules.PageRefused` (or :class:`~robotsrules.PagePriced` for a response
that asks to be paid for), drop and count, mark, or print. The purposes they
take are checked by :func:`robotsrules._tables._purposes.check_purposes`, the one validator of a
list of purposes.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional, Union

from .._decoder import BodyDecoder
from .._rules._agents import Agent
from .._rules._usage import Usage
from .._tables._purposes import check_purposes
from ..errors import InvalidArgument, PagePriced, PageRefused
from ._combine import Answer, combine
from ._headers import Headers, read_headers
from ._headers import content_type as _joined_type
from ._html import DEFAULT_HEAD_BYTES, html_type
from ._pricing import Pricing
from ._signals import PageSignals, page_facts, read_response, signals_of
from ._tdmrep import TdmRepFile

__all__ = ["HeadReader", "PageAdmission", "Refusal", "admit_page", "reads_body", "reads_body_of"]


def reads_body(content_type: Optional[Union[str, bytes]]) -> bool:
    """Whether :func:`admit_page` needs the body of a response with this ``Content-Type``
    (the integrations ask before reading it): HTML by its type, or no usable type (the
    body is then sniffed, WHATWG MIME Sniffing). :func:`admit_page` itself decides whether
    the body it is given is HTML, by the same rule (:func:`._html.reads_as_html`).

    >>> reads_body("text/html; charset=utf-8"), reads_body(None), reads_body("image/png")
    (True, True, False)
    """
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    return html_type(content_type) is not False


def reads_body_of(headers: Headers) -> bool:
    """:func:`reads_body` of a response's header fields in any form
    :func:`robotsrules.page_signals` takes: every ``Content-Type`` field is read (Fetch's
    "extract a MIME type" over their joined values: the last valid one decides,
    :func:`._headers.content_type`), as :func:`admit_page` reads them.

    >>> reads_body_of([("Content-Type", "image/png"), ("Content-Type", "text/html")])
    True
    """
    return reads_body(_joined_type(read_headers(headers, strict=False)))


class HeadReader:
    """The head of a response body as it arrives, for the client integrations: raw chunks
    are fed (:meth:`feed`) and decoded by ``Content-Encoding`` with the bounded
    :class:`robotsrules._decoder.BodyDecoder` until ``max_head_bytes`` and one more octet
    are decoded (a compression bomb never inflates past that). :attr:`chunks` keeps the raw
    chunks fed, to hand the caller a body that is still whole.

    >>> import gzip
    >>> reader = HeadReader("gzip", 4)
    >>> reader.feed(gzip.compress(b"<html><head>")), reader.body, reader.cut
    (True, b'<html', False)
    """

    def __init__(self, content_encoding: Optional[str],
                 max_head_bytes: int = DEFAULT_HEAD_BYTES) -> None:
        self.decoder = BodyDecoder(content_encoding, max_head_bytes)
        self.chunks: list[bytes] = []

    def feed(self, chunk: bytes) -> bool:
        """Add a raw chunk of the body; True when no more is wanted."""
        self.chunks.append(chunk)
        return self.decoder.feed(chunk)

    def finish(self) -> None:
        """The body ended: a compressed stream without its end makes the head cut."""
        self.decoder.finish()

    @property
    def body(self) -> bytes:
        """The decoded head: at most ``max_head_bytes`` and one more octet (which tells
        :func:`admit_page` that the body went on)."""
        return b"".join(self.decoder.parts)

    @property
    def cut(self) -> bool:
        """The body could not be decoded (an unknown coding, bad or cut compressed data): what
        was decoded is only a start, so what it does not state is not known."""
        return self.decoder.error is not None


class Refusal(NamedTuple):
    """An (agent, purpose) pair and the :class:`~robotsrules.Answer` given for it."""

    agent: str
    purpose: str
    answer: Answer


@dataclass(frozen=True)
class PageAdmission:
    """What :func:`admit_page` read: the signals per agent (in the order given) and every
    agent's answer for every purpose (agent by agent, purposes in order)."""

    url: Optional[str]
    signals: tuple[PageSignals, ...]
    answers: tuple[Refusal, ...]

    @property
    def pricing(self) -> Optional[Pricing]:
        """What the response says about paying for it (the same for every agent)."""
        return self.signals[0].pricing if self.signals else None

    @property
    def priced(self) -> bool:
        """Whether the response asks to be paid for (HTTP 402 pay-per-crawl)."""
        return self.pricing is not None and self.pricing.asked

    def price_error(self) -> PagePriced:
        """The :class:`~robotsrules.PagePriced` to raise for a priced response."""
        found = self.pricing
        if found is None or not found.asked:
            raise ValueError("the response asks no payment")
        return PagePriced(self.url or "", found.describe(), self.signals[0], found)

    @property
    def refused(self) -> Optional[Refusal]:
        """The first (agent, purpose) refused by the page or the site, else ``None``."""
        return next((a for a in self.answers if a.answer.allowed is False), None)

    @property
    def stated(self) -> Optional[Refusal]:
        """The first (agent, purpose) explicitly allowed, else ``None``."""
        return next((a for a in self.answers if a.answer.allowed is True), None)

    def error(self) -> PageRefused:
        """The :class:`~robotsrules.PageRefused` to raise for the first refusal."""
        refused = self.refused
        if refused is None:
            raise ValueError("nothing was refused")
        index = next(i for i, a in enumerate(self._agents()) if a == refused.agent)
        return PageRefused(self.url or "", refused.purpose, refused.answer.describe(),
                           self.signals[index])

    def _agents(self) -> tuple[str, ...]:
        seen = []
        for a in self.answers:
            if a.agent not in seen:
                seen.append(a.agent)
        return tuple(seen)


def _name(agent: Agent) -> str:
    return agent if isinstance(agent, str) else ", ".join(agent)


def admit_page(headers: Headers, html: Union[str, bytes, None], *,
               agents: Sequence[Agent], purposes: Union[str, Iterable[str]] = (),
               url: Optional[str] = None,
               usage: Optional[Callable[[Agent], Optional[Usage]]] = None,
               now: Optional[datetime.datetime] = None,
               max_head_bytes: int = DEFAULT_HEAD_BYTES, strict: bool = True,
               tdmrep: Optional[TdmRepFile] = None,
               status: Optional[int] = None, cut: bool = False) -> PageAdmission:
    """Read a response once and answer every purpose for every agent.

    ``agents`` is a list of agents (each as :func:`robotsrules.page_signals` takes it);
    ``usage(agent)`` gives the site's robots.txt preferences for the page (or ``None``),
    combined with the page's signals (:func:`robotsrules.combine`). ``strict=False`` reads
    a stranger's data (stored crawls) without raising on what it cannot read. ``status``
    is the response's HTTP status (402: :attr:`PageAdmission.priced`). ``html`` is read as
    HTML only when the response is HTML by its ``Content-Type`` or, having none usable,
    sniffs as HTML (WHATWG MIME Sniffing §7.1; :func:`reads_body`); given without any
    header field, it is a document and read as HTML. ``cut``: ``html`` is only the start of
    the body (a capture or a reader kept its first bytes, or the rest could not be decoded):
    a head running to its end is cut, and what it does not state is "not known"
    (:attr:`~robotsrules.PageSignals.head_cut`), never "nothing stated".
    """
    wanted = check_purposes(purposes)
    if isinstance(agents, str):
        raise InvalidArgument("agents must be a list of agents, e.g. [agent]")
    response = read_response(headers, html, max_head_bytes=max_head_bytes, strict=strict,
                             status=status, sniff=True, cut=bool(cut))
    facts = page_facts(response, url)  # the same for every agent: read once
    every = []
    answers = []
    for agent in agents:
        signals = signals_of(response, agent, url=url, now=now, tdmrep=tdmrep, facts=facts)
        every.append(signals)
        if not wanted:
            continue
        both = combine(usage(agent) if usage is not None else None, signals)
        for purpose in wanted:
            answers.append(Refusal(_name(agent), purpose, both.decide(purpose)))
    return PageAdmission(url, tuple(every), tuple(answers))
