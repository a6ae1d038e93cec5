"""robotsrules.robotparser.RobotFileParser against the standard library's.

Parity: on every corpus file where the two readings agree by construction (the predicate
:func:`_comparable` spells out when: no wildcards, escapes, overlapping allow/disallow,
substring agents, blank lines inside groups, Google-only leniencies ...), ``can_fetch``,
``crawl_delay``, ``request_rate`` and ``site_maps`` give the standard library's answers,
both fed the same ``parse(lines)``. Then one ``test_difference_*`` test per documented
difference (the numbers are those of the module docstring), against the real standard
library where it can run offline, and against loopback servers for ``read()``.
"""

from __future__ import annotations

import io
import os
import re
import urllib.error
import urllib.robotparser
from collections.abc import Iterator
from typing import Optional

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules import InvalidURL
from robotsrules.robotparser import DEFAULT_USER_AGENT, RobotFileParser
from tests.core.test_corpus import AGENTS
from tests.corpus import urls_by_host as _urls
from tests.network.servers import ServerPool, redirect, respond

URLS_PER_FILE = 12

_RULE_VALUE = re.compile(r"/[A-Za-z0-9/._~!&'()+,=:@?-]*")
_AGENT_VALUE = re.compile(r"[A-Za-z_-]+|\*")
_ODD_BREAKS = re.compile("[\x00\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_RULE_KEYS = {"allow", "disallow", "crawl-delay", "request-rate"}
_KEYS = _RULE_KEYS | {"user-agent", "sitemap"}


def _stdlib(lines: list[str]) -> urllib.robotparser.RobotFileParser:
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(lines)
    return parser


def _ours(lines: list[str]) -> RobotFileParser:
    parser = RobotFileParser()
    parser.parse(lines)
    return parser


def _records(text: str, robots: robotsrules.RobotsTxt) -> Optional[list[list[tuple[str, str]]]]:
    """The blank-line records as (key, value) lists of the directives both readers know;
    None when any line is read differently by the two (a Google-only leniency)."""
    lines = text.splitlines()
    report = robots.lines
    records: list[list[tuple[str, str]]] = [[]]
    for index, raw in enumerate(lines):
        if raw == "":
            records.append([])
            continue
        line = report[index]
        if line.key is None or line.key in ("unknown", "host"):
            if ":" in raw.split("#", 1)[0] and raw.split(":", 1)[0].strip().lower() in _KEYS:
                return None
            continue
        if line.typo or line.missing_colon or line.key_text.strip().lower() != line.key:
            return None
        if line.key in _KEYS:
            records[-1].append((line.key, line.value))
    return [record for record in records if record]


def _comparable(body: bytes) -> Optional[dict[str, object]]:
    """What makes a file comparable, or None. Returns its records' agents and rules."""
    if len(body) > robotsrules.DEFAULT_MAX_BYTES or body.startswith(b"\xef\xbb\xbf"[:1]):
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if _ODD_BREAKS.search(text) or any(len(line) > 10_000 for line in text.splitlines()):
        return None
    records = _records(text, robotsrules.parse(body))
    if records is None:
        return None
    seen: set[str] = set()
    agents: list[str] = []
    groups = [r for r in records if any(key == "user-agent" for key, _ in r)]
    for record in groups[:-1]:
        # Google closes a group only at a user-agent line after an allow/disallow line: a
        # record of crawl-delay lines only would merge with the next one.
        if not any(key in ("allow", "disallow") for key, _ in record):
            return None
    for record in records:
        keys = [key for key, _ in record if key != "sitemap"]
        if not keys:
            continue
        ua = [i for i, key in enumerate(keys) if key == "user-agent"]
        # One or more user-agent lines, then rules only (no blank line inside a group,
        # no rule outside one, no user-agent after a crawl-delay).
        if ua != list(range(len(ua))) or not ua or len(ua) == len(keys):
            return None
        names = [value for key, value in record if key == "user-agent"]
        if any(not _AGENT_VALUE.fullmatch(name) for name in names):
            return None
        lowered = {name.lower() for name in names}
        if lowered & seen or ("*" in lowered and len(lowered) > 1):
            return None
        seen |= lowered
        agents.extend(lowered)
        rules = [(key, value) for key, value in record if key in ("allow", "disallow")]
        for position, (key, value) in enumerate(rules):
            if value == "":
                if position != len(rules) - 1:
                    return None  # urllib: an empty rule shadows the ones after it
                continue
            if not _RULE_VALUE.fullmatch(value) or value.startswith("//") or value.endswith(
                    ("?", ";")) or ";" in value or (key == "allow" and "index.htm" in value):
                return None
        for key, value in rules:
            for other_key, other in rules:
                if value and other and key != other_key and other.startswith(value):
                    return None  # first match and longest match could differ
        if sum(1 for key, _ in record if key == "crawl-delay") > 1 or sum(
                1 for key, _ in record if key == "request-rate") > 1:
            return None
    return {"agents": agents}


def _agent_comparable(agent: str, agents: list[str]) -> bool:
    """urllib applies a record when its name is a *substring* of the agent's."""
    lowered = agent.lower()
    return all(name == "*" or name not in lowered or name == lowered for name in agents)


def _url_comparable(url: str) -> bool:
    if not url.isascii() or any(c in url for c in "%#; \\") or url.endswith("?"):
        return False
    path = re.sub(r"^[a-z]+://[^/?#]*", "", url)
    return not path.startswith("//") and path.split("?", 1)[0] != "/robots.txt"


def test_parity_with_stdlib_on_corpus(corpus_dir: str) -> None:
    urls = _urls(corpus_dir)
    names = sorted(os.listdir(os.path.join(corpus_dir, "robots")))
    files = checks = delays = 0
    problems: list[str] = []
    for name in names:
        with open(os.path.join(corpus_dir, "robots", name), "rb") as handle:
            body = handle.read()
        facts = _comparable(body)
        if facts is None:
            continue
        files += 1
        lines = body.decode("utf-8").splitlines()
        theirs, ours = _stdlib(lines), _ours(lines)
        file_urls = [u for u in urls.get(name[:-4], []) if _url_comparable(u)][:URLS_PER_FILE]
        for agent in AGENTS:
            if not _agent_comparable(agent, facts["agents"]):  # type: ignore[arg-type]
                continue
            for url in file_urls:
                checks += 1
                if theirs.can_fetch(agent, url) != ours.can_fetch(agent, url):
                    problems.append(f"{name} {agent} {url}: stdlib {theirs.can_fetch(agent, url)}")
            delay = theirs.crawl_delay(agent)
            if delay is not None:
                delays += 1
                if ours.crawl_delay(agent) != float(delay):
                    problems.append(f"{name} {agent}: crawl-delay {delay} vs {ours.crawl_delay(agent)}")
            rate = theirs.request_rate(agent)
            if rate is not None and tuple(ours.request_rate(agent) or ()) != tuple(rate):
                problems.append(f"{name} {agent}: request-rate {rate}")
        their_maps = theirs.site_maps()
        if their_maps is not None and not any("%" in m for m in ours.site_maps() or ()) and (
                ours.site_maps() != their_maps):
            problems.append(f"{name}: sitemaps {their_maps} vs {ours.site_maps()}")
    assert problems == [], f"{len(problems)} differences:\n" + "\n".join(problems[:20])
    # The predicate must leave a real sample, or the test proves nothing.
    assert files > 2000 and checks > 20_000 and delays > 100, (files, checks, delays)
    print(f"compared {files} files, {checks} URL checks, {delays} crawl-delays")


# -- the documented differences, one test each (numbers as in the module docstring) ------------

def _both(body: str) -> tuple[urllib.robotparser.RobotFileParser, RobotFileParser]:
    lines = body.splitlines()
    return _stdlib(lines), _ours(lines)


def test_difference_1_agents_whole_token_and_full_headers() -> None:
    theirs, ours = _both("User-agent: google\nDisallow: /\n")
    assert theirs.can_fetch("Googlebot", "/x") is False  # substring
    assert ours.can_fetch("Googlebot", "/x") is True
    theirs, ours = _both("User-agent: ExampleBot\nDisallow: /\n")
    header = "Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)"
    assert theirs.can_fetch(header, "/x") is True  # read as 'mozilla'
    assert ours.can_fetch(header, "/x") is False


def test_difference_2_groups_blank_lines_and_merging() -> None:
    theirs, ours = _both("User-agent: a\n\nDisallow: /x\n")
    assert theirs.can_fetch("a", "/x") is True and ours.can_fetch("a", "/x") is False
    theirs, ours = _both("User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n")
    assert theirs.can_fetch("a", "/y") is True and ours.can_fetch("a", "/y") is False
    theirs, ours = _both("User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n")
    assert theirs.can_fetch("a", "/x") is True and ours.can_fetch("a", "/x") is False


def test_difference_3_longest_match() -> None:
    theirs, ours = _both("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
    assert theirs.can_fetch("x", "/a/b") is False and ours.can_fetch("x", "/a/b") is True


def test_difference_4_wildcards() -> None:
    theirs, ours = _both("User-agent: *\nDisallow: /*.pdf$\n")
    assert theirs.can_fetch("x", "/a.pdf") is True and ours.can_fetch("x", "/a.pdf") is False
    assert ours.can_fetch("x", "/a.pdf?x") is True


def test_difference_5_escapes_not_decoded_fragment_ignored() -> None:
    theirs, ours = _both("User-agent: *\nDisallow: /a%2Fb\n")
    assert theirs.can_fetch("x", "/a/b") is False and ours.can_fetch("x", "/a/b") is True
    assert ours.can_fetch("x", "/a%2fb") is False  # hex case does not matter
    theirs, ours = _both("User-agent: *\nDisallow: /a%23b\n")  # %23 is '#'
    assert theirs.can_fetch("x", "/a#b") is False and ours.can_fetch("x", "/a#b") is True


def test_difference_6_empty_disallow() -> None:
    theirs, ours = _both("User-agent: *\nDisallow:\nDisallow: /x\n")
    assert theirs.can_fetch("a", "/x") is True and ours.can_fetch("a", "/x") is False


def test_difference_7_reading_leniency() -> None:
    theirs, ours = _both("User-agent: *\nDisallowed: /x\nDisallow /y\n")
    assert theirs.can_fetch("a", "/x") is True and ours.can_fetch("a", "/x") is False
    assert theirs.can_fetch("a", "/y") is True and ours.can_fetch("a", "/y") is False
    theirs, ours = _both("\ufeffUser-agent: *\nDisallow: /x\n")
    assert theirs.can_fetch("a", "/x") is True and ours.can_fetch("a", "/x") is False


def test_difference_8_robots_txt_always_allowed() -> None:
    theirs, ours = _both("User-agent: *\nDisallow: /\n")
    assert theirs.can_fetch("a", "/robots.txt") is False
    assert ours.can_fetch("a", "/robots.txt") is True


def test_difference_11_fractional_crawl_delay_slowest_value() -> None:
    theirs, ours = _both("User-agent: *\nCrawl-delay: 0.5\nDisallow: /x\n")
    assert theirs.crawl_delay("a") is None and ours.crawl_delay("a") == 0.5
    theirs, ours = _both("User-agent: *\nCrawl-delay: 3\nCrawl-delay: 2\n")
    assert theirs.crawl_delay("a") == 2 and ours.crawl_delay("a") == 3.0  # the slowest
    theirs, ours = _both("Crawl-delay: 4\nUser-agent: *\nDisallow: /x\n")
    assert theirs.crawl_delay("a") is None and ours.crawl_delay("a") == 4.0  # before any agent
    # Per agent as the standard library's records, a blank line aside (issue 22's example).
    theirs, ours = _both("User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 12\n\n"
                         "User-agent: SemrushBot\nCrawl-delay: 60\nUser-agent: *\n"
                         "Disallow: /private\n")
    for agent, delay in [("a", 1), ("b", 12), ("Xyz", None)]:
        assert ours.crawl_delay(agent) == theirs.crawl_delay(agent) == delay
    # (The standard library matches agent names by substring, difference 1: `b` is in
    # `semrushbot`, so it answers 12 there.)
    assert ours.crawl_delay("SemrushBot") == 60.0 and theirs.crawl_delay("SemrushBot") == 12
    theirs, ours = _both("User-agent: *\nRequest-rate: 1/5\n")
    assert ours.request_rate("a") == (1, 5.0) == theirs.request_rate("a")
    assert isinstance(ours.request_rate("a").seconds, float)  # type: ignore[union-attr]


def test_difference_12_sitemaps_as_written() -> None:
    theirs, ours = _both("Sitemap: https://e.com/a%20b.xml\nSite-map: https://e.com/c.xml\n")
    assert theirs.site_maps() == ["https://e.com/a b.xml"]
    assert ours.site_maps() == ["https://e.com/a%20b.xml", "https://e.com/c.xml"]


def test_difference_13_caller_mistakes_raise() -> None:
    theirs, ours = _both("User-agent: *\nDisallow: /x\n")
    assert theirs.can_fetch("a", "x") is True
    with pytest.raises(InvalidURL):
        ours.can_fetch("a", "x")
    with pytest.raises(ValueError):
        ours.can_fetch("(no name at all)", "/x")


def test_difference_14_str_is_the_file_as_read() -> None:
    text = "User-agent: *\nDisallow: /x # why\n\nUser-agent: a\nDisallow: /y\n"
    theirs, ours = _both(text)
    assert str(ours) == text.rstrip("\n")
    assert str(theirs) == "User-agent: a\nDisallow: /y\n\nUser-agent: *\nDisallow: /x"


# -- issue 13, findings 27-29: '*', line ends, lone surrogates ----------------------------------

STDLIB_DOC_EXAMPLE = (b"User-agent: *\nCrawl-delay: 6\nRequest-rate: 3/20\nDisallow: /cgi-bin/\n\n"
                      b"User-agent: ExampleBot\nDisallow: /\n")


def test_star_agent_as_in_the_stdlib_documentation(pool: ServerPool) -> None:
    # The standard library's documented example asks with "*" after read(); so can we.
    site = pool.http({"/robots.txt": respond(200, STDLIB_DOC_EXAMPLE)})
    theirs, ours = _stdlib_read(site.url()), _our_read(site.url())
    for parser in (theirs, ours):
        rate = parser.request_rate("*")
        assert rate is not None and (rate.requests, rate.seconds) == (3, 20)
        assert parser.crawl_delay("*") == 6
        assert parser.can_fetch("*", site.url("/cgi-bin/search?city=San+Francisco")) is False
        assert parser.can_fetch("*", site.url("/")) is True  # ExampleBot's group is not "*"'s
        assert parser.can_fetch("ExampleBot", site.url("/")) is False
    verdict = ours.explain(" * ", "/cgi-bin/x")
    assert verdict is not None and verdict.scope == "global" and verdict.rule is not None
    assert verdict.rule.line == 4


def test_star_agent_before_read_and_on_status_rules(pool: ServerPool) -> None:
    fresh = RobotFileParser()
    assert fresh.can_fetch("*", "/x") is False
    assert fresh.crawl_delay("*") is None and fresh.request_rate("*") is None
    site = pool.http({"/robots.txt": respond(503, b"")})
    dark = _our_read(site.url())
    assert dark.can_fetch("*", "/x") is False and dark.crawl_delay("*") is None


TEXT = "User-agent: *\nDisallow: /a\n\nUser-agent: Bot\nDisallow: /b\nSitemap: https://e.com/s\n"


@pytest.mark.parametrize("lines", [
    io.StringIO(TEXT).readlines(),                                  # "...\n" each
    io.StringIO(TEXT.replace("\n", "\r\n"), newline="").readlines(),  # "...\r\n" each
    [line + "\r" for line in TEXT.splitlines()],                    # old Mac line ends
    TEXT.splitlines(),                                              # no line ends
    io.BytesIO(TEXT.encode()).readlines(),                          # bytes, as from open("rb")
], ids=["lf", "crlf", "cr", "none", "bytes"])
def test_parse_lines_keeping_their_line_ends(lines: list[str]) -> None:
    ours = _ours(lines)
    verdict = ours.explain("Bot", "/b")
    assert verdict is not None and verdict.rule is not None
    assert verdict.rule.line == 5  # not 9: each line end counts once
    assert str(ours) == TEXT.rstrip("\n")
    assert ours.site_maps() == ["https://e.com/s"]
    assert ours.can_fetch("Bot", "/a") is True and ours.can_fetch("x", "/a") is False
    if isinstance(lines[0], str):  # urllib ignores line ends too (and takes no bytes)
        assert str(_stdlib(lines)) == str(_stdlib(TEXT.splitlines()))


def test_parse_lines_removes_one_line_end_only() -> None:
    ours = _ours(["User-agent: *\n\n", "Disallow: /a\n", "\n", "Disallow: /b\r\n"])
    assert str(ours) == "User-agent: *\n\nDisallow: /a\n\nDisallow: /b"
    verdict = ours.explain("x", "/b")
    assert verdict is not None and verdict.rule is not None and verdict.rule.line == 5
    with pytest.raises(TypeError, match="must be str"):
        RobotFileParser().parse([1, 2])  # type: ignore[list-item]


def _strip_one_line_end(line: str) -> str:
    for end in ("\r\n", "\n", "\r"):
        if line.endswith(end):
            return line[: -len(end)]
    return line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text("ab\r\n", max_size=5), max_size=8), st.booleans())
