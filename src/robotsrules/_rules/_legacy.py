"""Legacy mode: robots.txt as the 1994 standard, the 1996 draft and ``urllib.robotparser`` read it.

``robotsrules.parse(body, mode="legacy")`` answers what Python's ``urllib.robotparser``
(unchanged from Python 3.8 to 3.13; reproduced from Python 3.11's
``Lib/urllib/robotparser.py``) answers, which is the 1994 "A Standard for Robot Exclusion"
with the 1996 draft's ``Allow`` lines. Old crawlers read files this way.

Theory of operation. Lines come from the shared per-line reader
(:func:`robotsrules._rules._parser.read_line`, its Google line limits switched off), and this module
groups and matches them as ``RobotFileParser.parse`` and ``can_fetch`` do:

* **Records** [1994 "The Format"]: a record is one or more ``User-agent`` lines and the lines
  after them; an *empty* line (nothing at all, not even spaces) ends it. User-agent lines
  followed by an empty line and no rule are dropped; ``Allow``/``Disallow`` lines outside a
  record are ignored. A ``Crawl-delay`` or ``Request-rate`` line counts as a rule line for
  grouping (a user-agent line after it opens a new record), as in urllib. Keys must be exactly
  ``user-agent``, ``allow``, ``disallow``, ``crawl-delay``, ``request-rate`` (any case, colon
  required): none of Google's typos or prefixes. Lines end where ``str.splitlines`` ends them
  (also at VT, FF, FS, GS, RS, NEL, U+2028, U+2029); line numbers count LF, CR and CRLF only,
  as everywhere else in robotsrules.
* **Agents** [1994 "User-agent"; urllib ``Entry.applies_to``]: a record applies when one of
  its user-agent values, lower-cased, is a *substring of the crawler's name* (its token,
  lower-cased, without ``/version``): ``User-agent: google`` applies to ``Googlebot``;
  ``User-agent: Googlebot-News`` does not; an empty ``User-agent:`` value applies to every
  crawler. The first record in file order that applies is used alone (records are not
  merged). A record that names ``*`` (after ``%xx`` decoding) is the default record: only the
  first such record counts, even for the other agents it names, and it applies only when no
  other record does.
* **Rules** [1996 §3.2.2 "The first match found is used"]: the first ``Allow``/``Disallow``
  line of the record, in file order, whose path is a prefix of the URL decides; none: allowed.
  An empty ``Disallow:`` allows everything [1994: "Any empty value, indicates that all URLs can
  be retrieved"] — and, being a match for every URL, shadows the rules after it. ``*`` and
  ``$`` are ordinary characters. The deciding rule is reported with reason ``"first-match"``.
* **Escapes** (urllib, not the 1996 table): each rule value is ``unquote``-d, run through
  ``urlunparse(urlparse(...))`` and ``quote``-d; the URL is ``unquote``-d whole, its path,
  params, query and fragment re-joined and ``quote``-d (an empty result is ``/``). So
  ``%7E``/``~`` and ``%2F``/``/`` compare equal (the 1996 table says ``/a%2fb.html`` does not
  match ``/a/b.html``; urllib says it does), ``?``, ``;`` and ``#`` compare as ``%3F``, ``%3B``
  and ``%23``, the fragment is part of the target, and an empty ``;`` or ``?`` vanishes. The
  ``urllib.parse`` functions of the running Python do this work, so their version matters.
* ``/robots.txt`` gets no special treatment (SPEC D3 is not applied): urllib has none.

Every deliberate difference from Python 3.11's ``urllib.robotparser`` (``RobotFileParser``
fed ``body.decode("utf-8").splitlines()`` as its ``read()`` does, then ``can_fetch``):

1. **Byte-order mark**: a UTF-8 BOM (or a prefix of one) at the start is skipped, as in every
   mode. urllib keeps it as part of the first key, so it loses the file's first line.
2. **Undecodable bytes**: bytes that are not UTF-8 are read as U+FFFD. urllib's ``read()``
   raises ``UnicodeDecodeError`` for the whole file (content never raises here).
3. **Size limit**: content past ``max_bytes`` (500 KiB by default, as in every mode) is
   ignored; ``max_bytes=None`` reads everything, as urllib does.
4. **Unparseable rule values**: an ``Allow``/``Disallow`` value that ``urllib.parse.urlparse``
   rejects (``Disallow: http://[x/``: "Invalid IPv6 URL") is ignored (the line still counts as
   a rule line for grouping); urllib's ``parse()`` raises ``ValueError``. Likewise a
   ``Crawl-delay``/``Request-rate`` value of digits ``int()`` rejects (``²``) is ignored where
   urllib raises; a value of more than 4,300 digits, which ``int()`` refuses too, is read as a
   very large number (so capped at 365 days, difference 9) where urllib raises.
5. **Caller mistakes** raise :class:`~robotsrules.InvalidAgent` or
   :class:`~robotsrules.InvalidURL` (SPEC D5/D6), in every mode: the agent must be a product
   token, ``Token/version``, ``*`` or a list of them (urllib takes any string and cuts it at
   the first ``/``: for a token the result is the same), and the URL absolute or a path
   starting with ``/`` (urllib takes any string). A URL urllib cannot take apart (``ValueError``
   or ``UnicodeEncodeError``) raises ``InvalidURL``, and so does one holding a lone surrogate
   outside U+DC80-U+DCFF anywhere (SPEC D1; urllib looks at the path only). A lone
   surrogate U+DC80-U+DCFF is the byte it escaped (SPEC D1, PEP 383), read as urllib reads
   that byte written ``%XX`` (urllib raises ``UnicodeEncodeError``). A list of tokens
   is an extension: the first record that applies to any of them is used.
6. **Numbers**: ``crawl_delay()`` is a float (urllib: an int) and ``request_rate().seconds``
   a float.
7. **Sitemaps** (no verdicts): :attr:`RobotsTxt.sitemaps` is read the same way in every mode
   (Google's key leniency, values as written); urllib's ``site_maps()`` takes only exact
   ``sitemap`` keys and ``%xx``-decodes the values.
8. **Several values in a record** (no verdicts): of several ``Crawl-delay`` (or
   ``Request-rate``) lines in one record the slowest counts, as in every mode; urllib keeps
   the last, which may ask for less than the owner wrote.
9. **Absurd values** (no verdicts): a ``Crawl-delay`` above 365 days is read as 365 days, a
   ``Request-rate`` slower than one request in 365 days as ``1/31536000`` and more than 10**9
   requests as 10**9, as in every mode (:data:`robotsrules._rules._parser.MAX_DELAY`); urllib
   keeps any integer.

None of these changes a verdict on the shared corpus once the input is prepared the same way
(1-3): ``tests/core/test_legacy_vs_urllib.py`` checks that, and asserts each class by name.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from typing import Any, Final, Optional
from urllib.parse import quote, unquote, urlparse, urlunparse

from ..errors import InvalidURL
from ..model import Group, Reason, Rule, Scope, Verdict
from ._matcher import AgentRules
from ._parser import (
    OpenGroup,
    capped_delay,
    capped_rate,
    display,
    read_line,
    slower_delay,
    slower_rate,
    split_lines,
)
from ._urls import url_octets

__all__ = ["LegacyRules", "build", "legacy_target", "select"]

# Line ends that str.splitlines() knows besides LF, CR and CRLF.
_MORE_BREAKS: Final = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_ABSOLUTE_OR_PATH: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://|/")
# Spelt with chr(): mypyc refuses surrogates in string literals.
_ESCAPED_BYTE: Final = re.compile(f"[{chr(0xDC80)}-{chr(0xDCFF)}]")


def _percent(match: re.Match[str]) -> str:
    return f"%{ord(match.group()) - 0xDC00:02X}"


def _rule_path(value: str) -> Optional[str]:
    """The path urllib's ``RuleLine`` compares, from an unquoted value; None if it raises."""
    try:
        return quote(urlunparse(urlparse(value)))
    except ValueError:  # "Invalid IPv6 URL" and the like: urllib's parse() raises
        return None


