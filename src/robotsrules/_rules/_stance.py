"""A crawler's stance under a robots.txt, without a URL list: all, none or some paths disallowed.

``robots.stance(agent)`` answers "has this site opted out of this crawler?" exactly as the
matcher would answer for every possible URL, by reasoning over the rules instead of
sampling URLs.

Theory of operation. Each rule is a small deterministic automaton over the match target:

* its first literal piece must be a prefix of the target;
* every later piece is searched for, leftmost first, with a Knuth-Morris-Pratt automaton
  (greedy leftmost placement is optimal for ``*`` globs, as in
  :class:`~robotsrules._rules._pattern.Pattern`); an unanchored rule *matches* for good once its
  last piece is found;
* an anchored rule (``...$``) keeps a KMP state for its last piece after the others are
  found, and matches a target exactly when that state is "complete" at the end.

A rule *decides* a target when it matches and no rule with a larger key
(:data:`~robotsrules._rules._precedence.Row`: longer pattern; allow over disallow at equal length;
earlier line) matches it, exactly as :class:`~robotsrules._rules._matcher.AgentRules` chooses
(Google's index.html rule is an extra ``/d/$`` allow). "No rule" decides the targets no
rule matches (allowed). So, over every rule and "no rule":

* ``kind`` is ``"all"`` if nothing that allows decides a target, ``"none"`` if no disallow
  does, ``"some"`` otherwise;
* ``lines`` are the rules that decide at least one target (file order);
* the examples are targets found for each deciding rule.

Whether a rule decides some target is settled in two steps. First a guess: the rule's own
pattern with ``*`` filled in, checked with the compiled matcher (most rules decide it).
Otherwise a breadth-first search over the product of the rule's automaton and those of
its *rivals* (the rules with a larger key whose leading literals agree with its own), from
``/``: a rival that matches for good ends that branch; a duplicate or a plain prefix that
covers the rule (``/a*`` over ``/a``) ends the question at once, found by looking it up
(by pattern, by stem, by literal prefix), not by scanning the rules. Characters that no live
automaton distinguishes are one class, explored once through a representative. Two more
components make the answer exact for *targets the matcher can actually receive*: whether
the string so far is ``/robots.txt`` (always allowed, RFC 9309 §2.2.2; excluded from the
stance) and whether it is a canonical target (hex digits of ``%XX`` escapes upper-case; in
RFC mode no bare ``*``/``$`` and no escaped unreserved character: see
:mod:`robotsrules._rules._urls`).

Rules repeated with the same pattern and verdict are dropped first (only the earliest can
decide). Each search takes at most ``max_work`` steps, counting both the automaton steps and
the rules looked at to find its rivals (which is quadratic in the number of rules when many
share a leading literal: ``Disallow: /*k1``, ``Allow: /*k1*``, ... ``/*k14000``); a file's
searches take at most :data:`FILE_WORK` times that in all. Before the searches, each rule's
guesses cost at most four checks of the compiled matcher (linear in the file; each check
within the matcher's own bound). Real files settle far below the limit; a hostile file may
not, and then the stance is still
exact if both an allowed and a disallowed target were found (``kind="some"``,
``complete=False``: ``lines`` may miss rules); otherwise :class:`StanceTooComplex` is raised
rather than a guess.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Sequence
from typing import Callable, Final, NamedTuple, Optional

from ..errors import RobotsError
from ..model import Rule
from ._legacy import LegacyRules
from ._matcher import AgentRules, RfcRules
from ._precedence import ALLOW_BIT, LINE_MASK, Row, index_html_rows, rows_of
from ._urls import match_target, rfc_target

__all__ = ["MAX_WORK", "Stance", "StanceTooComplex", "stance_of"]

MAX_WORK: Final = 200_000
"""Automaton steps one rule's search may take before it gives up (see the module docstring)."""
FILE_WORK: Final = 3
"""A file's searches take at most this many times ``max_work`` in all."""
EXAMPLES: Final = 3
"""Example paths kept per side."""

ROBOTS_TXT: Final = "/robots.txt"
_ORIGIN: Final = "http://example.com"  # a target is checked as an absolute URL ("//a" is a path)
_HEX: Final = "0123456789ABCDEFabcdef"
_UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Characters a target may hold (before the escape rule): ASCII but NUL and '#'.
_TARGET_CHARS: Final = "".join(chr(c) for c in range(1, 128) if chr(c) != "#")
# Representatives for "a character no rule mentions", most readable first.
_PREFERRED: Final = "xzqjkwvyughimnlp" + "XZQJKWVYUGHIMNLP" + "-_~!"

_DEAD: Final = -1
_DONE: Final = -2


