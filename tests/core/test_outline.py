"""The outline reader (robotsrules._rules._outline) against the full reader (parser.build).

``parse`` (default mode) keeps only the outline of a file — each group's agent tokens and
the stretch of text holding its rules — and reads an agent's rules from that stretch when
the agent first asks. Both must read every file exactly as ``build`` does: the same groups,
the same agents, the same rules with the same lines. These tests compare the two on
hand-picked traps, on random robots-like files, on arbitrary bytes and on the whole corpus.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules._outline import normalise, outline, read_rules
from robotsrules._rules._parser import MAX_LINE_BYTES, build, decode
from robotsrules._rules._precedence import Row, rows_of, rule_key
from tests.oracle import CORPUS
from tests.property.test_properties import SETTINGS, robots_lines

Structure = list[tuple[tuple[str, ...], list[Row]]]


def by_outline(body: bytes) -> Structure:
    text = normalise(decode(body, None)[0])
    found = outline(text)
    return [(agents, read_rules(text[span.start : span.end], span.line))
            for agents, span in zip(found.agents, found.spans)]


def by_build(body: bytes) -> Structure:
    groups = build(decode(body, None)[0]).groups
    return [(group.agents, rows_of([group])) for group in groups]


def same(body: bytes) -> None:
    assert by_outline(body) == by_build(body), body[:300]


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"User-agent: a\nDisallow: /x\n",
        b"User-agent: a\nUser-agent: b\nDisallow: /\nUser-agent: c\nAllow: /c\n",
        # "user" that is not a key: in paths, values and comments.
        b"User-agent: a\nDisallow: /user/\nDisallow: /users # user-agent: b\nUser-agent: c\n",
        b"Disallow: /user-agent: x\nUser-agent: *\nDisallow: /p\n",
        # leading blanks, case, typos, prefixes and a missing colon.
        b"  \tUSER-AGENT: a\n useragent: b\nuser agent: c\nUser-agents: d\nDisallow /x\n",
        b"User-agent Googlebot\nDisalow: /a\nUser-agent: b\nDissallow: /b\nUser-agent: c\n"
        b"Diasllow: /c\nUser-agent: d\nDisallaw: /d\nUser-agent: e\nAllowance: /e\n",
        # lines that look like rules but are not, between user-agent lines: one group.
        b"User-agent: a\nDisplay: x\nDiary /a /b\nAllow-me\n# Disallow: /\nUser-agent: b\n"
        b"Disallow: /\n",
        # a sitemap, crawl-delay or unknown line does not close a group (SPEC §6.4).
        b"User-agent: *\nCrawl-delay: 1\nSitemap: http://s/\nUser-agent: bad\nDisallow: /\n",
        # an empty rule still closes the group.
        b"User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /b\n",
        # a NUL ends a line; "#" starts a comment, also inside a key.
        b"User-agent: a\x00b\nDisallow: /x\x00/y\nUser-agent: b#c\nAllow#x: /y\nDisallow: /z#q\n",
        b"\x00User-agent: a\nDisallow: /a\nUser-agent: b\n\x00Disallow: /b\nDisallow: /c\n",
        # line ends: CR, CRLF, mixed; a BOM.
        b"\xef\xbb\xbfUser-agent: a\r\nDisallow: /a\rUser-agent: b\r\rDisallow: /b\n\r",
        # escapes and octets outside US-ASCII are normalised in rules.
        b"User-agent: a\nDisallow: /%7e\xc3\xa9\nAllow: /plain\n",
        # rules before any user-agent, and a user-agent as the last line without LF.
        b"Disallow: /before\nAllow: /x\nUser-agent: a",
        b"user-agent:a\nallow:/x:y\ndisallow :*\n",
        # read_rules' common spellings and what only looks like them: case, colon at once or
        # after blanks, blanks and comments around the value, an empty value, a second colon.
        b"User-agent: a\nDISALLOW:/u\nALLOW:/v\nallow:/w\ndisallow: /x # c\nDisallow:\t/y\t\n"
        b"Allow: /z#\nDisallow::/colon\nDisallow: /a b\nAllow:\nDisallow: #/c\nAllow :/s\n",
        # a key after blanks (any of C's isspace), and lines that are no rules however
        # they start.
        b"User-agent: a\n\tDisallow: /t\n\x0bAllow: /v\n\x0cDisallow: /f\n Disallow : /s\n"
        b"Noindex: /n\nXDisallow: /x\n#Disallow: /c\nDisallow /nocolon\nAllowed: /p\n"
        b"Disallowing: /q\nAllow-me: /r\nDis allow: /d\nallowed: /p\ndisallow-it:/i\n \n\t\n",
        # a NUL anywhere in the group: every line read as the line reader reads it.
        b"User-agent: a\nDisallow: /a\x00b\nAllow: /c\nDisallow: /d\x00\nDisallow /e\n",
    ],
)
def test_outline_reads_the_traps_as_build_does(body: bytes) -> None:
    same(body)


def test_overlong_lines_are_cut_as_build_cuts_them() -> None:
    pad = b" " * MAX_LINE_BYTES
    same(pad + b"User-agent: a\nDisallow: /a\n")  # the key is past the cut: a blank line
    same(b"User-agent: a\nDisallow: /" + b"x" * MAX_LINE_BYTES + b"$\nUser-agent: b\n")
    same(b"User-agent: a\n" + b"Disallow: /y\n" * 2000 + b"Disallow: /" + b"z" * 20000 + b"\n")
    # A common spelling on an overlong line: cut too (the key is read, the value cut).
    same(b"User-agent: a\nAllow: /" + b"w" * MAX_LINE_BYTES + b"\nDisallow: /" + b"v" * 20000)


def test_rule_keys_order_rules_as_the_rfc_does() -> None:
    longer, allow, earlier = rule_key(False, 5, 9), rule_key(True, 4, 9), rule_key(False, 4, 2)
    assert longer > allow > earlier > rule_key(False, 4, 3)


def test_parse_reads_only_the_outline_until_asked() -> None:
    robots = robotsrules.parse(b"User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n")
    assert robots._full._parsed is None  # nothing read in full yet
    assert not robots.allowed("/a", agent="a") and robots.allowed("/a", agent="b")
    assert robots._full._parsed is None  # rules came from the outline's spans
    verdict = robots.explain("/b/c", agent="b")
    assert [g.line for g in verdict.groups] == [3] and str(verdict.rule) == "4: Disallow: /b"
    assert robots._full._parsed is None  # explain read group b alone
    assert [g.agents for g in robots.groups] == [("a",), ("b",)]
    assert robots._full._parsed is not None


@SETTINGS
@given(robots_lines())
def test_outline_equals_build_on_random_files(body: bytes) -> None:
    same(body)


@SETTINGS
@given(st.binary(max_size=600))
def test_outline_equals_build_on_arbitrary_bytes(body: bytes) -> None:
    same(body)


@SETTINGS
@given(st.lists(st.sampled_from([
    "User-agent: a", "user-agent:b", " User-Agent : *", "Useragent c", "User agent: d",
    "Disallow: /u", "disallow /user", "Allow: /x", "Disalow: /t", "Sitemap: /s", "# user",
    "", "  ", "Crawl-delay: 2", "Userfoo: x", "Disallowed: /q", "diasllow: /r", "\x00",
]), max_size=30), st.lists(st.sampled_from(["\n", "\r", "\r\n"]), min_size=30, max_size=30))
def test_outline_equals_build_on_shuffled_directives(lines: list[str], ends: list[str]) -> None:
    same("".join(line + end for line, end in zip(lines, ends)).encode())


def test_outline_equals_build_on_the_corpus() -> None:
    robots_dir = os.path.join(CORPUS, "robots")
    if not os.path.isdir(robots_dir):
        pytest.skip(f"corpus not found at {os.path.abspath(CORPUS)} (set ROBOTSRULES_CORPUS)")
    differ = []
    names = sorted(os.listdir(robots_dir))
    for name in names:
        with open(os.path.join(robots_dir, name), "rb") as handle:
            body = handle.read()
        if by_outline(body) != by_build(body):
            differ.append(name)
    assert differ == [], f"{len(differ)} of {len(names)} files differ: {differ[:10]}"


@SETTINGS
@given(robots_lines(), st.lists(st.text("/ab*$%?=A\u00e9", max_size=10), min_size=1, max_size=6))
def test_lazy_file_answers_as_an_eagerly_built_one(body: bytes, tails: list[str]) -> None:
    """parse() reads rules from the source octets (or the LF text, with CRs) when asked;
    a RobotsTxt built from build()'s groups must answer every question the same way."""
    lazy = robotsrules.parse(body)
    parsed = build(decode(body, robotsrules.DEFAULT_MAX_BYTES)[0])
    eager = robotsrules.RobotsTxt(lazy.source, parsed.groups, parsed.sitemaps, parsed.hosts)
    agents = [*lazy.agents, "zz"] if all(a.isalpha() for a in lazy.agents) else ["zz"]
    for agent in agents:  # each agent's groups read alone, from their spans
        assert robotsrules.parse(body).for_agent(agent).groups == eager.for_agent(agent).groups
        assert robotsrules.parse(body).crawl_delay(agent) == eager.crawl_delay(agent)
    assert lazy.groups == eager.groups and lazy.sitemaps == eager.sitemaps
    for agent in agents:
        for tail in tails:
            url = "/" + tail
            mine, theirs = lazy.explain(url, agent=agent), eager.explain(url, agent=agent)
            assert (mine.allowed, mine.rule, mine.reason) == (
                theirs.allowed, theirs.rule, theirs.reason), (agent, url)
            assert lazy.crawl_delay(agent) == eager.crawl_delay(agent)


