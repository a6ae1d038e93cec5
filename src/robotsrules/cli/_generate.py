"""``robotsrules generate``: write a robots.txt that does exactly what the owner chose.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. The choices come from the
options and from ``--policy FILE`` (JSON or TOML, at most :data:`MAX_POLICY` octets; an
option for a token or category the file also names wins); ``--write-policy FILE`` writes
them back as one file. The library call (:func:`robotsrules.generate`) writes the file and
proves it; the file goes to standard output, or to ``--out FILE`` (written beside it and
renamed, so a refused or failed run leaves the old file whole). The proof (the verdict
table in Google's reading, the lint findings, the notes, and with ``--from`` the verdict
changes as ``diff`` shows them) goes to standard output with ``--out``, else to standard
error, each line starting ``robotsrules:``; ``--json`` prints all of it as one object on
standard output. Exit codes: 0 written, 2 usage or I/O error, or a choice no file can
express (one line says why).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from typing import Any, Optional, TextIO

from .._terminal import visible
from ..errors import GenerateError, MissingExtra, RobotsError
from ..robotstxt import DEFAULT_MAX_BYTES
from ._writer import write_text

__all__ = ["MAX_POLICY", "add_command"]

MAX_POLICY = 1 << 20
"""Octets of a ``--policy`` file at most (a policy naming every registry token is ~20 KiB)."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"{what}: NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def _usage(text: str) -> tuple[str, bool]:
    name, value = _pair(text, "--usage")
    answer = {"y": True, "yes": True, "n": False, "no": False}.get(value.lower())
    if answer is None:
        raise argparse.ArgumentTypeError(f"--usage {name}: the value is y or n, not {value!r}")
    return name, answer


def _delay(text: str) -> tuple[str, float]:
    from ._options import positive_seconds

    token, value = _pair(text, "--crawl-delay")
    return token, positive_seconds(value)


def _read_policy(name: str) -> dict[str, Any]:
    """The data of a JSON or TOML policy file (``-``: standard input), bounded."""
    from ._input import read_input

    got = read_input(name, MAX_POLICY)
    if got.cut:
        raise RobotsError(f"{got.name}: a policy file holds at most {MAX_POLICY:,} bytes")
    try:
        text = got.data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RobotsError(f"{got.name}: not UTF-8 (byte {error.start + 1})") from None
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        try:
            data = json.loads(text.lstrip("\ufeff"))
        except (ValueError, RecursionError) as error:
            raise RobotsError(f"{got.name}: not JSON: {error}") from None
    else:
        data = _toml(text, got.name)
    if not isinstance(data, dict):
        raise RobotsError(f"{got.name}: a policy is a JSON object or a TOML document")
    return data


def _toml(text: str, where: str) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.9 and 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:
            raise MissingExtra("a TOML policy before Python 3.11 (or give it as JSON)",
                               "toml", "tomli") from None
    try:
        return tomllib.loads(text.lstrip("\ufeff"))
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise RobotsError(f"{where}: neither JSON nor TOML: {error}") from None


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    # JSON's strings and numbers are TOML's (basic strings share the escapes)
    return json.dumps(value, ensure_ascii=False)


def _policy_text(data: dict[str, Any], toml: bool) -> str:
    """A policy's data as a file: TOML (top-level values, then one table per mapping) or
    JSON."""
    if not toml:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = [f"{_toml_key(key)} = {_toml_value(value)}" for key, value in data.items()
             if not isinstance(value, dict)]
    for key, value in data.items():
        if isinstance(value, dict):
            lines += ["", f"[{_toml_key(key)}]"]
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()]
    return "# robotsrules generate --policy reads this file\n" + "\n".join(lines) + "\n"


def _policy(args: argparse.Namespace) -> Any:
    from .._generate import AgentChoice, GeneratePolicy

    data = _read_policy(args.policy) if args.policy else {}
    base = GeneratePolicy.from_data(data)
    agents = {token.lower(): (token, choice) for token, choice in base.agents}
    for option, choice in (("block", AgentChoice("block")), ("allow", AgentChoice("allow"))):
        for token in getattr(args, option):
            agents[token.lower()] = (token, choice)
    categories = {name: choice for name, choice in base.categories}
    for option, choice in (("block_category", AgentChoice("block")),
                           ("allow_category", AgentChoice("allow"))):
        for name in getattr(args, option):
            categories[name] = choice
    usage = dict(base.usage)
    usage.update(args.usage)
    delays = dict(base.crawl_delays)
    delays.update(args.crawl_delay)
    return base._replace(
        agents=tuple(agents.values()), categories=tuple(categories.items()),
        disallow_paths=tuple(dict.fromkeys((*base.disallow_paths, *args.disallow_path))),
        usage=tuple(usage.items()), crawl_delays=tuple(delays.items()),
        sitemaps=tuple(dict.fromkeys((*base.sitemaps, *args.sitemap))),
        license=args.license if args.license is not None else base.license)




