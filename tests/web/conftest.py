"""The workbench served for real on loopback: uvicorn in a thread on a socket bound before
it starts (so a browser may connect at once; no wait for readiness), and a plain HTTP
server on loopback holding robots.txt files to fetch (hostile ones included)."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from typing import Any, ClassVar, NamedTuple, Optional

import pytest

from tests.timing import HANG

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules._web._app import create_app
from robotsrules._web._server import listen, server

HOSTILE_ROBOTS = (
    "User-agent: *\n"
    "Disallow: /<script>window.__pwned=1</script>\n"
    "Disallow: /\"><img src=x onerror=\"window.__pwned=1\">\n"
    "Allow: /a\x1b]0;owned\x07\u202egnp.exe\n"
    "<a href=\"javascript:window.__pwned=1\">click</a>\n"
)

# RSL 1.0 documents for the crawler table's licence terms (test_workbench_licences.py)
LICENCE_TERMS = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
                 b'<license><permits type="usage">search</permits></license>'
                 b'<license><permits type="usage">ai-train</permits><payment type="training">'
                 b'<amount currency="EUR">2.50</amount></payment></license>'
                 b'</content></rsl>')
HOSTILE_LICENCE = ('<rsl xmlns="https://rslstandard.org/rsl">'
                   '<content url="/&lt;script&gt;window.__pwned=1&lt;/script&gt;\u202egnp.exe">'
                   '<license><permits type="usage">search</permits></license></content>'
                   '<content url="/"><license><prohibits type="usage">ai-train</prohibits>'
                   '<payment type="crawl"><standard>javascript:window.__pwned=1</standard>'
                   '<custom>https://x.example/&lt;img src=x onerror="window.__pwned=1"&gt;</custom>'
                   '</payment></license></content></rsl>').encode()


class Site(NamedTuple):
    base: str
    """The origin of the loopback site, e.g. ``http://127.0.0.1:4711``."""
    hostile: str
    """The same server named ``localhost``: its robots.txt redirects to a hostile file."""
    hits: list[str]


class _Handler(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {
        "/robots.txt": (200, {"Content-Type": "text/plain"},
                        b"User-agent: *\nDisallow: /from-the-site/\n"),
        "hostile/robots.txt": (301, {"Location": "/<script>window.__pwned=1</script>/robots.txt"},
                                b""),
        "/article": (200, {"Content-Type": "text/html",
                           "X-Robots-Tag": "noai, <script>window.__pwned=1</script>"},
                     b"<html><head><meta name='robots' content='noindex'>"
                     b"<title>x</title></head><body>x</body></html>"),
        "/<script>window.__pwned=1</script>/robots.txt": (
            200, {"Content-Type": "text/plain"}, HOSTILE_ROBOTS.encode()),
        **{f"/licences/{name}.xml": (status, {"Content-Type": "application/rsl+xml"}, body)
           for name, status, body in (("terms", 200, LICENCE_TERMS),
                                      ("hostile", 200, HOSTILE_LICENCE),
                                      ("broken", 503, b"<h1>down</h1>"),
                                      ("fourth", 200, LICENCE_TERMS),
                                      ("fifth", 200, LICENCE_TERMS))},
    }
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        path = self.path.replace("%3C", "<").replace("%3E", ">")
        if self.headers.get("Host", "").startswith("localhost") and path == "/robots.txt":
            path = "hostile/robots.txt"  # the same server by another name: the hostile site
        files = getattr(self.server, "files", None) or self.files  # see serving()
        status, headers, body = files.get(path, (404, {}, b""))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serving(files: Optional[dict[str, tuple[int, dict[str, str], bytes]]] = None
            ) -> Iterator[int]:
    """A loopback HTTP server of ``files`` (path -> status, headers, body; by default the
    site's own), its port while it runs; requests are counted in ``Site.hits``."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.files = files  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        thread.join(HANG)
        httpd.server_close()


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    """A loopback site with a robots.txt (and a redirect to a hostile one)."""
    with serving() as port:
        yield Site(f"http://127.0.0.1:{port}", f"http://localhost:{port}", _Handler.hits)


class Served(NamedTuple):
    guarded: str
    """The base URL of the workbench started without --allow-private-addresses."""
    open: str
    """The base URL of one started with it."""


def _start(allow: bool) -> tuple[str, Any, threading.Thread, Any]:
    sock = listen("127.0.0.1", 0)
    running = server(create_app(host="127.0.0.1", allow_private_addresses=allow))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    return f"http://127.0.0.1:{sock.getsockname()[1]}", running, thread, sock


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """Two workbenches on loopback, with and without the private-address allowance."""
    started = [_start(False), _start(True)]
    try:
        yield Served(started[0][0], started[1][0])
    finally:
        for _, running, thread, sock in started:
            running.should_exit = True
            thread.join(HANG)
            sock.close()


class HeldOrigin:
    """A loopback origin whose ``/robots.txt`` (``Cache-Control: max-age=600``) is answered
    only once :attr:`release` is set: :attr:`seen` is set when a request arrives, so a test
    knows a fetch is in flight without guessing when."""

    ROBOTS = b"User-agent: *\nDisallow: /held/\n"

    def __init__(self, held: bool = True) -> None:
        self.seen, self.release = threading.Event(), threading.Event()
        if not held:
            self.release.set()
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                origin.seen.set()
                origin.release.wait(HANG)
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Cache-Control", "max-age=600")
                    self.send_header("Content-Length", str(len(origin.ROBOTS)))
                    self.end_headers()
                    self.wfile.write(origin.ROBOTS)
                except OSError:  # the fetcher gave up (its server stopped): nothing to say
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> HeldOrigin:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.thread.join(HANG)
        self.httpd.server_close()
