"""page_signals: robots meta tags, X-Robots-Tag, noai, TDMRep and Content-Usage.

Tests are named by where the expected behaviour comes from: ``google_*`` (Google Search
Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications"), ``tdmrep_*``
(W3C TDMRep final community group report), ``aipref_*`` (draft-ietf-aipref-attach §2 and
the vocabulary), ``deviantart_*`` (the noai/noimageai announcement), ``decision_*``
(choices of ours, written down in docs/guides/page-signals.md), ``hostile_*``.
"""

from __future__ import annotations

import datetime
import email
import http.client
import io

import pytest

import robotsrules
from robotsrules import page_signals
from robotsrules._page import read_head_meta, read_headers
from robotsrules.errors import InvalidPurpose

UTC = datetime.timezone.utc
NOW = datetime.datetime(2026, 1, 1, tzinfo=UTC)


def html_head(*metas: str) -> str:
    return "<!DOCTYPE html><html><head>" + "".join(metas) + "<title>t</title></head><body>x</body></html>"


# ------------------------------------------------------------------------ Google

def test_google_meta_robots_noindex_applies_to_every_crawler() -> None:
    page = html_head('<meta name="robots" content="noindex">')
    for agent in ("Googlebot", "ExampleBot", "*"):
        signals = page_signals({}, page, agent=agent)
        assert signals.index is False and signals.follow is True
        assert signals.allows("search") is False


def test_google_meta_named_for_one_crawler_applies_to_it_only() -> None:
    page = html_head('<meta name="googlebot" content="nosnippet">')
    assert page_signals(None, page, agent="Googlebot").snippet is False
    other = page_signals(None, page, agent="Bingbot")
    assert other.snippet is True
    assert [d.applies for d in other.directives] == [False]
    assert other.directives[0].scope == "googlebot"


def test_google_several_meta_tags_for_several_crawlers() -> None:
    page = html_head('<meta name="googlebot" content="notranslate">',
                     '<meta name="googlebot-news" content="nosnippet">')
    web = page_signals(None, page, agent="Googlebot")
    news = page_signals(None, page, agent="Googlebot-News")
    assert (web.translate, web.snippet) == (False, True)
    assert (news.translate, news.snippet) == (True, False)
    both = page_signals(None, page, agent=["Googlebot", "Googlebot-News"])
    assert (both.translate, both.snippet) == (False, False)


def test_google_name_and_content_are_case_insensitive() -> None:
    page = html_head('<META NAME="ROBOTS" CONTENT="NoIndex, NOFOLLOW">')
    signals = page_signals(None, page, agent="ExampleBot")
    assert (signals.index, signals.follow) == (False, False)
    header = page_signals({"x-robots-tag": "GoogleBot: NOINDEX"}, agent="googlebot")
    assert header.index is False


def test_google_none_means_noindex_nofollow_and_all_means_nothing() -> None:
    none = page_signals({"X-Robots-Tag": "none"}, agent="ExampleBot")
    assert (none.index, none.follow) == (False, False)
    everything = page_signals({"X-Robots-Tag": "all"}, agent="ExampleBot")
    assert (everything.index, everything.follow, everything.snippet) == (True, True, True)
    assert everything.allows("search") is None  # "all" is the default, not a statement


def test_google_x_robots_tag_headers_combine_and_commas_separate() -> None:
    # Google's example: noarchive and unavailable_after in two headers of one response.
    signals = page_signals([("X-Robots-Tag", "noarchive"),
                            ("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST")],
                           agent="Googlebot", now=NOW)
    assert signals.archive is False
    assert signals.unavailable_after == datetime.datetime(
        2010, 6, 25, 15, tzinfo=datetime.timezone(datetime.timedelta(hours=-8)))
    assert signals.expired is True and signals.index is False
    one = page_signals({"X-Robots-Tag": "noindex, nofollow"}, agent="x")
    assert (one.index, one.follow) == (False, False)


def test_google_x_robots_tag_user_agent_scoping() -> None:
    headers = [("X-Robots-Tag", "googlebot: nofollow"),
               ("X-Robots-Tag", "otherbot: noindex, nofollow")]
    google = page_signals(headers, agent="Googlebot")
    assert (google.index, google.follow) == (True, False)
    other = page_signals(headers, agent="OtherBot")
    assert (other.index, other.follow) == (False, False)
    third = page_signals(headers, agent="ThirdBot")
    assert (third.index, third.follow) == (True, True)
    assert [d.scope for d in third.directives] == ["googlebot", "otherbot", "otherbot"]


