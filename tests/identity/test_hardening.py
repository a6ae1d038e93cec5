"""The findings of the adversarial review of the address lists (issue 36 §1/§4, branch
i36-data; the reviewer's probes were /tmp/review-i36data/p1-p11): special-purpose space
never matches, a refresh never follows a list to another host, a refreshed copy never
reassigns tokens or name patterns nor wins by its date, strangers' numbers and dates are
bounded, and the index is built in time linear in its prefixes."""

from __future__ import annotations

import copy
import datetime
import io
import ipaddress
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotsrules import RobotsError
from robotsrules._tables._addresses import (
    ENV_VAR,
    AddressIndex,
    AddressList,
    ListAnswer,
    load_snapshot,
    read_jafar,
    read_snapshot,
    refresh_lists,
)
from robotsrules.cli import main
from tests.network.servers import Exchange, RawHTTPServer, head, raw, redirect, respond
from tests.timing import finishes, thread_cpu

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data"

# --- special-purpose space (finding 1) ----------------------------------------------------

REFUSED_V4 = ["0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
              "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24",
              "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
              "224.0.0.0/4", "240.0.0.0/4"]
# outside 2000::/3, or inside it and refused (2001::/23 less its global sub-blocks)
REFUSED_V6 = ["::/3", "4000::/2", "8000::/1", "2001::/32", "2001:2::/48", "2001:10::/28",
              "2001:db8::/32", "2002::/16", "3fff::/20"]
GLOBAL_SUB_BLOCKS = ["2001:3::/32", "2001:4:112::/48", "2001:20::/28", "2001:30::/28",
                     "2001:1::1/128"]


@pytest.mark.parametrize("prefix", [
    "::/96", "::/28", "::ffff:0:0:0/96", "::ffff:0:0/96", "4000::/28", "3fff::/28", "5f00::/28",
    "64:ff9b::/96", "100::/64", "fc00::/28", "fe80::/64", "2002:4000::/28", "2001:db8::/32",
    "2001:2::/48", "2001::/32", "224.0.0.0/12", "192.0.0.0/24", "10.0.0.0/12", "127.0.0.0/16",
    "100.64.0.0/12", "172.16.0.0/12", "198.18.0.0/15", "203.0.113.0/24", "255.255.255.255/32",
    "0.0.0.0/12", "169.254.169.254/32", "2001:4860:4801:10::%eth0/64"])
