"""One access-log line of each format the audit reads, to one :class:`Request` (sans-I/O).

Each format has a parser object with one method, ``parse(line)``: the line's text (one
line, its end removed) in, and out a :class:`Request`, ``None`` for a line that is the
file's own header or comment (CloudFront's ``#Version:`` and ``#Fields:``), or the
:data:`Problem` that kept the line from being a request. Nothing here raises on content,
reads a file or keeps more than one line; :mod:`._logs` does the streaming.

The formats, as their documentation describes them. Sources, read on 2026-11-27 (whole
pages or the excerpts the project's search holds; where only secondary copies were read,
it says so):

* ``common``, ``combined``: Apache HTTP Server, mod_log_config, "Common Log Format" and
  "Combined Log Format" (``%h %l %u %t "%r" %>s %b``, then ``"%{Referer}i"
  "%{User-agent}i"``; read through copies of the page and of distributions' configuration
  files); nginx's predefined ``combined`` ``log_format`` (ngx_http_log_module) is the same
  line, and the sample ``main`` format of its shipped nginx.conf adds
  ``"$http_x_forwarded_for"``, read here as the forwarded address. Apache's "Format Notes"
  (since 2.0.46): non-printable and special characters in ``%r``, ``%i`` and ``%o`` are
  written as ``\\xhh``, except ``"`` and ``\\`` (a backslash before them) and whitespace
  (``\\n``, ``\\t``...). nginx's CHANGES: 0.7.0 (19 May 2008) escapes 0x00-0x1F, ``"`` and
  ``\\`` as ``\\xXX``; 1.1.6 (17 Oct 2011) extends it ("the 0x7F-0x1F characters", as
  written; both entries read as quoted in a public gist's comments).
  Both are undone: fields are read as the client sent them.
* ``vhost_common``, ``vhost_combined``: the same lines after one more field, Apache's
  ``%v:%p`` (the ``vhost_combined`` nickname of Debian's and SUSE's configurations) or a
  ``$host`` an nginx site puts first; read as the request's host, the port dropped.
* ``nginx_json``: a JSON object per line, ``log_format ... escape=json`` (ngx_http_log_module,
  "The escape parameter (1.11.8)"): the keys are the site's own choice, so a field mapping
  (:data:`NGINX_JSON_FIELDS` by default, nginx's variable names and common spellings) says
  which key holds the time, the address, the request and so on. nginx writes bytes from
  0x80 up raw in this mode: invalid UTF-8 is read as ``%hh`` (RFC 9309 §2.2.2).
* ``caddy``: Caddy 2's JSON access log (caddyserver.com, "log" directive, and a field-by-field
  note on its JSON): ``ts`` (seconds since the epoch as a float by default, or ISO 8601
  text when configured), a ``request`` object with ``remote_ip`` (older releases wrote
  ``remote_addr`` as ``ip:port``; release not checked here), ``client_ip`` (the client Caddy
  believes, behind trusted proxies), ``method``, ``host``, ``uri`` and ``headers`` (each
  header a list of values, names in any case), ``status`` (0: closed before an answer,
  read as none) and ``size``.
* ``cloudflare``: Cloudflare Logpush ``http_requests`` as NDJSON (developers.cloudflare.com,
  "Log output options": NDJSON by default, ``timestamp_format`` ``unixnano``, ``unix`` or
  ``rfc3339``; the field list from a copy of "Log fields"): ``ClientIP``,
  ``ClientRequestHost``, ``ClientRequestMethod``, ``ClientRequestURI`` (path and query; else
  ``ClientRequestPath``), ``ClientRequestUserAgent``, ``ClientRequestReferer``,
  ``EdgeStartTimestamp`` (milliseconds read too, told apart by size),
  ``EdgeResponseStatus``, ``EdgeResponseBytes``.
* ``cloudfront``: Amazon CloudFront standard logs (AWS, CloudFront Developer Guide,
  "Standard logging reference", "Log file fields", 33 fields): W3C extended lines,
  tab-separated, after ``#Version:`` and ``#Fields:`` header lines that name the columns
  (the 33 fields in the documented order when a file has no header); ``date`` and
  ``time`` in UTC, ``c-ip``, ``cs-method``, ``cs-uri-stem`` and ``cs-uri-query``,
  ``x-host-header`` (else ``cs(Host)``, the distribution's name), ``sc-status``,
  ``sc-bytes``, ``cs(Referer)``, ``cs(User-Agent)`` (URL-encoded: decoded here) and
  ``x-forwarded-for``; ``-`` is no value.
* ``alb``: AWS Application Load Balancer access logs (AWS, "Access logs for your
  Application Load Balancer", "Access log entries"; the field order checked against a
  copy of the entry syntax): space-separated, some fields in double quotes: ``type time
  elb client:port target:port``, three durations, ``elb_status_code target_status_code
  received_bytes sent_bytes "request" "user_agent" ssl_cipher ssl_protocol
  target_group_arn "trace_id" "domain_name" "chosen_cert_arn" matched_rule_priority
  request_creation_time`` and more. ``time`` is when the response was sent,
  ``request_creation_time`` when the request came (read first, where present); both ISO
  8601 in UTC. ``"request"`` holds the full URL (``GET https://host:443/path?q HTTP/1.1``).

Times are read to aware UTC datetimes from every form these write: ``[10/Oct/2000:13:55:36
-0700]``, ISO 8601 with ``Z`` or an offset (zone-less ISO text is UTC, as CloudFront's and
ALB's are documented to be), and seconds, milliseconds or nanoseconds since the epoch.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from typing import (
    Any,
    Callable,
    Final,
    Literal,
    NamedTuple,
    Optional,
    Union,
)
from urllib.parse import unquote, urlsplit

from .._dates import read_date
from ..errors import InvalidArgument

__all__ = ["CLOUDFRONT_FIELDS", "FORMATS", "NGINX_JSON_FIELDS", "SIBLINGS", "Clf", "FormatName",
           "Outcome", "Parser", "Problem", "Request", "clf_time", "is_binary", "make_parser",
           "passes", "read_time", "scan_token", "scan_tokens"]

FormatName = Literal["common", "combined", "vhost_common", "vhost_combined", "nginx_json",
                     "caddy", "cloudflare", "cloudfront", "alb"]
FORMATS: Final[tuple[FormatName, ...]] = (
    "vhost_combined", "combined", "vhost_common", "common", "caddy", "cloudflare",
    "nginx_json", "cloudfront", "alb")
"""Every format, in the order detection tries them (the richer reading of a line first)."""
SIBLINGS: Final[Mapping[str, tuple[FormatName, ...]]] = {
    **dict.fromkeys(("vhost_combined", "combined", "vhost_common", "common"),
                    ("vhost_combined", "combined", "vhost_common", "common")),
    **dict.fromkeys(("caddy", "cloudflare", "nginx_json"), ("caddy", "cloudflare", "nginx_json")),
}
"""The formats a line that the chosen one cannot read is tried with (a file's first lines,
written by a stranger, must not decide how the rest is read): one family's shapes."""

