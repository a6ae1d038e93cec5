"""The workbench against what an adversarial review of it found (issue 39's review): each
test drives the page in the real browser (or the real server over HTTP where the finding is
about requests) and fails on the code the review attacked."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Served, Site
from tests.web.test_workbench import _rows, _test


def test_a_fetch_that_gives_no_file_keeps_yours_and_shows_no_verdicts(browser: Any,
                                                                       served: Served,
                                                                       site: Site) -> None:
    # an unreachable robots.txt means "everything disallowed" (RFC 9309, section 2.3.1.4):
    # its emptiness must not be judged as a file without rules ("everything allowed")
    page = browser.new_page()
    _test(page, served.guarded, "User-agent: *\nDisallow: /\n", "/private", "Googlebot")
    page.fill("#fetch_url", site.base + "/")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    assert "unreachable" in page.inner_text("#fetched")
    assert page.input_value("#robots") == "User-agent: *\nDisallow: /\n"
    assert "No file was fetched (unreachable" in page.inner_text("#problem")
    assert page.query_selector_all("tr.answer") == []
    assert page.query_selector("#crawlers") is None


def test_an_uploaded_file_that_is_not_utf8_is_judged_by_its_bytes(browser: Any,
                                                                   served: Served) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.set_input_files("#upload", {"name": "robots.txt", "mimeType": "text/plain",
                                     "buffer": b"User-agent: *\nDisallow: /caf\xe9\n"})
    page.click("#upload-button")
    page.wait_for_load_state()
    page.fill("#urls", "/caf%E9")
    page.fill("#agents", "Googlebot")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("disallowed", "Googlebot", "/caf%E9")]  # as check reads the file
    # an edit of the text leaves the bytes: the text is judged as typed
    page.fill("#robots", "User-agent: *\nDisallow: /tea\n")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("allowed", "Googlebot", "/caf%E9")]


def test_the_500_kib_cut_counts_the_file_not_the_browsers_crlf(browser: Any,
                                                               served: Served) -> None:
    # 507,532 bytes with LF line breaks, 517,684 as the browser sends them (CRLF): the rule
    # at the end is within the 500 KiB a crawler reads only when counted on the file
    robots = "User-agent: *\n" + ("#" + "c" * 48 + "\n") * 10_150 + "Disallow: /secret\n"
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.evaluate("r => { document.getElementById('robots').value = r; }", robots)
    page.fill("#urls", "/secret")
    page.fill("#agents", "Googlebot")
    page.click("#test")
    page.wait_for_selector("#verdicts")
    assert _rows(page) == [("disallowed", "Googlebot", "/secret")]


def test_a_leading_empty_line_is_kept_and_lines_keep_their_numbers(browser: Any,
                                                                   served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, "\nUser-agent: *\nDisallow: /x\n", "/x", "GPTBot")
    assert page.input_value("#robots") == "\nUser-agent: *\nDisallow: /x\n"
    page.click("#test")  # sent again as the page shows it
    page.wait_for_selector("#verdicts")
    assert page.input_value("#robots") == "\nUser-agent: *\nDisallow: /x\n"
    assert "Disallow: /x" in page.inner_text("#line-3")
