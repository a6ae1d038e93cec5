"""robotsrules: the Robots Exclusion Protocol (robots.txt) as Google and RFC 9309 read it.

Parse once, check many::

    import robotsrules
    robots = robotsrules.parse(body_bytes)
    robots.allowed("https://example.com/page", agent="ExampleBot")
    robots.explain("https://example.com/page", agent="ExampleBot").rule
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from . import _compiled, _version
from ._rules import _stance
from ._rules._agents import Agent, agent_tokens
from ._rules._matcher import AgentRules
from ._rules._stance import Stance, StanceTooComplex
from ._rules._urls import match_target
from ._rules._usage import Usage
from .errors import (
    CorruptEntry,
    EngineError,
    GenerateError,
    InvalidAgent,
    InvalidArgument,
    InvalidPurpose,
    InvalidURL,
    MissingExtra,
    PagePriced,
    PageRefused,
    RobotsDisallowed,
    RobotsError,
    SigningFailed,
)
from .linter import Diagnostic, lint
from .model import Group, Line, Pace, RequestRate, Rule, UsageLine, Verdict
from .robotstxt import DEFAULT_MAX_BYTES, MODES, Mode, RobotsTxt, parse
from .useragent import product_token

# Pickles made before issue 34 name Stance's module by its old path; the module moved into
# _rules/ (already imported above, so the alias costs nothing). Only Stance needs one: the
# other public objects pickle by public paths (robotsrules.AgentRules, robotsrules.model, ...).
sys.modules.setdefault(f"{__name__}._stance", _stance)

if TYPE_CHECKING:  # the lazy names below, for type checkers
    from ._audit import LogAudit, audit_logs
    from ._fetch._fetcher import afetch, fetch
    from ._fetch._robotscache import AsyncRobotsCache, RobotsCache
    from ._generate import AgentChoice, Generated, GeneratePolicy, generate
    from ._identity import (
        Evidence,
        KeyDirectories,
        SeenSignatures,
        Verification,
        verify,
        verify_request,
    )
    from ._identity._httpsig import Signer, SigningKey
    from ._page import (
        Answer,
        Combined,
        Directive,
        LicenseLink,
        PageSignals,
        Pricing,
        TdmRepFile,
        TdmRule,
        combine,
        page_signals,
    )
    from ._rsl import LicenseAnswer, LicenseDocument, LicenseTerms, parse_license
    from ._scope import origin_of, robots_url
    from .policy import FetchResult, Policy

# The fetch layer (httpx) is imported on first use, so that the core stays importable and
# fast to import without it.
_LAZY = {
    "AsyncRobotsCache": "_fetch._robotscache",
    "RobotsCache": "_fetch._robotscache",
    "afetch": "_fetch._fetcher",
    "fetch": "_fetch._fetcher",
    "FetchResult": "policy",
    "Policy": "policy",
    "robots_url": "_scope",
    "origin_of": "_scope",
    # Page-level signals (X-Robots-Tag, meta robots, TDMRep, Content-Usage): stdlib only,
    # loaded on first use like the fetch layer to keep `import robotsrules` fast.
    "Answer": "_page",
    "Combined": "_page",
    "Directive": "_page",
    "LicenseLink": "_page",
    "PageSignals": "_page",
    "Pricing": "_page",
    "TdmRepFile": "_page",
    "TdmRule": "_page",
    "combine": "_page",
    "page_signals": "_page",
    # RSL 1.0 licence documents (defusedxml, the 'rsl' extra, is needed only to read one).
    "LicenseAnswer": "_rsl",
    "LicenseDocument": "_rsl",
    "LicenseTerms": "_rsl",
    "parse_license": "_rsl",
    # Visitor verification (issue 36): the address lists, and dnspython (the 'verify'
    # extra) only when DNS is on.
    # Writing a robots.txt from an owner's choices (issue 40): stdlib only, on first use.
    "AgentChoice": "_generate",
    "GeneratePolicy": "_generate",
    "Generated": "_generate",
    "generate": "_generate",
    "Evidence": "_identity",
    "Verification": "_identity",
    "verify": "_identity",
    # Signed requests (issue 38, Web Bot Auth): cryptography (the 'sign' extra) on first use.
    "KeyDirectories": "_identity",
    "SeenSignatures": "_identity",
    "verify_request": "_identity",
    # Web Bot Auth signing (issue 38): cryptography (the 'sign' extra) is imported only when
    # a key is made or read, not by these names.
    "Signer": "_identity._httpsig",
    "SigningKey": "_identity._httpsig",
    # The log audit (issue 37): pyarrow and DuckDB (the 'bulk' extra) when it runs.
    "LogAudit": "_audit",
    "audit_logs": "_audit",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'robotsrules' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # The lazily loaded names are part of the package too (tab completion, help()).
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "COMPILED",
    "DEFAULT_MAX_BYTES",
    "MODES",
    "Agent",
    "AgentChoice",
    "AgentRules",
    "Answer",
    "AsyncRobotsCache",
    "Combined",
    "CorruptEntry",
    "Diagnostic",
    "Directive",
    "EngineError",
    "Evidence",
    "FetchResult",
    "GenerateError",
    "GeneratePolicy",
    "Generated",
    "Group",
    "InvalidAgent",
    "InvalidArgument",
    "InvalidPurpose",
    "InvalidURL",
    "KeyDirectories",
    "LicenseAnswer",
    "LicenseDocument",
    "LicenseLink",
    "LicenseTerms",
    "Line",
    "LogAudit",
    "MissingExtra",
    "Mode",
    "Pace",
    "PagePriced",
    "PageRefused",
    "PageSignals",
    "Policy",
    "Pricing",
    "RequestRate",
    "RobotsCache",
    "RobotsDisallowed",
    "RobotsError",
    "RobotsTxt",
    "Rule",
    "SeenSignatures",
    "Signer",
    "SigningFailed",
    "SigningKey",
    "Stance",
    "StanceTooComplex",
    "TdmRepFile",
    "TdmRule",
    "Usage",
    "UsageLine",
    "Verdict",
    "Verification",
    "afetch",
    "agent_tokens",
    "audit_logs",
    "combine",
    "fetch",
    "generate",
    "lint",
    "match_target",
    "origin_of",
    "page_signals",
    "parse",
    "parse_license",
    "product_token",
    "robots_url",
    "verify",
    "verify_request",
]

__version__ = _version.__version__

COMPILED: bool = _compiled.COMPILED
"""True when the core (parser, matcher, checks) runs as modules compiled with mypyc (the
optional compiled build: ``ROBOTSRULES_COMPILE=1 pip install .``), False for pure Python.
Both builds give the same answers."""
