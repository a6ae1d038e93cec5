"""RSL licences a response names (RSL 1.0, RSL-SPEC-1.0, 2025-11-06): the ``Link`` header
(RFC 8288), the HTML head's ``<link>`` and inline ``<script type="application/rsl+xml">``,
from the examples of rslstandard.org's guides "Adding RSL to HTTP Headers" and "File Format"
(read 2026-11), resolved against the page, and bounded for hostile fields."""

from __future__ import annotations

import pytest

from robotsrules import page_signals
from robotsrules._page._html import MAX_HEAD_LINKS, read_head
from robotsrules._page._links import MAX_LINK_LENGTH, read_links, resolve

PAGE = "https://example.com/articles/1"
RSL_LINK = '<https://example.com/license.xml>; rel="license"; type="application/rsl+xml"'


def test_the_http_guides_example() -> None:
    # "Adding RSL to HTTP Headers": Link: <https://example.com/license.xml>; rel="license";
    # type="application/rsl+xml" on an HTML response.
    block = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n"
             f"Link: {RSL_LINK}\r\n\r\n")
    signals = page_signals(block, agent="ExampleBot", url=PAGE)
    assert signals.license_urls == ("https://example.com/license.xml",)
    (link,) = signals.licenses
    assert (link.source, link.rsl, link.valid, link.offset) == ("header", True, True, 1)
    # Without the page's URL an absolute link is still a licence URL.
    assert page_signals(block, agent="ExampleBot").license_urls == (
        "https://example.com/license.xml",)


def test_the_html_link_and_the_inline_script() -> None:
    # "File Format": a <link> typed application/rsl+xml references a licence file; a
    # <script type="application/rsl+xml"> holds the licence itself.
    html = ('<!doctype html><html><head><title>t</title>\n'
            '<link rel="license" type="application/rsl+xml" href="/license.xml">\n'
            '<script type="application/rsl+xml">\n'
            '<rsl xmlns="https://rslstandard.org/rsl"><content url="/articles/">'
            '<license><prohibits type="usage">ai-train</prohibits></license></content></rsl>\n'
            '</script></head><body>x</body></html>')
    signals = page_signals({}, html, agent="ExampleBot", url=PAGE)
    assert signals.license_urls == ("https://example.com/license.xml",)
    assert signals.licenses[0].line == 2 and signals.licenses[0].source == "html"
    (inline,) = signals.inline_licenses
    assert inline.line == 3 and inline.in_head
    assert inline.text.strip().startswith('<rsl xmlns="https://rslstandard.org/rsl">')
    assert inline.text.strip().endswith("</rsl>")
    pytest.importorskip("defusedxml")
    from robotsrules import parse_license

    document = parse_license(inline.text.strip().encode(), url=PAGE,
                             origin="https://example.com")
    assert document.license_for(PAGE).allows("ai-train") is False


@pytest.mark.parametrize("rel, kind", [
    ("&#108;icense", "application/rsl+xml"),  # "l" as a decimal reference
    ("lic&#x65;nse", "application/&#x72;sl+xml"),  # hexadecimal, in both attributes
    ("LICENSE", "APPLICATION/RSL+XML"),
    ("&NewLine;license", "application/rsl+xml"),  # a named reference: a blank, then the token
])
def test_a_licence_spelled_with_character_references_is_read(rel: str, kind: str) -> None:
    # Attribute values are read with their character references decoded (HTML Living
    # Standard, §13.2.5.36 "attribute value (double-quoted) state", as read 2026-11): the
    # tag's text need not spell "license" or "rsl" for the element to be a licence link or an
    # RSL script.
    html = (f'<head><link rel="{rel}" type="{kind}" href="/l.xml">'
            f'<script type="{kind}"><rsl></rsl></script></head><body>')
    head = read_head(html)
    assert [(link.rel, link.href) for link in head.links] == [(("license",), "/l.xml")]
    assert [script.text for script in head.scripts] == ["<rsl></rsl>"]
    signals = page_signals({}, html, agent="ExampleBot", url=PAGE)
    assert signals.license_urls == ("https://example.com/l.xml",)
    assert len(signals.inline_licenses) == 1


def test_no_named_reference_spells_a_letter_of_license_or_rsl() -> None:
    # The head reader reads a <link>'s or <script>'s attributes only where its tag spells
    # "licen" or "rsl" or holds a numeric reference ("&#"): that is exact only while no named
    # character reference of HTML's table stands for one of those letters.
    import html.entities

    letters = set("licensLICENSrR")
    assert [name for name, value in html.entities.html5.items() if letters & set(value)] == []
    head = read_head('<head><link rel="&lscr;icense &amp; license" href="/l?a=1&amp;b=2">'
                     '<link rel="stylesheet" href="/s?a=1&amp;b=2"></head><body>')
    assert [link.href for link in head.links] == ["/l?a=1&b=2"]


