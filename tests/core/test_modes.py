"""Interpretation modes: ``parse(body, mode="google" | "rfc" | "legacy")``.

Each case names its source: RFC 9309 sections (the 2019 draft in ``seeds/`` has the same
text and examples: its §2.2.2/§2.2.3 are RFC 9309's, its §3.1/§3.2 are RFC 9309's
§5.1/§5.2), the 1994 standard ("The Format", "Examples") and the 1996 draft (§3.2.1,
§3.2.2 and its matching table), or Google's documented behaviour for the default mode.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules import MODES, RobotsTxt
from robotsrules._rules._urls import rfc_pattern, rfc_target


def allowed(body: str, url: str, mode: str, agent: str = "ExampleBot") -> bool:
    return robotsrules.parse(body, mode=mode).allowed(url, agent=agent)  # type: ignore[arg-type]


def rule_matches(pattern: str, url: str, mode: str) -> bool:
    """Whether a lone ``Disallow: pattern`` blocks ``url`` in ``mode``."""
    return not allowed(f"User-agent: *\nDisallow: {pattern}\n", url, mode)


# -- the mode itself ------------------------------------------------------------------------

def test_default_mode_is_google() -> None:
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\n")
    assert robots.mode == "google"
    assert MODES == ("google", "rfc", "legacy")


@pytest.mark.parametrize("mode", MODES)
def test_pickling_keeps_the_mode(mode: str) -> None:
    body = b"User-agent: *\nDisallow: /tmp\nAllow: /tmp/ok.html\nDisallow: /%62\n"
    robots = robotsrules.parse(body, mode=mode)  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(robots))
    assert copy.mode == mode
    assert copy == robots
    for url in ["/tmp/ok.html", "/b", "/tmp"]:
        assert copy.explain(url, agent="Bot") == robots.explain(url, agent="Bot")


def test_modes_are_part_of_equality() -> None:
    body = b"User-agent: *\nDisallow: /x\n"
    assert robotsrules.parse(body) == robotsrules.parse(body, mode="google")
    assert robotsrules.parse(body) != robotsrules.parse(body, mode="rfc")
    assert robotsrules.parse(body, mode="rfc") != robotsrules.parse(body, mode="legacy")
    assert "mode=legacy" in repr(robotsrules.parse(body, mode="legacy"))


@pytest.mark.parametrize("bad", ["Google", "rfc9309", "", None, 1])
def test_unknown_mode_raises_naming_the_valid_ones(bad: object) -> None:
    if not isinstance(bad, str) and robotsrules.COMPILED:
        # The compiled build checks declared argument types at the call (mypyc): a mode
        # that is not a str is a TypeError there, before any of our code runs.
        with pytest.raises(TypeError, match="str object expected"):
            robotsrules.parse(b"", mode=bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="str object expected"):
            RobotsTxt(b"", (), (), mode=bad)  # type: ignore[arg-type]
        return
    with pytest.raises(ValueError) as error:
        robotsrules.parse(b"", mode=bad)  # type: ignore[arg-type]
    for mode in MODES:
        assert repr(mode) in str(error.value)
    with pytest.raises(ValueError, match="valid modes are 'google', 'rfc', 'legacy'"):
        RobotsTxt(b"", (), (), mode=bad)  # type: ignore[arg-type]


# -- rfc: percent-encoding (RFC 9309 §2.2.2) -------------------------------------------------

# RFC 9309 §2.2.2 table: (path as written, encoded path, path to match).
RFC_2_2_2_TABLE: list[tuple[str, str, str]] = [
    ("/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"),
    ("/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
     "/foo/bar?baz=https%3A%2F%2Ffoo.bar"),
    ("/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"),
]


@pytest.mark.parametrize(("written", "encoded", "to_match"), RFC_2_2_2_TABLE)
def test_rfc_2_2_2_table(written: str, encoded: str, to_match: str) -> None:
    # The encoded path, as a rule and as a URL, normalises to the path to match ...
    assert rfc_pattern(robotsrules.parse(f"User-agent: *\nDisallow: {encoded}\n")
                       .groups[0].rules[0].pattern) == to_match
    assert rfc_target("https://example.com" + encoded) == to_match
    # ... so a rule written either way matches a URL written either way.
    for rule in {encoded, to_match}:
        for url in {encoded, to_match}:
            assert rule_matches(rule, "https://example.com" + url, "rfc"), (rule, url)


def test_rfc_2_2_2_non_ascii_is_encoded_on_both_sides() -> None:
    # Row 3: U+30C4 written as UTF-8 in the file matches its escapes in the URL, and back.
    assert rule_matches("/foo/bar/\u30c4", "https://example.com/foo/bar/%E3%83%84", "rfc")
    assert rule_matches("/foo/bar/%E3%83%84", "https://example.com/foo/bar/\u30c4", "rfc")
    assert rule_matches("/foo/bar/%e3%83%84", "https://example.com/foo/bar/%E3%83%84", "rfc")


def test_rfc_decodes_unreserved_escapes_google_does_not() -> None:
    # RFC 9309 §2.2.2 row 5; SPEC §6.6 for Google ("Allow: /%62%61%7A does not match /baz").
    assert rule_matches("/foo/bar/%62%61%7A", "https://example.com/foo/bar/baz", "rfc")
    assert rule_matches("/foo/bar/baz", "https://example.com/foo/bar/%62%61%7a", "rfc")
    assert not rule_matches("/foo/bar/%62%61%7A", "https://example.com/foo/bar/baz", "google")
    assert not rule_matches("/foo/bar/baz", "https://example.com/foo/bar/%62%61%7A", "google")
    # Every unreserved character: ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 §2.3).
    for char in "AZaz09-._~":
        assert rule_matches(f"/x%{ord(char):02x}y", f"/x{char}y", "rfc")
        assert rule_matches(f"/x{char}y", f"/x%{ord(char):02X}y", "rfc")


def test_rfc_keeps_reserved_escapes_distinct() -> None:
    # RFC 9309 §2.2.2: only unreserved characters are decoded; RFC 3986 §2.2: an encoded
    # reserved character is data, the bare one a delimiter. (1996 draft table, last rows.)
    assert not rule_matches("/a%2fb.html", "/a/b.html", "rfc")
    assert not rule_matches("/a/b.html", "/a%2Fb.html", "rfc")
    assert rule_matches("/a%2fb.html", "/a%2Fb.html", "rfc")
    # Row 2 of the table: the reserved characters of a query value are encoded by whoever
    # builds the URL; written bare, they stay bare and do not match the encoded form.
    assert not rule_matches("/foo/bar?baz=https%3A%2F%2Ffoo.bar",
                            "https://example.com/foo/bar?baz=https://foo.bar", "rfc")
    assert rule_matches("/foo/bar?baz=https://foo.bar",
                        "https://example.com/foo/bar?baz=https://foo.bar", "rfc")
    assert rule_matches("/foo/bar?baz=https%3a%2f%2ffoo.bar",
                        "https://example.com/foo/bar?baz=https%3A%2F%2Ffoo.bar", "rfc")


def test_rfc_agrees_with_the_1996_matching_table() -> None:
    # 1996 draft §3.2.2 table: (record path, URL path, matches).
    table = [
        ("/tmp", "/tmp", True), ("/tmp", "/tmp.html", True), ("/tmp", "/tmp/a.html", True),
        ("/tmp/", "/tmp", False), ("/tmp/", "/tmp/", True), ("/tmp/", "/tmp/a.html", True),
        ("/a%3cd.html", "/a%3cd.html", True), ("/a%3Cd.html", "/a%3cd.html", True),
        ("/a%3cd.html", "/a%3Cd.html", True), ("/a%2fb.html", "/a%2fb.html", True),
        ("/a%2fb.html", "/a%2Fb.html", True), ("/a%2fb.html", "/a/b.html", False),
        ("/%7ejoe/index.html", "/~joe/index.html", True),
        ("/~joe/index.html", "/%7Ejoe/index.html", True),
    ]
    for pattern, path, expected in table:
        assert rule_matches(pattern, path, "rfc") is expected, (pattern, path)


def test_rfc_priority_counts_octets_after_decoding() -> None:
    # RFC 9309 §2.2.2: the most specific match has the most octets; "/%61%62" is "/ab" (3).
    body = "User-agent: *\nDisallow: /%61%62\nAllow: /abc\n"
    assert allowed(body, "/%61%62cd", "rfc") is True  # Allow /abc (4) beats /ab (3)
    assert allowed(body, "/%61%62cd", "google") is False  # only the literal disallow matches
    rules = robotsrules.parse(body, mode="rfc").groups[0].rules
    assert [(r.pattern, r.priority) for r in rules] == [("/ab", 3), ("/abc", 4)]


@st.composite
def _spelled(draw: st.DrawFn, text: str) -> tuple[str, str]:
    """``text`` spelled twice, each unreserved character bare or as %xx (either case)."""
    rule, url = [], []
    for char in text:
        for out in (rule, url):
            if char.isalnum() or char in "-._~":
                form = draw(st.sampled_from(["bare", "upper", "lower"]))
                escape = f"%{ord(char):02X}"
                out.append(char if form == "bare" else escape if form == "upper" else
                           escape.lower())
            elif out is rule and char in "*$":
                out.append(f"%{ord(char):02X}")  # in a rule, a literal * or $ is escaped
            else:
                out.append(char)
    return "".join(rule), "".join(url)


@settings(max_examples=300, deadline=None)
@given(st.text("/abZ09-._~*$?=&;:@!", max_size=12).flatmap(lambda t: _spelled("/" + t)))
def test_rfc_any_spelling_of_a_path_matches_itself(spellings: tuple[str, str]) -> None:
    # RFC 9309 §2.2.2 and §2.2.3: only the spelling differs, so the rule matches the URL.
    rule, url = spellings
    assert rule_matches(rule, "http://h" + url, "rfc"), spellings
    assert rule_matches(rule + "$", "http://h" + url, "rfc"), spellings


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Allow", "Disallow"]),
                          st.text("/abc?=;", max_size=6)), max_size=6),
       st.text("/abc?=;", max_size=8))
def test_rfc_is_google_without_escapes_wildcards_or_index_html(
        rules: list[tuple[str, str]], path: str) -> None:
    body = "User-agent: *\n" + "".join(f"{key}: {value}\n" for key, value in rules)
    url = "http://h/" + path
    google = robotsrules.parse(body).explain(url, agent="a")
    rfc = robotsrules.parse(body, mode="rfc").explain(url, agent="a")
    assert (rfc.allowed, rfc.rule, rfc.reason) == (google.allowed, google.rule, google.reason)


# -- rfc: special characters (RFC 9309 §2.2.3) -----------------------------------------------

def test_rfc_2_2_3_encoded_special_characters_match_literally() -> None:
    # The RFC's own table: pattern, URI.
    assert rule_matches("/path/file-with-a-%2A.html",
                        "https://www.example.com/path/file-with-a-*.html", "rfc")
    assert rule_matches("/path/foo-%24", "https://www.example.com/path/foo-$", "rfc")
    # Google's library compares the escape literally: it needs the escape in the URL.
    assert not rule_matches("/path/file-with-a-%2A.html",
                            "https://www.example.com/path/file-with-a-*.html", "google")
    assert not rule_matches("/path/foo-%24", "https://www.example.com/path/foo-$", "google")


def test_rfc_encoded_star_and_dollar_are_not_special() -> None:
    assert not rule_matches("/a%2Ab", "/axxb", "rfc")  # not a wildcard
    assert rule_matches("/a%2Ab", "/a*b", "rfc")
    assert rule_matches("/a%2ab", "/a%2Ab", "rfc")
    assert rule_matches("/a%24", "/a$/more", "rfc")  # not an anchor
    assert rule_matches("/a%24", "/a%24", "rfc")
    # The URL's own "*" and "$" are data: they equal %2A and %24.
    assert rule_matches("/a%2A", "/a%2a", "rfc")
    assert rfc_target("/a*b$c") == "/a%2Ab%24c"


def test_rfc_wildcards_and_anchor_still_work() -> None:
    # RFC 9309 §2.2.3: "*" is 0 or more characters, a final "$" ends the pattern.
    assert rule_matches("/this/*/exactly", "/this/is/exactly", "rfc")
    assert rule_matches("/this/path/exactly$", "/this/path/exactly", "rfc")
    assert not rule_matches("/this/path/exactly$", "/this/path/exactly/not", "rfc")
    assert rule_matches("/a*", "/a*", "rfc")  # the wildcard also matches an encoded "*"
    # A "$" inside a pattern is data, so it matches the URL's "$" (or %24) in rfc mode.
    assert rule_matches("/a$b", "/a$b", "rfc")
    assert rule_matches("/a$b", "/a%24b", "rfc")
    assert rule_matches("/a$b", "/a$b", "google")
    assert not rule_matches("/a$b", "/a%24b", "google")


def test_rfc_has_no_index_html_rule() -> None:
    # Google-specific: "allow: /d/index.html" also allows "/d/" (SPEC §6.7); not in RFC 9309.
    body = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n"
    assert allowed(body, "/d/", "google") is True
    assert robotsrules.parse(body).explain("/d/", agent="Bot").reason == "index-html"
    assert allowed(body, "/d/", "rfc") is False
    assert allowed(body, "/d/index.html", "rfc") is True


def test_rfc_is_google_otherwise() -> None:
    # RFC 9309 §2.2.1 group selection, merging, *-fallback; §2.2.2 tie goes to allow.
    body = ("User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n\n"
            "User-agent: A\nAllow: /x/y\nDisallow: /tie\nAllow: /tie\n")
    for mode in ("google", "rfc"):
        assert allowed(body, "/x/z", mode, "a") is False
        assert allowed(body, "/x/y", mode, "a") is True
        assert allowed(body, "/other", mode, "a") is True
        assert allowed(body, "/other", mode, "b") is False
        assert allowed(body, "/tie", mode, "a") is True
        assert robotsrules.parse(body, mode=mode).explain(
            "/tie", agent="a").reason == "tie-allow"
        assert allowed(body, "/robots.txt", mode, "b") is True  # RFC 9309 §2.2.2


# -- rfc and google: the RFC's examples (RFC 9309 §5.1, §5.2) ----------------------------------

RFC_5_1 = """\
User-Agent : foobot
Disallow : /example/page.html
Disallow : /example/disallowed.gif

