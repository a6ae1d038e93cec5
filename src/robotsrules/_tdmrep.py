"""TDMRep site policy: ``/.well-known/tdmrep.json``, read and matched (W3C TDMRep report).

The file is "an array of JSON objects; each object represents a rule" with ``location`` (a
path pattern), ``tdm-reservation`` (``1`` reserved, ``0`` not) and an optional
``tdm-policy`` URL. For a URL, "The most specific match is the first in sequence": the
first rule whose location matches decides; "If no match is found, a TDM Agent MUST consider
that tdm-reservation is unset". Locations use robots.txt's pattern syntax (``*``, a final
``$``), and percent-encoded unreserved characters are decoded before comparison, as the
report asks — which is this library's RFC 9309 mode normal form
(:func:`robotsrules._urls.rfc_pattern`, :func:`~robotsrules._urls.rfc_target`).

Pure and lenient: any bytes give a :class:`TdmRepFile`; a body that is not a JSON array is
``valid=False`` with no rules; a rule without a string ``location`` or with a reservation
other than ``0``/``1`` is skipped (a protocol error means unset). Fetching goes through
:meth:`robotsrules.RobotsCache.tdmrep` (the same fetch policy and store as robots.txt).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

from ._pattern import rfc_location
from ._urls import rfc_target

if TYPE_CHECKING:
    from .policy import Served

__all__ = ["TDMREP_PATH", "TdmRepFile", "TdmRule", "parse_tdmrep", "tdmrep_from"]

TDMREP_PATH = "/.well-known/tdmrep.json"
"""Where the file lives on an origin (TDMRep: "MUST be hosted in the /.well-known
repository of a Web server")."""

_MAX_RULES = 10_000


@dataclass(frozen=True)
class TdmRule:
    """One rule of the file: its ``location``, reservation and policy, and its index."""

    index: int
    location: str
    reservation: int
    policy: Optional[str]

    def describe(self) -> str:
        """``tdmrep.json rule #2 (location /directory-b/html/): tdm-reservation 1``."""
        policy = f", tdm-policy {self.policy}" if self.policy else ""
        return (f"tdmrep.json rule #{self.index} (location {self.location}): "
                f"tdm-reservation {self.reservation}{policy}")


@dataclass(frozen=True)
class TdmRepFile:
    """A parsed ``tdmrep.json``; ``state`` says where it came from.

    ``state`` is ``"ok"`` (a file was read; ``valid`` tells whether it was a JSON array),
    ``"absent"`` (no file: the site does not implement the protocol, nothing stated) or
    ``"unreachable"`` (the fetch failed with a 5xx, 429 or network error and no earlier
    copy is known: every URL is read as reserved, as robots.txt reads such a site as
    disallowed — RFC 9309 §2.3.1.4; see docs/guides/page-signals.md).
    """

    rules: Tuple[TdmRule, ...] = ()
    valid: bool = True
    state: str = "ok"

    def match(self, url: str) -> Optional[TdmRule]:
        """The rule that governs ``url`` (the first whose location matches), or ``None``."""
        if self.state == "unreachable":
            return TdmRule(-1, "/", 1, None)
        target = rfc_target(url)
        for rule in self.rules:
            if rfc_location(rule.location).match(target):
                return rule
        return None

    def reservation(self, url: str) -> Optional[int]:
        """``1`` (reserved), ``0`` (not reserved) or ``None`` (unset) for ``url``."""
        rule = self.match(url)
        return None if rule is None else rule.reservation


def _reservation(value: Any) -> Optional[int]:
    # JSON numbers 0 and 1 (the report's examples); the strings "0"/"1" are accepted too.
    # Leniency: some files quote the number.
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value in (0, 1):
        return value
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


def parse_tdmrep(body: bytes) -> TdmRepFile:
    """Read a ``tdmrep.json`` body. Never raises.

    >>> rules = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 1}]')
    >>> rules.reservation("https://example.com/any/page")
    1
    """
    try:
        data = json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return TdmRepFile(valid=False)
    if not isinstance(data, list):
        return TdmRepFile(valid=False)
    rules: List[TdmRule] = []
    for index, item in enumerate(data[:_MAX_RULES]):
        if not isinstance(item, dict):
            continue
        location = item.get("location")
        reservation = _reservation(item.get("tdm-reservation"))
        if not isinstance(location, str) or not location.startswith("/") or reservation is None:
            continue
        policy = item.get("tdm-policy")
        rules.append(TdmRule(index, location, reservation,
                             policy if isinstance(policy, str) and reservation == 1 else None))
    return TdmRepFile(tuple(rules))


def tdmrep_from(served: Served) -> TdmRepFile:
    """What a cache serves for a ``tdmrep.json`` fetch, as a :class:`TdmRepFile`.

    The fetch policy's outcomes keep their robots.txt meaning: a file (or the last good
    copy while the site is unreachable) is parsed; "unavailable" (4xx, bad redirects, the
    30-day rule) is ``state="absent"``; "unreachable" with no copy is
    ``state="unreachable"``.
    """
    synthetic = served.robots.synthetic
    if synthetic == "disallow-all":
        return TdmRepFile(state="unreachable")
    if synthetic == "allow-all":
        return TdmRepFile(state="absent")
    return parse_tdmrep(served.robots.source)
