"""``unavailable_after`` in the further date forms Google accepts (issue 33).

Google Search Central ("Robots meta tag, data-nosnippet, and X-Robots-Tag
specifications"): "The date/time must be specified in a widely adopted format including,
but not limited to RFC 822, RFC 850, and ISO 8601. The rule is ignored if no valid
date/time is specified." Dates written with a month name (``June 25, 2010``,
``25-Jun-2010``) were not read, so a page past its date stayed indexable. They are read
strictly by the one date reader (``robotsrules._dates``); a text that is not a valid date
is still ignored (and reported ``valid=False``), never guessed later than written.
"""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path
from typing import Optional

import pytest

from robotsrules import page_signals
from robotsrules._dates import read_date
from robotsrules.cli import main

UTC = datetime.timezone.utc
AFTER = datetime.datetime(2010, 6, 26, tzinfo=UTC)
BEFORE = datetime.datetime(2010, 6, 24, tzinfo=UTC)


def _at(*parts: int, hours: int = 0) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=datetime.timezone(datetime.timedelta(hours=hours)))


FORMS = [
    ("June 25, 2010", _at(2010, 6, 25)),
    ("Jun 25, 2010", _at(2010, 6, 25)),
    ("Jun 25 2010", _at(2010, 6, 25)),
    ("Jun. 25th, 2010", _at(2010, 6, 25)),
    ("Friday, June 25, 2010", _at(2010, 6, 25)),
    ("25 June 2010", _at(2010, 6, 25)),
    ("25-Jun-2010", _at(2010, 6, 25)),
    ("25-jun-10", _at(2010, 6, 25)),
    ("25-Jun-2010 15:00:00 EST", _at(2010, 6, 25, 15, hours=-5)),
    ("June 25, 2010 3:00 PM PST", _at(2010, 6, 25, 15, hours=-8)),
    ("June 25, 2010 12:30 am", _at(2010, 6, 25, 0, 30)),
    ("25 Jun 2010 15:00 +0200", _at(2010, 6, 25, 15, hours=2)),
    ("25 Jun 2010 15:00 CET", _at(2010, 6, 25, 15, hours=14)),  # unknown zone: the earliest
    # Forms read before, unchanged.
    ("25 Jun 2010 15:00:00 PST", _at(2010, 6, 25, 15, hours=-8)),
    ("Friday, 25-Jun-10 15:00:00 PST", _at(2010, 6, 25, 15, hours=-8)),
    ("Sun Nov  6 08:49:37 1994", _at(1994, 11, 6, 8, 49, 37)),
    ("2010-06-25", _at(2010, 6, 25)),
]
NOT_DATES = ["June 31, 2010", "Juno 25, 2010", "June 25, 2010 13:00 PM", "25-Jun 2010",
             "June 25", "25/06/2010 soon", "June 25, 2010 25:00"]


@pytest.mark.parametrize("text, expected", FORMS)
def test_the_date_reader(text: str, expected: datetime.datetime) -> None:
    assert read_date(text) == expected
    assert read_date(text.upper()) == expected


@pytest.mark.parametrize("text", NOT_DATES)
def test_not_dates(text: str) -> None:
    assert read_date(text) is None


@pytest.mark.parametrize("text, expected", FORMS[:13])
def test_header_and_meta(text: str, expected: datetime.datetime) -> None:
    for headers, html in ((
            {"X-Robots-Tag": f"nofollow, unavailable_after: {text}, nosnippet"}, None),
            (None, f'<meta name="robots" content="unavailable_after: {text}">')):
        after = page_signals(headers, html, agent="Googlebot", now=AFTER)
        assert after.unavailable_after == expected and after.expired is True
        assert after.index is False and after.allows("search") is False
        before = page_signals(headers, html, agent="Googlebot", now=BEFORE)
        assert before.expired is False and before.index is True


@pytest.mark.parametrize("text", NOT_DATES)
def test_an_invalid_date_is_ignored_and_reported(text: str) -> None:
    signals = page_signals({"X-Robots-Tag": f"unavailable_after: {text}"}, None,
                           agent="Googlebot", now=AFTER)
    assert signals.unavailable_after is None and signals.index is True
    found = [d for d in signals.directives if d.rule == "unavailable_after"]
    assert [d.valid for d in found] == [False]


