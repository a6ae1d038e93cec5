"""``robotsrules logs`` end to end, in-process (the CLI matrix's runner), and hostile logs
through the command and the library: never a traceback, never a silently dropped bot; the
address behind a proxy (``--client-ip-field``) and the four verification answers counted;
the ``--out`` formats read back (DuckDB and Spark giving the same tables: in
``tests/bulk/test_spark.py``, on its Spark session)."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

import pyarrow.parquet as pq

from robotsrules import audit_logs
from tests.cli.test_cli_matrix import check_run, run

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120"
ROBOTS = "User-agent: *\nDisallow: /private/\n"
SITE = "https://example.com"


def entry(address: str, when: str, target: str, agent: str, status: int = 200,
          forwarded: str = "-") -> bytes:
    return (f'{address} - - [{when} +0000] "GET {target} HTTP/1.1" {status} 10 "-" '
            f'"{agent}" "{forwarded}"\n').encode()


@pytest.fixture
def robots(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return str(path)


def logs(tmp_path: Path, *lines: bytes, name: str = "access.log") -> str:
    path = tmp_path / name
    path.write_bytes(b"".join(lines))
    return str(path)


def test_exit_codes(tmp_path: Path, robots: str, capsys: pytest.CaptureFixture[str]) -> None:
    clean = logs(tmp_path, entry("192.0.2.1", "02/Nov/2026:10:00:00", "/ok", GOOGLEBOT),
                 name="clean.log")
    bad = logs(tmp_path, entry("192.0.2.1", "02/Nov/2026:10:00:00", "/private/x", GOOGLEBOT),
               name="bad.log")
    for argv, expected in (
        (["logs", clean, "--site", SITE, "--robots", robots, "--no-verify"], 0),
        (["logs", bad, "--site", SITE, "--robots", robots, "--no-verify"], 1),
        (["logs", bad, "--site", SITE], 2),  # no robots.txt
        (["logs", bad, "--site", SITE, "--robots", robots, "--robots-history", str(tmp_path)],
         2),
        (["logs", bad, "--site", SITE, "--robots", robots, "--window", "-1"], 2),
        (["logs", bad, "--site", SITE, "--robots", robots, "--window", "nan"], 2),
        (["logs", bad, "--site", SITE, "--robots", robots, "--dns", "--no-verify"], 2),
        (["logs", bad, "--site", SITE, "--robots", robots, "--client-ip-field", "Via"], 2),
        (["logs", bad, "--site", SITE, "--robots", robots, "--out", str(tmp_path / "o.xml")],
         2),
        (["logs", str(tmp_path / "none.log"), "--site", SITE, "--robots", robots], 2),
        (["logs", bad, "--site", "not a url", "--robots", robots], 2),
    ):
        code, out = run(argv, b"")
        err = capsys.readouterr().err
        check_run(argv, code, out, err)
        assert code == expected, (argv, out, err)
    assert not list(tmp_path.glob("o.xml*"))


def test_the_out_formats_read_back(tmp_path: Path, robots: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = logs(tmp_path, entry("192.0.2.1", "02/Nov/2026:10:00:00", "/private/x", GOOGLEBOT),
               entry("192.0.2.1", "02/Nov/2026:10:00:01", "/robots.txt", BROWSER))
    rows = {}
    for suffix in (".csv", ".json", ".jsonl", ".parquet"):
        out = tmp_path / f"requests{suffix}"
        code, _ = run(["logs", log, "--site", SITE, "--robots", robots, "--no-verify",
                       "--out", str(out)], b"")
        assert code == 1, capsys.readouterr().err
        if suffix == ".csv":
            with open(out, newline="") as handle:
                rows[suffix] = [(r["token"], r["verdict"]) for r in csv.DictReader(handle)]
        elif suffix == ".json":
            rows[suffix] = [(r["token"], r["verdict"]) for r in json.loads(out.read_text())]
        elif suffix == ".jsonl":
            rows[suffix] = [(r["token"], r["verdict"]) for r in
                            map(json.loads, out.read_text().splitlines())]
        else:
            table = pq.read_table(out)
            assert b"robotsrules.crawler_registry_version" in table.schema.metadata
            rows[suffix] = [(r["token"], r["verdict"]) for r in table.to_pylist()]
    assert rows[".json"] == rows[".jsonl"] == rows[".parquet"] == [
        ("Googlebot", "violation"), (None, None)]
    assert rows[".csv"] == [("Googlebot", "violation"), ("", "")]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


HOSTILE_LOG = [
    entry("192.0.2.1", "02/Nov/2026:10:00:00", "/private/a", GOOGLEBOT),
    b"\x00\x01\x02\xff binary junk \x00\n",
    b"x" * (70 * 1024) + b"\n",  # over the line bound
    entry("192.0.2.1", "02/Nov/2026:09:00:00", "/b", GOOGLEBOT),  # the clock goes back
    entry("192.0.2.1", "31/Feb/2026:10:00:00", "/c", GOOGLEBOT),  # no such day
    b'192.0.2.2 - - [02/Nov/2026:10:00:05 +0000] "GET /d HTTP/1.1" 200 1 "-" "-"\n',
    entry("192.0.2.3", "02/Nov/2026:10:00:06", "/private/<script>",
          'EvilBot/1.0 <script>alert(1)</script> \\x1b]0;owned\\x07'),  # escaped, as
    # Apache and nginx write control characters: read back as the client sent them
    b"not a log line at all\n",
]


def test_hostile_logs_through_the_library(tmp_path: Path) -> None:
    log = logs(tmp_path, *HOSTILE_LOG)
    with gzip.open(tmp_path / "more.log.gz", "wb") as handle:
        handle.write(b"".join(HOSTILE_LOG))
    with audit_logs([log, str(tmp_path / "more.log.gz")], site=SITE, robots=ROBOTS.encode(),
                    verify=False) as audit:
        summary = audit.summary
        problems = summary["input"]["problems"]
        for kind in ("binary", "too_long", "clock_backwards", "unparsable_time",
                     "missing_user_agent", "malformed"):
            assert problems[kind]["count"] == 2, (kind, problems)
        tokens = {bot["token"] for bot in summary["bots"]}
        assert tokens == {"Googlebot", "EvilBot"}  # the hostile one is kept, not dropped
        evil = next(bot for bot in summary["bots"] if bot["token"] == "EvilBot")
        assert evil["category"] == "unregistered" and evil["verdicts"]["violation"] == 2
        text = json.dumps(summary)
        assert "\x1b" not in text and "\x07" not in text.replace("\\u0007", "")


def test_hostile_logs_through_the_command(tmp_path: Path, robots: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    log = logs(tmp_path, *HOSTILE_LOG)
    for extra in ([], ["--json"]):
        argv = ["logs", log, "--site", SITE, "--robots", robots, "--no-verify", *extra]
        code, out = run(argv, b"")
        err = capsys.readouterr().err
        check_run(argv, code, out, err)  # no traceback; no raw control character
        assert code == 1
        assert "EvilBot" in out and "<script>" in out  # shown, made visible, not dropped
        if not extra:
            for kind in ("binary", "too_long", "clock_backwards", "unparsable_time",
                         "missing_user_agent"):
                assert f"{kind}: 1" in out, kind


def test_the_client_address_behind_a_proxy_and_the_four_answers(tmp_path: Path) -> None:
    proxy = "198.51.100.4"
    log = logs(tmp_path,
               entry(proxy, "02/Nov/2026:10:00:00", "/a", GOOGLEBOT,
                     forwarded="66.249.66.9, 66.249.66.1"),  # the proxy added the last
               entry(proxy, "02/Nov/2026:10:00:01", "/b", GOOGLEBOT,
                     forwarded="192.0.2.50"),  # not Google's
               entry(proxy, "02/Nov/2026:10:00:02", "/c", "EvilBot/1.0",
                     forwarded="192.0.2.51"),  # no registry entry: unverifiable
               entry(proxy, "02/Nov/2026:10:00:03", "/d", GOOGLEBOT))  # no forwarded address
    with audit_logs(log, site=SITE, robots=ROBOTS.encode(),
                    client_ip_field="X-Forwarded-For") as audit:
        rows = audit.table().to_pylist()
        assert [(r["client"], r["verification"]) for r in rows] == [
            ("66.249.66.1", "verified"), ("192.0.2.50", "not-verified"),
            ("192.0.2.51", "unverifiable"), (None, "unknown")]
        day = audit.summary["days"][0]["verification"]
        assert (day["verified"], day["not-verified"], day["unverifiable"], day["unknown"]) \
            == (1, 1, 1, 1)
    with audit_logs(log, site=SITE, robots=ROBOTS.encode()) as audit:  # the proxy's address
        assert {r["verification"] for r in audit.table().to_pylist()} == \
            {"not-verified", "unverifiable"}


def test_progress_only_on_a_terminal(tmp_path: Path, robots: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    import os
    import pty

    from robotsrules.cli._logs import _Progress

    log = logs(tmp_path, entry("192.0.2.1", "02/Nov/2026:10:00:00", "/ok", GOOGLEBOT))
    code, _ = run(["logs", log, "--site", SITE, "--robots", robots, "--no-verify"], b"")
    assert code == 0 and capsys.readouterr().err == ""  # captured: no progress line
    main, side = pty.openpty()  # a real terminal
    with os.fdopen(side, "w") as terminal:
        progress = _Progress(terminal)
        assert progress.on
        progress(1000, 250, 1000)
    shown = os.read(main, 4096).decode()
    os.close(main)
    assert "read 1,000 lines" in shown and "lines/s" in shown and "left" in shown


def test_dns_verification_once_per_address(tmp_path: Path, robots: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """With DNS on, an address no list holds is verified by forward-confirmed reverse DNS
    (a real DNS server on loopback), asked once however many requests it made: by the
    library (``dns="ip:port"``) and by the command (``--dns --dns-server IP:PORT``); a
    ``--dns-server`` without ``--dns`` is a usage error, never silently unused."""
    pytest.importorskip("dns.resolver")
    pytest.importorskip("dnslib")
    from tests.network.dns_server import DnsServer

    zone = ["1.2.0.192.in-addr.arpa. 300 PTR crawl-192-0-2-1.googlebot.com.",
            "crawl-192-0-2-1.googlebot.com. 300 A 192.0.2.1"]
    log = logs(tmp_path, *[entry("192.0.2.1", f"02/Nov/2026:10:00:0{s}", f"/p{s}", GOOGLEBOT)
                           for s in range(5)])
    with DnsServer(zone) as server:
        with audit_logs(log, site=SITE, robots=ROBOTS.encode(), dns=server.address) as audit:
            assert audit.summary["bots"][0]["verification"]["verified"] == 5
            assert audit.summary["verification"] == "dns"
            assert audit.summary["totals"]["addresses_checked"] == 1
        assert server.count("1.2.0.192.in-addr.arpa", "PTR") == 1
    with DnsServer(zone) as server:  # another server: answers are cached per server
        argv = ["logs", log, "--site", SITE, "--robots", robots, "--json"]
        code, out = run([*argv, "--dns", "--dns-server", server.address], b"")
        check_run(argv, code, out, capsys.readouterr().err)
        summary = json.loads(out)
        assert code == 0 and summary["verification"] == "dns"
        assert summary["bots"][0]["verification"]["verified"] == 5
        assert server.count("1.2.0.192.in-addr.arpa", "PTR") == 1
        code, out = run([*argv, "--dns-server", server.address], b"")  # no --dns
        check_run(argv, code, out, capsys.readouterr().err, usage=True)
        assert server.count("1.2.0.192.in-addr.arpa", "PTR") == 1
    with audit_logs(log, site=SITE, robots=ROBOTS.encode()) as audit:  # lists only
        assert audit.summary["bots"][0]["verification"]["not-verified"] == 5


def test_logs_reads_a_git_history_at_its_path_and_writes_the_html_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command reads ``--robots-history`` as ``read_history`` does (here a git
    repository whose commits of ``--history-path`` give the times) and ``--report`` writes
    the HTML report with the log's strings escaped."""
    import datetime

    from tests.audit.test_history import commit, git, needs_git

    if needs_git.args[0]:
        pytest.skip("no git executable")
    repo = tmp_path / "site"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    day = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
    commit(repo, "public/robots.txt", b"User-agent: *\nAllow: /\n", day)
    commit(repo, "public/robots.txt", b"User-agent: *\nDisallow: /private/\n",
           day + datetime.timedelta(days=2))
    hostile = "Googlebot/2.1 <script>window.__pwned=1</script>"
    log = logs(tmp_path,
               entry("192.0.2.1", "02/Nov/2026:10:00:00", "/private/a", GOOGLEBOT),
               entry("192.0.2.1", "05/Nov/2026:10:00:00", "/private/<b>x</b>", hostile))
    report = tmp_path / "report.html"
    from robotsrules.cli import main

    code = main(["logs", log, "--site", SITE, "--robots-history", str(repo),
                 "--history-path", "public/robots.txt", "--no-verify", "--json",
                 "--report", str(report)])
    summary = json.loads(capsys.readouterr().out)
    # 2 Nov: the file of 1 Nov allows; 5 Nov: the file of 3 Nov disallows (older than 24 h)
    assert code == 1 and summary["totals"]["violations"] == 1
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") or page.lstrip().lower().startswith("<!doctype")
    assert "<script>window.__pwned" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    # without --history-path the repository has no robots.txt at its root: nothing known
    code = main(["logs", log, "--site", SITE, "--robots-history", str(repo), "--no-verify",
                 "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["totals"]["violations"] == 0


def test_disallowed_only_in_rfc_9309s_reading_is_reported_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A request Google's reading allows and RFC 9309's disallows (``Disallow: /%7Ejoe``,
    ``GET /~joe``) is no violation (exit 0) and is never silent: its row says
    ``rfc_disallowed``, the summary counts it (in totals and per bot), the text says so."""
    robots = tmp_path / "robots.txt"
    robots.write_text("User-agent: *\nDisallow: /%7Ejoe\n")
    log = logs(tmp_path, entry("192.0.2.1", "02/Nov/2026:10:00:00", "/~joe/a", GOOGLEBOT),
               entry("192.0.2.1", "02/Nov/2026:10:00:01", "/ok", GOOGLEBOT))
    table = tmp_path / "requests.jsonl"
    argv = ["logs", log, "--site", SITE, "--robots", str(robots), "--no-verify"]
    code, out = run([*argv, "--json", "--out", str(table)], b"")
    check_run(argv, code, out, capsys.readouterr().err)
    summary = json.loads(out)
    assert code == 0 and summary["totals"]["violations"] == 0
    assert summary["totals"]["rfc_only"] == summary["bots"][0]["rfc_only"] == 1
    rows = [json.loads(line) for line in table.read_text().splitlines()]
    assert [(r["url"], r["verdict"], r["rfc_disallowed"]) for r in rows] == [
        ("/~joe/a", "allowed", True), ("/ok", "allowed", False)]
    code, out = run(argv, b"")
    assert code == 0 and "1 request disallowed only in RFC 9309's reading" in out, out
