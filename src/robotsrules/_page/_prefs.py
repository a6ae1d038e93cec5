"""AI usage preferences a response states in its headers: ``Content-Usage`` and
``Content-Signal``.

* ``Content-Usage`` (draft-ietf-aipref-attach §2, 2026 revisions): an RFC 9651 Dictionary
  read with the vocabulary of :mod:`robotsrules._tables._purposes` (values the tokens ``y``/``n``;
  keys it does not define are ignored). Several fields are one field: RFC 9651 §4.2 has a
  parser join every line of a field with ``", "`` before parsing, so a client that folded
  them and one that kept them apart give the same text. Where a key is given several times
  the last value counts, and a last value that is not ``y``/``n`` states nothing for that
  key even when an earlier one was valid (RFC 9651 (September 2024) §4.2.2 keeps the last
  value; draft-ietf-aipref-vocab-07 (2026-08-19) "Multiple Preferences"): the rule of
  :func:`robotsrules._rules._usage.dictionary_statements`, shared with robots.txt's
  ``Content-Usage`` lines. A field that does not parse is reported invalid and its
  members are read one by one, each refusal (``=n``) among them still counting
  (:func:`robotsrules._rules._usage.refusals`, shared with robots.txt's lines; a split that ends
  inside a string or an inner list falls back to every comma, and blanks around ``=`` and
  ``;`` are trimmed): the vocab says an unparsable field states nothing, and we read only
  what restricts from it, never what permits. RFC 9651 §3.2 requires parsers to support
  Dictionaries of 1,024 members with 64-character keys; the field is read up to
  :data:`MAX_USAGE_LENGTH` characters and, past that, reported as too large and read as
  refusing every category, never as "nothing stated".
* ``Content-Signal`` (Cloudflare, "Content Signals Policy", contentsignals.org, and the
  header Cloudflare's Markdown conversion for agents sends, 2025-2026): the same
  ``search=yes, ai-train=no`` list as robots.txt's line, read by
  :func:`robotsrules._rules._usage.read_value`, the one reader of that syntax.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .. import _sfv as sfv
from .._rules._usage import dictionary_statements, read_value, refusals
from .._tables import _purposes as purposes

__all__ = ["MAX_USAGE_LENGTH", "Preferences", "content_signal", "content_usage"]

MAX_USAGE_LENGTH = 1024 * 1024
"""Longest ``Content-Usage`` text read (characters, all fields joined): room for RFC 9651's
required 1,024 members with 64-character keys and 1,024-character strings."""


class Preferences(NamedTuple):
    """What one preference header stated: ``statements`` (``(name, allowed)`` pairs, one per
    name), whether the field was ``valid``, and ``too_large``."""

    statements: tuple[tuple[str, bool], ...]
    valid: bool
    too_large: bool = False


def _fold(statements: list[tuple[str, bool]]) -> tuple[tuple[str, bool], ...]:
    return tuple(purposes.statements(statements).items())


@functools.lru_cache(maxsize=8)
def content_usage(text: str) -> Preferences:
    """Read a ``Content-Usage`` field (every line of it joined with ``", "``). The last
    few fields read are kept: every agent of one response reads the same field again.

    >>> content_usage("train-ai=n, search=y, unknown=n").statements
    (('train-ai', False), ('search', True))
    >>> content_usage("train-ai=n, train-ai=y").statements
    (('train-ai', True),)
    >>> content_usage('train-ai=n, search=n, train-ai, search="n"').statements
    ()
    >>> content_usage('train-ai=n, bad="').valid, content_usage('train-ai=n, bad="').statements
    (False, (('train-ai', False),))
    """
    if len(text) > MAX_USAGE_LENGTH:
        return Preferences(tuple((c, False) for c in purposes.CATEGORIES), False, True)
    try:
        parsed = sfv.parse_dictionary(text, max_length=MAX_USAGE_LENGTH)
    except ValueError:
        return Preferences(refusals(text), False)
    said, _unknown, _bad = dictionary_statements(parsed)
    return Preferences(said, True)


def content_signal(text: str) -> Preferences:
    """Read a ``Content-Signal`` response header (every line joined with ``", "``).

    >>> content_signal("search=yes, ai-train=no").statements
    (('search', True), ('ai-train', False))
    """
    reading = read_value("content-signal", text)
    valid = reading.error is None and not reading.bad_values
    return Preferences(_fold(list(reading.statements)), valid)


def stated(preferences: Preferences) -> dict[str, bool]:
    """The statements as a mapping."""
    return dict(preferences.statements)