def test_the_user_search_crosses_chunk_boundaries() -> None:
    """Large texts are lower-cased a chunk at a time: a key split across two chunks, or
    starting exactly at a chunk's start, must still be found, in any case."""
    from robotsrules._rules._outline import _CHUNK

    for shift in range(-6, 3):
        pad = b"#" * (_CHUNK + shift) + b"\n"
        same(pad + b"uSeR-AgEnT: a\nDisallow: /a\n" + pad * 2 + b"USER-agent: b\nAllow: /b\n")
    body = b"".join(b"User-agent: a%d\nDisallow: /%d\n" % (i, i) for i in range(20_000))
    assert len(body) > 4 * _CHUNK
    same(body)


_CRLF_LINES = [
    "User-agent: a", "user-agent:b", " User-Agent : *", "Disallow: /a", "disallow /u",
    "Allow: /a/b", "Disallow: /*x$", "Allow: /x/index.html", "Disalow: /t", "Disallow:", "",
    "  ", "# user", "Sitemap: /s", "Crawl-delay: 2", "Allow: /%7e\u00e9",
]


@SETTINGS
@given(st.lists(st.sampled_from(_CRLF_LINES), max_size=24), st.sampled_from(["\r\n", "\n", "\r"]),
       st.integers(0, 30), st.sampled_from(["", "\r\n"]), st.sampled_from(["", "\ufeff"]))
