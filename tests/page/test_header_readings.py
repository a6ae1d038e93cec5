"""Header readings that answered "no signal" where the source said no (issue 33 §3, §4).

* ``Robots-Tag`` members the List grammar refuses only for stray blanks or semicolons, and
  ``X-Robots-Tag`` prefixes with a ``/version`` (one reading of a crawler name for both);
* rules separated by ``;`` or blanks instead of commas;
* a raw dump of a redirect chain: the final response's block, one rule for
  ``page_signals`` and ``robotsrules page``;
* a saved response's ``Content-Encoding`` body in ``robotsrules page FILE``;
* a ``Link`` licence URL holding control characters.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from robotsrules import page_signals
from robotsrules._page._robots import robots_rules
from robotsrules.cli import main
from robotsrules.cli._page import read_response


def _applied(signals: Any) -> set[tuple[str, str]]:
    return {(d.rule, d.scope) for d in signals.directives if d.applies and d.valid}


# (header name, value, agent): each must make the page noindex for that agent.
NOINDEX: list[tuple[str, str, str]] = [
    ("Robots-Tag", "gptbot;noindex;", "GPTBot"),
    ("Robots-Tag", "gptbot ;noindex", "GPTBot"),
    ("Robots-Tag", "* ; noindex", "GPTBot"),
    ("Robots-Tag", "* ; noindex", "OtherBot"),
    ("Robots-Tag", "GPTBot/1.0 ; noindex ;", "GPTBot"),
    ("X-Robots-Tag", "GPTBot/1.0: noindex", "GPTBot"),
    ("X-Robots-Tag", "noindex;", "GPTBot"),
    ("X-Robots-Tag", "nofollow; noindex", "GPTBot"),
    ("X-Robots-Tag", "nofollow noindex", "GPTBot"),
    ("X-Robots-Tag", "gptbot: nofollow noindex", "GPTBot"),
    ("X-Robots-Tag", "max-snippet: 0; noindex", "GPTBot"),
]


@pytest.mark.parametrize(("name", "value", "agent"), NOINDEX)
def test_a_stray_separator_never_hides_a_restriction(name: str, value: str, agent: str) -> None:
    signals = page_signals({name: value}, agent=agent)
    assert signals.index is False
    assert signals.allows("search") is False


def test_a_malformed_robots_tag_member_is_read_for_its_crawler() -> None:
    signals = page_signals({"Robots-Tag": "gptbot;noindex;"}, agent="GPTBot")
    assert ("noindex", "gptbot") in _applied(signals)
    # The value is also read as X-Robots-Tag (the draft's old syntax), where "gptbot;" names
    # no crawler: that reading restricts every crawler, the more restrictive of the two.
    assert page_signals({"Robots-Tag": "gptbot;noindex;"}, agent="OtherBot").index is False


def test_x_robots_tag_versioned_prefix_files_the_rule_under_its_crawler() -> None:
    header = {"X-Robots-Tag": "otherbot: noindex, GPTBot/1.0: noai"}
    gpt = page_signals(header, agent="GPTBot")
    other = page_signals(header, agent="OtherBot")
    assert (gpt.index, gpt.allows("ai-train")) == (True, False)
    assert ("noai", "gptbot") in _applied(gpt)
    assert (other.index, other.allows("ai-train")) == (False, None)
    assert ("noai", "otherbot") not in {(d.rule, d.scope) for d in other.directives}


def test_separators_in_meta_content_too() -> None:
    html = b'<html><head><meta name="robots" content="noindex nofollow"></head></html>'
    signals = page_signals(None, html, agent="GPTBot")
    assert (signals.index, signals.follow) == (False, False)


def test_what_is_not_a_rule_is_still_reported() -> None:
    found = robots_rules("foobot noindex", prefixes=True)
    assert [(r.scope, r.rule, r.valid) for r in found] == [
        ("*", "foobot", False), ("*", "noindex", True)]
    # A registry crawler's name scopes what follows to it and to the scope before it.
    found = robots_rules("gptbot noindex", prefixes=True)
    assert [(r.scope, r.rule, r.valid) for r in found] == [
        ("gptbot", "noindex", True), ("*", "noindex", True)]
    assert [(r.rule, r.valid) for r in robots_rules("foo bar", prefixes=True)] == [
        ("foo bar", False)]
    date = robots_rules("unavailable_after: 25 Jun 2010 15:00:00 PST", prefixes=True)
    assert [(r.rule, r.valid) for r in date] == [("unavailable_after", True)]


CHAIN = (b"HTTP/1.1 301 Moved Permanently\r\nLocation: /b\r\nX-Robots-Tag: nofollow\r\n\r\n"
         b"HTTP/2 200\r\ncontent-type: text/html\r\nx-robots-tag: noindex\r\n\r\n")


def test_a_redirect_chain_dump_is_read_for_its_final_block_by_the_library() -> None:
    for dump in (CHAIN, CHAIN.decode(), CHAIN.replace(b"\r\n", b"\n")):
        signals = page_signals(dump, agent="GPTBot")
        assert signals.index is False  # the final response's noindex
        assert signals.follow is True  # the redirect's nofollow is not this page's
    priced = (b"HTTP/1.1 302 Found\r\nLocation: /p\r\n\r\n"
              b"HTTP/1.1 402 Payment Required\r\ncrawler-price: USD 0.01\r\n\r\n")
    assert page_signals(priced, agent="GPTBot").pricing is not None
    assert page_signals(priced, agent="GPTBot").pricing.asked is True  # type: ignore[union-attr]
    continued = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n"
    assert page_signals(continued, agent="GPTBot").allows("ai-train") is False


def test_a_redirect_chain_dump_is_read_the_same_by_the_cli(tmp_path: Path) -> None:
    body = b'<html><head><meta name="robots" content="noarchive"></head></html>'
    headers, got = read_response(CHAIN + body)
    assert ("x-robots-tag", "noindex") in headers and got == body
    assert ("X-Robots-Tag", "nofollow") not in headers
    saved = tmp_path / "chain.http"
    saved.write_bytes(CHAIN + body)
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert (data["index"], data["follow"], data["archive"]) == (False, True, False)
    # A body that itself starts like a status line, after a blank line, is no new block
    # unless it is one: a plain page after the final block is its body.
    headers, got = read_response(b"HTTP/1.1 200 OK\r\nA: b\r\n\r\nHTTP is fun")
    assert headers == [("A", "b")] and got == b"HTTP is fun"


PAGE = (b'<html><head><meta name="robots" content="noindex, noai"></head>'
        b"<body>text</body></html>")


def _saved(tmp_path: Path, coding: str, body: bytes) -> Path:
    path = tmp_path / "saved.http"
    path.write_bytes(f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                     f"Content-Encoding: {coding}\r\n\r\n".encode() + body)
    return path


def _deflate_raw(data: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(("coding", "body"), [
    ("gzip", gzip.compress(PAGE)),
    ("x-gzip", gzip.compress(PAGE)),
    ("GZIP", gzip.compress(PAGE)),
    ("deflate", zlib.compress(PAGE)),
    ("deflate", _deflate_raw(PAGE)),
    ("gzip", PAGE),  # saved decoded (curl --compressed) under the header it came with
    ("deflate", PAGE),
], ids=["gzip", "x-gzip", "GZIP", "deflate", "raw-deflate", "gzip-saved-decoded",
        "deflate-saved-decoded"])
def test_cli_page_file_decodes_a_coded_body(tmp_path: Path, coding: str, body: bytes) -> None:
    out = io.StringIO()
    assert main(["page", str(_saved(tmp_path, coding, body)), "--agent", "GPTBot", "--json"],
                out=out) == 0
    data = json.loads(out.getvalue())
    assert data["index"] is False and data["purposes"]["ai-train"]["allowed"] is False


@pytest.mark.parametrize(("coding", "body"), [
    ("gzip", gzip.compress(PAGE)[:-6]),  # cut: its end never arrives
    ("gzip", b"\x1f\x8b\x08garbage"),
    ("compress", b"\x1f\x9d\x90..."),
    ("gzip, br", gzip.compress(PAGE)),
], ids=["cut-gzip", "bad-gzip", "compress", "stacked"])
def test_cli_page_file_says_when_the_body_cannot_be_read(
        tmp_path: Path, coding: str, body: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["page", str(_saved(tmp_path, coding, body)), "--agent", "GPTBot"],
                out=out) == 2
    assert "the body could not be read" in capsys.readouterr().err
    assert "no page-level signal" not in out.getvalue()


def test_cli_page_file_gzip_bomb_stays_bounded(tmp_path: Path) -> None:
    # 64 MiB of blanks then the meta: inflated only up to --max-head-bytes, so the meta past
    # the bound is not read, and nothing larger than the bound is ever held.
    bomb = gzip.compress(b" " * (64 << 20) + PAGE)
    out = io.StringIO()
    assert main(["page", str(_saved(tmp_path, "gzip", bomb)), "--agent", "GPTBot", "--json",
                 "--max-head-bytes", "4096"], out=out) == 0
    assert json.loads(out.getvalue())["index"] is True


def test_a_link_licence_url_with_control_characters_is_refused() -> None:
    for target in ("/l\x1b]8;;https://evil.example/\x07.xml", "/l\x00.xml", "/l\x7f.xml",
                   "/l\x9b31m.xml"):
        header = {"Link": f'<{target}>; rel="license"; type="application/rsl+xml"'}
        signals = page_signals(header, agent="GPTBot", url="https://example.com/a")
        assert [link.valid for link in signals.licenses] == [False]
        assert signals.license_urls == ()
    ok = page_signals({"Link": '</l.xml>; rel="license"; type="application/rsl+xml"'},
                      agent="GPTBot", url="https://example.com/a")
    assert ok.license_urls == ("https://example.com/l.xml",)
