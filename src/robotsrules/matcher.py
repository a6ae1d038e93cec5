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
  could still beat the best found so far. When there are many of them (files with
  hundreds of ``/*...`` rules exist), each is filed under one 3-gram of its longest
  literal piece, a substring every target it matches must contain; a check then tries
  only the rules whose 3-gram occurs in the target (plus the few with no 3-gram).

An empty pattern matches everything with priority 0, which never decides (Google), so it
is dropped here. Google-specific: ``allow: /d/index.html`` (or ``index.htm*``) also allows
exactly ``/d/``, as an extra rule ``/d/$`` of its own priority.

:class:`RfcRules` is the same machinery for ``mode="rfc"``: its rules arrive with RFC 9309
patterns (:func:`~robotsrules.urls.rfc_pattern`), URLs become targets with
:func:`~robotsrules.urls.rfc_target`, and there is no index.html rule.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import groupby
from operator import itemgetter
from typing import Callable, ClassVar, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .model import Group, Rule, Verdict
from .outline import Row
from .pattern import Pattern
from .urls import match_target, rfc_target

__all__ = ["ROBOTS_TXT_TARGET", "AgentRules", "GroupsSource", "RfcRules", "Row", "rows_of"]

GroupsSource = Union[Tuple[Group, ...], Callable[[], Tuple[Group, ...]]]
"""The groups an :class:`AgentRules` reports, or a function that reads them when asked."""

SMALL_RULES = 12
"""Up to this many rules (index.html extras included), a check tries them one by one."""

_FEW_LENGTHS = 8  # up to this many distinct literal lengths, probing each is fastest
GRAM_INDEX_MIN_RULES = 16
"""Wildcard rules needed before the 3-gram index pays for itself."""

ROBOTS_TXT_TARGET = "/robots.txt"
"""RFC 9309 §2.2.2: the robots.txt URL itself is implicitly allowed (SPEC D3)."""

# A rule's precedence as one int, so that comparing keys is one integer comparison:
# priority (pattern length), then allow over disallow, then the earlier line.
_PRIORITY_SHIFT, _ALLOW_SHIFT = 33, 32
_LINE_MASK = (1 << 32) - 1
_LOW_MASK = (1 << _PRIORITY_SHIFT) - 1  # everything but the priority
_Key = int


_HEAD = 3
"""Rules are filed under the first characters that every target they match starts with."""
_HEAD_OF = itemgetter(slice(0, _HEAD))
_BY_KEY = itemgetter(1)
_Head = Tuple[Tuple[int, ...], Tuple[Tuple[int, "Pattern"], ...], Tuple[str, ...]]
# (distinct literal lengths, longest first; wildcard rules, best key first; or the head's
# literal patterns sorted, to search by bisection when they have many lengths)


def _longest(
    ordered: Tuple[str, ...], literal: Dict[str, int], target: str, extra: int,
    best: Optional[int],
) -> Optional[int]:
    """The best key among the literal patterns in ``ordered`` (sorted) that prefix ``target``.

    Binary search: the largest pattern not above the target is either a prefix of it, or
    shares with it a common prefix that holds every pattern that could still be; so search
    again with that common prefix. Stops when no shorter pattern can rank higher.
    """
    while True:
        i = bisect_right(ordered, target) - 1
        if i < 0:
            return best
        candidate = ordered[i]
        if target.startswith(candidate):
            hit = literal[candidate]
            if best is None or hit > best:
                best = hit
            if len(candidate) - 1 + extra < best >> _PRIORITY_SHIFT:
                return best  # no shorter literal can rank higher
            target = candidate[:-1]
            continue
        low, high = 0, min(len(target), len(candidate))
        while low < high:  # length of the common prefix
            middle = (low + high + 1) // 2
            if target.startswith(candidate[:middle]):
                low = middle
            else:
                high = middle - 1
        target = target[:low]


def rows_of(groups: Iterable[Group]) -> List[Row]:
    """The rules of ``groups`` as matcher rows."""
    return [
        (rule.directive == "allow", rule.pattern, rule.line)
        for group in groups
        for rule in group.rules
    ]


def _file(pattern: str, key: int, exact: Dict[str, int], literal: Dict[str, int],
          wild: Dict[str, int]) -> int:
    """File a pattern with ``*`` or ``$`` in its table; return its trailing-'*' bonus."""
    bonus = 0
    text = pattern.rstrip("*") if pattern[-1] == "*" else pattern
    if "*" in text:
        table, text = wild, pattern
    elif text != pattern:
        # "/dir/*" matches what "/dir/" matches, but ranks by its full length.
        table = literal
        bonus = len(pattern) - len(text)
    elif pattern[-1] == "$":
        table, text = exact, pattern[:-1]
    else:  # pragma: no cover - plain prefixes are filed by the caller
        table = literal
    old = table.get(text)
    if old is None or key > old:  # identical patterns: the best key stays
        table[text] = key
    return bonus


class AgentRules:
    """The rules that apply to one crawler (one or several product tokens), compiled.

    Obtained from :meth:`RobotsTxt.for_agent`. Immutable and safe to share between threads.
    """

    __slots__ = (
        "_by_line",
        "_exact",
        "_extra",
        "_firsts",
        "_gramless",
        "_grams",
        "_groups",
        "_heads",
        "_literal",
        "_origin",
        "_short",
        "_short_wild",
        "_small",
        "agents",
        "scope",
    )

    _INDEX_HTML: ClassVar[bool] = True  # Google's index.html rule applies

    def __init__(
        self,
        agents: Tuple[str, ...],
        scope: str,
        rows: Iterable[Row],
        groups: GroupsSource,
        origin: Optional[str] = None,
    ) -> None:
        self.agents = agents
        """The lower-cased product tokens these rules were selected for (``("*",)`` for the
        rules every agent no group names shares)."""
        self.scope = scope
        """``"specific"``, ``"global"`` or ``"none"`` (see :class:`~robotsrules.Verdict`)."""
        self._groups = groups
        self._origin = origin
        self._by_line: Optional[Dict[int, Rule]] = None
        index_html = self._INDEX_HTML
        keyed: List[Tuple[int, str]] = []
        add = keyed.append
        for allow, pattern, line in rows:
            if not pattern:
                continue  # matches everything with priority 0: never decides
            key = (len(pattern) << _PRIORITY_SHIFT) | (allow << _ALLOW_SHIFT) | (_LINE_MASK - line)
            add((key, pattern))
            if allow and index_html and "/index.htm" in pattern:
                # Google-specific: "/d/index.htm*" also allows "/d/" exactly.
                slash = pattern.rfind("/")
                if pattern.startswith("/index.htm", slash):
                    pattern = pattern[: slash + 1] + "$"
                    add(((len(pattern) << _PRIORITY_SHIFT) | (key & _LOW_MASK), pattern))
        self._exact: Dict[str, int] = {}
        self._literal: Dict[str, int] = {}
        self._heads: Dict[str, _Head] = {}
        self._short: Tuple[int, ...] = ()
        self._short_wild: Tuple[Tuple[int, Pattern, str], ...] = ()
        self._extra = 0
        self._grams: Optional[Dict[str, List[int]]] = None
        self._gramless: Tuple[int, ...] = ()
        if len(keyed) <= SMALL_RULES:
            # Few rules: try them in precedence order, the first that matches decides. A
            # target that starts with no rule's leading literal is settled by one C call.
            keyed.sort(reverse=True)
            small = tuple(
                (key, text, None if "*" not in text and text[-1] != "$" else Pattern(text))
                for key, text in keyed
            )
            self._small: Optional[Tuple[Tuple[int, str, Optional[Pattern]], ...]] = small
            self._firsts: Tuple[str, ...] = tuple(
                text if pattern is None else pattern.first for _, text, pattern in small
            )
            return
        self._small = None
        self._firsts = ()
        self._index(keyed)

    def _index(self, keyed: List[Tuple[int, str]]) -> None:
        """File many rules in the tables described in the module docstring."""
        exact: Dict[str, int] = {}
        literal: Dict[str, int] = {}
        wild: Dict[str, int] = {}
        extra = 0  # most trailing '*'s on a literal pattern: its rank over its length
        for key, pattern in keyed:
            if "*" not in pattern and pattern[-1] != "$":  # the common case: a prefix
                old = literal.get(pattern)
                if old is None or key > old:  # identical patterns: the best key stays
                    literal[pattern] = key
            else:
                bonus = _file(pattern, key, exact, literal, wild)
                if bonus > extra:
                    extra = bonus
        self._exact = exact
        self._literal = literal
        self._extra = extra
        heads: Dict[str, Tuple[List[int], List[Tuple[int, Pattern]], Tuple[str, ...]]] = {}
        short: List[int] = []
        for head, same in groupby(sorted(literal), _HEAD_OF):
            members = tuple(same)
            if len(head) < _HEAD:
                short.extend(map(len, members))
                continue
            lengths = sorted(set(map(len, members)), reverse=True)
            if len(lengths) > _FEW_LENGTHS:  # search the head's patterns by bisection
                heads[head] = ([], [], members)
            else:
                heads[head] = (lengths, [], ())
        self._short = tuple(sorted(set(short), reverse=True))
        short_wild: List[Tuple[int, Pattern, str]] = []
        for text, key in sorted(wild.items(), key=_BY_KEY, reverse=True):
            compiled = Pattern(text)
            head = compiled.first[:_HEAD]
            if len(head) < _HEAD:
                piece = max((compiled.first, *compiled.middle, compiled.last), key=len)
                short_wild.append((key, compiled, piece))
            else:
                heads.setdefault(head, ([], [], ()))[1].append((key, compiled))
        self._heads = {
            head: (tuple(lengths), tuple(wilds), ordered)
            for head, (lengths, wilds, ordered) in heads.items()
        }
        self._short_wild = tuple(short_wild)
        if len(short_wild) >= GRAM_INDEX_MIN_RULES:
            self._index_grams()

    @property
    def groups(self) -> Tuple[Group, ...]:
        """The groups that apply, in file order (read from the file on first access)."""
        groups = self._groups
        if not isinstance(groups, tuple):
            groups = groups()
            self._groups = groups
        return groups

    def _index_grams(self) -> None:
        grams: Dict[str, List[int]] = {}
        gramless: List[int] = []
        for index, (_, _, piece) in enumerate(self._short_wild):
            if len(piece) < 3:
                gramless.append(index)
                continue
            # File the rule under its piece's least crowded 3-gram, to keep buckets small.
            gram, size = piece[:3], len(grams.get(piece[:3], ()))
            for i in range(1, len(piece) - 2):
                if size == 0:
                    break
                other = piece[i : i + 3]
                other_size = len(grams.get(other, ()))
                if other_size < size:
                    gram, size = other, other_size
            grams.setdefault(gram, []).append(index)
        self._grams = grams
        self._gramless = tuple(gramless)

    def _candidates(self, target: str, grams: Dict[str, List[int]]) -> List[int]:
        """Indexes (ascending = best key first) of the short-headed wildcard rules to try."""
        found = set(self._gramless)
        if len(grams) < len(target):
            for gram, indexes in grams.items():
                if gram in target:
                    found.update(indexes)
        else:
            get = grams.get
            for i in range(len(target) - 2):
                bucket = get(target[i : i + 3])
                if bucket is not None:
                    found.update(bucket)
        return sorted(found)

    def _decide(self, target: str) -> Optional[_Key]:
        small = self._small
        if small is not None:
            if not target.startswith(self._firsts):
                return None
            for key, written, pattern in small:
                if pattern is None:
                    if target.startswith(written):
                        return key
                elif pattern.match(target):
                    return key
            return None
        best = self._exact.get(target)
        literal = self._literal
        extra = self._extra
        size = len(target)
        head = self._heads.get(target[:_HEAD])
        if head is not None:
            lengths, wild, ordered = head
            if ordered:
                best = _longest(ordered, literal, target, extra, best)
            for n in lengths:
                if n > size:
                    continue
                if best is not None and n + extra < best >> _PRIORITY_SHIFT:
                    break
                hit = literal.get(target[:n])
                if hit is not None and (best is None or hit > best):
                    best = hit
            for key, pattern in wild:
                if best is not None and key < best:
                    break
                if pattern.match(target):
                    best = key
                    break
        for n in self._short:
            if best is not None and n + extra < best >> _PRIORITY_SHIFT:
                break
            hit = literal.get(target[:n])
            if hit is not None and (best is None or hit > best):
                best = hit
        short_wild = self._short_wild
        if short_wild:
            grams = self._grams
            if grams is None:
                for key, pattern, piece in short_wild:
                    if best is not None and key < best:
                        break
                    if piece in target and pattern.match(target):
                        return key
            else:
                for index in self._candidates(target, grams):
                    key, pattern, _ = short_wild[index]
                    if best is not None and key < best:
                        break
                    if pattern.match(target):
                        return key
        return best

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = match_target(url)
        if target == ROBOTS_TXT_TARGET:
            return True
        best = self._decide(target)
        return best is None or (best >> _ALLOW_SHIFT) & 1 == 1

    def explain(self, url: str) -> Verdict:
        """The verdict for ``url`` with the deciding rule, the groups used and the reason."""
        return self._verdict(match_target(url))

    def _verdict(self, target: str) -> Verdict:
        if target == ROBOTS_TXT_TARGET:
            return Verdict(True, None, self.groups, self.scope, "robots-txt", target)
        best = self._decide(target)
        if best is None:
            allowed = True
            rule = None
            reason = "no-match" if self.scope != "none" else "no-group"
        else:
            priority = best >> _PRIORITY_SHIFT
            allowed = (best >> _ALLOW_SHIFT) & 1 == 1
            rule = self._rule_at(_LINE_MASK - (best & _LINE_MASK))
            if priority != len(rule.pattern):  # the extra "/d/$" of an index.html allow
                reason = "index-html"
            elif allowed and self._ties_with_disallow(target, priority):
                reason = "tie-allow"
            else:
                reason = "longest-match"
        if self._origin is not None:  # no file: the fetch outcome decided, not a line
            reason, rule = self._origin, None
        return Verdict(allowed, rule, self.groups, self.scope, reason, target)

    def _rule_at(self, line: int) -> Rule:
        by_line = self._by_line
        if by_line is None:
            by_line = {rule.line: rule for group in self.groups for rule in group.rules}
            self._by_line = by_line
        return by_line[line]

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


class RfcRules(AgentRules):
    """:class:`AgentRules` for ``mode="rfc"`` (RFC 9309 where Google's library differs).

    The rules' patterns are already in RFC 9309 normal form; URLs are normalised the same way
    (unreserved ``%XX`` decoded, literal ``*``/``$`` as ``%2A``/``%24``: see
    :func:`~robotsrules.urls.rfc_target`), and Google's index.html rule does not apply.
    """

    __slots__ = ()

    _INDEX_HTML: ClassVar[bool] = False

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = rfc_target(url)
        if target == ROBOTS_TXT_TARGET:
            return True
        best = self._decide(target)
        return best is None or (best >> _ALLOW_SHIFT) & 1 == 1

    def explain(self, url: str) -> Verdict:
        """The verdict for ``url`` with the deciding rule, the groups used and the reason."""
        return self._verdict(rfc_target(url))
