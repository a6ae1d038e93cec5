"""Immutable records produced by the parser and returned by the matcher.

Every record is a :class:`typing.NamedTuple`: frozen, compact, hashable, picklable and
safe to share between threads and processes.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import math
from typing import Literal, NamedTuple, Optional

__all__ = ["Group", "Line", "Pace", "Reason", "RequestRate", "Rule", "RuleDirective", "Scope",
           "UsageDirective", "UsageLine", "Verdict"]

RuleDirective = Literal["allow", "disallow"]
"""The directive of a :class:`Rule`."""
UsageDirective = Literal["content-signal", "content-usage", "purpose-group"]
"""The directive of a :class:`UsageLine`."""
Scope = Literal["specific", "global", "none"]
"""Which groups a :class:`Verdict` consulted: those naming the agent, the ``*`` groups, or
none."""
Reason = Literal["longest-match", "tie-allow", "index-html", "first-match", "no-match",
                 "no-group", "robots-txt", "allow-all", "disallow-all"]
"""Why a :class:`Verdict` came out as it did: a rule decided (``longest-match``,
``tie-allow``: an allow tied with a disallow, ``index-html``: Google's index.html rule,
``first-match``: legacy mode's first matching rule), or none did (``no-match``,
``no-group``, ``robots-txt``: the file itself is always allowed, ``allow-all`` /
``disallow-all``: the fetch outcome decided for the whole site)."""


class Rule(NamedTuple):
    """One ``allow`` or ``disallow`` line of a group.

    ``pattern`` is the value as matched: percent-escapes upper-cased and octets outside
    US-ASCII percent-encoded (RFC 9309 §2.2.2). ``value`` is the value as written (decoded
    as UTF-8 for display). ``priority`` is the length of ``pattern`` in octets, which is
    what longest-match precedence compares.
    """

    directive: RuleDirective
    """``"allow"`` or ``"disallow"``."""
    pattern: str
    value: str
    line: int

    @property
    def priority(self) -> int:
        """Octet length of the normalised pattern (RFC 9309 §2.2.2: most specific match wins)."""
        return len(self.pattern)

    def __str__(self) -> str:
        return f"{self.line}: {self.directive.capitalize()}: {self.value}"


class UsageLine(NamedTuple):
    """One ``Content-Signal`` or ``Content-Usage`` line of a group: AI usage preferences.

    ``statements`` are the ``(name, allowed)`` pairs the line states, after the format's
    rules (see :mod:`robotsrules._rules._usage`): content-signal names for ``Content-Signal``,
    IETF category labels for ``Content-Usage``; names the vocabularies do not define and
    values other than yes/no (y/n) are left out. ``pattern`` is the normalised path pattern
    of a ``Content-Usage`` rule (matched like an allow/disallow pattern), ``""`` for a
    ``Content-Signal`` line, which covers every path of its group. ``value`` is the value
    as written. ``valid`` is ``False`` for a ``Content-Usage`` line whose value does not
    parse: its ``statements`` are then only the refusals read from it, and it never decides
    alone which lines apply (see :mod:`robotsrules._rules._usage`).
    """

    directive: UsageDirective
    """``"content-signal"``, ``"content-usage"``, or ``"purpose-group"``: the deciding
    allow/disallow rule of a group whose ``User-agent`` value is a policy token of
    draft-kelley-aipref-training-preference-signal (a purpose, not a crawler; ``value``
    reads ``[User-agent: token] Disallow: /path``). Such lines are made for one URL by
    :meth:`RobotsTxt.usage <robotsrules.RobotsTxt.usage>`, never kept on a :class:`Group`;
    no token is in the shipped table yet (see :mod:`robotsrules._rules._usage`)."""
    pattern: str
    value: str
    line: int
    statements: tuple[tuple[str, bool], ...]
    valid: bool = True

    def __str__(self) -> str:
        if self.directive == "purpose-group":
            return f"{self.line}: {self.value}"
        name = "Content-Signal" if self.directive == "content-signal" else "Content-Usage"
        return f"{self.line}: {name}: {self.value}"


class RequestRate(NamedTuple):
    """A ``Request-rate: N/T`` extra: at most ``requests`` per ``seconds``."""

    requests: int
    seconds: float

    @property
    def interval(self) -> float:
        """Seconds per request (``seconds / requests``): the larger, the slower; infinite
        for a rate of no requests (``0/10``, which only legacy mode reads)."""
        return self.seconds / self.requests if self.requests > 0 else math.inf


class Pace(NamedTuple):
    """The ``Crawl-delay`` and ``Request-rate`` written for one run of ``user-agent`` lines.

    These values are read *per agent*, as the crawlers that honour them read them (protego,
    crawler-commons, robots-parser, reppy, urllib.robotparser): a value belongs to the
    ``user-agent`` lines directly above it, back to the previous allow/disallow,
    ``Crawl-delay`` or ``Request-rate`` line; no other line (blank, comment, sitemap,
    unknown key) splits those lines. Google does not read these fields, so its grouping
    (:class:`Group`) is no guide for them. When several values are written for the same
    lines, the slowest counts: the longest delay, the rate with the most seconds per request.
    """

    agents: tuple[str, ...]
    """The product tokens of the run's ``user-agent`` lines (as :attr:`Group.agents`)."""
    agent_lines: tuple[int, ...]
    crawl_delay: Optional[float]
    request_rate: Optional[RequestRate]


