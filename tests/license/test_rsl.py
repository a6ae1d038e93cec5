"""RSL 1.0 licence documents read and answered: the specification's examples as fixtures.

Each fixture (tests/license/fixtures, see its README) follows an example of RSL 1.0
(RSL-SPEC-1.0, Recommendation, 2025-11-06); the tests say what the specification makes of
it. The reading rules are in robotsrules._rsl's docstring.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Optional

import pytest

import robotsrules
from robotsrules import LicenseDocument, LicenseTerms, parse_license
from robotsrules.errors import InvalidArgument, InvalidPurpose

FIXTURES = Path(__file__).parent / "fixtures"
NS = b'<rsl xmlns="https://rslstandard.org/rsl">'


def fixture(name: str, **kwargs: object) -> LicenseDocument:
    document = parse_license((FIXTURES / name).read_bytes(), **kwargs)  # type: ignore[arg-type]
    assert document.state == "ok", document.error
    return document


def statuses(terms: LicenseTerms, *names: str) -> dict[str, str]:
    return {name: terms.status(name) for name in names}


def doc(body: bytes, **kwargs: object) -> LicenseDocument:
    return parse_license(NS + body + b"</rsl>", **kwargs)  # type: ignore[arg-type]


# -- the specification's examples ---------------------------------------------------------

def test_rsl_3_1_2_the_narrower_scope_decides() -> None:
    document = fixture("articles.xml")
    site = document.license_for("https://example.com/about")
    assert statuses(site, "search", "ai-train", "ai-input", "ai-index", "all") == dict.fromkeys(
        ("search", "ai-train", "ai-input", "ai-index", "all"), "permitted")
    articles = document.license_for("https://example.com/articles/2025/one.html")
    assert articles.allows("ai-train") is False
    answer = articles.answer("ai-train")
    assert answer.status == "prohibited"
    assert 'content url="/articles/"' in answer.reason and "prohibits usage ai-train" in answer.reason
    # Everything else stays permitted under /articles/ (only training is prohibited there).
    assert statuses(articles, "search", "ai-input", "ai-index") == {
        "search": "permitted", "ai-input": "permitted", "ai-index": "permitted"}


def test_the_library_purposes_are_joined_through_the_data_table() -> None:
    articles = fixture("articles.xml").license_for("/articles/x")
    # ai-train (Content Signals), train-ai (aipref), train-genai (earlier aipref): one use.
    for purpose in ("ai-train", "train-ai", "train-genai"):
        assert articles.allows(purpose) is False, purpose
        assert articles.answer(purpose).token == "ai-train"
    assert articles.answer("ai-use").token == "ai-input"
    assert articles.allows("ai-use") is True
    # A broad use is permitted only when every use it covers is.
    assert articles.allows("bots") is False
    assert articles.allows("ai-all") is False


def test_pay_per_crawl_is_licensed_on_terms_never_permitted() -> None:
    document = fixture("pay-per-crawl.xml")
    assert document.max_age == 7
    terms = document.license_for("/any/page")
    answer = terms.answer("ai-train")
    assert answer.status == "licensed"
    assert terms.allows("ai-train") is False
    assert terms.allows("search") is False
    payment = answer.licenses[0].payment
    assert payment is not None and payment.type == "crawl" and not payment.free
    assert (payment.amount.value, payment.amount.currency) == ("0.015", "USD")  # type: ignore[union-attr]
    assert payment.standard == "https://example.com/licenses/pay-per-crawl"
    assert "payment crawl 0.015 USD" in answer.reason


def test_user_and_region_restrictions() -> None:
    document = fixture("restricted.xml")
    unknown = document.license_for("/a")
    assert unknown.status("ai-input") == "licensed"          # who asks is not known
    assert "user non-commercial education" in unknown.answer("ai-input").reason
    assert unknown.status("ai-train") == "prohibited"        # the permits list is closed
    assert unknown.status("search") == "prohibited"
    school = document.license_for("/a", user="education", geo="US")
    assert school.allows("ai-input") is True
    assert document.license_for("/a", user="commercial", geo="US").status("ai-input") == "prohibited"
    assert document.license_for("/a", user="education", geo="CN").status("ai-input") == "prohibited"
    # EU stands for its member states (data/rsl.json "geo"/"regions"): France is in it.
    assert document.license_for("/a", user="education", geo="FR").allows("ai-input") is True
    assert document.license_for("/a", user="education", geo="CH").status("ai-input") == "prohibited"


def test_a_licence_server_is_a_condition_even_for_free_terms() -> None:
    terms = fixture("collective.xml").license_for("/x")
    answer = terms.answer("ai-train")
    assert answer.status == "licensed"
    assert "licence token from https://licensing.example.org/api" in answer.reason
    assert "payment use" in answer.reason
    assert terms.status("search") == "prohibited"  # ai-all does not cover search
    free_with_server = doc(b'<content url="/" server="https://ls.example/"><license>'
                           b'<payment type="free"/></license></content>')
    assert free_with_server.license_for("/").status("search") == "licensed"


def test_attribution_is_a_condition() -> None:
    answer = fixture("attribution.xml").license_for("/").answer("search")
    assert answer.status == "licensed" and "payment attribution" in answer.reason


def test_search_yes_ai_no() -> None:
    terms = fixture("search-only.xml").license_for("/news")
    assert terms.allows("search") is True
    for name in ("ai-train", "ai-input", "ai-index", "train-ai", "ai-use", "bots", "all"):
        assert terms.allows(name) is False, name


def test_the_guide_template_writing_train_ai_is_read_as_ai_train() -> None:
    document = fixture("prohibit-training.xml")
    assert document.license_for("/").allows("ai-train") is False
    assert any("'train-ai' is read as 'ai-train'" in w for w in document.warnings)


def test_several_licences_are_offers() -> None:
    terms = fixture("offers.xml").license_for("/page")
    assert terms.status("search") == "permitted"
    training = terms.answer("ai-train")
    assert training.status == "licensed"
    assert [lic.index for lic in training.licenses] == [2]
    assert "payment training 2.50 EUR, custom https://example.com/ai-licensing" in training.reason
    assert terms.status("ai-input") == "prohibited"  # no licence grants it


def test_full_url_contents_and_other_origins() -> None:
    document = fixture("full-urls.xml", origin="https://EXAMPLE.com:443")
    assert document.origin == "https://example.com"
    assert [c.url for c in document.ignored] == ["https://elsewhere.example.net/"]
    assert document.license_for("https://example.com/news/a.html").allows("ai-input") is False
    assert document.license_for("https://example.com/news/a.htm").status("ai-input") == "unstated"
    # A URL of another origin than the document's site: the document does not speak for it.
    assert document.license_for("https://elsewhere.example.net/x").status("all") == "unstated"
    # Without a site, each full-URL content speaks for its own origin.
    anywhere = fixture("full-urls.xml")
    assert anywhere.ignored == ()
    assert anywhere.license_for("https://elsewhere.example.net/x").allows("search") is False
    assert anywhere.license_for("https://example.com/x").status("search") == "unstated"
    # A path cannot be matched against full-URL contents without the site (issue 33 §2):
    # the caller's mistake, never "unstated".
    with pytest.raises(InvalidArgument, match="give the site's origin"):
        anywhere.license_for("/news/a.html")
    with pytest.raises(InvalidArgument):
        LicenseTerms("/news/a.html", (anywhere,))
    assert document.license_for("/news/a.html").allows("ai-input") is False


# -- reading rules ---------------------------------------------------------------------------

def test_content_patterns_follow_rfc_9309() -> None:
    document = doc(b'<content url="/*.pdf$"><license><prohibits type="usage">ai-train'
                   b'</prohibits></license></content>'
                   b'<content url="/%7Ejoe/"><license><prohibits type="usage">all'
                   b'</prohibits></license></content>')
    assert document.license_for("/a/b.pdf").allows("ai-train") is False
    assert document.license_for("/a/b.pdf?x").status("ai-train") == "unstated"  # $ anchors
    assert document.license_for("/~joe/x").allows("search") is False  # escapes normalised
    assert document.license_for("/%7ejoe/x").allows("search") is False


def test_equally_specific_contents_combine_most_restrictively() -> None:
    document = doc(b'<content url="/a"><license><permits type="usage">all</permits>'
                   b'</license></content>'
                   b'<content url="/a"><license><prohibits type="usage">ai-input'
                   b'</prohibits></license></content>')
    terms = document.license_for("/a")
    assert terms.allows("ai-input") is False
    assert terms.allows("search") is True


def test_a_licence_prohibiting_beats_an_offer_of_the_same_content() -> None:
    document = doc(b'<content url="/"><license><prohibits type="usage">ai-train</prohibits>'
                   b'</license><license><permits type="usage">ai-train</permits>'
                   b'<payment type="training"/></license></content>')
    assert document.license_for("/").status("ai-train") == "prohibited"
    free_offer = doc(b'<content url="/"><license><prohibits type="usage">ai-train</prohibits>'
                     b'</license><license/></content>')
    assert free_offer.license_for("/").status("ai-train") == "prohibited"
    assert free_offer.license_for("/").status("search") == "permitted"


def test_a_licence_without_terms_permits_everything_for_free() -> None:
    terms = doc(b'<content url="/"><license/></content>').license_for("/")
    assert all(terms.allows(t) is True for t in ("all", "ai-train", "search"))


def test_extensions_are_skipped_and_a_prefixed_root_is_read() -> None:
    body = (b'<r:rsl xmlns:r="https://rslstandard.org/rsl" xmlns:x="urn:x">'
            b'<x:note>ignored</x:note><r:content url="/"><r:license>'
            b'<x:extra><x:deep/></x:extra>'
            b'<r:prohibits type="usage">ai-train x:custom-use</r:prohibits>'
            b'</r:license></r:content></r:rsl>')
    document = parse_license(body)
    assert document.state == "ok", document.error
    assert document.license_for("/").allows("ai-train") is False


def test_a_root_without_namespace_is_read_with_a_warning() -> None:
    document = parse_license(b'<rsl><content url="/"><license><prohibits type="usage">'
                             b'ai-train</prohibits></license></content></rsl>')
    assert document.license_for("/").allows("ai-train") is False
    assert any("no namespace" in w for w in document.warnings)


def test_comma_separated_tokens_are_read_with_a_warning() -> None:
    document = doc(b'<content url="/"><license><prohibits type="usage">ai-train,ai-input'
                   b'</prohibits></license></content>')
    terms = document.license_for("/")
    assert (terms.allows("ai-train"), terms.allows("ai-input"), terms.allows("search")) == (
        False, False, True)
    assert any("commas" in w for w in document.warnings)


@pytest.mark.parametrize("body, words", [
    (b'<content url="/"><license><permit type="usage">search</permit></license></content>',
     "<permit> is not an RSL 1.0 element"),
    (b'<content url="/"><license><prohibits type="usage">ai-training</prohibits></license>'
     b'</content>', "'ai-training' is not an RSL 1.0 usage token"),
    (b'<content><license/></content>', "no url attribute"),
    (b'<content url="/"></content>', "has no <license>"),
    (b'', "no <content> element"),
    (b'<content url="fish"><license/></content>', "neither a path"),
    (b'<content url="/"><license><permits type="usage">search</permits>'
     b'<permits type="usage">ai-train</permits></license></content>',
     'a second <permits type="usage">'),
    (b'<content url="/"><license><permits type="colour">red</permits></license></content>',
     "the type is usage, user or geo"),
    (b'<license/>', "<license> does not belong in <rsl>"),
    (b'<content url="/"><license><payment><cost>1</cost></payment></license></content>',
     "<cost> is not an RSL 1.0 element"),
])
def test_invalid_documents_say_why_and_answer_unknown(body: bytes, words: str) -> None:
    document = doc(body)
    assert document.state == "invalid"
    assert words in (document.error or ""), document.error
    terms = document.license_for("/")
    for name in ("ai-train", "search", "all"):
        answer = terms.answer(name)
        assert answer.status == "unknown" and answer.allowed is None
        assert "licence document invalid" in answer.reason


def test_not_rsl_at_all() -> None:
    for body, words in ((b"<html><head></head></html>", "the root element is <html>"),
                        (b'<rsl xmlns="urn:other"/>', "in namespace urn:other"),
                        (b"User-agent: *\nDisallow: /\n", "not well-formed XML"),
                        (b"", "not well-formed XML")):
        document = parse_license(body)
        assert document.state == "invalid" and words in (document.error or ""), document.error


def test_max_age_is_read_in_days() -> None:
    assert doc(b'<content url="/"><license/></content>').max_age == 30
    bad = parse_license(b'<rsl xmlns="https://rslstandard.org/rsl" max-age="-3">'
                        b'<content url="/"><license/></content></rsl>')
    assert bad.max_age == 30 and any("max-age" in w for w in bad.warnings)


def test_unknown_payment_type_is_a_payment_asked() -> None:
    document = doc(b'<content url="/"><license><payment type="inference"/></license></content>')
    assert document.license_for("/").status("ai-input") == "licensed"
    assert any("'inference'" in w for w in document.warnings)


# -- several documents, no document -----------------------------------------------------------

def _state(state: str) -> LicenseDocument:
    return LicenseDocument(url=f"https://l.example/{state}.xml", state=state,  # type: ignore[arg-type]
                           error="HTTP 503")


def test_several_documents_combine_most_restrictively() -> None:
    permit = doc(b'<content url="/"><license/></content>')
    prohibit = doc(b'<content url="/x"><license><prohibits type="usage">ai-train'
                   b'</prohibits></license></content>')
    pay = fixture("pay-per-crawl.xml")
    combos = {
        (permit, prohibit): "prohibited",
        (permit, _state("unreachable")): "unknown",
        (prohibit, _state("unreachable")): "prohibited",
        (permit, pay): "licensed",
        (pay, _state("invalid")): "unknown",
    }
    for documents, expected in combos.items():
        terms = LicenseTerms("/x/y", documents)
        assert terms.status("ai-train") == expected, documents
    # A document that says nothing about the URL does not change the others' answer.
    assert LicenseTerms("/z", (permit, prohibit)).status("ai-train") == "permitted"
    assert LicenseTerms("/z", ()).answer("ai-train").reason == "no License line applies"


def test_unknown_names_are_the_callers_mistake() -> None:
    terms = fixture("articles.xml").license_for("/")
    with pytest.raises(InvalidPurpose):
        terms.allows("ai_train")
    with pytest.raises(InvalidPurpose):
        terms.status("training")


def test_records_are_frozen_and_pickle() -> None:
    document = fixture("offers.xml", url="https://example.com/license.xml",
                       origin="https://example.com")
    again = pickle.loads(pickle.dumps(document))
    assert again == document
    assert again.license_for("https://example.com/p").status("ai-train") == "licensed"
    terms = pickle.loads(pickle.dumps(document.license_for("https://example.com/p")))
    assert terms.answer("ai-train").source == "https://example.com/license.xml"
    with pytest.raises(AttributeError):
        document.state = "invalid"  # type: ignore[misc]


def test_public_names() -> None:
    for name in ("LicenseDocument", "LicenseTerms", "LicenseAnswer", "parse_license"):
        assert getattr(robotsrules, name) is not None


def test_allowed_mirrors_status() -> None:
    expected: dict[str, Optional[bool]] = {"permitted": True, "licensed": False,
                                           "prohibited": False, "unstated": None,
                                           "unknown": None}
    answer = fixture("offers.xml").license_for("/").answer("search")
    for status, allowed in expected.items():
        assert answer._replace(status=status).allowed is allowed  # type: ignore[arg-type]


# -- issue 33 §2: readings that answered "permitted" where the document says no ------------

PREFIXED = (b'<rsl:rsl xmlns:rsl="https://rslstandard.org/rsl"><rsl:content url="/">'
            b'<rsl:license>%s</rsl:license></rsl:content></rsl:rsl>')


@pytest.mark.parametrize("body", [
    PREFIXED % b'<prohibits type="usage">ai-train</prohibits>',
    PREFIXED % b'<prohibits xmlns="" type="usage">ai-train</prohibits>',
    PREFIXED % b'<x:prohibits xmlns:x="urn:other" type="usage">ai-train</x:prohibits>',
    PREFIXED % b'<payment type="crawl"><amount currency="USD">1</amount></payment>',
    (b'<rsl:rsl xmlns:rsl="https://rslstandard.org/rsl"><content url="/"><license>'
     b'<prohibits type="usage">ai-train</prohibits></license></content></rsl:rsl>'),
    NS + (b'<content url="/"><license xmlns=""><prohibits type="usage">ai-train</prohibits>'
          b'</license></content></rsl>'),
    # an RSL element wrapped in an extension element (skipped with it before)
    NS + (b'<content url="/"><license><x:wrap xmlns:x="urn:x"><prohibits type="usage">'
          b'ai-train</prohibits></x:wrap></license></content></rsl>'),
    PREFIXED % (b'<x:wrap xmlns:x="urn:x"><x:deeper><rsl:prohibits type="usage">ai-train'
                b'</rsl:prohibits></x:deeper></x:wrap>'),
    # the lenient root without namespace, with RSL-namespaced children
    (b'<rsl><content url="/"><license><r:prohibits xmlns:r="https://rslstandard.org/rsl" '
     b'type="usage">ai-train</r:prohibits></license></content></rsl>'),
])
def test_an_rsl_element_name_outside_the_rsl_namespace_refuses_the_document(body: bytes
                                                                             ) -> None:
    document = parse_license(body)
    assert document.state == "invalid", "skipped as an extension: read permitted"
    assert "refused rather than skipped" in (document.error or ""), document.error
    terms = document.license_for("/page")
    assert {terms.status(t) for t in ("ai-train", "search", "all")} == {"unknown"}


def test_an_extension_with_its_own_names_is_still_skipped() -> None:
    document = parse_license(PREFIXED % (b'<x:binding xmlns:x="urn:x" ref="a"/>'
                                         b'<rsl:prohibits type="usage">ai-train</rsl:prohibits>'))
    assert document.state == "ok", document.error
    assert document.license_for("/").allows("ai-train") is False


CRAWL = b'<payment type="crawl"><amount currency="USD">1</amount></payment>'
FREE = b'<payment type="free"/>'


@pytest.mark.parametrize("first, second", [(CRAWL, FREE), (FREE, CRAWL), (FREE, FREE)])
def test_two_payments_in_one_licence_refuse_the_document(first: bytes, second: bytes) -> None:
    # the last one won: "crawl 1 USD" then "free" read permitted, the other order licensed
    document = doc(b'<content url="/"><license>' + first + second + b'</license></content>')
    assert document.state == "invalid"
    assert "a second <payment> in one licence" in (document.error or "")
    assert document.license_for("/").status("search") == "unknown"


def test_payments_in_separate_licences_are_separate_offers() -> None:
    document = doc(b'<content url="/"><license>' + CRAWL + b'</license><license>' + FREE
                   + b'</license></content>')
    assert document.license_for("/").status("search") == "permitted"


@pytest.mark.parametrize("written", ["US", "us", "Us"])
@pytest.mark.parametrize("asked", ["US", "us", "uS"])
def test_geo_codes_compare_case_insensitively(written: str, asked: str) -> None:
    document = doc(f'<content url="/"><license><prohibits type="geo">{written}</prohibits>'
                   f'</license></content>'.encode())
    assert document.state == "ok", document.error
    assert document.license_for("/", geo=asked).status("ai-train") == "prohibited"
    assert document.license_for("/", geo="CA").status("ai-train") == "permitted"
    allowed = doc(f'<content url="/"><license><permits type="geo">{written}</permits>'
                  f'</license></content>'.encode())
    assert allowed.license_for("/", geo=asked).status("ai-train") == "permitted"
    assert allowed.license_for("/", geo="CA").status("ai-train") == "prohibited"


@pytest.mark.parametrize("written, asked", [("Commercial", "commercial"),
                                            ("COMMERCIAL", "Commercial"),
                                            ("non-commercial", "NON-COMMERCIAL")])
def test_user_classes_compare_case_insensitively(written: str, asked: str) -> None:
    document = doc(f'<content url="/"><license><prohibits type="user">{written}</prohibits>'
                   f'</license></content>'.encode())
    assert document.license_for("/", user=asked).status("ai-train") == "prohibited"
    assert document.license_for("/", user="personal").status("ai-train") == "permitted"


@pytest.mark.parametrize("kind, token", [
    ("geo", "USA"), ("geo", "UK"), ("geo", "U1"), ("geo", "\u00df"), ("geo", "E"),
    ("geo", "XX"), ("user", "bogus"), ("user", "students"), ("user", "x:member"),
])
def test_document_tokens_outside_the_vocabulary_make_it_invalid(kind: str, token: str
                                                                ) -> None:
    for element in ("prohibits", "permits"):
        document = doc(f'<content url="/"><license><{element} type="{kind}">{token}'
                       f'</{element}></license></content>'.encode())
        assert document.state == "invalid", (element, token)
        assert f"{token!r} is not a" in (document.error or "")
        assert document.license_for("/", geo="US").status("ai-train") == "unknown"


@pytest.mark.parametrize("user, geo", [("bogus", None), ("Commercial ", None),
                                       (None, "Usa"), (None, "UK"), (None, "\u00df"),
                                       (None, ""), (None, "U"), ("", None)])
def test_the_callers_class_and_region_are_checked(user: Optional[str], geo: Optional[str]
                                                  ) -> None:
    document = fixture("restricted.xml")
    with pytest.raises(InvalidArgument, match=r"unknown (user class|region)"):
        document.license_for("/a", user=user, geo=geo)
    with pytest.raises(InvalidArgument):
        LicenseTerms("/a", (), user=user, geo=geo)


def test_the_callers_values_are_kept_in_canonical_case() -> None:
    terms = fixture("restricted.xml").license_for("/a", user="Education", geo="us")
    assert (terms.user, terms.geo) == ("education", "US")
    assert terms.allows("ai-input") is True


def test_a_region_stands_for_its_member_states_on_both_sides() -> None:
    prohibits_eu = doc(b'<content url="/"><license><prohibits type="geo">EU</prohibits>'
                       b'</license></content>')
    assert prohibits_eu.license_for("/", geo="DE").status("ai-train") == "prohibited"
    assert prohibits_eu.license_for("/", geo="eu").status("ai-train") == "prohibited"
    assert prohibits_eu.license_for("/", geo="US").status("ai-train") == "permitted"
    assert prohibits_eu.license_for("/", geo="NO").status("ai-train") == "permitted"
    prohibits_de = doc(b'<content url="/"><license><prohibits type="geo">DE</prohibits>'
                       b'</license></content>')
    # a caller somewhere in the EU may be in Germany: restrictive
    assert prohibits_de.license_for("/", geo="EU").status("ai-train") == "prohibited"
    permits_de = doc(b'<content url="/"><license><permits type="geo">DE</permits>'
                     b'</license></content>')
    assert permits_de.license_for("/", geo="EU").status("ai-train") == "prohibited"
    assert permits_de.license_for("/", geo="de").status("ai-train") == "permitted"
    permits_eu = doc(b'<content url="/"><license><permits type="geo">EU</permits>'
                     b'</license></content>')
    assert permits_eu.license_for("/", geo="EU").status("ai-train") == "permitted"
    assert permits_eu.license_for("/", geo="IE").status("ai-train") == "permitted"
    assert permits_eu.license_for("/", geo="GB").status("ai-train") == "prohibited"
