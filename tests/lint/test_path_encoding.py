"""R307 path-not-encoded (issue 35 §3): rule paths written with characters that should be
percent-encoded (outside US-ASCII, space, control characters; RFC 9309 §2.2.2 and the
path-pattern grammar of §2.2), the encoded form as the fix, and `explain` showing how such a
path is matched as written and encoded. Matching itself is unchanged; the oracle test checks
that the forms shown decide as Google's library decides on the file as written and as fixed.

Google's robots.txt documentation dated 2026-10-23, said to recommend percent-encoding in
rule paths, was not found in the stored copies searched: the finding rests on RFC 9309.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import List, Tuple

import pytest

import robotsrules
from robotsrules._rules._pattern import matches
from robotsrules._rules._urls import encoded_pattern
from robotsrules.cli import main
from robotsrules.linter import Diagnostic, lint
from tests.oracle import raw_oracle, requires_oracle

UA = b"User-agent: *\n"


def r307(body: bytes) -> List[Diagnostic]:
    return [d for d in lint(body) if d.code == "R307"]


def fix_of(found: Diagnostic) -> str:
    match = re.fullmatch(r"write `(.*)`", found.hint)
    assert match is not None, found.hint
    return match.group(1)


def run(*argv: str) -> Tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize("line, fix, words", [
    ("Disallow: /ツ", "Disallow: /%E3%83%84", "outside US-ASCII: they are matched"),
    ("Allow: /café/menu", "Allow: /caf%C3%A9/menu", "the same URLs"),
    ("Disallow: /my page", "Disallow: /my%20page", "holds a space: a space or control"),
    ("Disallow: /a\tb", "Disallow: /a%09b", "holds control characters"),
    ("Disallow: /x\x0by", "Disallow: /x%0By", "control characters"),
    ("Disallow: /café menu", "Disallow: /caf%C3%A9%20menu",
     "outside US-ASCII and a space"),
    ("Content-Usage: /ü train-ai=n", "Content-Usage: /%C3%BC train-ai=n", "outside US-ASCII"),
])
def test_library_lint_names_the_characters_and_the_encoded_fix(line: str, fix: str,
                                                               words: str) -> None:
    (found,) = r307(UA + line.encode() + b"\n")
    assert (found.line, found.severity, found.name) == (2, "warning", "path-not-encoded")
    assert fix_of(found) == fix and words in found.message
    assert "\t" not in found.message and "\x0b" not in found.message  # shown escaped


@pytest.mark.parametrize("body", [
    UA + b"Disallow: /%E3%83%84\nAllow: /my%20page\nDisallow: /a%09b\n",  # already encoded
    UA + b"Disallow: /\xe7a\n",  # not UTF-8: R002's, not R307's too
    UA + b"Content-Usage: train-ai=n\nContent-Signal: search=yes\n",  # no path
    UA + b"Content-Usage:\nContent-Usage: \xc3\xa9=y\n",  # no path, nothing to encode
    UA + b"Disallow: /x   \n",  # trailing space is not part of the path
])
def test_quiet_where_nothing_should_be_encoded(body: bytes) -> None:
    assert r307(body) == []


def test_the_fix_reads_the_same_in_every_other_respect() -> None:
    body = UA + "Disallow: /ツ*.pdf$\nDisallow: /%e3 x\n".encode()
    first, second = r307(body)
    assert fix_of(first) == "Disallow: /%E3%83%84*.pdf$"  # wildcards and anchor kept
    assert fix_of(second) == "Disallow: /%E3%20x"  # escapes upper-cased, as Google reads them


def test_non_ascii_paths_are_one_finding_per_file() -> None:
    # Google and RFC 9309 readers encode them alike: one finding, counted, at the first line
    body = UA + b"Disallow: /ok\n" + "".join(f"Disallow: /ü{i}\n" for i in range(500)).encode()
    (found,) = r307(body)
    assert found.line == 3 and fix_of(found) == "Disallow: /%C3%BC0"
    assert "; 499 more rule paths hold such characters (lines 4, 5, 6, 7, 8 and 494 others)" \
        in found.message


def test_many_spaces_are_listed_then_counted() -> None:
    body = UA + "".join(f"Disallow: /a b{i}\n" for i in range(500)).encode()
    found = lint(body)
    assert 0 < len([d for d in found if d.code == "R307"]) < 500
    assert any(d.code == "R007" and "R307" in d.message for d in found)


# -- the forms shown decide as Google's library decides ------------------------------------

# Each rule path written unencoded, and URLs as crawlers send them (ASCII, percent-encoded)
# or with a literal space or tab. URLs with raw non-ASCII characters are left out: we encode
# them before matching (SPEC D1), Google's library does not, a deviation covered elsewhere.
CASES = [
    ("Disallow: /ツ", ["/%E3%83%84", "/%E3%83%84/x", "/other"]),
    ("Disallow: /café menu", ["/caf%C3%A9%20menu", "/caf%C3%A9 menu", "/caf%C3%A9"]),
    ("Disallow: /my page", ["/my%20page", "/my page", "/my"]),
    ("Disallow: /a\tb", ["/a%09b", "/a\tb", "/ab"]),
    ("Disallow: /x\x0by", ["/x%0By", "/x\x0by", "/xy"]),
]


@requires_oracle
@pytest.mark.parametrize("line, urls", CASES)
def test_written_and_encoded_forms_decide_as_googles_library(line: str,
                                                             urls: List[str]) -> None:
    written = UA + line.encode() + b"\n"
    (found,) = r307(written)
    fixed = UA + fix_of(found).encode() + b"\n"
    robots = robotsrules.parse(written)
    (rule,) = robots.groups[0].rules
    for path in urls:
        url = "http://h" + path
        verdict = robots.explain(url, agent="x")
        google_written = raw_oracle(written, "x", url)
        google_fixed = raw_oracle(fixed, "x", url)
        # as written: our verdict and the written pattern's match are Google's (unchanged)
        assert verdict.allowed is google_written, (line, path)
        assert matches(rule.pattern, verdict.target) is (not google_written), (line, path)
        # encoded: what explain shows for the fixed line is what Google decides on it
        assert matches(encoded_pattern(rule.pattern), verdict.target) is (
            not google_fixed), (line, path)


# -- explain: library and command line ------------------------------------------------------


def test_library_explain_shows_the_written_and_the_matched_form() -> None:
    robots = robotsrules.parse(UA + "Disallow: /ツ\nDisallow: /my page\n".encode())
    verdict = robots.explain("https://e.example/%E3%83%84", agent="x")
    assert verdict.rule is not None and not verdict.allowed
    assert (verdict.rule.value, verdict.rule.pattern) == ("/ツ", "/%E3%83%84")
    # a space is matched as written: the URL a crawler sends (%20) is not matched
    assert robots.explain("https://e.example/my%20page", agent="x").rule is None
    assert encoded_pattern(robots.groups[0].rules[1].pattern) == "/my%20page"


@pytest.fixture()
def written(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_bytes(UA + "Disallow: /ツ\nDisallow: /my page\nAllow: /a\tb\n".encode())
    return str(path)


@pytest.mark.parametrize("url, code, shown", [
    ("https://e.example/%E3%83%84", 1,
     "  path:    line 2: Disallow: /ツ: matched as /%E3%83%84, the form to write "
     "(the same URLs) (lint R307)"),
    ("https://e.example/my%20page", 0,
     "  path:    line 3: Disallow: /my page: does not match this target as written; "
     "written /my%20page it would (lint R307)"),
    ("https://e.example/my page", 1,
     "  path:    line 3: Disallow: /my page: matches this target as written; "
     "written /my%20page it would not (lint R307)"),
    ("https://e.example/a%09b", 0,
     "  path:    line 4: Allow: /a\\x09b: does not match this target as written; "
     "written /a%09b it would (lint R307)"),
])
def test_cli_explain_shows_how_the_path_is_matched(written: str, url: str, code: int,
                                                   shown: str) -> None:
    got, out = run("explain", written, "--agent", "x", url, "--color", "never")
    assert got == code
    assert shown in out.splitlines(), out


def test_cli_explain_is_quiet_for_encoded_paths(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(UA + b"Disallow: /%E3%83%84\nDisallow: /my%20page\n")
    for url in ("https://e.example/%E3%83%84", "https://e.example/my%20page"):
        assert "path:" not in run("explain", str(path), "--agent", "x", url)[1]


# -- lint from the command line -------------------------------------------------------------


def test_cli_lint_text_json_and_sarif(written: str) -> None:
    assert run("lint", written, "--fail-on", "warning")[0] == 1  # a warning
    code, out = run("lint", written, "--color", "never")
    assert code == 0
    assert (":3:11: warning R307 path-not-encoded: `Disallow: /my page` holds a space"
            in out)
    assert "(write `Allow: /a%09b`)" in out and "\t" not in out
    _, out = run("lint", "--json", written)
    report = json.loads(out)
    found = [d for d in report["diagnostics"] if d["code"] == "R307"]
    assert [(d["line"], d["hint"]) for d in found] == [
        (2, "write `Disallow: /%E3%83%84`"), (3, "write `Disallow: /my%20page`"),
        (4, "write `Allow: /a%09b`")]
    _, out = run("lint", "--format", "sarif", written)
    run_log = json.loads(out)["runs"][0]
    results = [r for r in run_log["results"] if r["ruleId"] == "R307"]
    assert [r["properties"]["hint"] for r in results][1] == "write `Disallow: /my%20page`"
    assert {r["level"] for r in results} == {"warning"}
    rules = {r["id"]: r for r in run_log["tool"]["driver"]["rules"]}
    assert rules["R307"]["name"] == "path-not-encoded"


def test_cli_explain_path_line_by_mode(written: str) -> None:
    url = "https://e.example/my%20page"
    line = ("  path:    line 3: Disallow: /my page: does not match this target as written; "
            "written /my%20page it would (lint R307)")
    assert line in run("explain", written, "--agent", "x", url, "--mode", "rfc")[1].splitlines()
    # the legacy reading compares urllib's way (it unquotes): no path line is shown there
    assert "path:" not in run("explain", written, "--agent", "x", url, "--mode", "legacy")[1]
