"""The job's fast paths (issue 37, "Fast and at scale") give the answers of the slow ones:
each row's verification is what ``verify`` says of its address and token (the offline
verdicts are remembered by the lists that hold an address), and the browsers' lines the
reader lets go unread are still counted."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from robotsrules import audit_logs
from robotsrules._identity import verify

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GPTBOT = "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120"
# Google's published addresses and others, each claimed by each crawler: a new address in
# the lists of one seen before is answered from memory, one in other lists is not
ADDRESSES = ["66.249.66.1", "66.249.66.2", "192.0.2.1", "192.0.2.2", "66.249.66.3",
             "2001:db8::1", "[2001:db8::2]", "not-an-address", "fe80::1%eth0"]


def test_each_rows_verification_is_verifys(tmp_path: Path) -> None:
    lines = [f'{address} - - [02/Nov/2026:10:{n:02d}:00 +0000] "GET /p/{n} HTTP/1.1" 200 1 '
             f'"-" "{agent}"\n'
             for n, (address, agent) in enumerate(
                 (a, g) for g in (GOOGLEBOT, GPTBOT, BROWSER) for a in ADDRESSES)]
    log = tmp_path / "access.log"
    log.write_text("".join(lines), encoding="utf-8")
    with audit_logs(log, site="https://example.com", robots=b"User-agent: *\nAllow: /\n",
                    directory=tmp_path) as audit:
        rows = audit.table().to_pylist()
        totals = audit.summary["totals"]
    assert len(rows) == 2 * len(ADDRESSES)
    for row in rows:
        bare = row["client"].strip("[]")
        try:
            expected = verify(bare, agent=row["token"], dns=False).verdict
        except ValueError:
            expected = "unknown"
        assert row["verification"] == expected, row
    assert {row["verification"] for row in rows} >= {"verified", "not-verified", "unknown"}
    assert totals["other_requests"] == len(ADDRESSES)  # the browser's lines, let go unread


def test_duckdb_is_bounded_in_memory_and_spills_beside_the_table(tmp_path: Path) -> None:
    from robotsrules._audit._summary import _connect

    with _connect(str(tmp_path / "requests.parquet")) as con:
        limit, threads, spill = con.execute(
            "SELECT current_setting('memory_limit'), current_setting('threads'), "
            "current_setting('temp_directory')").fetchone()
    assert limit in ("244.1 MiB", "256.0 MB", "256MB"), limit  # not 80 % of the machine
    assert threads == 1 and spill == str(tmp_path / "duckdb.tmp")
