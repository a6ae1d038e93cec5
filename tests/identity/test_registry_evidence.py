"""Which evidence each crawler of the registry has (its ``verify`` member, the one home of
it): address lists named as the address snapshot names them, name patterns, Web Bot Auth,
or none ("unverifiable"); and the issue 36 decision that an operator-wide address space
(Meta's AS32934 routes) is no evidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules import RobotsError
from robotsrules._tables._addresses import load_snapshot
from robotsrules._tables._crawlers import crawler_for, known_crawlers, load_crawlers

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data"
BASE = {"name": "ExampleBot", "token": "ExampleBot", "operator": "Example",
        "categories": ["other"], "trigger": "crawler", "purpose": "testing",
        "source": "https://example.com/bot", "robots_txt": {"obeys": "unknown",
                                                             "checked": "2026-11-27"}}


def test_address_lists_name_the_snapshot_lists_at_the_entry_urls() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    by_url = {item.url: item.name for item in snapshot.lists}
    for crawler in known_crawlers():
        verify = crawler.verify
        assert verify.address_lists == tuple(by_url[url] for url in verify.ip_ranges
                                             if url in by_url), crawler.label
        assert len(verify.address_lists) == len(verify.ip_ranges), (
            f"{crawler.label}: a list URL with no list in the snapshot")
        for name in verify.address_lists:
            address_list = snapshot.named(name)
            assert address_list is not None and crawler.token in address_list.tokens


def test_evidence_kinds() -> None:
    googlebot = crawler_for("Googlebot")
    assert googlebot is not None
    assert googlebot.verify.evidence == ("address-list", "name-pattern")
    assert googlebot.verify.address_lists == ("google-common-crawlers",)
    claude = crawler_for("ClaudeBot")
    assert claude is not None and claude.verify.address_lists == ("anthropic-bots",)
    yandex = crawler_for("YandexBot")
    assert yandex is not None and yandex.verify.evidence == ("name-pattern",)
    agent = crawler_for("Google-Agent")
    assert agent is not None and "web-bot-auth" in agent.verify.evidence
    assert sum(crawler.verify.unverifiable for crawler in known_crawlers()) > 100


def test_operator_wide_address_space_is_no_evidence() -> None:
    meta = [crawler for crawler in known_crawlers() if crawler.operator == "Meta"]
    assert len(meta) >= 4
    for crawler in meta:
        assert crawler.verify.unverifiable, crawler.label
        assert crawler.verify.note and "AS32934" in crawler.verify.note, crawler.label


@pytest.mark.parametrize("verify, problem", [
    ({"address_lists": ["Not A Name"]}, "verify.address_lists"),
    ({"address_lists": "google"}, "'verify.address_lists' is not a list"),
    ({"note": 3}, "'verify.note' is not text"),
])
def test_bad_evidence_is_named(tmp_path: Path, verify: Any, problem: str) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"crawlers": [{**BASE, "verify": verify}]}), encoding="utf-8")
    with pytest.raises(RobotsError, match=problem):
        load_crawlers(path)


def test_the_registry_script_links_address_lists() -> None:
    from tests.scripts_loader import load_script

    script = load_script("crawler_registry")
    registry = json.loads((DATA / "crawlers.json").read_text(encoding="utf-8"))
    snapshot = json.loads((DATA / "crawler-addresses.json").read_text(encoding="utf-8"))
    assert script.link_address_lists(registry, snapshot) == []  # the shipped registry is current
    gptbot = next(entry for entry in registry["crawlers"] if entry["token"] == "GPTBot")
    gptbot["verify"]["address_lists"] = []
    assert script.link_address_lists(registry, snapshot) == [
        "GPTBot: verify.address_lists ['openai-gptbot']"]
    assert gptbot["verify"]["address_lists"] == ["openai-gptbot"]
