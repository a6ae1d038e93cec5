"""Cases from the RFC: RFC 9309 and its 2019 draft (seeds/2019-draft-koster-rep-00.txt).

Where Google's library reads the RFC differently (it never decodes ``%xx`` escapes, and it
merges every ``*`` group), the case follows Google and the note quotes the RFC.
"""

from __future__ import annotations

from .case import Case

D = "2019 draft"  # draft-koster-rep-00, the seed; section numbers are the draft's
R = "RFC 9309"

# The draft's §3.1 "Simple example" (the trailing "EOF" marks the end of the file).
SIMPLE_DRAFT = (
    b"User-Agent : foobot\n"  # 1
    b"Disallow : /example/page.html\n"  # 2
    b"Disallow : /example/disallowed.gif\n"  # 3
    b"User-Agent : barbot\n"  # 4
    b"User-Agent : bazbot\n"  # 5
    b"Allow : /example/page.html\n"  # 6
    b"Disallow : /example/disallowed.gif\n"  # 7
    b"User-Agent: quxbot\n"  # 8
)

# RFC 9309 §5.1 "Simple Example", with its literal "EOF" line.
SIMPLE_RFC = (
    b"User-Agent: *\n"  # 1
    b"Disallow: *.gif$\n"  # 2
    b"Disallow: /example/\n"  # 3
    b"Allow: /publications/\n"  # 4
    b"\n"  # 5
    b"User-Agent: foobot\n"  # 6
    b"Disallow:/\n"  # 7
    b"Allow:/example/page.html\n"  # 8
    b"Allow:/example/allowed.gif\n"  # 9
    b"\n"  # 10
    b"User-Agent: barbot\n"  # 11
    b"User-Agent: bazbot\n"  # 12
    b"Disallow: /example/page.html\n"  # 13
    b"\n"  # 14
    b"User-Agent: quxbot\n"  # 15
    b"\n"  # 16
    b"EOF\n"  # 17
)

# Draft §3.2 / RFC 9309 §5.2 "Longest Match".
LONGEST = (
    b"User-Agent : foobot\n"  # 1
    b"Allow : /example/page/\n"  # 2
    b"Disallow : /example/page/disallowed.gif\n"  # 3
)

MERGE_9309 = (
    b"user-agent: ExampleBot\n"  # 1
    b"disallow: /foo\n"  # 2
    b"disallow: /bar\n"  # 3
    b"\n"  # 4
    b"user-agent: ExampleBot\n"  # 5
    b"disallow: /baz\n"  # 6
)

STAR = b"User-agent: *\n"
EX = "https://www.example.com"

