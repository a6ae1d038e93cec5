"""The robots.txt in force at each request, and the audit's verdict (issue 37): the file in
force at a time, the violation rule with RFC 9309 §2.4's caching window (a property test
against a plain reference written here), its edges, the memo, and hostile history folders
(names that are no date, a huge file, a FIFO, thousands of versions): bounded, counted,
never a traceback."""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotsrules import parse
from robotsrules._audit._inforce import (
    DAY,
    History,
    Judge,
    Version,
    instant_of,
    read_folder,
    with_fetches,
)

UTC = datetime.timezone.utc
T0 = datetime.datetime(2026, 11, 2, tzinfo=UTC)
HOUR = datetime.timedelta(hours=1)
SECOND = datetime.timedelta(seconds=1)


def version(since: datetime.datetime, body: str, name: str = "v") -> Version:
    return Version(since, parse(body), name)


# ------------------------------------------------------------------ the plain reference

def reference(versions: Sequence[Version], agent: str, url: str, time: datetime.datetime,
              window: datetime.timedelta) -> tuple[str, Optional[Version]]:
    """The rule as the issue states it, written without bisect or memo."""
    def at(moment: datetime.datetime) -> Optional[Version]:
        earlier = [v for v in versions if v.since <= moment]
        return max(earlier, key=lambda v: v.since) if earlier else None

    now = at(time)
    if now is None or now.robots is None:
        return "no-file", now
    if now.robots.allowed(url, agent=agent):
        return "allowed", now
    start = time - window
    first = at(start)
    if first is None:  # the window reaches back before any known file
        return "caching-allowance", now
    during = [first] + [v for v in versions if start < v.since <= time]
    if all(v.robots is not None and not v.robots.allowed(url, agent=agent) for v in during):
        return "violation", now
    return "caching-allowance", now


PATTERNS = ["/", "/a", "/a/", "/a/b", "/b", "/a*", "/*.x", "/a$", "/b/c$", ""]
URLS = ["/", "/a", "/a/", "/a/b", "/a/b.x", "/b", "/b/c", "/c.x", "/ab"]
AGENTS = ["FooBot", "BarBot", "Other"]

rule = st.tuples(st.sampled_from(["Allow", "Disallow"]), st.sampled_from(PATTERNS))
group = st.tuples(st.sampled_from(["*", "foobot", "barbot"]), st.lists(rule, max_size=4))
body = st.lists(group, max_size=3).map(
    lambda groups: "".join(f"User-agent: {agent}\n" + "".join(f"{k}: {p}\n" for k, p in rules)
                           for agent, rules in groups))


@st.composite
def scenario(draw: st.DrawFn) -> tuple[list[Version], datetime.timedelta,
                                       list[tuple[str, str, datetime.datetime]]]:
    hours = draw(st.lists(st.integers(0, 96), min_size=1, max_size=5, unique=True))
    versions = [version(T0 + number * HOUR, draw(body), f"v{number}") for number in hours]
    window = draw(st.sampled_from([DAY, DAY, 6 * HOUR, datetime.timedelta(0)]))
    edges = [T0 + h * HOUR + window + d * SECOND for h in hours for d in (-1, 0, 1)]
    edges += [T0 + h * HOUR + d * SECOND for h in hours for d in (-1, 0)]
    moment = st.one_of(st.sampled_from(edges),
                       st.integers(-3600, 130 * 3600).map(lambda s: T0 + s * SECOND))
    requests = draw(st.lists(st.tuples(st.sampled_from(AGENTS), st.sampled_from(URLS), moment),
                             min_size=1, max_size=20))
    return versions, window, requests


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario())
def test_verdicts_equal_the_file_in_force_and_the_plain_rule(
        case: tuple[list[Version], datetime.timedelta,
                    list[tuple[str, str, datetime.datetime]]]) -> None:
    versions, window, requests = case
    judge = Judge(History(reversed(versions)), window=window)  # order given does not matter
    for agent, url, time in requests:
        status, now = reference(versions, agent, url, time, window)
        got = judge.judge(agent, url, time)
        assert got.status == status, (agent, url, time)
        assert got.version == now
        if now is None:
            assert got.verdict is None
        else:
            assert got.verdict is not None
            assert got.verdict.allowed == now.robots.allowed(url, agent=agent)
            assert got.verdict == now.robots.explain(url, agent=agent)
        if got.allowing is not None:
            assert got.status == "caching-allowance"
            assert got.allowing.robots.allowed(url, agent=agent)
            later = [v.since for v in versions if v.since > got.allowing.since]
            assert got.allowing.since <= time  # in force at some instant of the window:
            assert not later or min(later) > time - window  # not replaced before it opened