@example(lines=["\n", ""], as_bytes=False)  # found by hypothesis: the LF fast path's last item
def test_parse_lines_is_one_line_end_off_each_item_joined_by_lf(lines: list[str],
                                                                  as_bytes: bool) -> None:
    expected = "\n".join(_strip_one_line_end(line) for line in lines)
    items: list[object] = [line.encode() if as_bytes and i % 2 else line
                           for i, line in enumerate(lines)]
    ours = RobotFileParser()
    ours.parse(iter(items))  # type: ignore[arg-type]
    assert str(ours) == expected


def test_lone_surrogates_stand_for_their_byte() -> None:
    # PEP 383: bytes.decode("utf-8", "surrogateescape") turns the byte 0xF0 into "\udcf0".
    body = b"User-agent: *\nDisallow: /v1/\xf0\nDisallow: /caf\xc3\xa9\n"
    text = body.decode("utf-8", "surrogateescape")
    assert "\udcf0" in text
    ours = _ours(text.splitlines())
    from_bytes = _ours([body])
    for parser in (ours, from_bytes):
        assert parser.can_fetch("x", "/v1/\udcf0") is False
        assert parser.can_fetch("x", "https://e.com/v1/%F0") is False
        assert parser.can_fetch("x", "/v1/%ED%B3%B0") is True  # not the surrogate's UTF-8
        assert parser.can_fetch("x", "/caf\u00e9") is False
    verdict = ours.explain("x", "/v1/\udcf0")
    assert verdict is not None and verdict.target == "/v1/%F0"
    assert verdict.rule is not None and verdict.rule.pattern == "/v1/%F0"


