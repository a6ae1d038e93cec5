"""Page signals against the sources' own examples: one table per source, each row citing it.

Sources (read 2026-11 unless said otherwise):

* ``google`` -- Google Search Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag
  specifications" (developers.google.com/search/docs/crawling-indexing/robots-meta-tag):
  every example of the page that is about page-level rules (data-nosnippet is text-level,
  not a page signal).
* ``mdn`` -- MDN Web Docs, "X-Robots-Tag" (HTTP header reference) and "<meta name>: robots"
  (standard metadata names).
* ``bing`` -- Bing Webmaster Guidelines, "Robots meta tags" (nocache = noarchive for Bing).
* ``tdmrep`` -- W3C TDMRep Community Group final report, CG-FINAL-tdmrep-20240510
  ("TDM Header Field", "TDM Metadata in HTML Content", "Processing priority").
* ``aipref`` -- draft-ietf-aipref-attach (the HTTP ``Content-Usage`` field) and
  draft-ietf-aipref-vocab-07 (2026-08-19: ``train-ai``, ``search``; ``y``/``n``; the most
  restrictive of several preferences).
* ``cloudflare`` -- Cloudflare, Content Signals Policy (contentsignals.org, 2025) and the
  ``Content-Signal`` response header of its Markdown conversion for agents (2026).
* ``nutch`` -- Apache Nutch, TestRobotsMetaProcessor (parse-tika); ``stormcrawler`` --
  Apache StormCrawler, RobotsTagsTest. Where they read differently the row says so and why
  we follow Google (whose crawler the rules were written for).
"""

from __future__ import annotations

import datetime
from typing import Any, Optional

import pytest

from robotsrules import page_signals

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
Headers = Optional[list[tuple[str, str]]]
Row = tuple[str, Headers, Optional[str], str, dict[str, Any]]


def _head(*metas: str) -> str:
    return "<!DOCTYPE html>\n<html><head>\n  " + "\n  ".join(metas) + "\n  (…)\n</head>\n<body>(…)</body>\n</html>"


