"""Adversarial files (``benchmarks/hostile.py``): nothing crashes, memory stays bounded.

Every input of :data:`benchmarks.hostile.INPUTS` goes through parse (three modes), the line
report, lint, and explain/allowed/crawl_delay/request_rate in a fresh process; the growth
of its peak resident memory is held to the bounds stated in README "Limits and
guarantees", and so is what a parsed file retains (``tracemalloc``). Time is held to a
generous bound on the child's CPU time (process time, which other jobs on a shared
machine barely move; about ten times the worst measured), so that a stall or a
super-linear blow-up fails while noise does not: ``benchmarks/hostile.py`` measures the
real figures. ``ROBOTSRULES_HOSTILE_JOBS`` (default 2) sets how many fresh processes run
at once.

Named tests then pin what the library makes of each input, so that "did not crash" cannot
hide "read it wrongly".
"""

from __future__ import annotations

import gc
import os
import re
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Optional, TypeVar

import pytest
from benchmarks import hostile

import robotsrules

MIB = 1 << 20
T = TypeVar("T")

# The bounds (README "Limits and guarantees").
# With the default 500 KiB limit, whatever a site serves:
RSS_EVERYTHING = 64 * MIB  # parse x3 modes + line report + lint + checks: peak RSS growth
RETAINED = 24 * MIB  # a parsed RobotsTxt kept, with compiled rules for one agent
# Without the limit (max_bytes=None), peak RSS growth per octet of input:
RSS_PER_OCTET = 128
NO_LIMIT = ("rules", "wild_rules", "many_groups", "cr_only")
NO_LIMIT_SCALE = 0.5
# CPU seconds of "everything" on one input, default limit (worst measured: about 2.5 s).
CPU_EVERYTHING = 30.0
JOBS = max(1, int(os.environ.get("ROBOTSRULES_HOSTILE_JOBS", "2")))


def traced(fn: Callable[[], T]) -> tuple[T, int, int]:
    """(result, peak traced octets during the call, octets still held by the result)."""
    gc.collect()
    tracemalloc.start()
    try:
        result = fn()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak, current


@pytest.fixture(scope="module")
def rss() -> dict[tuple[str, Optional[int]], tuple[int, dict[str, float]]]:
    """(input, max_bytes) -> (input size, peak RSS figures in MiB and CPU seconds), every
    input measured in a fresh process, ``JOBS`` at a time (the machine has two cores)."""
    if not os.path.exists("/proc/self/clear_refs"):
        pytest.skip("peak RSS is read from /proc/self/status (VmHWM), reset via clear_refs: Linux")
    jobs: list[tuple[str, Optional[int], float]] = [
        *((name, robotsrules.DEFAULT_MAX_BYTES, 1.0) for name in hostile.INPUTS),
        *((name, None, NO_LIMIT_SCALE) for name in NO_LIMIT),
    ]

    def one(job: tuple[str, Optional[int], float]) -> tuple[int, dict[str, float]]:
        name, limit, scale = job
        case = hostile.INPUTS[name](scale)
        return len(case.body), hostile.rss_peak_of(case, limit)

    with ThreadPoolExecutor(JOBS) as pool:
        results = list(pool.map(one, jobs))
    return {(name, limit): result for (name, limit, _), result in zip(jobs, results)}


@pytest.mark.parametrize("name", list(hostile.INPUTS))
def test_hostile_input_is_read_within_the_memory_bound(
        name: str, rss: dict[tuple[str, Optional[int]], tuple[int, dict[str, float]]]) -> None:
    """Full size, default limit: parse in every mode, lint, explain... in a fresh process
    (``hostile.exercise``, which also checks that explain and allowed agree)."""
    _, figures = rss[(name, robotsrules.DEFAULT_MAX_BYTES)]
    assert figures["growth"] * MIB <= RSS_EVERYTHING, f"{name}: {figures}"


@pytest.mark.parametrize("name", list(hostile.INPUTS))
def test_hostile_input_is_read_within_the_time_bound(
        name: str, rss: dict[tuple[str, Optional[int]], tuple[int, dict[str, float]]]) -> None:
    """The same run as above, in CPU seconds: no input may stall the reader."""
    _, figures = rss[(name, robotsrules.DEFAULT_MAX_BYTES)]
    assert 0 < figures["cpu_s"] <= CPU_EVERYTHING, f"{name}: {figures}"


def test_the_memory_measurement_sees_memory(
        rss: dict[tuple[str, Optional[int]], tuple[int, dict[str, float]]]) -> None:
    """Guard against a vacuous bound: reading 100,000 rules must show in the peak (a
    measurement that inherits the parent's peak, like ru_maxrss after spawn, reads 0)."""
    _, figures = rss[("rules", robotsrules.DEFAULT_MAX_BYTES)]
    assert figures["growth"] >= 4, figures
    _, whole = rss[("rules", None)]
    assert whole["growth"] > figures["growth"], (whole, figures)


