"""Stances in bulk (issue 17): one row per site and agent, equal to ``RobotsTxt.stance``.

``robotsrules.bulk.stances``, DuckDB's job and ``robots_stance`` SQL function, and the
``robotsrules stance --robots ... --out`` command must all give, for every site and agent,
the stance the core gives for the file that governs the site (after the fetch policy has
turned a status into "allow all" or "disallow all").
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

import pytest

pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")

import pyarrow.parquet as pq  # noqa: E402

import robotsrules  # noqa: E402
from robotsrules import bulk  # noqa: E402
from robotsrules import duckdb as embedded  # noqa: E402
from robotsrules.cli import main  # noqa: E402
from robotsrules.errors import InvalidAgent, InvalidArgument  # noqa: E402
from robotsrules.policy import OK, UNAVAILABLE, outcome_for_status  # noqa: E402

AGENTS = ["GPTBot", "CCBot", "Googlebot", "QuuxCrawler", "ChatGPT-User"]


def _registry_data() -> dict[str, Any]:
    """The shipped crawler registry, read as data (not through robotsrules._tables._crawlers)."""
    from importlib import resources

    text = resources.files("robotsrules").joinpath("data/crawlers.json").read_text("utf-8")
    return dict(json.loads(text))


def _stoppable(agent: str) -> Optional[bool]:
    """The expected ``stoppable`` of an agent, from the registry's entries: the entry whose
    published name is the agent, else the first whose token is; its operator's word."""
    entries = _registry_data()["crawlers"]
    key = agent.lower()
    entry = next((e for e in entries if (e["name"] or e["token"] or "").lower() == key),
                 next((e for e in entries if (e["token"] or "").lower() == key), None))
    if entry is None:
        return None
    if entry["token"] is None or entry["trigger"] == "control-token":
        return False
    return {"yes": True, "no": False}.get(entry["robots_txt"]["obeys"])

# A hand-made robots table: every kind, every status branch, a site with two captures,
# rows that cannot be used, agents that share the '*' group.
HAND = [
    ("https://all.example/robots.txt", b"User-agent: *\nDisallow: /\n", 200, None),
    ("https://none.example/robots.txt", b"User-agent: *\nAllow: /\n", None, None),
    ("https://some.example/robots.txt",
     b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n"
     b"Allow: /private/ok$\n", 200, None),
    ("https://wild.example/robots.txt", b"User-agent: *\nDisallow: /*\nAllow: /$\n", 200, None),
    ("https://gone.example/robots.txt", b"User-agent: *\nDisallow: /\n", 404, None),
    ("https://down.example/robots.txt", b"", 503, None),
    ("https://busy.example/robots.txt", None, 429, None),
    ("https://empty.example/robots.txt", None, 200, None),
    ("https://moved.example/robots.txt", b"", 301, None),
    ("http://two.example/robots.txt", b"User-agent: *\nDisallow: /\n", 200, "2024-01-01"),
    ("http://two.example/robots.txt", b"User-agent: *\nDisallow: /old\n", 200, "2023-01-01"),
    ("not a url", b"User-agent: *\nDisallow: /\n", 200, None),
    ("https://bom.example/robots.txt",
     "\ufeffUser-agent: ccbot\nDisallow: /a*b$\nAllow: /a\n".encode(), 200, None),
]


def _table(rows: list[tuple[Any, ...]]) -> Any:
    import datetime

    return pa.table({
        "url": pa.array([r[0] for r in rows], pa.string()),
        "body": pa.array([r[1] for r in rows], pa.binary()),
        "status": pa.array([r[2] for r in rows], pa.int32()),
        "date": pa.array([None if r[3] is None else datetime.datetime.fromisoformat(r[3])
                          for r in rows], pa.timestamp("us")),
    })


def _core(body: Optional[bytes], status: Optional[int], agent: str) -> dict[str, Any]:
    """The expected row from the plain API: parse (or the policy's stand-in) + stance."""
    outcome = OK if status is None else outcome_for_status(status)
    if outcome == OK:
        robots = robotsrules.parse(body or b"")
        reason = "rules"
    elif outcome == UNAVAILABLE:
        robots, reason = robotsrules.RobotsTxt.allow_all(), "allow-all"
    else:
        robots, reason = robotsrules.RobotsTxt.disallow_all(), "disallow-all"
    stance = robots.stance(agent)
    return {"kind": stance.kind, "reason": reason, "scope": stance.scope,
            "lines": [] if reason != "rules" else [rule.line for rule in stance.lines],
            "disallowed": list(stance.disallowed), "allowed": list(stance.allowed),
            "complete": stance.complete, "stoppable": _stoppable(agent)}


