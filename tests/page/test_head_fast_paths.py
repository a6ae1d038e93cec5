"""The page path's fast paths read what the general readers read: a plain ``<meta>`` tag's
tag's attributes and end taken at once (``_html._TAG``, ``_html._plain_attributes``) against the step-by-step attribute
reader (``_html._attributes``), and a tuple of ``(str, str)`` header pairs (a WARC record's)
against the same pairs read the general way."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules._page._headers import read_headers
from robotsrules._page._html import _TAG, _attributes, _plain_attributes, _plain_tag, read_head

_BITS = [" ", "\t", "\n", "name", "NAME", "content", "=", '"', "'", "/", ">", "<", "`",
         "robots", "noindex", "a/b", "x", "\x00", "&amp;", " =", "= ", "/>", "é", "-"]

_TRICKY = [
    "<meta name=a/>",  # the tokenizer keeps the "/" in an unquoted value
    "<meta name=robots content=noindex/>",
    '<meta name="robots"/>',
    "<meta name='robots' content='noai'/>",
    '<meta name = "robots" content="noindex">',
    '<meta NAME="robots" name="other" CONTENT="noindex">',
    '<meta name="robots" content="noindex" / >',
    "<meta name=a=b content=c>",
    "<meta name=a`b content=c>",
    '<meta name="robots" content="noindex"',  # the input ends inside the tag
    '<meta name="robots content=noindex>',
    "<meta/>",
    "<meta>",
    "<meta name=\"r\"content=\"n\">",
    "<meta name=robots\x00 content=noindex>",
    "<meta name=a/b content=c>",  # a "/" inside an unquoted value
    "<meta content=https://example.com/ name=robots>",  # ... and at its end, before a blank
    "<meta name=robots content=https://example.com/>",  # ... before ">": no self-closing tag
    "<meta name=robots content=a//>",
]


def _same(tag: str) -> bool:
    """Whether the tag is in the plain form (then read both ways, the same)."""
    found = _TAG.match(tag, 1)
    assert found is not None
    end = found.end(3)
    if end < 0:
        return False
    fast = (_plain_attributes(tag, found.end(2), end), tag[end - 2] == "/", end)
    assert fast == _attributes(tag, found.end(2)), tag
    return True


def test_tricky_meta_tags_read_as_the_attribute_reader_reads_them() -> None:
    plain = [tag for tag in _TRICKY if _same(tag)]
    assert len(plain) >= 6  # the fast path is exercised
    # Unquoted URLs (what HTML minifiers write) are in the plain form.
    assert "<meta name=a/b content=c>" in plain
    assert "<meta content=https://example.com/ name=robots>" in plain


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_BITS), max_size=14))
def test_any_tag_reads_as_the_attribute_reader_reads_it(bits: list) -> None:
    _same("<meta" + "".join(bits))
    _same("<svg" + "".join(bits))


_BACKTRACKING = re.compile(_plain_tag(False))


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive repetitions: Python 3.11+")
@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["<meta", "<link", "<svg", "</a"]),
       st.lists(st.sampled_from([*_BITS, "  ", '="', "='", '""', "''"]), max_size=16))
def test_the_possessive_plain_form_matches_what_the_backtracking_one_matches(
        name: str, bits: list) -> None:
    """Python 3.9 and 3.10 read the plain form without possessive repetitions: both spellings
    must take the same tags, to the same end."""
    possessive = re.compile(_plain_tag(True))
    tag = name + "".join(bits)
    for at in range(len(name), len(tag) + 1):
        one, other = possessive.match(tag, at), _BACKTRACKING.match(tag, at)
        assert (one and one.span()) == (other and other.span()), (tag, at)


def test_an_unquoted_value_keeps_its_slash_in_a_document() -> None:
    head = read_head(b"<html><head><meta name=robots content=noindex/></head>")
    assert [(m.name, m.content) for m in head.metas] == [("robots", "noindex/")]


def test_a_slash_after_an_unquoted_value_closes_nothing() -> None:
    # <svg width=1/> opens an svg element (the "/" is the value's): its <style> is no raw
    # text, and the meta inside breaks out of foreign content (html5lib reads it too).
    doc = (b"<html><head><title>x</title></head><div><svg width=1/><style>"
           b"<meta name=robots content=noindex></style></svg>")
    assert [(m.name, m.content, m.in_head) for m in read_head(doc).metas] == [
        ("robots", "noindex", False)]


_HEADER_BITS = ["X-Robots-Tag", " x-robots-tag ", "", " ", "a b", "na:me", "noindex",
                " noai\r\n\tnofollow", "v\n", "\r", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_HEADER_BITS), st.sampled_from(_HEADER_BITS)),
                max_size=6))
def test_str_pairs_read_as_the_general_path_reads_them(pairs: list) -> None:
    assert read_headers(tuple(pairs)) == read_headers(list(pairs))


def test_other_tuples_take_the_general_path() -> None:
    assert read_headers((("A", b"b"), ["C", "d"])) == read_headers([("A", b"b"), ["C", "d"]])
    assert [f.value for f in read_headers((("A", ["x", "y"]),), strict=False)] == ["x", "y"]
