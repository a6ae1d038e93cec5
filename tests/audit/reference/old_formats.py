"""The Apache/nginx line parser and its time reading as they were (commit 5805bb3), over
the library's unchanged parts: the other formats' parsers, the patterns, the helpers."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Optional, Union

from robotsrules._audit import _formats as live
from robotsrules._audit._formats import (
    _MONTHS,
    _UTC,
    Clf,
    FormatName,
    Outcome,
    Parser,
    Request,
    _dash,
    _last_address,
    _request_line,
    _TimeError,
    _unescape,
)

__all__ = ["OldClf", "_TimeError", "_clf_time", "make_parser"]

_ZONES: dict[str, datetime.tzinfo] = {}


def _clf_time(text: str) -> datetime.datetime:
    """``10/Oct/2000:13:55:36 -0700``, exactly, every field read at every call."""
    if len(text) != 26 or text[2] != "/" or text[6] != "/" or text[11] != ":" \
            or text[14] != ":" or text[17] != ":" or text[20] != " " or text[21] not in "+-":
        raise _TimeError(text)
    month = _MONTHS.get(text[3:6])
    digits = text[0:2] + text[7:11] + text[12:14] + text[15:17] + text[18:20] + text[22:26]
    if month is None or not digits.isdigit() or not digits.isascii():
        raise _TimeError(text)
    zone = _ZONES.get(text[21:])
    if zone is None:
        hours, minutes = int(text[22:24]), int(text[24:26])
        if minutes > 59 or hours > 23:
            raise _TimeError(text)
        offset = datetime.timedelta(hours=hours, minutes=minutes)
        zone = _ZONES.setdefault(text[21:], datetime.timezone(
            -offset if text[21] == "-" else offset))
    second = int(text[18:20])
    if second == 60:  # a leap second is read as :59
        second = 59
    try:
        local = datetime.datetime(int(text[7:11]), month, int(text[0:2]), int(text[12:14]),
                                  int(text[15:17]), second, tzinfo=zone)
        return local.astimezone(_UTC)
    except (ValueError, OverflowError) as error:  # year 1 east of UTC, 9999 west of it
        raise _TimeError(text) from error


class OldClf:
    """The common and combined lines, every field of every line read (the library's
    one-line pattern, held rather than inherited: the compiled build's ``Clf`` is a native
    class, which an interpreted one cannot subclass)."""

    def __init__(self, vhost: bool, combined: bool) -> None:
        self.vhost = vhost
        self.combined = combined
        self.pattern = Clf(vhost, combined).pattern
        self._last: tuple[str, datetime.datetime] = ("", datetime.datetime.min)

    def parse(self, line: str, keep: object = None) -> Outcome:
        match = self.pattern.match(line)
        if match is None:
            return "malformed"
        groups = match.groups()
        if groups[4] == self._last[0]:  # consecutive lines mostly share their second
            when = self._last[1]
        else:
            try:
                when = _clf_time(groups[4])
            except _TimeError:
                return "unparsable_time"
            self._last = (groups[4], when)
        method, target = _request_line(_unescape(groups[5], url=True))
        host = None
        if self.vhost:
            host = groups[0]
            if ":" in host and not host.startswith("["):
                host = host.rpartition(":")[0]
            host = _dash(host)
        referer = agent = forwarded = None
        if self.combined:
            referer = _dash(_unescape(groups[8]))
            agent = _dash(_unescape(groups[9]))
            forwarded = _last_address(_unescape(groups[10]) if groups[10] is not None else None)
        status, size = groups[6], groups[7]  # ASCII digits or "-", by the pattern
        return Request(when, _dash(groups[1]), method, target, host,
                       None if status == "-" else int(status),
                       None if size == "-" else int(size), referer, agent, forwarded)


def make_parser(name: FormatName, fields: Optional[Mapping[str, str]] = None
                ) -> Union[Parser, OldClf]:
    """The old Apache/nginx parser for those four formats, the library's for the others."""
    if name in ("common", "combined", "vhost_common", "vhost_combined"):
        return OldClf(vhost=name.startswith("vhost"), combined=name.endswith("combined"))
    return live.make_parser(name, fields)