def _number(text: str) -> Optional[int]:
    digits = text.strip()
    if not digits.isdigit():
        return None
    if len(digits) > 64 and digits.isdecimal():
        # int() refuses more than 4,300 digits: a number this long is read as 10**64 unless
        # its leading digits are zeros (read as what follows them).
        start = 0
        while start < len(digits) and int(digits[start]) == 0:  # zeros of any script
            start += 1
        significant = digits[start:]
        return 10 ** 64 if len(significant) > 64 else int(significant or "0")
    try:
        return int(text)
    except ValueError:  # digits int() does not take ("²"): urllib raises
        return None


def build(text: str) -> tuple[Group, ...]:
    """The records of octet text (see :func:`robotsrules._rules._parser.decode`), in file order.

    Each record is a :class:`~robotsrules.Group` whose ``agents`` are the user-agent values
    as urllib compares them (``%xx``-decoded, lower-cased; ``"*"`` for the default record)
    and whose rules' ``pattern`` is the path urllib compares (unquoted, re-quoted).
    """
    groups: list[Group] = []
    record = OpenGroup()
    state = 0  # urllib's: 0 start, 1 after a user-agent line, 2 after a rule line
    for number, physical in enumerate(split_lines(display(text)), 1):
        pieces = _MORE_BREAKS.split(physical) if _MORE_BREAKS.search(physical) else (physical,)
        for raw in pieces:
            if not raw:  # an empty line ends the record
                if state == 2:
                    groups.append(record.close())
                if state:
                    record, state = OpenGroup(), 0
                continue
            line = read_line(number, raw, limits=False)
            if line.key is None or line.missing_colon:
                continue
            key = line.key_text.strip().lower()
            written = line.value.strip()
            value = unquote(written)
            if key == "user-agent":
                if state == 2:
                    groups.append(record.close())
                    record = OpenGroup()
                record.agent_lines.append(number)
                record.agents.append("*" if value == "*" else value.lower())
                record.values.append(written)
                state = 1
            elif state == 0:
                continue
            elif key == "allow" or key == "disallow":
                path = _rule_path(value)
                if path is not None:
                    record.rules.append(Rule("allow" if key == "allow" else "disallow", path,
                                             written, number))
                state = 2
            elif key == "crawl-delay":
                delay = _number(value)
                if delay is not None:  # difference 8: the slowest of a record's values
                    # Difference 9: at most 365 days, as in every mode (urllib keeps any int).
                    record.crawl_delay = slower_delay(record.crawl_delay, capped_delay(delay))
                state = 2
            elif key == "request-rate":
                numbers = value.split("/")
                if len(numbers) == 2:
                    requests, seconds = _number(numbers[0]), _number(numbers[1])
                    if requests is not None and seconds is not None:
                        record.request_rate = slower_rate(
                            record.request_rate, capped_rate(requests, seconds))
                state = 2
    if state == 2:
        groups.append(record.close())
    return tuple(groups)


