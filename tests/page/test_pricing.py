"""Pay-per-crawl (Cloudflare AI Crawl Control documentation: "Crawl pages", "Error codes",
"Advanced configuration", read 2026-11): a 402 with ``crawler-price`` is read as priced,
reported with its price and terms link, in page signals and the command line; hostile
headers are bounded. The client integrations are in ``test_page_priced_clients.py``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from robotsrules import InvalidArgument, PagePriced, PageRefused, page_signals
from robotsrules._page import admit_page
from robotsrules._page._pricing import MAX_PRICE_TEXT

# "Crawl pages", step 1 and 2.3: the 402 a charged crawler gets, and the error response.
ASKED = "HTTP/2 402\r\ndate: Fri, 06 Jun 2025 08:42:38 GMT\r\ncrawler-price: USD 0.01\r\n\r\n"
ERROR = ("HTTP/2 402\r\ndate: Fri, 06 Jun 2025 08:42:38 GMT\r\n"
         "content-type: text/plain; charset=utf-8\r\ncrawler-price: USD 0.01\r\n"
         "crawler-error: InvalidCrawlerExactPrice\r\n\r\n")


def test_the_docs_402_is_priced() -> None:
    signals = page_signals(ASKED, agent="ExampleBot")
    pricing = signals.pricing
    assert pricing is not None and signals.priced
    assert (pricing.status, pricing.currency, pricing.amount, pricing.valid) == (
        402, "USD", "0.01", True)
    assert pricing.describe() == "HTTP 402: asks USD 0.01 per crawl"
    error = page_signals(ERROR, agent="ExampleBot").pricing
    assert error is not None and error.error == "InvalidCrawlerExactPrice"
    assert error.describe() == ("HTTP 402: asks USD 0.01 per crawl; "
                                "crawler-error InvalidCrawlerExactPrice")


def test_the_status_comes_from_the_caller_or_the_status_line() -> None:
    headers = {"crawler-price": "USD 3.14"}  # "Advanced configuration"'s dynamic price
    assert page_signals(headers, agent="Bot", status=402).pricing.status == 402  # type: ignore[union-attr]
    # Without a status, crawler-price alone is the ask: Cloudflare forwards it only "when the
    # client is being asked to pay".
    assert page_signals(headers, agent="Bot").priced is True
    # A 200 that names a price (an origin seen directly) is reported, not asked.
    served = page_signals(headers, agent="Bot", status=200)
    assert served.pricing is not None and served.priced is False
    assert served.pricing.describe() == "HTTP 200: names USD 3.14 per crawl"
    # A 402 without crawler-price (another payment scheme) is still priced.
    bare = page_signals({}, agent="Bot", status=402)
    assert bare.priced and bare.pricing.describe() == (  # type: ignore[union-attr]
        "HTTP 402: asks payment, no crawler-price given")
    assert page_signals({"X-Robots-Tag": "noai"}, agent="Bot", status=200).pricing is None


def test_a_status_that_is_no_status_code() -> None:
    for bad in (1000, 99, True, "402", 402.0):
        with pytest.raises(InvalidArgument):
            page_signals({}, agent="Bot", status=bad)  # type: ignore[arg-type]
    # A stranger's data is read without raising: the status is then unknown.
    admission = admit_page({"crawler-price": "USD 1"}, None, agents=["Bot"], strict=False,
                           status="402")  # type: ignore[arg-type]
    assert admission.pricing is not None and admission.pricing.status is None


def test_the_terms_link() -> None:
    # The site's Terms URL rides in the Link header of 200 and 402 responses (changelog
    # 2025-12-05); read from rel="terms-of-service" (RFC 6903) and rel="license".
    signals = page_signals(
        {"crawler-price": "EUR 0.5", "Link": '<https://example.com/terms>; '
                                             'rel="terms-of-service", </p.css>; rel=preload'},
        agent="Bot", status=402, url="https://example.com/a")
    assert signals.pricing.terms == ("https://example.com/terms",)  # type: ignore[union-attr]
    assert signals.pricing.describe() == (  # type: ignore[union-attr]
        "HTTP 402: asks EUR 0.5 per crawl; terms https://example.com/terms")


def test_hostile_price_headers_are_bounded_and_reported() -> None:
    huge = page_signals({"crawler-price": "USD " + "9" * 1_000_000}, agent="Bot", status=402)
    pricing = huge.pricing
    assert pricing is not None and pricing.asked and pricing.valid is False
    assert len(pricing.price or "") == MAX_PRICE_TEXT and pricing.amount is None
    disagree = page_signals([("crawler-price", "USD 0.01"), ("crawler-price", "USD 9")],
                            agent="Bot", status=402).pricing
    assert disagree is not None and disagree.valid is False and disagree.price == "USD 0.01"
    for odd in ("USD -1", "0.01 USD", "$0.01", "USD 1e9", "USD\x1b[31m 1"):
        found = page_signals({"crawler-price": odd}, agent="Bot", status=402).pricing
        assert found is not None and found.currency is None and not found.valid, odd
    errors = page_signals([("crawler-error", "A" * 500)] * 3, agent="Bot", status=402).pricing
    assert errors is not None and len(errors.error or "") == MAX_PRICE_TEXT


def test_admission_says_priced_and_raises_a_page_refused() -> None:
    admission = admit_page(ASKED, None, agents=["Bot"], purposes=["ai-train"],
                           url="https://example.com/p")
    assert admission.priced and admission.refused is None
    error = admission.price_error()
    assert isinstance(error, PagePriced) and isinstance(error, PageRefused)
    assert error.purpose == "*" and error.pricing is admission.pricing
    assert str(error) == "https://example.com/p asks to be paid for: HTTP 402: asks USD 0.01 per crawl"
    import pickle

    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.url, again.why) == (PagePriced, error.url, error.why)
    with pytest.raises(ValueError):
        admit_page({}, None, agents=["Bot"], status=200).price_error()


def test_the_command_line_reports_the_price(tmp_path: Path) -> None:
    from robotsrules.cli import main

    saved = tmp_path / "paid.http"
    saved.write_bytes(b"HTTP/1.1 302 Found\r\nLocation: x\r\n\r\n"  # a redirect chain (curl -iL)
                      b"HTTP/1.1 402 Payment Required\r\ncrawler-price: USD\x1b[2J 0.01\r\n"
                      b"crawler-error: Bad\x1b[31mCode\r\n"
                      b"Link: <https://example.com/terms>; rel=terms-of-service\r\n\r\n")
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot"], out=out) == 0
    text = out.getvalue()
    assert "\x1b" not in text  # a stranger's text is made visible on a terminal
    assert "payment: HTTP 402: asks a price not understood" in text
    assert "terms https://example.com/terms" in text
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--json"], out=out) == 0
    pricing = json.loads(out.getvalue())["pricing"]
    assert pricing["status"] == 402 and pricing["asked"] is True
    assert pricing["terms"] == ["https://example.com/terms"]
