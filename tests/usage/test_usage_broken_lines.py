"""``Content-Usage`` values that do not parse (issue 33 review): one rule for robots.txt's
lines and the ``Content-Usage`` header. Only the refusals (``label=n``) of such a value
count, read member by member; a broken robots.txt line takes part in the longest match only
with them, so a broader refusal is never erased by a broken narrower line (before,
``/ train-ai=n`` then ``/a/ train-ai=n,`` or a bare ``/a/`` read as "nothing stated" for
``/a/b``). A value starting with ``*`` is a Dictionary with no path when it parses as one
(draft-ietf-aipref-attach-05, 2026-08-18: paths start with ``/``), else a pattern as before
(the restrictive reading). Library, ``page_signals``, the CLI's ``usage`` and bulk columns.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Optional

import pytest

import robotsrules
from robotsrules import page_signals
from robotsrules._page._prefs import content_usage
from robotsrules.cli import main

BROAD = "User-agent: *\nContent-Usage: / train-ai=n\n"
NARROW_BROKEN = ["/a/ train-ai=n,", "/a/", "/a/ train-ai=y, x=(", "/a/ search=n,"]


def _usage(body: str, path: str = "/a/b") -> dict[str, bool]:
    usage = robotsrules.parse(body).usage("https://ex.com" + path, agent="bot")
    return dict(usage.categories)


@pytest.mark.parametrize("narrow", NARROW_BROKEN)
def test_a_broken_narrower_line_never_erases_a_broader_refusal(narrow: str) -> None:
    body = BROAD + f"Content-Usage: {narrow}\n"
    read = _usage(body)
    assert read["train-ai"] is False
    if narrow == "/a/ search=n,":
        assert read["search"] is False  # the broken line's own refusal counts too
    assert robotsrules.parse(body).usage("https://ex.com/a/b", agent="bot").allows(
        "train-ai") is False


def test_a_broken_line_adds_refusals_but_never_decides_alone() -> None:
    body = ("User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /a/ train-ai=y\n"
            "Content-Usage: /a/b search=n, x=(\n")
    assert _usage(body) == {"train-ai": True, "search": False}
    # shorter than the longest valid match: it loses, as a valid line would
    body = ("User-agent: *\nContent-Usage: / search=n, x=(\nContent-Usage: /a/ train-ai=y\n")
    assert _usage(body) == {"train-ai": True}


@pytest.mark.parametrize(("value", "path", "expected"), [
    ("*foo=n, train-ai=n", "/b", {"train-ai": False}),  # a Dictionary: no path, every URL
    ("*/private/ train-ai=n", "/x/private/a", {"train-ai": False}),  # a pattern, as before
    ("*/private/ train-ai=n", "/b", {}),
])
def test_a_leading_star(value: str, path: str, expected: dict[str, bool]) -> None:
    assert _usage(f"User-agent: *\nContent-Usage: {value}\n", path) == expected


def test_a_leading_star_pattern_keeps_its_restrictive_reading() -> None:
    body = ("User-agent: *\nContent-Usage: */private/ train-ai=n\n"
            "Content-Usage: /x/ train-ai=y\n")
    assert _usage(body, "/x/private/a") == {"train-ai": False}


@pytest.mark.parametrize("value", [
    'foo="x, train-ai=n', "foo=(, train-ai=n", "train-ai=n ; x", "train-ai =n",
    "train-ai= n", "train-ai=n;x=(, search=y", "train-ai=n search=y",
])
def test_the_header_fallback_keeps_refusals(value: str) -> None:
    read = content_usage(value)
    assert read.valid is False and read.statements == (("train-ai", False),)
    signals = page_signals({"Content-Usage": value}, agent="x")
    assert signals.allows("train-ai") is False
    assert _usage(f"User-agent: *\nContent-Usage: / {value}\n", "/b") == {"train-ai": False}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_cli_usage_and_lint(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_text(BROAD + "Content-Usage: /a/ train-ai=n,\n")
    code, out = run("usage", "--json", str(path), "--agent", "bot", "/a/b")
    assert code == 0
    purposes = json.loads(out)["urls"][0]["purposes"]
    assert purposes["train-ai"]["answer"] is False
    code, out = run("lint", str(path))
    assert "R601" in out and "only its refusals count (`train-ai=n`)" in out


def test_bulk_usage_columns() -> None:
    pa = pytest.importorskip("pyarrow")
    from robotsrules import bulk

    robots = pa.table({
        "url": ["https://a.example/robots.txt", "https://b.example/robots.txt"],
        "body": [(BROAD + "Content-Usage: /a/ train-ai=n,\n").encode(),
                 (BROAD + "Content-Usage: /a/\n").encode()],
        "status": [200, 200],
    })
    urls = pa.table({"url": ["https://a.example/a/b", "https://b.example/a/b"]})
    table = pa.Table.from_batches(list(bulk.verdicts(robots, urls, ["bot"],
                                                     purposes=["train-ai"])))
    rows: dict[str, Optional[bool]] = {r["url"]: r["train_ai"] for r in table.to_pylist()}
    assert rows == {"https://a.example/a/b": False, "https://b.example/a/b": False}