Problem = Literal["malformed", "unknown_format", "too_long", "binary", "clock_backwards",
                  "unparsable_time", "missing_user_agent", "damaged"]
"""Why a line is not a request, or what is wrong with one that is: ``malformed`` (not the
format's shape), ``unknown_format`` (a file no format reads), ``too_long`` (over the line
bound), ``binary`` (NUL or other control bytes no server writes raw), ``unparsable_time``,
``damaged`` (a compressed file cut short or corrupt, or a read error: its unfinished last
line). Two are notes on requests that are still read: ``clock_backwards`` (earlier than a
line before it in the same file, by more than the allowed skew) and ``missing_user_agent``
(the format has the field, the line has no value)."""


class Request(NamedTuple):
    """One request as the log wrote it. ``time`` is aware, in UTC; ``client`` is the address
    the server saw (the peer of the connection); ``forwarded`` the client address a proxy
    or CDN named, where the log has one (``X-Forwarded-For``'s last address, Caddy's
    ``client_ip``, Cloudflare's ``ClientIP``); ``target`` the path and query as sent;
    ``None`` where the format has no such field or the line has no value (``-``)."""

    time: datetime.datetime
    client: Optional[str]
    method: Optional[str]
    target: Optional[str]
    host: Optional[str]
    status: Optional[int]
    bytes: Optional[int]
    referer: Optional[str]
    user_agent: Optional[str]
    forwarded: Optional[str] = None


Outcome = Union[Request, Problem, None]
"""What a parser makes of a line: a request, the problem that kept it from being one, or
``None`` for the file's own header and comment lines."""


class _TimeError(ValueError):
    pass


# ---------------------------------------------------------------------------- times

