"""What the command-line modules share (the package's own helpers, not public API)."""

from __future__ import annotations

import sys
import time
from typing import Any, Optional

from .._terminal import visible
from .._typing import assert_never
from ..model import Reason, UsageLine, Verdict
from ..policy import Outcome, ServedReason

__all__ = [
    "EXIT_ALLOWED",
    "EXIT_DISALLOWED",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_NO_FILE",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "Progress",
    "brief",
    "describe",
    "outcome_meaning",
    "plural",
    "served_note",
    "usage_lines_json",
    "verdict_json",
    "when",
    "why",
]


EXIT_ALLOWED, EXIT_DISALLOWED, EXIT_ERROR = 0, 1, 2
EXIT_OK = EXIT_ALLOWED  # "done", for the commands that give no verdict
EXIT_NO_FILE = 3  # lint: a URL has no robots.txt (4xx), so there was nothing to lint
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, 128 + SIGTERM


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


# Presentation tables: one exhaustive function per vocabulary, so that a value added to a
# Literal and forgotten here is a mypy error (assert_never), not a KeyError at run time.


def _reason_words(reason: Reason) -> tuple[str, str]:
    """A verdict's reason in a few words (:func:`brief`) and in a sentence (:func:`why`)."""
    if reason == "longest-match":
        return ("the longest matching rule decides",
                "the longest matching rule decides (RFC 9309 \u00a72.2.2)")
    if reason == "tie-allow":
        return ("ties with a disallow; allow wins",
                "an allow and a disallow of equal length match; allow wins the tie")
    if reason == "index-html":
        return ("also allows the directory itself",
                "an Allow of .../index.html also allows the directory itself (Google)")
    if reason == "first-match":
        return ("the first matching rule decides",
                "legacy reading: the first matching rule of the record decides")
    if reason == "no-match":
        return ("no rule matches",
                "no rule of the applicable groups matches, so the URL is allowed")
    if reason == "no-group":
        return ("no group for this agent and no '*' group",
                "no group names this agent and there is no '*' group, so all is allowed")
    if reason == "robots-txt":
        return ("/robots.txt is always allowed",
                "/robots.txt itself is always allowed (RFC 9309 \u00a72.2.2)")
    if reason == "allow-all":
        return ("no robots.txt: everything allowed",
                "there is no robots.txt (4xx), so everything is allowed")
    if reason == "disallow-all":
        return ("robots.txt unreachable: everything disallowed",
                "the robots.txt is unreachable, so everything is disallowed for now")
    assert_never(reason)


def brief(reason: Reason) -> str:
    """A verdict's reason in a few words (``check``, ``usage``)."""
    return _reason_words(reason)[0]


def why(reason: Reason) -> str:
    """A verdict's reason in a sentence (``explain``, ``diff``)."""
    return _reason_words(reason)[1]


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


def usage_lines_json(lines: tuple[UsageLine, ...]) -> list[dict[str, Any]]:
    """Usage lines as JSON objects (``usage --json``, and in every verdict's JSON)."""
    return [{"line": u.line, "directive": u.directive, "value": u.value,
             "pattern": u.pattern or None,
             "states": {name: value for name, value in u.statements}} for u in lines]


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """A verdict as the JSON outputs show it (``check``, ``explain``, ``agents``, ``diff``);
    an absent file (the status rules decided) has no group lines."""
    rule = verdict.rule
    return {
        "allowed": verdict.allowed,
        "reason": verdict.reason,
        "scope": verdict.scope,
        "target": verdict.target,
        "rule": None if rule is None else {
            "line": rule.line, "directive": rule.directive, "value": rule.value,
            "pattern": rule.pattern, "priority": rule.priority},
        "groups": ([] if verdict.reason in ("allow-all", "disallow-all")
                   else [group.line for group in verdict.groups]),
        "usage": usage_lines_json(verdict.usage),
    }


def plural(count: int, word: str, many: str = "") -> str:
    """``"1 rule"``, ``"2 rules"``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def when(seconds: float) -> str:
    """A time as ISO 8601 UTC to the second; ``-`` for one out of range."""
    import datetime

    try:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(
            timespec="seconds")
    except (OverflowError, OSError, ValueError):  # a clock or cache row out of range
        return "-"