def test_unchanged_before_read_and_other_hosts() -> None:
    theirs, ours = urllib.robotparser.RobotFileParser(), RobotFileParser()
    assert theirs.can_fetch("a", "/x") is ours.can_fetch("a", "/x") is False
    assert theirs.crawl_delay("a") is ours.crawl_delay("a") is None
    assert theirs.site_maps() is ours.site_maps() is None
    assert ours.mtime() == 0
    theirs, ours = _both("User-agent: *\nDisallow: /x\n")
    assert ours.mtime() > 0
    # Like the standard library, the host of the URL is not compared.
    assert ours.can_fetch("a", "https://elsewhere.example/x") is False
    assert ours.explain("a", "/x").rule.line == 2  # type: ignore[union-attr]


# -- read(): statuses, the request, redirects (loopback) ------------------------------------

@pytest.fixture()
def pool() -> Iterator[ServerPool]:
    with ServerPool() as servers:
        yield servers


def _stdlib_read(url: str) -> urllib.robotparser.RobotFileParser:
    parser = urllib.robotparser.RobotFileParser(url)
    parser.read()
    return parser


def _our_read(url: str, **kwargs: object) -> RobotFileParser:
    parser = RobotFileParser(url, **kwargs)  # type: ignore[arg-type]
    parser.read()
    return parser