_UTC: Final = datetime.timezone.utc
_MONTHS: Final = {name: number for number, name in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_EPOCH: Final = datetime.datetime(1970, 1, 1, tzinfo=_UTC)


_HOURS: dict[str, datetime.datetime] = {}
"""Each ``10/Oct/2000:13 -0700`` hour and zone read (a log's lines share their hours), as
an aware UTC time; an hour that is no time (the first one of year 1 east of UTC) is not
kept. Bounded: cleared when full."""
_MAX_HOURS: Final = 4096
_MINUTES: Final = [datetime.timedelta(minutes=n) for n in range(60)]
_SECONDS: Final = [datetime.timedelta(seconds=min(n, 59)) for n in range(61)]
_CLOCK: Final = {f":{m:02d}:{s:02d}": _MINUTES[m] + _SECONDS[s]
                 for m in range(60) for s in range(61)}
"""Every ``:55:36`` (minutes and seconds, ``:00:00`` to ``:59:60``, a leap second read as
:59), as the time since its hour began: 3,660 entries made once (about 0.5 MB), so that a
line's time is one look-up here and one in :data:`_HOURS`, and one addition."""


def _clf_read(text: str) -> datetime.datetime:
    """:func:`clf_time` the long way, every field checked and read; the hour (in its zone)
    kept for the lines after it."""
    if len(text) != 26 or text[2] != "/" or text[6] != "/" or text[11] != ":" \
            or text[14] != ":" or text[17] != ":" or text[20] != " " or text[21] not in "+-":
        raise _TimeError(text)
    month = _MONTHS.get(text[3:6])
    digits = text[0:2] + text[7:11] + text[12:14] + text[15:17] + text[18:20] + text[22:26]
    if month is None or not digits.isdigit() or not digits.isascii():
        raise _TimeError(text)
    hours, minutes = int(text[22:24]), int(text[24:26])
    hour, minute, second = int(text[12:14]), int(text[15:17]), int(text[18:20])
    if minutes > 59 or hours > 23 or minute > 59 or hour > 23 or second > 60:
        raise _TimeError(text)
    offset = hours * 3600 + minutes * 60
    east = offset if text[21] == "+" else -offset
    try:
        day = datetime.datetime(int(text[7:11]), month, int(text[0:2]), tzinfo=_UTC)
        # the minute, then its seconds: zones are whole minutes, so no time overflows that
        # its minute does not
        found = day + datetime.timedelta(seconds=hour * 3600 + minute * 60 - east)
    except (ValueError, OverflowError) as error:  # no such day; year 1 east of UTC...
        raise _TimeError(text) from error
    try:
        start = day + datetime.timedelta(seconds=hour * 3600 - east)
    except OverflowError:  # 01/Jan/0001:00:30 +0001 is a time, its hour's start is not
        pass
    else:
        if len(_HOURS) >= _MAX_HOURS:
            _HOURS.clear()
        _HOURS[text[:14] + text[20:]] = start
    return found + _SECONDS[second]


def clf_time(text: str) -> datetime.datetime:
    """``10/Oct/2000:13:55:36 -0700`` (strftime's ``%d/%b/%Y:%H:%M:%S %z``), exactly, to an
    aware UTC time; ``ValueError`` when it is no such time. The hour and zone are read once
    (:data:`_HOURS`), the minutes and seconds looked up (:data:`_CLOCK`); a line's time is
    their sum. Only a text read in full, 26 characters long, puts an hour in
    :data:`_HOURS`, and the two keys cover the whole text, so a text found in both is a
    time that was read in full before, but for its minutes and seconds, which are valid.

    >>> clf_time("10/Oct/2000:13:55:36 -0700").isoformat()
    '2000-10-10T20:55:36+00:00'
    """
    hour = _HOURS.get(text[:14] + text[20:])
    clock = _CLOCK.get(text[14:20])
    if hour is None or clock is None:
        return _clf_read(text)
    try:
        return hour + clock
    except OverflowError as error:  # 31/Dec/9999:23:59:59 -0001: its hour is a time
        raise _TimeError(text) from error


def _epoch(value: Union[int, float]) -> datetime.datetime:
    """Seconds, milliseconds or nanoseconds since the epoch, told apart by size (seconds
    up to 10^11, year 5138; milliseconds up to 10^14; microseconds up to 10^17)."""
    if value != value or value < 0 or value >= 10 ** 20:  # NaN, before 1970, nonsense
        raise _TimeError(str(value))
    if isinstance(value, int):
        for scale in (1, 1_000, 1_000_000, 1_000_000_000):
            if value < 10 ** 11 * scale or scale == 1_000_000_000:
                seconds, rest = divmod(value, scale)
                return _EPOCH + datetime.timedelta(
                    seconds=seconds, microseconds=rest * 1_000_000 // scale)
    for scale in (1, 1_000, 1_000_000, 1_000_000_000):
        if value < 10 ** 11 * scale or scale == 1_000_000_000:
            return _EPOCH + datetime.timedelta(seconds=value / scale)
    raise AssertionError("unreachable")  # pragma: no cover


def read_time(value: Any) -> datetime.datetime:
    """A log's time, in any of the forms the formats write, to an aware UTC datetime;
    :class:`ValueError` when it is none of them.

    >>> read_time("10/Oct/2000:13:55:36 -0700").isoformat()
    '2000-10-10T20:55:36+00:00'
    >>> read_time(1526810289280000000).isoformat()
    '2018-05-20T09:58:09.280000+00:00'
    """
    if isinstance(value, bool):
        raise _TimeError(str(value))
    if isinstance(value, (int, float)):
        return _epoch(value)
    if not isinstance(value, str) or not value or len(value) > 64:
        raise _TimeError(repr(value)[:80])
    if value[0].isdigit() and value[2:3] == "/":
        return clf_time(value)
    if value.isdigit() and value.isascii():
        return _epoch(int(value))
    if value.count(".") == 1 and value.replace(".", "", 1).isdigit() and value.isascii():
        return _epoch(float(value))
    try:
        found = read_date(value) if value[:4].isdigit() else None
        if found is None:
            raise _TimeError(value)
        return found.astimezone(_UTC)
    except OverflowError as error:  # year 1 east of UTC, 9999 west of it
        raise _TimeError(value) from error


# ----------------------------------------------------------------------- text helpers

_BINARY: Final = re.compile(r"[\x00-\x08\x0a-\x1f]")
_ESCAPES: Final = re.compile(r"\\(x[0-9A-Fa-f]{2}|[\"\\ntrvfb])")
_C_ESCAPES: Final = {"n": b"\n", "t": b"\t", "r": b"\r", "v": b"\v", "f": b"\f", "b": b"\b",
                     '"': b'"', "\\": b"\\"}


def is_binary(text: str) -> bool:
    """Whether a line holds bytes no access log writes raw: NUL and the other C0 controls
    but tab (every server here escapes them; a line with them is junk, not a request)."""
    return _BINARY.search(text) is not None


def _unescape(text: str, url: bool = False) -> str:
    """Apache's and nginx's escapes (``\\"``, ``\\\\``, ``\\n``..., ``\\xhh``) undone, the
    bytes read as UTF-8 (invalid bytes kept as ``\\xhh`` text; in a request line, ``url``,
    percent-encoded as rules encode them, ``%E9``: RFC 9309 §2.2.2)."""
    if "\\" not in text:
        return text
    out = bytearray()
    position = 0
    for match in _ESCAPES.finditer(text):
        out += text[position:match.start()].encode("utf-8", "surrogateescape")
        code = match.group(1)
        out += bytes((int(code[1:], 16),)) if code[0] == "x" else _C_ESCAPES[code]
        position = match.end()
    out += text[position:].encode("utf-8", "surrogateescape")
    if url:
        from .._rules._urls import url_text

        return url_text(out.decode("latin-1"))
    return out.decode("utf-8", "backslashreplace")


_SCAN: list[re.Pattern[str]] = []
_TERMINAL: Final = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?)")
_INVISIBLE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f"
                               r"\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]")


