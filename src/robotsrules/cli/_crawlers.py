"""``robotsrules crawlers refresh``: fetch the operators' crawler address lists again and
write the user's copy of the address snapshot (issue 36 §1).

Every list of the snapshot in force (the bundled catalogue with, list by list, the newer
reads of the user's refreshed copy, or ``--snapshot FILE`` when it exists) is fetched from
its current URL through the
project's fetch (:func:`robotsrules._fetch._fetcher.fetch_page`: size and time bounds,
no credentials; redirects are not followed there but by ``refresh_lists``, hop by hop, and
a hop off the list's host or from https to http is never requested) with
``If-None-Match`` when an ETag was kept, validated
(:func:`robotsrules._tables._addresses.refresh_lists`), and the copy is written atomically
to the user's data directory or to ``--snapshot FILE``; the bundled snapshot in the package
is never written. A list that fails keeps its old content; no list is asked for twice
within an hour. ``scripts/crawler_addresses.py --refresh`` runs this command.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Optional, TextIO

from .._tables._addresses import (
    MAX_LIST_BYTES,
    ListAnswer,
    ListChange,
    default_data_path,
    load_snapshot,
    refresh_lists,
    write_atomically,
)
from .._terminal import visible
from ..errors import RobotsError
from ._common import EXIT_DISALLOWED, EXIT_OK

__all__ = ["add_command"]


def _fetcher(args: argparse.Namespace) -> Any:
    from .._fetch._fetcher import fetch_page
    from ._options import signer, user_agent

    agent = user_agent(args)
    timeout = float(args.timeout)
    sign = signer(args)

    def fetch(url: str, etag: Optional[str]) -> ListAnswer:
        page = fetch_page(url, user_agent=agent, max_bytes=MAX_LIST_BYTES + 1, timeout=timeout,
                          accept="application/json, */*;q=0.5",
                          extra_headers={"If-None-Match": etag} if etag else None,
                          follow_redirects=False,  # refresh_lists vets and follows each hop
                          sign=sign)
        if page.error is not None:
            return ListAnswer(page.status, error=page.error, url=page.url)
        if page.truncated:
            return ListAnswer(page.status, error=f"larger than {MAX_LIST_BYTES >> 20} MiB",
                              url=page.url)
        etags = [value for name, value in page.headers if name.lower() == "etag"]
        caching = ", ".join(value for name, value in page.headers
                            if name.lower() == "cache-control")
        types = [value for name, value in page.headers if name.lower() == "content-type"]
        locations = [value for name, value in page.headers if name.lower() == "location"]
        return ListAnswer(page.status, page.body, etags[-1] if etags else None, url=page.url,
                          cache_control=caching[:1000],
                          content_type=types[-1][:1000] if types else "",
                          location=locations[-1][:4000] if locations else "")

    return fetch


def _line(change: ListChange) -> str:
    if change.outcome in ("updated", "unchanged"):
        text = f"{change.name}: {change.outcome}, +{len(change.added)} -{len(change.removed)}"
        lines = [text] + [f"  + {prefix}" for prefix in change.added[:20]]
        lines += [f"  - {prefix}" for prefix in change.removed[:20]]
        hidden = len(change.added[20:]) + len(change.removed[20:])
        if hidden:
            lines.append(f"  ... and {hidden} more")
        return "\n".join(lines)
    if change.outcome == "failed":
        return f"{change.name}: failed, the old copy kept: {visible(change.message)}"
    return f"{change.name}: {change.outcome}" + (f" ({change.message})" if change.message else "")


def _run(args: argparse.Namespace, out: TextIO) -> int:
    target = Path(args.snapshot) if args.snapshot else default_data_path()
    current = load_snapshot(target) if args.snapshot and target.exists() else load_snapshot()
    text, changes = refresh_lists(current, _fetcher(args))
    try:
        write_atomically(target, text)
    except OSError as error:
        raise RobotsError(f"{target}: cannot write ({error.strerror or error}); "
                          "the old copy is kept") from None
    failed = [change for change in changes if change.outcome == "failed"]
    if args.json:
        document: dict[str, Any] = {
            "written": str(target), "from": current.origin,
            "lists": [{"name": change.name, "outcome": change.outcome,
                       "added": list(change.added), "removed": list(change.removed),
                       "message": change.message or None} for change in changes]}
        json.dump(document, out, indent=2)
        out.write("\n")
    else:
        lines: list[str] = [_line(change) for change in changes]
        out.write("\n".join(lines) + "\n")
        out.write(f"wrote {target} (from the {current.origin} copy; "
                  f"{len(changes) - len(failed)} of {len(changes)} lists read or kept current)\n")
    return EXIT_DISALLOWED if failed else EXIT_OK


def add_command(commands: Any) -> None:
    """Add the ``crawlers`` command group (``crawlers refresh``) to the parser."""
    from ._options import add_command as new_command
    from ._options import fetch_options, json_option

    crawlers = new_command(commands, "crawlers")
    group = crawlers.add_subparsers(dest="crawlers_command", metavar="SUBCOMMAND",
                                    required=True)
    refresh = new_command(group, "refresh", texts="crawlers refresh")
    refresh.add_argument("--snapshot", metavar="FILE",
                         help="read (when it exists) and write this copy instead of the "
                              "user's data directory's")
    json_option(refresh)
    fetch_options(refresh)
    refresh.set_defaults(run=_run)
