"""What the command-line modules share (the package's own helpers, not public API)."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from typing import Any, Callable, Optional, TextIO, Tuple

from .._terminal import visible
from .._typing import assert_never
from .._version import __version__
from ..errors import RobotsError
from ..model import Reason, Verdict
from ..policy import Outcome, ServedReason
from ..robotstxt import MODES, Mode, RobotsTxt, parse

__all__ = [
    "EXIT_ALLOWED",
    "EXIT_DISALLOWED",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "MAX_TIMEOUT",
    "URL_SOURCE",
    "Progress",
    "brief",
    "describe",
    "fail",
    "fetch_options",
    "header_value",
    "header_value_problem",
    "in_mode",
    "load",
    "mode_option",
    "outcome_meaning",
    "painter",
    "positive_seconds",
    "read_bytes",
    "read_robots",
    "served_note",
    "spark_session",
    "user_agent",
    "why",
]


EXIT_ALLOWED, EXIT_DISALLOWED, EXIT_ERROR = 0, 1, 2
EXIT_OK = EXIT_ALLOWED  # "done", for the commands that give no verdict
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM


def fail(message: str) -> int:
    """Say what went wrong on one line of standard error; the exit code for errors."""
    sys.stderr.write(f"robotsrules: error: {visible(message)}\n")
    return EXIT_ERROR


class Progress:
    """'checked N/M' on stderr, only on a terminal and only for long runs (M unknown: N)."""

    def __init__(self, total: Optional[int]) -> None:
        self.total, self.count, self.shown = total, 0, 0.0
        self.on = (total is None or total >= 50) and sys.stderr.isatty()

    def step(self) -> None:
        self.count += 1
        now = time.monotonic()
        if self.on and now - self.shown > 0.2:
            self.shown = now
            if not self.total:
                sys.stderr.write(f"\rchecked {self.count:,}")
            else:
                width = 30
                filled = width * min(self.count, self.total) // self.total
                sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                                 f"{self.count}/{self.total}")
            sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def mode_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mode", choices=MODES, default="google",
        help="how to read the file: google (default, Google's library), rfc (RFC 9309 "
             "where Google differs) or legacy (1994/1996, as urllib.robotparser)")


MAX_TIMEOUT = 86_400.0


# Presentation tables: one exhaustive function per vocabulary, so that a value added to a
# Literal and forgotten here is a mypy error (assert_never), not a KeyError at run time.


def brief(reason: Reason) -> str:
    """A verdict's reason in a few words (``check``, ``usage``)."""
    if reason == "longest-match":
        return "the longest matching rule decides"
    if reason == "tie-allow":
        return "ties with a disallow; allow wins"
    if reason == "index-html":
        return "also allows the directory itself"
    if reason == "first-match":
        return "the first matching rule decides"
    if reason == "no-match":
        return "no rule matches"
    if reason == "no-group":
        return "no group for this agent and no '*' group"
    if reason == "robots-txt":
        return "/robots.txt is always allowed"
    if reason == "allow-all":
        return "no robots.txt: everything allowed"
    if reason == "disallow-all":
        return "robots.txt unreachable: everything disallowed"
    assert_never(reason)


def why(reason: Reason) -> str:
    """A verdict's reason in a sentence (``explain``, ``diff``)."""
    if reason == "longest-match":
        return "the longest matching rule decides (RFC 9309 \u00a72.2.2)"
    if reason == "tie-allow":
        return "an allow and a disallow of equal length match; allow wins the tie"
    if reason == "index-html":
        return "an Allow of .../index.html also allows the directory itself (Google)"
    if reason == "first-match":
        return "legacy reading: the first matching rule of the record decides"
    if reason == "no-match":
        return "no rule of the applicable groups matches, so the URL is allowed"
    if reason == "no-group":
        return "no group names this agent and there is no '*' group, so all is allowed"
    if reason == "robots-txt":
        return "/robots.txt itself is always allowed (RFC 9309 \u00a72.2.2)"
    if reason == "allow-all":
        return "there is no robots.txt (4xx), so everything is allowed"
    if reason == "disallow-all":
        return "the robots.txt is unreachable, so everything is disallowed for now"
    assert_never(reason)


def describe(verdict: Verdict) -> str:
    """The deciding line of a verdict (control characters made visible), or its reason."""
    if verdict.rule is None:
        return brief(verdict.reason)
    text = visible(str(verdict.rule))
    if verdict.reason == "index-html" or verdict.reason == "tie-allow":
        text += f"  ({brief(verdict.reason)})"
    return text


def outcome_meaning(outcome: Outcome) -> str:
    """What a fetch outcome means for the site's URLs (RFC 9309 §2.3.1)."""
    if outcome == "ok":
        return "the file's rules apply"
    if outcome == "unavailable":
        return "all allowed"
    if outcome == "unreachable" or outcome == "forbidden":
        return "all disallowed"
    assert_never(outcome)