# ------------------------------------------------------------------------ the edges

ALLOW = "User-agent: *\nAllow: /\n"
DENY = "User-agent: *\nDisallow: /x\n"
T1 = T0 + 48 * HOUR


def test_before_the_first_version_no_file_is_known() -> None:
    judge = Judge(History([version(T0, DENY)]))
    assert judge.judge("FooBot", "/x", T0 - SECOND).status == "no-file"
    assert judge.judge("FooBot", "/x", T0 - SECOND).verdict is None


def test_a_version_is_in_force_from_its_own_instant() -> None:
    allow, deny = version(T0, ALLOW), version(T1, DENY)
    judge = Judge(History([allow, deny]))
    before = judge.judge("FooBot", "/x", T1 - SECOND)
    assert (before.status, before.version) == ("allowed", allow)
    at = judge.judge("FooBot", "/x", T1)
    assert (at.status, at.version, at.allowing) == ("caching-allowance", deny, allow)
    assert at.verdict is not None and at.verdict.rule is not None
    assert at.verdict.rule.pattern == "/x"  # the deciding line of the file in force


def test_violation_exactly_at_the_window_edge() -> None:
    allow, deny = version(T0, ALLOW), version(T1, DENY)
    judge = Judge(History([allow, deny]))
    assert judge.judge("FooBot", "/x", T1 + DAY - SECOND).status == "caching-allowance"
    assert judge.judge("FooBot", "/x", T1 + DAY).status == "violation"
    assert judge.judge("FooBot", "/y", T1 + DAY).status == "allowed"


def test_a_first_file_younger_than_the_window_is_no_evidence() -> None:
    judge = Judge(History([version(T1, DENY)]))
    young = judge.judge("FooBot", "/x", T1 + HOUR)
    assert (young.status, young.allowing) == ("caching-allowance", None)
    assert judge.judge("FooBot", "/x", T1 + DAY).status == "violation"


def test_the_window_is_an_option() -> None:
    history = History([version(T0, ALLOW), version(T1, DENY)])
    assert Judge(history, window=datetime.timedelta(0)).judge("A", "/x", T1).status == "violation"
    assert Judge(history, window=HOUR).judge("A", "/x", T1 + HOUR).status == "violation"
    assert Judge(history, window=HOUR).judge("A", "/x", T1 + HOUR - SECOND).status \
        == "caching-allowance"
    with pytest.raises(ValueError):
        Judge(history, window=-HOUR)


def test_every_version_in_the_window_must_disallow() -> None:
    # deny, allow for one hour, deny again: within a day of the allowing hour, no violation
    history = History([version(T0, DENY), version(T1, ALLOW), version(T1 + HOUR, DENY)])
    judge = Judge(history)
    assert judge.judge("A", "/x", T1 - SECOND).status == "violation"
    assert judge.judge("A", "/x", T1 + HOUR + DAY - SECOND).status == "caching-allowance"
    assert judge.judge("A", "/x", T1 + HOUR + DAY).status == "violation"


def test_each_version_agent_url_is_judged_once_in_a_bounded_memo() -> None:
    judge = Judge(History([version(T0, ALLOW), version(T1, DENY)]), memo=3)
    for _ in range(3):
        judge.judge("A", "/x", T1 + HOUR)
    assert len(judge._memo) == 2  # (deny, /x) and (allow, /x), not one per request
    for number in range(50):
        judge.judge("A", f"/x/{number}", T1 + HOUR)
        assert len(judge._memo) <= 3


def test_naive_instants_are_refused() -> None:
    with pytest.raises(ValueError):
        History([Version(datetime.datetime(2026, 11, 2), parse(ALLOW), "naive")])


# ------------------------------------------------------------------- the folder reader