class StanceTooComplex(RobotsError):
    """The file's rules need more than ``max_work`` steps to settle the stance."""


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
    agents: tuple[str, ...]
    scope: str
    lines: tuple[Rule, ...]
    disallowed: tuple[str, ...]
    allowed: tuple[str, ...]
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
        self.step: list[dict[str, int]] = []
        self.other: list[int] = []
        self.final: list[bool] = []
        self.start = _DEAD

    def _add(self, step: dict[str, int], other: int, final: bool) -> int:
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
        rows: list[dict[str, int]] = []
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
    """The canonical-target automaton: 0 = plain, 1 = after ``%``, 2 = after ``%h`` with
    ``h`` a lower-case hex digit, 3 = after ``%H`` (Google mode; in RFC mode 100 + ord(H),
    whose unreserved escapes are decoded); -1 = not a target the matcher can receive."""
    if v == 0:
        return 1 if char == "%" else 0
    if char not in _HEX:
        return 1 if char == "%" else 0
    if v == 1:
        if char.islower():
            return 2
        return 100 + ord(char) if rfc else 3
    if v == 2 or char.islower():  # lower-case hex digits are upper-cased (SPEC D2)
        return -1
    if v >= 100 and chr(int(chr(v - 100) + char, 16)) in _UNRESERVED:  # decoded (RFC)
        return -1
    return 0


_State = tuple[int, int, int, tuple[tuple[int, int], ...]]
# (escape state, characters of "/robots.txt" matched or -1, the candidate rule's state,
#  (rule index, automaton state) of the rivals still alive)


class _Found(NamedTuple):
    verdicts: dict[int, str]  # deciding key (-1: no rule) -> shortest target it decides
    complete: bool  # False: some rule's search hit the bound (its verdict unknown)