def test_google_unscoped_rules_before_a_scope_apply_to_everyone() -> None:
    # "X-Robots-Tag: <indexing-rule>, <bot-name>: <indexing-rule>" (MDN's syntax summary).
    headers = {"X-Robots-Tag": "nosnippet, googlebot: noindex"}
    assert page_signals(headers, agent="ExampleBot").snippet is False
    assert page_signals(headers, agent="ExampleBot").index is True
    assert page_signals(headers, agent="Googlebot").index is False


def test_google_most_restrictive_rule_applies() -> None:
    # Google: "if a page has both max-snippet:50 and nosnippet rules, the nosnippet rule
    # will apply."
    page = html_head('<meta name="robots" content="max-snippet:50, nosnippet">')
    signals = page_signals(None, page, agent="Googlebot")
    assert signals.snippet is False and signals.max_snippet == 0
    page = html_head('<meta name="robots" content="max-snippet:50">',
                     '<meta name="googlebot" content="max-snippet:20">')
    assert page_signals(None, page, agent="Googlebot").max_snippet == 20
    assert page_signals(None, page, agent="Other").max_snippet == 50
    page = html_head('<meta name="robots" content="index">',
                     '<meta name="googlebot" content="noindex">')
    assert page_signals(None, page, agent="Googlebot").index is False


@pytest.mark.parametrize(("value", "expected", "snippet"), [
    ("0", 0, False),      # "No snippet is to be shown. Equivalent to nosnippet."
    ("-1", None, True),   # "Google will choose the snippet length"
    ("20", 20, True),
    ("abc", None, True),  # not a number: ignored
    ("-5", None, True),
    ("", None, True),
])
def test_google_max_snippet_values(value: str, expected: object, snippet: bool) -> None:
    signals = page_signals({"X-Robots-Tag": f"max-snippet: {value}"}, agent="x")
    assert (signals.max_snippet, signals.snippet) == (expected, snippet)


@pytest.mark.parametrize(("content", "expected"), [
    ("max-image-preview:none", "none"),
    ("max-image-preview:standard", "standard"),
    ("max-image-preview:LARGE", "large"),
    ("max-image-preview:huge", None),
    ("max-image-preview:large, max-image-preview:standard", "standard"),
])
def test_google_max_image_preview(content: str, expected: object) -> None:
    page = html_head(f'<meta name="robots" content="{content}">')
    assert page_signals(None, page, agent="x").max_image_preview == expected


def test_google_max_video_preview_and_other_rules() -> None:
    signals = page_signals({"X-Robots-Tag": "max-video-preview: 0, noimageindex, "
                                            "notranslate, indexifembedded"}, agent="x")
    assert signals.max_video_preview == 0
    assert (signals.image_index, signals.translate, signals.index) == (False, False, True)


@pytest.mark.parametrize(("text", "expected"), [
    ("25 Jun 2010 15:00:00 PST", datetime.datetime(2010, 6, 25, 23, tzinfo=UTC)),
    ("Fri, 25 Jun 2010 15:00:00 PST", datetime.datetime(2010, 6, 25, 23, tzinfo=UTC)),
    ("Friday, 25-Jun-10 15:00:00 GMT", datetime.datetime(2010, 6, 25, 15, tzinfo=UTC)),
    ("2020-09-21", datetime.datetime(2020, 9, 21, tzinfo=UTC)),
    ("2020-09-21T15:00:00Z", datetime.datetime(2020, 9, 21, 15, tzinfo=UTC)),
    ("2020-09-21T15:00:00+02:00", datetime.datetime(2020, 9, 21, 13, tzinfo=UTC)),
])
def test_google_unavailable_after_date_formats(text: str, expected: datetime.datetime) -> None:
    for headers in ({"X-Robots-Tag": f"unavailable_after: {text}"},
                    {"X-Robots-Tag": f"unavailable_after: {text}, noarchive"}):
        signals = page_signals(headers, agent="x", now=NOW)
        assert signals.unavailable_after == expected
        assert signals.expired is True and signals.index is False
    page = html_head(f'<meta name="robots" content="unavailable_after: {text}">')
    assert page_signals(None, page, agent="x", now=NOW).unavailable_after == expected


