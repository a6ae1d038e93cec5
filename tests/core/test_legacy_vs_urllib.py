"""Legacy mode against Python's ``urllib.robotparser``, over the corpus and by difference class.

The corpus test feeds ``RobotFileParser.parse`` the lines its ``read()`` would make of the
body (``decode("utf-8").splitlines()``), after the three input preparations that
:mod:`robotsrules._rules._legacy` documents as deliberate differences (BOM skipped, undecodable
bytes as U+FFFD, content past 500 KiB ignored), then compares ``can_fetch(agent, url)``
with ``parse(body, mode="legacy").explain(url, agent=agent)`` for every file of the
corpus, every URL listed for its host and three agents: zero disagreements. Each
difference class of the legacy docstring is asserted by a named ``test_difference_*``
test below against the unprepared urllib.
"""

from __future__ import annotations

import os
import sys
import urllib.robotparser
from typing import Optional, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules import DEFAULT_MAX_BYTES, InvalidAgent, InvalidURL
from tests import corpus
from tests.core.test_corpus import AGENTS, SHARDED, files

BOM = b"\xef\xbb\xbf"

# urllib.robotparser was unchanged from Python 3.8 to 3.13; legacy mode reproduces that one.
requires_old_robotparser = pytest.mark.skipif(
    sys.version_info >= (3, 14),
    reason="legacy mode reproduces urllib.robotparser of Python <= 3.13; this Python's differs",
)


def _urllib(lines: list[str]) -> urllib.robotparser.RobotFileParser:
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(lines)
    return parser


def _prepared_lines(body: bytes, max_bytes: Optional[int] = DEFAULT_MAX_BYTES) -> list[str]:
    """The body as legacy mode reads it, as lines for urllib (differences 1-3 applied)."""
    if max_bytes is not None:
        body = body[:max_bytes]
    skip = 0
    while skip < 3 and skip < len(body) and body[skip] == BOM[skip]:
        skip += 1
    return body[skip:].decode("utf-8", "replace").splitlines()


def _raw_lines(body: bytes) -> list[str]:
    """The lines ``RobotFileParser.read()`` makes of a body (strict UTF-8)."""
    return body.decode("utf-8").splitlines()


def _can_fetch(parser: urllib.robotparser.RobotFileParser, agent: str, url: str) -> Union[
        bool, str]:
    try:
        return parser.can_fetch(agent, url)
    except ValueError:  # includes UnicodeEncodeError
        return "error"


def _ours(robots: robotsrules.RobotsTxt, agent: str, url: str) -> Union[bool, str]:
    try:
        return robots.explain(url, agent=agent).allowed
    except InvalidURL:
        return "error"


@requires_old_robotparser
@pytest.mark.parametrize(("full", "shard"), SHARDED)
def test_corpus_agrees_with_urllib(corpus_dir: str, full: bool, shard: int) -> None:
    urls = corpus.urls_by_host(corpus_dir)
    names = files(corpus_dir, full, shard)
    checked, problems = 0, []
    for name in names:
        with open(os.path.join(corpus_dir, "robots", name), "rb") as handle:
            body = handle.read()
        robots = robotsrules.parse(body, mode="legacy")
        reference = _urllib(_prepared_lines(body))
        for url in urls.get(name[: -len(".txt")], []):
            for agent in AGENTS:
                checked += 1
                expected = _can_fetch(reference, agent, url)
                ours = _ours(robots, agent, url)
                if ours != expected:
                    problems.append(f"{name} {url!r} {agent}: ours {ours}, urllib {expected}")
    assert problems == [], f"{len(problems)} of {checked} checks differ:\n" + "\n".join(
        problems[:20])
    assert checked > 0


# -- random robots-like files ------------------------------------------------------------------

LINE_KEYS = ["User-agent", "user-AGENT", "Allow", "Disallow", "disallow ", "Crawl-delay",
             "Request-rate", "Sitemap", "Disalow", "foo", ""]
AGENT_VALUES = ["*", "a", "A", "b", "ab", "a/1.0", "%61", "%2A", "* x", "", "bot", "GoogleBot"]
VALUE_ALPHABET = "/ab*$%27eEfF.?;=#~ \t\u00e9\u00a0"
SEPARATORS = ["\n", "\r\n", "\r", "\n\n", "\x0c", "\n \n", "\n#c\n", "\u2028", "\x00"]


