"""Unit tests of parser.py: lines, keys, leniencies, groups, extras and the per-line report."""

from __future__ import annotations

import robotsrules
from robotsrules._rules._parser import MAX_LINE_BYTES, build, decode, read_line, scan


def groups_of(body: bytes):  # type: ignore[no-untyped-def]
    return robotsrules.parse(body).groups


def test_line_endings_lf_cr_crlf_and_mixed_number_lines_alike() -> None:
    for sep in (b"\n", b"\r", b"\r\n"):
        body = sep.join([b"User-agent: a", b"Disallow: /x", b"", b"Disallow: /y"])
        (group,) = groups_of(body)
        assert [r.line for r in group.rules] == [2, 4]
    # LF then CR is two line ends; CR then LF is one.
    (group,) = groups_of(b"User-agent: a\n\rDisallow: /x\r\nDisallow: /y")
    assert [r.line for r in group.rules] == [3, 4]


def test_bom_and_any_prefix_of_it_is_skipped_once() -> None:
    assert groups_of(b"\xef\xbb\xbfUser-agent: a\nDisallow: /")[0].agents == ("a",)
    assert groups_of(b"\xef\xbbUser-agent: a\nDisallow: /")[0].agents == ("a",)
    assert groups_of(b"\xef\xbb\xbf\xef\xbb\xbfUser-agent: a\nDisallow: /") == ()
    assert groups_of("\ufeffUser-agent: a\nDisallow: /")[0].agents == ("a",)


def test_comments_whitespace_and_case_insensitive_keys() -> None:
    (group,) = groups_of(b"  USER-AGENT :  Foo  # c\n\tdisALLOW\t:\t/a b \x0b# x\n")
    assert group.agent_values == ("Foo",)
    assert group.rules[0].value == "/a b"


def test_missing_colon_only_for_exactly_two_words() -> None:
    rec = read_line(1, "Disallow /x")
    assert (rec.key, rec.value, rec.missing_colon) == ("disallow", "/x", True)
    assert read_line(1, "Disallow /x /y").key is None
    assert read_line(1, "Disallow\x0b/x").key is None  # only space and tab stand for ':'


def test_prefix_keys_and_typos() -> None:
    for key in ("Disallowed", "dissallow", "disalow", "diasllow", "disallaw", "dissalow"):
        assert read_line(1, f"{key}: /p").key == "disallow", key
    assert read_line(1, "useragent: x").typo
    assert read_line(1, "User agent: x").key == "user-agent"
    assert read_line(1, "Allowance: /p").key == "allow"
    assert read_line(1, "site-map: http://a/s.xml").key == "sitemap"
    assert read_line(1, "alow: /p").key == "unknown"  # no typos for allow


def test_first_colon_splits_key_and_value() -> None:
    rec = read_line(1, "Disallow /a:*b")
    assert (rec.key, rec.key_text, rec.value) == ("disallow", "Disallow /a", "*b")


def test_nul_ends_the_line_and_long_lines_are_cut() -> None:
    assert read_line(1, "Disallow: /a\x00bc").value == "/a"
    long = "Disallow: /" + "a" * 20000
    rec = read_line(1, long)
    assert rec.truncated and len(rec.value) == MAX_LINE_BYTES - len("Disallow: ")


def test_rules_before_any_user_agent_are_ignored() -> None:
    robots = robotsrules.parse(b"Disallow: /\nUser-agent: a\nAllow: /x\n")
    assert [r.value for g in robots.groups for r in g.rules] == ["/x"]
    assert robots.lines[0].reason == "outside-group"


def test_groups_close_only_when_a_user_agent_follows_a_rule() -> None:
    body = b"User-agent: a\nSitemap: http://s\n\nCrawl-delay: 3\nFoo: bar\nUser-agent: b\nDisallow: /\n"
    (group,) = groups_of(body)
    assert group.agents == ("a", "b")
    assert group.crawl_delay == 3.0
    body = b"User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n"
    assert [g.agents for g in groups_of(body)] == [("a",), ("b",)]


def test_agent_tokens_as_google_reads_them() -> None:
    body = b"User-agent: Googlebot/2.1\nUser-agent: Bot2000\nUser-agent: *bot\nUser-agent: * x\nDisallow: /"
    (group,) = groups_of(body)
    assert group.agents == ("googlebot", "bot", "", "*")


