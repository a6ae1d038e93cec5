"""The fast reading (issue 37, "Fast and at scale") against the reading it replaced: the
chunk-at-a-time reader, the Apache/nginx batch read from one search of its text, the time
read by its hour, and the lines a ``keep`` filter lets go unread must give the same
requests and the same counts, problem by problem and example by example, as the per-line
reader of ``tests/audit/reference`` (the code before the change, kept unchanged as the
reference) on any bytes, on hostile variants of every format's real-shaped lines (NUL, CR,
invalid UTF-8, quotes and backslashes inside fields, lines at the length bound, odd zones
and impossible times), and on whole logs of mostly valid Apache/nginx lines (batches the
one search reads) with hostile ones mixed in (batches it must leave to the line-by-line
reading)."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from robotsrules._audit import _formats
from robotsrules._audit._logs import LogReader

from .reference import old_formats, old_logs

DATA = Path(__file__).parent / "data"
SAMPLES = [line for path in sorted(DATA.iterdir()) for line in path.read_bytes().splitlines()
           if line.strip()]
BOUND = 300  # the line bound of these readers: lines at it and past it are drawn
FORMATS: list[Optional[str]] = [None, "combined", "vhost_combined", "common", "cloudfront",
                                "nginx_json", "alb"]


def tally(reader: Any) -> dict[str, Any]:
    found = reader.tally
    return {"lines": found.lines, "requests": found.requests, "comments": found.comments,
            "blank": found.blank, "sources": found.sources, "formats": found.formats,
            "problems": found.problems, "examples": found.examples,
            "unread": found.crawler_lines_unread}


def keep(agent: str) -> bool:
    return "bot" in agent.lower()


def _robots_fetch(target: Optional[str]) -> bool:
    return target is not None and target.split("?", 1)[0].endswith("/robots.txt")


def same_reading(chunks: Sequence[bytes], format: Optional[str],
                 failure: Optional[str] = None) -> int:
    """The new reader, with and without ``keep``, against the reference (``failure``: the
    chunks' producer stopped on that error, after them); the lines it read from their
    batch's one search (the same with and without ``keep``)."""
    failed = [failure] if failure else None
    old = old_logs.LogReader(format, max_line=BOUND)  # type: ignore[arg-type]
    expected = [tuple(r) for r in old.read_chunks(iter(chunks), "log", failed)]
    new = LogReader(format, max_line=BOUND)  # type: ignore[arg-type]
    assert [tuple(r) for r in new.read_chunks(iter(chunks), "log", failed)] == expected
    assert tally(new) == tally(old)
    assert new.tally.passed == 0
    kept = LogReader(format, max_line=BOUND, keep=keep)  # type: ignore[arg-type]
    got = [tuple(r) for r in kept.read_chunks(iter(chunks), "log", failed)]
    assert tally(kept) == tally(old)
    assert kept.tally.passed == len(expected) - len(got)
    position = 0  # what was let go: never a crawler's request, never a robots.txt fetch
    for request in expected:
        if position < len(got) and got[position] == request:
            position += 1
            continue
        agent, target = request[8], request[3]
        assert agent is not None and not keep(agent) and not _robots_fetch(target), request
    assert position == len(got)
    assert kept.tally.matched == new.tally.matched
    matched: int = new.tally.matched
    return matched


def cut(data: bytes, points: Sequence[int]) -> list[bytes]:
    """``data`` cut at ``points`` (a CR LF may fall between two chunks)."""
    marks = sorted({p % (len(data) + 1) for p in points})
    return [data[a:b] for a, b in zip([0, *marks], [*marks, len(data)]) if b > a] or [b""]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.lists(st.integers(0, 2000), max_size=6),
       st.sampled_from(FORMATS))
@example(b'x - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "a"\r\n\x00\n',
         [40], None)
def test_any_bytes_read_as_before(data: bytes, points: list[int], format: Optional[str]) -> None:
    same_reading(cut(data, points), format)


