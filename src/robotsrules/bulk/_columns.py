"""The column functions both engines register: Arrow arrays in, one Arrow array out.

:mod:`robotsrules.duckdb` registers each as a SQL function, :mod:`robotsrules.spark` as an
Arrow UDF; each engine only adds its own casts and its own cache per worker. A function
never raises for data (a ``null`` in, a ``null`` or a reason out); an invalid agent or
purpose is the query's mistake and raises.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Callable, NamedTuple, Optional

import pyarrow as pa

from .._tables._purposes import check_purposes
from ._bodies import BodyCache
from ._rows import fast_origin
from ._schemas import PAGE_SIGNALS_TYPE, STANCE_TYPE, VERDICT_TYPE, VERIFICATION_TYPE

__all__ = ["ColumnFunction", "column_functions", "struct_array"]


class ColumnFunction(NamedTuple):
    """One column function: its SQL name, its arguments, what it returns, and the code."""

    name: str
    arguments: tuple[str, ...]
    returns: pa.DataType
    function: Callable[..., pa.Array]


def struct_array(rows: Sequence[Optional[Sequence[Any]]], kind: pa.StructType) -> pa.StructArray:
    """Rows (a ``None`` row is a null struct) as an array of the struct type ``kind``."""
    fields = list(kind)
    arrays = [pa.array([None if row is None else row[i] for row in rows], field.type)
              for i, field in enumerate(fields)]
    mask = pa.array([row is None for row in rows], pa.bool_())
    return pa.StructArray.from_arrays(arrays, fields=fields, mask=mask)


LICENSE_URLS_TYPE = pa.list_(pa.string())
"""The type of ``robots_license_urls``."""
_LICENSE_MEANING = {"permitted": True, "licensed": False, "prohibited": False}


def _values(column: Any) -> list[Any]:
    return list(column.to_pylist())


def column_functions(cache: Callable[[], BodyCache]) -> list[ColumnFunction]:
    """The ``robots_*`` column functions, reading parsed files through ``cache()`` (each
    engine gives its own: one per thread, or per worker process).

    ==========================================  ===================================================
    function                                    result
    ==========================================  ===================================================
    ``robots_allowed(body, url, agent)``        may ``agent`` fetch ``url`` under this body?
    ``robots_line(body, url, agent)``           the line of the deciding rule (null: no rule)
    ``robots_verdict(body, status, url,         ``struct(allowed, line, reason)``, with the fetch
    agent)``                                    policy applied to ``status`` (null or 2xx: the
                                                body decides; 4xx: allow all; 429/5xx: disallow
                                                all)
    ``robots_origin(url)``                      ``scheme://host[:port]``, the robots.txt scope
                                                (null when the URL has none)
    ``robots_usage(body, url, agent,            the AI usage preference for ``purpose`` (null:
    purpose)``                                  nothing stated, or a URL the agent may not fetch)
    ``robots_stance(body, status, agent)``      the site's stance (:data:`~robotsrules.bulk.
                                                STANCE_TYPE`; null: null agent, or a null body
                                                with a null or 2xx status)
    ``robots_page(headers, html, agent)``       the page-level signals of a response
                                                (:data:`~robotsrules.bulk._schemas.PAGE_SIGNALS_TYPE`;
                                                ``headers``: the raw ``Name: value`` lines;
                                                ``html``: the body or its head; ``head_cut``:
                                                the head ran past the bytes read)
    ``robots_page_allows(headers, html,         the page's answer for ``purpose`` (null: not
    agent, purpose)``                           stated)
    ``robots_page_license_urls(headers, html,   the RSL licences the response names (``Link``
    url)``                                      header, HTML ``<link>``), resolved against
                                                ``url`` (null: null headers and html)
    ``robots_license_urls(body, agent)``        the RSL ``License`` URLs that apply to ``agent``
                                                (every one in the file, for every agent)
    ``robots_license(xml, url, purpose)``       what an RSL document says of ``url`` for
                                                ``purpose``: permitted, licensed, prohibited,
                                                unstated or unknown
    ``robots_license_allows(xml, url,           the same as a boolean (permitted: true;
    purpose)``                                  licensed or prohibited: false; else null)
    ``robots_verify(address, user_agent)``      is the visitor the crawler its User-Agent
                                                header claims? (:data:`~robotsrules.bulk.
                                                _schemas.VERIFICATION_TYPE`; the address lists
                                                only, no DNS; null: a null address or one that
                                                is no IP address; a null header: whose list
                                                holds the address)
    ==========================================  ===================================================
    """

    def allowed(body: pa.Array, url: pa.Array, agent: pa.Array) -> pa.Array:
        rows = cache().rows(_values(body), None, _values(url), _values(agent))
        return pa.array([r[0] for r in rows], pa.bool_())

    def line(body: pa.Array, url: pa.Array, agent: pa.Array) -> pa.Array:
        rows = cache().rows(_values(body), None, _values(url), _values(agent))
        return pa.array([r[1] for r in rows], pa.int32())

    def verdict(body: pa.Array, status: pa.Array, url: pa.Array, agent: pa.Array) -> pa.Array:
        return struct_array(cache().rows(_values(body), _values(status), _values(url),
                                         _values(agent)), VERDICT_TYPE)

    def origin(url: pa.Array) -> pa.Array:
        return pa.array([fast_origin(u) for u in _values(url)], pa.string())

    def usage(body: pa.Array, url: pa.Array, agent: pa.Array, purpose: pa.Array) -> pa.Array:
        return pa.array(cache().usage(_values(body), _values(url), _values(agent),
                                      _values(purpose)), pa.bool_())

    def stance(body: pa.Array, status: pa.Array, agent: pa.Array) -> pa.Array:
        return struct_array(cache().stances(_values(body), _values(status), _values(agent)),
                            STANCE_TYPE)

    def page(headers: pa.Array, html: pa.Array, agent: pa.Array) -> pa.Array:
        rows = [None if s is None else (s.index, s.follow, s.noai, s.tdm_reservation,
                                        s.head_cut)
                for s in _signals(headers, html, agent)]
        return struct_array(rows, PAGE_SIGNALS_TYPE)

    def page_allows(headers: pa.Array, html: pa.Array, agent: pa.Array, purpose: pa.Array
                    ) -> pa.Array:
        answers = [None if s is None or p is None else s.allows(check_purposes(p)[0])
                   for s, p in zip(_signals(headers, html, agent), _values(purpose))]
        return pa.array(answers, pa.bool_())

    def page_license_urls(headers: pa.Array, html: pa.Array, url: pa.Array) -> pa.Array:
        from .._page import license_urls, page_facts, read_response

        rows: list[Optional[list[str]]] = []
        for head, body, where in zip(_values(headers), _values(html), _values(url)):
            if head is None and body is None:
                rows.append(None)
                continue
            response = read_response(head, body, strict=False, sniff=True)  # a stranger's row
            facts = page_facts(response, where if isinstance(where, str) else None)
            rows.append(list(license_urls(facts.licenses)))
        return pa.array(rows, LICENSE_URLS_TYPE)

    def license_urls(body: pa.Array, agent: pa.Array) -> pa.Array:
        bodies = cache()
        rows: list[Optional[list[str]]] = []
        for text, name in zip(_values(body), _values(agent)):
            if text is None:
                rows.append(None)
                continue
            robots = bodies.get(text)
            rows.append(list(robots.licenses if name is None else robots.license_urls(name)))
        return pa.array(rows, LICENSE_URLS_TYPE)

    def license(xml: pa.Array, url: pa.Array, purpose: pa.Array) -> pa.Array:
        return pa.array(cache().documents().statuses(_values(xml), _values(url),
                                                     _values(purpose)), pa.string())

    def license_allows(xml: pa.Array, url: pa.Array, purpose: pa.Array) -> pa.Array:
        found = cache().documents().statuses(_values(xml), _values(url), _values(purpose))
        return pa.array([_LICENSE_MEANING.get(s) if s is not None else None for s in found],
                        pa.bool_())

    def verify(address: pa.Array, user_agent: pa.Array) -> pa.Array:
        visitors = _visitors()  # one per process: Spark pickles this function, not the memo
        visitors.batch()
        # A log repeats its visitors: each distinct pair of the batch is answered once, and
        # the rows are taken from those answers (no Python object per row but the pair).
        first: dict[tuple[Any, Any], int] = {}
        picks = [first.setdefault(pair, len(first))
                 for pair in zip(_values(address), _values(user_agent))]
        answers = struct_array([visitors.row(a, u) for a, u in first], VERIFICATION_TYPE)
        return answers.take(pa.array(picks, pa.int32()))

    return [
        ColumnFunction("robots_allowed", ("body", "url", "agent"), pa.bool_(), allowed),
        ColumnFunction("robots_line", ("body", "url", "agent"), pa.int32(), line),
        ColumnFunction("robots_verdict", ("body", "status", "url", "agent"), VERDICT_TYPE,
                       verdict),
        ColumnFunction("robots_origin", ("url",), pa.string(), origin),
        ColumnFunction("robots_usage", ("body", "url", "agent", "purpose"), pa.bool_(), usage),
        ColumnFunction("robots_stance", ("body", "status", "agent"), STANCE_TYPE, stance),
        ColumnFunction("robots_page", ("headers", "html", "agent"), PAGE_SIGNALS_TYPE, page),
        ColumnFunction("robots_page_allows", ("headers", "html", "agent", "purpose"),
                       pa.bool_(), page_allows),
        ColumnFunction("robots_page_license_urls", ("headers", "html", "url"),
                       LICENSE_URLS_TYPE, page_license_urls),
        ColumnFunction("robots_license_urls", ("body", "agent"), LICENSE_URLS_TYPE,
                       license_urls),
        ColumnFunction("robots_license", ("xml", "url", "purpose"), pa.string(), license),
        ColumnFunction("robots_license_allows", ("xml", "url", "purpose"), pa.bool_(),
                       license_allows),
        ColumnFunction("robots_verify", ("address", "user_agent"), VERIFICATION_TYPE, verify),
    ]


_VISITORS: list[_Visitors] = []
_VISITORS_LOCK = threading.Lock()


def _visitors() -> _Visitors:
    with _VISITORS_LOCK:
        if not _VISITORS:
            _VISITORS.append(_Visitors())
        return _VISITORS[0]


class _Visitors:
    """``robots_verify``'s rows: the address snapshot in force (see :meth:`batch`), each
    (address, header) answered once (a log repeats its visitors: a memo of at most ``size``
    pairs, dropped whole when full, as the package's other hot-path memos are), offline (no
    DNS: a column function must not wait on the network for each row). Thread-safe: a
    ``dict`` read or written once is atomic, and two threads answering one pair at once give
    the same row."""

    def __init__(self, size: int = 65_536) -> None:
        from .._identity import current_snapshot, verify
        from ..errors import InvalidArgument

        self._verify = verify
        self._current = current_snapshot
        self._invalid = InvalidArgument
        self._lists = current_snapshot()
        self._memo: dict[tuple[Any, Any], Optional[tuple[Any, ...]]] = {}
        self._size = size

    def batch(self) -> None:
        """Before each batch: the snapshot in force, read again when its file changed (the
        rule of :func:`robotsrules.verify`: a refreshed copy answers from the next batch);
        the memo dropped with the old snapshot."""
        lists = self._current()
        if lists is not self._lists:
            self._memo = {}
            self._lists = lists

    def row(self, address: Any, user_agent: Any) -> Optional[tuple[Any, ...]]:
        key = (address, user_agent)
        memo = self._memo
        if key in memo:
            return memo[key]
        if isinstance(address, bytes):
            address = address.decode("latin-1")
        if isinstance(user_agent, bytes):
            user_agent = user_agent.decode("latin-1")
        found: Optional[tuple[Any, ...]] = None
        if isinstance(address, str) and (user_agent is None or isinstance(user_agent, str)):
            try:
                answer = self._verify(address, user_agent, dns=False, snapshot=self._lists)
            except self._invalid:  # not an address: a stranger's row, never an error
                answer = None
            if answer is not None:
                held = answer.evidence[0]
                found = (answer.verdict, answer.token, answer.operator, answer.operator_only,
                         held.list, held.prefix, answer.stale, answer.reason)
        if len(memo) >= self._size:
            memo.clear()
        memo[key] = found
        return found


def _signals(headers: Any, html: Any, agent: Any) -> list[Any]:
    """The page signals of each row (``None`` for a ``null`` agent): the page layer's one
    reader takes a raw block (folded lines too), bytes, a MAP or a LIST of name/value
    structs alike, and a stranger's rows never raise. The body is read as the admission step
    reads it: HTML by its ``Content-Type``, else sniffed (``sniff``)."""
    from .._page import page_signals_for

    return [None if name is None else page_signals_for(head, body, [name], strict=False,
                                                       sniff=True)[0]
            for head, body, name in zip(_values(headers), _values(html), _values(agent))]
