"""Exceptions raised by robotsrules.

Content never raises: any bytes parse into a :class:`~robotsrules.RobotsTxt`.
Exceptions are for the *caller's* mistakes only::

    ValueError
     └── RobotsError              base of every robotsrules exception
          ├── InvalidAgent        agent is not a product token, Token/version or list of them
          └── InvalidURL          URL is neither absolute (scheme://...) nor a path "/..."
"""

from __future__ import annotations

__all__ = ["InvalidAgent", "InvalidURL", "RobotsError"]


class RobotsError(ValueError):
    """Base class of all exceptions raised by robotsrules (always a caller mistake)."""


class InvalidAgent(RobotsError):
    """The agent is not a product token (``[A-Za-z_-]+``), ``Token/version`` or ``*``."""


class InvalidURL(RobotsError):
    """The URL passed is neither absolute (``scheme://...``) nor a target starting with ``/``."""
