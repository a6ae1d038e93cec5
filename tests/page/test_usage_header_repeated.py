"""A key given twice in the ``Content-Usage`` header (issue 33): RFC 9651 (September 2024)
§4.2.2 keeps the last value (several fields are joined into one Dictionary first, §4.2), and
a last value that is not the Token ``y``/``n`` states nothing for that key even when an
earlier member gave a valid one (draft-ietf-aipref-vocab-07, 2026-08-19, "Multiple Preferences"). The rule
is :func:`robotsrules._rules._usage.dictionary_statements`, shared with robots.txt lines
(``tests/usage/test_usage_repeated_label.py``). Library, ``robotsrules page`` (a saved
response and a loopback URL) and the WARC page rows.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Optional

import pytest

from robotsrules import page_signals
from robotsrules._page._prefs import content_usage
from robotsrules.cli import main
from tests.network.servers import Exchange, RawHTTPServer

Fields = list[tuple[str, str]]
CASES: list[tuple[Fields, Optional[bool], Optional[bool]]] = [
    ([("Content-Usage", "train-ai=y, train-ai")], None, None),
    ([("Content-Usage", 'search=n, search="n"')], None, None),
    ([("Content-Usage", "train-ai=y"), ("Content-Usage", "train-ai")], None, None),
    ([("Content-Usage", "search=n"), ("Content-Usage", "search=?0")], None, None),
    ([("Content-Usage", "train-ai=n, train-ai=y")], True, None),
    ([("Content-Usage", "search=y"), ("Content-Usage", "search=n")], None, False),
]


@pytest.mark.parametrize("fields, train, search", CASES)
def test_page_signals_read_the_last_value(fields: Fields, train: Optional[bool],
                                          search: Optional[bool]) -> None:
    signals = page_signals(fields, None, agent="ExampleBot")
    assert signals.allows("train-ai") is train
    assert signals.allows("search") is search
    assert signals.content_usage == {k: v for k, v in (("train-ai", train), ("search", search))
                                     if v is not None}


def test_an_unparsable_field_still_reads_only_its_refusals() -> None:
    # Not a Dictionary (the stray quote): nothing permits, each refusal still refuses.
    read = content_usage('train-ai=n, train-ai=y, search=y, bad="')
    assert read.valid is False and read.statements == (("train-ai", False),)


RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
            b"Content-Usage: train-ai=y, search=n\r\n"
            b'Content-Usage: train-ai, search="n"\r\n\r\n'
            b"<html><head></head><body>x</body></html>")


def _page_json(argv: list[str]) -> dict:  # type: ignore[type-arg]
    out = io.StringIO()
    assert main(["page", *argv, "--agent", "ExampleBot", "--json", "--purpose", "train-ai",
                 "--purpose", "search"], out=out) == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def test_cli_page_saved_response(tmp_path: Path) -> None:
    saved = tmp_path / "response.http"
    saved.write_bytes(RESPONSE)
    data = _page_json([str(saved)])
    assert data["purposes"]["train-ai"]["allowed"] is None
    assert data["purposes"]["search"]["allowed"] is None


def test_cli_page_url() -> None:
    def serve(exchange: Exchange) -> None:
        exchange.send(RESPONSE)

    with RawHTTPServer({"/p": serve}) as server:
        data = _page_json([server.url("/p")])
    assert data["purposes"]["train-ai"]["allowed"] is None
    assert data["purposes"]["search"]["allowed"] is None
    out = io.StringIO()
    with RawHTTPServer({"/p": serve}) as server:
        assert main(["page", server.url("/p"), "--agent", "ExampleBot"],
                    out=out) == 0
    assert "  ai-train: nothing stated\n" in out.getvalue()
    assert "  search: nothing stated\n" in out.getvalue()


def test_warc_page_rows(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    warcio = pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders

    from robotsrules.warc import page_table

    path = tmp_path / "pages.warc.gz"
    with open(path, "wb") as handle:
        writer = warcio.warcwriter.WARCWriter(handle, gzip=True)
        for name, values in (("repeated", ["train-ai=y, search=n", 'train-ai, search="n"']),
                             ("last", ["train-ai=n, search=y", "train-ai=y, search=n"])):
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")]
                                    + [("Content-Usage", v) for v in values],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                f"https://a.example/{name}", "response",
                payload=io.BytesIO(b"<html><head></head></html>"), http_headers=http))
    table = page_table([str(path)], agents=["ExampleBot"], purposes=["train-ai", "search"])
    rows = {r["url"].rsplit("/", 1)[1]: (r["train_ai"], r["search"]) for r in table.to_pylist()}
    assert rows == {"repeated": (None, None), "last": (True, False)}