@st.composite
def robots_files(draw: st.DrawFn) -> bytes:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 10))):
        key = draw(st.sampled_from(LINE_KEYS))
        if key.lower().startswith("user"):
            value = draw(st.sampled_from(AGENT_VALUES))
        else:
            value = draw(st.text(VALUE_ALPHABET, max_size=8))
        colon = draw(st.sampled_from([":", ": ", " :", " "]))
        parts.append(key + colon + value + draw(st.sampled_from(SEPARATORS)))
    return "".join(parts).encode("utf-8")


PATHS = st.text("/ab*$%27eEfF.?;=#~\u00e9", max_size=10).map(lambda p: "http://h/" + p)


@requires_old_robotparser
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(robots_files(), st.lists(PATHS, min_size=1, max_size=5))
def test_random_files_agree_with_urllib(body: bytes, urls: list[str]) -> None:
    robots = robotsrules.parse(body, mode="legacy")
    reference = _urllib(_prepared_lines(body))
    for url in urls:
        for agent in ["a", "AB", "Googlebot", "bot", "x"]:
            assert _ours(robots, agent, url) == _can_fetch(reference, agent, url), (url, agent)


# -- each deliberate difference (legacy.py's docstring, items 1-7), by name ---------------------

def test_difference_1_bom_is_skipped() -> None:
    body = BOM + b"User-agent: *\nDisallow: /private\n"
    # urllib reads the BOM into the first key ("\ufeffuser-agent"), so it loses line 1.
    assert _urllib(_raw_lines(body)).can_fetch("Bot", "http://h/private") is True
    assert robotsrules.parse(body, mode="legacy").allowed("http://h/private", agent="Bot") is False
    # Prepared the same way, they agree.
    assert _urllib(_prepared_lines(body)).can_fetch("Bot", "http://h/private") is False


def test_difference_2_undecodable_bytes_do_not_raise() -> None:
    body = b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /private\n"
    with pytest.raises(UnicodeDecodeError):
        _raw_lines(body)  # RobotFileParser.read() fails on the whole file
    robots = robotsrules.parse(body, mode="legacy")
    assert robots.allowed("http://h/private", agent="Bot") is False
    verdict = robots.explain("http://h/caf%EF%BF%BD", agent="Bot")  # U+FFFD, re-quoted
    assert not verdict.allowed and verdict.rule is not None and verdict.rule.line == 2
    assert _urllib(_prepared_lines(body)).can_fetch("Bot", "http://h/caf%EF%BF%BD") is False


def test_difference_3_content_past_max_bytes_is_ignored() -> None:
    body = b"User-agent: *\n" + b"#" * DEFAULT_MAX_BYTES + b"\nDisallow: /late\n"
    assert _urllib(_raw_lines(body)).can_fetch("Bot", "http://h/late") is False
    assert robotsrules.parse(body, mode="legacy").allowed("http://h/late", agent="Bot") is True
    whole = robotsrules.parse(body, mode="legacy", max_bytes=None)
    assert whole.allowed("http://h/late", agent="Bot") is False


def test_difference_4_unparseable_values_are_ignored_not_raised() -> None:
    body = b"User-agent: *\nDisallow: http://[x/\nDisallow: /private\nCrawl-delay: \xc2\xb2\n"
    with pytest.raises(ValueError):
        _urllib(_raw_lines(body[:40]))  # "Invalid IPv6 URL"
    with pytest.raises(ValueError):
        _urllib(["User-agent: *", "Crawl-delay: \u00b2"])  # int("²")
    robots = robotsrules.parse(body, mode="legacy")
    assert robots.allowed("http://h/private", agent="Bot") is False
    assert [rule.line for rule in robots.for_agent("Bot").rules] == [3]
    assert robots.crawl_delay("Bot") is None


