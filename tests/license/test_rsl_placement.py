"""RSL elements and attributes where RSL 1.0 does not put them, and the values around them.

RSL 1.0 (RSL-SPEC-1.0, Recommendation, 2025-11-06) §3 places each element: ``<content>`` in
``<rsl>``; ``<license>`` (and ``<alternate>``, ``<schema>``, ``<copyright>``, ``<terms>``)
in ``<content>``; ``<permits>``, ``<prohibits>``, ``<payment>``, ``<reporting>``, ``<legal>``
in ``<license>``; ``<standard>``, ``<custom>``, ``<amount>``, ``<accepts>`` in
``<payment>``. Reading around an element placed elsewhere, or an attribute spelled in
another case or namespace, could drop a prohibition or a price: such a document is
refused (``invalid``, every answer ``unknown``), never read as permitted. The review of
issue 33 §2 found each case below answered "permitted".
"""

from __future__ import annotations

import pytest

from robotsrules import parse_license
from robotsrules._rsl import DocumentCache

NS = b'<rsl xmlns="https://rslstandard.org/rsl">'
RNS = b'<rsl xmlns="https://rslstandard.org/rsl" xmlns:r="https://rslstandard.org/rsl">'
PROHIBIT = b'<prohibits type="usage">ai-train</prohibits>'


def refused(document: bytes, words: str) -> None:
    parsed = parse_license(document)
    assert parsed.state == "invalid", parsed
    assert words in (parsed.error or ""), parsed.error
    terms = parsed.license_for("/a")
    for name in ("ai-train", "search", "all"):
        assert terms.status(name) == "unknown"


@pytest.mark.parametrize("body, words", [
    (b'<content url="/">' + PROHIBIT + b"<license/></content>",
     "<prohibits> does not belong in <content>"),
    (b'<content url="/"><license/><payment type="crawl"/></content>',
     "<payment> does not belong in <content>"),
    (b'<content url="/"><license/><content url="/">'
     b"<license>" + PROHIBIT + b"</license></content></content>",
     "<content> does not belong in <content>"),
    (b'<content url="/"><license><permits type="usage">ai-train<payment type="crawl"/>'
     b"</permits></license></content>", "inside <permits>"),
    (b'<content url="/"><license><permits type="usage">ai-train search' + PROHIBIT
     + b"</permits></license></content>", "inside <permits>"),
    (b'<content url="/"><license><legal type="warranty">' + PROHIBIT
     + b"</legal></license></content>", "<prohibits> inside <legal>"),
    (b'<content url="/"><license><payment type="free"><amount currency="USD">'
     + PROHIBIT + b"</amount></payment></license></content>", "inside <amount>"),
    (b'<content url="/"><license/><terms><license>' + PROHIBIT
     + b"</license></terms></content>", "<license> inside <terms>"),
    (b'<content url="/"><license/><schema><x:w xmlns:x="urn:x"><license>' + PROHIBIT
     + b"</license></x:w></schema></content>", "<license> inside <schema>"),
    (b'<content url="/"><license><reporting type="x" profile="y"><prohibits '
     b'type="usage">ai-train</prohibits></reporting></license></content>',
     "<prohibits> inside <reporting>"),
    (b'<content url="/"><license/><x:ext xmlns:x="urn:x"><prohibits xmlns="" '
     b'type="usage">ai-train</prohibits></x:ext></content>', "spells an RSL element"),
    (b'<content url="/"><license><x:Prohibits xmlns:x="urn:x" type="usage">ai-train'
     b"</x:Prohibits></license></content>", "only in case"),
])
def test_an_element_out_of_place_refuses_the_document(body: bytes, words: str) -> None:
    refused(NS + body + b"</rsl>", words)


@pytest.mark.parametrize("body, words", [
    (b'<content url="/"><license><payment Type="crawl"/></license></content>',
     "case-sensitive"),
    (b'<content url="/"><license><payment r:type="crawl"/></license></content>',
     "in namespace https://rslstandard.org/rsl"),
    (b'<content url="/"><license><payment x:type="crawl" xmlns:x="urn:x"/></license>'
     b"</content>", "in namespace urn:x"),
    (b'<content url="/" r:server="https://ls.example/"><license/></content>',
     "'server' in namespace"),
    (b'<content url="/" Server="https://ls.example/"><license/></content>',
     "case-sensitive"),
    (b'<content url="/" serverurl="https://ls.example/"><license/></content>',
     "not an attribute of <content>"),
    (b'<content url="/"><license><prohibits Type="user">commercial</prohibits></license>'
     b"</content>", "case-sensitive"),
    (b'<content url="/"><license type="free"/></content>', "not an attribute of <license>"),
    (b'<content url="/"><license><payment type="free"><amount currency="USD">10</amount>'
     b"</payment></license></content>", "free or priced cannot be told"),
    (b'<content url="/" server=""><license/></content>', "an empty licence server"),
])
def test_an_attribute_that_could_be_misread_refuses_the_document(body: bytes,
                                                                 words: str) -> None:
    refused(RNS + body + b"</rsl>", words)


