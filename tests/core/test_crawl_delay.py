"""Crawl-delay and Request-rate read per agent (issue 22, SPEC §5).

Google does not read these fields, so its grouping (only an allow/disallow line ends a run
of user-agent lines) is no guide for them. The readers that do read them attach a value to
the user-agent lines directly above it. The cases below come from their test suites (read
at the commits named in ``docs/reference/deviations.md``, "Crawl-delay and Request-rate per
agent"); each test names its source, and a conflict with our reading is written beside it.
Allow/disallow keep Google's grouping: the verdicts asserted here are Google's.
"""

from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules import RequestRate
from robotsrules._rules._agents import file_agent_token
from robotsrules.model import Pace

ISSUE_EXAMPLE = (b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 12\n\n"
                 b"User-agent: SemrushBot\nCrawl-delay: 60\nUser-agent: *\n"
                 b"Disallow: /private\n")


def delays(body: bytes, agents: list[str], mode: str = "google") -> dict[str, Optional[float]]:
    robots = robotsrules.parse(body, mode=mode)  # type: ignore[arg-type]
    return {agent: robots.crawl_delay(agent) for agent in agents}


# -- the issue's example -------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["google", "rfc"])
def test_issue_example_each_agent_gets_what_was_written_for_it(mode: str) -> None:
    assert delays(ISSUE_EXAMPLE, ["a", "b", "SemrushBot", "OtherBot", "*"], mode) == {
        "a": 1.0, "b": 12.0, "SemrushBot": 60.0, "OtherBot": None, "*": None}
    robots = robotsrules.parse(ISSUE_EXAMPLE, mode=mode)  # type: ignore[arg-type]
    # Google's grouping still decides the rules: one group, every agent disallowed /private.
    assert len(robots.groups) == 1
    for agent in ["a", "b", "SemrushBot", "OtherBot"]:
        assert robots.allowed("/private/x", agent=agent) is False
        assert robots.allowed("/public", agent=agent) is True


def test_issue_example_group_record_says_which_reading_each_field_shows() -> None:
    (group,) = robotsrules.parse(ISSUE_EXAMPLE).groups
    assert group.agents == ("a", "b", "semrushbot", "*")
    assert group.crawl_delay == 60.0  # Google's grouping: the slowest value of the group
    assert group.paces == (Pace(("a",), (1,), 1.0, None), Pace(("b",), (3,), 12.0, None),
                           Pace(("semrushbot",), (6,), 60.0, None))


def test_a_crawler_named_by_several_tokens_gets_the_slowest() -> None:
    robots = robotsrules.parse(ISSUE_EXAMPLE)
    assert robots.crawl_delay(["a", "b"]) == 12.0
    assert robots.crawl_delay(["a", "OtherBot"]) == 1.0


# -- protego (scrapy/protego, tests/test_protego.py) ----------------------------------------

def test_protego_test_crawl_delay() -> None:
    body = (b"User-agent: * \nDisallow: /disallowed \nAllow: /allowed \nCrawl-delay: 10 \n"
            b"User-agent: testbot\nCrawl-delay: 15 \n")
    assert delays(body, ["*", "testbot", "other"]) == {"*": 10.0, "testbot": 15.0, "other": 10.0}


def test_protego_test_request_rate() -> None:
    body = (b"User-agent: one\nRequest-rate: 1/10s\nUser-agent: two\nRequest-rate: 100/15m\n"
            b"User-agent: three\nRequest-rate: 400/1h\nUser-agent: four\n"
            b"Request-rate: 9000/1d\nUser-agent: five\nRequest-rate: 1/10s 1820-1940\n")
    robots = robotsrules.parse(body)
    assert robots.request_rate("one") == RequestRate(1, 10.0)
    assert robots.request_rate("two") == RequestRate(100, 900.0)
    assert robots.request_rate("three") == RequestRate(400, 3600.0)
    assert robots.request_rate("four") == RequestRate(9000, 86400.0)
    assert robots.request_rate("five") == RequestRate(1, 10.0)  # (visit times not read)
    assert robots.request_rate("six") is None


