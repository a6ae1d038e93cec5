"""Bulk verdicts over Arrow data: many URLs, many sites, several agents, the core's answers.

This is the engine-independent heart of ``robotsrules bulk``; :mod:`robotsrules.duckdb` and
:mod:`robotsrules.spark` are thin drivers of it. It needs ``pyarrow`` (extra ``bulk``) and
nothing else outside the core.

Theory of operation. Two tables come in:

* the *robots table*: one row per capture of a site's robots.txt, columns ``url`` (any URL of
  the site, usually its robots.txt URL), ``body`` (bytes or text), optional ``status`` (the
  HTTP status of the answer) and optional ``date`` (when it was fetched);
* the *URL table*: column ``url``, streamed in Arrow record batches.

Each URL is keyed by its origin with :func:`robotsrules._scope.origin_of` (scheme and host
lower-cased, punycode, default port dropped: the robots.txt scope of RFC 9309 §2.3), which
picks the one robots row of that origin; each robots row is turned into rules once per worker
(a bounded LRU of parsed files) and every URL and agent becomes one output row:

==========  ======  ============================================================================
column      type    meaning
==========  ======  ============================================================================
url         string  the URL as given
agent       string  the agent as given (``GPTBot``)
allowed     bool    the verdict; ``null`` when it cannot be known (see ``reason``)
line        int32   line number (1-based) of the robots.txt rule that decided; ``null`` when no
                    rule decided (no rule matches, no group, ``/robots.txt``, or a status/
                    missing-file outcome below)
reason      string  the core's :attr:`Verdict.reason <robotsrules.Verdict.reason>` or one of
                    :data:`NO_ROBOTS`, :data:`INVALID_URL`
origin      string  ``scheme://host[:port]`` of the URL; ``null`` for an invalid URL
==========  ======  ============================================================================

With ``purposes`` (``("ai-train", ...)``, names of :data:`robotsrules._tables._purposes.PURPOSES`),
one nullable boolean column per purpose follows, named with ``-`` as ``_`` (``ai_train``):
``robots.usage(url, agent=agent).allows(purpose)`` from the same parsed file (``null``: nothing
stated, no robots row, an invalid URL, or a URL the agent may not fetch; see
:meth:`RobotsTxt.usage <robotsrules.RobotsTxt.usage>`).

The verdict of a row equals the core's, row for row:

* ``status`` absent (``null``) or 2xx: ``parse(body).explain(url, agent=agent)``;
* another status: the fetch policy's outcome (:func:`robotsrules.policy.outcome_for_status`):
  4xx except 429 (and a 3xx, a redirect nobody followed) mean *unavailable*, everything allowed
  (reason ``allow-all``); 429 and 5xx mean *unreachable*, everything disallowed (reason
  ``disallow-all``); ``line`` is ``null`` for both;
* an origin with no robots row: nothing is known about its robots.txt (RFC 9309 says a crawler
  must fetch it first), so by default ``allowed`` is ``null`` with reason ``no-robots``;
  ``missing="allow"`` or ``"disallow"`` chooses a verdict instead (the reason stays);
* a URL that has no robots.txt scope (not ``http``, ``https`` or ``ftp``, no host, garbage):
  ``allowed`` and ``origin`` ``null``, reason ``invalid-url``. Bulk input is data, so this
  never raises; only an invalid *agent* (the caller's choice) raises
  :class:`~robotsrules.InvalidAgent`.

Without a URL table, :func:`stances` gives one row per site and agent
(:data:`STANCE_SCHEMA`): whether the site's robots.txt disallows all, none or some of its
paths for the agent (:meth:`RobotsTxt.stance <robotsrules.RobotsTxt.stance>`), with the
deciding lines and example paths, and whether robots.txt can stop the agent at all
(``stoppable``, from the crawler registry: :func:`agent_stoppable`).

Every schema here carries :func:`provenance` as Arrow key-value metadata: the versions of
robotsrules and of its data tables (the crawler registry's version and compiled date among
them), so the batches and tables the bulk functions return, and the Parquet files the CLI
writes, say what judged them (:func:`with_provenance`).

Several robots rows for one origin: :func:`rank` picks one, the same in every engine: the
newest ``date`` wins (rows without a usable date are older than any dated row; dates are
read by one reader, :func:`robotsrules._dates.utc`, here, in WARC files and in page rules);
ties are broken by the larger body, then the larger status.

The package has the shape of the core, one concept a module: the schemas and the engines'
types generated from them (``_schemas``), reading rows and the ranking (``_rows``), the
index (``_index``), the judging step (``_judge``) and its any-agent fold (``_any``), the file
in force at a date (``_asof``), stances (``_stances``), page signals (``_pages``), the parse
cache of body-per-row functions (``_bodies``) and the column functions both engines register
(``_columns``).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from ..errors import MissingExtra

with MissingExtra.guard("robotsrules.bulk", "bulk"):
    import pyarrow  # noqa: F401

from ._any import any_agent
from ._asof import RobotsHistory, as_of_verdicts
from ._index import RobotsIndex
from ._judge import any_agent_verdicts, verdicts
from ._pages import DEFAULT_PAGE_BATCH_ROWS, page_batches
from ._rows import DEFAULT_CACHE_SIZE, DEFAULT_POLICY, rank
from ._schemas import (
    ANY_AGENT_SCHEMA,
    INVALID_URL,
    MISSING,
    NO_ROBOTS,
    PAGE_SCHEMA,
    STANCE_SCHEMA,
    TOO_COMPLEX,
    VERDICT_SCHEMA,
    Key,
    Missing,
    page_schema,
    provenance,
    verdict_schema,
    with_provenance,
)
from ._stances import agent_stoppable, stances

__all__ = [
    "ANY_AGENT_SCHEMA",
    "DEFAULT_CACHE_SIZE",
    "DEFAULT_PAGE_BATCH_ROWS",
    "DEFAULT_POLICY",
    "INVALID_URL",
    "MISSING",
    "NO_ROBOTS",
    "PAGE_SCHEMA",
    "STANCE_SCHEMA",
    "TOO_COMPLEX",
    "VERDICT_SCHEMA",
    "Key",
    "Missing",
    "RobotsHistory",
    "RobotsIndex",
    "agent_stoppable",
    "any_agent",
    "any_agent_verdicts",
    "as_of_verdicts",
    "page_batches",
    "page_schema",
    "provenance",
    "rank",
    "stances",
    "verdict_schema",
    "verdicts",
    "with_provenance",
]

_MOVED = {
    "ALLOWED": "._any",
    "FILE_FORMATS": "._schemas",
    "KEYS": "._schemas",
    "PAGE_SIGNALS_TYPE": "._schemas",
    "RANKING": "._rows",
    "SORTED_COLUMNS": "._schemas",
    "STANCE_SORTED_COLUMNS": "._schemas",
    "STANCE_TYPE": "._schemas",
    "VERDICT_TYPE": "._schemas",
    "AnyRow": "._any",
    "BodyCache": "._bodies",
    "ColumnFunction": "._columns",
    "FileFormat": "._schemas",
    "Judge": "._judge",
    "ParsedCache": "._rows",
    "Rank": "._rows",
    "RobotsRow": "._rows",
    "Row": "._rows",
    "StanceRow": "._stances",
    "any_verdict": "._any",
    "check_agents": "._rows",
    "check_purposes": ".._tables._purposes",
    "check_stance_mode": "._stances",
    "column_functions": "._columns",
    "fast_origin": "._rows",
    "file_format": "._schemas",
    "first_disallowed": "._any",
    "host_key": "._rows",
    "judge_sorted": "._judge",
    "judge_sorted_any": "._judge",
    "missing_any": "._any",
    "missing_verdict": "._schemas",
    "robots_for": "._rows",
    "spark_ddl": "._schemas",
    "spark_type": "._schemas",
    "sql_type": "._schemas",
    "stance_row": "._stances",
    "stances_sorted": "._stances",
    "struct_array": "._columns",
    "usage_of": "._rows",
    "verdict_of": "._rows",
}
"""Names this module exported before :data:`__all__` was cut to the user's API (the engines'
plumbing, now imported from the private modules named): still importable here, with a
:class:`DeprecationWarning`, for one release."""


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"robotsrules.bulk.{name} is deprecated: it is no longer part of the bulk "
                  f"API and goes in the next release", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(module, __name__), name)
