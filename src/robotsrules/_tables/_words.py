"""The words of the vocabularies: one exhaustive function per ``Literal``, shared by the
command line and the workbench page (:mod:`robotsrules._web`), so that a value added to a
vocabulary and forgotten here is a mypy error (``assert_never``), not a ``KeyError`` at run
time (``tests/test_vocabularies.py`` checks the same at run time)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .._terminal import visible
from .._typing import assert_never

if TYPE_CHECKING:  # types only: the fetch policy's module imports this package's tables
    from ..model import Reason, Verdict
    from ..policy import Outcome, ServedReason

__all__ = ["brief", "describe", "outcome_meaning", "served_note", "why"]


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