def legacy_target(url: str) -> str:
    """The target urllib's ``can_fetch`` compares rule paths with.

    Raises :class:`~robotsrules.InvalidURL` for a URL that is neither absolute nor a path
    starting with ``/`` (SPEC D6), or that ``urllib.parse`` cannot take apart.

    >>> legacy_target("https://example.com/a b/%7Ejoe;p?q=*#top")
    '/a%20b/~joe%3Bp%3Fq%3D%2A%23top'
    >>> legacy_target("/caf\\udcc3\\udca9"), legacy_target("/caf%C3%A9")
    ('/caf%C3%A9', '/caf%C3%A9')
    """
    try:
        absolute = _ABSOLUTE_OR_PATH.match(url)
    except TypeError:
        raise InvalidURL(f"url must be a str, not {type(url).__name__}") from None
    if absolute is None:
        raise InvalidURL(
            f"not an absolute URL or a path: {url!r}; pass 'scheme://host/path' or '/path'"
        )
    if not url.isascii():
        url_octets(url)  # SPEC D1: a lone surrogate that stands for no byte raises, anywhere
        # SPEC D1: U+DC80-U+DCFF (PEP 383) is the byte it escaped. urllib takes text only, so
        # the byte goes in as its %XX escape, exactly as urllib reads that URL written out.
        url = _ESCAPED_BYTE.sub(_percent, url)
    try:
        parsed = urlparse(unquote(url))
        target = quote(
            urlunparse(("", "", parsed.path, parsed.params, parsed.query, parsed.fragment))
        )
    except ValueError as error:  # includes UnicodeEncodeError (lone surrogates)
        raise InvalidURL(f"urllib.parse cannot read {url!r}: {error}") from None
    return target or "/"


