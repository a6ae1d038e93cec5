"""Host names read from reverse DNS, and whether one lies under an operator's pattern.

Theory of operation. A PTR answer comes from whoever controls the reverse zone of an
address, which for a spoofer is the spoofer: its names are strangers' data. They are read
label by label (never as text, where an escaped dot inside a label, ``crawl\\.googlebot``,
would pass a naive suffix test) and a name is *usable* only when every label is an LDH
label (letters, digits, ``-`` inside; RFC 1123 §2.1 host names), ASCII, not an IDNA
A-label (``xn--``: a look-alike alphabet has no business in a crawler's name), and the
whole is at most 253 characters. Anything else is refused: it is shown (control
characters made visible) and never matches a pattern.

A pattern is a DNS suffix (``googlebot.com``): a name is under it when it ends with the
suffix on a label boundary and has at least one label more (``crawl-1.googlebot.com``, not
``googlebot.com`` itself nor ``evilgooglebot.com``), case-insensitive, the final dot
ignored. The registry writes its patterns as the operators publish them
(``crawl-***-***-***-***.googlebot.com``, ``*.search.msn.com``): :func:`suffix_of` keeps
the labels after the last one holding a ``*``.

Generic cloud names (:data:`CLOUD_SUFFIXES`: a virtual machine anybody can rent has one)
never verify a crawler, whatever pattern a registry file gives, except where an operator
documents its own use of one (``googleusercontent.com`` for Google's user-triggered
fetchers, the only such case here): :func:`cloud_refused`.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence, Tuple

from .._terminal import visible

__all__ = ["CLOUD_SUFFIXES", "cloud_refused", "host_name", "suffix_of", "under"]

_LDH = re.compile(rb"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_MAX_NAME = 253

CLOUD_SUFFIXES: Tuple[Tuple[str, Optional[str]], ...] = (
    # (suffix, the operator allowed to use it for its own user-triggered fetchers)
    ("compute.amazonaws.com", None),
    ("compute.internal", None),
    ("amazonaws.com", None),
    ("googleusercontent.com", "Google"),
    ("cloudapp.azure.com", None),
    ("cloudapp.net", None),
)
"""Reverse names of rented machines: never evidence that a request came from a crawler."""


def host_name(labels: Sequence[bytes]) -> Tuple[str, bool]:
    """A name's text (lower case, no final dot, control characters made visible) and
    whether it is usable (see the module docstring). ``labels`` are the wire labels, the
    empty root label last or absent."""
    parts = list(labels)
    if parts and parts[-1] == b"":
        parts.pop()
    text = ".".join(part.decode("latin-1").replace(".", "\\.") for part in parts).lower()
    shown = visible(text)[:300]
    usable = bool(parts) and len(text) <= _MAX_NAME and all(
        _LDH.fullmatch(part.lower()) and not part.lower().startswith(b"xn--") for part in parts)
    return shown, usable


def suffix_of(pattern: str) -> Optional[str]:
    """The DNS suffix a registry pattern stands for (``crawl-***.googlebot.com`` →
    ``googlebot.com``); ``None`` when nothing of at least two labels is left."""
    labels = pattern.strip().strip(".").lower().split(".")
    stars = [i for i, label in enumerate(labels) if "*" in label]
    rest = labels[stars[-1] + 1:] if stars else labels
    if len(rest) < 2 or not all(_LDH.fullmatch(label.encode("ascii", "replace"))
                                for label in rest):
        return None
    return ".".join(rest)


def under(name: str, suffixes: Iterable[str]) -> Optional[str]:
    """The first suffix ``name`` lies strictly under (on a label boundary), or ``None``.
    ``name`` must be a usable name as :func:`host_name` gives it."""
    lowered = name.lower().rstrip(".")
    for suffix in suffixes:
        cut = suffix.lower().strip(".")
        if cut and lowered.endswith("." + cut):
            return cut
    return None


def cloud_refused(name: str, operator: str, user_triggered: bool) -> Optional[str]:
    """The generic cloud suffix ``name`` lies under (so it never verifies), or ``None``;
    an operator's own documented use of one for its user-triggered fetchers is allowed."""
    for suffix, allowed in CLOUD_SUFFIXES:
        if under(name, (suffix,)):
            if allowed is not None and allowed == operator and user_triggered:
                return None
            return suffix
    return None
