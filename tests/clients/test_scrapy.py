"""robotsrules.scrapy: real Scrapy crawls (a spider in a subprocess) against loopback sites.

The server logs (:class:`tests.network.servers.RawHTTPServer` records every request with
its time) are the proof: disallowed pages are never requested, allowed ones are, a failing
robots.txt stops the crawl of its site (where Scrapy's own middleware crawls everything),
crawl-delay spaces the requests, and a shared SQLite store spares the next run the fetch.
Plus the parser backend (``ROBOTSTXT_PARSER``) in process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("scrapy", reason="Scrapy is not installed: install the 'test' extra")

from robotsrules.scrapy import RobotParser
from tests.network.servers import RawHTTPServer, ServerPool, redirect, respond
from tests.timing import HANG

SCRIPT = os.path.join(os.path.dirname(__file__), "crawl_script.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"
PAGE = respond(200, b"<html><body>ok</body></html>", content_type="text/html")
RULES = (b"User-agent: *\nDisallow: /\n\n"
         b"User-agent: ExampleBot\nDisallow: /private/\nAllow: /private/press/\n"
         b"Crawl-delay: 0.5\n")
OURS = {"scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotsrules.scrapy.RobotsTxtMiddleware": 100}


def _settings(**more: Any) -> dict[str, Any]:
    settings = {
        "ROBOTSTXT_OBEY": True,
        "USER_AGENT": HEADER,
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS": 8,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "RETRY_TIMES": 1,
        "DOWNLOAD_TIMEOUT": 10,
    }
    settings.update(more)
    return settings


def _crawl(settings: dict[str, Any], urls: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, SCRIPT, json.dumps(settings), json.dumps(urls)],
        capture_output=True, text=True, timeout=2 * HANG, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines, f"no stats printed; stderr:\n{done.stderr[-3000:]}"
    stats: dict[str, Any] = json.loads(lines[-1])
    stats["stderr"] = done.stderr
    return stats


def _pages(server: RawHTTPServer) -> list[str]:
    return [path for path in server.paths if not path.endswith(".txt")]


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, RawHTTPServer]]:
    with ServerPool() as pool:
        # Web Bot Auth (issue 38): a -> b signed on both; c -> d with d not a signing origin.
        to = {name: pool.http({"/robots.txt": respond(200, b"User-agent: *\nAllow: /\n"),
                               "/page": PAGE}) for name in ("signed_b", "refused_d")}
        signed = {name: pool.http({path: redirect(to[target].url(path), 302)
                                   for path in ("/robots.txt", "/page")})
                  for name, target in (("signed_a", "signed_b"), ("signed_c", "refused_d"))}
        yield {**to, **signed,
            # robots.txt redirected to the real file; ExampleBot has its own group.
            "rules": pool.http({"/robots.txt": redirect("/rules.txt"),
                                "/rules.txt": respond(200, RULES),
                                **{p: PAGE for p in ("/", "/a", "/b", "/private/x",
                                                     "/private/y", "/private/press/z")}}),
            "missing": pool.http({"/robots.txt": respond(404, b"no"),
                                  "/": PAGE, "/private/x": PAGE}),
            "down": pool.http({"/robots.txt": respond(503, b"Service Unavailable\n"),
                               "/": PAGE, "/a": PAGE, "/b": PAGE}),
            "down_scrapy": pool.http({"/robots.txt": respond(503, b"Service Unavailable\n"),
                                      "/": PAGE, "/a": PAGE, "/b": PAGE}),
        }


@pytest.fixture(scope="module")
def crawls(sites: dict[str, RawHTTPServer], tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, Any]:
    """Every crawl of this module, run once: the first alone, the next three in parallel."""
    store = f"sqlite:///{tmp_path_factory.mktemp('store')}/robots.sqlite3"
    rules, missing = sites["rules"], sites["missing"]
    main_urls = [rules.url(p) for p in ("/", "/a", "/b", "/private/x", "/private/y",
                                         "/private/press/z")]
    main_urls += [missing.url("/"), missing.url("/private/x")]
    out: dict[str, Any] = {}
    out["main"] = _crawl(_settings(DOWNLOADER_MIDDLEWARES=OURS, ROBOTSRULES_STORE=store),
                         main_urls)
    out["main_log"] = {name: list(server.requests) for name, server in sites.items()}
    down, down_scrapy = sites["down"], sites["down_scrapy"]
    jobs = {
        "down": (_settings(DOWNLOADER_MIDDLEWARES=OURS), [down.url(p) for p in ("/", "/a", "/b")]),
        "down_scrapy": (_settings(), [down_scrapy.url(p) for p in ("/", "/a", "/b")]),
        "again": (_settings(DOWNLOADER_MIDDLEWARES=OURS, ROBOTSRULES_STORE=store,
                            ROBOTSRULES_CRAWL_DELAY=False), main_urls),
        "signed": _signed_crawl(sites, tmp_path_factory),
    }
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = {name: pool.submit(_crawl, *job) for name, job in jobs.items()}
        out.update({name: future.result() for name, future in futures.items()})
    out["signed_key"] = jobs["signed"][0]["ROBOTSRULES_SIGNING_KEY"]
    return out


SIGNATURE_AGENT = "https://bot.example"


def _signed_crawl(sites: dict[str, RawHTTPServer], tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[dict[str, Any], list[str]]:
    """The signing crawl's settings (a key written mode 0600) and URLs."""
    from robotsrules._identity._httpsig import SigningKey

    path = tmp_path_factory.mktemp("key") / "signing-key.pem"
    SigningKey.generate().write(path)
    settings = _settings(
        DOWNLOADER_MIDDLEWARES={**OURS, "robotsrules.scrapy.SigningMiddleware": 800},
        ROBOTSRULES_SIGNING_KEY=str(path), ROBOTSRULES_SIGNATURE_AGENT=SIGNATURE_AGENT,
        ROBOTSRULES_SIGNING_ORIGINS=[sites[name].origin for name in
                                     ("signed_a", "signed_b", "signed_c")],
        ROBOTSRULES_CRAWL_DELAY=False)
    return settings, [sites["signed_a"].url("/page"), sites["signed_c"].url("/page")]