def test_special_purpose_prefixes_refuse_their_list(prefix: str) -> None:
    key = "ipv6Prefix" if ":" in prefix else "ipv4Prefix"
    with pytest.raises(RobotsError, match=r"not global unicast|zone id"):
        read_jafar({"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {key: prefix}]}, "t")


@pytest.mark.parametrize("prefix", ["66.249.64.0/27", "16.0.0.0/12", "2001:4860:4801:10::/64",
                                    "2600:1f28:365:8000::/56", *GLOBAL_SUB_BLOCKS,
                                    "192.31.196.0/24", "9.0.0.0/12", "223.255.255.0/24"])
def test_global_unicast_prefixes_are_read(prefix: str) -> None:
    key = "ipv6Prefix" if ":" in prefix else "ipv4Prefix"
    assert read_jafar({"prefixes": [{key: prefix}]}, "t")[0] == (
        str(ipaddress.ip_network(prefix)),)


def _inside(block: str, offset: int) -> ipaddress._BaseAddress:
    network = ipaddress.ip_network(block)
    return network.network_address + offset % network.num_addresses


@settings(max_examples=300)
@given(st.lists(st.one_of(
    st.tuples(st.integers(0, 2**32 - 1), st.integers(12, 32)).map(
        lambda v: ("ipv4Prefix", str(ipaddress.IPv4Network(v, strict=False)))),
    st.tuples(st.integers(0, 2**128 - 1), st.integers(28, 128)).map(
        lambda v: ("ipv6Prefix", str(ipaddress.IPv6Network(v, strict=False)))),
    st.tuples(st.sampled_from(REFUSED_V4 + REFUSED_V6), st.integers(0, 2**128),
              st.integers(0, 128)).map(lambda v: (
                  "ipv6Prefix" if ":" in v[0] else "ipv4Prefix",
                  str(ipaddress.ip_network((_inside(v[0], v[1]), v[2] % (
                      33 if ":" not in v[0] else 129)), strict=False))))), max_size=8),
    st.sampled_from(REFUSED_V4 + REFUSED_V6), st.integers(0, 2**128))
def test_no_address_in_special_purpose_space_ever_hits(prefixes: list[Any], block: str,
                                                       offset: int) -> None:
    """Whatever prefixes a list offers, each is read alone (so that one refused prefix does
    not hide the others), and the lists that are read never hold an address of a refused
    block, in any form the index reads (text, IPv4-mapped IPv6)."""
    kept = []
    for key, text in prefixes:
        try:
            kept.extend(read_jafar({"prefixes": [{key: text}]}, "t")[0])
        except RobotsError:
            continue
    document = {"version": 1, "compiled": "2026-11-01T00:00:00Z", "lists": [
        {"name": "l", "operator": "Example", "url": "https://example.com/l.json",
         "tokens": [], "captured": True, "read_at": "2026-11-01T00:00:00Z", "source": "t",
         "prefixes": sorted(set(kept))}]}
    try:
        index = read_snapshot(json.dumps(document), "t").index
    except RobotsError:
        return  # too much in all: refused whole, nothing hits
    address = _inside(block, offset)
    assert index.lookup(address) == () and index.lookup(str(address)) == ()
    if address.version == 4:
        assert index.lookup(f"::ffff:{address}") == ()


# --- a refresh stays on the list's host (finding 2) ------------------------------------------

GOOD_LIST = {"creationTime": "2026-11-27T06:00:00Z", "prefixes": [
    {"ipv4Prefix": "20.171.206.0/24"}]}
STRANGER = {"creationTime": "2026-11-27T06:00:00Z", "prefixes": [
    {"ipv4Prefix": "93.184.216.0/24"}]}
OLD_PREFIXES = ["45.76.10.0/24"]


def _lists_file(path: Path, urls: dict[str, str]) -> None:
    path.write_text(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z", "lists": [
        {"name": name, "operator": "Example", "url": url, "tokens": ["ExampleBot"],
         "captured": True, "read_at": "2026-09-02T14:41:05Z", "source": "a test",
         "prefixes": OLD_PREFIXES} for name, url in urls.items()]}), "utf-8")


