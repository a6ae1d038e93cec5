"""``Robots-Tag`` (draft-illyes-repext-03, 2026-04-18): an RFC 9651 List read beside
``X-Robots-Tag``; the draft's own examples, the combining rule, and what a field that is not
what the draft describes gives (reported, never a silent "nothing stated")."""

from __future__ import annotations

import pytest

from robotsrules import page_signals
from robotsrules._page._robotstag import MAX_ROBOTS_TAG_LENGTH, robots_tag
from robotsrules._sfv import parse_list


def _rules(signals: object) -> set:
    return {(d.rule, d.scope) for d in signals.directives if d.applies and d.valid}  # type: ignore[attr-defined]


def test_the_drafts_example_global_and_specific_rules_are_a_union() -> None:
    # draft-illyes-repext-03 §3.1.1: "*;nosnippet, ExampleBot;noindex" is nosnippet for all
    # accessors and, for ExampleBot, noindex and nosnippet (its deserialised example).
    header = {"Robots-Tag": "*;nosnippet, ExampleBot;noindex"}
    example = page_signals(header, agent="ExampleBot")
    assert (example.index, example.snippet) == (False, False)
    assert example.allows("search") is False
    other = page_signals(header, agent="OtherBot")
    assert (other.index, other.snippet) == (True, False)
    assert other.allows("search") is None
    # The directives name where each rule came from.
    found = [d.describe() for d in example.directives]
    assert found == ["header Robots-Tag (header #0): nosnippet",
                     "header Robots-Tag (header #0) [examplebot]: noindex"]


def test_read_beside_x_robots_tag_most_restrictive_wins() -> None:
    # The draft keeps X-Robots-Tag ("implementors SHOULD also support") and every rule is
    # restrictive: the two fields fold into one answer.
    signals = page_signals([("X-Robots-Tag", "noarchive, max-snippet: 50"),
                            ("Robots-Tag", "*;max-snippet=20, gptbot;noimageindex")],
                           agent="GPTBot")
    assert (signals.archive, signals.image_index, signals.max_snippet) == (False, False, 20)
    loose = page_signals([("X-Robots-Tag", "max-snippet: 5"), ("Robots-Tag", "*;max-snippet=20")],
                         agent="GPTBot")
    assert loose.max_snippet == 5  # the smaller limit, whichever field states it


def test_several_fields_and_repeated_tokens_are_one_list() -> None:
    # RFC 9651 §4.2: the lines of a field are joined with ", " before parsing.
    signals = page_signals([("Robots-Tag", "GPTBot;noindex"), ("Robots-Tag", "gptbot;nofollow")],
                           agent="GPTBot")
    assert (signals.index, signals.follow) == (False, False)
    assert page_signals({"Robots-Tag": "GPTBot;noindex, GPTBot;nofollow"},
                        agent="GPTBot").follow is False


def test_rules_with_values_are_parameters_with_values() -> None:
    signals = page_signals({"Robots-Tag": '*;max-snippet=20;max-image-preview=large;'
                                          'unavailable_after="2020-01-01"'}, agent="Bot")
    assert (signals.max_snippet, signals.max_image_preview) == (20, "large")
    assert signals.expired and signals.index is False


def test_a_token_with_a_version_is_read_as_its_name() -> None:
    assert page_signals({"Robots-Tag": '"GPTBot/1.0";noindex'}, agent="GPTBot").index is False


def test_the_old_syntax_under_the_new_name_is_reported_and_still_restricts() -> None:
    # Not a List (a member then " noindex"): reported, and read as X-Robots-Tag reads it.
    header = {"Robots-Tag": "googlebot: noindex"}
    googlebot = page_signals(header, agent="Googlebot")
    assert googlebot.index is False
    report = [d for d in googlebot.directives if d.rule == "robots-tag"]
    assert len(report) == 1 and report[0].valid is False and report[0].value == "googlebot: noindex"
    assert page_signals(header, agent="OtherBot").index is True  # still scoped


def test_a_malformed_list_keeps_every_member_that_parses() -> None:
    signals = page_signals({"Robots-Tag": "*;noindex, bad((, GPTBot;nofollow"}, agent="GPTBot")
    assert (signals.index, signals.follow) == (False, False)
    assert any(d.rule == "robots-tag" and not d.valid for d in signals.directives)


def test_a_bare_rule_name_is_a_rule_for_every_crawler() -> None:
    # "Robots-Tag: noindex" parses as a List naming a crawler "noindex": read as the rule.
    signals = page_signals({"Robots-Tag": "noindex, nofollow"}, agent="AnyBot")
    assert (signals.index, signals.follow) == (False, False)
    # A crawler named with no rule states nothing.
    assert page_signals({"Robots-Tag": "GPTBot"}, agent="GPTBot").directives == ()


