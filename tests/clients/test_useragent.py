"""product_token (robotsrules.useragent), RobotsDisallowed, and import hygiene of the
integration modules."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import robotsrules
from robotsrules import RobotsDisallowed, product_token

GOOGLEBOT_SMARTPHONE = (
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 "
    "(compatible; Googlebot/2.1; +http://www.google.com/bot.html)")


@pytest.mark.parametrize(("header", "token"), [
    ("Mozilla/5.0 (compatible; ExampleBot/2.1; +https://example.com/bot)", "ExampleBot"),
    (GOOGLEBOT_SMARTPHONE, "Googlebot"),
    ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
     "+https://openai.com/gptbot)", "GPTBot"),
    ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"),
    ("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
     "Slurp"),
    ("DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"),
    ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
     "facebookexternalhit"),
    ("Scrapy/2.19.0 (+https://scrapy.org)", "Scrapy"),
    ("Bot2000/1.0 (+https://bot.example)", "Bot"),  # cut as Google cuts file values
    # A token, or Token/version, is returned unchanged.
    ("ExampleBot", "ExampleBot"),
    ("ExampleBot/2.1", "ExampleBot/2.1"),
    ("  Example_Bot-x  ", "Example_Bot-x"),
    ("curl/8.5.0", "curl/8.5.0"),
    (b"Mozilla/5.0 (compatible; ExampleBot/2.1)", "ExampleBot"),
    # The first top-level product is the crawler's own; a later one does not outrank it
    # because its name contains "bot" (the 1996 draft's example, issue 13 finding 31).
    ("FigTree/0.1 Robot/1.0 libwww-perl/5.04", "FigTree"),
    ("FigTree Robot libwww-perl/5.04", "FigTree"),  # CPython's test_robotparser agent
    ("python-requests/2.31 ExampleBot/1.0", "python-requests"),
    # A crawler named only inside a browser's header.
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like "
     "Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
     "Applebot"),
    ("Mozilla/5.0 (Windows NT 10.0) Chrome/120.0 Safari/537.36 OAI-SearchBot/1.0; "
     "+https://openai.com/searchbot", "OAI-SearchBot"),
    # "*" names every crawler: only the rules of the "*" groups apply (SPEC D5).
    ("*", "*"),
    (" * ", "*"),
    (b"*", "*"),
])
def test_product_token(header: str, token: str) -> None:
    assert product_token(header) == token


def test_figtree_obeys_its_group() -> None:
    robots = robotsrules.parse(b"User-agent: figtree\nDisallow: /private\n\n"
                               b"User-agent: robot\nAllow: /\n")
    agent = product_token("FigTree/0.1 Robot/1.0 libwww-perl/5.04")
    assert robots.allowed("/private/x", agent=agent) is False


# The documented examples of product_token (docs/guides/crawling.md) run as doctests in
# tests/test_docs_examples.py.


@pytest.mark.parametrize("header", [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)",
])
def test_browser_headers_name_no_crawler(header: str) -> None:
    assert product_token(header) == "*"  # only the rules for every crawler apply
    robots = robotsrules.parse(b"User-agent: *\nDisallow: /\nUser-agent: Mozilla\nAllow: /\n")
    assert robots.allowed("/x", agent=product_token(header)) is False


@pytest.mark.parametrize("header", ["", "   ", "(only a comment)", "12345", "!!! ???",
                                    "1.0/2 (x)"])
def test_nothing_to_extract_raises(header: str) -> None:
    with pytest.raises(ValueError, match="no crawler name"):
        product_token(header)


def test_non_string_raises_type_error() -> None:
    with pytest.raises(TypeError):
        product_token(42)  # type: ignore[arg-type]


def test_every_token_is_a_valid_agent() -> None:
    for header in ("Mozilla/5.0 (compatible; ExampleBot/2.1)", GOOGLEBOT_SMARTPHONE,
                   "Scrapy/2.19.0 (+https://scrapy.org)", "Mozilla/5.0 (X11; Linux x86_64)"):
        robotsrules.agent_tokens(product_token(header))  # no InvalidAgent


def test_robots_disallowed() -> None:
    robots = robotsrules.parse(b"User-agent: *\nAllow: /\nDisallow: /private/\n")
    verdict = robots.explain("https://e.com/private/x", agent="ExampleBot")
    error = RobotsDisallowed("https://e.com/private/x", "ExampleBot", verdict)
    assert str(error) == ("robots.txt disallows https://e.com/private/x for ExampleBot: "
                          "line 3: Disallow: /private/ (longest-match)")
    assert isinstance(error, robotsrules.RobotsError) and not isinstance(error, ValueError)
    assert error.url == "https://e.com/private/x" and error.verdict is verdict
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    dark = RobotsDisallowed("https://e.com/a", "ExampleBot",
                            robotsrules.RobotsTxt.disallow_all().explain("/a", agent="x"),
                            "https://e.com/robots.txt unreachable: HTTP 503")
    assert str(dark).endswith("disallow-all; https://e.com/robots.txt unreachable: HTTP 503")


def test_importing_robotsrules_imports_no_framework() -> None:
    code = ("import sys, robotsrules; robotsrules.product_token('x'); "
            "import robotsrules.robotparser, robotsrules.httpx; "
            "print(sorted(m for m in ('scrapy', 'twisted', 'aiohttp') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_edge_modules_import_the_real_packages() -> None:
    import httpx

    aiohttp = pytest.importorskip("aiohttp")
    import robotsrules.aiohttp
    import robotsrules.httpx

    assert robotsrules.httpx.httpx is httpx  # absolute imports: no shadowing
    assert robotsrules.aiohttp.aiohttp is aiohttp
    assert {"RobotsDisallowed", "product_token"} <= set(robotsrules.__all__)
