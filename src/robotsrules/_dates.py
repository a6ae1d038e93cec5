"""The one date reader: ISO 8601 and RFC 822/850 text, and date/datetime values.

Dates come from strangers in three places, and are read the same way in all of them: the
``date`` columns of bulk tables (:mod:`robotsrules.bulk`: which capture is newest, which
was in force), ``WARC-Date`` headers (:mod:`robotsrules.warc`: ISO 8601 with up to nine
fraction digits, ISO 28500 §5.4) and ``unavailable_after`` page rules (the page layer:
"RFC 822, RFC 850, and ISO 8601", Google Search Central, robots meta tag specification).

* a ``datetime`` without a zone, and ISO text without one, is UTC; a ``date`` is its
  midnight, UTC;
* ISO 8601: ``YYYY-MM-DD``, then optionally ``T`` (or a space) and ``hh:mm[:ss[.f...]]``
  with any number of fraction digits (cut to microseconds), and a zone ``Z`` or
  ``±hh[[:]mm]``; other forms Python's ``datetime.fromisoformat`` reads are accepted too;
* dates written out with a month name, the "other widely adopted formats" Google accepts
  for ``unavailable_after`` (Google Search Central, "Robots meta tag, data-nosnippet, and
  X-Robots-Tag specifications"): ``June 25, 2010``, ``Jun 25 2010``, ``Friday, June 25,
  2010``, ``25 June 2010``, ``25-Jun-2010``, ``25-Jun-10`` (RFC 850's two-digit year: 69-99
  are 19xx, 00-68 20xx), each optionally followed by ``hh:mm[:ss]``, ``AM``/``PM`` and a
  zone (``Z``, ``UT``, ``GMT``, ``UTC``, the US zones of RFC 822 §5, ``±hh`` in hours,
  ``±hhmm``, ``±hh:mm``, optionally followed by a name; any other zone name, ``AEST``,
  ``CEST``, ``GMT+10``, ``EST5EDT`` included, is read as UTC+14, the earliest time the text
  can mean). Read strictly: the whole text must be one of these, with a real month name
  and a valid day and hour (``3:00 PM`` is 15:00, never 03:00). RFC 5322
  (``Sun, 06 Nov 1994 08:49:37 GMT``) and RFC 850 dates are among these forms;
* the asctime form (``Sun Nov  6 08:49:37 1994``, UTC; a zone name after it is read as
  above) is read by :func:`email.utils.parsedate_to_datetime`, and nothing else is: its
  lenient reading dropped ``AM``/``PM``, read unknown zones as UTC and ``+10`` as ten
  minutes, all later than written;
* a leap second (``23:59:60``, RFC 3339 (July 2002) §5.6) is read as ``:59``;
* text longer than 100 characters, or that none of these read, is no date (``None``):
  nothing here raises.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import datetime
import email.utils
import re
from typing import Any, Optional

__all__ = ["EARLIEST", "read_date", "utc"]

EARLIEST = datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)
"""The earliest time a date can stand for (where undated things sort)."""

_MAX_TEXT = 100
_ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?"
    r"\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?\Z")


_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
    "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
    "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11,
    "november": 11, "dec": 12, "december": 12,
}
# RFC 822 §5 (August 1982): the zones a written-out date may name, in hours from UTC.
_ZONES = {
    "z": 0, "ut": 0, "utc": 0, "gmt": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
    "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
}
_WRITTEN = re.compile(
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\.?,?[ 	]+)?"
    r"(?:(?P<month>[a-z]{3,9})\.?[ 	]+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?[ 	]+(?P<year>\d{4})"
    r"|(?P<day2>\d{1,2})(?P<sep>[- 	])[ 	]*(?P<month2>[a-z]{3,9})\.?(?P=sep)[ 	]*"
    r"(?P<year2>\d{4}|\d{2}))"
    r"(?:,?[ 	]+(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?"
    r"(?:[ 	]*(?P<half>[ap])\.?m\.?)?)?"
    r"(?:[ 	]*(?:(?P<zone>[a-z][a-z0-9+:-]*)"
    r"|(?P<offset>[+-]\d{2}(?::?\d{2})?)(?:[ 	]*\(?[a-z]+\)?)?))?\Z",
    re.IGNORECASE)
# What email.utils still reads: asctime (``Thu Jun 24 15:00:00 2010``, UTC) and nothing
# else; every other form with a month name is the written reader's.
_ASCTIME = re.compile(
    r"(?P<date>(?:mon|tue|wed|thu|fri|sat|sun)[ 	]+[a-z]{3}[ 	]+\d{1,2}[ 	]+\d{2}:\d{2}:\d{2}"
    r"[ 	]+\d{4})(?:[ 	]+(?P<zone>[a-z][a-z0-9+:-]*))?\Z",
    re.IGNORECASE)


def _written(text: str) -> Optional[datetime.datetime]:
    """A date written out with a month name (module docstring), or ``None``."""
    match = _WRITTEN.match(text)
    if match is None:
        return None
    found = match.groupdict()
    month = _MONTHS.get((found["month"] or found["month2"]).lower())
    year = int(found["year"] or found["year2"])
    if len(found["year2"] or "") == 2:
        year += 1900 if year > 68 else 2000
    hour = int(found["hour"] or 0)
    if found["half"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if found["half"].lower() == "p" else 0)
    zone = found["zone"]
    if month is None:
        return None
    if zone:
        # A zone name RFC 822 does not define (CET, AEST, GMT+10, EST5EDT...): the earliest
        # time the text can mean (UTC+14), so an unavailable_after is never read later than
        # its author meant.
        hours = _ZONES.get(zone.lower(), 14)
        offset: datetime.tzinfo = datetime.timezone(datetime.timedelta(hours=hours))
    else:
        offset = _zone(found["offset"])  # ±hh (hours), ±hhmm, ±hh:mm
    return datetime.datetime(year, month, int(found["day"] or found["day2"]), hour,
                             int(found["minute"] or 0), _second(found["second"]),
                             tzinfo=offset)


def _second(text: Optional[str]) -> int:
    """Seconds as written; a leap second ``60`` is read as ``59`` (RFC 3339 (July 2002)
    §5.6 allows it, Python's datetime does not): the instant it names, less a second."""
    second = int(text or 0)
    return 59 if second == 60 else second


def _zone(text: Optional[str]) -> datetime.tzinfo:
    if not text or text in "Zz":
        return datetime.timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return datetime.timezone(sign * datetime.timedelta(hours=int(digits[:2]),
                                                       minutes=int(digits[2:] or 0)))


def _text(text: str) -> Optional[datetime.datetime]:
    text = text.strip()
    if not text or len(text) > _MAX_TEXT:
        return None
    match = _ISO.match(text)
    try:
        if match is not None:
            year, month, day, hour, minute, second, fraction, zone = match.groups()
            micro = int((fraction + "000000")[:6]) if fraction else 0
            return datetime.datetime(int(year), int(month), int(day), int(hour or 0),
                                     int(minute or 0), _second(second), micro,
                                     tzinfo=_zone(zone))
        try:
            return datetime.datetime.fromisoformat(text)
        except ValueError:
            pass
        if _WRITTEN.match(text) is not None:
            return _written(text)
        asctime = _ASCTIME.match(text)
        if asctime is not None:
            written = asctime.group("date")
            if written.endswith(":60", 0, len(written) - 5):  # a leap second: read as :59
                written = written[:-8] + ":59" + written[-5:]
            when = email.utils.parsedate_to_datetime(written)
            zone = asctime.group("zone")
            hours = _ZONES.get(zone.lower(), 14) if zone else 0  # as for written dates
            return when.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=hours)))
        return None
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def read_date(value: Any) -> Optional[datetime.datetime]:
    """``value`` (text, ``date`` or ``datetime``) as an aware datetime in the zone it states
    (none stated: UTC), or ``None`` when it is not a date.

    >>> read_date("2024-03-01T10:00:00.123456789+02:00").isoformat()
    '2024-03-01T10:00:00.123456+02:00'
    >>> read_date("Sun, 06 Nov 1994 08:49:37 GMT").isoformat(), read_date("soon")
    ('1994-11-06T08:49:37+00:00', None)
    """
    if isinstance(value, str):
        value = _text(value)
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo is not None else value.replace(
            tzinfo=datetime.timezone.utc)
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day,
                                 tzinfo=datetime.timezone.utc)
    return None


def utc(value: Any) -> Optional[datetime.datetime]:
    """:func:`read_date` of ``value`` converted to UTC (``None`` also for a time that is
    before the calendar's start once in UTC, such as ``0001-01-01T00:00+05:00``).

    >>> utc("2024-03-01T02:00+02:00").isoformat(), utc(datetime.date(2024, 3, 1)).isoformat()
    ('2024-03-01T00:00:00+00:00', '2024-03-01T00:00:00+00:00')
    """
    when = read_date(value)
    if when is None:
        return None
    try:
        return when.astimezone(datetime.timezone.utc)
    except OverflowError:
        return None
