"""Well-known crawler product tokens (search engines and AI crawlers), shipped as data.

The table is ``data/crawlers.json``: each entry has the token, its operator, its
:data:`category`, its purpose and the page that names it (the operator's documentation
where one exists). :func:`crawler_verdicts` says, for a parsed file, whether each of them
may fetch a URL and which group decides; :func:`category_tokens` expands a category
(``"ai-training"``, or a short alias such as ``"training"``) to its tokens. The table can
be extended or replaced from a JSON file of the same shape (:func:`load_crawlers`); nothing
is fetched.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from .errors import RobotsError
from .model import Verdict
from .robotstxt import RobotsTxt

__all__ = [
    "CATEGORIES",
    "Crawler",
    "CrawlerVerdict",
    "category_tokens",
    "crawler_verdicts",
    "known_crawlers",
    "load_crawlers",
    "resolve_category",
]

CATEGORIES: Tuple[str, ...] = (
    "search", "ai-search", "user-triggered", "ai-training", "usage-control", "other")
"""Crawler categories: search engines; AI search and retrieval; fetches a user triggers
(assistants, agents, previews); AI training; usage-control tokens (``Google-Extended``,
``Applebot-Extended``: no request carries them, they govern how another crawler's data is
used); everything else."""

_ALIASES = {
    "training": "ai-training",
    "retrieval": "ai-search",
    "ai-retrieval": "ai-search",
    "user": "user-triggered",
    "user-fetch": "user-triggered",
    "control": "usage-control",
}

PathLike = Union[str, "os.PathLike[str]"]


class Crawler(NamedTuple):
    """One well-known crawler token and where it is documented."""

    token: str
    operator: str
    purpose: str
    source: str
    category: str = "other"
    """One of :data:`CATEGORIES`."""


class CrawlerVerdict(NamedTuple):
    """A crawler's verdict for one URL, and which group decided it."""

    crawler: Crawler
    verdict: Verdict

    @property
    def group_line(self) -> Optional[int]:
        """Line of the first group that applied (``None`` when no group applies)."""
        return self.verdict.groups[0].line if self.verdict.groups else None


_CACHE: List[Tuple[Crawler, ...]] = []


def _entries(data: Any, where: str) -> Tuple[Crawler, ...]:
    rows = data.get("crawlers") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise RobotsError(f"{where}: expected a list of crawlers (or {{'crawlers': [...]}})")
    found: List[Crawler] = []
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not isinstance(row.get("token"), str):
            raise RobotsError(f"{where}: crawler {number} has no 'token'")
        category = resolve_category(str(row.get("category", "other")))
        found.append(Crawler(row["token"], str(row.get("operator", "")),
                             str(row.get("purpose", "")), str(row.get("source", "")),
                             category))
    return tuple(found)


def load_crawlers(path: PathLike) -> Tuple[Crawler, ...]:
    """Crawlers from a JSON file shaped like ``data/crawlers.json`` (or a bare list of
    entries). Raises :class:`~robotsrules.RobotsError` for a file that is not."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except ValueError as error:
        raise RobotsError(f"{os.fspath(path)}: not JSON: {error}") from None
    return _entries(data, os.fspath(path))


def known_crawlers(
    table: Optional[PathLike] = None, *, replace: bool = False
) -> Tuple[Crawler, ...]:
    """The shipped table of well-known crawler tokens, in table order.

    With ``table`` (a JSON file, see :func:`load_crawlers`), its entries are added, an entry
    for a token already listed (case-insensitive) replacing the shipped one; with
    ``replace=True`` only the file's entries are used.
    """
    if not _CACHE:
        text = resources.files("robotsrules").joinpath("data/crawlers.json").read_text("utf-8")
        _CACHE.append(_entries(json.loads(text), "crawlers.json"))
    shipped = _CACHE[0]
    if table is None:
        return shipped
    extra = load_crawlers(table)
    if replace:
        return extra
    merged: Dict[str, Crawler] = {c.token.lower(): c for c in shipped}
    for crawler in extra:
        merged[crawler.token.lower()] = crawler
    return tuple(merged.values())


def resolve_category(name: str) -> str:
    """The category ``name`` means (a :data:`CATEGORIES` value or an alias such as
    ``"training"``, ``"retrieval"``, ``"user"``, ``"control"``); raises
    :class:`~robotsrules.RobotsError` for anything else."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in CATEGORIES:
        raise RobotsError(
            f"unknown crawler category {name!r}; valid: {', '.join(CATEGORIES)} "
            f"(aliases: {', '.join(sorted(_ALIASES))})")
    return key


def category_tokens(
    categories: Union[str, Iterable[str]], crawlers: Optional[Sequence[Crawler]] = None
) -> Tuple[str, ...]:
    """The tokens of the crawlers in ``categories`` (one name or several), table order."""
    names = [categories] if isinstance(categories, str) else list(categories)
    wanted = {resolve_category(name) for name in names}
    table = known_crawlers() if crawlers is None else crawlers
    return tuple(c.token for c in table if c.category in wanted)


def crawler_verdicts(robots: RobotsTxt, url: str = "/") -> List[CrawlerVerdict]:
    """For each well-known crawler: may it fetch ``url`` under ``robots``, and why."""
    return [CrawlerVerdict(c, robots.explain(url, agent=c.token)) for c in known_crawlers()]