def test_protego_test_no_request_rate() -> None:
    body = b"User-agent: one\nRequest-rate: 1/10s\nUser-agent: two\nDisallow: /\n"
    robots = robotsrules.parse(body)
    assert robots.request_rate("two") is None
    assert robots.request_rate("one") == RequestRate(1, 10.0)
    assert robots.allowed("/x", agent="one") is False  # Google: one group for one and two


# -- crawler-commons (SimpleRobotRulesParserTest.java), as used by Nutch and StormCrawler --

def test_crawler_commons_test_crawl_delay() -> None:
    body = b"User-agent: bixo\rCrawl-delay: 10\rUser-agent: foobot\rCrawl-delay: 20\rUser-agent: *\rDisallow:/baz\r"
    assert delays(body, ["bixo"]) == {"bixo": 10.0}
    body = b"User-agent: foobot\rCrawl-delay: 20\rUser-agent: *\rDisallow:/baz\r"
    assert delays(body, ["bixo"]) == {"bixo": None}


def test_crawler_commons_test_select_crawl_delay_group() -> None:
    # crawler-commons issue #114: specific Crawl-delay values, the same set of rules.
    body = (b"User-Agent: bingbot\r\nCrawl-delay: 1\r\n\r\nUser-Agent: msnbot\r\nCrawl-delay: 2\r\n"
            b"\r\nUser-Agent: pinterestbot\r\nCrawl-delay: 0.2\r\n\r\nUser-agent: *\r\n"
            b"Disallow: /login\r\nSitemap: http://www.example.com/sitemap.xml\r\n"
            b"Disallow: /assets/")
    assert delays(body, ["bingbot", "msnbot", "pinterestbot", "anybot"]) == {
        "bingbot": 1.0, "msnbot": 2.0, "pinterestbot": 0.2, "anybot": None}
    robots = robotsrules.parse(body)
    for agent in ["bingbot", "msnbot", "anybot"]:
        assert robots.allowed("http://www.example.com/login", agent=agent) is False
        assert robots.allowed("http://www.example.com/assets/", agent=agent) is False
        assert robots.allowed("http://www.example.com/", agent=agent) is True


def test_crawler_commons_test_crawl_delay_group_merging() -> None:
    # src/test/resources/robots/crawl-delay-group-merging.txt, comments left out.
    body = (b"User-agent: mybot\nCrawl-delay: 10\nUser-agent: yourbot\nDisallow: /private/\n\n"
            b"User-agent: *\nAllow: /\n\nUser-agent: yourbot\nDisallow: /login/\n\n"
            b"User-agent: *\nCrawl-delay: 30\n")
    assert delays(body, ["mybot", "yourbot", "anyotherbot"]) == {
        "mybot": 10.0, "yourbot": None, "anyotherbot": 30.0}
    robots = robotsrules.parse(body)
    assert robots.allowed("https://example.com/private/", agent="mybot") is False
    assert robots.allowed("https://example.com/login/", agent="mybot") is True
    assert robots.allowed("https://example.com/login/", agent="yourbot") is False


def test_crawler_commons_test_heritrix_cases_value_after_the_rules() -> None:
    # A value written after the group's rules belongs to the user-agent lines above them
    # (Yandex's documentation recommended writing it there).
    body = (b"User-agent: *\nDisallow: /cgi-bin/\n\nUser-agent: denybot\nDisallow: /\n\n"
            b"User-agent: delaybot\nDisallow: /\nCrawl-Delay: 20\nAllow: /images/\n")
    assert delays(body, ["delaybot", "denybot", "anonbot"]) == {
        "delaybot": 20.0, "denybot": None, "anonbot": None}


def test_crawler_commons_test_broken_krugle_robots_txt_file() -> None:
    body = (b"User-agent: *\rDisallow: /maintenance.html\rDisallow: /perl/\rDisallow: /cgi-bin/\r"
            b"Disallow: /examples/\rCrawl-delay: 3\r\rUser-agent: googlebot\rCrawl-delay: 1\r\r"
            b"User-agent: qihoobot\rDisallow: /")
    assert delays(body, ["googlebot", "qihoobot", "anybot"]) == {
        "googlebot": 1.0, "qihoobot": None, "anybot": 3.0}
    robots = robotsrules.parse(body)
    assert robots.allowed("http://www.krugle.com/", agent="googlebot") is False


