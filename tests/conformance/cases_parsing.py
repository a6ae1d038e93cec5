"""Reading a file: line ends, BOM, comments, whitespace, odd lines and limits (SPEC §1).

Sources: RFC 9309 §2.2 (grammar: NL is CR, LF or CRLF), the Google doc (BOM and invalid lines
ignored, HTML bodies, non-UTF-8 characters, 500 KiB), and Google's library for the details
(SPEC §6: prefix keys, typos, missing colon, NUL, 16,663-octet lines).
"""

from __future__ import annotations

from .case import Case

R = "RFC 9309 §2.2"
G = "Google doc"
L = "Google lib"
S = b"User-agent: *\n"
BOT = "ExampleBot"
CUT = 16_663  # octets kept of one line (Google: 2083 * 8 - 1)
MAX = 512_000

HTML = (
    b"<!DOCTYPE html>\n"  # 1
    b"<html><head><title>robots</title></head>\n"  # 2
    b"<body>\n"  # 3
    b"User-agent: *\n"  # 4
    b"Disallow: /private\n"  # 5
    b"<p>Disallow: /p</p>\n"  # 6
    b"<a href=\"https://example.com/x\">x</a>\n"  # 7
    b"</body></html>\n"  # 8
)

HTML_404 = (
    b"<html><head><title>404 Not Found</title></head>\n"
    b"<body><h1>Not Found</h1><p>The requested URL was not found: /robots.txt</p></body>\n"
    b"</html>\n"
)

# "Disallow: /" + n * "a" + "$": with n = CUT - 12 the line is exactly CUT octets long.
KEPT_DOLLAR = S + b"Disallow: /" + b"a" * (CUT - 12) + b"$\n"
CUT_DOLLAR = S + b"Disallow: /" + b"a" * (CUT - 11) + b"$\n"
LONG_LINE = S + b"Disallow: /" + b"a" * 20_000 + b"\nDisallow: /z\n"
LONG_COMMENT = S + b"# " + b"c" * 40_000 + b"\nDisallow: /z\n"

BIG_FIRST = S + b"Disallow: /x\n" + (b"#" + b"p" * 98 + b"\n") * 6_000  # 600,027 octets
BIG_LATE = S + (b"#" + b"p" * 98 + b"\n") * 6_000 + b"Disallow: /x\n"

