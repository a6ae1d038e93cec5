"""The audit job (issue 37): ``robotsrules.audit_logs`` over real log files on disk, the
request table (rows, provenance) and the summary's counts, read back from both."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("duckdb")

import robotsrules
from robotsrules import InvalidArgument, audit_logs

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GPTBOT = ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; "
          "+https://openai.com/gptbot)")
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120"
ROBOTS = b"User-agent: *\nDisallow: /private/\nContent-Signal: ai-train=no\n"


def line(address: str, when: str, target: str, status: int, agent: str, size: int = 10) -> str:
    return (f'{address} - - [{when} +0000] "GET {target} HTTP/1.1" {status} {size} "-" '
            f'"{agent}"\n')


def write(tmp_path: Path, lines: list[str], name: str = "access.log") -> Path:
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return write(tmp_path, [
        line("66.249.66.1", "02/Nov/2026:10:00:00", "/robots.txt", 200, GOOGLEBOT),
        line("66.249.66.1", "02/Nov/2026:10:00:01", "/private/a", 200, GOOGLEBOT, 500),
        line("192.0.2.9", "02/Nov/2026:10:00:02", "/private/b?q=1", 200, GPTBOT, 700),
        line("192.0.2.9", "03/Nov/2026:10:00:02", "/open", 402, GPTBOT, 0),
        line("192.0.2.10", "03/Nov/2026:10:00:03", "/private/c", 200, BROWSER),
        line("192.0.2.10", "03/Nov/2026:10:00:04", "/robots.txt", 404, BROWSER),
    ])


def test_the_table_has_a_row_per_crawler_request_and_robots_fetch(log: Path) -> None:
    with audit_logs(log, site="https://example.com", robots=ROBOTS) as audit:
        table = audit.table()
        rows = table.to_pylist()
        assert [(r["token"], r["url"], r["verdict"]) for r in rows] == [
            ("Googlebot", "/robots.txt", "allowed"),
            ("Googlebot", "/private/a", "violation"),
            ("GPTBot", "/private/b?q=1", "violation"),
            ("GPTBot", "/open", "allowed"),
            (None, "/robots.txt", None),  # a browser's robots.txt fetch: kept, not judged
        ]
        assert rows[1]["line"] == 2 and rows[1]["rule"] == "Disallow: /private/"
        assert rows[1]["time"] == datetime.datetime(2026, 11, 2, 10, 0, 1,
                                                    tzinfo=datetime.timezone.utc)
        assert rows[3]["paid"] is True and rows[3]["content_signal"] == "ai-train=no"
        metadata = table.schema.metadata
        assert b"robotsrules.crawler_registry_compiled" in metadata
        assert sum(batch.num_rows for batch in audit.batches(rows=2)) == 5


def test_the_summary_counts(log: Path) -> None:
    with audit_logs([log], site="https://example.com", robots=ROBOTS) as audit:
        summary = audit.summary
    json.dumps(summary)  # plain JSON
    assert audit.violations == 2
    totals = summary["totals"]
    assert (totals["requests"], totals["bots"], totals["violations"], totals["paid"],
            totals["robots_fetches"], totals["other_requests"]) == (4, 2, 2, 1, 2, 1)
    openai, google = summary["bots"]  # two requests each: by token
    assert (google["token"], google["operator"], google["category"]) == \
        ("Googlebot", "Google", "search")
    assert google["verification"]["verified"] == 2  # Google's published list holds it
    assert openai["verification"]["not-verified"] == 2
    assert google["robots_txt"]["fetched"] and google["robots_txt"]["statuses"] == {"200": 1}
    assert not openai["robots_txt"]["fetched"]
    [violation] = openai["violations"]
    assert violation["line"] == 2 and violation["examples"] == [
        {"time": "2026-11-02T10:00:02Z", "url": "/private/b?q=1"}]
    assert [day["day"] for day in openai["days"]] == ["2026-11-02", "2026-11-03"]
    assert summary["robots_fetches"]["statuses"] == {"200": 1, "404": 1}
    assert summary["robots_fetches"]["by_others"] == 1
    assert {c["category"] for c in summary["categories"]} == {"search", "ai-training"}


def test_no_verify_counts_not_checked(log: Path) -> None:
    with audit_logs(log, site="https://example.com", robots=ROBOTS, verify=False) as audit:
        assert audit.summary["totals"]["requests"] == 4
        assert audit.summary["days"][0]["verification"]["not-checked"] == 3


def test_bad_options_are_usage_errors(log: Path, tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument):
        audit_logs(log, site="https://example.com")
    with pytest.raises(InvalidArgument):
        audit_logs(log, site="https://example.com", robots=ROBOTS, engine="pandas")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        audit_logs(log, site="https://example.com", robots=ROBOTS, client_ip_field="Nope")
    with pytest.raises(InvalidArgument):
        audit_logs(tmp_path / "missing.log", site="https://example.com", robots=ROBOTS)
    assert robotsrules.LogAudit is type(audit_logs(log, site="https://example.com",
                                                   robots=ROBOTS))


def test_the_collectors_threshold_is_raised_while_a_job_runs_and_put_back(
        log: Path, tmp_path: Path) -> None:
    import gc

    from robotsrules._audit._job import GC_THRESHOLD

    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    with audit_logs(log, site="https://example.com", robots=ROBOTS,
                    progress=lambda *_: seen.append(gc.get_threshold())):
        pass
    assert seen and seen[0] == (max(before[0], GC_THRESHOLD), before[1], before[2])
    assert gc.get_threshold() == before
    with pytest.raises(InvalidArgument):  # raised in the job: put back all the same
        audit_logs(tmp_path / "missing.log", site="https://example.com", robots=ROBOTS)
    assert gc.get_threshold() == before



def test_jobs_in_two_threads_put_the_collectors_threshold_back_in_any_order(
        log: Path) -> None:
    """Job A starts, job B starts, A ends, then B ends: the thresholds from before A are in
    force after B (not the raised ones B saw when it started)."""
    import gc
    import threading

    before = gc.get_threshold()
    b_running, a_done = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def in_b(*_: object) -> None:
        b_running.set()
        if not a_done.wait(60):
            raise AssertionError("job A did not end")

    def job_b() -> None:
        try:
            with audit_logs(log, site="https://example.com", robots=ROBOTS, progress=in_b):
                pass
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    thread = threading.Thread(target=job_b)

    def in_a(*_: object) -> None:
        if not thread.is_alive() and not b_running.is_set():
            thread.start()
            assert b_running.wait(60), "job B did not start"

    with audit_logs(log, site="https://example.com", robots=ROBOTS, progress=in_a):
        pass
    a_done.set()
    thread.join(60)
    assert not failures and not thread.is_alive()
    assert gc.get_threshold() == before



def test_a_job_that_fails_removes_its_spill_from_the_callers_folder(
        log: Path, tmp_path: Path) -> None:
    class Failing(io.RawIOBase):  # a stream that breaks after its first read
        def __init__(self) -> None:
            self.reads = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            self.reads += 1
            if self.reads > 1:
                raise RuntimeError("the stream broke")
            data = log.read_bytes()[:len(buffer)]
            buffer[:len(data)] = data
            return len(data)

    folder = tmp_path / "tables"
    folder.mkdir()
    with pytest.raises(RuntimeError):
        audit_logs(io.BufferedReader(Failing()), site="https://example.com", robots=ROBOTS,
                   directory=folder)
    assert not (folder / "raw.arrow").exists()

BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"


def test_crawl_delay_is_judged_only_for_crawlers_that_read_it(tmp_path: Path) -> None:
    lines = []
    for second in (0, 2, 4, 20):  # a gap of 2 s, 2 s, then 16 s against a delay of 10 s
        lines.append(line("192.0.2.1", f"02/Nov/2026:10:00:{second:02d}", f"/p{second}", 200,
                          BINGBOT))
        lines.append(line("66.249.66.1", f"02/Nov/2026:10:00:{second:02d}", f"/p{second}",
                          200, GOOGLEBOT))
    log = write(tmp_path, lines)
    robots = b"User-agent: *\nCrawl-delay: 10\n"
    with audit_logs(log, site="https://example.com", robots=robots, verify=False) as audit:
        bots = {bot["token"]: bot["crawl_delay"] for bot in audit.summary["bots"]}
    assert bots["Bingbot"] == {"reads": "yes", "delay": 10.0, "judged": True, "intervals": 3,
                               "too_fast": 2, "kept": False}
    assert bots["Googlebot"]["reads"] == "no"
    assert bots["Googlebot"]["judged"] is False and bots["Googlebot"]["kept"] is None


def test_a_strangers_long_token_and_url_are_cut_in_the_summary(tmp_path: Path) -> None:
    token = "Evil" + "x" * 20_000
    log = write(tmp_path, [line("192.0.2.1", "02/Nov/2026:10:00:00", "/private/" + "y" * 30_000,
                                200, token)])
    with audit_logs(log, site="https://example.com", robots=ROBOTS, verify=False) as audit:
        [bot] = audit.summary["bots"]
        assert bot["token"] == token[:200]
        assert len(bot["violations"][0]["examples"][0]["url"]) == 1000
        assert len(audit.table().column("url")[0].as_py()) == 30_009  # the table keeps it


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("sample", "site", "bots"), [
    ("alb.log", "https://www.example.com", 2), ("apache_combined.log", "https://x.example", 3),
    ("caddy.json", "https://example.org", 2), ("cloudflare.ndjson", "https://example.org", 3),
    ("cloudfront.log", "https://www.example.com", 2), ("nginx.json", "https://example.org", 2),
    ("nginx_combined.log", "https://x.example", 2),
    ("vhost_combined.log", "https://www.example.com", 2),
])
def test_every_format_through_the_job(sample: str, site: str, bots: int) -> None:
    """The formats' real-shaped samples (test_formats) audited whole: every crawler of the
    sample has its bot, every request of the site's host is judged."""
    with audit_logs(DATA / sample, site=site, robots=ROBOTS, verify=False) as audit:
        summary = audit.summary
        assert summary["totals"]["bots"] == bots, summary["bots"]
        rows = audit.table().to_pylist()
    for row in rows:
        if row["token"] is None:
            continue
        host = (row["host"] or site.split("://")[1]).lower()
        judged = row["verdict"] in ("allowed", "violation")
        assert judged == (host == site.split("://")[1]), row