def _expected(rows: list[tuple[Any, ...]], agents: list[str]) -> dict[tuple[str, str], Any]:
    """(site, agent) -> expected row; the governing row per origin as the index picks it."""
    index = bulk.RobotsIndex.from_arrow(_table(rows))
    out = {}
    for site in index.origins():
        body, status = index.get(site)  # type: ignore[misc]
        for agent in agents:
            out[(site, agent)] = _core(body, status, agent)
    return out


def _by_site(batches: Any) -> dict[tuple[str, str], Any]:
    found: dict[tuple[str, str], Any] = {}
    for batch in batches:
        assert batch.schema.equals(bulk.STANCE_SCHEMA)
        for row in batch.to_pylist():
            key = (row.pop("site"), row.pop("agent"))
            assert key not in found, key
            found[key] = row
    return found


def test_hand_made_table_equals_the_core_stance() -> None:
    found = _by_site(bulk.stances(_table(HAND), AGENTS, batch_size=5))
    assert found == _expected(HAND, AGENTS)
    # The cases spelled out, so that a wrong policy reading cannot hide in both sides.
    kinds = {site: found[(site, "CCBot")]["kind"] for site, _ in found}
    assert kinds["https://all.example"] == "all"
    assert kinds["https://none.example"] == "none"
    assert kinds["https://gone.example"] == "none"  # 4xx: unavailable, everything allowed
    assert kinds["https://down.example"] == kinds["https://busy.example"] == "all"
    assert kinds["https://moved.example"] == "none"
    assert kinds["https://empty.example"] == "none"
    assert kinds["http://two.example"] == "all"  # the newest capture governs
    assert kinds["https://wild.example"] == "some"  # "Allow: /$" keeps "/" itself
    assert found[("https://some.example", "GPTBot")]["kind"] == "all"
    assert found[("https://some.example", "CCBot")]["kind"] == "some"
    assert found[("https://some.example", "CCBot")]["lines"] == [5, 6]
    assert found[("https://down.example", "GPTBot")]["reason"] == "disallow-all"
    assert found[("https://down.example", "GPTBot")]["lines"] == []
    assert len({site for site, _ in found}) == 11  # "not a url" skipped, "two" once


def test_wild_site_is_some_for_the_root() -> None:
    """``Disallow: /*`` with ``Allow: /$``: only ``/`` is allowed, so the stance is some."""
    stance = robotsrules.parse(b"User-agent: *\nDisallow: /*\nAllow: /$\n").stance("x")
    assert stance.kind == "some" and stance.allowed == ("/",)


def test_host_key_and_index_input() -> None:
    rows = [("http://h.example/robots.txt", b"User-agent: *\nDisallow: /\n", 200, "2024-01-01"),
            ("https://h.example:8443/robots.txt", b"", 200, "2023-01-01")]
    by_host = _by_site(bulk.stances(_table(rows), ["GPTBot"], key="host"))
    assert list(by_host) == [("h.example", "GPTBot")]
    assert by_host[("h.example", "GPTBot")]["kind"] == "all"  # the newer capture wins
    index = bulk.RobotsIndex.from_arrow(_table(rows))
    assert len(_by_site(bulk.stances(index, ["GPTBot"]))) == 2


def test_caller_mistakes_raise() -> None:
    with pytest.raises(InvalidAgent):
        list(bulk.stances(_table(HAND), ["bad agent!"]))
    with pytest.raises(InvalidArgument):
        list(bulk.stances(_table(HAND), []))
    with pytest.raises(InvalidArgument):
        list(bulk.stances(_table(HAND), ["GPTBot"], mode="legacy"))
    with pytest.raises(InvalidArgument):
        list(bulk.stances(pa.table({"url": ["https://a.example/"]}), ["GPTBot"]))


HOSTILE = ("User-agent: *\nDisallow: /\nAllow: /*$\n"
           + "".join(f"Allow: /*{c}*{c}$\n" for c in "abcdefgh"))
"""Rules whose stance does not settle within the work bound (see tests/stance/test_stance.py)."""