class _Search:
    """The automata of one rule list and the character classes to explore them with."""

    def __init__(self, rows: Sequence[Row], rfc: bool, max_work: int) -> None:
        self.autos = [_build(pattern) for _, pattern in rows]
        self.keys = [key for key, _ in rows]
        self.patterns = [pattern for _, pattern in rows]
        self.firsts = [_first_piece(pattern) for _, pattern in rows]
        self.by_first: dict[str, list[int]] = {}
        for index, first in enumerate(self.firsts):
            self.by_first.setdefault(first, []).append(index)
        self.ordered = sorted((first, index) for index, first in enumerate(self.firsts))
        # The rules that may cover another at once (see _covers), by what they cover: the
        # same pattern; the same stem (``/a*`` and ``/a``); a literal stem (``/a*``: every
        # target starting ``/a``).
        self.by_pattern: dict[str, list[int]] = {}
        self.by_stem: dict[str, list[int]] = {}
        self.literal_stems: dict[str, list[int]] = {}
        for index, pattern in enumerate(self.patterns):
            self.by_pattern.setdefault(pattern, []).append(index)
            if not pattern.endswith("$"):
                stem = pattern.rstrip("*")
                self.by_stem.setdefault(stem, []).append(index)
                if "*" not in stem:
                    self.literal_stems.setdefault(stem, []).append(index)
        self.rfc = rfc
        self.max_work = max_work
        chars = _TARGET_CHARS.replace("*", "").replace("$", "") if rfc else _TARGET_CHARS
        self.chars = chars
        self.allowed_chars = frozenset(chars)
        mentioned = set(ROBOTS_TXT) | set(_HEX) | {"%"}
        for automaton in self.autos:
            for step in automaton.step:
                mentioned.update(step)
        self.representative: Optional[str] = next(
            (c for c in _PREFERRED if c in self.allowed_chars and c not in mentioned), None
        ) or next((c for c in chars if c not in mentioned), None)

    def covered(self, candidate: int) -> tuple[bool, int]:
        """Whether a rule that outranks ``candidate`` matches every target it matches, by
        the shortcuts of :func:`_covers` looked up rather than searched; and the work."""
        keys = self.keys
        key = keys[candidate]
        mine = self.patterns[candidate]
        first = self.firsts[candidate]
        body = mine[:-1] if mine.endswith("$") else mine
        work = len(first) + 1
        near = [*self.by_pattern.get(mine, ()), *self.by_stem.get(body.rstrip("*"), ())]
        for end in range(len(first) + 1):
            near.extend(self.literal_stems.get(first[:end], ()))
        work += len(near)
        return any(keys[index] > key for index in near), work

    def rivals(self, candidate: int) -> tuple[Optional[tuple[tuple[int, int], ...]], int]:
        """(index, start state) of the rules that outrank ``candidate`` and may match a
        target it matches (None if one of them matches every target), and the work it took:
        the rules looked at, counted against the search's limit."""
        keys = self.keys
        key = keys[candidate] if candidate >= 0 else -1
        first = self.firsts[candidate] if candidate >= 0 else ""
        found: list[tuple[int, int]] = []
        mine = self.patterns[candidate] if candidate >= 0 else None
        work = 0
        if mine is not None:
            covered, work = self.covered(candidate)
            if covered:
                return None, work
        compatible = self.compatible(first)
        work += len(compatible) + len(first)
        for index in compatible:
            if keys[index] <= key:
                continue
            start = self.autos[index].start
            if start == _DONE:
                return None, work
            if start != _DEAD:
                found.append((index, start))
        found.sort()
        return tuple(found), work

    def compatible(self, first: str) -> list[int]:
        """The rules whose first literal piece is a prefix of ``first`` or extends it."""
        by_first = self.by_first
        found: list[int] = []
        for end in range(len(first)):
            found.extend(by_first.get(first[:end], ()))
        ordered = self.ordered
        i = bisect_left(ordered, (first, -1))
        while i < len(ordered) and ordered[i][0].startswith(first):
            found.append(ordered[i][1])
            i += 1
        return found

    def decides(self, candidate: int, rivals: tuple[tuple[int, int], ...], text: str) -> bool:
        """Whether ``candidate`` decides the target ``text`` (one walk, no search)."""
        if not text.startswith("/") or text == ROBOTS_TXT:
            return False
        mine = self.autos[candidate] if candidate >= 0 else None
        state: Optional[_State] = (0, 0, _DONE if mine is None else mine.start, rivals)
        for char in text:
            if char not in self.allowed_chars:
                return False
            assert state is not None
            state = self._advance(state, char, mine)
            if state is None:
                return False
        assert state is not None
        return self._accepts(state, mine)

    def _accepts(self, state: _State, mine: Optional[_Automaton]) -> bool:
        _, rpos, at, live = state
        if rpos == len(ROBOTS_TXT):
            return False
        if at != _DONE and (mine is None or not mine.final[at]):
            return False
        autos = self.autos
        return not any(autos[index].final[where] for index, where in live)

    def guesses(self, candidate: int) -> list[str]:
        """Targets a rule most likely decides: its pattern with ``*`` filled in."""
        if candidate < 0:
            bodies = ["/"]
        else:
            pattern = self.patterns[candidate]
            anchored = pattern.endswith("$")
            body = pattern[:-1] if anchored else pattern
            bodies = [body.replace("*", ""), body.replace("*", self.representative or "")]
            if not anchored:
                bodies += [b + (self.representative or "") for b in bodies]
        found = []
        for body in bodies:
            found.append(body if body.startswith("/") else "/" + body)
        return found

    def witness(self, candidate: int) -> tuple[Optional[str], bool, int]:
        """The shortest target that ``candidate`` (a rule index, or -1 for "no rule")
        decides, or None; whether the search settled that (False: it hit the bound); the
        work it took."""
        autos = self.autos
        mine = autos[candidate] if candidate >= 0 else None
        rivals, work = self.rivals(candidate)
        if rivals is None:
            return None, True, work  # a higher rule matches every target
        if work > self.max_work:
            return None, False, work
        start = _DONE if mine is None else mine.start
        root = self._advance((0, 0, start, tuple(rivals)), "/", mine)
        if root is None:
            return None, True, work
        robots_end = len(ROBOTS_TXT)
        seen = {root}
        queue: deque[tuple[_State, str]] = deque([(root, "/")])
        while queue:
            state, text = queue.popleft()
            v, rpos, at, live = state
            if self._accepts(state, mine):
                return text, True, work
            relevant: set[str] = set()
            if mine is not None and at != _DONE:
                relevant.update(mine.step[at])
            for index, where in live:
                relevant.update(autos[index].step[where])
            if v != 0:
                relevant.update(_HEX)
            relevant.add("%")
            if 0 <= rpos < robots_end:
                relevant.add(ROBOTS_TXT[rpos])
            tried = sorted(relevant & self.allowed_chars)
            other = self.representative
            if other is None:  # every target character is mentioned somewhere
                other = next((c for c in self.chars if c not in relevant), None)
            if other is not None:
                tried.insert(0, other)  # first, for readable examples ("/x" rather than "/%")
            work += len(tried) * (len(live) + 1)
            if work > self.max_work:
                return None, False, work
            for char in tried:
                nxt = self._advance(state, char, mine)
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, text + char))
        return None, True, work

    def _advance(self, state: _State, char: str, mine: Optional[_Automaton]) -> Optional[_State]:
        """The state after ``char``, or None when the candidate can no longer decide."""
        v, rpos, at, live = state
        v = _escape_step(v, char, self.rfc)
        if v < 0:
            return None
        if mine is not None and at != _DONE:
            nxt = mine.step[at].get(char)
            at = mine.other[at] if nxt is None else nxt
            if at == _DEAD:
                return None
        rpos = rpos + 1 if 0 <= rpos < len(ROBOTS_TXT) and ROBOTS_TXT[rpos] == char else -1
        moved: list[tuple[int, int]] = []
        autos = self.autos
        for index, where in live:
            automaton = autos[index]
            nxt = automaton.step[where].get(char)
            if nxt is None:
                nxt = automaton.other[where]
            if nxt == _DONE:
                return None  # a higher rule matches this target and all that extend it
            if nxt != _DEAD:
                moved.append((index, nxt))
        return (v, rpos, at, tuple(moved))


