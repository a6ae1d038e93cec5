"""A safe, versioned byte format for cache entries: :func:`encode` and :func:`decode`.

Never pickle: a store may be shared (Redis) and whoever can write to it must not be able to
run code in every crawler that reads it. The format is data only::

    {"format": "robotsrules.entry", "version": 1, ...}\\n    one line of JSON (ASCII)
    <body of latest><body of good>                        raw octets, lengths in the JSON

The JSON header holds :class:`~robotsrules.policy.Entry`'s ``unreachable_since`` and, for
``latest`` and ``good`` (``null``, or ``"latest"`` when both are the same result), every
field of the :class:`~robotsrules.policy.FetchResult` plus how to rebuild its rules::

    "robots": {"kind": "allow-all"}             RobotsTxt.allow_all(), no body
    "robots": {"kind": "disallow-all"}          RobotsTxt.disallow_all(), no body
    "robots": {"kind": "parsed", "length": n,   the next n octets: FetchResult.body, with
               "truncated": b, "synthetic": s,  cut=b, synthetic=s, mode=m
               "mode": m}                       ("mode" only when not "google")

The stored body is :attr:`FetchResult.body <robotsrules.policy.FetchResult.body>` (the
:attr:`RobotsTxt.source` of its rules), already cut at the ``max_bytes`` in force when it was
fetched: nothing is parsed when an entry is read, the result reads its rules without a limit
when they are first used, and ``truncated`` (``cut``) is carried over. A ``tdmrep.json`` or a
licence document is stored the same way and read by its own reader, never as a robots.txt.
Bodies are stored raw (not as JSON text) so any octets, UTF-8 or not, round-trip unchanged.

:func:`decode` raises :class:`ValueError` for anything it cannot vouch for: a damaged header,
a wrong type, missing or extra octets, an unknown format or version. Stores treat that as a
miss and delete the entry.

A stored entry is input from whoever can write to the store (a shared Redis, a file), so
:func:`decode` checks before it builds, and bounds what it spends: the header is at most
:data:`MAX_HEADER` octets and nests at most :data:`MAX_DEPTH` deep (checked before the JSON
parser runs, which recurses); no number has more than 19 digits (so no huge integer is made,
nor converted); integers lie in ``[0, 2**53]``; ``outcome``, ``kind`` and ``mode`` come from
fixed vocabularies; and every header is checked whole before any body is parsed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Optional

from ..errors import CorruptEntry
from ..policy import FORBIDDEN, OK, UNAVAILABLE, UNREACHABLE, Entry, FetchResult
from ..robotstxt import MODES

__all__ = ["FORMAT", "MAX_DEPTH", "MAX_HEADER", "VERSION", "decode", "encode"]

FORMAT = "robotsrules.entry"
VERSION = 1
MAX_HEADER = 1024 * 1024
"""Longest JSON header :func:`decode` reads, in octets. A real one is usually under 2 KiB;
two results of seven URLs each (URL, final URL, five redirects), each as long as an HTTP
client accepts a header (16 KiB), stay well under this."""
MAX_DEPTH = 4
"""Deepest nesting of JSON objects and arrays in a header (a real one nests 3 deep)."""
_MAX_INT = 2**53
_OUTCOMES = frozenset({OK, UNAVAILABLE, UNREACHABLE, FORBIDDEN})
# JSON strings (with their escapes), then what nests and long runs of digits outside them.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_LONG_NUMBER = re.compile(rb"[0-9]{20}")
_BRACKET = re.compile(rb"[][{}]")

# Rules that have no file behind them: rebuilt from their constructor, nothing stored.
_SYNTHETIC = frozenset({"allow-all", "disallow-all"})


def _check_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


def _check_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_INT:
        raise ValueError(f"expected an integer in the range [0, 2**53], got {value!r}")
    return value


def _check_float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, got {type(value).__name__}")
    if isinstance(value, int) and not -_MAX_INT <= value <= _MAX_INT:
        raise ValueError("number out of range")
    return float(value)


def _check_outcome(value: Any) -> str:
    if not isinstance(value, str) or value not in _OUTCOMES:
        raise ValueError(f"unknown outcome {value!r}")
    return value


def _check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _check_strs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {type(value).__name__}")
    return tuple(_check_str(item) for item in value)


def _optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


# Every FetchResult field but those of its rules (``body``, ``cut``, ``synthetic``, ``mode``:
# stored apart, see the module docstring), with the check its JSON value must pass. A test
# guards that this table names every field.
_FIELDS: dict[str, Callable[[Any], Any]] = {
    "url": _check_str,
    "outcome": _check_outcome,
    "status": _optional(_check_int),
    "final_url": _check_str,
    "redirects": _check_strs,
    "fetched_at": _check_float,
    "expires_at": _check_float,
    "error": _optional(_check_str),
    "size": _check_int,
    "truncated": _check_bool,
}


def _result_header(result: FetchResult, bodies: list[bytes]) -> dict[str, Any]:
    header: dict[str, Any] = {name: getattr(result, name) for name in _FIELDS}
    header["redirects"] = list(result.redirects)
    kind = result.synthetic
    if kind is not None and not result.body:  # rules from no file: nothing to store
        header["robots"] = {"kind": kind}
    else:
        header["robots"] = {"kind": "parsed", "length": len(result.body),
                            "truncated": result.cut, "synthetic": kind}
        if result.mode != "google":
            header["robots"]["mode"] = result.mode
        bodies.append(result.body)
    return header


def encode(entry: Entry) -> bytes:
    """The bytes that :func:`decode` turns back into an entry equal to ``entry``."""
    bodies: list[bytes] = []
    good: Any = None
    latest = _result_header(entry.latest, bodies)
    if entry.good is not None:
        if entry.good is entry.latest or entry.good == entry.latest:
            good = "latest"  # the usual case: one copy of a body that may be 500 KB
        else:
            good = _result_header(entry.good, bodies)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "unreachable_since": entry.unreachable_since,
        "latest": latest,
        "good": good,
    }
    text = json.dumps(header, ensure_ascii=True, allow_nan=True, separators=(",", ":"))
    return b"".join([text.encode("ascii"), b"\n", *bodies])


class _Reader:
    """The body octets after the header, handed out in order."""

    def __init__(self, data: bytes, offset: int) -> None:
        self.data = data
        self.offset = offset

    def take(self, length: int) -> bytes:
        end = self.offset + length
        if end > len(self.data):
            raise ValueError("body shorter than its header says")
        chunk = self.data[self.offset:end]
        self.offset = end
        return chunk


# What a header says about one result, checked but not built: the FetchResult fields but
# ``robots``, and how to rebuild the rules (a synthetic kind, or body, truncated, synthetic,
# mode).
_Checked = tuple[dict[str, Any], tuple[Any, ...]]


def _check_robots(spec: Any, reader: _Reader) -> tuple[Any, ...]:
    if not isinstance(spec, dict):
        raise ValueError("robots: expected an object")
    kind = spec.get("kind")
    if isinstance(kind, str) and kind in _SYNTHETIC:
        return (kind,)
    if kind != "parsed":
        raise ValueError(f"robots: unknown kind {kind!r}")
    body = reader.take(_check_int(spec.get("length")))
    truncated = _check_bool(spec.get("truncated"))
    synthetic = _optional(_check_str)(spec.get("synthetic"))
    if synthetic is not None and synthetic not in _SYNTHETIC:
        raise ValueError(f"robots: unknown synthetic rules {synthetic!r}")
    mode = spec.get("mode", "google")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"robots: unknown mode {mode!r}")
    return (body, truncated, synthetic, mode)


def _check_result(spec: Any, reader: _Reader) -> _Checked:
    if not isinstance(spec, dict):
        raise ValueError("result: expected an object")
    values: dict[str, Any] = {}
    for name, check in _FIELDS.items():
        if name not in spec:
            raise ValueError(f"result: missing field {name!r}")
        try:
            values[name] = check(spec[name])
        except ValueError as exc:
            raise ValueError(f"result field {name!r}: {exc}") from None
    return values, _check_robots(spec.get("robots"), reader)


def _build(checked: _Checked) -> FetchResult:
    values, robots = checked
    if len(robots) == 1:  # the rules of no file (FetchResult reads them when first used)
        return FetchResult(synthetic=robots[0], **values)
    body, cut, synthetic, mode = robots  # already cut when fetched: read again uncut
    return FetchResult(body=body, cut=cut, synthetic=synthetic, mode=mode, **values)


def _header(line: bytes) -> Any:
    """The JSON header, parsed only once it is known to be small and shallow."""
    if len(line) > MAX_HEADER:
        raise ValueError(f"header longer than {MAX_HEADER} octets")
    bare = _STRING.sub(b'""', line)
    if _LONG_NUMBER.search(bare):
        raise ValueError("a number with more than 19 digits")
    depth = 0
    for bracket in _BRACKET.finditer(bare):  # stops at the first level too deep
        depth += 1 if bracket.group() in (b"[", b"{") else -1
        if depth > MAX_DEPTH:
            raise ValueError(f"header nested deeper than {MAX_DEPTH}")
    try:
        return json.loads(line.decode("ascii"))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ValueError(f"{exc}") from None


def decode(data: bytes) -> Entry:
    """The entry that :func:`encode` wrote; :class:`~robotsrules.errors.CorruptEntry`
    (a :class:`ValueError`) if ``data`` is not one."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    end = data.find(b"\n", 0, MAX_HEADER + 1)
    if end < 0:
        raise CorruptEntry("corrupt cache entry: no header")
    try:
        header = _header(data[:end])
    except ValueError as exc:
        raise CorruptEntry(f"corrupt cache entry: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CorruptEntry("not a robotsrules cache entry")
    version = header.get("version")
    if type(version) is not int or version != VERSION:
        raise CorruptEntry(f"unknown cache entry version {version!r} "
                         f"(this robotsrules reads version {VERSION})")
    reader = _Reader(data, end + 1)
    try:  # every part checked before anything is built
        latest = _check_result(header.get("latest"), reader)
        good_spec = header.get("good")
        good: Optional[_Checked] = None
        if isinstance(good_spec, str) and good_spec == "latest":
            good = latest
        elif good_spec is not None:
            good = _check_result(good_spec, reader)
        if good is not None and good[0]["outcome"] == UNREACHABLE:
            raise CorruptEntry("the good copy is an unreachable result")
        since = _optional(_check_float)(header.get("unreachable_since"))
    except ValueError as exc:
        raise CorruptEntry(f"corrupt cache entry: {exc}") from None
    if reader.offset != len(data):
        raise CorruptEntry("corrupt cache entry: trailing octets after the bodies")
    built = _build(latest)
    return Entry(latest=built, good=None if good is None else (
        built if good is latest else _build(good)), unreachable_since=since)
