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
(:func:`robotsrules._rules._urls.rfc_pattern`, :func:`~robotsrules._rules._urls.rfc_target`).

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
location that starts with neither ``/`` nor ``*`` is no path: the rule cannot be read.

One rule for a file that cannot be read whole: a body that is not JSON (or not UTF-8), whose
top level is not an array, with a rule that is not an object or has no ``location`` path
(one starting with ``/`` or ``*``; ``"Location"``, ``" /"`` and full URLs are none), that
has more than 10,000 rules (``_MAX_RULES``), that was cut at the fetch's size limit, or
where a key is given twice in one JSON object (``"tdm-reservation": 1, "tdm-reservation":
0``, never "last wins") is invalid: ``valid=False`` and every URL reads as reserved (one
rule, index ``-1``, location ``*``, ``valid=False``, ``written`` saying why), the reading of
an invalid value. Reading such a file as "unset" would let a broken or hostile file say
less than it was meant to.

A body that starts as markup (``<!doctype html>``, ``<html>``, after a byte-order mark and
blanks) is a page served in the file's place: many sites answer every unknown path with 200
and an HTML page (a soft 404). It is read as no file (``state="absent"``), as a 404 is:
reading it as an invalid file would mark every page of those sites reserved.

Numbers are read exactly (as :class:`decimal.Decimal`, which has no digit limit): ``1e-400``
is not 0, so it is an invalid value (reserved); ``1.0`` and ``1e0`` are exactly 1.

Pure and lenient: any bytes give a :class:`TdmRepFile`. Fetching goes through
:meth:`robotsrules.RobotsCache.tdmrep` (the same fetch policy and store as robots.txt).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Optional

from .._rules._pattern import rfc_location
from .._rules._urls import rfc_target

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

    rules: tuple[TdmRule, ...] = ()
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
    if isinstance(value, Decimal) and value.is_finite() and (value == 0 or value == 1):
        return int(value)  # exactly 0 or 1 (numbers are read as Decimal: 1e-400 is not 0)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


def _shown(value: Any) -> str:
    if value is None:
        return "(missing)"
    if isinstance(value, Decimal):
        text = str(value)
    else:
        text = json.dumps(value, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _DuplicateKey(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.shown = f"(key {_shown(name)} given twice in one object)"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json`` object hook: a key given twice in one object makes the file invalid."""
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise _DuplicateKey(name)
        found[name] = value
    return found


def tdm_value(text: str) -> tuple[int, bool]:
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


_MARKUP = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n\x0c]*<[!?A-Za-z]")
"""A body that starts as markup (after a UTF-8 byte-order mark and blanks): a page, not a
JSON document."""


def _invalid(why: str) -> TdmRepFile:
    """A file read as invalid: every URL reserved (module docstring)."""
    return TdmRepFile((TdmRule(-1, "*", 1, None, False, why),), valid=False)


def parse_tdmrep(body: bytes, *, truncated: bool = False) -> TdmRepFile:
    """Read a ``tdmrep.json`` body (``truncated``: it was cut at a size limit). Never raises.

    >>> rules = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 1}]')
    >>> rules.reservation("https://example.com/any/page")
    1
    >>> parse_tdmrep(b'[{"location": "*", "tdm-reservation": 1}]').reservation("/x")
    1
    >>> twice = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 1, "tdm-reservation": 0}]')
    >>> twice.valid, twice.reservation("/x")
    (False, 1)
    >>> broken = parse_tdmrep(b'[{"location": "/", "tdm-reservation": 0},]')
    >>> broken.valid, broken.reservation("/x")
    (False, 1)
    """
    if _MARKUP.match(body) is not None:
        # A page of markup served in the file's place: many sites answer every unknown path
        # with 200 and an HTML page (a soft 404). It is no attempt at a tdmrep.json, so the
        # site states nothing there, as with a 404 (module docstring).
        return TdmRepFile(state="absent")
    if truncated:
        return _invalid("(the file was cut at the size limit)")
    try:
        # Numbers exactly: Decimal for both (int() would refuse more than 4,300 digits, and a
        # float reads 1e-400 as 0).
        data = json.loads(body.decode("utf-8-sig"), object_pairs_hook=_unique_keys,
                          parse_float=Decimal, parse_int=Decimal)
    except _DuplicateKey as duplicate:
        # RFC 8259 §4: with a name given twice "the behavior of software that receives such
        # an object is unpredictable" (Python keeps the last); the site meant a tdmrep.json,
        # so it is invalid and read as reserved everywhere, as an invalid value is (our choice).
        return _invalid(duplicate.shown)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _invalid("(not UTF-8 JSON)")
    if not isinstance(data, list):
        return _invalid("(not a JSON array of rules)")
    if len(data) > _MAX_RULES:
        return _invalid(f"(more than {_MAX_RULES:,} rules)")
    rules: list[TdmRule] = []
    for index, item in enumerate(data):
        # A rule that cannot be read (not an object; no location, or one that is no path:
        # "Location", " /", a full URL) is part of a file that cannot be read whole: skipping
        # it could drop the reservation it was meant to make.
        if not isinstance(item, dict):
            return _invalid(f"(rule #{index} is not a JSON object)")
        location = item.get("location")
        if not isinstance(location, str) or not location.startswith(("/", "*")):
            return _invalid(f"(rule #{index} has no location path starting with / or *)")
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
    copy while the site is unreachable) is parsed (a body cut at the size limit is invalid:
    every URL reserved); "unavailable" (4xx, bad redirects, the
    30-day rule) is ``state="absent"``; "unreachable" with no copy is
    ``state="unreachable"``.
    """
    synthetic = served.synthetic
    if synthetic == "disallow-all":
        return TdmRepFile(state="unreachable")
    if synthetic == "allow-all":
        return TdmRepFile(state="absent")
    copy = served.copy  # the file served: cut by the parser, or not read to its end
    truncated = served.cut or (copy is not None and copy.truncated)
    return parse_tdmrep(served.body, truncated=truncated)
