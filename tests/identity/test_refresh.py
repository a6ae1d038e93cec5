"""``robotsrules crawlers refresh`` against a real HTTP server on loopback serving address
lists, honest and hostile (huge, slow, truncated, wrong JSON, 0.0.0.0/0, a cloud list): each
failure keeps its list's old content, nothing hostile makes an address match, a list is never
asked for twice within an hour, ETags are sent back, and the copy is written atomically
(never the bundled one)."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path
from typing import Any

import pytest

from robotsrules import RobotsError
from robotsrules._tables._addresses import (
    ListAnswer,
    load_snapshot,
    refresh_lists,
    write_atomically,
)
from robotsrules.cli import main
from tests.network.servers import (
    Exchange,
    RawHTTPServer,
    head,
    raw,
    respond,
    serve_bytes,
    slow_headers,
)
from tests.scripts_loader import load_script
from tests.timing import finishes

DATA = Path(__file__).resolve().parents[2] / "src" / "robotsrules" / "data"
OLD = "2026-09-02T14:41:05Z"
GOOD = {"creationTime": "2026-11-27T06:00:00.000000", "synctoken": "17",
        "formatVersion": "1.0", "prefixes": [
            {"ipv4Prefix": "20.171.206.0/24"}, {"ipv4Prefix": "74.7.175.128/25"},
            {"ipv6Prefix": "2600:1f28:365:8000::/56", "service": "crawl"}]}


def _json(document: Any, etag: str = "") -> Any:
    headers = {"ETag": etag} if etag else None
    return respond(200, json.dumps(document).encode(), headers, "application/json")


def _conditional(etag: str) -> Any:
    """200 with the good list, or 304 when the request names ``etag``."""
    body = json.dumps(GOOD).encode()

    def scenario(exchange: Exchange) -> None:
        if exchange.request.headers.get("if-none-match") == etag:
            exchange.send(head(304, [("ETag", etag)]))
        else:
            exchange.send(head(200, [("ETag", etag), ("Content-Type", "application/json"),
                                     ("Cache-Control", "public, max-age=7200"),
                                     ("Content-Length", str(len(body)))]) + body)

    return scenario


HOSTILE: dict[str, Any] = {
    "/huge.json": serve_bytes(b'{"prefixes": [' + b" " * (5 << 20) + b"]}",
                              content_type="application/json"),
    "/slow.json": slow_headers(),
    "/truncated.json": raw(head(200, [("Content-Length", "1000")]) + b'{"prefixes": [{"ipv4'),
    "/wrong.json": respond(200, b'{"prefixes": [{"ipv4Prefix": "20.171.206.0/24"},', None,
                           "application/json"),
    "/everything.json": _json({"prefixes": [{"ipv4Prefix": "0.0.0.0/0"},
                                            {"ipv6Prefix": "::/0"}]}),
    "/cloud.json": _json({"syncToken": "1", "prefixes": [
        {"ip_prefix": "3.5.140.0/22", "region": "us-east-1", "service": "EC2"}]}),
    "/html.json": respond(200, b"<html><script>{\"prefixes\": []}</script></html>", None,
                          "text/html"),
    "/gone.json": respond(404, b"not here"),
}


def _snapshot(server: RawHTTPServer, path: Path) -> None:
    names = ["good"] + [name.strip("/").split(".")[0] for name in HOSTILE]
    lists = []
    for name in names:
        lists.append({
            "name": name, "operator": "Example", "url": server.url(f"/{name}.json"),
            "tokens": ["ExampleBot"], "captured": True, "read_at": OLD,
            "source": "a test", "prefixes": ["45.76.10.0/24", "20.171.206.0/24"]})
    path.write_text(json.dumps({"version": 1, "compiled": "2026-09-02T15:00:00Z",
                                "lists": lists}), "utf-8")


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = finishes(main, list(argv), out)
    return code, out.getvalue()


def test_refresh_reads_good_lists_and_keeps_the_old_copy_of_every_failed_one(
        tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({"/good.json": _conditional('"v1"'), **HOSTILE}) as server:
        _snapshot(server, target)
        code, text = _run("crawlers", "refresh", "--snapshot", str(target),
                          "--timeout", "1")
        assert code == 1, text  # some lists failed
        snapshot = load_snapshot(target)
        good = snapshot.named("good")
        assert good is not None and good.etag == '"v1"' and good.synctoken == "17"
        assert good.max_age == 7200 and snapshot.named("huge").max_age is None  # type: ignore[union-attr]
        assert good.prefixes == ("20.171.206.0/24", "74.7.175.128/25", "2600:1f28:365:8000::/56")
        assert good.creation_time == "2026-11-27T06:00:00.000000"
        assert "good: updated, +2 -1" in text and "  + 74.7.175.128/25" in text
        assert "  - 45.76.10.0/24" in text
        for name in ("huge", "slow", "truncated", "wrong", "everything", "cloud", "html", "gone"):
            kept = snapshot.named(name)
            assert kept is not None and kept.prefixes == ("20.171.206.0/24", "45.76.10.0/24")
            assert kept.read_at == datetime.datetime(2026, 9, 2, 14, 41, 5,
                                                     tzinfo=datetime.timezone.utc)
            assert f"{name}: failed, the old copy kept" in text, name
        assert "larger than 4 MiB" in text and "shorter than /12" in text
        assert "cloud provider" in text and "HTTP status 404" in text
        for address in ("1.1.1.1", "3.5.140.1", "2001:db8::1", "::1"):
            assert snapshot.index.lookup(address) == (), address  # nothing hostile matches

        # at once again: nothing is asked for within the hour, and nothing changes
        asked = len(server.requests)
        code, text = _run("crawlers", "refresh", "--snapshot", str(target), "--json")
        assert code == 0 and len(server.requests) == asked
        answer = json.loads(text)
        assert {item["outcome"] for item in answer["lists"]} == {"skipped"}
        assert load_snapshot(target).named("good") == good._replace(
            polled_at=load_snapshot(target).named("good").polled_at)  # type: ignore[union-attr]


def test_refresh_is_conditional_with_the_etag_kept(tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({"/good.json": _conditional('"v1"'), **HOSTILE}) as server:
        _snapshot(server, target)
        assert _run("crawlers", "refresh", "--snapshot", str(target), "--timeout", "1")[0] == 1
        first = load_snapshot(target)
        later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2, seconds=5)
        from robotsrules.cli._crawlers import _fetcher  # the command's own fetcher

        class Args:
            timeout = 1.0
            user_agent = None
            agent = None

        text, changes = refresh_lists(first, _fetcher(Args()), later)
        outcome = {change.name: change.outcome for change in changes}
        assert outcome["good"] == "not-modified"
        good_requests = [r for r in server.requests if r.path == "/good.json"]
        assert good_requests[0].headers.get("if-none-match") is None
        assert good_requests[-1].headers.get("if-none-match") == '"v1"'
        assert "authorization" not in good_requests[-1].headers
        refreshed = json.loads(text)
        good = next(item for item in refreshed["lists"] if item["name"] == "good")
        assert good["read_at"] == later.strftime("%Y-%m-%dT%H:%M:%SZ")  # confirmed current


def test_a_fetcher_that_raises_fails_one_list() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")

    def fetch(url: str, etag: Any) -> ListAnswer:
        if "gptbot" in url:
            raise ConnectionError("boom")
        return ListAnswer(None, error="offline")

    text, changes = refresh_lists(snapshot, fetch)
    assert {change.outcome for change in changes if change.name != "amazon-amazonbot"} == {
        "failed"}  # Amazon's URL is a page, not a list: skipped
    kept = {item["name"]: item["prefixes"] for item in json.loads(text)["lists"]}
    assert kept == {item.name: list(item.prefixes) for item in snapshot.lists}


def test_a_304_for_a_list_never_captured_is_a_failure() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    _, changes = refresh_lists(snapshot, lambda url, etag: ListAnswer(304))
    outcome = {change.name: change.outcome for change in changes}
    assert outcome["anthropic-bots"] == "failed"
    # no ETag was kept, so the request was not conditional: its 304 confirms nothing
    assert outcome["openai-gptbot"] == "failed"


def test_the_bundled_snapshot_is_never_written(tmp_path: Path) -> None:
    from importlib import resources

    installed = Path(str(resources.files("robotsrules").joinpath("data/crawler-addresses.json")))
    for bundled in {installed, DATA / "crawler-addresses.json"}:  # the build's, the tree's
        before = bundled.read_bytes()
        with pytest.raises(RobotsError, match="never written"):
            write_atomically(bundled, "{}")
        assert bundled.read_bytes() == before
    package = tmp_path / "pkg"  # any package's data/ copy, e.g. another checkout
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("", "utf-8")
    with pytest.raises(RobotsError, match="never written"):
        write_atomically(package / "data" / "crawler-addresses.json", "{}")
    assert not (package / "data" / "crawler-addresses.json").exists()


def test_a_failed_write_keeps_the_old_copy_and_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()  # os.replace cannot put a file over a directory
    with pytest.raises(OSError):
        write_atomically(target, "{}")
    assert list(tmp_path.iterdir()) == [target] and list(target.iterdir()) == []
    path = tmp_path / "copy.json"
    path.write_text("old", "utf-8")
    write_atomically(path, "new")
    assert path.read_text("utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.json", "taken"]


def test_the_maintainer_script_runs_the_command(tmp_path: Path) -> None:
    target = tmp_path / "lists.json"
    with RawHTTPServer({"/good.json": _conditional('"v2"'), **HOSTILE}) as server:
        _snapshot(server, target)
        script = load_script("crawler_addresses")
        code = finishes(script.main, ["--refresh", "--user-copy", str(target),
                                      "--timeout", "1"])
        assert code == 1
        good = load_snapshot(target).named("good")
        assert good is not None and good.etag == '"v2"'
        lists: list[str] = [item.name for item in load_snapshot(target).lists]
        assert lists[0] == "good"
        # the maintainer takes what the copy read into a snapshot of the same lists
        bundled = tmp_path / "bundled.json"
        _snapshot(server, bundled)
        assert finishes(script.main, ["--snapshot", str(bundled), "--import-copy", str(target),
                                      "--compiled", "2026-12-01T00:00:00Z", "--write"]) == 0
        imported = load_snapshot(bundled)
        assert imported.named("good").prefixes == good.prefixes  # type: ignore[union-attr]
        assert imported.named("good").etag == '"v2"'  # type: ignore[union-attr]
        assert imported.named("huge").prefixes == ("20.171.206.0/24", "45.76.10.0/24")  # type: ignore[union-attr]


def test_no_list_is_asked_for_within_the_hour_nor_within_its_max_age() -> None:
    snapshot = load_snapshot(DATA / "crawler-addresses.json")
    asked: list[str] = []

    def fetch(url: str, etag: Any) -> ListAnswer:
        asked.append(url)
        max_age = "max-age=86400" if "gptbot" in url else "max-age=60"
        return ListAnswer(200, json.dumps(GOOD).encode(), cache_control=max_age)

    # in the past: a poll later than the clock is read as no poll (a refreshed copy
    # cannot put a list off forever)
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)
    text, _ = refresh_lists(snapshot, fetch, start)
    refreshable = len([item for item in snapshot.lists if item.refreshable])
    assert len(asked) == refreshable
    for minutes, expected in ((59, 0), (61, refreshable - 1), (24 * 60 + 1, refreshable)):
        asked.clear()
        from robotsrules._tables._addresses import read_snapshot

        again = read_snapshot(text, "t")
        _, changes = refresh_lists(again, fetch, start + datetime.timedelta(minutes=minutes))
        assert len(asked) == expected, minutes
        if minutes == 61:
            gptbot = next(change for change in changes if change.name == "openai-gptbot")
            assert gptbot.outcome == "skipped" and "max-age of 86400" in gptbot.message