GOOGLE: list[Row] = [
    ("google: robots noindex applies to all crawlers", None,
     _head('<meta name="robots" content="noindex">'), "Googlebot", {"index": False}),
    ("google: robots noindex, any crawler", None,
     _head('<meta name="robots" content="noindex">'), "AdsBot-Google", {"index": False}),
    ("google: AdsBot-Google addressed by name", None,
     _head('<meta name="AdsBot-Google" content="noindex">'), "AdsBot-Google", {"index": False}),
    ("google: AdsBot-Google rule is not Googlebot's", None,
     _head('<meta name="AdsBot-Google" content="noindex">'), "Googlebot", {"index": True}),
    ("google: googlebot nosnippet", None, _head('<meta name="googlebot" content="nosnippet">'),
     "Googlebot", {"snippet": False}),
    ("google: googlebot-news nosnippet, web results keep snippets", None,
     _head('<meta name="googlebot-news" content="nosnippet">'), "Googlebot", {"snippet": True}),
    ("google: googlebot-news nosnippet for news", None,
     _head('<meta name="googlebot-news" content="nosnippet">'), "Googlebot-News",
     {"snippet": False}),
    ("google: several crawlers, several tags (googlebot)", None,
     _head('<meta name="googlebot" content="notranslate">',
           '<meta name="googlebot-news" content="nosnippet">'), "Googlebot",
     {"translate": False, "snippet": True}),
    ("google: several crawlers, several tags (news)", None,
     _head('<meta name="googlebot" content="notranslate">',
           '<meta name="googlebot-news" content="nosnippet">'), "Googlebot-News",
     {"translate": True, "snippet": False}),
    ("google: X-Robots-Tag noindex", [("Date", "Tue, 25 May 2010 21:42:43 GMT"),
                                      ("X-Robots-Tag", "noindex")], None, "Googlebot",
     {"index": False}),
    ("google: two X-Robots-Tag headers", [("X-Robots-Tag", "noarchive"),
                                          ("X-Robots-Tag",
                                           "unavailable_after: 25 Jun 2010 15:00:00 PST")],
     None, "Googlebot", {"archive": False, "expired": True, "index": False}),
    ("google: X-Robots-Tag scoped to googlebot and otherbot (googlebot)",
     [("X-Robots-Tag", "googlebot: nofollow"), ("X-Robots-Tag", "otherbot: noindex, nofollow")],
     None, "Googlebot", {"index": True, "follow": False}),
    ("google: X-Robots-Tag scoped to googlebot and otherbot (otherbot)",
     [("X-Robots-Tag", "googlebot: nofollow"), ("X-Robots-Tag", "otherbot: noindex, nofollow")],
     None, "OtherBot", {"index": False, "follow": False}),
    ("google: rules without a user agent apply to all", [("X-Robots-Tag", "noindex")], None,
     "AnyBot", {"index": False}),
    ("google: all = no restriction", None, _head('<meta name="robots" content="all">'),
     "Googlebot", {"index": True, "follow": True, "allows:search": None}),
    ("google: none = noindex, nofollow", None, _head('<meta name="robots" content="none">'),
     "Googlebot", {"index": False, "follow": False, "archive": True}),
    ("google: noimageindex", None, _head('<meta name="robots" content="noimageindex">'),
     "Googlebot", {"image_index": False}),
    ("google: max-snippet:20", None, _head('<meta name="robots" content="max-snippet:20">'),
     "Googlebot", {"max_snippet": 20, "snippet": True}),
    ("google: max-snippet:0 = nosnippet", None,
     _head('<meta name="robots" content="max-snippet:0">'), "Googlebot",
     {"max_snippet": 0, "snippet": False}),
    ("google: max-snippet:-1 = no limit", None,
     _head('<meta name="robots" content="max-snippet:-1">'), "Googlebot",
     {"max_snippet": None}),
    ("google: max-image-preview:standard", None,
     _head('<meta name="robots" content="max-image-preview:standard">'), "Googlebot",
     {"max_image_preview": "standard"}),
    ("google: max-video-preview:-1", None,
     _head('<meta name="robots" content="max-video-preview:-1">'), "Googlebot",
     {"max_video_preview": None}),
    ("google: notranslate", None, _head('<meta name="robots" content="notranslate">'),
     "Googlebot", {"translate": False}),
    ("google: unavailable_after ISO 8601", None,
     _head('<meta name="robots" content="unavailable_after: 2020-09-21">'), "Googlebot",
     {"expired": True, "index": False}),
    ("google: indexifembedded with noindex", None,
     _head('<meta name="googlebot" content="noindex, indexifembedded">'), "Googlebot",
     {"index": False}),
    ("google: X-Robots-Tag indexifembedded scoped",
     [("X-Robots-Tag", "googlebot: noindex, indexifembedded")], None, "Googlebot",
     {"index": False}),
    ("google: comma-separated rules", None,
     _head('<meta name="robots" content="noindex, nofollow">'), "Googlebot",
     {"index": False, "follow": False}),
    ("google: the same rules in two tags", None,
     _head('<meta name="robots" content="noindex">', '<meta name="robots" content="nofollow">'),
     "Googlebot", {"index": False, "follow": False}),
    ("google: max-snippet and max-image-preview together", None,
     _head('<meta name="robots" content="max-snippet:20, max-image-preview:large">'),
     "Googlebot", {"max_snippet": 20, "max_image_preview": "large"}),
    ("google: the sum of the negative rules", None,
     _head('<meta name="robots" content="nofollow">', '<meta name="googlebot" content="noindex">'),
     "Googlebot", {"index": False, "follow": False}),
    ("google: the more restrictive rule applies", None,
     _head('<meta name="robots" content="max-snippet:50, nosnippet">'), "Googlebot",
     {"snippet": False, "max_snippet": 0}),
    ("google: name and content are case-insensitive", None,
     _head('<META NAME="ROBOTS" CONTENT="NOINDEX">'), "Googlebot", {"index": False}),
]

