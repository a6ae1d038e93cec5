"""A label given twice in one ``Content-Usage`` value (issue 33): RFC 9651 (September 2024)
§4.2.2 keeps the last value, and a last value that is not the Token ``y``/``n`` states
nothing for that label even when an earlier one was valid (draft-ietf-aipref-vocab-07,
2026-08-19, "Multiple Preferences": ``train-ai=y, train-ai, search=n, search="n"``
"results in all preferences being unknown").

The same rule reads the robots.txt line and the response header
(``tests/page/test_usage_header_repeated.py``); here: the library, ``robotsrules usage``,
``explain``, ``lint`` and the bulk usage columns.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Optional

import pytest

import robotsrules
from robotsrules._page._prefs import content_usage
from robotsrules._rules._usage import read_value
from robotsrules.cli import main
from robotsrules.linter import lint

# (value after the path, train-ai answer, search answer)
CASES: list[tuple[str, Optional[bool], Optional[bool]]] = [
    ("train-ai=y, train-ai", None, None),
    ('search=n, search="n"', None, None),
    ("train-ai=y, train-ai=yes", None, None),
    ("search=y, search=(n)", None, None),
    ("train-ai=n, train-ai=y, search=y, search=n", True, False),
    ("train-ai=y;x=1, search=n, train-ai=n", False, False),
    ('train-ai=y, train-ai="n", train-genai=n, train-genai, all=n, all=()', None, None),
    ('train-ai=y, train-ai, search=n, search="n"', None, None),  # the vocab's own example
]


def _body(value: str) -> bytes:
    return f"User-agent: *\nContent-Usage: / {value}\nAllow: /\n".encode()


@pytest.mark.parametrize("value, train, search", CASES)
def test_library_reads_the_last_value(value: str, train: Optional[bool],
                                      search: Optional[bool]) -> None:
    usage = robotsrules.parse(_body(value)).usage("/page", agent="ExampleBot")
    assert usage.allows("train-ai") is train
    assert usage.allows("search") is search
    # One rule for robots.txt lines and the header.
    header = dict(content_usage(value).statements)
    assert header.get("train-ai") is train and header.get("search") is search


def test_the_reading_reports_the_bad_last_value_and_the_repetition() -> None:
    reading = read_value("content-usage", '/ train-ai=y, train-ai, search=n, search="n"')
    assert reading.statements == ()
    assert reading.bad_values == (("train-ai", "?1"), ("search", '"n"'))
    assert reading.repeated == ("train-ai", "search")


def test_repeated_label_counted_by_members_not_commas_in_strings() -> None:
    reading = read_value("content-usage", '/ train-ai=n;note="a, train-ai=y"')
    assert reading.statements == (("train-ai", False),) and reading.repeated == ()


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture()
def repeated(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(_body('train-ai=y, train-ai, search=n, search="n"'))
    return str(path)


def test_cli_usage_states_nothing(repeated: str) -> None:
    code, out = run("usage", repeated, "/x", "--agent", "ExampleBot", "--color", "never")
    assert code == 0
    assert "  train-ai     -    nothing stated" in out
    assert "  search       -    nothing stated" in out
    code, out = run("usage", repeated, "/x", "--agent", "ExampleBot", "--json")
    purposes = json.loads(out)["urls"][0]["purposes"]
    assert purposes["train-ai"]["answer"] is None and purposes["search"]["answer"] is None


def test_cli_explain_shows_the_line_and_lint_says_why(repeated: str) -> None:
    code, out = run("explain", repeated, "/x", "--agent", "ExampleBot", "--color", "never")
    assert code == 0
    assert 'usage:   line 2: Content-Usage: / train-ai=y, train-ai, search=n, search="n"' in out
    found = {(d.code, d.message) for d in lint(Path(repeated).read_bytes())}
    assert ("R603", "`train-ai=?1`: the value is not the token `y` or `n`, so no preference "
            "is stated for `train-ai`") in {(c, m.split(" (")[0]) for c, m in found}
    assert sum(1 for c, _m in found if c == "R605") == 2
    code, out = run("lint", repeated)
    assert "R603" in out and '`search="n"`' in out


def test_bulk_usage_columns() -> None:
    pa = pytest.importorskip("pyarrow")
    from robotsrules import bulk

    robots = pa.table({
        "url": ["https://a.example/robots.txt", "https://b.example/robots.txt"],
        "body": [_body('train-ai=y, train-ai, search=n, search="n"'),
                 _body("train-ai=n, train-ai=y, search=y, search=n")],
        "status": [200, 200],
    })
    urls = pa.table({"url": ["https://a.example/p", "https://b.example/p"]})
    table = pa.Table.from_batches(list(bulk.verdicts(
        robots, urls, ["ExampleBot"], purposes=["train-ai", "search"])))
    rows = {r["url"]: (r["train_ai"], r["search"]) for r in table.to_pylist()}
    assert rows == {"https://a.example/p": (None, None), "https://b.example/p": (True, False)}
