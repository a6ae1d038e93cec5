"""Where a robots.txt history comes from (issue 37's ``--robots-history``): a git
repository made here by the ``git`` executable, WARC captures written by warcio, a cache
store written by a real :class:`RobotsCache` fetching from a loopback server, and a folder;
and hostile ones (a huge blob, a path that is none of them, a folder inside another
repository, a damaged capture, a corrupt entry): bounded, counted, never a traceback."""

from __future__ import annotations

import datetime
import io
import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional

import pytest

from robotsrules import RobotsCache
from robotsrules._audit._history import Bounds, read_history
from robotsrules._audit._inforce import Findings, History, Judge
from robotsrules.cache import SQLiteStore
from robotsrules.errors import InvalidArgument
from tests.network.servers import RawHTTPServer, respond

UTC = datetime.timezone.utc
T0 = datetime.datetime(2026, 11, 2, tzinfo=UTC)
HOUR = datetime.timedelta(hours=1)
GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="no git executable")


def bodies(history: History) -> list[tuple[datetime.datetime, Optional[bytes]]]:
    return [(v.since, None if v.robots is None else v.robots.source) for v in history.versions]


# ------------------------------------------------------------------------------- git

def git(repo: Path, *arguments: str, when: Optional[datetime.datetime] = None) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": os.fspath(repo.parent),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    if when is not None:  # the committer time gives the instant; the author time must not
        env["GIT_COMMITTER_DATE"] = f"{int(when.timestamp())} +0200"
        env["GIT_AUTHOR_DATE"] = f"{int((when - 100 * HOUR).timestamp())} +0000"
    subprocess.run(["git", "-C", os.fspath(repo), *arguments], check=True, env=env,
                   capture_output=True, timeout=60)


def commit(repo: Path, name: str, body: Optional[bytes], when: datetime.datetime) -> None:
    target = repo / name
    if body is None:
        git(repo, "rm", "-q", name)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        git(repo, "add", name)
    git(repo, "commit", "-q", "-m", f"change {name}", when=when)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    return root


@needs_git
def test_git_commits_give_versions_at_committer_time_and_deletion_is_unknown(
        repo: Path) -> None:
    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /a\n", T0)
    commit(repo, "README", b"not the file", T0 + HOUR)  # does not touch robots.txt
    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /b\n", T0 + 2 * HOUR)
    commit(repo, "robots.txt", None, T0 + 3 * HOUR)
    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /c\n", T0 + 4 * HOUR)
    findings = Findings()
    history = read_history(repo, findings=findings)
    assert bodies(history) == [
        (T0, b"User-agent: *\nDisallow: /a\n"), (T0 + 2 * HOUR, b"User-agent: *\nDisallow: /b\n"),
        (T0 + 3 * HOUR, None), (T0 + 4 * HOUR, b"User-agent: *\nDisallow: /c\n")]
    assert "deleted" in history.versions[2].source and findings.counts == {}
    judge = Judge(history)
    assert judge.judge("bot", "/b", T0 + 3 * HOUR + 1 * HOUR / 2).status == "no-file"
    assert judge.judge("bot", "/a", T0 + HOUR).status == "caching-allowance"  # window before T0


@needs_git
def test_git_path_inside_the_repository_and_a_bare_clone(repo: Path, tmp_path: Path) -> None:
    commit(repo, "public/robots.txt", b"User-agent: *\nDisallow: /x\n", T0)
    commit(repo, "robots.txt", b"User-agent: *\nAllow: /\n", T0 + HOUR)
    findings = Findings()
    assert bodies(read_history(repo, findings=findings, path_in_repo="public/robots.txt")) == [
        (T0, b"User-agent: *\nDisallow: /x\n")]
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", os.fspath(repo), os.fspath(bare)],
                   check=True, capture_output=True, timeout=60)
    assert bodies(read_history(bare, findings=findings)) == [(T0 + HOUR,
                                                              b"User-agent: *\nAllow: /\n")]
    assert findings.counts == {}


