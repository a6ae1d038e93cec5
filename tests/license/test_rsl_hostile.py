"""Hostile RSL documents: entity bombs, external entities, deep nesting, huge files, noise.

The promise (robotsrules._rsl, docs/guides/licences.md): any bytes give a LicenseDocument;
what cannot be read safely is ``state="invalid"`` with a clear error, never a traceback,
never an expansion, never a fetch, and never a "permitted" answer.
"""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules import parse_license
from robotsrules._rsl import MAX_CONTENTS, MAX_DEPTH, MAX_ELEMENTS, STATUSES, USAGE_TOKENS

NS = b'<rsl xmlns="https://rslstandard.org/rsl">'
GOOD = NS + b'<content url="/"><license><prohibits type="usage">ai-train</prohibits>' \
            b'</license></content></rsl>'


def _refused(body: bytes, words: str) -> None:
    document = parse_license(body)
    assert document.state == "invalid", document
    assert words in (document.error or ""), document.error
    terms = document.license_for("/")
    assert all(terms.allows(name) is None for name in ("ai-train", "search", "all"))


def test_billion_laughs_is_refused_before_any_expansion() -> None:
    entities = b"".join(
        b'<!ENTITY l%d "&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;">' % (
            (i,) + (i - 1,) * 10) for i in range(1, 10))
    bomb = (b'<?xml version="1.0"?><!DOCTYPE rsl [<!ENTITY l0 "lol">' + entities + b']>'
            + NS + b'<content url="/"><license><prohibits type="usage">&l9;</prohibits>'
            b'</license></content></rsl>')
    _refused(bomb, "document type declaration (<!DOCTYPE rsl>) is refused")


def test_external_entities_are_never_fetched() -> None:
    for body in (b'<!DOCTYPE rsl SYSTEM "http://127.0.0.1:9/rsl.dtd">' + GOOD,
                 b'<!DOCTYPE rsl [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + NS
                 + b'<content url="/"><license>&x;</license></content></rsl>'):
        _refused(body, "refused")


def test_a_quadratic_blowup_attribute_is_bounded_by_the_size_limit() -> None:
    # Without a DTD no entity can be declared: a long document is simply long.
    body = NS + b'<content url="/' + b"a" * 600_000 + b'"><license/></content></rsl>'
    _refused(body, "larger than 512,000 bytes")
    assert parse_license(body, max_bytes=2_000_000).state == "ok"


def test_an_undefined_entity_is_not_well_formed() -> None:
    _refused(NS + b'<content url="/">&undefined;<license/></content></rsl>',
             "not well-formed XML")


def test_deep_nesting_is_refused_at_the_limit() -> None:
    inner = b"<x:a>" * (MAX_DEPTH - 2) + b"</x:a>" * (MAX_DEPTH - 2)
    fits = (b'<rsl xmlns="https://rslstandard.org/rsl" xmlns:x="urn:x"><content url="/">'
            + inner + b'<license/></content></rsl>')
    assert parse_license(fits).state == "ok"
    deep = b"<a>" * 50_000 + b"</a>" * 50_000  # 350 KB, under the size limit
    _refused(NS + deep + b"</rsl>", f"nested deeper than {MAX_DEPTH} levels")
    _refused(NS + b"<a>" * (MAX_DEPTH) + b"</a>" * MAX_DEPTH + b"</rsl>", "nested deeper")


def test_too_many_elements_are_refused() -> None:
    many = b"<a/>" * MAX_ELEMENTS  # 400 KB, under the size limit; the root makes one more
    _refused(NS + many + b"</rsl>", f"more than {MAX_ELEMENTS:,} elements")


def test_too_many_contents_are_refused_not_cut() -> None:
    one = b'<content url="/"><license/></content>'
    _refused(NS + one * (MAX_CONTENTS + 1) + b"</rsl>", "<content> elements")
    assert parse_license(NS + one * MAX_CONTENTS + b"</rsl>").state == "ok"


def test_text_in_other_encodings_and_bad_bytes() -> None:
    utf16 = GOOD.decode().replace('<rsl', '<?xml version="1.0" encoding="UTF-16"?><rsl', 1)
    assert parse_license(utf16.encode("utf-16")).license_for("/").allows("ai-train") is False
    _refused(NS + b'<content url="/\xff"><license/></content></rsl>', "not well-formed XML")
    _refused(b"\x00" * 100, "not well-formed XML")


def test_control_characters_in_errors_are_kept_for_the_printer() -> None:
    # The reader reports what it saw; printing goes through robotsrules._terminal.visible
    # (tests/license/test_license_cli.py checks the command line shows them escaped).
    document = parse_license(NS + b'<content url="/"><license><permits type="usage">'
                             b'ai-train\x1b[31m</permits></license></content></rsl>')
    assert document.state == "invalid"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_a_document_and_a_bounded_answer(body: bytes) -> None:
    document = parse_license(body)
    assert document.state in ("ok", "invalid")
    terms = document.license_for("/a")
    for name in USAGE_TOKENS:
        answer = terms.answer(name)
        assert answer.status in STATUSES
        if document.state != "ok":
            assert answer.status == "unknown"
    pickle.loads(pickle.dumps(document))


_TOKEN = st.sampled_from([*USAGE_TOKENS, "x:ext", "train-ai"])
_ELEMENT = st.builds(
    lambda kind, which, tokens: (f'<{which} type="{kind}">' + " ".join(tokens)
                                 + f"</{which}>").encode(),
    st.just("usage"), st.sampled_from(["permits", "prohibits"]),
    st.lists(_TOKEN, min_size=1, max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["/", "/a", "/a/b", "/*b"]),
                          st.lists(st.lists(_ELEMENT, max_size=2), min_size=1, max_size=3)),
                min_size=1, max_size=4),
       st.sampled_from(USAGE_TOKENS))
def test_a_prohibition_that_applies_is_never_answered_permitted(contents: list,
                                                                token: str) -> None:
    """Whatever the document, a use some deciding licence prohibits is never permitted;
    and 'permitted' needs a licence that grants it with nothing asked."""
    body = NS[:-1] + b' xmlns:x="urn:x">'  # x: bound, so x:ext is an extension token
    for url, licences in contents:
        body += f'<content url="{url}">'.encode()
        for elements in licences:
            kinds = set()
            kept = []
            for element in elements:  # at most one permits and one prohibits per licence
                kind = element.split(b" ", 1)[0]
                if kind not in kinds:
                    kinds.add(kind)
                    kept.append(element)
            body += b"<license>" + b"".join(kept) + b"</license>"
        body += b"</content>"
    document = parse_license(body + b"</rsl>")
    assert document.state == "ok", document.error
    answer = document.license_for("/a/b").answer(token)
    if answer.status == "permitted":
        for licence in answer.licenses:
            assert token not in (licence.listed("prohibits", "usage") or ())
            assert licence.payment is None or licence.payment.free
