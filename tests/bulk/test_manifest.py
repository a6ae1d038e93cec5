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
from typing import Any, Dict, List

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


def records(path: Path) -> List[Dict[str, Any]]:
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
