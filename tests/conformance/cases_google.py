"""Cases from Google's "How Google interprets the robots.txt specification".

Source text: seeds/google-robots-interpretation.tr.txt (Turkish edition; the Hindi edition
has the same examples). Every example of its path-matching table and of its precedence
examples is here, plus the examples of its grouping and user-agent sections. The doc's
rule-only examples are put under ``user-agent: *``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from .case import Case

G = "Google doc"
EX = "https://example.com"

INTRO = (
    b"# This robots.txt file controls crawling of URLs under https://example.com.\n"  # 1
    b"# All crawlers are disallowed to crawl files in the \"includes\" directory, such\n"  # 2
    b"# as .css, .js, but Google needs them for rendering, so Googlebot is allowed\n"  # 3
    b"# to crawl them.\n"  # 4
    b"User-agent: *\n"  # 5
    b"Disallow: /includes/\n"  # 6
    b"\n"  # 7
    b"User-agent: Googlebot\n"  # 8
    b"Allow: /includes/\n"  # 9
    b"\n"  # 10
    b"Sitemap: https://example.com/sitemap.xml\n"  # 11
)

# The sitemap example; a str body on purpose (its last sitemap URL is not ASCII).
KALE = (
    "user-agent: otherbot\n"  # 1
    "disallow: /kale\n"  # 2
    "\n"  # 3
    "sitemap: https://example.com/sitemap.xml\n"  # 4
    "sitemap: https://cdn.example.org/other-sitemap.xml\n"  # 5
    "sitemap: https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml\n"
)

GROUPS = (
    b"user-agent: a\n"  # 1
    b"disallow: /c\n"  # 2
    b"\n"  # 3
    b"user-agent: b\n"  # 4
    b"disallow: /d\n"  # 5
    b"\n"  # 6
    b"user-agent: e\n"  # 7
    b"user-agent: f\n"  # 8
    b"disallow: /g\n"  # 9
    b"\n"  # 10
    b"user-agent: h\n"  # 11
)

# The doc's user-agent matching example: (group 1), (group 2), (group 3) made observable.
PRECEDENCE = (
    b"user-agent: googlebot-news\n"  # 1
    b"disallow: /group1\n"  # 2
    b"\n"  # 3
    b"user-agent: *\n"  # 4
    b"disallow: /group2\n"  # 5
    b"\n"  # 6
    b"user-agent: googlebot\n"  # 7
    b"disallow: /group3\n"  # 8
)

MERGE = (
    b"user-agent: googlebot-news\n"  # 1
    b"disallow: /fish\n"  # 2
    b"\n"  # 3
    b"user-agent: *\n"  # 4
    b"disallow: /carrots\n"  # 5
    b"\n"  # 6
    b"user-agent: googlebot-news\n"  # 7
    b"disallow: /shrimp\n"  # 8
)

MERGED = (
    b"user-agent: googlebot-news\n"  # 1
    b"disallow: /fish\n"  # 2
    b"disallow: /shrimp\n"  # 3
    b"\n"  # 4
    b"user-agent: *\n"  # 5
    b"disallow: /carrots\n"  # 6
)

SITEMAP_GROUP = (
    b"user-agent: a\n"  # 1
    b"sitemap: https://example.com/sitemap.xml\n"  # 2
    b"\n"  # 3
    b"user-agent: b\n"  # 4
    b"disallow: /\n"  # 5
)

SITEMAP_GROUP_READ_AS = b"user-agent: a\nuser-agent: b\ndisallow: /\n"


def _table(name: str, pattern: bytes, matching: Sequence[str], not_matching: Sequence[str],
           notes: Optional[dict[str, str]] = None) -> list[Case]:
    """One row of the doc's path-matching table, as ``disallow: pattern`` under ``*``."""
    notes = notes or {}
    body = b"user-agent: *\ndisallow: " + pattern + b"\n"
    cases = []
    for i, path in enumerate(matching, 1):
        cases.append(Case(f"google_doc_example_{name}_{i}", G + " path matching", body,
                          "Googlebot", EX + path, False, 2, note=notes.get(path, "")))
    for i, path in enumerate(not_matching, 1):
        cases.append(Case(f"google_doc_example_{name}_no_{i}", G + " path matching", body,
                          "Googlebot", EX + path, True, 0, note=notes.get(path, "")))
    return cases


FISH = ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
        "/fish.php?id=anything"]
NOT_FISH = ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"]