def _scan_pattern() -> re.Pattern[str]:
    """The registry's tokens as one pattern (built once, longest tokens first)."""
    if not _SCAN:
        from .._tables._crawlers import known_crawlers

        tokens = sorted({c.token for c in known_crawlers() if c.token and len(c.token) >= 4},
                        key=lambda t: (-len(t), t))
        named = [t for t in tokens if re.search("bot|spider|crawl|fetch", t, re.IGNORECASE)]
        _SCAN.append(re.compile(
            r"(?<![\w-])(?:(" + "|".join(map(re.escape, named)) + r")(?![\w-])|("
            + "|".join(map(re.escape, tokens)) + r")/)", re.IGNORECASE))
    return _SCAN[0]


def scan_token(text: str) -> Optional[str]:
    """A registry crawler's product token written anywhere in ``text`` as a word (case
    insensitive, after removing control and format characters): one written as a product
    (``Token/``) or one naming a bot, spider or crawler; the first found, else ``None``.

    >>> scan_token("Mozilla/5.0 (compatible; \u200bGPTBot/1.0)")
    'GPTBot'
    """
    found = scan_tokens(text)
    return found[0] if found else None


def scan_tokens(text: str) -> list[str]:
    """Every registry token :func:`scan_token` would find in ``text``, in order, each once
    (case-insensitive)."""
    seen: dict[str, str] = {}
    for found in _scan_pattern().finditer(_INVISIBLE.sub("", _TERMINAL.sub(" ", text[:8192]))):
        token = found.group(1) or found.group(2)
        seen.setdefault(token.lower(), token)
    return list(seen.values())


