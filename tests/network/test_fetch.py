"""fetch() against real servers on 127.0.0.1: status codes, caching headers, redirects,
time-outs, broken transfers, size limits and compression bombs, odd bodies, and FTP."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator

import httpx
import pytest

from robotsrules import parse
from robotsrules._fetch._fetcher import fetch
from robotsrules.policy import DAY, Policy
from tests.network.servers import (
    ServerPool,
    broken_chunked,
    drip,
    drip_head,
    filler,
    free_port,
    gzip_bomb,
    redirect,
    reset_mid_body,
    respond,
    serve_bytes,
    slow_headers,
    stream,
    truncated_chunked,
)
from tests.timing import HANG, HEALTHY, finishes

UA = "IntegrationBot/1.0 (+http://127.0.0.1/bot)"
AGENT = "IntegrationBot"
RULES = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n"


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


TOTAL_LIMIT = "timed out (total time limit)"  # the error of our deadline, not of one read


def get(url: str, **kwargs: object):
    kwargs.setdefault("timeout", HEALTHY)  # a test that wants a time-out passes its own
    return fetch(url, user_agent=UA, **kwargs)  # type: ignore[arg-type]


def allowed(result, url: str) -> bool:
    return result.robots.allowed(url, agent=AGENT)


def allows_all(result, origin: str) -> bool:
    return all(allowed(result, origin + path) for path in ("/", "/private", "/x/y?z=1"))


def disallows_all(result, origin: str) -> bool:
    return not any(allowed(result, origin + path) for path in ("/", "/private", "/x/y?z=1"))


# -- 2xx and freshness --------------------------------------------------------------------

def test_200_with_rules(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.status == 200
    assert result.error is None
    assert result.url == server.url()
    assert result.final_url == server.url()
    assert result.redirects == ()
    assert result.size == len(RULES)
    assert result.truncated is False
    assert not allowed(result, server.url("/private/page"))
    assert allowed(result, server.url("/private/ok/page"))
    assert allowed(result, server.url("/public"))
    assert result.expires_at - result.fetched_at == Policy().default_lifetime == DAY
    assert server.count() == 1
    assert server.requests[0].method == "GET"


def test_200_max_age(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "public, max-age=120"}))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.expires_at - result.fetched_at == 120


def test_200_huge_max_age_is_clamped(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "max-age=999999999"}))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.expires_at - result.fetched_at == Policy().max_lifetime


def test_200_no_store_gets_min_lifetime(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "no-store"}))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.expires_at - result.fetched_at == Policy().min_lifetime
    assert not allowed(result, server.url("/private"))


def test_now_is_used_for_times(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "max-age=300"}))
    result = get(server.url(), now=1_000_000.0)
    assert result.fetched_at == 1_000_000.0
    assert result.expires_at == 1_000_300.0


# -- 4xx ------------------------------------------------------------------------------------

@pytest.mark.parametrize("status", [404, 410])
def test_4xx_unavailable_allows_all(servers: ServerPool, status: int) -> None:
    server = servers.http(respond(status, b"User-agent: *\nDisallow: /\n"))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert result.status == status
    assert allows_all(result, server.origin)


@pytest.mark.parametrize("status", [401, 403])
def test_401_403_unavailable_by_default(servers: ServerPool, status: int) -> None:
    server = servers.http(respond(status, b"denied"))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert result.status == status
    assert allows_all(result, server.origin)


@pytest.mark.parametrize("status", [401, 403])
def test_401_403_forbidden_with_legacy_policy(servers: ServerPool, status: int) -> None:
    server = servers.http(respond(status, b"denied"))
    result = get(server.url(), policy=Policy.legacy())
    assert result.outcome == "forbidden"
    assert result.status == status
    assert disallows_all(result, server.origin)


# -- 429 / 5xx --------------------------------------------------------------------------

@pytest.mark.parametrize("status", [429, 500, 503])
def test_429_5xx_unreachable_disallows_all(servers: ServerPool, status: int) -> None:
    server = servers.http(respond(status, b"User-agent: *\nAllow: /\n"))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.status == status
    assert str(status) in (result.error or "")
    assert disallows_all(result, server.origin)
    assert result.expires_at - result.fetched_at == Policy().retry_after


@pytest.mark.parametrize("status", [429, 500, 503])
def test_retry_after_sets_expiry(servers: ServerPool, status: int) -> None:
    server = servers.http(respond(status, b"busy", {"Retry-After": "120"}))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.expires_at - result.fetched_at == 120


# -- redirects ----------------------------------------------------------------------------

def _chain(hops: int) -> dict:
    """/robots.txt -> /r1 -> ... -> /r<hops>, which answers RULES."""
    routes = {"/robots.txt": redirect("/r1") if hops else respond(200, RULES)}
    for hop in range(1, hops + 1):
        routes[f"/r{hop}"] = redirect(f"/r{hop + 1}") if hop < hops else respond(200, RULES)
    return routes


def test_five_redirects_are_followed(servers: ServerPool) -> None:
    server = servers.http(_chain(5))
    result = get(server.url())
    assert result.outcome == "ok"
    assert len(result.redirects) == 5
    assert result.redirects == tuple(server.url(f"/r{hop}") for hop in range(1, 6))
    assert result.final_url == server.url("/r5")
    assert result.url == server.url()
    assert not allowed(result, server.url("/private"))
    assert server.paths == ["/robots.txt", "/r1", "/r2", "/r3", "/r4", "/r5"]


def test_six_redirects_are_unavailable(servers: ServerPool) -> None:
    server = servers.http(_chain(6))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert "redirect" in (result.error or "")
    assert allows_all(result, server.origin)
    assert "/r6" not in server.paths  # the sixth hop is not requested


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_each_redirect_status_is_followed(servers: ServerPool, status: int) -> None:
    server = servers.http({"/robots.txt": redirect("/real", status), "/real": respond(200, RULES)})
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.redirects == (server.url("/real"),)


def test_cross_host_redirect(servers: ServerPool) -> None:
    target = servers.http(respond(200, b"User-agent: *\nDisallow: /from-b\n"))
    source = servers.http(redirect(target.url()))
    assert source.port != target.port
    result = get(source.url())
    assert result.outcome == "ok"
    assert result.url == source.url()
    assert result.origin == source.origin
    assert result.final_url == target.url()
    assert result.redirects == (target.url(),)
    assert not allowed(result, source.url("/from-b"))
    assert allowed(result, source.url("/private"))
    assert source.count() == 1
    assert target.count() == 1


def test_redirect_loop(servers: ServerPool) -> None:
    server = servers.http({"/robots.txt": redirect("/a"), "/a": redirect("/robots.txt")})
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert "loop" in (result.error or "")
    assert allows_all(result, server.origin)
    assert server.paths == ["/robots.txt", "/a"]


def test_self_redirect_loop(servers: ServerPool) -> None:
    server = servers.http(redirect("/robots.txt"))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert "loop" in (result.error or "")
    assert server.count() == 1


# Regression: httpx builds the next request for every 3xx with a Location, even when it does
# not follow redirects, and raises httpx.InvalidURL for these; that must read "unavailable".
@pytest.mark.parametrize("location", ["javascript:alert(1)", "mailto:webmaster@example.com",
                                      "data:text/plain,User-agent: *"])
def test_redirect_to_unsupported_scheme(servers: ServerPool, location: str) -> None:
    server = servers.http(redirect(location))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert result.error
    assert allows_all(result, server.origin)
    assert server.count() == 1


def test_redirect_without_location(servers: ServerPool) -> None:
    server = servers.http(respond(302, b"", content_type=None))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert "Location" in (result.error or "")


# -- time-outs ----------------------------------------------------------------------------
# Each misbehaviour lasts far longer than the hang guard (a silence or a drip of ten minutes,
# ended when the test stops its server): a fetch that returns within the guard, with the
# time-out's error, was ended by that time-out, however slow the machine. A deadline never
# fires early (the lower bounds).
LONG = 5 * HANG  # how long a misbehaviour lasts

def test_slow_headers_time_out(servers: ServerPool) -> None:
    server = servers.http(slow_headers(LONG))
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), timeout=0.5, total_timeout=HEALTHY))
    elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error == "timed out"  # the read time-out, not the (later) deadline
    assert disallows_all(result, server.origin)
    assert elapsed >= 0.5


def test_slow_body_hits_total_timeout(servers: ServerPool) -> None:
    server = servers.http(drip(RULES * 250, interval=0.05))  # reads that all succeed
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), total_timeout=1.5))
    elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error == TOTAL_LIMIT
    assert elapsed >= 1.4


def test_slow_head_dripping_hits_total_timeout(servers: ServerPool) -> None:
    server = servers.http(drip_head(interval=0.05, give_up=LONG))
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), total_timeout=1.5))
    elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error == TOTAL_LIMIT
    assert elapsed >= 1.4


def test_default_total_timeout_is_three_read_timeouts(servers: ServerPool) -> None:
    # Reads 0.05 s apart never trip the 0.4 s read time-out on an idle machine; on a loaded
    # one a read may, and that is a time-out too.
    server = servers.http(drip(RULES * 250, interval=0.05))
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), timeout=0.4))
    elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error in (TOTAL_LIMIT, "timed out")
    assert elapsed >= (3 * 0.4 - 0.05 if result.error == TOTAL_LIMIT else 0.4)


# -- broken transfers ---------------------------------------------------------------------

def test_connection_reset_mid_body(servers: ServerPool) -> None:
    body = RULES + b"#" * 20_000
    server = servers.http(reset_mid_body(body, sent=200))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.error
    assert disallows_all(result, server.origin)


def test_body_shorter_than_content_length(servers: ServerPool) -> None:
    def short(exchange) -> None:
        exchange.send(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n")
        exchange.send(RULES)  # then FIN

    server = servers.http(short)
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.error


@pytest.mark.parametrize("scenario", [broken_chunked, truncated_chunked])
def test_broken_chunked_encoding(servers: ServerPool, scenario) -> None:
    server = servers.http(scenario())
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.error
    assert disallows_all(result, server.origin)


def test_garbage_instead_of_http(servers: ServerPool) -> None:
    server = servers.http(lambda exchange: exchange.send(b"SSH-2.0-OpenSSH_9.0\r\n"))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.error


def test_bad_gzip_is_unreachable(servers: ServerPool) -> None:
    server = servers.http(respond(200, b"\x1f\x8bthis is not gzip at all",
                                  {"Content-Encoding": "gzip"}))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert "gzip" in (result.error or "")


def test_connection_refused() -> None:
    port = free_port()
    result = get(f"http://127.0.0.1:{port}/robots.txt")
    assert result.outcome == "unreachable"
    assert result.error == "connection refused"  # at once: not a time-out
    assert result.status is None
    assert disallows_all(result, f"http://127.0.0.1:{port}")


# -- size limits and compression --------------------------------------------------------

def test_10mb_body_is_truncated_at_512000(servers: ServerPool) -> None:
    head = b"User-agent: *\nDisallow: /early\n"
    late = b"Disallow: /late\n"
    before = 600_000 - len(head)
    total = 1 << 30  # a GiB announced: the fetch must stop reading, not read it all
    sent = [0]

    def chunks() -> Iterator[bytes]:
        for chunk in (head, *filler(before), late):
            sent[0] += len(chunk)
            yield chunk
        for chunk in filler(total - len(head) - before - len(late)):
            sent[0] += len(chunk)
            yield chunk

    # control: the late rule is well formed, and would apply without the limit
    prefix = head + b"".join(filler(before)) + late
    assert prefix.index(late) > 512_000
    assert not parse(prefix, max_bytes=None).allowed("http://h/late", agent=AGENT)

    server = servers.http(stream(chunks, total))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.truncated is True
    assert result.size == 512_000
    server.stop()  # the scenario has ended: the client hung up
    # The connection was dropped after the limit: the server could send no more than what
    # the socket buffers hold past it (a few MiB on loopback), not the whole body.
    assert sent[0] < 64 * 1024 * 1024, sent[0]
    assert not allowed(result, server.url("/early"))
    assert allowed(result, server.url("/late"))  # past 500 KiB: not applied


def test_body_of_exactly_max_bytes_is_not_truncated(servers: ServerPool) -> None:
    head = b"User-agent: *\nDisallow: /early\n"
    body = head + b"".join(filler(512_000 - len(head) - 12)) + b"Disallow: /z"
    assert len(body) == 512_000
    server = servers.http(respond(200, body))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.truncated is False
    assert result.size == 512_000
    assert not allowed(result, server.url("/z"))


def test_max_bytes_argument(servers: ServerPool) -> None:
    body = b"User-agent: *\nDisallow: /a\n" + b"#" * 100 + b"\nDisallow: /b\n"
    server = servers.http(respond(200, body))
    result = get(server.url(), max_bytes=64)
    assert result.outcome == "ok"
    assert result.truncated is True
    assert result.size == 64
    assert not allowed(result, server.url("/a"))
    assert allowed(result, server.url("/b"))


def test_gzip_bomb_is_bounded(servers: ServerPool) -> None:
    bomb = gzip_bomb(200)
    assert len(bomb) < 1_000_000
    server = servers.http(serve_bytes(bomb, {"Content-Encoding": "gzip"}))
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        result = get(server.url())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.outcome == "ok"
    assert result.truncated is True
    assert result.size == 512_000
    assert peak - before < 20 * 1024 * 1024, f"{(peak - before) / 2**20:.1f} MiB allocated"


def test_gzip_body_is_decoded(servers: ServerPool) -> None:
    import gzip
    import zlib

    server = servers.http(respond(200, gzip.compress(RULES), {"Content-Encoding": "gzip"}))
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.size == len(RULES)
    assert not allowed(result, server.url("/private"))
    assert server.requests[0].headers.get("accept-encoding", "").find("gzip") >= 0

    for data in (zlib.compress(RULES), zlib.compress(RULES)[2:-4]):  # zlib and raw deflate
        other = servers.http(respond(200, data, {"Content-Encoding": "deflate"}))
        result = get(other.url())
        assert result.outcome == "ok", result.error
        assert not allowed(result, other.url("/private"))


# -- odd bodies ---------------------------------------------------------------------------

def test_wrong_content_type_rules_still_apply(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, content_type="image/png"))
    result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/private"))
    assert allowed(result, server.url("/public"))


def test_html_soft_404_valid_lines_are_used(servers: ServerPool) -> None:
    page = (b"<!DOCTYPE html>\n<html><head><title>Page not found</title></head>\n<body>\n"
            b"<h1>Oops, nothing here</h1>\n"
            b"User-agent: *\n"
            b"Disallow: /x\n"
            b"<p>Try the <a href=\"/\">home page</a>.</p>\n</body></html>\n")
    server = servers.http(respond(200, page, content_type="text/html; charset=utf-8"))
    result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/x"))
    assert not allowed(result, server.url("/x/y"))
    assert allowed(result, server.url("/y"))
    assert allowed(result, server.url("/"))


def test_non_utf8_body(servers: ServerPool) -> None:
    body = b"User-agent: *\nDisallow: /caf\xe9\n"  # latin-1 e-acute: not valid UTF-8
    server = servers.http(respond(200, body, content_type="text/plain; charset=iso-8859-1"))
    result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/caf%E9"))
    assert not allowed(result, server.url("/caf%e9/menu"))
    assert allowed(result, server.url("/caf%C3%A9"))  # UTF-8 e-acute is another octet string
    assert allowed(result, server.url("/caf"))


# -- what is sent -------------------------------------------------------------------------

def test_user_agent_header_is_sent(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES))
    get(server.url())
    (request,) = server.requests
    assert request.headers["user-agent"] == UA
    assert request.method == "GET"
    assert "if-modified-since" not in request.headers  # unconditional GET
    assert "if-none-match" not in request.headers


@pytest.mark.parametrize("path", ["/", "/some/deep/page.html?q=1&r=2#frag", "/robots.txt",
                                  "/folder/robots.txt", ""])
def test_request_path_is_always_robots_txt(servers: ServerPool, path: str) -> None:
    server = servers.http(respond(200, RULES))
    result = get(server.origin + path)
    assert result.outcome == "ok"
    assert server.paths == ["/robots.txt"]
    assert result.url == server.url()


def test_bring_your_own_client_redirects_still_by_policy(servers: ServerPool) -> None:
    server = servers.http(_chain(6))
    with httpx.Client(follow_redirects=True, timeout=HEALTHY) as client:
        result = get(server.url(), client=client)
        assert result.outcome == "unavailable"
        assert "/r6" not in server.paths
        ok = servers.http(_chain(2))
        result = get(ok.url(), client=client)
        assert result.outcome == "ok"
        assert len(result.redirects) == 2


# -- FTP ----------------------------------------------------------------------------------

def test_ftp_anonymous_retr(servers: ServerPool) -> None:
    ftp = servers.ftp({"robots.txt": RULES})
    result = get(ftp.url("/any/page.html"))
    assert result.outcome == "ok", result.error
    assert result.status == 200
    assert result.url == ftp.url()
    assert result.size == len(RULES)
    assert not allowed(result, ftp.url("/private/x"))
    assert allowed(result, ftp.url("/private/ok/x"))
    assert allowed(result, ftp.url("/public"))


def test_ftp_missing_file_is_unavailable(servers: ServerPool) -> None:
    ftp = servers.ftp({"other.txt": b"nothing"})
    result = get(ftp.url())
    assert result.outcome == "unavailable"
    assert allows_all(result, ftp.origin)


def test_ftp_body_is_truncated(servers: ServerPool) -> None:
    body = b"User-agent: *\nDisallow: /a\n" + b"".join(filler(600_000)) + b"Disallow: /b\n"
    ftp = servers.ftp({"robots.txt": body})
    result = get(ftp.url())
    assert result.outcome == "ok"
    assert result.truncated is True
    assert result.size == 512_000
    assert not allowed(result, ftp.url("/a"))
    assert allowed(result, ftp.url("/b"))


def test_ftp_server_down_is_unreachable() -> None:
    port = free_port()
    result = get(f"ftp://127.0.0.1:{port}/robots.txt")
    assert result.outcome == "unreachable"
    assert "refused" in (result.error or "")
    assert disallows_all(result, f"ftp://127.0.0.1:{port}")


def test_http_redirect_to_ftp(servers: ServerPool) -> None:
    ftp = servers.ftp({"robots.txt": b"User-agent: *\nDisallow: /via-ftp\n"})
    server = servers.http(redirect(ftp.url()))
    result = get(server.url())
    assert result.outcome == "ok", result.error
    assert result.final_url == ftp.url()
    assert not allowed(result, server.url("/via-ftp"))
