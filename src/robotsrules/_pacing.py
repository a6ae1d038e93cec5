"""Pacing requests to one site: how long its robots.txt asks to wait, and the spacing.

Shared by the client integrations (:mod:`robotsrules.httpx`, :mod:`robotsrules.aiohttp`,
:mod:`robotsrules.scrapy`); standard library only.
"""

from __future__ import annotations

import threading
import time
from typing import Dict, Optional, Tuple

from ._agents import Agent
from .robotstxt import RobotsTxt
from .useragent import product_token

__all__ = ["DEFAULT_MAX_CRAWL_DELAY", "Spacing", "delay_for", "resolve_agent"]

DEFAULT_MAX_CRAWL_DELAY = 30.0
"""Longest spacing the HTTP client integrations (httpx, aiohttp) apply, in seconds, whatever a
site asks (a site asking for an hour between requests would otherwise stall a crawler).
Scrapy's middleware keeps its own, longer default (``robotsrules.scrapy``, 60 s): a transport
makes the caller's own request wait, so a long wait stalls the calling code, while Scrapy
delays only that site's download slot and the rest of the crawl goes on."""


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
    """Per-origin spacing of request starts: each request to an origin starts at least
    ``delay`` after the previous one *did*. Thread-safe; the caller sleeps, not this class.

    A caller asks :meth:`turn` until it answers 0, sleeping what it says in between::

        while (wait := spacing.turn(origin, delay)) > 0:
            time.sleep(wait)
        send(request)

    The answer 0 records "now" as the origin's last start. Spacing is measured from that
    moment, not from a slot booked in advance: a caller that oversleeps (a busy machine, a
    paused thread) delays the requests after it instead of letting the next one catch up,
    so two starts are never closer than ``delay``. Callers waiting on the same origin
    race for each turn; whoever asks first after it comes sends.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: Dict[str, float] = {}

    def turn(self, origin: str, delay: float) -> float:
        """0 if a request to ``origin`` may start now (and it is recorded as started), else
        the seconds to wait before asking again."""
        with self._lock:
            now = time.monotonic()
            if delay <= 0:
                self._last.pop(origin, None)
                return 0.0
            last = self._last.get(origin)
            if last is not None and now - last < delay:
                return last + delay - now
            self._last[origin] = now
            return 0.0


def resolve_agent(user_agent: str, agent: Optional[Agent]) -> Tuple[Agent, str]:
    """The agent to obey (``agent``, or the product token of ``user_agent``) and its name
    for messages."""
    chosen = agent if agent is not None else product_token(user_agent)
    name = chosen if isinstance(chosen, str) else ", ".join(chosen)
    return chosen, name
