"""The compiled build's own ways through the hot paths (chosen by ``_compiled.COMPILED``)
against the ways pure Python takes, in both builds: each function is called directly, so
the pure run checks them too. And what the builds share by design: pickled rules, and the
wrong-typed arguments that the compiled build refuses at the call.
"""

from __future__ import annotations

import os
import pickle

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules import _outline, _urls
from robotsrules._rules._parser import MAX_LINE_BYTES, decode
from robotsrules._rules._precedence import Row
from tests.oracle import CORPUS
from tests.property.test_properties import SETTINGS, robots_lines

# URL text rich in what the target cut looks for: delimiters, escapes, case, non-ASCII.
_URL_CHARS = st.sampled_from([*"/?;#:%aAfFzZ09.-_~*$@ ", "\u00e9", "\udcff", "\x00"])
_TAILS = st.text(_URL_CHARS, max_size=40)


def _by_expression(url: str) -> str:
    """match_target as pure Python computes it for an absolute URL (the regular
    expression), whatever the build."""
    match = _urls._ABSOLUTE.match(url)
    assert match is not None
    target = match.group(1)
    if target is None:
        return _urls._root(url)
    if target[0] != "/":
        target = "/" + target
    return _urls._canonical(target, url)


def _outcome(function: object, url: str) -> object:
    try:
        return function(url)  # type: ignore[operator]
    except robotsrules.InvalidURL as error:
        return ("InvalidURL", str(error))


@SETTINGS
@given(scheme=st.sampled_from(["http://", "https://"]), tail=_TAILS)
@example(scheme="https://", tail="")
@example(scheme="http://", tail="host")
@example(scheme="https://", tail="host#frag/x")
@example(scheme="https://", tail="host;p?q#f")
@example(scheme="http://", tail="h?q=/a#b")
@example(scheme="https://", tail="h/%7e%c3%a9?x=%41%4a\u00e9")
@example(scheme="https://", tail="h\udcff/a")
def test_the_find_cut_equals_the_expression(scheme: str, tail: str) -> None:
    url = scheme + tail
    assert _outcome(_urls._web_target, url) == _outcome(_by_expression, url)
    assert _outcome(robotsrules.match_target, url) == _outcome(_by_expression, url)


@SETTINGS
@given(st.text(st.sampled_from(list("%%%0123456789abcdefABCDEFgG/x")), max_size=24))
@example("%7e")
@example("%%7e")
@example("%7E%2f")
@example("%A")
@example("%g1%1a")
@example("%1f")
@example("%f0%")
@example("%0G%:a%@f%`1%Gf")
@example("x%9")
@example("%aG%Ga%g")
def test_the_escape_loop_equals_the_expression(octets: str) -> None:
    assert _urls._has_lower_escape(octets) is (_urls._LOWER_ESCAPE.search(octets) is not None)


def test_the_escape_table_encodes_nul_and_high_octets_only() -> None:
    octets = "".join(chr(i) for i in range(256))
    expected = "%00" + octets[1:128] + "".join(f"%{i:02X}" for i in range(128, 256))
    assert octets.translate(_urls._ESCAPE) == expected
    assert "\u0100\ud800".translate(_urls._ESCAPE) == "\u0100\ud800"  # past the table: kept


BODY = (b"User-agent: *\nDisallow: /x\nAllow: /x/index.html\nDisallow: /*.pdf$\n"
        b"User-agent: Bot\nDisallow: /y*z$\nAllow: /y\n")
URLS = ["/x", "/x/", "/x/index.html", "/a.pdf", "/a.pdfx", "/yaz", "/y", "/q", "/robots.txt"]


@pytest.mark.parametrize("mode", robotsrules.MODES)
@pytest.mark.parametrize("agent", ["Bot", "Other"])
def test_pickled_rules_answer_the_same(mode: robotsrules.Mode, agent: str) -> None:
    robots = robotsrules.parse(BODY, mode=mode)
    rules = robots.for_agent(agent)
    for url in URLS[:3]:  # some heads compiled before pickling, some not
        rules.allowed(url)
    again = pickle.loads(pickle.dumps(rules))
    assert type(again) is type(rules)
    assert (again.agents, again.scope, again.groups) == (rules.agents, rules.scope, rules.groups)
    assert [again.explain(url) for url in URLS] == [rules.explain(url) for url in URLS]
    assert [again.allowed(url) for url in URLS] == [rules.allowed(url) for url in URLS]


