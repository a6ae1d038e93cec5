"""The parsed file: :func:`parse` and :class:`RobotsTxt`, the parse-once/check-many object."""

from __future__ import annotations

import contextlib
from typing import Any, Dict, List, Optional, Tuple

from .agents import Agent, agent_tokens
from .matcher import AgentRules
from .model import Group, Line, RequestRate, Verdict
from .parser import build, decode

__all__ = ["DEFAULT_MAX_BYTES", "RobotsTxt", "parse"]

DEFAULT_MAX_BYTES = 512_000
"""Content past this many octets is ignored (SPEC D4; Google reads the first 500 KiB)."""

_GLOBAL = ("*",)
_CACHE_LIMIT = 64  # compiled AgentRules kept per file (one per distinct agent set)


class RobotsTxt:
    """A parsed robots.txt: immutable, thread-safe and picklable.

    Build one with :func:`parse` (or :meth:`allow_all` / :meth:`disallow_all` for fetch
    outcomes that have no file), then ask it as often as needed::

        robots = robotsrules.parse(body)
        robots.allowed("https://example.com/page", agent="ExampleBot")
        rules = robots.for_agent("ExampleBot")      # compiled once, fastest for many URLs
        rules.allowed("https://example.com/other")
    """

    __slots__ = (
        "_by_agent",
        "_compiled",
        "_global",
        "groups",
        "hosts",
        "sitemaps",
        "source",
        "synthetic",
        "truncated",
    )

    source: bytes
    groups: Tuple[Group, ...]
    sitemaps: Tuple[str, ...]
    hosts: Tuple[str, ...]
    truncated: bool
    synthetic: Optional[str]
    _by_agent: Dict[str, Tuple[Group, ...]]
    _global: Tuple[Group, ...]
    _compiled: Dict[object, AgentRules]

    def __init__(
        self,
        source: bytes,
        groups: Tuple[Group, ...],
        sitemaps: Tuple[str, ...],
        hosts: Tuple[str, ...] = (),
        truncated: bool = False,
        synthetic: Optional[str] = None,
    ) -> None:
        put = object.__setattr__
        put(self, "source", source)
        put(self, "groups", groups)
        put(self, "sitemaps", sitemaps)
        put(self, "hosts", hosts)
        put(self, "truncated", truncated)
        put(self, "synthetic", synthetic)
        by_agent: Dict[str, List[Group]] = {}
        global_groups: List[Group] = []
        for group in groups:
            seen = set()
            for token in group.agents:
                if token == "*":
                    if not global_groups or global_groups[-1] is not group:
                        global_groups.append(group)
                elif token and token not in seen:
                    seen.add(token)
                    by_agent.setdefault(token, []).append(group)
        put(self, "_by_agent", {k: tuple(v) for k, v in by_agent.items()})
        put(self, "_global", tuple(global_groups))
        # Compiled AgentRules by agent as passed (str or tuple of tokens). Filled lazily;
        # a race between threads only compiles the same immutable value twice.
        put(self, "_compiled", {})

    # -- construction ---------------------------------------------------------------
    @classmethod
    def allow_all(cls) -> RobotsTxt:
        """Everything allowed: the meaning of a 4xx answer (RFC 9309 §2.3.1.3)."""
        return cls(b"", (), (), synthetic="allow-all")

    @classmethod
    def disallow_all(cls) -> RobotsTxt:
        """Everything disallowed: the meaning of an unreachable file (RFC 9309 §2.3.1.4)."""
        return parse(b"User-agent: *\nDisallow: /\n", synthetic="disallow-all")

    # -- immutability and pickling ----------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("RobotsTxt is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RobotsTxt is immutable")

    def __reduce__(self) -> Tuple[Any, ...]:
        return (
            _restore,
            (self.source, self.groups, self.sitemaps, self.hosts, self.truncated, self.synthetic),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RobotsTxt):
            return NotImplemented
        return (self.source, self.groups, self.synthetic, self.truncated) == (
            other.source, other.groups, other.synthetic, other.truncated)

    def __hash__(self) -> int:
        return hash((self.source, self.synthetic))

    def __repr__(self) -> str:
        label = f" {self.synthetic}" if self.synthetic else ""
        return (f"<RobotsTxt{label} {len(self.source)} bytes, {len(self.groups)} groups, "
                f"{len(self.sitemaps)} sitemaps>")

    # -- questions --------------------------------------------------------------------
    def for_agent(self, agent: Agent) -> AgentRules:
        """The compiled rules for ``agent``: the fastest way to check many URLs.

        ``agent`` is a product token (``"ExampleBot"``), ``Token/version``, or a sequence of
        tokens for a crawler that obeys several names: all groups naming any of them apply
        (RFC 9309 §2.2.1). Only when no group names the agent do the ``*`` groups apply.
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
        with contextlib.suppress(TypeError):  # an unhashable sequence is not remembered
            compiled[agent] = rules

    def _compile(self, tokens: Tuple[str, ...]) -> AgentRules:
        by_agent = self._by_agent
        if len(tokens) == 1:
            groups: Tuple[Group, ...] = by_agent.get(tokens[0], ())
        else:
            chosen = {id(g): g for t in tokens for g in by_agent.get(t, ())}
            groups = tuple(sorted(chosen.values(), key=lambda g: g.line))
        if groups:
            rules = AgentRules(tokens, groups, "specific", self.synthetic)
        else:
            # Every agent no group names gets the same rules: compile them once, as "*".
            rules = self._compiled.get(_GLOBAL)  # type: ignore[assignment]
            if rules is None:
                scope = "global" if self._global else "none"
                rules = AgentRules(_GLOBAL, self._global, scope, self.synthetic)
                self._remember(_GLOBAL, rules)
        self._remember(tokens, rules)
        return rules

    def allowed(self, url: str, *, agent: Agent) -> bool:
        """True when ``agent`` may fetch ``url`` under this file.

        ``url`` is absolute (``https://host/path``) or a path starting with ``/``; only its
        path, params and query are compared (the caller checks that the file governs the
        URL's origin).
        """
        try:
            rules = self._compiled.get(agent)
        except TypeError:
            rules = None
        if rules is None:
            rules = self.for_agent(agent)
        return rules.allowed(url)

    def explain(self, url: str, *, agent: Agent) -> Verdict:
        """Like :meth:`allowed`, with the deciding rule, the groups used and the reason."""
        return self.for_agent(agent).explain(url)

    def crawl_delay(self, agent: Agent) -> Optional[float]:
        """Seconds between requests asked of ``agent`` (``Crawl-delay``), or ``None``.

        Chosen with the same group selection as the rules; the first valid value in file
        order wins. Google ignores this field; other crawlers honour it.
        """
        for group in self.for_agent(agent).groups:
            if group.crawl_delay is not None:
                return group.crawl_delay
        return None

    def request_rate(self, agent: Agent) -> Optional[RequestRate]:
        """The ``Request-rate`` asked of ``agent`` (same selection as :meth:`crawl_delay`)."""
        for group in self.for_agent(agent).groups:
            if group.request_rate is not None:
                return group.request_rate
        return None

    @property
    def lines(self) -> Tuple[Line, ...]:
        """The per-line report: what the parser made of every physical line.

        Recomputed from :attr:`source` on each access (it is not kept in memory).
        """
        text, _, _ = decode(self.source, None)
        lines = build(text, want_lines=True).lines
        assert lines is not None
        return lines

    @property
    def agents(self) -> Tuple[str, ...]:
        """The product tokens named by the file's groups (lower-cased, file order)."""
        return tuple(self._by_agent)


def _restore(
    source: bytes,
    groups: Tuple[Group, ...],
    sitemaps: Tuple[str, ...],
    hosts: Tuple[str, ...],
    truncated: bool,
    synthetic: Optional[str],
) -> RobotsTxt:
    return RobotsTxt(source, groups, sitemaps, hosts, truncated, synthetic)


def parse(
    content: bytes | str,
    *,
    max_bytes: Optional[int] = DEFAULT_MAX_BYTES,
    synthetic: Optional[str] = None,
) -> RobotsTxt:
    """Parse a robots.txt. Never raises for content: any bytes give a :class:`RobotsTxt`.

    ``content`` is the body as bytes (preferred: octets reach the matcher unchanged) or
    str (encoded as UTF-8). Content past ``max_bytes`` octets is ignored (``None``: no
    limit); :attr:`RobotsTxt.truncated` tells whether that happened.

    >>> robots = parse(b"User-agent: *\\nDisallow: /private\\n")
    >>> robots.allowed("https://example.com/private/x", agent="ExampleBot")
    False
    """
    if not isinstance(content, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"content must be bytes or str, not {type(content).__name__}")
    text, kept, cut = decode(content if not isinstance(content, memoryview) else bytes(content),
                             max_bytes)
    parsed = build(text)
    return RobotsTxt(kept, parsed.groups, parsed.sitemaps, parsed.hosts, cut, synthetic)