@pytest.mark.parametrize(("name", "expected"), [
    ("2026-11-02.txt", T0),
    ("2026-11-02T06:00:00Z.txt", T0 + 6 * HOUR),
    ("20261102T060000Z.txt", T0 + 6 * HOUR),
    ("2026-11-02T06:00:00+01:00.txt", None),  # UTC only: Z
    ("2026-11-02T06:00:00.txt", None),
    ("2026-02-30.txt", None),
    ("2026-11-02T24:00:00Z.txt", None),
    ("2026-11-02.txt.bak", None),
    ("2026-11-02", None),
    ("robots.txt", None),
    ("\uff12\uff10\uff12\uff16-11-02.txt", None),  # fullwidth digits are no date
])
def test_file_names(name: str, expected: Optional[datetime.datetime]) -> None:
    assert instant_of(name) == expected


def test_a_folder_history(tmp_path: Path) -> None:
    (tmp_path / "2026-11-02.txt").write_text(ALLOW)
    (tmp_path / "2026-11-04T06:00:00Z.txt").write_text(DENY)
    history, findings = read_folder(tmp_path)
    assert [(v.since, v.source) for v in history.versions] == [
        (T0, "2026-11-02.txt"), (T0 + 54 * HOUR, "2026-11-04T06:00:00Z.txt")]
    assert findings.counts == {}
    judge = Judge(history)
    assert judge.judge("A", "/x", T0 + 54 * HOUR + DAY).status == "violation"


def test_hostile_names_and_entries_are_counted(tmp_path: Path) -> None:
    (tmp_path / "2026-11-02.txt").write_text(ALLOW)
    (tmp_path / "2026-11-02T00:00:00Z.txt").write_text(DENY)  # the same instant
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "2026-13-01.txt").write_text("x")
    (tmp_path / "evil\x1b[31m.txt").write_text("x")
    (tmp_path / "2026-11-03.txt").mkdir()
    os.mkfifo(tmp_path / "2026-11-04.txt")  # would block a plain open
    (tmp_path / "2026-11-05.txt").symlink_to("/dev/zero")  # endless
    (tmp_path / "2026-11-06.txt").symlink_to(tmp_path / "missing")
    history, findings = read_folder(tmp_path)
    assert [v.source for v in history.versions] == ["2026-11-02.txt"] + [
        f"2026-11-0{day}.txt (not read)" for day in (3, 4, 5, 6)]  # in force, not known
    assert history.versions[0].robots.allowed("/x", agent="A")  # the first by name kept
    assert all(v.robots is None for v in history.versions[1:])
    assert findings.counts == {"not_a_date": 3, "duplicate_instant": 1, "not_a_file": 3,
                               "unreadable": 1}
    assert all("\x1b" not in example for examples in findings.examples.values()
               for example in examples)
    assert any("\\x1b" in example for example in findings.examples["not_a_date"])


def test_a_huge_file_is_read_up_to_the_bound(tmp_path: Path) -> None:
    with open(tmp_path / "2026-11-02.txt", "wb") as out:
        out.write(b"User-agent: *\nDisallow: /x\n")
        out.write(b"# " + b"a" * 1000 + b"\n")
        out.truncate(1 << 30)  # a sparse gigabyte
    history, findings = read_folder(tmp_path, max_bytes=4096)
    assert findings.counts == {"over_bound": 1}
    robots = history.versions[0].robots
    assert robots.truncated and len(robots.source) <= 4097
    assert not robots.allowed("/x", agent="A")


def test_thousands_of_versions_keep_the_newest(tmp_path: Path) -> None:
    for number in range(3000):
        (tmp_path / f"{(T0 + number * HOUR):%Y-%m-%dT%H:%M:%SZ}.txt").write_text(
            f"User-agent: *\nDisallow: /{number}\n")
    history, findings = read_folder(tmp_path, max_versions=1000)
    assert len(history.versions) == 1000
    assert history.versions[0].since == T0 + 2000 * HOUR
    assert findings.counts == {"too_many_versions": 2000}
    assert Judge(history).judge("A", "/x", T0 + 1999 * HOUR).status == "no-file"
    history, findings = read_folder(tmp_path, max_entries=10)
    assert findings.counts["too_many_entries"] == 1 and len(history.versions) <= 10
    history, findings = read_folder(tmp_path, max_total_bytes=100 * 30)
    assert 50 < len(history.versions) < 150
    assert findings.counts["over_total_bytes"] == 3000 - len(history.versions)
    assert history.versions[-1].since == T0 + 2999 * HOUR


def test_a_folder_that_cannot_be_listed_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_folder(tmp_path / "missing")


