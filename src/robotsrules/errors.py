"""Exceptions raised by robotsrules.

Content never raises: any bytes parse into a :class:`~robotsrules.RobotsTxt`.
Exceptions are for the *caller's* mistakes only::

    ValueError
     └── RobotsError              base of every robotsrules exception
          ├── InvalidAgent        agent is not a product token, Token/version or list of them
          ├── InvalidPurpose      purpose is not a Content-Signal name nor an AI-preference category
          └── InvalidURL          URL is neither absolute (scheme://...) nor a path "/..."

    Exception
     ├── RobotsDisallowed         raised by the HTTP client integrations (robotsrules.httpx,
     │                            robotsrules.aiohttp) for a request robots.txt forbids: not
     │                            a caller mistake, so not a ValueError
     └── PageRefused              raised by the same integrations when a response's own
                                  signals (X-Robots-Tag, meta, TDMRep...) refuse a purpose
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .model import Verdict

__all__ = ["InvalidAgent", "InvalidPurpose", "InvalidURL", "PageRefused", "RobotsDisallowed",
           "RobotsError"]


class RobotsError(ValueError):
    """Base class of all exceptions raised by robotsrules (always a caller mistake)."""


class InvalidAgent(RobotsError):
    """The agent is not a product token (``[A-Za-z_-]+``), ``Token/version`` or ``*``."""


class InvalidPurpose(RobotsError):
    """The purpose is none of :data:`robotsrules.purposes.PURPOSES` (``"ai-train"``, ...)."""


class InvalidURL(RobotsError):
    """The URL passed is neither absolute (``scheme://...``) nor a target starting with ``/``."""


class RobotsDisallowed(Exception):
    """A request that the robots.txt of its origin forbids (raised instead of sending it).

    ``url`` is the URL refused, ``agent`` the product token obeyed, ``verdict`` the
    :class:`~robotsrules.Verdict` with the deciding rule (``verdict.rule``, with its line
    number; ``None`` when no file decided, e.g. an unreachable robots.txt), and ``detail``
    what the fetch of the robots.txt said when it did not succeed (``"unreachable: HTTP
    503"``), else ``None``. ``str()`` says all of it.
    """

    def __init__(self, url: str, agent: str, verdict: Verdict,
                 detail: Optional[str] = None) -> None:
        self.url = url
        self.agent = agent
        self.verdict = verdict
        self.detail = detail
        super().__init__(url, agent, verdict, detail)

    def __str__(self) -> str:
        if self.verdict.rule is not None:
            why = f"line {self.verdict.rule} ({self.verdict.reason})"
        else:
            why = self.verdict.reason
        if self.detail:
            why = f"{why}; {self.detail}"
        return f"robots.txt disallows {self.url} for {self.agent}: {why}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.agent, self.verdict, self.detail))


class PageRefused(Exception):
    """A response whose own signals refuse a purpose the client declared.

    ``url`` is the response's URL, ``purpose`` the purpose refused (``"ai-train"``...),
    ``why`` the deciding directive's description (``"header X-Robots-Tag (header #2):
    noai"``) and ``signals`` the :class:`robotsrules.PageSignals` read.
    """

    def __init__(self, url: str, purpose: str, why: str, signals: object = None) -> None:
        self.url = url
        self.purpose = purpose
        self.why = why
        self.signals = signals
        super().__init__(url, purpose, why)

    def __str__(self) -> str:
        return f"{self.url} refuses {self.purpose}: {self.why}"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.url, self.purpose, self.why))