def test_crawler_commons_conflict_several_values_for_one_agent() -> None:
    # Conflict: crawler-commons takes the first value of a group and, across groups naming
    # the agent, the shortest. We never answer a shorter delay than the owner wrote: the
    # slowest counts.
    body = (b"User-agent: bot\nCrawl-delay: 2\nCrawl-delay: 10\nDisallow: /x\n"
            b"User-agent: bot\nCrawl-delay: 5\n")
    assert delays(body, ["bot"]) == {"bot": 10.0}


# -- texting_robots (Smerity/texting_robots, src/test.rs) ---------------------------------

def test_texting_robots_test_robot_retrieve_crawl_delay() -> None:
    body = (b"User-Agent: A\nCrawl-Delay: 42\n# A B and the other Agent ...\nUser-Agent: B\n"
            b"User-Agent: C\nCrawl-Delay: 420\nUser-Agent: D\nCrawl-Delay: -1.25\nUser-Agent: E\n"
            b"Crawl-Delay: 8\nUser-Agent: *\nCRAWL-Delay : 3600\nUser-Agent: Zero\nCrawl-Delay: 0")
    assert delays(body, ["A", "B", "C", "D", "E", "Zero", "other"]) == {
        "A": 42.0, "B": 420.0, "C": 420.0,
        # Conflict: texting_robots drops the invalid line and lets D fall through to E's 8
        # ("I'm not in love with this"); the owner wrote a Crawl-delay line for D, so it
        # ends D's lines here and D is asked for nothing valid.
        "D": None,
        "E": 8.0, "Zero": 0.0, "other": 3600.0}


def test_texting_robots_test_robot_starts_with_crawl_delay() -> None:
    # A value before any user-agent line is for every crawler given none of its own.
    body = (b"Crawl-Delay: 42\nUser-Agent: *\nDisallow: /blah\nUser-Agent: SpecialFriend\n"
            b"Allow: /\nCrawl-Delay: 1")
    assert delays(body, ["BobBot", "SpecialFriend"]) == {"BobBot": 42.0, "SpecialFriend": 1.0}


def test_texting_robots_test_robot_crawl_delay_not_integer() -> None:
    body = b"User-Agent: A\nCrawl-Delay:1.0\nUser-Agent: B\nCrawl-Delay:4.2\nUser-Agent: C\nCrawl-Delay: \x41\xc2\xc3\xb1\x42"
    assert delays(body, ["A", "B", "C"]) == {"A": 1.0, "B": 4.2, "C": None}


# -- rep-cpp (test/test-robots.cpp) and reppy (tests/test_robots.py) -----------------------

def test_rep_cpp_separates_agents() -> None:
    body = b"User-agent: one\nCrawl-delay: 1\n\nUser-agent: two\nCrawl-delay: 2\n"
    assert delays(body, ["one", "two"]) == {"one": 1.0, "two": 2.0}


def test_rep_cpp_no_leading_user_agent_delay_only() -> None:
    # rep-cpp and reppy give lines before any user-agent line to the default agent. For the
    # rules we follow RFC 9309 §2.2.2 and Google (ignored); the delay is for every crawler.
    body = b"Disallow: /path\nAllow: /path/exception\nCrawl-delay: 5.2\n"
    robots = robotsrules.parse(body)
    assert robots.crawl_delay("agent") == 5.2
    assert robots.allowed("/path", agent="agent") is True


# -- robots-parser (samclarke/robots-parser, test/Robots.js) -------------------------------

def test_robots_parser_should_parse_the_crawl_delay_directive() -> None:
    body = (b"user-agent: a\ncrawl-delay: 1\nuser-agent: b\ndisallow: /d\nuser-agent: c\n"
            b"user-agent: d\ncrawl-delay: 10")
    assert delays(body, ["a", "b", "c", "d", "*"]) == {
        "a": 1.0, "b": None, "c": 10.0, "d": 10.0, "*": None}


