"""The workbench page (``robotsrules serve``, issue 39) in a real browser: Debian's Chromium
driven by Playwright, against the application served by uvicorn on loopback (conftest.py).

A test types a file, URLs and agents and reads the verdicts, the deciding line and the
lint findings; follows the permalink; walks the keyboard focus order; fetches through the
address guard; and feeds hostile content everywhere the page shows strangers' text,
asserting that no script ran (``window.__pwned``) and that the text shows as text.
"""

from __future__ import annotations

from typing import Any

import httpx

from robotsrules._web._app import MAX_BODY
from tests.timing import HANG
from tests.web.conftest import HOSTILE_ROBOTS, Served, Site

FILE = ("User-agent: *\n"
        "Disallow: /private/\n"
        "Allow: /private/press/\n"
        "Disallow: /*.pdf$\n"
        "Disalow: /typo\n")


def _test(page: Any, base: str, robots: str, urls: str, agents: str, compared: str = "") -> None:
    page.goto(base + "/")
    page.fill("#robots", robots)
    page.fill("#base", compared)
    page.fill("#urls", urls)
    page.fill("#agents", agents)
    page.click("#test")
    page.wait_for_selector("#verdicts, #problem")


def _in(element: Any, selector: str) -> str:
    return str(element.query_selector(selector).inner_text())


def _rows(page: Any) -> list[tuple[str, str, str]]:
    return [(_in(row, ".verdict"), _in(row, ".agent"), _in(row, ".url"))
            for row in page.query_selector_all("tr.answer")]


