"""The crawler table's licence terms (issue 39): the RSL licence documents a tested file
names are fetched through the page's address guard, read by the project's RSL reader and
shown per crawler as ``robotsrules license`` answers; hostile documents show as text, and
a document that could not be had shows as such (its answers unknown, never "no terms").

The loopback site of conftest.py serves the documents (under ``/licences/``) and counts the
requests it gets.
"""

from __future__ import annotations

from typing import Any

from robotsrules._tables._crawlers import known_crawlers
from robotsrules._web._tester import MAX_LICENCES, judge_file
from tests.timing import HANG
from tests.web.conftest import Served, Site


def _crawlers(page: Any, base: str, robots: str) -> dict[str, str]:
    page.goto(base + "/")
    page.fill("#robots", robots)
    page.fill("#urls", "/")
    page.fill("#agents", "GPTBot")
    page.click("#test")
    page.wait_for_selector("#verdicts, #problem")
    page.click("#crawlers summary")
    return dict(page.evaluate(
        "[...document.querySelectorAll('tr.crawler')].map(row => [row.querySelector('th')"
        ".innerText, row.querySelector('td.licences').innerText])"))


def _cell(terms: list[str]) -> list[str]:
    return [f"{purpose}: {status}" for purpose, status in zip(
        ("search", "ai-input", "ai-train"), terms)]


def test_the_terms_of_a_licence_show_per_crawler_as_license_reads_them(
        browser: Any, served: Served, site: Site) -> None:
    page = browser.new_page()
    licences = site.base + "/licences"
    rows = _crawlers(page, served.open,
                     f"User-agent: *\nDisallow: /private/\nLicense: {licences}/terms.xml\n")
    assert rows["GPTBot"].split("\n") == [
        f"{licences}/terms.xml", *_cell(["permitted", "prohibited", "licensed"])]
    assert rows["Googlebot"] == rows["GPTBot"]  # a License line applies to every crawler,
    tokenless = next(c.label for c in known_crawlers() if c.token is None)
    assert rows[tokenless] == rows["GPTBot"]  # one no group can name too
    terms = page.inner_text("#licence-1")
    assert "Read (HTTP 200)" in terms
    assert "permits usage\nsearch" in terms.replace("\t", "\n")
    assert "permits usage\nai-train" in terms.replace("\t", "\n")
    assert "training: 2.50 EUR" in terms


def test_hostile_and_failed_licences_show_as_text_and_unknown(
        browser: Any, served: Served, site: Site) -> None:
    page = browser.new_page()
    licences, before = site.base + "/licences", len(site.hits)
    rows = _crawlers(page, served.open, "User-agent: *\nDisallow: /private/\n" + "".join(
        f"License: {licences}/{name}.xml\n" for name in ("hostile", "broken", "fourth", "fifth")))
    # the hostile document prohibits ai-train, the fourth ai-input (licensing search only);
    # two could not be had: what no document prohibits is unknown
    assert rows["GPTBot"].split("\n")[1:] == _cell(["unknown", "prohibited", "prohibited"])
    assert page.evaluate("window.__pwned") is None
    assert page.query_selector_all("img") == []
    assert page.query_selector_all("a[href^='javascript']") == []
    assert [s.get_attribute("src") for s in page.query_selector_all("script")] == [
        "/static/workbench.js"]
    hostile = page.inner_text("#licence-1")
    assert "/<script>window.__pwned=1</script>\\u202egnp.exe" in hostile
    assert "javascript:window.__pwned=1" in hostile
    assert '<img src=x onerror="window.__pwned=1">' in hostile
    broken = page.inner_text("#licence-2")
    assert "Not read (unreachable, HTTP 503)" in broken and "unknown, not absent" in broken
    assert "Read (HTTP 200)" in page.inner_text("#licence-3")
    assert page.query_selector("#licence-4") is None  # past the bound: counted, not fetched
    assert "1 more not read: the page reads at most 3 licence documents" in page.inner_text(
        "#licences-more")
    assert rows["GPTBot"].split("\n")[0].endswith("/broken.xml, "
                                                   f"{licences}/fourth.xml and 1 more")
    assert sorted(set(site.hits[before:])) == [
        "/licences/broken.xml", "/licences/fourth.xml", "/licences/hostile.xml"]


