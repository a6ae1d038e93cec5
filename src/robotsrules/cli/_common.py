"""What the command-line modules share (the package's own helpers, not public API)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Optional

from ..robotstxt import MODES

__all__ = ["Progress", "mode_option"]


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
