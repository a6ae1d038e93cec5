"""Product tokens: what a crawler calls itself, and which groups of a file name it.

A crawler is named by its product token, letters, ``-`` and ``_`` (RFC 9309 §2.2.1).
In a file, Google reads a ``user-agent`` value as the token at its start: the value is
cut at the first character outside ``[A-Za-z_-]`` (``Googlebot/2.1`` and ``googlebot*``
both mean ``googlebot``; ``Bot2000`` means ``bot``). A value that is ``*``, or ``*``
followed by whitespace, names the global group. Comparison is case-insensitive.
"""

# robotsrules: compiled (mypyc group robotsrules_core; setup.py and tests/compiled read this line)
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Union

from ..errors import InvalidAgent

__all__ = ["Agent", "agent_tokens", "file_agent_token"]

Agent = Union[str, Sequence[str]]
"""A crawler's name: a product token, ``Token/version``, or a sequence of them."""

_TOKEN_PREFIX: Final = re.compile(r"[A-Za-z_\-]*")
_CALLER_AGENT: Final = re.compile(r"([A-Za-z_\-]+)(?:/\S*)?|\*")
SPACE: Final = " \t\n\v\f\r"  # C isspace(): what Google's reader strips around keys and values
# A caller's agent str -> its tokens: a crawler names itself the same way for every file,
# and reading the name costs more than a check. Bounded: only valid names are kept, and no
# more than _KNOWN_LIMIT of them (the first ones read: a process runs as a few crawlers). A
# plain dict, not _lru.LRU: a hot path of the compiled group (figure in _lru's docstring).
_KNOWN: Final[dict[str, tuple[str, ...]]] = {}
_KNOWN_LIMIT: Final = 256


def file_agent_token(value: str) -> str:
    """The product token a ``user-agent`` value of a file names, lower-cased.

    Returns ``"*"`` for the global group and ``""`` when the value names no crawler.

    >>> file_agent_token("Googlebot/2.1 (+http://www.google.com/bot.html)")
    'googlebot'
    >>> file_agent_token("* # everyone"), file_agent_token("*bot")
    ('*', '')
    """
    # Google-specific: '*' followed by whitespace and more text is still the global group.
    if value[:1] == "*" and (len(value) == 1 or value[1] in SPACE):
        return "*"
    match = _TOKEN_PREFIX.match(value)
    return match.group().lower() if match else ""


def _one(agent: str) -> str:
    match = _CALLER_AGENT.fullmatch(agent.strip())
    if match is None:
        raise InvalidAgent(
            f"not a crawler product token: {agent!r}; pass the token your crawler obeys "
            "(letters, '-' and '_', e.g. 'Googlebot'), 'Token/version', or a list of tokens"
        )
    token = match.group(1)
    return token.lower() if token else "*"


def agent_tokens(agent: Agent) -> tuple[str, ...]:
    """Normalise what a caller passes as ``agent`` to a sorted tuple of lower-cased tokens.

    Raises :class:`~robotsrules.InvalidAgent` (a ``ValueError``) for anything that is not a
    product token, ``Token/version`` (the version is dropped, SPEC D5), ``*`` (only the
    global group applies) or a non-empty sequence of those.

    >>> agent_tokens("Googlebot/2.1")
    ('googlebot',)
    >>> agent_tokens(["Googlebot-Image", "Googlebot"])
    ('googlebot', 'googlebot-image')
    """
    if isinstance(agent, str):
        known = _KNOWN.get(agent)
        if known is None:
            known = (_one(agent),)  # raises for a name that is not valid: never kept
            if len(_KNOWN) < _KNOWN_LIMIT and type(agent) is str:  # not a subclass's
                _KNOWN[agent] = known
        return known
    if isinstance(agent, (bytes, bytearray)) or not isinstance(agent, Sequence):
        raise InvalidAgent(
            f"agent must be a str or a sequence of str, not {type(agent).__name__}"
        )
    tokens = set()
    for item in agent:
        if not isinstance(item, str):
            raise InvalidAgent(f"agent names must be str, not {type(item).__name__}")
        tokens.add(_one(item))
    if not tokens:
        raise InvalidAgent("agent sequence is empty; pass at least one product token")
    return tuple(sorted(tokens))
