"""The page layer: what a response itself says may be done with it.

robots.txt says where a crawler may go; the page it fetched can say more, in its response
headers and in the ``<meta>`` elements of its HTML head. One home for each part:

==================  ==========================================================================
``_headers``        response headers in every form (mappings, multi-dicts, pairs, raw blocks
                    with folded lines, bytes), read into one list of fields
``_encoding``       the HTML standard's encoding sniffing (BOM, transport, prescan, default)
``_html``           the head's ``<meta>`` elements as the HTML standard's tokenizer and tree
                    builder place them (and its licence ``<link>``, ``<base>`` and RSL
                    ``<script>`` elements); which bodies are HTML (type, else WHATWG MIME
                    sniffing)
``_robots``         robots meta / ``X-Robots-Tag`` rules (Google, Bing, DeviantArt), crawler
                    names and dates
``_tdmrep``         TDMRep: the site file, header and meta values
``_prefs``          ``Content-Usage`` (aipref) and ``Content-Signal`` (Cloudflare) headers
``_signals``        :class:`PageSignals` and the public functions that read a response
``_fold``           :class:`Directive`, a response's facts and the fold for one agent
``_combine``        robots.txt preferences and page signals read together
``_admit``          one admission step for every agent and purpose (and whether it needs a
                    response's body); the purpose validator
``_robotstag``      ``Robots-Tag`` (draft-illyes-repext): an RFC 9651 List read beside
                    ``X-Robots-Tag``
``_links``          ``Link`` headers (RFC 8288): the licences (RSL 1.0) and terms links
``_pricing``        pay-per-crawl: HTTP 402 with ``crawler-price`` / ``crawler-error``
==================  ==========================================================================

A new header is one reader in ``_fold.signals``' loop over fields (or, when it says the
same for every agent, in ``_fold.facts_of``, read once per response) and, where it
states purposes, one more ``_preference`` call. Everything here is pure (no I/O) and imports
only the standard library and the core. Every decision and its source is written down in
``docs/guides/page-signals.md``.
"""

from ._admit import (
    HeadReader,
    PageAdmission,
    Refusal,
    admit_page,
    reads_body,
    reads_body_of,
)
from ._combine import Answer, Combined, combine
from ._headers import Field, Headers, header_block, is_html, read_headers
from ._html import DEFAULT_HEAD_BYTES, Head, InlineScript, Link, Meta, read_head, read_head_meta
from ._links import LicenseLink, license_urls
from ._pricing import Pricing
from ._signals import (
    TDM_SIGNALS,
    Decision,
    Directive,
    PageSignals,
    Response,
    page_facts,
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
    "HeadReader",
    "Headers",
    "InlineScript",
    "LicenseLink",
    "Link",
    "Meta",
    "PageAdmission",
    "PageSignals",
    "Pricing",
    "Refusal",
    "Response",
    "TdmRepFile",
    "TdmRule",
    "admit_page",
    "combine",
    "header_block",
    "is_html",
    "license_urls",
    "page_facts",
    "page_signals",
    "page_signals_for",
    "parse_tdmrep",
    "read_head",
    "read_head_meta",
    "read_headers",
    "read_response",
    "reads_body",
    "reads_body_of",
    "signals_of",
    "tdmrep_from",
]