PATH_TABLE: list[Case] = [
    *_table("root", b"/", ["/", "/page", "/a/b/c.html?x=1"], []),
    *_table("root_star", b"/*", ["/", "/page", "/a/b/c.html?x=1"], []),
    *_table("root_dollar", b"/$", ["/"], ["/page", "/a/", "/?x=1"],
            {"/?x=1": "the query is part of the matched target"}),
    *_table("fish", b"/fish", FISH, NOT_FISH),
    *_table("fish_star", b"/fish*", FISH, NOT_FISH),
    *_table("fish_slash", b"/fish/", ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
            ["/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"]),
    *_table("php", b"/*.php",
            ["/index.php", "/filename.php", "/folder/filename.php",
             "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"],
            ["/", "/windows.PHP"],
            {"/": "the doc: / does not match even if it maps to /index.php"}),
    *_table("php_dollar", b"/*.php$", ["/filename.php", "/folder/filename.php"],
            ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"]),
    *_table("fish_php", b"/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"],
            ["/Fish.PHP"]),
]

def _prec(name: str, rules: bytes, url: str, allowed: bool, line: int, note: str) -> Case:
    return Case(f"google_doc_precedence_{name}", G + " precedence", b"user-agent: *\n" + rules,
                "Googlebot", EX + url, allowed, line, note=note)


PRECEDENCE_EXAMPLES: list[Case] = [
    _prec("page", b"allow: /p\ndisallow: /\n", "/page", True, 2, "allow: /p is more specific"),
    _prec("folder", b"allow: /folder\ndisallow: /folder\n", "/folder/page", True, 2,
          "conflict: the least restrictive rule (allow) wins"),
    _prec("page_htm", b"allow: /page\ndisallow: /*.htm\n", "/page.htm", False, 3,
          "disallow: /*.htm is longer"),
    _prec("page_php5", b"allow: /page\ndisallow: /*.ph\n", "/page.php5", True, 2,
          "equal length (5): the least restrictive rule (allow) wins"),
    _prec("root_dollar", b"allow: /$\ndisallow: /\n", "/", True, 2, "allow: /$ is more specific"),
    _prec("root_dollar_page", b"allow: /$\ndisallow: /\n", "/page.htm", False, 3,
          "allow: /$ only matches the root"),
    # The same examples with the rules in the other order: order does not matter.
    _prec("page_reversed", b"disallow: /\nallow: /p\n", "/page", True, 3, "order-independent"),
    _prec("folder_reversed", b"disallow: /folder\nallow: /folder\n", "/folder/page", True, 3,
          "order-independent"),
    _prec("page_htm_reversed", b"disallow: /*.htm\nallow: /page\n", "/page.htm", False, 2,
          "order-independent"),
    _prec("page_php5_reversed", b"disallow: /*.ph\nallow: /page\n", "/page.php5", True, 3,
          "order-independent"),
    _prec("root_dollar_reversed", b"disallow: /\nallow: /$\n", "/", True, 3,
          "order-independent"),
]

