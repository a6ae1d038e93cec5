"""Page signals for one agent: the directives a response states, folded into one answer.

:func:`read_response` reads a response once (its header fields, :mod:`._headers`; the metas
of its HTML head, :mod:`._html`); :func:`signals_of` turns that reading into a
:class:`PageSignals` for one agent: every source becomes :class:`Directive` records (where
it was read, which crawler it names, whether it applies to the agent, its value), and the
directives that apply are folded by one rule, the most restrictive wins (Google: "In the
case of conflicting robots rules, the more restrictive rule applies"; draft-ietf-aipref-vocab
"Combining Preferences" says the same for usage preferences). The exception is TDMRep,
processed field by field in the report's order (:func:`_tdm`). Metas that the HTML standard
moves out of the head (``Directive.in_head`` false) restrict and never permit.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Optional, Union

from .._rules._agents import Agent
from .._tables import _purposes as purposes
from ..errors import InvalidArgument
from ._fold import TDM_SIGNALS, Directive, Facts, Maker, Response, facts_of, signals
from ._headers import Headers, block_status, content_type, read_headers
from ._html import DEFAULT_HEAD_BYTES, InlineScript, read_head, reads_as_html
from ._links import LicenseLink, license_urls
from ._pricing import Pricing
from ._robots import page_agents
from ._tdmrep import TdmRepFile

__all__ = ["TDM_SIGNALS", "Decision", "Directive", "Facts", "PageSignals", "Response",
           "decide", "page_facts", "page_signals", "page_signals_for", "read_response",
           "signals_of"]

Decision = tuple[Optional[bool], Optional[Directive]]
"""An answer for a purpose and the directive that decided it (``None`` when none did)."""

_Stated = Mapping[str, tuple[bool, Directive]]


@dataclass(frozen=True)
class PageSignals:
    """What one response says, for one agent (see :func:`page_signals`).

    Indexing and serving rules (Google's semantics; defaults when nothing is said):
    ``index`` (``False`` after ``noindex``/``none``, or once ``unavailable_after`` has
    passed at ``now``), ``follow``, ``archive``, ``snippet``, ``image_index``,
    ``translate``; ``max_snippet`` / ``max_video_preview`` (``None``: no limit stated;
    ``0``: none; ``-1`` is read as no limit), ``max_image_preview`` (``"none"``,
    ``"standard"``, ``"large"`` or ``None``), ``unavailable_after`` (an aware
    ``datetime``) and ``expired``. ``noai``/``noimageai``: the DeviantArt tokens.
    ``tdm_reservation`` (``1`` reserved, ``0`` not reserved, ``None`` unset),
    ``tdm_invalid`` (the reservation in effect was read from a value that is not ``0`` or
    ``1``, or from values that disagree, and is therefore ``1``) and ``tdm_policy``;
    ``content_usage``: the Content-Usage header's stated categories; ``content_signal``:
    the Content-Signal header's stated signals. ``directives``: everything read, including
    what names other crawlers.

    Licences and payment (the same for every agent): ``licenses``, every ``rel=license``
    link of the ``Link`` header and of the HTML head (:class:`._links.LicenseLink`; the RSL
    ones have ``rsl`` true, :attr:`license_urls` lists their URLs), ``inline_licenses``, the
    ``<script type="application/rsl+xml">`` licences of the head (their XML text: read them
    with :func:`robotsrules.parse_license`), and ``pricing``, what a pay-per-crawl response
    (HTTP 402, ``crawler-price``) asks (:class:`._pricing.Pricing`; ``None``: nothing).

    ``head_cut``: the body went on past the bytes read (``max_head_bytes``) before its
    ``<body>`` tag, so its head may hold metas that were not read: what the defaults say
    here is not "nothing stated" but "not known" (:func:`robotsrules.combine` answers
    ``None`` rather than ``True`` for every purpose the page would otherwise permit).
    """

    agent: tuple[str, ...]
    directives: tuple[Directive, ...]
    index: bool = True
    follow: bool = True
    archive: bool = True
    snippet: bool = True
    image_index: bool = True
    translate: bool = True
    max_snippet: Optional[int] = None
    max_image_preview: Optional[str] = None
    max_video_preview: Optional[int] = None
    unavailable_after: Optional[datetime.datetime] = None
    expired: bool = False
    noai: bool = False
    noimageai: bool = False
    tdm_reservation: Optional[int] = None
    tdm_invalid: bool = False
    tdm_policy: Optional[str] = None
    content_usage: Mapping[str, bool] = field(default_factory=dict)
    content_signal: Mapping[str, bool] = field(default_factory=dict)
    signals: _Stated = field(default_factory=dict, repr=False)
    """Statements in Content Signals names (``search``, ``ai-input``, ``ai-train``) read
    from robots rules, TDMRep and the Content-Signal header, each with the directive that
    made it."""
    categories: _Stated = field(default_factory=dict, repr=False)
    """Statements in IETF category labels, from the Content-Usage header."""
    licenses: tuple[LicenseLink, ...] = ()
    inline_licenses: tuple[InlineScript, ...] = ()
    pricing: Optional[Pricing] = None
    head_cut: bool = False

    @property
    def license_urls(self) -> tuple[str, ...]:
        """The RSL licence URLs the response names (``Link`` header first, then the HTML
        head), each once: links typed ``application/rsl+xml`` whose URL is ``http(s)``.
        Without a page ``url`` a relative link stays as written and is not listed."""
        return license_urls(self.licenses)

    @property
    def priced(self) -> bool:
        """Whether the response asks to be paid for (HTTP 402 pay-per-crawl)."""
        return self.pricing is not None and self.pricing.asked

    def allows(self, purpose: str) -> Optional[bool]:
        """``True`` (stated yes), ``False`` (stated no) or ``None`` (nothing stated, or not
        known: :attr:`head_cut`).

        ``purpose`` is one of the names :meth:`robotsrules.Usage.allows` takes
        (``"search"``, ``"ai-input"``, ``"ai-train"`` and the IETF vocabulary's categories);
        anything else raises :class:`~robotsrules.InvalidPurpose`.
        """
        return self.decide(purpose)[0]

    def decide(self, purpose: str) -> Decision:
        """The answer for ``purpose`` and the directive that decided it (``(None, None)``,
        not known, for anything but a refusal when :attr:`head_cut`)."""
        answer = decide(purpose, self.signals, self.categories)
        if self.head_cut and answer[0] is not False:
            return (None, None)  # a meta past the bytes read may say no
        return answer

    @property
    def applying(self) -> tuple[Directive, ...]:
        """The directives that apply to the agent."""
        return tuple(d for d in self.directives if d.applies)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the CLI's ``--json`` shape)."""
        return {
            "agent": list(self.agent),
            "index": self.index, "follow": self.follow, "archive": self.archive,
            "snippet": self.snippet, "image_index": self.image_index,
            "translate": self.translate, "max_snippet": self.max_snippet,
            "max_image_preview": self.max_image_preview,
            "max_video_preview": self.max_video_preview,
            "unavailable_after": (self.unavailable_after.isoformat()
                                  if self.unavailable_after else None),
            "expired": self.expired, "noai": self.noai, "noimageai": self.noimageai,
            "tdm_reservation": self.tdm_reservation, "tdm_invalid": self.tdm_invalid,
            "tdm_policy": self.tdm_policy,
            "content_usage": dict(self.content_usage),
            "content_signal": dict(self.content_signal),
            "license_urls": list(self.license_urls),
            "licenses": [link._asdict() for link in self.licenses],
            "inline_licenses": [script._asdict() for script in self.inline_licenses],
            "pricing": None if self.pricing is None else {
                **self.pricing._asdict(), "terms": list(self.pricing.terms)},
            "head_cut": self.head_cut,
            "directives": [d._asdict() for d in self.directives],
        }


_FIELDS = {f.name: f.default for f in fields(PageSignals)}  # every field, in their order
_FACTORIES = tuple((f.name, f.default_factory) for f in fields(PageSignals)
                   if f.default_factory is not MISSING)


_MAKER: Maker = (PageSignals, _FIELDS, _FACTORIES)
"""How the fold makes each agent's :class:`PageSignals` (:func:`._fold.made`: without the
frozen dataclass's ``__init__``, which sets each of its 25 fields through
``object.__setattr__``; ``tests/page/test_signals_properties.py`` compares the two ways)."""


def decide(purpose: str, signals: _Stated, categories: _Stated) -> Decision:
    """Answer ``purpose`` from stated signals and categories, with the deciding directive.

    The answer is :func:`robotsrules._tables._purposes.explain`'s (the two vocabularies mapped onto
    each other as the current revision reads them, most restrictive first); the decider is
    the statement that gave that answer.
    """
    answer, deciders = purposes.explain(purpose, {k: v for k, (v, _) in signals.items()},
                                        {k: v for k, (v, _) in categories.items()})
    for kind, name in deciders:
        value, directive = (signals if kind == "signal" else categories)[name]
        if value is answer:
            return (answer, directive)
    return (answer, None)


# ------------------------------------------------------------------------ reading

def _status(status: Any, strict: bool) -> Optional[int]:
    if status is None:
        return None
    if isinstance(status, int) and not isinstance(status, bool) and 100 <= status <= 999:
        return status
    if strict:
        raise InvalidArgument(f"status must be an HTTP status code (100-999), not {status!r}")
    return None


def _head_bytes(max_head_bytes: Any) -> int:
    if isinstance(max_head_bytes, bool) or not isinstance(max_head_bytes, int) \
            or max_head_bytes < 0:
        raise InvalidArgument(f"max_head_bytes must be an integer >= 0, not "
                              f"{max_head_bytes!r}")
    return max_head_bytes


def read_response(headers: Headers, html: Union[str, bytes, None] = None, *,
                  max_head_bytes: int = DEFAULT_HEAD_BYTES, strict: bool = True,
                  status: Optional[int] = None, sniff: bool = False,
                  cut: bool = False) -> Response:
    """Read a response's headers (every form :func:`._headers.read_headers` reads) and the
    head of its HTML body, once. ``status`` is the response's HTTP status (a raw header
    block's status line gives it when ``None``). ``strict=False`` is for a stranger's data (a
    crawl's records, engine rows, datatrove metadata): what cannot be read is skipped, never
    raised. ``sniff`` (the admission step): a body whose response has header fields is read
    only when it is HTML by its ``Content-Type`` or, without a usable one, sniffed as HTML
    (:func:`._html.reads_as_html`, WHATWG MIME Sniffing); a body given without any header
    field is a document, read as HTML. ``cut``: ``html`` is only the start of the body (a
    capture kept its first bytes; :attr:`PageSignals.head_cut`)."""
    limit = _head_bytes(max_head_bytes)
    code = _status(status, strict)
    if code is None:
        code = block_status(headers)
    fields = read_headers(headers, strict=bool(strict))  # a truthy value, as pure Python reads it
    if not strict and not isinstance(html, (str, bytes, bytearray, memoryview)):
        html = None
    kind = content_type(fields)
    if sniff and fields and html is not None and not reads_as_html(kind, html):
        html = None  # not HTML: its bytes say nothing of the page's rules
    return Response(fields, read_head(html, max_bytes=limit, content_type=kind, cut=bool(cut)),
                    code)


def page_signals(headers: Headers, html: Union[str, bytes, None] = None, *,
                 agent: Agent, url: Optional[str] = None,
                 now: Optional[datetime.datetime] = None,
                 max_head_bytes: int = DEFAULT_HEAD_BYTES,
                 tdmrep: Optional[TdmRepFile] = None,
                 status: Optional[int] = None) -> PageSignals:
    """Read a response's page-level signals for ``agent``.

    ``headers``: the response headers in any form (a mapping, ``httpx.Headers``, Scrapy
    ``Headers``, ``(name, value)`` pairs, a raw ``Name: value`` block as ``str`` or
    ``bytes``; ``None`` for none); ``html``: the body, of which only the head is read (at
    most ``max_head_bytes``; bytes are decoded as the HTML standard sniffs them);
    ``agent``: the crawler's name(s) (a product token as for :meth:`RobotsTxt.allowed`, or
    a name with digits or dots such as ``AI2Bot``); ``url`` is the page's URL (needed with
    ``tdmrep``); ``now`` decides whether ``unavailable_after`` has passed (default: the
    current time, UTC); ``tdmrep`` is the site's TDMRep file (:meth:`RobotsCache.tdmrep`),
    whose rule for ``url`` the response's own TDMRep header or meta supersede, field by
    field (TDMRep "Processing priority"). ``status`` is the HTTP status (``402`` with
    ``crawler-price``: :attr:`PageSignals.pricing`); a raw header block's status line gives
    it when not passed. ``url`` also resolves the licence links (:attr:`PageSignals.licenses`).

    >>> s = page_signals({"X-Robots-Tag": "googlebot: noindex"}, agent="Googlebot")
    >>> s.index, s.follow, s.allows("search")
    (False, True, False)
    """
    names = page_agents(agent)
    response = read_response(headers, html, max_head_bytes=max_head_bytes, status=status)
    return _signals(names, response, url, now, tdmrep)


def page_signals_for(headers: Headers, html: Union[str, bytes, None],
                     agents: Sequence[Agent], *, url: Optional[str] = None,
                     now: Optional[datetime.datetime] = None,
                     max_head_bytes: int = DEFAULT_HEAD_BYTES,
                     strict: bool = True,
                     status: Optional[int] = None, cut: bool = False,
                     sniff: bool = False) -> list[PageSignals]:
    """:func:`page_signals` for each of ``agents``, the response read once (the bulk paths
    judge every page for several agents). ``cut``: ``html`` is only the first bytes of the
    body (a WARC capture's), so a head running to its end is cut
    (:attr:`PageSignals.head_cut`); ``sniff``: the body is read only where it is HTML, as
    :func:`robotsrules._page.admit_page` reads it (:func:`read_response`)."""
    names = [page_agents(agent) for agent in agents]
    response = read_response(headers, html, max_head_bytes=max_head_bytes, strict=strict,
                             status=status, cut=cut, sniff=sniff)
    facts = page_facts(response, url)
    return [_signals(each, response, url, now, None, facts) for each in names]


def signals_of(response: Response, agent: Agent, *, url: Optional[str] = None,
               now: Optional[datetime.datetime] = None,
               tdmrep: Optional[TdmRepFile] = None,
               facts: Optional[Facts] = None) -> PageSignals:
    """The signals of a response already read (:func:`read_response`) for ``agent``
    (``facts``: its :func:`page_facts` for ``url``, when already read for another agent)."""
    return _signals(page_agents(agent), response, url, now, tdmrep, facts)


def page_facts(response: Response, url: Optional[str]) -> Facts:
    """The :class:`Facts` of a response (``url``: the page's, to resolve links against)."""
    return facts_of(response, url)


def _signals(names: Any, response: Response, url: Optional[str],
             now: Optional[datetime.datetime], tdmrep: Optional[TdmRepFile],
             facts: Optional[Facts] = None) -> PageSignals:
    """The signals for one agent (its lower-cased names) from a response already read
    (the fold: :func:`._fold.signals`)."""
    result: PageSignals = signals(names, response, url, now, tdmrep, facts, _MAKER)
    return result