def test_a_typed_file_gives_verdicts_deciding_lines_lint_and_a_permalink(browser: Any, served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, FILE, "/private/x.html\n/private/press/a.html\n/a.pdf\n/",
          "GPTBot\nMozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
    assert _rows(page) == [
        ("disallowed", "GPTBot", "/private/x.html"), ("disallowed", "Googlebot", "/private/x.html"),
        ("allowed", "GPTBot", "/private/press/a.html"), ("allowed", "Googlebot", "/private/press/a.html"),
        ("disallowed", "GPTBot", "/a.pdf"), ("disallowed", "Googlebot", "/a.pdf"),
        ("allowed", "GPTBot", "/"), ("allowed", "Googlebot", "/")]
    first = page.query_selector("tr.answer")
    # the page's own script runs under its policy: it shows the copy buttons
    assert first.query_selector("button.copy").is_visible()
    assert _in(first, "code.command") == "robotsrules explain robots.txt --agent GPTBot /private/x.html"
    assert "2: Disallow: /private/" in _in(first, ".why")
    assert "the longest matching rule decides" in _in(first, ".why")
    assert page.inner_text("#check-command") == (
        "robotsrules check --robots robots.txt --agent GPTBot --agent Googlebot "
        "/private/x.html /private/press/a.html /a.pdf /")
    # the deciding lines are marked in the file view, in words (not only in colour)
    marked = {item.get_attribute("id"): _in(item, ".marker")
              for item in page.query_selector_all("li.decides")}
    assert marked == {"line-2": "\u25b6 decides: disallowed", "line-3": "\u25b6 decides: allowed",
                      "line-4": "\u25b6 decides: disallowed"}
    assert page.query_selector("li.line:not(.decides)#line-1") is not None
    # where Google's and the legacy reading differ (a wildcard), both are shown
    pdf = _in(page.query_selector_all("tr.answer")[4], ".readings")
    assert "Google: disallowed" in pdf and "legacy (urllib.robotparser): allowed" in pdf
    # the lint finding beside its line, its code linking to the code's explanation
    finding = page.query_selector("#line-5 .finding")
    assert "R102" in finding.inner_text() and "misspelling" in finding.inner_text()
    # the permalink gives the same answers, in a new page
    before = _rows(page)
    link = page.get_attribute("#permalink", "href")
    assert link.startswith("/?robots=")
    again = browser.new_page()
    again.goto(served.guarded + link)
    assert _rows(again) == before
    assert again.input_value("#robots") == FILE
    assert again.query_selector("#line-2.decides") is not None
    finding.query_selector("a").click()
    page.wait_for_url("**/codes#R102")
    assert "key-typo" in page.inner_text("#R102")


def test_the_keyboard_reaches_every_control_in_reading_order(browser: Any, served: Served) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    order = []
    for _ in range(12):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id || document.activeElement.className"))
    assert order == ["skip", "robots", "urls", "agents", "test", "fetch_url", "fetch", "upload",
                     "upload-button", "page_url", "page", "base"]


def test_too_many_answers_are_refused_with_a_message(served: Served) -> None:
    urls = "\n".join(f"/{n}" for n in range(101))
    with httpx.Client(base_url=served.guarded) as client:
        page = client.post("/", data={"token": _token(client), "robots": FILE, "urls": urls,
                                      "agents": "GPTBot", "action": "test"}).text
    assert "101 URLs given; the page takes at most 100" in page
    assert 'id="verdicts"' not in page


def test_hostile_file_urls_and_agents_show_as_text_and_run_nothing(browser: Any,
                                                                    served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, HOSTILE_ROBOTS,
          "/<script>window.__pwned=1</script>\njavascript:window.__pwned=1\n/a\u202egnp.exe",
          "GPTBot", compared="User-agent: *\nAllow: /\n")
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector_all("img") == []
    assert page.query_selector_all("a[href^='javascript']") == []
    assert [s.get_attribute("src") for s in page.query_selector_all("script")] == [
        "/static/workbench.js"]
    text = page.inner_text("#file")
    assert "Disallow: /<script>window.__pwned=1</script>" in text
    assert "<a href=\"javascript:window.__pwned=1\">click</a>" in text
    assert "\\x1b]0;owned\\x07\\u202egnp.exe" in text  # controls and bidi made visible
    changed = page.inner_text("#diff")  # the hostile paths, compared: text too
    assert "/<script>window.__pwned=1</script>\tGPTBot" not in changed
    assert "/<script>window.__pwned=1</script>" in changed
    urls = [row[2] for row in _rows(page)]
    assert urls[0] == "/<script>window.__pwned=1</script>"
    assert urls[2] == "/a\\u202egnp.exe"
    # an agent that is no product token: refused, quoted as text
    _test(page, served.guarded, HOSTILE_ROBOTS, "/", "<script>window.__pwned=1</script>")
    assert "agent '<script>window.__pwned=1</script>'" in page.inner_text("#problem")
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector_all("img") == []


def test_a_fetch_of_a_loopback_url_is_refused_by_the_address_guard(browser: Any, served: Served,
                                                                   site: Site) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    hits = len(site.hits)
    page.fill("#fetch_url", site.base + "/")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    shown = page.inner_text("#fetched")
    assert "unreachable" in shown and "refused by the address guard" in shown
    assert len(site.hits) == hits  # nothing reached the site
    assert page.input_value("#robots") == ""
    page.fill("#agents", "GPTBot")  # the page signals' fetch: the same guard
    page.fill("#page_url", site.base + "/article")
    page.click("#page")
    page.wait_for_selector("#problem")
    assert "refused by the address guard" in page.inner_text("#problem")
    assert len(site.hits) == hits


def test_the_allowance_fetches_and_hostile_headers_show_as_text(browser: Any, served: Served,
                                                                site: Site) -> None:
    page = browser.new_page()
    page.goto(served.open + "/")
    page.fill("#fetch_url", site.base + "/any/page")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    assert "outcome\nok" in page.inner_text("#fetched").replace("\t", "\n")
    assert page.input_value("#robots") == "User-agent: *\nDisallow: /from-the-site/\n"
    # a redirect whose Location holds HTML, to a hostile file
    page.fill("#fetch_url", site.hostile + "/")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    assert "<script>window.__pwned=1</script>" in page.inner_text("#fetched")
    assert page.input_value("#robots") == HOSTILE_ROBOTS
    assert page.evaluate("window.__pwned") is None


def test_every_response_carries_a_strict_policy_and_no_cors(served: Served) -> None:
    for path in ("/", "/codes", "/static/workbench.css", "/nowhere"):
        headers = httpx.get(served.guarded + path, headers={"Origin": "http://evil.example"},
                            timeout=HANG).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "default-src 'none'" in headers["content-security-policy"]
        assert "unsafe-inline" not in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert not any(name.startswith("access-control-") for name in headers)


def _token(client: httpx.Client) -> str:
    page = client.get("/").text
    return page.split('name="token" value="', 1)[1].split('"', 1)[0]


def test_requests_from_elsewhere_are_refused(served: Served) -> None:
    with httpx.Client(base_url=served.guarded) as client:
        form = {"token": _token(client), "robots": "User-agent: *\nDisallow: /\n",
                "urls": "/x", "agents": "GPTBot", "action": "test"}
        assert "disallowed" in client.post("/", data=form).text  # the page's own form
        refused = client.post("/", data=form, headers={"Origin": "http://evil.example"})
        assert refused.status_code == 403 and "another origin" in refused.text
        refused = client.post("/", data=form, headers={"Sec-Fetch-Site": "cross-site"})
        assert refused.status_code == 403 and "another site" in refused.text
        refused = client.post("/", data={**form, "token": "guess"})
        assert refused.status_code == 403 and "form token" in refused.text
        # DNS rebinding: a name pointing at 127.0.0.1 does not make its pages ours
        refused = client.get("/", headers={"Host": "rebind.example"})
        assert refused.status_code == 421 and "Host header" in refused.text
        refused = client.get("/", headers={"Host": "rebind.example:80"})
        assert refused.status_code == 421
        assert client.get("/", headers={"Host": "localhost"}).status_code == 200
        too_big = client.post("/", content=b"x" * (MAX_BODY + 1),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert too_big.status_code == 413 and f"at most {MAX_BODY:,} bytes" in too_big.text


def test_a_phone_width_window_needs_no_sideways_scroll(browser: Any, served: Served,
                                                       tmp_path: Any) -> None:
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    _test(page, served.guarded, FILE, "/private/x.html\n/", "GPTBot")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 640, "height": 800})  # a 1280 px window at 200 % zoom
    assert page.evaluate("document.documentElement.scrollWidth") <= 640
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_the_crawler_table_lists_every_registry_crawler(browser: Any, served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded,
          "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n\n"
          "User-agent: GPTBot\nDisallow: /\n\nLicense: http://127.0.0.1:9/license.xml\n",
          "/private/x\n/public", "GPTBot")
    page.click("#crawlers summary")
    header = [cell.inner_text() for cell in page.query_selector_all(".crawlers thead th")]
    assert header[4:7] == ["/", "/private/x", "/public"]
    rows = dict(page.evaluate(  # one round trip for the whole table
        "[...document.querySelectorAll('tr.crawler')].map(row => [row.querySelector('th')"
        ".innerText, [...row.querySelectorAll('td')].map(cell => cell.innerText)])"))
    assert len(rows) > 100  # the whole registry
    assert rows["GPTBot"][3:10] == ["disallowed", "disallowed", "disallowed", "-", "-", "-", "all"]
    assert rows["Googlebot"][3:10] == ["allowed", "disallowed", "allowed", "yes", "-", "no", "some"]
    assert rows["Googlebot"][10].startswith("yes: obeys robots.txt")
    # the licence is on loopback: refused by the address guard, so its terms are unknown
    assert rows["Googlebot"][11].split("\n") == [
        "http://127.0.0.1:9/license.xml", "search: unknown", "ai-input: unknown",
        "ai-train: unknown"]
    assert "refused by the address guard" in page.inner_text("#licence-1")
    assert any(cells[10].startswith("no or unknown: NOT bound by robots.txt")
               for cells in rows.values())


