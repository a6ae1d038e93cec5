"""A fetched robots.txt that is not UTF-8 (issue 39): a byte-order mark, Latin-1 bytes and
an invalid UTF-8 sequence. The page shows the fetch as ``robotsrules fetch`` does, and its
verdicts are the library's reading of the very bytes fetched, not of the text the browser
shows (where a byte that is not UTF-8 is a U+FFFD)."""

from __future__ import annotations

import io
import re
from typing import Any

import robotsrules
from robotsrules._terminal import visible
from robotsrules.cli import main
from tests.web.conftest import Served, serving

FILE = (b"\xef\xbb\xbfUser-agent: *\nDisallow: /caf\xe9\nDisallow: /bad\xc3(\n"
        b"Allow: /ok\xff\nDisallow: /o\n")
URLS = ("/caf%E9", "/caf%C3%A9", "/bad%C3(", "/ok%FF", "/ok%EF%BF%BD", "/other")


def test_a_fetched_file_that_is_not_utf8_is_judged_by_its_bytes(browser: Any,
                                                                 served: Served) -> None:
    with serving({"/robots.txt": (200, {"Content-Type": "text/plain"}, FILE)}) as port:
        base = f"http://127.0.0.1:{port}"
        out = io.StringIO()
        assert main(["fetch", base + "/"], out=out) == 0
        page = browser.new_page()
        page.goto(served.open + "/")
        page.fill("#fetch_url", base + "/")
        page.click("#fetch")
        page.wait_for_selector("#fetched")
    fetched = page.inner_text("#fetched").replace("\t", "\n")
    for field in ("outcome", "status", "size", "groups"):  # as robotsrules fetch shows them
        shown = re.search(rf"^{field} +(.+)$", out.getvalue(), re.M)
        assert shown is not None and f"{field}\n{shown[1]}" in fetched, (field, fetched)
    assert page.input_value("#robots") == FILE.decode("utf-8", "replace")  # the BOM kept
    page.fill("#urls", "\n".join(URLS))
    page.fill("#agents", "GPTBot")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    robots = robotsrules.parse(FILE)
    verdicts = [row.query_selector(".verdict").inner_text()
                for row in page.query_selector_all("tr.answer")]
    expected = ["allowed" if robots.allowed(url, agent="GPTBot") else "disallowed"
                for url in URLS]
    assert verdicts == expected
    assert expected[:4] == ["disallowed", "allowed", "disallowed", "allowed"]  # the bytes'
    shown = page.inner_text("#file")
    for line in robots.lines[1:4]:  # each line as the library read it, made visible
        assert visible(line.raw) in shown, (line.raw, shown)
