"""A crawler's stance under a robots.txt, without a URL list: all, none or some paths disallowed.

``robots.stance(agent)`` answers "has this site opted out of this crawler?" exactly as the
matcher would answer for every possible URL, by reasoning over the rules instead of
sampling URLs.

Theory of operation. Each rule is a small deterministic automaton over the match target:

* its first literal piece must be a prefix of the target;
* every later piece is searched for, leftmost first, with a Knuth-Morris-Pratt automaton
  (greedy leftmost placement is optimal for ``*`` globs, as in
  :class:`~robotsrules.pattern.Pattern`); an unanchored rule *matches* for good once its
  last piece is found;
* an anchored rule (``...$``) keeps a KMP state for its last piece after the others are
  found, and matches a target exactly when that state is "complete" at the end.

The stance explores the product of these automata breadth-first, from ``/`` (every target
starts with ``/``). A product state holds, besides each live rule's state, the best key
(:data:`~robotsrules.outline.Row`) among the unanchored rules already matched; a live rule
with a smaller key can never decide and is dropped, so the product stays small for real
files. Characters that no live automaton distinguishes are one class, explored once through
a representative. Two more components make the answer exact for *targets the matcher can
actually receive*: whether the string so far is ``/robots.txt`` (always allowed, RFC 9309
§2.2.2; excluded from the stance) and whether it is a canonical target (hex digits of
``%XX`` escapes upper-case; in RFC mode no bare ``*``/``$`` and no escaped unreserved
character: see :mod:`robotsrules.urls`).

Every reachable product state stands for a set of targets that share one verdict and one
deciding rule: the verdict is the largest key among the matched rules, exactly as
:class:`~robotsrules.matcher.AgentRules` decides (longest match, allow wins ties, first line
among equals, Google's index.html rule as an extra ``/d/$`` allow). So:

* ``kind`` is ``"all"`` if no reachable state allows, ``"none"`` if none disallows,
  ``"some"`` otherwise;
* ``lines`` are the rules that decide at least one target (file order);
* the examples are the shortest targets found for each deciding rule (breadth-first).

The exploration visits at most ``max_states`` product states. Real files need a few
thousand; a hostile file could need more, and then the stance is still exact if both an
allowed and a disallowed target were found (``kind="some"``, ``complete=False``: ``lines``
may miss rules); otherwise :class:`StanceTooComplex` is raised rather than a guess.
"""

from __future__ import annotations

from collections import deque
from typing import Deque, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .errors import RobotsError
from .legacy import LegacyRules
from .matcher import AgentRules, RfcRules, index_html_rows, rows_of
from .model import Rule
from .outline import ALLOW_BIT, LINE_MASK, Row

__all__ = ["MAX_STATES", "Stance", "StanceTooComplex", "stance_of"]

MAX_STATES = 200_000
"""Product states explored before giving up on completeness (see the module docstring)."""
EXAMPLES = 3
"""Example paths kept per side."""

ROBOTS_TXT = "/robots.txt"
_HEX = "0123456789ABCDEFabcdef"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters a target may hold (before the escape rule): ASCII but NUL and '#'.
_TARGET_CHARS = "".join(chr(c) for c in range(1, 128) if chr(c) != "#")
# Representatives for "a character no rule mentions", most readable first.
_PREFERRED = "xzqjkwvyughimnlp" + "XZQJKWVYUGHIMNLP" + "-_~!"

_DEAD = -1
_DONE = -2


class StanceTooComplex(RobotsError):
    """The file's rules need more than ``max_states`` product states to settle the stance."""


class Stance(NamedTuple):
    """What a robots.txt says to one crawler about the whole site.

    ``kind`` is ``"all"`` (every path is disallowed, ``/robots.txt`` aside), ``"none"``
    (nothing is disallowed) or ``"some"``. ``lines`` are the rules that decide at least one
    path, in file order (for ``"all"`` the disallows that block everything; for ``"none"``
    the allows that decide, often none). ``disallowed`` and ``allowed`` are a few example
    targets with that verdict, shortest first, one per deciding rule where possible (a
    ``"some"`` stance has at least one of each). ``scope`` is the group selection
    (``"specific"``, ``"global"`` or ``"none"``, as in :class:`~robotsrules.Verdict`).
    ``complete`` is False when the exploration stopped at its bound after finding both
    verdicts: ``kind`` is still exact, ``lines`` may miss rules.
    """

    kind: str
    agents: Tuple[str, ...]
    scope: str
    lines: Tuple[Rule, ...]
    disallowed: Tuple[str, ...]
    allowed: Tuple[str, ...]
    complete: bool = True

    @property
    def blocked(self) -> bool:
        """True when the whole site is disallowed (``kind == "all"``)."""
        return self.kind == "all"


