"""The test oracle: Google's C++ robotstxt library through its unmodified binding.

SPEC §0's identity: our verdict = oracle(body[:max_bytes], token(agent), canonical(url)),
except that ``/robots.txt`` is always allowed (D3).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional, Union

import pytest

try:  # pragma: no cover - depends on the platform
    from jwm.robotstxt import googlebot as _googlebot
except ImportError:  # pragma: no cover
    _googlebot = None

from robotsrules import DEFAULT_MAX_BYTES, agent_tokens, match_target

AVAILABLE = _googlebot is not None
REASON = (
    "the oracle jwm.robotstxt is not installed (wheels exist for CPython 3.10-3.12 on "
    "x86-64 Linux only): install the 'test' extra on such a Python to run oracle checks"
)
requires_oracle = pytest.mark.skipif(not AVAILABLE, reason=REASON)

CORPUS = os.environ.get(
    "ROBOTSRULES_CORPUS",
    os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"),
)


def oracle(body: bytes, agent: Union[str, Sequence[str]], url: str) -> tuple[bool, int]:
    """(allowed, matching line) by Google's library under SPEC §0's identity."""
    assert _googlebot is not None, REASON
    tokens = list(agent_tokens(agent))
    target = match_target(url)
    matcher = _googlebot.RobotsMatcher()
    body = body[:DEFAULT_MAX_BYTES]
    # The binding takes the URL; a target alone is given a host so that slicing sees a path.
    full = "http://h" + target
    if len(tokens) == 1:
        allowed = matcher.OneAgentAllowedByRobots(body, tokens[0], full)
    else:
        allowed = matcher.AllowedByRobots(body, tokens, full)
    line = matcher.matching_line()
    if target == "/robots.txt":
        return True, 0
    return bool(allowed), int(line)


def raw_oracle(body: bytes, agent: str, url: str) -> Optional[bool]:
    """Google's library with no preparation at all (to show where D1-D6 deviate)."""
    assert _googlebot is not None, REASON
    return bool(_googlebot.RobotsMatcher().OneAgentAllowedByRobots(body, agent, url))