@needs_git
def test_git_bounds_versions_bytes_and_a_folder_in_a_repository_is_no_repository(
        repo: Path) -> None:
    for hour in range(5):
        commit(repo, "robots.txt", f"User-agent: *\nDisallow: /{hour}\n".encode(),
               T0 + hour * HOUR)
    findings = Findings()
    history = read_history(repo, findings=findings, bounds=Bounds(max_versions=2))
    assert [v.since for v in history.versions] == [T0 + 3 * HOUR, T0 + 4 * HOUR]
    assert findings.counts == {"too_many_versions": 1}
    findings = Findings()  # 26 octets each: the newest two fit, the three older not
    history = read_history(repo, findings=findings, bounds=Bounds(max_total_bytes=60))
    assert [v.robots is not None for v in history.versions] == [False] * 3 + [True] * 2
    assert findings.counts == {"over_total_bytes": 3}
    commit(repo, "robots.txt", b"Disallow: /" + b"x" * 5000 + b"\n", T0 + 5 * HOUR)
    findings = Findings()
    history = read_history(repo, findings=findings, bounds=Bounds(max_bytes=100))
    newest = history.versions[-1].robots
    assert newest is not None and newest.truncated and len(newest.source) == 100
    assert findings.counts == {"over_bound": 1}
    inner = repo / "dated"  # a folder of dated files inside a repository: a folder
    inner.mkdir()
    (inner / "2026-11-02.txt").write_bytes(b"User-agent: *\nDisallow: /f\n")
    (inner / "notes.md").write_bytes(b"x")
    (inner / "README").write_bytes(b"x")
    findings = Findings()
    assert bodies(read_history(inner, findings=findings)) == [
        (T0, b"User-agent: *\nDisallow: /f\n")]
    assert findings.counts == {"not_a_date": 2}
    assert sorted(findings.examples["not_a_date"]) == ["README", "notes.md"]


@needs_git
def test_git_symbolic_link_is_no_file(repo: Path) -> None:
    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /a\n", T0)
    git(repo, "rm", "-q", "robots.txt")
    (repo / "robots.txt").symlink_to("/etc/passwd")  # the blob holds the target's name
    git(repo, "add", "robots.txt")
    git(repo, "commit", "-q", "-m", "link", when=T0 + HOUR)
    findings = Findings()
    assert bodies(read_history(repo, findings=findings)) == [
        (T0, b"User-agent: *\nDisallow: /a\n"), (T0 + HOUR, None)]
    assert findings.counts == {"not_a_file": 1}


@needs_git
def test_git_failure_is_a_finding(repo: Path) -> None:
    findings = Findings()
    assert read_history(repo, findings=findings).versions == ()  # no commit yet
    assert findings.counts == {"git_error": 1}
    assert "git log" in findings.examples["git_error"][0]


# ------------------------------------------------------------------------------ WARC

def write_warc(path: Path, captures: list[tuple[str, int, bytes, Optional[str]]]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, status, body, date in captures:
            headers = StatusAndHeaders(f"{status} X", [("Content-Type", "text/plain")],
                                       protocol="HTTP/1.1")
            warc_headers = {"WARC-Date": date} if date is not None else None
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                               http_headers=headers,
                                               warc_headers_dict=warc_headers)
            if date is None:
                record.rec_headers.remove_header("WARC-Date")
            writer.write_record(record)


