"""``robotsrules bulk --out`` (issue 13, finding 17): the temporary file is created safely in
the destination's directory, the destination is checked before any work, and no temporary
file is left behind by a failed run. Signals are in ``test_bulk_signals.py``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

from robotsrules.cli import main  # noqa: E402

ROBOTS = b"User-agent: *\nDisallow: /private\n"


@pytest.fixture()
def inputs(tmp_path: Path) -> Path:
    pq.write_table(pa.table({"url": ["https://a.example/robots.txt"], "body": [ROBOTS]}),
                   tmp_path / "robots.parquet")
    (tmp_path / "urls.txt").write_text("https://a.example/private\nhttps://a.example/open\n")
    return tmp_path


def _run(inputs: Path, out: str, *extra: str) -> int:
    return main(["bulk", "--robots", str(inputs / "robots.parquet"), "--urls",
                 str(inputs / "urls.txt"), "--agent", "GPTBot", "--out", out, *extra])


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if "partial" in name)


def test_a_partial_symlink_is_never_followed(inputs: Path, capsys: Any) -> None:
    victim = inputs / "victim.txt"
    victim.write_bytes(b"precious\n")
    out = inputs / "v.parquet"
    os.symlink(victim, str(out) + ".partial")  # the name the old code wrote through
    assert _run(inputs, str(out)) == 0, capsys.readouterr().err
    assert victim.read_bytes() == b"precious\n"
    assert [r["allowed"] for r in pq.read_table(out).to_pylist()] == [False, True]
    assert os.path.islink(str(out) + ".partial")  # not ours: left alone
    assert _leftovers(inputs) == ["v.parquet.partial"]


def test_out_names_a_symlink_the_link_is_replaced_not_written_through(inputs: Path) -> None:
    victim = inputs / "victim.parquet"
    victim.write_bytes(b"precious\n")
    out = inputs / "v.parquet"
    os.symlink(victim, out)
    assert _run(inputs, str(out)) == 0
    assert victim.read_bytes() == b"precious\n"
    assert not os.path.islink(out) and pq.read_table(out).num_rows == 2


@pytest.mark.parametrize("kind", ["directory", "missing parent", "fifo"])
def test_a_bad_destination_fails_first_with_one_line(inputs: Path, capsys: Any,
                                                     kind: str) -> None:
    if kind == "directory":
        out, message = inputs / "results", "is a directory"
        out.mkdir()
    elif kind == "missing parent":
        out, message = inputs / "nowhere" / "v.parquet", "no such directory"
    else:  # not a regular file (a FIFO here: never a real device, which root could clobber)
        out, message = inputs / "pipe", "not a regular file"
        os.mkfifo(out)
    before = sorted(os.listdir(inputs))
    assert _run(inputs, str(out), "--format", "parquet") == 2
    err = capsys.readouterr().err
    assert err.startswith("robotsrules: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(os.listdir(inputs)) == before  # no DIR.partial, nothing at all
    if kind == "fifo":
        assert not os.path.isfile(out)


def test_an_unwritable_directory_fails_first(inputs: Path, capsys: Any) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    locked = inputs / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert _run(inputs, str(locked / "v.parquet")) == 2
    finally:
        locked.chmod(0o755)
    err = capsys.readouterr().err
    assert "cannot write there" in err and "Traceback" not in err


def test_a_failed_run_leaves_no_temporary_file(inputs: Path, capsys: Any) -> None:
    (inputs / "urls.parquet").write_bytes(b"PAR1 this is not parquet")
    out = inputs / "v.parquet"
    code = main(["bulk", "--robots", str(inputs / "robots.parquet"), "--urls",
                 str(inputs / "urls.parquet"), "--agent", "GPTBot", "--out", str(out)])
    assert code == 2
    assert "Traceback" not in capsys.readouterr().err
    assert not out.exists() and _leftovers(inputs) == []


def test_output_mode_follows_the_umask(inputs: Path) -> None:
    old = os.umask(0o027)
    try:
        out = inputs / "v.csv"
        assert _run(inputs, str(out)) == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o640  # not mkstemp's 0600
    assert out.read_text().splitlines()[0].startswith('"url"')
    assert _leftovers(inputs) == []


def test_parquet_output_records_the_data_versions(inputs: Path) -> None:
    from robotsrules._tables._crawlers import registry_info

    out = inputs / "v.parquet"
    assert _run(inputs, str(out)) == 0
    metadata = pq.read_schema(out).metadata
    info = registry_info()
    assert metadata[b"robotsrules.crawler_registry_version"] == info["version"].encode()
    assert metadata[b"robotsrules.crawler_registry_compiled"] == info["compiled"].encode()
    assert metadata[b"robotsrules.aipref_revision"] == b"draft-ietf-aipref-vocab-07"
    assert b"robotsrules.version" in metadata and b"robotsrules.extensions_version" in metadata
    assert [r["allowed"] for r in pq.read_table(out).to_pylist()] == [False, True]


def test_the_writer_adds_the_data_versions_to_any_schema(inputs: Path) -> None:
    """Every Parquet file the command line writes says what judged it, even one whose schema
    was built without the metadata (the writer adds it, whatever table it is handed)."""
    import pyarrow as pa

    from robotsrules.cli import _writer

    out = inputs / "bare.parquet"
    schema = pa.schema([pa.field("url", pa.string()), pa.field("allowed", pa.bool_())])
    writer = _writer.Writer(str(out), "parquet", schema=schema)
    writer.write(pa.record_batch([["https://a.example/"], [True]], schema=schema))
    writer.close(True)
    metadata = pq.read_schema(out).metadata
    assert metadata is not None and b"robotsrules.crawler_registry_version" in metadata
    assert pq.read_table(out).to_pylist() == [{"url": "https://a.example/", "allowed": True}]


# Cells a spreadsheet may still read as a formula once leading blanks, controls or quotes are
# trimmed, or in full-width forms (an import that trims or folds them); a dictionary-encoded
# text column is text too. Each was written bare.
HIDDEN_FORMULAS = [" =1+1", "\n=1+1", "\u3000=1+1", "\ufeff=1+1", "\u00a0@SUM(1)", "\x0b-1",
                   '"=1+1', "\uff1d1+1", "\uff0b1", "\uff0d1", "\uff20SUM(1)", "\u200b=1"]


def _runs(cell: str) -> bool:
    """The test's own reading: the first character that is not blank, control, format or
    a double quote is a formula start (ASCII or full-width)."""
    import unicodedata

    kept = "".join(c for c in cell if not (unicodedata.category(c)[0] == "Z"
                                           or unicodedata.category(c) in ("Cc", "Cf")
                                           or c == '"'))
    return kept[:1] in set("=+-@\uff1d\uff0b\uff0d\uff20") and not cell.startswith("'")


def test_csv_cells_with_a_hidden_formula_start_are_escaped(tmp_path: Path) -> None:
    import csv

    import pyarrow as pa

    from robotsrules.cli import _writer

    out = tmp_path / "hidden.csv"
    cells = [*HIDDEN_FORMULAS, "https://a.example/ =x", "plain"]
    schema = pa.schema([pa.field("url", pa.string()), pa.field("agent", pa.dictionary(
        pa.int32(), pa.string())), pa.field("rule", pa.large_string()),
        pa.field("allowed", pa.bool_())])
    writer = _writer.Writer(str(out), "csv", schema=schema)
    writer.write(pa.record_batch([pa.array(cells), pa.array(cells).dictionary_encode().cast(
        schema.field("agent").type), pa.array(cells, pa.large_string()),
        pa.array([True] * len(cells))], schema=schema))
    writer.close(True)
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))[1:]
    assert not [cell for row in rows for cell in row[:3] if _runs(cell)], rows
    assert [row[0] for row in rows][-2:] == ["https://a.example/ =x", "plain"]
    assert all(row[0] == "'" + cell for row, cell in zip(rows, HIDDEN_FORMULAS))
