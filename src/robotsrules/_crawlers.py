"""Well-known crawler product tokens (search engines and AI crawlers), shipped as data.

The table is ``data/crawlers.json``: each entry has the token, its operator, its purpose
and the operator's documentation that names it. :func:`crawler_verdicts` says, for a parsed
file, whether each of them may fetch a URL and which group decides.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import List, NamedTuple, Optional, Tuple

from .model import Verdict
from .robotstxt import RobotsTxt

__all__ = ["Crawler", "CrawlerVerdict", "crawler_verdicts", "known_crawlers"]


class Crawler(NamedTuple):
    """One well-known crawler token and where it is documented."""

    token: str
    operator: str
    purpose: str
    source: str


class CrawlerVerdict(NamedTuple):
    """A crawler's verdict for one URL, and which group decided it."""

    crawler: Crawler
    verdict: Verdict

    @property
    def group_line(self) -> Optional[int]:
        """Line of the first group that applied (``None`` when no group applies)."""
        return self.verdict.groups[0].line if self.verdict.groups else None


_CACHE: List[Tuple[Crawler, ...]] = []


def known_crawlers() -> Tuple[Crawler, ...]:
    """The shipped table of well-known crawler tokens, in table order."""
    if not _CACHE:
        text = resources.files("robotsrules").joinpath("data/crawlers.json").read_text("utf-8")
        data = json.loads(text)
        _CACHE.append(tuple(
            Crawler(c["token"], c["operator"], c["purpose"], c["source"])
            for c in data["crawlers"]
        ))
    return _CACHE[0]


def crawler_verdicts(robots: RobotsTxt, url: str = "/") -> List[CrawlerVerdict]:
    """For each well-known crawler: may it fetch ``url`` under ``robots``, and why."""
    return [CrawlerVerdict(c, robots.explain(url, agent=c.token)) for c in known_crawlers()]