def test_google_unavailable_after_in_the_future_and_invalid() -> None:
    future = page_signals({"X-Robots-Tag": "unavailable_after: 2030-01-01"}, agent="x",
                          now=NOW)
    assert future.expired is False and future.index is True
    assert future.allows("search") is None
    later = page_signals({"X-Robots-Tag": "unavailable_after: 2030-01-01"}, agent="x",
                         now=datetime.datetime(2031, 1, 1))  # naive: read as UTC
    assert later.expired is True and later.allows("search") is False
    bad = page_signals({"X-Robots-Tag": "unavailable_after: next tuesday, noindex"},
                       agent="x", now=NOW)
    assert bad.unavailable_after is None
    assert [(d.rule, d.valid) for d in bad.directives] == [
        ("unavailable_after", False), ("noindex", True)]


def test_google_scoped_unavailable_after_with_commas() -> None:
    headers = {"X-Robots-Tag": "googlebot: unavailable_after: Friday, 25-Jun-10 15:00:00 GMT"}
    signals = page_signals(headers, agent="Googlebot", now=NOW)
    assert signals.expired is True
    assert page_signals(headers, agent="Other", now=NOW).expired is False


# -------------------------------------------------------------------- DeviantArt

def test_deviantart_noai_and_noimageai_refuse_training() -> None:
    for rule in ("noai", "noimageai"):
        page = html_head(f'<meta name="robots" content="{rule}">')
        signals = page_signals(None, page, agent="ExampleBot")
        assert signals.allows("ai-train") is False
        assert signals.allows("train-ai") is False
        assert signals.allows("search") is None
        assert signals.index is True
        assert getattr(signals, rule) is True
    header = page_signals({"X-Robots-Tag": "noai"}, agent="x")
    answer, directive = header.decide("ai-train")
    assert answer is False and directive is not None and directive.rule == "noai"


# ------------------------------------------------------------------------ TDMRep

def test_tdmrep_header_reservation_and_policy() -> None:
    signals = page_signals({"tdm-reservation": "1",
                            "tdm-policy": "https://provider.com/policies/policy.json"},
                           agent="x")
    assert signals.tdm_reservation == 1
    assert signals.tdm_policy == "https://provider.com/policies/policy.json"
    assert signals.allows("ai-train") is False and signals.allows("ai-input") is False
    assert signals.allows("search") is None


def test_tdmrep_meta_example() -> None:
    page = ('<!DOCTYPE html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n'
            '    <meta name="tdm-reservation" content="1">\n'
            '    <meta name="tdm-policy" content="https://provider.com/policies/policy.json">\n'
            '    <title>Document title</title>\n  </head>\n  <body>...</body>\n</html>\n')
    signals = page_signals(None, page, agent="x")
    assert signals.tdm_reservation == 1
    assert signals.tdm_policy == "https://provider.com/policies/policy.json"
    directive = signals.decide("ai-train")[1]
    assert directive is not None and directive.line == 5 and directive.source == "meta"
    assert page[directive.offset:].startswith('<meta name="tdm-reservation"')


def test_tdmrep_not_reserved_allows_mining() -> None:
    signals = page_signals({"tdm-reservation": "0"}, agent="x")
    assert signals.tdm_reservation == 0
    assert signals.allows("ai-train") is True and signals.allows("train-ai") is True
    assert signals.allows("ai-use") is None  # a label of -02 only: no longer hears ai-input


@pytest.mark.parametrize("value", ["2", "yes", "", "1.0", "01", "1, 0", "0,1"])
def test_tdmrep_other_values_are_reported_invalid_and_read_as_reserved(value: str) -> None:
    # The report reads other values as "unset"; we read them as reserved and say so
    # (issue 23: a wrong "not reserved" is the mistake that cannot be taken back).
    signals = page_signals({"tdm-reservation": value}, agent="x")
    assert signals.tdm_reservation == 1 and signals.tdm_invalid is True
    assert signals.allows("ai-train") is False
    assert signals.directives[0].valid is False


