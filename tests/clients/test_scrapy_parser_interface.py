"""robotsrules.scrapy.RobotParser checked the way Scrapy checks its parser backends.

Scrapy's own interface tests (``tests/test_robotstxt_interface.py`` in its sdist, not
installed with it) build every ``ROBOTSTXT_PARSER`` backend with
``from_crawler(crawler=None, robotstxt_body=...)`` and call ``allowed(url, user_agent)`` with
``str`` and ``bytes``, with the agent ``"*"`` and with real product tokens. These are the
same kinds of checks, written for this backend (Google's and RFC 9309's reading: the
length-based precedence of Scrapy's suite, not its order-based one).
"""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("scrapy", reason="Scrapy is not installed (pip install 'robotsrules[scrapy]')")

from scrapy.robotstxt import RobotParser as ScrapyRobotParser
from scrapy.utils.test import get_crawler

from robotsrules.scrapy import RobotParser

SITE = "https://site.local"


def _parser(body: bytes) -> RobotParser:
    parser = RobotParser.from_crawler(None, body)
    assert isinstance(parser, ScrapyRobotParser)
    return parser


def test_from_crawler_none() -> None:
    parser = _parser(b"User-agent: *\nDisallow: /disallowed\nAllow: /allowed\nCrawl-delay: 10\n")
    assert parser.user_agent is None  # no crawler: no ROBOTSTXT_USER_AGENT
    assert parser.allowed(f"{SITE}/allowed", "*") is True
    assert parser.allowed(f"{SITE}/disallowed", "*") is False
    assert parser.crawl_delay("*") == 10.0


def test_from_a_real_crawler_reads_its_setting() -> None:
    body = b"User-agent: *\nDisallow: /\n\nUser-agent: ExampleBot\nAllow: /\n"
    crawler = get_crawler(settings_dict={"ROBOTSTXT_USER_AGENT": "ExampleBot"})
    assert RobotParser.from_crawler(crawler, body).allowed(f"{SITE}/x", "OtherBot") is True
    assert RobotParser.from_crawler(get_crawler(), body).allowed(f"{SITE}/x", "OtherBot") is False


@pytest.mark.parametrize("kind", [str, bytes])
def test_str_and_bytes_arguments(kind: type) -> None:
    def arg(text: str) -> object:
        return text if kind is str else text.encode()

    parser = _parser(b"User-agent: *\nDisallow: /disallowed\n\nUser-agent: second\nAllow: /\n")
    assert parser.allowed(arg(f"{SITE}/disallowed"), arg("*")) is False  # type: ignore[arg-type]
    assert parser.allowed(arg(f"{SITE}/ok"), arg("*")) is True  # type: ignore[arg-type]
    assert parser.allowed(arg(f"{SITE}/disallowed"), arg("second")) is True  # type: ignore[arg-type]


def test_star_logs_no_warning(caplog: pytest.LogCaptureFixture) -> None:
    parser = _parser(b"User-agent: *\nDisallow: /x\n")
    with caplog.at_level(logging.DEBUG, logger="robotsrules.scrapy"):
        for _ in range(3):
            assert parser.allowed(f"{SITE}/x", "*") is False
            assert parser.allowed(f"{SITE}/y", b"*") is True
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert parser.agent("*") == "*" and parser.agent(b" * ") == "*"


def test_wildcards() -> None:
    parser = _parser(b"User-agent: first\nDisallow: /disallowed/*/end$\n\n"
                     b"User-agent: second\nAllow: /*allowed\nDisallow: /\n")
    assert parser.allowed(f"{SITE}/disallowed/allowed/end", "first") is False
    assert parser.allowed(f"{SITE}/disallowed/random/end", "first") is False
    assert parser.allowed(f"{SITE}/disallowed/random/end/more", "first") is True
    assert parser.allowed(f"{SITE}/disallowed/allowed/end", "second") is True
    assert parser.allowed(f"{SITE}/is/disallowed/random", "second") is True
    assert parser.allowed(f"{SITE}/nothing", "second") is False


def test_length_based_precedence() -> None:
    parser = _parser(b"User-agent: *\nDisallow: /\nAllow: /page\n")
    assert parser.allowed(f"{SITE}/page", "*") is True  # the longer pattern wins
    assert parser.allowed(f"{SITE}/", "*") is False


@pytest.mark.parametrize("body", [b"", b"GIF89a\xd3\x00\xfe\x00\xa2", b"\x00\xff" * 100])
def test_empty_and_garbage_bodies_allow_everything(body: bytes) -> None:
    parser = _parser(body)
    assert parser.allowed(f"{SITE}/", "*") is True
    assert parser.allowed(f"{SITE}/admin/", "chrome") is True


def test_unicode_url_and_user_agent() -> None:
    body = ("User-Agent: *\nDisallow: /admin/\nDisallow: /wiki/K%C3%A4ytt%C3%A4j%C3%A4:\n"
            "Disallow: /wiki/Käyttäjä2:\n\nUser-Agent: UnicödeBöt\nDisallow: /some/page.html\n"
            ).encode()
    parser = _parser(body)
    assert parser.allowed(f"{SITE}/", "*") is True
    assert parser.allowed(f"{SITE}/admin/", "*") is False
    assert parser.allowed(f"{SITE}/wiki/K%C3%A4ytt%C3%A4j%C3%A4:", "*") is False
    assert parser.allowed(f"{SITE}/wiki/Käyttäjä:", "*") is False
    assert parser.allowed(f"{SITE}/wiki/K%C3%A4ytt%C3%A4j%C3%A42:", "*") is False
    assert parser.allowed(f"{SITE}/some/page.html", "*") is True
    # The file's "UnicödeBöt" and the caller's are both cut at the first non-token
    # character ("Unic"), as Google does: they name the same group.
    assert parser.allowed(f"{SITE}/some/page.html", "UnicödeBöt") is False


def test_non_utf8_url_bytes_stand_for_themselves() -> None:
    parser = _parser(b"User-agent: *\nDisallow: /v1/\xf0\n")
    assert parser.allowed(f"{SITE}/v1/\xf0".encode("latin-1"), "*") is False
    assert parser.allowed(f"{SITE}/v1/%F0", "*") is False
    assert parser.allowed(f"{SITE}/v1/%EF%BF%BD", "*") is True  # not U+FFFD


def test_crawl_delay_is_read_per_agent() -> None:
    """Issue 22: a value is for the user-agent lines directly above it, not Google's group."""
    parser = _parser(b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 12\n\n"
                     b"User-agent: SemrushBot\nCrawl-delay: 60\nUser-agent: *\n"
                     b"Disallow: /private\n")
    assert parser.crawl_delay("Mozilla/5.0 (compatible; SemrushBot/7~bl)") == 60.0
    assert parser.crawl_delay(b"b") == 12.0
    assert parser.crawl_delay("OtherBot") is None
    assert parser.allowed(f"{SITE}/private/x", "SemrushBot") is False
