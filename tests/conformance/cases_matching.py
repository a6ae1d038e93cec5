"""Matching a URL against rules: wildcards, ``$``, precedence, encoding, targets (SPEC §3).

Sources: RFC 9309 §2.2.2-§2.2.3 (prefix match, ``*`` and ``$``, longest match, allow wins
ties, percent-encoding, /robots.txt), the Google doc (path-matching table, read here as
``allow`` rules too, and precedence) and Google's library (SPEC §6.5-6.8: priority counts
wildcards and escapes, escapes never decoded, ``index.htm*``, plain path slicing).
"""

from __future__ import annotations

from collections.abc import Sequence

from .case import Case

R = "RFC 9309 §2.2.2"
R3 = "RFC 9309 §2.2.3"
G = "Google doc"
L = "Google lib"
S = b"User-agent: *\n"
BOT = "ExampleBot"
EX = "https://example.com"


def _d(rule: bytes) -> bytes:
    return S + b"Disallow: " + rule + b"\n"


def _allow_table(name: str, pattern: bytes, matching: Sequence[str],
                 not_matching: Sequence[str]) -> list[Case]:
    """A row of the doc's path-matching table read as ``allow`` under ``disallow: /``."""
    body = S + b"Disallow: /\nAllow: " + pattern + b"\n"
    cases = [Case(f"match_allow_table_{name}_{i}", G + " path matching", body, BOT, EX + path,
                  True, 3) for i, path in enumerate(matching, 1)]
    cases += [Case(f"match_allow_table_{name}_no_{i}", G + " path matching", body, BOT,
                   EX + path, False, 2) for i, path in enumerate(not_matching, 1)]
    return cases


ALLOW_TABLE: list[Case] = [
    *_allow_table("fish", b"/fish", ["/fish", "/fish.php?id=anything", "/fishheads/yummy.html"],
                  ["/Fish.asp", "/catfish", "/?id=fish"]),
    *_allow_table("fish_slash", b"/fish/", ["/fish/", "/fish/salmon.htm"], ["/fish", "/Fish/"]),
    *_allow_table("php", b"/*.php", ["/index.php", "/folder/any.php.file.html"],
                  ["/", "/windows.PHP"]),
    *_allow_table("php_dollar", b"/*.php$", ["/folder/filename.php"],
                  ["/filename.php?parameters", "/filename.php5"]),
    *_allow_table("fish_php", b"/fish*.php", ["/fishheads/catfish.php?parameters"],
                  ["/Fish.PHP"]),
]

