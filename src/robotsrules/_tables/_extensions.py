"""Known robots.txt extensions: keys other readers know, shipped as data.

RFC 9309 defines ``user-agent``, ``allow`` and ``disallow``; everything else in a file is
an extension that some readers know and Google ignores. ``data/extensions.json`` lists the
extensions in public use (compared with crawler-commons' ``RobotsExtension`` and
Lighthouse's robots.txt safelist), each with who defined it, its source and date, its
scope (``file``: the whole file; ``group``: the group it stands in), its status
(``active``; ``deprecated``, ``dead`` or ``withdrawn`` with what to use ``instead``) and the
format of its value where one exists. The linter reads this table (R105: a recognised
extension; R109: its value does not have the format; R110: it no longer works where its
author meant it) and never answers a recognised key with R104 "remove the line".

This module is pure: it reads its data file through :mod:`importlib.resources` on first use
and checks every field it uses (a damaged file is a :class:`~robotsrules.RobotsError`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, Optional, cast
from urllib.parse import urlsplit

from .._scope import LDH_LABEL
from ..errors import RobotsError
from ._datafile import list_at, parse_json, shipped_text

__all__ = ["FORMATS", "Extension", "check_value", "extensions", "extensions_info", "find",
           "load_extensions"]

Status = Literal["active", "deprecated", "dead", "withdrawn"]
Scope = Literal["file", "group"]

FORMATS: tuple[str, ...] = (
    "absolute-url", "clean-param", "visit-time", "version", "host-or-url",
    # read by robotsrules' own reader, with codes of their own (R4xx, R6xx):
    "seconds", "request-rate", "host", "content-signal", "content-usage",
)
"""The value formats the table may name (``null``: any text)."""

_STATUSES = ("active", "deprecated", "dead", "withdrawn")
_SCOPES = ("file", "group")
_DATA = "data/extensions.json"
_MAX_DATA_BYTES = 1 << 20


class Extension(NamedTuple):
    """One row of the extension table."""

    key: str
    """The key, lower case (``"llm-policy"``)."""
    name: str
    """As usually written (``"LLM-Policy"``)."""
    by: str
    """Who defined it, with a date where known."""
    aliases: tuple[str, ...]
    scope: Scope
    status: Status
    parsed: bool
    """True when robotsrules' own reader reads it (its checks have codes of their own)."""
    readers: tuple[str, ...]
    source: str
    date: Optional[str]
    format: Optional[str]
    instead: Optional[str]
    """For a key that no longer works where its author meant it: what to use instead."""
    note: str


_LOADED: list[tuple[tuple[Extension, ...], Mapping[str, Any]]] = []


_DAMAGED = " (the installed data is damaged: reinstall robotsrules)"


def _fail(problem: str) -> RobotsError:
    return RobotsError(f"robotsrules/{_DATA}: {problem}{_DAMAGED}")


def _text(row: Mapping[str, Any], field: str, where: str, optional: bool = False
          ) -> Optional[str]:
    value = row.get(field)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise _fail(f"{where}: '{field}' is not a non-empty string")
    return value


