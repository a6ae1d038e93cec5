"""The fetch layer under an adversary (issue 13, findings 1-8): one regression test (or a
small family) per finding, against real servers on 127.0.0.1.

The worst failure of a robots.txt library is a wrong "allowed"; several of these were
exactly that (a body cut by our own deadline, or a gzip stream without its end, read as the
whole file). :mod:`tests.hostile.test_fetch_matrix` then runs every entry point against
every misbehaviour.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import time
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robotsrules import AsyncRobotsCache, RobotsCache
from robotsrules._fetch._fetcher import afetch, fetch
from robotsrules.cache import SQLiteStore
from robotsrules.httpx import RobotsTransport
from robotsrules.policy import DAY, Policy, lifetime, target_problem
from tests.network.servers import (
    RawHTTPServer,
    ScriptedFTPServer,
    ServerPool,
    drip_head,
    drip_unframed,
    head,
    keep_alive,
    raw,
    redirect,
    respond,
)
from tests.timing import HANG, HEALTHY, finishes

UA = "HostileBot/1.0 (+http://127.0.0.1/bot)"
AGENT = "HostileBot"
# The whole file disallows HostileBot everywhere; a copy cut before its last group allows
# HostileBot all but /private: a cut read as the whole file is a wrong "allowed".
FULL = (b"User-agent: *\nDisallow: /private\n\n" + b"# padding line\n" * 200
        + b"User-agent: HostileBot\nDisallow: /\n")


@pytest.fixture
def servers() -> Iterator[ServerPool]:
    with ServerPool() as pool:
        yield pool


TOTAL_LIMIT = "timed out (total time limit)"  # the error of our deadline, not of one read


# A healthy exchange gets a time-out it never reaches; a test of the deadline passes its own
# total_timeout, and its misbehaviour lasts far longer than the hang guard it runs under
# (minutes: only the deadline can end the fetch within the guard).
LONG = 5 * HANG
def sync(url: str, **kwargs: Any):
    kwargs.setdefault("timeout", HEALTHY)
    return fetch(url, user_agent=UA, **kwargs)


def run_async(url: str, **kwargs: Any):
    kwargs.setdefault("timeout", HEALTHY)
    return asyncio.run(afetch(url, user_agent=UA, **kwargs))


FETCHERS = [pytest.param(sync, id="fetch"), pytest.param(run_async, id="afetch")]


def allowed(result: Any, url: str) -> bool:
    return bool(result.robots.allowed(url, agent=AGENT))


# -- 1. Retry-After by the HTTP grammar ------------------------------------------------------

ODD_RETRY_AFTER = [
    b"\xb2",  # superscript two: str.isdigit() is true, float() fails
    "\u0661\u0662\u0660".encode(),  # Arabic-Indic 120, as UTF-8
    b"\xd9\xa1\xd9\xa2",
    b"-1", b"+5", b"1.5", b"1e3", b"12abc", b"0x10", b"", b" ", b"\x00",
    b"9" * 5000,  # ASCII digits, absurdly many: the longest lifetime, no error
    b"Wed, 21 Oct 99999 07:28:00 GMT",  # a year no datetime holds
    b"Wed, 32 Oct 2015 07:28:00 GMT", b"Mon, 01 Jan 1900 00:00:00 -9999",
    b"Sun, 06 Nov 1994 08:49:37 GMT" * 40,
]


@pytest.mark.parametrize(("status", "value"), [
    (429, b"\xb2"), (503, b"\xb2"), (503, ODD_RETRY_AFTER[1]), (503, b"9" * 5000),
    (503, b"Wed, 21 Oct 99999 07:28:00 GMT")], ids=lambda v: repr(v)[:18])
@pytest.mark.parametrize("get", FETCHERS)
def test_regression_odd_retry_after_is_ignored_or_clamped(servers: ServerPool, get: Any,
                                                          status: int, value: bytes) -> None:
    """Finding 1: ``Retry-After: \\xb2`` (and other non-ASCII digits) raised ValueError."""
    server = servers.http(raw(head(status, [("Content-Length", "0")]).replace(
        b"\r\n\r\n", b"\r\nRetry-After: " + value + b"\r\n\r\n", 1)))
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert not allowed(result, server.url("/x"))
    policy = Policy()
    assert policy.min_lifetime <= result.expires_at - result.fetched_at <= policy.max_lifetime


@pytest.mark.parametrize(("value", "seconds"), [
    ("120", 120.0), (" 120 ", 120.0), ("\u00b2", 3600.0), ("\u0661\u0662\u0660", 3600.0),
    ("-1", 3600.0), ("1.5", 3600.0), ("9" * 400, 7 * DAY),
    ("Thu, 01 Jan 1970 00:10:00 GMT", 600.0),  # the epoch + 600 s, asked at the epoch
    ("Thursday, 01-Jan-70 00:10:00 GMT", 600.0), ("Thu Jan  1 00:10:00 1970", 600.0),
    ("Thu, 01 Jan 99999 00:10:00 GMT", 3600.0),
])
def test_regression_retry_after_grammar(value: str, seconds: float) -> None:
    """Finding 1, sans I/O: delay-seconds are ASCII digits; the three HTTP-date forms."""
    assert lifetime("unreachable", {"Retry-After": value}, 0.0) == seconds


@pytest.mark.parametrize("value", ODD_RETRY_AFTER, ids=lambda v: repr(v[:16]))
def test_odd_retry_after_values_never_raise(value: bytes) -> None:
    """Every odd value, as httpx hands header values over (latin-1) and as UTF-8."""
    policy = Policy()
    for text in (value.decode("latin-1"), value.decode("utf-8", "replace")):
        seconds = lifetime("unreachable", {"retry-after": text}, 1e9)
        assert policy.min_lifetime <= seconds <= policy.max_lifetime


def test_max_age_takes_ascii_digits_only() -> None:
    assert lifetime("ok", {"Cache-Control": "max-age=\u0661\u0662\u0660"}, 0.0) == DAY
    assert lifetime("ok", {"Cache-Control": "max-age=120"}, 0.0) == 120.0


# -- 2. bad redirect targets ------------------------------------------------------------------

BAD_TARGETS = [
    "ftp://h.example:65536/", "ftp://h.example:-1/", "http://h.example:65536/",
    "http://h.example:0/", "http://a..b/", "http://.a/", "http://xn--zz.example/",
    "http://" + "a" * 64 + ".example/", "http://" + "a." * 130 + "example/",
    "ftp://u%0d%0aDELE%20x:p@h.example/robots.txt", "ftp://u:p%0a@h.example/robots.txt",
    "ftp://h.example/robots.txt%0d%0aDELE%20x", "ftp://h.example/a%00b",
    "http://[::1/robots.txt", "http://ex ample.com/",
]


@pytest.mark.parametrize("location", BAD_TARGETS)
@pytest.mark.parametrize("get", FETCHERS)
def test_regression_bad_redirect_target_is_unavailable(servers: ServerPool, get: Any,
                                                       location: str) -> None:
    """Finding 2: these raised ValueError, UnicodeError or IDNAError out of fetch."""
    server = servers.http(redirect(location))
    result = get(server.url())
    assert result.outcome == "unavailable", result.error
    assert "unsupported URL" in (result.error or "")
    assert allowed(result, server.url("/x"))
    assert server.count() == 1


@pytest.mark.parametrize("location", BAD_TARGETS)
def test_target_problem_names_every_bad_target(location: str) -> None:
    assert target_problem(location) is not None


@pytest.mark.parametrize("url", ["http://h.example/a%0d%0ab", "ftp://u:p@h.example:2121/r",
                                 "http://b\u00fccher.example/", "https://[2001:db8::1]:8443/",
                                 "http://h.example./robots.txt", "ftp://h.example/a%20b"])
def test_target_problem_accepts_good_targets(url: str) -> None:
    assert target_problem(url) is None


@pytest.mark.parametrize("get", FETCHERS)
def test_a_robots_url_no_socket_can_take_is_unreachable(get: Any) -> None:
    """The robots.txt URL itself with an empty label: not requestable, as if DNS failed."""
    result = get("http://a..b/page")
    assert result.outcome == "unreachable"
    assert result.error


# -- 3. a body cut by our deadline is never a whole file ---------------------------------------

@pytest.mark.parametrize("get", FETCHERS)
def test_regression_unframed_body_cut_by_the_deadline_is_unreachable(servers: ServerPool,
                                                                     get: Any) -> None:
    """Finding 3: no Content-Length, no chunking, dripped: the watchdog's shutdown was read
    as the end of the body, and the first octets ("User-agent: *\\nDis") as the file."""
    server = servers.http(drip_unframed(FULL * 4, 0.05))  # eleven minutes
    start = time.monotonic()
    result = finishes(lambda: get(server.url(), total_timeout=1.0))
    elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error == TOTAL_LIMIT
    assert not allowed(result, server.url("/"))
    assert elapsed >= 0.95


@pytest.mark.parametrize("get", FETCHERS)
def test_unframed_body_that_ends_is_whole(servers: ServerPool, get: Any) -> None:
    """A body delimited by the end of the connection is legitimate HTTP/1.1."""
    server = servers.http(raw(head(200, [("Content-Type", "text/plain")]) + FULL))
    result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/"))


@pytest.mark.parametrize("get", FETCHERS)
def test_short_body_against_content_length_is_unreachable(servers: ServerPool,
                                                          get: Any) -> None:
    cut = FULL[:40]
    server = servers.http(raw(head(200, [("Content-Length", str(len(FULL)))]) + cut))
    result = get(server.url())
    assert result.outcome == "unreachable"


# -- 4. truncated or corrupt gzip/deflate ------------------------------------------------------

def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def _deflate(data: bytes, raw_deflate: bool = False) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15 if raw_deflate else 15)
    return compressor.compress(data) + compressor.flush()


def serve_encoded(servers: ServerPool, body: bytes, coding: str) -> RawHTTPServer:
    return servers.http(respond(200, body, {"Content-Encoding": coding}))


CUTS = [
    pytest.param("gzip", lambda: _gzip(FULL)[:-8], id="gzip-no-trailer"),
    pytest.param("gzip", lambda: _gzip(FULL)[: len(_gzip(FULL)) // 2], id="gzip-half"),
    pytest.param("deflate", lambda: _deflate(FULL)[:-4], id="zlib-no-adler"),
    pytest.param("deflate", lambda: _deflate(FULL)[: len(_deflate(FULL)) // 2],
                 id="zlib-half"),
    pytest.param("deflate", lambda: _deflate(FULL, True)[: len(_deflate(FULL, True)) // 2],
                 id="raw-deflate-half"),
]


@pytest.mark.parametrize(("coding", "make"), CUTS)
@pytest.mark.parametrize("get", FETCHERS)
def test_regression_truncated_compressed_body_is_unreachable(servers: ServerPool, get: Any,
                                                             coding: str, make: Any) -> None:
    """Finding 4: a gzip body without its end was read as ok, the rules after the cut lost
    (the full file disallows HostileBot, the cut copy allowed it)."""
    server = serve_encoded(servers, make(), coding)
    result = get(server.url())
    assert result.outcome == "unreachable"
    assert "truncated" in (result.error or "")
    assert not allowed(result, server.url("/"))


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
@pytest.mark.parametrize("get", FETCHERS)
def test_whole_compressed_body_is_ok(servers: ServerPool, get: Any, coding: str) -> None:
    data = _gzip(FULL) if coding == "gzip" else _deflate(FULL)
    result = get(serve_encoded(servers, data, coding).url())
    assert result.outcome == "ok"
    assert result.size == len(FULL)


@pytest.mark.parametrize("get", FETCHERS)
def test_raw_deflate_whole_is_ok(servers: ServerPool, get: Any) -> None:
    result = get(serve_encoded(servers, _deflate(FULL, True), "deflate").url())
    assert result.outcome == "ok"
    assert result.size == len(FULL)


@pytest.mark.parametrize("get", FETCHERS)
def test_gzip_members_are_all_decoded(servers: ServerPool, get: Any) -> None:
    """RFC 1952 §2.2: a gzip file is a series of members; the rules may be in the last."""
    half = len(FULL) // 2
    server = serve_encoded(servers, _gzip(FULL[:half]) + _gzip(FULL[half:]), "gzip")
    result = get(server.url())
    assert result.outcome == "ok"
    assert result.size == len(FULL)
    assert not allowed(result, server.url("/"))


@pytest.mark.parametrize("get", FETCHERS)
def test_thousands_of_gzip_members_in_one_read(servers: ServerPool, get: Any) -> None:
    """Empty members (20 octets each) decode to nothing: one read holds thousands, and the
    decoder walks them in a loop (recursion would hit Python's limit)."""
    server = serve_encoded(servers, _gzip(b"") * 5000 + _gzip(FULL), "gzip")
    result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/"))


@pytest.mark.parametrize("junk", [b"\x00", b"junk after the stream", b"\x1f"])
@pytest.mark.parametrize("get", FETCHERS)
def test_junk_after_gzip_is_reported(servers: ServerPool, get: Any, junk: bytes,
                                     caplog: pytest.LogCaptureFixture) -> None:
    server = serve_encoded(servers, _gzip(FULL) + junk, "gzip")
    with caplog.at_level(logging.WARNING, logger="robotsrules"):
        result = get(server.url())
    assert result.outcome == "ok"
    assert not allowed(result, server.url("/"))
    assert any("junk" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("get", FETCHERS)
def test_corrupt_gzip_member_after_the_first_is_unreachable(servers: ServerPool,
                                                            get: Any) -> None:
    second = bytearray(_gzip(FULL))
    second[20] ^= 0xFF
    server = serve_encoded(servers, _gzip(b"User-agent: *\n") + bytes(second), "gzip")
    result = get(server.url())
    assert result.outcome == "unreachable"


# -- 5. FTP within the total deadline ---------------------------------------------------------

@pytest.mark.parametrize("where", ["data", "banner"])
@pytest.mark.parametrize("get", FETCHERS)
def test_regression_ftp_drip_ends_by_the_deadline(get: Any, where: str) -> None:
    """Finding 5: a RETR dripping one octet a second took 100 s with ``timeout=2``."""
    drip = {"data_interval": 0.05} if where == "data" else {"banner_interval": 0.05}
    with ScriptedFTPServer(FULL * 4, **drip) as server:  # type: ignore[arg-type]  # minutes
        start = time.monotonic()
        result = finishes(lambda: get(server.url(), total_timeout=1.0))
        elapsed = time.monotonic() - start
    assert result.outcome == "unreachable"
    assert result.error == TOTAL_LIMIT
    assert not allowed(result, server.url("/"))
    assert elapsed >= 0.95


@pytest.mark.parametrize("get", FETCHERS)
def test_ftp_whole_file_needs_the_servers_226(get: Any) -> None:
    with ScriptedFTPServer(FULL) as good:
        assert get(good.url()).outcome == "ok"
    with ScriptedFTPServer(FULL[:40], final_reply=b"426 Connection closed; aborted.") as bad:
        result = get(bad.url())
    assert result.outcome == "unreachable"
    assert not allowed(result, bad.url("/"))


# -- 6. AsyncRobotsCache: FTP in its own bounded pool, with the deadline ------------------------

def _retrieving(servers: list[ScriptedFTPServer]) -> int:
    """How many of ``servers`` have been asked for the file (and are dripping it)."""
    return sum(any(c.upper().startswith("RETR") for c in list(s.commands)) for s in servers)


def test_regression_dripping_ftp_origins_do_not_starve_the_others(
        servers: ServerPool, tmp_path: Any) -> None:
    """Finding 6: eight dripping FTP origins took every thread of the default pool (and
    held them past any deadline): a healthy HTTP origin behind a SQLite store had no
    answer after 40 s.

    Here the FTP fetches have a deadline of six minutes, and their drips last longer: once
    they hold every thread the cache gives FTP (more than the default pool has), the healthy
    origin must be answered while they still drip (the hang guard is a minute). With the FTP
    jobs in the default pool, its store read would wait for an FTP deadline."""
    from robotsrules._fetch._robotscache import FTP_THREADS

    healthy = servers.http(respond(200, b"User-agent: *\nDisallow: /no\n"))
    ftps: list[ScriptedFTPServer] = []

    async def main() -> None:
        cache = AsyncRobotsCache(SQLiteStore(str(tmp_path / "c.db")), user_agent=UA,
                                 timeout=HANG)
        try:
            drips = [asyncio.ensure_future(cache.lookup(server.url("/x"))) for server in ftps]
            busy = min(len(ftps), FTP_THREADS)
            while _retrieving(ftps) < busy:  # the loop runs on while the threads connect
                await asyncio.sleep(0.01)
            served = await asyncio.wait_for(cache.lookup(healthy.url("/no")), HANG / 2)
            assert served.result.outcome == "ok"
            assert _retrieving(ftps) == busy  # still dripping: none has ended
            for server in ftps:  # now end the drips: the fetches fail (no 226)
                server.stop()
            results = await asyncio.wait_for(asyncio.gather(*drips), HANG)
            assert all(result.result.outcome == "unreachable" for result in results)
        finally:
            for server in ftps:  # end the drips before the loop waits for its threads
                server.stop()
            await cache.aclose()

    ftps.extend(ScriptedFTPServer(FULL * 10, data_interval=0.05) for _ in range(10))
    try:
        asyncio.run(asyncio.wait_for(main(), 3 * HANG))
    finally:
        for server in ftps:
            server.stop()


def test_dripping_ftp_origins_all_end_by_their_deadline() -> None:
    """Ten FTP origins dripping for minutes, more than the cache's FTP threads: every fetch
    ends by its deadline (a time-out), those that waited for a thread included."""
    ftps = [ScriptedFTPServer(FULL * 10, data_interval=0.05) for _ in range(10)]

    async def main() -> list[Any]:
        cache = AsyncRobotsCache(user_agent=UA, timeout=0.3)  # deadlines of 0.9 s
        try:
            return list(await asyncio.gather(*(cache.lookup(s.url("/x")) for s in ftps)))
        finally:
            await cache.aclose()

    try:
        results = asyncio.run(asyncio.wait_for(main(), HANG))
    finally:
        for server in ftps:
            server.stop()
    assert [r.result.outcome for r in results] == ["unreachable"] * 10
    assert all("timed out" in (r.result.error or "") for r in results), results


# -- 7. a caller's client and its kept-alive connection -----------------------------------------

@pytest.mark.parametrize("misbehaviour", [
    pytest.param(lambda: drip_head(0.05, give_up=LONG), id="drip-head"),
    pytest.param(lambda: drip_unframed(FULL * 4, 0.05), id="drip-unframed-body"),
])
def test_regression_reused_connection_is_bounded_by_the_deadline(servers: ServerPool,
                                                                 misbehaviour: Any) -> None:
    """Finding 7: the watchdog learned sockets from connect events only; a request on a
    connection the caller's client kept alive had none, and took 227 s instead of 6."""
    server = servers.http({"/page": keep_alive(), "/robots.txt": misbehaviour()},
                          keep_alive=True)
    with httpx.Client(timeout=HEALTHY) as client:  # reads never time out: only the deadline
        assert client.get(server.url("/page")).status_code == 200
        start = time.monotonic()
        result = finishes(lambda: fetch(server.url(), user_agent=UA, total_timeout=1.0,
                                        client=client))
        elapsed = time.monotonic() - start
    assert len(server._conns) == 1  # the robots.txt request did reuse the connection
    assert result.outcome == "unreachable"
    assert result.error == TOTAL_LIMIT
    assert elapsed >= 0.95


def test_reused_connection_through_the_transport(servers: ServerPool) -> None:
    """RobotsTransport fetches robots.txt through the transport that carries the pages, so
    its connections are reused as a matter of course."""
    server = servers.http({"/page": keep_alive(),
                           "/robots.txt": drip_head(0.05, give_up=LONG)}, keep_alive=True)
    # The transport's time-out is its reads' and its deadline's (3 x 0.5 s): on a loaded
    # machine a read may time out first, a time-out too. The head drips for ten minutes.
    transport = RobotsTransport(httpx.HTTPTransport(), user_agent=UA, timeout=0.5)
    with httpx.Client(transport=transport, timeout=HEALTHY) as client:
        client.get(server.url("/page"), extensions={"robotsrules.obey": False})
        served = finishes(transport.cache.lookup, server.url("/x"))
    assert len(server._conns) == 1
    assert served.result.outcome == "unreachable"
    assert served.result.error in (TOTAL_LIMIT, "timed out")


# -- 8. credentials stay on the robots.txt's origin ---------------------------------------------

CLIENTS = [
    pytest.param({"auth": ("user", "secret")}, "authorization", id="auth"),
    pytest.param({"headers": {"Authorization": "Bearer s3cret"}}, "authorization",
                 id="authorization-header"),
    pytest.param({"cookies": {"session": "s3cret"}}, "cookie", id="cookies"),
]


@pytest.mark.parametrize(("options", "header"), CLIENTS)
def test_regression_credentials_are_not_sent_to_another_origin(servers: ServerPool,
                                                               options: Any,
                                                               header: str) -> None:
    """Finding 8: a redirect from origin A to origin B sent B the caller's credentials."""
    target = servers.http(respond(200, FULL))
    source = servers.http({"/robots.txt": redirect("/moved"), "/moved": redirect(target.url())})
    with httpx.Client(**options) as client:
        result = fetch(source.url(), user_agent=UA, client=client)
    assert result.outcome == "ok"
    assert [header in request.headers for request in source.requests] == [True, True]
    assert header not in target.requests[0].headers


@pytest.mark.parametrize(("options", "header"), CLIENTS)
def test_regression_credentials_are_not_sent_to_another_origin_async(servers: ServerPool,
                                                                     options: Any,
                                                                     header: str) -> None:
    target = servers.http(respond(200, FULL))
    source = servers.http(redirect(target.url()))

    async def main() -> Any:
        async with httpx.AsyncClient(**options) as client:
            return await afetch(source.url(), user_agent=UA, client=client)

    assert asyncio.run(main()).outcome == "ok"
    assert header in source.requests[0].headers
    assert header not in target.requests[0].headers


def test_regression_cookie_set_by_the_first_origin_is_not_forwarded(servers: ServerPool) -> None:
    """Cookies ignore ports: a cookie 127.0.0.1:A sets would go to 127.0.0.1:B."""
    target = servers.http(respond(200, FULL))
    source = servers.http(respond(302, b"", {"Location": target.url(),
                                             "Set-Cookie": "fromA=1; Path=/"}, None))
    with httpx.Client() as client:
        assert fetch(source.url(), user_agent=UA, client=client).outcome == "ok"
    assert "cookie" not in target.requests[0].headers


def test_credentials_that_leave_do_not_come_back(servers: ServerPool) -> None:
    """A -> B -> A: once the hops have left A, the rest goes without credentials."""
    origin_a = servers.http()
    origin_b = servers.http(redirect(origin_a.url("/back")))
    origin_a.handler = {"/robots.txt": redirect(origin_b.url()), "/back": respond(200, FULL)}
    with httpx.Client(auth=("user", "secret")) as client:
        assert fetch(origin_a.url(), user_agent=UA, client=client).outcome == "ok"
    assert ["authorization" in request.headers for request in origin_a.requests] == [True,
                                                                                    False]
    assert "authorization" not in origin_b.requests[0].headers


def test_robots_cache_with_a_client_keeps_credentials_home(servers: ServerPool) -> None:
    target = servers.http(respond(200, FULL))
    source = servers.http(redirect(target.url()))
    with httpx.Client(auth=("user", "secret")) as client:
        cache = RobotsCache(user_agent=UA, agent=AGENT, client=client)
        assert not cache.allowed(source.url("/x"))
    assert "authorization" in source.requests[0].headers
    assert "authorization" not in target.requests[0].headers


def test_afetch_with_a_closed_ftp_pool_is_unreachable() -> None:
    """A cache closed while a fetch is under way: the FTP job has no thread; no raise."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    result = asyncio.run(afetch("ftp://127.0.0.1:9/robots.txt", user_agent=UA, timeout=0.5,
                                ftp_executor=pool))
    assert result.outcome == "unreachable"
    assert "thread" in (result.error or "")