CASES: list[Case] = [
    # --- * wildcard ------------------------------------------------------------------------
    Case("match_star_middle_empty", R3, _d(b"/a*b"), BOT, "/ab", False, 2),
    Case("match_star_middle_run", R3, _d(b"/a*b"), BOT, "/axxb", False, 2),
    Case("match_star_crosses_slashes", R3, _d(b"/a*b"), BOT, "/a/x/y/b.html", False, 2),
    Case("match_star_needs_literal_after", R3, _d(b"/a*b"), BOT, "/a/x/y", True, 0),
    Case("match_star_order_matters", R3, _d(b"/a*b"), BOT, "/ba", True, 0),
    Case("match_star_two", R3, _d(b"/a*b*c"), BOT, "/a1b2c3", False, 2),
    Case("match_star_two_wrong_order", R3, _d(b"/a*b*c"), BOT, "/acb", True, 0),
    Case("match_star_consecutive", R3, _d(b"/a**b"), BOT, "/a-b", False, 2),
    Case("match_star_leading", R3, _d(b"*.pdf"), BOT, "/docs/x.pdf", False, 2),
    Case("match_star_leading_dollar", R3, _d(b"*.pdf$"), BOT, "/docs/x.pdf?dl=1", True, 0),
    Case("match_star_alone", R3, _d(b"*"), BOT, "/anything?at=all", False, 2),
    Case("match_star_slash_star", R3, _d(b"/*"), BOT, "/", False, 2),
    Case("match_star_matches_query", R3, _d(b"/page*id="), BOT, "/page?id=3", False, 2),
    Case("match_star_query_marker", R3, _d(b"/*?"), BOT, "/a/b?c", False, 2),
    Case("match_star_query_marker_no_query", R3, _d(b"/*?"), BOT, "/a/b", True, 0),
    Case("match_star_params_marker", R3, _d(b"/*;"), BOT, "/a;jsessionid=1", False, 2),
    Case("match_star_pathological_no_match", L, _d(b"/*a*a*a*a*a*a*a*b"), BOT, "/" + "a" * 3000,
         True, 0, note="must stay fast: no backtracking blow-up (SPEC §3)"),
    Case("match_star_pathological_match", L, _d(b"/*a*a*a*a*a*a*a*b"), BOT,
         "/" + "a" * 3000 + "b", False, 2),
    Case("match_literal_star_in_url", R3, _d(b"/a*"), BOT, "/a*", False, 2),
    # --- $ anchor -------------------------------------------------------------------------------
    Case("match_dollar_exact", R3, _d(b"/a$"), BOT, "/a", False, 2),
    Case("match_dollar_longer_path", R3, _d(b"/a$"), BOT, "/ab", True, 0),
    Case("match_dollar_trailing_slash", R3, _d(b"/a$"), BOT, "/a/", True, 0),
    Case("match_dollar_query", R3, _d(b"/a$"), BOT, "/a?x=1", True, 0),
    Case("match_dollar_empty_query", R3, _d(b"/a$"), BOT, "http://example.com/a?", True, 0,
         note="the target is /a? (the ? is kept)"),
    Case("match_dollar_query_marker", R3, _d(b"/a?$"), BOT, "http://example.com/a?", False, 2),
    Case("match_dollar_params", R3, _d(b"/a$"), BOT, "/a;p", True, 0),
    Case("match_dollar_fragment_ignored", R3, _d(b"/a$"), BOT, EX + "/a#top", False, 2),
    Case("match_dollar_middle_literal", L, _d(b"/a$b"), BOT, "/a$b", False, 2,
         note="$ only anchors at the end of a pattern"),
    Case("match_dollar_middle_not_anchor", L, _d(b"/a$b"), BOT, "/ab", True, 0),
    Case("match_dollar_double", L, _d(b"/a$$"), BOT, "/a$", False, 2),
    Case("match_dollar_literal_url_dollar", L, _d(b"/a$"), BOT, "/a$", True, 0,
         note="the final $ is an anchor, not the URL's $"),
    Case("match_dollar_then_star", L, _d(b"/$*"), BOT, "/$x", False, 2),
    Case("match_dollar_then_star_root", L, _d(b"/$*"), BOT, "/", True, 0),
    Case("match_star_dollar_all", L, _d(b"/*$"), BOT, "/", False, 2),
    Case("match_star_dollar_all_2", L, _d(b"/*$"), BOT, "/x/y?z", False, 2),
    Case("match_prefix_star_dollar", L, _d(b"/a*$"), BOT, "/abc", False, 2),
    Case("match_root_dollar_only_root", R3, _d(b"/$"), BOT, EX + "/", False, 2),
    Case("match_root_dollar_no_path", R3, _d(b"/$"), BOT, EX, False, 2,
         note="an empty path is /"),
    Case("match_root_dollar_query", R3, _d(b"/$"), BOT, EX + "/?q=1", True, 0),
    # --- longest match -----------------------------------------------------------------------
    Case("match_longest_three_levels_1", R,
         S + b"Disallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n", BOT, "/a/x", False, 2),
    Case("match_longest_three_levels_2", R,
         S + b"Disallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n", BOT, "/a/b/x", True, 3),
    Case("match_longest_three_levels_3", R,
         S + b"Disallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n", BOT, "/a/b/c/x", False, 4),
    Case("match_longest_pattern_not_match", L, S + b"Allow: /a*\nDisallow: /abc\n", BOT, "/abcdef",
         False, 3, note="the pattern's length counts, not the length of text it matched"),
    Case("match_longest_stars_win", L, S + b"Disallow: /xyzab\nAllow: /x*****\n", BOT, "/xyzabc",
         True, 3, note="7 octets against 6"),
    Case("match_longest_wildcard_beats_literal", G, S + b"Allow: /page\nDisallow: /*.html\n", BOT,
         "/page.html", False, 3),
    Case("match_longest_disallow_root_allow_file", R, S + b"Disallow: /\nAllow: /public.html\n",
         BOT, "/public.html", True, 3),
    Case("match_longest_allow_root", R, S + b"Allow: /\nDisallow: /private\n", BOT, "/private/x",
         False, 3),
    Case("match_longest_no_rule_matches", R, S + b"Allow: /a\nDisallow: /b\n", BOT, "/c", True, 0),
    # --- ties ------------------------------------------------------------------------------------
    Case("match_tie_literal", R, S + b"Disallow: /x\nAllow: /x\n", BOT, "/x", True, 3),
    Case("match_tie_dollar", R, S + b"Allow: /x$\nDisallow: /x$\n", BOT, "/x", True, 2),
    Case("match_tie_wildcards", L, S + b"Disallow: /*b\nAllow: /a*\n", BOT, "/ab", True, 3),
    Case("match_tie_two_disallows_first_line", L, S + b"Disallow: /a*\nDisallow: /ab\n", BOT,
         "/abc", False, 2, note="equal priority: the first line is reported"),
    Case("match_tie_two_disallows_first_line_2", L, S + b"Disallow: /ab\nDisallow: /a*\n", BOT,
         "/abc", False, 2),
    Case("match_tie_two_allows_first_line", L, S + b"Disallow: /\nAllow: /a*\nAllow: /ab\n", BOT,
         "/abc", True, 3),
    Case("match_tie_escaped_and_raw", L, S + b"Disallow: /%E9\nAllow: /\xe9\n", BOT, "/%E9x",
         True, 3, note="both are /%E9 after normalisation"),
    # --- priority counts escapes ---------------------------------------------------------------
    Case("match_priority_escaped_utf8", L, S + b"Disallow: /abcdef\nAllow: /*\xc3\xa9\n", BOT,
         "/abcdef\u00e9", True, 3, note="/*%C3%A9 is 8 octets, /abcdef 7"),
    Case("match_priority_escaped_latin1", L, S + b"Disallow: /%E9a\nAllow: /\xe9a*\n", BOT,
         "/%E9ab", True, 3, note="/\\xe9a* counts as /%E9a* (6 octets) against /%E9a (5)"),
    Case("match_priority_escape_written", L, S + b"Allow: /%41\nDisallow: /%4\n", BOT, "/%41",
         True, 2),
    # --- percent-encoding --------------------------------------------------------------------
    Case("match_pct_rule_lower_url_upper", R, _d(b"/%c3%a9"), BOT, "/%C3%A9", False, 2),
    Case("match_pct_rule_upper_url_lower", R, _d(b"/%C3%A9"), BOT, "/%c3%a9", False, 2,
         note="URL side: SPEC D2"),
    Case("match_pct_both_lower", R, _d(b"/%c3%a9"), BOT, "/%c3%a9", False, 2),
    Case("match_pct_rule_raw_url_escaped", R, _d(b"/\xc3\xa9"), BOT, "/%C3%A9", False, 2),
    Case("match_pct_rule_escaped_url_raw", R, _d(b"/%C3%A9"), BOT, "/\u00e9", False, 2,
         note="URL side: SPEC D1"),
    Case("match_pct_unreserved_not_decoded", L, _d(b"/%41"), BOT, "/A", True, 0,
         note="RFC 9309 would decode %41; Google does not"),
    Case("match_pct_unreserved_url_not_decoded", L, _d(b"/A"), BOT, "/%41", True, 0),
    Case("match_pct_slash_not_decoded", R, _d(b"/a%2Fb"), BOT, "/a/b", True, 0),
    Case("match_pct_reserved_url_not_encoded", L, _d(b"/a?b"), BOT, "/a%3Fb", True, 0),
    Case("match_pct_percent_literal", L, _d(b"/100%25"), BOT, "/100%25/x", False, 2),
    Case("match_pct_percent_not_space", L, _d(b"/a%20b"), BOT, "/a%20b", False, 2),
    Case("match_pct_dotdot_not_decoded", L, _d(b"/b"), BOT, "/a/%2e%2e/b", True, 0),
    # --- index.htm* (allow only) ----------------------------------------------------------------
    Case("match_index_shop_dir", L, S + b"Disallow: /shop\nAllow: /shop/index.html\n", BOT,
         "/shop/", True, 3, note="the added /shop/$ (7) beats /shop (5)"),
    Case("match_index_shop_no_slash", L, S + b"Disallow: /shop\nAllow: /shop/index.html\n", BOT,
         "/shop", False, 2),
    Case("match_index_shop_query", L, S + b"Disallow: /shop\nAllow: /shop/index.html\n", BOT,
         "/shop/?page=2", False, 2),
    Case("match_index_root_tie", L, S + b"Disallow: /$\nAllow: /index.htm\n", BOT, EX, True, 3),
    Case("match_index_nested", L, S + b"Disallow: /\nAllow: /a/b/index.html\n", BOT, "/a/b/",
         True, 3),
    Case("match_index_nested_parent", L, S + b"Disallow: /\nAllow: /a/b/index.html\n", BOT, "/a/",
         False, 2),
    # --- target: path, params, query; never the fragment -----------------------------------------
    Case("match_target_query_prefix", R, _d(b"/a?b=1"), BOT, EX + "/a?b=1&c=2", False, 2),
    Case("match_target_query_slash", R, _d(b"/a?b=/c"), BOT, EX + "/a?b=/c/d", False, 2),
    Case("match_target_params", R, _d(b"/a;x=1"), BOT, EX + "/a;x=1?y", False, 2),
    Case("match_target_fragment_dropped", R, _d(b"/a#"), BOT, EX + "/a#b", False, 2,
         note="the rule is /a (# starts a comment); the fragment is not matched"),
    Case("match_target_fragment_with_query_chars", R, _d(b"/a$"), BOT, EX + "/a#x?y", False, 2),
    Case("match_target_fragment_not_query", R, _d(b"/*?"), BOT, EX + "/a#?b", True, 0),
    Case("match_target_empty_path", R, S + b"Disallow: /\nAllow: /$\n", BOT, EX, True, 3),
    Case("match_target_empty_path_query", R, _d(b"/?"), BOT, EX + "?q=1", False, 2),
    Case("match_target_empty_path_fragment", R, _d(b"/$"), BOT, EX + "#top", False, 2),
    Case("match_target_empty_path_params", R, _d(b"/;"), BOT, EX + ";p", False, 2),
    Case("match_target_port_userinfo", R, _d(b"/x"), BOT, "http://u:p@example.com:8080/x",
         False, 2),
    # --- no normalisation of the path --------------------------------------------------------
    Case("match_path_dotdot_literal", L, _d(b"/a/c"), BOT, EX + "/a/b/../c", True, 0),
    Case("match_path_dotdot_rule", L, _d(b"/a/b/.."), BOT, EX + "/a/b/../c", False, 2),
    Case("match_path_dot_literal", L, _d(b"/a"), BOT, EX + "/./a", True, 0),
    Case("match_path_double_slash_start", L, _d(b"/a"), BOT, EX + "//a", True, 0),
    Case("match_path_double_slash_rule", L, _d(b"//"), BOT, EX + "//a", False, 2),
    Case("match_path_trailing_slash_differs", R, _d(b"/a/"), BOT, EX + "/a", True, 0),
    # --- case sensitivity ----------------------------------------------------------------------
    Case("match_case_path", R, _d(b"/Fish"), BOT, "/fish", True, 0),
    Case("match_case_path_upper_url", R, _d(b"/fish"), BOT, "/FISH", True, 0),
    Case("match_case_query", R, _d(b"/a?Q=1"), BOT, "/a?q=1", True, 0),
    Case("match_case_escape_hex_only", R, _d(b"/%c3%a9X"), BOT, "/%C3%A9x", True, 0,
         note="escape hex digits compare case-insensitively, other letters do not"),
    Case("match_case_host_irrelevant", R, _d(b"/x"), BOT, "HTTPS://EXAMPLE.COM/x", False, 2),
    # --- /robots.txt --------------------------------------------------------------------------
    Case("match_robots_txt_disallow_all", R, _d(b"/"), BOT, EX + "/robots.txt", True, 0),
    Case("match_robots_txt_star_rule", R, _d(b"/*.txt$"), BOT, EX + "/robots.txt", True, 0),
    Case("match_robots_txt_other_txt", R, _d(b"/*.txt$"), BOT, EX + "/humans.txt", False, 2),
    Case("match_robots_txt_path_form", R, _d(b"/robots.txt"), BOT, "/robots.txt", True, 0),
    # --- the doc's table read as allow rules ----------------------------------------------------
    *ALLOW_TABLE,
]
