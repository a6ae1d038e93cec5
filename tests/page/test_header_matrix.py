"""One response, every form, every entry point: the same answers (issue 23, items 5-7).

Each case is a response given as the lines a server sent (some folded with obsolete line
folding, some repeated). It is then given in every form a caller, a client library or a
stored crawl holds headers in -- a dict with list values, a client's folding dict (repeated
fields joined with ", "), a multi-dict, str pairs, bytes pairs, a raw block (str, bytes,
folded), a WARC record, a DuckDB row (VARCHAR, BLOB, LIST of structs) and datatrove metadata
(dict with list/bytes/tuple values, [name, value] lists) -- and read through every entry
point: ``page_signals``, ``robotsrules page``, ``bulk --pages-warc``, DuckDB's
``robots_page_allows``, datatrove's ``PageSignalsFilter`` and (``--run-slow``, its own JVM)
Spark's ``robots_page_allows``. Every answer must equal the one read from the plain pairs:
the purposes, and (issue 26) the RSL licence URLs where the entry point gives them
(``robotsrules page``, ``bulk --pages-warc``'s ``license_urls``, DuckDB's and Spark's
``robots_page_license_urls``) and whether the response asks to be paid for (``robotsrules
page``, the datatrove filter). A case may have its own status (a 402): the raw forms carry
it on their status line, the other forms do not, and the answers must still agree.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any, Optional, Union

import pytest

from robotsrules import page_signals

PURPOSES = ("search", "ai-train", "ai-input", "train-ai")
AGENT = "GPTBot"
HTML = b'<html><head><meta name="robots" content="max-snippet:10"></head><body>x</body>'

Line = tuple[str, str, tuple[str, ...]]  # name, value, continuation lines (folded)

CASES: dict[str, list[Line]] = {
    # Item 5: a folded X-Robots-Tag (the raw-block readers dropped the continuation).
    "folded x-robots-tag": [("X-Robots-Tag", "noarchive,", ("noindex",))],
    "folded noai for the agent": [("X-Robots-Tag", "noarchive,", ("GPTBot: noai",))],
    # Item 7: repeated tdm-reservation lines disagree (pairs and a folding dict alike).
    "tdm 1 then 0": [("tdm-reservation", "1", ()), ("tdm-reservation", "0", ())],
    "tdm 0 then 0": [("tdm-reservation", "0", ()), ("tdm-reservation", "0", ())],
    "content-usage over two lines": [("Content-Usage", "train-ai=y", ()),
                                     ("Content-Usage", "train-ai=n", ())],
    "content-usage folded": [("Content-Usage", "search=y,", ("train-ai=n",))],
    "content-signal": [("Content-Signal", "search=yes, ai-train=no", ())],
    # Item 6: values that a stranger's metadata holds as lists become several lines.
    "two robots lines": [("X-Robots-Tag", "nofollow", ()), ("X-Robots-Tag", "noai", ())],
    # Issue 26: Robots-Tag (draft-illyes-repext-03), folded and repeated, beside X-Robots-Tag.
    "robots-tag folded": [("Robots-Tag", "*;noarchive,", ("GPTBot;noindex",))],
    "robots-tag over two lines": [("Robots-Tag", "OtherBot;noindex", ()),
                                  ("Robots-Tag", "gptbot;noai", ())],
    "robots-tag malformed": [("Robots-Tag", "gptbot: noindex", ())],
    "robots-tag and x-robots-tag": [("X-Robots-Tag", "noai", ()),
                                    ("Robots-Tag", "*;noindex", ())],
    # Issue 26: RSL licence links (folded, two lines) and a pay-per-crawl 402.
    "licence links folded": [("Link", "</a.css>; rel=preload,",
                              ("</l.xml>; rel=license; type=\"application/rsl+xml\"",))],
    "licence links over two lines": [("Link", "<https://cdn.example/l.xml>; rel=license; "
                                              "type=application/rsl+xml", ()),
                                     ("Link", "</cc>; rel=license", ())],
    "pay-per-crawl": [("crawler-price", "USD 0.01", ()),
                      ("Link", "</terms>; rel=terms-of-service", ())],
}
STATUS = {"pay-per-crawl": 402}
"""The status line of a case's raw forms (200 otherwise)."""
URL = "https://site.example/page"


