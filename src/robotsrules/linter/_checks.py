"""The checks of :func:`robotsrules.linter.lint`: seven passes over the parser's records,
one method of :class:`_Linter` each, run in this order (the package docstring says what
each checks): :meth:`~_Linter.file_checks`, :meth:`~_Linter.line_checks`,
:meth:`~_Linter.agent_checks`, :meth:`~_Linter.rule_checks`, :meth:`~_Linter.mode_checks`,
:meth:`~_Linter.usage_checks`, :meth:`~_Linter.registry_checks`."""

from __future__ import annotations

import bisect
import difflib
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from typing import (
    Optional,
)

from .._rules import _legacy as legacy
from .._rules._agents import SPACE, file_agent_token
from .._rules._matcher import AgentRules
from .._rules._parser import (
    MAX_LINE_BYTES,
    build,
    crawl_delay_value,
    decode,
    display,
    request_rate_value,
    split_lines,
)
from .._rules._pattern import Pattern
from .._rules._precedence import index_html_folder, rule_rank
from .._rules._urls import encoded_pattern, text_octets, unencoded
from .._rules._usage import CONTENT_SIGNAL, Reading, purpose_group_line, read_value
from .._tables._extensions import Extension, extensions
from .._tables._extensions import check_value as check_extension_value
from .._tables._extensions import find as find_extension
from .._tables._purposes import (
    CATEGORIES,
    CONTENT_SIGNALS,
    Purpose,
    purpose_group_draft,
    related,
    revision,
    superseded,
)
from .._terminal import CONTROL_ESCAPES
from ..model import Group, Line, RequestRate, Rule
from ..robotstxt import DEFAULT_MAX_BYTES, RobotsTxt
from ._codes import MAX_PER_CODE, Diagnostic, cut_message, diagnostic

__all__ = ["lint", "path_fix"]



# -- helpers ------------------------------------------------------------------------------