def test_known_attributes_and_leaves_still_read() -> None:
    document = parse_license(
        NS[:-1] + b' max-age="7"><content url="/" lastmod="2025-11-06" encrypted="false">'
        b'<license><permits type="usage">search</permits><legal type="warranty">none</legal>'
        b'<reporting type="x" profile="y"/></license><terms>https://ex.com/t</terms>'
        b'<copyright type="organization" contactEmail="a@ex.com">Ex</copyright>'
        b'</content></rsl>')
    assert document.state == "ok", document.error
    assert document.license_for("/a").status("search") == "licensed"  # reporting asked


@pytest.mark.parametrize("payment", [b"<payment/>", b'<payment type="gratis"/>',
                                     b"<payment><standard/></payment>"])
def test_a_payment_without_a_known_type_is_not_free(payment: bytes) -> None:
    document = parse_license(NS + b'<content url="/"><license>' + payment
                             + b"</license></content></rsl>")
    assert document.state == "ok", document.error
    answer = document.license_for("/a").answer("ai-train")
    assert answer.status == "licensed", answer


def test_a_usage_token_with_the_rsl_prefix_is_the_rsl_token() -> None:
    document = parse_license(RNS + b'<content url="/"><license><r:prohibits type="usage">'
                             b"r:ai-all</r:prohibits></license></content></rsl>")
    assert document.state == "ok", document.error
    assert document.license_for("/a").status("ai-train") == "prohibited"


def test_a_usage_token_with_an_unbound_prefix_refuses_the_document() -> None:
    refused(NS + b'<content url="/"><license><prohibits type="usage">x:ai-train</prohibits>'
            b"</license></content></rsl>", "bound to no namespace")
    refused(RNS + b'<content url="/"><license><prohibits type="usage">r:ai-bogus'
            b"</prohibits></license></content></rsl>", "is not an RSL 1.0 usage token")
    # a prefix bound to another namespace is an extension token: kept, and it grants nothing
    document = parse_license(NS + b'<content url="/" xmlns:x="urn:x"><license>'
                             b'<permits type="usage">x:ai-train</permits></license>'
                             b"</content></rsl>")
    assert document.state == "ok", document.error
    assert document.license_for("/a").status("ai-train") == "prohibited"


@pytest.mark.parametrize("space", ["\u00a0", "\u0085", "\u2003"])
def test_tokens_are_separated_by_xml_white_space_only(space: str) -> None:
    xml = (NS.decode() + '<content url="/"><license><permits type="usage">'
           f"search{space}ai-train</permits></license></content></rsl>")
    refused(xml.encode("utf-8"), "is not an RSL 1.0 usage token")
    assert parse_license(xml.replace(space, " \t\r\n")).state == "ok"


def test_a_lone_surrogate_is_an_invalid_document_not_a_crash() -> None:
    xml = NS.decode() + '<content url="/\ud800"><license/></content></rsl>'
    document = parse_license(xml)
    assert document.state == "invalid"
    assert "not well-formed" in (document.error or "")
    cache = DocumentCache()
    assert cache.get(xml).state == "invalid"
    assert cache.statuses([xml], ["/a"], ["ai-train"]) == ["unknown"]


@pytest.mark.parametrize("broad, narrow", [("/", "/*"), ("/a", "/a**"), ("/a", "/a*")])
def test_equivalent_patterns_are_equally_specific(broad: str, narrow: str) -> None:
    """``/*`` matches what ``/`` matches: neither is narrower, the most restrictive wins."""
    xml = (NS.decode() + f'<content url="{broad}"><license>{PROHIBIT.decode()}</license>'
           f'</content><content url="{narrow}"><license/></content></rsl>')
    assert parse_license(xml).license_for("/a/b").status("ai-train") == "prohibited"
    swapped = xml.replace(f'"{broad}"', '"@"').replace(f'"{narrow}"', f'"{broad}"')
    assert parse_license(swapped.replace('"@"', f'"{narrow}"')).license_for(
        "/a/b").status("ai-train") == "prohibited"


def test_a_path_with_a_space_matches_its_percent_encoded_form() -> None:
    """RFC 9309 §2.2.2 compares paths percent-encoded: ``/a b`` is ``/a%20b``."""
    document = parse_license(NS + b'<content url="/a b"><license>' + PROHIBIT
                             + b"</license></content></rsl>")
    for url in ("/a%20b", "/a b", "https://ex.com/a%20b/c"):
        assert document.license_for(url).status("ai-train") == "prohibited", url
    encoded = parse_license(NS + b'<content url="/a%20b"><license>' + PROHIBIT
                            + b"</license></content></rsl>")
    assert encoded.license_for("/a b").status("ai-train") == "prohibited"
