"""scripts/crawler_registry.py on a stored snapshot of ai.robots.txt (never the network):
its output round-trips, and a changed source shows as reviewed differences."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from robotsrules._tables._crawlers import load_registry, registry
from tests.scripts_loader import load_script

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "src" / "robotsrules" / "data" / "crawlers.json"
SNAPSHOT = Path(__file__).parent / "data" / "ai-robots-txt-robots-738c80d.json"
COMMIT = "738c80df2169027ce0e07c9976fd3f2f57dd8f7b"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("crawler_registry")


def _source(script: ModuleType, entries: dict[str, Any]) -> dict[str, Any]:
    return {"url": script.SOURCE_REPOSITORY, "file": "robots.json", "commit": COMMIT,
            "date": "2026-08-22", "entries": len(entries)}


def test_rebuild_from_the_snapshot_reproduces_the_registry(script: ModuleType) -> None:
    text = REGISTRY.read_text(encoding="utf-8")
    current = json.loads(text)
    entries = script.read_source(SNAPSHOT.read_text(encoding="utf-8"))
    assert len(entries) == 163  # 166 names, three listed twice in another case
    new, report = script.refresh(current, entries, _source(script, entries), "2099-01-01")
    assert report == []
    assert new["compiled"] == current["compiled"]  # nothing changed: the date stays
    assert script.dumps(new) == text  # byte for byte
    assert script.dumps(json.loads(text)) == text  # the committed text is canonical


def test_main_prints_no_difference_and_writes_nothing(script: ModuleType,
                                                      tmp_path: Path) -> None:
    copy = tmp_path / "crawlers.json"
    copy.write_bytes(REGISTRY.read_bytes())
    out = io.StringIO()
    code = script.main(["--source", str(SNAPSHOT), "--commit", COMMIT, "--source-date",
                        "2026-08-22", "--registry", str(copy), "--write", "--diff"], out)
    assert code == 0 and out.getvalue() == "0 change(s); 199 entries\n"
    assert copy.read_bytes() == REGISTRY.read_bytes()


def test_a_changed_source_is_reported_and_the_output_reads_back(script: ModuleType,
                                                                tmp_path: Path) -> None:
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    data["NewBot 2.0"] = {"operator": "[New Co](https://new.example/bot)",
                          "respect": "[No](https://new.example/robots)",
                          "function": "AI Search Crawlers", "frequency": "",
                          "description": "Indexes pages for answers."}
    del data["AI2Bot"]
    data["Bytespider"]["respect"] = "[Yes](https://bytedance.example/robots)"
    data["AgentTimes"]["function"] = "AI Data Scrapers"
    source = tmp_path / "robots.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    copy = tmp_path / "crawlers.json"
    copy.write_bytes(REGISTRY.read_bytes())
    out = io.StringIO()
    argv = ["--source", str(source), "--commit", "0123456", "--source-date", "2026-11-01",
            "--registry", str(copy), "--date", "2026-11-30", "--write"]
    assert script.main(argv, out) == 0
    report = out.getvalue().splitlines()
    assert "added: NewBot 2.0" in report
    assert "no longer listed by ai.robots.txt: AI2Bot" in report
    assert "changed: AgentTimes: categories, purpose" in report
    assert "changed: Bytespider: robots_txt (unknown -> yes)" in report
    written = load_registry(copy.read_text(encoding="utf-8"), str(copy), registry())
    new = {c.label: c for c in written.crawlers}
    assert new["NewBot 2.0"].token == "NewBot" and new["NewBot 2.0"].robots_txt.obeys == "no"
    assert new["NewBot 2.0"].robots_txt.via == "ai.robots.txt@0123456"
    assert new["NewBot 2.0"].categories == ("ai-search",) and new["NewBot 2.0"].token_note
    assert "AI2Bot" in new  # never dropped
    assert written.compiled == "2026-11-30"
    # Idempotent: the same source again changes nothing.
    out = io.StringIO()
    assert script.main(argv, out) == 0 and out.getvalue() == "0 change(s); 200 entries\n"


def test_curated_entries_are_kept(script: ModuleType) -> None:
    current = json.loads(REGISTRY.read_text(encoding="utf-8"))
    entries = script.read_source(SNAPSHOT.read_text(encoding="utf-8"))
    entries["ChatGPT-User"]["respect"] = "[Yes](https://elsewhere.example)"
    entries["ChatGPT-User"]["operator"] = "Someone else"
    new, report = script.refresh(current, entries, _source(script, entries), "2026-12-01")
    chatgpt = next(e for e in new["crawlers"] if e["name"] == "ChatGPT-User")
    assert chatgpt["robots_txt"]["obeys"] == "no" and chatgpt["operator"] == "OpenAI"
    assert report == []


@pytest.mark.parametrize("text", ["", "[]", "{}", '{"x": 3}', '{"x": {"respect": 3}}',
                                  "[" * 100000, " " * ((8 << 20) + 1)])
def test_a_source_that_is_not_robots_json(script: ModuleType, text: str,
                                         tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(script.SourceError):
        script.read_source(text)
    source = tmp_path / "bad.json"
    source.write_text(text, encoding="utf-8")
    code = script.main(["--source", str(source), "--commit", COMMIT, "--source-date",
                        "2026-08-22", "--registry", str(REGISTRY)], io.StringIO())
    assert code == 2 and "crawler_registry:" in capsys.readouterr().err


@pytest.mark.parametrize("name, token", [
    ("AI2Bot", "AI"), ("bigsur.ai", "bigsur"), ("Brightbot 1.0", "Brightbot"),
    ("iaskspider/2.0", "iaskspider"), ("GPTBot", "GPTBot"), ("2bot", None), (".x", None),
])
def test_token_for_reads_as_google_does(script: ModuleType, name: str, token: Any) -> None:
    from robotsrules._rules._agents import file_agent_token

    assert script.token_for(name) == token
    assert file_agent_token(name) == (token.lower() if token else "")
