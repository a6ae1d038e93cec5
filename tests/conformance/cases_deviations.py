"""Cases for the deliberate deviations from Google's library (SPEC §0, D1-D6).

Google's library leaves URL preparation and limits to its caller; we are that caller. The
oracle (tests/oracle.py) applies the same preparation, so these cases still agree with it;
``note`` says what the raw library would do.
"""

from __future__ import annotations

from .case import Case

S = b"User-agent: *\n"
EX = "https://example.com"
BOT = "ExampleBot"
MAX = 512_000  # SPEC D4: 500 KiB


def _padded(tail_at: int, tail: bytes) -> bytes:
    """``User-agent: *`` then comment lines so that ``tail`` starts at offset ``tail_at``."""
    head = S
    lines = (tail_at - len(head)) // 100
    body = head + (b"#" + b"x" * 98 + b"\n") * lines
    rest = tail_at - len(body)
    if rest:
        assert rest >= 2
        body += b"#" + b"y" * (rest - 2) + b"\n"
    assert len(body) == tail_at
    return body + tail


# "Disallow: /abc" ends exactly at the cut; the rest of the line ("def") is past it.
STRADDLE = _padded(MAX - 14, b"Disallow: /abcdef\nDisallow: /z\n")
STRADDLE_LINE = STRADDLE[:MAX].count(b"\n") + 1
PAST = _padded(MAX, b"Disallow: /p\n")
BEFORE = _padded(MAX - 13, b"Disallow: /p\n")  # the 13 octets end exactly at the cut
BEFORE_LINE = BEFORE[:MAX].count(b"\n")
AGENT_PAST = (b"User-agent: a\nDisallow: /a\n" + b"#" * (MAX - 26 - 1)
              + b"\nUser-agent: *\nDisallow: /\n")