def test_difference_5_caller_mistakes_raise() -> None:
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n", mode="legacy")
    reference = _urllib(["User-agent: *", "Disallow: /"])
    # urllib takes any agent string and cuts it at "/": for a token the result is the same.
    assert reference.can_fetch("Mozilla/5.0 (compatible; Bot/1.0)", "http://h/x") is False
    with pytest.raises(InvalidAgent):
        robots.allowed("http://h/x", agent="Mozilla/5.0 (compatible; Bot/1.0)")
    assert robots.allowed("http://h/x", agent="Bot/1.0") is reference.can_fetch(
        "Bot/1.0", "http://h/x")
    # urllib takes any URL string; we want an absolute URL or a path.
    assert reference.can_fetch("Bot", "x") is True
    with pytest.raises(InvalidURL):
        robots.allowed("x", agent="Bot")
    # A URL urllib.parse cannot take apart raises InvalidURL (urllib: ValueError).
    with pytest.raises(ValueError):
        reference.can_fetch("Bot", "http://[x/a")
    with pytest.raises(InvalidURL):
        robots.allowed("http://[x/a", agent="Bot")
    # A list of tokens: the first record that applies to any of them.
    listed = robotsrules.parse(b"User-agent: news\nDisallow: /n\n\nUser-agent: *\nDisallow: /\n",
                               mode="legacy")
    assert listed.allowed("http://h/x", agent=["Googlebot", "Googlebot-News"]) is True
    assert listed.allowed("http://h/n", agent=["Googlebot", "Googlebot-News"]) is False


def test_difference_6_numbers_are_floats() -> None:
    lines = ["User-agent: *", "Crawl-delay: 5", "Request-rate: 3/20"]
    reference = _urllib(lines)
    robots = robotsrules.parse("\n".join(lines), mode="legacy")
    delay: object = reference.crawl_delay("Bot")  # typeshed says str; it is an int
    assert delay == 5 and isinstance(delay, int)
    assert robots.crawl_delay("Bot") == 5.0
    rate = robots.request_rate("Bot")
    assert rate is not None and tuple(rate) == tuple(reference.request_rate("Bot") or ())


def test_difference_7_sitemaps_are_read_as_in_every_mode() -> None:
    lines = ["Sitemap: https://h/a%20b.xml", "Site-map: https://h/typo.xml"]
    assert _urllib(lines).site_maps() == ["https://h/a b.xml"]
    robots = robotsrules.parse("\n".join(lines), mode="legacy")
    assert robots.sitemaps == ("https://h/a%20b.xml", "https://h/typo.xml")
    assert robots.sitemaps == robotsrules.parse("\n".join(lines)).sitemaps


# -- line reading that could differ but must not ----------------------------------------------

@pytest.mark.parametrize(
    "body",
    [
        b"User-agent: *\nDisallow: /a\x00b\n",  # Google ends a line at NUL; urllib does not
        b"User-agent: *\nDisallow: /" + b"x" * 17000 + b"\n",  # Google cuts at 16,663 octets
        b"User-agent: *\x0cDisallow: /ff\n",  # splitlines() also breaks at FF, VT, ...
        b"User-agent: *\n\x0bDisallow: /vt\n",
        "User-agent: *\u2028Disallow: /ls\n".encode(),
        "User-agent: *\n\u0085\nDisallow: /nel\n".encode(),
        b"User-agent: *\n \t\nDisallow: /spaces\n",  # only an empty line ends a record
        b"User-agent: *\r\n\r\nDisallow: /crlf\n",
        "User-agent: *\n\u00a0Disallow:\u00a0/nbsp\u00a0\n".encode(),  # str.strip() whitespace
        b"Disallow /x\nUser-agent: *\nDisallow /missing-colon\nDisalow: /typo\nDisallowed: /p\n",
        b"User-agent: a\n\nUser-agent: b\nDisallow: /\n",  # a record without rules is dropped
        b"User-agent: *\nCrawl-delay: 1\nUser-agent: bad\nDisallow: /\n",
    ],
)
def test_line_reading_matches_urllib(body: bytes) -> None:
    robots = robotsrules.parse(body, mode="legacy", max_bytes=None)
    reference = _urllib(_raw_lines(body))
    for url in ["http://h/", "http://h/a", "http://h/a%00b", "http://h/a\x00b", "http://h/x",
                "http://h/" + "x" * 17000, "http://h/ff", "http://h/vt", "http://h/ls",
                "http://h/nel", "http://h/spaces", "http://h/crlf", "http://h/nbsp",
                "http://h/missing-colon", "http://h/typo", "http://h/p"]:
        for agent in ["Bot", "a", "bad", "Googlebot"]:
            assert robots.allowed(url, agent=agent) is reference.can_fetch(agent, url), (
                url, agent)
