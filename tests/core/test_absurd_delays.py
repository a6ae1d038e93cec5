"""Absurd ``Crawl-delay`` and ``Request-rate`` values (issue 33): one rule for all of them.

A delay above 365 days (``_parser.MAX_DELAY``), however it is written (a 23-digit integer,
``1e309`` that overflows a float, 400 digits), is read as 365 days; a rate slower than one
request in 365 days as ``1/31536000``; more than 10**9 requests as 10**9. Real values (a
week, the longest in the corpus) are read as written. Before, ``1e309`` was
ignored (a crawler went at full speed), ``99999999999999999999999`` read as 1e23 seconds,
and a 400-digit value raised ``OverflowError`` while parsing (content must never raise).
Lint R407 names each capped line. Google's library reads neither field, so verdicts are
untouched (the oracle comparison stays exact).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import robotsrules
from robotsrules._fetch._pacing import delay_for
from robotsrules.cli import main
from robotsrules.model import RequestRate
from robotsrules.robotparser import RobotFileParser

DAY = 86400.0
CAP = 365 * DAY
HUGE = "9" * 400


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
@pytest.mark.parametrize("value", ["99999999999999999999999", HUGE, "31536001", "100000000"])
def test_huge_integer_delays_are_one_day(mode: str, value: str) -> None:
    robots = robotsrules.parse(f"User-agent: *\nCrawl-delay: {value}\nDisallow: /x\n".encode(),
                               mode=mode)
    assert robots.crawl_delay("bot") == CAP
    assert robots.allowed("/x", agent="bot") is False and robots.allowed("/y", agent="bot")


@pytest.mark.parametrize("mode", ["google", "rfc"])
@pytest.mark.parametrize("value", ["1e309", "1e23", "-0", "604800", "31536000.5s",
                                   "1E8 seconds"])
def test_numbers_written_with_an_exponent(mode: str, value: str) -> None:
    expected = {"1e309": CAP, "1e23": CAP, "-0": 0.0, "604800": 7 * DAY,
                "31536000.5s": CAP, "1E8 seconds": CAP}[value]
    robots = robotsrules.parse(f"User-agent: *\nCrawl-delay: {value}\n".encode(), mode=mode)
    assert robots.crawl_delay("bot") == expected


@pytest.mark.parametrize("value", ["inf", "infinity", "nan", "-1", "-1e309", "soon"])
def test_words_and_negative_numbers_stay_invalid(value: str) -> None:
    body = f"User-agent: *\nCrawl-delay: {value}\n".encode()
    assert robotsrules.parse(body).crawl_delay("bot") is None
    assert [d.code for d in robotsrules.lint(body) if d.code.startswith("R40")] == ["R401"]


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
def test_request_rates(mode: str) -> None:
    def rate(value: str) -> object:
        body = f"User-agent: *\nRequest-rate: {value}\n".encode()
        return robotsrules.parse(body, mode=mode).request_rate("bot")

    assert rate(f"1/{HUGE}") == RequestRate(1, CAP)
    assert rate("1/99999999999999999999999") == RequestRate(1, CAP)
    assert rate("3/94608001") == RequestRate(1, CAP)
    assert rate("3/94608000") == RequestRate(3, 3 * CAP)  # exactly the cap per request: kept
    assert rate("1/604800") == RequestRate(1, 7 * DAY)
    assert rate(f"{HUGE}/1") == RequestRate(1_000_000_000, 1.0)  # parsing no longer raises
    assert rate("2/10") == RequestRate(2, 10.0)
    if mode != "legacy":
        assert rate("1/1e309") is None  # not N/T: invalid, as before
        assert rate("1/1000d") == RequestRate(1, CAP)
        assert rate("1/" + "9" * 400 + "h") == RequestRate(1, CAP)


def test_the_slowest_value_of_an_agent_still_counts() -> None:
    robots = robotsrules.parse(b"User-agent: a\nCrawl-delay: 1e309\nCrawl-delay: 5\n"
                               b"Request-rate: 1/5\nRequest-rate: 1/1000000\n")
    assert robots.crawl_delay("a") == CAP
    assert robots.request_rate("a") == RequestRate(1, 1000000.0)
    assert delay_for(robots, "a", limit=30.0) == 30.0  # the integrations' own cap still applies
    assert delay_for(robots, "a", limit=float("inf")) == CAP


def test_robotparser_dropin() -> None:
    parser = RobotFileParser()
    parser.parse(["User-agent: *", "Crawl-delay: 1e309", f"Request-rate: 1/{HUGE}"])
    assert parser.crawl_delay("bot") == CAP
    rate = parser.request_rate("bot")
    assert rate is not None and (rate.requests, rate.seconds) == (1, CAP)


def test_lint_names_each_capped_line(tmp_path: Path) -> None:
    body = (f"User-agent: *\nCrawl-delay: 1e309\nRequest-rate: 1/{HUGE}\nCrawl-delay: 5\n"
            f"Request-rate: {HUGE}/1\nDisallow: /\n").encode()
    found = [(d.code, d.line) for d in robotsrules.lint(body) if d.code in ("R401", "R407")]
    assert found == [("R407", 2), ("R407", 3), ("R407", 5)]
    message = next(d.message for d in robotsrules.lint(body) if d.line == 2)
    assert "read as `31536000` seconds" in message
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    out = io.StringIO()
    main(["lint", "--json", str(path)], out=out)
    codes = [d["code"] for d in json.loads(out.getvalue())["diagnostics"]]
    assert codes.count("R407") == 3 and "R401" not in codes


# -- issue 33 review: values past int()'s 4,300-digit limit, and written units ------------

OVER_INT_LIMIT = "9" * 5000  # int() refuses more than 4,300 digits


@pytest.mark.parametrize("mode", ["google", "rfc", "legacy"])
def test_a_count_past_ints_digit_limit_is_capped_not_a_crash(mode: str) -> None:
    body = (f"User-agent: *\nDisallow: /private\nRequest-rate: {OVER_INT_LIMIT}/1\n"
            f"Crawl-delay: {OVER_INT_LIMIT}\n").encode()
    robots = robotsrules.parse(body, mode=mode)
    assert robots.request_rate("bot") == RequestRate(1_000_000_000, 1.0)
    assert robots.crawl_delay("bot") == CAP
    assert robots.allowed("/private", agent="bot") is False
    legacy_rate = robotsrules.parse(f"User-agent: *\nRequest-rate: 1/{OVER_INT_LIMIT}\n",
                                    mode=mode).request_rate("bot")
    assert legacy_rate == RequestRate(1, CAP)


def test_a_count_past_ints_digit_limit_through_lint_and_the_cli(tmp_path: Path) -> None:
    body = (f"User-agent: *\nDisallow: /private\nRequest-rate: {OVER_INT_LIMIT}/1\n"
            f"Content-Usage: train-ai=n\n").encode()
    assert [d.code for d in robotsrules.lint(body) if d.code == "R407"] == ["R407"]
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    out = io.StringIO()
    assert main(["check", str(path), "https://ex.com/private", "--agent", "bot"], out=out) == 1
    out = io.StringIO()
    main(["lint", "--json", str(path)], out=out)
    assert "R407" in [d["code"] for d in json.loads(out.getvalue())["diagnostics"]]
    out = io.StringIO()
    assert main(["usage", "--json", str(path), "--agent", "bot", "/x"], out=out) == 0
    assert "train-ai" in out.getvalue()


def test_a_count_past_ints_digit_limit_through_bulk(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pacsv = pytest.importorskip("pyarrow.csv")
    robots = tmp_path / "robots.csv"
    robots.write_text('url,body\nhttps://ex.com/robots.txt,"User-agent: *\nDisallow: /private\n'
                      f'Request-rate: {OVER_INT_LIMIT}/1\n"\n')
    urls = tmp_path / "urls.txt"
    urls.write_text("https://ex.com/private\nhttps://ex.com/open\n")
    out = tmp_path / "v.csv"
    assert main(["bulk", "--robots", str(robots), "--urls", str(urls), "--out", str(out),
                 "--agent", "bot"], out=io.StringIO()) == 0
    rows = {row["url"]: row["allowed"] for row in pacsv.read_csv(out).to_pylist()}
    assert rows == {"https://ex.com/private": False, "https://ex.com/open": True}


@pytest.mark.parametrize("mode", ["google", "rfc"])
@pytest.mark.parametrize(("value", "seconds"), [
    ("1,5", 1.5), ("2m", 120.0), ("5sec", 5.0), ("5 seconds", 5.0), ("1.5h", 5400.0),
    ("1d", DAY), ("2 min", 120.0), ("+5", 5.0), ("1,500", 1500.0), ("10 fish", 10.0),
    ("3 weeks", 21 * DAY), ("10", 10.0), ("-0", 0.0),
])
def test_decimal_commas_and_units_are_read_never_shorter(mode: str, value: str,
                                                        seconds: float) -> None:
    robots = robotsrules.parse(f"User-agent: *\nCrawl-delay: {value}\n".encode(), mode=mode)
    assert robots.crawl_delay("bot") == seconds


@pytest.mark.parametrize("value", ["5x", "500ms", "1_0", "0x10", "1.5.5", "-5m", "5s0"])
def test_other_crawl_delay_forms_stay_invalid(value: str) -> None:
    body = f"User-agent: *\nCrawl-delay: {value}\n".encode()
    assert robotsrules.parse(body).crawl_delay("bot") is None
    assert "R401" in [d.code for d in robotsrules.lint(body)]
