"""robotsrules: the Robots Exclusion Protocol (robots.txt) as Google and RFC 9309 read it.

Parse once, check many::

    import robotsrules
    robots = robotsrules.parse(body_bytes)
    robots.allowed("https://example.com/page", agent="ExampleBot")
    robots.explain("https://example.com/page", agent="ExampleBot").rule
"""

from __future__ import annotations

from .agents import Agent, agent_tokens
from .errors import InvalidAgent, InvalidURL, RobotsError
from .matcher import AgentRules
from .model import Group, Line, RequestRate, Rule, Verdict
from .robotstxt import DEFAULT_MAX_BYTES, RobotsTxt, parse
from .urls import match_target

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Agent",
    "AgentRules",
    "Group",
    "InvalidAgent",
    "InvalidURL",
    "Line",
    "RequestRate",
    "RobotsError",
    "RobotsTxt",
    "Rule",
    "Verdict",
    "agent_tokens",
    "match_target",
    "parse",
]

__version__ = "0.1.0"
