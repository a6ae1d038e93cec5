"""Lint a robots.txt: per-line records to diagnostics with stable codes.

Theory of operation. The lint is a second consumer of the records the matcher is built
from (google/robotstxt's ``reporting_robots.cc`` idea): :func:`lint` cuts and decodes the
content exactly as :func:`robotsrules.parse` does (:func:`~robotsrules._rules._parser.decode`),
asks :func:`~robotsrules._rules._parser.build` for the groups *and* the per-line report, and
walks them in seven passes, in this order:

1. the file as a whole: byte-order mark, bytes that are not UTF-8, content past the size
   limit, an HTML page served as robots.txt, no group at all;
2. every line the parser dropped or read leniently (the flags and ``reason`` of each
   :class:`~robotsrules.Line`): missing colon, key typo, key read by prefix, unknown key,
   invalid line, line cut at 16,663 bytes or at a NUL byte, rules before any user-agent,
   bad extras; each ``Content-Signal``/``Content-Usage`` line's own syntax and names
   (R601-R604, superseded labels R609);
3. groups and agents: user-agent values Google cuts short or that name nobody, agents
   named by several groups, lines that silently join two groups, groups without rules
   that hide the ``*`` rules;
4. rules, within the merged rules of each agent: paths that never match, duplicates, and
   rules that can never decide because another rule matches *exactly* the same URLs and
   always outranks it (checked conservatively: patterns are compared after removing
   what cannot change the set of URLs they match, never by a guess);
5. reading modes (``parse(..., mode=...)``): rules that Google, RFC 9309 and legacy
   (1994/1996, ``urllib.robotparser``) readers take differently — wildcards, ``%XX``
   escapes, Google's index.html rule, and first-match order in the legacy records
   (:func:`robotsrules._rules._legacy.build`);
6. usage preferences, group by group (only when a group states any): a purpose stated
   both ways, a preference on paths the group's agents may not fetch, ``search=yes`` for
   agents disallowed from ``/``, preferences in the ``*`` group only (R605-R608); and
   purpose groups (draft-kelley-aipref-training-preference-signal) that only allow or that
   a usage line contradicts (R610, R611: for the tokens the shipped table records, none
   yet);
7. opt-out mistakes judged with the crawler registry (R210-R213, the same warnings
   :mod:`robotsrules._optout` gives ``robotsrules site``).

Every diagnostic has a code from :data:`CODES`, the one table that the documentation,
the SARIF output (``tool.driver.rules``) and the tests read. Codes never change meaning;
a retired code is never reused.

Positions: ``line`` is the physical line number (LF, CR and CRLF end lines, as the
parser counts them) and ``column`` is 1-based, counted in Unicode code points of the line
decoded as UTF-8 (an invalid byte counts as one), pointing at the offending text.

Content never raises: like :func:`robotsrules.parse`, any bytes give a list.
"""

from __future__ import annotations

from ._checks import lint
from ._codes import (
    CODES,
    FETCH_CODES,
    PURPOSE_GROUP_CODES,
    SEVERITIES,
    Code,
    Diagnostic,
    Severity,
    counts,
    diagnostic,
    help_text,
)

__all__ = [
    "CODES",
    "FETCH_CODES",
    "PURPOSE_GROUP_CODES",
    "SEVERITIES",
    "Code",
    "Diagnostic",
    "Severity",
    "counts",
    "diagnostic",
    "help_text",
    "lint",
]

# Records pickle under the documented module, whatever file defines them.
Code.__module__ = Diagnostic.__module__ = __name__