def test_the_diff_lists_the_verdicts_an_edit_of_the_live_file_changes(
        browser: Any, served: Served, site: Site) -> None:
    page = browser.new_page()
    page.goto(served.open + "/")
    page.fill("#fetch_url", site.base + "/")
    page.click("#fetch")
    page.wait_for_selector("#fetched")
    live = "User-agent: *\nDisallow: /from-the-site/\n"
    assert page.input_value("#base") == live  # the live file, kept to compare with
    page.fill("#robots", "User-agent: *\nDisallow: /from-the-site/\n\nUser-agent: GPTBot\n"
                         "Disallow: /\n")
    page.fill("#urls", "/news/today")
    page.fill("#agents", "ClaudeBot")
    page.click("#test")
    page.wait_for_selector("#diff")
    assert page.inner_text("#diff-summary").startswith("3 verdict changes: 3 newly disallowed")
    rows = page.evaluate("[...document.querySelectorAll('tr.change')].map(row => "
                         "[...row.querySelectorAll('td')].map(cell => cell.innerText))")
    assert sorted(rows) == [
        ["gptbot", "/", "allowed", "disallowed", "no rule matches", "5: Disallow: /"],
        ["gptbot", "/?x", "allowed", "disallowed", "no rule matches", "5: Disallow: /"],
        ["gptbot", "/news/today", "allowed", "disallowed", "no rule matches", "5: Disallow: /"]]
    page.click("#permalink")  # the compared file is in the permalink too
    page.wait_for_selector("#diff")
    assert page.input_value("#base") == live


