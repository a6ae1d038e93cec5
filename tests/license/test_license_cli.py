"""The command line: ``license`` (files, URLs, robots.txt followed) and ``lint --fetch``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules.cli import main
from tests.network.servers import ServerPool, respond
from tests.timing import HANG

FIXTURES = Path(__file__).parent / "fixtures"
ARTICLES = str(FIXTURES / "articles.xml")
XML = {"Content-Type": "application/rsl+xml"}
PROHIBIT = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
            b'<prohibits type="usage">ai-train</prohibits></license></content></rsl>')


def run(*argv: str) -> tuple[int, str]:
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


def test_a_robots_txt_url_is_followed_every_line_for_every_agent(servers: ServerPool) -> None:
    # Issue 33's decision: a License line is global wherever it stands, so GPTBot is bound
    # by the site-wide prohibition too, and CCBot by the licence in GPTBot's group.
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, (
            f"License: {site.url('/all.xml')}\nUser-agent: GPTBot\nDisallow: /private\n"
            f"License: {site.url('/gpt.xml')}\n").encode()),
        "/all.xml": respond(200, PROHIBIT, XML),
        "/gpt.xml": respond(200, b'<rsl xmlns="https://rslstandard.org/rsl">'
                            b'<content url="/"><license/></content></rsl>', XML),
    }
    for agent in ("GPTBot", "CCBot", "*"):
        code, out = run("license", site.url("/robots.txt"), "--agent", agent,
                        site.url("/a"), "--purpose", "ai-train")
        assert code == 1, agent
        assert f"licence {site.url('/all.xml')}: ok, HTTP 200" in out
        assert f"licence {site.url('/gpt.xml')}: ok, HTTP 200" in out
        assert "  ai-train  prohibited" in out


def test_a_group_line_alone_binds_every_agent(servers: ServerPool) -> None:
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, (f"User-agent: GPTBot\nDisallow:\n"
                                     f"License: {site.url('/l.xml')}\n").encode()),
        "/l.xml": respond(200, PROHIBIT, XML),
    }
    code, out = run("license", site.url("/robots.txt"), "--agent", "CCBot", site.url("/a"),
                    "--purpose", "ai-train")
    assert code == 1 and "  ai-train  prohibited" in out


def test_a_site_url_means_its_robots_txt(servers: ServerPool) -> None:
    # issue 33 §4: the front page is no licence document (it read "unknown", HTTP 404)
    site = servers.http()
    site.handler = {
        "/robots.txt": respond(200, f"License: {site.url('/l.xml')}\n".encode()),
        "/l.xml": respond(200, PROHIBIT, XML),
    }
    for source in (site.url("/"), site.url("/").rstrip("/")):
        code, out = run("license", source, site.url("/a"), "--purpose", "ai-train")
        assert code == 1, source
        assert out.splitlines()[0] == f"robots.txt {site.url('/robots.txt')} (ok)"
        assert "  ai-train  prohibited" in out
    assert [path for path in site.paths if path != "/robots.txt"] == ["/l.xml", "/l.xml"]


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


# -- issue 33 §2 through the command line ---------------------------------------------------------

TRAP = (b'<rsl:rsl xmlns:rsl="https://rslstandard.org/rsl"><rsl:content url="/"><rsl:license>'
        b'<prohibits type="usage">ai-train</prohibits></rsl:license></rsl:content></rsl:rsl>')
TWO_PAYMENTS = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
                b'<payment type="crawl"><amount currency="USD">1</amount></payment>'
                b'<payment type="free"/></license></content></rsl>')
GEO_US = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
          b'<prohibits type="geo">US</prohibits></license></content></rsl>')


OUT_OF_PLACE = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><prohibits '
                b'type="usage">ai-train</prohibits><license/></content></rsl>')
TYPE_IN_CASE = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
                b'<payment Type="crawl"/></license></content></rsl>')


@pytest.mark.parametrize("body, words", [(TRAP, "refused rather than skipped"),
                                         (TWO_PAYMENTS, "a second <payment>"),
                                         (OUT_OF_PLACE, "does not belong in <content>"),
                                         (TYPE_IN_CASE, "case-sensitive")])
def test_a_refused_document_is_unknown_and_exit_2(tmp_path: Path, servers: ServerPool,
                                                  body: bytes, words: str) -> None:
    path = tmp_path / "l.xml"
    path.write_bytes(body)
    site = servers.http(respond(200, body, XML))
    for source in (str(path), site.url("/l.xml")):
        code, out = run("license", source, "/a", "--purpose", "ai-train", "--purpose",
                        "search")
        assert code == 2, source
        assert words in out and "-> every answer is unknown" in out
        assert "  ai-train  unknown" in out and "permitted" not in out


def test_geo_is_compared_case_insensitively(tmp_path: Path) -> None:
    path = tmp_path / "l.xml"
    path.write_bytes(GEO_US)
    for geo in ("us", "US", "Us"):
        code, out = run("license", str(path), "/a", "--purpose", "ai-train", "--geo", geo)
        assert code == 1 and "  ai-train  prohibited" in out, geo
    assert run("license", str(path), "/a", "--purpose", "ai-train", "--geo", "fr")[0] == 0


@pytest.mark.parametrize("option, value, words", [
    ("--geo", "Usa", "unknown region 'Usa'"), ("--geo", "UK", "unknown region 'UK'"),
    ("--user", "bogus", "unknown user class 'bogus'"),
])
def test_an_unknown_class_or_region_is_exit_2_in_one_line(
        capsys: pytest.CaptureFixture[str], servers: ServerPool, option: str, value: str,
        words: str) -> None:
    site = servers.http(respond(200, GEO_US, XML))
    assert run("license", ARTICLES, "/a", option, value)[0] == 2
    assert run("license", site.url("/l.xml"), "/a", option, value)[0] == 2
    assert site.paths == []  # refused before any fetch
    err = capsys.readouterr().err
    assert err.count(words) == 2 and len(err.splitlines()) == 2


def test_a_path_against_full_url_contents_asks_for_origin(
        capsys: pytest.CaptureFixture[str]) -> None:
    full = str(FIXTURES / "full-urls.xml")
    code, out = run("license", full, "/news/a.html", "--purpose", "ai-input")
    assert code == 2 and "unstated" not in out
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--origin" in err[0] and "/news/a.html" in err[0]
    code, out = run("license", full, "/news/a.html", "--purpose", "ai-input", "--origin",
                    "https://example.com/")
    assert code == 1 and "  ai-input  prohibited" in out
    # a full URL needs no origin
    assert run("license", full, "https://example.com/news/a.html", "--purpose",
               "ai-input")[0] == 1


def test_an_unreachable_robots_txt_is_unknown_and_exit_2(servers: ServerPool,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """A site whose robots.txt answers 503 (no earlier copy): its License lines cannot be
    known, so the answer is unknown and the exit 2, not "no License line" and exit 0."""
    site = servers.http(respond(503))
    for source in (site.url("/"), site.url("/robots.txt")):
        code, out = run("license", source, site.url("/a"), "--purpose", "ai-train",
                        "--timeout", "2")
        assert code == 2, out
        assert "no License line" not in out
        assert "  ai-train  unknown     licence document unreachable: robots.txt is " \
               "unreachable (HTTP 503)" in out
        assert "could not be fetched or read" in capsys.readouterr().err


@pytest.mark.parametrize("data", [
    b"\n" * 600 + PROHIBIT,
    b" \t\r\n" * 200 + PROHIBIT,
    b"\xef\xbb\xbf" + b"\n" * 600 + PROHIBIT,
    PROHIBIT.decode().encode("utf-16-be"),
    ("\n" * 300 + PROHIBIT.decode()).encode("utf-16-le"),
])
def test_a_licence_file_is_known_past_white_space_and_without_a_mark(tmp_path: Path,
                                                                     data: bytes) -> None:
    """Sniffed as XML, not read as a robots.txt with no License line (exit 0 unstated)."""
    path = tmp_path / "licence"
    path.write_bytes(data)
    code, out = run("license", str(path), "/a", "--purpose", "ai-train", "--color", "never")
    assert code == 1, out
    assert out.startswith(f"licence {path}\n")
    assert "  ai-train  prohibited" in out
