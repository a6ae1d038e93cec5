"""Known extensions, not errors (data/extensions.json, robotsrules._tables._extensions).

Sources compared: crawler-commons' RobotsExtension enum (commit 8e14e27, 2026-07-27:
llm-policy, clean-param, content-signal/content-signals, host, no-index/noindex,
request-rate, visit-time, robot-version, comment) and Lighthouse's robots-txt audit
safelist (GoogleChrome/lighthouse core/audits/seo/robots-txt.js, commit 3a173bc:
crawl-delay, clean-param, host, request-rate, visit-time, noindex, content-signal, license).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules import RobotsError, lint
from robotsrules._tables._extensions import (
    FORMATS,
    check_value,
    extensions,
    extensions_info,
    find,
    load_extensions,
)

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data" / "extensions.json"
CRAWLER_COMMONS = ("llm-policy", "clean-param", "content-signal", "content-signals", "host",
                   "no-index", "noindex", "request-rate", "visit-time", "robot-version",
                   "comment")
LIGHTHOUSE = ("crawl-delay", "clean-param", "host", "request-rate", "visit-time", "noindex",
              "content-signal", "license")
ISSUE_26 = ("content-signal", "content-usage", "license", "llm-policy", "host", "clean-param",
            "crawl-delay", "request-rate", "visit-time", "noindex", "signature-agent",
            "max-crawl-rate")
UA = b"User-agent: *\nDisallow: /private/\n"


def _names() -> list[str]:
    return [name for e in extensions() for name in (e.key, *e.aliases)]


def test_table_covers_crawler_commons_lighthouse_and_more() -> None:
    names = set(_names())
    assert set(CRAWLER_COMMONS) <= names
    assert set(LIGHTHOUSE) <= names
    assert set(ISSUE_26) <= names
    assert len(names - set(CRAWLER_COMMONS) - set(LIGHTHOUSE)) >= 5  # and more


def test_every_entry_is_sourced_and_dated() -> None:
    for extension in extensions():
        assert extension.source.startswith("https://"), extension.key
        assert extension.by and extension.note, extension.key
        assert extension.date is None or extension.date[:4].isdigit(), extension.key
        assert (extension.instead is None) is (extension.status == "active"), extension.key
    assert extensions_info()["version"] == "1"


@pytest.mark.parametrize("name", [n for e in extensions() for n in (e.key, *e.aliases)])
def test_no_recognised_key_is_told_to_go(name: str) -> None:
    for spelling in (name, name.upper(), name.title()):
        body = UA + f"{spelling}: x\n".encode()
        found = lint(body)
        assert not [d for d in found if d.code == "R104"], (spelling, found)
        assert not [d for d in found if "remove the line" in d.hint], (spelling, found)


@pytest.mark.parametrize("name", [e.key for e in extensions()
                                  if not e.parsed and e.status == "active"])
def test_active_extension_is_info_saying_google_ignores_it(name: str) -> None:
    found = [d for d in lint(UA + f"{find(name).name}: x\n".encode())  # type: ignore[union-attr]
             if d.line == 3 and d.code == "R105"]
    assert len(found) == 1 and found[0].severity == "info"
    assert "Google and RFC 9309 parsers ignore the line" in found[0].message


@pytest.mark.parametrize("name, instead", [
    ("Noindex", "X-Robots-Tag: noindex"),
    ("No-index", "robots meta tag"),
    ("Nofollow", "rel=\"nofollow\""),
    ("Signature-Agent", "signed requests"),
    ("Max-Crawl-Rate", "Crawl-delay"),
    ("Host", "301"),
])
def test_dead_extension_keeps_its_warning_and_says_what_instead(name: str, instead: str) -> None:
    found = [d for d in lint(UA + f"{name}: example.com\n".encode()) if d.line == 3]
    assert [d.code for d in found] == ["R110"]
    assert found[0].severity == "warning" and instead in found[0].hint


@pytest.mark.parametrize("key, value, problem", [
    ("license", "https://example.com/license.xml", None),
    ("license", "http://cdn.example.org:8080/rsl.xml?x=1", None),
    ("license", "/license.xml", "absolute"),
    ("license", "ftp://example.com/l.xml", "absolute"),
    ("license", "https:///nohost", "no host"),
    ("license", "https://example.com/a b", "blanks"),
    ("license", "https://[::1", "not a URL"),
    ("llm-policy", "https://example.com/llms.txt", None),
    ("llm-policy", "llms.txt", "absolute"),
    ("clean-param", "ref", None),
    ("clean-param", "ref&sid /forum/*.php", None),
    ("clean-param", "utm_source&utm_medium /catalog/", None),
    ("clean-param", "ref&&sid", "joined by '&'"),
    ("clean-param", "ref /a /b", "more than two"),
    ("clean-param", "ref /fo?rum", "A-Za-z0-9"),
    ("visit-time", "0600-0845", None),
    ("visit-time", "2330-0015", None),
    ("visit-time", "0600-2500", "HHMM-HHMM"),
    ("visit-time", "6:00-8:45", "HHMM-HHMM"),
    ("robot-version", "2.0", None),
    ("robot-version", "two", "version"),
    ("signature-agent", "crawler.example.com", None),
    ("signature-agent", "https://chatgpt.com", None),
    ("signature-agent", "not a host", "neither"),
    ("comment", "anything", None),
    ("visit-time", "", "no value"),
])
def test_value_formats(key: str, value: str, problem: Any) -> None:
    extension = find(key)
    assert extension is not None
    found = check_value(extension, value)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found


def test_invalid_value_is_a_warning_at_the_value() -> None:
    found = lint(b"LLM-Policy: /llms.txt\nLicense: /license.xml\n" + UA)
    # License is read by robotsrules (RSL): its own code R701 says what is wrong, not R109.
    assert [(d.code, d.line, d.column) for d in found] == [
        ("R105", 1, 1), ("R109", 1, 13), ("R701", 2, 10)]
    assert "absolute URL" in found[1].hint


def test_typo_points_only_at_working_keys() -> None:
    found = lint(UA + b"Licence: https://example.com/l.xml\nNoindx: /x\n")
    assert found[0].code == "R104" and "did you mean `License`?" in found[0].hint
    assert found[1].code == "R104" and "Noindex" not in found[1].hint


def test_value_checks_are_bounded() -> None:
    long = "a&" * 50000 + "b"
    assert check_value(find("clean-param"), long) is None  # type: ignore[arg-type]
    assert check_value(find("signature-agent"), "a." * 100000) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("mutate, problem", [
    (lambda d: d.pop("extensions"), "no 'extensions' list"),
    (lambda d: d["extensions"].append("x"), "is not an object"),
    (lambda d: d["extensions"][0].__setitem__("key", "Content Signal"), "not a lower-case key"),
    (lambda d: d["extensions"][1].__setitem__("aliases", ["content-signal"]), "also listed"),
    (lambda d: d["extensions"][0].__setitem__("scope", "site"), "scope"),
    (lambda d: d["extensions"][0].__setitem__("status", "maybe"), "status"),
    (lambda d: d["extensions"][0].__setitem__("format", "regex"), "format"),
    (lambda d: d["extensions"][0].__setitem__("status", "dead"), "needs 'instead'"),
    (lambda d: d["extensions"][0].__setitem__("readers", "all"), "readers"),
    (lambda d: d["extensions"][0].__setitem__("parsed", "yes"), "parsed"),
    (lambda d: d["extensions"][0].pop("source"), "source"),
])
def test_damaged_table_is_a_clear_error(mutate: Any, problem: str) -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    mutate(data)
    with pytest.raises(RobotsError, match=problem):
        load_extensions(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{", "[]", "[" * 100000, " " * (2 << 20)])
def test_hostile_table_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(RobotsError, match=r"extensions\.json"):
        load_extensions(text)


def test_formats_named_by_the_table_are_known() -> None:
    assert {e.format for e in extensions()} - {None} <= set(FORMATS)


@pytest.mark.parametrize(("value", "valid"), [
    ("www.example.com", True), ("example.com:8080", True), ("https://www.example.com", True),
    ("http://www.example.com/", True), ("m\u00fcnich.de", True),
    ("exa mple.com", False), ("example..com", False), ("https://a.example/path", False),
    ("ftp://a.example", False), ("-a.example", False), ("a.example:123456", False),
])
def test_host_values_are_checked_though_the_key_no_longer_works(value: str, valid: bool) -> None:
    """Issue 22: a Host value is handed on as written, and lint reports one that is not a
    host name (R109 beside the R110 that Host no longer works)."""
    found = lint(UA + b"Host: " + value.encode("utf-8") + b"\n")
    codes = [d.code for d in found if d.line == 3]
    assert codes == (["R110"] if valid else ["R110", "R109"]), (value, codes)