def test_a_plain_license_link_is_kept_but_is_no_rsl_licence() -> None:
    # rel="license" is also the generic relation (RFC 4946; Creative Commons pages): without
    # the RSL media type it is reported, never fetched as RSL.
    signals = page_signals(
        {"Link": '<https://creativecommons.org/licenses/by/4.0/>; rel="license"'},
        '<link rel=license href="https://creativecommons.org/licenses/by/4.0/">',
        agent="ExampleBot", url=PAGE)
    assert signals.license_urls == ()
    assert [(link.source, link.rsl) for link in signals.licenses] == [
        ("header", False), ("html", False)]


def test_links_resolve_against_the_page_and_its_base_url() -> None:
    signals = page_signals(
        {"Link": '</l/header.xml>; rel=license; type=application/rsl+xml'},
        '<head><base href="https://cdn.example.net/licences/">'
        '<link rel="License Alternate" type="Application/RSL+XML; charset=utf-8" '
        'href="page.xml"></head>',
        agent="ExampleBot", url=PAGE)
    # Cross-origin licences are allowed (RSL names hosted licences and licence servers).
    assert signals.license_urls == ("https://example.com/l/header.xml",
                                    "https://cdn.example.net/licences/page.xml")


def test_only_the_first_base_counts_and_a_relative_base_resolves() -> None:
    head = read_head('<base href="/x/"><base href="https://other.example/">'
                     '<link rel=license type=application/rsl+xml href=l.xml>')
    assert head.base == "/x/"
    signals = page_signals({}, '<base href="/x/"><base href="https://other.example/">'
                               '<link rel=license type=application/rsl+xml href=l.xml>',
                           agent="Bot", url=PAGE)
    assert signals.license_urls == ("https://example.com/x/l.xml",)


def test_without_a_page_url_a_relative_link_is_reported_not_listed() -> None:
    signals = page_signals({"Link": '</l.xml>; rel=license; type="application/rsl+xml"'},
                           agent="Bot")
    assert signals.license_urls == ()
    assert signals.licenses[0].written == "/l.xml" and signals.licenses[0].valid is False


@pytest.mark.parametrize("target", ["javascript:alert(1)", "data:text/xml,x",
                                    "ftp://example.com/l.xml", "http://[::1", "mailto:a@b"])
def test_targets_that_are_no_http_url_are_not_licence_urls(target: str) -> None:
    signals = page_signals({"Link": f'<{target}>; rel=license; type=application/rsl+xml'},
                           agent="Bot", url=PAGE)
    assert signals.license_urls == ()
    assert signals.licenses[0].valid is False


def test_a_link_about_another_resource_is_not_this_pages_licence() -> None:
    # RFC 8288 §3.2: "anchor" sets the link's context; a licence for another page is not
    # this response's. An anchor naming the page itself is.
    other = page_signals({"Link": '</l.xml>; rel=license; type=application/rsl+xml; '
                                  'anchor="/elsewhere"'}, agent="Bot", url=PAGE)
    assert other.license_urls == ()
    same = page_signals({"Link": '</l.xml>; rel=license; type=application/rsl+xml; '
                                 'anchor="#section"'}, agent="Bot", url=PAGE)
    assert same.license_urls == ("https://example.com/l.xml",)


def test_rfc_8288_syntax_details() -> None:
    # Several link-values in one field, quoted commas and semicolons, token values,
    # relation types compared case-insensitively, and only the first rel/type counting.
    reading = read_links('</a,b>; rel="next LICENSE"; title="x, y; z", </c>; rel=license;'
                         ' rel=next; type=application/rsl+xml; type=text/html, '
                         '</d>;REL=license;TYPE="application/rsl+xml"')
    assert [(link.target, link.rel, link.type) for link in reading.links] == [
        ("/a,b", ("next", "license"), None),
        ("/c", ("license",), "application/rsl+xml"),
        ("/d", ("license",), "application/rsl+xml")]
    assert reading.malformed == 0


def test_malformed_link_values_are_skipped_and_counted() -> None:
    reading = read_links('garbage, <x> rel=license, </ok>; rel=license, <unclosed; rel=license')
    assert [link.target for link in reading.links] == ["/ok"]
    assert reading.malformed == 3
    # A malformed Link field that mentions a licence is reported.
    signals = page_signals({"Link": "https://example.com/l.xml; rel=license"}, agent="Bot",
                           url=PAGE)
    assert [d.rule for d in signals.directives] == ["link"]
    assert signals.directives[0].valid is False


def test_a_licence_named_twice_is_listed_once() -> None:
    signals = page_signals({"Link": RSL_LINK},
                           '<link rel=license type=application/rsl+xml href="/license.xml">',
                           agent="Bot", url=PAGE)
    assert len(signals.licenses) == 2
    assert signals.license_urls == ("https://example.com/license.xml",)


def test_several_link_fields_are_one_field() -> None:
    signals = page_signals([("Link", "</a.css>; rel=preload"),
                            ("Link", "</l.xml>; rel=license; type=application/rsl+xml")],
                           agent="Bot", url=PAGE)
    assert signals.license_urls == ("https://example.com/l.xml",)
    assert signals.licenses[0].offset == 0  # the first Link line's number


