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
no group and are ignored; no other line ends a group. The per-line report (lint,
explain) and :attr:`RobotsTxt.groups` come from :func:`build`; :func:`robotsrules.parse`
itself reads only an *outline* (:mod:`robotsrules._rules._outline`: groups, agents and where their
rules are) and reads an agent's rules when it first asks, handing every line it is not
sure of to :func:`read_line` — so all readers share one line reader and cannot disagree.

Three group builders, each for a stated reason:

* :func:`build` is *the* grouping of RFC 9309 and Google, with every field and, on request,
  the per-line report; it is what lint, explain and :attr:`RobotsTxt.groups` read.
* :func:`robotsrules._rules._outline.outline` applies the same grouping rule but records only the
  agents and the span of text each group's rules sit in, so that a parse costs one pass of
  ``str.find`` over the user-agent lines; it exists for speed alone
  (``tests/core/test_outline.py`` checks on generated files and the corpus that its groups are
  exactly :func:`build`'s).
* :func:`robotsrules._rules._legacy.build` groups as the 1994 standard and ``urllib.robotparser``
  do, which is a different rule (a blank line ends a record, only exact keys count); it
  shares the line reader and :class:`OpenGroup` with :func:`build`.

Line grammar, as Google's library reads it::

    line    = [ key ( ":" | missing-colon ) value ] [ "#" comment ]
    key     = any text up to the first ":"  (whitespace around key and value is dropped)
    missing-colon = exactly two whitespace-separated words, e.g. "Disallow /x"

A line is cut at its first NUL and after 16,663 octets (Google: 2083 x 8 - 1). Keys match
case-insensitively by *prefix* (``Disallowed:`` is a disallow), with a table of accepted
typos; see :data:`KEY_PREFIXES`.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final, NamedTuple, Optional, Union

from ..model import Group, Line, Pace, RequestRate, Rule, UsageLine
from ._agents import SPACE, file_agent_token
from ._urls import normalize_escapes, text_octets, url_text
from ._usage import CONTENT_SIGNAL, CONTENT_USAGE, usage_line

__all__ = [
    "EXTRA_KEYS", "KEYS", "KEY_PREFIXES", "MAX_DELAY", "MAX_LINE_BYTES", "MAX_REQUESTS",
    "OpenGroup", "Parsed", "build", "capped_delay", "capped_rate", "crawl_delay_value",
    "decode", "request_rate_value", "scan", "slower_delay", "slower_rate",
]

MAX_LINE_BYTES: Final = 16663
"""Octets kept of one line; the rest is ignored (Google: ``kMaxLineLen`` = 2083 x 8, less one)."""

# Field names. The parser compares them by identity, so every key it produces is one of these.
ALLOW: Final = "allow"
DISALLOW: Final = "disallow"
USER_AGENT: Final = "user-agent"
SITEMAP: Final = "sitemap"
LICENSE: Final = "license"

# Leniency: keys are recognised by case-insensitive prefix; the second column marks the
# typos Google accepts. Checked in this order (user-agent first, as Google does).
KEY_PREFIXES: Final[tuple[tuple[str, str, bool], ...]] = (
    ("user-agent", USER_AGENT, False),
    ("useragent", USER_AGENT, True),
    ("user agent", USER_AGENT, True),
    ("allow", ALLOW, False),
    ("disallow", DISALLOW, False),
    ("dissallow", DISALLOW, True),
    ("dissalow", DISALLOW, True),
    ("disalow", DISALLOW, True),
    ("diasllow", DISALLOW, True),
    ("disallaw", DISALLOW, True),
    ("sitemap", SITEMAP, False),
    ("site-map", SITEMAP, True),
)

# Non-standard extras, matched case-insensitively and whole ("_" or " " may stand for "-").
EXTRA_KEYS: Final[dict[str, str]] = {
    "crawl-delay": "crawl-delay",
    "crawldelay": "crawl-delay",
    "request-rate": "request-rate",
    "requestrate": "request-rate",
    "host": "host",
    # RSL 1.0 (RSL-SPEC-1.0, 2025-11-06) §4.4: `License: <absolute URI>` names an RSL
    # licence document; read like Sitemap (never a verdict), kept with its line number.
    "license": LICENSE,
}

_BOM: Final = "\xef\xbb\xbf"
_REQUEST_RATE: Final = re.compile(r"(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*([smhd]?)\b",
                                  re.IGNORECASE | re.ASCII)
# A Crawl-delay value: a number (a decimal point or comma, an exponent), then optionally a
# unit, attached or as the next word; anything after a blank is not read (as before).
_CRAWL_DELAY: Final = re.compile(
    r"([+-]?)([0-9]+(?:([.,])([0-9]*))?|[.,][0-9]+)([eE][+-]?[0-9]+)?(?:([ \t]*)([A-Za-z]+))?"
    r"(?:\s|$)",
    re.ASCII)
_DELAY_UNIT: Final = {
    "": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400, "w": 604800, "week": 604800, "weeks": 604800,
}
# One match per line (text with LF line ends only): either a well-formed "key: value" line
# (key of letters and "-"; the value stops at "#" or NUL), or a blank or comment line, or
# anything else, flagged by its first character in the third group ("odd": read_line reads it).
_EACH_LINE: Final = re.compile(
    r"^(?:[ \t\v\f]*([A-Za-z\-]+)[ \t\v\f]*:[ \t\v\f]*((?:[^#\x00\n]*[^#\x00\n \t\v\f])?)"
    r"|[ \t\v\f]*(?:#|$)|(.))[^\n]*",
    re.MULTILINE,
)


class _KeyTable(dict[str, str]):
    """Key text as written before the colon (blanks around it and any case) -> field name,
    filled on first sight; bounded, so that a hostile file's spellings are not all kept."""

    def __missing__(self, key_text: str) -> str:
        name = classify_key(key_text.strip(SPACE))[0]
        if len(self) < 4096:
            self[key_text] = name
        return name


KEYS: Final = _KeyTable()
"""The key table shared by every reader (:func:`build`, :mod:`robotsrules._rules._outline`)."""
_UNIT: Final = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


class Record(NamedTuple):
    """One physical line as :func:`scan` reads it (values still latin-1 octets).

    Not :class:`~robotsrules.model.Line`, which has most of the same fields, on purpose:
    a record holds octet text (one character per octet, what patterns are built from) and
    is made for every odd line of every parse; a ``Line`` holds the same text decoded for
    display, with whether the line is used and why not, and is made only for the per-line
    report (lint, explain)."""

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


def decode(content: bytes | str, max_bytes: Optional[int]) -> tuple[str, bytes, bool]:
    """Cut ``content`` at ``max_bytes``, skip a BOM; return (octet text, kept bytes, was cut)."""
    data = text_octets(content) if isinstance(content, str) else bytes(content)
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


def classify_key(key: str) -> tuple[str, bool]:
    """The field a key (stripped) names, and whether Google accepted it as a typo."""
    head = key[:10].lower()
    for prefix, name, typo in KEY_PREFIXES:
        if head.startswith(prefix):
            return name, typo
    folded = key.lower().replace("_", "-").replace(" ", "-")
    extra = EXTRA_KEYS.get(folded)
    if extra is None and folded[:7] == "content":
        # AI usage preferences (robotsrules._rules._usage), read by prefix like Google's own keys:
        # "Content-Signals:" is a content-signal line (the linter says how to spell it).
        if folded.startswith(("content-signal", "contentsignal")):
            extra = CONTENT_SIGNAL
        elif folded.startswith(("content-usage", "contentusage")):
            extra = CONTENT_USAGE
    return (extra or "unknown"), False


def split_lines(text: str) -> list[str]:
    """Physical lines: LF, CR and CRLF each end a line (RFC 9309 §2.2; 1996 draft)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")



def read_line(number: int, raw: str, limits: bool = True) -> Record:
    """Read one physical line (octet text, no line break) the way Google's library does.

    ``limits=False`` drops Google's line limits (the cut after :data:`MAX_LINE_BYTES` and the
    NUL that ends a line), for readers that have none (legacy mode).
    """
    line = raw
    truncated = limits and len(line) > MAX_LINE_BYTES
    if truncated:
        line = line[:MAX_LINE_BYTES]
    nul = line.find("\x00") if limits else -1
    if nul >= 0:
        line = line[:nul]  # Google reads lines as C strings: a NUL ends the line
    comment = ""
    hash_at = line.find("#")
    if hash_at >= 0:
        comment = line[hash_at + 1 :]
        line = line[:hash_at]
    line = line.strip(SPACE)
    if not line:
        kind = "comment" if hash_at >= 0 else "blank"
        return Record(number, raw, None, "", "", comment, False, False, truncated, kind)
    missing_colon = False
    sep = line.find(":")
    if sep < 0:
        # Leniency: "Disallow /x" — whitespace instead of the colon, if exactly two words.
        space, tab = line.find(" "), line.find("\t")
        sep = space if tab < 0 or 0 <= space < tab else tab
        rest = line[sep:].lstrip(" \t")
        if sep < 0 or " " in rest or "\t" in rest:
            return Record(number, raw, None, "", "", comment, False, False, truncated, "invalid")
        missing_colon = True
    key_text = line[:sep].strip(SPACE)
    if not key_text:
        return Record(number, raw, None, "", "", comment, False, False, truncated, "invalid")
    key, typo = classify_key(key_text)
    value = line[sep + 1 :].strip(SPACE)
    return Record(number, raw, key, key_text, value, comment, typo, missing_colon, truncated, "")


def scan(text: str) -> Iterator[Record]:
    """Read octet text (see :func:`decode`) into one :class:`Record` per physical line."""
    for number, raw in enumerate(split_lines(text), 1):
        yield read_line(number, raw)


MAX_DELAY: Final = 365 * 86400
"""The longest wait read from ``Crawl-delay`` and ``Request-rate`` (seconds: 365 days). A
``Crawl-delay`` above it, written as a number (``99999999999999999999999``, ``1e309``, which
overflows a float), is read as 365 days; a ``Request-rate`` slower than one request in 365
days is read as ``1/31536000``. An absurd delay is the owner asking for a very slow crawl,
so it is capped rather than ignored (ignoring it would let a crawler go at full speed); the
cap is far above what real files ask (a week, 604800, is the longest in the test corpus),
so no sensible value is read shorter than written (SPEC §5), and it keeps every number
finite. Lint R407 reports the line."""

MAX_REQUESTS: Final = 1_000_000_000
"""The most requests read from a ``Request-rate`` (``N/T`` with a larger ``N`` is read as
this many in ``T``: slower than written, and no crawler comes near it)."""


def capped_delay(seconds: Union[int, float]) -> float:
    """``seconds`` (an int or a float, ``inf`` included), at most :data:`MAX_DELAY`. (The
    ``Union`` keeps a 400-digit int an int in the compiled build, where ``float`` would
    convert it at the call and overflow.)

    >>> capped_delay(10), capped_delay(10 ** 400), capped_delay(float("inf"))
    (10.0, 31536000.0, 31536000.0)
    """
    return float(seconds) if seconds <= MAX_DELAY else float(MAX_DELAY)


def capped_rate(requests: int, seconds: Union[int, float]) -> RequestRate:
    """The :class:`RequestRate` read from ``requests`` in ``seconds`` (ints or floats of
    any size): at most :data:`MAX_REQUESTS` requests, at most 365 days per request. A rate of
    no requests (``0/T``, which only legacy mode reads) keeps its zero.

    >>> capped_rate(1, 10 ** 30), capped_rate(10 ** 30, 1.0), capped_rate(2, 10.0)
    (RequestRate(requests=1, seconds=31536000.0), RequestRate(requests=1000000000, seconds=1.0), \
RequestRate(requests=2, seconds=10.0))
    """
    requests = min(requests, MAX_REQUESTS)
    if requests == 0:
        return RequestRate(0, capped_delay(seconds))
    if seconds > requests * MAX_DELAY:  # an exact comparison, whatever the sizes
        return RequestRate(1, float(MAX_DELAY))
    return RequestRate(requests, float(seconds))


def crawl_delay_value(value: str) -> tuple[Optional[float], bool]:
    """A ``Crawl-delay`` value read (``None`` if it is not a non-negative number of seconds),
    and whether it was capped at :data:`MAX_DELAY`.

    The number may have a decimal point or a decimal comma (``1,5`` is 1.5 seconds; ``1,500``,
    which may be a thousands separator, is read as the longer 1500) and an exponent, and be
    followed by a unit, attached or as the next word: ``s``/``sec``/``second(s)``,
    ``m``/``min``/``minute(s)``, ``h``/``hr``/``hour(s)``, ``d``/``day(s)``,
    ``w``/``week(s)``, so that no delay is read shorter than written. A word that is no unit
    is not read (``10 fish`` is 10 seconds, as before units were read); letters attached
    that are no unit (``5x``, ``500ms``) make the value invalid. A value of 5,000 digits is
    read as :data:`MAX_DELAY` (``float()`` has no digit limit; counts, which ``int()``
    reads, are bounded first).

    >>> crawl_delay_value("10s"), crawl_delay_value("1e309"), crawl_delay_value("inf")
    ((10.0, False), (31536000.0, True), (None, False))
    >>> crawl_delay_value("1,5"), crawl_delay_value("2m"), crawl_delay_value("5 sec")
    ((1.5, False), (120.0, False), (5.0, False))
    """
    match = _CRAWL_DELAY.match(value.strip(SPACE))
    if match is None:
        return None, False
    sign, number, comma, fraction, exponent, blank, unit = match.groups()
    scale = _DELAY_UNIT.get((unit or "").lower(), 0)
    if not scale:
        if not blank:  # "5x", "500ms": not a number of seconds
            return None, False
        scale = 1  # "10 fish": the number, in seconds, as before units were read
    written = number.replace(",", ".") + (exponent or "")
    delay = float(written)  # ASCII digits only: float() has no digit limit, and is linear
    if comma == "," and fraction is not None and len(fraction) == 3:
        # "1,500": a decimal comma or a thousands separator; the longer reading wins.
        delay = max(delay, float(number.replace(",", "") + (exponent or "")))
    if sign == "-" and delay:  # "-0" is zero; any other negative number is invalid
        return None, False
    delay = abs(delay) * scale
    capped = capped_delay(delay)
    return capped, capped != delay


def request_rate_value(value: str) -> tuple[Optional[RequestRate], bool]:
    """A ``Request-rate`` value read (``None`` if it is not ``N/T[s|m|h|d]`` with ``N`` and
    ``T`` above zero), and whether :func:`capped_rate` changed it.

    >>> request_rate_value("1/5s")
    (RequestRate(requests=1, seconds=5.0), False)
    >>> request_rate_value("1/1000d")
    (RequestRate(requests=1, seconds=31536000.0), True)
    """
    match = _REQUEST_RATE.match(value)
    if match is None:
        return None, False
    requests, span, unit = match.groups()
    digits = requests.lstrip("0")
    # Bounded before int() (which refuses more than 4,300 digits): any count above
    # MAX_REQUESTS reads as MAX_REQUESTS + 1, which capped_rate caps.
    count = int(digits or "0") if len(digits) <= 12 else MAX_REQUESTS + 1
    seconds = float(span) * _UNIT[unit.lower()]
    if count <= 0 or seconds <= 0:
        return None, False
    rate = capped_rate(count, seconds)
    return rate, rate != (count, seconds)


_EXTRA_VALUES: Final = ("crawl-delay", "request-rate")
_NO_LEAD: Final = Pace((), (), None, None)


class Parsed(NamedTuple):
    """What :func:`build` returns."""

    groups: tuple[Group, ...]
    sitemaps: tuple[str, ...]
    hosts: tuple[str, ...]
    lines: Optional[tuple[Line, ...]]
    lead: Pace = _NO_LEAD
    """``Crawl-delay``/``Request-rate`` written before the first ``user-agent`` line: what
    every crawler given no value of its own is asked (see :func:`build`)."""
    licenses: tuple[tuple[int, str], ...] = ()
    """``License`` lines (RSL 1.0 §4.4): (line number, URL as written), in file order."""


def slower_delay(old: Optional[float], new: float) -> float:
    """The slower of two ``Crawl-delay`` values (``old`` may be missing)."""
    return new if old is None or new > old else old


def slower_rate(old: Optional[RequestRate], new: RequestRate) -> RequestRate:
    """The slower of two ``Request-rate`` values: more seconds per request; on a tie, fewer
    requests at once (``1/5`` before ``2/10``); then the first written."""
    if old is None:
        return new
    if (new.interval, -new.requests) > (old.interval, -old.requests):
        return new
    return old


class OpenGroup:
    """The group being assembled, by :func:`build` and by the legacy reader
    (:func:`robotsrules._rules._legacy.build`, whose records are closed the same way).

    Besides Google's group it follows the *runs* of ``user-agent`` lines that
    ``Crawl-delay`` and ``Request-rate`` belong to (:class:`~robotsrules.model.Pace`): a run
    is the ``user-agent`` lines since the last rule or extra line; an extra line ends it
    (:meth:`add_delay`, :meth:`add_rate`), a ``user-agent`` line after that starts the next
    one (:meth:`end_run`, called by :func:`build`). A rule line needs no mark: a
    ``user-agent`` line after it opens a new group."""

    __slots__ = ("agent_lines", "agents", "crawl_delay", "paces", "request_rate", "rules",
                 "run_delay", "run_ended", "run_rate", "run_start", "usage", "values")

    def __init__(self) -> None:
        self.agent_lines: list[int] = []
        self.agents: list[str] = []
        self.values: list[str] = []
        self.rules: list[Rule] = []
        self.crawl_delay: Optional[float] = None
        self.request_rate: Optional[RequestRate] = None
        self.usage: list[UsageLine] = []
        self.paces: list[Pace] = []
        self.run_start = 0  # index in agents of the current run's first user-agent line
        self.run_ended = False  # an extra line since the run's last user-agent line
        self.run_delay: Optional[float] = None
        self.run_rate: Optional[RequestRate] = None

    def add_delay(self, delay: float) -> None:
        """A valid ``Crawl-delay`` for the current run (the slowest counts)."""
        self.run_delay = slower_delay(self.run_delay, delay)
        self.crawl_delay = slower_delay(self.crawl_delay, delay)
        self.run_ended = True

    def add_rate(self, rate: RequestRate) -> None:
        """A valid ``Request-rate`` for the current run (the slowest counts)."""
        self.run_rate = slower_rate(self.run_rate, rate)
        self.request_rate = slower_rate(self.request_rate, rate)
        self.run_ended = True

    def end_run(self) -> None:
        """Close the current run (kept as a :class:`~robotsrules.model.Pace` if it has a
        value); the next ``user-agent`` line starts another."""
        if self.run_delay is not None or self.run_rate is not None:
            start = self.run_start
            self.paces.append(Pace(tuple(self.agents[start:]), tuple(self.agent_lines[start:]),
                                   self.run_delay, self.run_rate))
        self.run_start = len(self.agents)
        self.run_ended = False
        self.run_delay = self.run_rate = None

    def close(self) -> Group:
        self.end_run()
        return Group(
            self.agent_lines[0],
            tuple(self.agent_lines),
            tuple(self.agents),
            tuple(self.values),
            tuple(self.rules),
            self.crawl_delay,
            self.request_rate,
            tuple(self.usage),
            tuple(self.paces),
        )


def build(text: str, want_lines: bool = False, first_line: int = 1) -> Parsed:
    """Assemble groups, sitemaps and hosts from octet text; optionally the per-line report.

    ``first_line`` is the number of the text's first line (a part of a file may be read).
    """
    groups: list[Group] = []
    sitemaps: list[str] = []
    hosts: list[str] = []
    licenses: list[tuple[int, str]] = []
    report: Optional[list[Line]] = [] if want_lines else None
    group: Optional[OpenGroup] = None
    lead: Optional[OpenGroup] = None  # Crawl-delay/Request-rate before any user-agent line
    rules: Optional[list[Rule]] = None  # the open group's rule list
    new_row = tuple.__new__
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as split_lines does
    raw_lines: Optional[list[str]] = None
    exact = want_lines
    if len(text) > MAX_LINE_BYTES and not exact:
        raw_lines = text.split("\n")
        exact = max(map(len, raw_lines)) > MAX_LINE_BYTES
    # One (key text, value, odd) tuple per line. "odd" flags a line that read_line must read.
    found: list[tuple[str, str, str]]
    if exact:
        if raw_lines is None:
            raw_lines = text.split("\n")
        found = [("", "", "?")] * len(raw_lines)
    else:
        # Fast path (an optimisation only; the tests check it agrees with read_line): one
        # regular-expression pass reads every well-formed "key: value" line; blank and
        # comment lines come back empty and only odd lines go through read_line.
        found = _EACH_LINE.findall(text)
    # Octets that need no escaping or decoding anywhere: a rule's pattern is its value.
    plain = text.isascii() and "%" not in text
    keys = KEYS
    rec: Optional[Record] = None
    key: Optional[str]  # a field name, or None for a line read_line finds no key in
    for number, (key_text, value, odd) in enumerate(found, first_line):
        if key_text:
            key = keys[key_text]
            if (
                (key is DISALLOW or key is ALLOW)
                and rules is not None
                and (plain or (value.isascii() and "%" not in value))
            ):
                rules.append(new_row(Rule, (key, value, value, number)))
                continue
        elif odd:
            if raw_lines is None:
                raw_lines = text.split("\n")
            rec = read_line(number, raw_lines[number - first_line])
            key, value = rec.key, rec.value
            if key is None and report is None:
                continue
        else:
            continue
        reason: Optional[str] = None
        if key is DISALLOW or key is ALLOW:
            if rules is None:
                reason = "outside-group"  # RFC 9309 §2.2.2: rules need a user-agent first
            else:
                pattern = normalize_escapes(value)
                rules.append(new_row(Rule, (key, pattern, display(value), number)))
        elif key is USER_AGENT:
            if group is None or group.rules:
                if group is not None:
                    groups.append(group.close())
                group = OpenGroup()
                rules = group.rules
            if group.run_ended:  # an extra line ended the run: this line starts the next
                group.end_run()
            group.agent_lines.append(number)
            group.agents.append(file_agent_token(value))
            group.values.append(display(value))
        elif key is SITEMAP and value:
            sitemaps.append(value if value.isascii() else url_text(value))
        elif key == LICENSE:
            if value:
                licenses.append((number, value if value.isascii() else url_text(value)))
            else:
                reason = "empty-value"
        else:
            if group is None and lead is None and key in _EXTRA_VALUES:
                lead = OpenGroup()
            reason = _other(key, value, group, sitemaps, hosts, rec, number, lead)
        if report is not None and rec is not None:
            report.append(_report_line(rec, reason))
    if group is not None:
        groups.append(group.close())
    return Parsed(
        tuple(groups), tuple(sitemaps), tuple(hosts), None if report is None else tuple(report),
        _NO_LEAD if lead is None else Pace((), (), lead.run_delay, lead.run_rate),
        tuple(licenses),
    )


def _other(
    key: Optional[str],
    value: str,
    group: Optional[OpenGroup],
    sitemaps: list[str],
    hosts: list[str],
    rec: Optional[Record],
    number: int = 0,
    lead: Optional[OpenGroup] = None,
) -> Optional[str]:
    """Handle a line that is not a rule or user-agent; return why it is unused, if it is.

    ``lead`` collects the ``Crawl-delay``/``Request-rate`` values written before the first
    ``user-agent`` line (see :attr:`Parsed.lead`)."""
    if key is CONTENT_SIGNAL or key is CONTENT_USAGE:
        if group is None:
            return "outside-group"  # like a rule before any user-agent: applies to nobody
        directive = CONTENT_SIGNAL if key is CONTENT_SIGNAL else CONTENT_USAGE
        group.usage.append(usage_line(directive, value, number, display(value)))
    elif key == "sitemap":
        if not value:
            return "empty-value"
        sitemaps.append(url_text(value))
    elif key == "crawl-delay" or key == "request-rate":
        # Read per agent (model.Pace): the value is for the user-agent lines directly above,
        # or, before any, for every crawler given none of its own (as texting_robots does).
        target = group if group is not None else lead
        valid = False
        if key == "crawl-delay":
            delay, _capped = crawl_delay_value(value)
            if delay is not None:
                valid = True
                if target is not None:
                    target.add_delay(delay)
        else:
            rate, _capped = request_rate_value(value)
            if rate is not None:
                valid = True
                if target is not None:
                    target.add_rate(rate)
        if not valid:
            if group is not None:
                group.run_ended = True  # a line the owner wrote for these agents all the same
            return "bad-value"
        if target is None:  # (build always passes a lead; other callers may not)
            return "outside-group"
    elif key == "host":
        if not value:
            return "empty-value"
        hosts.append(url_text(value))
    elif key == "unknown":
        return "unknown-key"
    elif rec is not None:
        return rec.kind
    return None


def _report_line(rec: Record, reason: Optional[str]) -> Line:
    return Line(
        rec.number,
        display(rec.raw),
        rec.key,
        display(rec.key_text),
        display(rec.value),
        display(rec.comment),
        rec.typo,
        rec.missing_colon,
        rec.truncated,
        reason is None,
        reason,
    )