def load_extensions(text: str) -> tuple[tuple[Extension, ...], Mapping[str, Any]]:
    """Read the extension table from its JSON text, checking every field.

    Raises :class:`~robotsrules.RobotsError` saying what is wrong; never anything else.
    """
    data = parse_json(text, f"robotsrules/{_DATA}", _MAX_DATA_BYTES, _DAMAGED)
    rows = list_at(data, ("extensions",), _fail, "no 'extensions' list")
    found: list[Extension] = []
    seen: dict[str, str] = {}
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            raise _fail(f"extension {number} is not an object")
        where = f"extension {number}"
        key = cast(str, _text(row, "key", where))
        where = f"extension {key!r}"
        aliases = row.get("aliases", [])
        readers = row.get("readers", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise _fail(f"{where}: 'aliases' is not a list of strings")
        if not isinstance(readers, list) or not all(isinstance(r, str) for r in readers):
            raise _fail(f"{where}: 'readers' is not a list of strings")
        for name in (key, *aliases):
            if name != name.lower() or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
                raise _fail(f"{where}: {name!r} is not a lower-case key")
            if name in seen:
                raise _fail(f"{where}: {name!r} is also listed by {seen[name]!r}")
            seen[name] = key
        scope = row.get("scope")
        status = row.get("status")
        form = row.get("format")
        if scope not in _SCOPES:
            raise _fail(f"{where}: scope {scope!r} is not one of {', '.join(_SCOPES)}")
        if status not in _STATUSES:
            raise _fail(f"{where}: status {status!r} is not one of {', '.join(_STATUSES)}")
        if form is not None and form not in FORMATS:
            raise _fail(f"{where}: format {form!r} is not one of {', '.join(FORMATS)}")
        instead = _text(row, "instead", where, optional=True)
        if status != "active" and instead is None:
            raise _fail(f"{where}: a {status} extension needs 'instead'")
        if not isinstance(row.get("parsed"), bool):
            raise _fail(f"{where}: 'parsed' is not true or false")
        found.append(Extension(
            key, cast(str, _text(row, "name", where)), cast(str, _text(row, "by", where)),
            tuple(aliases), cast(Scope, scope), cast(Status, status), row["parsed"],
            tuple(readers), cast(str, _text(row, "source", where)),
            _text(row, "date", where, optional=True), form, instead,
            str(row.get("note", ""))))
    return tuple(found), data


def _table() -> tuple[tuple[Extension, ...], Mapping[str, Any]]:
    if not _LOADED:
        _LOADED.append(load_extensions(shipped_text("extensions.json")))
    return _LOADED[0]


def extensions() -> tuple[Extension, ...]:
    """Every known extension, in table order."""
    return _table()[0]


_BY_KEY: dict[str, Extension] = {}


def find(key: str) -> Optional[Extension]:
    """The extension a key names (its key or an alias, any case), or ``None``.

    >>> find("LLM-Policy").scope, find("No-Index").key, find("Disalow")
    ('file', 'noindex', None)
    """
    if not _BY_KEY:
        for extension in extensions():
            for name in (extension.key, *extension.aliases):
                _BY_KEY[name] = extension
    return _BY_KEY.get(key.strip().lower())


def extensions_info() -> dict[str, str]:
    """Version and date of the extension table (for ``--version`` and output metadata)."""
    data = _table()[1]
    return {"version": str(data.get("version", "")), "compiled": str(data.get("compiled", ""))}


_WS = re.compile(r"\s")
_CLEAN_PARAM = re.compile(r"[A-Za-z0-9_.\-\[\]]+(?:&[A-Za-z0-9_.\-\[\]]+)*")
_CLEAN_PATH = re.compile(r"[A-Za-z0-9.\-/*_]+")
_VISIT_TIME = re.compile(r"([01]\d|2[0-3])([0-5]\d)-([01]\d|2[0-3])([0-5]\d)")
_VERSION = re.compile(r"\d{1,3}(?:\.\d{1,3}){0,3}")


def _absolute_url(value: str) -> Optional[str]:
    if _WS.search(value):
        return "a URL has no blanks"
    try:
        parts = urlsplit(value)
    except ValueError as error:
        return f"not a URL ({error})"
    if parts.scheme.lower() not in ("http", "https"):
        return "not an absolute http(s) URL (it needs https://host/...)"
    if not parts.hostname:
        return "the URL has no host"
    return None


# A host name, [port]: LDH labels in either case (ASCII letters only), at most 253 in all.
_HOST = re.compile(rf"(?=.{{1,253}}$)(?:(?ai:{LDH_LABEL})\.)*(?ai:{LDH_LABEL})(?::\d{{1,5}})?")
_SCHEMED_HOST = re.compile(r"(?i:https?)://([^/?#]*)/?")


def _host(text: str) -> Optional[str]:
    """Why ``text`` is not a host name (``host[:port]``, or ``http(s)://host[:port]``)."""
    schemed = _SCHEMED_HOST.fullmatch(text)
    if "://" in text and schemed is None:
        return "not a host name, nor http(s):// and a host name (no path)"
    host = schemed.group(1) if schemed is not None else text
    if not host.isascii():  # an internationalised name: its IDNA form must be a host name
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return "not a host name (not a valid internationalised domain name)"
    return None if _HOST.fullmatch(host) else "not a host name (such as www.example.com)"


def check_value(extension: Extension, value: str) -> Optional[str]:
    """Why ``value`` does not have ``extension``'s format (``None``: it does, or the table
    names no format this module checks). Bounded: every pattern is linear in the value.

    >>> check_value(find("license"), "/license.xml")
    'not an absolute http(s) URL (it needs https://host/...)'
    >>> check_value(find("visit-time"), "0600-0845") is None
    True
    >>> check_value(find("host"), "exa mple.com")
    'not a host name (such as www.example.com)'
    """
    form = extension.format
    text = value.strip()
    if form is None or form not in ("absolute-url", "clean-param", "visit-time", "version",
                                    "host-or-url", "host"):
        return None
    if not text:
        return "no value"
    if form == "absolute-url":
        return _absolute_url(text)
    if form == "clean-param":
        fields = text.split()
        if len(fields) > 2:
            return "more than two fields (parameters joined by '&', then an optional path)"
        if not _CLEAN_PARAM.fullmatch(fields[0]):
            return "the parameters are not names joined by '&' (e.g. 'ref&sid')"
        if len(fields) == 2 and not _CLEAN_PATH.fullmatch(fields[1]):
            return "the path prefix may hold only A-Za-z0-9.-/*_"
        return None
    if form == "visit-time":
        return None if _VISIT_TIME.fullmatch(text) else "not a UTC window 'HHMM-HHMM'"
    if form == "version":
        return None if _VERSION.fullmatch(text) else "not a version number such as 2.0"
    if form == "host":  # Yandex's Host: a host name, optionally its scheme and port
        return _host(text)
    # host-or-url
    if "://" in text:
        return _absolute_url(text)
    return None if _HOST.fullmatch(text) else "neither a host name nor an absolute URL"
