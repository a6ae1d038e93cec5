"""Property tests (hypothesis) of the parser and matcher.

* parsing never raises, whatever the bytes, and neither do ``lines`` or ``explain``;
* the parser's regular-expression fast path reads every file exactly as the line reader;
* ``allowed`` agrees with a deliberately naive reference matcher on random patterns/paths;
* on random robots-like files, verdicts agree with Google's library (SPEC §0's identity).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules._rules._parser import build, decode
from tests.oracle import oracle, requires_oracle

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KEYS = [
    "User-agent", "user-agent", "useragent", "User agent", "Allow", "allow", "Disallow",
    "disallow", "Disalow", "Disallowed", "Sitemap", "Crawl-delay", "foo", "", "Host",
]
AGENT_VALUES = ["*", "a", "A", "b", "a/1.0", "* x", "*a", "ab", "a-b", "a_b", "a1", ""]
PATTERN_ALPHABET = "/ab*$%.?;=A"
PATH_ALPHABET = "/ab$*%.?;=A"


@st.composite
def robots_lines(draw: st.DrawFn) -> bytes:
    """Robots-like files: known keys, odd spacing, comments, junk and all line ends."""
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        key = draw(st.sampled_from(KEYS))
        if key.lower().startswith("user"):
            value = draw(st.sampled_from(AGENT_VALUES))
        else:
            value = draw(st.text(PATTERN_ALPHABET + "\u00e9 ", max_size=8))
        sep = draw(st.sampled_from([":", ": ", " : ", " ", "\t", ":\t", "::"]))
        tail = draw(st.sampled_from(["", " ", " # c", "#", "\x0b", "\x00x"]))
        lines.append(draw(st.sampled_from(["", " ", "\t"])) + key + sep + value + tail)
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "# comment", "junk", "  "])))
    ends = draw(st.lists(st.sampled_from(["\n", "\r", "\r\n"]), min_size=len(lines),
                         max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, ends))
    return draw(st.sampled_from([b"", b"\xef\xbb\xbf"])) + text.encode("utf-8")


@SETTINGS
@given(st.binary(max_size=2000))
def test_parsing_never_raises_on_arbitrary_bytes(body: bytes) -> None:
    robots = robotsrules.parse(body)
    assert len(robots.lines) >= 1
    robots.explain("/a", agent="a")
    robots.allowed("https://h/b?c", agent=["a", "b"])


@SETTINGS
@given(st.text(max_size=500))
def test_parsing_never_raises_on_arbitrary_text(body: str) -> None:
    robotsrules.parse(body).explain("/x", agent="*")


@SETTINGS
@given(st.one_of(robots_lines(), st.binary(max_size=500)))
def test_fast_path_reads_like_the_line_reader(body: bytes) -> None:
    text, _, _ = decode(body, None)
    fast, exact = build(text), build(text, want_lines=True)
    assert (fast.groups, fast.sitemaps, fast.hosts) == (exact.groups, exact.sitemaps, exact.hosts)


def reference_match(pattern: str, path: str) -> bool:
    """RFC 9309 matching by brute force over positions (no shared code with pattern.py)."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    positions = {0}
    for char in body:
        if char == "*":
            positions = set(range(min(positions), len(path) + 1))
        else:
            positions = {p + 1 for p in positions if p < len(path) and path[p] == char}
        if not positions:
            return False
    return len(path) in positions if anchored else True


def reference_allowed(rules: list[tuple[str, str]], path: str) -> bool:
    best = (0, True)  # (priority, allowed): priority 0 never decides
    for directive, pattern in rules:
        candidates = [pattern]
        slash = pattern.rfind("/")
        if directive == "allow" and slash >= 0 and pattern.startswith("/index.htm", slash):
            candidates.append(pattern[: slash + 1] + "$")
        for candidate in candidates:
            if candidate and reference_match(candidate, path):
                key = (len(candidate), directive == "allow")
                if key > best:
                    best = key
    return best[1]


RULE = st.tuples(st.sampled_from(["allow", "disallow"]),
                 st.text(PATTERN_ALPHABET, min_size=0, max_size=10).map(lambda p: "/" + p))


@SETTINGS
@given(st.lists(RULE, max_size=12), st.text(PATH_ALPHABET, max_size=14))
def test_allowed_agrees_with_a_reference_matcher(rules: list[tuple[str, str]], tail: str) -> None:
    body = "User-agent: *\n" + "".join(f"{d}: {p}\n" for d, p in rules)
    path = "/" + tail
    robots = robotsrules.parse(body)
    normalised = [(r.directive, r.pattern) for g in robots.groups for r in g.rules]
    expected = reference_allowed(normalised, robotsrules.match_target(path))
    assert robots.allowed(path, agent="bot") is expected or path == "/robots.txt"


@SETTINGS
@given(st.text("a*b$", max_size=30), st.integers(0, 400), st.sampled_from(["", "b", "ab"]))
def test_wildcard_runs_agree_with_reference(pattern: str, n: int, end: str) -> None:
    path = "/" + "a" * n + end
    robots = robotsrules.parse("User-agent: *\nDisallow: /" + pattern)
    assert (not robots.allowed(path, agent="x")) is reference_match("/" + pattern, path)


