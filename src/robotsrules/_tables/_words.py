"""The words of the vocabularies: one exhaustive function per ``Literal``, shared by the
command line and the workbench page (:mod:`robotsrules._web`), and the JSON records that
``--json`` and the JSON service (``robotsrules serve --api``) both print; so that a value added to a
vocabulary and forgotten here is a mypy error (``assert_never``), not a ``KeyError`` at run
time (``tests/test_vocabularies.py`` checks the same at run time)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, cast

from .._terminal import visible
from .._typing import assert_never
from ._purposes import PURPOSES, revision

if TYPE_CHECKING:  # types only: the fetch policy's module imports this package's tables
    from .._rules._stance import Stance
    from .._rules._usage import Usage
    from ..model import Reason, UsageLine, Verdict
    from ..policy import FetchResult, Outcome, ServedReason
    from ..robotstxt import RobotsTxt
    from ._crawlers import Crawler

__all__ = ["brief", "crawler_json", "describe", "fetch_json", "outcome_meaning",
           "served_note", "stance_json", "usage_json", "usage_lines_json", "usage_report",
           "verdict_json", "when", "why"]


def _reason_words(reason: Reason) -> tuple[str, str]:
    """A verdict's reason in a few words (:func:`brief`) and in a sentence (:func:`why`)."""
    if reason == "longest-match":
        return ("the longest matching rule decides",
                "the longest matching rule decides (RFC 9309 \u00a72.2.2)")
    if reason == "tie-allow":
        return ("ties with a disallow; allow wins",
                "an allow and a disallow of equal length match; allow wins the tie")
    if reason == "index-html":
        return ("also allows the directory itself",
                "an Allow of .../index.html also allows the directory itself (Google)")
    if reason == "first-match":
        return ("the first matching rule decides",
                "legacy reading: the first matching rule of the record decides")
    if reason == "no-match":
        return ("no rule matches",
                "no rule of the applicable groups matches, so the URL is allowed")
    if reason == "no-group":
        return ("no group for this agent and no '*' group",
                "no group names this agent and there is no '*' group, so all is allowed")
    if reason == "robots-txt":
        return ("/robots.txt is always allowed",
                "/robots.txt itself is always allowed (RFC 9309 \u00a72.2.2)")
    if reason == "allow-all":
        return ("no robots.txt: everything allowed",
                "there is no robots.txt (4xx), so everything is allowed")
    if reason == "disallow-all":
        return ("robots.txt unreachable: everything disallowed",
                "the robots.txt is unreachable, so everything is disallowed for now")
    assert_never(reason)


def brief(reason: Reason) -> str:
    """A verdict's reason in a few words (``check``, ``usage``)."""
    return _reason_words(reason)[0]


def why(reason: Reason) -> str:
    """A verdict's reason in a sentence (``explain``, ``diff``)."""
    return _reason_words(reason)[1]


def describe(verdict: Verdict) -> str:
    """The deciding line of a verdict (control characters made visible), or its reason."""
    if verdict.rule is None:
        return brief(verdict.reason)
    text = visible(str(verdict.rule))
    if verdict.reason == "index-html" or verdict.reason == "tie-allow":
        text += f"  ({brief(verdict.reason)})"
    return text


def outcome_meaning(outcome: Outcome) -> str:
    """What a fetch outcome means for the site's URLs (RFC 9309 §2.3.1)."""
    if outcome == "ok":
        return "the file's rules apply"
    if outcome == "unavailable":
        return "all allowed"
    if outcome == "unreachable" or outcome == "forbidden":
        return "all disallowed"
    assert_never(outcome)


def served_note(reason: ServedReason) -> Optional[str]:
    """Why a cache serves other rules than the latest fetch's, when it does."""
    if reason == "fresh" or reason == "stale" or reason == "unreachable":
        return None
    if reason == "last-good-copy":
        return "unreachable now; using the last good copy"
    if reason == "30-days":
        return "unreachable for over 30 days; all allowed"
    assert_never(reason)


# The JSON records the command line's --json and the JSON service (robotsrules serve --api)
# both print: one home, so that the two answer field for field alike.

def usage_lines_json(lines: tuple[UsageLine, ...]) -> list[dict[str, Any]]:
    """Usage lines as JSON objects (``usage --json``, and in every verdict's JSON)."""
    return [{"line": u.line, "directive": u.directive, "value": u.value,
             "pattern": u.pattern or None,
             "states": {name: value for name, value in u.statements}} for u in lines]


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """A verdict as the JSON outputs show it (``check``, ``explain``, ``agents``, ``diff``);
    an absent file (the status rules decided) has no group lines."""
    rule = verdict.rule
    return {
        "allowed": verdict.allowed,
        "reason": verdict.reason,
        "scope": verdict.scope,
        "target": verdict.target,
        "rule": None if rule is None else {
            "line": rule.line, "directive": rule.directive, "value": rule.value,
            "pattern": rule.pattern, "priority": rule.priority},
        "groups": ([] if verdict.reason in ("allow-all", "disallow-all")
                   else [group.line for group in verdict.groups]),
        "usage": usage_lines_json(verdict.usage),
    }


