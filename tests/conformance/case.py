"""The shape of one conformance case (data-driven, tagged by source)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Optional, Union


class Case(NamedTuple):
    """One expectation: may ``agent`` fetch ``url`` under ``body``?

    ``source`` names where the behaviour comes from: ``"RFC 9309 §2.2.2"``, ``"Google doc"``
    (How Google interprets the robots.txt specification), ``"Google lib"`` (behaviour of
    Google's C++ library, SPEC §6), ``"1994 standard"``, ``"1996 draft"``, ``"SPEC D1"``...
    ``line`` is the expected deciding line (the line of the rule that decides, as Google's
    ``matching_line()`` reports it); ``0`` means no rule decides; ``None`` means unchecked.
    ``google_line``, when set, is the line Google's library reports instead (see below).
    ``raises`` names the exception our API must raise (``"InvalidAgent"``, ``"InvalidURL"``)
    — then ``allowed`` is ignored. Every case is also checked against the oracle under
    SPEC §0's identity, so the table cannot drift from Google.
    """

    id: str
    source: str
    body: Union[bytes, str]
    agent: Union[str, Sequence[str]]
    url: str
    allowed: bool
    line: Optional[int] = None
    raises: Optional[str] = None
    note: str = ""
    google_line: Optional[int] = None
    """Google's ``matching_line()`` where our explain deliberately reports another line:
    an empty ``allow:``/``disallow:`` matches with priority 0 and never decides, so we name
    no deciding rule (``line=0``) while Google's library names the empty rule's line."""
