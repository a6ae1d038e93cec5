"""The adversarial review of issue 41's JSON service, each finding's fix over real HTTP on
loopback (and a real Redis for the shared store): the inputs are the review's own
(/work/prompts/s15/findings/review-41.md, F1 to F10); every outcome is an answer or a
count, never a duration (the deadline test's origins never answer before it passes)."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.network.servers import Exchange, RawHTTPServer, head
from tests.timing import HANG, HEALTHY, wait_until

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules import RobotsCache
from robotsrules._fetch._pinned import Guard
from robotsrules._web._api import Limits
from robotsrules.cli import main
from robotsrules.errors import InvalidArgument

from .conftest import Site
from .test_api import _api, _cli, _code, _post, redis_socket  # noqa: F401 (a fixture)

RULES = b"User-agent: *\nDisallow: /private\n"


class Held:
    """An origin that answers robots.txt with :data:`RULES` only once :attr:`release` is
    set (each request held in its own thread until then)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, exchange: Exchange) -> None:
        self.release.wait(HANG)
        exchange.send(head(200, [("Content-Length", str(len(RULES)))]) + RULES)


@pytest.fixture()
def held() -> Iterator[tuple[Held, list[RawHTTPServer]]]:
    """Two origins whose answers wait for one event (set when the test ends)."""
    scenario = Held()
    servers = [RawHTTPServer(scenario, read_timeout=HANG) for _ in range(2)]
    try:
        yield scenario, servers
    finally:
        scenario.release.set()
        for one in servers:
            one.stop()


def _exempt(*ports: int) -> Guard:
    return Guard(exempt=frozenset(("127.0.0.1", port) for port in ports))


def _port(site: Site) -> int:
    return int(site.base.rsplit(":", 1)[1])


def test_a_file_cached_by_an_unguarded_process_never_answers_past_the_guard(
        site: Site, redis_socket: tuple[str, Any]) -> None:  # noqa: F811
    # F2: a crawler without the guard and the service share one Redis store.
    redis = pytest.importorskip("redis")
    from robotsrules.cache.redis import RedisStore

    path, _ = redis_socket
    stores = [RedisStore(redis.Redis(unix_socket_path=path, socket_timeout=HANG))
              for _ in range(2)]
    url = f"{site.base}/from-the-site/secret"
    crawler = RobotsCache(stores[0], user_agent="IntranetBot/1.0", timeout=HEALTHY)
    assert crawler.allowed(url, agent="a") is False  # the loopback site's file, cached
    before = len(site.hits)
    with _api(store=stores[1]) as base:
        answer = _post(base, "/v1/check", {"urls": [url], "agents": ["a"], "explain": True})
    assert answer.status_code == 200
    [record] = answer.json()["results"]
    assert record["error"]["code"] == "address-refused" and "allowed" not in record
    assert "Disallow" not in answer.text and "robots.txt" not in answer.text  # no rule
    assert len(site.hits) == before


def test_a_check_fetches_sites_at_once_and_answers_late_ones_by_its_deadline(
        held: tuple[Held, list[RawHTTPServer]]) -> None:
    # F1: origins fetched concurrently (both requests arrive while neither is answered),
    # a deadline per check (a site not read by then: an error record, never "allowed"),
    # and a cap on the sites of one request.
    scenario, servers = held
    guard = _exempt(*(one.port for one in servers))
    urls = [one.origin + "/private/x" for one in servers]
    body = {"urls": urls, "agents": ["a"]}
    limits = Limits(fetch_concurrency=2, max_sites=2, fetch_timeout=HANG)
    with _api(guard=guard, limits=limits) as base:
        assert _code(_post(base, "/v1/check", {"urls": [*urls, "http://127.0.0.1:1/"],
                                               "agents": ["a"]})) == "too-many-sites"
        answers: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answers.append(_post(base, "/v1/check",
                                                                      body)))
        asking.start()
        wait_until(lambda: all(one.count() == 1 for one in servers), "both fetches at once")
        scenario.release.set()
        asking.join(HANG)
        results = answers[0].json()["results"]
        assert [(r["allowed"], r["fetch"]["outcome"]) for r in results] == [(False, "ok")] * 2
    scenario.release.clear()
    # one fetch at a time: the second site's is never started, and answered all the same
    limits = Limits(check_deadline=0.2, fetch_timeout=HANG, fetch_concurrency=1)
    with _api(guard=guard, limits=limits) as base:
        late = _post(base, "/v1/check", {"urls": [urls[1], urls[0], urls[1] + "/y"],
                                         "agents": ["a"]})
        records = late.json()["results"]
        assert [r["error"]["code"] for r in records] == ["deadline-exceeded"] * 3
        assert [r["url"] for r in records] == [urls[1], urls[0], urls[1] + "/y"]


