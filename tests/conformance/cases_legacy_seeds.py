"""The examples of the 1994 standard and the 1996 draft, with the verdict Google gives.

Sources: seeds/1994-norobots-standard.txt and seeds/1996-koster-draft-rfc-mail.txt. Where
the old reading differs (substring agent match, blank lines ending records, first match wins,
``%xx`` decoding), ``note`` says so; the expectation is always Google's (the default mode).
"""

from __future__ import annotations

from .case import Case

S94 = "1994 standard"
S96 = "1996 draft"
SITE = "http://www.site.com"

EX1 = (
    b"# robots.txt for http://www.site.com/\n"  # 1
    b"\n"  # 2
    b"User-agent: *\n"  # 3
    b"Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"  # 4
    b"Disallow: /tmp/ # these will soon disappear\n"  # 5
)

EX2 = (
    b"# robots.txt for http://www.site.com/\n"  # 1
    b"\n"  # 2
    b"User-agent: *\n"  # 3
    b"Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"  # 4
    b"\n"  # 5
    b"# Cybermapper knows where to go.\n"  # 6
    b"User-agent: cybermapper\n"  # 7
    b"Disallow:\n"  # 8
)

EX3 = (
    b"# go away\n"  # 1
    b"User-agent: *\n"  # 2
    b"Disallow: /\n"  # 3
)

# 1996 §3.2's record.
REC96 = (
    b"User-agent: webcrawler\n"  # 1
    b"User-agent: infoseek\n"  # 2
    b"Allow: /tmp/ok.html\n"  # 3
    b"Disallow: /tmp\n"  # 4
    b"Disallow: /user/foo\n"  # 5
)

# 1996 §3.2.2's table: (record path, URL path, "Matches" column of the draft).
TABLE96 = [
    (b"/tmp", "/tmp", True),
    (b"/tmp", "/tmp.html", True),
    (b"/tmp", "/tmp/a.html", True),
    (b"/tmp/", "/tmp", False),
    (b"/tmp/", "/tmp/", True),
    (b"/tmp/", "/tmp/a.html", True),
    (b"/a%3cd.html", "/a%3cd.html", True),
    (b"/a%3Cd.html", "/a%3cd.html", True),
    (b"/a%3cd.html", "/a%3Cd.html", True),
    (b"/a%3cd.html", "/a%3cd.html", True),  # the draft's table lists this row twice
    (b"/a%2fb.html", "/a%2fb.html", True),
    (b"/a%2fb.html", "/a%2Fb.html", True),
    (b"/a%2fb.html", "/a/b.html", False),
    (b"/%7ejoe/index.html", "/~joe/index.html", True),
    (b"/~joe/index.html", "/%7Ejoe/index.html", True),
]

# Where Google's answer differs from the draft's "Matches" column, and why.
GOOGLE_DIFFERS = {
    14: "1996: %7e is decoded to ~ and matches; Google never decodes escapes: no match",
    15: "1996: %7E is decoded to ~ and matches; Google never decodes escapes: no match",
}
HEX_CASE = "escape hex case is insensitive: rule normalised by Google, URL by SPEC D2"


def _table96() -> list[Case]:
    cases = []
    for i, (record, path, matches) in enumerate(TABLE96, 1):
        google = matches and i not in GOOGLE_DIFFERS
        note = GOOGLE_DIFFERS.get(i, HEX_CASE if b"%" in record else "")
        cases.append(Case(
            f"legacy_1996_table_{i}", S96 + " §3.2.2",
            b"User-agent: *\nDisallow: " + record + b"\n", "anybot", SITE + path,
            not google, 2 if google else 0, note=note))
    return cases