def test_too_complex_rules_give_a_null_kind_not_a_guess() -> None:
    rows = [("https://hostile.example/robots.txt", HOSTILE.encode(), 200, None),
            ("https://fine.example/robots.txt", b"User-agent: *\nDisallow: /a\n", 200, None)]
    found = _by_site(bulk.stances(_table(rows), ["GPTBot"]))
    hostile = found[("https://hostile.example", "GPTBot")]
    assert (hostile["kind"], hostile["reason"], hostile["complete"]) == (
        None, bulk.TOO_COMPLEX, False)
    assert found[("https://fine.example", "GPTBot")]["kind"] == "some"  # the run went on


def test_duckdb_job_and_sql_function_equal_the_core() -> None:
    expected = _expected(HAND, AGENTS)
    assert _by_site(embedded.stances(_table(HAND), AGENTS)) == expected
    con = duckdb.connect()
    embedded.register(con)
    index = bulk.RobotsIndex.from_arrow(_table(HAND))
    governing = pa.table({
        "site": list(index.origins()),
        "body": pa.array([index.get(s)[0] for s in index.origins()], pa.binary()),  # type: ignore[index]
        "status": pa.array([index.get(s)[1] for s in index.origins()], pa.int32()),  # type: ignore[index]
    })
    con.register("robots", governing)
    con.register("agents", pa.table({"agent": AGENTS}))
    rows = con.sql("SELECT site, agent, robots_stance(body, status, agent) AS s "
                   "FROM robots, agents").fetchall()
    found = {(site, agent): value for site, agent, value in rows}
    empty = found.pop(("https://empty.example", "GPTBot"))
    assert empty is None  # a null body with a 2xx status: nothing is known
    for (site, agent), row in expected.items():
        if site == "https://empty.example":
            continue
        assert found[(site, agent)] == row, (site, agent)
    nulls = con.sql("SELECT robots_stance(NULL, NULL, 'GPTBot'), "
                    "robots_stance('User-agent: *\nDisallow: /', NULL, NULL), "
                    "robots_stance(NULL, 503, 'GPTBot').kind").fetchall()
    assert nulls == [(None, None, "all")]
    with pytest.raises(duckdb.Error, match="agent"):
        con.sql("SELECT robots_stance('', NULL, 'bad agent!')").fetchall()


def _corpus_table(corpus_dir: str, step: int) -> Any:
    names = sorted(os.listdir(os.path.join(corpus_dir, "robots")))[::step]
    rows = []
    for i, name in enumerate(names):
        with open(os.path.join(corpus_dir, "robots", name), "rb") as handle:
            body = handle.read()
        status = {7: 404, 11: 503}.get(i % 13, 200)
        rows.append((f"https://{name[: -len('.txt')]}/robots.txt", body, status, None))
    return rows


def test_corpus_sample_equals_the_core_stance(corpus_dir: str) -> None:
    """Every 40th corpus file (about 330 sites), four agents: row for row the core's."""
    rows = _corpus_table(corpus_dir, 40)
    found = _by_site(embedded.stances(_table(rows), AGENTS))
    expected = _expected(rows, AGENTS)
    assert found == expected
    assert len(found) > 1000
    assert {row["kind"] for row in found.values()} == {"all", "none", "some"}


def assert_registry_metadata(metadata: Optional[dict[bytes, bytes]]) -> None:
    """The metadata names the shipped registry's version and date, and the library's."""
    data = _registry_data()
    assert metadata is not None
    assert metadata[b"robotsrules.crawler_registry_version"] == str(data["version"]).encode()
    assert metadata[b"robotsrules.crawler_registry_compiled"] == data["compiled"].encode()
    assert metadata[b"robotsrules.version"] == robotsrules.__version__.encode()


def test_stoppable_column_says_what_robots_txt_can_stop() -> None:
    """One column from the registry: true (the operator says it obeys), false (it says it
    does not, or a control token), null (unknown, partly, or not listed), the same on every
    site, whichever group governs the agent; a published name reads its entry."""
    agents = ["GPTBot", "ChatGPT-User", "Google-Extended", "AdsBot-Google", "GoogleAgent-Mariner",
              "QuuxCrawler", "gptbot"]
    found = _by_site(bulk.stances(_table(HAND), agents))
    by_agent = {agent: {row["stoppable"] for (_, a), row in found.items() if a == agent}
                for agent in agents}
    assert by_agent == {"GPTBot": {True}, "ChatGPT-User": {False}, "Google-Extended": {False},
                        "AdsBot-Google": {None}, "GoogleAgent-Mariner": {None},
                        "QuuxCrawler": {None}, "gptbot": {True}}
    assert by_agent == {agent: {_stoppable(agent)} for agent in agents}  # the data's word
    assert (bulk.agent_stoppable("ChatGPT-User"), bulk.agent_stoppable("QuuxCrawler")) == (
        False, None)


