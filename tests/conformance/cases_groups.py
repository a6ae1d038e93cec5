"""Groups: building, merging, the ``*`` fallback, and which crawler a group names (SPEC §2).

Sources: RFC 9309 §2.1/§2.2.1 (groups, merging, ``*``), the Google doc (blank lines and
other lines do not split groups, group order is irrelevant, specific and ``*`` never merge)
and Google's library (SPEC §6.2-6.4: value cut at ``[A-Za-z_-]``, ``*bot`` vs ``* bot``).
"""

from __future__ import annotations

from .case import Case

R = "RFC 9309 §2.2.1"
R21 = "RFC 9309 §2.1"
G = "Google doc"
L = "Google lib"
D5 = "SPEC D5"

INTERLEAVED = (
    b"User-agent: *\n"  # 1
    b"Disallow: /a\n"  # 2
    b"User-agent: foo\n"  # 3
    b"Disallow: /b\n"  # 4
    b"User-agent: *\n"  # 5
    b"Disallow: /c\n"  # 6
    b"User-agent: FOO\n"  # 7
    b"Allow: /b/open\n"  # 8
)

TWO_BOTS = (
    b"User-agent: googlebot\n"  # 1
    b"Disallow: /a\n"  # 2
    b"Allow: /shared\n"  # 3
    b"\n"  # 4
    b"User-agent: googlebot-image\n"  # 5
    b"Disallow: /b\n"  # 6
    b"Disallow: /shared\n"  # 7
    b"\n"  # 8
    b"User-agent: *\n"  # 9
    b"Disallow: /c\n"  # 10
)