@requires_oracle
@SETTINGS
@given(robots_lines(), st.sampled_from(["a", "b", "A", "ab", "zz"]),
       st.text(PATH_ALPHABET + "\u00e9", max_size=12))
def test_random_files_agree_with_google(body: bytes, agent: str, tail: str) -> None:
    url = "http://h/" + tail
    expected, line = oracle(body, agent, url)
    verdict = robotsrules.parse(body).explain(url, agent=agent)
    assert verdict.allowed is expected
    if verdict.rule is not None:
        assert verdict.rule.line == line


def rules_under(head: str, low: int, high: int) -> st.SearchStrategy[list[tuple[str, str]]]:
    """Between ``low`` and ``high`` allow/disallow rules whose patterns start with ``head``."""
    return st.lists(
        st.tuples(
            st.sampled_from(["allow", "disallow"]),
            st.text("/abc*$", min_size=0, max_size=9).map(lambda p: head + p),
        ),
        min_size=low,
        max_size=high,
    )


def agrees_with_reference(rules: list[tuple[str, str]], paths: list[str]) -> None:
    body = "User-agent: *\n" + "".join(f"{d}: {p}\n" for d, p in rules)
    robots = robotsrules.parse(body)
    compiled = robots.for_agent("bot")
    normalised = [(r.directive, r.pattern) for g in robots.groups for r in g.rules]
    for path in paths:
        target = robotsrules.match_target(path)  # "//x" is an authority: target "/"
        if target == "/robots.txt":
            continue
        assert compiled.allowed(path) is reference_allowed(normalised, target), path


TAILS = st.lists(st.text("/abc$*", max_size=12), min_size=1, max_size=10)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_under("/", 40, 90), TAILS)
def test_large_rule_sets_use_the_indexes_and_agree(
    rules: list[tuple[str, str]], tails: list[str]
) -> None:
    """Many rules engage the heads, the short-headed rules and the 3-gram index."""
    agrees_with_reference(rules, ["/" + tail for tail in tails])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_under("/ab", 20, 60), TAILS)
def test_crowded_heads_agree(rules: list[tuple[str, str]], tails: list[str]) -> None:
    """Rules that all share one head go through the crowded-head bucket."""
    agrees_with_reference(rules, ["/ab" + tail for tail in tails])


def test_index_paths_are_engaged() -> None:
    """Every structure of the matcher is reached: small list, heads (plain, crowded with
    bisection, crowded with wildcards), short-headed rules with and without 3-grams."""
    literals = "".join(f"Disallow: /{'x' * n}\n" for n in range(1, 30))
    wild = "".join(f"Disallow: /*{w}{w}{w}q\n" for w in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    headed = "".join(f"Disallow: /xx{w}*q\nAllow: /xy{w}\n" for w in "abcdefgh")
    compiled = robotsrules.parse("User-agent: *\n" + literals + wild + headed).for_agent("bot")
    assert compiled._small is None and compiled._grams is not None
    assert not compiled.allowed("/zz/cccq") and compiled.allowed("/zz/ccq")
    assert not compiled.allowed("/xxx") and compiled.allowed("/y")
    assert compiled.allowed("/xyb/q") and compiled.explain("/xyb/q").rule.directive == "allow"
    assert not compiled.allowed("/xxbq")
    bucket = compiled._heads["/xx"]
    assert type(bucket).__name__ == "_Bucket" and bucket.ordered and bucket.wild
    assert type(compiled._heads["/xy"]) is tuple  # settled on first use, few rules
    assert type(compiled._heads.get("/zz", [])) is list or "/zz" not in compiled._heads
    few = robotsrules.parse("User-agent: *\n" + literals + "Disallow: /*.pdf$\nAllow: /a\n"
                            ).for_agent("bot")
    assert few._small is None and few._grams is None and few._short
    assert not few.allowed("/a/b.pdf") and few.allowed("/a/b.pdfx") and few.allowed("/a")
    huge = robotsrules.parse("User-agent: *\n" + "".join(f"Disallow: /hh{i}\n" for i in range(1100))
                             + "Disallow: /gg\n" * 20).for_agent("bot")
    assert type(huge._heads["/hh"]) is list and type(huge._heads["/gg"]) is list
    assert huge.allowed("/hh")  # no rule of "/hh" matches: the head is compiled all the same
    assert type(huge._heads["/hh"]).__name__ == "_Bucket"
    assert not huge.allowed("/gg/x") and type(huge._heads["/gg"]).__name__ == "_Bucket"
    assert not huge.allowed("/hh1099") and huge.allowed("/hh")
    small = robotsrules.parse("User-agent: *\nDisallow: /a\nAllow: /a/b*c\n").for_agent("bot")
    assert small._small is not None and small._firsts == ("/a/b", "/a")
    assert small.allowed("/a/bxc") and not small.allowed("/a/bx") and small.allowed("/b")
