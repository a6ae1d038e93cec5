"""robotsrules.scrapy's page-signal middlewares in a real Scrapy crawl against loopback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("scrapy", reason="Scrapy is not installed: install the 'test' extra")

from tests.network.servers import Exchange, RawHTTPServer, head, respond
from tests.timing import HANG

SCRIPT = os.path.join(os.path.dirname(__file__), "page_crawl_script.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _html(status: int, body: str, *headers: tuple[str, str]) -> Any:
    data = body.encode()

    def scenario(exchange: Exchange) -> None:
        exchange.send(head(status, [("Content-Type", "text/html; charset=utf-8"), *headers,
                                    ("Content-Length", str(len(data)))]) + data)

    return scenario


SITE = {
    "/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"
                                b"Content-Usage: /site-says-no/ train-ai=n\n"),
    # The start page links to everything; its meta says nofollow for ExampleBot only.
    "/": _html(200, '<html><head><meta name="ExampleBot" content="nofollow"></head>'
                    '<body><a href="/a">a</a><a href="/noai">n</a></body></html>'),
    "/hub": _html(200, '<html><head></head><body><a href="/a">a</a><a href="/noai">n</a>'
                       '<a href="/tdm">t</a><a href="/site-says-no/x">s</a></body></html>'),
    "/site-says-no/x": _html(200, "<html></html>"),
    "/a": _html(200, "<html><body>a</body></html>", ("X-Robots-Tag", "noindex")),
    "/noai": _html(200, '<html><head><meta name="robots" content="noai"></head></html>'),
    "/tdm": _html(200, "<html></html>", ("tdm-reservation", "1")),
}


def _crawl(settings: dict[str, Any], urls: list[str], priority: int = 950) -> dict[str, Any]:
    base = {"ROBOTSTXT_OBEY": True, "USER_AGENT": "ExampleBot/1.0", "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False, "DOWNLOAD_TIMEOUT": 10, "RETRY_TIMES": 0,
            "DOWNLOADER_MIDDLEWARES": {
                "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
                "robotsrules.scrapy.RobotsTxtMiddleware": 100,
                "robotsrules.scrapy.PageSignalsMiddleware": priority},
            "SPIDER_MIDDLEWARES": {"robotsrules.scrapy.NofollowMiddleware": 100}}
    base.update(settings)
    done = subprocess.run([sys.executable, SCRIPT, json.dumps(base), json.dumps(urls)],
                          capture_output=True, text=True, timeout=2 * HANG, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_scrapy_page_signals_attached_purposes_dropped_nofollow_respected() -> None:
    with RawHTTPServer(SITE) as server:
        stats = _crawl({"ROBOTSRULES_PURPOSES": ["ai-train"]},
                       [server.url("/"), server.url("/hub")])
        requested = sorted(p for p in server.paths if p != "/robots.txt")
    # "/" says nofollow to ExampleBot: its two links are not requested from there; /hub's
    # links are, and /noai and /tdm then refuse ai-train and never reach the spider.
    assert stats["robotsrules/page/nofollow_dropped"] == 2
    assert requested == ["/", "/a", "/hub", "/noai", "/site-says-no/x", "/tdm"]
    seen = [url.rsplit("/", 1)[1] for url in stats["seen"]]
    assert sorted(seen) == ["", "a", "hub"]
    assert stats["robotsrules/page/refused/ai-train/noai"] == 1
    assert stats["robotsrules/page/refused/ai-train/tdm-reservation"] == 1
    assert stats["robotsrules/page/refused/ai-train/robots.txt"] == 1  # Content-Usage line
    assert stats["robotsrules/page/responses"] == 6
    signals = {url.rsplit("/", 1)[1]: value for url, value in stats["signals"].items()}
    assert signals[""] == {"index": True, "follow": False, "ai-train": None}
    assert signals["a"] == {"index": False, "follow": True, "ai-train": None}


def test_scrapy_admits_every_body_form_by_the_one_rule() -> None:
    # Issue 33: an untyped HTML response saying noai is refused like a typed one; text/plain
    # and octet-stream bodies are not HTML (tests/page/test_header_matrix.py's BODY_FORMS).
    from tests.page.test_header_matrix import BODY_FORMS, _form_pairs

    names = sorted(BODY_FORMS)

    def send(name: str) -> Any:
        body = BODY_FORMS[name][1]

        def scenario(exchange: Exchange) -> None:
            exchange.send(head(200, [*_form_pairs(name), ("Content-Length", str(len(body)))])
                          + body)
        return scenario

    site = {"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n")}
    site.update({f"/form/{number}": send(name) for number, name in enumerate(names)})
    with RawHTTPServer(site) as server:
        stats = _crawl({"ROBOTSRULES_PURPOSES": ["ai-train"]},
                       [server.url(f"/form/{number}") for number in range(len(names))])
    seen = {int(url.rsplit("/", 1)[1]) for url in stats["seen"]}
    refused = [number not in seen for number in range(len(names))]
    assert refused == [BODY_FORMS[name][2] is False for name in names]
    assert stats["robotsrules/page/refused/ai-train/noai"] == sum(refused)


NOAI_PAGE = b'<html><head><meta name="robots" content="noai"></head><body>x</body></html>'


def _coded(coding: str, data: bytes) -> Any:
    def scenario(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", "text/html"), ("Content-Encoding", coding),
                                 ("Content-Length", str(len(data)))]) + data)
    return scenario


@pytest.mark.parametrize("priority", [950, 580])
def test_scrapy_reads_compressed_pages_at_any_priority(priority: int) -> None:
    # Issue 33 review: at 950 the middleware's process_response runs before Scrapy's
    # HttpCompressionMiddleware (590) decompresses the body; at 580 (the documented
    # PAGE_SIGNALS_PRIORITY) after. Either way a compressed page saying noai is refused, and
    # a body whose coding cannot be decoded is "not known" (head_cut), not "nothing stated".
    import gzip
    import zlib

    from robotsrules.scrapy import PAGE_SIGNALS_PRIORITY

    assert PAGE_SIGNALS_PRIORITY < 590
    big = NOAI_PAGE.replace(b"<body>", b"<body>" + b" " * (2 << 20))  # 2 MiB decoded
    site = {"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
            "/gzip": _coded("gzip", gzip.compress(NOAI_PAGE)),
            "/deflate": _coded("deflate", zlib.compress(NOAI_PAGE)),
            "/big": _coded("gzip", gzip.compress(big)),
            "/plain": _html(200, "<html><head></head><body>x</body></html>"),
            "/odd": _coded("x-unheard-of", NOAI_PAGE.replace(b"noai", b"none"))}
    with RawHTTPServer(site) as server:
        stats = _crawl({"ROBOTSRULES_PURPOSES": ["ai-train"]},
                       [server.url(p) for p in ("/gzip", "/deflate", "/big", "/plain", "/odd")],
                       priority)
    assert stats["robotsrules/page/refused/ai-train/noai"] == 3
    seen = {url.rsplit("/", 1)[1]: stats["signals"][url] for url in stats["seen"]}
    assert sorted(seen) == ["odd", "plain"]
    assert seen["plain"] == {"index": True, "follow": True, "ai-train": None}
    # Scrapy cannot decode it either and leaves its Content-Encoding: not known.
    assert seen["odd"] == {"index": True, "follow": True, "ai-train": None, "head_cut": True}