@pytest.mark.parametrize(("status", "stdlib_allows", "ours_allows"), [
    (401, False, True), (403, False, True), (404, True, True), (429, True, False),
    (500, False, False), (503, False, False),
])
def test_difference_9_status_codes(pool: ServerPool, status: int, stdlib_allows: bool,
                                   ours_allows: bool) -> None:
    site = pool.http({"/robots.txt": respond(status, b"User-agent: *\nDisallow: /\n")})
    assert _stdlib_read(site.url()).can_fetch("a", "/x") is stdlib_allows
    ours = _our_read(site.url())
    assert ours.can_fetch("a", "/x") is ours_allows
    assert ours.result is not None and ours.result.status == status


def test_difference_9_network_error_does_not_raise(pool: ServerPool) -> None:
    site = pool.http({})
    url = site.url()
    site.stop()  # nothing listens there any more: connection refused
    with pytest.raises(urllib.error.URLError):
        _stdlib_read(url)
    ours = _our_read(url, timeout=2.0)
    assert ours.can_fetch("a", "/x") is False and ours.disallow_all
    assert ours.result is not None and ours.result.outcome == "unreachable"


def test_difference_9_redirect_limit(pool: ServerPool) -> None:
    hops: dict[str, object] = {f"/r{i}": redirect(f"/r{i + 1}") for i in range(7)}
    site = pool.http({"/robots.txt": redirect("/r0"), **hops,  # type: ignore[dict-item]
                      "/r7": respond(200, b"User-agent: *\nDisallow: /\n")})
    assert _stdlib_read(site.url()).can_fetch("a", "/x") is False  # followed 8 hops
    ours = _our_read(site.url())
    assert ours.can_fetch("a", "/x") is True and ours.allow_all  # more than 5: no rules
    short = pool.http({"/robots.txt": redirect("/r0"), "/r0": redirect("/real"),
                       "/real": respond(200, b"User-agent: *\nDisallow: /\n")})
    assert _our_read(short.url()).can_fetch("a", "/x") is False