def test_scrapy_signing_middleware_signs_every_hop_anew(sites: dict[str, RawHTTPServer],
                                                         crawls: dict[str, Any]) -> None:
    from robotsrules._identity._httpsig import SigningKey, verify_signature

    stats = crawls["signed"]
    assert len(stats["seen"]) == 2
    key = SigningKey.load(crawls["signed_key"])
    directory = SIGNATURE_AGENT + "/.well-known/http-message-signatures-directory"

    def key_for(url: str, keyid: str) -> object:
        return key.public_key if (url, keyid) == (directory, key.thumbprint) else None

    for name in ("signed_a", "signed_b", "signed_c"):  # robots.txt requests and pages
        assert set(sites[name].paths) == {"/page", "/robots.txt"}, name
        for request in sites[name].requests:
            check = verify_signature("GET", sites[name].url(request.path), request.headers,
                                     key_for=key_for)
            assert check.verified, (name, request.path, check)
    # d is not a signing origin: c's signature (copied by Scrapy's redirect) was dropped
    assert set(sites["refused_d"].paths) == {"/page", "/robots.txt"}
    for request in sites["refused_d"].requests:
        assert not {"signature", "signature-input", "signature-agent"} & set(request.headers)


def test_scrapy_disallowed_pages_never_requested(crawls: dict[str, Any]) -> None:
    log = crawls["main_log"]
    rules = [r.path for r in log["rules"]]
    assert rules[:2] == ["/robots.txt", "/rules.txt"]  # the redirect followed, once
    assert sorted(p for p in rules if not p.endswith(".txt")) == ["/", "/a", "/b",
                                                                   "/private/press/z"]
    assert "/private/x" not in rules and "/private/y" not in rules
    # A 404 robots.txt allows everything, /private/x included.
    assert sorted(r.path for r in log["missing"]) == ["/", "/private/x", "/robots.txt"]
    stats = crawls["main"]
    assert stats["robotstxt/forbidden"] == 2
    assert stats["robotstxt/outcome/ok"] == 1 and stats["robotstxt/outcome/unavailable"] == 1
    assert stats["robotstxt/response_status_count/301"] == 1
    assert len(stats["seen"]) == 6


def test_scrapy_crawl_delay_spaces_requests(crawls: dict[str, Any]) -> None:
    # Crawl-delay: 0.5 (jitter switched off). No page goes before the rules have arrived at
    # the server, and each goes at least 0.5 s after the one before: the k-th page arrives
    # at least k x 0.5 s after the rules did (server times both; late, never early).
    log = crawls["main_log"]["rules"]
    rules = max(r.at for r in log if r.path.endswith(".txt"))
    times = sorted(r.at for r in log if not r.path.endswith(".txt"))
    assert len(times) == 4
    assert all(at >= rules + k * 0.5 - 0.001 for k, at in enumerate(times)), (
        [round(at - rules, 3) for at in times])
    assert crawls["main"]["robotstxt/crawl_delay/slots"] == 1


def test_scrapy_unreachable_robots_stops_the_site(sites: dict[str, RawHTTPServer],
                                                   crawls: dict[str, Any]) -> None:
    # Ours: nothing but robots.txt (tried twice: RETRY_TIMES=1 applies to it too).
    paths = sites["down"].paths
    assert set(paths) == {"/robots.txt"} and len(paths) == 2
    stats = crawls["down"]
    assert stats["robotstxt/forbidden"] == 3
    assert stats["robotstxt/forbidden/unreachable"] == 3
    assert stats["robotstxt/outcome/unreachable"] == 1
    assert stats["seen"] == []