CASES: list[Case] = [
    # --- line ends -------------------------------------------------------------------------
    Case("parse_eol_lf", R, b"User-agent: *\nDisallow: /x\n", BOT, "/x", False, 2),
    Case("parse_eol_cr", R, b"User-agent: *\rDisallow: /x\r", BOT, "/x", False, 2),
    Case("parse_eol_crlf", R, b"User-agent: *\r\nDisallow: /x\r\n", BOT, "/x", False, 2),
    Case("parse_eol_none_at_end", R, b"User-agent: *\nDisallow: /x", BOT, "/x", False, 2),
    Case("parse_eol_cr_cr_two_lines", R, b"User-agent: *\r\rDisallow: /x", BOT, "/x", False, 3),
    Case("parse_eol_crlf_crlf_two_lines", R, b"User-agent: *\r\n\r\nDisallow: /x", BOT, "/x",
         False, 3),
    Case("parse_eol_lf_cr_two_lines", R, b"User-agent: *\n\rDisallow: /x", BOT, "/x", False, 3,
         note="LF then CR is two line ends"),
    Case("parse_eol_cr_crlf", R, b"User-agent: *\r\r\nDisallow: /x", BOT, "/x", False, 3),
    Case("parse_eol_mixed_1", R, b"User-agent: *\n\r\nDisallow: /x\rDisallow: /y\r\n", BOT, "/y",
         False, 4),
    Case("parse_eol_mixed_2", R, b"User-agent: a\rUser-agent: b\nDisallow: /x\r\nAllow: /x/y\n",
         "b", "/x/y", True, 4),
    Case("parse_eol_mixed_3", R, b"\r\n\n\rUser-agent: *\r\nDisallow: /x", BOT, "/x", False, 5),
    Case("parse_eol_form_feed_not_eol", L, b"User-agent: *\x0cDisallow: /x\n", BOT, "/x", True, 0,
         note="\\f is whitespace, not a line end: one user-agent line"),
    Case("parse_eol_vtab_not_eol", L, b"User-agent: *\x0bDisallow: /x\n", BOT, "/x", True, 0),
    Case("parse_eol_unicode_line_separator_not_eol", L,
         b"User-agent: *\xe2\x80\xa8Disallow: /x\n", BOT, "/x", True, 0),
    Case("parse_eol_nel_not_eol", L, b"User-agent: *\n\x85Disallow: /x\n", BOT, "/x", True, 0,
         note="\\x85 (NEL) is an octet of the key"),
    # --- BOM ----------------------------------------------------------------------------------
    Case("parse_bom_utf8", G, b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", BOT, "/x", False, 2,
         note="the doc: a BOM at the start is ignored"),
    Case("parse_bom_str_body", G, "\ufeffUser-agent: *\nDisallow: /x\n", BOT, "/x", False, 2),
    Case("parse_bom_then_blank_line", G, b"\xef\xbb\xbf\nUser-agent: *\nDisallow: /x", BOT, "/x",
         False, 3),
    Case("parse_bom_only", G, b"\xef\xbb\xbf", BOT, "/x", True, 0),
    Case("parse_bom_partial_two", L, b"\xef\xbbUser-agent: *\nDisallow: /x\n", BOT, "/x", False, 2,
         note="any prefix of the BOM is skipped"),
    Case("parse_bom_partial_one", L, b"\xefUser-agent: *\nDisallow: /x\n", BOT, "/x", False, 2),
    Case("parse_bom_wrong_start", L, b"\xbbUser-agent: *\nDisallow: /x\n", BOT, "/x", True, 0),
    Case("parse_bom_extra_octet", L, b"\xef\xbb\xbf\xbfUser-agent: *\nDisallow: /x\n", BOT, "/x",
         True, 0),
    Case("parse_bom_twice", L, b"\xef\xbb\xbf\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", BOT, "/x",
         True, 0, note="only one BOM is skipped"),
    Case("parse_bom_after_space", L, b" \xef\xbb\xbfUser-agent: *\nDisallow: /x\n", BOT, "/x",
         True, 0),
    Case("parse_bom_on_second_line", L, b"User-agent: *\n\xef\xbb\xbfDisallow: /x\n", BOT, "/x",
         True, 0),
    Case("parse_bom_repeated_prefix", L, b"\xef\xefUser-agent: *\nDisallow: /x\n", BOT, "/x",
         True, 0),
    Case("parse_bom_utf16le", G, b"\xff\xfeUser-agent: *\nDisallow: /x\n", BOT, "/x", True, 0,
         note="not a UTF-8 BOM: the first line is invalid, so the rule has no group"),
    # --- comments -------------------------------------------------------------------------------
    Case("parse_comment_after_rule", G, S + b"Disallow: /x # a comment\n", BOT, "/x", False, 2),
    Case("parse_comment_no_space", G, S + b"Disallow: /x#comment\n", BOT, "/xyz", False, 2),
    Case("parse_comment_hash_in_path", G, S + b"Disallow: /a#b\n", BOT, "/a", False, 2),
    Case("parse_comment_star_hash", G, S + b"Disallow: /*#\n", BOT, "/anything", False, 2,
         note="the pattern is /*: # starts a comment"),
    Case("parse_comment_only_value", G, S + b"Disallow: # nothing\n", BOT, "/x", True, None),
    Case("parse_comment_whole_line", G, S + b"# Disallow: /x\n", BOT, "/x", True, 0),
    Case("parse_comment_indented", G, S + b"   # Disallow: /x\n", BOT, "/x", True, 0),
    Case("parse_comment_in_key", L, S + b"Dis#allow: /x\n", BOT, "/x", True, 0),
    Case("parse_comment_agent_value", G, b"User-agent: ExampleBot # ours\nDisallow: /x\n", BOT,
         "/x", False, 2),
    Case("parse_comment_empty_agent", L, b"User-agent: # nobody\nDisallow: /x\n", BOT, "/x",
         True, 0, note="the value is empty: a group for no crawler"),
    Case("parse_comment_between_agents", G,
         b"User-agent: a\n# b follows\nUser-agent: b\nDisallow: /x\n", "a", "/x", False, 4),
    # --- whitespace -------------------------------------------------------------------------------
    Case("parse_ws_none", G, b"User-agent:*\nDisallow:/x", BOT, "/x", False, 2),
    Case("parse_ws_tabs", G, b"\tUser-agent:\t*\t\n\tDisallow:\t/x\t\n", BOT, "/x", False, 2),
    Case("parse_ws_before_colon", G, S + b"Disallow :/x\n", BOT, "/x", False, 2),
    Case("parse_ws_vtab_formfeed_around", L, S + b"\x0bDisallow:\x0c/x\x0b\x0c\n", BOT, "/x",
         False, 2, note="\\v and \\f are stripped like spaces"),
    Case("parse_ws_vtab_before_key", L, b"\x0bUser-agent: *\nDisallow: /x\n", BOT, "/x", False, 2),
    Case("parse_ws_trailing_spaces_value", G, S + b"Disallow: /x/   \n", BOT, "/x/y", False, 2),
    Case("parse_ws_inside_value_kept", L, S + b"Disallow: /a b\n", BOT, "/a b", False, 2),
    Case("parse_ws_inside_value_not_encoded", L, S + b"Disallow: /a b\n", BOT, "/a%20b", True, 0),
    Case("parse_ws_escape_not_space", L, S + b"Disallow: /a%20b\n", BOT, "/a b", True, 0),
    Case("parse_ws_blank_lines_spaces", G, b"User-agent: *\n   \n\t\nDisallow: /x\n", BOT, "/x",
         False, 4),
    # --- colons, keys, typos ---------------------------------------------------------------------
    Case("parse_missing_colon_disallow", L, S + b"Disallow /x\n", BOT, "/x", False, 2),
    Case("parse_missing_colon_allow", L, S + b"Disallow: /\nAllow /x\n", BOT, "/x", True, 3),
    Case("parse_missing_colon_agent_tab", L, b"User-agent\tExampleBot\nDisallow: /x\n", BOT, "/x",
         False, 2),
    Case("parse_missing_colon_sitemap_keeps_group", L,
         b"User-agent: a\nSitemap https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n", "a",
         "/x", False, 4),
    Case("parse_missing_colon_four_tokens", L, S + b"Disallow the /x path\n", BOT, "/x", True, 0),
    Case("parse_double_colon", L, S + b"Disallow:: /x\n", BOT, "/x", True, 0,
         note="the value is ': /x', which starts with neither / nor *"),
    Case("parse_empty_key", L, S + b": /x\n", BOT, "/x", True, 0),
    Case("parse_colon_in_value", L, S + b"Disallow: /a:b:c\n", BOT, "/a:b:c/d", False, 2),
    Case("parse_key_uppercase", G, b"USER-AGENT: *\nDISALLOW: /x\n", BOT, "/x", False, 2),
    Case("parse_key_mixed_case", G, b"uSeR-aGeNt: *\ndIsAlLoW: /x\n", BOT, "/x", False, 2),
    Case("parse_key_prefix_disallowed", L, S + b"Disallowed: /x\n", BOT, "/x", False, 2),
    Case("parse_key_prefix_allowed", L, S + b"Disallow: /\nAllowed: /x\n", BOT, "/x", True, 3),
    Case("parse_key_prefix_user_agents", L, b"User-Agents: ExampleBot\nDisallow: /x\n", BOT, "/x",
         False, 2),
    Case("parse_key_typo_disalow", L, S + b"Disalow: /x\n", BOT, "/x", False, 2),
    Case("parse_key_typo_useragent", L, b"Useragent: ExampleBot\nDisallow: /x\n", BOT, "/x",
         False, 2),
    Case("parse_key_typo_user_agent_space", L, b"User agent: ExampleBot\nDisallow: /x\n", BOT,
         "/x", False, 2),
    Case("parse_key_typo_disallow_space", L, S + b"Dis allow: /x\n", BOT, "/x", True, 0),
    Case("parse_key_typo_user_dash_dash", L, b"User--agent: ExampleBot\nDisallow: /x\n", BOT, "/x",
         True, 0),
    Case("parse_key_unknown_ignored", G, S + b"Foo: /x\n", BOT, "/x", True, 0),
    Case("parse_key_crawl_delay_ignored", G, S + b"Crawl-delay: 5\n", BOT, "/x", True, 0),
    Case("parse_key_host_ignored", G, S + b"Host: example.com\nDisallow: /x\n", BOT, "/x",
         False, 3),
    Case("parse_key_request_rate_ignored", G, S + b"Request-rate: 1/5\nDisallow: /x\n", BOT, "/x",
         False, 3),
    # --- NUL octets ----------------------------------------------------------------------------
    Case("parse_nul_ends_value", L, S + b"Disallow: /a\x00/b\n", BOT, "/a/c", False, 2),
    Case("parse_nul_line_start", L, S + b"\x00Disallow: /x\n", BOT, "/x", True, 0),
    Case("parse_nul_in_key", L, S + b"Dis\x00allow: /x\n", BOT, "/x", True, 0),
    Case("parse_nul_keeps_line_numbers", L, S + b"Foo\x00\nDisallow: /x\n", BOT, "/x", False, 3),
    Case("parse_nul_in_agent_value", L, b"User-agent: Example\x00Bot\nDisallow: /x\n", "Example",
         "/x", False, 2),
    Case("parse_utf16le_body", G, "User-agent: *\nDisallow: /x\n".encode("utf-16-le"), BOT, "/x",
         True, 0, note="UTF-16 is not UTF-8: every line is cut at its first NUL"),
    Case("parse_utf16be_bom_body", G, "\ufeffUser-agent: *\nDisallow: /x\n".encode("utf-16-be"),
         BOT, "/x", True, 0),
    # --- over-long lines -------------------------------------------------------------------------
    Case("parse_line_cut_dollar_kept", L, KEPT_DOLLAR, BOT, "/" + "a" * (CUT - 12), False, 2,
         note="a line of exactly 16,663 octets is kept whole: the $ anchors"),
    Case("parse_line_cut_dollar_kept_longer_url", L, KEPT_DOLLAR, BOT, "/" + "a" * (CUT - 12) + "b",
         True, 0),
    Case("parse_line_cut_dollar_dropped", L, CUT_DOLLAR, BOT, "/" + "a" * (CUT - 11) + "b",
         False, 2,
         note="one octet more: the $ is past the cut, so the rule is a prefix rule"),
    Case("parse_line_cut_dollar_dropped_short_url", L, CUT_DOLLAR, BOT, "/" + "a" * (CUT - 12),
         True, 0),
    Case("parse_line_cut_long_pattern_prefix", L, LONG_LINE, BOT, "/" + "a" * 16_652, False, 2,
         note="the kept pattern is / and 16,652 a's"),
    Case("parse_line_cut_long_pattern_shorter_url", L, LONG_LINE, BOT, "/" + "a" * 16_651, True, 0),
    Case("parse_line_cut_next_line_kept", L, LONG_LINE, BOT, "/z", False, 3),
    Case("parse_line_cut_long_comment", L, LONG_COMMENT, BOT, "/z", False, 3),
    # --- non-UTF-8 octets -------------------------------------------------------------------------
    Case("parse_latin1_rule_escaped", G, S + b"Disallow: /caf\xe9\n", BOT, "/caf%E9", False, 2,
         note="octets >= 0x80 are percent-encoded as they are"),
    Case("parse_latin1_rule_not_utf8_url", G, S + b"Disallow: /caf\xe9\n", BOT, "/caf\u00e9",
         True, 0, note="the doc: non-UTF-8 files may make rules invalid"),
    Case("parse_latin1_line_does_not_break_others", G, S + b"\xff\xfe\xfd\nDisallow: /x\n", BOT,
         "/x", False, 3),
    Case("parse_latin1_in_comment", G, S + b"# caf\xe9 \x93quoted\x94\nDisallow: /x\n", BOT, "/x",
         False, 3),
    Case("parse_latin1_in_key", G, S + b"Disallow\xe9: /x\n", BOT, "/x", False, 2,
         note="'Disallow\\xe9' still starts with disallow (prefix keys)"),
    Case("parse_latin1_before_key", G, S + b"\xe9Disallow: /x\n", BOT, "/x", True, 0),
    Case("parse_invalid_utf8_sequence_rule", G, S + b"Disallow: /\xc3(\n", BOT, "/%C3(", False, 2),
    # --- HTML served as robots.txt -----------------------------------------------------------
    Case("parse_html_valid_lines_used", G, HTML, BOT, "/private/a", False, 5,
         note="the doc: HTML content is parsed and valid rules extracted"),
    Case("parse_html_tagged_line_ignored", G, HTML, BOT, "/p", True, 0),
    Case("parse_html_other_path", G, HTML, BOT, "/x", True, 0),
    Case("parse_html_404_page", G, HTML_404, BOT, "/anything", True, 0),
    Case("parse_html_br_breaks_agent", L, b"User-agent: *<br>\nDisallow: /<br>\n", BOT, "/x",
         True, 0, note="'*<br>' is not the global group"),
    Case("parse_html_br_tagged_group", L, b"User-agent: ExampleBot<br>\nDisallow: /x<br>\n", BOT,
         "/x<br>", False, 2, note="the agent is cut at '<'; the pattern keeps '<br>'"),
    # --- empty and trivial files ---------------------------------------------------------------
    Case("parse_empty_file", G, b"", BOT, "/", True, 0),
    Case("parse_empty_str_file", G, "", BOT, "/x", True, 0),
    Case("parse_blank_lines_only", G, b"\n\n\r\n  \n", BOT, "/x", True, 0),
    Case("parse_comments_only", G, b"# nothing\n# to see\n", BOT, "/x", True, 0),
    Case("parse_agent_only_no_newline", G, b"User-agent: *", BOT, "/x", True, 0),
    Case("parse_rule_only", G, b"Disallow: /", BOT, "/x", True, 0,
         note="a rule outside any group is ignored"),
    Case("parse_str_body", G, "User-agent: *\nDisallow: /caf\u00e9\n", BOT, "/caf%C3%A9", False, 2,
         note="a str body is UTF-8"),
    # --- size limit -------------------------------------------------------------------------------
    Case("parse_big_file_first_part_used", G, BIG_FIRST, BOT, "/x", False, 2,
         note="a file over 500 KiB is read up to the limit"),
    Case("parse_big_file_rule_past_limit", G, BIG_LATE, BOT, "/x", True, 0,
         note="content past 500 KiB is ignored (SPEC D4)"),
    Case("parse_big_file_exactly_limit", G, S + b"#" * (MAX - 27) + b"\nDisallow: /x", BOT, "/x",
         False, 3, note="a file of exactly 512,000 octets is read whole"),
]