CASES: list[Case] = [
    # --- 1994: first example ----------------------------------------------------------------
    Case("legacy_1994_example1_map", S94, EX1, "anybot", SITE + "/cyberworld/map/index.html",
         False, 4),
    Case("legacy_1994_example1_tmp", S94, EX1, "anybot", SITE + "/tmp/x", False, 5),
    Case("legacy_1994_example1_map_dir_no_slash", S94, EX1, "anybot", SITE + "/cyberworld/map",
         True, 0),
    Case("legacy_1994_example1_cyberworld", S94, EX1, "anybot", SITE + "/cyberworld/", True, 0),
    Case("legacy_1994_example1_root", S94, EX1, "anybot", SITE + "/", True, 0),
    Case("legacy_1994_example1_tmpfile", S94, EX1, "anybot", SITE + "/tmp.html", True, 0),
    Case("legacy_1994_example1_comment_stripped", S94, EX1, "anybot", SITE + "/tmp/", False, 5,
         note="the comment and the space before it are not part of the path"),
    # --- 1994: second example ------------------------------------------------------------
    Case("legacy_1994_example2_cybermapper_map", S94, EX2, "cybermapper",
         SITE + "/cyberworld/map/index.html", True, None,
         note="cybermapper's own record has an empty Disallow: everything allowed"),
    Case("legacy_1994_example2_cybermapper_root", S94, EX2, "cybermapper", SITE + "/", True, None),
    Case("legacy_1994_example2_cybermapper_case", S94, EX2, "CyberMapper",
         SITE + "/cyberworld/map/x", True, None, note="name match is case-insensitive"),
    Case("legacy_1994_example2_other_map", S94, EX2, "anybot", SITE + "/cyberworld/map/index.html",
         False, 4),
    Case("legacy_1994_example2_other_root", S94, EX2, "anybot", SITE + "/", True, 0),
    Case("legacy_1994_example2_substring_agent", S94, EX2, "supercybermapper",
         SITE + "/cyberworld/map/x", False, 4,
         note="1994 recommends a case-insensitive substring match (cybermapper in "
              "supercybermapper: allowed); Google needs the whole token, so * applies"),
    Case("legacy_1994_example2_versioned_agent", S94, EX2, "cybermapper/2.0",
         SITE + "/cyberworld/map/x", True, None,
         note="'name without version information' (SPEC D5 strips the version)"),
    # --- 1994: third example ---------------------------------------------------------------
    Case("legacy_1994_example3_root", S94, EX3, "anybot", SITE + "/", False, 3),
    Case("legacy_1994_example3_page", S94, EX3, "anybot", SITE + "/index.html", False, 3),
    Case("legacy_1994_example3_robots_txt", S94, EX3, "anybot", SITE + "/robots.txt", True, 0,
         note="the file itself stays fetchable (SPEC D3)"),
    # --- 1994: the format section ------------------------------------------------------------
    Case("legacy_1994_help_html", S94, b"User-agent: *\nDisallow: /help\n", "anybot",
         SITE + "/help.html", False, 2),
    Case("legacy_1994_help_index", S94, b"User-agent: *\nDisallow: /help\n", "anybot",
         SITE + "/help/index.html", False, 2),
    Case("legacy_1994_help_slash_index", S94, b"User-agent: *\nDisallow: /help/\n", "anybot",
         SITE + "/help/index.html", False, 2),
    Case("legacy_1994_help_slash_html", S94, b"User-agent: *\nDisallow: /help/\n", "anybot",
         SITE + "/help.html", True, 0),
    Case("legacy_1994_empty_disallow", S94, b"User-agent: *\nDisallow:\n", "anybot",
         SITE + "/anything", True, None, note="an empty value: all URLs can be retrieved"),
    Case("legacy_1994_empty_file", S94, b"", "anybot", SITE + "/anything", True, 0),
    Case("legacy_1994_field_case_insensitive", S94, b"user-AGENT: *\ndisALLOW: /x\n", "anybot",
         SITE + "/x", False, 2),
    Case("legacy_1994_comment_only_lines_no_boundary", S94,
         b"User-agent: *\n# comment\nDisallow: /x\n", "anybot", SITE + "/x", False, 3),
    Case("legacy_1994_unrecognised_header_ignored", S94,
         b"User-agent: *\nVisit-time: 0600-0845\nDisallow: /x\n", "anybot", SITE + "/x", False, 3),
    Case("legacy_1994_blank_line_not_record_end", S94,
         b"User-agent: anybot\n\nDisallow: /x\n", "anybot", SITE + "/x", False, 3,
         note="1994: records are separated by blank lines, so Disallow would have no record; "
              "Google: blank lines do not end a group"),
    Case("legacy_1994_two_star_records", S94,
         b"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "anybot",
         SITE + "/b", False, 5,
         note="1994 forbids several * records; Google merges them"),
    Case("legacy_1994_line_ends_cr", S94, b"User-agent: *\rDisallow: /x\r", "anybot", SITE + "/x",
         False, 2),
    Case("legacy_1994_line_ends_crlf", S94, b"User-agent: *\r\nDisallow: /x\r\n", "anybot",
         SITE + "/x", False, 2),
    Case("legacy_1994_record_needs_disallow", S94, b"User-agent: anybot\n", "anybot", SITE + "/x",
         True, 0, note="1994: at least one Disallow per record; Google: an empty group allows"),
    # --- 1996: the example record ---------------------------------------------------------
    Case("legacy_1996_record_ok_html", S96, REC96, "webcrawler", SITE + "/tmp/ok.html", True, 3),
    Case("legacy_1996_record_tmp", S96, REC96, "webcrawler", SITE + "/tmp/other.html", False, 4),
    Case("legacy_1996_record_tmp_file", S96, REC96, "infoseek", SITE + "/tmp.html", False, 4),
    Case("legacy_1996_record_user_foo", S96, REC96, "infoseek", SITE + "/user/foo/bar", False, 5),
    Case("legacy_1996_record_user_other", S96, REC96, "infoseek", SITE + "/user/bar", True, 0),
    Case("legacy_1996_record_other_robot", S96, REC96, "lycos", SITE + "/tmp/x", True, 0),
    Case("legacy_1996_first_match_reversed", S96,
         b"User-agent: webcrawler\nDisallow: /tmp\nAllow: /tmp/ok.html\n", "webcrawler",
         SITE + "/tmp/ok.html", True, 3,
         note="1996: first match in file order wins (Disallow: /tmp, so disallowed); "
              "Google: the longest match (Allow) wins"),
    Case("legacy_1996_first_match_allow_root", S96,
         b"User-agent: *\nAllow: /\nDisallow: /private\n", "anybot", SITE + "/private/x",
         False, 3, note="1996: Allow: / matches first, so allowed; Google: longest match"),
    Case("legacy_1996_no_match_allowed", S96 + " (reply)",
         b"User-agent: *\nAllow: /public\nDisallow: /private\n", "anybot", SITE + "/other",
         True, 0, note="the reply on the list: no match implies allowed"),
    Case("legacy_1996_name_case_insensitive", S96, b"User-agent: figtree\nDisallow: /x\n",
         "FigTree", SITE + "/x", False, 2),
    Case("legacy_1996_name_from_version", S96, b"User-agent: figtree\nDisallow: /x\n",
         "FigTree/0.1", SITE + "/x", False, 2, note="minus version information (SPEC D5)"),
    Case("legacy_1996_full_http_user_agent", S96, b"User-agent: figtree\nDisallow: /x\n",
         "FigTree/0.1 Robot/1.0 libwww-perl/5.04", SITE + "/x", False, raises="InvalidAgent",
         note="a whole HTTP User-agent header is not a product token (SPEC D5)"),
    Case("legacy_1996_fig_tree_name", S96, b"User-agent: figtree\nDisallow: /x\n", "Fig Tree",
         SITE + "/x", False, raises="InvalidAgent", note="'Fig Tree' is not a product token"),
    Case("legacy_1996_comment_anywhere", S96,
         b"# start\nUser-agent: * # everyone\n# middle\nDisallow: /x # why\n# end\n", "anybot",
         SITE + "/x", False, 4),
    Case("legacy_1996_port_site", S96, b"User-agent: *\nDisallow: /x\n", "anybot",
         "http://www.bar.com:8001/x", False, 2, note="only the path is matched"),
    Case("legacy_1996_line_ends_lf", S96, b"User-agent: *\nDisallow: /x\n", "anybot", SITE + "/x",
         False, 2),
    Case("legacy_1996_line_ends_mixed", S96, b"User-agent: a\rUser-agent: b\r\nDisallow: /x\n",
         "a", SITE + "/x", False, 3),
    Case("legacy_1996_tab_space", S96, b"User-agent:\t*\nDisallow:\t/x\t\n", "anybot",
         SITE + "/x", False, 2),
    *_table96(),
]
