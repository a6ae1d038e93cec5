"""The Web Bot Auth texts read and the values taken from them (``data/webbotauth.json``):
the tags, the key directory's media type and well-known path, the longest validity, the
default ``Signature-Agent`` form, and each revision with its date and source. Read once,
checked field by field (a damaged file is a :class:`~robotsrules.RobotsError`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .._tables._datafile import parse_json, shipped_text
from ..errors import RobotsError

__all__ = ["Revision", "Standard", "load_standard", "standard"]

_DATA = "webbotauth.json"
_DAMAGED = " (the installed data is damaged: reinstall robotsrules)"


@dataclass(frozen=True)
class Revision:
    """One text read: its name, revision, date (ISO 8601), source URL, how much of its
    text was read for this table, and what robotsrules takes from it."""

    name: str
    revision: str
    date: str
    source: str
    read: str
    takes: str


@dataclass(frozen=True)
class Standard:
    """The values Web Bot Auth signing and checking use, and the revisions they come from."""

    version: int
    compiled: str
    request_tag: str
    directory_tag: str
    media_type: str
    well_known_path: str
    max_validity_seconds: int
    algorithm: str
    default_signature_agent_form: Literal["origin", "jwks"]
    revisions: tuple[Revision, ...]
    test_key_thumbprints: frozenset[str] = frozenset()


def _text(row: Mapping[str, Any], name: str, where: str) -> str:
    value = row.get(name)
    if not isinstance(value, str) or not value:
        raise RobotsError(f"{_DATA}: {where}.{name} must be a non-empty string{_DAMAGED}")
    return value


def load_standard(text: str) -> Standard:
    """The table in ``text`` (the shipped file's format), checked."""
    data = parse_json(text, _DATA, 1 << 20, _DAMAGED)
    if not isinstance(data, dict) or not isinstance(data.get("values"), dict):
        raise RobotsError(f"{_DATA}: no 'values' object{_DAMAGED}")
    values = data["values"]
    seconds = values.get("max_validity_seconds")
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 < seconds <= 86400:
        raise RobotsError(f"{_DATA}: values.max_validity_seconds must be 1 to 86400{_DAMAGED}")
    form = values.get("default_signature_agent_form")
    if form not in ("origin", "jwks"):
        raise RobotsError(f"{_DATA}: values.default_signature_agent_form must be 'origin' or "
                          f"'jwks'{_DAMAGED}")
    path = _text(values, "well_known_path", "values")
    if not path.startswith("/.well-known/"):
        raise RobotsError(f"{_DATA}: values.well_known_path must be under /.well-known/"
                          f"{_DAMAGED}")
    rows = data.get("revisions")
    if not isinstance(rows, list):
        raise RobotsError(f"{_DATA}: 'revisions' must be a list{_DAMAGED}")
    revisions = []
    for index, row in enumerate(rows):
        where = f"revisions[{index}]"
        if not isinstance(row, dict):
            raise RobotsError(f"{_DATA}: {where} must be an object{_DAMAGED}")
        revisions.append(Revision(_text(row, "name", where), _text(row, "revision", where),
                                  _text(row, "date", where), _text(row, "source", where),
                                  _text(row, "read", where), _text(row, "takes", where)))
    tests = values.get("test_key_thumbprints")
    if not isinstance(tests, list) or not all(isinstance(t, str) and t for t in tests):
        raise RobotsError(f"{_DATA}: values.test_key_thumbprints must be a list of strings"
                          f"{_DAMAGED}")
    version = data.get("version")
    if not isinstance(version, int):
        raise RobotsError(f"{_DATA}: 'version' must be an integer{_DAMAGED}")
    return Standard(version, _text(data, "compiled", "file"),
                    _text(values, "request_tag", "values"),
                    _text(values, "directory_tag", "values"),
                    _text(values, "media_type", "values"), path, seconds,
                    _text(values, "algorithm", "values"), form, tuple(revisions),
                    frozenset(tests))


@functools.lru_cache(maxsize=1)
def standard() -> Standard:
    """The shipped table, read once."""
    return load_standard(shipped_text(_DATA))
