"""The crawler registry (src/robotsrules/data/crawlers.json): its schema, its tokens, its
statements, and what a damaged or hostile registry file gets (a RobotsError, never a
traceback of another kind)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

import robotsrules
from robotsrules import RobotsError
from robotsrules._tables._crawlers import (
    crawler_for,
    known_crawlers,
    load_crawlers,
    load_registry,
    registry,
    registry_info,
    unstoppable,
)
from robotsrules.cli import main

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data"
TEXT = (DATA / "crawlers.json").read_text(encoding="utf-8")
_GOOGLE_CUT = re.compile(r"[A-Za-z_-]*")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_registry_validates_against_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra)")
    schema = json.loads((DATA / "crawlers.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(json.loads(TEXT)), key=lambda e: e.path)
    assert not errors, errors[0]
    broken = json.loads(TEXT)
    broken["crawlers"][0]["robots_txt"]["source"] = None  # "yes" without a source
    assert list(validator.iter_errors(broken))
    broken = json.loads(TEXT)
    broken["crawlers"][0]["token"] = "AI2Bot"  # not a product token
    assert list(validator.iter_errors(broken))


def test_every_robots_txt_token_is_a_product_token() -> None:
    for crawler in known_crawlers():
        if crawler.token is None:
            assert crawler.token_note, crawler.label  # says why no group can name it
            continue
        assert re.fullmatch(r"[A-Za-z_-]+", crawler.token), crawler.label
        assert robotsrules.agent_tokens(crawler.token) == (crawler.token.lower(),)
        # ... and it is what Google's reader takes from "User-agent: <name>"
        assert crawler.token == _GOOGLE_CUT.match(crawler.label).group(), crawler.label  # type: ignore[union-attr]
        if crawler.token != crawler.label:
            assert crawler.token_note and crawler.token in crawler.token_note, crawler.label


def test_every_statement_has_a_source_and_date_or_says_unknown() -> None:
    for crawler in known_crawlers():
        said = crawler.robots_txt
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", said.checked), crawler.label
        if said.obeys == "unknown":
            continue
        assert said.obeys in ("yes", "no", "partly"), crawler.label
        assert said.source and said.source.startswith("https://"), crawler.label


def test_names_that_are_no_product_token_are_kept_as_published() -> None:
    assert crawler_for("AI2Bot").token == "AI"  # type: ignore[union-attr]
    assert "'AI'" in crawler_for("AI2Bot").token_note  # type: ignore[operator,union-attr]
    assert crawler_for("bigsur.ai").token == "bigsur"  # type: ignore[union-attr]
    assert crawler_for("Brightbot 1.0").token == "Brightbot"  # type: ignore[union-attr]
    agent = crawler_for("ChatGPT Agent")
    assert agent is not None and agent.token is None and agent.stoppable is False
    assert agent.verify.web_bot_auth == (
        "https://chatgpt.com/.well-known/http-message-signatures-directory")


def test_current_public_registries_are_covered() -> None:
    snapshot = json.loads((Path(__file__).parent / "data" /
                           "ai-robots-txt-robots-738c80d.json").read_text(encoding="utf-8"))
    names = {c.label.lower() for c in known_crawlers()}
    assert {name.lower() for name in snapshot} <= names  # every ai.robots.txt entry
    assert crawler_for("Google-Agent") is not None


def test_triggers_agree_with_categories() -> None:
    for crawler in known_crawlers():
        assert (crawler.trigger == "control-token") is ("usage-control" in crawler.categories)
        if "user-triggered" in crawler.categories:
            assert crawler.trigger == "user-triggered", crawler.label


@pytest.mark.parametrize("name, obeys, trigger", [
    ("ChatGPT-User", "no", "user-triggered"),
    ("Google-Agent", "no", "user-triggered"),
    ("Perplexity-User", "no", "user-triggered"),
    ("GPTBot", "yes", "crawler"),
    ("Googlebot", "yes", "crawler"),
    ("AdsBot-Google", "partly", "crawler"),
    ("Google-Extended", "yes", "control-token"),
    ("Applebot-Extended", "yes", "control-token"),
])
def test_operator_statements(name: str, obeys: str, trigger: str) -> None:
    crawler = crawler_for(name)
    assert crawler is not None
    assert (crawler.robots_txt.obeys, crawler.trigger) == (obeys, trigger)
    if trigger == "control-token":
        assert crawler.stoppable is False and crawler not in unstoppable()
    elif obeys == "no":
        assert crawler in unstoppable()


def test_registry_info_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    info = registry_info()
    assert info["version"] == "3" and re.fullmatch(r"\d{4}-\d{2}-\d{2}", info["compiled"])
    assert int(info["entries"]) == len(known_crawlers()) >= 199
    code, _ = run("--version")
    out = capsys.readouterr().out
    assert code == 0 and out.startswith(
        f"robotsrules {robotsrules.__version__} "
        f"({'compiled with mypyc' if robotsrules.COMPILED else 'pure Python'})\n")
    assert f"crawler registry {info['version']} (compiled {info['compiled']}" in out
    assert "draft-ietf-aipref-vocab-07" in out


BASE = {"name": "ExampleBot", "token": "ExampleBot", "operator": "Example",
        "categories": ["ai-training"], "trigger": "crawler", "purpose": "test",
        "source": "https://example.com/bot",
        "robots_txt": {"obeys": "yes", "source": "https://example.com/bot",
                       "checked": "2026-11-25"}}


@pytest.mark.parametrize("change, problem", [
    ({"token": "AI2Bot"}, "is not a product token"),
    ({"token": 7}, "is not a product token"),
    ({"name": 7}, "'name' is not a string"),
    ({"categories": []}, "'categories' is not a non-empty list"),
    ({"categories": ["robots"]}, "unknown category 'robots'"),
    ({"categories": [1]}, "a category is not a string"),
    ({"trigger": "sometimes"}, "trigger 'sometimes'"),
    ({"robots_txt": {"obeys": "maybe", "checked": "2026-11-25"}}, "'obeys' is not one of"),
    ({"robots_txt": {"obeys": "yes", "checked": "2026-11-25"}}, "without a 'source' URL"),
    ({"robots_txt": {"obeys": "unknown", "checked": "today"}}, "robots_txt.checked"),
    ({"robots_txt": {"obeys": "no", "source": "ftp://x", "checked": "2026-11-25"}},
     "robots_txt.source"),
    ({"robots_txt": "yes"}, "'robots_txt' is not an object"),
    ({"verify": {"ip_ranges": ["not a url"]}}, "verify.ip_ranges"),
    ({"verify": {"reverse_dns": ["a b"]}}, "verify.reverse_dns"),
    ({"verify": {"ip_ranges": "x"}}, "'verify.ip_ranges' is not a list"),
    ({"verify": []}, "'verify' is not an object"),
    ({"operator": ["x"]}, "'operator' is not a string"),
    ({"crawl_delay": {"reads": "partly", "checked": "2026-11-27"}}, "'reads' is not one of"),
    ({"crawl_delay": {"reads": "yes", "checked": "2026-11-27"}}, "without a 'source' URL"),
    ({"crawl_delay": "no"}, "'crawl_delay' is not an object"),
])
def test_bad_entries_are_named(tmp_path: Path, change: Any, problem: str) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"crawlers": [{**BASE, **change}]}), encoding="utf-8")
    with pytest.raises(RobotsError, match=re.escape(problem)) as caught:
        load_crawlers(path)
    assert "crawler 1" in str(caught.value)


@pytest.mark.parametrize("text, problem", [
    ("", "not JSON"), ("{", "not JSON"), ("[" * 100000, "not JSON"),
    ("null", "expected a list"), ('{"crawlers": {}}', "expected a list"),
    ('{"crawlers": [3]}', "not an object"),
    ('{"categories": [], "crawlers": []}', "'categories' is not an object"),
    ('{"categories": {"Bad Name": {"description": "x"}}, "crawlers": []}', "categories"),
    ('{"categories": {"a": {"description": "x", "aliases": ["a"]}}, "crawlers": []}',
     "also a category"),
    ('{"version": "3", "crawlers": []}', "wrong type"),
])
def test_hostile_registry_text(text: str, problem: str) -> None:
    with pytest.raises(RobotsError, match=re.escape(problem)):
        load_registry(text, "x.json", registry())


def test_oversized_and_undecodable_files(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * ((16 << 20) + 2))
    with pytest.raises(RobotsError, match="larger than 16 MiB"):
        load_crawlers(big)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"token": "caf\xe9"}]')
    with pytest.raises(RobotsError, match="not UTF-8"):
        load_crawlers(latin)
    with pytest.raises(RobotsError, match="cannot read"):
        load_crawlers(tmp_path / "missing.json")


def test_a_registry_file_from_the_command_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    body = tmp_path / "robots.txt"
    body.write_bytes(b"User-agent: ExampleBot\nDisallow: /\n")
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"crawlers": [BASE]}), encoding="utf-8")
    code, out = run("agents", str(body), "--crawlers", str(mine), "--crawlers-replace")
    assert code == 0 and "ExampleBot             disallowed" in out
    mine.write_text(json.dumps({"crawlers": [{**BASE, "token": "Example Bot"}]}))
    code, out = run("agents", str(body), "--crawlers", str(mine))
    assert code == 2 and out == ""
    err = capsys.readouterr().err
    assert "crawler 1 ('ExampleBot'): token 'Example Bot' is not a product token" in err
    assert "Traceback" not in err


def test_the_older_table_shape_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps([{"token": "OldBot", "operator": "x", "category": "training",
                                 "purpose": "p", "source": "https://x.example"}]))
    crawler = load_crawlers(path)[0]
    assert (crawler.label, crawler.token, crawler.categories, crawler.trigger) == (
        "OldBot", "OldBot", ("ai-training",), "crawler")
    assert crawler.robots_txt.obeys == "unknown" and crawler.stoppable is None


def test_who_reads_crawl_delay() -> None:
    """Issue 37: Google's crawlers do not read Crawl-delay (Google's note of 2019), Bingbot
    does (Bing's Crawl Control help); the rest is unknown until a source is read."""
    table = registry().crawlers
    google = [c for c in table if c.operator == "Google"]
    assert google and all(c.reads_crawl_delay == "no" for c in google)
    assert all(c.crawl_delay.source and c.crawl_delay.checked for c in google)
    [bing] = [c for c in table if c.label == "Bingbot"]
    assert bing.reads_crawl_delay == "yes" and bing.crawl_delay.source
    others = [c for c in table if c.operator != "Google" and c.label != "Bingbot"]
    assert {c.reads_crawl_delay for c in others} == {"unknown"}