CASES: list[Case] = [
    # --- the introduction's example ------------------------------------------------------
    Case("google_doc_intro_googlebot_includes", G, INTRO, "Googlebot",
         EX + "/includes/main.css", True, 9),
    Case("google_doc_intro_googlebot_other", G, INTRO, "Googlebot", EX + "/page", True, 0),
    Case("google_doc_intro_otherbot_includes", G, INTRO, "Otherbot",
         EX + "/includes/main.js", False, 6),
    Case("google_doc_intro_otherbot_other", G, INTRO, "Otherbot", EX + "/page", True, 0),
    Case("google_doc_intro_googlebot_image", G, INTRO, "Googlebot-Image",
         EX + "/includes/main.css", False, 6,
         note="Googlebot-Image is another token: no group names it, so * applies"),
    Case("google_doc_intro_includes_dir_itself", G, INTRO, "Otherbot", EX + "/includes", True, 0),
    # --- the sitemap example ---------------------------------------------------------------
    Case("google_doc_sitemap_kale", G + " sitemap", KALE, "otherbot", EX + "/kale", False, 2),
    Case("google_doc_sitemap_kale_prefix", G + " sitemap", KALE, "otherbot",
         EX + "/kaleidoscope", False, 2),
    Case("google_doc_sitemap_other_path", G + " sitemap", KALE, "otherbot", EX + "/carrot",
         True, 0),
    Case("google_doc_sitemap_other_agent", G + " sitemap", KALE, "Googlebot", EX + "/kale",
         True, 0),
    # --- grouping of lines and rules --------------------------------------------------------
    Case("google_doc_groups_a_c", G + " grouping", GROUPS, "a", EX + "/c", False, 2),
    Case("google_doc_groups_a_d", G + " grouping", GROUPS, "a", EX + "/d", True, 0),
    Case("google_doc_groups_b_d", G + " grouping", GROUPS, "b", EX + "/d", False, 5),
    Case("google_doc_groups_b_c", G + " grouping", GROUPS, "b", EX + "/c", True, 0),
    Case("google_doc_groups_e_g", G + " grouping", GROUPS, "e", EX + "/g", False, 9),
    Case("google_doc_groups_f_g", G + " grouping", GROUPS, "f", EX + "/g", False, 9),
    Case("google_doc_groups_e_c", G + " grouping", GROUPS, "e", EX + "/c", True, 0),
    Case("google_doc_groups_h_anything", G + " grouping", GROUPS, "h", EX + "/g", True, 0,
         note="h's group has no rules"),
    Case("google_doc_groups_unnamed", G + " grouping", GROUPS, "z", EX + "/c", True, 0),
    # --- order of precedence for user agents ------------------------------------------------
    Case("google_doc_ua_news_group1", G + " user agents", PRECEDENCE, "Googlebot-News",
         EX + "/group1", False, 2, note="googlebot-news is the most specific group"),
    Case("google_doc_ua_news_not_group2", G + " user agents", PRECEDENCE, "Googlebot-News",
         EX + "/group2", True, 0),
    Case("google_doc_ua_news_not_group3", G + " user agents", PRECEDENCE, "Googlebot-News",
         EX + "/group3", True, 0, note="no fallback from googlebot-news to googlebot"),
    Case("google_doc_ua_googlebot_group3", G + " user agents", PRECEDENCE, "Googlebot",
         EX + "/group3", False, 8),
    Case("google_doc_ua_googlebot_not_group1", G + " user agents", PRECEDENCE, "Googlebot",
         EX + "/group1", True, 0),
    Case("google_doc_ua_googlebot_not_group2", G + " user agents", PRECEDENCE, "Googlebot",
         EX + "/group2", True, 0),
    Case("google_doc_ua_storebot_group2", G + " user agents", PRECEDENCE, "Storebot-Google",
         EX + "/group2", False, 5, note="no Storebot-Google group: * applies"),
    Case("google_doc_ua_storebot_not_group3", G + " user agents", PRECEDENCE, "Storebot-Google",
         EX + "/group3", True, 0),
    Case("google_doc_ua_otherbot_group2", G + " user agents", PRECEDENCE, "Otherbot",
         EX + "/group2", False, 5),
    Case("google_doc_ua_googlebot_image_group2", G + " user agents", PRECEDENCE,
         "Googlebot-Image", EX + "/group2", False, 5,
         note="other Google crawlers follow group 2 unless named exactly"),
    Case("google_doc_ua_news_images_group1", G + " user agents", PRECEDENCE, "googlebot-news",
         EX + "/group1/picture.jpg", False, 2,
         note="googlebot-news crawling images still follows group 1 only"),
    Case("google_doc_ua_order_irrelevant", G + " user agents",
         b"user-agent: googlebot\ndisallow: /group3\n\nuser-agent: *\ndisallow: /group2\n",
         "Googlebot", EX + "/group2", True, 0, note="order of groups does not matter"),
    Case("google_doc_ua_version_ignored", G + " user agents",
         b"user-agent: googlebot/1.2\ndisallow: /x\n", "Googlebot", EX + "/x", False, 2,
         note="googlebot/1.2 is equivalent to googlebot"),
    Case("google_doc_ua_trailing_star_ignored", G + " user agents",
         b"user-agent: googlebot*\ndisallow: /x\n", "Googlebot", EX + "/x", False, 2,
         note="googlebot* is equivalent to googlebot"),
    Case("google_doc_ua_value_case_insensitive", G + " user-agent",
         b"User-agent: GOOGLEBOT\nDisallow: /x\n", "googlebot", EX + "/x", False, 2),
    # --- grouping of rules: merging ------------------------------------------------------------
    Case("google_doc_merge_fish", G + " grouping", MERGE, "googlebot-news", EX + "/fish", False, 2),
    Case("google_doc_merge_shrimp", G + " grouping", MERGE, "googlebot-news", EX + "/shrimp",
         False, 8),
    Case("google_doc_merge_carrots_not_merged", G + " grouping", MERGE, "googlebot-news",
         EX + "/carrots", True, 0, note="specific and * groups are not combined"),
    Case("google_doc_merge_star_carrots", G + " grouping", MERGE, "Otherbot", EX + "/carrots",
         False, 5),
    Case("google_doc_merge_star_fish", G + " grouping", MERGE, "Otherbot", EX + "/fish", True, 0),
    Case("google_doc_merged_form_fish", G + " grouping", MERGED, "googlebot-news", EX + "/fish",
         False, 2),
    Case("google_doc_merged_form_shrimp", G + " grouping", MERGED, "googlebot-news",
         EX + "/shrimp", False, 3),
    Case("google_doc_merged_form_carrots", G + " grouping", MERGED, "googlebot-news",
         EX + "/carrots", True, 0),
    # --- lines other than allow/disallow/user-agent do not split groups -----------------------
    Case("google_doc_sitemap_in_group_a", G + " grouping", SITEMAP_GROUP, "a", EX + "/x",
         False, 5, note="the sitemap line does not end a's group"),
    Case("google_doc_sitemap_in_group_b", G + " grouping", SITEMAP_GROUP, "b", EX + "/x", False, 5),
    Case("google_doc_sitemap_in_group_c", G + " grouping", SITEMAP_GROUP, "c", EX + "/x", True, 0),
    Case("google_doc_sitemap_read_as_a", G + " grouping", SITEMAP_GROUP_READ_AS, "a", EX + "/x",
         False, 3),
    Case("google_doc_sitemap_read_as_b", G + " grouping", SITEMAP_GROUP_READ_AS, "b", EX + "/x",
         False, 3),
    # --- path matching table and precedence examples ------------------------------------------
    *PATH_TABLE,
    *PRECEDENCE_EXAMPLES,
    # --- syntax ----------------------------------------------------------------------------
    Case("google_doc_syntax_leading_trailing_space", G + " syntax",
         b"  user-agent:   *   \n   disallow:   /x   \n", "Googlebot", EX + "/x", False, 2),
    Case("google_doc_syntax_no_space", G + " syntax",
         b"user-agent:*\ndisallow:/x\n", "Googlebot", EX + "/x", False, 2),
    Case("google_doc_syntax_comment_after_value", G + " syntax",
         b"user-agent: *\ndisallow: /x#y\n", "Googlebot", EX + "/xz", False, 2,
         note="everything after # is ignored: the pattern is /x"),
    Case("google_doc_syntax_comment_line", G + " syntax",
         b"user-agent: *\n# disallow: /x\n", "Googlebot", EX + "/x", True, 0),
    Case("google_doc_syntax_field_case_insensitive", G + " syntax",
         b"USER-AGENT: *\nDISALLOW: /x\n", "Googlebot", EX + "/x", False, 2),
    Case("google_doc_syntax_value_case_sensitive", G + " syntax",
         b"user-agent: *\ndisallow: /X\n", "Googlebot", EX + "/x", True, 0),
    Case("google_doc_syntax_unsupported_crawl_delay", G + " syntax",
         b"user-agent: *\ncrawl-delay: 10\ndisallow: /x\n", "Googlebot", EX + "/x", False, 3,
         note="crawl-delay is not supported by Google (and does not end the group)"),
    Case("google_doc_disallow_without_path", G + " disallow",
         b"user-agent: *\ndisallow:\n", "Googlebot", EX + "/x", True, None,
         note="rules without a path are ignored"),
    Case("google_doc_allow_without_path", G + " allow",
         b"user-agent: *\ndisallow: /\nallow:\n", "Googlebot", EX + "/x", False, 2,
         note="rules without a path are ignored"),
    Case("google_doc_path_must_start_with_slash", G + " syntax",
         b"user-agent: *\ndisallow: x\n", "Googlebot", EX + "/x", True, 0,
         note="the path is relative to the root: 'x' never matches a path that starts with /"),
    Case("google_doc_path_utf8_rule", G + " path matching",
         "user-agent: *\ndisallow: /\u30c4\n".encode(), "Googlebot", EX + "/%E3%83%84", False, 2,
         note="non-ASCII characters may be written as UTF-8"),
    Case("google_doc_path_escaped_rule", G + " path matching",
         b"user-agent: *\ndisallow: /%E3%83%84\n", "Googlebot", EX + "/%E3%83%84", False, 2,
         note="or percent-encoded as RFC 3986"),
    Case("google_doc_path_utf8_rule_utf8_url", G + " path matching",
         "user-agent: *\ndisallow: /\u30c4\n".encode(), "Googlebot", EX + "/\u30c4", False, 2,
         note="URL side encoded by SPEC D1"),
    Case("google_doc_precedence_no_group_for_agent", G + " user agents",
         b"user-agent: googlebot-news\ndisallow: /\n", "Googlebot", EX + "/x", True, 0),
]
