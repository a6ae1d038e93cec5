"""Tests of lint.py: every code of the table fires where it should and nowhere near it.

``FIRES`` and ``QUIET`` are keyed by code and parametrised from :data:`CODES`, so a code
added to the table without both cases fails the suite. Each ``FIRES`` case also pins the
position (line, column) of the diagnostic. The property tests state two invariants:
``lint`` never raises, whatever the bytes; and a rule reported as never deciding
(R302/R303/R304) is never the deciding rule of any URL.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, NamedTuple, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotsrules
from robotsrules.linter import (
    CODES,
    FETCH_CODES,
    PURPOSE_GROUP_CODES,
    SEVERITIES,
    Diagnostic,
    help_text,
    lint,
)

# The codes lint() emits; FETCH_CODES need `lint --fetch` (tests/license/test_license_cli.py);
# PURPOSE_GROUP_CODES a recorded purpose-group token (tests/usage/test_purpose_groups.py).
EMITTED = sorted(set(CODES) - set(FETCH_CODES) - set(PURPOSE_GROUP_CODES))


class Case(NamedTuple):
    body: bytes
    line: int
    column: int
    kwargs: Optional[dict[str, Any]] = None


UA = b"User-agent: *\n"

# code -> a file where the code fires, and where (line, column).
FIRES: dict[str, Case] = {
    "R001": Case(b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", 1, 1),
    "R002": Case(UA + b"Disallow: /caf\xe9\n", 2, 15),
    "R003": Case(UA + b"Disallow: /private\n", 2, 6, {"max_bytes": 19}),
    "R004": Case(b"<!DOCTYPE html>\n<html><body>User-agent: *</body></html>\n", 1, 1),
    "R005": Case(b"Sitemap: https://example.com/s.xml\n", 1, 1),
    "R006": Case("User-agent: *\nDisallow: /x\n".encode("utf-16"), 1, 1),
    "R007": Case(UA + b"".join(b"Disallow: x%d\n" % n for n in range(101)), 102, 1),
    "R101": Case(UA + b"Disallow /x\n", 2, 9),
    "R102": Case(UA + b"  Disalow: /x\n", 2, 3),
    "R103": Case(UA + b"Disallowed: /x\n", 2, 1),
    "R104": Case(UA + b"Foo: /x\n", 2, 1),
    "R105": Case(UA + b"Clean-param: ref /\n", 2, 1),
    "R106": Case(UA + b"this is junk\n", 2, 1),
    "R107": Case(UA + b"Disallow: /" + b"a" * 17000 + b"\n", 2, 16664),
    "R108": Case(UA + b"Disallow: /a\x00b\n", 2, 13),
    "R109": Case(b"LLM-Policy: /llms.txt\n" + UA + b"Disallow: /x\n", 1, 13),
    "R110": Case(UA + b"Noindex: /x\n", 2, 1),
    "R201": Case(b"Disallow: /x\nUser-agent: *\nDisallow: /y\n", 1, 1),
    "R202": Case(b"User-agent:\nDisallow: /\n", 1, 12),
    "R203": Case(b"User-agent: MJ12bot\nDisallow: /\n", 1, 15),
    "R204": Case(b"User-agent: Googlebot/2.1\nDisallow: /\n", 1, 22),
    "R205": Case(b"User-agent: *bot\nDisallow: /\n", 1, 13),
    "R206": Case(b"User-agent: a\nDisallow: /x\nUser-agent: A\nDisallow: /y\n", 3, 13),
    "R207": Case(b"User-agent: *\nCrawl-delay: 1\nUser-agent: bad\nDisallow: /\n", 3, 1),
    "R208": Case(b"User-agent: a\n\nUser-agent: b\nDisallow: /\n", 3, 1),
    "R209": Case(b"User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\nCrawl-delay: 5\n",
                 4, 13),
    "R210": Case(b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /\n", 5, 11),
    "R211": Case(b"User-agent: Google-Extended\nCrawl-delay: 5\nDisallow: /\n", 1, 13),
    "R212": Case(b"User-agent: Googlebot\nUser-agent: Google-Extended\nDisallow: /x\n", 1, 13),
    "R213": Case(b"User-agent: *\nAllow: /\n\nUser-agent: ChatGPT-User\nDisallow: /\n", 4, 13),
    "R301": Case(UA + b"Disallow: fish\n", 2, 11),
    "R302": Case(UA + b"Disallow: /a\nDisallow: /a\n", 3, 11),
    "R303": Case(UA + b"Allow: /a\nDisallow: /a\n", 3, 11),
    "R304": Case(UA + b"Allow: /a*\nDisallow: /a\n", 3, 11),
    "R305": Case(UA + b"Disallow:\nDisallow: /x\n", 2, 10),
    "R306": Case(UA + b"Disallow: $\n", 2, 11),
    "R307": Case(UA + "Disallow: /caf\u00e9\n".encode(), 2, 11),
    "R401": Case(UA + b"Crawl-delay: fast\n", 2, 14),
    "R402": Case(UA + b"Request-rate: often\n", 2, 15),
    "R403": Case(b"Crawl-delay: 5\nUser-agent: *\nDisallow: /\n", 1, 1),
    "R404": Case(UA + b"Crawl-delay: 5\nCrawl-delay: 6\n", 3, 1),
    "R405": Case(b"Sitemap:\nUser-agent: *\nDisallow: /\n", 1, 9),
    "R406": Case(b"Sitemap: /sitemap.xml\nUser-agent: *\nDisallow: /\n", 1, 10),
    "R407": Case(UA + b"Crawl-delay: 1e309\n", 2, 14),
    "R501": Case(UA + b"Disallow: /a\nAllow: /a/b\n", 3, 8),
    "R601": Case(UA + b"Content-Usage: / Train-AI=n\n", 2, 16),
    "R602": Case(UA + b"Content-Signal: ai_train=no\n", 2, 17),
    "R603": Case(UA + b"Content-Signal: ai-train=maybe\n", 2, 17),
    "R604": Case(b"Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /x\n", 1, 1),
    "R605": Case(UA + b"Content-Signal: ai-train=yes\nContent-Signal: ai-train=no\n", 3, 17),
    "R606": Case(UA + b"Disallow: /p/\nContent-Usage: /p/x train-ai=n\n", 3, 16),
    "R607": Case(UA + b"Disallow: /\nContent-Signal: search=yes\n", 3, 17),
    "R608": Case(b"User-agent: *\nContent-Signal: ai-train=no\nAllow: /\n\n"
                 b"User-agent: GPTBot\nDisallow: /private/\n", 2, 17),
    "R609": Case(UA + b"Content-Usage: / train-ai=n, bots=n\n", 2, 16),
    "R701": Case(b"License: /license.xml\n" + UA + b"Disallow:\n", 1, 10),
    "R705": Case(UA + b"Disallow: /x\n\nLicense: https://example.com/license.xml\n", 4, 1),
}

# code -> files close to the FIRES case where the code must stay quiet.
QUIET: dict[str, list[tuple[bytes, dict[str, Any]]]] = {
    "R001": [(UA + b"Disallow: /\xef\xbb\xbf\n", {})],
    "R002": [(UA + "Disallow: /café\n".encode(), {}),
             # a character cut by the size limit is R003's business
             (UA + "Disallow: /é".encode(), {"max_bytes": len(UA) + 12})],
    "R003": [(UA + b"Disallow: /private\n", {"max_bytes": None}),
             (UA + b"Disallow: /private\n", {"max_bytes": 33})],
    "R004": [(b"# <html> in a comment\nUser-agent: *\nDisallow: /html\n", {}),
             (b"User-agent: *\nDisallow: /<html\n", {})],
    "R005": [(b"User-agent: *\nDisallow:\n", {})],
    "R006": [(b"User-agent: *\nDisallow: /x\n", {})],
    "R007": [(UA + b"".join(b"Disallow: x%d\n" % n for n in range(100)), {})],
    "R101": [(UA + b"Disallow: /x\n", {}), (UA + b"Foo bar\n", {})],
    "R102": [(UA + b"Disallow: /x\n", {}), (b"User-Agent: *\nDISALLOW: /x\n", {})],
    "R103": [(UA + b"DISALLOW: /x\n", {}), (b"USER-AGENT: *\nAllow: /x\n", {})],
    "R104": [(UA + b"Clean-param: ref /\nCrawl-delay: 1\nHost: example.com\n", {}),
             (b"License: https://example.com/l.xml\nLLM-Policy: https://example.com/llms.txt\n"
              + UA + b"Noindex: /x\nVisit-time: 0600-0845\nNo-Index: /y\nSignature-Agent: a.b\n",
              {})],
    "R109": [(b"License: https://example.com/l.xml\n" + UA + b"Visit-time: 0600-0845\n"
              b"Clean-param: ref&sid /forum/*.php\nComment: anything at all\n", {}),
             (UA + b"Disallow: /license.xml\n", {})],
    "R110": [(UA + b"Clean-param: ref\nLicense: https://example.com/l.xml\n", {}),
             (UA + b"Disallow: /noindex\n", {})],
    "R105": [(UA + b"Noindex: /x\n", {})],
    "R106": [(UA + b"# this is junk\n\n  \nDisallow /x\n", {})],
    "R107": [(UA + b"Disallow: /" + b"a" * 16000 + b"\n", {})],
    "R108": [(UA + b"Disallow: /a%00b\n", {}),
             (UA + b"Disallow: /" + b"a" * 17000 + b"\x00\n", {}),  # past the cut
             ("User-agent: *\n".encode("utf-16"), {})],  # UTF-16 is R006's
    "R201": [(UA + b"Disallow: /x\n", {})],
    "R202": [(UA + b"Disallow: /\n", {})],
    "R203": [(b"User-agent: Googlebot/2.1\nUser-agent: googlebot-news\nDisallow: /\n", {}),
             (b"User-agent: * bot\nDisallow: /\n", {})],
    "R204": [(b"User-agent: Googlebot\nUser-agent: MJ12bot\nDisallow: /\n", {})],
    "R205": [(b"User-agent: * bot\nUser-agent: a_b-c\nDisallow: /\n", {})],
    "R206": [(b"User-agent: a\nUser-agent: a\nUser-agent: b\nDisallow: /x\n", {})],
    "R207": [(b"User-agent: *\nCrawl-delay: 1\nDisallow: /x\nUser-agent: bad\nDisallow: /\n", {}),
             (b"User-agent: a\n# comment\nUser-agent: b\nDisallow: /\n", {})],
    "R208": [(b"User-agent: a\nUser-agent: b\nDisallow: /\n", {}),
             (b"User-agent: a\n# only a comment\nUser-agent: b\nDisallow: /\n", {}),
             (b"User-agent: a\nDisallow: /\n\nUser-agent: b\nDisallow: /\n", {})],
    "R209": [(b"User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\nDisallow:\n", {}),
             (b"User-agent: *\nDisallow:\n\nUser-agent: bingbot\nCrawl-delay: 5\n", {}),
             (b"User-agent: b\nDisallow: /x\nUser-agent: *\nDisallow: /\nUser-agent: b\n", {})],
    "R301": [(UA + b"Disallow: /fish\nDisallow: *fish\nDisallow:\n", {})],
    "R302": [(b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /x\n", {}),
             (UA + b"Disallow: /a\nDisallow: /a$\nDisallow: /a$*\n", {})],
    "R303": [(UA + b"Allow: /a\nDisallow: /a/\nDisallow: /a$\n", {})],
    "R304": [(UA + b"Allow: /a*b\nDisallow: /a\n", {}),
             # for b the disallow decides: it is not dead in every merged rule set
             (b"User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nAllow: /x*\n", {}),
             # the allow's index.html extension still decides for /d/
             (UA + b"Allow: /d/index.html\nDisallow: /d/index.html*\n", {})],
    "R305": [(UA + b"Disallow:\n", {}), (UA + b"Disallow: /x\n", {})],
    "R306": [(UA + b"Disallow: /$\n", {})],
    "R307": [(UA + b"Disallow: /caf%C3%A9\nDisallow: /a%20b\n", {})],
    "R401": [(UA + b"Crawl-delay: 1.5\n", {})],
    "R402": [(UA + b"Request-rate: 1/5s\n", {})],
    "R403": [(UA + b"Crawl-delay: 5\n", {})],
    "R404": [(b"User-agent: a\nCrawl-delay: 5\nDisallow: /\nUser-agent: b\nCrawl-delay: 6\n", {})],
    "R405": [(b"Sitemap: https://example.com/s.xml\nHost: example.com\n" + UA, {})],
    "R406": [(b"Sitemap: https://example.com/s.xml\nSitemap: http://example.com/s2.xml\n", {})],
    "R407": [(UA + b"Crawl-delay: 604800\nRequest-rate: 1/365d\n", {})],
    "R501": [(UA + b"Allow: /a/b\nDisallow: /a\nDisallow: /a/c\nDisallow: /~joe%2F\n", {}),
             (b"User-agent: *\nDisallow:\n\nUser-agent: b\nDisallow: /x\n", {}),
             (UA + b"Disallow: /a\n\nUser-agent: b\nAllow: /a/b\n", {})],
    "R210": [(b"User-agent: *\nDisallow: /\n", {}),
             (b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", {}),
             (b"User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /\n", {})],
    "R211": [(b"User-agent: Googlebot\nCrawl-delay: 5\nDisallow: /\n", {}),
             (b"User-agent: Google-Extended\nDisallow: /\n", {})],
    "R212": [(b"User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n",
              {}),
             (b"User-agent: Googlebot\nUser-agent: Google-Extended\nAllow: /\n", {})],
    "R213": [(b"User-agent: ChatGPT-User\nAllow: /\n", {}),
             (b"User-agent: GPTBot\nDisallow: /\n", {}),
             (b"User-agent: ChatGPT-User\nDisallow:\n", {})],
    "R601": [(UA + b"Content-Usage: / train-ai=n, search=y;p=1\n", {}),
             (UA + b"Content-Signal: search=yes,ai-train=no\n", {})],
    "R602": [(UA + b"Content-Signal: ai-train=no, search=yes, ai-input=yes\n"
              b"Content-Usage: / train-ai=n, ai-use=y, bots=n, train-genai=y\n", {}),
             (UA + b"content-signal: ai-train=no\nCONTENT-USAGE: / search=y\n", {})],
    "R603": [(UA + b"Content-Signal: ai-train=NO, search=Yes\nContent-Usage: /a train-ai=y\n",
              {})],
    "R604": [(UA + b"Content-Signal: ai-train=no\n", {})],
    "R605": [(UA + b"Content-Signal: ai-train=no\nContent-Usage: / train-ai=y\n"
              b"Content-Usage: /a train-ai=n\n", {}),
             (b"User-agent: a\nContent-Signal: ai-train=no\nAllow: /\n\n"
              b"User-agent: b\nContent-Signal: ai-train=yes\n", {})],
    "R606": [(UA + b"Disallow: /p/\nAllow: /p/x/open\nContent-Usage: /p/x train-ai=n\n", {}),
             (UA + b"Disallow: /p/\nContent-Usage: /q train-ai=n\nContent-Usage: /*.pdf x=n\n",
              {}),
             (UA + b"Disallow: /p$\nContent-Usage: /p train-ai=n\n", {})],
    "R608": [
        # Cloudflare's managed file: the named crawlers may fetch nothing.
        (b"User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n"
         b"User-agent: GPTBot\nDisallow: /\n", {}),
        # The named crawler states its own preference.
        (b"User-agent: *\nContent-Signal: ai-train=no\n\n"
         b"User-agent: GPTBot\nContent-Signal: ai-train=no\nDisallow: /x\n", {}),
        # No named group at all; or preferences outside the `*` group only.
        (b"User-agent: *\nContent-Signal: ai-train=no\nDisallow: /x\n", {}),
        (b"User-agent: GPTBot\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow:\n",
         {}),
        # The `*` group names the crawler too: its groups are merged, so it reads the line
        # (found by the generate property test, 2026-11-28).
        (b"User-agent: Applebot\nUser-agent: *\nAllow: /\nContent-Signal: ai-train=no\n\n"
         b"User-agent: Applebot\nAllow: /\n", {}),
    ],
    "R609": [(UA + b"Content-Usage: / train-ai=n, search=y, foo=n\n", {}),
             (UA + b"Content-Signal: search=yes\nContent-Usage: /x train-ai=y\n", {})],
    "R701": [(b"License: https://example.com/license.xml\nLicense: HTTP://a.example/x\n" + UA,
              {}), (b"License: https://example.com/l.xml?at=@x\n" + UA, {})],
    "R705": [(b"License: https://example.com/license.xml\n" + UA + b"Disallow: /x\n"
              b"License: https://example.com/other.xml\n", {}),
             (b"License: https://example.com/license.xml\n" + UA, {})],
    "R607": [(UA + b"Disallow: /private/\nContent-Signal: search=yes\n", {}),
             (UA + b"Disallow: /\nContent-Signal: search=no\n", {}),
             (UA + b"Disallow: /\nAllow: /public/\nContent-Signal: search=yes\n", {})],
}


def codes(body: bytes, **kwargs: Any) -> list[str]:
    return [d.code for d in lint(body, **kwargs)]


# -- the table ----------------------------------------------------------------------------

def test_every_code_has_a_firing_and_a_quiet_case() -> None:
    assert sorted(FIRES) == EMITTED, "add a FIRES case for every emitted code"
    assert sorted(QUIET) == EMITTED, "add a QUIET case for every emitted code"


def test_table_is_well_formed() -> None:
    names = [entry.name for entry in CODES.values()]
    assert len(set(names)) == len(names)
    for code, (name, severity, summary, hint) in CODES.items():
        assert re.fullmatch(r"R[0-9]{3}", code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)
        assert severity in SEVERITIES
        assert summary.endswith(".") and hint and not hint.endswith(".")
        assert "{" not in help_text(code)
    assert list(CODES) == sorted(CODES)


def test_every_code_is_emitted() -> None:
    assert "google, rfc and legacy modes" in CODES["R501"].summary
    for code, entry in CODES.items():
        assert "not yet emitted" not in entry.summary
        assert code in FIRES or code in FETCH_CODES or code in PURPOSE_GROUP_CODES, (
            f"{code} has no case where it fires")


@pytest.mark.parametrize("code", EMITTED)
def test_code_fires(code: str) -> None:
    case = FIRES[code]
    found = [d for d in lint(case.body, **(case.kwargs or {})) if d.code == code]
    assert found, f"{code} did not fire on {case.body[:80]!r}"
    first = found[0]
    entry = CODES[code]
    assert (first.name, first.severity) == (entry.name, entry.severity)
    assert (first.line, first.column) == (case.line, case.column)
    assert first.message and first.hint
    assert "{" not in first.hint and "<" not in first.hint


@pytest.mark.parametrize("code", EMITTED)
def test_code_stays_quiet(code: str) -> None:
    for body, kwargs in QUIET[code]:
        assert code not in codes(body, **kwargs), body[:120]


def test_a_licence_with_credentials_is_flagged_without_echoing_them() -> None:
    # review 41b G9: robotsrules refuses such a URL (never sends the password): R701 says so
    [found] = [d for d in lint(b"License: https://u:hunter2@example.com/l.xml\n" + UA)
               if d.code == "R701"]
    assert "credentials" in found.message and "hunter2" not in found.message
    assert "License: https://example.com/l.xml" in found.hint


# -- messages say what the brief asks them to say -------------------------------------------

def test_clean_file_has_no_diagnostics() -> None:
    body = (b"# robots.txt for example.com\n"
            b"User-agent: *\nAllow: /private/public.html\nDisallow: /private/\n\n"
            b"User-agent: Googlebot\nDisallow: /nogoogle/\n\n"
            b"Sitemap: https://example.com/sitemap.xml\n")
    assert lint(body) == []
    assert lint(b"") == [Diagnostic(
        "R005", "no-groups", "info", 1, 1, lint(b"")[0].message, lint(b"")[0].hint)]


def test_never_matching_paths_say_so() -> None:
    found = lint(UA + b"Disallow: fish\nDisallow: http://a/fish\nAllow: www.example.com/x\n")
    assert [d.code for d in found] == ["R301", "R301", "R301"]
    assert all("never matches" in d.message for d in found)
    assert [d.hint for d in found] == [
        "write `Disallow: /fish`", "write `Disallow: /fish`", "write `Allow: /x`"]


def test_allow_wins_and_merges_are_explained() -> None:
    (tie,) = lint(UA + b"Allow: /a\nDisallow: /a\n")
    assert "allow wins a tie" in tie.message and "line 2" in tie.message
    (joined,) = lint(b"User-agent: *\nCrawl-delay: 1\nUser-agent: bad\nDisallow: /\n")
    assert "joins the group of line 1" in joined.message and "`Crawl-delay: 1`" in joined.message
    assert "1994/1996" in lint(b"User-agent: a\n\nUser-agent: b\nDisallow: /\n")[0].message


def test_truncated_agents() -> None:
    (mj,) = lint(b"User-agent: MJ12bot\nDisallow: /\n")
    assert "read as `mj`" in mj.message and mj.severity == "warning"
    (version,) = lint(b"User-agent: Googlebot/2.1\nDisallow: /\n")
    assert version.severity == "info" and "`googlebot`" in version.message
    (pasted,) = lint(b"User-agent: Mozilla/5.0 (compatible; bingbot/2.0)\nDisallow: /\n")
    assert pasted.code == "R203" and "read as `mozilla`" in pasted.message


def test_over_size_says_how_much_is_ignored() -> None:
    body = UA + b"".join(b"Disallow: /%02d\n" % i for i in range(100))
    (over,) = lint(body, max_bytes=len(UA) + 14 * 10)
    assert over.code == "R003" and (over.line, over.column) == (12, 1)
    assert f"the last {14 * 90:,} bytes" in over.message and "90 allow/disallow" in over.message
    assert lint(body) == []  # the default limit is 512,000 bytes


def test_non_utf8_points_at_the_first_bad_byte() -> None:
    body = UA + "Disallow: /ça\n".encode() + b"Disallow: /\xe7a/\xe9\nDisallow: /\xff\n"
    # line 2 is UTF-8 (R307 asks to percent-encode it); lines 3-4 only get R002, not both
    encode, bad = lint(body)
    assert (encode.code, encode.line, bad.code) == ("R307", 2, "R002")
    assert (bad.line, bad.column) == (3, 12) and "0xE7" in bad.message
    assert "2 lines" in bad.message and "%E7" in bad.hint


def test_columns_count_code_points() -> None:
    (found,) = [d for d in lint(UA + "Disallow: /é x\x00y\n".encode()) if d.code == "R108"]
    assert found.column == 15


def test_shadowing_across_merged_groups_names_the_agent() -> None:
    body = b"User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /x\n"
    (dup,) = [d for d in lint(body) if d.code != "R206"]
    assert dup.code == "R302" and dup.line == 5 and "groups naming `a` are merged" in dup.message


def test_wildcards_that_change_nothing_are_seen_through() -> None:
    found = lint(UA + b"Allow: *\nDisallow: /\nDisallow: /x**\nAllow: /x*$\n"
                 b"Disallow: /y*\nDisallow: /y\nDisallow: /y$\n")
    found = [d for d in found if d.code != "R501"]
    assert [(d.code, d.line) for d in found] == [("R304", 3), ("R304", 4), ("R302", 7)]
    assert "an allow of the same length" in found[1].message


def test_control_characters_never_reach_messages() -> None:
    for diagnostic in lint(UA + b"Disallow: x\x1b[31mred\nUser-agent: a\x1bb\nFoo\x07: 1\n"):
        assert not any(ord(c) < 32 for c in diagnostic.message + diagnostic.hint)


def test_lint_reads_what_parse_reads() -> None:
    body = b"User-agent: a\nDisallow: /\n" * 3
    as_bytearray: Any = bytearray(body)
    assert lint(body, max_bytes=None) == lint(as_bytearray) == lint(body.decode())
    with pytest.raises(TypeError):
        lint(123)  # type: ignore[arg-type]


# -- mode differences: each one checked against parse(..., mode=...) ---------------------

MODE_CASES = [
    # (file, marker in the message, url, {mode: allowed})
    (UA + b"Disallow: /a\nAllow: /a/b\n", "never reach", "/a/b",
     {"google": True, "rfc": True, "legacy": False}),
    (UA + b"Disallow:\nDisallow: /p\nDisallow: /q\n", "read this empty", "/q",
     {"google": False, "rfc": False, "legacy": True}),
    (UA + b"Disallow: /%7Ejoe\n", "RFC 9309 decodes it to `~`", "/~joe",
     {"google": True, "rfc": False}),
    (UA + b"Disallow: /x%2A\n", "literal `*`", "/x*", {"google": True, "rfc": False}),
    (UA + b"Disallow: /d/\nAllow: /d/index.html\n", "index.html rule", "/d/",
     {"google": True, "rfc": False, "legacy": False}),
    (UA + b"Disallow: /*.php\n", "compare them literally", "/a.php",
     {"google": False, "rfc": False, "legacy": True}),
]


@pytest.mark.parametrize("body, marker, url, verdicts", MODE_CASES)
def test_mode_differences_are_real(body: bytes, marker: str, url: str,
                                   verdicts: dict[str, bool]) -> None:
    found = [d for d in lint(body) if d.code == "R501" and marker in d.message]
    assert len(found) == 1, found
    for mode, allowed in verdicts.items():
        robots = robotsrules.parse(body, mode=mode)  # type: ignore[arg-type]
        assert robots.allowed(url, agent="x") is allowed, mode


def test_wildcards_for_legacy_are_reported_once_per_file() -> None:
    found = [d for d in lint(UA + b"Disallow: /*.php\nDisallow: /a$\nAllow: /b*\n")
             if d.code == "R501"]
    assert len(found) == 1 and "and 2 other rules use" in found[0].message


# -- properties ---------------------------------------------------------------------------

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PIECES = ["User-agent: ", "useragent ", "Disallow: ", "Disalow ", "Allow:", "Sitemap: ",
          "Crawl-delay: ", "Request-rate: ", "Host:", "Clean-param: ", "*", "/", "$", "a",
          "MJ12bot", "Googlebot/2.1", "http://a/b", "\n", "\r\n", "\r", "#", " ", "\t",
          "\x00", "\xe9", "<html>", ":", "%e9"]


@SETTINGS
@given(st.binary(max_size=3000))
def test_lint_never_raises_on_arbitrary_bytes(body: bytes) -> None:
    for diagnostic in lint(body):
        assert diagnostic.code in CODES and diagnostic.line >= 1 and diagnostic.column >= 1


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=60),
       st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe"]),
       st.one_of(st.none(), st.integers(0, 200)))
def test_lint_never_raises_on_robots_like_text(pieces: list[str], head: bytes,
                                               max_bytes: Optional[int]) -> None:
    body = head + "".join(pieces).encode("utf-8", "surrogatepass")
    found = lint(body, max_bytes=max_bytes)
    lines = len(robotsrules.parse(body, max_bytes=max_bytes).lines)
    assert all(1 <= d.line <= max(lines, 1) for d in found)
    assert found == sorted(found, key=lambda d: (d.line, d.column, d.code))


TARGETS = ["/" + "".join(p) for n in range(5) for p in itertools.product("ab/", repeat=n)]
TARGETS += ["/d/", "/d/index.html"]
RULE_PATTERN = st.one_of(st.text("/ab*$", min_size=1, max_size=5),
                         st.sampled_from(["/d/index.html", "/d/index.html*", "/d/index.htm"]))


@st.composite
def groups(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        for agent in draw(st.lists(st.sampled_from(["a", "b", "*"]), min_size=1, max_size=2)):
            lines.append(f"User-agent: {agent}")
        for directive, pattern in draw(st.lists(
                st.tuples(st.sampled_from(["Allow", "Disallow"]), RULE_PATTERN),
                min_size=1, max_size=6)):
            lines.append(f"{directive}: {pattern}")
    return "\n".join(lines) + "\n"


@SETTINGS
@given(groups())
def test_rules_said_never_to_decide_never_decide(body: str) -> None:
    dead = {d.line for d in lint(body) if d.code in ("R302", "R303", "R304")}
    if not dead:
        return
    robots = robotsrules.parse(body)
    for agent in ("a", "b", "c"):
        for target in TARGETS:
            verdict = robots.explain(target, agent=agent)
            assert verdict.rule is None or verdict.rule.line not in dead, (agent, target)


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(["Allow", "Disallow"]), st.text("/ab", max_size=4),
                          st.booleans()),
                min_size=1, max_size=8))
def test_rules_legacy_never_reaches_are_never_reached(rules: list[tuple[str, str, bool]]) -> None:
    body = "User-agent: *\n" + "".join(
        f"{d}: {p}\n" + ("\n" if blank else "") for d, p, blank in rules)
    found = [d for d in lint(body) if d.code == "R501"]
    unreached = {d.line for d in found if "parsers never reach" in d.message}
    empties = {d.line for d in found if "read this empty" in d.message}
    robots = robotsrules.parse(body, mode="legacy")
    for target in TARGETS:
        rule = robots.explain(target, agent="x").rule
        if rule is not None:
            assert rule.line not in unreached, target
            assert not empties or rule.line <= max(empties), target


def test_records_pickle_under_the_documented_module() -> None:
    import pickle

    from robotsrules.linter import Code

    found = lint(b"Disalow: /x\n")
    assert found and type(found[0]).__module__ == "robotsrules.linter"
    assert Code.__module__ == "robotsrules.linter"
    assert b"robotsrules.linter\n" in pickle.dumps(found[0], protocol=0) or (
        b"robotsrules.linter" in pickle.dumps(found[0]))
    assert pickle.loads(pickle.dumps(found)) == found


# -- Crawl-delay/Request-rate read per agent (issue 22): what each reading gives -------------

def _messages(body: bytes, code: str) -> list[str]:
    return [d.message for d in lint(body) if d.code == code]


def test_r207_says_a_crawl_delay_between_agents_is_the_first_agents_alone() -> None:
    (message,) = _messages(b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n", "R207")
    assert "both agents get the rules that follow (Google's grouping)" in message
    assert "the `Crawl-delay` of line 2 is read for the user-agent lines above it only" in message
    (plain,) = _messages(b"User-agent: a\nSitemap: https://e.com/s\nUser-agent: b\nDisallow: /\n",
                         "R207")
    assert "Crawl-delay" not in plain and "Google's grouping" in plain


def test_r404_several_values_for_one_agent_across_groups() -> None:
    body = (b"User-agent: a\nCrawl-delay: 5\nDisallow: /\nUser-agent: c\nUser-agent: a\n"
            b"Crawl-delay: 1\nRequest-rate: 1/5\n")
    found = [d for d in lint(body) if d.code == "R404"]
    assert [(d.line, d.hint) for d in found] == [
        (6, "keep one value per agent (line 2 has another)")]
    assert "for `a` (line 2 has one too): robotsrules uses the slowest" in found[0].message
    assert robotsrules.parse(body).crawl_delay("a") == 5.0  # what the message promises
    # Different agents, one value each: nothing to say.
    assert _messages(b"User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 6\n",
                     "R404") == []


def test_r403_says_who_is_asked_a_value_before_any_user_agent() -> None:
    (message,) = _messages(b"Crawl-delay: 5\nUser-agent: *\nDisallow: /\n", "R403")
    assert "asks it of every crawler given no value of its own" in message
    assert robotsrules.parse(b"Crawl-delay: 5\nUser-agent: *\nDisallow: /\n").crawl_delay(
        "any") == 5.0
    assert _messages(b"Crawl-delay: x\nUser-agent: *\n", "R403") == []  # R401 says it


def test_the_docstrings_name_the_passes_lint_runs() -> None:
    """The package docstring numbers one item per pass and the checks module names the pass
    methods in the order :func:`lint` calls them: a pass added or moved is documented."""
    import ast
    import inspect

    import robotsrules.linter as package
    from robotsrules.linter import _checks

    body = ast.parse(inspect.getsource(_checks.lint)).body[0]
    calls = [node.func.attr for node in ast.walk(body)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr.endswith("_checks")]
    source = inspect.getsource(_checks.lint)
    calls.sort(key=lambda name: source.index(f".{name}("))
    assert len(calls) == 7
    numbered = re.findall(r"^(\d)\. ", package.__doc__ or "", re.M)
    assert numbered == [str(n) for n in range(1, len(calls) + 1)]
    assert "walks them in seven passes" in " ".join((package.__doc__ or "").split())
    named = re.findall(r":meth:`~_Linter\.(\w+)`", _checks.__doc__ or "")
    assert named == calls