MDN: list[Row] = [
    ("mdn: X-Robots-Tag noindex, nofollow", [("X-Robots-Tag", "noindex, nofollow")], None,
     "AnyBot", {"index": False, "follow": False}),
    ("mdn: <bot-name>: <rule> for another bot",
     [("X-Robots-Tag", "BadBot: noindex, nofollow"), ("X-Robots-Tag", "googlebot: nofollow")],
     None, "Googlebot", {"index": True, "follow": False}),
    ("mdn: <bot-name>: <rule> for that bot",
     [("X-Robots-Tag", "BadBot: noindex, nofollow"), ("X-Robots-Tag", "googlebot: nofollow")],
     None, "BadBot", {"index": False, "follow": False}),
    ("mdn: <rule>, <bot-name>: <rule> in one header",
     [("X-Robots-Tag", "nosnippet, googlebot: noindex")], None, "BadBot",
     {"snippet": False, "index": True}),
    ("mdn: bot names are matched whole, digits included",
     [("X-Robots-Tag", "AI2Bot: noindex, nofollow")], None, "Foobot",
     {"index": True, "follow": True}),
    ("mdn: a bot name with digits addresses that bot",
     [("X-Robots-Tag", "AI2Bot: noindex, nofollow")], None, "AI2Bot",
     {"index": False, "follow": False}),
    ("mdn: a bot name with dots", [("X-Robots-Tag", "bigsur.ai: noai")], None, "bigsur.ai",
     {"noai": True}),
    ("mdn: case-insensitive bot names", [("X-Robots-Tag", "GOOGLEBOT: noindex")], None,
     "googlebot", {"index": False}),
    ("mdn: unavailable_after RFC 850", [("X-Robots-Tag",
                                         "unavailable_after: Friday, 25-Jun-10 15:00:00 GMT")],
     None, "AnyBot", {"expired": True}),
    ("mdn meta robots: noindex, nofollow", None,
     _head('<meta name="robots" content="noindex, nofollow">'), "AnyBot",
     {"index": False, "follow": False}),
]

BING: list[Row] = [
    ("bing: nocache is noarchive", None, _head('<meta name="robots" content="nocache">'),
     "bingbot", {"archive": False}),
    ("bing: bingbot addressed by name", None, _head('<meta name="bingbot" content="noindex">'),
     "bingbot", {"index": False}),
    ("bing: bingbot rules are not Googlebot's", None,
     _head('<meta name="bingbot" content="noindex">'), "Googlebot", {"index": True}),
    ("bing: X-Robots-Tag noarchive", [("X-Robots-Tag", "noarchive")], None, "bingbot",
     {"archive": False}),
]

TDMREP: list[Row] = [
    ("tdmrep: header 1", [("Content-type", "image/jpg"), ("tdm-reservation", "1")], None,
     "AnyBot", {"tdm_reservation": 1, "allows:ai-train": False}),
    ("tdmrep: header 1 with a policy", [("tdm-reservation", "1"),
                                        ("tdm-policy", "https://provider.com/policies/policy.json")],
     None, "AnyBot", {"tdm_policy": "https://provider.com/policies/policy.json"}),
    ("tdmrep: metadata in HTML content", None,
     _head('<meta charset="utf-8">', '<meta name="tdm-reservation" content="1">',
           '<meta name="tdm-policy" content="https://provider.com/policies/policy.json">'),
     "AnyBot", {"tdm_reservation": 1, "tdm_policy": "https://provider.com/policies/policy.json"}),
    ("tdmrep: HTML metadata supersedes the header", [("tdm-reservation", "1")],
     _head('<meta name="tdm-reservation" content="0">'), "AnyBot",
     {"tdm_reservation": 0, "allows:ai-train": True}),
    ("tdmrep: policy not processed when not reserved", [("tdm-reservation", "0"),
                                                         ("tdm-policy", "https://p/x")], None,
     "AnyBot", {"tdm_policy": None}),
    ("tdmrep: other values are protocol errors (read as reserved here)",
     [("tdm-reservation", "2")], None, "AnyBot", {"tdm_reservation": 1, "tdm_invalid": True}),
]

AIPREF: list[Row] = [
    ("aipref: Content-Usage train-ai=n", [("Content-Usage", "train-ai=n")], None, "AnyBot",
     {"allows:train-ai": False, "allows:search": None}),
    ("aipref: train-ai=n, search=y", [("Content-Usage", "train-ai=n, search=y")], None,
     "AnyBot", {"allows:train-ai": False, "allows:search": True}),
    ("aipref: unknown keys are ignored", [("Content-Usage", "train-ai=y, foo=n")], None,
     "AnyBot", {"allows:train-ai": True}),
    ("aipref: the most restrictive of several", [("Content-Usage", "search=y"),
                                                  ("Content-Usage", "search=n")], None,
     "AnyBot", {"allows:search": False}),
    ("aipref: RFC 9651 sizes are read (1,024 members, 64-character keys)",
     [("Content-Usage", ", ".join(f"k{i:063d}=y" for i in range(1022))
       + ", train-ai=n, search=y")],
     None, "AnyBot", {"allows:train-ai": False, "allows:search": True}),
]

