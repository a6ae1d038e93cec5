"""Evidence manifests (issue 26): ``robotsrules bulk --manifest`` and RobotsFilter(manifest=),
every record checked against data/manifest.schema.json and against the inputs."""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("duckdb", reason="needs the 'bulk' extra")
pa = pytest.importorskip("pyarrow")
import jsonschema  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from robotsrules._manifest import Manifest, registry_version  # noqa: E402
from robotsrules.cli import main  # noqa: E402

SCHEMA = json.loads(resources.files("robotsrules").joinpath("data/manifest.schema.json")
                    .read_text("utf-8"))
A_BODY = b"User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n"


def records(path: Path) -> list[dict[str, Any]]:
    found = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    for record in found:
        jsonschema.validate(record, SCHEMA)
    return found


def run(*argv: str) -> int:
    return main(list(argv), out=io.StringIO())


def test_bulk_manifest_with_dates_and_statuses(tmp_path: Path) -> None:
    pq.write_table(pa.table({
        "url": ["https://a.example/robots.txt", "https://b.example/robots.txt"],
        "body": [A_BODY, None],
        "status": [200, 503],
        "date": [datetime.datetime(2026, 5, 1, 10, tzinfo=datetime.timezone.utc),
                 datetime.datetime(2026, 5, 2, tzinfo=datetime.timezone.utc)],
    }), tmp_path / "robots.parquet")
    (tmp_path / "urls.txt").write_text(
        "https://a.example/private/1\nhttps://a.example/private/2\nhttps://a.example/ok\n"
        "https://b.example/x\nhttps://c.example/y\n")
    manifest = tmp_path / "evidence.jsonl"
    assert run("bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
               str(tmp_path / "urls.txt"), "--agent", "GPTBot", "--agent", "CCBot",
               "--purpose", "ai-train", "--out", str(tmp_path / "v.parquet"),
               "--manifest", str(manifest)) == 0
    header, *origins = records(manifest)
    version, compiled, _ = registry_version()
    assert header["record"] == "header" and header["library"] == "robotsrules"
    assert (header["registry_version"], header["registry_compiled"]) == (version, compiled)
    # the reading of the IETF categories is recorded: -07, since -08 was not read (issue 35 §2)
    assert (header["aipref_revision"], header["aipref_revision_date"]) == (
        "draft-ietf-aipref-vocab-07", "2026-08-19")
    # The vocabularies read, with the purpose-group draft's revision (issue 35 §1).
    assert header["vocabularies"]["aipref"] == "draft-ietf-aipref-vocab-07"
    assert header["vocabularies"]["purpose_groups"] == (
        "draft-kelley-aipref-training-preference-signal-00")
    assert header["vocabularies"]["purpose_groups_read"] == "abstract"
    assert header["vocabularies"]["purpose_groups_tokens"] == "none"
    assert header["agents"] == ["GPTBot", "CCBot"] and header["purposes"] == ["ai-train"]
    assert header["protocols"] == ["robots.txt", "content-signal", "content-usage"]
    assert header["null_fields"] == {"robots": "1 origins have no robots.txt in the input "
                                               "(their verdicts are unknown, or --missing "
                                               "decided)"}
    by_origin = {r["origin"]: r for r in origins}
    assert list(by_origin) == ["https://a.example", "https://b.example", "https://c.example"]
    a = by_origin["https://a.example"]
    assert a["robots"] == {"sha256": hashlib.sha256(A_BODY).hexdigest(), "bytes": len(A_BODY),
                           "fetched_at": "2026-05-01T10:00:00+00:00", "status": 200,
                           "outcome": "ok"}
    assert a["verdicts"] == 6
    assert a["refusals"] == [
        {"agent": "CCBot", "line": 2, "rule": "Disallow: /private", "reason": "longest-match",
         "urls": 2},
        {"agent": "GPTBot", "line": 5, "rule": "Disallow: /", "reason": "longest-match",
         "urls": 3},
    ]
    b = by_origin["https://b.example"]
    assert b["robots"]["outcome"] == "unreachable" and b["robots"]["sha256"] is None
    assert [(r["line"], r["rule"], r["reason"]) for r in b["refusals"]] == [
        (None, None, "disallow-all")] * 2
    assert by_origin["https://c.example"]["robots"] is None