def _dash(text: Optional[str]) -> Optional[str]:
    return None if text is None or text in ("", "-") else text


def _number(text: Any) -> Optional[int]:
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if text >= 0 else None
    if isinstance(text, str) and 0 < len(text) <= 19 and text.isdigit() and text.isascii():
        return int(text)
    return None


def _last_address(header: Optional[str]) -> Optional[str]:
    """The last address of an ``X-Forwarded-For`` value (the one the proxy in front of the
    server added; the entries before it are whatever the client typed), or ``None``."""
    if header is None:
        return None
    last = header.rsplit(",", 1)[-1].strip()
    return _dash(last)


def _request_line(text: str) -> tuple[Optional[str], Optional[str]]:
    """``GET /path?q HTTP/1.1`` (or HTTP/0.9's ``GET /path``) to method and target;
    ``(None, None)`` for anything else (``-``, a TLS handshake sent to a plain port). A
    target with raw spaces (a hostile client's; servers log the line as received) is kept
    whole when the line ends with the protocol."""
    method, _, rest = text.partition(" ")
    if not rest or not method.isalpha() or not method.isascii():
        return None, None
    target, _, protocol = rest.rpartition(" ")
    if protocol.startswith("HTTP/") and target:
        return method, target
    if " " not in rest:  # HTTP/0.9: no protocol
        return method, rest
    return None, None


# ----------------------------------------------------------------- the parsers

def _quoted(out: str) -> str:
    """A double-quoted field with backslash escapes inside: the unrolled loop (no
    alternation per character); ``out``: characters no part of it may hold (in a class)."""
    escaped = r"\\." if not out else r"\\[^" + out + "]"
    return r'"([^"\\' + out + r']*(?:' + escaped + r'[^"\\' + out + r']*)*)"'


_QUOTED: Final = _quoted("")
_CONTROLS: Final = r"\x00-\x08\x0a-\x1f"
"""The C0 controls but tab, as a class's range: :attr:`Clf.lines` reads no line that holds
one (such a line is junk, ``binary``); LF among them, so that no part of it crosses a line
end."""


def _clf_pattern(vhost: bool, combined: bool, out: str) -> str:
    """The common or combined line, without its anchors; ``out`` (:data:`_CONTROLS` or
    nothing): characters no part of it may hold (every part but the fixed text is a class
    then, non-space ones too)."""
    word = r"\S" if not out else r"[^\s" + out + "]"
    return ((rf"({word}+) " if vhost else r"()")
            + rf"({word}+) ({word}+) ({word}+) \[([^\]" + out + r"]*)\] " + _quoted(out)
            + r" ([0-9]{3}|-) ([0-9]{1,19}|-)"
            + (" " + _quoted(out) + " " + _quoted(out) + "(?: " + _quoted(out) + ")?"
               if combined else "")
            # a common line may go on (combinedio's byte counts, a combined line read as
            # common)
            + (r"(?:[^\S" + out + "][^" + out + "]*)?" if out else r"(?:\s.*)?"))


