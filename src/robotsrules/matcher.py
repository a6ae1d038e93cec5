"""Compiled rules for one crawler: ``allowed()`` and ``explain()`` without re-scanning.

Theory of operation. RFC 9309 §2.2.2 (and Google) pick, among the rules that match, the
one with the longest pattern; an allow wins a tie with a disallow; among equal rules the
first in the file is reported. We encode that choice as a key ``(priority, is_allow,
-line)`` and look for the largest key that matches, visiting as few rules as possible:

* *exact* patterns (``/a/b$``, no ``*``) sit in a dict keyed by the target they equal —
  one lookup;
* *literal* patterns (no ``*``, no final ``$``) sit in a dict keyed by the pattern. The
  target's prefixes that could match are ``target[:n]`` for the distinct pattern lengths
  ``n``; they are tried longest first and the first hit is the best literal;
* *wildcard* patterns are sorted by key, largest first, and tried only while their key
  could still beat the best found so far.

An empty pattern matches everything with priority 0, which never decides (Google), so it
is dropped here. Google-specific: ``allow: /d/index.html`` (or ``index.htm*``) also allows
exactly ``/d/``, as an extra rule ``/d/$`` of its own priority.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .model import Group, Rule, Verdict
from .pattern import Pattern
from .urls import match_target

__all__ = ["ROBOTS_TXT_TARGET", "AgentRules"]

ROBOTS_TXT_TARGET = "/robots.txt"
"""RFC 9309 §2.2.2: the robots.txt URL itself is implicitly allowed (SPEC D3)."""

# (priority, is_allow, -line, index into AgentRules._decisions)
_Key = Tuple[int, int, int, int]


class AgentRules:
    """The rules that apply to one crawler (one or several product tokens), compiled.

    Obtained from :meth:`RobotsTxt.for_agent`. Immutable and safe to share between threads.
    """

    __slots__ = (
        "_decisions",
        "_exact",
        "_lengths",
        "_literal",
        "_origin",
        "_wild",
        "agents",
        "groups",
        "scope",
    )

    def __init__(
        self,
        agents: Tuple[str, ...],
        groups: Tuple[Group, ...],
        scope: str,
        origin: Optional[str] = None,
    ) -> None:
        self.agents = agents
        """The lower-cased product tokens these rules were selected for."""
        self.groups = groups
        """The groups that apply, in file order."""
        self.scope = scope
        """``"specific"``, ``"global"`` or ``"none"`` (see :class:`~robotsrules.Verdict`)."""
        self._origin = origin
        decisions: List[Tuple[Rule, bool]] = []
        exact: Dict[str, _Key] = {}
        literal: Dict[str, _Key] = {}
        wild: List[Tuple[_Key, Pattern]] = []

        def add(rule: Rule, pattern: str, synthetic: bool) -> None:
            key = (len(pattern), rule.directive == "allow", -rule.line, len(decisions))
            decisions.append((rule, synthetic))
            if "*" in pattern:
                wild.append((key, Pattern(pattern)))
                return
            table, text = (exact, pattern[:-1]) if pattern.endswith("$") else (literal, pattern)
            old = table.get(text)
            if old is None or key > old:
                table[text] = key

        for group in groups:
            for rule in group.rules:
                pattern = rule.pattern
                if not pattern:
                    continue  # matches everything with priority 0: never decides
                add(rule, pattern, False)
                if rule.directive == "allow":
                    # Google-specific: "/d/index.htm*" also allows "/d/" exactly.
                    slash = pattern.rfind("/")
                    if slash >= 0 and pattern.startswith("/index.htm", slash):
                        add(rule, pattern[: slash + 1] + "$", True)
        wild.sort(key=lambda item: item[0], reverse=True)
        self._decisions: Tuple[Tuple[Rule, bool], ...] = tuple(decisions)
        self._exact = exact
        self._literal = literal
        self._lengths: Tuple[int, ...] = tuple(sorted({len(p) for p in literal}, reverse=True))
        self._wild: Tuple[Tuple[_Key, Pattern], ...] = tuple(wild)

    def _decide(self, target: str) -> Optional[_Key]:
        best = self._exact.get(target)
        literal = self._literal
        if literal:
            size = len(target)
            floor = -1 if best is None else best[0]
            for n in self._lengths:
                if n < floor:
                    break
                if n > size:
                    continue
                hit = literal.get(target[:n])
                if hit is not None:
                    if best is None or hit > best:
                        best = hit
                    break
        for key, pattern in self._wild:
            if best is not None and key < best:
                break
            if pattern.match(target):
                if best is None or key > best:
                    best = key
                break
        return best

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = match_target(url)
        if target == ROBOTS_TXT_TARGET:
            return True
        best = self._decide(target)
        return best is None or best[1] == 1

    def explain(self, url: str) -> Verdict:
        """The verdict for ``url`` with the deciding rule, the groups used and the reason."""
        target = match_target(url)
        if target == ROBOTS_TXT_TARGET:
            return Verdict(True, None, self.groups, self.scope, "robots-txt", target)
        best = self._decide(target)
        if best is None:
            allowed = True
            rule = None
            reason = "no-match" if self.scope != "none" else "no-group"
        else:
            allowed = best[1] == 1
            rule, synthetic = self._decisions[best[3]]
            if synthetic:
                reason = "index-html"
            elif allowed and self._ties_with_disallow(target, best[0]):
                reason = "tie-allow"
            else:
                reason = "longest-match"
        if self._origin is not None:
            reason = self._origin
        return Verdict(allowed, rule, self.groups, self.scope, reason, target)

    def _ties_with_disallow(self, target: str, priority: int) -> bool:
        for group in self.groups:
            for rule in group.rules:
                if (
                    rule.directive == "disallow"
                    and len(rule.pattern) == priority
                    and Pattern(rule.pattern).match(target)
                ):
                    return True
        return False

    @property
    def rules(self) -> Sequence[Rule]:
        """Every allow/disallow rule that applies, in file order."""
        return tuple(rule for group in self.groups for rule in group.rules)

    def __repr__(self) -> str:
        return f"<AgentRules {'/'.join(self.agents)} scope={self.scope} rules={len(self.rules)}>"