CASES: list[Case] = [
    # --- building groups ---------------------------------------------------------------------
    Case("groups_agents_share_rules_1", R21, b"User-agent: a\nUser-agent: b\nDisallow: /x\n", "a",
         "/x", False, 3),
    Case("groups_agents_share_rules_2", R21, b"User-agent: a\nUser-agent: b\nDisallow: /x\n", "b",
         "/x", False, 3),
    Case("groups_agent_after_rule_new_group", R21,
         b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "b", "/x", True, 0),
    Case("groups_agent_after_rule_new_group_2", R21,
         b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a", "/y", True, 0),
    Case("groups_blank_line_between_agents", G, b"User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
         "a", "/x", False, 4, note="blank lines do not end groups"),
    Case("groups_blank_lines_before_rules", G, b"User-agent: a\n\n\n\nDisallow: /x\n", "a", "/x",
         False, 5),
    Case("groups_blank_line_between_rules", G, b"User-agent: a\nDisallow: /x\n\nDisallow: /y\n",
         "a",
         "/y", False, 4),
    Case("groups_comment_between_agents", G, b"User-agent: a\n# hi\nUser-agent: b\nDisallow: /x\n",
         "a", "/x", False, 4),
    Case("groups_sitemap_between_agents", G,
         b"User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n", "a",
         "/x", False, 4),
    Case("groups_crawl_delay_between_agents", L,
         b"User-agent: a\nCrawl-delay: 10\nUser-agent: b\nDisallow: /x\n", "a", "/x", False, 4),
    Case("groups_unknown_between_agents", L,
         b"User-agent: a\nX-Robots: none\nUser-agent: b\nDisallow: /x\n", "a", "/x", False, 4),
    Case("groups_host_between_agents", L,
         b"User-agent: a\nHost: example.com\nUser-agent: b\nDisallow: /x\n", "b", "/x", False, 4),
    Case("groups_sitemap_after_rule_no_join", L,
         b"User-agent: a\nDisallow: /x\nSitemap: https://example.com/s.xml\nUser-agent: b\n"
         b"Disallow: /y\n", "a", "/y", True, 0, note="the rule already closed a's agent list"),
    Case("groups_empty_disallow_closes_agents", L,
         b"User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /y\n", "a", "/y", True, None),
    Case("groups_rules_before_first_agent", R21,
         b"Disallow: /x\n\nUser-agent: a\nDisallow: /y\n", "a", "/x", True, 0),
    Case("groups_rules_before_first_agent_star", R21,
         b"Allow: /x\nUser-agent: *\nDisallow: /\n", "a", "/x", False, 3),
    Case("groups_same_agent_twice_in_group", R21, b"User-agent: a\nUser-agent: A\nDisallow: /x\n",
         "a", "/x", False, 3),
    # --- merging ------------------------------------------------------------------------------
    Case("groups_merge_longest_across_groups", R,
         b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nAllow: /xy\n",
         "a", "/xyz", True, 6),
    Case("groups_merge_longest_across_groups_2", R,
         b"User-agent: a\nAllow: /xy\nUser-agent: b\nDisallow: /y\nUser-agent: a\nDisallow: /xyz\n",
         "a", "/xyz", False, 6),
    Case("groups_merge_tie_across_groups", R,
         b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\nUser-agent: a\nAllow: /x\n",
         "a", "/x", True, 6),
    Case("groups_merge_first_of_equal_priority", L,
         b"User-agent: a\nDisallow: /x*\nUser-agent: b\nDisallow: /y\nUser-agent: a\n"
         b"Disallow: /xy\n", "a", "/xyz", False, 2,
         note="equal length: the first matching line in the file is reported"),
    Case("groups_merge_case_insensitive", R, INTERLEAVED, "foo", "/b/open/x", True, 8,
         note="'foo' and 'FOO' groups are merged"),
    Case("groups_merge_case_insensitive_2", R, INTERLEAVED, "foo", "/b/closed", False, 4),
    Case("groups_interleaved_star_not_for_foo", G, INTERLEAVED, "foo", "/a", True, 0),
    Case("groups_interleaved_star_not_for_foo_2", G, INTERLEAVED, "foo", "/c", True, 0),
    Case("groups_interleaved_star_merged_a", R, INTERLEAVED, "bar", "/a", False, 2),
    Case("groups_interleaved_star_merged_c", R, INTERLEAVED, "bar", "/c", False, 6),
    Case("groups_interleaved_star_not_foo_rules", G, INTERLEAVED, "bar", "/b", True, 0),
    Case("groups_star_and_named_in_one_group", L,
         b"User-agent: *\nUser-agent: foo\nDisallow: /x\n", "foo", "/x", False, 3),
    Case("groups_star_and_named_in_one_group_other", L,
         b"User-agent: *\nUser-agent: foo\nDisallow: /x\n", "bar", "/x", False, 3),
    # --- the * fallback -------------------------------------------------------------------------
    Case("groups_star_fallback", R, b"User-agent: foo\nDisallow: /a\nUser-agent: *\nDisallow: /b\n",
         "bar", "/b", False, 4),
    Case("groups_star_fallback_not_named_rules", R,
         b"User-agent: foo\nDisallow: /a\nUser-agent: *\nDisallow: /b\n", "bar", "/a", True, 0),
    Case("groups_star_never_merged_with_named", G,
         b"User-agent: foo\nDisallow: /a\nUser-agent: *\nDisallow: /b\n", "foo", "/b", True, 0),
    Case("groups_star_first_in_file", G,
         b"User-agent: *\nDisallow: /b\nUser-agent: foo\nDisallow: /a\n", "foo", "/b", True, 0,
         note="the order of groups does not matter"),
    Case("groups_no_star_no_group", R, b"User-agent: foo\nDisallow: /\n", "bar", "/x", True, 0),
    Case("groups_star_empty_group", R, b"User-agent: *\n", "bar", "/x", True, 0),
    Case("groups_star_tie_across_star_groups", R,
         b"User-agent: *\nDisallow: /x\n\nUser-agent: *\nAllow: /x\n", "bar", "/x", True, 5),
    # --- which crawler a user-agent value names ----------------------------------------------
    Case("groups_token_googlebot_version", G, b"User-agent: Googlebot/2.1\nDisallow: /x\n",
         "Googlebot", "/x", False, 2),
    Case("groups_token_googlebot_version_other", L, b"User-agent: Googlebot/2.1\nDisallow: /x\n",
         "Googlebot-Image", "/x", True, 0),
    Case("groups_token_bot2000", L, b"User-agent: Bot2000\nDisallow: /x\n", "Bot", "/x", False, 2,
         note="the value is cut at the first digit"),
    Case("groups_token_bot2000_other", L, b"User-agent: Bot2000\nDisallow: /x\n", "Bots", "/x",
         True, 0),
    Case("groups_token_trailing_star", G, b"User-agent: Googlebot*\nDisallow: /x\n", "googlebot",
         "/x", False, 2),
    Case("groups_token_star_bot_not_global", L, b"User-agent: *bot\nDisallow: /x\n", "Googlebot",
         "/x", True, 0, note="'*bot' is neither the global group nor any token"),
    Case("groups_token_star_space_bot_global", L, b"User-agent: * bot\nDisallow: /x\n",
         "Googlebot", "/x", False, 2, note="'*' then whitespace is still the global group"),
    Case("groups_token_star_bot_fallback", L,
         b"User-agent: *bot\nDisallow: /x\nUser-agent: *\nDisallow: /y\n", "bot", "/y", False, 4,
         note="'*bot' names nobody, so 'bot' falls back to *"),
    Case("groups_token_star_bot_rules_for_nobody", L,
         b"User-agent: *bot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n", "bot", "/x", True, 0),
    Case("groups_token_case_insensitive", R, b"User-agent: gOOglEbOt\nDisallow: /x\n", "GoogleBot",
         "/x", False, 2),
    Case("groups_token_hyphen_exact", R, b"User-agent: Googlebot-Image\nDisallow: /x\n",
         "googlebot-image", "/x", False, 2),
    Case("groups_token_hyphen_not_prefix", R, b"User-agent: Googlebot-Image\nDisallow: /x\n",
         "Googlebot", "/x", True, 0),
    Case("groups_token_underscore", R, b"User-agent: my_bot\nDisallow: /x\n", "MY_BOT", "/x",
         False, 2),
    Case("groups_token_leading_space_value", G, b"User-agent:    Googlebot   \nDisallow: /x\n",
         "Googlebot", "/x", False, 2),
    Case("groups_token_comment_cut", G, b"User-agent: Googlebot# main\nDisallow: /x\n", "Googlebot",
         "/x", False, 2),
    # --- the agent as the caller passes it --------------------------------------------------------
    Case("groups_caller_version_dropped", D5, b"User-agent: Googlebot\nDisallow: /x\n",
         "Googlebot/2.1", "/x", False, 2),
    Case("groups_caller_case", R, b"User-agent: Googlebot\nDisallow: /x\n", "GOOGLEBOT", "/x",
         False, 2),
    Case("groups_list_both_named_a", R, TWO_BOTS, ["Googlebot-Image", "Googlebot"], "/a", False, 2,
         note="a crawler obeying several tokens: all their groups are merged"),
    Case("groups_list_both_named_b", R, TWO_BOTS, ["Googlebot-Image", "Googlebot"], "/b", False, 6),
    Case("groups_list_both_named_tie", R, TWO_BOTS, ["Googlebot-Image", "Googlebot"], "/shared",
         True, 3, note="allow from one group ties disallow from the other: allow wins"),
    Case("groups_list_no_star", R, TWO_BOTS, ["Googlebot-Image", "Googlebot"], "/c", True, 0),
    Case("groups_list_tuple", R, TWO_BOTS, ("Googlebot", "Googlebot-Image"), "/b", False, 6),
    Case("groups_list_one_named", R, TWO_BOTS, ["Googlebot", "Otherbot"], "/c", True, 0,
         note="one token is named, so * does not apply"),
    Case("groups_list_one_named_rule", R, TWO_BOTS, ["Googlebot", "Otherbot"], "/a", False, 2),
    Case("groups_list_none_named", R, TWO_BOTS, ["Otherbot", "Thirdbot"], "/c", False, 10),
    Case("groups_list_duplicates", R, TWO_BOTS, ["Googlebot", "googlebot"], "/b", True, 0),
    Case("groups_list_single", R, TWO_BOTS, ["Googlebot-Image"], "/shared", False, 7),
    Case("groups_list_versions", D5, TWO_BOTS, ["Googlebot/2.1", "Googlebot-Image/1.0"], "/b",
         False, 6),
    Case("groups_single_googlebot_shared", R, TWO_BOTS, "Googlebot", "/shared", True, 3),
    Case("groups_single_image_a", R, TWO_BOTS, "Googlebot-Image", "/a", True, 0,
         note="Googlebot-Image does not inherit Googlebot's group"),
]
