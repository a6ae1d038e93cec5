"""The real page heads of ``benchmarks/data/pages/`` (see its ``SOURCES.md``): each gives a
PageSignals without exception, and the ones with a robots meta tag give what a reader sees in
the file (issue 16: signals of real responses)."""

from __future__ import annotations

import os
import re

import pytest

from robotsrules import page_signals

PAGES = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "data", "pages")
BODY_TAG = re.compile(rb"(?i)<body(?:[\s/][^>]*)?>")


def _heads() -> dict[str, bytes]:
    heads = {}
    for name in sorted(os.listdir(PAGES)):
        if name.endswith(".html"):
            with open(os.path.join(PAGES, name), "rb") as handle:
                heads[name] = handle.read()
    return heads


HEADS = _heads()


def test_the_stored_heads_are_heads_and_small() -> None:
    assert len(HEADS) >= 12
    assert sum(len(h) for h in HEADS.values()) < 1_500_000
    for name, head in HEADS.items():
        found = BODY_TAG.search(head)
        assert found is not None and found.end() == len(head), name  # cut after <body ...>


@pytest.mark.parametrize("name", sorted(HEADS))
@pytest.mark.parametrize("agent", ["GPTBot", "Googlebot", "ExampleBot/1.0"])
def test_every_head_gives_signals(name: str, agent: str) -> None:
    headers = [("Content-Type", "text/html; charset=utf-8"), ("X-Robots-Tag", "noai")]
    signals = page_signals(headers, HEADS[name], agent=agent, url=f"https://{name}/")
    assert signals.noai is True and signals.allows("ai-train") is False  # the header
    for directive in signals.directives:
        assert directive.source in ("header", "meta")
    assert isinstance(signals.as_dict(), dict)


def test_mozilla_says_noindex_in_a_meta_tag() -> None:
    # <meta name="robots" content="noindex" />
    signals = page_signals([], HEADS["mozilla.org.firefox.developer.html"], agent="GPTBot")
    assert (signals.index, signals.follow) == (False, True)
    assert [(d.rule, d.source) for d in signals.directives] == [("noindex", "meta")]


def test_fivethirtyeight_allows_large_image_previews() -> None:
    # <meta name='robots' content='max-image-preview:large' /> (WordPress)
    signals = page_signals([], HEADS["fivethirtyeight.com.manchin.html"], agent="Googlebot")
    assert (signals.index, signals.follow, signals.max_image_preview) == (True, True, "large")
    assert [(d.rule, d.value) for d in signals.directives] == [("max-image-preview", "large")]


def test_love_hina_says_index_follow() -> None:
    # <meta name="robots" content="index,follow" /> (2004, iso-8859-1)
    signals = page_signals([], HEADS["love-hina.ch.0409.html"], agent="CCBot")
    assert (signals.index, signals.follow) == (True, True)
    assert [d.rule for d in signals.directives] == ["index", "follow"]


def test_a_modx_site_says_index_follow_after_tabs() -> None:
    # <meta name="robots" content="index,follow"> indented with tabs, <body  id=...>
    signals = page_signals([], HEADS["rs-ingenieure.de.tragwerksplanung.html"], agent="GPTBot")
    assert (signals.index, signals.follow) == (True, True)
    assert [(d.rule, d.source) for d in signals.directives] == [("index", "meta"),
                                                                  ("follow", "meta")]


def test_pages_without_a_robots_meta_state_nothing() -> None:
    for name in ("blog.python.org.html", "sauvonsluniversite.com.spip.html",
                 "hundeverein-kreisunna.de.html", "apache-status.onion.html"):
        signals = page_signals([("Content-Type", "text/html")], HEADS[name], agent="GPTBot")
        assert signals.directives == () or list(signals.directives) == [], name
        assert signals.allows("ai-train") is None
