"""Properties of page_signals: no input raises; more robots rules never allow more."""

from __future__ import annotations

import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules import page_signals
from robotsrules._purposes import PURPOSES

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

_WORDS = ["noindex", "nofollow", "none", "all", "noai", "noimageai", "nosnippet",
          "max-snippet:", "max-image-preview:", "unavailable_after:", "googlebot:",
          "otherbot:", ",", " ", "-1", "0", "large", "2010-01-01", "Fri, 25 Jun 2010",
          "tdm-reservation", "1", "=", "train-ai=n", "search=y", "\t", ":", "\x00", "é"]
_HEADER_NAMES = ["X-Robots-Tag", "x-robots-tag", "tdm-reservation", "tdm-policy",
                 "Content-Usage", "Date"]
_HTML_BITS = ["<meta name=robots content=", "<meta name=\"googlebot\" content=\"", "\"",
              "'", ">", "<head>", "</head>", "<body>", "<!--", "-->", "<script>",
              "</script>", "<template>", "</template>", "<noscript>", "<![CDATA[", "<",
              "&amp;", "&#0;", "<meta", "name=tdm-reservation content=1", "\n"]

words = st.lists(st.sampled_from(_WORDS) | st.text(max_size=8), max_size=12).map("".join)
headers = st.lists(st.tuples(st.sampled_from(_HEADER_NAMES) | st.text(max_size=6), words),
                   max_size=6)
html = st.lists(st.sampled_from(_HTML_BITS + _WORDS) | st.text(max_size=10),
                max_size=40).map("".join)
agents = st.sampled_from(["Googlebot", "otherbot", "ExampleBot", "*", ["googlebot", "x"]])


@settings(max_examples=150, deadline=None)
@given(headers, html, agents, st.booleans())
def test_no_input_raises(pairs: list[tuple[str, str]], body: str, agent: object,
                         as_bytes: bool) -> None:
    signals = page_signals(pairs, body.encode("utf-8", "surrogatepass") if as_bytes else body,
                           agent=agent, now=NOW)  # type: ignore[arg-type]
    for purpose in PURPOSES:
        assert signals.allows(purpose) in (True, False, None)
    signals.as_dict()
    for directive in signals.directives:
        directive.describe()


@settings(max_examples=150, deadline=None)
@given(headers, words, agents)
def test_another_robots_header_never_allows_more(pairs: list[tuple[str, str]], extra: str,
                                                 agent: object) -> None:
    before = page_signals(pairs, agent=agent, now=NOW)  # type: ignore[arg-type]
    after = page_signals([*pairs, ("X-Robots-Tag", extra)], agent=agent,  # type: ignore[arg-type]
                         now=NOW)
    for name in ("index", "follow", "archive", "snippet", "image_index", "translate"):
        assert getattr(before, name) or not getattr(after, name), name
    for purpose in PURPOSES:
        if before.allows(purpose) is False:
            assert after.allows(purpose) is False, purpose


@settings(max_examples=150, deadline=None)
@given(headers, html, st.lists(agents, min_size=1, max_size=4))
def test_reading_once_for_several_agents_answers_as_one_by_one(
        pairs: list[tuple[str, str]], body: str, several: list[object]) -> None:
    """The bulk paths read a response once for all agents (page_signals_for): the same
    signals, directive for directive, as page_signals called per agent."""
    from robotsrules._page import page_signals_for

    together = page_signals_for(pairs, body, several, now=NOW)  # type: ignore[arg-type]
    alone = [page_signals(pairs, body, agent=agent, now=NOW)  # type: ignore[arg-type]
             for agent in several]
    assert [s.as_dict() for s in together] == [s.as_dict() for s in alone]
    assert [s.directives for s in together] == [s.directives for s in alone]