class Group(NamedTuple):
    """A group: one or more ``user-agent`` lines and the rules that follow them (RFC 9309 §2.1).

    ``agents`` holds the product tokens as Google reads them (lower-cased, cut at the first
    character outside ``[a-z_-]``; ``"*"`` for the global group; ``""`` for a value that names
    no crawler); ``agent_values`` holds the values as written.

    The group is Google's (only an allow/disallow line ends a run of ``user-agent`` lines):
    it decides ``rules`` and ``usage``. ``Crawl-delay`` and ``Request-rate`` are read per
    agent instead (:class:`Pace`): ``paces`` holds them for each run of the group's
    ``user-agent`` lines, and :meth:`RobotsTxt.crawl_delay <robotsrules.RobotsTxt.crawl_delay>`
    answers from them.
    """

    line: int
    """Line number of the group's first ``user-agent`` line."""
    agent_lines: tuple[int, ...]
    agents: tuple[str, ...]
    agent_values: tuple[str, ...]
    rules: tuple[Rule, ...]
    crawl_delay: Optional[float] = None
    """The slowest ``Crawl-delay`` written anywhere in the group (Google's grouping); what a
    crawler the group names is asked is per agent: see ``paces``."""
    request_rate: Optional[RequestRate] = None
    """The slowest ``Request-rate`` written anywhere in the group (as ``crawl_delay``)."""
    usage: tuple[UsageLine, ...] = ()
    """The group's ``Content-Signal`` and ``Content-Usage`` lines, in file order."""
    paces: tuple[Pace, ...] = ()
    """Per run of ``user-agent`` lines that has any, the ``Crawl-delay`` and ``Request-rate``
    written for it (the reading crawlers use), in file order."""

    @property
    def is_global(self) -> bool:
        """True when one of the group's user-agent lines is ``*``."""
        return "*" in self.agents


class Line(NamedTuple):
    """What the parser made of one physical line of the file (the per-line report).

    ``key`` is the recognised field (``"user-agent"``, ``"allow"``, ``"disallow"``,
    ``"sitemap"``, ``"crawl-delay"``, ``"request-rate"``, ``"host"``, ``"content-signal"``,
    ``"content-usage"``, ``"license"``), ``"unknown"`` for any
    other key, or ``None`` when the line holds no ``key: value`` pair. ``used`` says whether
    the line takes part in the file's meaning; ``reason`` says why not when it does not.
    """

    number: int
    raw: str
    key: Optional[str]
    key_text: str
    value: str
    comment: str
    typo: bool
    missing_colon: bool
    truncated: bool
    used: bool
    reason: Optional[str]


class Verdict(NamedTuple):
    """The answer to "may this agent fetch this URL?" with the reason.

    ``rule`` is the deciding rule, or ``None`` when no rule decided. ``groups`` are the
    groups whose rules were consulted; ``scope`` is ``"specific"`` when groups name the
    agent, ``"global"`` when the ``*`` groups applied, ``"none"`` when no group applies.
    ``reason`` is a :data:`Reason`: ``"longest-match"``, ``"tie-allow"``, ``"index-html"``,
    ``"no-match"``, ``"no-group"``, ``"robots-txt"``, ``"allow-all"``, ``"disallow-all"``,
    and in legacy mode ``"first-match"`` (the first rule in file order that matches decided).
    """

    allowed: bool
    rule: Optional[Rule]
    groups: tuple[Group, ...]
    scope: Scope
    reason: Reason
    target: str
    """The match target (path, params and query, normalised) the rules were compared with."""
    usage: tuple[UsageLine, ...] = ()
    """From :meth:`RobotsTxt.explain`: the usage-preference lines that apply to the target
    (the deciding ``Content-Usage`` rules and every ``Content-Signal`` line of the groups
    used); empty when the agent may not fetch the target (no preference applies then)."""

    def __bool__(self) -> bool:
        return self.allowed
