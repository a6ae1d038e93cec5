"""The WARC page path's shortcuts (issue 27) read what the whole reading reads.

* :func:`robotsrules._page._html.read_head` decodes and scans a body a window at a time
  (``_scan_prefixes``: the first window ends a little past the first ``<body``, and grows
  when a scan runs to its end); the reference decodes the whole body at once
  (``decode_html``) and scans all of it. Every head read (metas, links, base, scripts,
  encoding, end) must be equal, with the window's slack as given and shrunk to a few bytes,
  so that windows end everywhere: inside tags, comments, styles, scripts, UTF-8 characters.
* The end of raw text and of script data is found with ``str.find`` then a match
  (``_find_at``) instead of the regular expression's own search: the same leftmost match.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules._page import _html
from robotsrules._page._encoding import decode_html, prefix_encoding

PAGES = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "pages"

_CONTENT_TYPES = [None, "text/html", "text/html; charset=utf-8", "text/html; charset=iso-8859-1",
                  "text/html; charset=koi8-r", "text/html; charset=shift_jis",
                  "text/html; charset=utf-16le"]


def _whole(raw: bytes, content_type: Optional[str], max_bytes: int) -> _html.Head:
    """The reference: the whole window decoded at once, then scanned."""
    data = raw[:max_bytes]
    cut = len(raw) > max_bytes  # a cut document is always scanned (Head.cut)
    if not cut and _html._nothing_to_read(data) and not (content_type
                                                         and "utf-16" in content_type):
        return _html.Head((), "", 0)
    text, encoding = decode_html(data, content_type, cut=cut)
    if encoding in ("utf-16le", "utf-16be", "replacement"):
        # Never windowed: decoded at once, with the restrict-only second reading of bytes
        # the label contradicts (tests/page/test_header_review_second.py).
        return _html._unreadable_head(data, text, encoding, cut)
    if not cut and _html._nothing_to_read(text):
        return _html.Head((), encoding, 0)
    extras: list[_html._Extra] = []
    found, end = _html._scan(text, extras)
    found, reach = _html._scripted(text, found, end)
    return _html._head(text, found, end, extras, encoding, cut and reach >= len(text))


def _check(raw: bytes, monkeypatch: pytest.MonkeyPatch, slacks: list[int],
           content_types: list[Optional[str]] = _CONTENT_TYPES,
           max_bytes: int = _html.DEFAULT_HEAD_BYTES) -> None:
    for content_type in content_types:
        expected = _whole(raw, content_type, max_bytes)
        for slack in slacks:
            monkeypatch.setattr(_html, "_WINDOW_SLACK", slack)
            got = _html.read_head(raw, content_type=content_type, max_bytes=max_bytes)
            assert got == expected, (content_type, slack)
            _forced(raw[:max_bytes], content_type, expected, len(raw) > max_bytes)


def _forced(raw: bytes, content_type: Optional[str], expected: _html.Head, cut: bool) -> None:
    """The windows taken even where ``read_head`` decodes at once (ASCII read as UTF-8)."""
    encoding, skip = prefix_encoding(raw, content_type)
    if encoding and expected.end:
        text, found, end, extras, reach = _html._scan_prefixes(raw, encoding, skip)
        assert _html._head(text, found, end, extras, encoding,
                           cut and reach >= len(text)) == expected


def test_the_stored_real_heads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each real page, as stored and padded with a body, read a window at a time."""
    names = sorted(PAGES.glob("*.html"))
    assert len(names) >= 10
    for path in names:
        raw = path.read_bytes()
        padded = raw + b"<p>" + b"lorem ipsum dolor sit amet " * 3000
        _check(padded, monkeypatch, [4096, 1, 300], [None, "text/html; charset=utf-8",
                                                      "text/html; charset=iso-8859-1"])


_TRICKY = [
    # The first "<body" inside a script or a comment: the first window ends too early.
    b"<html><head><script>document.write('<body>')</script>" + b"x" * 9000
    + b'<meta name="robots" content="noai"></head><body>',
    b"<head><!-- <BODY> -->" + b"<style>" + b"a{b:c}" * 4000 + b"</style>"
    + b'<meta name=robots content=noindex><body>',
    # No body tag at all: the whole text.
    b'<meta name="robots" content="noindex">' + b"<p>" * 5000,
    # A body tag whose attributes run past the first window.
    b'<head><meta name=a content=b></head><body class="' + b"c" * 10000 + b'">',
    # Multi-byte UTF-8 around every cut, and a cut character at the end of the window.
    ("<head><title>" + "é€😀" * 3000 + "</title><meta name=robots content=noai>"
     "<body>").encode(),
    ("<meta name=robots content=noai>" + "é" * 5000).encode()[:-1],
    # A plaintext tag and a frameset end the reading too.
    b"<head><meta name=a content=b><plaintext>" + b"<meta name=robots content=noai>" * 200,
    b"<head><meta name=a content=b></head><frameset>" + b"<meta name=c content=d>" * 200,
    # Licence links, a base and an inline RSL script before and after the cut.
    b'<head><base href="/x/"><link rel="license" href="l.xml" type="application/rsl+xml">'
    + b"<script type='application/rsl+xml'><rsl/></script>" * 50
    + b'<meta name="robots" content="noai"></head><body>',
    # An unterminated style, comment and script: the reading runs to the end.
    b"<head><style>" + b"a" * 20000,
    b"<head><!--" + b"-" * 20000 + b'<meta name="robots" content="noai">',
    b"<head><script><!--<script></script>" + b"x" * 20000 + b"--></script><meta name=a "
    b"content=b><body>",
]


