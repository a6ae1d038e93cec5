"""Properties of page_signals: no input raises; more robots rules (X-Robots-Tag or
Robots-Tag) never allow more."""

from __future__ import annotations

import dataclasses
import datetime
import pickle
from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules import PageSignals, page_signals
from robotsrules._page._fold import made
from robotsrules._page._signals import _FACTORIES, _MAKER
from robotsrules._tables._purposes import PURPOSES

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

_WORDS = ["noindex", "nofollow", "none", "all", "noai", "noimageai", "nosnippet",
          "max-snippet:", "max-image-preview:", "unavailable_after:", "googlebot:",
          "otherbot:", ",", " ", "-1", "0", "large", "2010-01-01", "Fri, 25 Jun 2010",
          "tdm-reservation", "1", "=", "train-ai=n", "search=y", "\t", ":", "\x00", "é",
          ";", "*;", "?0", "?1", "(", ")", '"', "<", ">", "</l.xml>", "rel=license",
          "type=application/rsl+xml", "anchor=", "USD 0.01", "rel=terms-of-service"]
_HEADER_NAMES = ["X-Robots-Tag", "x-robots-tag", "tdm-reservation", "tdm-policy",
                 "Content-Usage", "Date", "Robots-Tag", "Link", "crawler-price",
                 "crawler-error"]
_HTML_BITS = ["<meta name=robots content=", "<meta name=\"googlebot\" content=\"", "\"",
              "'", ">", "<head>", "</head>", "<body>", "<!--", "-->", "<script>",
              "</script>", "<template>", "</template>", "<noscript>", "<![CDATA[", "<",
              "&amp;", "&#0;", "<meta", "name=tdm-reservation content=1", "\n",
              "<link rel=license type=application/rsl+xml href=", "<base href=",
              "<script type=application/rsl+xml>", "<link"]

words = st.lists(st.sampled_from(_WORDS) | st.text(max_size=8), max_size=12).map("".join)
headers = st.lists(st.tuples(st.sampled_from(_HEADER_NAMES) | st.text(max_size=6), words),
                   max_size=6)
html = st.lists(st.sampled_from(_HTML_BITS + _WORDS) | st.text(max_size=10),
                max_size=40).map("".join)
agents = st.sampled_from(["Googlebot", "otherbot", "ExampleBot", "*", ["googlebot", "x"]])


@settings(max_examples=150, deadline=None)
@given(headers, html, agents, st.booleans(), st.sampled_from([None, 200, 402]),
       st.sampled_from([None, "https://example.com/a/b", "/relative"]))
def test_no_input_raises(pairs: list[tuple[str, str]], body: str, agent: object,
                         as_bytes: bool, status: object, url: object) -> None:
    signals = page_signals(pairs, body.encode("utf-8", "surrogatepass") if as_bytes else body,
                           agent=agent, now=NOW, status=status,  # type: ignore[arg-type]
                           url=url)  # type: ignore[arg-type]
    assert all(u.startswith(("http://", "https://")) for u in signals.license_urls)
    if signals.pricing is not None:
        signals.pricing.describe()
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
    for field in ("X-Robots-Tag", "Robots-Tag"):
        after = page_signals([*pairs, (field, extra)], agent=agent,  # type: ignore[arg-type]
                             now=NOW)
        for name in ("index", "follow", "archive", "snippet", "image_index", "translate"):
            assert getattr(before, name) or not getattr(after, name), (field, name)
        for purpose in PURPOSES:
            if before.allows(purpose) is False:
                assert after.allows(purpose) is False, (field, purpose)


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


@settings(max_examples=150, deadline=None)
@given(headers, html, agents, st.sampled_from([None, 200, 402]))
def test_the_fold_makes_the_dataclass_its_init_makes(pairs: list[tuple[str, str]],
                                                     body: str, agent: object,
                                                     status: object) -> None:
    """The fold makes PageSignals without the dataclass's __init__ (``_fold.made``):
    the object is the one ``PageSignals(**fields)`` makes, field for field, equal, pickled
    alike, ``dataclasses.replace`` works, and its default mappings are its own."""
    signals = page_signals(pairs, body, agent=agent, url="https://x.example/p",  # type: ignore[arg-type]
                           now=NOW, status=status)  # type: ignore[arg-type]
    by_init = PageSignals(**{f.name: getattr(signals, f.name) for f in fields(PageSignals)})
    assert signals == by_init and vars(signals) == vars(by_init)
    assert list(vars(signals)) == list(vars(by_init))  # the same fields, in the same order
    assert pickle.loads(pickle.dumps(signals)) == signals
    assert dataclasses.replace(signals, index=not signals.index).index is not signals.index
    bare = made(_MAKER, {"agent": ("x",), "directives": ()})
    assert bare == PageSignals(agent=("x",), directives=())
    other = made(_MAKER, {"agent": ("x",), "directives": ()})
    assert all(getattr(bare, name) is not getattr(other, name) for name, _ in _FACTORIES)