def test_two_versions_at_one_instant_keep_the_first_given() -> None:
    first, second = version(T0, ALLOW, "first"), version(T0, DENY, "second")
    assert History([first, second]).versions == (first,)


# ------------------------------------------------- the log's own robots.txt fetches

def test_a_4xx_allows_everything_from_then_on() -> None:
    history, left_out = with_fetches(History([version(T0, DENY)]), [(T1, 404)])
    judge = Judge(history)
    assert judge.judge("A", "/x", T1 - SECOND).status == "violation"
    after = judge.judge("A", "/x", T1)
    assert after.status == "allowed" and after.version is not None
    assert after.version.robots is not None and after.version.robots.synthetic == "allow-all"
    assert left_out == 0


def test_a_5xx_keeps_the_previous_copy_and_a_2xx_brings_the_file_back() -> None:
    deny = version(T0, DENY)
    history, _ = with_fetches(History([deny]), [(T1, 503), (T1 + HOUR, 429)])
    assert history.versions == (deny,)
    history, _ = with_fetches(History([deny]), [(T1, 410), (T1 + HOUR, 503), (T1 + 2 * HOUR, 200)])
    judge = Judge(history)
    assert judge.judge("A", "/x", T1 + HOUR).status == "allowed"  # 503: the 410 stays
    back = judge.judge("A", "/x", T1 + 2 * HOUR)
    assert back.status == "caching-allowance" and back.version is not None
    assert back.version.robots is deny.robots and back.version.since == T1 + 2 * HOUR
    assert judge.judge("A", "/x", T1 + 2 * HOUR + DAY).status == "violation"


def test_a_5xx_with_no_copy_before_disallows_everything() -> None:
    history, _ = with_fetches(History([]), [(T0, 500)])
    judge = Judge(history)
    assert judge.judge("A", "/anything", T0 - SECOND).status == "no-file"
    assert judge.judge("A", "/anything", T0 + HOUR).status == "caching-allowance"
    assert judge.judge("A", "/anything", T0 + DAY).status == "violation"


def test_a_2xx_with_no_version_known_is_no_file_and_no_evidence() -> None:
    history, _ = with_fetches(History([version(T1, DENY)]), [(T0, 200)])
    judge = Judge(history)
    unknown = judge.judge("A", "/x", T0 + HOUR)
    assert unknown.status == "no-file" and unknown.version is not None
    assert unknown.version.robots is None
    young = judge.judge("A", "/x", T1 + HOUR)  # the unknown file is in the window
    assert young.status == "caching-allowance" and young.allowing == unknown.version
    assert judge.judge("A", "/x", T1 + DAY).status == "violation"


def test_redirects_change_nothing_and_304_keeps_the_file() -> None:
    deny = version(T0, DENY)
    for status in (301, 302, 303, 307, 308, 304, 200):
        history, _ = with_fetches(History([deny]), [(T1, status)])
        assert history.versions == (deny,), status
    history, _ = with_fetches(History([deny]), [(T1, 300)])  # a final 3xx: unavailable
    assert Judge(history).judge("A", "/x", T1).status == "allowed"


def test_changes_of_state_are_bounded_and_counted() -> None:
    fetches = [(T1 + number * SECOND, 404 if number % 2 else 200) for number in range(1000)]
    history, left_out = with_fetches(History([version(T0, DENY)]), fetches, max_changes=10)
    assert len(history.versions) == 11 and left_out == 990  # the 200 at +10 s on
    last = history.versions[-1]
    assert last.robots is None and last.since == T1 + 10 * SECOND
    assert Judge(history).judge("A", "/x", T1 + DAY).status == "no-file"  # not a stale file
    with pytest.raises(ValueError):
        with_fetches(History([]), [(datetime.datetime(2026, 11, 2), 200)])


STATUSES = [100, 200, 204, 300, 301, 304, 308, 401, 403, 404, 410, 429, 500, 503, 599]
NONE, UNKNOWN = object(), object()


