"""What the command-line modules share (the package's own helpers, not public API)."""

from __future__ import annotations

import sys
import time
from typing import Optional

from .._tables._words import (
    brief,
    describe,
    outcome_meaning,
    served_note,
    usage_lines_json,
    verdict_json,
    when,
    why,
)

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


def plural(count: int, word: str, many: str = "") -> str:
    """``"1 rule"``, ``"2 rules"``."""
    return f"{count} {word if count == 1 else many or word + 's'}"