CASES: list[Case] = [
    # --- draft §3.1 simple example -------------------------------------------------------
    Case("rfc_3_1_simple_foobot_page", D + " §3.1", SIMPLE_DRAFT, "foobot",
         EX + "/example/page.html", False, 2),
    Case("rfc_3_1_simple_foobot_gif", D + " §3.1", SIMPLE_DRAFT, "foobot",
         EX + "/example/disallowed.gif", False, 3),
    Case("rfc_3_1_simple_foobot_other", D + " §3.1", SIMPLE_DRAFT, "foobot",
         EX + "/example/other.html", True, 0),
    Case("rfc_3_1_simple_barbot_page", D + " §3.1", SIMPLE_DRAFT, "barbot",
         EX + "/example/page.html", True, 6),
    Case("rfc_3_1_simple_barbot_gif", D + " §3.1", SIMPLE_DRAFT, "barbot",
         EX + "/example/disallowed.gif", False, 7),
    Case("rfc_3_1_simple_bazbot_page", D + " §3.1", SIMPLE_DRAFT, "bazbot",
         EX + "/example/page.html", True, 6),
    Case("rfc_3_1_simple_bazbot_gif", D + " §3.1", SIMPLE_DRAFT, "bazbot",
         EX + "/example/disallowed.gif", False, 7),
    Case("rfc_3_1_simple_quxbot_empty_group", D + " §3.1", SIMPLE_DRAFT, "quxbot",
         EX + "/example/disallowed.gif", True, 0, note="empty group at end of file"),
    Case("rfc_3_1_simple_unnamed_bot", D + " §3.1", SIMPLE_DRAFT, "otherbot",
         EX + "/example/disallowed.gif", True, 0, note="no group and no * group"),
    Case("rfc_3_1_simple_agent_case_insensitive", D + " §2.2.1", SIMPLE_DRAFT, "FooBot",
         EX + "/example/page.html", False, 2),
    # --- RFC 9309 §5.1 simple example ----------------------------------------------------
    Case("rfc_5_1_foobot_page_allowed", R + " §5.1", SIMPLE_RFC, "foobot",
         EX + "/example/page.html", True, 8),
    Case("rfc_5_1_foobot_allowed_gif", R + " §5.1", SIMPLE_RFC, "foobot",
         EX + "/example/allowed.gif", True, 9),
    Case("rfc_5_1_foobot_other_disallowed", R + " §5.1", SIMPLE_RFC, "foobot",
         EX + "/example/other.html", False, 7),
    Case("rfc_5_1_foobot_root", R + " §5.1", SIMPLE_RFC, "foobot", EX + "/", False, 7),
    Case("rfc_5_1_foobot_ignores_star_allow", R + " §5.1", SIMPLE_RFC, "foobot",
         EX + "/publications/x.html", False, 7, note="* rules never apply to foobot"),
    Case("rfc_5_1_barbot_page", R + " §5.1", SIMPLE_RFC, "barbot",
         EX + "/example/page.html", False, 13),
    Case("rfc_5_1_bazbot_page", R + " §5.1", SIMPLE_RFC, "bazbot",
         EX + "/example/page.html", False, 13),
    Case("rfc_5_1_barbot_gif_not_star", R + " §5.1", SIMPLE_RFC, "barbot",
         EX + "/example/allowed.gif", True, 0),
    Case("rfc_5_1_quxbot_empty_group", R + " §5.1", SIMPLE_RFC, "quxbot",
         EX + "/example/page.html", True, 0, note="empty group: * rules do not apply"),
    Case("rfc_5_1_star_example_dir", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/example/page.html", False, 3),
    Case("rfc_5_1_star_gif_anywhere", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/images/a.gif", False, 2),
    Case("rfc_5_1_star_gif_with_query", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/images/a.gif?v=1", True, 0, note="$ anchors at the end of path+query"),
    Case("rfc_5_1_star_publications", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/publications/", True, 4),
    Case("rfc_5_1_star_publications_gif", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/publications/a.gif", True, 4, note="/publications/ (14) beats *.gif$ (6)"),
    Case("rfc_5_1_star_example_gif", R + " §5.1", SIMPLE_RFC, "otherbot",
         EX + "/example/a.gif", False, 3, note="/example/ (9 octets) beats *.gif$ (6)"),
    Case("rfc_5_1_star_other", R + " §5.1", SIMPLE_RFC, "otherbot", EX + "/index.html", True, 0),
    # --- longest match ---------------------------------------------------------------------
    Case("rfc_3_2_longest_match_1", D + " §3.2", LONGEST, "foobot",
         EX + "/example/page/disallowed.gif", False, 3),
    Case("rfc_3_2_longest_match_2", D + " §3.2", LONGEST, "foobot",
         EX + "/example/page/disallow.gif", True, 2,
         note="the draft's text names this URL; /example/page/disallowed.gif is no prefix"),
    Case("rfc_3_2_longest_match_3", D + " §3.2", LONGEST, "foobot",
         EX + "/example/page/", True, 2),
    Case("rfc_3_2_longest_match_4", D + " §3.2", LONGEST, "foobot",
         EX + "/example/page", True, 0),
    Case("rfc_3_2_longest_match_order_1", R + " §2.2.2",
         b"User-agent: *\nDisallow: /example/page/disallowed.gif\nAllow: /example/page/\n",
         "foobot", EX + "/example/page/disallowed.gif", False, 2,
         note="order in the file does not matter"),
    Case("rfc_2_2_2_longest_match_1", R + " §2.2.2",
         STAR + b"Disallow: /a\nAllow: /ab\nDisallow: /abc\n", "bot", "/abcd", False, 4),
    Case("rfc_2_2_2_longest_match_2", R + " §2.2.2",
         STAR + b"Disallow: /a\nAllow: /ab\nDisallow: /abc\n", "bot", "/abx", True, 3),
    Case("rfc_2_2_2_longest_match_3", R + " §2.2.2",
         STAR + b"Disallow: /a\nAllow: /ab\nDisallow: /abc\n", "bot", "/ax", False, 2),
    Case("rfc_2_2_2_allow_wins_tie_1", R + " §2.2.2",
         STAR + b"Disallow: /folder\nAllow: /folder\n", "bot", "/folder/page", True, 3),
    Case("rfc_2_2_2_allow_wins_tie_2", R + " §2.2.2",
         STAR + b"Allow: /folder\nDisallow: /folder\n", "bot", "/folder/page", True, 2),
    Case("rfc_2_2_2_no_match_allowed", R + " §2.2.2",
         STAR + b"Disallow: /private\n", "bot", "/public", True, 0),
    Case("rfc_2_2_2_empty_group_allowed", R + " §2.2.2", STAR, "bot", "/anything", True, 0),
    Case("rfc_2_2_2_case_sensitive_1", R + " §2.2.2",
         STAR + b"Disallow: /Private\n", "bot", "/private", True, 0),
    Case("rfc_2_2_2_case_sensitive_2", R + " §2.2.2",
         STAR + b"Disallow: /Private\n", "bot", "/Private", False, 2),
    Case("rfc_2_2_2_rules_before_group_ignored_1", R + " §2.2.2",
         b"Disallow: /\nUser-agent: *\nDisallow: /x\n", "bot", "/y", True, 0),
    Case("rfc_2_2_2_rules_before_group_ignored_2", R + " §2.2.2",
         b"Allow: /x\nDisallow: /\n", "bot", "/y", True, 0, note="no group at all"),
    Case("rfc_2_2_2_rules_before_group_ignored_3", R + " §2.2.2",
         b"Disallow: /\n\nUser-agent: bot\nDisallow: /x\n", "bot", "/y", True, 0),
    Case("rfc_2_2_2_robots_txt_implicitly_allowed", R + " §2.2.2",
         STAR + b"Disallow: /\n", "bot", EX + "/robots.txt", True, 0,
         note="SPEC D3: Google's library leaves this to the caller"),
    # --- percent-encoding table (draft §2.2.2) -------------------------------------------
    Case("rfc_2_2_2_encoding_plain_query", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=quz\n", "bot", "/foo/bar?baz=quz", False, 2),
    Case("rfc_2_2_2_encoding_plain_query_prefix", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=quz\n", "bot", "/foo/bar?baz=qu", True, 0),
    Case("rfc_2_2_2_encoding_reserved_literal", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=http://foo.bar\n", "bot",
         "/foo/bar?baz=http://foo.bar", False, 2),
    Case("rfc_2_2_2_encoding_reserved_url_encoded", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=http://foo.bar\n", "bot",
         "/foo/bar?baz=http%3A%2F%2Ffoo.bar", True, 0,
         note="draft: both sides encode to http%3A%2F%2F and match; Google encodes neither"),
    Case("rfc_2_2_2_encoding_reserved_rule_encoded", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=http%3A%2F%2Ffoo.bar\n", "bot",
         "/foo/bar?baz=http://foo.bar", True, 0,
         note="draft: match after encoding; Google compares octets as written"),
    Case("rfc_2_2_2_encoding_reserved_both_encoded", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar?baz=http%3A%2F%2Ffoo.bar\n", "bot",
         "/foo/bar?baz=http%3a%2f%2ffoo.bar", False, 2, note="hex case: SPEC D2"),
    Case("rfc_2_2_2_encoding_utf8_rule_escaped_url", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/\xe3\x83\x84\n", "bot", "/foo/bar/%E3%83%84", False, 2),
    Case("rfc_2_2_2_encoding_utf8_rule_utf8_url", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/\xe3\x83\x84\n", "bot", "/foo/bar/\u30c4", False, 2,
         note="URL side: SPEC D1"),
    Case("rfc_2_2_2_encoding_escaped_rule_utf8_url", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/%E3%83%84\n", "bot", "/foo/bar/\u30c4", False, 2),
    Case("rfc_2_2_2_encoding_escaped_rule_escaped_url", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/%E3%83%84\n", "bot", "/foo/bar/%E3%83%84", False, 2),
    Case("rfc_2_2_2_encoding_lower_hex_rule", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/%e3%83%84\n", "bot", "/foo/bar/%E3%83%84", False, 2),
    Case("rfc_2_2_2_encoding_unreserved_not_decoded", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/%62%61%7A\n", "bot", "/foo/bar/baz", True, 0,
         note="draft/RFC 9309: %62%61%7A is matched as /foo/bar/baz; Google never decodes"),
    Case("rfc_2_2_2_encoding_unreserved_same_escapes", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/%62%61%7A\n", "bot", "/foo/bar/%62%61%7a", False, 2),
    Case("rfc_2_2_2_encoding_unreserved_url_escaped", D + " §2.2.2",
         STAR + b"Disallow: /foo/bar/baz\n", "bot", "/foo/bar/%62%61%7A", True, 0,
         note="RFC: the URL's %62%61%7A is unencoded first and matches; Google does not"),
    # --- special characters (§2.2.3) -------------------------------------------------------
    Case("rfc_2_2_3_comment_in_line", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /x # comment in line\n", "bot", "/x/y", True, 3),
    Case("rfc_2_2_3_comment_own_line", D + " §2.2.3",
         STAR + b"# comment at the end\nDisallow: /x\n", "bot", "/x", False, 3),
    Case("rfc_2_2_3_dollar_exact", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/path/exactly$\n", "bot", "/this/path/exactly",
         True, 3),
    Case("rfc_2_2_3_dollar_longer", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/path/exactly$\n", "bot",
         "/this/path/exactly/more", False, 2),
    Case("rfc_2_2_3_dollar_query", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/path/exactly$\n", "bot",
         "/this/path/exactly?x=1", False, 2),
    Case("rfc_2_2_3_star_one_segment", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/*/exactly\n", "bot", "/this/a/exactly", True, 3),
    Case("rfc_2_2_3_star_many_segments", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/*/exactly\n", "bot", "/this/a/b/c/exactly", True, 3),
    Case("rfc_2_2_3_star_empty_run", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/*/exactly\n", "bot", "/this//exactly", True, 3),
    Case("rfc_2_2_3_star_needs_both_slashes", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/*/exactly\n", "bot", "/this/exactly", False, 2),
    Case("rfc_2_2_3_star_prefix_rule", D + " §2.2.3",
         STAR + b"Disallow: /\nallow: /this/*/exactly\n", "bot", "/this/a/exactly.html",
         True, 3, note="no $: a prefix match"),
    Case("rfc_2_2_3_escaped_star_literal_url", D + " §2.2.3",
         STAR + b"Disallow: /path/file-with-a-%2A.html\n", "bot",
         EX + "/path/file-with-a-*.html", True, 0,
         note="draft: %2A in a rule matches a literal * in the URL; Google does not decode"),
    Case("rfc_2_2_3_escaped_star_escaped_url", D + " §2.2.3",
         STAR + b"Disallow: /path/file-with-a-%2A.html\n", "bot",
         EX + "/path/file-with-a-%2A.html", False, 2),
    Case("rfc_2_2_3_escaped_star_not_wildcard", D + " §2.2.3",
         STAR + b"Disallow: /path/file-with-a-%2A.html\n", "bot",
         EX + "/path/file-with-a-b.html", True, 0, note="%2A is not a wildcard"),
    Case("rfc_2_2_3_escaped_dollar_literal_url", D + " §2.2.3",
         STAR + b"Disallow: /path/foo-%24\n", "bot", EX + "/path/foo-$", True, 0,
         note="draft: %24 in a rule matches a literal $; Google does not decode"),
    Case("rfc_2_2_3_escaped_dollar_escaped_url", D + " §2.2.3",
         STAR + b"Disallow: /path/foo-%24\n", "bot", EX + "/path/foo-%24", False, 2),
    Case("rfc_2_2_3_escaped_dollar_not_anchor", D + " §2.2.3",
         STAR + b"Disallow: /path/foo-%24\n", "bot", EX + "/path/foo-", True, 0),
    # --- user-agent line (§2.2.1) ----------------------------------------------------------
    Case("rfc_2_2_1_product_token_exact", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /\n", "ExampleBot", EX + "/x", False, 2),
    Case("rfc_2_2_1_product_token_case_insensitive", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /\n", "examplebot", EX + "/x", False, 2),
    Case("rfc_2_2_1_product_token_not_substring", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /\n", "Example", EX + "/x", True, 0),
    Case("rfc_2_2_1_product_token_not_superstring", R + " §2.2.1",
         b"User-agent: Example\nDisallow: /\n", "ExampleBot", EX + "/x", True, 0),
    Case("rfc_2_2_1_header_example", R + " §2.2.1",
         b"user-agent: ExampleBot\ndisallow: /\n", "ExampleBot/0.1", EX + "/x", False, 2,
         note="HTTP header 'ExampleBot/0.1' names product token ExampleBot (SPEC D5)"),
    Case("rfc_2_2_1_merge_1", R + " §2.2.1", MERGE_9309, "ExampleBot", EX + "/foo", False, 2),
    Case("rfc_2_2_1_merge_2", R + " §2.2.1", MERGE_9309, "ExampleBot", EX + "/bar", False, 3),
    Case("rfc_2_2_1_merge_3", R + " §2.2.1", MERGE_9309, "ExampleBot", EX + "/baz", False, 6),
    Case("rfc_2_2_1_merge_4", R + " §2.2.1", MERGE_9309, "ExampleBot", EX + "/qux", True, 0),
    Case("rfc_2_2_1_star_fallback", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
         "OtherBot", EX + "/b", False, 5),
    Case("rfc_2_2_1_star_not_for_named", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
         "ExampleBot", EX + "/b", True, 0),
    Case("rfc_2_2_1_star_groups_merged", R + " §2.2.1",
         b"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
         "OtherBot", EX + "/b", False, 5,
         note="draft: obey the *first* * group; RFC 9309 and Google merge all * groups"),
    Case("rfc_2_2_1_no_groups", R + " §2.2.1", b"# nothing here\n", "OtherBot", EX + "/", True, 0),
    Case("rfc_2_2_1_no_group_matches", R + " §2.2.1",
         b"User-agent: ExampleBot\nDisallow: /\n", "OtherBot", EX + "/", True, 0),
    # --- group definition (§2.1) and parsing errors (§2.3.1.5) ----------------------------
    Case("rfc_2_1_group_ends_at_user_agent_after_rule", R + " §2.1",
         b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a", "/y", True, 0),
    Case("rfc_2_1_several_user_agents_one_group", R + " §2.1",
         b"User-agent: a\nUser-agent: b\nDisallow: /y\n", "a", "/y", False, 3),
    Case("rfc_2_1_last_group_without_rules", R + " §2.1",
         b"User-agent: a\nDisallow: /x\nUser-agent: b\n", "b", "/x", True, 0),
    Case("rfc_2_3_1_5_parseable_rules_used", R + " §2.3.1.5",
         b"User-agent: *\nthis is not a rule\nDisallow: /x\n<garbage>\n", "bot", "/x", False, 3),
    Case("rfc_2_2_ws_around_colon", D + " §2.2",
         b" \tuser-agent \t: \tbot \t\n\tdisallow\t:\t/x\t\n", "bot", "/x", False, 2),
    Case("rfc_2_2_nl_cr", D + " §2.2", b"User-agent: *\rDisallow: /x\r", "bot", "/x", False, 2),
    Case("rfc_2_2_nl_crlf", D + " §2.2",
         b"User-agent: *\r\nDisallow: /x\r\n", "bot", "/x", False, 2),
    Case("rfc_2_2_empty_pattern", D + " §2.2",
         STAR + b"Disallow:\n", "bot", "/x", True, None, note="empty-pattern allows all"),
]
