"""One allow/disallow pattern: how it matches a target, with a bounded worst case.

Grammar (RFC 9309 §2.2.3): ``*`` matches any run of characters; a ``$`` that ends the
pattern anchors it at the end of the target; any other ``$`` is a literal. A pattern
matches when it matches a *prefix* of the target. Matching is case-sensitive.

Theory of operation: webmasters control patterns, so nothing here may backtrack. A
pattern is split on ``*`` into literal pieces. The first piece must be a prefix of the
target; every later piece is searched for greedily (leftmost occurrence after the
previous piece). For ``*``-globs greedy leftmost placement is optimal: if any placement
of the pieces exists, the leftmost one exists and leaves the most room for what
follows. An anchored pattern (``...$``) additionally pins its last piece to the end of
the target and searches the middle pieces only in the room before it. Each piece is
found with ``str.find``, so a match costs at most O(len(pattern) x len(target)) and in
practice O(len(target)) — ``/*a*a*a*a*a*a*b`` against an 8 KB path is linear.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

from ._urls import normalize_escapes, rfc_pattern

__all__ = ["Pattern", "matches", "rfc_location"]


class Pattern:
    """A compiled pattern. ``Pattern(p).match(target)`` equals ``matches(p, target)``."""

    __slots__ = ("anchored", "first", "last", "middle", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.anchored = anchored = text[-1:] == "$"
        pieces = (text[:-1] if anchored else text).split("*")
        self.first: str = pieces[0]
        if anchored and len(pieces) > 1:
            # The last piece is pinned to the end of the target ('' when the body ends in '*').
            self.last: str = pieces[-1]
            pieces.pop()
        else:
            self.last = ""
        # The pieces between, empty ones (from "**") dropped. (A comprehension, not
        # filter(): a plain loop when compiled.)
        self.middle: tuple[str, ...] = tuple([piece for piece in pieces[1:] if piece])

    def match(self, target: str) -> bool:
        """True when the pattern matches a prefix of ``target`` (or all of it, if anchored)."""
        if not target.startswith(self.first):
            return False
        pos = len(self.first)
        if self.anchored:
            if len(self.middle) == 0 and self.last == "" and self.text.find("*") < 0:
                return pos == len(target)  # no '*': the whole target must equal the body
            end = len(target) - len(self.last)
            if end < pos or not target.endswith(self.last):
                return False
            for piece in self.middle:
                i = target.find(piece, pos, end)
                if i < 0:
                    return False
                pos = i + len(piece)
            return True
        for piece in self.middle:
            i = target.find(piece, pos)
            if i < 0:
                return False
            pos = i + len(piece)
        return True

    def __repr__(self) -> str:
        return f"Pattern({self.text!r})"

    def __reduce__(self) -> tuple[type[Pattern], tuple[str]]:
        """Pickled as its text, rebuilt by ``Pattern(text)``: the compiled build's class
        (mypyc) cannot be rebuilt from its slots without ``text`` (issue 33)."""
        return (Pattern, (self.text,))


def matches(pattern: str, target: str) -> bool:
    """True when ``pattern`` (already normalised) matches ``target``.

    >>> matches("/fish*.php", "/fish/salmon.php?x")
    True
    >>> matches("/*.php$", "/index.php?x")
    False
    """
    return Pattern(pattern).match(target)


def rfc_location(location: str) -> Pattern:
    """A path pattern written outside robots.txt, compiled in RFC 9309 mode's normal form.

    For the formats that borrow robots.txt's pattern syntax for their own locations (a
    TDMRep ``location``, an RSL ``<content url>``): the text is taken as UTF-8, its escapes
    normalised and unreserved ones decoded (:func:`~robotsrules._rules._urls.rfc_pattern`); match
    it against :func:`~robotsrules._rules._urls.rfc_target` of a URL.

    >>> rfc_location("/%7Ejoe/*.html$").match("/~joe/a.html")
    True
    """
    octets = location.encode("utf-8", "surrogatepass").decode("latin-1")
    return Pattern(rfc_pattern(normalize_escapes(octets)))