class _Automaton:
    """One rule as a deterministic automaton: ``step[state]`` maps the characters that
    matter to the next state, ``other[state]`` is the next state for any other character;
    ``final[state]`` says whether a target ending there matches (anchored rules)."""

    __slots__ = ("final", "other", "start", "step")

    def __init__(self) -> None:
        self.step: List[Dict[str, int]] = []
        self.other: List[int] = []
        self.final: List[bool] = []
        self.start = _DEAD

    def _add(self, step: Dict[str, int], other: int, final: bool) -> int:
        self.step.append(step)
        self.other.append(other)
        self.final.append(final)
        return len(self.step) - 1

    def _kmp(self, piece: str, after: int, anchored_tail: bool) -> int:
        """States searching ``piece``; reaching it goes to ``after`` (or, for the last piece
        of an anchored rule, stays in the search with ``final`` set). Returns the first."""
        size = len(piece)
        if anchored_tail and size == 0:
            me = len(self.step)
            self._add({}, me, True)
            return me
        base = len(self.step)
        count = size + 1 if anchored_tail else size
        fail = [0] * size
        k = 0
        for i in range(1, size):
            while k and piece[i] != piece[k]:
                k = fail[k - 1]
            if piece[i] == piece[k]:
                k += 1
            fail[i] = k
        rows: List[Dict[str, int]] = []
        for q in range(count):
            row = dict(rows[fail[q - 1]]) if q else {}
            if q < size:
                row[piece[q]] = q + 1
            rows.append(row)

        def target(q: int) -> int:
            if q == size and not anchored_tail:
                return after
            return base + q

        for q in range(count):
            step = {char: target(nxt) for char, nxt in rows[q].items() if nxt}
            self._add(step, base, anchored_tail and q == size)
        return base


def _build(pattern: str) -> _Automaton:
    """The automaton of one pattern (normalised, not empty)."""
    automaton = _Automaton()
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    pieces = body.split("*")
    first = pieces[0]
    if anchored and len(pieces) == 1:
        after = automaton._add({}, _DEAD, True)
    else:
        if anchored:
            middle, last = [p for p in pieces[1:-1] if p], pieces[-1]
            after = automaton._kmp(last, _DONE, anchored_tail=True)
        else:
            middle = [p for p in pieces[1:] if p]
            after = _DONE
        for piece in reversed(middle):
            after = automaton._kmp(piece, after, anchored_tail=False)
    # The first piece, back to front: each state expects one character.
    for char in reversed(first):
        after = automaton._add({char: after}, _DEAD, False)
    automaton.start = after
    return automaton


def _escape_step(v: int, char: str, rfc: bool) -> int:
    """The canonical-target automaton: 0 = plain, 1 = after ``%``, 100 + ord(h) = after
    ``%h`` (``h`` a hex digit); -1 = not a target the matcher can receive."""
    if v == 0:
        return 1 if char == "%" else 0
    if v == 1:
        if char in _HEX:
            return 100 + ord(char)
        return 1 if char == "%" else 0
    if char in _HEX:
        pair = chr(v - 100) + char
        if pair != pair.upper():  # lower-case hex digits are upper-cased (SPEC D2)
            return -1
        if rfc and chr(int(pair, 16)) in _UNRESERVED:  # decoded in RFC mode
            return -1
        return 0
    return 1 if char == "%" else 0


_State = Tuple[int, int, int, Tuple[Tuple[int, int], ...]]
# (escape state, characters of "/robots.txt" matched or -1, best key among the unanchored
#  rules matched or -1, (rule index, automaton state) of the live rules)


class _Found(NamedTuple):
    verdicts: Dict[int, str]  # deciding key (-1: no rule) -> first (shortest) target
    complete: bool