def test_pickled_synthetic_rules_keep_their_reason() -> None:
    rules = robotsrules.RobotsTxt.disallow_all().for_agent("Bot")
    again = pickle.loads(pickle.dumps(rules))
    assert again.explain("/a") == rules.explain("/a")
    assert again.explain("/a").reason == "disallow-all"


@pytest.mark.parametrize("bad", [None, b"/x", 1])
def test_a_url_that_is_not_a_str(bad: object) -> None:
    # Pure Python raises InvalidURL (a ValueError) naming the type; the compiled build
    # checks the declared type at the call (mypyc) and raises TypeError. Both refuse.
    rules = robotsrules.parse(BODY).for_agent("Bot")
    expected = TypeError if robotsrules.COMPILED else robotsrules.InvalidURL
    with pytest.raises(expected):
        rules.allowed(bad)  # type: ignore[arg-type]
    with pytest.raises(expected):
        robotsrules.parse(BODY).allowed(bad, agent="Bot")  # type: ignore[arg-type]


def test_subclassing_the_parsed_file_is_pure_python_only() -> None:
    # performance.md says so: mypyc refuses an interpreted subclass of a compiled class when
    # it is instantiated; pure Python allows it.
    class Mine(robotsrules.RobotsTxt):  # compiled build: on purpose
        pass

    parsed = robotsrules.parse(BODY)
    if robotsrules.COMPILED:
        with pytest.raises(TypeError):
            Mine(parsed.source, parsed.groups, parsed.sitemaps)
    else:
        mine = Mine(parsed.source, parsed.groups, parsed.sitemaps)
        assert [mine.allowed(path, agent="Other") for path in ("/x", "/x/index.html", "/y")] \
            == [False, True, True]


def _both_ways(text: str, line: int = 1) -> list[Row]:
    """The rules of ``text`` read both ways (the lines split up front, pure Python's; the
    lines found by search, the compiled build's), which must agree."""
    by_split: list[Row] = []
    by_search: list[Row] = []
    _outline._rules_by_split(text, line, by_split)
    _outline._rules_by_search(text, line, by_search)
    assert by_search == by_split, text[:300]
    return by_split


# Lines that are rules in the spellings the search way reads without a key lookup, and
# lines that only look like them (case, blanks, colons, comments, NUL, no colon).
_RULE_LINES = st.sampled_from([
    "Disallow: /a", "disallow:/b", "DISALLOW: /c", "Allow: /d", "allow:/e", "ALLOW :/f",
    "Disallow:", "Allow: # none", "Disallow: /g # c", "Disallow:\t/h\t", "Disallow::/i",
    "\tDisallow: /j", " Allow: /k", "\x0bDisallow: /l", "Disallow /m", "Allowed: /n",
    "allowance:/o", "disallowed: /p", "Dis#allow: /q", "Disallow: /r\x00s", "Noindex: /t",
    "# Disallow: /u", "Disalow: /v", "User-agent: w", "", " ", "\t", "Disallow: /%7e\xe9",
    # as long as a line is kept, and one octet longer (cut: read by the line reader)
    "Allow: /" + "x" * (MAX_LINE_BYTES - 8), "Allow: /" + "y" * (MAX_LINE_BYTES - 7),
])


@SETTINGS
@given(st.lists(_RULE_LINES, max_size=20), st.sampled_from(["", "\n"]), st.integers(1, 9))
@example(["Disallow: /a", "Allow: /b"], "", 1)
@example(["Disallow: /r\x00s", "Disallow: /a"], "\n", 3)
@example(["Allow: /" + "y" * (MAX_LINE_BYTES - 7)], "", 1)
def test_the_rule_search_reads_as_the_rule_split(lines: list[str], end: str, line: int) -> None:
    _both_ways("\n".join(lines) + end, line)


@SETTINGS
@given(robots_lines())
def test_the_rule_search_reads_random_files_as_the_rule_split(body: bytes) -> None:
    _both_ways(_outline.normalise(decode(body, None)[0]))


def test_the_rule_search_reads_the_corpus_as_the_rule_split() -> None:
    robots_dir = os.path.join(CORPUS, "robots")
    if not os.path.isdir(robots_dir):
        pytest.skip(f"corpus not found at {os.path.abspath(CORPUS)} (set ROBOTSRULES_CORPUS)")
    names = sorted(os.listdir(robots_dir))[::10]  # every tenth file: whole files as one chunk
    rules = 0
    for name in names:
        with open(os.path.join(robots_dir, name), "rb") as handle:
            rules += len(_both_ways(_outline.normalise(decode(handle.read(), None)[0])))
    assert rules > 10_000  # the sample holds rules to compare

