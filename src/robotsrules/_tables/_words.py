"""The words of the vocabularies: one exhaustive function per ``Literal``, shared by the
command line and the workbench page (:mod:`robotsrules._web`), and the JSON records that
``--json`` and the JSON service (``robotsrules serve --api``) both print; so that a value added to a
vocabulary and forgotten here is a mypy error (``assert_never``), not a ``KeyError`` at run
time (``tests/test_vocabularies.py`` checks the same at run time)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, cast

from .._terminal import visible
from .._typing import assert_never
from ._purposes import PURPOSES, revision

if TYPE_CHECKING:  # types only: the fetch policy's module imports this package's tables
    from .._diff import Change
    from .._generate import GeneratePolicy
    from .._generate._write import Generated
    from .._page import Directive, PageSignals
    from .._page._admit import PageAdmission, Refusal
    from .._rsl import Content, LicenseAnswer, LicenseDocument
    from .._rules._stance import Stance
    from .._rules._usage import Usage
    from ..model import Reason, UsageLine, Verdict
    from ..policy import FetchResult, Outcome, ServedReason
    from ..robotstxt import RobotsTxt
    from ._crawlers import Crawler

__all__ = ["PAGE_PROPERTIES", "brief", "changes_json", "crawler_json", "describe",
           "diff_summary", "fetch_json", "generate_json", "license_answer_json",
           "license_document_json", "license_json", "outcome_meaning", "page_decider", "page_json",
           "page_report",
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


def diff_summary(changes: Sequence[Change]) -> dict[str, Any]:
    """The count of verdict changes, newly disallowed and allowed, and per agent."""
    agents: dict[str, int] = {}
    for change in changes:
        agents[change.agent] = agents.get(change.agent, 0) + 1
    newly = sum(1 for c in changes if c.old.allowed and not c.new.allowed)
    return {"changes": len(changes), "newly_disallowed": newly,
            "newly_allowed": len(changes) - newly, "agents": agents}


def changes_json(changes: Sequence[Change]) -> dict[str, Any]:
    """The verdict changes as ``diff --json`` gives them: the summary and every change."""
    return {"summary": diff_summary(changes), "changes": [
        {"agent": c.agent, "url": c.url, "old": verdict_json(c.old),
         "new": verdict_json(c.new)} for c in changes]}


def generate_json(made: Generated, policy: GeneratePolicy, out: Optional[str],
                  changes: Optional[Sequence[Change]]) -> dict[str, Any]:
    """``generate --json``'s object: the file and its proof, where it was written (``out``),
    the choices, and with a file merged into, the verdict changes."""
    report: dict[str, Any] = {**made.to_data(), "out": out, "policy": policy.to_data()}
    if changes is not None:
        report["diff"] = changes_json(changes)
    return report


PAGE_PROPERTIES: Mapping[str, tuple[str, ...]] = {
    "index": ("noindex", "none", "unavailable_after"),
    "follow": ("nofollow", "none"),
    "archive": ("noarchive", "nocache"),
    "snippet": ("nosnippet", "max-snippet"),
    "image_index": ("noimageindex",),
    "translate": ("notranslate",),
}
"""Which page rules make each indexing property "no" (the rules are Google's)."""


def page_decider(signals: PageSignals, name: str) -> Optional[Directive]:
    """The directive that makes the indexing property ``name`` "no" (None: nothing does)."""
    for directive in signals.directives:
        if directive.applies and directive.valid and directive.rule in PAGE_PROPERTIES[name]:
            if directive.rule == "unavailable_after" and not signals.expired:
                continue
            if directive.rule == "max-snippet" and directive.value != "0":
                continue
            return directive
    return None


def page_json(signals: PageSignals, source: str, purposes: Sequence[str],
              answers: Optional[Sequence[Refusal]] = None,
              crawl_allowed: Optional[bool] = None) -> dict[str, Any]:
    """One agent's object of ``page --json``: the signals, what decides each indexing
    property, and each purpose's answer; with the site's robots.txt read (``answers``, the
    combined ones, and ``crawl_allowed``), the combined answers, the page's alone kept as
    ``page_purposes``."""
    data = signals.as_dict()
    data["source"] = source
    data["decided_by"] = {name: (d._asdict() if (d := page_decider(signals, name)) else None)
                          for name in PAGE_PROPERTIES}
    page = {}
    for purpose in purposes:
        answer, directive = signals.decide(purpose)
        page[purpose] = {"allowed": answer,
                         "decided_by": directive._asdict() if directive else None}
    data["purposes"] = page
    if answers is not None:
        # A URL the agent may not fetch is refused whatever the page says.
        data["page_purposes"] = page
        data["combined"] = {
            a.purpose: {"allowed": a.answer.allowed, "level": a.answer.level,
                        "why": a.answer.describe()} for a in answers}
        data["purposes"] = {
            a.purpose: {"allowed": a.answer.allowed, "level": a.answer.level,
                        "why": a.answer.describe(),
                        "decided_by": None if a.answer.directive is None
                        else a.answer.directive._asdict()} for a in answers}
        data["crawl_allowed"] = crawl_allowed
    return data


def page_report(admission: PageAdmission, agents: Sequence[str], source: str,
                purposes: Sequence[str], usage: Optional[Callable[[str], Optional[Usage]]]
                ) -> Any:
    """``page --json``'s answer: :func:`page_json` per agent (one object for one agent, a
    list for several); ``usage``: the site's robots.txt preferences, when read."""
    documents = []
    for number, (agent, signals) in enumerate(zip(agents, admission.signals)):
        if usage is None:
            documents.append(page_json(signals, source, purposes))
            continue
        site = usage(agent)
        documents.append(page_json(
            signals, source, purposes,
            admission.answers[number * len(purposes):(number + 1) * len(purposes)],
            None if site is None else site.crawl_allowed))
    return documents[0] if len(documents) == 1 else documents


def license_document_json(document: LicenseDocument) -> dict[str, Any]:
    """An RSL licence document as a JSON object (``license --json``)."""
    return {
        "url": document.url, "origin": document.origin, "state": document.state,
        "error": document.error, "status": document.status, "max_age": document.max_age,
        "warnings": list(document.warnings),
        "contents": [_content_json(c) for c in document.contents],
        "ignored": [_content_json(c) for c in document.ignored],
    }


def _content_json(content: Content) -> dict[str, Any]:
    return {
        "url": content.url, "line": content.line, "server": content.server,
        "encrypted": content.encrypted,
        "licenses": [{
            "line": lic.line,
            "permits": {kind: list(tokens) for kind, tokens in lic.permits},
            "prohibits": {kind: list(tokens) for kind, tokens in lic.prohibits},
            "payment": None if lic.payment is None else {
                "type": lic.payment.type, "free": lic.payment.free,
                "amount": None if lic.payment.amount is None else {
                    "value": lic.payment.amount.value,
                    "currency": lic.payment.amount.currency},
                "standard": lic.payment.standard, "custom": lic.payment.custom,
                "accepts": lic.payment.accepts},
            "reporting": [r._asdict() for r in lic.reporting],
        } for lic in content.licenses],
    }


def license_answer_json(answer: LicenseAnswer) -> dict[str, Any]:
    """One purpose's answer of a licence (``license --json``'s ``answers``)."""
    return {"token": answer.token, "status": answer.status, "allowed": answer.allowed,
            "reason": answer.reason, "source": answer.source}


def license_json(source: str, found: Sequence[tuple[
        str, Sequence[LicenseDocument], Sequence[tuple[str, Sequence[LicenseAnswer]]]]]) -> Any:
    """``license --json``'s answer: per agent, its documents and each URL's answers (one
    object for one agent, a list for several)."""
    shown = [{"source": source, "agent": agent,
              "documents": [license_document_json(d) for d in documents],
              "urls": [{"url": url, "answers": {a.name: license_answer_json(a)
                                                for a in answers}}
                       for url, answers in reports]}
             for agent, documents, reports in found]
    return shown[0] if len(shown) == 1 else shown