def _value(line: Line) -> str:
    _, value, more = line
    return " ".join((value, *more))


def _pairs(case: list[Line]) -> list[tuple[str, str]]:
    return [(line[0], _value(line)) for line in case]


def _block(case: list[Line], folded: bool, status: int = 200) -> str:
    out = [f"HTTP/1.1 {status} Status", "Content-Type: text/html; charset=utf-8"]
    for name, value, more in case:
        if folded:
            out.append(f"{name}: {value}")
            out.extend(f" {m}" for m in more)
        else:
            out.append(f"{name}: {' '.join((value, *more))}")
    return "\r\n".join(out) + "\r\n\r\n"


def _grouped(case: list[Line]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for name, value in _pairs(case):
        grouped.setdefault(name, []).append(value)
    return grouped


def _case_block(name: str, folded: bool = True) -> str:
    return _block(CASES[name], folded, STATUS.get(name, 200))


def _forms(case: list[Line], status: int = 200) -> dict[str, Any]:
    multidict = pytest.importorskip("multidict")
    grouped = _grouped(case)
    return {
        "pairs": _pairs(case),
        "bytes pairs": [(n.encode(), v.encode()) for n, v in _pairs(case)],
        "dict of lists": grouped,
        "dict of tuples of bytes": {n: tuple(v.encode() for v in vs) for n, vs in grouped.items()},
        "folding dict": {n: ", ".join(vs) for n, vs in grouped.items()},
        "multidict": multidict.CIMultiDict(_pairs(case)),
        "raw block": _block(case, folded=False, status=status),
        "folded raw block": _block(case, folded=True, status=status),
        "folded raw bytes": _block(case, folded=True, status=status).encode(),
        "name/value records": [{"name": n, "value": v} for n, v in _pairs(case)],
    }


def _answers(signals: Any) -> tuple[Optional[bool], ...]:
    return tuple(signals.allows(p) for p in PURPOSES)


def _expected(case: list[Line]) -> tuple[Optional[bool], ...]:
    return _answers(page_signals(_pairs(case), HTML, agent=AGENT))


def _reference(name: str) -> Any:
    """The signals of a case read from its plain pairs (no status: a 402 is known from its
    crawler-price alone)."""
    return page_signals(_pairs(CASES[name]), HTML, agent=AGENT, url=URL)


def _licences(name: str) -> tuple[str, ...]:
    return _reference(name).license_urls


def _priced(name: str) -> bool:
    return _reference(name).priced


def test_the_expected_answers_are_the_sources() -> None:
    # The reference itself (pairs) says what the sources say, so the matrix cannot agree
    # on a wrong answer: folded noindex refuses search, disagreeing TDMRep values reserve.
    assert _expected(CASES["folded x-robots-tag"])[0] is False
    assert _expected(CASES["folded noai for the agent"])[1] is False
    assert _expected(CASES["tdm 1 then 0"])[1:3] == (False, False)
    assert _expected(CASES["tdm 0 then 0"])[1:3] == (True, True)
    assert _expected(CASES["content-usage over two lines"])[3] is False
    assert _expected(CASES["content-usage folded"])[3] is False
    assert _expected(CASES["content-signal"])[:2] == (True, False)
    assert _expected(CASES["two robots lines"])[1] is False
    assert _expected(CASES["robots-tag folded"])[0] is False  # GPTBot;noindex
    assert _expected(CASES["robots-tag over two lines"])[:2] == (None, False)  # noai only
    assert _expected(CASES["robots-tag malformed"])[0] is False
    assert _expected(CASES["robots-tag and x-robots-tag"])[:2] == (False, False)
    assert _licences("licence links folded") == ("https://site.example/l.xml",)
    assert _licences("licence links over two lines") == ("https://cdn.example/l.xml",)
    assert _priced("pay-per-crawl") and not _priced("licence links folded")


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_form_reads_alike_through_page_signals(case: str) -> None:
    expected = _expected(CASES[case])
    reference = _reference(case)
    for form, headers in _forms(CASES[case], STATUS.get(case, 200)).items():
        assert _answers(page_signals(headers, HTML, agent=AGENT)) == expected, form
        read = page_signals(headers, HTML, agent=AGENT, url=URL)
        assert read.license_urls == reference.license_urls, form
        assert read.priced == reference.priced, form
        if reference.pricing is not None:
            assert read.pricing is not None and read.pricing.terms == reference.pricing.terms


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_command_line_reads_a_saved_response_alike(case: str, tmp_path: Path) -> None:
    from robotsrules.cli import main

    saved = tmp_path / "response.http"
    saved.write_bytes(_case_block(case).encode() + HTML)
    out = io.StringIO()
    args = ["page", str(saved), "--agent", AGENT, "--json", "--url", URL]
    for purpose in PURPOSES:
        args += ["--purpose", purpose]
    assert main(args, out=out) == 0
    data = json.loads(out.getvalue())
    got = tuple(data["purposes"][p]["allowed"] for p in PURPOSES)
    assert got == _expected(CASES[case])
    assert tuple(data["license_urls"]) == _licences(case)
    assert (data["pricing"] is not None and data["pricing"]["asked"]) == _priced(case)


def _warc(path: Path, cases: list[str]) -> None:
    pytest.importorskip("warcio")
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for case in cases:
            # The HTTP message as the server sent it, folded lines and all.
            raw = _case_block(case).encode() + HTML
            writer.write_record(writer.create_warc_record(
                URL, "response", payload=io.BytesIO(raw),
                warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


def test_bulk_pages_warc_reads_every_case_alike(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from robotsrules.cli import main

    names = sorted(CASES)
    warc = tmp_path / "pages.warc.gz"
    _warc(warc, names)
    out = tmp_path / "pages.parquet"
    args = ["bulk", "--pages-warc", str(warc), "--agent", AGENT, "--out", str(out)]
    for purpose in PURPOSES:
        args += ["--purpose", purpose]
    assert main(args, out=io.StringIO()) == 0
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == len(names)
    for name, row in zip(names, rows):
        got = tuple(row[p.replace("-", "_")] for p in PURPOSES)
        assert got == _expected(CASES[name]), name
        assert tuple(row["license_urls"]) == _licences(name), name


def test_duckdb_rows_read_every_form_alike() -> None:
    duckdb = pytest.importorskip("duckdb")
    from robotsrules.duckdb import register

    con = register(duckdb.connect())
    try:
        for name, case in sorted(CASES.items()):
            block = _case_block(name)
            records = [{"name": n, "value": v} for n, v in _pairs(case)]
            licences = con.execute(
                "SELECT robots_page_license_urls(?, ?, ?), robots_page_license_urls(CAST(? "
                "AS BLOB), ?, ?), robots_page_license_urls(?::STRUCT(name VARCHAR, value "
                "VARCHAR)[], ?, ?)", [block, HTML, URL, block, HTML, URL, records, HTML, URL]
            ).fetchone()
            assert licences == (list(_licences(name)),) * 3, name
            for purpose, expected in zip(PURPOSES, _expected(case)):
                got = con.execute(
                    "SELECT robots_page_allows(?, ?, ?, ?), "
                    "robots_page_allows(CAST(? AS BLOB), ?, ?, ?), "
                    "robots_page_allows(?::STRUCT(name VARCHAR, value VARCHAR)[], ?, ?, ?)",
                    [block, HTML, AGENT, purpose, block.encode("latin-1").decode("latin-1"),
                     HTML, AGENT, purpose, records, HTML, AGENT, purpose]).fetchone()
                assert got == (expected, expected, expected), (name, purpose)
    finally:
        con.close()


def test_datatrove_metadata_reads_every_form_alike() -> None:
    pytest.importorskip("datatrove")
    from robotsrules.datatrove import PageSignalsFilter

    for name, case in sorted(CASES.items()):
        expected = _expected(case)
        grouped = _grouped(case)
        forms = {
            "dict of lists": grouped,
            "dict of bytes lists": {n: [v.encode() for v in vs] for n, vs in grouped.items()},
            "dict of tuples": {n: tuple(vs) for n, vs in grouped.items()},
            "[name, value] lists": [[n, v] for n, v in _pairs(case)],
            "raw block": _case_block(name),
        }
        for purpose, answer in zip(PURPOSES, expected):
            step = PageSignalsFilter([AGENT], purposes=[purpose])
            for form, headers in forms.items():
                found = step.decide("https://example.com/p", HTML.decode(), headers)
                refused = None if answer is None else (answer is False)
                assert found["refused"] == refused, (name, purpose, form)
                assert (found["priced"] is not None) == _priced(name), (name, form)


@pytest.mark.slow  # a Spark session of its own
@pytest.mark.skipif(shutil.which("java") is None, reason="Spark needs Java 17+")
def test_spark_rows_read_every_case_alike() -> None:
    pytest.importorskip("pyspark")
    from robotsrules import spark as engine

    session = engine.local_session("local[1]", **{"spark.sql.shuffle.partitions": "1"})
    try:
        rows = [(name, _case_block(name), HTML, URL) for name in sorted(CASES)]
        frame = session.createDataFrame(rows,
                                        "name string, headers string, html binary, url string")
        columns = [engine.robots_page_allows("headers", "html", AGENT, p).alias(p.replace("-", "_"))
                   for p in PURPOSES]
        licences = engine.robots_page_license_urls("headers", "html", "url").alias("licences")
        found = frame.select("name", licences, *columns).collect()
        got = {r["name"]: tuple(r[p.replace("-", "_")] for p in PURPOSES) for r in found}
        got_licences = {r["name"]: tuple(r["licences"]) for r in found}
    finally:
        session.stop()
    assert got == {name: _expected(case) for name, case in CASES.items()}
    assert got_licences == {name: _licences(name) for name in CASES}


# ------------------------------------------------------------------ the body's forms (issue 33)
# One HTML head saying noai, under each Content-Type a server may send. The body is read
# where the WHATWG MIME Sniffing Standard (as of 2026-11, §7.1) makes it HTML: by a type
# naming HTML, else (no type, one that is no MIME type, unknown/unknown, application/unknown,
# */*) when its resource header (1445 octets, leading blanks skipped) starts with an HTML
# signature; a supplied type that is not unknown is kept, so text/plain and
# application/octet-stream are never HTML whatever they hold. Several Content-Type fields:
# Fetch's "extract a MIME type" (as of 2026-11), the last valid one decides. Deviation (issue
# 33, the lead's decision): an untyped body starting with "<" and a letter, "!" or "?" is read
# too, so a lone <meta name=robots content=noai> says no. Every form carries another header
# ("Server"): a body given with no header field at all is a document, read as HTML.
NOAI = b'<html><head><meta name="robots" content="noai"></head><body>x</body></html>'
BODY_FORMS: dict[str, tuple[Union[str, tuple[str, ...], None], bytes, Optional[bool]]] = {
    # name: (Content-Type (several: a tuple) or None, body, ai-train answer for GPTBot)
    "typed html": ("text/html; charset=utf-8", NOAI, False),
    "typed xhtml": ("application/xhtml+xml", NOAI, False),
    "untyped": (None, NOAI, False),
    "untyped, blanks and a BOM first": (None, b"\r\n \xef\xbb\xbf" + NOAI, False),
    "untyped, doctype": (None, b"<!DOCTYPE html>" + NOAI, False),
    "empty type": ("", NOAI, False),
    "unknown/unknown": ("unknown/unknown", NOAI, False),
    "application/unknown": ("Application/Unknown", NOAI, False),
    "*/*": ("*/*", NOAI, False),
    "octet-stream": ("application/octet-stream", NOAI, None),
    "text/plain with html inside": ("text/plain", NOAI, None),
    "text/plain; charset with html inside": ("text/plain; charset=ISO-8859-1", NOAI, None),
    "image": ("image/png", NOAI, None),
    "untyped, not html": (None, b"%PDF-1.7 " + NOAI, None),
    # No HTML signature first: the standard reads it as text/plain; read here (deviation).
    "untyped, meta first": (None, b'<meta name="robots" content="noai">', False),
    "untyped, BOM then meta": (None, b'\xef\xbb\xbf <meta name="robots" content="noai">', False),
    "untyped, UTF-16 meta": (None, '\ufeff<meta name="robots" content="noai">'.encode(
        "utf-16-le"), False),
    "untyped, < and a blank": (None, b'< meta name="robots" content="noai">', None),
    "untyped, 600 blanks first": (None, b"\n" * 600 + NOAI, False),
    "untyped, 1500 blanks first": (None, b"\n" * 1500 + NOAI, None),  # past 1445 octets
    # A supplied type that is no MIME type is undefined (MIME Sniffing §7.1): sniffed.
    "charset only": ("charset=UTF-8", NOAI, False),
    "type without subtype": ("text", NOAI, False),
    "type and slash": ("text/", NOAI, False),
    "garbage type": ("garbage", NOAI, False),
    "text/plain, no mime type after": (("text/plain", "charset=UTF-8"), NOAI, None),
    "image then html": (("image/png", "text/html"), NOAI, False),
    "html then image": (("text/html", "image/png"), NOAI, None),
    "text/plain then html": (("text/plain", "text/html"), NOAI, False),
    "plain with charset=html": ('text/plain; charset="html"', NOAI, None),
}
FORM_URL = "https://site.example/form"


def _form_pairs(name: str) -> list[tuple[str, str]]:
    kind = BODY_FORMS[name][0]
    kinds = () if kind is None else (kind,) if isinstance(kind, str) else kind
    return [("Server", "loopback")] + [("Content-Type", each) for each in kinds]


def _form_block(name: str) -> bytes:
    lines = "".join(f"{n}: {v}\r\n" for n, v in _form_pairs(name))
    return f"HTTP/1.1 200 OK\r\n{lines}\r\n".encode() + BODY_FORMS[name][1]


def test_body_forms_are_admitted_by_one_rule() -> None:
    from robotsrules._page import admit_page

    for name, (_, body, answer) in BODY_FORMS.items():
        forms = {form: headers for form, headers
                 in _forms([(n, v, ()) for n, v in _form_pairs(name)]).items()
                 if "raw" not in form}  # _block's raw forms add a text/html type
        block = _form_block(name)[:-len(body)]
        forms.update({"raw block": block.decode("latin-1"), "raw bytes": block})
        for form, headers in forms.items():
            admission = admit_page(headers, body, agents=[AGENT], purposes=["ai-train"])
            assert admission.answers[0].answer.allowed is answer, (name, form)
    # No header field at all: the caller's document, read as HTML.
    assert admit_page({}, b'<meta name="robots" content="noai">', agents=[AGENT],
                      purposes=["ai-train"]).refused is not None


@pytest.mark.parametrize("name", sorted(BODY_FORMS))
def test_the_command_line_admits_body_forms_alike(name: str, tmp_path: Path) -> None:
    from robotsrules.cli import main

    saved = tmp_path / "response.http"
    saved.write_bytes(_form_block(name))
    out = io.StringIO()
    assert main(["page", str(saved), "--agent", AGENT, "--json", "--purpose", "ai-train"],
                out=out) == 0
    assert json.loads(out.getvalue())["purposes"]["ai-train"]["allowed"] is BODY_FORMS[name][2]


def test_bulk_pages_warc_admits_body_forms_alike(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    from warcio.warcwriter import WARCWriter

    from robotsrules.cli import main

    names = sorted(BODY_FORMS)
    path = tmp_path / "forms.warc.gz"
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for name in names:
            writer.write_record(writer.create_warc_record(
                FORM_URL, "response", payload=io.BytesIO(_form_block(name)),
                warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))
    out = tmp_path / "forms.parquet"
    assert main(["bulk", "--pages-warc", str(path), "--agent", AGENT, "--purpose", "ai-train",
                 "--out", str(out)], out=io.StringIO()) == 0
    rows = pq.read_table(out).to_pylist()
    assert [row["ai_train"] for row in rows] == [BODY_FORMS[n][2] for n in names]


def test_duckdb_and_datatrove_admit_body_forms_alike() -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("datatrove")
    from robotsrules.datatrove import PageSignalsFilter
    from robotsrules.duckdb import register

    con = register(duckdb.connect())
    step = PageSignalsFilter([AGENT], purposes=["ai-train"])
    try:
        for name, (_, body, answer) in sorted(BODY_FORMS.items()):
            block = _form_block(name)[:-len(body)].decode("latin-1")
            got = con.execute("SELECT robots_page_allows(?, ?, ?, 'ai-train')",
                              [block, body, AGENT]).fetchone()
            assert got == (answer,), name
            if name == "untyped, UTF-16 meta":
                continue  # datatrove's text is decoded already: no UTF-16 octets to read
            found = step.decide(FORM_URL, body.decode("utf-8"),
                                _grouped([(n, v, ()) for n, v in _form_pairs(name)]))
            assert found["refused"] == (None if answer is None else answer is False), name
    finally:
        con.close()
