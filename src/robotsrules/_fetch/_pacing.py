"""Admitting and pacing requests to one site: may it be sent, how long its robots.txt asks
to wait between requests, and the spacing.

Shared by the client integrations (:mod:`robotsrules.httpx`, :mod:`robotsrules.aiohttp`,
:mod:`robotsrules.scrapy`); standard library only. :func:`admit` is the one decision they
all take before a request (the verdict, and the delay to keep); each turns it into its own
action: the HTTP clients raise :class:`robotsrules.RobotsDisallowed` or wait their turn
(:class:`Spacing`), Scrapy raises its ``IgnoreRequest`` or slows the download slot.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Optional

from .._rules._agents import Agent
from ..errors import RobotsDisallowed
from ..model import Verdict
from ..policy import Served
from ..robotstxt import RobotsTxt
from ..useragent import product_token

__all__ = ["DEFAULT_MAX_CRAWL_DELAY", "Admission", "Spacing", "admit", "agent_name",
           "delay_for", "resolve_agent"]

DEFAULT_MAX_CRAWL_DELAY = 30.0
"""Longest spacing the HTTP client integrations (httpx, aiohttp) apply, in seconds, whatever a
site asks (a site asking for an hour between requests would otherwise stall a crawler).
Scrapy's middleware keeps its own, longer default (``robotsrules.scrapy``, 60 s): a transport
makes the caller's own request wait, so a long wait stalls the calling code, while Scrapy
delays only that site's download slot and the rest of the crawl goes on."""


def delay_for(robots: RobotsTxt, agent: Agent, limit: float) -> float:
    """Seconds to leave between two requests of ``agent`` to a site with these rules:
    the larger of ``Crawl-delay`` and ``Request-rate``'s ``seconds / requests`` (both read
    per agent, see :meth:`RobotsTxt.crawl_delay <robotsrules.RobotsTxt.crawl_delay>`),
    capped at ``limit``; 0 when the file asks for neither. A rate of no requests (``0/5``,
    read only in legacy mode) asks for the cap."""
    delay = robots.crawl_delay(agent) or 0.0
    rate = robots.request_rate(agent)
    if rate is not None:
        delay = max(delay, rate.interval)
    return max(0.0, min(delay, limit))


@dataclass(frozen=True)
class Admission:
    """What :func:`admit` decided for one request: the verdict on ``url`` under the rules
    ``served``, and the ``delay`` (seconds) to keep between requests to its origin (0 when
    refused, when crawl-delay is not applied, or when the site asks for none)."""

    url: str
    verdict: Verdict
    served: Served
    delay: float

    @property
    def allowed(self) -> bool:
        """True when the request may be sent."""
        return self.verdict.allowed

    @property
    def detail(self) -> Optional[str]:
        """What the robots.txt fetch said when the site was unreachable (the rules are then
        "disallow all"), else ``None``."""
        if self.served.reason == "unreachable":
            return f"{self.served.result.url} unreachable: {self.served.result.error}"
        return None

    def refusal(self, agent: Agent) -> RobotsDisallowed:
        """The :class:`~robotsrules.RobotsDisallowed` to raise for a refused request."""
        return RobotsDisallowed(self.url, agent_name(agent), self.verdict, self.detail)


def admit(served: Served, url: str, agent: Agent, *, crawl_delay: bool = True,
          max_crawl_delay: float = DEFAULT_MAX_CRAWL_DELAY) -> Admission:
    """May ``agent`` request ``url`` under the rules ``served`` for its origin, and how long
    to keep between its requests there: :func:`delay_for` capped at ``max_crawl_delay``
    when ``crawl_delay`` is on and the request is allowed, else 0."""
    verdict = served.robots.explain(url, agent=agent)
    delay = 0.0
    if crawl_delay and verdict.allowed:
        delay = delay_for(served.robots, agent, max_crawl_delay)
    return Admission(url, verdict, served, delay)


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
        self._last: dict[str, float] = {}

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


def resolve_agent(user_agent: str, agent: Optional[Agent]) -> Agent:
    """The agent to obey: ``agent``, or the product token of ``user_agent``."""
    return agent if agent is not None else product_token(user_agent)


def agent_name(agent: Agent) -> str:
    """``agent`` as messages name it (several tokens joined by ``", "``)."""
    return agent if isinstance(agent, str) else ", ".join(agent)
