"""Compiled rules for one crawler: ``allowed()`` and ``explain()`` without re-scanning.

Theory of operation. RFC 9309 §2.2.2 (and Google) pick, among the rules that match, the
one with the longest pattern; an allow wins a tie with a disallow; among equal rules the
first in the file is reported. We encode that choice as one int, the *key*
``(priority, is_allow, -line)``, and look for the largest key that matches, visiting as
few rules as possible. A rule list sorted by key, largest first, is decided by its first
rule that matches.

* Up to :data:`SMALL_RULES` rules: one sorted list. A target that starts with no rule's
  leading literal is settled by a single ``str.startswith(tuple)`` call.
* More rules are filed by their *head*, the first three characters of their leading
  literal (the text before any ``*``), which every target they match starts with. A check
  looks at one head's rules — a sorted list, or for a crowded head (:data:`CROWDED`) a
  :class:`_Bucket` that finds the longest literal prefix by dict lookups per distinct
  length (or by bisection) — and at the rules whose leading literal is shorter than a head
  (``/``, ``/*.pdf$``, ``*?``), tried in key order after a substring pre-check, or through
  a 3-gram index when there are many.
* A head is compiled when a target first needs it, so a file checked for a few URLs pays
  only for the heads those URLs visit (that first check sorts the head's rules: O(k log k)
  for k rules; every later check is a lookup).

No pattern becomes a regular expression: :class:`~robotsrules._rules._pattern.Pattern` matches
with ``str.find`` and never backtracks.

An empty pattern matches everything with priority 0, which never decides (Google), so it
is dropped here. Google-specific: ``allow: /d/index.html`` (or ``index.htm*``) also allows
exactly ``/d/``, as an extra rule ``/d/$`` of its own priority.

:class:`RfcRules` is the same machinery for ``mode="rfc"``: its rules arrive with RFC 9309
patterns (:func:`~robotsrules._rules._urls.rfc_pattern`), URLs become targets with
:func:`~robotsrules._rules._urls.rfc_target`, and there is no index.html rule.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import (
    Any,
    Callable,
    ClassVar,
    Final,
    Optional,
    Union,
    cast,
)

from ..model import Group, Reason, Rule, Scope, Verdict
from ._pattern import Pattern
from ._precedence import ALLOW_BIT, LINE_MASK, PRIORITY_SHIFT, Row, index_html_rows, rows_of
from ._urls import match_target, rfc_target

__all__ = [
    "ROBOTS_TXT_TARGET",
    "AgentRules",
    "GroupsSource",
    "RfcRules",
]

GroupsSource = Union[tuple[Group, ...], Callable[[], tuple[Group, ...]]]
"""The groups an :class:`AgentRules` reports, or a function that reads them when asked."""

SMALL_RULES: Final = 12
"""Up to this many rules (index.html extras included), a check tries them in key order."""
CROWDED: Final = 16
"""A head with more rules than this gets a :class:`_Bucket`."""
GRAM_INDEX_MIN_RULES: Final = 16
"""Short-headed wildcard rules needed before the 3-gram index pays for itself."""

ROBOTS_TXT_TARGET: Final = "/robots.txt"
"""RFC 9309 §2.2.2: the robots.txt URL itself is implicitly allowed (SPEC D3)."""

# Rules are compared by their precedence key (robotsrules._rules._precedence).
_Key = int
_HEAD: Final = 3
_FEW_LENGTHS: Final = 8  # up to this many distinct literal lengths, probing each is fastest

Entry = tuple[int, str, Optional[Pattern]]
"""(key, pattern as written, compiled pattern or None for a plain literal prefix)."""


def _entries(keyed: list[tuple[int, str]]) -> tuple[Entry, ...]:
    """Rules sorted by key, largest first, each compiled if it has ``*`` or ``$``."""
    keyed.sort()  # then read backwards (no keyword argument: a plain call when compiled)
    return tuple(
        (key, text, None if "*" not in text and text[-1] != "$" else Pattern(text))
        for key, text in reversed(keyed)
    )


def _first_match(entries: tuple[Entry, ...], target: str) -> Optional[int]:
    """The key of the first rule of ``entries`` (sorted by key) that matches ``target``."""
    for key, text, pattern in entries:
        if pattern is None:
            if target.startswith(text):
                return key
        elif pattern.match(target):
            return key
    return None


class _Bucket:
    """Many rules under one head: literal prefixes found by dict lookups per distinct length
    (or by bisection when there are many lengths), exact patterns by one lookup, wildcard
    rules tried in key order while they could still win."""

    __slots__ = ("exact", "extra", "lengths", "literal", "ordered", "wild")

    def __init__(self, keyed: list[tuple[int, str]]) -> None:
        literal: dict[str, int] = {}
        exact: dict[str, int] = {}
        wild: dict[str, int] = {}
        extra = 0  # most trailing '*'s on a literal pattern: its rank over its length
        # The rows as the objects they are (see AgentRules.__init__): keys stay boxed.
        for item in cast(list[tuple[Any, ...]], keyed):
            pattern: str = item[1]
            text = pattern.rstrip("*")
            if "*" in text:
                table, text = wild, pattern
            elif text != pattern:
                # "/dir/*" matches what "/dir/" matches, but ranks by its full length.
                table = literal
                extra = max(extra, len(pattern) - len(text))
            elif pattern[-1] == "$":
                table, text = exact, pattern[:-1]
            else:
                table = literal
            key = item[0]
            old = table.setdefault(text, key)  # one lookup when the pattern is new
            if key > old:  # identical patterns: the best key stays
                table[text] = key
        self.literal = literal
        self.exact = exact
        self.extra = extra
        lengths = sorted({len(p) for p in literal}, reverse=True)
        many = len(lengths) > _FEW_LENGTHS
        self.ordered: tuple[str, ...] = tuple(sorted(literal)) if many else ()
        self.lengths: tuple[int, ...] = () if self.ordered else tuple(lengths)
        self.wild: tuple[tuple[int, Pattern], ...] = tuple(
            sorted(((key, Pattern(text)) for text, key in wild.items()), reverse=True)
        )

    def best(self, target: str) -> Optional[int]:
        """The largest key among this bucket's rules that match ``target``, if any."""
        best = self.exact.get(target)
        literal = self.literal
        extra = self.extra
        if self.ordered:
            best = self._bisect(target, best)
        size = len(target)
        for n in self.lengths:
            if n > size:
                continue
            if best is not None and n + extra < best >> PRIORITY_SHIFT:
                break  # no shorter literal can rank higher
            hit = literal.get(target[:n])
            if hit is not None and (best is None or hit > best):
                best = hit
        for key, pattern in self.wild:
            if best is not None and key < best:
                break
            if pattern.match(target):
                return key
        return best

    def _bisect(self, target: str, best: Optional[int]) -> Optional[int]:
        """The best key among the literal prefixes of ``target``, by binary search.

        The largest pattern not above the target is either a prefix of it, or shares with
        it a common prefix that holds every pattern that could still be; so search again
        with that common prefix. Stops when no shorter pattern can rank higher.
        """
        ordered, literal, extra = self.ordered, self.literal, self.extra
        while True:
            i = bisect_right(ordered, target) - 1
            if i < 0:
                return best
            candidate = ordered[i]
            if target.startswith(candidate):
                hit = literal[candidate]
                if best is None or hit > best:
                    best = hit
                if len(candidate) - 1 + extra < best >> PRIORITY_SHIFT:
                    return best
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