def test_a_huge_link_field_is_read_up_to_its_bound() -> None:
    before = "</l.xml>; rel=license; type=application/rsl+xml, "
    filler = "</p.css>; rel=preload, " * (2 * MAX_LINK_LENGTH // 23)
    after = ", </late.xml>; rel=license; type=application/rsl+xml, </p.css>; rel=preload"
    reading = read_links(before + filler + after)
    assert reading.too_large
    assert [link.target for link in reading.links if "license" in link.rel] == ["/l.xml"]
    signals = page_signals({"Link": before + filler + after}, agent="Bot", url=PAGE)
    assert signals.license_urls == ("https://example.com/l.xml",)
    assert any(d.rule == "link" and "too large" in (d.value or "") for d in signals.directives)


@pytest.mark.parametrize("bomb", ['"' * 300_000, "<" * 300_000, "x," * 300_000,
                                  "<a>" + ";" * 300_000, "<a>; rel=" + '"\\' * 150_000])
def test_hostile_link_fields_are_bounded(bomb: str) -> None:
    reading = read_links(bomb)
    assert reading.too_large  # read to the limit, never beyond
    assert len(reading.links) <= 1


def test_resolution() -> None:
    assert resolve(" \t/l.xml\n", "https://e.example/a/") == ("https://e.example/l.xml", True)
    assert resolve("l\t.x\nml", "https://e.example/a/") == ("https://e.example/a/l.xml", True)
    assert resolve("//cdn.example/l.xml", "https://e.example/") == (
        "https://cdn.example/l.xml", True)


def test_where_the_html_reader_finds_links() -> None:
    link = '<link rel=license type=application/rsl+xml href="/{}.xml">'
    html = ("<html><head><!-- " + link.format("comment") + " -->"
            "<noscript>" + link.format("noscript") + "</noscript>"
            "<template>" + link.format("template") + "</template>"
            + link.format("head") + "</head>" + link.format("after")
            + "<div>" + link.format("implied") + "</div><body>" + link.format("body"))
    signals = page_signals({}, html, agent="Bot", url=PAGE)
    found = [(link.url.rsplit("/", 1)[1], link.in_head) for link in signals.licenses]
    # In head noscript (scripting disabled), in the head and after </head> (the "after head"
    # mode puts it in the head), and in the implied body before <body> (marked); never in a
    # comment, a template or the author's body.
    assert found == [("noscript.xml", True), ("head.xml", True), ("after.xml", True),
                     ("implied.xml", False)]


def test_a_page_without_metas_is_still_read_for_its_licence() -> None:
    # The head reader skips documents with nothing to read; a licence link is something.
    signals = page_signals({}, b"<html><head><link rel=license type=application/rsl+xml "
                               b"href=/l.xml></head>", agent="Bot", url=PAGE)
    assert signals.license_urls == ("https://example.com/l.xml",)


def test_only_scripts_typed_rsl_are_read() -> None:
    head = read_head('<script>var rsl = "<rsl/>";</script>'
                     '<script type="application/rsl+xml" src=x></script>'
                     '<script type="text/rsl">no</script>'
                     '<script type=application/rsl+xml><!--<script></script>--></script>')
    assert [s.text for s in head.scripts] == ["", "<!--<script></script>-->"]


def test_links_and_scripts_are_bounded_per_document() -> None:
    many = '<link rel=license type=application/rsl+xml href="/{}.xml">'
    html = "<head>" + "".join(many.format(n) for n in range(MAX_HEAD_LINKS + 50))
    assert len(read_head(html).links) == MAX_HEAD_LINKS
    # While the head is read, the candidates kept (links, bases and scripts, before their
    # attributes decide) are bounded too, whatever the document holds.
    from robotsrules._page import _html

    extras: list = []
    _html._scan("<head>" + "<base href=/>" * (_html._MAX_EXTRAS + 100), extras)
    assert len(extras) == _html._MAX_EXTRAS


def test_as_dict_carries_the_licences() -> None:
    data = page_signals({"Link": RSL_LINK}, agent="Bot", url=PAGE).as_dict()
    assert data["license_urls"] == ["https://example.com/license.xml"]
    assert data["licenses"][0]["rsl"] is True and data["pricing"] is None
    assert data["inline_licenses"] == []


def test_an_inline_licence_with_an_rsl_name_outside_its_namespace_is_unknown() -> None:
    # issue 33 §2: a prefixed root and an unprefixed <prohibits> read "permitted" (the
    # child was skipped as an extension); the same reader refuses the document now.
    html = ('<!doctype html><html><head><script type="application/rsl+xml">'
            '<rsl:rsl xmlns:rsl="https://rslstandard.org/rsl"><rsl:content url="/">'
            '<rsl:license><prohibits type="usage">ai-train</prohibits></rsl:license>'
            '</rsl:content></rsl:rsl></script></head><body>x</body></html>')
    (inline,) = page_signals({}, html, agent="ExampleBot", url=PAGE).inline_licenses
    pytest.importorskip("defusedxml")
    from robotsrules import parse_license

    document = parse_license(inline.text.strip().encode(), url=PAGE,
                             origin="https://example.com")
    assert document.state == "invalid"
    assert document.license_for(PAGE).status("ai-train") == "unknown"