def test_work_stance_and_answer_size_are_bounded(site: Site) -> None:
    # F3: the review's many-rules file x many cells, stance and a big answer, each refused
    # with its code; fetched files past the budget get an over-budget record per URL.
    many = "User-agent: *\n" + "".join(f"Allow: /{'*' * 30}{i}\n" for i in range(300))
    limits = Limits(max_work=3_000, max_stance_rules=200, max_answer=2_000)
    urls = [f"/x{i}y" for i in range(10)]
    with _api(limits=limits, guard=_exempt(_port(site))) as base:
        assert _code(_post(base, "/v1/check", {"robots": many, "urls": urls, "agents": ["a"]})
                     ) == "too-much-work"
        for path in ("/v1/stance", "/v1/usage", "/v1/explain"):
            assert _code(_post(base, path, {"robots": many, "agents": ["a"] * 10, "url": "/",
                                            "urls": ["/"]})) == "too-much-work"
        small = "User-agent: *\nDisallow: /p\n"
        assert _post(base, "/v1/stance", {"robots": small, "agents": ["a"]}).status_code == 200
        assert _code(_post(base, "/v1/check", {"robots": small, "urls": urls * 5,
                                               "agents": ["a"], "explain": True})
                     ) == "answer-too-large"
        limits_seen = httpx.get(base + "/v1/limits", timeout=HANG).json()
        assert limits_seen["max_work"] == 3_000 and limits_seen["check_deadline"] == 60.0
    # the site's file has 1 rule: 2 units of work per answer
    with _api(limits=Limits(max_work=3), guard=_exempt(_port(site))) as base:
        fetched = _post(base, "/v1/check", {"urls": [site.base + "/a", site.base + "/b"],
                                            "agents": ["a"]}).json()["results"]
        assert fetched[0]["allowed"] is True and fetched[1]["error"]["code"] == "over-budget"


def test_urls_urlsplit_refuses_are_not_a_500(guarded: str) -> None:
    # F4: "http://[x" raised ValueError inside urlsplit.
    bad = ["http://[x", "http://[::1", "https://example.com:99999/"]
    answer = _post(guarded, "/v1/check", {"urls": bad, "agents": ["a"]})
    assert answer.status_code == 200
    assert [r["error"]["code"] for r in answer.json()["results"]] == ["not-a-url"] * 3
    for path in ("/v1/cache/purge", "/v1/cache/refresh"):
        assert _code(_post(guarded, path, {"url": "http://[x"})) == "bad-request"


@pytest.mark.parametrize("flag", ["--rate 0", "--rate nan", "--rate -1", "--burst 0",
                                  "--max-body -1", "--max-urls 0", "--check-deadline inf",
                                  "--trusted-proxy 10.0.0.0/33"])
def test_serve_refuses_limits_that_are_not_positive_and_finite(flag: str) -> None:
    # F6: usage errors (exit 2) before anything is served; a value the parser took would
    # reach --help (exit 0), never a server.
    assert main(["serve", "--api", *flag.split(), "--help"]) == 2
    name = flag.split()[0]
    assert main(["serve", "--api", name, "10.0.0.0/8" if "proxy" in name else "3",
                 "--help"]) == 0


def test_limits_are_checked_by_the_library_too() -> None:
    for bad in ({"rate": 0.0}, {"rate": float("nan")}, {"burst": 0}, {"max_answer": -1}):
        with pytest.raises(InvalidArgument):
            Limits(**bad)


def test_token_files_that_are_empty_or_not_utf8_are_usage_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a token taken would go on to bind 192.0.2.1 (TEST-NET-1, no local address): exit 2
    # too, but with another message, and never a server
    for name, data, said in (("latin1", b"s\xe9cret", "not UTF-8"),
                             ("empty", b" \n", "empty")):
        (tmp_path / name).write_bytes(data)
        assert main(["serve", "--api", "--host", "192.0.2.1", "--port", "0",
                     "--token-file", str(tmp_path / name)]) == 2
        assert said in capsys.readouterr().err


@pytest.fixture(scope="module")
def guarded() -> Iterator[str]:
    with _api() as base:
        yield base


