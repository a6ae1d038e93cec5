"""The crawler table, categories, ``agents --by-category`` and ``--agent-category``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import robotsrules
from robotsrules._optout import by_category, warnings
from robotsrules._tables._crawlers import (
    categories,
    category_tokens,
    crawler_for,
    known_crawlers,
    load_crawlers,
    resolve_category,
)
from robotsrules.cli import main
from robotsrules.errors import RobotsError


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_table_has_the_crawlers_in_public_use() -> None:
    table = known_crawlers()
    assert len(table) >= 190
    names = [c.label.lower() for c in table]
    assert len(names) == len(set(names))
    for crawler in table:
        if crawler.token is not None:
            assert re.fullmatch(r"[A-Za-z_-]+", crawler.token), crawler  # a product token
            assert robotsrules.agent_tokens(crawler.token) == (crawler.token.lower(),)
        assert set(crawler.categories) <= set(categories()) and crawler.operator
        assert crawler.category == crawler.categories[0] and crawler.source
    def category(name: str) -> str:
        found = crawler_for(name)
        assert found is not None, name
        return found.category
    assert category("GPTBot") == category("ClaudeBot") == category("CCBot") == "ai-training"
    assert category("OAI-SearchBot") == category("PerplexityBot") == "ai-search"
    assert category("ChatGPT-User") == category("Claude-User") == "user-triggered"
    assert category("Google-Extended") == category("Applebot-Extended") == "usage-control"
    assert category("Googlebot") == category("Bingbot") == "search"
    assert set(categories()) == {c for crawler in table for c in crawler.categories}


def test_categories_and_aliases() -> None:
    assert resolve_category("training") == "ai-training"
    assert resolve_category(" Retrieval ") == "ai-search"
    assert "GPTBot" in category_tokens("training")
    both = category_tokens(["control", "user"])
    assert "Google-Extended" in both and "ChatGPT-User" in both and "GPTBot" not in both
    with pytest.raises(RobotsError, match="unknown crawler category"):
        category_tokens("robots")


def test_table_extended_or_replaced_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"crawlers": [
        {"token": "ExampleBot", "operator": "Example", "category": "training",
         "purpose": "test", "source": "https://example.com/bot"},
        {"token": "gptbot", "operator": "OpenAI", "category": "other", "purpose": "override",
         "source": "x"},
    ]}))
    extended = known_crawlers(path)
    assert len(extended) == len(known_crawlers()) + 1
    assert "ExampleBot" in category_tokens("ai-training", extended)
    assert "GPTBot" not in category_tokens("ai-training", extended)  # overridden
    assert [c.token for c in known_crawlers(path, replace=True)] == ["ExampleBot", "gptbot"]
    bad = tmp_path / "bad.json"
    for text, message in [("{", "not JSON"), ('{"crawlers": 3}', "expected a list"),
                          ('[{"operator": "x"}]', "has no 'name' or 'token'"),
                          ('[{"token": "x", "category": "nope"}]', "unknown category 'nope'")]:
        bad.write_text(text)
        with pytest.raises(RobotsError, match=message):
            load_crawlers(bad)


BODY = (b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n"
        b"User-agent: Googlebot\nUser-agent: Google-Extended\nCrawl-delay: 5\nDisallow: /x\n\n"
        b"User-agent: *\nDisallow: /\n")


def test_summary_by_category_and_warnings() -> None:
    robots = robotsrules.parse(BODY)
    summary = {s.category: s for s in by_category(robots)}
    training = summary["ai-training"]
    assert training.total == len(category_tokens("training"))
    assert set(training.named) == {"GPTBot", "CCBot"} and not training.allowed
    assert "Googlebot" in summary["search"].partly
    assert str(summary["ai-training"]) == (
        f"ai-training: {training.total} of {training.total} blocked; robots.txt cannot stop "
        f"{len(training.unstoppable)}")
    assert "ChatGPT-User" in summary["user-triggered"].unstoppable
    found = warnings(robots)
    assert [(w.code, w.line) for w in found] == [("R211", 5), ("R212", 5), ("R210", 11)]
    assert [w.name for w in found] == [
        "control-token-crawl-delay", "control-token-shares-group", "catch-all-blocks-retrieval"]
    assert "Crawl-delay" in found[0].message and "Googlebot" in found[1].message
    # A file that blocks training crawlers by name raises no warning.
    fine = robotsrules.parse(b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n")
    assert warnings(fine) == []
    assert str(by_category(fine)[0]) == f"search: allowed ({len(category_tokens('search'))} tokens)"


def test_agents_by_category_cli(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY)
    code, out = run("agents", str(path), "--by-category")
    assert code == 0
    assert "  ai-training: " in out and "warning: line 11: the '*' group blocks" in out
    code, out = run("agents", str(path), "--by-category", "--json")
    data = json.loads(out)
    assert [w["code"] for w in data["warnings"]] == ["R211", "R212", "R210"]
    assert {c["category"] for c in data["categories"]} == set(categories())


def test_agent_category_on_stance_cli(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY)
    code, out = run("stance", str(path), "--agent-category", "control", "--json")
    assert code == 1
    agents = [s["agent"] for s in json.loads(out)["stances"]]
    assert agents == list(category_tokens("usage-control"))
    table = tmp_path / "only.json"
    table.write_text('[{"token": "CCBot", "category": "training"}]')
    code, out = run("stance", str(path), "--agent", "GPTBot", "--agent-category", "training",
                    "--crawlers", str(table), "--crawlers-replace", "--json")
    assert [s["agent"] for s in json.loads(out)["stances"]] == ["GPTBot", "CCBot"]
    assert run("stance", str(path), "--agent-category", "bogus")[0] == 2
    assert run("stance", str(path), "--agent-category", "search", "--crawlers-replace")[0] == 2
