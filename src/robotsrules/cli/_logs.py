"""``robotsrules logs``: which crawlers visited a site, were they who they claimed, and did
they obey the robots.txt in force at each request? (issue 37)

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. The job is
:func:`robotsrules.audit_logs`; this module reads the options, writes ``--out`` (the request
table, one row per crawler request and per robots.txt fetch; the format from the name:
``.csv``, ``.json``, ``.jsonl``, ``.parquet``) atomically through :mod:`._writer`, and shows
the summary as text (every string from the log with its control characters made visible)
or as JSON (``--json``). A progress line (lines read, lines per second, time left) is
shown on standard error only when it is a terminal. Exit codes: 0 no violation found, 1 some, 2
usage or I/O error.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any, Optional, TextIO

from .._terminal import visible

__all__ = ["OUT_FORMATS", "add_command"]

OUT_FORMATS = {".csv": "csv", ".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}
"""``--out`` formats, by the name's extension."""


def _hours(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not math.isfinite(value) or value < 0 or value > 24 * 366:
        raise argparse.ArgumentTypeError("--window is hours from 0 to a year")
    return value


def _out_format(name: str) -> str:
    from ..errors import RobotsError

    for suffix, form in OUT_FORMATS.items():
        if name.lower().endswith(suffix):
            return form
    raise RobotsError(f"{visible(name)}: cannot tell the output format; name it "
                      f"{', '.join(OUT_FORMATS)}")


class _Progress:
    """``read N lines, R lines/s, T left`` on standard error, on a terminal only (the time
    left from the octets read of the files' total: none for standard input)."""

    def __init__(self, stream: Optional[TextIO] = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.on = self.stream.isatty()
        self.started = time.monotonic()

    def __call__(self, lines: int, octets: int = 0, total: Optional[int] = None) -> None:
        if not self.on:
            return
        seconds = max(time.monotonic() - self.started, 1e-6)
        left = ""
        if total and octets:
            rest = int(seconds * max(total - octets, 0) / octets)
            left = f", {rest // 60} min {rest % 60:02d} s left"
        self.stream.write(f"\rread {lines:,} lines, {lines / seconds:,.0f} lines/s{left}  ")
        self.stream.flush()

    def done(self) -> None:
        if self.on:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def _robots(args: argparse.Namespace) -> Any:
    """The robots.txt: a file or a fetched URL (``--robots``), or ``None`` (a history)."""
    if args.robots is None:
        return None
    from ._input import load_source

    return load_source(args.robots, args).robots


def _report(path: str, summary: Any, site: str) -> None:
    """Write the HTML report to ``path`` (written beside it and renamed: never half a page)."""
    from .._audit._html import render_report
    from ._writer import write_text

    write_text(path, render_report(summary,
                                   title=f"Who crawls {visible(site)}, and did they obey?"))


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._audit import audit_logs
    from ..errors import RobotsError
    from ._common import EXIT_ALLOWED, EXIT_DISALLOWED
    from ._interrupt import JobStop
    from ._jobs import need, nothing
    from ._options import dns_setting
    from ._writer import Writer, settle

    if (args.robots is None) == (args.robots_history is None):
        raise RobotsError("give the robots.txt: --robots FILE_OR_URL or --robots-history PATH")
    if args.no_verify and args.dns:
        raise RobotsError("--dns verifies addresses: it cannot go with --no-verify")
    dns = dns_setting(args)
    need("duckdb" if args.engine == "duckdb" else "pyspark")
    need("pyarrow")
    form = _out_format(args.out) if args.out else None
    robots = _robots(args)
    writer = Writer(args.out, form, schema=_schema()) if args.out and form else None
    stop = JobStop(args.out or "")
    progress = _Progress()
    ok = False
    audit: Any = None
    try:
        audit = audit_logs(
            args.logs, site=args.site, robots=robots, history=args.robots_history,
            history_path=args.history_path,
            format=args.format, verify=not args.no_verify, dns=dns,
            client_ip_field=args.client_ip_field, window=args.window, engine=args.engine,
            progress=progress)
        if writer is not None:
            for batch in audit.batches():
                writer.write(batch)  # a CSV file is made formula-safe there
        ok = True
    finally:
        progress.done()
        if writer is not None:
            settle(stop, writer, nothing, ok)
        if audit is not None and not ok:
            audit.close()
    with audit:
        summary = audit.summary
        if args.report:
            _report(args.report, summary, args.site)
        if args.json:
            out.write(json.dumps(summary, ensure_ascii=True, indent=1) + "\n")
        else:
            _text(summary, out, args)
        # lines naming a crawler that could not be read: "no violation" is not known
        incomplete = summary["input"]["crawler_lines_unread"]
        return EXIT_DISALLOWED if audit.violations or incomplete else EXIT_ALLOWED


def _schema() -> Any:
    from .._audit._job import request_schema

    return request_schema()


def _share(counts: dict[str, Any]) -> str:
    shares = counts["verification_shares"]
    return (f"{shares['verified']:.0%} verified, {shares['not-verified']:.0%} not, "
            f"{shares['unverifiable']:.0%} unverifiable, {shares['unknown']:.0%} unknown")


def _rfc_only(counts: dict[str, Any]) -> str:
    found = counts["rfc_only"]
    return f"; {found:,} disallowed only in RFC 9309's reading" if found else ""


def _text(summary: dict[str, Any], out: TextIO, args: argparse.Namespace) -> None:
    from ._common import plural

    totals = summary["totals"]
    read = summary["input"]
    out.write(f"{visible(summary['site'])}: {read['lines']:,} lines read, "
              f"{plural(totals['requests'], 'crawler request')} by "
              f"{plural(totals['bots'], 'bot')}, "
              f"{plural(totals['violations'], 'violation')} "
              f"({totals['caching_allowance']:,} within the caching allowance of "
              f"{summary['window_hours']:g} h), {totals['paid']:,} answered 402, "
              f"{totals['robots_fetches']:,} robots.txt fetches\n")
    if totals["rfc_only"]:
        out.write(f"{plural(totals['rfc_only'], 'request')} disallowed only in RFC 9309's "
                  "reading (percent-encoded rules or targets: allowed as Google reads them, "
                  "not violations)\n")
    if read["crawler_lines_unread"]:
        out.write(f"INCOMPLETE: {plural(read['crawler_lines_unread'], 'line')} naming a "
                  "crawler could not be read (see the input problems)\n")
    for bot in summary["bots"]:
        who = ", ".join(visible(part) for part in (bot["operator"], bot["category"]) if part)
        delay = bot["crawl_delay"]
        kept = ("" if not delay["judged"] else
                f"; crawl-delay {delay['delay']:g} s {'kept' if delay['kept'] else 'NOT kept'}"
                f" ({delay['too_fast']:,}/{delay['intervals']:,} too fast)")
        fetched = bot["robots_txt"]
        robots = (f"robots.txt fetched {fetched['count']:,}x" if fetched["fetched"]
                  else "robots.txt never fetched")
        out.write(f"\n{visible(bot['token'])} ({who}): {bot['requests']:,} requests, "
                  f"{bot['bytes']:,} bytes; {_share(bot)}; "
                  f"{bot['verdicts']['violation']:,} violations, "
                  f"{bot['verdicts']['caching-allowance']:,} within the caching allowance; "
                  f"{robots}{kept}; {bot['paid']:,} answered 402{_rfc_only(bot)}\n")
        for violation in bot["violations"]:
            word = "violated" if violation["status"] == "violation" else \
                "within the caching allowance"
            out.write(f"  {word}: line {violation['line']}: {visible(violation['rule'] or '')}"
                      f" ({violation['count']:,}x)\n")
            for example in violation["examples"]:
                out.write(f"    {example['time']}  {visible(example['url'] or '')}\n")
    if summary["other_bots"]["bots"]:
        other = summary["other_bots"]
        out.write(f"\n{other['bots']:,} more bots: {other['requests']:,} requests\n")
    problems = read["problems"]
    if problems:
        out.write("\ninput problems:\n")
        for kind, found in problems.items():
            out.write(f"  {kind}: {found['count']:,}\n")
            for example in found["examples"]:
                out.write(f"    {visible(example)}\n")
    findings = summary["robots"]["findings"]
    if findings:
        out.write("\nrobots.txt history:\n")
        for kind, found in findings.items():
            out.write(f"  {kind}: {found['count']:,}\n")


_OPTION_HELP = {
    "logs": "an access log, a folder of them, or '-' for standard input",
    "--site": "the site the logs are of (requests for another host are not judged)",
    "--robots": "the robots.txt, in force at every time (a URL is fetched)",
    "--robots-history": "the robots.txt's versions, each in force from its time: a folder of "
                        "files named by ISO 8601 date or UTC timestamp (2026-11-02.txt, "
                        "2026-11-02T06:00:00Z.txt), a git repository (its commits of "
                        "--history-path), a WARC file of robots.txt captures, or a robots "
                        "cache's SQLite store",
    "--history-path": "the robots.txt's path inside a git repository (default robots.txt)",
    "--format": "the logs' format (default: detected from each file's first lines)",
    "--dns": "verify addresses with forward-confirmed reverse DNS too (default: off; the "
             "published address lists only)",
    "--no-verify": "do not verify addresses (every request 'not-checked')",
    "--client-ip-field": "the client address is this field's (behind a CDN or proxy): "
                         "X-Forwarded-For (its last address), ClientIP, client_ip",
    "--window": "the caching allowance (default 24, RFC 9309 §2.4)",
    "--engine": "the engine that aggregates the summary (default duckdb; spark needs "
                "'robotsrules[spark]')",
    "--out": "write the request table (one row per crawler request and per robots.txt "
             "fetch): .csv, .json, .jsonl or .parquet",
    "--report": "also write the HTML report a site owner reads (one standalone page: charts, "
                "tables that sort, nothing fetched)",
}


def _options(formats: Any) -> dict[str, dict[str, Any]]:
    """The command's own options: what ``add_argument`` is given besides the help."""
    return {"logs": {"metavar": "LOG", "nargs": "+"},
            "--site": {"required": True, "metavar": "URL"},
            "--robots": {"metavar": "FILE_OR_URL"}, "--robots-history": {"metavar": "PATH"},
            "--history-path": {"metavar": "PATH", "default": "robots.txt"},
            "--format": {"choices": formats},
            "--dns": {"action": argparse.BooleanOptionalAction, "default": False},
            "--no-verify": {"action": "store_true"},
            "--client-ip-field": {"metavar": "NAME"},
            "--window": {"type": _hours, "default": 24.0, "metavar": "HOURS"},
            "--engine": {"choices": ["duckdb", "spark"], "default": "duckdb"},
            "--out": {"metavar": "FILE"}, "--report": {"metavar": "FILE"}}


def add_command(commands: Any) -> None:
    """Add ``logs`` to the ``robotsrules`` subcommands (an argparse subparsers object)."""
    from .._audit._formats import FORMATS
    from ._options import add_command as new_command
    from ._options import color_option, dns_server_option, fetch_options, json_option

    logs = new_command(commands, "logs")
    given = logs.add_mutually_exclusive_group()
    for name, spec in _options(FORMATS).items():
        target = given if name.startswith("--robots") else logs
        target.add_argument(name, help=_OPTION_HELP[name], **spec)
        if name == "--dns":
            dns_server_option(logs)
    fetch_options(logs)
    json_option(logs, "print the summary as JSON")
    color_option(logs)
    logs.set_defaults(run=_run, mode="google")
