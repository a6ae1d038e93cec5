"""What an adversarial review of the log audit found (issue 37), each through the library
and, for the dangerous ones, through ``robotsrules logs``: a stranger's line never turns a
crawler's request into "allowed", "no-file" or nothing at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from robotsrules import audit_logs
from tests.cli.test_cli_matrix import check_run, run

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
ROBOTS = b"User-agent: *\nDisallow: /private\n"
SITE = "https://example.com"
VISIT = (f'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" 200 5 '
         f'"-" "{GOOGLEBOT}"\n')


def verdicts(log: Path, **options: object) -> list[tuple[str, str, object]]:
    options.setdefault("robots", ROBOTS)
    with audit_logs(log, site=SITE, **options) as audit:  # type: ignore[arg-type]
        return [(r["token"], r["url"], r["verdict"]) for r in audit.table().to_pylist()]


def command(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
            *more: str) -> int:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    argv = ["logs", str(log), "--site", SITE, "--robots", str(robots), *more]
    code, out = run(argv, b"")
    check_run(argv, code, out, capsys.readouterr().err)
    return code


@pytest.mark.parametrize("fetch", [
    '1.2.3.4 - - [10/Oct/2026:13:55:30 +0000] "POST /robots.txt HTTP/1.1" 405 5 "-" "curl/8"',
    '1.2.3.4 - - [10/Oct/2026:13:55:30 +0000] "GET /robots.txt?x HTTP/1.1" 403 5 "-" "curl/8"',
    '1.2.3.4 - - [10/Oct/2026:13:55:30 +0000] "GET http://other.test/robots.txt HTTP/1.1" '
    '404 5 "-" "curl/8"',
    # a crawler's own, but not a fetch of the file: a POST, a query, another host
    f'66.249.66.1 - - [10/Oct/2026:13:55:30 +0000] "POST /robots.txt HTTP/1.1" 405 5 "-" '
    f'"{GOOGLEBOT}"',
    f'66.249.66.1 - - [10/Oct/2026:13:55:30 +0000] "GET /robots.txt?x HTTP/1.1" 404 5 "-" '
    f'"{GOOGLEBOT}"',
    f'66.249.66.1 - - [10/Oct/2026:13:55:30 +0000] "GET http://other.test/robots.txt '
    f'HTTP/1.1" 404 5 "-" "{GOOGLEBOT}"',
    # another crawler's 4xx is not Googlebot's
    '192.0.2.7 - - [10/Oct/2026:13:55:30 +0000] "GET /robots.txt HTTP/1.1" 404 5 "-" '
    '"GPTBot/1.1"',
])
def test_only_the_crawlers_own_fetch_of_the_file_moves_its_state(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fetch: str) -> None:
    log = tmp_path / "access.log"
    log.write_text(fetch + "\n" + VISIT)
    assert ("Googlebot", "/private/x", "violation") in verdicts(log, verify=False)
    assert command(log, tmp_path, capsys, "--no-verify") == 1


def test_the_crawlers_own_404_still_allows_everything(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text(f'66.249.66.1 - - [10/Oct/2026:13:55:30 +0000] "GET /robots.txt HTTP/1.1" '
                   f'404 5 "-" "{GOOGLEBOT}"\n' + VISIT)
    assert ("Googlebot", "/private/x", "allowed") in verdicts(log, verify=False)
    # a client shown not to be Googlebot does not move Googlebot's state
    log.write_text(f'192.0.2.66 - - [10/Oct/2026:13:55:30 +0000] "GET /robots.txt HTTP/1.1" '
                   f'404 5 "-" "{GOOGLEBOT}"\n' + VISIT)
    assert ("Googlebot", "/private/x", "violation") in verdicts(log)


def test_a_client_typed_forwarded_address_is_not_verified(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "access.log"
    log.write_text(f'10.0.0.5 - - [10/Oct/2026:13:55:36 +0000] "GET /ok HTTP/1.1" 200 5 "-" '
                   f'"{GOOGLEBOT}" "66.249.66.1, 203.0.113.9"\n')
    with audit_logs(log, site=SITE, robots=ROBOTS, client_ip_field="X-Forwarded-For") as audit:
        assert [(r["client"], r["verification"]) for r in audit.table().to_pylist()] == [
            ("203.0.113.9", "not-verified")]
    caddy = tmp_path / "caddy.json"
    caddy.write_text(
        '{"ts": 1791640536.0, "request": {"remote_ip": "203.0.113.9", "client_ip": '
        '"203.0.113.9", "method": "GET", "host": "example.com", "uri": "/ok", "headers": '
        '{"X-Forwarded-For": ["66.249.66.1"], "User-Agent": ["' + GOOGLEBOT + '"]}}, '
        '"size": 5, "status": 200}\n')
    with audit_logs(caddy, site=SITE, robots=ROBOTS, client_ip_field="client_ip") as audit:
        assert [(r["client"], r["verification"]) for r in audit.table().to_pylist()] == [
            ("203.0.113.9", "not-verified")]
    out = tmp_path / "o.json"
    assert command(caddy, tmp_path, capsys, "--client-ip-field", "client_ip", "--out",
                   str(out)) == 0
    assert '"verification": "not-verified"' in out.read_text().replace('":"', '": "')


def test_a_strangers_first_lines_do_not_choose_how_the_rest_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "access.log"
    strangers = [f'6.6.6.6 - a b [10/Oct/2026:13:55:{s:02} +0000] "GET / HTTP/1.1" 401 5 "-" '
                 f'"Mozilla/5.0 (X11; Linux x86_64) Firefox/120"\n' for s in range(20)]
    log.write_text("".join(strangers) + VISIT)
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert audit.violations == 1
    assert command(log, tmp_path, capsys, "--no-verify") == 1


def test_a_crawlers_line_that_cannot_be_read_makes_the_audit_incomplete(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "access.log"
    log.write_text(f'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /ok HTTP/1.1" 200 5 "-" '
                   f'"{GOOGLEBOT}"\n'
                   f'66.249.66.1 garbage [10/Oct/2026 "GET /private/x" "{GOOGLEBOT}"\n'
                   '192.0.2.1 garbage, no crawler named\n')
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert audit.violations == 0
        assert audit.summary["input"]["crawler_lines_unread"] == 1
    assert command(log, tmp_path, capsys, "--no-verify") == 1
    assert "INCOMPLETE: 1 line naming a crawler" in run(
        ["logs", str(log), "--site", SITE, "--robots", str(tmp_path / "robots.txt"),
         "--no-verify"], b"")[1]


@pytest.mark.parametrize("raw", [
    b'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /caf\xe9 HTTP/1.1" 200 5 "-" "'
    + GOOGLEBOT.encode() + b'"\n',
    b'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /caf\\xe9 HTTP/1.1" 200 5 "-" "'
    + GOOGLEBOT.encode() + b'"\n',  # as Apache escapes it
    b'{"time_iso8601": "2026-10-10T13:55:36+00:00", "remote_addr": "66.249.66.1", '
    b'"request": "GET /caf\xe9 HTTP/1.1", "status": "200", "http_user_agent": "'
    + GOOGLEBOT.encode() + b'"}\n',  # nginx escape=json writes it raw
])
def test_bytes_that_are_not_utf8_are_percent_encoded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes) -> None:
    log = tmp_path / "access.log"
    log.write_bytes(raw)
    robots = b"User-agent: *\nDisallow: /caf%E9\n"
    with audit_logs(log, site=SITE, robots=robots, verify=False) as audit:
        assert [(r["url"], r["verdict"]) for r in audit.table().to_pylist()] == [
            ("/caf%E9", "violation")]
    (tmp_path / "robots.txt").write_bytes(robots)
    argv = ["logs", str(log), "--site", SITE, "--robots", str(tmp_path / "robots.txt"),
            "--no-verify"]
    assert run(argv, b"")[0] == 1


ALB = ('https 2026-10-10T13:55:36.000000Z app/my-lb/50dc6c495c0c9188 66.249.66.1:2817 '
       '10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET https://example.com:443/private/x '
       'HTTP/1.1" "' + GOOGLEBOT + '" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 '
       'arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 '
       '"Root=1-58337262-36d228ad5d99923122bbe354" "other.example" "-" 0 '
       '2026-10-10T13:55:36.000000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"\n')


@pytest.mark.parametrize(("name", "text"), [
    ("nginx.json", '{"time_iso8601": "2026-10-10T13:55:36+00:00", "remote_addr": "66.249.66.1", '
     '"request": "GET /private/x HTTP/1.1", "http_host": "example.com.:443", "status": "200", '
     '"http_user_agent": "' + GOOGLEBOT + '"}\n'),
    ("caddy.json", '{"ts": 1791640536.0, "request": {"remote_ip": "66.249.66.1", "method": "GET", '
     '"host": "EXAMPLE.com.:443", "uri": "/private/x", "headers": {"User-Agent": ["'
     + GOOGLEBOT + '"]}}, "size": 5, "status": 200}\n'),
    ("alb.log", ALB),  # the SNI name (domain_name) is not the request's host
])
def test_the_requests_own_host_is_judged(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         name: str, text: str) -> None:
    log = tmp_path / name
    log.write_text(text)
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert [(r["url"], r["verdict"]) for r in audit.table().to_pylist()] == [
            ("/private/x", "violation")]
    assert command(log, tmp_path, capsys, "--no-verify") == 1


@pytest.mark.parametrize("agent", [
    "\\x01Googlebot/2.1", "Mozilla/5.0 (compatible; \\x1b[0mGooglebot/2.1)",
    "Mozilla/5.0 (compatible; \u200bGPTBot/1.0)", 'Mozilla/5.0 (compatible; \\"Googlebot/2.1\\")',
    "curl/8 Googlebot/2.1",
])
def test_a_registry_token_behind_junk_is_still_a_crawler(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], agent: str) -> None:
    log = tmp_path / "access.log"
    log.write_text(f'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" '
                   f'200 5 "-" "{agent}"\n')
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert [(r["token"], r["verdict"]) for r in audit.table().to_pylist()] in (
            [("Googlebot", "violation")], [("GPTBot", "violation")])
        assert audit.summary["totals"]["tokens_found_by_scan"] == 1
        assert audit.summary["totals"]["other_requests"] == 0
    assert command(log, tmp_path, capsys, "--no-verify") == 1


def test_a_browser_is_not_found_by_scan(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text('192.0.2.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" 200 '
                   '5 "-" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like '
                   'Gecko) Chrome/120 Safari/537.36"\n')
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert audit.summary["totals"]["other_requests"] == 1


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_a_version_that_cannot_be_read_does_not_extend_the_one_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    import os

    history = tmp_path / "hist"
    history.mkdir()
    (history / "2026-10-01.txt").write_text("User-agent: *\nAllow: /\n")
    if kind == "directory":
        (history / "2026-10-05.txt").mkdir()
    else:
        os.mkfifo(history / "2026-10-05.txt")
    log = tmp_path / "access.log"
    log.write_text(VISIT)  # 10 October: the unread version of 5 October is in force
    with audit_logs(log, site=SITE, history=history, verify=False) as audit:
        assert [r["verdict"] for r in audit.table().to_pylist()] == ["no-file"]
        assert audit.summary["robots"]["findings"]["not_a_file"]["count"] == 1
    argv = ["logs", str(log), "--site", SITE, "--robots-history", str(history), "--no-verify",
            "--json"]
    code, out = run(argv, b"")
    check_run(argv, code, out, capsys.readouterr().err)
    assert code == 0 and json.loads(out)["totals"]["no_file"] == 1


@pytest.mark.parametrize("text", [
    '66.249.66.1 - - [01/Jan/0001:00:30:00 +0100] "GET /private/x HTTP/1.1" 200 5 "-" "'
    + GOOGLEBOT + '"\n',
    '66.249.66.1 - - [31/Dec/9999:23:59:59 -0100] "GET /private/x HTTP/1.1" 200 5 "-" "'
    + GOOGLEBOT + '"\n',
    '{"ts": "0001-01-01T00:00:00+01:00", "request": {"remote_ip": "66.249.66.1", "method": '
    '"GET", "host": "example.com", "uri": "/private/x", "headers": {"User-Agent": ["'
    + GOOGLEBOT + '"]}}, "status": 200, "size": 5}\n',
])
def test_times_past_the_calendars_ends_are_unparsable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    log = tmp_path / "access.log"
    log.write_text(text * 2)
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False,
                    format="caddy" if text[0] == "{" else "combined") as audit:
        assert audit.summary["input"]["problems"]["unparsable_time"]["count"] == 2
    assert command(log, tmp_path, capsys, "--no-verify") == 1  # incomplete, no traceback


def test_a_request_at_the_first_instant_is_judged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "access.log"
    log.write_text('66.249.66.1 - - [01/Jan/0001:00:00:00 +0000] "GET /private/x HTTP/1.1" '
                   f'200 5 "-" "{GOOGLEBOT}"\n')
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert [r["verdict"] for r in audit.table().to_pylist()] == ["violation"]
    assert command(log, tmp_path, capsys, "--no-verify") == 1


def test_csv_cells_a_spreadsheet_would_run_are_quoted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    log = tmp_path / "access.log"
    log.write_text('66.249.66.1 - - [10/Oct/2026:13:55:37 +0000] "GET /private/=HYPERLINK(1) '
                   'HTTP/1.1" 200 5 "-" "=cmd|\' /C calc\'!A0 Googlebot/2.1"\n'
                   '66.249.66.1 - - [10/Oct/2026:13:55:38 +0000] "GET @x HTTP/1.1" 200 5 "-" '
                   '"-2+3 Googlebot/2.1"\n')
    out = tmp_path / "o.csv"
    assert command(log, tmp_path, capsys, "--no-verify", "--out", str(out)) == 1
    with open(out, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["url"], r["user_agent"]) for r in rows] == [
        ("/private/=HYPERLINK(1)", "'=cmd|' /C calc'!A0 Googlebot/2.1"),
        ("'@x", "'-2+3 Googlebot/2.1")]
    assert all(not value.startswith(("=", "+", "-", "@")) for r in rows for value in r.values())
    jsonl = tmp_path / "o.jsonl"
    assert command(log, tmp_path, capsys, "--no-verify", "--out", str(jsonl)) == 1
    assert json.loads(jsonl.read_text().splitlines()[0])["user_agent"].startswith("=cmd")


def test_long_lines_are_held_in_bounded_batches_and_memos(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    import pyarrow.parquet as pq

    from robotsrules._audit import _job
    from robotsrules._audit._inforce import History, Judge, Version
    from robotsrules.robotstxt import parse

    log = tmp_path / "access.log.gz"
    with gzip.open(log, "wb", compresslevel=1) as handle:
        for i in range(40):
            handle.write(f'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /p/{i}{"B" * 30_000} '
                         f'HTTP/1.1" 200 5 "-" "Googlebot/2.1 ({i} {"A" * 30_000})"\n'.encode())
    monkeypatch.setattr(_job, "BATCH_BYTES", 256 * 1024)  # 2.4 MB of text: 9 batches
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert pq.ParquetFile(audit.path).metadata.num_row_groups >= 8  # not one of all
        assert audit.summary["totals"]["requests"] == 40
    assert len(_job.memo_key("A" * 60_000)) == 16
    judge = Judge(History([Version(_job._EPOCH, parse(ROBOTS), "r")]))
    judge.judge("Googlebot", "/p/" + "B" * 60_000, _job._EPOCH)
    judge.judge("Googlebot", "/short", _job._EPOCH)
    assert len(judge._memo) == 1  # the long URL's verdict not remembered


def test_targets_rfc_9309_would_decode_are_counted_not_rejudged(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text("".join(
        f'66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET {target} HTTP/1.1" 200 5 "-" '
        f'"{GOOGLEBOT}"\n' for target in ("/%70rivate/x", "/a/../private/x", "/ok", "/%E9")))
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        # the verdicts stay RobotsTxt.allowed's (Google's library): allowed
        assert [r["verdict"] for r in audit.table().to_pylist()] == ["allowed"] * 4
        flagged = audit.summary["totals"]["targets_not_normalised"]
        assert flagged == {"count": 2, "examples": ["/%70rivate/x", "/a/../private/x"]}


def test_a_header_naming_several_crawlers_is_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "access.log"
    log.write_text('66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /ok HTTP/1.1" 200 5 "-" '
                   '"Mozilla/5.0 (compatible; Googlebot/2.1) bingbot/2.0"\n' + VISIT)
    with audit_logs(log, site=SITE, robots=ROBOTS, verify=False) as audit:
        assert [r["token"] for r in audit.table().to_pylist()] == ["Googlebot", "Googlebot"]
        assert audit.summary["totals"]["several_crawlers_named"] == 1
    argv = ["logs", str(log), "--site", SITE, "--robots", str(tmp_path / "robots.txt"),
            "--no-verify", "--json"]
    (tmp_path / "robots.txt").write_bytes(ROBOTS)
    code, out = run(argv, b"")
    check_run(argv, code, out, capsys.readouterr().err)
    assert code == 1 and json.loads(out)["totals"]["several_crawlers_named"] == 1
