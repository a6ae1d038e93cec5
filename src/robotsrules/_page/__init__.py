"""The page layer: what a response itself says may be done with it.

robots.txt says where a crawler may go; the page it fetched can say more, in its response
headers and in the ``<meta>`` elements of its HTML head. One home for each part:

==================  ==========================================================================
``_headers``        response headers in every form (mappings, multi-dicts, pairs, raw blocks
                    with folded lines, bytes), read into one list of fields
``_encoding``       the HTML standard's encoding sniffing (BOM, transport, prescan, default)
``_html``           the head's ``<meta>`` elements as the HTML standard's tokenizer and tree
                    builder place them
``_robots``         robots meta / ``X-Robots-Tag`` rules (Google, Bing, DeviantArt), crawler
                    names and dates
``_tdmrep``         TDMRep: the site file, header and meta values
``_prefs``          ``Content-Usage`` (aipref) and ``Content-Signal`` (Cloudflare) headers
``_signals``        :class:`Directive`, :class:`PageSignals` and the fold for one agent
``_combine``        robots.txt preferences and page signals read together
``_admit``          one admission step for every agent and purpose; the purpose validator
==================  ==========================================================================

A new header (a ``Robots-Tag`` field, ``Link: rel=license``, HTTP 402 pricing) is one
reader in ``_signals._signals``' loop over fields and, where it states purposes, one more
``_preference`` call. Everything here is pure (no I/O) and imports only the standard
library and the core. Every decision and its source is written down in
``docs/guides/page-signals.md``.
"""

from ._admit import PageAdmission, Refusal, admit_page, check_purposes
from ._combine import Answer, Combined, combine
from ._headers import Field, Headers, header_block, is_html, read_headers
from ._html import DEFAULT_HEAD_BYTES, Head, Meta, read_head, read_head_meta
from ._signals import (
    TDM_SIGNALS,
    Decision,
    Directive,
    PageSignals,
    Response,
    page_signals,
    page_signals_for,
    read_response,
    signals_of,
)
from ._tdmrep import TDMREP_PATH, TdmRepFile, TdmRule, parse_tdmrep, tdmrep_from

__all__ = [
    "DEFAULT_HEAD_BYTES",
    "TDMREP_PATH",
    "TDM_SIGNALS",
    "Answer",
    "Combined",
    "Decision",
    "Directive",
    "Field",
    "Head",
    "Headers",
    "Meta",
    "PageAdmission",
    "PageSignals",
    "Refusal",
    "Response",
    "TdmRepFile",
    "TdmRule",
    "admit_page",
    "check_purposes",
    "combine",
    "header_block",
    "is_html",
    "page_signals",
    "page_signals_for",
    "parse_tdmrep",
    "read_head",
    "read_head_meta",
    "read_headers",
    "read_response",
    "signals_of",
    "tdmrep_from",
]