def when(seconds: float) -> str:
    """A time as ISO 8601 UTC to the second; ``-`` for one out of range."""
    import datetime

    try:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(
            timespec="seconds")
    except (OverflowError, OSError, ValueError):  # a clock or cache row out of range
        return "-"


def fetch_json(source: str, result: Optional[FetchResult], served: str,
               cached: bool) -> dict[str, Any]:
    """How a check's robots.txt was had, as ``check --json``'s ``fetch`` field shows it:
    ``result`` None for a file given (``served`` says how: ``file``, ``request``)."""
    if result is None:
        return {"source": source, "outcome": "ok", "status": None, "error": None,
                "served": served, "cached": False, "fetched_at": None, "expires_at": None}
    return {"source": result.url, "outcome": result.outcome, "status": result.status,
            "error": result.error, "served": served, "cached": cached,
            "fetched_at": when(result.fetched_at), "expires_at": when(result.expires_at)}


def usage_json(usage: Usage, reading: Optional[str] = None) -> dict[str, Any]:
    """One URL's :class:`~robotsrules._rules._usage.Usage` as a JSON object, answered in the
    reading of draft-ietf-aipref-vocab revision ``reading`` (``None``: the current one)."""
    return {
        "crawl_allowed": usage.crawl_allowed,
        "purposes": {p: {"answer": usage.allows(p, reading),
                         "lines": [u.line for u in usage.deciding(p, reading)]}
                     for p in PURPOSES},
        "aipref_revision": revision(reading).name,
        "superseded": usage.superseded,
        "lines": usage_lines_json(usage.lines),
        "ignored": usage_lines_json(usage.ignored),
    }


def usage_report(robots: RobotsTxt, url: str, agent: str,
                 reading: Optional[str] = None) -> dict[str, Any]:
    """One URL's entry of ``usage --json`` for ``agent``: the crawl verdict's target and
    line, and :func:`usage_json`."""
    verdict = robots.explain(url, agent=agent)
    return {"url": url, "target": verdict.target,
            "crawl_rule": None if verdict.rule is None else verdict.rule.line,
            **usage_json(robots.usage(url, agent=agent), reading)}


def stance_json(agent: str, stance: Stance) -> dict[str, Any]:
    """One agent's stance as a JSON-ready dict (the ``--json`` form)."""
    return {
        "agent": agent,
        "kind": stance.kind,
        "scope": stance.scope,
        "complete": stance.complete,
        "lines": [
            {"line": rule.line, "directive": rule.directive, "value": rule.value,
             "pattern": rule.pattern}
            for rule in stance.lines
        ],
        "disallowed": list(stance.disallowed),
        "allowed": list(stance.allowed),
    }


def crawler_json(crawler: Crawler) -> dict[str, Any]:
    """One registry entry as a JSON object (``agents --json``, ``stance --json``)."""
    said = crawler.robots_txt
    return {
        "name": crawler.label, "token": crawler.token, "operator": crawler.operator,
        "purpose": crawler.purpose, "categories": list(crawler.categories),
        "trigger": crawler.trigger, "stoppable": crawler.stoppable,
        "robots_txt": {"obeys": said.obeys, "statement": said.statement,
                       "source": said.source, "checked": said.checked, "stated": said.stated,
                       "via": said.via},
        "verify": {"ip_ranges": list(crawler.verify.ip_ranges),
                   "reverse_dns": list(crawler.verify.reverse_dns),
                   "web_bot_auth": crawler.verify.web_bot_auth},
        "source": crawler.source,
    }


def stance_report(origin: str, robots: RobotsTxt, stances: Sequence[tuple[str, Stance]],
                  known: Mapping[str, Optional[Crawler]]) -> dict[str, Any]:
    """``stance --json``'s object: each agent's stance with its registry entry (``known``),
    no lines when there is no file (the status rules decided)."""
    absent = robots.synthetic is not None
    entries = [{**stance_json(agent, stance),
                "crawler": None if known.get(agent) is None
                else crawler_json(cast("Crawler", known[agent]))} for agent, stance in stances]
    if absent:
        for entry in entries:
            entry["lines"] = []
    return {"source": origin, "file": "absent" if absent else "present", "stances": entries}