class Clf:
    """The common and combined lines, optionally after a virtual host field.

    :attr:`pattern` matches one line's text; :attr:`lines` finds every line of a text of
    lines joined by LF (``findall``: one tuple of the same groups per line it matches, in
    order) that matches :attr:`pattern` and holds no C0 control but tab (a line with one is
    ``binary``, never read). It is :attr:`pattern` with every class made to refuse those
    characters, LF among them, anchored by ``^`` and ``$`` in MULTILINE mode: Python's
    ``^``, ``$`` and ``.`` know no line end but LF (CR, NEL, U+2028, U+2029 are characters
    like any other, as in :attr:`pattern`), and no part can cross an LF, so a match is
    exactly one whole line, its groups the ones :attr:`pattern` gives (the same expression,
    tried in the same order; an optional group that took no part is ``""`` in a tuple,
    ``None`` in a match: :meth:`request` reads both alike)."""

    def __init__(self, vhost: bool, combined: bool) -> None:
        self.vhost = vhost
        self.combined = combined
        self.pattern = re.compile(_clf_pattern(vhost, combined, "") + r"\Z")
        self.lines = re.compile(r"^" + _clf_pattern(vhost, combined, _CONTROLS) + r"$",
                                re.MULTILINE)
        self._last: tuple[str, datetime.datetime] = ("", _EPOCH)

    def parse(self, line: str, keep: Optional[Callable[[str], bool]] = None) -> Union[
            Outcome, datetime.datetime]:
        """The line's request (or problem); with ``keep``, a combined line whose request
        field cannot name ``/robots.txt`` and whose User-Agent is plain text (no escape,
        not ``-``) and not kept by ``keep(user_agent)`` gives only its time: nothing else
        of it is read (a browser's line, most of a log)."""
        match = self.pattern.match(line)
        if match is None:
            return "malformed"
        stamp = match.group(5)
        if stamp == self._last[0]:  # consecutive lines often share their second
            when = self._last[1]
        else:
            try:
                when = clf_time(stamp)
            except _TimeError:
                return "unparsable_time"
            self._last = (stamp, when)
        if keep is not None and self.combined:
            request, agent = match.group(6, 10)
            if passes(request, agent, keep):
                return when
        return self.request(match.groups(), when)

    def request(self, groups: Sequence[Any], when: datetime.datetime) -> Request:
        """The request of a line's groups (of :attr:`pattern` or :attr:`lines`), at ``when``
        (its time, read by :func:`clf_time`)."""
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
            last = groups[10]  # None (a match) or "" (findall) when the line has none
            forwarded = _last_address(_unescape(last)) if last else None
        status, size = groups[6], groups[7]  # ASCII digits or "-", by the pattern
        return Request(when, _dash(groups[1]), method, target, host,
                       None if status == "-" else int(status),
                       None if size == "-" else int(size), referer, agent, forwarded)


def passes(request: str, agent: str, keep: Callable[[str], bool]) -> bool:
    """Whether a combined line, by its request field and User-Agent field as written, is
    let go unread: its request cannot be a ``/robots.txt`` fetch, neither field holds an
    escape (so both are what the client sent, as ``_unescape`` would give them), the agent
    is not ``-`` and ``keep(agent)`` is false."""
    return (bool(agent) and agent != "-" and "\\" not in agent and "\\" not in request
            and "robots.txt" not in request and not keep(agent))


_LONE_SURROGATE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def _no_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate (JSON's ``\\ud800`` unpaired: not text, and
    unwritable as UTF-8 later) turned into the ``\\xhh`` text of its bytes."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "backslashreplace")
    if isinstance(value, dict):
        return {_no_surrogates(key): _no_surrogates(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_no_surrogates(item) for item in value]
    return value


def _json_object(line: str) -> Optional[dict[str, Any]]:
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
        if _LONE_SURROGATE.search(line) is not None:
            value = _no_surrogates(value)
    except (ValueError, RecursionError):  # not JSON; nested past the interpreter's depth
        return None
    return value if isinstance(value, dict) else None


NGINX_JSON_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "time": ("time_iso8601", "time_local", "msec", "@timestamp", "timestamp", "time"),
    "client": ("remote_addr", "client", "clientip", "client_ip"),
    "request": ("request",),
    "method": ("request_method", "method"),
    "target": ("request_uri", "uri_with_args", "url"),
    "host": ("host", "http_host", "server_name"),
    "status": ("status",),
    "bytes": ("body_bytes_sent", "bytes_sent", "bytes"),
    "referer": ("http_referer", "http_referrer", "referer", "referrer"),
    "user_agent": ("http_user_agent", "user_agent", "agent"),
    "forwarded": ("http_x_forwarded_for", "x_forwarded_for", "xff"),
}
"""nginx JSON keys tried for each field, in order, by default: the names of nginx's own
variables and the commonest spellings. A mapping given to :func:`make_parser` names one
key per field instead (``{"time": "ts", "user_agent": "ua"}``); fields it leaves out keep
these."""