User-Agent : barbot
User-Agent : bazbot
Allow : /example/page.html
Disallow : /example/disallowed.gif

User-Agent: quxbot
"""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        ("foobot", "/example/page.html", False),
        ("foobot", "/example/disallowed.gif", False),
        ("foobot", "/example/other.html", True),
        ("barbot", "/example/page.html", True),
        ("barbot", "/example/disallowed.gif", False),
        ("bazbot", "/example/page.html", True),
        ("bazbot", "/example/disallowed.gif", False),
        ("quxbot", "/example/page.html", True),  # empty group at the end: allows everything
        ("quxbot", "/example/disallowed.gif", True),
    ],
)
def test_rfc_5_1_simple_example(mode: str, agent: str, path: str, expected: bool) -> None:
    # Also without the blank lines, as the draft seed prints it (not for legacy, where blank
    # lines are what separate records).
    bodies = [RFC_5_1] + ([RFC_5_1.replace("\n\n", "\n")] if mode != "legacy" else [])
    for body in bodies:
        assert allowed(body, "https://example.com" + path, mode, agent) is expected


RFC_5_2 = """\
User-Agent : foobot
Allow : /example/page/
Disallow : /example/page/disallowed.gif
"""


@pytest.mark.parametrize("mode", ["google", "rfc"])
def test_rfc_5_2_longest_match(mode: str) -> None:
    url = "https://example.com/example/page/disallowed.gif"
    assert allowed(RFC_5_2, url, mode, "foobot") is False
    verdict = robotsrules.parse(RFC_5_2, mode=mode).explain(url, agent="foobot")  # type: ignore
    assert verdict.rule is not None and verdict.rule.line == 3
    # The RFC's text names ".../disallow.gif", which the longer rule does not match (a typo
    # in the RFC): only "Allow: /example/page/" matches it.
    assert allowed(RFC_5_2, "https://example.com/example/page/disallow.gif", mode, "foobot")


def test_legacy_5_2_first_match_instead() -> None:
    # 1996 draft §3.2.2: the first match found is used, so the Allow above shadows it.
    url = "https://example.com/example/page/disallowed.gif"
    verdict = robotsrules.parse(RFC_5_2, mode="legacy").explain(url, agent="foobot")
    assert verdict.allowed is True and verdict.reason == "first-match"
    assert verdict.rule is not None and verdict.rule.line == 2


# -- legacy: records (1994 "The Format") -----------------------------------------------------

def test_legacy_blank_line_ends_a_record() -> None:
    # 1994: "The file consists of one or more records separated by one or more blank lines".
    body = "User-agent: *\n\nDisallow: /private\n"
    assert allowed(body, "/private", "legacy") is True  # the rule is outside any record
    assert allowed(body, "/private", "google") is False  # Google: blank lines end nothing
    body = "User-agent: a\n\nUser-agent: b\nDisallow: /\n"
    assert allowed(body, "/x", "legacy", "a") is True  # "a" had no rule before the blank
    assert allowed(body, "/x", "legacy", "b") is False
    assert allowed(body, "/x", "google", "a") is False


def test_legacy_comment_lines_do_not_end_a_record() -> None:
    # 1994: "Lines containing only a comment are discarded completely, and therefore do not
    # indicate a record boundary."
    body = "User-agent: *\n# a comment\nDisallow: /private\n"
    assert allowed(body, "/private", "legacy") is False


def test_legacy_1994_examples() -> None:
    # 1994 "Examples", the first two.
    first = ("# robots.txt for http://www.site.com/\n\nUser-agent: *\n"
             "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
             "Disallow: /tmp/ # these will soon disappear\n")
    assert allowed(first, "/cyberworld/map/index.html", "legacy") is False
    assert allowed(first, "/tmp/x", "legacy") is False
    assert allowed(first, "/cyberworld/", "legacy") is True
    second = ("# robots.txt for http://www.site.com/\n\nUser-agent: *\n"
              "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n"
              "# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n")
    assert allowed(second, "/cyberworld/map/x", "legacy", "cybermapper") is True
    assert allowed(second, "/cyberworld/map/x", "legacy", "OtherBot") is False


def test_legacy_keys_are_exact() -> None:
    # 1994/1996 field names, as urllib compares them: no Google typos, prefixes or missing ":".
    for line in ["Disalow: /x", "Disallowed: /x", "Disallow /x", "User-agents: *"]:
        body = "User-agent: *\n" + line + "\n" if not line.startswith("User") else (
            line + "\nDisallow: /x\n")
        assert allowed(body, "/x", "legacy") is True, line
        assert allowed(body, "/x", "google") is False, line


# -- legacy: agents (1994 "User-agent"; 1996 §3.2.1) ------------------------------------------

def test_legacy_agent_is_a_case_insensitive_substring() -> None:
    # 1994: "A case insensitive substring match of the name without version information is
    # recommended." urllib: the record's value is looked for inside the crawler's name.
    body = "User-agent: google\nDisallow: /\n"
    assert allowed(body, "/x", "legacy", "Googlebot") is False
    assert allowed(body, "/x", "legacy", "Googlebot/2.1") is False
    assert allowed(body, "/x", "google", "Googlebot") is True  # Google: whole token only
    body = "User-agent: BOT\nDisallow: /\n"
    assert allowed(body, "/x", "legacy", "GPTBot") is False
    body = "User-agent: Googlebot-News\nDisallow: /\n"
    assert allowed(body, "/x", "legacy", "Googlebot") is True  # not the other way round
    body = "User-agent:\nDisallow: /\n"  # an empty value is in every name
    assert allowed(body, "/x", "legacy", "AnyBot") is False


def test_legacy_1996_figtree_example() -> None:
    # 1996 §3.2.1: "FigTree/0.1 Robot/1.0 libwww-perl/5.04" scans for "figtree".
    body = "User-agent: figtree\nDisallow: /private\n"
    assert allowed(body, "/private", "legacy", "FigTree/0.1") is False


def test_legacy_first_applicable_record_only() -> None:
    # urllib: records are tried in file order; the first that applies is used alone.
    body = ("User-agent: googlebot\nDisallow: /a\n\n"
            "User-agent: googlebot\nDisallow: /b\n")
    assert allowed(body, "/a", "legacy", "Googlebot") is False
    assert allowed(body, "/b", "legacy", "Googlebot") is True
    assert allowed(body, "/b", "google", "Googlebot") is False  # RFC 9309 §2.2.1 merges


def test_legacy_star_record_is_the_default() -> None:
    # 1994: '*' is "the default access policy for any robot that has not matched any of the
    # other records"; urllib keeps only the first '*' record, with all its agents.
    body = ("User-agent: *\nDisallow: /first\n\n"
            "User-agent: googlebot\nDisallow: /g\n\n"
            "User-agent: *\nDisallow: /second\n")
    assert allowed(body, "/first", "legacy", "OtherBot") is False
    assert allowed(body, "/second", "legacy", "OtherBot") is True
    assert allowed(body, "/first", "legacy", "Googlebot") is True
    verdict = robotsrules.parse(body, mode="legacy").explain("/first", agent="OtherBot")
    assert verdict.scope == "global"
    body = ("User-agent: googlebot\nUser-agent: *\nDisallow: /both\n\n"
            "User-agent: google\nDisallow: /specific\n")
    # The record naming googlebot and * is only the default: "google" applies first.
    assert allowed(body, "/both", "legacy", "Googlebot") is True
    assert allowed(body, "/specific", "legacy", "Googlebot") is False


# -- legacy: rules (1996 §3.2.2) --------------------------------------------------------------

def test_legacy_first_match_wins_with_allow() -> None:
    # 1996 §3.2.2: "match the paths in Allow and Disallow lines against the URL, in the order
    # they occur in the record. The first match found is used."
    body = ("User-agent: webcrawler\nUser-agent: infoseek\nAllow: /tmp/ok.html\n"
            "Disallow: /tmp\nDisallow: /user/foo\n")
    for agent in ("webcrawler", "infoseek"):
        assert allowed(body, "/tmp/ok.html", "legacy", agent) is True
        assert allowed(body, "/tmp/other", "legacy", agent) is False
        assert allowed(body, "/user/foo/x", "legacy", agent) is False
    reversed_body = "User-agent: *\nDisallow: /tmp\nAllow: /tmp/ok.html\n"
    assert allowed(reversed_body, "/tmp/ok.html", "legacy") is False
    assert allowed(reversed_body, "/tmp/ok.html", "google") is True  # longest match
    verdict = robotsrules.parse(reversed_body, mode="legacy").explain("/tmp/ok.html", agent="a")
    assert verdict.reason == "first-match"
    assert verdict.rule is not None and verdict.rule.line == 2
    assert verdict.rule.directive == "disallow"


def test_legacy_empty_disallow_allows_everything() -> None:
    # 1994: "Any empty value, indicates that all URLs can be retrieved." As the first match,
    # it also shadows the rules after it (urllib).
    body = "User-agent: *\nDisallow:\nDisallow: /x\n"
    assert allowed(body, "/x", "legacy") is True
    assert allowed(body, "/x", "google") is False
    verdict = robotsrules.parse(body, mode="legacy").explain("/x", agent="a")
    assert verdict.allowed and verdict.reason == "first-match"
    assert verdict.rule is not None and verdict.rule.line == 2


def test_legacy_has_no_wildcards() -> None:
    # 1994/1996: a rule is a path prefix; "*" and "$" are ordinary characters.
    body = "User-agent: *\nDisallow: /*.php\nDisallow: /end$\n"
    assert allowed(body, "/index.php", "legacy") is True
    assert allowed(body, "/*.php", "legacy") is False
    assert allowed(body, "/end", "legacy") is True
    assert allowed(body, "/end$", "legacy") is False
    assert allowed(body, "/index.php", "google") is False
    assert allowed(body, "/end", "google") is False


def test_legacy_1996_matching_table() -> None:
    # 1996 §3.2.2 table, as urllib reads it: every row holds except "/a%2fb.html" against
    # "/a/b.html", which urllib matches (it decodes %2F; legacy.py documents this).
    table = [
        ("/tmp", "/tmp", True), ("/tmp", "/tmp.html", True), ("/tmp", "/tmp/a.html", True),
        ("/tmp/", "/tmp", False), ("/tmp/", "/tmp/", True), ("/tmp/", "/tmp/a.html", True),
        ("/a%3cd.html", "/a%3cd.html", True), ("/a%3Cd.html", "/a%3cd.html", True),
        ("/a%3cd.html", "/a%3Cd.html", True), ("/a%2fb.html", "/a%2fb.html", True),
        ("/a%2fb.html", "/a%2Fb.html", True), ("/a%2fb.html", "/a/b.html", True),
        ("/%7ejoe/index.html", "/~joe/index.html", True),
        ("/~joe/index.html", "/%7Ejoe/index.html", True),
    ]
    for pattern, path, expected in table:
        assert rule_matches(pattern, path, "legacy") is expected, (pattern, path)


def test_legacy_escapes_as_urllib() -> None:
    robots = robotsrules.parse("User-agent: *\nDisallow: /a?b\n", mode="legacy")
    verdict = robots.explain("https://example.com/a?b=1#frag", agent="a")
    assert verdict.target == "/a%3Fb%3D1%23frag"  # query and fragment, re-quoted
    assert verdict.rule is not None and verdict.rule.pattern == "/a%3Fb"
    assert not verdict.allowed
    assert robots.explain("https://example.com", agent="a").target == "/"
    # No implicit /robots.txt allowance in legacy mode (urllib has none).
    assert allowed("User-agent: *\nDisallow: /\n", "/robots.txt", "legacy") is False


def test_legacy_crawl_delay_and_request_rate_follow_the_record() -> None:
    body = ("User-agent: *\nCrawl-delay: 10\n\nUser-agent: bot\nCrawl-delay: 3\n"
            "Request-rate: 1/5\nDisallow: /x\n")
    robots = robotsrules.parse(body, mode="legacy")
    assert robots.crawl_delay("Bot") == 3.0
    rate = robots.request_rate("Bot")
    assert rate is not None and (rate.requests, rate.seconds) == (1, 5.0)
    assert robots.crawl_delay("Other") == 10.0
    assert robots.request_rate("Other") is None


def test_sitemaps_are_read_alike_in_every_mode() -> None:
    body = "Sitemap: https://example.com/a.xml\nUser-agent: *\n\nSitemap: /b.xml\n"
    expected = robotsrules.parse(body).sitemaps
    for mode in MODES:
        assert robotsrules.parse(body, mode=mode).sitemaps == expected
