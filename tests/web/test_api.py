"""The JSON service (``robotsrules serve --api``) over real HTTP on loopback: the same records
as the CLI's ``--json`` for the same input, the fetch through the address guard (a refusal
named per URL), the limits each refused with its stable code, no ``500`` for any body."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.timing import HANG

pytest.importorskip("starlette", reason="pip install 'robotsrules[web]'")

from robotsrules._fetch._pinned import Guard
from robotsrules._web._api import ERROR_CODES, Limits, create_api
from robotsrules._web._server import listen, server
from robotsrules.cli import main

from .conftest import HeldOrigin, Site

ROBOTS = ("User-agent: *\nDisallow: /private/\nAllow: /private/open\n"
          "Content-Signal: ai-train=no, search=yes\n\n"
          "User-agent: GPTBot\nDisallow: /\n\nDisallow: /orphan\n")
URLS = ["https://example.com/", "https://example.com/private/x",
        "https://example.com/private/open", "/private/y"]
AGENTS = ["Googlebot", "GPTBot"]


@contextmanager
def _api(**options: Any) -> Iterator[str]:
    """The service on a loopback port (bound before it starts: no wait for readiness)."""
    sock = listen("127.0.0.1", 0)
    running = server(create_api(host="127.0.0.1", **options))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        running.should_exit = True
        thread.join(HANG)
        sock.close()


@pytest.fixture(scope="module")
def api(site: Site) -> Iterator[str]:
    """The service whose guard lets the loopback test site (and nothing else private) in."""
    port = int(site.base.rsplit(":", 1)[1])
    with _api(guard=Guard(exempt=frozenset({("127.0.0.1", port)}))) as base:
        yield base


@pytest.fixture(scope="module")
def guarded() -> Iterator[str]:
    """The service with the address guard as users get it."""
    with _api() as base:
        yield base


def _cli(*args: str) -> str:
    """The command's standard output (run in this process: the same build)."""
    out = io.StringIO()
    assert main(list(args), out) in (0, 1)
    return out.getvalue()


def _post(base: str, path: str, body: Any, **headers: str) -> httpx.Response:
    return httpx.post(base + path, json=body, headers=headers, timeout=HANG)