class _NginxJson:
    def __init__(self, fields: Optional[Mapping[str, str]]) -> None:
        self.keys: dict[str, tuple[str, ...]] = dict(NGINX_JSON_FIELDS)
        for name, key in (fields or {}).items():
            if name not in NGINX_JSON_FIELDS:
                raise InvalidArgument(f"no nginx JSON field {name!r}: one of "
                                 f"{', '.join(NGINX_JSON_FIELDS)}")
            self.keys[name] = (key,)

    def _get(self, record: Mapping[str, Any], name: str) -> Optional[str]:
        for key in self.keys[name]:
            value = record.get(key)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                return value if isinstance(value, str) else str(value)
        return None

    def parse(self, line: str) -> Outcome:
        record = _json_object(line)
        if record is None:
            return "malformed"
        if self._get(record, "time") is None or (
                self._get(record, "request") is None and self._get(record, "target") is None):
            return "malformed"
        raw_time: Any = next((record[key] for key in self.keys["time"] if key in record), None)
        try:
            when = read_time(raw_time)
        except ValueError:
            return "unparsable_time"
        request = self._get(record, "request")
        method, target = _request_line(request) if request is not None else (None, None)
        method = self._get(record, "method") or method
        target = self._get(record, "target") or target
        return Request(when, _dash(self._get(record, "client")), method or None, target or None,
                       _dash(self._get(record, "host")), _number(self._get(record, "status")),
                       _number(self._get(record, "bytes")), _dash(self._get(record, "referer")),
                       _dash(self._get(record, "user_agent")),
                       _last_address(self._get(record, "forwarded")))


def _header(headers: Any, name: str) -> Optional[str]:
    """The first value of a header in Caddy's ``{"Name": ["value", ...]}`` map, any case."""
    if not isinstance(headers, dict):
        return None
    lowered = name.lower()
    for key, values in headers.items():
        if isinstance(key, str) and key.lower() == lowered:
            if isinstance(values, list) and values and isinstance(values[0], str):
                return values[0]
            if isinstance(values, str):
                return values
    return None


