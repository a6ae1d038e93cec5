"""Bytes to per-line records to groups: the lenient robots.txt reader.

Theory of operation. The input is bytes (a ``str`` is encoded as UTF-8 first). It is cut
at ``max_bytes`` (SPEC D4: Google ignores content past 500 KiB), a UTF-8 byte-order mark
(or any prefix of one) at the very start is skipped, and the rest is decoded as latin-1 so
that every character stands for exactly one octet: nothing can fail to decode, and
patterns can be percent-encoded octet by octet as Google does.

:func:`scan` splits the text into physical lines (LF, CR or CRLF; RFC 9309 §2.2) and reads
each one into a record — line number, key, value, and the leniencies used — following the
grammar below. :func:`build` walks the records once and assembles groups (RFC 9309 §2.1):
a ``user-agent`` line opens a group unless the current group has no rule yet, in which
case the agent joins it; ``allow``/``disallow`` lines before any ``user-agent`` belong to
no group and are ignored; no other line ends a group. Both the matcher and the per-line
report (lint, explain) consume the same records, so they cannot disagree.

Line grammar, as Google's library reads it::

    line    = [ key ( ":" | missing-colon ) value ] [ "#" comment ]
    key     = any text up to the first ":"  (whitespace around key and value is dropped)
    missing-colon = exactly two whitespace-separated words, e.g. "Disallow /x"

A line is cut at its first NUL and after 16,663 octets (Google: 2083 × 8 - 1). Keys match
case-insensitively by *prefix* (``Disallowed:`` is a disallow), with a table of accepted
typos; see :data:`KEY_PREFIXES`.
"""

from __future__ import annotations

import math
import re
from typing import Dict, Iterator, List, NamedTuple, Optional, Tuple

from .agents import file_agent_token
from .model import Group, Line, RequestRate, Rule
from .urls import normalize_escapes

__all__ = ["KEY_PREFIXES", "EXTRA_KEYS", "MAX_LINE_BYTES", "Parsed", "build", "decode", "scan"]

MAX_LINE_BYTES = 16663
"""Octets kept of one line; the rest is ignored (Google: ``kMaxLineLen`` = 2083 × 8, less one)."""

# Leniency: keys are recognised by case-insensitive prefix; the second column marks the
# typos Google accepts. Checked in this order (user-agent first, as Google does).
KEY_PREFIXES: Tuple[Tuple[str, str, bool], ...] = (
    ("user-agent", "user-agent", False),
    ("useragent", "user-agent", True),
    ("user agent", "user-agent", True),
    ("allow", "allow", False),
    ("disallow", "disallow", False),
    ("dissallow", "disallow", True),
    ("dissalow", "disallow", True),
    ("disalow", "disallow", True),
    ("diasllow", "disallow", True),
    ("disallaw", "disallow", True),
    ("sitemap", "sitemap", False),
    ("site-map", "sitemap", True),
)

# Non-standard extras, matched case-insensitively and whole ("_" or " " may stand for "-").
EXTRA_KEYS: Dict[str, str] = {
    "crawl-delay": "crawl-delay",
    "crawldelay": "crawl-delay",
    "request-rate": "request-rate",
    "requestrate": "request-rate",
    "host": "host",
}

_SPACE = " \t\n\v\f\r"  # C isspace()
_BOM = "\xef\xbb\xbf"
_REQUEST_RATE = re.compile(r"(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*([smhd]?)\b", re.IGNORECASE)
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


class Record(NamedTuple):
    """One physical line as :func:`scan` reads it (values still latin-1 octets)."""

    number: int
    raw: str
    key: Optional[str]
    key_text: str
    value: str
    comment: str
    typo: bool
    missing_colon: bool
    truncated: bool
    kind: str
    """For a line without a key: ``"blank"``, ``"comment"`` or ``"invalid"``; else ``""``."""


def decode(content: bytes | str, max_bytes: Optional[int]) -> Tuple[str, bytes, bool]:
    """Cut ``content`` at ``max_bytes``, skip a BOM; return (octet text, kept bytes, was cut)."""
    data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else bytes(content)
    cut = max_bytes is not None and len(data) > max_bytes
    if cut:
        data = data[: max(max_bytes or 0, 0)]
    text = data.decode("latin-1")
    # Google-specific: skip the longest prefix of the body that is a prefix of the UTF-8 BOM.
    skip = 0
    while skip < 3 and skip < len(text) and text[skip] == _BOM[skip]:
        skip += 1
    return text[skip:], data, cut


def display(octets: str) -> str:
    """Latin-1 octet text as the UTF-8 text it was written in (invalid octets as U+FFFD)."""
    if octets.isascii():
        return octets
    return octets.encode("latin-1").decode("utf-8", "replace")


def _classify(key: str) -> Tuple[str, bool]:
    head = key[:10].lower()
    for prefix, name, typo in KEY_PREFIXES:
        if head.startswith(prefix):
            return name, typo
    name = EXTRA_KEYS.get(key.lower().replace("_", "-").replace(" ", "-")) if len(key) <= 13 else None
    return (name or "unknown"), False