def test_a_file_of_many_licences_keeps_the_page_bounded() -> None:
    # review 39, F1: 12,000 License lines made a 64 MB page (every URL in every crawler's
    # cell, one panel entry each); the page names the first few and counts the rest, whose
    # terms stay unknown
    many = 200
    tested = judge_file("User-agent: *\n" + "".join(
        f"License: https://l{n}.example/terms.xml\n" for n in range(many)), "/", "GPTBot")
    assert len(tested.licences) == MAX_LICENCES
    assert tested.more_licences == many - MAX_LICENCES
    for row in tested.crawlers:
        assert row.licences == tuple(f"https://l{n}.example/terms.xml"
                                     for n in range(MAX_LICENCES))
        assert row.more_licences == many - MAX_LICENCES
        assert {status for _, status, _ in row.terms} == {"unknown"}


def test_a_licence_on_a_refused_address_is_not_fetched_and_its_terms_are_unknown(
        site: Site) -> None:
    # review 39: the licence documents go through the page's address guard (SSRF), as the
    # robots.txt does; a server started without --allow-private-addresses asks no loopback
    from robotsrules._web._app import _Workbench

    bench, before = _Workbench(False, HANG), len(site.hits)
    port = site.base.rsplit(":", 1)[1]
    urls = [f"{site.base}/licences/terms.xml",  # and loopback in an IPv4-mapped form
            f"http://[::ffff:127.0.0.1]:{port}/licences/fourth.xml"]
    tested = judge_file("User-agent: *\n" + "".join(f"License: {url}\n" for url in urls), "/",
                        "GPTBot", None, bench.read_licences(site.base))
    assert site.hits[before:] == []
    assert [(doc.state, "address guard" in doc.problem) for doc in tested.licences] == [
        ("unreachable", True)] * 2
    row = next(row for row in tested.crawlers if row.token == "GPTBot")
    assert {status for _, status, _ in row.terms} == {"unknown"}


def test_the_page_keeps_a_bounded_number_of_licence_documents(site: Site) -> None:
    # review 39: each kept document may be 500 KiB; the cache's default 10,000 entries (in
    # its store and in its memo) would let the page hold gigabytes. Past the bound the
    # oldest is fetched again.
    from robotsrules._web._app import LICENCES_KEPT, _Workbench

    read = _Workbench(True, HANG).read_licences(site.base)
    urls = [f"{site.base}/licences/kept-{n}.xml" for n in range(LICENCES_KEPT + 1)]
    before = len(site.hits)
    for url in urls:  # one at a time: the order they are kept in is the order asked
        read([url])
    read(urls[-1:])  # the newest is kept: not fetched again
    read(urls[:1])  # the oldest was dropped: fetched again
    assert site.hits[before:] == [f"/licences/kept-{n}.xml" for n in range(len(urls))] + [
        "/licences/kept-0.xml"]


def test_the_licence_documents_of_a_test_are_fetched_at_once() -> None:
    # review 39, F5: read one after another, three slow documents cost three time limits
    # (90 s by default) for one answer. This server answers only once both requests are in:
    # fetched one after another, the first is refused (503) and its terms are unknown.
    import http.server
    import threading

    from robotsrules._web._app import _Workbench
    from tests.web.conftest import LICENCE_TERMS

    both = threading.Barrier(2, timeout=HANG)

    class Meeting(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            try:
                both.wait()
                status, body = 200, LICENCE_TERMS
            except threading.BrokenBarrierError:
                status, body = 503, b""
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Meeting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        read = _Workbench(True, HANG).read_licences(base)
        documents = read([f"{base}/one.xml", f"{base}/two.xml"])
    finally:
        httpd.shutdown()
        thread.join(HANG)
        httpd.server_close()
    assert [document.state for document in documents] == ["ok", "ok"]
