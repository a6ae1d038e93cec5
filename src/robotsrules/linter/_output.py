"""Render lint diagnostics: text for people, JSON and SARIF 2.1.0 for programs.

Three formats, all built from :class:`~robotsrules.linter.Diagnostic` and the code table
:data:`~robotsrules.linter.CODES`:

``text``
    One line per diagnostic, ``path:line:col: severity code name: message (hint)`` — the
    shape compilers use, so editors and ``grep`` understand it. ANSI colours on request.

``json``
    One object per file, versioned; ``src/robotsrules/data/lint.schema.json`` (returned by
    :func:`json_schema`) is its JSON Schema::

        {"version": 1,
         "file": "robots.txt",
         "diagnostics": [{"code": "R101", "name": "missing-colon", "severity": "warning",
                          "line": 3, "column": 9, "message": "...", "hint": "..."}],
         "summary": {"error": 0, "warning": 1, "info": 0, "total": 1}}

    ``unlisted`` (present only when lint listed at most 100 findings of a code and counted
    the rest, each code's ``R007`` diagnostic) maps codes to the findings not listed.

    ``version`` changes only when a field changes meaning or disappears; new codes and
    new optional fields keep version 1.

``sarif``
    A SARIF 2.1.0 log (OASIS) with one run: ``tool.driver.rules`` lists every code of the
    table (``id`` = code, ``name``, ``shortDescription`` = summary, ``help`` = hint), and
    each result carries ``ruleId``, ``ruleIndex``, ``level`` (``info`` is SARIF's
    ``note``), the message, the hint (``properties.hint``) and the location. Findings
    counted but not listed are an ``R007`` result each, and the artifact's
    ``properties.unlisted`` maps their codes to the counts. Columns are
    Unicode code points (``columnKind``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from .._terminal import visible
from .._typing import assert_never
from ._codes import CODES, SEVERITIES, Diagnostic, Severity, counts, cut_counts, help_text

__all__ = [
    "FORMATS",
    "JSON_VERSION",
    "json_schema",
    "render",
    "summary_line",
    "to_json",
    "to_sarif",
    "to_sarif_many",
    "to_text",
]

FORMATS = ("text", "json", "sarif")
"""The values :func:`render` accepts for ``format``."""

JSON_VERSION = 1
"""Version of the JSON object :func:`to_json` builds (see the module docstring)."""

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _levels(severity: Severity) -> tuple[str, str]:
    """How a severity is shown: SARIF's ``level`` (SARIF 2.1.0 §3.27.10: ``note`` for
    information) and the ANSI colour of the text output (red, yellow, cyan)."""
    if severity == "error":
        return "error", "\x1b[1;31m"
    if severity == "warning":
        return "warning", "\x1b[1;33m"
    if severity == "info":
        return "note", "\x1b[1;36m"
    assert_never(severity)

_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
_URI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def _clean(text: str) -> str:
    """No control characters in a terminal line (the path comes from the caller)."""
    return visible(text)


def to_text(diagnostics: Iterable[Diagnostic], path: str = "robots.txt", *,
            color: bool = False) -> str:
    """One line per diagnostic: ``path:line:col: severity code name: message (hint)``.

    Ends with a newline unless there is no diagnostic (then ``""``). ``color`` adds ANSI
    colours (severity in red, yellow or cyan; the position in bold).

    >>> from robotsrules.linter import lint
    >>> print(to_text(lint(b"User-agent: *\\nDisallow fish\\n")), end="")
    robots.txt:2:9: warning R101 missing-colon: no colon after `Disallow`: Google reads the two words `Disallow fish` as `Disallow: fish`; RFC 9309 parsers ignore the line (write `Disallow: fish`)
    robots.txt:2:10: error R301 path-not-slash: `Disallow: fish` never matches: it is compared literally with paths, which start with `/` (write `Disallow: /fish`)
    """  # noqa: E501
    where = _clean(path)
    out: list[str] = []
    for d in diagnostics:
        if color:
            out.append(
                f"{_BOLD}{where}:{d.line}:{d.column}:{_RESET} "
                f"{_levels(d.severity)[1]}{d.severity}{_RESET} "
                f"{_BOLD}{d.code}{_RESET} {d.name}: {_clean(d.message)} "
                f"{_DIM}({_clean(d.hint)}){_RESET}\n"
            )
        else:
            out.append(f"{where}:{d.line}:{d.column}: {d.severity} {d.code} {d.name}: "
                       f"{_clean(d.message)} ({_clean(d.hint)})\n")
    return "".join(out)


def summary_line(diagnostics: Iterable[Diagnostic]) -> str:
    """``"1 error, 2 warnings, 0 infos"`` (for a closing line on standard error).

    >>> summary_line([])
    '0 errors, 0 warnings, 0 infos'
    """
    found = list(diagnostics)
    totals = counts(found)
    line = ", ".join(f"{totals[s]} {s}{'' if totals[s] == 1 else 's'}" for s in SEVERITIES)
    unlisted = sum(cut_counts(found).values())
    return line + (f" ({unlisted} more not listed, see R007)" if unlisted else "")


def to_json(diagnostics: Iterable[Diagnostic], path: str = "robots.txt") -> dict[str, Any]:
    """The versioned JSON object for one file (see the module docstring and
    :func:`json_schema`)."""
    found = list(diagnostics)
    summary = counts(found)
    summary["total"] = len(found)
    document: dict[str, Any] = {
        "version": JSON_VERSION,
        "file": path,
        "diagnostics": [d._asdict() for d in found],
        "summary": summary,
    }
    unlisted = cut_counts(found)
    if unlisted:
        document["unlisted"] = unlisted
    return document


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`to_json`'s output."""
    text = resources.files("robotsrules").joinpath("data/lint.schema.json").read_text(
        encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _artifact_uri(path: str) -> str:
    """A URI reference for ``path``: URLs as they are, file paths percent-encoded."""
    if _URI_SCHEME.match(path) and "://" in path:
        return path
    windows = PureWindowsPath(path)
    pure: PurePath = windows if windows.drive else PurePosixPath(path.replace("\\", "/"))
    if pure.is_absolute():
        return pure.as_uri()
    return quote(pure.as_posix(), safe="/")


def _rules() -> tuple[list[dict[str, Any]], dict[str, int]]:
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for code, entry in CODES.items():
        index[code] = len(rules)
        rules.append({
            "id": code,
            "name": entry.name,
            "shortDescription": {"text": entry.summary},
            "help": {"text": help_text(code)},
            "defaultConfiguration": {"level": _levels(entry.severity)[0]},
            "properties": {"severity": entry.severity},
        })
    return rules, index


def to_sarif_many(files: Iterable[tuple[str, Sequence[Diagnostic]]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run covering several files: ``(path, diagnostics)`` pairs."""
    from .._version import __version__

    rules, index = _rules()
    artifacts: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for path, diagnostics in files:
        unlisted = cut_counts(diagnostics)
        uri = _artifact_uri(path)
        artifact = len(artifacts)
        artifacts.append({"location": {"uri": uri}})
        if unlisted:  # findings counted, not listed (R007), per code
            artifacts[-1]["properties"] = {"unlisted": unlisted}
        for d in diagnostics:
            results.append({
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _levels(d.severity)[0],
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri, "index": artifact},
                        "region": {"startLine": d.line, "startColumn": d.column},
                    },
                }],
                "properties": {"hint": d.hint, "name": d.name},
            })
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {
                "driver": {
                    "name": "robotsrules",
                    "version": __version__,
                    "rules": rules,
                },
            },
            "columnKind": "unicodeCodePoints",
            "artifacts": artifacts,
            "results": results,
        }],
    }


def to_sarif(diagnostics: Iterable[Diagnostic], path: str = "robots.txt") -> dict[str, Any]:
    """A SARIF 2.1.0 log for one file."""
    return to_sarif_many([(path, list(diagnostics))])


def render(diagnostics: Iterable[Diagnostic], format: str = "text",
           path: str = "robots.txt", *, color: bool = False) -> str:
    """The diagnostics of one file in ``format`` (one of :data:`FORMATS`) as a string.

    JSON and SARIF are indented and end with a newline. Raises :class:`ValueError` for an
    unknown format (a caller mistake).
    """
    if format == "text":
        return to_text(diagnostics, path, color=color)
    if format == "json":
        document = to_json(diagnostics, path)
    elif format == "sarif":
        document = to_sarif(diagnostics, path)
    else:
        raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