def served_note(reason: ServedReason) -> Optional[str]:
    """Why a cache serves other rules than the latest fetch's, when it does."""
    if reason == "fresh" or reason == "stale" or reason == "unreachable":
        return None
    if reason == "last-good-copy":
        return "unreachable now; using the last good copy"
    if reason == "30-days":
        return "unreachable for over 30 days; all allowed"
    assert_never(reason)


def header_value_problem(text: str) -> Optional[str]:
    """Why ``text`` cannot be sent as an HTTP header value (None: it can)."""
    if not text or text != text.strip(" \t"):
        return "is empty or starts or ends with white space"
    for column, char in enumerate(text, 1):
        if not " " <= char <= "~":
            return (f"has {visible(char)!r} at column {column}: a header value is printable "
                    "ASCII")
    return None


def user_agent(args: argparse.Namespace) -> str:
    """The User-Agent header: --user-agent, else built from a single --agent's token."""
    given = getattr(args, "user_agent", None)
    if given:
        return str(given)
    agent = getattr(args, "agent", None)  # agents has none; diff has a list
    if not isinstance(agent, str):
        return f"robotsrules/{__version__}"
    token = agent.split("/", 1)[0].strip()
    problem = header_value_problem(token)
    if problem is not None:
        raise RobotsError(f"--agent {visible(agent)!r} cannot go in a User-Agent header: it "
                          f"{problem}; pass --user-agent")
    return f"{token} (robotsrules/{__version__})"


URL_SOURCE = re.compile(r"(?i)(https?|ftp)://")


def load(source: str, args: argparse.Namespace) -> Tuple[RobotsTxt, str]:
    """A robots.txt from a file path, '-' (stdin) or a URL (fetched); with a note on how."""
    if URL_SOURCE.match(source):
        from .._fetcher import fetch

        result = fetch(source, user_agent=user_agent(args), timeout=args.timeout)
        note = f"{result.url}: HTTP {result.status}" if result.status else result.url
        # (printed through visible() by the text outputs; JSON escapes by itself)
        if result.outcome != "ok":
            note += f", {result.outcome}: {result.error} -> {outcome_meaning(result.outcome)}"
        return in_mode(result.robots, args.mode), note
    return read_robots(source, args.mode), source


def painter(out: TextIO, args: argparse.Namespace) -> Callable[..., str]:
    colour = getattr(args, "color", "auto")
    on = colour == "always" or (colour == "auto" and hasattr(out, "isatty") and out.isatty()
                                and not os.environ.get("NO_COLOR"))

    def paint(text: str, code: str, bold: bool = False) -> str:
        if not on:
            return text
        return f"\x1b[{'1;' if bold else ''}{code}m{text}\x1b[0m"

    return paint


def read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def read_robots(path: str, mode: Mode = "google") -> RobotsTxt:
    return parse(read_bytes(path), mode=mode)


def in_mode(robots: RobotsTxt, mode: Mode) -> RobotsTxt:
    """``robots`` read in ``mode``: fetched files are parsed as Google does, then re-read."""
    if robots.mode == mode or robots.synthetic is not None:
        return robots  # allow-all / disallow-all mean the same in every mode
    return parse(robots.source, max_bytes=None, mode=mode)  # already cut when fetched


def positive_seconds(text: str) -> float:
    """--timeout: a positive, finite number of seconds, at most MAX_TIMEOUT."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_TIMEOUT):
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0 and at most {MAX_TIMEOUT:g}, not "
            f"{visible(text)!r}")
    return value


def header_value(text: str) -> str:
    """--user-agent: a value an HTTP header can carry (printable ASCII)."""
    problem = header_value_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"{visible(text)!r} {problem}")
    return text


def fetch_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=positive_seconds, default=10.0, metavar="SECONDS",
                        help="connect and read time-out (default 10; above 0, at most a day)")
    parser.add_argument("--user-agent", metavar="HEADER", type=header_value,
                        help="User-Agent header to send (default: 'NAME (robotsrules/VERSION)')")


def spark_session(args: argparse.Namespace, stop: Any) -> Tuple[Any, str, Callable[[], None]]:
    """A Spark session for a command-line job (``--spark-master``), a scratch folder that
    the stop handling removes (``stop.scratch``), a stop signal that cancels the running
    Spark jobs (``stop.interrupt``), and the ``close`` that ends both."""
    import shutil
    import tempfile

    from .. import spark as engine

    session = engine.local_session(args.spark_master)
    scratch = tempfile.mkdtemp(prefix="robotsrules-spark-")
    stop.scratch.append(scratch)
    stop.interrupt = session.sparkContext.cancelAllJobs  # a signal cancels the Spark job

    def close() -> None:
        stop.interrupt = None
        shutil.rmtree(scratch, ignore_errors=True)
        session.stop()

    return session, scratch, close
