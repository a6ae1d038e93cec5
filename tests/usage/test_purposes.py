"""The purpose vocabulary (robotsrules._tables._purposes) and the RFC 9651 dictionary parser (sfv)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotsrules import InvalidArgument, InvalidPurpose
from robotsrules._sfv import Date, DisplayString, Token, parse_dictionary
from robotsrules._tables._purposes import (
    CATEGORIES,
    CONTENT_SIGNALS,
    CURRENT_CATEGORIES,
    PURPOSES,
    SUPERSEDED_CATEGORIES,
    check_purpose,
    column_name,
    combine,
    explain,
    related,
    resolve,
    revision,
    revisions,
    statements,
    superseded,
)


def test_vocabularies_are_disjoint_but_for_search() -> None:
    assert set(CONTENT_SIGNALS) & set(CATEGORIES) == {"search"}
    assert set(PURPOSES) == set(CONTENT_SIGNALS) | set(CATEGORIES)
    assert not set(CURRENT_CATEGORIES) & set(SUPERSEDED_CATEGORIES)
    for reading in revisions():
        assert set(reading.signals) <= set(CONTENT_SIGNALS)
        assert set(reading.signals.values()) <= set(reading.labels)
        assert set(reading.broader) | set(reading.broader.values()) <= set(reading.labels)


@pytest.mark.parametrize("bad", ["ai_train", "AI-TRAIN", "", "train", " search", "tdm"])
def test_check_purpose_refuses_unknown(bad: str) -> None:
    with pytest.raises(InvalidPurpose):
        check_purpose(bad)
    with pytest.raises(ValueError):
        column_name(bad)


def test_check_purpose_refuses_other_types() -> None:
    # The one validator takes any object (in the compiled build too: no TypeError first).
    for bad in (None, 1, b"search", ["search"]):
        with pytest.raises(InvalidPurpose):
            check_purpose(bad)


def test_column_names() -> None:
    assert [column_name(p) for p in CONTENT_SIGNALS] == ["search", "ai_input", "ai_train"]


@given(st.lists(st.sampled_from([None, True, False])))
def test_combine_is_most_restrictive(answers: list) -> None:  # type: ignore[type-arg]
    expected = False if False in answers else True if True in answers else None
    assert combine(answers) is expected
    assert combine(reversed(answers)) is expected


def test_statements_fold_most_restrictive() -> None:
    assert statements([("a", False), ("a", True)]) == {"a": False}
    assert statements([("a", True), ("a", True)]) == {"a": True}


def test_current_reading_has_no_nesting() -> None:
    # draft-ietf-aipref-vocab-07 (2026-08-19) removed nesting ("No term nests within
    # another"): a superseded broader label answers only for itself.
    cats = {"bots": False, "train-genai": True}
    assert resolve("train-ai", {}, cats) is None
    assert resolve("search", {}, cats) is None
    assert resolve("ai-train", {}, cats) is None
    assert resolve("bots", {}, cats) is False
    assert resolve("train-genai", {}, cats) is True
    assert resolve("all", {}, {"all": False}) is False


def test_earlier_revision_nesting_on_request() -> None:
    # -03 "Applying Preferences" step 2: an unstated category takes the broader one's value.
    cats = {"bots": False, "train-genai": True}
    assert resolve("train-genai", {}, cats, "03") is True  # the narrowest stated wins
    assert resolve("train-ai", {}, cats, "03") is False
    assert resolve("search", {}, cats, "03") is False
    assert resolve("bots", {}, {"train-ai": False}, "03") is None  # broader never hears narrower
    # -02: "all" is the root, ai-use the counterpart of ai-input.
    assert resolve("ai-input", {}, {"all": False}, "02") is False
    assert resolve("ai-use", {"ai-input": True}, {}, "02") is True
    # -04: search nested in ai-output, which ai-input maps to.
    assert resolve("search", {}, {"ai-output": False}, "04") is False
    assert resolve("search", {"search": True}, {"ai-output": False}, "04") is True
    assert resolve("search", {"ai-input": False}, {}, "04") is False
    assert resolve("ai-output", {}, {"bots": True}, "04") is True


def test_both_vocabularies_combined() -> None:
    assert resolve("ai-train", {"ai-train": True}, {"train-ai": False}) is False
    assert resolve("train-ai", {"ai-train": False}, {"train-ai": True}) is False
    assert resolve("ai-input", {}, {"ai-use": False}) is None  # no IETF counterpart now
    assert resolve("ai-input", {"ai-input": False}, {}) is False
    assert resolve("ai-use", {"ai-input": True}, {}) is None  # superseded: itself only
    assert resolve("search", {}, {}) is None
    with pytest.raises(InvalidPurpose):
        resolve("ai_train", {}, {})


def test_explain_names_the_deciding_statements() -> None:
    assert explain("ai-train", {"ai-train": True}, {"train-ai": False}) == (
        False, (("category", "train-ai"), ("signal", "ai-train")))
    assert explain("train-genai", {}, {"bots": False}, "03") == (False, (("category", "bots"),))
    assert explain("ai-input", {}, {}) == (None, ())


def test_related_names() -> None:
    assert related("ai-train") == ("ai-train", "train-ai")
    assert related("ai-input") == ("ai-input",)
    assert related("search", "04") == ("ai-input", "ai-output", "bots", "search")


@pytest.mark.parametrize("name", ["03", "-03", "3", "draft-ietf-aipref-vocab-03",
                                  " Draft-IETF-aipref-vocab-03 "])
def test_revision_names(name: str) -> None:
    assert revision(name).revision == "03"


@pytest.mark.parametrize("name", ["08", "01", "99", "", "x", "-", "0x3"])
def test_revision_without_a_reading(name: str) -> None:
    # -08 was seen as its first page only: no reading follows it (data/vocabularies.json).
    with pytest.raises(InvalidArgument, match="no reading of draft-ietf-aipref-vocab"):
        revision(name)
    with pytest.raises(InvalidArgument):
        resolve("train-ai", {}, {}, name)


def test_superseded_labels_name_their_revisions() -> None:
    assert superseded("bots") == "draft-ietf-aipref-vocab-03 to -04"
    assert superseded("all") == "draft-ietf-aipref-vocab-02 (2025-07-21)"
    assert superseded("ai-output") == "draft-ietf-aipref-vocab-04 (2025-10-28)"
    assert superseded("train-ai") is None and superseded("nonsense") is None
    assert all(superseded(label) for label in SUPERSEDED_CATEGORIES)


# RFC 9651 dictionaries -------------------------------------------------------------------

def test_dictionary_examples_of_the_vocab_draft() -> None:
    # draft-ietf-aipref-vocab "Exemplary Serialization Format" and "Multiple Preferences".
    assert parse_dictionary("train-ai=y, search=n") == {
        "train-ai": (Token("y"), {}), "search": (Token("n"), {})}
    parsed = parse_dictionary('train-ai=y, train-ai, search=n, search="n"')
    assert parsed["train-ai"] == (True, {}) and parsed["search"] == ("n", {})
    assert not isinstance(parsed["search"][0], Token)
    assert parse_dictionary("train-ai;allow=n, train-ai=y") == {"train-ai": (Token("y"), {})}
    with pytest.raises(ValueError):  # the draft's own example ends in ";": not a Dictionary
        parse_dictionary('train-ai;has;parameters="?";')
    assert parse_dictionary('train-ai;has;parameters="?"')["train-ai"] == (
        True, {"has": True, "parameters": "?"})


@pytest.mark.parametrize("text, value", [
    ("a=1", 1), ("a=-42", -42), ("a=1.5", 1.5), ("a=?0", False), ("a=?1", True),
    ('a="x\\"y"', 'x"y'), ("a=:aGk=:", b"hi"), ("a=@1659578233", Date(1659578233)),
    ('a=%"caf%c3%a9"', DisplayString("café")), ("a=foo/bar:baz", Token("foo/bar:baz")),
    ("a=*tok", Token("*tok")),
])
def test_bare_items(text: str, value: object) -> None:
    assert parse_dictionary(text)["a"][0] == value


def test_inner_list_and_order() -> None:
    parsed = parse_dictionary("b=(1 2);p, a, b=3")
    assert list(parsed) == ["b", "a"] and parsed["b"] == (3, {})
    assert parse_dictionary("x=( a  b );q=1")["x"] == (
        [(Token("a"), {}), (Token("b"), {})], {"q": 1})
    assert parse_dictionary("") == {} and parse_dictionary("   ") == {}


@pytest.mark.parametrize("bad", [
    "Train-AI=n", "Search=n", "T=y", "train-ai = n", "train-ai=n,", "train-ai=n;", "a=1.2345", "a=1234567890123456",
    "a=1.", 'a="unterminated', "a=(1 2", "a=:bad", "a=?2", "a=@1.5", '%"', "a=%\"%ZZ\"",
    "a=b c", "1a=y", "a=y,,b=n", "ai-train=no search=yes", "a=é", 'a="é"',
])
def test_invalid_dictionaries(bad: str) -> None:
    with pytest.raises(ValueError, match="not a structured-field dictionary"):
        parse_dictionary(bad)


def test_length_bound() -> None:
    with pytest.raises(ValueError):
        parse_dictionary("a=y," * 5000)


@given(st.text(max_size=200))
def test_never_raises_anything_but_valueerror(text: str) -> None:
    with contextlib.suppress(ValueError):
        parse_dictionary(text)


@given(st.text(alphabet="abny=,;() \t\"?:@%*-._019", max_size=60))
def test_never_raises_on_near_miss_grammar(text: str) -> None:
    with contextlib.suppress(ValueError):
        parse_dictionary(text)