def _first_piece(pattern: str) -> str:
    """The literal text every target a pattern matches starts with."""
    body = pattern[:-1] if pattern.endswith("$") and "*" not in pattern else pattern
    return body.split("*", 1)[0]


def _explore(
    rows: Sequence[Row],
    rfc: bool,
    max_work: int,
    decide: Optional[Callable[[str], Optional[int]]] = None,
) -> _Found:
    """Every rule (and "no rule", key -1) that decides some canonical target other than
    ``/robots.txt``, with a short target it decides (see the module docstring).

    ``decide`` (the compiled matcher's choice of key for a target) settles most rules at
    once: the rule's own pattern with ``*`` filled in is usually a target it decides. The
    rules it does not settle are searched."""
    search = _Search(rows, rfc, max_work)
    canonical = rfc_target if rfc else match_target
    verdicts: dict[int, str] = {}
    hard: list[int] = []
    for candidate in range(-1, len(rows)):
        key = search.keys[candidate] if candidate >= 0 else -1
        found = None
        if decide is not None:
            for guess in search.guesses(candidate):
                if guess != ROBOTS_TXT and canonical(_ORIGIN + guess) == guess:
                    best = decide(guess)
                    if (-1 if best is None else best) == key:
                        found = guess
                        break
        if found is not None:
            verdicts[key] = found
        else:
            hard.append(candidate)
    complete = True
    spent = 0
    for candidate in hard:
        if spent > max_work * FILE_WORK:  # a bound on the whole file, too
            complete = False
            break
        text, settled, work = search.witness(candidate)
        spent += work
        complete = complete and settled
        if text is not None:
            verdicts[search.keys[candidate] if candidate >= 0 else -1] = text
    return _Found(verdicts, complete)


def stance_rows(rules: AgentRules) -> list[Row]:
    """The matcher rows of ``rules`` (index.html extras included in Google mode), each
    pattern once per verdict: of rules with the same pattern and verdict only the earliest
    can decide (it outranks the others on every target), so the others are dropped before
    the search (a file that repeats a rule thousands of times costs what one rule costs)."""
    rows = rows_of(rules.groups)
    if not isinstance(rules, RfcRules):
        rows = rows + index_html_rows(rows)
    best: dict[tuple[str, int], int] = {}
    for key, pattern in rows:
        twin = (pattern, key & ALLOW_BIT)
        if key > best.get(twin, -1):
            best[twin] = key
    return [(key, pattern) for key, pattern in rows if best[(pattern, key & ALLOW_BIT)] == key]


def stance_of(rules: AgentRules, max_work: int = MAX_WORK) -> Stance:
    """The :class:`Stance` of compiled rules (see :meth:`RobotsTxt.stance`)."""
    if isinstance(rules, LegacyRules):
        raise RobotsError("stance() needs mode 'google' or 'rfc' (legacy mode is first-match)")
    rows = stance_rows(rules)
    found = _explore(rows, isinstance(rules, RfcRules), max_work, rules._decide)
    allows = [key for key in found.verdicts if key < 0 or key & ALLOW_BIT]
    disallows = [key for key in found.verdicts if key >= 0 and not key & ALLOW_BIT]
    if allows and disallows:
        kind = "some"
    elif not found.complete:
        raise StanceTooComplex(
            f"the rules for {'/'.join(rules.agents)} need more than {max_work} steps "
            "to settle their stance"
        )
    else:
        kind = "none" if allows or not disallows else "all"
    by_line = {rule.line: rule for rule in rules.rules}
    lines = sorted({LINE_MASK - (key & LINE_MASK) for key in found.verdicts if key >= 0})

    def examples(keys: list[int]) -> tuple[str, ...]:
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