def _explore(rows: Sequence[Row], rfc: bool, max_states: int) -> _Found:
    """Every (deciding key, example target) reachable by a canonical target other than
    ``/robots.txt`` (see the module docstring)."""
    autos = [_build(pattern) for _, pattern in rows]
    keys = [key for key, _ in rows]
    chars = _TARGET_CHARS.replace("*", "").replace("$", "") if rfc else _TARGET_CHARS
    allowed_chars = frozenset(chars)
    mentioned = set(ROBOTS_TXT) | set(_HEX) | {"%"}
    for automaton in autos:
        for step in automaton.step:
            mentioned.update(step)
    representative: Optional[str] = next(
        (c for c in _PREFERRED if c in allowed_chars and c not in mentioned), None
    )
    if representative is None:
        representative = next((c for c in chars if c not in mentioned), None)
    robots_end = len(ROBOTS_TXT)

    def advance(state: _State, char: str) -> Optional[_State]:
        v, rpos, sticky, live = state
        v = _escape_step(v, char, rfc)
        if v < 0:
            return None
        rpos = rpos + 1 if 0 <= rpos < robots_end and ROBOTS_TXT[rpos] == char else -1
        moved: List[Tuple[int, int]] = []
        for index, at in live:
            automaton = autos[index]
            nxt = automaton.step[at].get(char)
            if nxt is None:
                nxt = automaton.other[at]
            if nxt == _DEAD:
                continue
            if nxt == _DONE:
                if keys[index] > sticky:
                    sticky = keys[index]
                continue
            moved.append((index, nxt))
        if sticky >= 0:
            moved = [item for item in moved if keys[item[0]] > sticky]
        return (v, rpos, sticky, tuple(moved))

    sticky = -1
    live: List[Tuple[int, int]] = []
    for index, automaton in enumerate(autos):
        if automaton.start == _DONE:
            sticky = max(sticky, keys[index])
        elif automaton.start != _DEAD:
            live.append((index, automaton.start))
    if sticky >= 0:
        live = [item for item in live if keys[item[0]] > sticky]
    root = advance((0, 0, sticky, tuple(live)), "/")
    assert root is not None
    verdicts: Dict[int, str] = {}
    seen = {root}
    queue: Deque[Tuple[_State, str]] = deque([(root, "/")])
    while queue:
        state, text = queue.popleft()
        v, rpos, best, live_now = state
        if rpos != robots_end:
            for index, at in live_now:
                if autos[index].final[at] and keys[index] > best:
                    best = keys[index]
            if best not in verdicts:
                verdicts[best] = text
        relevant = set()
        for index, at in live_now:
            relevant.update(autos[index].step[at])
        if v != 0:
            relevant.update(_HEX)
        relevant.add("%")
        if 0 <= rpos < robots_end:
            relevant.add(ROBOTS_TXT[rpos])
        tried = sorted(relevant & allowed_chars)
        other = representative
        if other is None:  # every target character is mentioned somewhere
            other = next((c for c in chars if c not in relevant), None)
        if other is not None:
            tried.insert(0, other)  # first, for readable examples ("/x" rather than "/%")
        for char in tried:
            nxt = advance(state, char)
            if nxt is None or nxt in seen:
                continue
            if len(seen) >= max_states:
                return _Found(verdicts, False)
            seen.add(nxt)
            queue.append((nxt, text + char))
    return _Found(verdicts, True)


def stance_rows(rules: AgentRules) -> List[Row]:
    """The matcher rows of ``rules`` (index.html extras included in Google mode)."""
    rows = rows_of(rules.groups)
    if not isinstance(rules, RfcRules):
        rows = rows + index_html_rows(rows)
    return rows


def stance_of(rules: AgentRules, max_states: int = MAX_STATES) -> Stance:
    """The :class:`Stance` of compiled rules (see :meth:`RobotsTxt.stance`)."""
    if isinstance(rules, LegacyRules):
        raise RobotsError("stance() needs mode 'google' or 'rfc' (legacy mode is first-match)")
    rows = stance_rows(rules)
    found = _explore(rows, isinstance(rules, RfcRules), max_states)
    allows = [key for key in found.verdicts if key < 0 or key & ALLOW_BIT]
    disallows = [key for key in found.verdicts if key >= 0 and not key & ALLOW_BIT]
    if allows and disallows:
        kind = "some"
    elif not found.complete:
        raise StanceTooComplex(
            f"the rules for {'/'.join(rules.agents)} need more than {max_states} states "
            "to settle their stance"
        )
    else:
        kind = "none" if allows or not disallows else "all"
    by_line = {rule.line: rule for rule in rules.rules}
    lines = sorted({LINE_MASK - (key & LINE_MASK) for key in found.verdicts if key >= 0})

    def examples(keys: List[int]) -> Tuple[str, ...]:
        texts = sorted((found.verdicts[key] for key in keys), key=lambda t: (len(t), t))
        return tuple(texts[:EXAMPLES])

    return Stance(
        kind,
        rules.agents,
        rules.scope,
        tuple(by_line[line] for line in lines),
        examples(disallows),
        examples(allows),
        found.complete,
    )