CLOUDFLARE: list[Row] = [
    ("cloudflare: Content-Signal header", [("Content-Signal", "ai-train=yes, search=yes, ai-input=yes")],
     None, "AnyBot", {"allows:ai-train": True, "allows:search": True, "allows:ai-input": True}),
    ("cloudflare: Content-Signal ai-train=no", [("Content-Signal", "search=yes, ai-train=no")],
     None, "AnyBot", {"allows:ai-train": False, "allows:train-ai": False}),
]

NUTCH: list[Row] = [
    # Nutch also reads <meta http-equiv="pragma" content="no-cache"> as nocache; no robots
    # source documents that, so it is not read here (archive stays True).
    ("nutch: NONE", None, "<html><head><title>test page</title><META NAME=\"ROBOTS\" "
     "CONTENT=\"NONE\"> <META HTTP-EQUIV=\"PRAGMA\" CONTENT=\"NO-CACHE\"> </head><body> some "
     "text</body></html>", "Nutch", {"index": False, "follow": False, "archive": True}),
    ("nutch: all", None, "<html><head><title>test page</title><meta name=\"robots\" "
     "content=\"all\"> </head><body> some text</body></html>", "Nutch",
     {"index": True, "follow": True}),
    ("nutch: nOnE (mixed case)", None, "<html><head><title>test page</title><MeTa "
     "NaMe=\"RoBoTs\" CoNtEnT=\"nOnE\"> </head><body> some text</body></html>", "Nutch",
     {"index": False, "follow": False}),
    ("nutch: noindex,nofollow", None, "<html><head><title>test page</title><meta "
     "name=\"robots\" content=\"noindex,nofollow\"> </head><body> some text</body></html>",
     "Nutch", {"index": False, "follow": False, "archive": True}),
    ("nutch: noindex,follow", None, "<html><head><meta name=\"robots\" "
     "content=\"noindex,follow\"></head><body></body></html>", "Nutch",
     {"index": False, "follow": True}),
    ("nutch: index,nofollow", None, "<html><head><meta name=\"robots\" "
     "content=\"index,nofollow\"></head><body></body></html>", "Nutch",
     {"index": True, "follow": False}),
    ("nutch: robots meta without content", None, "<html><head><title>test page</title><meta "
     "name=\"robots\"> </head><body> some text</body></html>", "Nutch",
     {"index": True, "follow": True}),
]

STORMCRAWLER: list[Row] = [
    # StormCrawler also sets nocache for "none"; Google defines none as "noindex, nofollow".
    ("stormcrawler: X-Robots-Tag none", [("X-Robots-Tag", "none")], None, "StormCrawler",
     {"index": False, "follow": False, "archive": True}),
    ("stormcrawler: two X-Robots-Tag values", [("X-Robots-Tag", "noindex"),
                                               ("X-Robots-Tag", "nofollow")], None,
     "StormCrawler", {"index": False, "follow": False, "archive": True}),
    ("stormcrawler: a comma-separated value", [("X-Robots-Tag", "noindex, nofollow")], None,
     "StormCrawler", {"index": False, "follow": False}),
    ("stormcrawler: no header", [], None, "StormCrawler",
     {"index": True, "follow": True, "archive": True}),
]

TABLES = GOOGLE + MDN + BING + TDMREP + AIPREF + CLOUDFLARE + NUTCH + STORMCRAWLER


@pytest.mark.parametrize(("source", "headers", "html", "agent", "expected"), TABLES,
                         ids=[row[0] for row in TABLES])
def test_source_examples(source: str, headers: Headers, html: Optional[str], agent: str,
                         expected: dict[str, Any]) -> None:
    signals = page_signals(headers, html, agent=agent, now=NOW)
    for key, value in expected.items():
        if key.startswith("allows:"):
            got = signals.allows(key.partition(":")[2])
        else:
            got = getattr(signals, key)
        assert got == value, (source, key, got)


def test_every_source_has_a_table() -> None:
    prefixes = {row[0].split(":")[0].split(" ")[0] for row in TABLES}
    assert prefixes >= {"google", "mdn", "bing", "tdmrep", "aipref", "cloudflare", "nutch",
                        "stormcrawler"}
