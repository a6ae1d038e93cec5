"""``robots_verify``, the visitor column function (issue 36 §4): the same rows as
:func:`robotsrules.verify` with DNS off, from DuckDB here (and from Spark in
``test_spark.py``, against these very rows)."""

from __future__ import annotations

from typing import Any, Optional

import pytest

pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

import pyarrow as pa  # noqa: E402

import robotsrules  # noqa: E402
from robotsrules import duckdb as embedded  # noqa: E402

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
VISITORS: list[tuple[Optional[str], Optional[str]]] = [
    ("66.249.66.1", GOOGLEBOT),          # in Google's list: verified
    ("66.249.66.1", "GPTBot/1.2"),       # Google's address, OpenAI's name: not verified
    ("192.0.2.1", GOOGLEBOT),            # documentation space: not verified
    ("::ffff:66.249.66.1", GOOGLEBOT),   # IPv4-mapped
    ("66.249.66.1", None),               # no claim: whose list?
    ("192.0.2.1", "FooBot/1.0"),         # not in the registry: unverifiable
    ("192.0.2.1", "YandexBot/3.0"),      # DNS only, and DNS is off: unknown
    ("not an address", GOOGLEBOT),       # a stranger's row: null
    ("fe80::1%eth0", GOOGLEBOT),         # a zone id: null
    (None, GOOGLEBOT),                   # null in, null out
    ("66.249.66.1", "\x1b]0;x\x07"),     # control characters: no crawler named
]
FIELDS = ("verdict", "token", "operator", "operator_only", "list", "prefix", "stale", "reason")


def expected() -> list[Optional[dict[str, Any]]]:
    rows: list[Optional[dict[str, Any]]] = []
    for address, header in VISITORS:
        try:
            answer = robotsrules.verify(address, header, dns=False)  # type: ignore[arg-type]
        except (robotsrules.InvalidArgument, TypeError):
            rows.append(None)
            continue
        held = answer.evidence[0]
        rows.append(dict(zip(FIELDS, (answer.verdict, answer.token, answer.operator,
                                      answer.operator_only, held.list, held.prefix,
                                      answer.stale, answer.reason))))
    return rows


def visitors_table() -> pa.Table:
    return pa.table({"n": list(range(len(VISITORS))), "address": [a for a, _ in VISITORS],
                     "ua": [u for _, u in VISITORS]})


def duckdb_rows() -> list[Optional[dict[str, Any]]]:
    connection = embedded.register(duckdb.connect())
    visitors = visitors_table()  # noqa: F841 - read by the query below
    got = connection.execute("SELECT robots_verify(address, ua) FROM visitors "
                             "ORDER BY n").fetchall()
    return [row[0] for row in got]


def test_duckdb_rows_equal_the_plain_api() -> None:
    rows = duckdb_rows()
    assert rows == expected()
    verdicts = [None if row is None else row["verdict"] for row in rows]
    assert verdicts == ["verified", "not-verified", "not-verified", "verified", "verified",
                        "unverifiable", "unknown", None, None, None, "unverifiable"]


def test_duckdb_many_rows_answered_once_each() -> None:
    connection = embedded.register(duckdb.connect())
    got = connection.execute(
        "SELECT count(*) FILTER (WHERE robots_verify(a, 'Googlebot/2.1').verdict = 'verified') "
        "FROM (SELECT '66.249.66.' || (i % 20) AS a FROM range(20000) t(i))").fetchone()
    assert got is not None and got[0] == 20000


def test_a_refreshed_snapshot_is_read_by_the_next_batch(tmp_path: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 36 review, finding 7: the column function follows verify()'s reload rule.
    import datetime
    import json

    from robotsrules._tables._addresses import (
        AddressIndex,
        AddressList,
        Snapshot,
        snapshot_document,
    )
    from robotsrules.bulk import _columns

    copy = tmp_path / "crawler-addresses.json"
    monkeypatch.setenv("ROBOTSRULES_ADDRESSES", str(copy))
    monkeypatch.setattr(_columns, "_VISITORS", [])
    now = datetime.datetime.now(datetime.timezone.utc)

    # As a refresh writes it: the catalogue's URL, operator and tokens, read a minute ago.
    now -= datetime.timedelta(minutes=1)

    def write(prefix: str) -> None:
        held = AddressList("openai-gptbot", "https://openai.com/gptbot.json", "OpenAI",
                           ("GPTBot",), now, None, None, True, "test", (prefix,))
        lists = Snapshot(AddressIndex([held]), (held,), (), "file", "test", now, 1)
        copy.write_text(json.dumps(snapshot_document(lists, now)), encoding="utf-8")

    connection = embedded.register(duckdb.connect())
    query = "SELECT robots_verify('11.22.33.7', 'GPTBot/1.2').verdict"
    write("11.22.33.0/28")
    assert connection.execute(query).fetchone() == ("verified",)
    write("11.22.33.128/25")
    assert connection.execute(query).fetchone() == ("not-verified",)