def test_check_records_are_the_cli_json_records(api: str, tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text(ROBOTS)
    agents = [flag for agent in AGENTS for flag in ("--agent", agent)]
    cli = [json.loads(line) for line in
           _cli("check", "--robots", str(robots), *agents, "--json", *URLS).splitlines()]
    answer = _post(api, "/v1/check", {"robots": ROBOTS, "urls": URLS, "agents": AGENTS,
                                      "explain": True})
    assert answer.status_code == 200, answer.text
    records = answer.json()["results"]
    for record in cli + records:
        record["fetch"].pop("source"), record["fetch"].pop("served")  # the file's name
    assert records == cli
    assert [r["allowed"] for r in records] == [True, False, False, False, True, False,
                                              False, False]
    short = _post(api, "/v1/check", {"robots": ROBOTS, "urls": URLS[1:2], "agents": ["a"]})
    assert short.json()["results"][0].keys() == {"url", "agent", "allowed", "reason", "scope",
                                                 "target", "fetch"}


def test_explain_and_lint_are_the_cli_json(api: str, tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text(ROBOTS)
    for agents in (["GPTBot"], AGENTS):
        flags = [flag for agent in agents for flag in ("--agent", agent)]
        cli = json.loads(_cli("explain", "--robots", str(robots), *flags, "--json",
                              URLS[2]))
        answer = _post(api, "/v1/explain", {"robots": ROBOTS, "url": URLS[2],
                                            "agents": agents}).json()
        for report in cli if isinstance(cli, list) else [cli]:
            report["source"] = "request"
        assert answer == cli
    linted = _post(api, "/v1/lint", {"robots": ROBOTS}).json()
    cli_lint = json.loads(_cli("lint", "--json", str(robots)))
    assert linted.pop("file", None) == "request"
    cli_lint.pop("file", None)
    assert linted == cli_lint and linted["diagnostics"]


def test_usage_and_stance_are_the_cli_json(api: str, tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text(ROBOTS)
    for agents in (["Googlebot"], AGENTS):
        flags = [flag for agent in agents for flag in ("--agent", agent)]
        cli = json.loads(_cli("usage", str(robots), *flags, "--json", *URLS[:3]))
        answer = _post(api, "/v1/usage", {"robots": ROBOTS, "urls": URLS[:3],
                                          "agents": agents}).json()
        for document in cli if isinstance(cli, list) else [cli]:
            document["source"] = "request"
        assert answer == cli
        cli = json.loads(_cli("stance", str(robots), *flags, "--json"))
        cli["source"] = "request"
        assert _post(api, "/v1/stance", {"robots": ROBOTS, "agents": agents}).json() == cli
    assert answer[0]["urls"][0]["purposes"]["train-ai"]["answer"] is False


def test_verify_and_verify_request_are_the_cli_json(api: str, tmp_path: Path) -> None:
    pytest.importorskip("cryptography", reason="pip install 'robotsrules[sign]'")
    visitor = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    for address in ("66.249.66.1", "203.0.113.9"):
        cli = json.loads(_cli("verify", "--json", "--no-dns", address, "--user-agent",
                              visitor))
        answer = _post(api, "/v1/verify", {"address": address, "user_agent": visitor})
        assert answer.json() == cli
    request = {"method": "GET", "url": "https://site.example/page",
               "headers": {"User-Agent": visitor, "Signature-Agent": '"https://x.example"'}}
    saved = tmp_path / "request.json"
    saved.write_text(json.dumps(request))
    cli = json.loads(_cli("verify", "--request", str(saved), "--json"))
    assert _post(api, "/v1/verify-request", request).json() == cli
    assert cli["verdict"] != "verified"
    assert _code(_post(api, "/v1/verify", {"address": "not an address"})) == "bad-request"


PAGE_HEADERS = [["X-Robots-Tag", "noai, max-snippet:0"], ["X-Robots-Tag", "GPTBot: noindex"],
                ["X-Robots-Tag", "unavailable_after: 2020-01-01"],
                ["Content-Usage", "train-ai=n"],
                ["Link", '<https://example.com/l.xml>; rel="license"; type="application/rsl+xml"']]
PAGE_HEAD = ("<html><head><meta name='robots' content='nofollow'>"
             "<meta name='GPTBot' content='noarchive'></head><body>x</body></html>")
LICENCE = ('<rsl xmlns="https://rslstandard.org/rsl"><content url="/">'
           '<license><prohibits type="usage">ai-train</prohibits>'
           '<payment type="purchase"><amount currency="EUR">9</amount></payment></license>'
           '</content><content url="/free/"><license/></content></rsl>')


def test_page_license_and_generate_are_the_cli_json(api: str, tmp_path: Path) -> None:
    saved, robots = tmp_path / "page.http", tmp_path / "robots.txt"
    saved.write_bytes(("HTTP/1.1 200 OK\r\n" + "".join(f"{n}: {v}\r\n" for n, v in PAGE_HEADERS)
                       + "\r\n" + PAGE_HEAD).encode())
    robots.write_text(ROBOTS)
    page = {"headers": PAGE_HEADERS, "body": PAGE_HEAD, "status": 200,
            "url": "https://example.com/private/x"}
    for agents, extra in ((["GPTBot"], {}), (AGENTS, {"robots": ROBOTS})):
        flags = [f for agent in agents for f in ("--agent", agent)]
        cli = json.loads(_cli("page", str(saved), *flags, "--json", "--url", page["url"],
                              *(["--robots", str(robots)] if extra else [])))
        answer = _post(api, "/v1/page", {**page, **extra, "agents": agents})
        assert answer.status_code == 200, answer.text
        for document in cli if isinstance(cli, list) else [cli]:
            document["source"] = "request"
        assert answer.json() == cli
    assert answer.json()[1]["purposes"]["ai-train"]["allowed"] is False
    assert answer.json()[1]["crawl_allowed"] is False
    licence = tmp_path / "licence.xml"
    licence.write_text(LICENCE)
    asked = ["https://example.com/a", "/free/b"]
    cli = json.loads(_cli("license", str(licence), *asked, "--json", "--agent", "GPTBot",
                          "--origin", "https://example.com", "--purpose", "ai-train",
                          "--purpose", "search"))
    cli["source"] = "request"
    answer = _post(api, "/v1/license", {"document": LICENCE, "urls": asked,
                                        "agents": ["GPTBot"], "origin": "https://example.com",
                                        "purposes": ["ai-train", "search"]}).json()
    assert answer == cli
    assert [u["answers"]["ai-train"]["status"] for u in answer["urls"]] == ["prohibited",
                                                                           "permitted"]
    policy, existing = tmp_path / "policy.json", tmp_path / "old.txt"
    choices = {"agents": {"GPTBot": "block"}, "disallow_paths": ["/private/"],
               "usage": {"ai-train": "n"}}
    policy.write_text(json.dumps(choices))
    old = "User-agent: *\nDisallow: /old/\n"
    existing.write_text(old)
    cli = json.loads(_cli("generate", "--policy", str(policy), "--from", str(existing),
                          "--json"))
    answer = _post(api, "/v1/generate", {"policy": choices, "from": old}).json()
    assert answer == cli and answer["diff"]["changes"]
    assert "User-agent: GPTBot" in answer["text"]


def test_license_fetches_through_the_address_guard(guarded: str, site: Site) -> None:
    before = len(site.hits)
    for source in (f"{site.base}/licence.xml", f"{site.base}/"):
        answer = _post(guarded, "/v1/license", {"source": source, "urls": ["/"],
                                                "purposes": ["ai-train"]})
        assert answer.status_code == 200, answer.text
        document = answer.json()["documents"][0]
        assert document["state"] == "unreachable"
        assert "refused by the address guard" in document["error"]
        assert answer.json()["urls"][0]["answers"]["ai-train"]["allowed"] is None
    assert len(site.hits) == before  # nothing reached the loopback site
    assert _code(_post(guarded, "/v1/license", {"document": LICENCE,
                                                "source": site.base})) == "bad-request"
    assert _code(_post(guarded, "/v1/generate", {"policy": {"nope": 1}})) == "bad-request"
    named = "".join(f"License: http://10.0.0.1/{n}.xml\n" for n in range(11))
    assert _code(_post(guarded, "/v1/license", {"document": named})) == "too-many-urls"
    many = {"policy": {"disallow_paths": [f"/p{n}/" for n in range(101)]}}
    assert _code(_post(guarded, "/v1/generate", many)) == "too-many-choices"
    # an unclosed IPv6 bracket is no URL: refused, never an internal error
    assert _code(_post(guarded, "/v1/license", {"source": "http://[::1"})) == "bad-request"
    unclosed = _post(guarded, "/v1/check", {"urls": ["http://[::1/x"], "agents": ["a"]})
    assert unclosed.json()["results"][0]["error"]["code"] == "not-a-url"
    assert _code(_post(guarded, "/v1/page", {"agents": ["a"], "status": True})
                 ) == "bad-request"


def test_etag_if_none_match_and_cache_control(api: str, site: Site) -> None:
    """RFC 9110 (June 2022) §13.1.2 over real HTTP: a POST whose If-None-Match names the
    answer's ETag (weak comparison, ``*``, lists) is 412 ``not-modified``; a GET is 304
    without a body; a field that is no entity-tag list is ignored."""
    body = {"robots": ROBOTS, "urls": URLS, "agents": AGENTS}
    first = _post(api, "/v1/check", body)
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, max-age=86400"  # the body alone
    for field in (etag, f"W/{etag}", f'"x", {etag}', f'"a,b" ,W/{etag}', "*"):
        again = _post(api, "/v1/check", body, **{"if-none-match": field})
        assert again.status_code == 412 and _code(again) == "not-modified", field
        assert again.headers["etag"] == etag
    for field in ('"x"', etag[1:-1], f"{etag} x", f"{etag},,", "W/", f'"{etag}"'):
        assert _post(api, "/v1/check", body, **{"if-none-match": field}).json() == first.json()
    described = httpx.get(api + "/openapi.json", timeout=HANG)
    assert described.headers["cache-control"] == "private, no-cache"
    same = httpx.get(api + "/openapi.json", timeout=HANG,
                     headers={"if-none-match": f'W/{described.headers["etag"]}'})
    assert same.status_code == 304 and same.content == b""
    assert same.headers["etag"] == described.headers["etag"]
    with HeldOrigin(held=False) as origin, _api(guard=Guard(exempt=frozenset(
            {("127.0.0.1", origin.port)}))) as fetching:
        fetched = _post(fetching, "/v1/check", {"urls": [f"{origin.base}/held/e"],
                                                "agents": ["Bot"]})
    assert fetched.json()["results"][0]["allowed"] is False
    age = int(fetched.headers["cache-control"].removeprefix("private, max-age="))
    assert 1 <= age <= 600  # never past the file's own lifetime (max-age=600)
    refused = _post(api, "/v1/check", {"urls": ["/relative"], "agents": ["Bot"]})
    assert refused.headers["cache-control"] == "private, no-cache"
    assert _post(api, "/v1/check", {}).headers["cache-control"] == "no-store"
    assert _post(api, "/v1/cache/purge", {"url": site.base}).headers["cache-control"] == \
        "no-store"


def test_check_fetches_each_site_once_through_the_cache(api: str, site: Site) -> None:
    urls = [f"{site.base}/from-the-site/a", f"{site.base}/elsewhere"]
    before = site.hits.count("/robots.txt")
    first = _post(api, "/v1/check", {"urls": urls, "agents": ["Bot"]}).json()["results"]
    again = _post(api, "/v1/check", {"urls": urls, "agents": ["Bot"]}).json()["results"]
    assert [r["allowed"] for r in first] == [False, True]
    assert first[0]["fetch"]["outcome"] == "ok" and first[0]["fetch"]["status"] == 200
    assert first[0]["fetch"]["cached"] is False and again[0]["fetch"]["cached"] is True
    assert site.hits.count("/robots.txt") == before + 1


def test_a_guard_refusal_is_named_per_url(guarded: str, site: Site) -> None:
    before = len(site.hits)
    answer = _post(guarded, "/v1/check", {"urls": [f"{site.base}/x", "/relative",
                                                   "http://[::1]/y"], "agents": ["Bot"]})
    assert answer.status_code == 200
    results = answer.json()["results"]
    assert [r["error"]["code"] for r in results] == ["address-refused", "not-a-url",
                                                     "address-refused"]
    assert "refused by the address guard" in results[0]["error"]["message"]
    assert all("allowed" not in r for r in results)  # never the status rules' "unreachable"
    assert len(site.hits) == before  # nothing reached the loopback site


def _code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    assert ERROR_CODES[code] == answer.status_code
    assert "Traceback" not in answer.text
    return code


def test_limits_refuse_with_stable_codes() -> None:
    clock = [0.0]
    limits = Limits(max_body=2_000, max_urls=3, max_agents=2, max_cells=4, rate=1.0, burst=2)
    with _api(limits=limits, clock=lambda: clock[0], allowed_hosts=("api.example",)) as base:
        body = {"robots": "", "agents": ["a"]}
        assert _code(_post(base, "/v1/check", {**body, "urls": ["/"] * 4})) == "too-many-urls"
        assert _code(_post(base, "/v1/check", {**body, "urls": ["/"] * 3,
                                               "agents": ["a", "b"]})) == "too-many-cells"
        answer = _post(base, "/v1/check", {**body, "urls": ["/"]})
        assert answer.status_code == 429 and _code(answer) == "rate-limited"
        assert answer.headers["retry-after"] == "1"
        clock[0] += 2.0  # two tokens back
        assert _code(_post(base, "/v1/check", {**body, "urls": ["/" * 3_000]})
                     ) == "body-too-large"
        assert _code(httpx.post(base + "/v1/check", content=b"{", timeout=HANG)) == "bad-json"
        clock[0] += 5.0
        assert _code(_post(base, "/v1/check", body)) == "bad-request"
        assert _code(_post(base, "/v1/check", {**body, "urls": ["/"]},
                           host="rebind.example")) == "host-refused"
        ok = _post(base, "/v1/check", {**body, "urls": ["/"]}, host="api.example")
        assert ok.status_code == 200 and ok.headers["etag"].startswith('"')
        assert "set-cookie" not in ok.headers
        assert _code(httpx.get(base + "/v1/nothing", timeout=HANG)) == "not-found"
        assert httpx.get(base + "/v1/limits", timeout=HANG).json()["max_cells"] == 4


def test_a_token_is_required_when_configured() -> None:
    with _api(token="s3cret") as base:
        body = {"robots": "", "urls": ["/"], "agents": ["a"]}
        assert _code(_post(base, "/v1/check", body)) == "unauthorized"
        assert _code(_post(base, "/v1/check", body, authorization="Bearer wrong")
                     ) == "unauthorized"
        assert _post(base, "/v1/check", body, authorization="Bearer s3cret").status_code == 200
        assert httpx.get(base + "/healthz", timeout=HANG).json()["status"] == "ok"
        assert httpx.get(base + "/readyz", timeout=HANG).status_code == 200


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
_BAD_URLS = st.sampled_from(["http://[x", "http://[::1", "https://h:99999/", "http://h:x/"])
"""URLs urlsplit refuses (the review of issue 41, F4)."""
_FIELDS = st.fixed_dictionaries({}, optional={
    "robots": _JSON | st.text(),
    "urls": _JSON | st.lists(st.text() | st.just("http://[::1/x") | _BAD_URLS, max_size=4),
    "agents": _JSON | st.lists(st.text(), max_size=3), "explain": _JSON,
    "url": _JSON | _BAD_URLS, "robots_base64": _JSON | st.sampled_from(["#", "eA=="]),
    "aipref_revision": _JSON | st.sampled_from(["00", "01", "99"]),
    "address": _JSON | st.sampled_from(["66.249.66.1", "::1", "999.1.1.1"]),
    "user_agent": _JSON, "agent": _JSON, "method": _JSON | st.just("GET"),
    "headers": _JSON | st.dictionaries(st.text(max_size=12), st.text(max_size=20),
                                       max_size=3)
    | st.lists(st.lists(st.text(max_size=12), min_size=2, max_size=2), max_size=3),
    "body": _JSON | st.just(PAGE_HEAD), "status": _JSON | st.integers(0, 700),
    "purposes": _JSON | st.sampled_from(["search", "ai-train", "all", "x"]),
    "document": _JSON | st.sampled_from([LICENCE, ROBOTS, "<rsl/>"]),
    "source": _JSON | st.sampled_from(["http://10.0.0.1/l.xml", "http://[::1"]),
    "origin": _JSON,
    "user": _JSON | st.just("education"), "geo": _JSON | st.just("EU"),
    "policy": _JSON | st.fixed_dictionaries({}, optional={
        "agents": _JSON | st.dictionaries(st.sampled_from(["GPTBot", "*", "x y"]),
                                          st.sampled_from(["block", "allow", "x"])),
        "disallow_paths": _JSON, "usage": _JSON, "sitemaps": _JSON}),
    "from": _JSON | st.just("User-agent: *\nDisallow: /old/\n")})


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[tuple[str, httpx.Client]]:
    with _api(limits=Limits(rate=1e9, burst=10**9)) as base, httpx.Client(timeout=HANG) as c:
        yield base, c


@settings(max_examples=30)
@given(path=st.sampled_from(["/v1/check", "/v1/explain", "/v1/lint",
                                   "/v1/usage", "/v1/stance", "/v1/verify",
                                   "/v1/verify-request", "/v1/page", "/v1/license",
                                   "/v1/generate", "/v1/cache/purge", "/v1/cache/refresh"]),
       body=_FIELDS | _JSON, raw=st.none() | st.binary(max_size=40))
def test_no_body_is_answered_with_a_500(fuzzed: tuple[str, httpx.Client], path: str,
                                        body: Any, raw: Any) -> None:
    base, client = fuzzed
    if raw is not None:
        answer = client.post(base + path, content=raw)
    else:
        answer = client.post(base + path, content=json.dumps(body).encode())
    assert answer.status_code != 500, answer.text
    assert answer.headers["content-type"] == "application/json"


def test_openapi_validates_and_describes_the_answers(guarded: str) -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    jsonschema = pytest.importorskip("jsonschema")
    document = httpx.get(guarded + "/openapi.json", timeout=HANG).json()
    validator.validate(document)
    assert document["x-limits"] == Limits().as_json()
    assert f"max_cells {Limits().max_cells}" in document["info"]["description"]
    asked = {"check": {"urls": ["http://10.0.0.1/", "/relative"], "agents": ["a"]},
             "explain": {"robots": ROBOTS, "url": "/x", "agents": AGENTS},
             "lint": {"robots": ROBOTS}, "usage": {"robots": ROBOTS, "agents": ["a"]},
             "stance": {"robots": ROBOTS, "agents": AGENTS},
             "page": {"headers": PAGE_HEADERS, "body": PAGE_HEAD, "agents": AGENTS,
                      "robots": ROBOTS},
             "license": {"document": LICENCE, "urls": ["/a"], "agents": AGENTS},
             "generate": {"policy": {"agents": {"GPTBot": "block"}}}}
    answers = [(name, _post(guarded, f"/v1/{name}", body)) for name, body in asked.items()]
    answers.append(("check", _post(guarded, "/v1/check", {"robots": ROBOTS, "urls": URLS,
                                                          "agents": AGENTS, "explain": True})))
    answers.append(("check", _post(guarded, "/v1/check", {"urls": 3})))
    answers.append(("lint", _post(guarded, "/v1/lint", {})))
    for name, answer in answers:
        operation = document["paths"][f"/v1/{name}"]["post"]
        request = operation["requestBody"]["content"]["application/json"]["schema"]
        assert set(request["properties"]) >= set(asked[name])
        response = operation["responses"][str(answer.status_code)]
        jsonschema.validate(answer.json(), response["content"]["application/json"]["schema"])
    assert answers[0][1].json()["results"][0]["error"]["code"] == "address-refused"


def test_metrics_purge_and_refresh(site: Site) -> None:
    url = f"{site.base}/from-the-site/metrics"
    body = {"urls": [url], "agents": ["Bot"]}
    now = [1_000.0]  # the refresh interval's clock: a purge or refresh of a site at most
    port = int(site.base.rsplit(":", 1)[1])  # once a minute (the rate limit's too)
    with _api(guard=Guard(exempt=frozenset({("127.0.0.1", port)})),
              clock=lambda: now[0]) as api:
        assert _post(api, "/v1/cache/purge", {"url": url}).json() == {"purged": site.base}
        before = site.hits.count("/robots.txt")
        _post(api, "/v1/check", body)
        _post(api, "/v1/check", body)
        assert site.hits.count("/robots.txt") == before + 1
        now[0] += 61
        refreshed = _post(api, "/v1/cache/refresh", {"url": url}).json()
        assert refreshed["fetch"]["outcome"] == "ok" and refreshed["refreshed"] == site.base
        assert site.hits.count("/robots.txt") == before + 2
        now[0] += 61
        _post(api, "/v1/cache/purge", {"url": url})
        _post(api, "/v1/check", body)
        assert site.hits.count("/robots.txt") == before + 3
        text = httpx.get(api + "/metrics", timeout=HANG).text
    samples = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
               for line in text.splitlines() if line and not line.startswith("#")}
    assert samples['robotsrules_api_cache_lookups_total{result="hit"}'] >= 1
    assert samples['robotsrules_api_cache_lookups_total{result="fetched"}'] >= 2
    assert samples['robotsrules_api_fetches_total{outcome="ok"}'] >= 2
    assert samples['robotsrules_api_requests_total{path="/v1/check",status="200"}'] >= 3
    assert samples['robotsrules_api_request_seconds_count{path="/v1/check"}'] >= 3


def test_access_log_holds_no_credential_and_no_body(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="robotsrules.access"), _api(token="s3cret") as base:
        _post(base, "/v1/check", {"robots": "SECRET-BODY", "urls": ["/"], "agents": ["a"]},
              authorization="Bearer s3cret")
        _post(base, "/v1/lint", {"robots": "x"}, authorization="Bearer wrong")
    lines = [json.loads(r.getMessage()) for r in caplog.records
             if r.name == "robotsrules.access"]
    assert [(line["path"], line["status"]) for line in lines] == [("/v1/check", 200),
                                                                   ("/v1/lint", 401)]
    assert "s3cret" not in caplog.text and "SECRET-BODY" not in caplog.text
    assert "wrong" not in caplog.text and lines[0]["client"] == "127.0.0.1"


@pytest.fixture()
def redis_socket(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test alone on a Unix socket, ready when it says so."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not found on PATH (scripts/test.sh installs it)")
    path = str(tmp_path / "redis.sock")
    child = subprocess.Popen([binary, "--port", "0", "--unixsocket", path, "--save", "",
                              "--appendonly", "no", "--dir", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for line in child.stdout or ():
            if b"ready to accept connections" in line.lower():
                break
        else:
            pytest.fail("redis-server ended before it was ready")
        threading.Thread(target=lambda: [None for _ in child.stdout or ()],
                         daemon=True).start()  # keep its output drained
        yield path, child
    finally:
        child.kill()
        child.wait(HANG)


def test_two_services_share_one_redis_store(site: Site,
                                           redis_socket: tuple[str, Any]) -> None:
    redis = pytest.importorskip("redis")
    from robotsrules.cache.redis import RedisStore

    path, child = redis_socket
    port = int(site.base.rsplit(":", 1)[1])
    guard = Guard(exempt=frozenset({("127.0.0.1", port)}))
    stores = [RedisStore(redis.Redis(unix_socket_path=path, socket_timeout=HANG),
                         prefix="rr-api:") for _ in range(2)]
    url = f"{site.base}/from-the-site/shared"
    body = {"urls": [url], "agents": ["Bot"]}
    with _api(store=stores[0], guard=guard) as one, _api(store=stores[1], guard=guard) as two:
        _post(one, "/v1/cache/purge", {"url": url})
        before = site.hits.count("/robots.txt")
        first = _post(one, "/v1/check", body).json()["results"][0]
        second = _post(two, "/v1/check", body).json()["results"][0]
        assert first["allowed"] is False and second["allowed"] is False
        assert site.hits.count("/robots.txt") == before + 1  # fetched once for both
        assert second["fetch"]["cached"] is True
        assert httpx.get(two + "/readyz", timeout=HANG).status_code == 200
        child.kill()
        child.wait(HANG)
        ready = httpx.get(two + "/readyz", timeout=HANG)
        assert ready.status_code == 503 and ready.json()["status"] == "unavailable"
