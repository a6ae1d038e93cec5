"""The second review of the page header readers (issue 33 §3): readings that answered "no
signal" where the source said no, through ``page_signals``, ``robotsrules page`` and the
raw block a WARC record carries."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules import page_signals
from robotsrules.cli import main
from robotsrules.cli._page import read_response


def _applied(signals: Any) -> set[tuple[str, str]]:
    return {(d.rule, d.scope) for d in signals.directives if d.applies and d.valid}


# Robots-Tag members whose name is a rule: no crawler has a rule's name.
@pytest.mark.parametrize(("value", "rules"), [
    ("noindex;noai", {"noindex", "noai"}),
    ("noindex; nofollow", {"noindex", "nofollow"}),
    ("noai;noimageai", {"noai", "noimageai"}),
    ("all;noai", {"all", "noai"}),
    ("noai;max-snippet=0", {"noai", "max-snippet"}),
])
def test_robots_tag_member_named_by_a_rule_is_read_as_rules_for_everyone(
        value: str, rules: set[str]) -> None:
    for agent in ("GPTBot", "OtherBot"):
        signals = page_signals({"Robots-Tag": value}, agent=agent)
        assert {(rule, "*") for rule in rules} <= _applied(signals)
    raw = f"HTTP/1.1 200 OK\r\nRobots-Tag: {value}\r\n\r\n".encode()
    assert {(rule, "*") for rule in rules} <= _applied(page_signals(raw, agent="GPTBot"))
    if "=" in value:
        return  # "rule=value" is Robots-Tag's syntax only
    # The same value in X-Robots-Tag: the same rules.
    legacy = page_signals({"X-Robots-Tag": value}, agent="GPTBot")
    assert {(rule, "*") for rule in rules} <= _applied(legacy)


# Members that are valid Tokens holding a colon: the X-Robots-Tag syntax.
@pytest.mark.parametrize(("name", "value", "scope"), [
    ("Robots-Tag", "gptbot:noai", "gptbot"),
    ("Robots-Tag", "GPTBot/1.0:noai", "gptbot"),
    ("Robots-Tag", "*:noai", "*"),
    ("Robots-Tag", "*: noai", "*"),
    ("Robots-Tag", "gptbot:noindex;noai", "gptbot"),
    ("X-Robots-Tag", "*: noai", "*"),
    ("X-Robots-Tag", "*:noai", "*"),
])
def test_a_colon_member_is_read_the_x_robots_tag_way(name: str, value: str, scope: str) -> None:
    signals = page_signals({name: value}, agent="GPTBot")
    assert signals.noai is True
    assert ("noai", scope) in _applied(signals)
    if scope == "*":
        assert page_signals({name: value}, agent="OtherBot").noai is True
    else:
        assert page_signals({name: value}, agent="OtherBot").noai is not True


# A known crawler's name where a colon is missing scopes what follows to it, and the earlier
# scope keeps it too (restrictive for both); a User-Agent comment before the colon is skipped.
@pytest.mark.parametrize(("value", "also"), [
    ("googlebot: nofollow, GPTBot noai", "googlebot"),
    ("otherbot: noindex, GPTBot/1.0;noai", "otherbot"),
    ("otherbot: noindex; GPTBot noai", "otherbot"),
    ("GPTBot/1.0 (+https://openai.com/gptbot): noai", None),
    ("GPTBot (compatible): noai", None),
])
def test_x_robots_tag_crawler_word_without_colon_scopes_what_follows(
        value: str, also: Any) -> None:
    signals = page_signals({"X-Robots-Tag": value}, agent="GPTBot")
    assert signals.noai is True
    assert ("noai", "gptbot") in _applied(signals)
    if also is not None:
        assert page_signals({"X-Robots-Tag": value}, agent=also).noai is True
    assert page_signals({"X-Robots-Tag": value}, agent="ThirdBot").noai is not True


_HTML = '<html><head><meta name="robots" content="noindex, noai"></head><body>x</body></html>'


# UTF-16 without a byte order mark under every label the Encoding Standard gives it.
@pytest.mark.parametrize(("label", "codec"), [
    ("utf-16", "utf-16-le"), ("unicode", "utf-16-le"), ("ucs-2", "utf-16-le"),
    ("csUnicode", "utf-16-le"), ("iso-10646-ucs-2", "utf-16-le"),
    ("unicodefeff", "utf-16-le"), ("unicodeFFFE", "utf-16-be"), ('"utf-16"', "utf-16-le"),
])
def test_utf16_body_without_bom_is_read_under_every_label(label: str, codec: str) -> None:
    body = _HTML.encode(codec)
    for content_type in (f"text/html; charset={label}",
                         f"text/html; charset=utf-8, text/html; charset={label}"):
        signals = page_signals({"Content-Type": content_type}, body, agent="GPTBot")
        assert signals.index is False and signals.noai is True
    raw = f"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset={label}\r\n\r\n".encode()
    assert page_signals(raw, body, agent="GPTBot").noai is True


# An ASCII page whose label or BOM says UTF-16 or a replacement encoding: the reading as
# autodetection reads the bytes counts for its restrictions only.
@pytest.mark.parametrize("content_type", [
    "text/html; charset=utf-16", "text/html; charset=utf-16be", "text/html; charset=iso-2022-kr",
    "text/html; charset=hz-gb-2312", "text/html; charset=iso-2022-cn", "text/html",
])
@pytest.mark.parametrize("prefix", [b"", b"\xff\xfe", b"\xfe\xff"])
def test_ascii_page_under_a_contrary_label_restricts(content_type: str, prefix: bytes) -> None:
    if content_type == "text/html" and not prefix:
        body = _HTML.replace("<head>", '<head><meta charset="iso-2022-kr">').encode()
    else:
        body = prefix + _HTML.encode()
    signals = page_signals({"Content-Type": content_type}, body, agent="GPTBot")
    assert signals.index is False and signals.noai is True
    assert all(not d.in_head for d in signals.directives if d.source == "meta")


def test_the_second_reading_never_permits() -> None:
    # An ASCII "index, max-snippet:-1" under a UTF-16 label: read, but only to restrict.
    body = b'<meta name="robots" content="max-snippet:-1"><meta name="GPTBot" content="all">'
    signals = page_signals({"Content-Type": "text/html; charset=utf-16"}, body, agent="GPTBot")
    assert all(not d.in_head for d in signals.directives if d.source == "meta")
    # A true UTF-16 page is read as it is, once.
    real = '<meta name="robots" content="noai">'.encode("utf-16-le")
    signals = page_signals({"Content-Type": "text/html; charset=utf-16"}, real, agent="GPTBot")
    assert signals.noai is True
    assert [d.in_head for d in signals.directives if d.source == "meta"] == [True]


def _cli(tmp_path: Path, data: bytes, *extra: str) -> tuple[int, dict[str, Any]]:
    saved = tmp_path / "saved.http"
    saved.write_bytes(data)
    out = io.StringIO()
    code = main(["page", str(saved), "--agent", "GPTBot", "--json", *extra], out=out)
    return code, json.loads(out.getvalue()) if code == 0 else {}


def _warc_rows(tmp_path: Path, http: bytes) -> list[dict[str, Any]]:
    """The ``bulk --pages-warc`` rows of one response record holding ``http`` as it is (a
    WARC written by hand: a writer would re-serialise the HTTP head)."""
    from robotsrules.warc import page_batches

    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/a\r\n"
            b"WARC-Date: 2026-11-27T00:00:00Z\r\n"
            b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"
            b"Content-Type: application/http; msgtype=response\r\n"
            b"Content-Length: %d\r\n\r\n" % len(http))
    path = tmp_path / "one.warc"
    path.write_bytes(head + http + b"\r\n\r\n")
    return [row for batch in page_batches([str(path)], agents=["GPTBot"],
                                          purposes=["ai-train"]) for row in batch.to_pylist()]


# A body that starts with "HTTP/" is a body unless the block before it is an interim
# response, a redirect, a challenge or a CONNECT answer; a status line is a whole one.
KEPT = [
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\nHTTP/2 explained\n\ntext",
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\nHTTP/1.1 ",
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\nHTTP/1.1 2",
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\nHTTP/1.1 garbage not a status\r\n",
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>x",
    b"HTTP/1.1 404 Not Found\r\nX-Robots-Tag: noai\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>x",
]
FOLLOWED = [
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n<p>",
    b"HTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\nHTTP/2 200\r\nx-robots-tag: noai\r\n\r\n<p>",
    b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic\r\n\r\n"
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n<p>",
    b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n<p>",
    b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n",
    b"HTTP/1.1 200 Connection established\r\nProxy-Agent: p\r\n\r\n"
    b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\n\r\n",
]


@pytest.mark.parametrize("dump", KEPT + FOLLOWED)
def test_only_an_earlier_response_of_the_exchange_gives_way(dump: bytes,
                                                             tmp_path: Path) -> None:
    assert page_signals(dump, agent="GPTBot").noai is True
    assert page_signals(dump.decode("latin-1"), agent="GPTBot").noai is True
    code, data = _cli(tmp_path, dump)
    assert code == 0 and data["purposes"]["ai-train"]["allowed"] is False


def test_a_body_is_never_taken_for_the_final_response() -> None:
    headers, body = read_response(KEPT[0])
    assert headers == [("X-Robots-Tag", "noai")] and body == b"HTTP/2 explained\n\ntext"


# One rule for "is this a saved response": a BOM, blank lines and blanks before the status
# line, a tab for its space, a lower-case "http".
@pytest.mark.parametrize("prefix", [b"\r\n", b"\n\n", b"\xef\xbb\xbf", b" ", b"\t"])
def test_cli_knows_a_saved_response_past_what_comes_first(prefix: bytes,
                                                          tmp_path: Path) -> None:
    dump = prefix + b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noindex, noai\r\n\r\n<p>x"
    assert page_signals(dump, agent="GPTBot").noai is True
    code, data = _cli(tmp_path, dump)
    assert code == 0 and data["index"] is False


@pytest.mark.parametrize("status", [b"HTTP/1.1\t200 OK", b"http/1.1 200 OK", b"HTTP/1.0 200"])
def test_cli_and_library_agree_on_the_status_line(status: bytes, tmp_path: Path) -> None:
    dump = status + b"\r\nX-Robots-Tag: noindex, noai\r\n\r\n<p>x"
    assert page_signals(dump, agent="GPTBot").noai is True
    code, data = _cli(tmp_path, dump)
    assert code == 0 and data["index"] is False


_PAGE = _HTML.encode()


def _chunked(data: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part)
                    for part in (data[:16], data[16:])) + b"0\r\n\r\n"


@pytest.mark.parametrize(("headers", "body"), [
    (b"Transfer-Encoding: chunked\r\n", _chunked(_PAGE)),
    (b"Transfer-Encoding: chunked\r\n", _PAGE),  # saved de-chunked (curl -i)
    (b"Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", _chunked(gzip.compress(_PAGE))),
    (b"", gzip.compress(_PAGE)),  # the gzip magic without a Content-Encoding
    (b"Content-Encoding: gzip\r\n", b"\n  " + _PAGE),  # saved decoded
], ids=["chunked", "dechunked", "chunked-gzip", "gzip-magic", "gzip-saved-decoded"])
def test_cli_reads_a_saved_coded_body(headers: bytes, body: bytes, tmp_path: Path) -> None:
    dump = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + headers + b"\r\n" + body
    code, data = _cli(tmp_path, dump)
    assert code == 0 and data["index"] is False
    assert data["purposes"]["ai-train"]["allowed"] is False


@pytest.mark.parametrize(("headers", "body"), [
    (b"Content-Encoding: gzip\r\n", b"plain text, not markup " + _PAGE),
    (b"Transfer-Encoding: chunked\r\n", b"10\r\n" + _PAGE),  # chunk sizes that lie
], ids=["gzip-neither", "bad-chunks"])
def test_cli_refuses_a_body_it_cannot_read(headers: bytes, body: bytes, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    dump = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + headers + b"\r\n" + body
    code, _ = _cli(tmp_path, dump)
    assert code == 2
    assert "the body could not be read" in capsys.readouterr().err


# RFC 9110 §5.5: NUL and other controls in a value are spaces; RFC 9112 §2.2: so is a bare
# CR in a block.
@pytest.mark.parametrize(("value", "rules"), [
    ("noindex\x00", {"noindex"}), ("\x00noindex", {"noindex"}), ("noindex\x00noai", {"noindex", "noai"}),
    ("GPTBot:\x00noai", {"noai"}), ("noindex\x7f", {"noindex"}), ("noindex\x1bnoai", {"noindex", "noai"}),
])
def test_controls_in_a_value_are_spaces(value: str, rules: set[str], tmp_path: Path) -> None:
    raw = b"HTTP/1.1 200 OK\r\nX-Robots-Tag: " + value.encode("latin-1") + b"\r\n\r\n<p>"
    for headers in ({"X-Robots-Tag": value}, [("X-Robots-Tag", value.encode("latin-1"))],
                    (("X-Robots-Tag", value),), raw):
        for name in ("X-Robots-Tag", "Robots-Tag"):
            if isinstance(headers, bytes):
                headers = headers.replace(b"X-Robots-Tag", name.encode())
            got = {d.rule for d in page_signals(headers, agent="GPTBot").directives
                   if d.applies and d.valid}
            assert rules <= got, (headers, name)
    rows = _warc_rows(tmp_path, raw)
    assert rows and all(row["index"] is not True for row in rows if "noindex" in rules)


def test_a_bare_cr_in_a_block_is_a_space(tmp_path: Path) -> None:
    raw = b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noindex\r\r\nX-Robots-Tag: noai\r\n\r\n<p>"
    signals = page_signals(raw, agent="GPTBot")
    assert signals.index is False and signals.noai is True
    code, data = _cli(tmp_path, raw)
    assert code == 0 and data["purposes"]["ai-train"]["allowed"] is False
    rows = _warc_rows(tmp_path, raw)
    assert [row["ai_train"] for row in rows] == [False]
    # A file with CR line ends only (no LF anywhere) still reads CR as the line end.
    old_mac = b"HTTP/1.1 200 OK\rX-Robots-Tag: noai\r\r<p>"
    assert page_signals(old_mac, agent="GPTBot").noai is True


_LINK = '</licencja-\u015b.xml>; rel="license"; type="application/rsl+xml"'


def test_a_link_licence_url_is_the_same_from_str_and_from_octets() -> None:
    octets = _LINK.encode("utf-8")
    forms: list[Any] = [{"Link": _LINK}, {"Link": octets}, [(b"Link", octets)],
                        b"HTTP/1.1 200 OK\r\nLink: " + octets + b"\r\n\r\n"]
    for headers in forms:
        signals = page_signals(headers, agent="GPTBot", url="https://example.pl/a")
        assert signals.license_urls == ("https://example.pl/licencja-\u015b.xml",), headers


@pytest.mark.parametrize("target", ["/l\u202e.xml", "/l\u2028.xml", "/l\u2029.xml",
                                    "https://ex\u00adample.com/l.xml", "/l\u200b.xml"])
def test_a_link_licence_url_with_format_or_separator_characters_is_refused(
        target: str) -> None:
    header = {"Link": f'<{target}>; rel="license"; type="application/rsl+xml"'}
    signals = page_signals(header, agent="GPTBot", url="https://example.com/a")
    assert [link.valid for link in signals.licenses] == [False]
    assert signals.license_urls == ()


def _cpu(size: int) -> float:
    from robotsrules._page._headers import header_block
    from tests.timing import thread_cpu

    block = b"HTTP/1.1 200 OK\r\nX-Robots-Tag: a\r\n" + b" a\r\n" * size + b"\r\n"
    return min(thread_cpu(header_block, block)[1] for _ in range(3))


def test_folded_lines_are_joined_in_linear_time() -> None:
    # CPU time (which the machine's load does not inflate) of 4 times the folded lines:
    # about 4 times as long when linear, 16 times when each line copies the value so far.
    small, large = _cpu(60_000), _cpu(240_000)
    assert large < 8 * small + 0.05, (small, large)


def test_a_raw_block_is_read_up_to_its_bound() -> None:
    from robotsrules._page._headers import MAX_HEADER_BLOCK, header_block

    filler = b"X-Filler: " + b"a" * 1000 + b"\r\n"
    block = (b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noindex\r\n"
             + filler * (MAX_HEADER_BLOCK // len(filler) + 1) + b"X-Robots-Tag: noai\r\n\r\n")
    fields = header_block(block)
    assert [f.value for f in fields if f.key == "x-robots-tag"] == ["noindex"]
    assert page_signals(block, agent="GPTBot").index is False
    assert page_signals(block.decode("latin-1"), agent="GPTBot").index is False