def test_stoppable_reads_the_crawler_table_given(tmp_path: Any, capsys: Any) -> None:
    """``crawlers=``: another table (``--crawlers``) decides the column, not the shipped one."""
    from robotsrules._tables._crawlers import known_crawlers

    extra = tmp_path / "crawlers.json"
    extra.write_text(json.dumps([{
        "name": "QuuxCrawler", "token": "QuuxCrawler", "operator": "Quux", "purpose": "test",
        "source": "https://quux.example/bot", "categories": ["other"], "trigger": "crawler",
        "robots_txt": {"obeys": "no", "statement": "ignores it",
                       "source": "https://quux.example/bot", "checked": "2026-11-25"}}]))
    table = known_crawlers(str(extra))
    rows = [row for batch in bulk.stances(_table(HAND[:2]), ["QuuxCrawler", "GPTBot"],
                                          crawlers=table) for row in batch.to_pylist()]
    assert {(r["agent"], r["stoppable"]) for r in rows} == {("QuuxCrawler", False),
                                                          ("GPTBot", True)}
    reader = embedded.stances(_table(HAND[:2]), ["QuuxCrawler"], crawlers=table)
    assert {r["stoppable"] for r in reader.read_all().to_pylist()} == {False}
    out = tmp_path / "s.parquet"  # the command line's --crawlers reaches the column
    assert main(["stance", "--robots", _write_robots(tmp_path, HAND[:2]), "--agent",
                 "QuuxCrawler", "--agent", "GPTBot", "--crawlers", str(extra), "--out",
                 str(out)]) == 0
    assert "robots.txt cannot stop QuuxCrawler, by" in capsys.readouterr().out
    assert pq.read_table(out).column("stoppable").to_pylist() == [False, True] * 2


def test_python_tables_carry_the_registry_metadata() -> None:
    """Stance batches (Python and DuckDB job) and the SQL function's table carry the versions."""
    for batch in bulk.stances(_table(HAND), ["GPTBot"]):
        assert_registry_metadata(batch.schema.metadata)
    reader = embedded.stances(_table(HAND), ["GPTBot"])
    assert_registry_metadata(reader.schema.metadata)
    assert_registry_metadata(reader.read_all().schema.metadata)


def _write_robots(tmp_path: Any, rows: list[tuple[Any, ...]]) -> str:
    path = str(tmp_path / "robots.parquet")
    pq.write_table(_table(rows), path)
    return path


