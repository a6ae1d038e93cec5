"""Write (or, with --check, verify) the example outputs in docs/reference/json.md.

Each `<!-- json: robotsrules ARGS -->` marker is followed by a ```json block holding the
command's real output (JSON Lines: its first line), lists cut to two items. `--check`
compares the *shape* (keys, and the type of each value where it is not null) of the
documented example with a fresh run, so timestamps and ports may differ but a key added,
renamed or dropped makes the test fail. Placeholders: `{site}` is a loopback HTTP server
serving examples/site/, `{tmp}` a folder holding old.txt, new.txt and verdicts.parquet.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import json
import os
import re
import shlex
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "json.md"
_MARK = re.compile(r"(<!-- json: robotsrules (?P<args>[^>]*?) -->\n)```json\n(?P<body>.*?)```\n",
                   re.DOTALL)
SHOWN_SITE = "http://127.0.0.1:8000"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def _places() -> Iterator[dict[str, str]]:
    handler = functools.partial(_Quiet, directory=str(ROOT / "examples" / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "old.txt").write_bytes(b"User-agent: *\nDisallow: /private/\n")
        (Path(tmp) / "new.txt").write_bytes(b"User-agent: *\nDisallow: /\n")
        _verdicts(Path(tmp) / "verdicts.parquet")
        try:
            yield {"site": f"http://127.0.0.1:{server.server_port}", "tmp": tmp}
        finally:
            server.shutdown()
            server.server_close()


def _verdicts(path: Path) -> None:
    """A small verdict table, as `robotsrules bulk` writes them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from robotsrules import bulk

    robots = pa.table({"url": ["https://example.com/robots.txt", "https://b.example/robots.txt"],
                       "body": [(ROOT / "examples" / "robots.txt").read_bytes(),
                                b"User-agent: *\nDisallow: /\n"]})
    urls = pa.table({"url": ["https://example.com/", "https://example.com/private/x",
                             "https://b.example/a"]})
    batches = list(bulk.verdicts(robots, urls, ["GPTBot", "ExampleBot"]))
    pq.write_table(pa.Table.from_batches(batches), path)


def run(args: str, places: dict[str, str]) -> Any:
    """The command's JSON output (the first object of JSON Lines), lists cut to two items."""
    from robotsrules.cli import main

    argv = shlex.split(args.format(**places))
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        main(argv, out=out)
    text = out.getvalue().replace(places["site"], SHOWN_SITE).replace(places["tmp"], "/tmp/x")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = json.loads(text.splitlines()[0])
    return _cut(value)


def _cut(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _cut(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_cut(item) for item in value[:2]]
    return value


def shape(value: Any) -> Any:
    """Keys and value types; null matches anything, a list is the shape of its first item."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if value is None:
        return None
    return type(value).__name__


def same_shape(documented: Any, fresh: Any) -> bool:
    if documented is None or fresh is None:
        return True
    if isinstance(documented, dict) and isinstance(fresh, dict):
        return documented.keys() == fresh.keys() and all(
            same_shape(documented[key], fresh[key]) for key in documented)
    if isinstance(documented, list) and isinstance(fresh, list):
        return not documented or not fresh or same_shape(documented[0], fresh[0])
    if {type(documented), type(fresh)} <= {int, float}:
        return True
    return type(documented) is type(fresh)


def main() -> int:
    os.environ.setdefault("ROBOTSRULES_CACHE", os.devnull)
    text = PAGE.read_text(encoding="utf-8")
    check = "--check" in sys.argv[1:]
    stale = []
    with _places() as places:
        def render(match: re.Match[str]) -> str:
            fresh = run(match.group("args"), places)
            if check:
                if not same_shape(json.loads(match.group("body")), fresh):
                    stale.append(match.group("args"))
                return match.group(0)
            return match.group(1) + "```json\n" + json.dumps(fresh, indent=2,
                                                             ensure_ascii=False) + "\n```\n"

        new = _MARK.sub(render, text)
    if check:
        for args in stale:
            print(f"{PAGE}: the example of `robotsrules {args}` no longer has the output's "
                  "shape: run python scripts/docs_json.py", file=sys.stderr)
        return 1 if stale else 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