def test_a_table_without_dates_or_statuses_says_so(tmp_path: Path) -> None:
    (tmp_path / "robots.csv").write_text('url,body\nhttps://a.example/,"User-agent: *\n'
                                         'Disallow: /x\n"\n')
    (tmp_path / "urls.txt").write_text("https://a.example/x\n")
    manifest = tmp_path / "m.jsonl"
    assert run("bulk", "--robots", str(tmp_path / "robots.csv"), "--urls",
               str(tmp_path / "urls.txt"), "--agent", "Bot", "--out",
               str(tmp_path / "v.csv"), "--manifest", str(manifest), "--any-agent") == 0
    header, origin = records(manifest)
    assert set(header["null_fields"]) == {"robots.fetched_at", "robots.status"}
    assert origin["robots"]["fetched_at"] is None and origin["robots"]["status"] is None
    assert origin["refusals"][0]["rule"] == "Disallow: /x"


def test_manifest_refused_where_it_cannot_say_which_capture(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    (tmp_path / "robots.csv").write_text("url,body\nhttps://a.example/,x\n")
    (tmp_path / "urls.csv").write_text("url,date\nhttps://a.example/x,2026-01-01\n")
    assert run("bulk", "--robots", str(tmp_path / "robots.csv"), "--urls",
               str(tmp_path / "urls.csv"), "--agent", "Bot", "--as-of", "date", "--out",
               str(tmp_path / "v.csv"), "--manifest", str(tmp_path / "m.jsonl")) == 2
    assert "--manifest is not available with --as-of" in capsys.readouterr().err
    assert not (tmp_path / "m.jsonl").exists()


def test_the_header_is_written_even_without_origins(tmp_path: Path) -> None:
    manifest = Manifest(mode="rfc", agents=["Bot"], has_dates=False)
    assert manifest.write(str(tmp_path / "m.jsonl"),
                          datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)) == 0
    (header,) = records(tmp_path / "m.jsonl")
    assert header["created"] == "2026-01-01T00:00:00+00:00" and header["reading_mode"] == "rfc"
    assert "robots.fetched_at" in header["null_fields"]


def test_datatrove_filter_writes_a_manifest_per_task(tmp_path: Path) -> None:
    pytest.importorskip("datatrove", reason="needs the 'datatrove' extra")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import JsonlReader

    from robotsrules.datatrove import RobotsFilter

    docs = tmp_path / "docs"
    docs.mkdir()
    with gzip.open(docs / "part.jsonl.gz", "wt", encoding="utf-8") as handle:
        for number, url in enumerate(["https://a.example/private/1", "https://a.example/ok",
                                      "https://z.example/"]):
            handle.write(json.dumps({"id": str(number), "text": "t", "url": url}) + "\n")
    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"], "body": [A_BODY]}),
                   tmp_path / "robots.parquet")
    folder = tmp_path / "evidence"
    step = RobotsFilter(str(tmp_path / "robots.parquet"), ["GPTBot"], manifest=str(folder))
    LocalPipelineExecutor(pipeline=[JsonlReader(str(docs)), step], tasks=1, workers=1,
                          logging_dir=str(tmp_path / "logs")).run()
    header, a, z = records(folder / "manifest-00000.jsonl")
    assert header["producer"] == "robotsrules.datatrove.RobotsFilter"
    assert "robots.fetched_at" in header["null_fields"]  # the table has no date column
    assert a["origin"] == "https://a.example" and a["verdicts"] == 2
    assert a["robots"]["sha256"] == hashlib.sha256(A_BODY).hexdigest()
    assert a["refusals"] == [{"agent": "GPTBot", "line": 5, "rule": "Disallow: /",
                              "reason": "longest-match", "urls": 2}]
    assert z["robots"] is None and z["verdicts"] == 1


# -- page signals (manifest version 2) --------------------------------------------------------

PAGE_ROBOTS = (b"User-agent: *\nDisallow: /private\n"
               b"Content-Signal: search=yes, ai-train=no\n")