def test_refresh_never_follows_a_list_to_another_host(tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({"/evil.json": respond(200, json.dumps(STRANGER).encode(), None,
                                              "application/json")}) as other, \
            RawHTTPServer({
                "/away.json": redirect(f"http://localhost:{other.port}/evil.json", 302),
                "/old.json": redirect("/new.json", 301),
                "/new.json": respond(200, json.dumps(GOOD_LIST).encode(), None,
                                     "application/json")}) as server:
        _lists_file(target, {"away": server.url("/away.json"), "moved": server.url("/old.json")})
        out = io.StringIO()
        code = finishes(main, ["crawlers", "refresh", "--snapshot", str(target),
                               "--timeout", "5"], out)
        assert code == 1, out.getvalue()
        assert "away: failed" in out.getvalue() and "another host" in out.getvalue()
        snapshot = load_snapshot(target)
        away, moved = snapshot.named("away"), snapshot.named("moved")
        assert away is not None and away.prefixes == tuple(OLD_PREFIXES)
        assert away.read_url == "" and snapshot.index.lookup("93.184.216.34") == ()
        # on the list's own host a moved list is read, and the URL read is recorded
        assert moved is not None and moved.prefixes == ("20.171.206.0/24",)
        assert moved.read_url == server.url("/new.json") and server.url("/new.json") in moved.source


@pytest.mark.parametrize(("url", "final", "read"), [
    ("https://openai.com/gptbot.json", "http://openai.com/gptbot.json", False),
    ("https://openai.com/gptbot.json", "https://openai.com.evil.net/gptbot.json", False),
    ("https://openai.com/gptbot.json", "https://cdn.openai.com/gptbot.json", False),
    ("https://openai.com/gptbot.json", "ftp://openai.com/gptbot.json", False),
    ("https://openai.com/gptbot.json", "https://OpenAI.com./v2/gptbot.json", True),
    ("http://example.com/bot.json", "https://example.com/bot.json", True),
    ("http://example.com/bot.json", "http://example.org/bot.json", False),
])
def test_the_final_url_is_https_on_the_lists_own_host(url: str, final: str, read: bool) -> None:
    """The command's fetcher is tested above against a real server; here the final URL a
    fetcher reports, for the schemes a loopback server cannot serve."""
    document = {"version": 1, "compiled": "2026-09-02T15:00:00Z", "lists": [
        {"name": "l", "operator": "Example", "url": url, "tokens": ["ExampleBot"],
         "captured": True, "read_at": "2026-09-02T14:41:05Z", "source": "a test",
         "prefixes": OLD_PREFIXES}]}
    snapshot = read_snapshot(json.dumps(document), "t")
    body = json.dumps(GOOD_LIST).encode()
    text, changes = refresh_lists(snapshot, lambda u, etag: ListAnswer(200, body, url=final))
    assert (changes[0].outcome == "updated") is read, changes[0]
    kept = read_snapshot(text, "t").named("l")
    assert kept is not None
    assert kept.prefixes == (("20.171.206.0/24",) if read else tuple(OLD_PREFIXES))
    assert kept.read_url == (final if read else "")


# --- the refreshed copy is data, never the catalogue (findings 4, 5, 6, 9) -------------------

BUNDLED = json.loads((DATA / "crawler-addresses.json").read_text("utf-8"))
UTC = datetime.timezone.utc


def _ago(**delta: float) -> str:
    return (datetime.datetime.now(UTC) - datetime.timedelta(**delta)).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def _copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, document: dict[str, Any]) -> None:
    path = tmp_path / "addresses.json"
    path.write_text(json.dumps(document), "utf-8")
    monkeypatch.setenv(ENV_VAR, str(path))


def _named(document: dict[str, Any], name: str) -> dict[str, Any]:
    return next(item for item in document["lists"] if item["name"] == name)


def test_a_tampered_refreshed_copy_reassigns_no_token_and_adds_no_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = copy.deepcopy(BUNDLED)
    document["compiled"] = "2099-01-01T00:00:00Z"
    gptbot = _named(document, "openai-gptbot")
    gptbot.update(tokens=["Googlebot"], prefixes=["93.184.216.0/24"],
                  read_at="2099-01-01T00:00:00Z")
    document["name_patterns"].append({"operator": "Google", "suffixes": ["attacker.net"],
                                      "tokens": ["Googlebot"], "source": "https://x.example/"})
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()  # compiled in the future: the whole copy is passed over
    assert snapshot.origin == "bundled" and "future" in snapshot.note
    assert snapshot.index.lookup("93.184.216.34") == ()

    document["compiled"] = _ago(hours=1)
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    assert snapshot.index.lookup("93.184.216.34") == ()  # its tokens differ: passed over
    assert "openai-gptbot" in snapshot.note
    assert all("attacker.net" not in item.suffixes for item in snapshot.name_patterns)
    assert [item.name for item in snapshot.lists_for("Googlebot")] == [
        item["name"] for item in BUNDLED["lists"] if "Googlebot" in item["tokens"]]

    gptbot["tokens"] = _named(BUNDLED, "openai-gptbot")["tokens"]  # the same list...
    _copy(tmp_path, monkeypatch, document)  # ...read in the future: passed over
    snapshot = load_snapshot()
    assert snapshot.index.lookup("93.184.216.34") == () and "future" in snapshot.note

    document["lists"].append(dict(gptbot, name="evil", tokens=["Googlebot"],
                                  read_at=_ago(hours=1)))
    _copy(tmp_path, monkeypatch, document)  # a list the catalogue does not name
    snapshot = load_snapshot()
    assert snapshot.named("evil") is None and snapshot.index.lookup("93.184.216.34") == ()
    assert "evil (not in the bundled catalogue)" in snapshot.note

    gptbot["read_at"] = _ago(hours=1)  # the honest case: newer content of the same list
    gptbot["source"] = "read by OpenAI's own staff, trust it"
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    assert [hit.list.tokens for hit in snapshot.index.lookup("93.184.216.34")] == [("GPTBot",)]
    taken = snapshot.named("openai-gptbot")
    assert taken is not None and "staff" not in taken.source  # its words are not provenance
    assert taken.source.startswith("read at https://openai.com/gptbot.json on ")


