"""The parsed file: :func:`parse` and :class:`RobotsTxt`, the parse-once/check-many object.

Interpretation modes (``parse(..., mode=...)``), kept on the object as :attr:`RobotsTxt.mode`:

* ``"google"`` (default): Google's library, with SPEC §0's deviations D1-D6.
* ``"rfc"``: RFC 9309 where Google's library differs: unreserved ``%XX`` decoded on both
  sides, ``%2A``/``%24`` never special, no index.html rule (see :mod:`robotsrules._rules._urls`).
* ``"legacy"``: the 1994/1996 reading of Python's ``urllib.robotparser``: records end at
  blank lines, first match wins, agents by substring, no wildcards (see
  :mod:`robotsrules._rules._legacy`).
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Final, Literal, Optional, Union

from ._rules import _legacy as legacy
from ._rules._agents import Agent, agent_tokens
from ._rules._matcher import AgentRules, GroupsSource, RfcRules
from ._rules._outline import Span, normalise, outline, read_rules
from ._rules._parser import Parsed, build, decode, slower_delay, slower_rate
from ._rules._precedence import Row, rows_of
from ._rules._stance import Stance, stance_of
from ._rules._urls import match_target, rfc_pattern, rfc_target
from ._rules._usage import (
    STATES_NOTHING,
    Usage,
    UsageRules,
    purpose_group_line,
    with_purpose_groups,
)
from ._tables._purposes import PURPOSE_GROUP_TOKENS, Purpose, purpose_group_draft
from .errors import InvalidArgument
from .model import Group, Line, Pace, RequestRate, Scope, Verdict

__all__ = ["DEFAULT_MAX_BYTES", "MODES", "Mode", "RobotsTxt", "Synthetic", "parse", "reparse"]

Mode = Literal["google", "rfc", "legacy"]
"""How a file is interpreted: ``"google"`` (default), ``"rfc"`` or ``"legacy"``."""
Synthetic = Literal["allow-all", "disallow-all"]
"""What a rule set made for a fetch outcome stands for (:meth:`RobotsTxt.allow_all`,
:meth:`RobotsTxt.disallow_all`); its verdicts carry it as their reason."""

MODES: Final[tuple[Mode, ...]] = ("google", "rfc", "legacy")
"""The valid values of ``mode``."""

DEFAULT_MAX_BYTES: Final = 512_000
"""Content past this many octets is ignored (SPEC D4; Google reads the first 500 KiB)."""

_GLOBAL: Final = ("*",)
_NO_AGENT: Final = object()
_NO_PACE: Final = Pace((), (), None, None)
_CACHE_LIMIT: Final = 64  # compiled AgentRules kept per file (one per distinct agent set)
# A line the reader may take for Content-Signal/Content-Usage (robotsrules._rules._usage) starts
# with optional blanks (after a line break or a byte-order mark) then one of these spellings
# (matched on the lower-cased text). Looked for once per file, on the first usage question
# (_may_state_usage): a file without any pays nothing else.
_USAGE_KEY_AT: Final = re.compile(
    rb"(?:\xef(?:\xbb\xbf?)?)?[ \t\v\f]*content[-_ ]?(?:signal|usage)")


class _Full:
    """A file read in full (groups with their rules, sitemaps, hosts), when first asked.

    Shared by a :class:`RobotsTxt` and the :class:`AgentRules` compiled from it, so that
    neither holds the other (no reference cycle). A race between threads only reads the
    same immutable value twice.
    """

    __slots__ = ("_built", "_parsed", "_source")

    def __init__(self, source: bytes, parsed: Optional[Parsed] = None) -> None:
        self._source = source
        self._parsed = parsed
        self._built = False  # parsed() read the source itself (not groups given from outside)

    def lead(self) -> Optional[Pace]:
        """:attr:`Parsed.lead` when the whole file was read here, else None."""
        parsed = self._parsed
        return parsed.lead if self._built and parsed is not None else None

    def parsed(self) -> Parsed:
        parsed = self._parsed
        if parsed is None:
            parsed = build(decode(self._source, None)[0])
            self._built = True
            self._parsed = parsed
        return parsed

    def groups_at(self, indices: tuple[int, ...], spans: tuple[Span, ...]) -> tuple[Group, ...]:
        """The groups at ``indices``: from the full reading if done, else each read alone
        from its span of the text (``build`` numbering lines from the span's first)."""
        if self._parsed is not None or not indices:
            groups = self.parsed().groups
            return tuple(groups[i] for i in indices)
        text = normalise(decode(self._source, None)[0])
        return tuple(
            build(text[span.head : span.end], first_line=span.head_line).groups[0]
            for span in (spans[i] for i in indices)
        )


class _GroupsOf:
    """The groups an :class:`AgentRules` reports, read when it is first asked for them."""

    __slots__ = ("_full", "_indices", "_spans")

    def __init__(self, full: _Full, indices: tuple[int, ...], spans: tuple[Span, ...]) -> None:
        self._full = full
        self._indices = indices
        self._spans = spans

    def __call__(self) -> tuple[Group, ...]:
        return self._full.groups_at(self._indices, self._spans)


class RobotsTxt:
    """A parsed robots.txt: immutable, thread-safe and picklable.

    Build one with :func:`parse` (or :meth:`allow_all` / :meth:`disallow_all` for fetch
    outcomes that have no file), then ask it as often as needed::

        robots = robotsrules.parse(body)
        robots.allowed("https://example.com/page", agent="ExampleBot")
        rules = robots.for_agent("ExampleBot")      # compiled once, fastest for many URLs
        rules.allowed("https://example.com/other")

    :attr:`mode` (``"google"``, ``"rfc"`` or ``"legacy"``, see :func:`parse`) is how the file
    is interpreted; it is kept when pickled and compared by ``==``. In ``"legacy"`` mode
    :attr:`groups` holds the records as :mod:`robotsrules._rules._legacy` reads them.

    Work is done when first needed: parsing (default mode) finds the groups and the agents
    they name; an agent's rules are read and compiled when that agent first asks;
    :attr:`groups`, :attr:`sitemaps` and :attr:`hosts` read the whole file on first access.
    The answers are the same as if everything were read up front.
    """

    __slots__ = (
        "_by_agent",
        "_compiled",
        "_full",
        "_global",
        "_last",
        "_lead_pace",
        "_octets",
        "_spans",
        "_usage",
        "mode",
        "source",
        "synthetic",
        "truncated",
    )

    source: bytes
    truncated: bool
    synthetic: Optional[Synthetic]
    mode: Mode
    _by_agent: dict[str, tuple[int, ...]]
    _global: tuple[int, ...]
    _compiled: dict[object, AgentRules]
    _full: _Full
    _spans: Optional[tuple[Span, ...]]
    # How spans map to source: (where the text starts past the BOM, True if every line ends
    # in CRLF, False if none has a CR, None if not yet worked out), or None if they do not.
    _octets: Optional[tuple[int, Optional[bool]]]
    _last: tuple[object, Optional[AgentRules]]
    _lead_pace: Optional[Pace]  # what _lead() found, once asked
    # None until the first usage question; False when the file holds no usage line; else
    # the compiled usage lines by the agent tokens of the AgentRules they go with.
    _usage: Union[bool, dict[tuple[str, ...], UsageRules], None]

    def __new__(cls, *args: Any, **kwargs: Any) -> RobotsTxt:
        # Defined so that _outlined can make an object without __init__ in the compiled
        # build too (mypyc runs __init__ from the allocation of a class without __new__).
        return object.__new__(cls)

    def __init__(
        self,
        source: bytes,
        groups: tuple[Group, ...],
        sitemaps: tuple[str, ...],
        hosts: tuple[str, ...] = (),
        truncated: bool = False,
        synthetic: Optional[Synthetic] = None,
        mode: Mode = "google",
        licenses: tuple[tuple[int, str], ...] = (),
    ) -> None:
        if mode not in MODES:
            raise InvalidArgument(_bad_mode(mode))
        self._set(source, truncated, synthetic, mode,
                  Parsed(groups, sitemaps, hosts, None, licenses=licenses),
                  tuple(group.agents for group in groups), None)

    def _set(
        self,
        source: bytes,
        truncated: bool,
        synthetic: Optional[Synthetic],
        mode: Mode,
        parsed: Optional[Parsed],
        agents: tuple[tuple[str, ...], ...],
        spans: Optional[tuple[Span, ...]],
    ) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "truncated", truncated)
        object.__setattr__(self, "synthetic", synthetic)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "_full", _Full(source, parsed))
        object.__setattr__(self, "_spans", spans)
        object.__setattr__(self, "_octets", None)
        by_agent: dict[str, list[int]] = {}
        global_groups: list[int] = []
        for index, tokens in enumerate(agents):
            seen = set()
            for token in tokens:
                if token == "*":
                    if not global_groups or global_groups[-1] != index:
                        global_groups.append(index)
                elif token and token not in seen:
                    seen.add(token)
                    by_agent.setdefault(token, []).append(index)
        object.__setattr__(self, "_by_agent", {k: tuple(v) for k, v in by_agent.items()})
        object.__setattr__(self, "_global", tuple(global_groups))
        # Compiled AgentRules by agent as passed (str or tuple of tokens). Filled lazily;
        # a race between threads only compiles the same immutable value twice.
        object.__setattr__(self, "_compiled", {})
        # The agent (a str) last asked by allowed() and its rules, as one tuple so that
        # threads always see a matching pair.
        object.__setattr__(self, "_last", (_NO_AGENT, None))
        object.__setattr__(self, "_usage", None)
        object.__setattr__(self, "_lead_pace", None)

    @classmethod
    def _outlined(
        cls, source: bytes, text: str, truncated: bool, synthetic: Optional[Synthetic]
    ) -> RobotsTxt:
        """A default-mode file from its outline: rules and the rest are read when asked.

        ``text`` is ``source`` as :func:`~robotsrules._rules._parser.decode` returns it.
        """
        # The text is the source past its BOM, octet for character: spans map to it. If
        # every line ends in CRLF, an offset of the LF text maps back by adding the line
        # breaks before it (one CR each); whether they all do is worked out by the first
        # compile (_make), so that parse pays nothing for it.
        offset = len(source) - len(text)
        crlf: Optional[bool] = False
        if "\r" in text:
            text, crlf = normalise(text), None
        found = outline(text)
        robots = cls.__new__(cls)
        robots._set(source, truncated, synthetic, "google", None, found.agents, found.spans)
        object.__setattr__(robots, "_octets", (offset, crlf))
        return robots

    # -- construction ---------------------------------------------------------------
    @classmethod
    def allow_all(cls) -> RobotsTxt:
        """Everything allowed: the meaning of a 4xx answer (RFC 9309 §2.3.1.3)."""
        return cls(b"", (), (), synthetic="allow-all")

    @classmethod
    def disallow_all(cls) -> RobotsTxt:
        """Everything disallowed: the meaning of an unreachable file (RFC 9309 §2.3.1.4)."""
        return parse(b"User-agent: *\nDisallow: /\n", synthetic="disallow-all")

    # -- the file read in full --------------------------------------------------------
    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups, in file order, with their rules (RFC 9309 §2.1)."""
        return self._full.parsed().groups

    @property
    def sitemaps(self) -> tuple[str, ...]:
        """The ``sitemap`` URLs, in file order, as written."""
        return self._full.parsed().sitemaps

    @property
    def hosts(self) -> tuple[str, ...]:
        """The values of ``host`` lines (a Yandex extra; never used for verdicts)."""
        return self._full.parsed().hosts

    @property
    def licenses(self) -> tuple[str, ...]:
        """The ``License`` URLs (RSL 1.0, RSL-SPEC-1.0 of 2025-11-06, §4.4), in file order,
        as written, wherever they stand (every one applies to every agent:
        :meth:`license_urls`).
        Never used for verdicts: a licence does not change what may be fetched."""
        return tuple(url for _, url in self._full.parsed().licenses)

    def license_urls(self, agent: Agent) -> tuple[str, ...]:
        """The ``License`` URLs that apply to ``agent``: every one in the file, wherever
        it stands (RSL 1.0, RSL-SPEC-1.0 of 2025-11-06, §4.4: the directive is global, as
        rslstandard.org's robots.txt guide says; it is also the restrictive reading, since
        a licence scoped to one group could leave out a prohibition). The same as
        :attr:`licenses`; ``agent`` is still checked (a caller's mistake raises). The
        linter notes a ``License`` line inside a group.

        >>> robots = parse(b"License: https://a.example/all.xml\\n"
        ...                b"User-agent: GPTBot\\nAllow: /\\nLicense: https://a.example/gpt.xml\\n")
        >>> robots.license_urls("OtherBot")
        ('https://a.example/all.xml', 'https://a.example/gpt.xml')
        """
        agent_tokens(agent)  # the caller's mistake raises, licences or not
        return self.licenses

    # -- immutability and pickling ----------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("RobotsTxt is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RobotsTxt is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        if self.synthetic == "allow-all":
            return (RobotsTxt.allow_all, ())
        return (reparse, (self.source, self.truncated, self.synthetic, self.mode))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RobotsTxt):
            return NotImplemented
        # Groups, sitemaps and hosts are a function of the octets and the mode.
        return (self.source, self.synthetic, self.truncated, self.mode) == (
            other.source, other.synthetic, other.truncated, other.mode)

    def __hash__(self) -> int:
        return hash((self.source, self.synthetic))

    def __repr__(self) -> str:
        label = f" {self.synthetic}" if self.synthetic else ""
        if self.mode != "google":
            label += f" mode={self.mode}"
        # From the outline when there is one: a repr must not read the whole file.
        count = len(self._spans) if self._spans is not None else len(self.groups)
        return f"<RobotsTxt{label} {len(self.source)} bytes, {count} groups>"

    # -- questions --------------------------------------------------------------------
    def for_agent(self, agent: Agent) -> AgentRules:
        """The compiled rules for ``agent``: the fastest way to check many URLs.

        ``agent`` is a product token (``"ExampleBot"``), ``Token/version``, or a sequence of
        tokens for a crawler that obeys several names: all groups naming any of them apply
        (RFC 9309 §2.2.1). Only when no group names the agent do the ``*`` groups apply.
        In ``"legacy"`` mode the first record that applies is used alone (a
        :class:`~robotsrules._rules._legacy.LegacyRules`; see :mod:`robotsrules._rules._legacy`).
        """
        try:
            rules = self._compiled.get(agent)
        except TypeError:  # an unhashable sequence of tokens
            rules = None
        if rules is None:
            tokens = agent_tokens(agent)
            rules = self._compiled.get(tokens)
            if rules is None:
                rules = self._compile(tokens)
            self._remember(agent, rules)
        return rules

    def _remember(self, agent: object, rules: AgentRules) -> None:
        compiled = self._compiled
        if len(compiled) >= _CACHE_LIMIT:
            compiled.clear()
        try:
            compiled[agent] = rules
        except TypeError:  # an unhashable sequence is not remembered
            return  # (not contextlib.suppress: its object costs more than the rest here)

    def _compile(self, tokens: tuple[str, ...]) -> AgentRules:
        if self.mode == "legacy":
            rules: AgentRules = legacy.select(self.groups, tokens, self.synthetic)
            self._remember(tokens, rules)
            return rules
        by_agent = self._by_agent
        if len(tokens) == 1:
            indices: tuple[int, ...] = by_agent.get(tokens[0], ())
        else:
            indices = tuple(sorted({i for t in tokens for i in by_agent.get(t, ())}))
        if indices:
            rules = self._make(tokens, indices, "specific")
        else:
            # Every agent no group names gets the same rules: compile them once, as "*".
            cached = self._compiled.get(_GLOBAL)
            if cached is None:
                indices = self._global
                cached = self._make(_GLOBAL, indices, "global" if indices else "none")
                self._remember(_GLOBAL, cached)
            rules = cached
        self._remember(tokens, rules)
        return rules

    def _make(self, tokens: tuple[str, ...], indices: tuple[int, ...], scope: Scope
              ) -> AgentRules:
        rows: list[Row] = []
        groups: GroupsSource
        if self._spans is not None:  # read the chosen groups' rules from the text now
            index_pages = False  # whether a pattern may hold "/index.htm" (see AgentRules)
            for chunk, line in self._rule_chunks(indices, self._spans):
                read_rules(chunk, line, rows)
                # A pattern holds "/index.htm" only if its octets do (escapes are never
                # decoded).
                index_pages = index_pages or "/index.htm" in chunk
            groups = _GroupsOf(self._full, indices, self._spans)
        else:
            groups = self._full.parsed().groups
            groups = tuple(groups[i] for i in indices)
            rows = rows_of(groups)
            index_pages = True
        # Each class named in its own call: compiled, a direct call of its constructor.
        if self.mode == "rfc":
            return RfcRules(tokens, scope, rows, groups, self.synthetic, index_pages)
        return AgentRules(tokens, scope, rows, groups, self.synthetic, index_pages)

    def _rule_chunks(
        self, indices: tuple[int, ...], spans: tuple[Span, ...]
    ) -> Iterator[tuple[str, int]]:
        """The rule text of the groups at ``indices`` (LF line ends), each with the number
        of its first line: sliced from the source octets when the spans map to them, else
        from the whole text decoded again."""
        octets = self._octets
        if octets is not None and octets[1] is None:
            octets = self._work_out_line_ends(octets[0])
        if octets is None:
            if indices:
                text = normalise(decode(self.source, None)[0])
                for index in indices:
                    span = spans[index]
                    yield text[span.start : span.end], span.line
            return
        offset, crlf = octets
        source = self.source
        for index in indices:
            start, end, line, _, _ = spans[index]
            if start >= end:
                continue
            if not crlf:
                yield source[offset + start : offset + end].decode("latin-1"), line
                continue
            # One CR more per line break before an offset of the LF text.
            start += line - 1
            end = (end + spans[index + 1].head_line - 1 if index + 1 < len(spans)
                   else len(source) - offset)
            chunk = source[offset + start : offset + end].decode("latin-1")
            yield chunk.replace("\r\n", "\n"), line

    def _work_out_line_ends(self, offset: int) -> Optional[tuple[int, Optional[bool]]]:
        """Whether every line of a file with CRs ends in CRLF (then spans map to its
        octets), remembered; a lone CR or LF anywhere means they do not (None)."""
        source = self.source
        pairs = source.count(b"\r\n")
        octets = (offset, True) if source.count(b"\r") == pairs == source.count(b"\n") else None
        object.__setattr__(self, "_octets", octets)  # one attribute: threads see both or none
        return octets

    def allowed(self, url: str, *, agent: Agent) -> bool:
        """True when ``agent`` may fetch ``url`` under this file.

        ``url`` is absolute (``https://host/path``) or a path starting with ``/``; only its
        path, params and query are compared (the caller checks that the file governs the
        URL's origin).
        """
        last, rules = self._last
        if last is agent and rules is not None:  # the same str as last time: no lookup
            return rules.allowed(url)
        rules = self.for_agent(agent)
        if type(agent) is str:  # immutable, so identity means the same agent
            object.__setattr__(self, "_last", (agent, rules))
        return rules.allowed(url)

    def explain(self, url: str, *, agent: Agent) -> Verdict:
        """Like :meth:`allowed`, with the deciding rule, the groups used and the reason.

        :attr:`Verdict.usage` holds the ``Content-Signal``/``Content-Usage`` lines that
        apply to the URL (see :meth:`usage`).
        """
        return self._explain_of(self.for_agent(agent), url, _purpose_tokens())

    def _explain_of(self, rules: AgentRules, url: str, tokens: Mapping[str, Purpose]) -> Verdict:
        """:meth:`explain` with the purpose-group token table given (as :meth:`_usage_of`)."""
        verdict = rules.explain(url)
        usage_rules = self._usage_rules(rules)
        if usage_rules is None and not self._purpose_tokens(tokens):
            return verdict
        usage = (STATES_NOTHING[verdict.allowed] if usage_rules is None
                 else usage_rules.evaluate(verdict.target, verdict.allowed))
        lines = self._with_purpose_groups(usage, url, tokens).lines
        return verdict._replace(usage=lines) if lines else verdict

    def usage(self, url: str, *, agent: Agent) -> Usage:
        """The AI usage preferences this file states for ``url`` and ``agent``.

        ``Content-Signal`` and ``Content-Usage`` lines are chosen with the same group
        selection as the rules (the groups naming ``agent``, else ``*``); a
        ``Content-Usage`` rule applies by longest match like an allow/disallow rule.
        ``usage(...).allows("ai-train")`` is ``True``, ``False`` or ``None`` (nothing
        stated); :attr:`~robotsrules._rules._usage.Usage.crawl_allowed` is :meth:`allowed`'s answer,
        and when it is ``False`` no preference applies. Legacy mode reads no usage lines.

        >>> robots = parse(b"User-agent: *\\nContent-Signal: search=yes, ai-train=no\\n")
        >>> robots.usage("/page", agent="ExampleBot").allows("ai-train")
        False
        """
        last, rules = self._last
        if last is not agent or rules is None:  # as allowed() does: no lookup for the same str
            rules = self.for_agent(agent)
            if type(agent) is str:
                object.__setattr__(self, "_last", (agent, rules))
        crawl = rules.allowed(url)
        return self._usage_of(rules, url, crawl, _purpose_tokens())

    def _usage_of(self, rules: AgentRules, url: str, crawl: bool,
                  tokens: Mapping[str, Purpose]) -> Usage:
        """:meth:`usage` with the purpose-group token table given (the shipped one, or a
        test's: the table holds no token until the draft's text defining them is read)."""
        purpose = self._purpose_tokens(tokens)
        if self._usage is False and not purpose:  # no usage line, no purpose group
            return STATES_NOTHING[crawl]
        usage_rules = self._usage_rules(rules)
        if usage_rules is None:
            usage = STATES_NOTHING[crawl]
        else:
            target = rfc_target(url) if self.mode == "rfc" else match_target(url)
            usage = usage_rules.evaluate(target, crawl)
        return self._with_purpose_groups(usage, url, tokens) if purpose else usage

    def _purpose_tokens(self, tokens: Mapping[str, Purpose]) -> bool:
        """Whether a group of this file is keyed by one of ``tokens`` (legacy mode: never;
        the 1994/1996 readers know no usage preference)."""
        if not tokens or self.mode == "legacy":
            return False
        by_agent = self._by_agent
        return any(token in by_agent for token in tokens)

    def _with_purpose_groups(self, usage: Usage, url: str,
                             tokens: Mapping[str, Purpose]) -> Usage:
        """``usage`` combined with what each purpose group of the file states for ``url``
        (:func:`robotsrules._rules._usage.with_purpose_groups`): every crawler is asked, its
        own group or ``*`` notwithstanding."""
        if not self._purpose_tokens(tokens):
            return usage
        lines = []
        for token, purpose in tokens.items():
            if token in self._by_agent:
                line = purpose_group_line(token, purpose, self.for_agent(token).explain(url))
                if line is not None:
                    lines.append(line)
        return with_purpose_groups(usage, lines)

    def _usage_rules(self, rules: AgentRules) -> Optional[UsageRules]:
        """The usage lines of the groups ``rules`` were chosen from, or None if none."""
        state = self._usage
        if state is False:
            return None
        if state is None or state is True:
            if self.mode == "legacy" or not _may_state_usage(self.source):
                object.__setattr__(self, "_usage", False)
                return None
            state = {}
            object.__setattr__(self, "_usage", state)
        found = state.get(rules.agents)
        if found is None:
            found = UsageRules(rules.groups, rfc=self.mode == "rfc")
            if len(state) >= _CACHE_LIMIT:
                state.clear()
            state[rules.agents] = found
        return None if found.empty else found

    def stance(self, agent: Agent) -> Stance:
        """Whether ``agent`` may fetch all, none or some of the site, decided from the rules
        alone (no URL list), exactly as :meth:`allowed` would answer for every URL; with
        the deciding lines and example paths. See :mod:`robotsrules._rules._stance`."""
        return stance_of(self.for_agent(agent))

    def crawl_delay(self, agent: Agent) -> Optional[float]:
        """Seconds between requests asked of ``agent`` (``Crawl-delay``), or ``None``.

        Read per agent, as the crawlers that honour it read it (Google ignores this field,
        so its grouping is no guide here; see :class:`~robotsrules.model.Pace`): a value
        belongs to the ``user-agent`` lines directly above it. The values written for the
        agent's own ``user-agent`` lines count (for a list of tokens, those of any of them);
        if no line names the agent, those written for ``*``; if none of these has a value, a
        value written before the first ``user-agent`` line. When several values apply, the
        slowest (longest) is the answer: never a shorter delay than the owner wrote.
        In ``"legacy"`` mode: the value of urllib's record (the slowest if it has several).

        >>> robots = parse(b"User-agent: a\\nCrawl-delay: 1\\nUser-agent: b\\nCrawl-delay: 12\\n"
        ...                b"User-agent: *\\nDisallow: /private\\n")
        >>> robots.crawl_delay("a"), robots.crawl_delay("b"), robots.crawl_delay("OtherBot")
        (1.0, 12.0, None)
        """
        return self._pace(agent).crawl_delay

    def request_rate(self, agent: Agent) -> Optional[RequestRate]:
        """The ``Request-rate`` asked of ``agent``, read as :meth:`crawl_delay` reads
        ``Crawl-delay``; of several, the slowest (most seconds per request)."""
        return self._pace(agent).request_rate

    def _pace(self, agent: Agent) -> Pace:
        """The delay and rate asked of ``agent`` (``agents`` and ``agent_lines`` empty)."""
        rules = self.for_agent(agent)
        if self.mode == "legacy":  # urllib's record: one per crawler, already the slowest
            record = rules.groups[0] if rules.groups else None
            if record is None:
                return _NO_PACE
            return Pace((), (), record.crawl_delay, record.request_rate)
        tokens = rules.agents  # ("*",) when the * groups (or none) were chosen
        delay: Optional[float] = None
        rate: Optional[RequestRate] = None
        for group in rules.groups:
            for pace in group.paces:
                if any(token in pace.agents for token in tokens):
                    if pace.crawl_delay is not None:
                        delay = slower_delay(delay, pace.crawl_delay)
                    if pace.request_rate is not None:
                        rate = slower_rate(rate, pace.request_rate)
        if delay is None or rate is None:
            lead = self._lead()
            delay = lead.crawl_delay if delay is None else delay
            rate = lead.request_rate if rate is None else rate
        if delay is None and rate is None:
            return _NO_PACE
        return Pace((), (), delay, rate)

    def _lead(self) -> Pace:
        """The values written before the first ``user-agent`` line (read once, kept)."""
        lead = self._lead_pace
        if lead is None:
            read = self._full.lead()
            if self.synthetic is not None:
                lead = _NO_PACE
            elif read is not None:
                lead = read
            else:
                text = normalise(decode(self.source, None)[0])
                spans = self._spans
                if spans is None:  # made from groups: find where the first one starts
                    spans = outline(text).spans
                lead = build(text[: spans[0].head] if spans else text).lead
            object.__setattr__(self, "_lead_pace", lead)
        return lead

    @property
    def lines(self) -> tuple[Line, ...]:
        """The per-line report: what the parser made of every physical line.

        Recomputed from :attr:`source` on each access (it is not kept in memory). It is the
        default reader's view whatever the :attr:`mode` (lint and the line report are
        Google's reading; legacy mode re-reads the same lines more strictly).
        """
        text, _, _ = decode(self.source, None)
        lines = build(text, want_lines=True).lines
        assert lines is not None
        return lines

    @property
    def agents(self) -> tuple[str, ...]:
        """The product tokens named by the file's groups (lower-cased, file order)."""
        return tuple(self._by_agent)


_NO_TOKENS: Final[Mapping[str, Purpose]] = {}


def _purpose_tokens() -> Mapping[str, Purpose]:
    """The purpose-group tokens of the shipped table; the generated tuple (kept equal to the
    data by tests/usage/test_vocabulary_data.py) answers without a lookup while it is empty."""
    return purpose_group_draft().tokens if PURPOSE_GROUP_TOKENS else _NO_TOKENS


def _may_state_usage(source: bytes) -> bool:
    """False when no line of ``source`` can be a Content-Signal/Content-Usage line.

    Every spelling the reader accepts holds ``signal`` or ``usage`` (any case): in a
    lower-cased copy, C-speed substring searches find the candidates, and only the line of
    each is checked for a key at its start (each line at most once per word: linear).
    """
    lowered = source.lower()
    match = _USAGE_KEY_AT.match
    for word in (b"signal", b"usage"):
        at = lowered.find(word)
        while at >= 0:
            start = max(lowered.rfind(b"\n", 0, at), lowered.rfind(b"\r", 0, at)) + 1
            if match(lowered, start):
                return True
            ends = [end for end in (lowered.find(b"\n", at), lowered.find(b"\r", at))
                    if end >= 0]
            if not ends:
                break
            at = lowered.find(word, min(ends))
    return False


def reparse(source: bytes, truncated: bool, synthetic: Optional[Synthetic], mode: Mode
            ) -> RobotsTxt:
    """Parse octets already cut to size again (unpickling, cache entries): same object."""
    robots = parse(source, max_bytes=None, synthetic=synthetic, mode=mode)
    if truncated:
        object.__setattr__(robots, "truncated", True)
    return robots


def _restore(
    source: bytes,
    groups: tuple[Group, ...],
    sitemaps: tuple[str, ...],
    hosts: tuple[str, ...],
    truncated: bool,
    synthetic: Optional[Synthetic],
    mode: Mode = "google",
) -> RobotsTxt:
    # Pickles made by robotsrules 0.1.0 before the outline reader.
    return RobotsTxt(source, groups, sitemaps, hosts, truncated, synthetic, mode)


def _bad_mode(mode: object) -> str:
    return f"unknown mode {mode!r}; valid modes are " + ", ".join(repr(m) for m in MODES)


def _rfc_groups(groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """The groups with every pattern in RFC 9309 normal form (:func:`rfc_pattern`)."""
    return tuple(
        group._replace(
            rules=tuple(rule._replace(pattern=rfc_pattern(rule.pattern)) for rule in group.rules)
        )
        for group in groups
    )


def parse(
    content: bytes | str,
    *,
    max_bytes: Optional[int] = DEFAULT_MAX_BYTES,
    synthetic: Optional[Synthetic] = None,
    mode: Mode = "google",
) -> RobotsTxt:
    """Parse a robots.txt. Never raises for content: any bytes give a :class:`RobotsTxt`.

    ``content`` is the body as bytes (preferred: octets reach the matcher unchanged) or
    str (encoded as UTF-8). Content past ``max_bytes`` octets is ignored (``None``: no
    limit); :attr:`RobotsTxt.truncated` tells whether that happened.

    ``mode`` chooses the interpretation of groups and rules (kept as :attr:`RobotsTxt.mode`,
    it governs :meth:`~RobotsTxt.allowed`, :meth:`~RobotsTxt.explain` and
    :meth:`~RobotsTxt.for_agent`; sitemaps and hosts are read the same way in every mode):

    * ``"google"`` (default): as Google's library, with SPEC §0's deviations.
    * ``"rfc"``: RFC 9309 where Google's library differs: ``%XX`` escapes of unreserved
      characters are decoded in rules and URLs, ``%2A``/``%24`` match a literal ``*``/``$``,
      and ``allow: /d/index.html`` does not also allow ``/d/``. Rule patterns are kept in
      that normal form (:func:`~robotsrules._rules._urls.rfc_pattern`).
    * ``"legacy"``: as Python's ``urllib.robotparser`` (1994/1996): blank lines end records,
      the first matching rule wins, agents match by substring, no wildcards; see
      :mod:`robotsrules._rules._legacy` for the details and its few deliberate differences.

    Raises ``ValueError`` for an unknown ``mode``.

    >>> robots = parse(b"User-agent: *\\nDisallow: /private\\n")
    >>> robots.allowed("https://example.com/private/x", agent="ExampleBot")
    False
    """
    if not isinstance(content, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"content must be bytes or str, not {type(content).__name__}")
    if mode != "google" and mode not in MODES:
        raise InvalidArgument(_bad_mode(mode))
    text, kept, cut = decode(content if not isinstance(content, memoryview) else bytes(content),
                             max_bytes)
    if mode == "google":
        return RobotsTxt._outlined(kept, text, cut, synthetic)
    parsed = build(text)
    groups = legacy.build(text) if mode == "legacy" else _rfc_groups(parsed.groups)
    return RobotsTxt(kept, groups, parsed.sitemaps, parsed.hosts, cut, synthetic, mode,
                     parsed.licenses)