@pytest.mark.parametrize("name", NO_LIMIT)
def test_without_the_size_limit_memory_grows_with_the_input(
        name: str, rss: dict[tuple[str, Optional[int]], tuple[int, dict[str, float]]]) -> None:
    """``max_bytes=None`` reads everything: memory must stay proportional to the input."""
    size, figures = rss[(name, None)]
    assert figures["growth"] * MIB <= RSS_PER_OCTET * size, (
        f"{name}: {figures['growth'] * MIB / size:.0f} octets per input octet")


@pytest.mark.parametrize("name", ["rules", "many_groups", "agents", "wild_rules",
                                  "index_defeat"])
def test_a_parsed_hostile_file_retains_bounded_memory(name: str) -> None:
    case = hostile.INPUTS[name](1.0)

    def parsed_and_compiled() -> robotsrules.RobotsTxt:
        robots = robotsrules.parse(case.body)
        robots.for_agent(case.agents[0])
        return robots

    robots, _, retained = traced(parsed_and_compiled)
    assert robots.truncated == (len(case.body) > robotsrules.DEFAULT_MAX_BYTES)
    assert retained <= RETAINED, f"{name}: retained {retained / MIB:.1f} MiB"


# -- what each input means ------------------------------------------------------------------


def test_hostile_500_kib_of_stars_is_one_long_wildcard_rule() -> None:
    robots = robotsrules.parse(hostile.stars().body)
    assert robots.truncated  # 1 MB of stars: the second line is past the limit
    # "Disallow: ****..." (cut at 16,663 octets) matches everything; so does the check.
    assert not robots.allowed("/anything", agent="Bot")
    assert robots.for_agent("Bot").explain("/x").rule is not None


def test_hostile_100000_user_agent_lines_make_one_group_each_side() -> None:
    case = hostile.agents(1.0)
    robots = robotsrules.parse(case.body, max_bytes=None)
    assert len(robots.groups) == 2
    assert not robots.allowed("/p", agent="bot")
    assert not robots.allowed("/q", agent="agentabc")
    assert robots.allowed("/q", agent="bot") and robots.allowed("/p", agent="ExampleBot")


def test_hostile_100000_rules_in_one_group_decide_like_a_few() -> None:
    case = hostile.rules(1.0)
    rules = robotsrules.parse(case.body, max_bytes=None).for_agent("Bot")
    assert len(rules.groups[0].rules) == 100_000
    k = 50_002  # a literal Disallow (k % 10 != 0, k % 3 != 0)
    verdict = rules.explain(f"/s{k % 97}/p-{k}.html")
    assert not verdict.allowed and verdict.rule is not None and verdict.rule.line == k + 2
    assert rules.allowed("/nothing/here")
    assert not rules.allowed("/s5/x.pdf")  # "/s5/*.pdf$" (rule 10*k with k % 97 == 5)


def test_hostile_wildcard_rules_that_never_match_allow() -> None:
    case = hostile.wild_rules(1.0)
    rules = robotsrules.parse(case.body, max_bytes=None).for_agent("Bot")
    for url in case.urls:
        assert rules.allowed(url)


def test_hostile_alternating_star_a_pattern_matches_like_the_rfc() -> None:
    case = hostile.alt_pattern(1.0)
    robots = robotsrules.parse(case.body)
    half = 8 * 1024  # a's in the pattern
    assert robots.allowed("/" + "a" * (half - 1), agent="Bot")  # one 'a' short
    assert not robots.allowed("/" + "a" * half, agent="Bot")
    assert robots.allowed("/" + "ab" * half, agent="Bot")  # the longer Allow ...b$ wins
    assert robots.allowed("/" + "b" * 8192, agent="Bot")


def test_hostile_8_kb_urls_are_checked_whole() -> None:
    robots = robotsrules.parse(hostile.TYPICAL)
    assert not robots.allowed("https://example.com/" + "/" * 8192 + "x.pdf", agent="Bot")
    assert robots.allowed("https://example.com/" + "\u00e9" * 4096, agent="Bot")
    assert not robots.allowed("https://example.com/?" + "s=" * 4096, agent="Bot")


def test_hostile_deep_percent_encoding_is_never_decoded() -> None:
    case = hostile.deep_escapes(1.0)
    robots = robotsrules.parse(case.body)
    deep = "/%" + "25" * 64 + "41"
    assert not robots.allowed(deep, agent="Bot")
    assert robots.allowed("/A", agent="Bot")  # %25...41 is not 'A' (Google: no decoding)
    assert not robots.allowed("/" + "\u20ac" * 1000, agent="Bot")  # %E2%82%AC, either case


