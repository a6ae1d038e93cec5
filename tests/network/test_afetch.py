"""afetch() (the async twin of fetch) against real servers on 127.0.0.1: a representative
subset of test_fetch, each run with ``asyncio.run`` (no plugin configuration needed)."""

from __future__ import annotations

import asyncio
import threading
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robotsrules._fetch._fetcher import afetch
from robotsrules.policy import Policy
from tests.network.servers import (
    ServerPool,
    broken_chunked,
    drip,
    drip_head,
    free_port,
    gzip_bomb,
    redirect,
    reset_mid_body,
    respond,
    serve_bytes,
    slow_headers,
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


def get(url: str, **kwargs: Any):
    kwargs.setdefault("timeout", HEALTHY)  # a test that wants a time-out passes its own
    return asyncio.run(afetch(url, user_agent=UA, **kwargs))


def allowed(result, url: str) -> bool:
    return result.robots.allowed(url, agent=AGENT)


def allows_all(result, origin: str) -> bool:
    return all(allowed(result, origin + path) for path in ("/", "/private", "/x/y?z=1"))


def disallows_all(result, origin: str) -> bool:
    return not any(allowed(result, origin + path) for path in ("/", "/private", "/x/y?z=1"))


def _chain(hops: int) -> dict:
    routes = {"/robots.txt": redirect("/r1")}
    for hop in range(1, hops + 1):
        routes[f"/r{hop}"] = redirect(f"/r{hop + 1}") if hop < hops else respond(200, RULES)
    return routes


def test_200(servers: ServerPool) -> None:
    server = servers.http(respond(200, RULES, {"Cache-Control": "max-age=120"}))
    result = get(server.origin + "/deep/page?x=1")
    assert result.outcome == "ok"
    assert result.status == 200
    assert result.url == server.url()
    assert result.expires_at - result.fetched_at == 120
    assert not allowed(result, server.url("/private"))
    assert allowed(result, server.url("/private/ok"))
    (request,) = server.requests
    assert request.path == "/robots.txt"
    assert request.headers["user-agent"] == UA


def test_404(servers: ServerPool) -> None:
    server = servers.http(respond(404, b"User-agent: *\nDisallow: /\n"))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert allows_all(result, server.origin)


def test_403_legacy(servers: ServerPool) -> None:
    server = servers.http(respond(403, b"no"))
    assert get(server.url()).outcome == "unavailable"
    assert get(server.url(), policy=Policy.legacy()).outcome == "forbidden"


def test_503_with_retry_after(servers: ServerPool) -> None:
    server = servers.http(respond(503, b"busy", {"Retry-After": "120"}))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert result.status == 503
    assert result.expires_at - result.fetched_at == 120
    assert disallows_all(result, server.origin)


def test_five_redirects(servers: ServerPool) -> None:
    server = servers.http(_chain(5))
    result = get(server.url())
    assert result.outcome == "ok"
    assert len(result.redirects) == 5
    assert result.final_url == server.url("/r5")
    assert not allowed(result, server.url("/private"))


def test_six_redirects(servers: ServerPool) -> None:
    server = servers.http(_chain(6))
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert allows_all(result, server.origin)
    assert "/r6" not in server.paths


def test_cross_host_redirect(servers: ServerPool) -> None:
    target = servers.http(respond(200, b"User-agent: *\nDisallow: /from-b\n"))
    source = servers.http(redirect(target.url(), 308))
    result = get(source.url())
    assert result.outcome == "ok"
    assert result.url == source.url()
    assert result.final_url == target.url()
    assert not allowed(result, source.url("/from-b"))


def test_redirect_loop(servers: ServerPool) -> None:
    server = servers.http({"/robots.txt": redirect("/a"), "/a": redirect("/robots.txt")})
    result = get(server.url())
    assert result.outcome == "unavailable"
    assert "loop" in (result.error or "")


def test_redirect_to_javascript(servers: ServerPool) -> None:
    server = servers.http(redirect("javascript:alert(1)"))
    result = get(server.url())
    assert result.outcome == "unavailable"


# As in test_fetch: each misbehaviour lasts far longer than the hang guard, so a fetch that
# returns within it, with the time-out's error, was ended by that time-out; a deadline never
# fires early.
LONG = 5 * HANG  # how long a misbehaviour lasts

def test_slow_headers_time_out(servers: ServerPool) -> None:
    server = servers.http(slow_headers(LONG))
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), timeout=0.5, total_timeout=HEALTHY))
    assert time.monotonic() - start >= 0.5
    assert result.outcome == "unreachable"
    assert result.error == "timed out"  # the read time-out, not the (later) deadline


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


