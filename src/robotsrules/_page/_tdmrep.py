"""TDMRep: the site file ``/.well-known/tdmrep.json``, the header and meta values, and the
processing order of the W3C TDMRep Community Group final report (CG-FINAL-tdmrep-20240510,
10 May 2024).

The file is "an array of JSON objects; each object represents a rule" with ``location`` (a
path pattern), ``tdm-reservation`` (``1`` reserved, ``0`` not) and an optional
``tdm-policy`` URL. For a URL, "The most specific match is the first in sequence": the
first rule whose location matches decides; "If no match is found, a TDM Agent MUST consider
that tdm-reservation is unset". Locations use robots.txt's pattern syntax (``*``, a final
``$``), and percent-encoded unreserved characters are decoded before comparison, as the
report asks — which is this library's RFC 9309 mode normal form
(:func:`robotsrules._urls.rfc_pattern`, :func:`~robotsrules._urls.rfc_target`).

The first matching rule decides, whatever it says: a rule whose ``tdm-reservation`` is not
``0`` or ``1`` (``"yes"``, ``2``, missing) is kept with ``valid=False`` and read as reserved
(``1``), never skipped for a broader rule's answer. The report calls other values protocol
errors to be read as unset; reading them as reserved is our conservative choice (a wrong
"not reserved" is the mistake a dataset builder cannot take back), documented in
docs/guides/page-signals.md. A JSON number is its value (``1.0`` and ``1e0`` are the number
1); the strings ``"0"``/``"1"`` are read too (Leniency: some files quote the number).

Header and meta values (:func:`tdm_value`) are read the same way: ``0`` or ``1``; a value
given several times (two fields, two metas, or one field a client folded as ``1, 0``) that
disagrees, or any other value, is invalid and read as reserved.

A ``location`` is a robots.txt pattern, so ``*`` ("0 or more instances of any character")
matches every path, as in Google's reading, which the report asks TDM Agents to follow; a
location that starts with neither ``/`` nor ``*`` matches nothing.

A key given twice in one JSON object (``"tdm-reservation": 1, "tdm-reservation": 0``) makes
the file invalid, never "last wins": ``valid=False`` and every URL reads as reserved (one
rule, index ``-1``, location ``*``, ``valid=False``), the reading of an invalid value.

Pure and lenient: any bytes give a :class:`TdmRepFile`; a body that is not a JSON array is
``valid=False`` with no rules. Fetching goes through :meth:`robotsrules.RobotsCache.tdmrep`
(the same fetch policy and store as robots.txt).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .._pattern import rfc_location
from .._urls import rfc_target

if TYPE_CHECKING:
    from ..policy import Served

__all__ = ["TDMREP_PATH", "TdmRepFile", "TdmRule", "parse_tdmrep", "tdm_value",
           "tdmrep_from"]

TDMREP_PATH = "/.well-known/tdmrep.json"
"""Where the file lives on an origin (TDMRep: "MUST be hosted in the /.well-known
repository of a Web server")."""

_MAX_RULES = 10_000


@dataclass(frozen=True)
class TdmRule:
    """One rule of the file: its ``location``, reservation and policy, and its index.

    ``valid`` is ``False`` when the rule's ``tdm-reservation`` is not ``0`` or ``1``; the
    ``reservation`` is then ``1`` (read as reserved) and ``written`` shows what the file
    says."""

    index: int
    location: str
    reservation: int
    policy: Optional[str]
    valid: bool = True
    written: str = ""

    def describe(self) -> str:
        """``tdmrep.json rule #2 (location /directory-b/html/): tdm-reservation 1``."""
        policy = f", tdm-policy {self.policy}" if self.policy else ""
        value = (str(self.reservation) if self.valid
                 else f"{self.written} (invalid: read as reserved)")
        return (f"tdmrep.json rule #{self.index} (location {self.location}): "
                f"tdm-reservation {value}{policy}")


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
    # JSON numbers 0 and 1 (the report's examples; 1.0 is the number 1); the strings
    # "0"/"1" are accepted too. Leniency: some files quote the number.
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


def _shown(value: Any) -> str:
    if value is None:
        return "(missing)"
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _DuplicateKey(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.shown = f"(key {_shown(name)} given twice in one object)"


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    """``json`` object hook: a key given twice in one object makes the file invalid."""
    found: Dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise _DuplicateKey(name)
        found[name] = value
    return found


def tdm_value(text: str) -> Tuple[int, bool]:
    """``(reservation, valid)`` of a ``tdm-reservation`` header or meta value, or of several
    joined with ``", "``: ``0`` or ``1`` when every element says it; otherwise ``(1, False)``
    (module docstring).

    >>> tdm_value("1"), tdm_value(" 0 "), tdm_value("1, 0"), tdm_value("yes")
    ((1, True), (0, True), (1, False), (1, False))
    """
    said = {part.strip(" \t") for part in text.split(",")}
    said.discard("")
    if len(said) == 1:
        only = next(iter(said))
        if only in ("0", "1"):
            return int(only), True
    return 1, False


def parse_tdmrep(body: bytes) -> TdmRepFile:
    """Read a ``tdmrep.json`` body. Never raises.

    >>> rules = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 1}]')
    >>> rules.reservation("https://example.com/any/page")
    1
    >>> parse_tdmrep(b'[{"location": "*", "tdm-reservation": 1}]').reservation("/x")
    1
    >>> twice = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 1, "tdm-reservation": 0}]')
    >>> twice.valid, twice.reservation("/x")
    (False, 1)
    """
    try:
        data = json.loads(body.decode("utf-8-sig"), object_pairs_hook=_unique_keys)
    except _DuplicateKey as duplicate:
        # RFC 8259 §4: with a name given twice "the behavior of software that receives such
        # an object is unpredictable" (Python keeps the last); the site meant a tdmrep.json,
        # so it is invalid and read as reserved everywhere, as an invalid value is (our choice).
        return TdmRepFile((TdmRule(-1, "*", 1, None, False, duplicate.shown),), valid=False)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return TdmRepFile(valid=False)
    if not isinstance(data, list):
        return TdmRepFile(valid=False)
    rules: List[TdmRule] = []
    for index, item in enumerate(data[:_MAX_RULES]):
        if not isinstance(item, dict):
            continue
        location = item.get("location")
        if not isinstance(location, str) or not location.startswith(("/", "*")):
            continue  # matches no URL (Google's reading of a path that starts otherwise)
        written = item.get("tdm-reservation")
        reservation = _reservation(written)
        valid = reservation is not None
        reservation = 1 if reservation is None else reservation
        policy = item.get("tdm-policy")
        rules.append(TdmRule(index, location, reservation,
                             policy if isinstance(policy, str) and reservation == 1 else None,
                             valid, "" if valid else _shown(written)))
    return TdmRepFile(tuple(rules))


def tdmrep_from(served: Served) -> TdmRepFile:
    """What a cache serves for a ``tdmrep.json`` fetch, as a :class:`TdmRepFile`.

    The fetch policy's outcomes keep their robots.txt meaning: a file (or the last good
    copy while the site is unreachable) is parsed; "unavailable" (4xx, bad redirects, the
    30-day rule) is ``state="absent"``; "unreachable" with no copy is
    ``state="unreachable"``.
    """
    synthetic = served.synthetic
    if synthetic == "disallow-all":
        return TdmRepFile(state="unreachable")
    if synthetic == "allow-all":
        return TdmRepFile(state="absent")
    return parse_tdmrep(served.body)