def test_the_bucket_comes_before_the_token_and_knows_proxies_and_ipv6_networks() -> None:
    # F7: guesses are limited; behind a trusted proxy the client is X-Forwarded-For's last
    # address, an IPv6 client by its /64.
    limits = Limits(rate=1e-6, burst=1)
    with _api(token="s3cret", limits=limits, trusted_proxies=("127.0.0.1/32",)) as base:
        def status(forwarded: str, token: str = "wrong") -> int:
            return _post(base, "/v1/lint", {"robots": ""}, authorization=f"Bearer {token}",
                         **{"x-forwarded-for": forwarded}).status_code

        assert status("192.0.2.1") == 401
        assert status("192.0.2.1") == 429  # the second guess is refused by the bucket
        # the last address is the one the proxy added; the first is the caller's to invent
        assert status("192.0.2.1, 192.0.2.2", "s3cret") == 200
        assert status("2001:db8::1") == 401
        assert status("2001:db8::ffff:2") == 429  # the same /64
        assert status("2001:db8:0:1::1") == 401  # another /64
    with _api(limits=limits) as base:  # no trusted proxy: the header is the caller's own
        assert _post(base, "/v1/lint", {"robots": ""}, **{"x-forwarded-for": "192.0.2.1"}
                     ).status_code == 200
        assert _code(_post(base, "/v1/lint", {"robots": ""},
                           **{"x-forwarded-for": "192.0.2.9"})) == "rate-limited"


def test_bearer_scheme_limits_and_host_ports() -> None:
    # F8: the scheme in any case (RFC 9110 §11.1); /v1/limits under the token, /metrics
    # not; an allowed host name with its load balancer's port.
    with _api(token="s3cret", allowed_hosts=("api.example",)) as base:
        body = {"robots": ""}
        for scheme in ("bearer", "BEARER", "Bearer"):
            assert _post(base, "/v1/lint", body, authorization=f"{scheme} s3cret"
                         ).status_code == 200
        assert _code(httpx.get(base + "/v1/limits", timeout=HANG)) == "unauthorized"
        assert httpx.get(base + "/v1/limits", headers={"authorization": "Bearer s3cret"},
                         timeout=HANG).json()["burst"] == Limits().burst
        assert httpx.get(base + "/metrics", timeout=HANG).status_code == 200
        for host in ("api.example:443", "api.example:8080", "API.example"):
            assert _post(base, "/v1/lint", body, authorization="Bearer s3cret", host=host
                         ).status_code == 200
        assert _code(_post(base, "/v1/lint", body, host="127.0.0.1:1")) == "host-refused"


def test_refresh_refuses_a_guarded_site_and_a_second_refresh_too_soon(
        guarded: str, site: Site) -> None:
    # F9: a 4xx, not a 200 with an error inside; one refresh per site per interval.
    assert _code(_post(guarded, "/v1/cache/refresh", {"url": site.base + "/x"})
                 ) == "origin-refused"
    with _api(guard=_exempt(_port(site))) as base:
        before = site.hits.count("/robots.txt")
        first = _post(base, "/v1/cache/refresh", {"url": site.base + "/x"})
        assert first.status_code == 200 and first.json()["fetch"]["outcome"] == "ok"
        again = _post(base, "/v1/cache/refresh", {"url": site.base + "/y"})
        assert _code(again) == "refresh-too-soon" and int(again.headers["retry-after"]) >= 1
        assert site.hits.count("/robots.txt") == before + 1


def test_a_file_that_is_not_utf8_answers_as_the_cli_does(guarded: str,
                                                         tmp_path: Path) -> None:
    # F10: the review's /%E9/x case, the file in Latin-1.
    octets = b"User-agent: *\nDisallow: /\xe9/\n"
    robots = tmp_path / "robots.txt"
    robots.write_bytes(octets)
    cli = json.loads(_cli("check", "--robots", str(robots), "--agent", "a", "--json",
                          "/%E9/x"))
    answer = _post(guarded, "/v1/check", {"robots_base64": base64.b64encode(octets).decode(),
                                          "urls": ["/%E9/x"], "agents": ["a"]})
    [record] = answer.json()["results"]
    assert record["allowed"] is cli["allowed"] is False
    assert record["reason"] == cli["reason"]
    both = {"robots": "x", "robots_base64": "eA==", "urls": ["/"], "agents": ["a"]}
    assert _code(_post(guarded, "/v1/check", both)) == "bad-request"
    assert _code(_post(guarded, "/v1/check", {**both, "robots": None,
                                              "robots_base64": "#"})) == "bad-request"


# The second review (/work/prompts/s15/findings/review-41b.md): /v1/license.

PERMITS_ALL = (b'<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license>'
               b'<permits type="usage">all</permits></license></content></rsl>')


