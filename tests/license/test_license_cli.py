"""The command line: ``license`` (files, URLs, robots.txt followed) and ``lint --fetch``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Iterator, Tuple

import pytest

from robotsrules.cli import main
from tests.network.servers import ServerPool, respond
from tests.timing import HANG

FIXTURES = Path(__file__).parent / "fixtures"
ARTICLES = str(FIXTURES / "articles.xml")
XML = {"Content-Type": "application/rsl+xml"}
PROHIBIT = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
            b'<prohibits type="usage">ai-train</prohibits></license></content></rsl>')


def run(*argv: str) -> Tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


def test_a_file_without_urls_lists_its_contents() -> None:
    code, out = run("license", ARTICLES)
    assert code == 0
    assert out.splitlines() == [
        f"licence {ARTICLES}",
        "  licence (file): ok, 2 content, max-age 30 days",
        '    content url="/" (line 5)',
        "      licence 1: permits usage all",
        '    content url="/articles/" (line 10)',
        "      licence 1: prohibits usage ai-train",
    ]


def test_answers_per_url_and_exit_1_when_a_use_is_prohibited() -> None:
    code, out = run("license", ARTICLES, "/about", "--purpose", "ai-train", "--color", "never")
    assert code == 0
    assert "  ai-train  permitted   content url=\"/\" (line 5)" in out
    code, out = run("license", ARTICLES, "--purpose", "train-ai", "/articles/x", "/about",
                    "--purpose", "search")
    assert code == 1
    assert ("  train-ai  prohibited  content url=\"/articles/\" (line 10): licence 1 "
            "prohibits usage ai-train") in out.splitlines()


def test_offered_on_terms_is_exit_1() -> None:
    code, out = run("license", str(FIXTURES / "pay-per-crawl.xml"), "/x", "--purpose",
                    "search")
    assert code == 1 and "licensed    content url=\"/\" (line 5): licence 1 on terms: " \
                          "payment crawl 0.015 USD" in out


def test_user_and_geo_options() -> None:
    restricted = str(FIXTURES / "restricted.xml")
    assert run("license", restricted, "/", "--purpose", "ai-input")[0] == 1
    assert run("license", restricted, "/", "--purpose", "ai-input", "--user", "education",
               "--geo", "US")[0] == 0


def test_json() -> None:
    code, out = run("license", "--json", ARTICLES, "/articles/x", "--purpose", "ai-train")
    report = json.loads(out)
    assert code == 1
    assert report["documents"][0]["contents"][1]["licenses"][0]["prohibits"] == {
        "usage": ["ai-train"]}
    answer = report["urls"][0]["answers"]["ai-train"]
    assert answer["status"] == "prohibited" and answer["allowed"] is False


def test_a_robots_txt_url_is_followed_for_the_agent(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, (
            f"License: {site.url('/all.xml')}\nUser-agent: GPTBot\nDisallow: /private\n"
            f"License: {site.url('/gpt.xml')}\n").encode()),
        "/all.xml": respond(200, PROHIBIT, XML),
        "/gpt.xml": respond(200, b'<rsl xmlns="https://rslstandard.org/rsl">'
                            b'<content url="/"><license/></content></rsl>', XML),
    }
    code, out = run("license", site.url(), site.url("/a"), "--purpose", "ai-train")
    assert code == 1 and f"licence {site.url('/all.xml')}: ok, HTTP 200" in out
    code, out = run("license", site.url(), "--agent", "GPTBot", site.url("/a"),
                    "--purpose", "ai-train")
    assert code == 0 and "gpt.xml" in out and "all.xml" not in out


def test_a_licence_url_and_control_characters_are_shown_escaped(servers: ServerPool) -> None:
    # XML 1.0 allows C1 controls (U+009B is CSI) and bidirectional overrides in text.
    evil = ('<rsl xmlns="https://rslstandard.org/rsl"><content url="/\u009b2J\u202e">'
            '<license/></content></rsl>').encode()
    site = servers.http(respond(200, evil, XML))
    code, out = run("license", site.url("/l.xml"))
    assert code == 0
    assert "\u009b" not in out and "\u202e" not in out
    assert 'content url="/\\x9b2J\\u202e"' in out


def test_an_unreachable_licence_is_unknown_and_exit_2(servers: ServerPool,
                                                      tmp_path: Path) -> None:
    site = servers.http(respond(503))
    robots = tmp_path / "robots.txt"
    robots.write_bytes(f"License: {site.url('/l.xml')}\nUser-agent: *\nDisallow:\n".encode())
    code, out = run("license", str(robots), "/x", "--purpose", "ai-train", "--timeout", "2")
    assert code == 2
    assert "unreachable, HTTP 503: HTTP 503 -> every answer is unknown" in out
    assert "  ai-train  unknown     licence document unreachable: HTTP 503" in out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("license", ARTICLES, "/", "--purpose", "ai_train")[0] == 2
    assert run("license", ARTICLES + ".missing")[0] == 2
    assert run("license", ARTICLES, "relative/path")[0] == 2
    assert run("license", ARTICLES, "--agent", "not a token")[0] == 2
    err = capsys.readouterr().err
    assert "unknown purpose 'ai_train'" in err and "robotsrules: error:" in err


def test_an_invalid_document_from_stdin_is_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "robotsrules", "license", "-", "/x"],
        input=b'<!DOCTYPE rsl [<!ENTITY a "aaaa">]><rsl/>', capture_output=True, timeout=HANG)
    assert proc.returncode == 2
    assert b"document type declaration (<!DOCTYPE rsl>) is refused" in proc.stdout
    assert b"Traceback" not in proc.stderr


# -- lint --fetch --------------------------------------------------------------------------------

def test_lint_fetch_reports_unreachable_invalid_and_other_origin(servers: ServerPool) -> None:
    site = servers.http()
    other = servers.http(respond(200, (
        b'<rsl xmlns="https://rslstandard.org/rsl"><content url="http://elsewhere.example/">'
        b'<license/></content><content url="/"><license/></content></rsl>'), XML))
    site.handler = {
        "/robots.txt": respond(200, (
            f"License: {site.url('/gone.xml')}\n"
            f"License: {site.url('/bad.xml')}\n"
            f"License: {other.url('/l.xml')}\n"
            "License: /relative.xml\n"
            "User-agent: *\nDisallow:\n").encode()),
        "/gone.xml": respond(404),
        "/bad.xml": respond(200, b"<html></html>"),
    }
    code, out = run("lint", "--fetch", "--format", "json", site.url())
    found = [(d["code"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]]
    assert found == [("R702", 1, 10), ("R703", 2, 10), ("R704", 3, 10), ("R701", 4, 10)]
    assert code == 1  # R703 is an error
    # Without --fetch nothing is fetched and only R701 is found.
    before = len(site.requests) + len(other.requests)
    code, out = run("lint", "--format", "json", site.url())
    assert [d["code"] for d in json.loads(out)["diagnostics"]] == ["R701"]
    assert len(site.requests) + len(other.requests) == before + 1  # the robots.txt only


def test_lint_fetch_quiet_when_the_licence_is_fine(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, f"License: {site.url('/l.xml')}\nUser-agent: *\n"
                                    "Disallow:\n".encode()),
        "/l.xml": respond(200, PROHIBIT, XML),
    }
    code, out = run("lint", "--fetch", site.url())
    assert code == 0 and "no problems" in out