def test_hostile_nul_bytes_end_lines() -> None:
    robots = robotsrules.parse(hostile.nul(0.01).body)
    # "User-agent: *\x00bot" is "*"; "Dis\x00allow" is the key "Dis" (invalid); "/b\x00/c"
    # is "/b". The NUL in a URL is escaped as %00 (SPEC D1).
    assert robots.allowed("/a", agent="Bot")
    assert not robots.allowed("/b/anything", agent="Bot")
    codes = {d.code for d in robotsrules.lint(hostile.nul(0.01).body)}
    assert "R108" in codes  # nul-byte


def test_hostile_invalid_utf8_is_read_octet_by_octet() -> None:
    case = hostile.bad_utf8(0.01)
    robots = robotsrules.parse(case.body)
    # Every invalid octet of a rule is percent-encoded as itself (never replaced).
    junk = "/%80%BF%C0%AF%ED%A0%80%F8%88%80%80%80%FF%FE%C3"
    verdict = robots.explain(junk + "/x", agent="Bot")
    assert not verdict.allowed and verdict.rule is not None and verdict.rule.line == 2
    assert robots.explain("/%e9t%e9", agent="Bot").rule.line == 3  # type: ignore[union-attr]
    assert robots.allowed("/\u00e9t\u00e9", agent="Bot")  # UTF-8 %C3%A9 is not latin-1 %E9
    assert "R002" in {d.code for d in robotsrules.lint(case.body)}  # non-utf8


def test_hostile_lone_cr_line_ends_are_line_ends() -> None:
    case = hostile.cr_only(0.1)
    robots = robotsrules.parse(case.body)
    assert len(robots.lines) == 1 + 5_000 + 1  # the agent line, 5,000 rules, the empty tail
    assert not robots.allowed("/c4999", agent="Bot") and robots.allowed("/d", agent="Bot")


def test_hostile_mixed_line_ends_lf_cr_counts_twice() -> None:
    robots = robotsrules.parse(b"User-agent: *\n\rDisallow: /a\r\nDisallow: /b\rDisallow: /c\n")
    assert [line.number for line in robots.lines if line.key == "disallow"] == [3, 4, 5]
    for path in ("/a", "/b", "/c"):
        assert not robots.allowed(path, agent="Bot")


def test_hostile_mixed_line_ends_generated_file_numbers_every_line() -> None:
    """``hostile.mixed_eol``: LF, CR, CRLF and LFCR in turn. Line numbers must match an
    independent split (CRLF one end, LFCR two), and every rule must be read."""
    case = hostile.mixed_eol(0.02)  # 1,000 rules
    robots = robotsrules.parse(case.body)
    parts = re.split(rb"\r\n|\r|\n", case.body)
    assert len(robots.lines) == len(parts)
    wanted = [n for n, part in enumerate(parts, 1) if part.startswith(b"Disallow")]
    assert [line.number for line in robots.lines if line.key == "disallow"] == wanted
    assert len(robots.groups) == 1 and len(robots.groups[0].rules) == 1_000
    for i in (0, 1, 2, 3, 998, 999):
        assert not robots.allowed(f"/m{i}", agent="Bot"), i
    assert robots.allowed("/n", agent="Bot")


def test_hostile_utf16_file_yields_no_rules_and_a_lint_error() -> None:
    case = hostile.utf16(0.01)
    robots = robotsrules.parse(case.body)
    assert robots.groups == () and robots.allowed("/priv\u00e9", agent="Bot")
    assert "R006" in {d.code for d in robotsrules.lint(case.body)}  # utf16-encoding


def test_hostile_long_lines_are_cut_and_a_dollar_past_the_cut_is_lost() -> None:
    robots = robotsrules.parse(hostile.long_lines(0.1).body)
    # "/xxxx...x$" cut at 16,663 octets: a prefix rule, so a longer path still matches.
    assert not robots.allowed("/" + "x" * 20_000 + "more", agent="Bot")
    assert robots.allowed("/x", agent="Bot")


def test_hostile_html_page_yields_nothing() -> None:
    body = hostile.html(0.1).body
    assert robotsrules.parse(body).groups == ()
    assert "R004" in {d.code for d in robotsrules.lint(body)}  # html-content


def test_hostile_oversize_file_is_cut_at_the_limit() -> None:
    robots = robotsrules.parse(hostile.oversize(1.0).body)
    assert robots.truncated and len(robots.source) == robotsrules.DEFAULT_MAX_BYTES
    assert not robots.allowed("/over/size/file", agent="Bot")