@pytest.mark.parametrize("form", ["parquet", "csv"])
def test_cli_table_form(tmp_path: Any, capsys: Any, form: str) -> None:
    robots = _write_robots(tmp_path, HAND)
    out = tmp_path / f"stances.{form}"
    code = main(["stance", "--robots", robots, "--agent", *AGENTS, "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "55 stances" in captured.out and "[duckdb]" in captured.out
    assert "robots.txt cannot stop ChatGPT-User, by the crawler registry" in captured.out
    if form == "parquet":
        table = pq.read_table(out)
        assert table.schema.equals(bulk.STANCE_SCHEMA)
        assert_registry_metadata(pq.read_schema(out).metadata)
        records = table.to_pylist()
    else:
        import pyarrow.csv as pacsv

        records = pacsv.read_csv(out).to_pylist()
        for record in records:  # list columns are JSON text in CSV
            for column in ("lines", "disallowed", "allowed"):
                record[column] = json.loads(record[column])
    assert _by_site([pa.RecordBatch.from_pylist(records, schema=bulk.STANCE_SCHEMA)]) == \
        _expected(HAND, AGENTS)
    assert [name for name in os.listdir(tmp_path) if name.endswith(".partial")] == []


def test_cli_table_form_agent_category_and_host_key(tmp_path: Any, capsys: Any) -> None:
    robots = _write_robots(tmp_path, HAND)
    out = tmp_path / "s.parquet"
    assert main(["stance", "--robots", robots, "--agent-category", "training", "--key", "host",
                 "--out", str(out)]) == 0, capsys.readouterr().err
    table = pq.read_table(out)
    assert "gptbot" in {a.lower() for a in table.column("agent").to_pylist()}
    assert "all.example" in table.column("site").to_pylist()


@pytest.mark.parametrize("argv, message", [
    (["--agent", "GPTBot", "--out", "{tmp}/x.parquet"], "--robots"),
    (["--robots", "{robots}", "--agent", "GPTBot"], "--out"),
    (["--robots", "{robots}", "--out", "{tmp}/x.parquet"], "no agent"),
    (["--robots", "{robots}", "--agent", "bad agent!", "--out", "{tmp}/x.parquet"], "agent"),
    (["--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/x.txt"], "format"),
    (["--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/no/x.csv"], "no such"),
    (["--robots", "{tmp}/missing.parquet", "--agent", "GPTBot", "--out", "{tmp}/x.csv"],
     "missing.parquet"),
    (["--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/x.csv", "--mode",
      "legacy"], "legacy"),
    (["{robots}", "--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/x.csv"],
     "not both"),
    (["--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/x.csv", "--json"], "--json"),
    (["--robots", "{robots}", "--agent", "GPTBot", "--out", "{tmp}/x.csv", "--engine",
      "spark", "--key", "host"], "--key host"),
])
def test_cli_table_form_mistakes(tmp_path: Any, capsys: Any, argv: list[str],
                                 message: str) -> None:
    robots = _write_robots(tmp_path, HAND)
    args = [a.format(tmp=tmp_path, robots=robots) for a in argv]
    assert main(["stance", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "x.parquet").exists()
    assert [name for name in os.listdir(tmp_path) if name.endswith(".partial")] == []


def test_file_or_url_form_unchanged(tmp_path: Any, capsys: Any) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(b"User-agent: GPTBot\nDisallow: /\n")
    assert main(["stance", str(path), "--agent", "GPTBot", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["stances"][0]["kind"] == "all"


# -- report: fully/partly disallowed sites are stance kinds ---------------------------------

REPORT_ROBOTS = [
    # GPTBot: all; CCBot: some (only /private), but every sampled URL is under /private,
    # so the URL estimate says "fully" where the stance says "some".
    ("https://a.example/robots.txt",
     b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n", 200, None),
    # Both: some, but the sampled URL is allowed: the estimate says nothing is disallowed.
    ("https://b.example/robots.txt", b"User-agent: *\nDisallow: /x\n", 200, None),
    # 503: unreachable, all disallowed for both.
    ("https://c.example/robots.txt", b"", 503, None),
]
REPORT_URLS = ["https://a.example/private/1", "https://a.example/private/2",
               "https://b.example/y", "https://c.example/", "https://d.example/"]


def _report_inputs(tmp_path: Any) -> tuple[str, str]:
    robots = _write_robots(tmp_path, REPORT_ROBOTS)
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(REPORT_URLS) + "\n")
    out = str(tmp_path / "v.parquet")
    assert main(["bulk", "--robots", robots, "--urls", str(urls), "--agent", "GPTBot",
                 "--agent", "CCBot", "--out", out]) == 0
    return robots, out


def test_report_sites_come_from_stances(tmp_path: Any, capsys: Any) -> None:
    robots, verdicts = _report_inputs(tmp_path)
    capsys.readouterr()
    assert main(["report", verdicts, "--json"]) == 0
    estimated = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    assert main(["report", verdicts, "--json", "--robots", robots]) == 0
    staged = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    stance_out = str(tmp_path / "s.parquet")
    assert main(["stance", "--robots", robots, "--agent", "GPTBot", "CCBot", "--out",
                 stance_out]) == 0
    capsys.readouterr()
    assert main(["report", verdicts, "--json", "--stances", stance_out]) == 0
    from_file = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    assert from_file == staged
    guess, exact = estimated["CCBot"], staged["CCBot"]
    assert (guess["basis"], guess["stances"]) == ("urls", {})
    assert (guess["sites"], guess["sites_fully"], guess["sites_partly"]) == (3, 2, 0)
    assert (exact["basis"], exact["sites"]) == ("stance", 3)
    assert exact["stances"] == {"all": 1, "some": 2, "none": 0, "unknown": 0}
    assert (exact["sites_fully"], exact["sites_partly"]) == (1, 2)
    assert staged["GPTBot"]["stances"] == {"all": 2, "some": 1, "none": 0, "unknown": 0}
    assert staged["GPTBot"]["site_share"] == round(2 / 3, 6)
    for key in ("urls", "judged", "disallowed", "unknown", "sites", "top_sites", "url_share"):
        assert staged["CCBot"][key] == estimated["CCBot"][key], key  # the rest unchanged
    assert main(["report", verdicts, "--robots", robots, "--mode", "rfc"]) == 0
    text = capsys.readouterr().out
    assert "site stances" in text and "estimated" not in text
    assert main(["report", verdicts]) == 0
    assert "estimated from the judged URLs" in capsys.readouterr().out


def test_report_stance_rows_missing_or_contradictory_are_unknown(tmp_path: Any) -> None:
    from robotsrules._report import audit

    _, verdicts = _report_inputs(tmp_path)
    stances = pa.table({"site": ["https://a.example", "https://b.example", "https://b.example",
                                 "https://c.example"],
                        "agent": ["CCBot"] * 4, "kind": ["some", "all", "none", None]})
    found = {s.agent: s for s in audit(verdicts, stances=stances).agents}
    assert found["CCBot"].stances == {"all": 0, "some": 1, "none": 0, "unknown": 2}
    assert found["GPTBot"].stances == {"all": 0, "some": 0, "none": 0, "unknown": 3}
    with pytest.raises(InvalidArgument, match="not a stance table"):
        audit(verdicts, stances=pa.table({"site": ["x"]}))


@pytest.mark.parametrize("argv, message", [
    (["--stances", "{tmp}/none.parquet"], "none.parquet: no such file"),
    (["--robots", "{tmp}/none.parquet"], "none.parquet: no such file"),
    (["--stances", "{verdicts}"], "not a stance table"),
])
def test_report_stance_mistakes(tmp_path: Any, capsys: Any, argv: list[str],
                                message: str) -> None:
    _, verdicts = _report_inputs(tmp_path)
    capsys.readouterr()
    args = [a.format(tmp=tmp_path, verdicts=verdicts) for a in argv]
    assert main(["report", verdicts, *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_report_says_which_agents_robots_txt_does_not_stop(tmp_path: Any, capsys: Any) -> None:
    """``stoppable`` per agent: from the registry without a stance table (or when the table
    lacks the column or the agent), else as the table recorded it (one value, or None when
    its rows disagree or hold nulls); the text lists the agents robots.txt cannot stop."""
    from robotsrules._report import audit, to_text

    verdicts = pa.table({"url": ["https://a.example/x"] * 4,
                         "agent": ["GPTBot", "ChatGPT-User", "Google-Extended", "QuuxCrawler"],
                         "allowed": [False, False, True, False],
                         "origin": ["https://a.example"] * 4})
    plain = {s.agent: (s.stoppable, s.stoppable_from) for s in audit(verdicts).agents}
    assert plain == {"GPTBot": (True, "registry"), "ChatGPT-User": (False, "registry"),
                     "Google-Extended": (False, "registry"), "QuuxCrawler": (None, "registry")}
    text = to_text(audit(verdicts))
    listed = text.split("robots.txt does not stop these agents' requests", 1)[1]
    listed = listed.split("\n\n", 1)[0]
    assert "ChatGPT-User: NOT bound by robots.txt, says OpenAI" in listed
    assert "Google-Extended: control token" in listed
    assert "GPTBot" not in listed and "QuuxCrawler" not in listed
    stances = pa.table({"site": ["https://a.example", "https://b.example"] * 3,
                        "agent": ["GPTBot", "GPTBot", "ChatGPT-User", "ChatGPT-User",
                                  "Google-Extended", "Google-Extended"],
                        "kind": ["all"] * 6,
                        "stoppable": [False, False, True, None, None, None]})
    recorded = {s.agent: (s.stoppable, s.stoppable_from)
                for s in audit(verdicts, stances=stances).agents}
    assert recorded == {"GPTBot": (False, "stances"), "ChatGPT-User": (None, "stances"),
                        "Google-Extended": (None, "stances"),
                        "QuuxCrawler": (None, "registry")}
    assert "GPTBot: the stance table's stoppable column says false" in to_text(
        audit(verdicts, stances=stances))
    older = stances.drop_columns(["stoppable"])  # a table made before the column
    assert {s.agent: s.stoppable_from for s in audit(verdicts, stances=older).agents} == \
        dict.fromkeys(["ChatGPT-User", "GPTBot", "Google-Extended", "QuuxCrawler"], "registry")
    # The command line: JSON carries both fields, text the list.
    robots, out = _report_inputs(tmp_path)
    capsys.readouterr()
    assert main(["report", out, "--json", "--robots", robots]) == 0
    agents = {a["agent"]: a for a in json.loads(capsys.readouterr().out)["agents"]}
    assert {a: (v["stoppable"], v["stoppable_from"]) for a, v in agents.items()} == {
        "CCBot": (True, "stances"), "GPTBot": (True, "stances")}
    assert main(["report", out]) == 0
    assert "does not stop" not in capsys.readouterr().out