_HeadRules = Union[list[tuple[int, str]], tuple[Entry, ...], _Bucket]
# one head's rules: as filed (a list), or compiled on first use (sorted tuple or bucket)


class AgentRules:
    """The rules that apply to one crawler (one or several product tokens), compiled.

    Obtained from :meth:`RobotsTxt.for_agent`. Immutable and safe to share between threads
    (heads compiled on first use are filled in by whichever thread gets there first; the
    result is the same).
    """

    __slots__ = (
        "_by_line",
        "_firsts",
        "_gramless",
        "_grams",
        "_groups",
        "_heads",
        "_origin",
        "_short",
        "_small",
        "agents",
        "scope",
    )

    _INDEX_HTML: ClassVar[bool] = True  # Google's index.html rule applies

    def __init__(
        self,
        agents: tuple[str, ...],
        scope: Scope,
        rows: Iterable[Row],  # (key, pattern); patterns not empty
        groups: GroupsSource,
        origin: Optional[Reason] = None,
        index_pages: bool = True,
    ) -> None:
        # index_pages=False: the caller knows no pattern holds "/index.htm" (a shortcut).
        self.agents = agents
        """The lower-cased product tokens these rules were selected for (``("*",)`` for the
        rules every agent no group names shares)."""
        self.scope = scope
        """``"specific"``, ``"global"`` or ``"none"`` (see :class:`~robotsrules.Verdict`)."""
        self._groups = groups
        self._origin = origin
        self._by_line: Optional[dict[int, Rule]] = None
        keyed: list[Row] = rows if isinstance(rows, list) else list(rows)
        if self._INDEX_HTML and index_pages:
            extra = index_html_rows(keyed)
            if extra:
                keyed = keyed + extra
        if len(keyed) <= SMALL_RULES:
            small = _entries(keyed)
            self._small: Optional[tuple[Entry, ...]] = small
            self._firsts: tuple[str, ...] = tuple(
                text if pattern is None else pattern.first for _, text, pattern in small
            )
            return
        self._small = None
        # The rows as the objects they are: a Row loop variable would be unboxed by the
        # compiled build and boxed again by every append.
        boxed = cast(list[tuple[Any, ...]], keyed)
        heads: dict[str, list[tuple[Any, ...]]] = {}
        short: list[tuple[Any, ...]] = []
        head = ""  # the head of the last rule filed under one, and its list
        same = short
        for item in boxed:
            text: str = item[1]
            if len(text) > _HEAD and head and text.startswith(head):
                # Rules sharing a head often come together: no slice and no lookup. (Longer
                # than a head and starting with one, its leading literal holds the head.)
                same.append(item)
                continue
            if "*" in text:
                text = text[: text.find("*")]
            elif text[-1] == "$":
                text = text[:-1]
            if len(text) < _HEAD:
                short.append(item)
                continue
            head = text[:_HEAD]
            found = heads.get(head)
            if found is None:
                same = heads[head] = [item]
            else:
                same = found
                found.append(item)
        # Each head is compiled when a target first needs it (_settle).
        self._heads: dict[str, _HeadRules] = cast(dict[str, _HeadRules], heads)
        entries = _entries(cast(list[Row], short))
        self._short: tuple[tuple[int, str, Optional[Pattern], str], ...] = tuple(
            (key, text, pattern, _piece(pattern)) for key, text, pattern in entries
        )
        self._grams: Optional[dict[str, list[int]]] = None
        self._gramless: tuple[int, ...] = ()
        if len(entries) >= GRAM_INDEX_MIN_RULES:
            self._index_grams()

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups that apply, in file order (read from the file on first access)."""
        groups = self._groups
        if not isinstance(groups, tuple):
            groups = groups()
            self._groups = groups
        return groups

    def _index_grams(self) -> None:
        grams: dict[str, list[int]] = {}
        gramless: list[int] = []
        for index, (_, _, _, piece) in enumerate(self._short):
            if len(piece) < 3:
                gramless.append(index)
                continue
            # File the rule under the least crowded of a few of its piece's 3-grams (first,
            # last and two between), to keep buckets small at a bounded cost per rule.
            last = len(piece) - 3
            gram, size = piece[:3], len(grams.get(piece[:3], ()))
            for step in range(3):  # at last, last // 3 and 2 * last // 3 (no tuple made)
                if size == 0:
                    break
                i = last if step == 0 else step * last // 3
                other = piece[i : i + 3]
                other_size = len(grams.get(other, ()))
                if other_size < size:
                    gram, size = other, other_size
            grams.setdefault(gram, []).append(index)
        self._grams = grams
        self._gramless = tuple(gramless)

    def _candidates(self, target: str, grams: dict[str, list[int]]) -> list[int]:
        """Indexes (ascending = best key first) of the short-headed rules that may match."""
        found = set(self._gramless)
        if len(grams) < len(target):
            for gram, indexes in grams.items():
                if gram in target:
                    found.update(indexes)
        else:
            for i in range(len(target) - 2):
                bucket = grams.get(target[i : i + 3])
                if bucket is not None:
                    found.update(bucket)
        return sorted(found)

    def _settle(self, head: str, keyed: list[tuple[int, str]]) -> _HeadRules:
        """Compile one head's rules on first use: sorted, or a bucket if crowded (from a
        copy, or nothing: other threads may be reading the list)."""
        settled: _HeadRules = _Bucket(keyed) if len(keyed) > CROWDED else _entries(list(keyed))
        self._heads[head] = settled
        return settled

    def _decide(self, target: str) -> Optional[_Key]:
        small = self._small
        if small is not None:
            if not target.startswith(self._firsts):
                return None
            return _first_match(small, target)
        best: Optional[int] = None
        head = target[:_HEAD]
        rules = self._heads.get(head)
        if rules is not None:
            kind = type(rules)
            if kind is list:
                rules = self._settle(head, rules)  # type: ignore[arg-type]
                kind = type(rules)
            if kind is tuple:
                best = _first_match(rules, target)  # type: ignore[arg-type]
            else:
                best = rules.best(target)  # type: ignore[union-attr]
        short = self._short
        if not short:
            return best
        grams = self._grams
        if grams is None:
            for key, text, pattern, piece in short:
                if best is not None and key < best:
                    break
                if pattern is None:
                    if target.startswith(text):
                        return key
                elif piece in target and pattern.match(target):
                    return key
            return best
        for index in self._candidates(target, grams):
            key, text, pattern, _ = short[index]
            if best is not None and key < best:
                break
            if target.startswith(text) if pattern is None else pattern.match(target):
                return key
        return best

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = match_target(url)
        if target == ROBOTS_TXT_TARGET:
            return True
        small = self._small
        if small is None:
            best = self._decide(target)
        elif target.startswith(self._firsts):  # the common case, inlined
            best = _first_match(small, target)
        else:
            return True
        return best is None or best & ALLOW_BIT != 0

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
            reason: Reason = "no-match" if self.scope != "none" else "no-group"
        else:
            priority = best >> PRIORITY_SHIFT
            allowed = best & ALLOW_BIT != 0
            rule = self._rule_at(LINE_MASK - (best & LINE_MASK))
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

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the rules' source, compiled again when loaded (the same answers): the
        # compiled build's objects have no slots to copy, and the heads compiled so far
        # need not travel.
        return (type(self), (self.agents, self.scope, rows_of(self.groups), self.groups,
                             self._origin))


class RfcRules(AgentRules):
    """:class:`AgentRules` for ``mode="rfc"`` (RFC 9309 where Google's library differs).

    The rules' patterns are already in RFC 9309 normal form; URLs are normalised the same way
    (unreserved ``%XX`` decoded, literal ``*``/``$`` as ``%2A``/``%24``: see
    :func:`~robotsrules._rules._urls.rfc_target`), and Google's index.html rule does not apply.
    """

    __slots__ = ()

    _INDEX_HTML: ClassVar[bool] = False

    def allowed(self, url: str) -> bool:
        """True when the crawler may fetch ``url`` (absolute, or a path starting with ``/``)."""
        target = rfc_target(url)
        if target == ROBOTS_TXT_TARGET:
            return True
        best = self._decide(target)
        return best is None or best & ALLOW_BIT != 0

    def explain(self, url: str) -> Verdict:
        """The verdict for ``url`` with the deciding rule, the groups used and the reason."""
        return self._verdict(rfc_target(url))


def _piece(pattern: Optional[Pattern]) -> str:
    """The longest literal piece of a pattern: a substring every target it matches holds."""
    if pattern is None:
        return ""
    longest = pattern.first  # the first of the longest, as max(..., key=len) would pick
    for piece in pattern.middle:
        if len(piece) > len(longest):
            longest = piece
    return pattern.last if len(pattern.last) > len(longest) else longest


# Pickles name a class by its module: point them at the public name, so that moving the
# implementation between private modules never breaks a stored AgentRules. (setattr: the
# compiled build refuses an assignment to a class attribute not declared ClassVar.)
setattr(AgentRules, "__module__", "robotsrules")  # noqa: B010
