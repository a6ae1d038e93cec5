"""Real files carrying usage-preference lines (tests/usage/corpus, SOURCES.md): no exception,
stable answers, crawl verdicts untouched by the usage lines, no R104 on them, and the
answers pinned per file, agent and URL in tests/usage/corpus/expected.json.

Regenerate the golden file after a deliberate change of answers (then review the diff):
``ROBOTSRULES_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -p no:xdist -q
tests/usage/test_usage_corpus.py``.
"""

from __future__ import annotations

import json
import os
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

import robotsrules
from robotsrules import lint
from robotsrules._tables._crawlers import known_crawlers
from robotsrules._tables._purposes import PURPOSES

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(CORPUS.glob("*.txt"))
GOLDEN = CORPUS / "expected.json"
UPDATE = os.environ.get("ROBOTSRULES_UPDATE_GOLDEN") == "1"

# "ExampleCorpusBot" is named by no file here: it only ever gets the `*` groups.
AGENTS = ("ExampleCorpusBot", "GPTBot", "ClaudeBot", "Google-Extended", "Googlebot")
FIXED_URLS = ("/", "/admin/x", "/robots.txt", "/a?b=c")
_USAGE_KEYS = (b"content-signal", b"content-usage")
_DISALLOW = re.compile(rb"^\s*disallow\s*:\s*(/[^\s#]*)", re.IGNORECASE | re.MULTILINE)


def _urls(body: bytes) -> tuple[str, ...]:
    """The fixed URLs and up to three paths the file disallows (wildcards made literal)."""
    found: list[str] = []
    for match in _DISALLOW.finditer(body):
        path = match.group(1).decode("utf-8", "replace").replace("*", "x").rstrip("$")
        path = path or "/"
        if path not in FIXED_URLS and path not in found:
            found.append(path)
        if len(found) == 3:
            break
    return FIXED_URLS + tuple(found)


def _is_usage_line(raw: bytes) -> bool:
    return raw.lstrip(b" \t\xef\xbb\xbf").lower().startswith(_USAGE_KEYS)


def _without_usage_lines(body: bytes) -> bytes:
    return b"".join(raw for raw in body.splitlines(keepends=True) if not _is_usage_line(raw))


def _shape(robots: robotsrules.RobotsTxt) -> list[tuple[Any, ...]]:
    """The groups without line numbers or usage lines: agents, rules, crawl-delay."""
    return [(group.agents, tuple((rule.directive, rule.pattern) for rule in group.rules),
             group.crawl_delay, group.request_rate) for group in robots.groups]


def _answers(robots: robotsrules.RobotsTxt, body: bytes) -> dict[str, dict[str, Any]]:
    """{agent: {url: {"crawl": bool, "preferences": {purpose: bool}}}} for one file."""
    table: dict[str, dict[str, Any]] = {}
    for agent in AGENTS:
        table[agent] = {}
        for url in _urls(body):
            usage = robots.usage(url, agent=agent)
            table[agent][url] = {"crawl": usage.crawl_allowed,
                                 "preferences": usage.preferences}
    return table


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_file_every_crawler_every_purpose(path: Path) -> None:
    body = path.read_bytes()
    robots = robotsrules.parse(body)
    for crawler in known_crawlers():
        if crawler.token is None:  # no group can name it
            continue
        for url in ("/", "/admin/x", "/robots.txt", "/a?b=c"):
            usage = robots.usage(url, agent=crawler.token)
            assert usage.crawl_allowed is robots.allowed(url, agent=crawler.token)
            answers = [usage.allows(p) for p in PURPOSES]
            again = robotsrules.parse(body).usage(url, agent=crawler.token)
            assert answers == [again.allows(p) for p in PURPOSES]
    lint(body)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_answers_are_stable(path: Path) -> None:
    """Same answers after a pickle round trip and when the file is given as str."""
    body = path.read_bytes()
    robots = robotsrules.parse(body)
    copies = (pickle.loads(pickle.dumps(robots)), robotsrules.parse(body.decode("utf-8")))
    for agent in AGENTS:
        for url in _urls(body):
            usage = robots.usage(url, agent=agent)
            for copy in copies:
                assert copy.usage(url, agent=agent) == usage, (agent, url)
                assert copy.allowed(url, agent=agent) is usage.crawl_allowed


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_usage_lines_never_change_a_crawl_verdict(path: Path) -> None:
    body = path.read_bytes()
    stripped = _without_usage_lines(body)
    assert stripped != body, "every corpus file carries at least one usage line"
    robots, plain = robotsrules.parse(body), robotsrules.parse(stripped)
    # The groups are the same (no split, no merge, no rule gained or lost) ...
    assert _shape(robots) == _shape(plain)
    # ... and so is every verdict sampled.
    agents = AGENTS + tuple(c.token for c in known_crawlers() if c.token is not None)
    for agent in agents:
        for url in _urls(body):
            assert robots.allowed(url, agent=agent) is plain.allowed(url, agent=agent), (
                agent, url)
    assert all(not plain.usage(url, agent=agent).preferences
               for agent in AGENTS for url in _urls(body))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_unknown_key_finding_on_usage_lines(path: Path) -> None:
    body = path.read_bytes()
    lines = body.splitlines()
    unknown = [d for d in lint(body)
               if d.code == "R104" and _is_usage_line(lines[d.line - 1])]
    assert unknown == []


def test_answers_match_the_golden_file() -> None:
    """Usage.preferences and the crawl verdict per file, agent and URL, as reviewed."""
    got = {path.name: _answers(robotsrules.parse(path.read_bytes()), path.read_bytes())
           for path in FILES}
    if UPDATE:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(expected) == [path.name for path in FILES], "golden file lists other files"
    for name, table in got.items():
        assert table == expected[name], name


def test_every_file_has_its_source_listed() -> None:
    """SOURCES.md names every corpus file once, with its size; no file without an origin."""
    listed = {}
    for line in (CORPUS / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([^`]+)` \|.*\| (\d+) \| [^|]*\|$", line)
        if match:
            listed[match.group(1)] = int(match.group(2))
    assert sorted(listed) == [path.name for path in FILES]
    for path in FILES:
        assert listed[path.name] == len(path.read_bytes()), path.name
        assert _without_usage_lines(path.read_bytes()) != path.read_bytes(), path.name


def test_serchen_answers() -> None:
    robots = robotsrules.parse((CORPUS / "serchen.com.txt").read_bytes())
    google = robots.usage("https://serchen.com/", agent="Googlebot")
    assert google.crawl_allowed and google.preferences == {
        "search": True, "ai-train": False, "train-ai": False}
    assert [line.line for line in google.lines] == [30]
    admin = robots.usage("https://serchen.com/admin/", agent="Googlebot")
    assert not admin.crawl_allowed and admin.preferences == {}
    gpt = robots.usage("https://serchen.com/", agent="GPTBot")
    assert not gpt.crawl_allowed and gpt.allows("ai-train") is None
    # "use=reference" is a known signal (not R602), the file has no usage finding at all
    assert not [d for d in lint((CORPUS / "serchen.com.txt").read_bytes())
                if d.code.startswith("R6")]
