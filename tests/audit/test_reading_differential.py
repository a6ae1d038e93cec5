"""The fast reading (issue 37, "Fast and at scale") against the reading it replaced: the
chunk-at-a-time reader, the time read by its minute, and the lines a ``keep`` filter
lets go unread must give the same requests and the same counts, problem by problem and
example by example, as the per-line reader of ``tests/audit/reference`` (the code before
the change, kept unchanged as the reference) on any bytes and on hostile variants of
every format's real-shaped lines (NUL, CR, invalid UTF-8, quotes and backslashes inside
fields, lines at the length bound, odd zones and impossible times)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

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


def same_reading(chunks: Sequence[bytes], format: Optional[str]) -> None:
    """The new reader, with and without ``keep``, against the reference."""
    old = old_logs.LogReader(format, max_line=BOUND)  # type: ignore[arg-type]
    expected = [tuple(r) for r in old.read_chunks(iter(chunks), "log")]
    new = LogReader(format, max_line=BOUND)  # type: ignore[arg-type]
    assert [tuple(r) for r in new.read_chunks(iter(chunks), "log")] == expected
    assert tally(new) == tally(old)
    assert new.tally.passed == 0
    kept = LogReader(format, max_line=BOUND, keep=keep)  # type: ignore[arg-type]
    got = [tuple(r) for r in kept.read_chunks(iter(chunks), "log")]
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

    def read(clf_time: Any) -> Any:
        try:
            found: datetime.datetime = clf_time(text)
        except ValueError:
            return "unparsable"
        return found, found.utcoffset()

    expected = read(old_formats._clf_time)
    assert read(_formats.clf_time) == expected
    assert read(_formats.clf_time) == expected  # again: the hour and the clock remembered