def _page_warc(path: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.warcwriter import WARCWriter

    responses = [
        ("https://a.example/p1", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                 b"Robots-Tag: GPTBot;noindex\r\n"
                                 b"Link: </l.xml>; rel=license; type=application/rsl+xml\r\n"
                                 b"\r\n<html><head><meta name=robots content=noai></head>"),
        ("https://a.example/p2", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
                                 b"<html><head><meta name=robots content=noai></head>"),
        ("https://a.example/paid", b"HTTP/1.1 402 Payment Required\r\n"
                                   b"crawler-price: USD 0.01\r\n\r\n"),
        # Priced by its status alone; and a 200 that names a price, which is not asked.
        ("https://a.example/bare402", b"HTTP/1.1 402 Payment Required\r\n\r\n"),
        ("https://a.example/named", b"HTTP/1.1 200 OK\r\ncrawler-price: USD 1\r\n\r\n"),
        ("https://a.example/named2", b"HTTP/1.1 200 OK\r\ncrawler-price: USD 2\r\n\r\n"),
        ("https://a.example/private/x", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                        b"\r\n<html>"),
        ("https://b.example/", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                               b"X-Robots-Tag: noai\r\n\r\n<html>"),
    ]
    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, raw in responses:
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(raw),
                warc_headers_dict={"WARC-Date": "2026-01-01T00:00:00Z"}))


def test_bulk_pages_manifest_records_page_refusals_and_their_directives(tmp_path: Path
                                                                        ) -> None:
    _page_warc(tmp_path / "pages.warc.gz")
    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"], "body": [PAGE_ROBOTS],
                             "status": [200]}), tmp_path / "robots.parquet")
    manifest = tmp_path / "evidence.jsonl"
    assert run("bulk", "--pages-warc", str(tmp_path / "pages.warc.gz"), "--robots",
               str(tmp_path / "robots.parquet"), "--agent", "GPTBot", "--purpose", "ai-train",
               "--purpose", "search", "--out", str(tmp_path / "pages.parquet"),
               "--manifest", str(manifest)) == 0
    header, a, b = records(manifest)
    assert header["manifest_version"] == 2
    assert header["protocols"] == ["robots.txt", "content-signal", "content-usage",
                                   "x-robots-tag", "robots-tag", "robots-meta", "tdmrep",
                                   "rsl", "pay-per-crawl"]
    assert "1 page WARC file(s)" in header["source"]
    assert a["origin"] == "https://a.example" and a["pages"] == 7 and a["verdicts"] == 7
    assert a["robots"]["sha256"] == hashlib.sha256(PAGE_ROBOTS).hexdigest()
    # The page fetched although robots.txt disallows it: a refusal with its line.
    assert a["refusals"] == [{"agent": "GPTBot", "line": 2, "rule": "Disallow: /private",
                              "reason": "longest-match", "urls": 1}]
    refusals = {(r["purpose"], r["level"], r["rule"]): r for r in a["page_refusals"]}
    assert set(refusals) == {  # search=yes in robots.txt allows: never a refusal
        ("ai-train", "page", "noai"),
        ("ai-train", "robots.txt", "Content-Signal: search=yes, ai-train=no"),
        ("search", "page", "noindex"),
        # Issue 33: the page robots.txt does not allow GPTBot to fetch refuses every
        # purpose at the robots.txt level (no usage line: its Disallow line is in
        # "refusals" above).
        ("ai-train", "robots.txt", None), ("search", "robots.txt", None)}
    noai = refusals[("ai-train", "page", "noai")]
    assert (noai["source"], noai["field"], noai["urls"], noai["first_url"]) == (
        "meta", "robots", 2, "https://a.example/p1")
    site = refusals[("ai-train", "robots.txt", "Content-Signal: search=yes, ai-train=no")]
    assert site["line"] == 3 and site["first_url"] == "https://a.example/paid"
    noindex = refusals[("search", "page", "noindex")]
    assert (noindex["source"], noindex["field"]) == ("header", "Robots-Tag")
    assert "Robots-Tag" in noindex["reason"]
    assert site["urls"] == 4  # /paid, /bare402, /named, /named2
    assert a["priced"] == 2 and a["license_urls"] == ["https://a.example/l.xml"]
    assert b["robots"] is None and b["pages"] == 1 and b["verdicts"] == 0
    assert b["page_refusals"][0]["rule"] == "noai" and b["priced"] == 0