CASES: list[Case] = [
    # --- D1: non-ASCII characters of the URL are percent-encoded as UTF-8 ----------------------
    Case("dev_d1_utf8_path", "SPEC D1", S + b"Disallow: /caf\xc3\xa9\n", BOT, EX + "/caf\u00e9",
         False, 2, note="raw Google library: the URL's raw octets never match the escaped rule"),
    Case("dev_d1_utf8_path_escaped_rule", "SPEC D1", S + b"Disallow: /caf%C3%A9\n", BOT,
         EX + "/caf\u00e9", False, 2),
    Case("dev_d1_utf8_path_lower_escaped_rule", "SPEC D1", S + b"Disallow: /caf%c3%a9\n", BOT,
         EX + "/caf\u00e9", False, 2),
    Case("dev_d1_utf8_path_no_match_other", "SPEC D1", S + b"Disallow: /caf\xc3\xa9\n", BOT,
         EX + "/cafe", True, 0),
    Case("dev_d1_utf8_path_ascii_prefix", "SPEC D1", S + b"Disallow: /caf\n", BOT,
         EX + "/caf\u00e9", False, 2),
    Case("dev_d1_three_byte", "SPEC D1", S + b"Disallow: /%E3%83%84/\n", BOT,
         EX + "/\u30c4/index.html", False, 2),
    Case("dev_d1_four_byte", "SPEC D1", S + b"Disallow: /%F0%9F%98%80\n", BOT,
         EX + "/\U0001f600.png", False, 2),
    Case("dev_d1_query", "SPEC D1", S + b"Disallow: /search?q=\xc3\xa9\n", BOT,
         EX + "/search?q=\u00e9t\u00e9", False, 2),
    Case("dev_d1_allow", "SPEC D1", S + b"Disallow: /\nAllow: /\xc3\xa9\n", BOT, EX + "/\u00e9",
         True, 3),
    Case("dev_d1_dollar", "SPEC D1", S + b"Disallow: /\xc3\xa9$\n", BOT, EX + "/\u00e9", False, 2),
    Case("dev_d1_dollar_longer", "SPEC D1", S + b"Disallow: /\xc3\xa9$\n", BOT, EX + "/\u00e9a",
         True, 0),
    Case("dev_d1_wildcard", "SPEC D1", S + b"Disallow: /*\xc3\xa9\n", BOT, EX + "/a/b/\u00e9",
         False, 2),
    Case("dev_d1_mixed_escaped_and_raw", "SPEC D1", S + b"Disallow: /\xc3\xa9\xc3\xa9\n", BOT,
         EX + "/%C3%A9\u00e9", False, 2),
    Case("dev_d1_idn_host_ignored", "SPEC D1", S + b"Disallow: /x\n", BOT,
         "https://www.ex\u00e4mple.com/x", False, 2, note="only the path is matched"),
    Case("dev_d1_fragment_dropped", "SPEC D1", S + b"Disallow: /a$\n", BOT, EX + "/a#\u00e9",
         False, 2),
    Case("dev_d1_path_only_form", "SPEC D1", S + b"Disallow: /caf\xc3\xa9\n", BOT, "/caf\u00e9",
         False, 2),
    Case("dev_d1_case_of_letters_kept", "SPEC D1", S + b"Disallow: /\xc3\x89\n", BOT,
         EX + "/\u00e9", True, 0, note="\u00c9 (%C3%89) is not \u00e9 (%C3%A9)"),
    # --- D2: hex digits of %XX escapes are uppercased ----------------------------------------
    Case("dev_d2_lower_url_upper_rule", "SPEC D2", S + b"Disallow: /a%3Cd\n", BOT, EX + "/a%3cd",
         False, 2, note="raw Google library: %3c in the URL does not match %3C"),
    Case("dev_d2_lower_both", "SPEC D2", S + b"Disallow: /a%3cd\n", BOT, EX + "/a%3cd", False, 2,
         note="the rule is uppercased by Google, the URL by us"),
    Case("dev_d2_upper_url_lower_rule", "SPEC D2", S + b"Disallow: /a%3cd\n", BOT, EX + "/a%3Cd",
         False, 2),
    Case("dev_d2_mixed_case", "SPEC D2", S + b"Disallow: /%aB\n", BOT, EX + "/%Ab", False, 2),
    Case("dev_d2_tilde_escape", "SPEC D2", S + b"Disallow: /%7Ejoe\n", BOT, EX + "/%7ejoe/",
         False, 2),
    Case("dev_d2_not_decoded", "SPEC D2", S + b"Disallow: /~joe\n", BOT, EX + "/%7ejoe/", True, 0,
         note="case only: %7e is not decoded to ~"),
    Case("dev_d2_query", "SPEC D2", S + b"Disallow: /s?q=%E9\n", BOT, EX + "/s?q=%e9", False, 2),
    Case("dev_d2_allow", "SPEC D2", S + b"Disallow: /\nAllow: /%E9\n", BOT, EX + "/%e9", True, 3),
    Case("dev_d2_slash_escape", "SPEC D2", S + b"Disallow: /a%2Fb\n", BOT, EX + "/a%2fb", False, 2),
    Case("dev_d2_slash_escape_not_slash", "SPEC D2", S + b"Disallow: /a%2Fb\n", BOT, EX + "/a/b",
         True, 0),
    Case("dev_d2_not_hex_untouched", "SPEC D2", S + b"Disallow: /a%zz\n", BOT, EX + "/a%zz",
         False, 2),
    Case("dev_d2_not_hex_case_kept", "SPEC D2", S + b"Disallow: /a%zz\n", BOT, EX + "/a%ZZ",
         True, 0, note="%zz is no escape: its letters compare case-sensitively"),
    Case("dev_d2_letters_outside_escape_kept", "SPEC D2", S + b"Disallow: /%3cab\n", BOT,
         EX + "/%3cAB", True, 0, note="only the two hex digits after % change case"),
    # --- D3: /robots.txt is always allowed --------------------------------------------------
    Case("dev_d3_disallow_all", "SPEC D3", S + b"Disallow: /\n", BOT, EX + "/robots.txt", True, 0,
         note="RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed"),
    Case("dev_d3_disallow_robots_txt", "SPEC D3", S + b"Disallow: /robots.txt\n", BOT,
         EX + "/robots.txt", True, 0),
    Case("dev_d3_disallow_robots", "SPEC D3", S + b"Disallow: /robots\n", BOT, "/robots.txt",
         True, 0),
    Case("dev_d3_named_group", "SPEC D3", b"User-agent: ExampleBot\nDisallow: /\n", BOT,
         EX + "/robots.txt", True, 0),
    Case("dev_d3_dollar_rule", "SPEC D3", S + b"Disallow: /robots.txt$\n", BOT,
         "http://example.com:8181/robots.txt", True, 0),
    Case("dev_d3_ftp", "SPEC D3", S + b"Disallow: /\n", BOT, "ftp://example.com/robots.txt",
         True, 0),
    Case("dev_d3_fragment", "SPEC D3", S + b"Disallow: /\n", BOT, EX + "/robots.txt#top", True, 0,
         note="the fragment is not part of the target"),
    Case("dev_d3_query_not_exempt", "SPEC D3", S + b"Disallow: /\n", BOT, EX + "/robots.txt?x=1",
         False, 2, note="only the target /robots.txt itself is exempt (tests/oracle.py)"),
    Case("dev_d3_uppercase_not_exempt", "SPEC D3", S + b"Disallow: /\n", BOT, EX + "/ROBOTS.TXT",
         False, 2, note="RFC 9309 §2.3: the file name is all lower case"),
    Case("dev_d3_subdirectory_not_exempt", "SPEC D3", S + b"Disallow: /\n", BOT,
         EX + "/folder/robots.txt", False, 2,
         note="Google doc: a robots.txt in a subdirectory is not a robots.txt file"),
    Case("dev_d3_trailing_slash_not_exempt", "SPEC D3", S + b"Disallow: /\n", BOT,
         EX + "/robots.txt/", False, 2),
    # --- D4: content past 500 KiB is ignored --------------------------------------------------
    Case("dev_d4_rule_before_cut", "SPEC D4", BEFORE, BOT, "/p", False, BEFORE_LINE,
         note="the rule's last octet is octet 512,000"),
    Case("dev_d4_rule_past_cut", "SPEC D4", PAST, BOT, "/p", True, 0,
         note="raw Google library reads the whole body: it would disallow"),
    Case("dev_d4_rule_straddles_cut", "SPEC D4", STRADDLE, BOT, "/abcx", False, STRADDLE_LINE,
         note="the line is cut with the file: the pattern is /abc"),
    Case("dev_d4_rule_straddles_cut_no_def", "SPEC D4", STRADDLE, BOT, "/abd", True, 0),
    Case("dev_d4_rule_after_straddle_gone", "SPEC D4", STRADDLE, BOT, "/z", True, 0),
    Case("dev_d4_group_past_cut", "SPEC D4", AGENT_PAST, BOT, "/b", True, 0,
         note="the * group lies past the cut"),
    Case("dev_d4_group_before_cut_kept", "SPEC D4", AGENT_PAST, "a", "/a", False, 2),
    # --- D5: agent strings ----------------------------------------------------------------------
    Case("dev_d5_version_dropped", "SPEC D5", b"User-agent: Googlebot\nDisallow: /p\n",
         "Googlebot/2.1", EX + "/p", False, 2),
    Case("dev_d5_version_dropped_case", "SPEC D5", b"User-agent: Googlebot\nDisallow: /p\n",
         "googlebot/2.1", EX + "/p", False, 2),
    Case("dev_d5_version_other_token", "SPEC D5", b"User-agent: Googlebot\nDisallow: /p\n",
         "Googlebot-Image/1.0", EX + "/p", True, 0),
    Case("dev_d5_list_with_versions", "SPEC D5",
         b"User-agent: Googlebot\nDisallow: /p\nUser-agent: Otherbot\nDisallow: /q\n",
         ["Googlebot/2.1", "Otherbot/1.0"], EX + "/q", False, 4),
    Case("dev_d5_star_agent_global_only", "SPEC D5",
         b"User-agent: *\nDisallow: /x\nUser-agent: foo\nDisallow: /y\n", "*", EX + "/x", False, 2,
         note="'*' as the agent: only the global group applies"),
    Case("dev_d5_star_agent_not_named", "SPEC D5",
         b"User-agent: *\nDisallow: /x\nUser-agent: foo\nDisallow: /y\n", "*", EX + "/y", True, 0),
    Case("dev_d5_full_header_raises", "SPEC D5", S + b"Disallow: /\n",
         "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", EX + "/p",
         False, raises="InvalidAgent"),
    Case("dev_d5_empty_raises", "SPEC D5", S + b"Disallow: /\n", "", EX + "/p", False,
         raises="InvalidAgent"),
    Case("dev_d5_space_raises", "SPEC D5", S + b"Disallow: /\n", "Example Bot", EX + "/p", False,
         raises="InvalidAgent"),
    Case("dev_d5_digits_raise", "SPEC D5", S + b"Disallow: /\n", "Bot2000", EX + "/p", False,
         raises="InvalidAgent", note="digits are outside [A-Za-z_-]"),
    Case("dev_d5_comment_raises", "SPEC D5", S + b"Disallow: /\n", "Googlebot (compatible)",
         EX + "/p", False, raises="InvalidAgent"),
    Case("dev_d5_empty_list_raises", "SPEC D5", S + b"Disallow: /\n", [], EX + "/p", False,
         raises="InvalidAgent"),
    Case("dev_d5_bad_item_raises", "SPEC D5", S + b"Disallow: /\n", ["Googlebot", "Bad Bot"],
         EX + "/p", False, raises="InvalidAgent"),
    # --- D6: URLs --------------------------------------------------------------------------------
    Case("dev_d6_no_scheme_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "example.com/page",
         False, raises="InvalidURL"),
    Case("dev_d6_relative_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "page.html", False,
         raises="InvalidURL"),
    Case("dev_d6_empty_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "", False,
         raises="InvalidURL"),
    Case("dev_d6_query_only_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "?q=1", False,
         raises="InvalidURL"),
    Case("dev_d6_fragment_only_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "#top", False,
         raises="InvalidURL"),
    Case("dev_d6_mailto_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "mailto:a@example.com",
         False, raises="InvalidURL"),
    Case("dev_d6_single_slash_scheme_raises", "SPEC D6", S + b"Disallow: /\n", BOT,
         "http:/example.com/x", False, raises="InvalidURL"),
    Case("dev_d6_star_raises", "SPEC D6", S + b"Disallow: /\n", BOT, "*", False,
         raises="InvalidURL"),
    Case("dev_d6_path_ok", "SPEC D6", S + b"Disallow: /p\n", BOT, "/p", False, 2),
    Case("dev_d6_no_path_is_root", "SPEC D6", S + b"Disallow: /$\n", BOT, "http://example.com",
         False, 2, note="an empty path is /"),
    Case("dev_d6_query_without_path", "SPEC D6", S + b"Disallow: /?\n", BOT,
         "http://example.com?x=1", False, 2, note="the target is /?x=1"),
    Case("dev_d6_upper_scheme_host", "SPEC D6", S + b"Disallow: /p\n", BOT, "HTTP://EXAMPLE.COM/p",
         False, 2),
    Case("dev_d6_userinfo_port", "SPEC D6", S + b"Disallow: /p;q\n", BOT,
         "http://user:pw@example.com:8080/p;q?r#s", False, 2),
]