def test_tdmrep_html_metadata_supersedes_the_header() -> None:
    page = html_head('<meta name="tdm-reservation" content="0">')
    signals = page_signals({"tdm-reservation": "1"}, page, agent="x")
    assert signals.tdm_reservation == 0
    # ... but a noai on the same page still refuses training: most restrictive across
    # different conventions.
    page = html_head('<meta name="tdm-reservation" content="0">',
                     '<meta name="robots" content="noai">')
    signals = page_signals({"tdm-reservation": "1"}, page, agent="x")
    assert signals.allows("ai-train") is False and signals.allows("ai-input") is True


# ---------------------------------------------------------------- Content-Usage

def test_aipref_content_usage_header() -> None:
    signals = page_signals({"Content-Usage": "train-ai=n"}, agent="x")
    assert signals.content_usage == {"train-ai": False}
    assert signals.allows("train-ai") is False and signals.allows("ai-train") is False
    assert signals.allows("search") is None
    allowed = page_signals({"Content-Usage": "train-ai=y, search=n, unknown=n"}, agent="x")
    assert allowed.allows("ai-train") is True and allowed.allows("search") is False


def test_aipref_content_usage_that_is_no_dictionary_states_nothing() -> None:
    for value in ("Train-AI=n", "train-ai=\"n\"", "train-ai=no", "train-ai=y,"):
        signals = page_signals({"Content-Usage": value}, agent="x")
        assert signals.allows("train-ai") is None, value
    # ... but a refusal readable in a field that does not parse still refuses (never a
    # permission): reported invalid.
    signals = page_signals({"Content-Usage": "train-ai=n,"}, agent="x")
    assert signals.allows("train-ai") is False
    assert signals.decide("train-ai")[1].valid is False


def test_aipref_several_content_usage_fields_most_restrictive() -> None:
    signals = page_signals([("Content-Usage", "train-ai=y"), ("Content-Usage", "train-ai=n")],
                           agent="x")
    assert signals.allows("train-ai") is False


# -------------------------------------------------------------------- decisions

def test_decision_purpose_names_are_checked() -> None:
    signals = page_signals({}, agent="x")
    with pytest.raises(InvalidPurpose):
        signals.allows("ai_train")


def test_decision_agent_star_reads_only_general_directives() -> None:
    headers = [("X-Robots-Tag", "googlebot: noindex"), ("X-Robots-Tag", "nofollow")]
    signals = page_signals(headers, agent="*")
    assert (signals.index, signals.follow) == (True, False)