def _licence_site(files: dict[str, tuple[int, dict[str, str], bytes]], base: str) -> None:
    """``files`` become a site whose robots.txt names its own licence (which permits all)."""
    files["/robots.txt"] = (200, {"Content-Type": "text/plain"},
                            f"License: {base}/l.xml\nUser-agent: *\nAllow: /\n".encode())
    files["/l.xml"] = (200, {"Content-Type": "application/rsl+xml"}, PERMITS_ALL)


def _statuses(answer: httpx.Response) -> list[tuple[str, str]]:
    """Each document's state and the ``ai-train`` answer of ``/x``."""
    body = answer.json()
    return [(d["state"], body["urls"][0]["answers"]["ai-train"]["status"])
            for d in body["documents"]]


def test_licences_cached_by_an_unguarded_process_never_answer_past_the_guard(
        site: Site, tmp_path: Path) -> None:
    # G1: a crawler without the guard and the service share one SQLite store.
    from robotsrules.cache import SQLiteStore

    from .conftest import serving

    files: dict[str, tuple[int, dict[str, str], bytes]] = {}
    with serving(files) as port:
        base = f"http://127.0.0.1:{port}"
        _licence_site(files, base)
        crawler = RobotsCache(SQLiteStore(tmp_path / "shared.sqlite3"),
                              user_agent="IntranetBot/1.0", timeout=HEALTHY)
        assert crawler.license_for(base + "/x").allows("ai-train") is True
        before = len(site.hits)
        ask = {"urls": ["/x"], "purposes": ["ai-train"]}
        with _api(store=SQLiteStore(tmp_path / "shared.sqlite3")) as api:
            answers = [_post(api, "/v1/license", {"source": source, **ask})
                       for source in (base + "/robots.txt", base + "/l.xml", base + "/")]
            answers.append(_post(api, "/v1/license", {"document": files["/robots.txt"][2]
                                                      .decode(), **ask}))
        for answer in answers:
            assert answer.status_code == 200, answer.text
            assert _statuses(answer) == [("unreachable", "unknown")], answer.text
            assert "refused" in answer.json()["documents"][0]["error"]
            assert answer.headers["Cache-Control"] == "private, no-cache"
        assert len(site.hits) == before  # nothing fetched either


def test_licence_fetches_run_at_once_within_the_deadline(
        held: tuple[Held, list[RawHTTPServer]]) -> None:
    # G5: the licences a robots.txt names are fetched fetch_concurrency at once; the ones
    # not read by check_deadline are unreachable (unknown), and the answer is revalidated.
    scenario, servers = held
    guard = _exempt(*(one.port for one in servers))
    document = "".join(f"License: {one.origin}/l.xml\n" for one in servers) + "Allow: /\n"
    body = {"document": document, "urls": ["/x"], "purposes": ["ai-train"]}
    with _api(guard=guard, limits=Limits(fetch_concurrency=2, fetch_timeout=HANG)) as base:
        answers: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answers.append(_post(base, "/v1/license",
                                                                      body)))
        asking.start()
        wait_until(lambda: all(one.count("/l.xml") == 1 for one in servers), "both fetches at once")
        scenario.release.set()
        asking.join(HANG)
        assert answers[0].headers["Cache-Control"] == "private, no-cache"
        assert [state for state, _ in _statuses(answers[0])] == ["invalid"] * 2  # not XML
    scenario.release.clear()
    limits = Limits(check_deadline=0.2, fetch_timeout=HANG, fetch_concurrency=1)
    with _api(guard=guard, limits=limits) as base:
        late = _post(base, "/v1/license", body)
    assert _statuses(late) == [("unreachable", "unknown")] * 2
    assert all("deadline" in d["error"] for d in late.json()["documents"])
    assert late.headers["Cache-Control"] == "private, no-cache"


def test_licence_urls_with_credentials_are_refused_and_never_echoed(site: Site) -> None:
    # G9: user:password@ in 'source' or in a License line is neither sent nor echoed.
    port = _port(site)
    secret = f"http://u:hunter2@127.0.0.1:{port}/licences/terms.xml"
    before = len(site.hits)
    with _api(guard=_exempt(port)) as base:
        given = _post(base, "/v1/license", {"source": secret})
        named = _post(base, "/v1/license", {"document": f"License: {secret}\nAllow: /\n",
                                            "urls": ["/x"], "purposes": ["ai-train"]})
    assert _code(given) == "bad-request" and "credentials" in given.text
    assert _statuses(named) == [("invalid", "unknown")]
    assert "credentials" in named.json()["documents"][0]["error"]
    assert all("hunter2" not in answer.text for answer in (given, named))
    assert len(site.hits) == before
