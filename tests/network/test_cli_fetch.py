"""The CLI's main job against a real HTTP server on loopback: check URL..., fetch URL."""

from __future__ import annotations

import http.server
import io
import json
import os
import socket
import threading
from collections.abc import Iterator

import pytest

from robotsrules.cli import main

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "robots.txt")


@pytest.fixture()
def site() -> Iterator[tuple[str, list[str]]]:
    """A loopback site serving examples/robots.txt; yields its origin and the paths asked."""
    seen: list[str] = []
    with open(EXAMPLE, "rb") as handle:
        body = handle.read()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            if self.path == "/robots.txt":
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_response(404)
                self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_check_fetches_through_the_sqlite_cache(
    site: tuple[str, list[str]], tmp_path: os.PathLike[str]
) -> None:
    origin, seen = site
    cache = os.path.join(str(tmp_path), "cache.sqlite3")
    code, out = run("check", "--agent", "ExampleBot", "--cache", cache,
                    f"{origin}/private/x", f"{origin}/private/press/y")
    assert code == 1
    assert out.splitlines() == [
        f"disallowed  {origin}/private/x  3: Disallow: /private/",
        f"allowed     {origin}/private/press/y  4: Allow: /private/press/",
    ]
    code, out = run("check", "--agent", "ExampleBot", "--cache", cache, f"{origin}/ok")
    assert code == 0 and "no rule matches" in out
    assert seen == ["/robots.txt"]  # one fetch: the second run was served by the cache file
    run("check", "--agent", "ExampleBot", "--no-cache", f"{origin}/ok")
    assert seen == ["/robots.txt", "/robots.txt"]


def test_check_reports_an_unreachable_robots_txt() -> None:
    url = f"http://127.0.0.1:{closed_port()}/page"
    code, out = run("check", "--agent", "ExampleBot", "--no-cache", "--timeout", "2", url)
    assert code == 1
    assert out.strip() == (
        f"disallowed  {url}  unreachable: connection refused -> all disallowed")


def test_fetch_shows_status_outcome_expiry_and_groups(site: tuple[str, list[str]]) -> None:
    origin, _ = site
    code, out = run("fetch", f"{origin}/anything")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"robots.txt  {origin}/robots.txt"
    assert "outcome     ok" in lines and "status      200" in lines
    assert any(line.startswith("expires") for line in lines)
    assert "  line 9     GPTBot, CCBot: 1 rule" in lines


def test_fetch_of_an_unreachable_site_says_all_disallowed() -> None:
    code, out = run("fetch", f"http://127.0.0.1:{closed_port()}/", "--timeout", "2")
    assert code == 0
    assert "outcome     unreachable -> all disallowed" in out
    assert "error       connection refused" in out and "rules       none" in out


def test_fetch_json(site: tuple[str, list[str]]) -> None:
    origin, _ = site
    code, out = run("fetch", "--json", f"{origin}/anything")
    report = json.loads(out)
    assert code == 0
    assert report["url"] == f"{origin}/robots.txt" and report["status"] == 200
    assert report["outcome"] == "ok" and report["rules"] == "file"
    assert {"line": 9, "agents": ["GPTBot", "CCBot"], "rules": 1} in report["groups"]
    code, out = run("fetch", "--json", f"http://127.0.0.1:{closed_port()}/", "--timeout", "2")
    report = json.loads(out)
    assert report["outcome"] == "unreachable" and report["rules"] == "disallow-all"
    assert report["groups"] == [] and report["error"] == "connection refused"


def test_check_takes_a_percent_encoded_host(site: tuple[str, list[str]]) -> None:
    """Issue 22: the WHATWG URL standard percent-decodes a host before IDNA; browsers
    fetch 127.0.0.1 for %31%32%37.0.0.1."""
    origin, seen = site
    encoded = origin.replace("127.0.0.1", "%31%32%37.0.0.1")
    code, out = run("check", "--agent", "ExampleBot", "--no-cache", f"{encoded}/private/x")
    assert code == 1
    assert out.splitlines() == [f"disallowed  {encoded}/private/x  3: Disallow: /private/"]
    assert seen == ["/robots.txt"]


def test_check_refuses_a_host_that_decodes_to_a_forbidden_code_point(
        site: tuple[str, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    origin, seen = site
    bad = origin.replace("127.0.0.1", "127.0.0.1%2F")
    code, out = run("check", "--agent", "ExampleBot", "--no-cache", f"{bad}/x")
    assert code == 2
    assert "percent-decodes to '/'" in out + capsys.readouterr().err
    assert seen == []


def test_lint_says_what_each_reading_gives_for_the_issue_example(
        tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(str(tmp_path), "robots.txt")
    with open(path, "wb") as handle:
        handle.write(b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 12\n\n"
                     b"User-agent: SemrushBot\nCrawl-delay: 60\nUser-agent: *\n"
                     b"Disallow: /private\n")
    code, out = run("lint", path)
    assert code == 0  # warnings only (--fail-on error)
    joined = [line for line in out.splitlines() if " R207 " in line]
    assert len(joined) == 3
    assert all("both agents get the rules that follow (Google's grouping)" in line
               for line in joined)
    assert "the `Crawl-delay` of line 2 is read for the user-agent lines above it only" in joined[0]
