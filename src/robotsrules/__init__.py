"""robotsrules: the Robots Exclusion Protocol (robots.txt) as Google and RFC 9309 read it.

Parse once, check many::

    import robotsrules
    robots = robotsrules.parse(body_bytes)
    robots.allowed("https://example.com/page", agent="ExampleBot")
    robots.explain("https://example.com/page", agent="ExampleBot").rule
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .agents import Agent, agent_tokens
from .errors import InvalidAgent, InvalidURL, RobotsDisallowed, RobotsError
from .linter import Diagnostic, lint
from .matcher import AgentRules
from .model import Group, Line, RequestRate, Rule, Verdict
from .robotstxt import DEFAULT_MAX_BYTES, MODES, Mode, RobotsTxt, parse
from .stance import Stance, StanceTooComplex
from .urls import match_target
from .useragent import product_token

if TYPE_CHECKING:  # the lazy names below, for type checkers
    from .checker import AsyncRobotsCache, RobotsCache
    from .fetcher import afetch, fetch
    from .policy import FetchResult, Policy
    from .scope import origin_of, robots_url

# The fetch layer (httpx) is imported on first use, so that the core stays importable and
# fast to import without it.
_LAZY = {
    "AsyncRobotsCache": "checker",
    "RobotsCache": "checker",
    "afetch": "fetcher",
    "fetch": "fetcher",
    "FetchResult": "policy",
    "Policy": "policy",
    "robots_url": "scope",
    "origin_of": "scope",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'robotsrules' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MODES",
    "Agent",
    "AgentRules",
    "AsyncRobotsCache",
    "Diagnostic",
    "FetchResult",
    "Group",
    "InvalidAgent",
    "InvalidURL",
    "Line",
    "Mode",
    "Policy",
    "RequestRate",
    "RobotsCache",
    "RobotsDisallowed",
    "RobotsError",
    "RobotsTxt",
    "Rule",
    "Stance",
    "StanceTooComplex",
    "Verdict",
    "afetch",
    "agent_tokens",
    "fetch",
    "lint",
    "match_target",
    "origin_of",
    "parse",
    "product_token",
    "robots_url",
]

__version__ = "0.1.0"
