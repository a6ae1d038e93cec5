"""The output file of ``robotsrules bulk``, ``stance --out`` and ``logs --out``: the format
from the name (``logs`` also writes JSON and JSON Lines),
the verdict schema, and :class:`Writer`, which writes batches to a temporary file beside
``--out`` (created with ``O_EXCL`` by :func:`tempfile.mkstemp`, so a pre-existing file or
symlink named like it is never followed) and renames it into place only when the job
finished and no stop signal came (:func:`settle`); the file's mode follows the umask, not
``mkstemp``'s 0600. See ``docs/explanations/bulk-safety.md``.

It is the one home of CSV output: every command that writes CSV writes it here, and
:func:`formula_safe` is applied to every batch of a CSV file (a text cell a spreadsheet
would run as a formula is written after a ``'``; the rule is documented once, in
``docs/reference/cli.md``, "CSV files"). JSON and Parquet keep every text as read.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
import tempfile
from typing import Any, Callable, Optional

from ..errors import RobotsError
from ._interrupt import JobStop

__all__ = ["FORMULA_START", "Writer", "formula_safe", "out_format", "settle", "umask",
           "verdict_table_schema"]

FORMULA_START = "=+-@\t\r\x00"
"""The first characters that make a spreadsheet read a CSV cell as a formula (OWASP's
"CSV injection" list: ``=``, ``+``, ``-``, ``@``, tab, CR; NUL, which some readers drop
before looking): a text cell starting with one is written after a ``'``; so is one where
``=``, ``+``, ``-``, ``@`` or their full-width forms (U+FF1D and the others) come after
blanks, control or format characters or double quotes only (an import may trim or fold
those)."""
_FORMULA = ("^(?:[\\t\\r\\x00]|[\\p{Z}\\p{Cc}\\p{Cf}\"]*"
            "[=+\\-@\\x{ff1d}\\x{ff0b}\\x{ff0d}\\x{ff20}])")
"""The cells :func:`formula_safe` escapes, as RE2 text (Arrow's regular expressions)."""


def out_format(args: argparse.Namespace) -> str:
    """``--format``, else the format the ``--out`` name ends with."""
    if args.format:
        return str(args.format)
    name = args.out.lower()
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith(".csv"):
        return "csv"
    raise RobotsError(f"{args.out}: cannot tell the output format; name it .parquet or .csv, "
                      "or pass --format")


def umask() -> int:
    """The process umask, read without changing it."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text(path: str, text: str) -> None:
    """``text`` to ``path`` (UTF-8, LF line ends), written beside it and renamed: never half
    a file (``generate --out``, ``logs --report``). A symbolic
    link is followed (the file it names is replaced, the link kept); the file keeps the old
    file's mode, and a new one gets 0666 less the umask (a web server running as another
    user must still read it: RFC 9309 §2.3.1.3 reads a 4xx answer as "allow all")."""
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~umask()
    handle, temporary = tempfile.mkstemp(prefix=".robotsrules-", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            os.fchmod(out.fileno(), mode)
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def settle(stop: JobStop, writer: Writer, close: Callable[[], None], ok: bool) -> bool:
    """The end of a job that writes ``--out``, finished or not: release the engine, then
    rename the output into place when the job finished and no stop signal came, else remove
    it. True when renamed. The caller raises :class:`_Interrupted` when it was not (and no
    other exception is on its way)."""
    try:
        close()
    finally:
        stop.interrupt = None
        with stop.lock:  # a hard stop never removes a renamed file, nor races a rename
            renamed = ok and stop.signum is None
            writer.close(renamed)
            stop.partial = None
            if renamed:
                stop.settled()  # a signal from now on does not undo the run
    return renamed


class Writer:
    """Verdict (or page-signal) batches to a Parquet or CSV file: written to a new temporary
    file beside it (``O_EXCL``, a random name), then renamed; no half file under the final
    name when a run fails or is interrupted. Created before any work, so a bad ``--out``
    fails at once."""

    def __init__(self, path: str, form: str, purposes: Any = (), schema: Any = None) -> None:
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        from ..bulk import with_provenance

        schema = verdict_table_schema(purposes) if schema is None else schema
        self._any = "disallowed" in schema.names  # an any-agent table: one row per URL
        self._pages = "index" in schema.names  # a page-signal table: counts index yes/no
        self._kinds = "kind" in schema.names  # a stance table: one row per site and agent
        self._csv = form == "csv"
        self._csv_lists = [i for i, f in enumerate(schema) if form == "csv"
                           and isinstance(f.type, pa.ListType)]
        if self._csv_lists:  # CSV has no lists: such columns are written as JSON text
            schema = pa.schema([pa.field(f.name, pa.string()) if i in self._csv_lists else f
                                for i, f in enumerate(schema)])
        self.verdict_table_schema = schema
        self.path = path
        if os.path.isdir(path):
            raise RobotsError(f"{path}: is a directory; --out names the output file")
        if os.path.exists(path) and not os.path.isfile(path):
            raise RobotsError(f"{path}: not a regular file; --out names the output file")
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise RobotsError(f"{os.path.dirname(path) or directory}: no such directory")
        try:
            handle, self.partial = tempfile.mkstemp(
                prefix="." + os.path.basename(path) + ".", suffix=".partial", dir=directory)
        except OSError as error:
            raise RobotsError(f"{path}: cannot write there: {error.strerror or error}"
                              ) from None
        self.counts = {True: 0, False: 0, None: 0}
        self.kinds: dict[Optional[str], int] = {"all": 0, "some": 0, "none": 0, None: 0}
        """Rows per stance kind (a stance table)."""
        self._file: Any = None
        self._writer: Any = None
        try:
            os.fchmod(handle, 0o666 & ~umask())  # mkstemp's 0600 would stick to the output
            self._file = os.fdopen(handle, "wb")
            self._writer = (pq.ParquetWriter(self._file, with_provenance(schema),
                                             compression="zstd")
                            if form == "parquet" else _JsonRows(self._file, form)
                            if form in ("json", "jsonl") else pacsv.CSVWriter(self._file, schema))
        except BaseException:
            if self._file is None:
                os.close(handle)
            self.close(False)
            raise

    def write(self, batch: Any) -> None:
        import pyarrow.compute as pc

        written = batch
        if self._csv_lists:
            written = _json_lists(written, self._csv_lists, self.verdict_table_schema)
        self._writer.write_batch(formula_safe(written) if self._csv else written)
        if self._kinds:
            for kind in batch.column("kind").to_pylist():
                self.kinds[kind if kind in self.kinds else None] += 1
            return
        allowed = (pc.invert(batch.column("disallowed")) if self._any
                   else batch.column("index") if self._pages else batch.column("allowed"))
        yes = pc.sum(allowed.cast("int64")).as_py() or 0
        nulls = allowed.null_count
        self.counts[True] += yes
        self.counts[None] += nulls
        self.counts[False] += batch.num_rows - yes - nulls

    def close(self, ok: bool) -> None:
        """Finish the file and rename it to the final name (``ok``), or remove it."""
        try:
            if self._writer is not None:
                writer, self._writer = self._writer, None
                writer.close()
            if self._file is not None and not self._file.closed:
                self._file.flush()
                if ok:
                    os.fsync(self._file.fileno())
                self._file.close()
            if ok:
                try:
                    os.replace(self.partial, self.path)
                except OSError as error:
                    raise RobotsError(f"{self.path}: cannot write: "
                                      f"{error.strerror or error}") from None
                ok = False  # renamed: nothing left to remove
        finally:
            if not ok:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.partial)


class _JsonRows:
    """Rows as JSON Lines (``jsonl``) or one JSON array (``json``); times as ISO 8601."""

    def __init__(self, file: Any, form: str) -> None:
        self._file = file
        self._array = form == "json"
        self._first = True
        if self._array:
            file.write(b"[")

    def write_batch(self, batch: Any) -> None:
        for row in batch.to_pylist():
            text = json.dumps(row, default=_iso, ensure_ascii=True)
            if self._array:
                text = ("\n" if self._first else ",\n") + text
            else:
                text += "\n"
            self._first = False
            self._file.write(text.encode("ascii"))

    def close(self) -> None:
        if self._array:
            self._file.write(b"\n]\n" if not self._first else b"]\n")


def formula_safe(batch: Any) -> Any:
    """``batch`` with every text cell that starts with a character of
    :data:`FORMULA_START` written after a ``'`` (a stranger's URL, User-Agent or rule a
    spreadsheet would otherwise run as a formula); other cells unchanged."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def safe(column: Any) -> Any:
        if pa.types.is_dictionary(column.type):  # text too: its dictionary escaped
            return pa.DictionaryArray.from_arrays(column.indices, safe(column.dictionary))
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            return column
        quote, empty = pa.scalar("'", column.type), pa.scalar("", column.type)
        return pc.if_else(pc.match_substring_regex(column, _FORMULA),
                          pc.binary_join_element_wise(quote, column, empty), column)

    return pa.RecordBatch.from_arrays([safe(c) for c in batch.columns], schema=batch.schema)


def _iso(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    raise TypeError(f"not JSON: {type(value).__name__}")


def verdict_table_schema(purposes: Any = ()) -> Any:
    """The verdict table's Arrow schema with a column per purpose (repeats dropped)."""
    from ..bulk import verdict_schema

    return verdict_schema(tuple(dict.fromkeys(purposes)))


def _json_lists(batch: Any, positions: list[int], schema: Any) -> Any:
    """``batch`` with its list columns as JSON text (for CSV)."""
    import pyarrow as pa

    columns = list(batch.columns)
    for i in positions:
        columns[i] = pa.array([None if v is None else json.dumps(v, ensure_ascii=False)
                               for v in columns[i].to_pylist()], pa.string())
    return pa.RecordBatch.from_arrays(columns, schema=schema)