def _page(tmp_path: Path, value: str) -> Optional[str]:
    saved = tmp_path / "response.http"
    saved.write_bytes(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                      + f"X-Robots-Tag: unavailable_after: {value}\r\n\r\n".encode()
                      + b"<html><head></head></html>")
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "Googlebot", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["index"] is False and data["expired"] is True  # 2010 is long past
    return data["unavailable_after"]  # type: ignore[no-any-return]


def test_cli_page(tmp_path: Path) -> None:
    assert _page(tmp_path, "June 25, 2010") == "2010-06-25T00:00:00+00:00"
    assert _page(tmp_path, "25-Jun-2010 15:00:00 EST") == "2010-06-25T15:00:00-05:00"


def test_warc_rows_judged_at_the_capture_date(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    warcio = pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders

    from robotsrules.warc import page_table

    path = tmp_path / "pages.warc.gz"
    with open(path, "wb") as handle:
        writer = warcio.warcwriter.WARCWriter(handle, gzip=True)
        for name, date in (("before", "2010-06-24T00:00:00Z"), ("after", "2010-06-26T00:00:00Z")):
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html"),
                                               ("X-Robots-Tag", "unavailable_after: June 25, 2010")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                f"https://a.example/{name}", "response",
                payload=io.BytesIO(b"<html><head></head></html>"), http_headers=http,
                warc_headers_dict={"WARC-Date": date}))
    table = page_table([str(path)], agents=["Googlebot"], purposes=["search"])
    rows = {r["url"].rsplit("/", 1)[1]: (r["index"], r["search"]) for r in table.to_pylist()}
    assert rows == {"before": (True, None), "after": (False, False)}


# -- issue 33 review: email.utils only for asctime; unknown zones, ±hh and leap seconds ----

EARLIER_FORMS = [
    # email.utils read these as UTC (later than written): any other zone name is UTC+14.
    ("June 25, 2010 15:00 AEST", _at(2010, 6, 25, 15, hours=14)),
    ("25 Jun 2010 15:00:00 CEST", _at(2010, 6, 25, 15, hours=14)),
    ("Fri, 25 Jun 2010 15:00:00 NZDT", _at(2010, 6, 25, 15, hours=14)),
    ("Fri, 25 Jun 2010 15:00:00 GMT+10", _at(2010, 6, 25, 15, hours=14)),
    ("25 Jun 2010 15:00 EST5EDT", _at(2010, 6, 25, 15, hours=14)),
    ("Thu Jun 24 15:00:00 2010 CEST", _at(2010, 6, 24, 15, hours=14)),
    # "+10" is hours (email.utils: ten minutes).
    ("Jun 25 2010 15:00 +10", _at(2010, 6, 25, 15, hours=10)),
    ("Fri, 25 Jun 2010 15:00:00 +1000 (AEST)", _at(2010, 6, 25, 15, hours=10)),
    # A leap second (RFC 3339 (July 2002) §5.6) is read as :59, no longer "no date".
    ("2016-12-31T23:59:60Z", _at(2016, 12, 31, 23, 59, 59)),
    ("December 31, 2016 23:59:60 GMT", _at(2016, 12, 31, 23, 59, 59)),
    ("Sat Dec 31 23:59:60 2016", _at(2016, 12, 31, 23, 59, 59)),
    # Unchanged.
    ("Sun, 06 Nov 1994 08:49:37 GMT", _at(1994, 11, 6, 8, 49, 37)),
    ("Sun Nov  6 08:49:37 1994", _at(1994, 11, 6, 8, 49, 37)),
]


@pytest.mark.parametrize("text, expected", EARLIER_FORMS)
def test_never_read_later_than_written(text: str, expected: datetime.datetime) -> None:
    assert read_date(text) == expected
    now = expected + datetime.timedelta(seconds=1)
    signals = page_signals({"X-Robots-Tag": f"unavailable_after: {text}"}, None,
                           agent="Googlebot", now=now)
    assert signals.unavailable_after == expected and signals.expired is True


def test_am_pm_outside_the_written_forms_is_no_date() -> None:
    # email.utils dropped the PM: 3:00 read as 03:00.
    assert read_date("Thu Jun 24 3:00:00 PM 2010") is None
    assert read_date("June 25, 2010 3:00 PM CEST") == _at(2010, 6, 25, 15, hours=14)
