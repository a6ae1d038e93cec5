"""Rebuild the crawler registry (src/robotsrules/data/crawlers.json) from the public sources
and print the differences for review.

The registry is curated data with provenance; this script keeps it current the way
tldextract keeps its suffix list: a snapshot ships with the package, and a maintainer
refreshes it from the public source, reviews what changed and commits the new snapshot.

    python scripts/crawler_registry.py --source robots.json --commit SHA --source-date DATE
    python scripts/crawler_registry.py --source URL ... --write    # write the new registry

The source is ai.robots.txt's robots.json (github.com/ai-robots-txt/ai.robots.txt, MIT), a
local file or an https URL (fetched with a time-out and a size cap; the tests never use the
network: tests/stance/test_registry_refresh.py runs this script on a stored snapshot).
What the refresh does, entry by entry:

* a name the source lists and the registry does not: added, derived from the source
  (``curated: false``): the token robots.txt reads for the name (Google's reader keeps a
  user-agent value up to its first character outside letters, '-' and '_'), operator,
  categories from the source's function, and what the source says about robots.txt: a
  linked "Yes"/"No" becomes the statement of the linked page (``via`` the source), anything
  else "unknown" with the date the source was compiled;
* an entry that is not curated: derived again; replaced (and reported) only if it changed;
* a curated entry: kept as it is, except a robots.txt statement taken ``via`` the source,
  which follows the source (reported when it changes);
* an entry the source no longer lists: kept, reported, and no longer ``listed_by`` it.

Each entry's ``verify.address_lists`` then names the lists of the address snapshot
(data/crawler-addresses.json, scripts/crawler_addresses.py) at its ``verify.ip_ranges`` URLs.
Nothing else is ever dropped. The output is canonical JSON, so a rebuild from the snapshot
the registry was built from reproduces it byte for byte.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import difflib
import json
import re
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "src" / "robotsrules" / "data" / "crawlers.json"
ADDRESSES = ROOT / "src" / "robotsrules" / "data" / "crawler-addresses.json"
SOURCE_NAME = "ai.robots.txt"
SOURCE_REPOSITORY = "https://github.com/ai-robots-txt/ai.robots.txt"
SOURCE_URL = "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json"
TABLE_URL = SOURCE_REPOSITORY + "/blob/main/table-of-bot-metrics.md"
MAX_SOURCE_BYTES = 8 << 20
FETCH_TIMEOUT = 30.0
ENTRY_KEYS = ("name", "token", "token_note", "operator", "categories", "trigger", "purpose",
              "source", "robots_txt", "crawl_delay", "verify", "listed_by", "curated", "note")
DELAY_KEYS = ("reads", "statement", "source", "checked")
STATEMENT_KEYS = ("obeys", "statement", "source", "checked", "stated", "via")
_TOKEN = re.compile(r"[A-Za-z_-]*")
_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")
_URL = re.compile(r"https?://[^\s)\]>\"']+")
_UNCLEAR = "unclear at this time"
# The source's "function" values (knownagents.com's categories and free text) -> ours.
_FUNCTIONS = {
    "ai search crawlers": "ai-search",
    "ai data providers": "ai-search",
    "ai assistants": "user-triggered",
    "ai agents": "user-triggered",
    "ai coding agents": "user-triggered",
    "ai data scrapers": "ai-training",
    "undocumented ai agents": "other",
}
_GENERIC_FUNCTIONS = frozenset(_FUNCTIONS)


class SourceError(Exception):
    """The source is not an ai.robots.txt robots.json."""


def read_source(text: str) -> dict[str, dict[str, str]]:
    """The source's entries, checked: ``{name: {operator, respect, function, description}}``."""
    if len(text) > MAX_SOURCE_BYTES:
        raise SourceError(f"larger than {MAX_SOURCE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise SourceError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or not data:
        raise SourceError("not an object of crawler names")
    entries: dict[str, dict[str, str]] = {}
    spelling: dict[str, str] = {}  # lower-cased name -> the first spelling listed
    for name, entry in data.items():
        if not isinstance(entry, dict) or not name.strip() or len(name) > 200:
            raise SourceError(f"entry {name[:60]!r} is not an object with a name")
        fields = {}
        for field in ("operator", "respect", "function", "description"):
            value = entry.get(field, "")
            if not isinstance(value, str):
                raise SourceError(f"{name!r}: {field} is not a string")
            fields[field] = value.strip()[:2000]
        first = spelling.setdefault(name.lower(), name)
        if first == name:
            entries[name] = fields
            continue
        # The same name in another case (robots.json lists a few twice): one entry, each
        # field taken from the first spelling that says something (a link beats no link).
        kept = entries[first]
        for field, value in fields.items():
            if _says_more(value, kept[field]):
                kept[field] = value
    return entries


def _says_more(value: str, kept: str) -> bool:
    def rank(text: str) -> int:
        if not text or text.lower().rstrip(".").startswith(_UNCLEAR):
            return 0
        return 2 if _LINK.search(text) else 1
    return rank(value) > rank(kept)


def token_for(name: str) -> Optional[str]:
    """The product token Google's reader takes from ``User-agent: <name>``: the value up to
    its first character outside letters, '-' and '_' (``None`` if that is nothing)."""
    found = _TOKEN.match(name)
    return found.group() if found and found.group() else None


def _unlinked(text: str) -> tuple[str, Optional[str]]:
    """Markdown link text and URL (``"[Ai2](https://...)"`` -> ``("Ai2", "https://...")``)."""
    link = _LINK.search(text)
    if link:
        return (_LINK.sub(lambda m: m.group(1), text).strip(), link.group(2))
    return text, None


def _operator(text: str) -> tuple[str, Optional[str]]:
    name, url = _unlinked(text)
    if name.lower().rstrip(".").startswith(_UNCLEAR) or not name:
        return "unknown", url
    if name.startswith(("http://", "https://")):
        return "unknown", name
    for cut in (" that ", ", ", ". "):
        if cut in name:
            name = name.split(cut, 1)[0]
    return name.strip().rstrip(".")[:80], url


def _purpose(entry: dict[str, str]) -> str:
    function = _unlinked(entry["function"])[0].rstrip(".")
    if function and function.lower() not in _GENERIC_FUNCTIONS:
        return function[:160]
    text = _unlinked(entry["description"])[0].split(" More info can be found at ")[0]
    text = text.replace("\u2026", "").strip()
    first = text.split(". ")[0].rstrip(".")
    return (first or function or "unknown")[:160]


def _category(entry: dict[str, str]) -> str:
    function = entry["function"].lower().strip().rstrip(".")
    if function in _FUNCTIONS:
        return _FUNCTIONS[function]
    if "train" in function:
        return "ai-training"
    if any(word in function for word in ("user", "prompt", "assistant", "agent")):
        return "user-triggered"
    if any(word in function for word in ("search", "answer")):
        return "ai-search"
    return "other"


def statement_from(respect: str, source: dict[str, Any]) -> dict[str, Any]:
    """What the source says about robots.txt, as a registry statement."""
    said, url = _unlinked(respect)
    word = said.strip().rstrip(".").lower()
    checked = source["date"]
    via = f"{SOURCE_NAME}@{source['commit'][:7]}"
    if url and word in ("yes", "no"):
        return {"obeys": word, "statement": f"{SOURCE_NAME} cites this page for '{said}'",
                "source": url, "checked": checked, "stated": None, "via": via}
    note = None if not said or word.startswith(_UNCLEAR) else f"{SOURCE_NAME} says: {said}"
    return {"obeys": "unknown", "statement": note, "source": None, "checked": checked,
            "stated": None, "via": via}


def derive(name: str, entry: dict[str, str], source: dict[str, Any]) -> dict[str, Any]:
    """A registry entry for a name the source lists and the registry does not."""
    operator, operator_url = _operator(entry["operator"])
    described = _URL.search(entry["description"])
    category = _category(entry)
    token = token_for(name)
    note = None
    if token is not None and token != name:
        note = (f"'User-agent: {name}' is read as '{token}' (Google's reader stops at the "
                "first character outside letters, '-' and '_'): that group is for every "
                f"crawler whose product token is '{token}'")
    elif token is None:
        note = f"'{name}' starts with no product token: no robots.txt group can name it"
    return _canonical({
        "name": name, "token": token, "token_note": note, "operator": operator,
        "categories": [category],
        "trigger": "user-triggered" if category == "user-triggered" else "crawler",
        "purpose": _purpose(entry),
        "source": operator_url or (described.group() if described else TABLE_URL),
        "robots_txt": statement_from(entry["respect"], source),
        "verify": {"ip_ranges": [], "reverse_dns": [], "web_bot_auth": None},
        "listed_by": [SOURCE_NAME], "curated": False, "note": None,
    })


def _canonical(entry: dict[str, Any]) -> dict[str, Any]:
    out = {key: entry.get(key) for key in ENTRY_KEYS}
    statement = entry.get("robots_txt") or {}
    out["robots_txt"] = {key: statement.get(key) for key in STATEMENT_KEYS}
    delay = entry.get("crawl_delay")  # curated only: no source lists it
    out["crawl_delay"] = None if delay is None else {key: delay.get(key) for key in DELAY_KEYS}
    return out


def _undated(entry: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(entry)
    out["robots_txt"].pop("checked", None)
    out["robots_txt"].pop("via", None)
    return out


def refresh(registry: dict[str, Any], source_entries: dict[str, dict[str, str]],
            source: dict[str, Any], date: str) -> tuple[dict[str, Any], list[str]]:
    """The registry rebuilt with ``source_entries``, and what changed (one line each)."""
    new = copy.deepcopy(registry)
    report: list[str] = []
    by_name = {entry["name"].lower(): index for index, entry in enumerate(new["crawlers"])}
    listed = {name.lower() for name in source_entries}
    for name, entry in source_entries.items():
        index = by_name.get(name.lower())
        if index is None:
            new["crawlers"].append(derive(name, entry, source))
            by_name[name.lower()] = len(new["crawlers"]) - 1
            report.append(f"added: {name}")
            continue
        current = new["crawlers"][index]
        if SOURCE_NAME not in current["listed_by"]:
            current["listed_by"] = [*current["listed_by"], SOURCE_NAME]
            report.append(f"now listed by {SOURCE_NAME}: {name}")
        if not current["curated"]:
            derived = derive(current["name"], entry, source)
            fresh, kept = _undated(derived), _undated(current)
            if fresh != kept:
                changed = [key for key in ENTRY_KEYS if fresh[key] != kept[key]]
                new["crawlers"][index] = derived
                report.append(f"changed: {name}: {', '.join(changed)}")
            continue
        statement = current["robots_txt"]
        if (statement.get("via") or "").startswith(SOURCE_NAME + "@"):
            fresh = statement_from(entry["respect"], source)
            if {k: v for k, v in fresh.items() if k not in ("checked", "via")} != {
                    k: v for k, v in statement.items() if k not in ("checked", "via")}:
                current["robots_txt"] = fresh
                report.append(f"changed: {name}: robots_txt ({statement['obeys']} -> "
                              f"{fresh['obeys']})")
    for entry in new["crawlers"]:
        if SOURCE_NAME in entry["listed_by"] and entry["name"].lower() not in listed:
            entry["listed_by"] = [s for s in entry["listed_by"] if s != SOURCE_NAME]
            report.append(f"no longer listed by {SOURCE_NAME}: {entry['name']}")
    if report or new.get("sources", {}).get(SOURCE_NAME) != source:
        new["compiled"] = date
    new.setdefault("sources", {})[SOURCE_NAME] = source
    return new, report


def link_address_lists(registry: dict[str, Any], snapshot: dict[str, Any]) -> list[str]:
    """Name, in each entry's ``verify.address_lists``, the address snapshot's lists
    (data/crawler-addresses.json) at its ``verify.ip_ranges`` URLs; the changes made."""
    by_url = {item["url"]: item["name"] for item in snapshot["lists"]}
    report: list[str] = []
    for entry in registry["crawlers"]:
        verify = entry.get("verify") or {}
        if not verify.get("ip_ranges") and "address_lists" not in verify:
            continue
        names = [by_url[url] for url in verify.get("ip_ranges", []) if url in by_url]
        if verify.get("address_lists") != names:
            report.append(f"{entry['name']}: verify.address_lists {names}")
            ordered = {"ip_ranges": verify.get("ip_ranges", []), "address_lists": names}
            ordered.update((key, value) for key, value in verify.items() if key not in ordered)
            entry["verify"] = ordered
    return report


def dumps(registry: dict[str, Any]) -> str:
    """The registry as canonical JSON text (what is committed)."""
    ordered = dict(registry)
    ordered["crawlers"] = [_canonical(entry) for entry in registry["crawlers"]]
    return json.dumps(ordered, indent=1, ensure_ascii=False) + "\n"


def _read(where: str) -> str:
    if where.startswith("https://"):
        request = urllib.request.Request(where, headers={"User-Agent": "robotsrules-registry"})
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
            data = response.read(MAX_SOURCE_BYTES + 1)
        return data.decode("utf-8")
    return Path(where).read_text(encoding="utf-8")


def main(argv: Sequence[str] = (), out: Any = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--source", default=SOURCE_URL,
                        help="ai.robots.txt robots.json: a file or an https URL")
    parser.add_argument("--commit", required=True, help="the source's commit (provenance)")
    parser.add_argument("--source-date", required=True, help="the source commit's date")
    parser.add_argument("--registry", default=str(REGISTRY), help="the registry to refresh")
    parser.add_argument("--date", default=datetime.date.today().isoformat(),
                        help="the compiled date of a changed registry (default: today)")
    parser.add_argument("--write", action="store_true", help="write the refreshed registry")
    parser.add_argument("--diff", action="store_true", help="also print a unified diff")
    args = parser.parse_args(list(argv))
    try:
        entries = read_source(_read(args.source))
    except (OSError, UnicodeDecodeError, SourceError) as error:
        print(f"crawler_registry: {args.source}: {error}", file=sys.stderr)
        return 2
    path = Path(args.registry)
    text = path.read_text(encoding="utf-8")
    registry = json.loads(text)
    source = {"url": SOURCE_REPOSITORY, "file": "robots.json", "commit": args.commit,
              "date": args.source_date, "entries": len(entries)}
    new, report = refresh(registry, entries, source, args.date)
    report += link_address_lists(new, json.loads(ADDRESSES.read_text(encoding="utf-8")))
    new_text = dumps(new)
    for line in report:
        out.write(line + "\n")
    out.write(f"{len(report)} change(s); {len(new['crawlers'])} entries\n")
    if args.diff:
        out.writelines(difflib.unified_diff(text.splitlines(True), new_text.splitlines(True),
                                            str(path), "refreshed"))
    if args.write and new_text != text:
        path.write_text(new_text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
