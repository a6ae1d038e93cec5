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
ignored. The registry writes its patterns as the operators publish them, as masks
(``crawl-***-***-***-***.googlebot.com``, ``*.search.msn.com``): :func:`suffix_of` keeps
the labels after the last one holding a ``*``. A mask is also a pattern of its own: its
labels left of the suffix must match the name's one for one, each run of ``*`` standing for
letters and digits, hyphens inside (``rate-limited-proxy-***-***-***-***.google.com`` holds
``rate-limited-proxy-66-249-90-1.google.com``, not ``x.corp.google.com``); a label that is
``*`` alone stands for any labels (``*.search.msn.com`` is the suffix ``search.msn.com``).

Generic cloud names (:data:`CLOUD_SUFFIXES`: a virtual machine anybody can rent has one)
never verify a crawler, whatever pattern a registry file gives: :func:`cloud_refused`.
Google's own page ("Verifying Googlebot and other Google crawlers") says addresses of its
``user-triggered-fetchers.json`` list "resolve to gae.googleusercontent.com hostnames" and
serve Google Cloud customers' features: such a name is a Google Cloud customer's machine,
never evidence that Google sent the request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Optional

from .._scope import LDH_LABEL
from .._terminal import visible

__all__ = ["CLOUD_SUFFIXES", "cloud_refused", "host_name", "shaped", "suffix_of", "under"]

_LDH = re.compile(LDH_LABEL.encode("ascii"))
_MAX_NAME = 253
# A run of ``*`` in a mask: letters and digits, hyphens inside (an IPv6 address written in
# a name has more groups than the mask's IPv4 form). The mask's literal parts and its label
# count are what narrow it; forward confirmation does the rest.
_RUN = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"

CLOUD_SUFFIXES: tuple[str, ...] = (
    "compute.amazonaws.com",
    "compute.internal",
    "amazonaws.com",
    "googleusercontent.com",
    "cloudapp.azure.com",
    "cloudapp.net",
)
"""Reverse names of rented machines: never evidence that a request came from a crawler."""


def host_name(labels: Sequence[bytes]) -> tuple[str, bool]:
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


def _shape(pattern: str) -> tuple[Optional[tuple[re.Pattern[str], ...]], str]:
    """(the regular expressions of a mask's labels left of its suffix, or ``None`` for a
    plain suffix; the suffix)."""
    labels = pattern.strip().strip(".").lower().split(".")
    stars = [i for i, label in enumerate(labels) if "*" in label]
    if not stars:
        return None, ".".join(labels)
    head, suffix = labels[:stars[-1] + 1], ".".join(labels[stars[-1] + 1:])
    if all(label == "*" for label in head):
        return None, suffix
    return tuple(re.compile(_RUN.join(re.escape(piece)
                                             for piece in re.split(r"\*+", label)))
                 for label in head), suffix


def shaped(pattern: str) -> bool:
    """Whether a registry pattern is a mask with a documented shape (not ``*.`` alone)."""
    return _shape(pattern)[0] is not None


def under(name: str, patterns: Iterable[str]) -> Optional[str]:
    """The first pattern (a suffix, or a mask: see the module docstring) ``name`` lies
    strictly under, or ``None``. ``name`` must be a usable name as :func:`host_name` gives
    it."""
    lowered = name.lower().rstrip(".")
    for pattern in patterns:
        head, cut = _shape(pattern)
        if not cut or not lowered.endswith("." + cut):
            continue
        if head is None:
            return pattern
        labels = lowered[:-len(cut) - 1].split(".")
        if len(labels) == len(head) and all(shape.fullmatch(label)
                                            for shape, label in zip(head, labels)):
            return pattern
    return None


def cloud_refused(name: str) -> Optional[str]:
    """The generic cloud suffix ``name`` lies under (so it never verifies), or ``None``."""
    for suffix in CLOUD_SUFFIXES:
        if under(name, (suffix,)):
            return suffix
    return None