_MUTATIONS = [b"\x00", b"\r", b"\r\n", b"\n", b"\xff", b"\xc3", b'"', b'\\"', b"\\x41",
              b"\\", b"\t", b" ", b"-", b"robots.txt", b"/robots.txt", b"Googlebot/2.1",
              b"+2400", b"-0059", b"+1400", b":60", b":61", b"31/Feb/2024", b"01/Jan/0001",
              b"31/Dec/9999:23:59:59 -2359", b"\xe2\x80\x8b", b"\x1b[31m", b"%2e"]


@st.composite
def hostile_log(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.sampled_from(SAMPLES), min_size=1, max_size=12))
    out = []
    for line in lines:
        for _ in range(draw(st.integers(0, 3))):
            where = draw(st.integers(0, len(line)))
            size = draw(st.integers(0, 3))
            line = line[:where] + draw(st.sampled_from(_MUTATIONS)) + line[where + size:]
        if draw(st.booleans()) and len(line) < BOUND:  # at the bound, or one past it
            pad = BOUND - len(line) + draw(st.integers(0, 1))
            line = line[:-1] + b"x" * pad + line[-1:]
        out.append(line + draw(st.sampled_from([b"\n", b"\r\n", b"\r", b"\n\n"])))
    return b"".join(out)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_log(), st.lists(st.integers(0, 4000), max_size=4), st.sampled_from(FORMATS))
def test_hostile_lines_of_every_format_read_as_before(data: bytes, points: list[int],
                                                      format: Optional[str]) -> None:
    same_reading(cut(data, points), format)


def test_a_browser_line_is_counted_not_read() -> None:
    browser = (b'192.0.2.9 - - [01/Nov/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" '
               b'"Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"\n')
    fetch = browser.replace(b"/a ", b"/robots.txt ")
    escaped = browser.replace(b"Firefox", b"Fire\\\"fox")
    bot = browser.replace(b"Firefox", b"Googlebot")
    reader = LogReader("combined", keep=keep)
    got = list(reader.read_chunks([browser, fetch, escaped, bot, browser], "log"))
    # the browser's plain lines are let go; its robots.txt fetch, a line with an escape
    # (read in full, as before) and the crawler's are read
    assert [r.target for r in got] == ["/robots.txt", "/a", "/a"]
    assert reader.tally.passed == 2 and reader.tally.requests == 5


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 31), st.sampled_from(["Jan", "Feb", "Dec", "Xyz", "feb"]),
       st.sampled_from([1, 2, 1970, 2024, 9999, 0]), st.integers(0, 25), st.integers(0, 61),
       st.integers(0, 62), st.sampled_from("+-"), st.integers(0, 25), st.integers(0, 61))
@example(1, "Jan", 1, 0, 0, 30, "+", 0, 1)  # one minute east of year 1's first: no time
@example(1, "Jan", 1, 5, 0, 0, "+", 1, 0)  # year 1, an hour east: 04:00 UTC
@example(31, "Dec", 9999, 23, 59, 60, "-", 0, 0)
def test_the_time_is_read_as_before(day: int, month: str, year: int, hour: int, minute: int,
                                    second: int, sign: str, zone_h: int, zone_m: int) -> None:
    text = (f"{day:02d}/{month}/{year:04d}:{hour:02d}:{minute:02d}:{second:02d} "
            f"{sign}{zone_h:02d}{zone_m:02d}")

    expected = _read_time(old_formats._clf_time, text)
    assert _read_time(_formats.clf_time, text) == expected
    assert _read_time(_formats.clf_time, text) == expected  # again: its hour remembered



def _read_time(clf_time: Any, text: str) -> Any:
    try:
        found: datetime.datetime = clf_time(text)
    except ValueError:
        return "unparsable"
    return found, found.utcoffset()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(
    st.sampled_from(["01/Jan/0001", "31/Dec/9999", "29/Feb/2024", "01/Nov/2026"]),
    st.sampled_from(["00", "12", "23"]), st.integers(0, 59), st.integers(0, 61),
    st.sampled_from(["+0000", "-0001", "+0001", "+2359", "-2359", "+0530"])), max_size=30))
