"""The one rule that combines the kinds of evidence (issue 38 §Verify): verified if any kind
confirms; not verified only if every published kind was checked and failed; unknown if some
published kind could not be checked and none confirmed; unverifiable if none is published.
A kind the caller turned off (DNS) is left out of "every published kind"."""

from __future__ import annotations

import datetime

import pytest

import robotsrules
from robotsrules._identity._verify import Evidence, combined_verdict
from tests.identity.test_verify import a_list, snapshot

NOW = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.timezone.utc)

LIST_NO = Evidence("address-list", "not-confirmed", "not in the list")
LIST_YES = Evidence("address-list", "confirmed", "in the list")
DNS_NO = Evidence("name-pattern", "not-confirmed", "no name")
DNS_OFF = Evidence("name-pattern", "not-checked", "DNS turned off", turned_off=True)
DNS_FAIL = Evidence("name-pattern", "unknown", "SERVFAIL")
SIG_NONE = Evidence("web-bot-auth", "not-published", "none")
SIG_OPEN = Evidence("web-bot-auth", "not-checked", "needs the request itself")
SIG_NO = Evidence("web-bot-auth", "not-confirmed", "signature mismatch")
SIG_YES = Evidence("web-bot-auth", "confirmed", "signed")
NONE = (Evidence("address-list", "not-published", "-"), Evidence("name-pattern",
        "not-published", "-"), SIG_NONE)


@pytest.mark.parametrize(("evidence", "verdict"), [
    ((LIST_NO, DNS_NO, SIG_YES), "verified"),            # any kind that confirms
    ((LIST_YES, DNS_FAIL, SIG_NO), "verified"),
    ((LIST_NO, DNS_NO, SIG_NO), "not-verified"),         # every published kind failed
    ((LIST_NO, DNS_NO, SIG_NONE), "not-verified"),
    ((LIST_NO, DNS_NO, SIG_OPEN), "unknown"),            # a signature not checkable
    ((LIST_NO, DNS_FAIL, SIG_NO), "unknown"),            # a kind could not be had
    ((LIST_NO, DNS_OFF, SIG_NONE), "not-verified"),      # DNS turned off: the lists decide
    ((LIST_NO, DNS_OFF, SIG_OPEN), "unknown"),
    ((Evidence("address-list", "not-published", "-"), DNS_OFF, SIG_NONE), "unknown"),
    (NONE, "unverifiable"),
])
def test_the_combined_rule(evidence: tuple[Evidence, ...], verdict: str) -> None:
    assert combined_verdict(evidence)[0] == verdict


def test_an_operator_that_also_signs_is_unknown_by_address_alone() -> None:
    # Google-Agent: Google publishes an address list, names and a key directory. An address
    # outside the list with DNS off leaves the signature unchecked: unknown, not "not verified".
    lists = snapshot(a_list("google-user-triggered-agents", "Google", ["Google-Agent"],
                            ["192.0.2.0/28"]))
    answer = robotsrules.verify("192.0.2.200", agent="Google-Agent", now=NOW, dns=False,
                                snapshot=lists)
    assert answer.verdict == "unknown"
    assert "web-bot-auth not checked" in answer.reason
    assert [item.outcome for item in answer.evidence] == ["not-confirmed", "not-checked",
                                                          "not-checked"]
