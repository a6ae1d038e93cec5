"""Usage-preference columns in bulk: robotsrules.bulk, DuckDB (job and robots_usage), the CLI's
--purpose, and Spark; every answer equals robots.usage(url, agent).allows(purpose)."""

from __future__ import annotations

from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

import robotsrules  # noqa: E402
from robotsrules import InvalidPurpose, bulk  # noqa: E402
from robotsrules import duckdb as embedded  # noqa: E402
from robotsrules.bulk import _bodies, _judge, _rows  # noqa: E402
from robotsrules.cli import main  # noqa: E402

BODY_A = (b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private\n"
          b"Content-Usage: /open/ train-ai=y\n\nUser-agent: GPTBot\nDisallow: /\n")
BODY_B = b"User-agent: *\nDisallow: /x\n"
ROBOTS = pa.table({
    "url": ["https://a.example/robots.txt", "https://b.example/robots.txt",
            "https://c.example/robots.txt"],
    "body": [BODY_A, BODY_B, BODY_A],
    "status": [200, 200, 503],
})
URLS = pa.table({"url": ["https://a.example/", "https://a.example/open/x",
                         "https://a.example/private/y", "https://b.example/p",
                         "https://c.example/", "https://nobody.example/", "mailto:x@y"]})
AGENTS = ["ExampleBot", "GPTBot"]
PURPOSES = ["ai-train", "search", "ai-input", "train-ai"]
COLUMNS = ["ai_train", "search", "ai_input", "train_ai"]


def _expected() -> list[Any]:
    bodies = {"https://a.example": (BODY_A, 200), "https://b.example": (BODY_B, 200),
              "https://c.example": (BODY_A, 503)}
    rows = []
    for url in URLS.column("url").to_pylist():
        for agent in AGENTS:
            origin = _rows.fast_origin(url)
            found = bodies.get(origin) if origin else None
            if found is None:
                rows.append([None] * len(PURPOSES))
                continue
            usage = _rows.robots_for(found[0], found[1]).usage(url, agent=agent)
            rows.append([usage.allows(p) for p in PURPOSES])  # type: ignore[arg-type]
    return rows


def _answers(table: Any) -> list[Any]:
    data = table.to_pydict()
    return [list(row) for row in zip(*(data[c] for c in COLUMNS))]


def test_expected_answers_are_not_trivial() -> None:
    flat = [v for row in _expected() for v in row]
    assert True in flat and False in flat and None in flat


def test_core_columns_equal_the_plain_api() -> None:
    table = pa.Table.from_batches(list(bulk.verdicts(ROBOTS, URLS, AGENTS, purposes=PURPOSES)))
    assert table.schema.names[6:] == COLUMNS
    assert _answers(table) == _expected()
    plain = pa.Table.from_batches(list(bulk.verdicts(ROBOTS, URLS, AGENTS)))
    assert table.select(plain.schema.names).equals(plain)  # verdict columns unchanged
    with pytest.raises(InvalidPurpose):
        list(bulk.verdicts(ROBOTS, URLS, AGENTS, purposes=["ai_train"]))


def test_judge_sorted_columns() -> None:
    rows = []
    for url, body, status in zip(*(ROBOTS.column(c).to_pylist() for c in ("url", "body",
                                                                            "status"))):
        rows.append({"origin": _rows.fast_origin(url), "kind": 0, "url": url, "body": body,
                     "status": status})
    for url in URLS.column("url").to_pylist():
        rows.append({"origin": _rows.fast_origin(url), "kind": 1, "url": url, "body": None,
                     "status": None})
    rows.sort(key=lambda r: (r["origin"] is not None, r["origin"] or "", r["kind"]))
    stream = pa.Table.from_pylist(rows, schema=pa.schema([
        ("origin", pa.string()), ("kind", pa.int8()), ("url", pa.string()),
        ("body", pa.binary()), ("status", pa.int32())]))
    table = pa.Table.from_batches(list(_judge.judge_sorted(stream.to_batches(), AGENTS,
                                                         purposes=PURPOSES)))
    by_key = {(r["url"], r["agent"]): [r[c] for c in COLUMNS] for r in table.to_pylist()}
    expected = iter(_expected())
    for url in URLS.column("url").to_pylist():
        for agent in AGENTS:
            assert by_key[(url, agent)] == next(expected), (url, agent)


def test_duckdb_job_and_sql_function() -> None:
    reader = embedded.verdicts(ROBOTS, URLS, AGENTS, purposes=PURPOSES)
    table = reader.read_all()
    assert _answers(table) == _expected()
    con = embedded.register(duckdb.connect())
    got = con.execute(
        "SELECT robots_usage(?, '/open/x', 'ExampleBot', 'train-ai'), "
        "robots_usage(?, '/', 'ExampleBot', 'search'), "
        "robots_usage(?, '/', 'GPTBot', 'search'), "
        "robots_usage(NULL, '/', 'a', 'search')",
        [BODY_A, BODY_A, BODY_A]).fetchone()
    assert got == (False, True, None, None)
    with pytest.raises(duckdb.Error, match="unknown purpose"):
        con.execute("SELECT robots_usage(?, '/', 'a', 'ai_train')", [BODY_A]).fetchone()


def test_cli_purpose_columns(tmp_path: Any, capsys: Any) -> None:
    pq.write_table(ROBOTS, tmp_path / "robots.parquet")
    pq.write_table(URLS, tmp_path / "urls.parquet")
    out = tmp_path / "v.parquet"
    args = ["bulk", "--robots", str(tmp_path / "robots.parquet"), "--urls",
            str(tmp_path / "urls.parquet"), "--out", str(out)]
    for agent in AGENTS:
        args += ["--agent", agent]
    for purpose in PURPOSES:
        args += ["--purpose", purpose]
    assert main(args) == 0
    assert _answers(pq.read_table(out)) == _expected()
    assert main([*args, "--purpose", "ai_train"]) == 2
    assert "unknown purpose 'ai_train'" in capsys.readouterr().err


def test_body_cache_usage_rows() -> None:
    cache = _bodies.BodyCache()
    got = cache.usage([BODY_A, BODY_A, None], ["/", "/private/x", "/"],
                      ["a", "a", "a"], ["ai-train", "ai-train", "ai-train"])
    assert got == [False, None, None]
    assert robotsrules.parse(BODY_A).usage("/", agent="a").allows("ai-train") is False


def test_report_shares_of_stated_preferences(tmp_path: Any, capsys: Any) -> None:
    from robotsrules._report import audit, to_json

    table = pa.Table.from_batches(list(bulk.verdicts(ROBOTS, URLS, AGENTS, purposes=PURPOSES)))
    result = audit(table)
    by_agent = {s.agent: s for s in result.agents}
    # a.example states ai-train=no to ExampleBot; b.example states nothing; c.example is
    # unreachable (503: everything disallowed, nothing applies); nobody.example has no row.
    assert by_agent["ExampleBot"].sites == 3
    assert by_agent["ExampleBot"].preferences["ai_train"] == {"no": 1, "yes": 0}
    assert by_agent["ExampleBot"].preferences["search"] == {"no": 0, "yes": 1}
    assert by_agent["GPTBot"].preferences["ai_train"] == {"no": 0, "yes": 0}
    assert to_json(result)["agents"][0]["preferences"]["ai_input"] == {"no": 0, "yes": 0}
    path = tmp_path / "v.parquet"
    pq.write_table(table, path)
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    assert "usage preferences stated" in text and "ai_train" in text
    plain = pa.Table.from_batches(list(bulk.verdicts(ROBOTS, URLS, AGENTS)))
    assert all(s.preferences == {} for s in audit(plain).agents)
