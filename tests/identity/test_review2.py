"""The findings of the second review of the address lists (issue 36 §1/§4; the reviewer's
probes were /tmp/review-i36r2): the refreshed copy is merged before it is indexed and the
index is capped, the catalogue's ``refreshable: false`` holds against the copy, the JAFAR
media type's parameters are read as RFC 9110 writes them, an empty ETag is no ETag,
redirects are vetted hop by hop before they are requested, and one list past the total
fails alone."""

from __future__ import annotations

import copy
import io
import ipaddress
import json
import tracemalloc
from pathlib import Path
from typing import Any, Optional

import pytest

from robotsrules import RobotsError
from robotsrules._tables._addresses import (
    COPY_LISTS_FACTOR,
    MAX_INDEX_ENTRIES,
    MAX_PREFIXES,
    AddressIndex,
    ListAnswer,
    _bundled,
    _media_version,
    load_snapshot,
    read_snapshot,
    refresh_lists,
)
from robotsrules.cli import main
from tests.identity.test_hardening import BUNDLED, _ago, _copy, _named  # shared helpers
from tests.network.servers import Exchange, RawHTTPServer, redirect, respond
from tests.timing import finishes

GOOD_LIST = {"creationTime": "2026-11-27T06:00:00Z", "prefixes": [
    {"ipv4Prefix": "20.171.206.0/24"}]}


def _stranger(name: str, prefixes: list[str]) -> dict[str, Any]:
    return {"name": name, "operator": "Example", "url": "https://example.com/l.json",
            "tokens": ["ExampleBot"], "captured": True, "read_at": _ago(hours=1),
            "source": "a test", "prefixes": prefixes}


def _peak(call: Any) -> Any:
    """``call()`` and the peak of the memory it allocated (bytes)."""
    tracemalloc.start()
    try:
        value = call()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- F1: the copy is merged before it is indexed; the index is capped ------------------------


def test_lists_the_catalogue_does_not_name_are_never_indexed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reviewer's copy: lists not in the catalogue, each 1.0.0.0/12, and a catalogue list
    of 50,000 /32s inside it. Before, every stranger's /12 was indexed into each of the
    100,000 segments (100 lists: 148 MB); now only the catalogue's lists are."""
    _bundled()
    document = copy.deepcopy(BUNDLED)
    del document["name_patterns"]
    document["compiled"] = _ago(hours=1)
    strangers = COPY_LISTS_FACTOR * len(BUNDLED["lists"]) - len(BUNDLED["lists"])
    document["lists"] += [_stranger(f"s{number}", ["1.0.0.0/12"]) for number in range(strangers)]
    _named(document, "openai-gptbot").update(read_at=_ago(hours=1), prefixes=[
        f"1.{(i >> 16) & 15}.{(i >> 8) & 255}.{i & 255}/32" for i in range(0, 100_000, 2)])
    _copy(tmp_path, monkeypatch, document)
    # indexed before the merge, the copy would store a stranger's hit in each of its 100,000
    # segments, past the cap (so this copy is passed over if the copy is ever indexed whole)
    assert (strangers + 1) * 100_000 > MAX_INDEX_ENTRIES
    snapshot = load_snapshot()
    assert snapshot.origin == "refreshed", snapshot.note
    assert [hit.list.name for hit in snapshot.index.lookup("1.0.0.2")] == ["openai-gptbot"]
    assert snapshot.index.lookup("1.0.0.3") == ()
    # the stored hits: one per segment at most (before: the strangers' too, in every one)
    assert max(len(hits) for hits in snapshot.index._hits4) == 1

    document["lists"].append(_stranger("one-too-many", ["45.76.10.0/24"]))
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    assert snapshot.origin == "bundled"
    assert f"more than {COPY_LISTS_FACTOR * len(BUNDLED['lists'])} lists" in snapshot.note


def _nested(names: list[str], leaves: int) -> dict[str, Any]:
    """The reviewer's F1b copy: each named catalogue list holds the chain 2600::/29 ...
    2600::/112 and /128s inside it, within the catalogue's own bounds."""
    chain = [f"2600::/{length}" for length in range(29, 113)]
    base = int(ipaddress.IPv6Address("2600::"))
    prefixes = chain + [f"{ipaddress.IPv6Address(base + i)}/128" for i in range(1, leaves + 1)]
    document = copy.deepcopy(BUNDLED)
    del document["name_patterns"]
    document["compiled"] = _ago(hours=1)
    for name in names:
        _named(document, name).update(read_at=_ago(hours=1), prefixes=prefixes)
    return document


def test_prefixes_nested_deeply_are_refused_within_the_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["openai-gptbot", "openai-searchbot", "bing-bingbot", "apple-applebot"]
    _copy(tmp_path, monkeypatch, _nested(names, 5_000))  # 1.7 million hits over segments
    _bundled()
    snapshot, peak = _peak(load_snapshot)
    assert snapshot.origin == "bundled" and "nest too deeply" in snapshot.note
    assert peak < 100 << 20, peak >> 20  # before: indexed whole
    assert snapshot.index.lookup("2600::5") == ()