def test_patterns_are_normalised_values_kept_as_written() -> None:
    (group,) = groups_of("User-agent: a\nDisallow: /caf\u00e9/%7e\n".encode())
    rule = group.rules[0]
    assert rule.pattern == "/caf%C3%A9/%7E"
    assert rule.value == "/caf\u00e9/%7e"
    assert rule.priority == len("/caf%C3%A9/%7E")


def test_invalid_utf8_never_raises_and_is_escaped_octet_by_octet() -> None:
    (group,) = groups_of(b"User-agent: a\nDisallow: /\xff\xfe\n")
    assert group.rules[0].pattern == "/%FF%FE"
    assert "\ufffd" in group.rules[0].value


def test_sitemaps_hosts_and_extras() -> None:
    body = (
        b"Sitemap: https://a/1.xml\nUser-agent: *\nCrawl-delay: 2.5\nRequest-rate: 3/1m\n"
        b"Host: a.example\nsitemap: https://a/2.xml\nCrawl-delay: 9\nCrawl-delay: x\n"
    )
    robots = robotsrules.parse(body)
    assert robots.sitemaps == ("https://a/1.xml", "https://a/2.xml")
    assert robots.hosts == ("a.example",)
    assert robots.crawl_delay("any") == 9.0  # of two values for the same agent, the slowest
    assert robots.request_rate("any") == robotsrules.RequestRate(3, 60.0)
    reasons = [line.reason for line in robots.lines]
    assert reasons[6:8] == [None, "bad-value"]


def test_crawl_delay_follows_group_selection() -> None:
    body = b"User-agent: *\nCrawl-delay: 5\nDisallow:\nUser-agent: slow\nCrawl-delay: 30\n"
    robots = robotsrules.parse(body)
    assert robots.crawl_delay("slow") == 30.0
    assert robots.crawl_delay("other") == 5.0
    # A crawl-delay line does not close a group: '*' and 'slow' share one here (SPEC §6.4)
    # for the rules, but each value is read for the user-agent lines above it (SPEC §5).
    shared = robotsrules.parse(b"User-agent: *\nCrawl-delay: 5\nUser-agent: slow\nCrawl-delay: 30\n")
    assert len(shared.groups) == 1
    assert shared.crawl_delay("slow") == 30.0 and shared.crawl_delay("other") == 5.0
    assert robotsrules.parse(b"").crawl_delay("x") is None
    assert robotsrules.parse(b"User-agent: *\nRequest-rate: 0/5\n").request_rate("x") is None


def test_max_bytes_cuts_content_and_says_so() -> None:
    body = b"User-agent: *\n" + b"#" * 600_000 + b"\nDisallow: /\n"
    robots = robotsrules.parse(body)
    assert robots.truncated and robots.allowed("/x", agent="a")
    unlimited = robotsrules.parse(body, max_bytes=None)
    assert not unlimited.truncated and not unlimited.allowed("/x", agent="a")
    assert robotsrules.parse(b"User-agent: *\nDisallow: /", max_bytes=16).allowed("/x", agent="a")


def test_per_line_report_says_what_was_used_and_why_not() -> None:
    body = b"# hello\n\nUser-agent: a\nDisalow /x\nFoo: bar\nnonsense\n"
    lines = robotsrules.parse(body).lines
    assert [(ln.key, ln.used, ln.reason) for ln in lines] == [
        (None, False, "comment"),
        (None, False, "blank"),
        ("user-agent", True, None),
        ("disallow", True, None),
        ("unknown", False, "unknown-key"),
        (None, False, "invalid"),
        (None, False, "blank"),
    ]
    assert lines[3].typo and lines[3].missing_colon
    assert lines[0].comment == " hello"


def test_fast_path_agrees_with_exact_reader() -> None:
    body = "User-agent: a\r\nDisallow: /%7e\u00e9\n\x00x\nUser agent: b\nAllow: /y  # c\n"
    text, _, _ = decode(body, None)
    fast, exact = build(text), build(text, want_lines=True)
    assert fast.groups == exact.groups and fast.sitemaps == exact.sitemaps
    assert len(list(scan(text))) == len(exact.lines or ())


def test_str_and_bytes_parse_alike() -> None:
    body = "User-agent: *\nDisallow: /caf\u00e9\n"
    assert robotsrules.parse(body) == robotsrules.parse(body.encode())