def test_difference_10_user_agent_header_and_root_robots(pool: ServerPool) -> None:
    site = pool.http({"/robots.txt": respond(200, b"User-agent: *\nDisallow: /x\n")})
    _stdlib_read(site.url())
    _our_read(site.url("/some/where/robots.txt"), user_agent="ExampleBot/1.0 (+https://e.com)")
    _our_read(site.url())
    agents = [r.headers.get("user-agent", "") for r in site.requests]
    assert agents[0].startswith("Python-urllib/")
    assert agents[1] == "ExampleBot/1.0 (+https://e.com)"
    assert agents[2] == DEFAULT_USER_AGENT
    assert [r.path for r in site.requests][1:] == ["/robots.txt", "/robots.txt"]


def test_difference_10_timeout(pool: ServerPool) -> None:
    from tests.network.servers import slow_headers

    site = pool.http({"/robots.txt": slow_headers(600)})  # silent until the test ends
    ours = _our_read(site.url(), timeout=0.3)
    assert ours.can_fetch("a", "/x") is False
    assert ours.result is not None and "timed out" in (ours.result.error or "")


def test_read_ok_and_non_utf8(pool: ServerPool) -> None:
    body = b"User-agent: *\nDisallow: /caf\xe9\nSitemap: https://e.com/s.xml\nCrawl-delay: 2\n"
    site = pool.http({"/robots.txt": respond(200, body)})
    with pytest.raises(UnicodeDecodeError):
        _stdlib_read(site.url())
    ours = _our_read(site.url())
    assert ours.can_fetch("a", "/ok") is True
    assert ours.site_maps() == ["https://e.com/s.xml"] and ours.crawl_delay("a") == 2.0
    assert "Disallow" in str(ours)