def test_decision_caller_mistakes_raise() -> None:
    with pytest.raises(ValueError):
        page_signals({}, agent="not a token!")
    with pytest.raises(TypeError):
        page_signals(42, agent="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        page_signals({"X-Robots-Tag": object()}, agent="x")
    with pytest.raises(robotsrules.InvalidArgument):
        page_signals({}, agent="x", max_head_bytes=-1)
    with pytest.raises(TypeError):
        page_signals({}, 42, agent="x")  # type: ignore[arg-type]


def test_decision_directives_record_where_they_were_read() -> None:
    page = "<html><head>\n<meta name=robots content=noindex>\n</head></html>"
    signals = page_signals([("Date", "x"), ("X-Robots-Tag", "nofollow")], page, agent="x")
    header, meta = signals.directives
    assert (header.source, header.offset, header.line, header.field) == (
        "header", 1, None, "X-Robots-Tag")
    assert (meta.source, meta.line, meta.field) == ("meta", 2, "robots")
    assert page[meta.offset:].startswith("<meta name=robots")
    assert "noindex" in meta.describe()
    assert signals.as_dict()["directives"][0]["rule"] == "nofollow"


# ----------------------------------------------------------- header containers

def test_headers_httpx_repeated_fields() -> None:
    httpx = pytest.importorskip("httpx")
    headers = httpx.Headers([("X-Robots-Tag", "googlebot: noindex"),
                             ("X-Robots-Tag", "nofollow")])
    signals = page_signals(headers, agent="Googlebot")
    assert (signals.index, signals.follow) == (False, False)


def test_headers_scrapy_repeated_fields() -> None:
    scrapy_headers = pytest.importorskip("scrapy.http.headers")
    headers = scrapy_headers.Headers()
    headers.appendlist("X-Robots-Tag", "googlebot: noindex")
    headers.appendlist("X-Robots-Tag", "nofollow")
    signals = page_signals(headers, agent="Googlebot")
    assert (signals.index, signals.follow) == (False, False)


def test_headers_http_client_message_and_pairs_of_bytes() -> None:
    raw = b"X-Robots-Tag: noindex\r\nX-Robots-Tag: nofollow\r\n\r\n"
    message = http.client.parse_headers(io.BytesIO(raw))
    signals = page_signals(message, agent="x")
    assert (signals.index, signals.follow) == (False, False)
    parsed = email.message_from_string("X-Robots-Tag: noai\n\n")
    assert page_signals(parsed, agent="x").noai is True
    pairs = [(b"x-robots-tag", b"noindex"), (b"X-Robots-Tag", b"\xe9, nofollow")]
    signals = page_signals(pairs, agent="x")
    assert (signals.index, signals.follow) == (False, False)
    assert [(f.name, f.value) for f in read_headers({"a": ["1", "2"]})] == [("a", "1"), ("a", "2")]


def test_headers_aiohttp_multidict() -> None:
    multidict = pytest.importorskip("multidict")
    headers = multidict.CIMultiDictProxy(multidict.CIMultiDict(
        [("X-Robots-Tag", "noindex"), ("x-robots-tag", "nofollow")]))
    signals = page_signals(headers, agent="x")
    assert (signals.index, signals.follow) == (False, False)


# ------------------------------------------------------------- hostile heads

def test_hostile_meta_after_head_or_in_body_is_not_read() -> None:
    page = ("<html><head><title>t</title></head><body>"
            '<meta name="robots" content="noindex"></body></html>')
    assert page_signals(None, page, agent="x").index is True
    page = '<html><body><meta name="robots" content="noindex">'
    assert page_signals(None, page, agent="x").index is True


def test_html_meta_between_head_and_body_is_in_the_head() -> None:
    # Issue 23 item 3: "after head" mode puts the meta into the head (HTML standard
    # 13.2.6.4.6); the old scan stopped at </head>.
    page = '<html><head></head>\n<meta name="robots" content="noindex"><body>x'
    signals = page_signals(None, page, agent="x")
    assert signals.index is False and signals.directives[0].in_head is True


def test_hostile_comment_with_markup_inside() -> None:
    page = html_head('<!-- if a > b then <meta name="robots" content="noindex"> -->',
                     '<!--> <meta name="robots" content="nofollow">')
    signals = page_signals(None, page, agent="x")
    assert (signals.index, signals.follow) == (True, False)  # "<!-->" ends at once


def test_hostile_comments_scripts_templates_are_not_elements() -> None:
    page = html_head('<!-- <meta name="robots" content="noindex"> -->',
                     '<script>document.write(\'<meta name="robots" content="noindex">\')</script>',
                     '<template><meta name="robots" content="noindex"></template>',
                     '<style>/* <meta name="robots" content="noindex"> */</style>')
    signals = page_signals(None, page, agent="x")
    assert signals.index is True and signals.directives == ()


def test_hostile_noscript_metas_count() -> None:
    page = html_head('<noscript><meta name="robots" content="noindex"></noscript>')
    assert page_signals(None, page, agent="x").index is False


def test_hostile_broken_markup_still_reads_what_it_can() -> None:
    page = ('<html><head><meta name=robots content=nofollow><meta name="robots" '
            'content="noindex')  # unterminated attribute at the end of the document
    signals = page_signals(None, page, agent="x")
    assert signals.follow is False
    page = "<html><head><meta name=robots content=noindex/><div><meta name=robots content=nofollow>"
    signals = page_signals(None, page, agent="x")
    assert (signals.index, signals.follow) == (False, False)


def test_hostile_metas_without_head_tags_and_first_attribute_wins() -> None:
    page = '<meta name="robots" name="other" content="noindex" content="all"><p>text'
    assert page_signals(None, page, agent="x").index is False


def test_hostile_huge_head_is_read_only_up_to_the_bound() -> None:
    filler = "<style>" + "a{}" * 300_000 + "</style>"
    page = "<html><head>" + filler + '<meta name="robots" content="noindex"></head>'
    assert page_signals(None, page, agent="x").index is True  # beyond 512 KiB: not read
    assert page_signals(None, page, agent="x", max_head_bytes=2_000_000).index is False
    near = "<html><head><meta name=robots content=noindex>" + filler
    assert page_signals(None, near.encode(), agent="x").index is False


def test_hostile_bytes_that_are_not_utf8() -> None:
    page = b'<html><head>\xff\xfe<meta name="robots" content="noindex,\xe9"></head>'
    signals = page_signals(None, page, agent="x")
    assert signals.index is False
    assert read_head_meta(b"\x00\x01<meta") == ()


def test_hostile_unknown_meta_names_are_ignored() -> None:
    page = html_head('<meta name="description" content="noindex">',
                     '<meta name="viewport" content="width=device-width">')
    assert page_signals(None, page, agent="x").directives == ()


def test_lazy_public_names() -> None:
    assert robotsrules.page_signals is page_signals
    assert robotsrules.PageSignals.__name__ == "PageSignals"


# ----------------------------------------------------------------- combine()

def test_combine_most_restrictive_of_site_and_page() -> None:
    robots = robotsrules.parse(b"User-agent: *\nContent-Signal: search=yes, ai-input=yes, "
                               b"ai-train=yes\nAllow: /\n")
    url = "https://example.com/article"
    usage = robots.usage(url, agent="ExampleBot")
    page = page_signals({"X-Robots-Tag": "noai"}, agent="ExampleBot")
    both = robotsrules.combine(usage, page)
    assert both.crawl_allowed is True
    train = both.decide("ai-train")
    assert (train.allowed, train.level) == (False, "page")
    assert train.describe() == "refused by page: header X-Robots-Tag (header #0): noai"
    search = both.decide("search")
    assert (search.allowed, search.level) == (True, "robots.txt")
    assert search.lines and search.lines[0].line == 2
    assert "line 2: content-signal: search=yes" in search.describe()
    assert both.allows("train-ai") is False and both.allows("ai-input") is True
    assert both.allows("ai-use") is None and both.allows("bots") is None


def test_combine_site_refusal_beats_page_permission() -> None:
    robots = robotsrules.parse(b"User-agent: *\nContent-Signal: ai-train=no\n")
    page = page_signals({"tdm-reservation": "0"}, agent="x")
    both = robotsrules.combine(robots.usage("/p", agent="x"), page)
    answer = both.decide("ai-train")
    assert (answer.allowed, answer.level) == (False, "robots.txt")
    assert both.decide("ai-input").level == "page"
    assert robotsrules.combine(None, None).decide("ai-train").describe() == "nothing stated"
    with pytest.raises(TypeError):
        robotsrules.combine(object(), page)  # type: ignore[arg-type]


def test_hostile_many_commas_after_unavailable_after_cost_linear_time() -> None:
    """200,000 commas after an unparsed date: gluing each piece back to the date (quadratic:
    minutes at 50,000) would take hours; the linear reader takes a fraction of a second of
    CPU. Bounded by CPU time, which the load of the machine does not change."""
    from tests.timing import run_with_cpu_limit

    script = ("from robotsrules import page_signals\n"
              "value = 'unavailable_after: x' + ', y' * 200_000 + ', noindex'\n"
              "signals = page_signals({'X-Robots-Tag': value}, agent='x')\n"
              "assert signals.index is False and signals.unavailable_after is None\n")
    done = run_with_cpu_limit(script, cpu_seconds=30)
    assert done.returncode == 0, done.stderr.strip()[-500:] or f"killed: {done.returncode}"


# ------------------------------------------------------- issue 23: sizes, names, admission

def test_aipref_content_usage_past_the_cap_is_too_large_never_nothing_stated() -> None:
    from robotsrules._page._prefs import MAX_USAGE_LENGTH

    value = "search=y, " * (MAX_USAGE_LENGTH // 10 + 1)
    signals = page_signals({"Content-Usage": value}, agent="x")
    assert signals.allows("train-ai") is False and signals.allows("search") is False
    directive = signals.decide("train-ai")[1]
    assert directive is not None and directive.valid is False
    assert "too large" in (directive.value or "") and len(directive.describe()) < 300


def test_decision_crawler_names_with_digits_and_dots() -> None:
    from robotsrules import InvalidAgent

    page = html_head('<meta name="AI2Bot" content="noindex">')
    assert page_signals(None, page, agent="AI2Bot/1.0").index is False
    assert page_signals(None, page, agent="AI").index is True
    with pytest.raises(InvalidAgent):
        page_signals(None, page, agent="AI2 Bot")
    with pytest.raises(InvalidAgent):
        page_signals(None, page, agent=["AI2Bot", "x:y"])


def test_admission_reads_once_for_every_agent_and_purpose() -> None:
    from robotsrules._page import admit_page
    from robotsrules._tables._purposes import check_purposes

    headers = [("X-Robots-Tag", "GPTBot: noai"), ("Content-Signal", "search=yes")]
    admission = admit_page(headers, None, agents=["CCBot", "GPTBot"],
                           purposes=["search", "ai-train"], url="https://e.example/p")
    assert [s.agent for s in admission.signals] == [("ccbot",), ("gptbot",)]
    refused = admission.refused
    assert refused is not None and (refused.agent, refused.purpose) == ("GPTBot", "ai-train")
    error = admission.error()
    assert isinstance(error, robotsrules.PageRefused) and error.signals is admission.signals[1]
    assert "noai" in str(error)
    stated = admission.stated
    assert stated is not None and (stated.agent, stated.purpose) == ("CCBot", "search")
    assert admit_page({}, None, agents=["x"], purposes=["search"]).refused is None
    assert check_purposes("ai-train") == ("ai-train",)
    with pytest.raises(InvalidPurpose):
        check_purposes(["ai_train"])
    with pytest.raises(InvalidPurpose):
        check_purposes([3])  # type: ignore[list-item]
    with pytest.raises(robotsrules.InvalidArgument):
        check_purposes([], at_least_one=True)
    with pytest.raises(robotsrules.InvalidArgument):
        admit_page({}, None, agents="GPTBot", purposes=["search"])  # type: ignore[arg-type]


def test_hostile_stranger_headers_are_read_around_what_cannot_be() -> None:
    from robotsrules._page import page_signals_for

    odd = {"X-Robots-Tag": ["noai", None, 3, object()], 5: "x", "Bad Name": "noindex"}
    (signals,) = page_signals_for(odd, object(), ["GPTBot"], strict=False)  # type: ignore[arg-type]
    assert signals.noai is True and signals.index is True
    with pytest.raises(TypeError):
        page_signals(odd, agent="GPTBot")


def test_html_metas_after_the_head_restrict_and_never_permit() -> None:
    # Issue 23 item 3: a meta the standard moves into the body before <body> is read and
    # marked; a tdm-reservation 0 there does not undo the header's 1, a 1 there reserves.
    page = ('<html><head><title>t</title><div>ad</div>'
            '<meta name="tdm-reservation" content="0"><meta name="robots" content="noai">'
            '</head><body><meta name="robots" content="noindex">')
    signals = page_signals({"tdm-reservation": "1"}, page, agent="x")
    assert signals.tdm_reservation == 1 and signals.noai is True and signals.index is True
    assert [d.in_head for d in signals.directives if d.source == "meta"] == [False, False]
    assert "after the head" in signals.decide("ai-train")[1].describe()
    reserve = page_signals({"tdm-reservation": "0"},
                           '<head><img src=x><meta name="tdm-reservation" content="1">',
                           agent="x")
    assert reserve.tdm_reservation == 1 and reserve.allows("ai-train") is False


@pytest.mark.parametrize("body", [
    "<head><div>" + "<span>" * 200 + "</x>" * 50_000,  # end tags that match nothing
    "<head><svg>" + "<g>" * 2_000 + "</x>" * 50_000,  # deep foreign content
    "<head><span><div>" + "<b>" * 2_000 + "</span>" * 50_000,  # a special element first
    "<head>" + "<template>" * 20_000 + "</template>" * 20_000,
    "<head><script>" + "<!--<script>" * 30_000,  # script escapes without end
    "<head>" + "<!--" * 100_000,
    "<head>" + '<a b="' * 100_000,
])
def test_hostile_nesting_costs_linear_time(body: str) -> None:
    from tests.timing import thread_cpu

    page = body + '<meta name="robots" content="noindex">'
    # Bounded by the CPU time of the call, which the machine's load does not inflate
    # (quadratic walks of the open elements took minutes; the linear reader, milliseconds).
    _, cpu = thread_cpu(read_head_meta, page, max_bytes=len(page))
    assert cpu < 30, f"{cpu:.1f} s of CPU"
    expected = "<!--<script>" not in body and "<!--" * 2 not in body and '<a b="' not in body
    assert bool(read_head_meta(page, max_bytes=len(page))) is expected