_CANON = {
    "user-agent": "User-agent",
    "allow": "Allow",
    "disallow": "Disallow",
    "sitemap": "Sitemap",
    "crawl-delay": "Crawl-delay",
    "request-rate": "Request-rate",
    "host": "Host",
    "content-signal": "Content-Signal",
    "content-usage": "Content-Usage",
    "license": "License",
}
_USAGE_KEYS = ("content-signal", "content-usage")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_HTTP_URL = re.compile(r"(?i)https?://[^/?#\s]+")
_URL_PATH = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*([^#]*)")
# "www.example.com/path" or "img.example.co.uk/x": a host name where a path should be.
_HOST_PATH = re.compile(r"(?:www\.|(?:[A-Za-z0-9\-]+\.){2,})[A-Za-z0-9\-.]*(?::\d+)?(/.*)")
_BROKEN_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):/*")
_AGENT_SUFFIX = re.compile(r"/\S*|\*+")
# An HTML tag that opens a line or follows another tag (not a "<html" inside a path).
_HTML = re.compile(
    rb"(?:^|>)[ \t]*(<(?:!doctype\b|html(?=[\s>])|head(?=[\s>])|body(?=[\s>])))",
    re.IGNORECASE | re.MULTILINE,
)
_HTML_WINDOW = 4096  # "near the start": HTML pages declare themselves in their first bytes
_RULE_LINE = re.compile(rb"^[ \t]*(?:dis)?allow", re.IGNORECASE | re.MULTILINE)
_CONTROL = CONTROL_ESCAPES  # one table for everything printed (robotsrules._terminal)
_STARS = re.compile(r"\*\*+")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_LEGACY_MAX_PATH = 2000  # longer legacy paths are not checked for first-match order
# Either is needed for two legacy rules with different outcomes (a cheap test first: the
# legacy reading of the whole file costs as much again as the lint).
_LEGACY_ALLOWS = re.compile(
    r"(?<![A-Za-z])allow[ \t\v\f]*:|disallow[ \t\v\f]*:[ \t\v\f]*(?:[#\r\n\v\f\x00]|$)",
    re.IGNORECASE | re.MULTILINE,
)
_DEAD_IN_GOOGLE = ("R301", "R302", "R303", "R304", "R305", "R306")


_FORM_EXAMPLES = {
    "absolute-url": "an absolute URL, `https://example.com/path`",
    "clean-param": "parameters joined by `&`, then an optional path: `ref&sid /forum/`",
    "visit-time": "a UTC window `HHMM-HHMM`, e.g. `0600-0845`",
    "version": "a version number, e.g. `2.0`",
    "host-or-url": "a host name or an absolute URL, e.g. `example.com`",
    "host": "a host name, optionally with its scheme and port: `www.example.com`, "
            "`https://www.example.com`",
}


def _known_keys() -> list[str]:
    """Keys a misspelt key may have meant: the ones robotsrules reads and the active
    extensions of the table (a typo is never pointed at a key that does nothing)."""
    active = [e.name for e in extensions() if e.status == "active"]
    return list(dict.fromkeys((*_CANON.values(), *active)))


def _q(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message: control characters escaped, long text shortened."""
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return "`" + text.translate(_CONTROL) + "`"


_EXTRAS = ("crawl-delay", "request-rate")


def _agent_list(tokens: list[str]) -> str:
    """Agent tokens for a message: ```a`, `b``` (at most three named)."""
    names = [f"`{token}`" if token else "a user-agent line that names no crawler"
             for token in dict.fromkeys(tokens)]
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _column(octets: str) -> int:
    """The column just after ``octets`` (the start of a line, as latin-1 octet text)."""
    return len(display(octets)) + 1


def _key_column(line: Line) -> int:
    raw = line.raw
    return len(raw) - len(raw.lstrip(SPACE)) + 1


def _line_list(numbers: Sequence[int], shown: int = 5) -> str:
    """``3, 4, 9`` or ``3, 4, 9, 12, 15 and 40 others``."""
    head = ", ".join(str(n) for n in numbers[:shown])
    return head if len(numbers) <= shown else f"{head} and {len(numbers) - shown} others"


def path_fix(directive: str, pattern: str, tail: str = "") -> Optional[str]:
    """The form to write of a rule path (lint R307's fix, and what ``explain`` calls the
    form to write, in every mode): ``pattern`` as Google's library matches it (octets
    >= 0x80 encoded, the reading of ``google`` mode) with space, control characters and a
    stray ``%`` encoded too (:func:`~robotsrules._rules._urls.encoded_pattern`). ``None``
    when the line written that way (``directive: path`` then ``tail``) would be longer
    than Google's library reads of a line (:data:`MAX_LINE_BYTES`): the rest would be cut
    off, leaving a shorter prefix that matches other URLs, so no such form is offered.

    >>> path_fix("Disallow", "/my page"), path_fix("Allow", "/%C3%A9" * 2800 + "x")
    ('/my%20page', None)
    """
    encoded = encoded_pattern(pattern)
    if len(text_octets(f"{directive}: {encoded}{tail}")) > MAX_LINE_BYTES:
        return None
    return encoded


def _value_column(line: Line) -> int:
    raw = line.raw
    start = _key_column(line) - 1 + len(line.key_text)
    if line.value:
        found = raw.find(line.value, start)
        if found >= 0:
            return found + 1
    colon = raw.find(":", start)
    return colon + 2 if colon >= 0 else start + 1


def _position(text: str) -> tuple[int, int]:
    """(line, column) of the end of ``text``, a prefix of the octet text."""
    lines = split_lines(text)
    return len(lines), _column(lines[-1])


def _canonical(pattern: str) -> tuple[str, bool]:
    """A key equal only for normalised patterns that match the same URLs: (body, anchored).

    Conservative: ``**`` is ``*``; trailing ``*``s (and a ``$`` right after them) change
    nothing; ``*`` alone matches every target, as ``/`` does (targets start with ``/``).
    """
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    if "**" in body:
        body = _STARS.sub("*", body)
    if body.endswith("*"):
        body, anchored = body.rstrip("*"), False
    if not anchored and not body:
        body = "/"
    return body, anchored


def _escape_difference(pattern: str) -> Optional[tuple[str, str]]:
    """The first ``%XX`` escape that RFC 9309 mode reads differently from Google's, if any.

    RFC 9309 mode decodes escapes of unreserved characters and reads ``%2A``/``%24`` as a
    literal ``*``/``$`` (on both sides); Google compares escapes as written.
    """
    for match in _ESCAPE.finditer(pattern):
        char = chr(int(match.group()[1:], 16))
        if char in _UNRESERVED or char in "*$":
            return match.group().upper(), char
    return None


def _legacy_allows(rule: Rule) -> bool:
    """A legacy rule's outcome: an empty ``Disallow:`` allows (1994; urllib)."""
    return rule.directive == "allow" or not rule.value


class _Linter:
    """The state of one :func:`lint` run (one file)."""

    def __init__(self, data: bytes, max_bytes: Optional[int]) -> None:
        text, kept, cut = decode(data, max_bytes)
        self.data = data
        self.text = text
        self.kept = kept
        self.cut = cut
        self.max_bytes = max_bytes
        self.skip = len(kept) - len(text)  # octets of byte-order mark skipped
        parsed = build(text, want_lines=True)
        assert parsed.lines is not None
        self.lines: tuple[Line, ...] = parsed.lines
        self.groups: tuple[Group, ...] = parsed.groups
        self.starts = [g.line for g in self.groups]
        # A License line before the first group (RSL 1.0 §4.4.2: site-wide)?
        self.site_license = any(self.group_of(number) is None for number, _ in parsed.licenses)
        self.found: list[Diagnostic] = []
        self.listed: dict[str, int] = {}  # diagnostics kept per code (at most MAX_PER_CODE)
        self.unlisted: dict[str, list[int]] = {}  # code -> [count, first, last line] not kept
        self.dead_lines: set[int] = set()  # lines of rules Google never matches (R301-R306)
        self.utf16 = False
        self._octet_lines: Optional[list[str]] = None
        # Paths whose only unencoded characters are outside US-ASCII read the same for
        # Google and RFC 9309 readers: one R307 per file for them (counted), not one a line.
        self.non_ascii_paths: list[tuple[str, int, str, str, str]] = []
        # The other R307 findings (line, column, message, advice), emitted after that one.
        self.line_encodings: list[tuple[int, int, str, str]] = []

    # -- output ---------------------------------------------------------------------------
    def emit(self, code: str, line: int, column: int, message: str, **fields: object) -> None:
        # Memory stays bounded: past MAX_PER_CODE of a code, findings are only counted (R007).
        if code in _DEAD_IN_GOOGLE:
            self.dead_lines.add(line)
        listed = self.listed.get(code, 0)
        if listed >= MAX_PER_CODE:
            cut = self.unlisted.get(code)
            if cut is None:
                self.unlisted[code] = [1, line, line]
            else:
                cut[0] += 1
                cut[1] = min(cut[1], line)
                cut[2] = max(cut[2], line)
            return
        self.listed[code] = listed + 1
        # File content reaches messages: no control character may reach a terminal.
        self.found.append(diagnostic(code, line, column, message, _CONTROL, **fields))

    def report_cuts(self) -> None:
        """One ``R007`` per code with findings not listed (after every pass)."""
        for code, (count, first, last) in sorted(self.unlisted.items()):
            self.found.append(diagnostic("R007", first, 1, cut_message(code, count, first, last),
                                         _CONTROL, which=code, count=count))

    @property
    def octet_lines(self) -> list[str]:
        if self._octet_lines is None:
            self._octet_lines = split_lines(self.text)
        return self._octet_lines

    def line(self, number: int) -> Line:
        return self.lines[number - 1]

    def group_of(self, number: int) -> Optional[int]:
        """Index of the group line ``number`` belongs to (groups are contiguous)."""
        index = bisect.bisect_right(self.starts, number) - 1
        return index if index >= 0 else None

    # -- pass 1: the file -------------------------------------------------------------------
    def file_checks(self) -> None:
        if self.skip:
            mark = " ".join(f"{b:02X}" for b in self.kept[: self.skip])
            partial = "" if self.skip == 3 else " (part of one)"
            first = self.lines[0]
            if first.key is not None:
                harm = (f"read it as part of the key {_q(first.key_text)} and drop line 1")
            else:
                harm = "read it as part of line 1"
            self.emit("R001", 1, 1,
                      f"the file starts with a UTF-8 byte-order mark{partial} ({mark}): Google "
                      f"skips it, but parsers that do not expect it {harm}")
        self.utf16 = self._utf16()
        if not self.utf16:
            self._utf8()
        if self.cut:
            self._over_size()
        self._html()
        if not self.groups:
            self.emit("R005", 1, 1,
                      "the file has no `User-agent:` line, so no rule applies: every crawler "
                      "may fetch everything")

    def _utf16(self) -> bool:
        data = self.data
        head = data[:256]
        if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
            order = "LE" if head[:1] == b"\xff" else "BE"
            why = f"it starts with the UTF-16 {order} byte-order mark ({head[0]:02X} {head[1]:02X})"
        elif len(head) >= 16 and (head[1::2].count(0) >= 0.9 * len(head[1::2])
                                  or head[0::2].count(0) >= 0.9 * len(head[0::2])):
            why = "every other byte of its start is NUL"
        else:
            return False
        self.emit("R006", 1, 1,
                  f"the file is UTF-16 ({why}): Google reads bytes, stops each line at the "
                  "first NUL and finds no valid line, so the file restricts nothing")
        return True

    def _utf8(self) -> None:
        kept = self.kept
        if kept.isascii():
            return
        try:
            kept.decode("utf-8")
            return
        except UnicodeDecodeError as error:
            if self.cut and error.end == len(kept) and error.reason == "unexpected end of data":
                return  # a character split by the size limit (reported by R003)
            start = error.start
        bad_line, column = _position(kept[self.skip : max(start, self.skip)].decode("latin-1"))
        byte = kept[start]
        count = 0
        for octets in self.octet_lines:
            if not octets.isascii():
                try:
                    octets.encode("latin-1").decode("utf-8")
                except UnicodeDecodeError:
                    count += 1
        others = f"; {count} lines have such bytes" if count > 1 else ""
        self.emit("R002", bad_line, column,
                  f"byte 0x{byte:02X} is not UTF-8{others}: Google matches such octets "
                  "as they are (percent-encoded), RFC 9309 expects UTF-8 and other parsers "
                  "may read them as another encoding or drop them",
                  escaped=f"%{byte:02X}")

    def _over_size(self) -> None:
        limit = self.max_bytes or 0
        ignored = len(self.data) - len(self.kept)
        last, column = _position(self.text)
        rest = self.data[len(self.kept):]
        rules = len(_RULE_LINE.findall(rest))
        where = (f"from line {last} on" if column == 1
                 else f"from line {last} column {column} on (that line is cut)")
        among = f" ({rules:,} allow/disallow lines among them)" if rules else ""
        self.emit("R003", last, column,
                  f"the file is {len(self.data):,} bytes; only the first {limit:,} are read, "
                  f"so the last {ignored:,} bytes, {where}, are ignored{among}",
                  limit=f"{limit:,}")

    def _html(self) -> None:
        window = self.kept[self.skip : self.skip + _HTML_WINDOW]
        for match in _HTML.finditer(window):
            head = window[: match.start(1)].decode("latin-1")
            number, column = _position(head)
            if "#" in split_lines(head)[-1]:
                continue  # inside a comment
            rules = sum(1 for g in self.groups for _ in g.rules)
            self.emit("R004", number, column,
                      f"{_q(match.group(1).decode('latin-1'))} near the start: this looks like "
                      "an HTML page served as robots.txt; crawlers read only the lines that "
                      f"happen to be valid ({rules} allow/disallow rules here)")
            return

    # -- pass 2: lines ----------------------------------------------------------------------
    def line_checks(self) -> None:
        # Crawl-delay/Request-rate are read per agent (model.Pace): the run of user-agent
        # lines each value belongs to, and the first line that gave each agent a value.
        run: list[str] = []  # the tokens of the current run ("" before any user-agent line)
        run_open = False
        first_extra: dict[tuple[str, str], int] = {}  # (token, key) -> line of first value
        nul = "\x00" in self.text and not self.utf16
        for line in self.lines:
            number = line.number
            if line.truncated:
                self._truncated(line)
            if nul:
                self._nul(line)
            key = line.key
            reason = line.reason
            if key == "user-agent":
                if not run_open:
                    run, run_open = [], True
                run.append(file_agent_token(line.value))
            elif key in ("allow", "disallow", "crawl-delay", "request-rate"):
                run_open = False
            if key is None:
                if reason == "invalid":
                    self._invalid(line)
                continue
            canon = _CANON.get(key)
            if line.typo:
                self.emit("R102", number, _key_column(line),
                          f"{_q(line.key_text)} is a misspelling of `{canon}`: Google reads it "
                          "as such, other parsers ignore the line",
                          fix=f"{canon}: {line.value}")
            elif canon and key in ("user-agent", "allow", "disallow", "sitemap") and (
                    line.key_text.lower() != key):
                self._prefix(line, canon)
            if line.missing_colon and key != "unknown":
                fix = f"{canon or line.key_text}: {line.value}"
                self.emit("R101", number, _key_column(line) + len(line.key_text),
                          f"no colon after {_q(line.key_text)}: Google reads the two words "
                          f"{_q(line.key_text + ' ' + line.value)} as `{fix}`; RFC 9309 "
                          "parsers ignore the line",
                          fix=fix)
            if key == "unknown":
                self._unknown(line)
            elif key in _USAGE_KEYS:
                self._usage_line(line, canon or "")
            elif reason == "outside-group":
                self.emit("R201", number, _key_column(line),
                          f"`{canon}: {line.value}` comes before any `User-agent:` line, "
                          "so it applies to no crawler and is ignored (RFC 9309 §2.2.2)")
            elif reason == "bad-value":
                code = "R401" if key == "crawl-delay" else "R402"
                self.emit(code, number, _value_column(line),
                          f"{_q(line.value)} is not a valid `{canon}` value: the line is "
                          "ignored")
            elif reason == "empty-value":
                self.emit("R405", number, _value_column(line),
                          f"`{canon}:` has no value: the line is ignored")
            elif key in ("crawl-delay", "request-rate"):
                self._extra(line, canon or "", run, first_extra)
            elif key == "host":
                self._parsed_extension(line)
            elif key == "license":
                self._license(line)
            elif key == "sitemap" and not _SCHEME.match(line.value):
                value = line.value
                broken = _BROKEN_SCHEME.match(value)
                if value.startswith("//"):
                    fix = "https:" + value
                elif broken is not None and broken.group(1).lower() in ("http", "https"):
                    fix = f"{broken.group(1)}://{value[broken.end():]}"
                else:
                    fix = "https://example.com" + ("" if value.startswith("/") else "/") + value
                self.emit("R406", number, _value_column(line),
                          f"sitemap {_q(value)} is not an absolute URL: crawlers cannot "
                          "tell which host it is on and may ignore it",
                          fix=fix)

    def _parsed_extension(self, line: Line) -> None:
        """R110 for a key robotsrules reads that the table marks as no longer working."""
        extension = find_extension(line.key or "")
        if extension is not None and extension.status != "active":
            self._extension(line, extension)

    def _extra(self, line: Line, canon: str, run: list[str],
               first_extra: dict[tuple[str, str], int]) -> None:
        """A valid ``Crawl-delay``/``Request-rate`` line, read for the agents of ``run``
        (the user-agent lines directly above it; none before the first one)."""
        number, key = line.number, line.key or ""
        shown = f"`{canon}: {line.value}`"
        read, capped = (crawl_delay_value(line.value) if key == "crawl-delay"
                        else request_rate_value(line.value))
        if capped:
            self.emit("R407", number, _value_column(line),
                      f"{shown} asks for more than robotsrules reads: it is read as "
                      f"{_extra_shown(read)} (at most 365 days per request and 10^9 requests)")
        if not run:
            self.emit("R403", number, _key_column(line),
                      f"{shown} comes before any `User-agent:` line: robotsrules (as "
                      "texting_robots) asks it of every crawler given no value of its own, "
                      "reppy of crawlers no group names, and protego, crawler-commons, "
                      "robots-parser and urllib.robotparser ignore it")
            run = [""]
        again = [token for token in dict.fromkeys(run) if (token, key) in first_extra]
        earlier = [first_extra[(token, key)] for token in again]
        for token in run:
            first_extra.setdefault((token, key), number)
        if not earlier:
            return
        first = min(earlier)
        whom = "crawlers given no value of their own" if run == [""] else _agent_list(again)
        self.emit("R404", number, _key_column(line),
                  f"{shown} is another `{canon}` for {whom} (line {first} has one too): "
                  "robotsrules uses the slowest of them, crawler-commons and texting_robots "
                  "the first, protego, urllib.robotparser, robots-parser and reppy the last",
                  first=first)

    def _license(self, line: Line) -> None:
        """R701 (not an absolute URL) and R705 (inside a group) for a ``License`` line."""
        value = line.value
        if not _HTTP_URL.match(value):
            fix = ("https:" + value if value.startswith("//")
                   else "https://example.com" + ("" if value.startswith("/") else "/") + value)
            self.emit("R701", line.number, _value_column(line),
                      f"licence {_q(value)} is not an absolute http(s) URL: RSL readers cannot "
                      "fetch it", fix=fix)
        elif "@" in (authority := _HTTP_URL.match(value)[0]):  # type: ignore[index]
            fix = (value[:value.index("://") + 3] + authority.rpartition("@")[2]
                   + value[len(authority):])
            self.emit("R701", line.number, _value_column(line),
                      f"licence {_q(fix)} is named with credentials (user:password@): "
                      "readers would send them to the server, robotsrules refuses it",
                      fix=fix)
        at = self.group_of(line.number)
        if at is None or self.site_license:
            return
        agents = ", ".join(v or "(empty)" for v in self.groups[at].agent_values[:3])
        self.emit("R705", line.number, _key_column(line),
                  f"`License: {value}` stands in the group of line {self.groups[at].line} "
                  f"({agents}): robotsrules reads it for every crawler, but a reader that "
                  "scopes it to the group would not, and the file has no site-wide "
                  "`License` line")

    def _truncated(self, line: Line) -> None:
        octets = self.octet_lines[line.number - 1]
        column = _column(octets[:MAX_LINE_BYTES])
        lost = len(octets) - MAX_LINE_BYTES
        anchor = ""
        if line.key in ("allow", "disallow") and octets.split("#", 1)[0].rstrip(SPACE).endswith(
                "$") and not line.value.endswith("$"):
            anchor = "; the final `$` is lost, so the rule matches as a prefix"
        self.emit("R107", line.number, column,
                  f"the line is {len(octets):,} bytes long; Google reads only the first "
                  f"{MAX_LINE_BYTES:,} and ignores the last {lost:,} (from column {column})"
                  f"{anchor}")

    def _nul(self, line: Line) -> None:
        octets = self.octet_lines[line.number - 1][:MAX_LINE_BYTES]
        at = octets.find("\x00")
        if at < 0:
            return
        dropped = display(octets[at + 1 :])
        self.emit("R108", line.number, _column(octets[:at]),
                  f"a NUL byte ends the line for Google: the {len(octets) - at - 1:,} bytes "
                  f"after it ({_q(dropped, 40)}) are ignored")

    def _invalid(self, line: Line) -> None:
        text = line.raw.strip(SPACE)
        if "#" in text:
            text = text.split("#", 1)[0].rstrip(SPACE)
        why = ("it has an empty key" if text.startswith(":")
               else "a line without a colon is read only when it is exactly two words")
        self.emit("R106", line.number, _key_column(line),
                  f"{_q(text)} is not `key: value` ({why}): the line is ignored")

    def _prefix(self, line: Line, canon: str) -> None:
        key_text = line.key_text
        value = line.value
        words = key_text.split(None, 1)
        colon_note = ""
        if len(words) == 2 and not line.missing_colon:
            # "Sitemap http://x" or "Disallow /a:b": the first colon is inside the value.
            colon_note = (f"; the first colon is inside the text, so the value is read as "
                          f"{_q(value)}")
            value = f"{words[1]}:{value}"
        self.emit("R103", line.number, _key_column(line),
                  f"key {_q(key_text)} is read as `{canon}` because it starts with it (Google "
                  f"matches keys by prefix){colon_note}; RFC 9309 parsers ignore the line",
                  fix=f"{canon}: {value}")

    def _unknown(self, line: Line) -> None:
        key_text = line.key_text
        lower = key_text.lower()
        extension = find_extension(lower)
        if extension is not None:
            self._extension(line, extension)
            return
        if lower.startswith("\ufeff"):
            suggestion = ": it starts with a byte-order mark (EF BB BF), delete it"
        else:
            close = difflib.get_close_matches(key_text.capitalize(), _known_keys(), 1, 0.75)
            suggestion = f" (did you mean `{close[0]}`?)" if close else ""
        how = (f" (read as a key because the line is two words, {_q(line.raw.strip(SPACE))})"
               if line.missing_colon else "")
        self.emit("R104", line.number, _key_column(line),
                  f"unknown key {_q(key_text)}{how}: the line is ignored",
                  suggestion=suggestion)

    def _extension(self, line: Line, extension: Extension) -> None:
        """R105, R109 or R110 for a key of the extension table (robotsrules._tables._extensions):
        recognised, so never R104."""
        key_text = line.key_text
        number = line.number
        scope = "file-wide" if extension.scope == "file" else "for the group it stands in"
        if extension.status != "active":
            self.emit("R110", number, _key_column(line),
                      f"{_q(key_text)} is a recognised extension ({extension.by}) that no "
                      f"longer does what it was written for ({extension.status}); Google and "
                      "RFC 9309 parsers ignore it",
                      instead=extension.instead)
        elif not extension.parsed:
            readers = ", ".join(extension.readers) or "no crawler this library knows of"
            self.emit("R105", number, _key_column(line),
                      f"{_q(key_text)} is a recognised extension ({extension.by}; {scope}; "
                      f"read by {readers}); Google and RFC 9309 parsers ignore the line",
                      crawler=readers)
        problem = check_extension_value(extension, line.value)
        if problem is not None:
            self.emit("R109", number, _value_column(line),
                      f"{_q(line.value)} is not a valid `{extension.name}` value: {problem}",
                      form=_FORM_EXAMPLES.get(extension.format or "", "its readers expect"))

    def _usage_line(self, line: Line, canon: str) -> None:
        """R601-R605 and R604 for one Content-Signal/Content-Usage line
        (robotsrules._rules._usage)."""
        number = line.number
        key_column = _key_column(line)
        if line.key_text.lower() != line.key:
            self.emit("R602", number, key_column,
                      f"key {_q(line.key_text)} is read as `{canon}` by robotsrules (by "
                      "prefix, as Google reads its own keys), but readers that match the "
                      "exact name ignore the line",
                      advice=f"write `{canon}: {line.value}`")
        if line.reason == "outside-group":
            self.emit("R604", number, key_column,
                      f"`{canon}: {line.value}` comes before any `User-agent:` line: it "
                      "belongs to no group, so robotsrules applies it to no crawler (other "
                      "readers may take it as site-wide)")
        reading = read_value(line.key or "", line.value)
        column = _value_column(line)
        signal = line.key == "content-signal"
        if reading.error is not None:
            if signal:
                advice = "remove the empty entry (write `name=value` pairs separated by `,`)"
            elif not read_value("content-usage", line.value.lower()).error:
                advice = f"write `Content-Usage: {line.value.lower()}` (labels are lower case)"
            else:
                advice = ("write `Content-Usage: /path label=y` or `label=n` (lower-case "
                          "labels, no spaces around `=`, `,` between entries)")
            kept = ", ".join(f"`{name}=n`" for name, _ in reading.statements)
            said = ("that part states no preference" if signal
                    else f"only its refusals count ({kept}), and it never decides alone"
                    if kept else "the line states no preference")
            self.emit("R601", number, column,
                      f"{_q(line.value)} cannot be read as a `{canon}` value "
                      f"({reading.error}): {said}",
                      advice=advice)
        elif not signal and reading.path is None:
            self.emit("R601", number, column,
                      f"`Content-Usage: {line.value}` has no path (draft-ietf-aipref-attach "
                      "asks for one): robotsrules reads it as `/`, every path; other readers "
                      "may ignore the line",
                      advice=f"write `Content-Usage: / {line.value}`")
        names = CONTENT_SIGNALS if signal else CATEGORIES
        for name in reading.unknown:
            self.emit("R602", number, column,
                      f"{_q(name)} is not a {'content signal' if signal else 'usage category'}"
                      " name: it is ignored",
                      advice=_usage_name_advice(name, signal, names))
        if not signal:
            self._superseded_labels(line, reading)
        for name, value in reading.bad_values:
            fix = f"{name}={_usage_value_fix(value, signal)}"
            self.emit("R603", number, column,
                      f"{_q(name + '=' + value)}: the value is not "
                      f"{'`yes` or `no`' if signal else 'the token `y` or `n`'}, so no "
                      f"preference is stated for `{name}`",
                      fix=fix)
        for name in reading.repeated:
            self.emit("R605", number, column,
                      f"`{name}` is given more than once in one value: "
                      f"{'the most restrictive' if signal else 'only the last'} one counts",
                      name=name)

    def _superseded_labels(self, line: Line, reading: Reading) -> None:
        """R609: labels an earlier revision of the vocabulary defined (data/vocabularies.json)."""
        current = revision()
        labels = dict.fromkeys(name for name, _ in (*reading.statements, *reading.bad_values))
        for label in labels:
            defined = superseded(label)
            if defined is None:
                continue
            now = ", ".join(f"`{name}`" for name in current.labels)
            self.emit("R609", line.number, _value_column(line),
                      f"`{label}` was defined by {defined}; {current.name} ({current.date}) "
                      f"defines only {now}: robotsrules reads `{label}` for itself (no "
                      "nesting), readers that follow the current revision ignore it",
                      advice=_superseded_advice(label, current.labels))

    # -- pass 6b: purpose groups ------------------------------------------------------------
    def purpose_group_checks(self, tokens: Mapping[str, Purpose]) -> None:
        """R610 and R611 for the groups keyed by a token of ``tokens`` (the purpose-group
        draft's tokens the shipped table records: none yet, see
        :func:`robotsrules._tables._purposes.purpose_group_draft`)."""
        keyed = [(token, purpose) for token, purpose in tokens.items()
                 if any(token in group.agents for group in self.groups)]
        if not keyed:
            return
        robots = RobotsTxt._outlined(self.kept, self.text, False, None)
        for token, purpose in keyed:
            groups = [group for group in self.groups if token in group.agents]
            rules = [rule for group in groups for rule in group.rules]
            if all(rule.directive == "allow" or not rule.pattern for rule in rules):
                number = groups[0].agent_lines[groups[0].agents.index(token)]
                self.emit("R610", number, _value_column(self.line(number)),
                          f"the purpose group `{token}` ({purpose}) only allows: it refuses "
                          f"{purpose} nowhere", token=token)
            self._purpose_disagreements(robots.for_agent(token), token, purpose, rules)

    def _purpose_disagreements(self, rules: AgentRules, token: str, purpose: Purpose,
                               group_rules: list[Rule]) -> None:
        """R611: a usage line speaking of ``purpose`` that the purpose group contradicts on
        a path both cover (the line's own path, or a plain path of the group's rules)."""
        names = set(related(purpose))
        plain = [r.pattern for r in group_rules if r.pattern and not set(r.pattern) & {"*", "$"}]
        for group in self.groups:
            for line in group.usage:
                said = [value for name, value in line.statements if name in names]
                if not said:
                    continue
                value = min(said)  # most restrictive of the line
                if line.directive == CONTENT_SIGNAL:
                    paths = ["/", *plain]
                else:
                    pattern = Pattern(line.pattern)
                    paths = [p for p in [line.pattern, *plain]
                             if not set(p) & {"*", "$"} and pattern.match(p)]
                for path in dict.fromkeys(paths):
                    stated = purpose_group_line(token, purpose, rules.explain(path))
                    if stated is None or stated.statements[0][1] == value:
                        continue
                    word = "refuses" if value is False else "permits"
                    self.emit("R611", line.line, _value_column(self.line(line.line)),
                              f"line {line.line} {word} {purpose} on `{path}`, where the "
                              f"purpose group `{token}` (line {stated.line}) "
                              f"{'permits' if stated.statements[0][1] else 'refuses'} it",
                              usage=line.line, other=stated.line)
                    break

    # -- pass 6: usage preferences ----------------------------------------------------------
    def usage_checks(self) -> None:
        """R610 and R611 (purpose groups, for the tokens the shipped table records); R605
        (conflicts across lines), R606 and R607, group by group; then R608."""
        self.purpose_group_checks(purpose_group_draft().tokens)
        if not any(group.usage for group in self.groups):
            return
        robots = RobotsTxt._outlined(self.kept, self.text, False, None)
        self._usage_not_inherited(robots)
        for group in self.groups:
            if not group.usage:
                continue
            self._usage_conflicts(group)
            tokens = [t for t in dict.fromkeys(group.agents) if t]
            if not tokens:
                continue
            rules = [robots.for_agent(token) for token in tokens]
            for usage in group.usage:
                path = usage.pattern or "/"
                if not all(_fully_disallowed(r, path) for r in rules):
                    continue
                line = self.line(usage.line)
                if usage.directive == "content-signal" and ("search", True) in usage.statements:
                    self.emit("R607", usage.line, _value_column(line),
                              f"`search=yes`, but the agents of this group "
                              f"({', '.join(tokens[:3])}) are disallowed from `/`: nothing "
                              "can be fetched to index")
                else:
                    where = "any path" if usage.directive == "content-signal" else f"`{path}`"
                    self.emit("R606", usage.line, _value_column(line),
                              f"the agents of this group ({', '.join(tokens[:3])}) may not "
                              f"fetch {where}, so this preference applies to nothing")

    def _usage_not_inherited(self, robots: RobotsTxt) -> None:
        """R608: preferences in the ``*`` group only, and named crawlers that may fetch
        something read groups of their own without any (found in real files: the
        ``Content-Signal`` line under ``User-agent: *``, above groups for GPTBot and others).
        A crawler disallowed from ``/`` is left out: nothing of the site is there to use."""
        first = next((usage for group in self.groups if group.is_global
                      for usage in group.usage), None)
        if first is None:
            return
        stated: dict[str, bool] = {}  # token -> some group naming it states a preference
        written: dict[str, str] = {}  # token -> its first spelling, for the message
        for group in self.groups:  # the `*` group's own other names read its lines too
            for token, value in zip(group.agents, group.agent_values):
                if token and token != "*":
                    stated[token] = stated.get(token, False) or bool(group.usage)
                    written.setdefault(token, value)
        bare = [written[token] for token, has in stated.items()
                if not has and not _fully_disallowed(robots.for_agent(token), "/")]
        if bare:
            names = ", ".join(f"`{token}`" for token in bare[:3]) + (
                f" and {len(bare) - 3} more" if len(bare) > 3 else "")
            self.emit("R608", first.line, _value_column(self.line(first.line)),
                      f"this preference is in the `*` group only; {names} "
                      f"{'have groups' if len(bare) > 1 else 'has a group'} of "
                      f"{'their' if len(bare) > 1 else 'its'} own and will not read it",
                      agents=", ".join(bare[:3]))

    def _usage_conflicts(self, group: Group) -> None:
        stated: dict[tuple[str, str], tuple[bool, int]] = {}
        for usage in group.usage:
            for name, value in dict(usage.statements).items():
                where = (usage.pattern, name)
                first = stated.get(where)
                if first is None:
                    stated[where] = (value, usage.line)
                elif first[0] != value:
                    kept = "no" if usage.directive == "content-signal" else "n"
                    self.emit("R605", usage.line, _value_column(self.line(usage.line)),
                              f"`{name}` is {'allowed' if value else 'disallowed'} here and "
                              f"{'allowed' if first[0] else 'disallowed'} on line {first[1]} "
                              f"for the same {'path' if usage.pattern else 'group'}: "
                              f"`{name}={kept}` applies",
                              name=name)

    # -- pass 7: the crawler registry -------------------------------------------------------
    def registry_checks(self) -> None:
        """R210-R213: opt-out mistakes judged with the crawler registry (robotsrules._optout)."""
        if not self.groups:
            return
        from .._optout import file_warnings

        def robots() -> RobotsTxt:
            return RobotsTxt._outlined(self.kept, self.text, False, None)

        for warning in file_warnings(self.groups, robots):
            line = warning.line or self.groups[0].line
            self.emit(warning.code, line, _value_column(self.line(line)), warning.message)

    # -- pass 3: groups and agents ----------------------------------------------------------
    def agent_checks(self) -> None:
        first_group: dict[str, tuple[int, int]] = {}  # token -> (group index, line)
        for index, group in enumerate(self.groups):
            named = set()
            for number, token in zip(group.agent_lines, group.agents):
                line = self.line(number)
                self._agent_value(line, token)
                if not token or token in named:
                    continue
                named.add(token)
                seen = first_group.get(token)
                if seen is None:
                    first_group[token] = (index, number)
                elif seen[0] != index:
                    self.emit("R206", number, _value_column(line),
                              f"`{token}` is also named on line {seen[1]}: all groups naming "
                              "it are merged, so it gets the rules of both",
                              token=token)
            self._joined(group)
        self._rule_less()

    def _agent_value(self, line: Line, token: str) -> None:
        value = line.value
        column = _value_column(line)
        if not value:
            self.emit("R202", line.number, column,
                      "`User-agent:` has no value, so it names no crawler")
        elif not token:
            if value.startswith("*"):
                why = ("`*` means every crawler only alone (or followed by a space), and "
                       "agent names are not patterns")
                advice = "write `User-agent: *` for every crawler, or the crawler's token"
            else:
                why = (f"Google reads a value only up to its first character outside letters, "
                       f"`-` and `_`, and here that is the first one, {_q(value[0])}")
                advice = ("name the crawler by its product token (letters, `-` and `_` "
                          "only, RFC 9309 §2.2.1)")
            self.emit("R205", line.number, column,
                      f"`User-agent: {value}` names no crawler: {why}; no crawler gets the "
                      "group's rules through this line",
                      advice=advice)
        elif token != "*" and len(value) > len(token):
            rest = value[len(token):]
            written = value[: len(token)]
            if _AGENT_SUFFIX.fullmatch(rest):
                self.emit("R204", line.number, column + len(token),
                          f"`User-agent: {value}` is read as `{token}`: {_q(rest)} after the "
                          "product token is ignored",
                          token=written)
            else:
                self.emit("R203", line.number, column + len(token),
                          f"`User-agent: {value}` is read as `{token}`: Google keeps a value "
                          "only up to its first character outside letters, `-` and `_` (here "
                          f"{_q(rest[0])}), so this group is for crawlers named `{token}`",
                          token=written)

    def _joined(self, group: Group) -> None:
        agent_lines = group.agent_lines
        for first, second in zip(agent_lines, agent_lines[1:]):
            if second == first + 1:
                continue
            between = self.lines[first : second - 1]
            joiner = next((ln for ln in between
                           if ln.key is not None or ln.reason == "invalid"), None)
            head = self.line(first)
            this = self.line(second)
            if joiner is not None:
                shown = joiner.raw.strip(SPACE)
                extra = next((ln for ln in between if ln.key in _EXTRAS), None)
                paced = ""
                if extra is not None:
                    # The other reading: Crawl-delay/Request-rate are per agent (model.Pace).
                    paced = (f"; but the `{_CANON[extra.key or '']}` of line {extra.number} "
                             f"is read for the user-agent lines above it only (line "
                             f"{first}'s agents), by robotsrules and by the crawlers that "
                             "honour it")
                self.emit("R207", second, _key_column(this),
                          f"`User-agent: {this.value}` joins the group of line {first} "
                          f"(`User-agent: {head.value}`): line {joiner.number}, "
                          f"{_q(shown)}, does not end a group (only an allow/disallow rule "
                          "does), so both agents get the rules that follow (Google's "
                          f"grouping){paced}",
                          first=first, joiner=joiner.number)
            elif any(ln.reason == "blank" for ln in between):
                self.emit("R208", second, _key_column(this),
                          f"`User-agent: {this.value}` joins the group of line {first} "
                          f"(`User-agent: {head.value}`) across a blank line: Google and RFC "
                          "9309 give both agents the rules that follow, but 1994/1996-era "
                          f"parsers end a record at a blank line and give `{head.value}` no "
                          "rules",
                          first=first)

    def _rule_less(self) -> None:
        global_rules = [r for g in self.groups if g.is_global for r in g.rules if r.pattern]
        if not global_rules:
            return
        has_rules: dict[str, bool] = {}
        for group in self.groups:
            for token in group.agents:
                has_rules[token] = has_rules.get(token, False) or bool(group.rules)
        for group in self.groups:
            if group.rules or group.is_global:
                continue
            tokens = [t for t in dict.fromkeys(group.agents) if t and not has_rules[t]]
            if not tokens:
                continue
            names = ", ".join(f"`{t}`" for t in tokens[:3])
            if len(tokens) > 3:
                names += f" and {len(tokens) - 3} more"
            extras = " (it sets only a crawl delay)" if group.crawl_delay is not None else ""
            them = "it" if len(tokens) == 1 else "them"
            self.emit("R209", group.line, _value_column(self.line(group.line)),
                      f"the group for {names} has no allow/disallow rule{extras}: because a "
                      f"group names {them}, the `*` rules (line {global_rules[0].line}"
                      f"{' and others' if len(global_rules) > 1 else ''}) do not apply and "
                      f"{names} may fetch everything")

    # -- pass 4: rules ----------------------------------------------------------------------
    def rule_checks(self) -> None:
        self.non_ascii_paths.clear()
        self.line_encodings.clear()
        paths: list[tuple[str, int, str, str, str]] = []
        for group in self.groups:
            decides = [r for r in group.rules if r.pattern]
            for rule in group.rules:
                self._rule_text(rule, decides)
                paths.append((_CANON[rule.directive], rule.line, rule.value, rule.pattern, ""))
            for usage in group.usage:  # a Content-Usage rule's path is a rule path too
                if usage.directive != "content-usage":
                    continue
                # The reader's own reading of the value (one home for where a path ends).
                reading = read_value("content-usage", usage.value)
                path = reading.path
                if not path:  # a value without a path has none to encode
                    continue
                tail = usage.value.strip(" \t")[len(path):]
                # The encoded form must read back as the same path and statements: a value
                # read as a path only because it failed to be a Dictionary (`*a="é", ...`)
                # may read, encoded, as a Dictionary for every path.
                encoded = encoded_pattern(usage.pattern)
                again = read_value("content-usage", encoded + tail)
                if again.path != encoded or again.statements != reading.statements:
                    continue
                paths.append(("Content-Usage", usage.line, path, usage.pattern, tail))
        # R307: the one finding for paths whose only unencoded characters are outside
        # US-ASCII comes first, so that the per-line findings (counted past MAX_PER_CODE)
        # never push it out.
        for directive, number, value, pattern, tail in paths:
            self._rule_encoding(directive, number, value, pattern, tail)
        if self.non_ascii_paths:
            self._non_ascii_paths(sorted(self.non_ascii_paths, key=lambda p: p[1]))
        for number, column, message, advice in self.line_encodings:
            self.emit("R307", number, column, message, advice=advice)
        # Merged rules of each agent: analyse each distinct set of groups once. A rule
        # never decides only if it never decides in *every* set that holds it (a rule of a
        # group for "a" and "b" may be outranked in a's merged rules but not in b's).
        sets: dict[tuple[int, ...], str] = {}
        by_token: dict[str, list[int]] = {}
        for index, group in enumerate(self.groups):
            for token in dict.fromkeys(group.agents):
                if token:
                    by_token.setdefault(token, []).append(index)
        for token in sorted(by_token):
            sets.setdefault(tuple(by_token[token]), token)
        holding: dict[int, int] = {}  # group index -> number of sets that hold it
        for indexes in sets:
            for index in indexes:
                holding[index] = holding.get(index, 0) + 1
        findings: dict[int, list[tuple[str, str, int]]] = {}  # line -> (code, message, other)
        where: dict[int, int] = {}  # line -> group index
        for indexes, token in sets.items():
            for line, index, finding in self._never_decides(indexes, token):
                findings.setdefault(line, []).append(finding)
                where[line] = index
        for line, found in findings.items():
            if len(found) == holding[where[line]]:
                code, message, other = found[0]
                self.emit(code, line, _value_column(self.line(line)), message, other=other)

    def _rule_text(self, rule: Rule, decides: Sequence[Rule]) -> None:
        line = self.line(rule.line)
        column = _value_column(line)
        directive = _CANON[rule.directive]
        value = rule.value
        if not value:
            if rule.directive == "allow":
                self.emit("R305", rule.line, column,
                          "`Allow:` with no path allows nothing: it never decides")
            elif decides:
                self.emit("R305", rule.line, column,
                          "`Disallow:` with no path disallows nothing; next to the group's "
                          f"other rules (line {decides[0].line}) it has no effect")
        elif value == "$":
            self.emit("R306", rule.line, column,
                      f"`{directive}: $` matches only an empty path, and every URL path "
                      "starts with `/`: it never matches")
        elif value[0] not in "/*":
            match = _URL_PATH.match(value)
            host = _HOST_PATH.match(value)
            if match is not None:
                fix = match.group(1) or "/"
                why = "it is a full URL, but rules match the URL's path only"
            elif host is not None:
                fix = host.group(1)
                why = "it starts with a host name, but rules match the URL's path only"
            else:
                fix = "/" + value
                why = "it is compared literally with paths, which start with `/`"
            self.emit("R301", rule.line, column,
                      f"`{directive}: {value}` never matches: {why}",
                      fix=f"{directive}: {fix}")

    def _rule_encoding(self, directive: str, number: int, value: str, pattern: str,
                       tail: str) -> None:
        """R307: a rule path written with characters that should be percent-encoded. Paths
        with only characters outside US-ASCII to encode are gathered for one finding per
        file (:meth:`_non_ascii_paths`); the others are kept for one finding a line."""
        kinds = unencoded(value)
        if not kinds:
            return
        fix = path_fix(directive, pattern, tail)
        if kinds == ("non-ascii",) and fix == pattern:  # the same URLs: once per file
            self.non_ascii_paths.append((directive, number, value, pattern, tail))
            return
        what = {"non-ascii": "characters outside US-ASCII", "space": "a space",
                "control": "control characters"}
        held = [what[kind] for kind in kinds]
        encoded = encoded_pattern(pattern)
        if fix is None:
            octets = len(text_octets(f"{directive}: {encoded}{tail}"))
            self.line_encodings.append((
                number, _value_column(self.line(number)),
                f"`{directive}: {value}` holds {' and '.join(held)}, but written "
                f"percent-encoded the line would be {octets:,} octets, past the "
                f"{MAX_LINE_BYTES:,} octets Google's library reads of a line: the rest would be "
                "cut off, leaving a shorter prefix that matches other URLs",
                "shorten the path before encoding it (for example, end it with `*` or "
                "match a long run with `*`)"))
            return
        self.line_encodings.append((
            number, _value_column(self.line(number)),
            f"`{directive}: {value}` holds {' and '.join(held)}: a space or control "
            "character is matched as written (as Google's library does), so URLs sent "
            f"percent-encoded (`{encoded}`) do not match it",
            f"write `{directive}: {fix}{tail}`"))

    def _non_ascii_paths(self, found: Sequence[tuple[str, int, str, str, str]]) -> None:
        """The one R307 of a file for paths with characters outside US-ASCII only."""
        directive, number, value, pattern, tail = found[0]
        encoded = encoded_pattern(pattern)
        others = (f"; {len(found) - 1} more rule paths hold such characters (lines "
                  f"{_line_list([f[1] for f in found[1:]])})" if len(found) > 1 else "")
        self.emit("R307", number, _value_column(self.line(number)),
                  f"`{directive}: {value}` holds characters outside US-ASCII{others}: they "
                  f"are matched percent-encoded (`{encoded}`, the same URLs), as Google's "
                  "library encodes rule paths; other parsers may compare the raw text",
                  advice=f"write `{directive}: {encoded}{tail}`")

    def _never_decides(self, indexes: Sequence[int], token: str
                       ) -> Iterable[tuple[int, int, tuple[str, str, int]]]:
        """(line, group index, finding) for each rule of these merged groups that never
        decides because a rule matching exactly the same URLs always outranks it."""
        classes: dict[tuple[str, bool], list[tuple[Rule, int]]] = {}
        for index in indexes:
            for rule in self.groups[index].rules:
                pattern = rule.pattern
                if pattern and pattern[0] in "/*":
                    classes.setdefault(_canonical(pattern), []).append((rule, index))
        for members in classes.values():
            if len(members) < 2:
                continue
            best, best_group = max(members, key=lambda m: rule_rank(m[0]))
            for rule, index in members:
                if rule is best:
                    continue
                if rule.directive == "allow" and index_html_folder(rule.pattern):
                    continue  # Google-specific: its extra "/d/$" rule may still decide
                merged = ("" if index == best_group
                          else f" (groups naming `{token}` are merged)")
                this = f"`{_CANON[rule.directive]}: {rule.value}`"
                other = f"`{_CANON[best.directive]}: {best.value}`"
                if rule.directive == best.directive:
                    code = "R302"
                    if rule.pattern == best.pattern:
                        message = f"{this} repeats line {best.line}{merged}: it never decides"
                    else:
                        message = (f"{this} matches exactly the URLs of {other} (line "
                                   f"{best.line}), which outranks it{merged}: it never decides")
                elif rule.pattern == best.pattern:
                    code = "R303"
                    message = (f"{this} never decides: {other} (line {best.line}) has the "
                               f"same pattern and an allow wins a tie (RFC 9309 §2.2.2)"
                               f"{merged}")
                else:
                    code = "R304"
                    if len(best.pattern) > len(rule.pattern):
                        why = (f"has the longer pattern ({len(best.pattern)} bytes against "
                               f"{len(rule.pattern)})")
                    else:
                        why = "is an allow of the same length, which wins a tie"
                    message = (f"{this} never decides: {other} (line {best.line}) matches "
                               f"exactly the same URLs and {why}, so it always wins{merged}")
                yield rule.line, index, (code, message, best.line)


    # -- pass 5: google, rfc and legacy modes ------------------------------------------------
    def mode_checks(self) -> None:
        wildcards: list[Rule] = []
        for group in self.groups:
            if not any(group.agents):
                continue  # names no crawler (R202/R205)
            for rule in group.rules:
                pattern = rule.pattern
                if not pattern or pattern[0] not in "/*":
                    continue  # never matches in any mode (R301, R306)
                this = f"`{_CANON[rule.directive]}: {rule.value}`"
                column = _value_column(self.line(rule.line))
                if "*" in pattern or pattern.endswith("$"):
                    wildcards.append(rule)
                escape = _escape_difference(pattern)
                if escape is not None:
                    written, char = escape
                    if char in "*$":
                        how = (f"RFC 9309 reads `{written}` as a literal `{char}` in rules and "
                               f"URLs alike, Google matches only URLs that spell it "
                               f"`{written}`")
                        advice = (f"avoid `{written}` in rules (write a rule for each "
                                  "spelling), so that every reader agrees")
                    else:
                        how = (f"Google compares `{written}` as written (it does not match "
                               f"`{char}`), RFC 9309 decodes it to `{char}` first")
                        advice = (f"write `{char}` instead of `{written}`: every reader then "
                                  "matches the usual spelling of the URL")
                    self.emit("R501", rule.line, column,
                              f"{this} depends on the reading: {how}", advice=advice)
                if rule.directive == "allow" and index_html_folder(rule.pattern):
                    slash = pattern.rfind("/")
                    folder = rule.value[: rule.value.rfind("/") + 1] or pattern[: slash + 1]
                    self.emit("R501", rule.line, column,
                              f"{this} also allows `{folder}` itself for Google (its "
                              "index.html rule); RFC 9309 and legacy parsers do not",
                              advice=f"add `Allow: {folder}$` if `{folder}` should be allowed "
                                     "for every reader")
        if wildcards:
            first = wildcards[0]
            more = len(wildcards) - 1
            others = f" and {more} other rule{'s' if more > 1 else ''}" if more else ""
            self.emit("R501", first.line, _value_column(self.line(first.line)),
                      f"`{_CANON[first.directive]}: {first.value}`{others} "
                      f"use{'' if more else 's'} `*` or a final "
                      "`$`, wildcards for Google and RFC 9309; legacy (1994/1996, "
                      "urllib.robotparser) parsers compare them literally, so for them these "
                      "rules match (almost) no URL",
                      advice="if old crawlers matter to you, add plain-prefix rules for them")
        self._first_match()

    def _first_match(self) -> None:
        """Rules legacy parsers never reach: an earlier rule of the record with the other
        outcome matches every URL they match (first match wins there, longest here)."""
        if _LEGACY_ALLOWS.search(self.text) is None:
            return  # every legacy rule disallows: order cannot change an outcome
        dead = self.dead_lines
        used = {r.line for g in self.groups if any(g.agents) for r in g.rules}
        for record in legacy.build(self.text):
            earlier: dict[str, Rule] = {}
            hidden: dict[Rule, list[Rule]] = {}  # an empty rule -> the rules it hides
            for rule in record.rules:
                path = rule.pattern
                if (rule.value and rule.line in used and rule.line not in dead
                        and len(path) <= _LEGACY_MAX_PATH):
                    first: Optional[Rule] = None
                    for size in range(len(path) + 1):
                        hit = earlier.get(path[:size])
                        if hit is not None and (first is None or hit.line < first.line):
                            first = hit
                    if first is not None and _legacy_allows(first) != _legacy_allows(rule):
                        if first.value:
                            self._first_match_found(rule, first)
                        else:
                            hidden.setdefault(first, []).append(rule)
                earlier.setdefault(path, rule)
            for empty, rules in hidden.items():
                count = len(rules)
                which = (f"`{_CANON[rules[0].directive]}: {rules[0].value}`" if count == 1
                         else f"the {count} disallow rules after it (lines {rules[0].line}-"
                              f"{rules[-1].line})")
                line = empty.line
                self.emit("R501", line, _value_column(self.line(line)),
                          "legacy (1994/1996, urllib.robotparser) parsers read this empty "
                          f"`{_CANON[empty.directive]}:` as 'allow every URL', so {which} "
                          "never apply for them; Google and RFC 9309 ignore it",
                          advice=f"remove line {line}, or put it in a group of its own")

    def _first_match_found(self, rule: Rule, first: Rule) -> None:
        this = f"`{_CANON[rule.directive]}: {rule.value}`"
        verdict = "allowed" if _legacy_allows(first) else "disallowed"
        self.emit("R501", rule.line, _value_column(self.line(rule.line)),
                  f"legacy (1994/1996, urllib.robotparser) parsers never reach {this}: "
                  f"`{_CANON[first.directive]}: {first.value}` (line {first.line}) comes "
                  f"first and matches every URL it matches, so for them those URLs are "
                  f"{verdict}; Google and RFC 9309 let the longest match win",
                  advice=f"move line {rule.line} above line {first.line} (legacy parsers use "
                         "the first matching rule; Google and RFC 9309 do not care about "
                         "order)")


_YES = ("yes", "y", "true", "1", "allow", "allowed", "ok")


def _usage_value_fix(value: str, signal: bool) -> str:
    """The value meant by ``value`` in the line's own format (no when unsure)."""
    yes = value.strip('"').lower() in _YES
    if signal:
        return "yes" if yes else "no"
    return "y" if yes else "n"


def _usage_name_advice(name: str, signal: bool, names: Sequence[str]) -> str:
    folded = name.lower().replace("_", "-")
    to_category = revision().signals  # the current reading's mapping (data/vocabularies.json)
    other = {c: s for s, c in to_category.items()} if signal else to_category
    if folded in names:
        return f"write `{folded}`" + ("" if signal else " (labels are lower case)")
    if folded in other:
        return (f"write `{other[folded]}`: `{folded}` is the "
                f"{'IETF category' if signal else 'content-signal'} name for this use")
    close = difflib.get_close_matches(folded, list(names), 1, 0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    return f"the names are {', '.join(f'`{n}`' for n in names)}"


def _superseded_advice(label: str, current: Mapping[str, str]) -> str:
    """What to write instead of a superseded label, from what the label meant."""
    if label in ("train-genai",) and "train-ai" in current:
        return "write `train-ai` (AI Model Training), which covers what it meant"
    if label in ("bots", "all"):
        names = " and ".join(f"`{name}`" for name in current)
        return (f"state each current category instead ({names}), e.g. "
                f"`{', '.join(f'{name}=n' for name in current)}`")
    return ("the current revision has no counterpart; keep it if readers of that revision "
            "matter to you, and state the current categories too")


def _fully_disallowed(rules: AgentRules, path: str) -> bool:
    """True when every URL under ``path`` (a pattern without wildcards) is disallowed.

    Conservative: the rule that decides ``path`` must be a disallow without ``$`` (so it
    matches every longer URL too), longer than every allow rule (so none can outrank it).
    """
    if "*" in path or path.endswith("$"):
        return False
    verdict = rules.explain(path)
    rule = verdict.rule
    if verdict.allowed or rule is None or rule.pattern.endswith("$"):
        return False
    return all(len(r.pattern) < len(rule.pattern)
               for g in rules.groups for r in g.rules if r.directive == "allow" and r.pattern)


def lint(content: bytes | str, *, max_bytes: Optional[int] = DEFAULT_MAX_BYTES
         ) -> list[Diagnostic]:
    """Check a robots.txt and return its diagnostics, sorted by position.

    ``content`` and ``max_bytes`` mean what they mean for :func:`robotsrules.parse`: the
    lint reads exactly what the parser reads. Never raises for content.

    >>> for d in lint(b"User-agent: *\\nDisalow: /private\\nDisallow: fish\\n"):
    ...     print(d.line, d.column, d.code, d.name)
    2 1 R102 key-typo
    3 11 R301 path-not-slash
    """
    if isinstance(content, str):
        data = text_octets(content)
    elif isinstance(content, (bytes, bytearray, memoryview)):
        data = bytes(content)
    else:
        raise TypeError(f"content must be bytes or str, not {type(content).__name__}")
    linter = _Linter(data, max_bytes)
    linter.file_checks()
    linter.line_checks()
    linter.agent_checks()
    linter.rule_checks()
    linter.mode_checks()
    linter.usage_checks()
    linter.registry_checks()
    linter.report_cuts()
    return sorted(linter.found, key=_order)


def _order(diagnostic: Diagnostic) -> tuple[int, int, str]:
    return (diagnostic.line, diagnostic.column, diagnostic.code)


def _extra_shown(read: object) -> str:
    """A capped ``Crawl-delay`` or ``Request-rate`` as robotsrules reads it."""
    if isinstance(read, RequestRate):
        return f"`{read.requests}/{_seconds(read.seconds)}s`"
    return f"`{_seconds(read)}` seconds" if isinstance(read, float) else "nothing"


def _seconds(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"