def test_robots_parser_should_ignore_invalid_crawl_delay_directives() -> None:
    body = (b"user-agent: a\ncrawl-delay: 1.2.1\nuser-agent: b\ncrawl-delay: 1.a0\n"
            b"user-agent: c\nuser-agent: d\ncrawl-delay: 10a")
    assert delays(body, ["a", "b", "c", "d"]) == {"a": None, "b": None, "c": None, "d": None}


def test_robots_parser_fallback_to_star_only_when_no_group_names_the_agent() -> None:
    body = (b"user-agent: *\ncrawl-delay: 1\n\nuser-agent: b\ncrawl-delay: 12\n\n"
            b"user-agent: c\nuser-agent: d\ncrawl-delay: 10")
    assert delays(body, ["should-fall-back", "d", "dd"]) == {
        "should-fall-back": 1.0, "d": 10.0, "dd": 1.0}
    assert delays(b"user-agent: *\ncrawl-delay: 1\n\nuser-agent: b\ndisallow:", ["b"]) == {
        "b": None}


# -- urllib.robotparser (CPython Lib/test/test_robotparser.py) ------------------------------

def test_urllib_crawl_delay_and_request_rate_test() -> None:
    body = (b"User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\n"
            b"Disallow: /a%3cd.html\nDisallow: /a%2fb.html\nDisallow: /%7ejoe/index.html\n")
    robots = robotsrules.parse(body)
    for agent in ["figtree", "FigTree Robot libwww-perl/5.04"]:
        token = robotsrules.product_token(agent)
        assert robots.crawl_delay(token) == 3.0
        assert robots.request_rate(token) == RequestRate(9, 30.0)


# -- our choices where the readers differ ---------------------------------------------------

def test_several_values_for_one_agent_the_slowest_counts() -> None:
    # protego, rep-cpp, robots-parser and urllib keep the last; crawler-commons and
    # texting_robots the first; we never answer a shorter delay than the owner wrote.
    assert delays(b"User-agent: a\nCrawl-delay: 10\nCrawl-delay: 1\n", ["a"]) == {"a": 10.0}
    assert delays(b"User-agent: a\nCrawl-delay: 1\nCrawl-delay: 10\n", ["a"]) == {"a": 10.0}
    two_groups = b"User-agent: a\nCrawl-delay: 10\nDisallow: /\nUser-agent: a\nCrawl-delay: 2\n"
    assert delays(two_groups, ["a"]) == {"a": 10.0}
    rates = robotsrules.parse(b"User-agent: a\nRequest-rate: 1/5\nRequest-rate: 1/10\n"
                              b"Request-rate: 3/10\n")
    assert rates.request_rate("a") == RequestRate(1, 10.0)
    tie = robotsrules.parse(b"User-agent: a\nRequest-rate: 2/10\nRequest-rate: 1/5\n")
    assert tie.request_rate("a") == RequestRate(1, 5.0)  # same rate: fewer at once


def test_a_lead_value_yields_to_the_agents_own() -> None:
    body = b"Crawl-delay: 30\nRequest-rate: 1/60\nUser-agent: a\nCrawl-delay: 2\n"
    robots = robotsrules.parse(body)
    assert robots.crawl_delay("a") == 2.0  # written for a
    assert robots.request_rate("a") == RequestRate(1, 60.0)  # a has no rate of its own
    assert robots.crawl_delay("other") == 30.0
    assert robotsrules.parse(b"Crawl-delay: 30\n").crawl_delay("any") == 30.0  # no group at all


def test_lines_that_are_not_rules_or_extras_do_not_split_the_user_agent_lines() -> None:
    # RFC 9309 §2.2.4: other records must not interfere; a sitemap does not end a group.
    body = (b"User-agent: a\nSitemap: https://e.com/s.xml\n# note\n\nFoo: bar\nHost: e.com\n"
            b"Content-Signal: search=yes\nUser-agent: b\nCrawl-delay: 5\n")
    assert delays(body, ["a", "b"]) == {"a": 5.0, "b": 5.0}