def test_the_newer_read_wins_list_by_list(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    document = copy.deepcopy(BUNDLED)
    del document["name_patterns"]
    document["compiled"] = _ago(hours=1)
    _named(document, "openai-gptbot").update(prefixes=["45.76.10.0/24"],
                                             read_at="2020-01-01T00:00:00Z")
    _named(document, "openai-searchbot").update(prefixes=["45.76.11.0/24"], read_at=_ago(hours=1))
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    assert snapshot.origin == "refreshed"
    assert snapshot.index.lookup("45.76.10.7") == ()  # read before the bundled list
    assert [hit.list.name for hit in snapshot.index.lookup("45.76.11.7")] == ["openai-searchbot"]
    bundled = load_snapshot(DATA / "crawler-addresses.json")
    assert snapshot.named("openai-gptbot") == bundled.named("openai-gptbot")


def test_a_refresh_that_read_nothing_keeps_the_compiled_date() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    text, _ = refresh_lists(snapshot, lambda url, etag: ListAnswer(None, error="offline"))
    assert json.loads(text)["compiled"] == BUNDLED["compiled"]


def test_strangers_numbers_and_dates_are_bounded_when_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = copy.deepcopy(BUNDLED)
    document["compiled"] = _ago(hours=1)
    for item in document["lists"]:
        item.update(polled_at="2099-01-01T00:00:00Z", max_age=10**20)
    _named(document, "openai-gptbot")["polled_at"] = _ago(minutes=30)
    _named(document, "openai-searchbot").update(polled_at=_ago(hours=2), max_age=-5)
    snapshot = read_snapshot(json.dumps(document), "t")
    assert {item.max_age for item in snapshot.lists} == {604800, 0}
    asked: list[str] = []

    def fetch(url: str, etag: Any) -> ListAnswer:
        asked.append(url)
        return ListAnswer(None, error="offline")

    _, changes = refresh_lists(snapshot, fetch)  # no OverflowError
    skipped = [change.name for change in changes if change.outcome == "skipped"]
    assert skipped == ["openai-gptbot", "amazon-amazonbot"]  # Amazon's: no list to read  # polled 30 minutes ago; the future polls are due
    assert len(asked) == len([item for item in snapshot.lists if item.refreshable]) - 1
    _copy(tmp_path, monkeypatch, document)
    assert load_snapshot().named("bing-bingbot").polled_at is None  # type: ignore[union-attr]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_at_the_refreshed_copy_is_passed_over(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "addresses.json"
    os.mkfifo(path)
    monkeypatch.setenv(ENV_VAR, str(path))
    snapshot = finishes(load_snapshot)  # no writer ever comes: it must not wait for one
    assert snapshot.origin == "bundled" and "not a regular file" in snapshot.note
    with pytest.raises(RobotsError, match="not a regular file"):
        finishes(load_snapshot, path)


# --- the index is built without hashing the lists (finding 3) ----------------------------------

HASHED: list[int] = []


class _Counted(AddressList):
    """An address list that counts how often it is hashed (the index's cost per segment
    was a hash of the whole list)."""

    __slots__ = ()

    def __hash__(self) -> int:
        HASHED.append(1)
        return super().__hash__()


def test_the_index_never_hashes_a_list() -> None:
    prefixes = tuple(f"{20 + (i >> 16)}.{(i >> 8) & 255}.{i & 255}.0/27" for i in range(50_000))
    lists = [_Counted(f"big{k}", "https://example.com/big.json", "Example", ("ExampleBot",),
                      datetime.datetime(2026, 11, 1, tzinfo=UTC), None, None, True, "t",
                      prefixes) for k in range(2)]
    HASHED.clear()
    index, cpu = thread_cpu(AddressIndex, lists)
    assert HASHED == []  # before: one hash of 50,000 prefixes per segment
    assert [hit.list.name for hit in index.lookup("20.0.1.5")] == ["big0", "big1"]
    assert cpu < 20  # a loose bound on the work: a quadratic build took minutes of CPU


# --- what a status and its headers may say (findings 7, 8) -------------------------------------


def _conditional_304(exchange: Exchange) -> None:
    if exchange.request.headers.get("if-none-match") == '"v1"':
        exchange.send(head(304, [("ETag", '"v1"'), ("Cache-Control", "max-age=7200")]))
    else:
        body = json.dumps(GOOD_LIST).encode()
        exchange.send(head(200, [("ETag", '"v1"'), ("Content-Length", str(len(body)))]) + body)


def test_a_304_counts_only_for_a_conditional_request_and_a_failure_sets_no_max_age(
        tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({
            "/always-304.json": raw(head(304, [("Cache-Control", "max-age=604800")])),
            "/error.json": raw(head(500, [("Cache-Control", "max-age=604800"),
                                          ("Content-Length", "0")])),
            "/etag.json": _conditional_304}) as server:
        _lists_file(target, {name: server.url(f"/{name}.json")
                             for name in ("always-304", "error", "etag")})
        out = io.StringIO()
        assert finishes(main, ["crawlers", "refresh", "--snapshot", str(target),
                               "--timeout", "5"], out) == 1
        first = load_snapshot(target)
        always = first.named("always-304")
        assert always is not None and always.read_at is not None
        assert always.read_at.year == 2026 and always.read_at.month == 9  # not confirmed
        assert always.max_age is None and first.named("error").max_age is None  # type: ignore[union-attr]
        assert "not conditional" in out.getvalue()
        etag = first.named("etag")
        assert etag is not None and etag.etag == '"v1"'
        from robotsrules.cli._crawlers import _fetcher

        class Args:
            timeout = 5.0
            user_agent = None
            agent = None

        later = datetime.datetime.now(UTC) + datetime.timedelta(hours=2)
        text, changes = refresh_lists(first, _fetcher(Args()), later)
        outcome = {change.name: change.outcome for change in changes}
        assert outcome == {"always-304": "failed", "error": "failed", "etag": "not-modified"}
        again = read_snapshot(text, "t")
        assert again.named("etag").max_age == 7200  # type: ignore[union-attr]
        assert again.named("error").max_age is None  # type: ignore[union-attr]


@pytest.mark.parametrize(("content_type", "document", "read"), [
    ("application/jafar+json; version=2.0", GOOD_LIST, False),
    ('application/jafar+json;version="2"', GOOD_LIST, False),
    ("Application/JAFAR+json; charset=utf-8; version=10.1", GOOD_LIST, False),
    ("application/jafar+json; version=1.0", GOOD_LIST, True),
    ("application/jafar+json", GOOD_LIST, True),
    ("application/json; version=2.0", GOOD_LIST, True),  # not the JAFAR type: not its version
    ("application/json", dict(GOOD_LIST, formatVersion=2), False),
    ("application/json", dict(GOOD_LIST, formatVersion=1), False),  # not text: unknown
    ("application/json", dict(GOOD_LIST, formatVersion=1.0), False),
    ("application/json", dict(GOOD_LIST, formatVersion=True), False),
    ("application/json", dict(GOOD_LIST, formatVersion="\u0661.0"), False),
    ("application/json", dict(GOOD_LIST, formatVersion="01.5"), False),
    ("application/json", dict(GOOD_LIST, formatVersion="1.2"), True),
])
def test_jafar_versions_we_do_not_know_are_not_read(tmp_path: Path, content_type: str,
                                                    document: Any, read: bool) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({"/l.json": respond(200, json.dumps(document).encode(),
                                           {"Content-Type": content_type})}) as server:
        _lists_file(target, {"l": server.url("/l.json")})
        out = io.StringIO()
        code = finishes(main, ["crawlers", "refresh", "--snapshot", str(target),
                               "--timeout", "5"], out)
        assert (code == 0) is read, out.getvalue()
        assert (load_snapshot(target).named("l").prefixes  # type: ignore[union-attr]
                == (("20.171.206.0/24",) if read else tuple(OLD_PREFIXES)))


# --- the low ones (finding 10) -----------------------------------------------------------------


def test_an_unknown_member_is_ignored_and_google_cloud_still_refused() -> None:
    # "scope" is no JAFAR member: ignored, as every unknown member (it once refused the list)
    assert read_jafar({"prefixes": [{"ipv4Prefix": "66.249.64.0/27", "scope": "us",
                                     "service": "crawl"}]}, "t")[0] == ("66.249.64.0/27",)
    with pytest.raises(RobotsError, match="cloud provider"):
        read_jafar({"prefixes": [{"ipv4Prefix": "34.1.208.0/20", "service": "Google Cloud"}]},
                   "t")


def test_zone_ids_are_refused_in_every_form() -> None:
    index = load_snapshot(DATA / "crawler-addresses.json").index
    assert index.lookup("2001:4860:4801:10::1")  # a Googlebot address
    with pytest.raises(ValueError, match="zone id"):
        index.lookup(ipaddress.IPv6Address("2001:4860:4801:10::1%eth0"))
    with pytest.raises(ValueError, match="not an IP address"):
        index.lookup("2001:4860:4801:10::1%eth0")


@pytest.mark.parametrize("name", ["x\\.googlebot.com", "x..googlebot.com", "x.googlebot.com..",
                                  "x\\ y.googlebot.com",
                                  "x.googlebot.com\x00", "x.googlebot.com ", ".googlebot.com",
                                  "x.googlebot\u3002com", "\u0445.googlebot.com"])
def test_names_that_are_not_host_names_match_no_pattern(name: str) -> None:
    for pattern in load_snapshot(DATA / "crawler-addresses.json").name_patterns:
        assert pattern.matches(name) is None, (pattern.operator, name)


def test_ordinary_names_still_match() -> None:
    google = load_snapshot(DATA / "crawler-addresses.json").patterns_for("Googlebot")[0]
    for name in ("crawl-66-249-66-1.googlebot.com", "X.GOOGLEBOT.COM.",
                 "geo-crawl-1-2-3-4.geo.googlebot.com", "a_b.googlebot.com"):
        assert google.matches(name), name


def test_a_list_that_is_not_refreshable_is_skipped_with_why() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    amazon = snapshot.named("amazon-amazonbot")
    assert amazon is not None and not amazon.refreshable and "HTML" in amazon.note
    asked: list[str] = []

    def fetch(url: str, etag: Any) -> ListAnswer:
        asked.append(url)
        return ListAnswer(None, error="offline")

    text, changes = refresh_lists(snapshot, fetch)
    change = next(item for item in changes if item.name == "amazon-amazonbot")
    assert change.outcome == "skipped" and "HTML" in change.message
    assert amazon.url not in asked
    again = read_snapshot(text, "t").named("amazon-amazonbot")
    assert again is not None and not again.refreshable  # the copy keeps saying so