@example([("31/Dec/9999", "23", 0, 0, "-0001"), ("31/Dec/9999", "23", 59, 59, "-0001")])
@example([("01/Jan/0001", "00", 30, 0, "+0001"), ("01/Jan/0001", "00", 59, 0, "+0001")])
@example([("01/Nov/2026", "12", 0, 0, "+0000"), ("01/Nov/2026", "12", 0, 0, "+0530")])
def test_times_read_one_after_another_as_before(
        stamps: list[tuple[str, str, int, int, str]]) -> None:
    # the hour read once and kept: a time of year 9999 whose hour is a time and whose
    # minutes take it past the last one, a time of year 1 whose hour is none, the same
    # hour in another zone
    for day, hour, minute, second, zone in stamps:
        text = f"{day}:{hour}:{minute:02d}:{second:02d} {zone}"
        assert _read_time(_formats.clf_time, text) == _read_time(old_formats._clf_time, text)


# -------------------------------------------- whole logs: the one search of a batch

_BROWSERS = ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
             "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Mobile/15E148",
             "curl/8.11.0", "Mozilla/5.0 (Windows NT 10.0) \u2028 \x85 Edg/131.0"]
_CRAWLERS = ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
             "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)",
             "ClaudeBot/1.0; +claudebot@anthropic.com"]
_ODD_AGENTS = ["-", "", 'Fire\\"fox/1 \\\\ \\x41', "Firefox/1.0 \\x1b[31m"]
_TARGETS = ["/", "/a?b=1", "/articles/12", "/robots.txt", "/x/robots.txt?y", "/caf\\xc3\\xa9",
            '/a\\"b', "/%2e/", "/sp ace"]
_ZONES = ["+0000", "-0700", "+0530", "-0000"]
_MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                "Dec"]
_EPOCH = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)


def _stamp(when: datetime.datetime, zone: str) -> str:
    return (f"{when.day:02d}/{_MONTH_NAMES[when.month - 1]}/{when.year:04d}:"
            f"{when.hour:02d}:{when.minute:02d}:{when.second:02d} {zone}")


def valid_line(pick: random.Random, vhost: bool, seconds: int) -> bytes:
    """A combined line (``vhost``: after a host field) ``seconds`` into the log, now and
    then with a clock going back, a field an escape or a dash, a forwarded address, more
    text after it, characters Python's ``str.splitlines`` would cut at."""
    if pick.randrange(10) == 0:
        seconds -= pick.choice([30, 61, 3600, 86400])  # back, by more than the skew or not
    when = _EPOCH + datetime.timedelta(seconds=max(seconds, 0))
    agent = pick.choice(_BROWSERS * 4 + _CRAWLERS * 2 + _ODD_AGENTS)
    line = (f"{pick.choice(['192.0.2.1', '2001:db8::1', '-'])} - {pick.choice(['-', 'frank'])} "
            f"[{_stamp(when, pick.choice(_ZONES))}] "
            f'"{pick.choice(["GET", "HEAD", "POST"])} {pick.choice(_TARGETS)} HTTP/1.1" '
            f"{pick.choice(['200', '304', '404', '503', '-'])} {pick.choice(['0', '5120', '-'])} "
            f'"{pick.choice(["-", "https://example.com/", ""])}" "{agent}"')
    extra = pick.randrange(8)
    if extra == 0:
        line += ' "203.0.113.9, 198.51.100.4"'
    elif extra == 1:
        line += " 512 1024"  # mod_logio's byte counts after the combined fields
    if vhost:
        line = pick.choice(["www.example.com:443 ", "example.org ", "[::1]:80 "]) + line
    return line.encode()


def hostile_line(pick: random.Random, line: bytes) -> bytes:
    """``line`` made into one the batch search must not read: a control byte, bytes that are
    not UTF-8, a blank line, a line over the bound or at it, a common line among combined
    ones, a mutation of the hostile list; or one it reads all but the time of (no such
    day), or reads (a time of year 1 east of UTC)."""
    kind = pick.randrange(11)
    if kind == 0:
        return b""
    if kind == 1:
        return line + b" " + b"x" * (BOUND - len(line) - 1 + pick.randrange(2))
    if kind == 2:
        return line.rsplit(b' "', 2)[0]  # common: referer and agent gone
    if kind == 3:
        return line.replace(b":", b":6", 1) if b"[" in line else line + b"\xff"
    if kind == 4:
        return line.replace(b"/2026:", b"/0001:", 1).replace(b" +0000]", b" +2359]")
    if kind in (5, 6):  # no such time: the batch search hands the line over, and goes on
        stamp = line.index(b"[") + 1
        return line[:stamp] + pick.choice([b"31/Feb", b"00/Nov", b"01/Noo"]) + line[stamp + 6:]
    where = pick.randrange(len(line) + 1)
    return line[:where] + pick.choice(_MUTATIONS) + line[where:]