def test_reset_and_broken_chunked(servers: ServerPool) -> None:
    for scenario in (reset_mid_body(RULES + b"#" * 20_000, sent=200), broken_chunked()):
        server = servers.http(scenario)
        result = get(server.url())
        assert result.outcome == "unreachable", scenario
        assert result.error


def test_connection_refused() -> None:
    port = free_port()
    result = get(f"http://127.0.0.1:{port}/robots.txt")
    assert result.outcome == "unreachable"
    assert result.status is None
    assert result.error == "connection refused"  # at once: not a time-out
    assert disallows_all(result, f"http://127.0.0.1:{port}")


def test_connection_refused_message_matches_sync() -> None:
    port = free_port()
    result = get(f"http://127.0.0.1:{port}/robots.txt")
    assert result.error == "connection refused"


def test_gzip_bomb(servers: ServerPool) -> None:
    server = servers.http(serve_bytes(gzip_bomb(200), {"Content-Encoding": "gzip"}))
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


def test_concurrent_fetches_share_a_loop(servers: ServerPool) -> None:
    # Neither server answers until both requests have arrived: fetches made one after the
    # other would leave the first waiting for the second, which never comes (the barrier
    # breaks after the hang guard, and the first server hangs up without an answer).
    both_asked = threading.Barrier(2, timeout=HANG / 2)

    def after_both(answer):
        def scenario(exchange) -> None:
            both_asked.wait()
            answer(exchange)
        return scenario

    fast = servers.http(after_both(respond(200, RULES)))
    slow = servers.http(after_both(respond(200, b"User-agent: *\nDisallow: /s\n")))

    async def both():
        return await asyncio.gather(
            afetch(slow.url(), user_agent=UA, timeout=HANG),
            afetch(fast.url(), user_agent=UA, timeout=HANG),
        )

    slow_result, fast_result = asyncio.run(both())
    assert slow_result.outcome == fast_result.outcome == "ok"  # concurrent: both answered
    assert not allowed(slow_result, slow.url("/s"))
    assert not allowed(fast_result, fast.url("/private"))


# -- FTP (runs in a worker thread) ---------------------------------------------------------

def test_ftp_retr(servers: ServerPool) -> None:
    ftp = servers.ftp({"robots.txt": RULES})
    result = get(ftp.url("/some/file"))
    assert result.outcome == "ok", result.error
    assert result.url == ftp.url()
    assert not allowed(result, ftp.url("/private"))
    assert allowed(result, ftp.url("/public"))


def test_ftp_missing_file(servers: ServerPool) -> None:
    ftp = servers.ftp({})
    result = get(ftp.url())
    assert result.outcome == "unavailable"
    assert allows_all(result, ftp.origin)


def test_ftp_down() -> None:
    port = free_port()
    result = get(f"ftp://127.0.0.1:{port}/robots.txt")
    assert result.outcome == "unreachable"
    assert "refused" in (result.error or "")


def test_bring_your_own_client_redirects_still_by_policy(servers: ServerPool) -> None:
    server = servers.http(_chain(6))

    async def main():
        async with httpx.AsyncClient(follow_redirects=True, timeout=HEALTHY) as client:
            return await afetch(server.url(), user_agent=UA, client=client)

    result = asyncio.run(main())
    assert result.outcome == "unavailable"
    assert "/r6" not in server.paths