def test_upper_case_rule_names_are_read_lower_cased() -> None:
    # RFC 9651 keys are lower-case; the draft: "The values are case insensitive."
    signals = page_signals({"Robots-Tag": "ExampleBot;NoIndex"}, agent="ExampleBot")
    assert signals.index is False
    assert any(d.rule == "robots-tag" and not d.valid for d in signals.directives)


def test_what_is_not_a_rule_is_reported_and_not_applied() -> None:
    signals = page_signals({"Robots-Tag": "*;noindex=?0;nosuchrule;max-snippet;"
                                          "max-image-preview=huge, (a b);noindex, 5;noindex"},
                           agent="Bot")
    assert signals.index is True and signals.max_snippet is None
    invalid = {(d.rule, d.value) for d in signals.directives if not d.valid}
    assert ("noindex", "?0") in invalid and ("nosuchrule", None) in invalid
    assert ("max-snippet", None) in invalid and ("max-image-preview", "huge") in invalid
    assert any(d.rule == "robots-tag" and "inner list" in (d.value or "")
               for d in signals.directives)
    assert any(d.rule == "robots-tag" and "not a product token" in (d.value or "")
               for d in signals.directives)


def test_past_the_limit_complete_members_count_and_the_cut_one_does_not() -> None:
    # The draft: "Any complete and valid List members found within the processed bytes MUST
    # be honored. Any partially transmitted or truncated List member at the limit, and all
    # subsequent bytes in that field, MUST be ignored."
    filler = "a;nosnippet, " * ((MAX_ROBOTS_TAG_LENGTH - 40) // 13)
    head = "GPTBot;noindex, " + filler
    # The member the limit cuts would read as nofollow whole: it must not count.
    cut = head + "GPTBot;nofollow;" + "a" * MAX_ROBOTS_TAG_LENGTH
    reading = robots_tag(cut)
    assert reading.too_large and not reading.valid
    scoped = {(r.scope, r.rule) for r in reading.rules}
    assert ("gptbot", "noindex") in scoped and ("gptbot", "nofollow") not in scoped
    signals = page_signals({"Robots-Tag": cut}, agent="GPTBot")
    assert signals.index is False and signals.follow is True
    report = [d for d in signals.directives if d.rule == "robots-tag"]
    assert report and "too large" in (report[0].value or "")
    # A member that ends just at the limit, a comma after it, is complete.
    exact = "x;nosnippet, " * 10
    exact = exact + "GPTBot;noarchive"
    exact = " " * (MAX_ROBOTS_TAG_LENGTH - len(exact)) + exact + ", z;noindex"
    assert ("gptbot", "noarchive") in {(r.scope, r.rule) for r in robots_tag(exact).rules}


@pytest.mark.parametrize("bomb", [
    "a" + ";b" * 200_000,                       # a parameter bomb
    "*;noindex, " * 100_000,                    # a member bomb
    '"' + "x" * 1_000_000,                      # an unterminated string
    "(" * 500_000,                              # inner-list openers
    "*;noindex=" + "9" * 1_000_000,             # an integer far too long
])
def test_structured_field_bombs_are_bounded(bomb: str) -> None:
    reading = robots_tag(bomb)
    assert reading.too_large or not reading.valid or len(reading.rules) <= 100_000
    # Whatever the input, what was read honours the limit: nothing past it.
    signals = page_signals({"Robots-Tag": bomb}, agent="Bot")
    assert any(d.rule == "robots-tag" and not d.valid for d in signals.directives) or \
        len(bomb) <= MAX_ROBOTS_TAG_LENGTH


def test_the_list_parser_follows_rfc_9651() -> None:
    # RFC 9651 §3.1 examples.
    assert parse_list("sugar, tea, rum") == [("sugar", {}), ("tea", {}), ("rum", {})]
    assert parse_list('("foo" "bar"), ("baz"), ("bat" "one"), ()') == [
        ([("foo", {}), ("bar", {})], {}), ([("baz", {})], {}),
        ([("bat", {}), ("one", {})], {}), ([], {})]
    assert parse_list("abc;a=1;b=2; cde_456, (ghi;jk=4 l);q=\"9\";r=w") == [
        ("abc", {"a": 1, "b": 2, "cde_456": True}),
        ([("ghi", {"jk": 4}), ("l", {})], {"q": "9", "r": "w"})]
    assert parse_list("") == []
    for bad in ("a,", "a b", "a;", ",a", "a;B=1"):
        with pytest.raises(ValueError):
            parse_list(bad)