@st.composite
def mostly_valid_log(draw: st.DrawFn) -> tuple[bytes, bool]:
    """Lines of one combined log (plain or vhost), a few of them hostile, or none; and
    whether the log is vhost. (The lines are made from one seed Hypothesis draws: a few
    draws per log keep large logs quick to make.)"""
    vhost = draw(st.booleans())
    rate = draw(st.sampled_from([0, 0, 0, 1, 3, 10]))  # hostile lines per hundred
    step = draw(st.sampled_from([1, 3, 61]))
    count = draw(st.sampled_from([1, 2, 17, 60, 150, 400]))
    pick = random.Random(draw(st.integers(0, 2**32)))
    out = []
    for index in range(count):
        line = valid_line(pick, vhost, index * step)
        if rate and pick.randrange(100) < rate:
            line = hostile_line(pick, line)
        out.append(line + pick.choice([b"\n"] * 6 + [b"\r\n", b"\r"]))
    return b"".join(out), vhost


def whole_logs_as_before(log: tuple[bytes, bool], points: list[int], named: bool,
                         failure: Optional[str]) -> None:
    data, vhost = log
    format = ("vhost_combined" if vhost else "combined") if named else None
    # a damaged stream: its unfinished last line is the damage, named by its number
    same_reading(cut(data, points), format, failure)
    # chunks within the bound: the splitter hands their lines over uncut (LineSplitter.block)
    same_reading(small_chunks(data), format, failure)


def small_chunks(data: bytes) -> list[bytes]:
    """``data`` in chunks of 256 bytes, within :data:`BOUND`: their lines joined, not cut
    (:meth:`LineSplitter.block`), where no CR and no line over the bound is in the way."""
    return [data[at:at + 256] for at in range(0, len(data), 256)] or [b""]