def test_scrapy_own_middleware_crawls_everything_on_503(sites: dict[str, RawHTTPServer],
                                                        crawls: dict[str, Any]) -> None:
    # The contrast that makes the previous test meaningful: Scrapy parses the 503 page.
    assert sorted(_pages(sites["down_scrapy"])) == ["/", "/a", "/b"]
    assert len(crawls["down_scrapy"]["seen"]) == 3


def test_scrapy_shared_store_spares_the_next_run(sites: dict[str, RawHTTPServer],
                                                 crawls: dict[str, Any]) -> None:
    first = crawls["main_log"]
    assert sites["rules"].count("/robots.txt") == 1 == len(
        [r for r in first["rules"] if r.path == "/robots.txt"])
    assert sites["missing"].count("/robots.txt") == 1
    again = crawls["again"]
    assert "robotstxt/request_count" not in again  # both origins came from the SQLite store
    assert again["robotstxt/forbidden"] == 2
    assert "/private/x" not in sites["rules"].paths
    assert sites["rules"].paths.count("/a") == 2


# -- the parser backend (ROBOTSTXT_PARSER) ----------------------------------------------------

class _Settings(dict):  # type: ignore[type-arg]
    def get(self, key: str, default: Any = None) -> Any:
        return super().get(key, default)


class _Crawler:
    def __init__(self, **settings: Any) -> None:
        self.settings = _Settings(settings)


def test_parser_full_header_and_bytes() -> None:
    parser = RobotParser.from_crawler(_Crawler(), RULES)  # type: ignore[arg-type]
    assert parser.allowed(b"https://example.com/a", HEADER.encode()) is True
    assert parser.allowed("https://example.com/private/x", HEADER) is False
    assert parser.allowed("https://example.com/private/press/z", "ExampleBot/1.0") is True
    assert parser.allowed("https://example.com/a", "OtherBot") is False  # the '*' group
    assert parser.crawl_delay(HEADER) == 0.5
    assert parser.crawl_delay("OtherBot") is None
    assert parser.explain("https://example.com/private/x", HEADER).rule.line == 5  # type: ignore[union-attr]


def test_parser_robotstxt_user_agent_setting_wins() -> None:
    parser = RobotParser.from_crawler(_Crawler(ROBOTSTXT_USER_AGENT="OtherBot"), RULES)  # type: ignore[arg-type]
    assert parser.allowed("https://example.com/a", HEADER) is False


def test_parser_empty_body_allows_everything() -> None:
    parser = RobotParser.from_crawler(_Crawler(), b"")  # type: ignore[arg-type]
    assert parser.allowed("https://example.com/anything", HEADER) is True
    assert parser.crawl_delay(HEADER) is None


def test_parser_is_a_scrapy_robot_parser() -> None:
    from scrapy.robotstxt import RobotParser as ScrapyRobotParser

    assert issubclass(RobotParser, ScrapyRobotParser)


# -- SigningMiddleware's settings (issue 38), in process --------------------------------------

def test_signing_middleware_settings(tmp_path: Any) -> None:
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    from robotsrules import InvalidArgument
    from robotsrules._identity._httpsig import SigningKey
    from robotsrules.scrapy import SigningMiddleware

    key = tmp_path / "key.pem"
    SigningKey.generate().write(key)
    with pytest.raises(NotConfigured):  # off unless configured
        SigningMiddleware.from_crawler(get_crawler(settings_dict={}))
    for half in ({"ROBOTSRULES_SIGNING_KEY": str(key)},
                 {"ROBOTSRULES_SIGNATURE_AGENT": SIGNATURE_AGENT}):
        with pytest.raises(InvalidArgument, match="go together"):
            SigningMiddleware.from_crawler(get_crawler(settings_dict=half))
    both = {"ROBOTSRULES_SIGNING_KEY": str(key), "ROBOTSRULES_SIGNATURE_AGENT": SIGNATURE_AGENT}
    assert SigningMiddleware.from_crawler(get_crawler(settings_dict=both)).sign is not None
    key.chmod(0o640)
    with pytest.raises(InvalidArgument, match="chmod 600"):
        SigningMiddleware.from_crawler(get_crawler(settings_dict=both))
    with pytest.raises(InvalidArgument, match="callable"):
        SigningMiddleware.from_crawler(get_crawler(settings_dict={"ROBOTSRULES_SIGNER": "x"}))
    key.chmod(0o600)
    for empty in ([], "", " , "):  # set but naming no origin: refused, never "sign anywhere"
        with pytest.raises(InvalidArgument, match="names no origin"):
            SigningMiddleware.from_crawler(get_crawler(
                settings_dict={**both, "ROBOTSRULES_SIGNING_ORIGINS": empty}))
    listed = {**both, "ROBOTSRULES_SIGNING_ORIGINS": "https://a.example, https://b.example"}
    sign = SigningMiddleware.from_crawler(get_crawler(settings_dict=listed)).sign
    assert sign("GET", "https://b.example/", {}) and not sign("GET", "https://c.example/", {})