def scan(text: str) -> Iterator[Record]:
    """Read octet text (see :func:`decode`) into one :class:`Record` per physical line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, 1):
        line = raw
        truncated = len(line) > MAX_LINE_BYTES
        if truncated:
            line = line[:MAX_LINE_BYTES]
        nul = line.find("\x00")
        if nul >= 0:
            line = line[:nul]
        comment = ""
        hash_at = line.find("#")
        if hash_at >= 0:
            comment = line[hash_at + 1 :]
            line = line[:hash_at]
        line = line.strip(_SPACE)
        if not line:
            kind = "comment" if hash_at >= 0 else "blank"
            yield Record(number, raw, None, "", "", comment, False, False, truncated, kind)
            continue
        missing_colon = False
        sep = line.find(":")
        if sep < 0:
            # Leniency: "Disallow /x" — whitespace instead of the colon, if exactly two words.
            space, tab = line.find(" "), line.find("\t")
            sep = space if tab < 0 or 0 <= space < tab else tab
            if sep < 0 or " " in line[sep:].lstrip(" \t") or "\t" in line[sep:].lstrip(" \t"):
                yield Record(number, raw, None, "", "", comment, False, False, truncated, "invalid")
                continue
            missing_colon = True
        key_text = line[:sep].strip(_SPACE)
        if not key_text:
            yield Record(number, raw, None, "", "", comment, False, False, truncated, "invalid")
            continue
        key, typo = _classify(key_text)
        value = line[sep + 1 :].strip(_SPACE)
        yield Record(number, raw, key, key_text, value, comment, typo, missing_colon, truncated, "")


def _crawl_delay(value: str) -> Optional[float]:
    words = value.split()
    try:
        delay = float(words[0].rstrip("sS")) if words else math.nan
    except ValueError:
        return None
    return delay if math.isfinite(delay) and delay >= 0 else None


def _request_rate(value: str) -> Optional[RequestRate]:
    match = _REQUEST_RATE.match(value)
    if match is None:
        return None
    requests, span, unit = match.groups()
    seconds = float(span) * _UNIT[unit.lower()]
    if int(requests) <= 0 or seconds <= 0:
        return None
    return RequestRate(int(requests), seconds)


class Parsed(NamedTuple):
    """What :func:`build` returns."""

    groups: Tuple[Group, ...]
    sitemaps: Tuple[str, ...]
    hosts: Tuple[str, ...]
    lines: Optional[Tuple[Line, ...]]


class _Open:
    """The group being assembled."""

    __slots__ = ("agent_lines", "agents", "values", "rules", "crawl_delay", "request_rate")

    def __init__(self) -> None:
        self.agent_lines: List[int] = []
        self.agents: List[str] = []
        self.values: List[str] = []
        self.rules: List[Rule] = []
        self.crawl_delay: Optional[float] = None
        self.request_rate: Optional[RequestRate] = None

    def close(self) -> Group:
        return Group(
            self.agent_lines[0],
            tuple(self.agent_lines),
            tuple(self.agents),
            tuple(self.values),
            tuple(self.rules),
            self.crawl_delay,
            self.request_rate,
        )


def build(text: str, want_lines: bool = False) -> Parsed:
    """Assemble groups, sitemaps and hosts from octet text; optionally the per-line report."""
    groups: List[Group] = []
    sitemaps: List[str] = []
    hosts: List[str] = []
    report: Optional[List[Line]] = [] if want_lines else None
    group: Optional[_Open] = None
    for rec in scan(text):
        key = rec.key
        reason: Optional[str] = None
        if key == "allow" or key == "disallow":
            if group is None:
                reason = "outside-group"  # RFC 9309 §2.2.2: rules need a user-agent first
            else:
                value = rec.value
                pattern = value if value.isascii() and "%" not in value else normalize_escapes(value)
                group.rules.append(Rule(key, pattern, display(value), rec.number))
        elif key == "user-agent":
            if group is None or group.rules:
                if group is not None:
                    groups.append(group.close())
                group = _Open()
            group.agent_lines.append(rec.number)
            group.agents.append(file_agent_token(rec.value))
            group.values.append(display(rec.value))
        elif key == "sitemap":
            if rec.value:
                sitemaps.append(display(rec.value))
            else:
                reason = "empty-value"
        elif key == "crawl-delay":
            delay = _crawl_delay(rec.value)
            if group is None:
                reason = "outside-group"
            elif delay is None:
                reason = "bad-value"
            elif group.crawl_delay is None:
                group.crawl_delay = delay
            else:
                reason = "duplicate"
        elif key == "request-rate":
            rate = _request_rate(rec.value)
            if group is None:
                reason = "outside-group"
            elif rate is None:
                reason = "bad-value"
            elif group.request_rate is None:
                group.request_rate = rate
            else:
                reason = "duplicate"
        elif key == "host":
            if rec.value:
                hosts.append(display(rec.value))
            else:
                reason = "empty-value"
        elif key == "unknown":
            reason = "unknown-key"
        else:
            reason = rec.kind
        if report is not None:
            report.append(
                Line(
                    rec.number,
                    display(rec.raw),
                    None if key is None else key,
                    display(rec.key_text),
                    display(rec.value),
                    display(rec.comment),
                    rec.typo,
                    rec.missing_colon,
                    rec.truncated,
                    reason is None,
                    reason,
                )
            )
    if group is not None:
        groups.append(group.close())
    return Parsed(
        tuple(groups), tuple(sitemaps), tuple(hosts), None if report is None else tuple(report)
    )