def test_the_index_refuses_more_than_its_cap_and_holds_the_catalogue() -> None:
    lists = _bundled().lists
    nested = read_snapshot(json.dumps(_nested(["openai-gptbot"], 0)), "t").named(
        "openai-gptbot")
    assert nested is not None  # 84 nested prefixes: at most 84 hits at each boundary
    AddressIndex([nested])
    # /128s side by side inside all 84: each adds one boundary where 84 or 85 hits hold
    leaves = MAX_INDEX_ENTRIES // 84 + 1
    many = nested._replace(prefixes=nested.prefixes + tuple(
        f"{ipaddress.IPv6Address(int(ipaddress.IPv6Address('2600::')) + i)}/128"
        for i in range(1, leaves + 1)))
    with pytest.raises(RobotsError, match="nest too deeply"):
        AddressIndex([many])
    index = AddressIndex(lists)
    assert sum(len(hits) for hits in index._hits4 + index._hits6) < MAX_INDEX_ENTRIES // 100


# --- F2: the catalogue's "refreshable: false" holds against the copy ---------------------------


def test_a_list_the_catalogue_marks_not_refreshable_takes_nothing_from_the_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = copy.deepcopy(BUNDLED)
    del document["name_patterns"]
    document["compiled"] = _ago(hours=1)
    amazon = _named(document, "amazon-amazonbot")
    assert amazon.get("refreshable") is False
    amazon.update(captured=True, read_at=_ago(hours=1), prefixes=["93.184.216.0/24"])
    del amazon["refreshable"]
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    assert snapshot.index.lookup("93.184.216.34") == ()
    assert "amazon-amazonbot (the bundled catalogue marks it not refreshable)" in snapshot.note
    kept = snapshot.named("amazon-amazonbot")
    assert kept is not None and not kept.refreshable and not kept.captured


# --- F3: the media type's parameters, as RFC 9110 §5.6.6 writes them ----------------------------


@pytest.mark.parametrize(("content_type", "version"), [
    ('application/jafar+json; foo="a;version=1"; version=2', "2"),
    ('application/jafar+json; foo="a\\"; version=1"; version=2', "2"),
    ('application/jafar+json;version="1.0"', "1.0"),
    ('application/jafar+json; charset=utf-8 ; version=1.2', "1.2"),
    ("application/jafar+json; x-version=1; version=2", "2"),
    ("application/jafar+json;;", None),
    ("application/json; version=2", None),
])
def test_media_type_parameters_are_tokens_and_quoted_strings(content_type: str,
                                                             version: Optional[str]) -> None:
    assert _media_version(content_type) == version


@pytest.mark.parametrize("content_type", [
    "application/jafar+json; version=1; version=2",
    "application/jafar+json; version=1 ; VERSION=1",
    'application/jafar+json; version="1"2',
    'application/jafar+json; v=1; version="2',
    'application/jafar+json; version="1',
    "application/jafar+json; version =\t2",
    "application/jafar+json; version=1,2",
    "application/jafar+json; version",
])
def test_malformed_or_repeated_parameters_refuse_the_list(content_type: str) -> None:
    with pytest.raises(RobotsError):
        _media_version(content_type)
    snapshot = read_snapshot(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z",
                                         "lists": [_stranger("l", ["45.76.10.0/24"])]}), "t")
    body = json.dumps(GOOD_LIST).encode()
    _, changes = refresh_lists(snapshot, lambda url, etag: ListAnswer(
        200, body, url=url, content_type=content_type))
    assert changes[0].outcome == "failed", changes[0]


# --- F4: an empty ETag is no ETag ---------------------------------------------------------------


@pytest.mark.parametrize("etag", ["", "v1", 'W/"', '"a b"'])
def test_a_copy_with_an_etag_that_is_not_one_makes_no_conditional_request(etag: str) -> None:
    item = _stranger("l", ["45.76.10.0/24"])
    item.update(etag=etag, read_at="2026-09-02T14:41:05Z")
    snapshot = read_snapshot(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z",
                                         "lists": [item]}), "t")
    sent: list[Optional[str]] = []

    def fetch(url: str, tag: Optional[str]) -> ListAnswer:
        sent.append(tag)
        return ListAnswer(304, url=url)

    text, changes = refresh_lists(snapshot, fetch)
    assert sent == [None] and changes[0].outcome == "failed", changes[0]
    kept = read_snapshot(text, "t").named("l")
    assert kept is not None and kept.read_at is not None and kept.read_at.year == 2026
    assert kept.read_at.month == 9  # the 304 confirmed nothing


# --- F5: redirects vetted hop by hop, before they are requested ---------------------------------


def _lists_file(path: Path, urls: dict[str, str]) -> None:
    path.write_text(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z", "lists": [
        dict(_stranger(name, ["45.76.10.0/24"]), url=url, read_at="2026-09-02T14:41:05Z")
        for name, url in urls.items()]}), "utf-8")


