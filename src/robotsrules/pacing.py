"""Pacing requests to one site: how long its robots.txt asks to wait, and the spacing.

Shared by the client integrations (:mod:`robotsrules.httpx`, :mod:`robotsrules.aiohttp`,
:mod:`robotsrules.scrapy`); standard library only.
"""

from __future__ import annotations

import threading
import time
from typing import Dict, Optional, Tuple

from .agents import Agent
from .robotstxt import RobotsTxt
from .useragent import product_token

__all__ = ["Spacing", "delay_for", "resolve_agent"]


def delay_for(robots: RobotsTxt, agent: Agent, limit: float) -> float:
    """Seconds to leave between two requests of ``agent`` to a site with these rules:
    the larger of ``Crawl-delay`` and ``Request-rate``'s ``seconds / requests``, capped
    at ``limit``; 0 when the file asks for neither."""
    delay = robots.crawl_delay(agent) or 0.0
    rate = robots.request_rate(agent)
    if rate is not None and rate.requests > 0:
        delay = max(delay, rate.seconds / rate.requests)
    return max(0.0, min(delay, limit))


class Spacing:
    """Per-origin reservations of start times: each request to an origin starts at least
    ``delay`` after the previous one did. Thread-safe; the caller sleeps, not this class."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next: Dict[str, float] = {}

    def reserve(self, origin: str, delay: float) -> float:
        """Seconds to wait before sending to ``origin`` (0 when its turn has come)."""
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next.get(origin, now))
            if delay > 0:
                self._next[origin] = start + delay
            else:
                self._next.pop(origin, None)
            return start - now


def resolve_agent(user_agent: str, agent: Optional[Agent]) -> Tuple[Agent, str]:
    """The agent to obey (``agent``, or the product token of ``user_agent``) and its name
    for messages."""
    chosen = agent if agent is not None else product_token(user_agent)
    name = chosen if isinstance(chosen, str) else ", ".join(chosen)
    return chosen, name