_WHOLE_LOGS = (mostly_valid_log(), st.lists(st.integers(0, 40_000), max_size=3), st.booleans(),
               st.sampled_from([None, None, "gzip stream damaged"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*_WHOLE_LOGS)
def test_whole_logs_read_from_one_search_per_batch_as_before(
        log: tuple[bytes, bool], points: list[int], named: bool, failure: Optional[str]) -> None:
    whole_logs_as_before(log, points, named, failure)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*_WHOLE_LOGS)
def test_whole_logs_read_from_one_search_per_batch_as_before_long(
        log: tuple[bytes, bool], points: list[int], named: bool, failure: Optional[str]) -> None:
    whole_logs_as_before(log, points, named, failure)


def _lines(count: int, vhost: bool = False) -> list[bytes]:
    """``count`` valid lines, a second apart: browsers, crawlers, robots.txt fetches, dashes
    and escapes, a clock going back now and then."""
    lines = []
    for n in range(count):
        agent = (_BROWSERS * 3 + _CRAWLERS + _ODD_AGENTS)[n % 19]
        target = _TARGETS[n % len(_TARGETS)]
        when = _EPOCH + datetime.timedelta(seconds=n - (300 if n % 23 == 7 else 0))
        line = (f'192.0.2.{n % 250} - - [{_stamp(when, _ZONES[n % 4])}] "GET {target} '
                f'HTTP/1.1" 200 {n} "-" "{agent}"')
        lines.append(((f"host{n % 3}.example:443 " if vhost else "") + line).encode())
    return lines


def test_a_clean_log_is_read_from_one_search_per_batch() -> None:
    # one chunk of 400 lines, then the same in chunks that cut lines anywhere: every line
    # read from its batch's search, and every answer as before (the clock's examples and
    # the missing agents' name their lines)
    data = b"\n".join(_lines(400)) + b"\n"
    assert same_reading([data], "combined") == 400
    assert same_reading(cut(data, [1, 5000, 5001, 20_000]), "combined") == 400
    assert same_reading(small_chunks(data), "combined") == 400
    assert same_reading(small_chunks(data), None) == 400
    vhost = b"\r\n".join(_lines(300, vhost=True))  # no line end after the last line
    assert same_reading(cut(vhost, [77, 9000]), "vhost_combined") == 300
    # a damaged stream: its unfinished last line withheld, the damage named by its number
    assert same_reading(cut(vhost, [77, 9000]), "vhost_combined", "cut short") == 299
    # sniffed: the window's lines one at a time (each a batch of one line, searched too),
    # then the rest of the first batch
    assert same_reading([data], None) == 400


def test_a_line_at_the_bound_is_read_from_the_search_and_one_past_it_is_not() -> None:
    lines = _lines(50)
    at = lines[10] + b" " + b"x" * (BOUND - len(lines[10]) - 1)
    assert len(at) == BOUND
    data = b"\n".join([*lines[:10], at, *lines[11:]]) + b"\n"
    assert same_reading([data], "combined") == 50
    past = data.replace(at, at + b"x")
    assert same_reading([past], "combined") == 0  # a too-long line: the batch line by line


@pytest.mark.parametrize(("name", "line"), [
    ("a NUL", b'192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET /\x00 HTTP/1.1" 200 1 "-" "a"'),
    ("a vertical tab", b'192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" '
                       b'"Firefox\x0b/1"'),
    ("a form feed", b'192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" '
                    b'"Firefox\x0c/1"'),
    ("not UTF-8", b'192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET /\xe9 HTTP/1.1" 200 1 "-" "a"'),
    ("a blank line", b""),
    ("a common line", b'192.0.2.1 - - [01/Nov/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1'),
    ("no such time", b'192.0.2.1 - - [01/Nov/2026:24:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "a"'),
    ("malformed", b"GET / HTTP/1.1"),
])
def test_a_batch_with_a_line_the_search_cannot_read_is_read_line_by_line(
        name: str, line: bytes) -> None:
    lines = _lines(60)
    data = b"\n".join([*lines[:30], line, *lines[30:]]) + b"\n"
    expected = 0 if name != "no such time" else 60  # a time is the batch's to hand over
    assert same_reading([data], "combined") == expected, name
    # the same line alone in its chunk: the chunks before and after it are still searched
    cut_at = [len(b"\n".join(lines[:30])) + 1, len(b"\n".join([*lines[:30], line])) + 1]
    assert same_reading(cut(data, cut_at), "combined") == 60, name


def test_line_ends_python_knows_and_logs_do_not_stay_inside_a_line() -> None:
    # NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR end lines for str.splitlines but not for
    # a log (nor for the pattern's ^ and $): the line is one request, agent and all
    lines = _lines(40)
    odd = lines[5].replace(b'"-" "', b'"-" "\xc2\x85\xe2\x80\xa8\xe2\x80\xa9 ')
    data = b"\n".join([*lines[:5], odd, *lines[6:]]) + b"\n"
    assert same_reading([data], "combined") == 40
    (request,) = [r for r in LogReader("combined").read_chunks([data], "log")
                  if r.user_agent is not None and r.user_agent.startswith("\x85")]
    assert request.user_agent is not None and "\u2028\u2029 " in request.user_agent


def test_a_combined_log_with_common_lines_reads_them_with_the_sibling() -> None:
    lines = _lines(40)
    common = [line.rsplit(b' "', 2)[0] for line in lines[10:13]]
    data = b"\n".join([*lines[:10], *common, *lines[13:]]) + b"\n"
    assert same_reading([data], "combined") == 0
    reader = LogReader("combined")
    got = list(reader.read_chunks([data], "log"))
    assert len(got) == 40 and [r.user_agent for r in got[10:13]] == [None] * 3
    assert reader.tally.problems["missing_user_agent"] == 3 + sum(
        1 for line in lines if line.endswith((b'"-"', b'""')))
