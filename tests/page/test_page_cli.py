"""``robotsrules page``: a URL on a loopback server, a saved response, an HTML file."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules.cli import main
from robotsrules.cli._page import read_response
from tests.network.servers import Exchange, RawHTTPServer, head, redirect

PAGE = (b'<html><head><meta name="GPTBot" content="nofollow">'
        b'<meta name="robots" content="max-snippet:20"></head><body>hi</body></html>')


def _serve(exchange: Exchange) -> None:
    exchange.send(head(200, [("Content-Type", "text/html"),
                             ("X-Robots-Tag", "googlebot: noindex"),
                             ("X-Robots-Tag", "noai"),
                             ("Content-Length", str(len(PAGE)))]) + PAGE)


def test_page_url_text_output_names_what_decides() -> None:
    with RawHTTPServer({"/start": redirect("/page"), "/page": _serve}) as server:
        out = io.StringIO()
        assert main(["page", server.url("/start"), "--agent", "GPTBot"], out=out) == 0
        request = next(r for r in server.requests if r.path == "/page")
    text = out.getvalue()
    assert request.path == "/page" and "GPTBot (robotsrules/" in request.headers["user-agent"]
    assert "[googlebot]: noindex  [other crawler]" in text
    assert "follow: no  <- meta GPTBot (line 1) [gptbot]: nofollow" in text
    assert "index: yes" in text
    assert "ai-train: refused  <- header X-Robots-Tag (header #2): noai" in text
    assert "search: nothing stated" in text


def test_page_saved_response_json(tmp_path: Path) -> None:
    saved = tmp_path / "response.http"
    saved.write_bytes(b"HTTP/1.1 301 Moved\r\nLocation: /x\r\n\r\n"
                      b"HTTP/1.1 200 OK\r\nX-Robots-Tag: googlebot: noindex\r\n"
                      b"tdm-reservation: 1\r\n\r\n" + PAGE)
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "Googlebot", "--json",
                 "--purpose", "search", "--purpose", "train-ai"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["index"] is False and data["follow"] is True and data["max_snippet"] == 20
    assert data["decided_by"]["index"]["rule"] == "noindex"
    assert data["purposes"]["search"]["allowed"] is False
    assert data["purposes"]["train-ai"] == {
        "allowed": False, "decided_by": data["purposes"]["train-ai"]["decided_by"]}
    assert data["purposes"]["train-ai"]["decided_by"]["rule"] == "tdm-reservation"


def test_page_html_file_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "page.html"
    html.write_bytes(PAGE)
    out = io.StringIO()
    assert main(["page", str(html), "--agent", "Other"], out=out) == 0
    assert "max_snippet: 20" in out.getvalue()
    assert main(["page", str(tmp_path / "missing.html"), "--agent", "x"], out=out) == 2
    assert main(["page", str(html), "--agent", "x", "--purpose", "ai_train"], out=out) == 2
    assert "unknown purpose" in capsys.readouterr().err
    assert main(["page", "http://127.0.0.1:9/", "--agent", "x", "--timeout", "2"],
                out=out) == 2


def test_read_response_without_status_line_is_a_body() -> None:
    assert read_response(b"<html>") == ([], b"<html>")
    assert read_response(b"HTTP/1.1 200 OK\nA: b") == ([("A", "b")], b"")


def test_page_with_the_sites_robots_txt(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\nContent-Signal: search=yes, ai-train=yes\n"
                       b"Disallow: /private\n")
    html = tmp_path / "page.html"
    html.write_bytes(PAGE)  # GPTBot: nofollow; max-snippet
    out = io.StringIO()
    assert main(["page", str(html), "--agent", "GPTBot", "--robots", str(robots)], out=out) == 0
    text = out.getvalue()
    assert "with the site's robots.txt (crawl allowed):" in text
    assert "search: allowed by robots.txt line 2: content-signal: search=yes" in text
    out = io.StringIO()
    assert main(["page", str(html), "--agent", "GPTBot", "--robots", str(robots), "--url",
                 "https://example.com/private/x", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["crawl_allowed"] is False  # the preferences do not apply where crawling is not
    # Issue 33's decision: an agent robots.txt does not allow to fetch the URL is refused
    # every purpose, whatever the site's usage lines (or the page) say.
    assert data["combined"]["search"] == {
        "allowed": False, "level": "robots.txt",
        "why": "refused by robots.txt: the agent may not fetch this URL"}
    with RawHTTPServer({"/robots.txt": _robots_file(robots.read_bytes()),
                        "/page": _serve}) as server:
        out = io.StringIO()
        assert main(["page", server.url("/page"), "--agent", "GPTBot", "--robots",
                     server.url("/page")], out=out) == 0
    assert "ai-train: refused by page: header X-Robots-Tag (header #2): noai" in out.getvalue()


def _robots_file(body: bytes) -> Any:
    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/plain"),
                                 ("Content-Length", str(len(body)))]) + body)
    return scenario


def test_page_with_robots_shows_the_combined_answers_as_its_purposes(tmp_path: Path) -> None:
    # Issue 33 review: with --robots, "purposes" is the combined answer; a page saying
    # ai-train=yes on a URL the agent may not fetch is not "allowed" there.
    from robotsrules.cli import main

    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: ExampleBot\nDisallow: /\n")
    saved = tmp_path / "page.http"
    saved.write_bytes(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                      b"Content-Signal: ai-train=yes\r\n\r\n<html><head></head><body>x")
    base = ["page", str(saved), "--agent", "ExampleBot", "--robots", str(robots),
            "--purpose", "ai-train", "--url", "https://example.com/x"]
    out = io.StringIO()
    assert main(base, out=out) == 0
    text = out.getvalue()
    assert "\npurposes:\n" not in text
    assert "the page alone (without robots.txt):\n  ai-train: allowed" in text
    assert ("purposes, with the site's robots.txt (crawl disallowed):\n"
            "  ai-train: refused by robots.txt: the agent may not fetch this URL") in text
    out = io.StringIO()
    assert main([*base, "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["crawl_allowed"] is False
    assert data["purposes"]["ai-train"] == {
        "allowed": False, "level": "robots.txt", "decided_by": None,
        "why": "refused by robots.txt: the agent may not fetch this URL"}
    assert data["page_purposes"]["ai-train"]["allowed"] is True
    assert data["combined"]["ai-train"]["allowed"] is False
    out = io.StringIO()  # without --robots: the page's own answers, as before
    assert main(base[:4] + base[6:] + ["--json"], out=out) == 0
    alone = json.loads(out.getvalue())
    assert alone["purposes"]["ai-train"]["allowed"] is True and "page_purposes" not in alone


def test_page_whose_headers_run_past_their_bound_is_not_known(tmp_path: Path) -> None:
    # Issue 33 review: headers over 1 MiB leave no body read; the answer is "not known",
    # never "nothing stated" (the page's meta says noai).
    from robotsrules.cli import main

    saved = tmp_path / "big.http"
    saved.write_bytes(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Pad: "
                      + b"a" * (1 << 20) + b"\r\n\r\n<html><head>"
                      b"<meta name=robots content=noai></head><body>x")
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--purpose", "ai-train", "--json"],
                out=out) == 0
    data = json.loads(out.getvalue())
    assert data["head_cut"] is True and data["purposes"]["ai-train"]["allowed"] is None
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--purpose", "ai-train"],
                out=out) == 0
    assert "ai-train: not known (head cut)" in out.getvalue()


def test_page_url_reads_the_sites_tdmrep_file() -> None:
    # Issue 33 review: the help promised TDMRep, but a URL's site file was never fetched.
    from robotsrules._page import TDMREP_PATH
    from tests.network.servers import respond

    site = b'[{"location": "/open/", "tdm-reservation": 0}, {"location": "/", "tdm-reservation": 1}]'
    with RawHTTPServer({"/page": _serve, "/open/page": _serve,
                        TDMREP_PATH: respond(200, site)}) as server, \
            RawHTTPServer({"/page": _serve, TDMREP_PATH: respond(200, b"[{,]")}) as broken:
        answers = {}
        for name, url in (("reserved", server.url("/page")), ("open", server.url("/open/page")),
                          ("broken", broken.url("/page"))):
            out = io.StringIO()
            assert main(["page", url, "--agent", "CCBot", "--json"], out=out) == 0
            data = json.loads(out.getvalue())
            answers[name] = (data["tdm_reservation"], data["tdm_invalid"])
        assert server.count(TDMREP_PATH) == 2 and broken.count(TDMREP_PATH) == 1
    assert answers == {"reserved": (1, False), "open": (0, False), "broken": (1, True)}