def _table(made: Any, out: TextIO) -> None:
    agents, urls = made.agents, made.urls
    out.write(f"verdicts of {len(agents)} agents on {len(urls)} sample URLs, read back "
              "(Google's reading; RFC 9309's and the legacy reading agree):\n")
    out.write(f"  {'agent':<32} {'allowed before':>14} {'allowed after':>14}\n")
    for agent in agents:
        rows = [row for row in made.rows if row.agent == agent]
        before = sum(row.before for row in rows)
        after = sum(row.after for row in rows)
        out.write(f"  {visible(agent):<32} {before:>10}/{len(rows):<3} "
                  f"{after:>10}/{len(rows):<3}\n")
    worse = [d for d in made.findings if d.severity != "info"]
    out.write(f"lint: {len(made.findings)} finding(s), {len(worse)} worse than info\n")
    for finding in made.findings:
        out.write(f"  {visible(str(finding))}\n")
    for note_text in made.notes:
        out.write(f"note: {visible(note_text)}\n")


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._diff import diff
    from .._generate import generate
    from .._tables._words import generate_json
    from ..robotstxt import parse
    from ._input import read_input
    from ._site import changes_table

    policy = _policy(args)
    existing: Optional[bytes] = None
    if args.existing:
        got = read_input(args.existing, DEFAULT_MAX_BYTES)
        if got.cut:
            raise GenerateError(f"{got.name}: over {DEFAULT_MAX_BYTES:,} bytes, past what "
                                "crawlers read (RFC 9309 §2.5): shorten it first")
        try:
            got.data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise GenerateError(f"{got.name}: not UTF-8 (byte {error.start + 1}): a merged "
                                "file is written as UTF-8, so save it as UTF-8 first") from None
        existing = got.data
    made = generate(policy, existing)
    if args.write_policy:
        write_text(args.write_policy, _policy_text(
            policy.to_data(), args.write_policy.lower().endswith(".toml")))
    if args.out:
        write_text(args.out, made.text)
    changes = diff(parse(existing or b""), parse(made.text), made.urls, made.agents) \
        if existing is not None else None
    if args.json:
        out.write(json.dumps(generate_json(made, policy, args.out, changes), indent=2,
                             ensure_ascii=False) + "\n")
        return 0
    proof = io.StringIO()
    _table(made, proof)
    if changes is not None:
        proof.write("\nwhat the merge changes:\n")
        changes_table(changes, proof)
    if args.out:
        out.write(proof.getvalue())
    else:  # the file on standard output, its proof on standard error
        out.write(made.text)
        out.flush()
        for line in proof.getvalue().splitlines():  # each error line names the program
            sys.stderr.write(f"robotsrules: {line}\n")
    return 0


_REPEAT = " (repeatable)"
# The options, as a table: (flag, metavar, value type or None, repeatable, help).
_OPTIONS: tuple[tuple[str, str, Any, bool, str], ...] = (
    ("--block", "TOKEN", None, True, "a crawler token that may fetch nothing"),
    ("--allow", "TOKEN", None, True,
     "a crawler token that may fetch everything, the --disallow-path paths too"),
    ("--block-category", "NAME", None, True, "block every token of a crawler registry "
     "category: ai-training, search, ai-search, user-triggered, ..."),
    ("--allow-category", "NAME", None, True, "allow every token of a registry category (a "
     "token in a blocked category too stays blocked)"),
    ("--disallow-path", "PATH", None, True, "a path prefix no crawler may fetch but the "
     "--allow ones ('$', '*', spaces and non-ASCII are percent-encoded)"),
    ("--usage", "PURPOSE=y|n", _usage, True, "a usage preference (search, ai-input, "
     "ai-train, train-ai), written as Content-Signal and Content-Usage lines in every group"),
    ("--crawl-delay", "TOKEN=SECONDS", _delay, True, "seconds between requests asked of a "
     "token ('*' for the rest); Google's crawlers ignore it"),
    ("--sitemap", "URL", None, True, "a Sitemap line"),
    ("--license", "URL", None, False, "an RSL licence document's URL (a License line)"),
    ("--policy", "FILE", None, False, "read the choices from a JSON or TOML policy file "
     "('-': standard input); the options add to it and win over it"),
    ("--write-policy", "FILE", None, False,
     "write the choices as a policy file (TOML when FILE ends in .toml, else JSON)"),
    ("--from", "EXISTING", None, False, "merge into this robots.txt ('-': standard input), "
     "keeping its groups, comments and order; the verdict changes are shown as diff shows "
     "them"),
    ("--out", "FILE", None, False, "write the file here instead of standard output"),
)


def add_command(commands: Any) -> None:
    """Add ``generate`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from ._options import add_command as new_command
    from ._options import json_option

    parser = new_command(commands, "generate")
    for flag, metavar, kind, repeatable, words in _OPTIONS:
        extra: dict[str, Any] = {"type": kind} if kind is not None else {}
        if repeatable:
            extra.update(action="append", default=[])
        dest = "existing" if flag == "--from" else flag[2:].replace("-", "_")
        parser.add_argument(flag, dest=dest, metavar=metavar, **extra,
                            help=words + (_REPEAT if repeatable else ""))
    json_option(parser, "print the file, the verdict table, the lint findings and the "
                        "changes as one JSON object")
    parser.set_defaults(run=_run)
