"""The transport charset (issue 33 §3): the MIME type parsed, never "the first charset= anywhere".

The table cases restate, in our own selection and words, the kinds of input that the
web-platform-tests data for the MIME Sniffing Standard's "parse a MIME type"
(``mimesniff/mime-types/resources/mime-types.json``) and the Fetch Standard's "extract a MIME
type" (``fetch/content-type/resources/content-types.json``) cover (both read 2026-11).
Python's ``email.message`` is no oracle here (it is RFC 2045's grammar, not the WHATWG
algorithm), and no maintained WHATWG MIME parser is on PyPI to compare with.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Optional

import pytest

from robotsrules import page_signals
from robotsrules._page._encoding import (
    decode_html,
    extract_mime_type,
    parse_mime_type,
    transport_encoding,
)
from robotsrules.cli import main
from tests.network.servers import Exchange, RawHTTPServer, head

# An ASCII page whose only signals are in its head: decoded as UTF-16 it says nothing.
PAGE = (b'<html><head><meta name="robots" content="noindex, noai"></head>'
        b"<body>plain ASCII</body></html>")
TRICK = "text/html; xcharset=utf-16; charset=utf-8"

# (Content-Type value, the encoding its charset names, or None: no charset is read)
PARSE_CASES: list[tuple[str, Optional[str]]] = [
    ("text/html;charset=gbk", "gbk"),
    ("TEXT/HTML;CHARSET=GBK", "gbk"),  # names case-insensitive
    ("text/html; charset=gbk", "gbk"),
    ("text/html ;charset=gbk", "gbk"),  # blanks after the subtype
    ("text/html;charset= gbk", "gbk"),  # the value keeps its blank; the label loses it
    ("text/html;charset =gbk", None),  # "charset " is another name
    ("text/html;charset=gbk(", None),  # no comment syntax: the label is "gbk("
    ("text/html;x=(;charset=gbk", "gbk"),
    ("text/html;charset=gbk;charset=windows-1255", "gbk"),  # the first one wins
    ("text/html;charset='gbk'", None),  # single quotes are part of the value
    ("text/html;test;charset=gbk", "gbk"),  # a parameter without "=" is skipped
    ("text/html;test=;charset=gbk", "gbk"),
    ("text/html;';charset=gbk", "gbk"),
    ('text/html;";charset=gbk', "gbk"),
    ("text/html ; ; charset=gbk", "gbk"),
    ("text/html;;;;charset=gbk", "gbk"),
    ('text/html;charset="gbk"', "gbk"),  # quoted
    ('text/html;charset="gbk', "gbk"),  # an unterminated quote ends with the value
    ('text/html;charset=gbk"', None),
    ('text/html;charset="\\g\\b\\k"', "gbk"),  # quoted-pairs
    ('text/html;charset="gbk"x', "gbk"),  # what follows the closing quote is dropped
    ("text/html;charset={gbk}", None),
    ("text/html;test=\u00ff;charset=gbk", "gbk"),  # a latin-1 value is kept
    ("text/html;test=\u0100;charset=gbk", "gbk"),  # a wider one is dropped, not fatal
    # the case: a name that only ends in "charset" is no charset
    ("text/html; xcharset=utf-16; charset=utf-8", "utf-8"),
    ("text/html; xcharset=utf-16", None),
    ('text/html; foo="charset=utf-16"; charset=utf-8', "utf-8"),
    ('text/html; foo="a;charset=utf-16"', None),
    # no valid MIME type: no charset at all
    ("charset=utf-16", None),
    ("text/html(;charset=utf-16", None),
    ("bogus/bogus/;charset=utf-16", None),
    ("/html;charset=utf-16", None),
    ("text/;charset=utf-16", None),
    ("\u0100/\u0100;charset=utf-16", None),
    ("", None),
    ("\t", None),
]


@pytest.mark.parametrize(("value", "encoding"), PARSE_CASES)
def test_transport_encoding_table(value: str, encoding: Optional[str]) -> None:
    assert transport_encoding(value) == encoding


def test_parse_mime_type_records() -> None:
    assert parse_mime_type("TEXT/HTML;CHARSET=GBK") == ("text/html", {"charset": "GBK"})
    assert parse_mime_type('x/x;test="\\') == ("x/x", {"test": "\\"})
    assert parse_mime_type("x/x;test") == ("x/x", {})
    assert parse_mime_type("bogus") is None and parse_mime_type("bogus/ ") is None
    assert parse_mime_type("text/html;x=\u00ff") == ("text/html", {"x": "\u00ff"})


# Several Content-Type fields (joined with ", " as Fetch's header list "get" does):
# (the values, the essence extracted or None, its charset's encoding)
EXTRACT_CASES: list[tuple[list[str], Optional[str], Optional[str]]] = [
    (["", "text/plain"], "text/plain", None),
    (["text/plain", ""], "text/plain", None),
    (["text/html", "text/plain"], "text/plain", None),
    (["text/plain;charset=gbk", "text/html"], "text/html", None),
    (["text/plain;charset=gbk", "text/html;charset=windows-1254"], "text/html", "windows-1254"),
    (["text/plain;charset=gbk", "text/plain"], "text/plain", "gbk"),  # carried over
    (["text/plain;charset=gbk", "text/plain;charset=windows-1252"], "text/plain",
     "windows-1252"),
    (['text/html;charset=gbk', 'text/html;x=",text/plain'], "text/html", "gbk"),
    (["text/html;charset=gbk", "text/plain", "text/html"], "text/html", None),
    (["text/plain", "*/*"], "text/plain", None),
    (["*/*", "text/html"], "text/html", None),
    (["text/html", "*/*;charset=gbk"], "text/html", None),
    (['text/html;x="', "text/plain"], "text/html", None),  # the quote swallows the comma
    (['text/html;"', "text/plain"], "text/html", None),
    (["bogus", "nonsense"], None, None),
]


@pytest.mark.parametrize(("values", "essence", "encoding"), EXTRACT_CASES)
def test_extract_mime_type_table(values: list[str], essence: Optional[str],
                                 encoding: Optional[str]) -> None:
    joined = ", ".join(values)
    found = extract_mime_type(joined)
    assert (found[0] if found else None) == essence
    assert transport_encoding(joined) == encoding


def test_decode_html_reads_the_charset_parameter_only() -> None:
    assert decode_html(PAGE, TRICK) == (PAGE.decode(), "utf-8")
    # a real UTF-16 charset still decodes as UTF-16 (the standard's order is kept)
    assert decode_html("<p>é".encode("utf-16-le"), "text/html; charset=utf-16")[1] == "utf-16le"


def _assert_refused(signals: object) -> None:
    assert signals.index is False
    assert signals.allows("ai-train") is False


def test_library_reads_the_page_under_a_misleading_parameter() -> None:
    _assert_refused(page_signals({"Content-Type": TRICK}, PAGE, agent="GPTBot"))
    raw = f"HTTP/1.1 200 OK\r\nContent-Type: {TRICK}\r\n".encode()
    _assert_refused(page_signals(raw, PAGE, agent="GPTBot"))


def test_library_several_content_type_fields_the_last_valid_one_decides() -> None:
    # Fetch: the last valid type (text/html, no charset) decides; the first field's
    # UTF-16 would hide the head.
    headers = [("Content-Type", "text/html;charset=utf-16"), ("Content-Type", "text/plain"),
               ("Content-Type", "text/html")]
    _assert_refused(page_signals(headers, PAGE, agent="GPTBot"))


def test_cli_saved_response(tmp_path: Path) -> None:
    saved = tmp_path / "response.http"
    saved.write_bytes(f"HTTP/1.1 200 OK\r\nContent-Type: {TRICK}\r\n\r\n".encode() + PAGE)
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", "GPTBot", "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["index"] is False and data["purposes"]["ai-train"]["allowed"] is False


def test_cli_page_url() -> None:
    def serve(exchange: Exchange) -> None:
        exchange.send(head(200, [("Content-Type", TRICK),
                                 ("Content-Length", str(len(PAGE)))]) + PAGE)

    with RawHTTPServer({"/page": serve}) as server:
        out = io.StringIO()
        assert main(["page", server.url("/page"), "--agent", "GPTBot", "--json"],
                    out=out) == 0
    data = json.loads(out.getvalue())
    assert data["index"] is False and data["purposes"]["ai-train"]["allowed"] is False


def test_warc_rows_and_bulk_pages_warc(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    from robotsrules.warc import page_table
    from tests.page.test_page_warc import write_warc

    path = tmp_path / "pages.warc.gz"
    write_warc(path, [("https://a.example/p", "2024-03-01T00:00:01Z",
                       [("Content-Type", TRICK)], PAGE)])
    rows = page_table([str(path)], agents=["GPTBot"], purposes=["ai-train"]).to_pylist()
    assert [(r["index"], r["noai"], r["ai_train"]) for r in rows] == [(False, True, False)]
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "pages.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--agent", "GPTBot",
                 "--purpose", "ai-train", "--out", str(out)]) == 0
    rows = pq.read_table(out).to_pylist()
    assert [(r["index"], r["ai_train"]) for r in rows] == [(False, False)]


def test_the_common_form_shortcut_gives_the_full_readings_answer() -> None:
    # transport_encoding reads "type/subtype; charset=token" at once; the answer must be
    # the one "extract a MIME type" and "legacy extract an encoding" give.
    from robotsrules._page._encoding import encoding_for_label

    for kind in ("text/html", "TEXT/Html", "*/*", "text/*", "a/b"):
        for blank in ("", " ", "\t", " \r\n "):
            for name in ("charset", "CharSet"):
                for label in ("utf-8", "UTF-16", "latin1", "bogus", "gbk("):
                    value = f"{blank}{kind}{blank};{blank}{name}={label}{blank}"
                    found = extract_mime_type(value)
                    label_found = None if found is None else found[1].get("charset")
                    expected = None if label_found is None else encoding_for_label(label_found)
                    assert transport_encoding(value) == expected, value