def test_warc_captures_read_as_the_fetch_policy_reads_statuses(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    path = tmp_path / "robots.warc.gz"
    write_warc(path, [
        ("https://example.com/robots.txt", 503, b"down", "2026-11-01T00:00:00Z"),
        ("https://example.com/robots.txt", 200, b"User-agent: *\nDisallow: /a\n",
         "2026-11-02T00:00:00Z"),
        ("https://example.com/robots.txt", 500, b"down", "2026-11-02T06:00:00Z"),
        ("https://example.com/robots.txt", 301, b"", "2026-11-02T07:00:00Z"),
        ("https://other.example/robots.txt", 200, b"Disallow: /", "2026-11-02T08:00:00Z"),
        ("https://example.com/robots.txt", 404, b"gone", "2026-11-03T00:00:00Z"),
        ("https://example.com/robots.txt", 200, b"User-agent: *\nDisallow: /b\n",
         "2026-11-04T00:00:00Z"),
    ])
    findings = Findings()
    history = read_history(path, findings=findings, site="https://example.com/page")
    states = [(v.since, v.robots) for v in history.versions]
    assert [since for since, _ in states] == [T0 - 24 * HOUR, T0, T0 + 24 * HOUR,
                                              T0 + 48 * HOUR]
    first, file_a, gone, file_b = (robots for _, robots in states)
    assert first is not None and not first.allowed("https://example.com/x", agent="bot")
    assert file_a is not None and file_a.source == b"User-agent: *\nDisallow: /a\n"
    assert gone is not None and gone.allowed("https://example.com/a", agent="bot")
    assert file_b is not None and file_b.source == b"User-agent: *\nDisallow: /b\n"
    judge = Judge(history)  # the 500 at 06:00 left /a disallowed
    assert judge.judge("bot", "https://example.com/a", T0 + 10 * HOUR).version.robots is file_a
    assert findings.counts == {"redirect": 1, "other_origin": 1}
    findings = Findings()  # a deadline already past: nothing read, said so
    assert read_history(path, findings=findings, bounds=Bounds(timeout=-1.0)).versions == ()
    assert findings.counts == {"timeout": 1}


def test_warc_undated_damaged_and_no_site(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    path = tmp_path / "robots.warc.gz"
    write_warc(path, [
        ("https://example.com/robots.txt", 200, b"Disallow: /a\n", "2026-11-02T00:00:00Z"),
        ("https://example.com/robots.txt", 200, b"Disallow: /z\n", None),
        ("https://other.example/robots.txt", 200, b"Disallow: /", "2026-11-02T08:00:00Z"),
    ])
    data = path.read_bytes()
    cut = tmp_path / "cut.warc"
    import gzip
    cut.write_bytes(gzip.decompress(data)[:-120])  # the last record cut short
    findings = Findings()
    history = read_history(cut, findings=findings)  # no site: the first origin read
    assert bodies(history) == [(T0, b"Disallow: /a\n")]
    assert findings.counts["undated"] == 1
    assert set(findings.counts) - {"undated"} <= {"other_origin", "damaged", "unreadable"}
    assert findings.counts.get("other_origin", 0) + findings.counts.get("damaged", 0) + (
        findings.counts.get("unreadable", 0)) >= 1


# ----------------------------------------------------------------------- cache store

def test_cache_store_written_by_robots_cache(tmp_path: Path) -> None:
    store_path = tmp_path / "cache.sqlite3"
    now = [T0.timestamp()]
    routes = {"/robots.txt": respond(200, b"User-agent: *\nDisallow: /private\n")}
    with RawHTTPServer(routes) as server, RawHTTPServer(
            {"/robots.txt": respond(200, b"User-agent: *\nDisallow: /")}) as other:
        with RobotsCache(SQLiteStore(os.fspath(store_path)), user_agent="ExampleBot/1.0",
                         clock=lambda: now[0]) as cache:
            assert not cache.allowed(server.url("/private"))
            assert not cache.allowed(other.url("/x"))
            cache.tdmrep(server.url("/p"))  # another kind of entry, by URL: not a version
            now[0] += 3 * 24 * 3600  # expired: the next lookup fetches again
            server.handler = {"/robots.txt": respond(503, b"down")}
            assert not cache.allowed(server.url("/private"))  # the good copy stays
        findings = Findings()
        history = read_history(store_path, findings=findings, site=server.url("/"))
        assert bodies(history) == [(T0, b"User-agent: *\nDisallow: /private\n")]
        assert findings.counts == {"other_origin": 1}
        with RobotsCache(SQLiteStore(os.fspath(store_path)), user_agent="ExampleBot/1.0",
                         clock=lambda: now[0] + 3 * 24 * 3600) as cache:
            server.handler = {"/robots.txt": respond(404, b"gone")}
            assert cache.allowed(server.url("/private"))
        history = read_history(store_path, findings=Findings(), site=server.url("/"))
        assert len(history.versions) == 1 and history.versions[0].since == T0 + 6 * 24 * HOUR
        robots = history.versions[0].robots
        assert robots is not None and robots.allowed(server.url("/private"), agent="b")


def test_cache_store_corrupt_entry_is_a_finding(tmp_path: Path) -> None:
    import sqlite3

    store_path = tmp_path / "cache.sqlite3"
    SQLiteStore(os.fspath(store_path)).close()
    with sqlite3.connect(store_path) as connection:
        connection.execute("INSERT INTO entries VALUES ('https://example.com', "
                           "x'7b2266223a317d0a3c7363726970743e', 0, 0)")
    findings = Findings()
    assert read_history(store_path, findings=findings).versions == ()
    assert findings.counts == {"unreadable": 1}


def test_not_a_history_is_the_callers_mistake(tmp_path: Path) -> None:
    plain = tmp_path / "robots.txt"
    plain.write_bytes(b"User-agent: *\nDisallow: /\n")
    with pytest.raises(InvalidArgument, match=r"no robots\.txt history"):
        read_history(plain, findings=Findings())
    with pytest.raises(OSError):
        read_history(tmp_path / "missing", findings=Findings())


@needs_git
def test_a_git_history_judges_the_audit(repo: Path, tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    from robotsrules import audit_logs

    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /a/\n", T0)
    commit(repo, "robots.txt", b"User-agent: *\nDisallow: /a/\nDisallow: /b/\n", T0 + 48 * HOUR)
    agent = '"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"'
    log = tmp_path / "access.log"
    log.write_text("".join(
        f'66.249.66.1 - - [{when}] "GET {path} HTTP/1.1" 200 5 "-" {agent}\n' for when, path in (
            ("03/Nov/2026:00:00:00 +0000", "/a/1"),  # disallowed since T0, 24 h before
            ("03/Nov/2026:00:00:00 +0000", "/b/1"),  # before /b/ was disallowed
            ("04/Nov/2026:12:00:00 +0000", "/b/2"),  # 12 h after: the caching allowance
            ("05/Nov/2026:12:00:00 +0000", "/b/3"))))  # 36 h after: a violation
    with audit_logs(log, site="https://www.example.com",
                    history=read_history(repo, findings=Findings())) as audit:
        verdicts = audit.summary["bots"][0]["verdicts"]
    assert verdicts == {"allowed": 1, "violation": 2, "caching-allowance": 1, "no-file": 0}
