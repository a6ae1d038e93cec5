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
    "robots": {"kind": "parsed", "length": n,   the next n octets, re-parsed with
               "truncated": b, "synthetic": s,  parse(body, max_bytes=None, mode=m)
               "mode": m}                       ("mode" only when not "google")

The stored body is :attr:`RobotsTxt.source`, already cut at the ``max_bytes`` in force when it
was fetched, so it is re-parsed without a limit and ``truncated`` is carried over. Bodies are
stored raw (not as JSON text) so any octets, UTF-8 or not, round-trip unchanged.

:func:`decode` raises :class:`ValueError` for anything it cannot vouch for: a damaged header,
a wrong type, missing or extra octets, an unknown format or version. Stores treat that as a
miss and delete the entry.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..policy import Entry, FetchResult
from ..robotstxt import MODES, RobotsTxt, reparse

__all__ = ["FORMAT", "VERSION", "decode", "encode"]

FORMAT = "robotsrules.entry"
VERSION = 1

# Rules that have no file behind them: rebuilt from their constructor, nothing stored.
_SYNTHETIC: Dict[str, Callable[[], RobotsTxt]] = {
    "allow-all": RobotsTxt.allow_all,
    "disallow-all": RobotsTxt.disallow_all,
}


def _check_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


def _check_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a non-negative integer, got {value!r}")
    return value


def _check_float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, got {type(value).__name__}")
    return float(value)


def _check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _check_strs(value: Any) -> Tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {type(value).__name__}")
    return tuple(_check_str(item) for item in value)


def _optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


# Every FetchResult field but ``robots`` (stored apart, see the module docstring), with the
# check its JSON value must pass. A test guards that this table names every field.
_FIELDS: Dict[str, Callable[[Any], Any]] = {
    "url": _check_str,
    "outcome": _check_str,
    "status": _optional(_check_int),
    "final_url": _check_str,
    "redirects": _check_strs,
    "fetched_at": _check_float,
    "expires_at": _check_float,
    "error": _optional(_check_str),
    "size": _check_int,
    "truncated": _check_bool,
}


def _result_header(result: FetchResult, bodies: List[bytes]) -> Dict[str, Any]:
    header: Dict[str, Any] = {name: getattr(result, name) for name in _FIELDS}
    header["redirects"] = list(result.redirects)
    robots = result.robots
    kind = robots.synthetic
    if kind is not None and kind in _SYNTHETIC and robots == _SYNTHETIC[kind]():
        header["robots"] = {"kind": kind}
    else:
        header["robots"] = {"kind": "parsed", "length": len(robots.source),
                            "truncated": robots.truncated, "synthetic": robots.synthetic}
        if robots.mode != "google":
            header["robots"]["mode"] = robots.mode
        bodies.append(robots.source)
    return header


def encode(entry: Entry) -> bytes:
    """The bytes that :func:`decode` turns back into an entry equal to ``entry``."""
    bodies: List[bytes] = []
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


def _robots(spec: Any, reader: _Reader) -> RobotsTxt:
    if not isinstance(spec, dict):
        raise ValueError("robots: expected an object")
    kind = spec.get("kind")
    if isinstance(kind, str) and kind in _SYNTHETIC:
        return _SYNTHETIC[kind]()
    if kind != "parsed":
        raise ValueError(f"robots: unknown kind {kind!r}")
    body = reader.take(_check_int(spec.get("length")))
    truncated = _check_bool(spec.get("truncated"))
    synthetic = _optional(_check_str)(spec.get("synthetic"))
    mode = spec.get("mode", "google")
    if mode not in MODES:
        raise ValueError(f"robots: unknown mode {mode!r}")
    # Already cut when fetched: re-parsed without a limit, in the mode it was parsed in.
    return reparse(body, truncated, synthetic, mode)


def _result(spec: Any, reader: _Reader) -> FetchResult:
    if not isinstance(spec, dict):
        raise ValueError("result: expected an object")
    values: Dict[str, Any] = {}
    for name, check in _FIELDS.items():
        if name not in spec:
            raise ValueError(f"result: missing field {name!r}")
        try:
            values[name] = check(spec[name])
        except ValueError as exc:
            raise ValueError(f"result field {name!r}: {exc}") from None
    return FetchResult(robots=_robots(spec.get("robots"), reader), **values)


def decode(data: bytes) -> Entry:
    """The entry that :func:`encode` wrote; :class:`ValueError` if ``data`` is not one."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    data = bytes(data)
    end = data.find(b"\n")
    if end < 0:
        raise ValueError("corrupt cache entry: no header")
    try:
        header = json.loads(data[:end].decode("ascii"))
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ValueError(f"corrupt cache entry: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError("not a robotsrules cache entry")
    version = header.get("version")
    if type(version) is not int or version != VERSION:
        raise ValueError(f"unknown cache entry version {version!r} "
                         f"(this robotsrules reads version {VERSION})")
    reader = _Reader(data, end + 1)
    try:
        latest = _result(header.get("latest"), reader)
        good_spec = header.get("good")
        good: Optional[FetchResult]
        if good_spec is None:
            good = None
        elif good_spec == "latest":
            good = latest
        else:
            good = _result(good_spec, reader)
        since = _optional(_check_float)(header.get("unreachable_since"))
    except ValueError as exc:
        raise ValueError(f"corrupt cache entry: {exc}") from None
    if reader.offset != len(data):
        raise ValueError("corrupt cache entry: trailing octets after the bodies")
    return Entry(latest=latest, good=good, unreachable_since=since)