def _string(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value else None


class _Caddy:
    def parse(self, line: str) -> Outcome:
        record = _json_object(line)
        request = record.get("request") if record is not None else None
        if record is None or not isinstance(request, dict) or "ts" not in record:
            return "malformed"
        try:
            when = read_time(record["ts"])
        except ValueError:
            return "unparsable_time"
        remote = _string(request.get("remote_ip"))
        if remote is None and _string(request.get("remote_addr")) is not None:
            address = request["remote_addr"]  # before Caddy 2.5: "ip:port", "[v6]:port"
            remote = address.rpartition(":")[0].strip("[]") or address
        forwarded = _string(request.get("client_ip"))  # Caddy's, behind trusted proxies
        if forwarded is None:
            forwarded = _last_address(_header(request.get("headers"), "X-Forwarded-For"))
        status = record.get("status")
        return Request(when, remote, _string(request.get("method")),
                       _string(request.get("uri")), _string(request.get("host")),
                       _number(status) if status != 0 else None, _number(record.get("size")),
                       _dash(_header(request.get("headers"), "Referer")),
                       _dash(_header(request.get("headers"), "User-Agent")), forwarded)


class _Cloudflare:
    def parse(self, line: str) -> Outcome:
        record = _json_object(line)
        if record is None or "EdgeStartTimestamp" not in record or not (
                "ClientRequestURI" in record or "ClientRequestPath" in record):
            return "malformed"
        try:
            when = read_time(record["EdgeStartTimestamp"])
        except ValueError:
            return "unparsable_time"
        address = _string(record.get("ClientIP"))
        target = _string(record.get("ClientRequestURI")) or _string(record.get("ClientRequestPath"))
        return Request(when, address, _string(record.get("ClientRequestMethod")), target,
                       _string(record.get("ClientRequestHost")),
                       _number(record.get("EdgeResponseStatus")),
                       _number(record.get("EdgeResponseBytes")),
                       _dash(_string(record.get("ClientRequestReferer"))),
                       _dash(_string(record.get("ClientRequestUserAgent"))), address)


CLOUDFRONT_FIELDS: Final[tuple[str, ...]] = (
    "date", "time", "x-edge-location", "sc-bytes", "c-ip", "cs-method", "cs(Host)",
    "cs-uri-stem", "sc-status", "cs(Referer)", "cs(User-Agent)", "cs-uri-query", "cs(Cookie)",
    "x-edge-result-type", "x-edge-request-id", "x-host-header", "cs-protocol", "cs-bytes",
    "time-taken", "x-forwarded-for", "ssl-protocol", "ssl-cipher",
    "x-edge-response-result-type", "cs-protocol-version", "fle-status",
    "fle-encrypted-fields", "c-port", "time-to-first-byte", "x-edge-detailed-result-type",
    "sc-content-type", "sc-content-len", "sc-range-start", "sc-range-end")
"""The 33 fields of a CloudFront standard log, in the documented order: the columns of a
file whose ``#Fields:`` header is missing."""


class _CloudFront:
    """W3C extended lines: the columns are what the last ``#Fields:`` line said."""

    def __init__(self) -> None:
        self.columns: dict[str, int] = {name: i for i, name in enumerate(CLOUDFRONT_FIELDS)}

    def parse(self, line: str) -> Outcome:
        if line.startswith("#"):
            if line.startswith("#Fields:"):
                names = line[len("#Fields:"):].split()
                if "date" in names and "time" in names:
                    self.columns = {name: i for i, name in enumerate(names)}
            return None
        values = line.split("\t")
        if len(values) < len(self.columns) or len(values) < 2:
            return "malformed"

        def get(name: str) -> Optional[str]:
            index = self.columns.get(name)
            return _dash(values[index]) if index is not None else None

        date, clock = get("date"), get("time")
        if date is None or clock is None:
            return "malformed"
        try:
            when = read_time(f"{date}T{clock}Z")
        except ValueError:
            return "unparsable_time"
        stem, query = get("cs-uri-stem"), get("cs-uri-query")
        target = None if stem is None else stem if query is None else f"{stem}?{query}"
        agent, referer = get("cs(User-Agent)"), get("cs(Referer)")
        return Request(when, get("c-ip"), get("cs-method"), target,
                       get("x-host-header") or get("cs(Host)"), _number(get("sc-status")),
                       _number(get("sc-bytes")), referer,
                       _dash(unquote(agent, errors="backslashreplace")) if agent else None,
                       _last_address(unquote(get("x-forwarded-for") or "-")))


# type time elb client:port target:port (3 durations) elb_status target_status received sent
# "request" "user_agent", then (optionally) ssl_cipher ssl_protocol target_group_arn
# "trace_id" "domain_name" "chosen_cert_arn" matched_rule_priority request_creation_time ...
_ALB: Final = re.compile(
    r"(http|https|h2|grpcs|ws|wss) (\S+) \S+ (\S+) \S+ \S+ \S+ \S+ (\S+) \S+ \S+ (\S+) "
    + _QUOTED + " " + _QUOTED
    + r"(?: \S+ \S+ \S+ " + _QUOTED + " " + _QUOTED + " " + _QUOTED + r" \S+ (\S+))?(?: .*)?\Z")


class _Alb:
    def parse(self, line: str) -> Outcome:
        match = _ALB.match(line)
        if match is None:
            return "malformed"
        (_type, response_time, client, status, size, request, agent,
         _trace, domain, _cert, created) = match.groups()
        try:
            when = read_time(created if created not in (None, "-") else response_time)
        except ValueError:
            return "unparsable_time"
        address = client.rpartition(":")[0].strip("[]") if client != "-" else None
        method, url = _request_line(_unescape(request, url=True))
        target = host = None
        if url is not None:
            try:
                parts = urlsplit(url)
                host = parts.hostname
            except ValueError:
                parts = None
            if parts is not None:
                target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if host is None and _dash(domain):  # the request's own host wins over the SNI name
            host = domain
        return Request(when, _dash(address), method, target, host, _number(status),
                       _number(size), None, _dash(_unescape(agent)))


Parser = Union[Clf, _NginxJson, _Caddy, _Cloudflare, _CloudFront, _Alb]

_MAKERS: Final[dict[str, Callable[[Optional[Mapping[str, str]]], Parser]]] = {
    "common": lambda _fields: Clf(vhost=False, combined=False),
    "combined": lambda _fields: Clf(vhost=False, combined=True),
    "vhost_common": lambda _fields: Clf(vhost=True, combined=False),
    "vhost_combined": lambda _fields: Clf(vhost=True, combined=True),
    "nginx_json": _NginxJson,
    "caddy": lambda _fields: _Caddy(),
    "cloudflare": lambda _fields: _Cloudflare(),
    "cloudfront": lambda _fields: _CloudFront(),
    "alb": lambda _fields: _Alb(),
}


def make_parser(name: FormatName, fields: Optional[Mapping[str, str]] = None) -> Parser:
    """A fresh parser for one file of the format ``name`` (CloudFront's keeps the file's
    ``#Fields:`` line); ``fields`` maps nginx JSON fields to the site's keys.

    >>> make_parser("combined").parse('192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] '
    ...     '"GET /a?b HTTP/1.1" 200 2326 "-" "Googlebot/2.1"').target
    '/a?b'
    """
    if name not in _MAKERS:
        raise InvalidArgument(f"unknown log format {name!r}: one of {', '.join(FORMATS)}")
    return _MAKERS[name](fields)
