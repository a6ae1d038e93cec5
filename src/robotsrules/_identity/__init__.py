"""Who is really asking: visitor verification by the operators' published address lists and
forward-confirmed reverse DNS (issue 36).

:func:`verify` (``robotsrules.verify``) gives a :class:`Verification`, and so does
:func:`verify_request` for a signed request (Web Bot Auth, issue 38: :mod:`._httpsig`
checks the signature, :mod:`._directory` fetches the signer's keys); :mod:`._dns` is the
one user of dnspython, :mod:`._names` reads host names and suffix patterns. When this
package fetches (list refreshes), it does so through the fetch layer; the fetch layer never
imports it.
"""

from ._directory import KeyDirectories
from ._request import SeenSignatures, verify_request
from ._verify import (
    EVIDENCE_KINDS,
    Evidence,
    EvidenceKind,
    EvidenceOutcome,
    VerdictName,
    Verification,
    current_snapshot,
    parse_address,
    verify,
)

__all__ = ["EVIDENCE_KINDS", "Evidence", "EvidenceKind", "EvidenceOutcome", "KeyDirectories",
           "SeenSignatures", "VerdictName", "Verification", "current_snapshot", "parse_address",
           "verify", "verify_request"]