@pytest.mark.parametrize("index", range(len(_TRICKY)))
def test_tricky_documents(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(_TRICKY[index], monkeypatch, [4096, 1, 2, 3, 17, 1000])


def test_the_window_is_bounded_by_max_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = b'<meta name="robots" content="noai">' + b"<p>" * 5000 + b"<body>"
    _check(raw, monkeypatch, [4096, 5], [None, "text/html; charset=utf-8"], max_bytes=3000)


def test_windows_are_used() -> None:
    """The shortcut is taken (a first window shorter than the body) and grows eight times
    when the scan runs to its end (ASCII text: one character a byte, so the text's length
    is the window's)."""
    raw = b'<head><meta name="robots" content="noai"></head><body>' + b"<p>x" * 50000
    text = _html._scan_prefixes(raw, "utf-8", 0)[0]
    assert len(text) == _html._WINDOW_SLACK + raw.index(b"<body") < len(raw)
    first = _html._WINDOW_SLACK + _TRICKY[0].index(b"<body")
    text = _html._scan_prefixes(_TRICKY[0] + b"x" * 100000, "utf-8", 0)[0]
    assert len(text) == 8 * first


_BITS = ["<head>", "</head>", "<body>", "<BODY x=1>", "<body", "<meta name=robots content=noai>",
         '<meta name="googlebot" content="noindex">', "<style>", "</style>", "</STYLE >",
         "<script>", "</script>", "</ScRiPt\t>", "<!--", "-->", "<script>x<!--",
         "<title>", "</title>", "<template>", "</template>", "<svg>", "<p>", "text", " ",
         "\n", "é", "€", "&amp;", "&#32;", "<", ">", "</", "<!", '"', "'", "=", "<noscript>",
         "<frameset>", "<plaintext>", '<link rel=license href="a">', "<base href=b>",
         "<textarea>", "</textarea>", "x" * 700]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_BITS), max_size=40), st.integers(1, 400),
       st.sampled_from([None, "text/html; charset=utf-8", "text/html; charset=windows-1252"]))
def test_any_document(bits: list[str], slack: int, content_type: Optional[str]) -> None:
    raw = "".join(bits).encode()
    expected = _whole(raw, content_type, _html.DEFAULT_HEAD_BYTES)
    saved = _html._WINDOW_SLACK
    _html._WINDOW_SLACK = slack
    try:
        assert _html.read_head(raw, content_type=content_type) == expected
        _forced(raw, content_type, expected, False)
    finally:
        _html._WINDOW_SLACK = saved


_SEARCHED = [_html._CLOSERS["style"], _html._CLOSERS["title"], _html._SCRIPT_DATA]
_TEXT_BITS = ["<", "/", "<!--", "</style", "</STYLE", "</title ", "</script>", "</scrip",
              "<!-", "x", " ", "\t", ">", "\u017f", "\u212a", "e"]  # long s, Kelvin sign


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TEXT_BITS), max_size=30), st.integers(0, 10),
       st.sampled_from(range(len(_SEARCHED))))
def test_find_at_is_the_regex_search(bits: list[str], here: int, which: int) -> None:
    text = "".join(bits)
    pattern: re.Pattern[str] = _SEARCHED[which]
    expected = pattern.search(text, here)
    got = _html._find_at(pattern, text, here, "<")
    assert (None if got is None else got.span()) == (
        None if expected is None else expected.span())


def test_every_bytes_like_body_reads_alike() -> None:
    """A body given as ``bytearray`` or ``memoryview`` (a stranger's record, an engine's
    buffer) reads as its bytes do, in both builds (the compiled build checks the declared
    types at the call), and so does a raw header block."""
    from robotsrules._page import header_block

    raw = ('<head><meta name="robots" content="noai, é"></head><body>' + "x" * 9000).encode()
    expected = _html.read_head(raw, content_type="text/html; charset=utf-8")
    assert expected.metas
    for form in (bytearray(raw), memoryview(raw)):
        assert _html.read_head(form, content_type="text/html; charset=utf-8") == expected
        assert _html.read_head_meta(form) == _html.read_head_meta(raw)
    block = b"HTTP/1.1 200 OK\r\nX-Robots-Tag: noai\r\nContent-Type: text/html\r\n\r\n"
    for form in (bytearray(block), memoryview(block)):
        assert header_block(form) == header_block(block)