@example(["User-agent: a", "Disallow: /a"], "\n", 0, "", "")  # no CR
@example(["User-agent: a", "Disallow: /a", "Allow: /a/b"], "\n", 0, "\r\n", "")  # mixed
@example(["User-agent: a", "Disallow: /a", "User-agent: b", "Allow: /"], "\r\n", 0, "", "\ufeff")
def test_crlf_files_are_read_from_their_octets(
    lines: list[str], odd_end: str, odd_at: int, last: str, bom: str
) -> None:
    """A file whose every line ends in CRLF has its rules read from the source octets
    (offsets shifted by one CR per line); one other line end anywhere (a lone LF or CR)
    must send it down the path that re-reads the normalised text. Either way an agent's
    rules and verdicts equal those of a file built eagerly from build()'s groups."""
    ends = ["\r\n"] * len(lines)
    if odd_at < len(ends) - 1:
        ends[odd_at] = odd_end
    if ends:
        ends[-1] = last
    body = (bom + "".join(line + end for line, end in zip(lines, ends))).encode()
    lazy = robotsrules.parse(body)
    lazy.for_agent("zz")  # the first compile works out the line ends
    if b"\r" not in body:
        assert lazy._octets == (len(bom.encode()), False)  # spans map to the octets as they are
    elif body.count(b"\r") == body.count(b"\r\n") == body.count(b"\n"):
        assert lazy._octets == (len(bom.encode()), True)  # shifted by one CR per line
    else:
        assert lazy._octets is None  # a lone CR or LF: the LF text is read again
    parsed = build(decode(body, robotsrules.DEFAULT_MAX_BYTES)[0])
    eager = robotsrules.RobotsTxt(lazy.source, parsed.groups, parsed.sitemaps, parsed.hosts)
    for agent in ("a", "b", "zz"):
        mine = robotsrules.parse(body).for_agent(agent)
        theirs = eager.for_agent(agent)
        assert mine.rules == theirs.rules and mine.groups == theirs.groups
        # URLs that each rule matches (its pattern without wildcards), and a few others.
        urls = {rule.pattern.replace("*", "").rstrip("$") for rule in theirs.rules}
        for url in sorted(urls | {"/", "/a", "/u", "/x/", "/xx", "/%7E%C3%A9"}):
            if url.startswith("/"):
                assert mine.explain(url) == theirs.explain(url), (agent, url)