def plain_state(versions: Sequence[Version], fetches: Sequence[tuple[datetime.datetime, int]],
                time: datetime.datetime) -> object:
    """The state in force at ``time``, folded plainly from every event until then."""
    events = sorted([(v.since, 0, number) for number, v in enumerate(versions)]
                    + [(moment, 1, status) for moment, status in fetches])
    published: Optional[Version] = None
    state: object = NONE
    for moment, kind, value in events:
        if moment > time:
            break
        if kind == 0:
            published = versions[value]
            state = published.robots
        elif value in (301, 302, 303, 307, 308):
            continue
        elif 200 <= value < 300 or value == 304:
            state = UNKNOWN if published is None else published.robots
        elif value < 200 or value == 429 or value >= 500:
            state = "disallow-all" if state is NONE else state
        else:
            state = "allow-all"
    return state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario(), st.lists(st.tuples(st.integers(-2, 100).map(lambda h: T0 + h * HOUR),
                                      st.sampled_from(STATUSES)), max_size=8))
def test_the_logs_fetches_move_the_state_as_a_plain_fold(
        case: tuple[list[Version], datetime.timedelta,
                    list[tuple[str, str, datetime.datetime]]],
        fetches: list[tuple[datetime.datetime, int]]) -> None:
    versions, window, requests = case
    history, _ = with_fetches(History(versions), fetches)
    judge = Judge(history, window=window)
    for agent, url, time in requests:
        expected = plain_state(sorted(versions), fetches, time)
        got = history.at(time)
        if expected is NONE:
            assert got is None
            continue
        assert got is not None
        if expected is UNKNOWN:
            assert got.robots is None
        elif isinstance(expected, str):
            assert got.robots is not None and got.robots.synthetic == expected
        else:
            assert got.robots is expected
        status, _ = reference(history.versions, agent, url, time, window)
        assert judge.judge(agent, url, time).status == status


# ----------------------------------------- where Google's and RFC 9309's readings differ

RFC_PATTERNS = ["/%7Ejoe", "/~joe", "/%2A", "/*$", "/d/", "/d/index.html", "/a$b", "/%C3%A9",
                "/x", "/%7e"]
RFC_URLS = ["/~joe/x", "/%7Ejoe/x", "/%7ejoe", "/*", "/d/", "/a$b", "/\u00e9", "/x", "/~"]


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Allow", "Disallow"]),
                          st.sampled_from(RFC_PATTERNS)), max_size=4),
       st.sampled_from(RFC_URLS))
def test_rfc_disallowed_is_rfc_9309s_reading_of_the_file_in_force(
        rules: list[tuple[str, str]], url: str) -> None:
    """For a request the file in force allows in Google's reading, ``rfc_disallowed`` is
    exactly RFC 9309's reading of the same file (``parse(..., mode="rfc")``), read without
    the judge's shortcut (a file or target where the readings cannot differ is not read
    twice); for any other request it is ``None``: never a second accusation."""
    text = "User-agent: *\n" + "".join(f"{key}: {pattern}\n" for key, pattern in rules)
    answer = Judge(History([version(T0, text)])).judge("FooBot", url, T0 + HOUR)
    google = parse(text).allowed(url, agent="FooBot")
    assert (answer.status == "allowed") == google
    rfc = parse(text, mode="rfc").allowed(url, agent="FooBot")
    assert answer.rfc_disallowed == ((not rfc) if google else None)


def test_a_percent_encoded_rule_against_the_unreserved_character() -> None:
    """``Disallow: /%7Ejoe`` and the request ``/~joe``: Google's library compares them as
    written (allowed; checked against it through ``jwm.robotstxt`` where it installs), RFC
    9309 (September 2022) §2.2.2 decodes the unreserved ``%7E`` (disallowed): allowed,
    flagged apart. Google's ``index.html`` rule (``/d/`` allowed) is flagged the same way."""
    body = "User-agent: *\nDisallow: /%7Ejoe\nDisallow: /d/\nAllow: /d/index.html\n"
    judge = Judge(History([version(T0 - 2 * DAY, body)]))
    for url in ("/~joe/a", "/d/"):
        answer = judge.judge("FooBot", url, T0)
        assert (answer.status, answer.rfc_disallowed) == ("allowed", True), url
    assert judge.judge("FooBot", "/%7Ejoe/a", T0).status == "violation"
    assert judge.judge("FooBot", "/%7Ejoe/a", T0).rfc_disallowed is None
    assert judge.judge("FooBot", "/other", T0).rfc_disallowed is False
    try:
        from jwm.robotstxt import googlebot
    except ImportError:  # no wheel for this Python or machine: the SPEC's §6.6 stands
        return
    assert googlebot.RobotsMatcher().OneAgentAllowedByRobots(
        body.encode(), "FooBot", "https://example.com/~joe/a")