def test_bulk_pages_manifest_without_a_robots_table(tmp_path: Path) -> None:
    _page_warc(tmp_path / "pages.warc.gz")
    manifest = tmp_path / "m.jsonl"
    assert run("bulk", "--pages-warc", str(tmp_path / "pages.warc.gz"), "--agent", "GPTBot",
               "--purpose", "ai-train", "--out", str(tmp_path / "p.parquet"),
               "--manifest", str(manifest)) == 0
    header, a, _ = records(manifest)
    assert "robots.txt" not in header["protocols"] and header["null_fields"]["robots"]
    assert a["robots"] is None and a["refusals"] == [] and a["pages"] == 7


def test_bulk_pages_manifest_needs_the_duckdb_engine(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    _page_warc(tmp_path / "pages.warc.gz")
    assert run("bulk", "--pages-warc", str(tmp_path / "pages.warc.gz"), "--agent", "GPTBot",
               "--engine", "spark", "--out", str(tmp_path / "p.parquet"),
               "--manifest", str(tmp_path / "m.jsonl")) == 2
    assert "--manifest with --pages-warc needs --engine duckdb" in capsys.readouterr().err


def test_version_1_records_stay_valid() -> None:
    # A record written before the page fields existed (manifest version 1).
    jsonschema.validate({
        "record": "header", "manifest_version": 1, "library": "robotsrules",
        "library_version": "0.1.0", "registry_version": 3, "registry_compiled": "2026-11-25",
        "reading_mode": "google", "created": "2026-11-01T00:00:00+00:00",
        "producer": "robotsrules bulk", "source": "r.parquet", "agents": ["GPTBot"],
        "purposes": [], "protocols": ["robots.txt"], "null_fields": {}, "notes": []}, SCHEMA)
    jsonschema.validate({
        "record": "origin", "origin": "https://a.example", "robots": None,
        "reading_mode": "google", "protocols": ["robots.txt"], "verdicts": 1,
        "refusals": []}, SCHEMA)
    with pytest.raises(jsonschema.ValidationError):  # a page field must be well-formed
        jsonschema.validate({
            "record": "origin", "origin": "https://a.example", "robots": None,
            "reading_mode": "google", "protocols": [], "verdicts": 0, "refusals": [],
            "pages": 1, "page_refusals": [{"agent": "x"}]}, SCHEMA)


def test_datatrove_page_filter_writes_a_manifest_per_task(tmp_path: Path) -> None:
    pytest.importorskip("datatrove", reason="needs the 'datatrove' extra")
    from datatrove.executor import LocalPipelineExecutor

    from robotsrules.datatrove import PageSignalsFilter, RobotsFilter, WarcHeadersReader

    (tmp_path / "pages").mkdir()
    _page_warc(tmp_path / "pages" / "pages.warc.gz")
    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"], "body": [PAGE_ROBOTS]}),
                   tmp_path / "robots.parquet")
    site = RobotsFilter(str(tmp_path / "robots.parquet"), ["GPTBot"], action="mark")
    folder = tmp_path / "evidence"
    step = PageSignalsFilter(["GPTBot"], purposes=["ai-train"], robots=site,
                             manifest=str(folder))
    LocalPipelineExecutor(pipeline=[WarcHeadersReader(str(tmp_path / "pages")), site, step],
                          tasks=1, workers=1, logging_dir=str(tmp_path / "logs")).run()
    header, a, b = records(folder / "manifest-pages-00000.jsonl")
    assert header["producer"] == "robotsrules.datatrove.PageSignalsFilter"
    assert header["purposes"] == ["ai-train"] and "robots-tag" in header["protocols"]
    # The HTML responses (the 402 is text, so no document): p1, p2, private/x; b's page.
    assert a["pages"] == 3 and a["license_urls"] == ["https://a.example/l.xml"]
    # p1 and p2 refuse by their meta (the page decides when both say no); /private/x may
    # not be crawled, so no usage line applies to it (the attach draft), and it is refused
    # at the robots.txt level for every purpose (issue 33), with no usage line to name.
    assert {(r["level"], r["rule"], r["urls"]) for r in a["page_refusals"]} == {
        ("page", "noai", 2), ("robots.txt", None, 1)}
    assert a["robots"]["sha256"] == hashlib.sha256(PAGE_ROBOTS).hexdigest()
    assert b["robots"] is None and b["page_refusals"][0]["field"] == "X-Robots-Tag"