class LegacyRules(AgentRules):
    """The record that applies to one crawler in legacy mode, and its first-match check.

    Obtained from :meth:`RobotsTxt.for_agent` on a file parsed with ``mode="legacy"``.
    ``groups`` holds the one record used (or none); ``scope`` is ``"specific"`` for a record
    that names the crawler, ``"global"`` for the ``*`` record, ``"none"`` otherwise.
    """

    __slots__ = ("_first",)

    def __init__(
        self,
        agents: tuple[str, ...],
        groups: tuple[Group, ...],
        scope: Scope,
        origin: Optional[Reason] = None,
    ) -> None:
        super().__init__(agents, scope, (), groups, origin)
        # (path, allows, rule) in file order; an empty Disallow allows (1994, urllib).
        self._first: tuple[tuple[str, bool, Rule], ...] = tuple(
            (rule.pattern, rule.directive == "allow" or not rule.value, rule)
            for group in groups
            for rule in group.rules
        )

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = legacy_target(url)
        for path, allows, _ in self._first:
            if target.startswith(path):
                return allows
        return True

    def explain(self, url: str) -> Verdict:
        """The verdict for ``url``: the first matching rule decides (reason ``"first-match"``)."""
        target = legacy_target(url)
        allowed, rule = True, None
        reason: Reason = "no-match" if self.scope != "none" else "no-group"
        for path, allows, candidate in self._first:
            if target.startswith(path):
                allowed, rule, reason = allows, candidate, "first-match"
                break
        if self._origin is not None:  # no file: the fetch outcome decided, not a line
            reason, rule = self._origin, None
        return Verdict(allowed, rule, self.groups, self.scope, reason, target)

    def __repr__(self) -> str:
        return (f"<LegacyRules {'/'.join(self.agents)} scope={self.scope} "
                f"rules={len(self._first)}>")

    def __reduce__(self) -> tuple[Any, ...]:
        return (LegacyRules, (self.agents, self.groups, self.scope, self._origin))


def select(
    groups: tuple[Group, ...], tokens: tuple[str, ...], origin: Optional[Reason] = None
) -> LegacyRules:
    """The record urllib's ``can_fetch`` uses for a crawler named by ``tokens``.

    ``tokens`` are lower-cased product tokens (see :func:`robotsrules.agent_tokens`). The
    first record, in file order, one of whose agents is a substring of a token; else the
    first ``*`` record; else none.
    """
    default: Optional[Group] = None
    for group in groups:
        if "*" in group.agents:
            if default is None:
                default = group
            continue
        for agent in group.agents:
            for token in tokens:
                if agent in token:
                    return LegacyRules(tokens, (group,), "specific", origin)
    if default is not None:
        return LegacyRules(tokens, (default,), "global", origin)
    return LegacyRules(tokens, (), "none", origin)