def test_the_line_report_marks_extras_as_used() -> None:
    robots = robotsrules.parse(b"Crawl-delay: 3\nUser-agent: a\nCrawl-delay: 1\nCrawl-delay: 2\n"
                               b"Crawl-delay: x\n")
    assert [(line.used, line.reason) for line in robots.lines[:5]] == [
        (True, None), (True, None), (True, None), (True, None), (False, "bad-value")]


def test_legacy_mode_keeps_urllibs_records_but_the_slowest_value() -> None:
    body = b"User-agent: *\nCrawl-delay: 10\nCrawl-delay: 2\nRequest-rate: 1/5\nRequest-rate: 5/5\n"
    legacy = robotsrules.parse(body, mode="legacy")
    assert legacy.crawl_delay("x") == 10.0  # urllib keeps the last line: 2
    assert legacy.request_rate("x") == RequestRate(1, 5.0)


def test_answers_do_not_depend_on_what_was_read_first() -> None:
    fresh, read = robotsrules.parse(ISSUE_EXAMPLE), robotsrules.parse(ISSUE_EXAMPLE)
    assert read.groups  # the whole file read up front
    for agent in ["a", "b", "SemrushBot", "other"]:
        assert fresh.crawl_delay(agent) == read.crawl_delay(agent)


# -- a plain second reading, line by line, as the property's reference ----------------------

def reference(body: bytes, agent: str) -> tuple[Optional[float], Optional[RequestRate]]:
    """The rule of SPEC §5 written the simplest way: walk the per-line report, keep the
    run of user-agent lines each value belongs to."""
    robots = robotsrules.parse(body)
    runs: list[tuple[list[str], list[float], list[RequestRate]]] = []
    lead: tuple[list[float], list[RequestRate]] = ([], [])
    open_run = False
    for line in robots.lines:
        if line.key == "user-agent":
            if not open_run:
                runs.append(([], [], []))
                open_run = True
            runs[-1][0].append(file_agent_token(line.value.encode().decode("latin-1")))
        elif line.key in ("allow", "disallow", "crawl-delay", "request-rate"):
            open_run = False
            if line.key in ("crawl-delay", "request-rate") and line.used:
                delays_, rates = runs[-1][1:] if runs else lead
                if line.key == "crawl-delay":
                    delays_.append(float(line.value.split()[0].rstrip("sS")))
                else:
                    rate = robots_rate(line.value)
                    rates.append(rate)
    token = agent.lower()
    named = [run for run in runs if token in run[0]]
    chosen = named if named else [run for run in runs if "*" in run[0]]
    own_delays = [d for run in chosen for d in run[1]]
    own_rates = [r for run in chosen for r in run[2]]
    delay_list = own_delays or lead[0]
    rate_list = own_rates or lead[1]
    rate = None
    for candidate in rate_list:
        if rate is None or (candidate.interval, -candidate.requests) > (rate.interval,
                                                                         -rate.requests):
            rate = candidate
    return (max(delay_list) if delay_list else None), rate


def robots_rate(value: str) -> RequestRate:
    found = robotsrules.parse(b"User-agent: x\nRequest-rate: " + value.encode() + b"\n")
    rate = found.request_rate("x")
    assert rate is not None
    return rate


LINES = ["User-agent: a", "User-agent: b", "User-agent: *", "User-agent: A/1", "Disallow: /x",
         "Allow: /", "Crawl-delay: 1", "Crawl-delay: 7.5", "Crawl-delay: 0", "Crawl-delay: x",
         "Request-rate: 1/5", "Request-rate: 2/10", "Request-rate: 3/1m", "Request-rate: 0/1",
         "Sitemap: https://e.com/s", "", "# c", "Foo: bar", "Content-Signal: search=no"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LINES), max_size=14), st.sampled_from(["\n", "\r\n"]))
def test_crawl_delay_and_request_rate_agree_with_a_plain_line_walk(lines: list[str],
                                                                   end: str) -> None:
    body = end.join(lines).encode()
    robots = robotsrules.parse(body)
    for agent in ["a", "b", "other"]:
        delay, rate = reference(body, agent)
        assert robots.crawl_delay(agent) == delay, (agent, body)
        assert robots.request_rate(agent) == rate, (agent, body)
        assert robotsrules.parse(body, mode="rfc").crawl_delay(agent) == delay