def test_page_signals_are_read_and_combined_with_the_file(browser: Any, served: Served,
                                                         site: Site) -> None:
    page = browser.new_page()
    page.goto(served.open + "/")
    page.fill("#robots", "User-agent: *\nContent-Signal: search=yes, ai-train=yes\n"
                         "Disallow: /private/\n")
    page.fill("#agents", "GPTBot")
    page.fill("#page_url", site.base + "/article")
    page.click("#page")
    page.wait_for_selector("#signals")
    shown = page.inner_text("#signals")
    assert "meta robots (line 1): noindex [applies]" in shown
    assert ("X-Robots-Tag (header #3): <script>window.__pwned=1</script> [applies, ignored: "
            "value not understood]") in shown  # a hostile header: text, and no script ran
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector_all("#signals script") == []

    def purposes() -> list[list[str]]:
        return page.evaluate("[...document.querySelectorAll('tr.purpose')].map(row => "
                             "[...row.querySelectorAll('th, td')].map(cell => cell.innerText))")

    assert purposes() == [
        ["search", "refused", "refused by page: meta robots (line 1): noindex"],
        ["ai-input", "not stated", "nothing stated"],
        ["ai-train", "refused", "refused by page: header X-Robots-Tag (header #3): noai"]]
    # a URL the file disallows: refused by robots.txt, whatever the page says
    page.fill("#page_url", site.base + "/private/article")
    page.click("#page")
    page.wait_for_selector("#signals")
    assert {row[1] for row in purposes()} == {"refused"}
    assert "refused by robots.txt" in purposes()[0][2]


def test_an_uploaded_file_is_read_to_the_size_a_crawler_reads(browser: Any, served: Served) -> None:
    page = browser.new_page()
    page.goto(served.guarded + "/")
    page.set_input_files("#upload", {"name": "robots.txt", "mimeType": "text/plain",
                                     "buffer": FILE.encode()})
    page.click("#upload-button")
    page.wait_for_load_state()
    assert page.input_value("#robots") == FILE
    big = b"User-agent: *\n" + b"Disallow: /x\n" * 40_000  # 520 KB, under the body bound
    page.set_input_files("#upload", {"name": "robots.txt", "mimeType": "text/plain",
                                     "buffer": big})
    page.click("#upload-button")
    page.wait_for_selector("#problem")
    assert "only that much is read" in page.inner_text("#problem")
    assert len(page.input_value("#robots")) == 500 * 1024


def test_the_answers_follow_the_edits(browser: Any, served: Served) -> None:
    page = browser.new_page()
    _test(page, served.guarded, FILE, "/private/x.html", "GPTBot")
    assert _rows(page) == [("disallowed", "GPTBot", "/private/x.html")]
    page.fill("#robots", FILE.replace("Disallow: /private/\n", "Disallow: /secret/\n"))
    page.wait_for_function(  # the results replaced by the server's new answer, no reload
        "() => document.querySelector('tr.answer .verdict').innerText === 'allowed'")
    assert _rows(page) == [("allowed", "GPTBot", "/private/x.html")]
    assert _in(page, "#line-2").endswith("Disallow: /secret/")
    assert page.query_selector("tr.answer button.copy").is_visible()
    page.fill("#agents", "<b>not-a-token</b>")
    page.wait_for_selector("#problem")
    assert "agent '<b>not-a-token</b>'" in page.inner_text("#problem")
    assert page.query_selector_all("#results b") == []