def test_a_hop_to_another_host_is_never_requested_and_userinfo_never_sent(
        tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    body = json.dumps(GOOD_LIST).encode()

    def with_userinfo(exchange: Exchange) -> None:  # to this same server, with a password
        port = exchange.request.headers["host"].rpartition(":")[2]
        redirect(f"http://user:secret@127.0.0.1:{port}/new.json", 302)(exchange)

    with RawHTTPServer({"/internal-admin": respond(200, body, None, "application/json")}) \
            as other, RawHTTPServer({
                "/away.json": redirect(f"http://localhost:{other.port}/internal-admin", 302),
                "/cred.json": redirect("/hop.json", 302),
                "/hop.json": with_userinfo,
                "/new.json": respond(200, body, None, "application/json")}) as server:
        _lists_file(target, {"away": server.url("/away.json"),
                             "cred": server.url("/cred.json")})
        out = io.StringIO()
        code = finishes(main, ["crawlers", "refresh", "--snapshot", str(target),
                               "--timeout", "5"], out)
        assert code == 1, out.getvalue()
        assert other.requests == []  # before: the GET reached the other host, then refused
        assert "away: failed" in out.getvalue() and "not requested" in out.getvalue()
        reached = [request for request in server.requests if request.path == "/new.json"]
        assert len(reached) == 1 and "authorization" not in reached[0].headers
        written = target.read_text("utf-8")
        assert "secret" not in written and "user:" not in written
        cred = load_snapshot(target).named("cred")
        assert cred is not None and cred.prefixes == ("20.171.206.0/24",)
        assert cred.read_url == server.url("/new.json")


def test_a_fetcher_that_follows_redirects_still_has_its_final_url_vetted() -> None:
    snapshot = read_snapshot(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z",
                                         "lists": [_stranger("l", ["45.76.10.0/24"])]}), "t")
    body = json.dumps(GOOD_LIST).encode()
    text, changes = refresh_lists(snapshot, lambda url, etag: ListAnswer(
        200, body, url="https://u:p@example.com/moved.json"))
    assert changes[0].outcome == "updated"
    assert "u:p" not in text and read_snapshot(text, "t").named("l").read_url == (  # type: ignore[union-attr]
        "https://example.com/moved.json")


# --- F6: the list that crosses the total fails alone ---------------------------------------------


def _block(first: str, count: int) -> list[str]:
    start = int(ipaddress.IPv4Address(first))
    return [f"{ipaddress.IPv4Address(start + i)}/32" for i in range(count)]


def test_only_the_list_that_takes_the_copy_past_the_total_fails() -> None:
    full = 50_000
    lists = [_stranger(f"big{number}", _block(f"{20 + number}.0.0.0", full))
             for number in range(3)]
    lists.append(_stranger("near", _block("30.0.0.0", MAX_PREFIXES - 3 * full - 10)))
    lists += [_stranger("grows", ["45.76.10.0/24"]), _stranger("small", ["45.76.11.0/24"])]
    document = {"version": 1, "compiled": "2026-09-02T15:00:00Z", "lists": lists}
    for item in lists:
        item["read_at"] = "2026-09-02T14:41:05Z"
    snapshot = read_snapshot(json.dumps(document), "t")
    grown = json.dumps({"prefixes": [{"ipv4Prefix": text}
                                     for text in _block("40.0.0.0", 100)]}).encode()
    answers = {"grows": grown, "small": json.dumps(GOOD_LIST).encode()}
    order = iter(["big0", "big1", "big2", "near", "grows", "small"])

    def by_order(url: str, etag: Optional[str]) -> ListAnswer:
        name = next(order)
        if name in answers:
            return ListAnswer(200, answers[name], url=url)
        return ListAnswer(None, error="offline")

    text, changes = refresh_lists(snapshot, by_order)
    changes_by_name = {change.name: change.outcome for change in changes}
    assert changes_by_name["grows"] == "failed" and changes_by_name["small"] == "updated"
    assert "prefixes in all" in next(c.message for c in changes if c.name == "grows")
    again = read_snapshot(text, "t")
    assert again.named("grows").prefixes == ("45.76.10.0/24",)  # type: ignore[union-attr]
    assert again.named("small").prefixes == ("20.171.206.0/24",)  # type: ignore[union-attr]


# --- minor: a list that is not newer passes nothing, its poll dates included ---------------------


def test_a_list_not_newer_passes_its_poll_date_but_no_max_age(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    document = copy.deepcopy(BUNDLED)
    del document["name_patterns"]
    document["compiled"] = _ago(hours=1)
    _named(document, "openai-gptbot").update(read_at="2020-01-01T00:00:00Z",
                                             polled_at=_ago(minutes=1), max_age=604800)
    _copy(tmp_path, monkeypatch, document)
    snapshot = load_snapshot()
    gptbot = snapshot.named("openai-gptbot")
    # its poll date passes (the hourly floor holds after a failed refresh), its max-age not
    assert gptbot is not None and gptbot.polled_at is not None and gptbot.max_age is None
