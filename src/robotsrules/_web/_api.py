"""The JSON service (``robotsrules serve --api``, issue 41): the library's answers over HTTP.

Theory of operation. Each endpoint under ``/v1/`` takes one JSON object and answers one JSON
object whose records are, field for field, what the command's ``--json`` prints (the
records are built by the same functions, :mod:`robotsrules._tables._words` and
:mod:`robotsrules.linter`): ``check`` (one record per URL and agent, as ``check --json``'s
lines), ``explain`` (``explain --json``), ``lint`` (``lint --format json``), ``usage``
(``usage --json``), ``stance`` (``stance --json``), ``verify`` (``verify --json``, reverse
DNS only when asked), ``verify-request`` (``verify --request FILE --json``), ``page``
(``page FILE --json``: given header fields and the start of a body, with the site's
robots.txt when given), ``license`` (``license --json``: an RSL document or a robots.txt
given, or a URL fetched through the address guard) and ``generate`` (``generate --json``).

``check`` without a ``robots`` body reads each URL's own site's robots.txt through one
:class:`~robotsrules._fetch._robotscache.RobotsCache` (the store the server was given:
memory, SQLite or Redis) whose client is the fetch layer's address guard, so a URL naming a
loopback, private, link-local or metadata address is answered with an error record naming
the refusal (code ``address-refused``), never with the status rules' "unreachable" reading.

Every refusal is a JSON object ``{"error": {"code": ..., "message": ...}}`` with a stable
code (:data:`ERROR_CODES`) and an HTTP status; no answer carries a stack trace (an
unexpected error is ``internal-error``, logged on the ``robotsrules`` logger). The limits
in force (:class:`Limits`) bound the body, the URLs, the agents, URLs x agents, the time of
each fetch and each client's requests (a token bucket: ``429`` with ``Retry-After``). The
service sets no cookie and reads no form, so it needs no CSRF token; the ``Host`` check of
the page applies, widened by the names a load balancer forwards (``allowed_hosts``); with a
token, every ``/v1/`` request carries ``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import concurrent.futures
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import ipaddress
import json
import logging
import math
import os
import re
import threading
import time
import urllib.parse
from typing import Any, Callable, NamedTuple, Optional, Union

import httpx

from .._fetch._pinned import REFUSED, AddressRefused, Guard, GuardedClient, vetted
from .._fetch._robotscache import RobotsCache
from .._fetch._sign import Sign
from .._lru import LRU
from .._page import DEFAULT_HEAD_BYTES
from .._rules._agents import agent_tokens
from .._rules._urls import match_target
from .._scope import origin_of
from .._tables._crawlers import crawler_for
from .._tables._purposes import revision
from .._tables._words import (
    fetch_json,
    generate_json,
    license_json,
    page_report,
    stance_report,
    usage_report,
    verdict_json,
)
from .._terminal import visible
from .._version import __version__
from ..cache import MemoryStore, Store
from ..errors import InvalidArgument, InvalidURL, MissingExtra, RobotsError
from ..policy import Served
from ..robotstxt import DEFAULT_MAX_BYTES, RobotsTxt, parse
from ._app import ASGI, Guarded
from ._generator import MAX_PATHS, MAX_SITEMAPS, MAX_TOKENS
from ._tester import MAX_CELLS, MAX_STANCE_RULES

with MissingExtra.guard("robotsrules serve --api", "web"):
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route
with MissingExtra.guard("robotsrules serve --api", "web"):
    import orjson
with MissingExtra.guard("robotsrules serve --api", "web"):
    from prometheus_client import (
        CONTENT_TYPE_LATEST,
        CollectorRegistry,
        Counter,
        Histogram,
        generate_latest,
    )

__all__ = ["ERROR_CODES", "MODELS", "NO_STORE", "PURE", "REVALIDATE", "Limits", "create_api",
           "matches", "openapi"]

log = logging.getLogger("robotsrules")
access = logging.getLogger("robotsrules.access")
"""One JSON line per ``/v1/`` request: time, client address, method, path, status, seconds,
answer size; never a body or a header."""

ERROR_CODES = {
    "bad-json": 400, "bad-request": 422, "unauthorized": 401, "not-found": 404,
    "method-not-allowed": 405, "body-too-large": 413, "too-many-urls": 422,
    "too-many-agents": 422, "too-many-cells": 422, "too-many-choices": 422, "host-refused": 421,
    "rate-limited": 429, "not-modified": 412, "internal-error": 500, "shutting-down": 503,
    "too-many-sites": 422, "too-much-work": 422, "answer-too-large": 422,
    "origin-refused": 403, "refresh-too-soon": 429,
    "address-refused": 200, "not-a-url": 200, "robots-error": 200,
    "deadline-exceeded": 200, "over-budget": 200,
}
"""Every error code the service answers, with its HTTP status (200: an error record of one
URL inside a batch's answer, the other URLs answered)."""

_BY_STATUS = {421: "host-refused", 413: "body-too-large", 404: "not-found",
              405: "method-not-allowed", 400: "bad-json", 401: "unauthorized"}
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]

# Cache-Control per answer (RFC 9111, June 2022, §5.2.2): an answer computed from the
# request body alone is the same for the same body from the same server version, so the
# caller may keep it a day (then revalidate with If-None-Match); one that read a fetched
# file may be kept while that file is (RFC 9309 §2.4's caching, the store's expiry);
# what changes with each request (a fetched licence, DNS, replay memory, metrics) is
# revalidated or never stored; an error is never stored.
PURE = "private, max-age=86400"
REVALIDATE = "private, no-cache"
NO_STORE = "no-store"


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits in force, each a positive finite number (else
    :class:`~robotsrules.errors.InvalidArgument`); each refusal is an error with a stable
    code: ``max_body`` octets of a request body (``body-too-large``); ``max_urls`` URLs,
    ``max_agents`` agents and ``max_cells`` URLs x agents per request (``too-many-urls``,
    ``too-many-agents``, ``too-many-cells``; the page's bound by default);
    ``max_sites`` distinct sites whose robots.txt one ``check`` fetches
    (``too-many-sites``), ``fetch_concurrency`` of them at once, all within
    ``check_deadline`` seconds (a site still being fetched then: a ``deadline-exceeded``
    record per URL); ``max_work`` rules x answers per request (``too-much-work``, or an
    ``over-budget`` record per URL past it for fetched files; ``page``: the octets of its
    header fields x agents, and the directives one agent's answer reports x agents) and
    ``max_stance_rules``
    rules settled by ``stance`` (the page's bound); ``max_answer`` octets of an answer
    (``answer-too-large``; ``page``: one agent's answer x agents, refused before the other
    agents' answers are made); ``fetch_timeout`` seconds per network step of a robots.txt
    fetch; ``refresh_interval`` seconds between two refreshes of one site
    (``refresh-too-soon``); per client, ``rate`` requests a second on average and
    ``burst`` at once (the token bucket: ``rate-limited``)."""

    max_body: int = 1024 * 1024
    max_urls: int = 1_000
    max_agents: int = 50
    max_cells: int = MAX_CELLS
    max_sites: int = 100
    max_work: int = 5_000_000
    max_stance_rules: int = MAX_STANCE_RULES
    max_answer: int = 8 * 1024 * 1024
    fetch_timeout: float = dataclasses.field(default=10.0, metadata={"unit": "seconds"})
    fetch_concurrency: int = 8
    check_deadline: float = dataclasses.field(default=60.0, metadata={"unit": "seconds"})
    refresh_interval: float = dataclasses.field(default=60.0, metadata={"unit": "seconds"})
    rate: float = 50.0
    burst: int = 100

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not (math.isfinite(value) and value > 0)):
                raise InvalidArgument(f"Limits.{field.name} must be a positive finite "
                                      f"number, not {value!r}")

    def as_json(self) -> dict[str, Any]:
        """The limits as JSON (``/v1/limits`` and ``/openapi.json``)."""
        return dataclasses.asdict(self)


class _Problem(Exception):
    """A refusal: an error code and a message (safe to show: no stranger's control
    characters, since JSON escapes them)."""

    def __init__(self, code: str, message: str, retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.code, self.message, self.retry_after = code, message, retry_after


class _Answer(NamedTuple):
    """An endpoint's answer with its own ``Cache-Control`` (instead of the endpoint's)."""

    payload: Any
    cache: str


def _dumps(payload: Any) -> bytes:
    """``payload`` as compact UTF-8 JSON: orjson's octets, which are those of ``json.dumps``
    with ``ensure_ascii=False`` and no spaces for the strings, integers, booleans and nulls
    the answers hold; what orjson refuses (an integer beyond 64 bits, a key that is not a
    string, a lone surrogate) goes the standard library's way, as before."""
    try:
        return orjson.dumps(payload)
    except TypeError:
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def _json(payload: Any, status: int = 200, headers: Optional[dict[str, str]] = None,
          cache: str = NO_STORE) -> Response:
    """A JSON answer; a 200 one carries a strong ``ETag``: a digest of its octets."""
    body = _dumps(payload)
    given = {**(headers or {}), "cache-control": cache if status == 200 else NO_STORE}
    if status == 200:
        given["etag"] = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return Response(body, status_code=status, media_type="application/json",
                    headers=given)


_ENTITY_TAG = re.compile(r'[ \t]*(?:W/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*(?:,|$)')


def matches(if_none_match: list[str], etag: str) -> bool:
    """Whether ``If-None-Match`` field lines name ``etag`` (RFC 9110, June 2022, §13.1.2):
    ``*`` matches any current answer; otherwise a list of entity tags (§8.8.3) compared by
    the weak comparison (§8.8.3.2: ``W/"x"`` matches ``"x"``). A line that is not such a
    list is ignored (the full answer is sent: never a 304 for what was not asked)."""
    for line in if_none_match:
        line = line.strip(" \t")
        if line == "*":
            return True
        at, tags = 0, list[str]()
        while at < len(line):
            found = _ENTITY_TAG.match(line, at)
            if found is None or found.end() == at:
                tags = []
                break
            tags.append(found.group(1))
            at = found.end()
        if etag.removeprefix("W/") in tags:
            return True
    return False


def _conditional(request: Request, response: Response) -> Response:
    """``response``, or, when the request's ``If-None-Match`` names its ``ETag`` (RFC 9110
    §13.1.2), ``304 Not Modified`` without a body for GET and HEAD, and ``412
    Precondition Failed`` (``not-modified``) for a POST, as the RFC asks of other methods;
    both carry the ``ETag`` and ``Cache-Control`` the answer had."""
    etag = response.headers.get("etag")
    asked = request.headers.getlist("if-none-match")
    if response.status_code != 200 or etag is None or not asked or not matches(asked, etag):
        return response
    kept = {"etag": etag, "cache-control": response.headers["cache-control"]}
    if request.method in ("GET", "HEAD"):
        return Response(status_code=304, headers=kept)
    refused = _error("not-modified", "the answer has not changed: its ETag matches "
                                     "If-None-Match")
    refused.headers.update(kept)
    return refused


def _error(code: str, message: str, retry_after: Optional[int] = None) -> Response:
    headers = {} if retry_after is None else {"retry-after": str(retry_after)}
    return _json({"error": {"code": code, "message": message}}, ERROR_CODES[code], headers)


def _refusal(status: int, message: str) -> Response:
    return _error(_BY_STATUS.get(status, "bad-request"), message)


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "-"


Networks = tuple[Union[ipaddress.IPv4Network, ipaddress.IPv6Network], ...]


def _unmapped(address: Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
              ) -> Union[ipaddress.IPv4Address, ipaddress.IPv6Address]:
    """An IPv4-mapped IPv6 address (``::ffff:a.b.c.d``, how a dual-stack socket shows an
    IPv4 peer) as the IPv4 address it carries; any other address as it is."""
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return address if mapped is None else mapped


def _caller(request: Request, trusted: Networks) -> str:
    """Whose bucket a request takes from: the peer's address or, when the peer is a trusted
    proxy (``trusted``), the last address of ``X-Forwarded-For`` (the one that proxy
    added); an IPv6 address by its /64 (what one subscriber is usually given)."""
    peer = _client(request)
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return peer
    address = _unmapped(address)
    if any(address in network for network in trusted):
        forwarded = ",".join(request.headers.getlist("x-forwarded-for"))
        with contextlib.suppress(ValueError):  # none, or not an address: the proxy's own
            address = _unmapped(ipaddress.ip_address(forwarded.rsplit(",", 1)[-1].strip()))
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class _Metrics:
    """The service's Prometheus metrics, in a registry of its own (one per application)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("robotsrules_api_requests", "requests answered",
                                ["path", "status"], registry=self.registry)
        self.latency = Histogram("robotsrules_api_request_seconds", "time to answer",
                                 ["path"], registry=self.registry)
        self.lookups = Counter("robotsrules_api_cache_lookups", "robots.txt looked up in "
                               "the cache: hit, or fetched", ["result"], registry=self.registry)
        self.outcomes = Counter("robotsrules_api_fetches", "robots.txt fetches by outcome",
                                ["outcome"], registry=self.registry)


class _Buckets:
    """A token bucket per client address, for at most 100,000 clients (least recently
    seen forgotten)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: LRU[str, tuple[float, float]] = LRU(100_000)
        self._lock = threading.Lock()

    def take(self, client: str) -> Optional[int]:
        """None when ``client`` may go on; else the seconds to wait (``Retry-After``)."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.get(client) or (float(self.burst), now)
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets.put(client, (tokens, now))
                return max(1, math.ceil((1.0 - tokens) / self.rate))
            self._buckets.put(client, (tokens - 1.0, now))
            return None


@dataclasses.dataclass(frozen=True)
class _Field:
    """One field of a request body: the model both the endpoint reads and ``/openapi.json``
    states."""

    name: str
    kind: str  # "string", "strings" (a list of strings; one string reads as a list of one),
    # "boolean", "integer", "object", "headers" (name to value) or "header-list" (that, or
    # a list of [name, value] pairs: a header field repeated)
    required: bool
    about: str


_ROBOTS = _Field("robots", "string", True, "the robots.txt file's text")
_AGENTS = _Field("agents", "strings", True, "product tokens or User-Agent strings")
MODELS: dict[str, tuple[_Field, ...]] = {
    "check": (_Field("urls", "strings", True, "URLs (or paths, with 'robots')"), _AGENTS,
              dataclasses.replace(_ROBOTS, required=False,
                                  about="the robots.txt for every URL; absent: each URL's own "
                                        "site's, fetched and cached"),
              _Field("explain", "boolean", False, "add the deciding line, the groups and "
                                                  "the usage lines"),
              _Field("robots_base64", "string", False, "the robots.txt file's octets in "
                                                       "base64 (instead of 'robots': a file "
                                                       "that is not UTF-8)")),
    "explain": (_ROBOTS, _Field("url", "string", True, "the URL or path"), _AGENTS),
    "lint": (_ROBOTS,),
    "usage": (_ROBOTS, _AGENTS, _Field("urls", "strings", False, "URLs (default '/')"),
              _Field("aipref_revision", "string", False,
                     "the draft-ietf-aipref-vocab revision to read the categories in")),
    "stance": (_ROBOTS, _AGENTS),
    "cache/purge": (_Field("url", "string", True, "a URL of the site whose cached "
                                                  "robots.txt is forgotten"),),
    "cache/refresh": (_Field("url", "string", True, "a URL of the site whose robots.txt is "
                                                    "fetched again now"),),
    "verify": (_Field("address", "string", True, "the visitor's IP address"),
               _Field("user_agent", "string", False, "the visitor's User-Agent header"),
               _Field("agent", "string", False, "the product token claimed (instead of "
                                                "user_agent)"),
               _Field("dns", "boolean", False, "also forward-confirmed reverse DNS "
                                               "(default false: the address lists alone)")),
    "verify-request": (_Field("method", "string", True, "the request's method"),
                       _Field("url", "string", True, "the full URL the request was sent to"),
                       _Field("headers", "headers", True, "the request's header fields, "
                                                          "name to value")),
    "page": (_Field("headers", "header-list", False, "the response's header fields: name "
                                                     "to value, or [name, value] pairs"),
             _Field("body", "string", False, "the start of the response's body as text "
                                             "(content-decoded), read as UTF-8; at most "
                                             f"{DEFAULT_HEAD_BYTES:,} octets of it are read"),
             _AGENTS, _Field("purposes", "strings", False, "purposes to answer (default "
                                                          "search, ai-input, ai-train)"),
             _Field("url", "string", False, "the page's URL (default '/')"),
             _Field("status", "integer", False, "the response's HTTP status"),
             dataclasses.replace(_ROBOTS, required=False,
                                 about="the site's robots.txt: its usage lines combined "
                                       "with the page's")),
    "license": (_Field("document", "string", False, "an RSL licence document (XML), or a "
                                                    "robots.txt whose License lines are "
                                                    "followed"),
                _Field("source", "string", False, "instead of 'document', a URL fetched "
                                                  "through the address guard: a licence "
                                                  "document's, a robots.txt's or a site's"),
                _Field("urls", "strings", False, "URLs (or /paths) to answer for"),
                dataclasses.replace(_AGENTS, required=False,
                                    about="the crawlers to answer for (default '*')"),
                _Field("purposes", "strings", False, "RSL usage tokens or purposes "
                                                     "(default every RSL usage token)"),
                _Field("user", "string", False, "who uses the content: commercial, "
                                                "non-commercial, education, government or "
                                                "personal"),
                _Field("geo", "string", False, "where: an ISO 3166-1 alpha-2 code or EU"),
                _Field("origin", "string", False, "the site the document is for (<content "
                                                  "url> values on other origins ignored)")),
    "generate": (_Field("policy", "object", True, "the choices, as a policy file's data "
                                                  "(generate --policy)"),
                 _Field("from", "string", False, "a robots.txt to merge into")),
}
"""Each endpoint's request fields."""


_ERROR_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["error"], "additionalProperties": False,
    "properties": {"error": {
        "type": "object", "required": ["code", "message"], "additionalProperties": False,
        "properties": {"code": {"type": "string", "enum": sorted(ERROR_CODES)},
                       "message": {"type": "string"}}}}}
_NULLABLE = {"type": ["string", "null"]}
_CHECK_RECORD: dict[str, Any] = {
    "type": "object", "required": ["url", "agent", "allowed", "reason", "scope", "target",
                                   "fetch"],
    "properties": {
        "url": {"type": "string"}, "agent": {"type": "string"},
        "allowed": {"type": "boolean"}, "reason": {"type": "string"},
        "scope": {"type": "string"}, "target": {"type": "string"},
        "rule": {"type": ["object", "null"]}, "groups": {"type": "array"},
        "usage": {"type": "array"},
        "fetch": {"type": "object", "required": ["source", "outcome", "served", "cached"],
                  "properties": {"source": {"type": "string"}, "outcome": {"type": "string"},
                                 "status": {"type": ["integer", "null"]},
                                 "error": _NULLABLE, "served": {"type": "string"},
                                 "cached": {"type": "boolean"}, "fetched_at": _NULLABLE,
                                 "expires_at": _NULLABLE}}}}
_URL_ERROR: dict[str, Any] = {
    "type": "object", "required": ["url", "error"], "additionalProperties": False,
    "properties": {"url": {"type": "string"}, "error": _ERROR_SCHEMA["properties"]["error"]}}
_ANSWERS: dict[str, dict[str, Any]] = {
    "check": {"type": "object", "required": ["results"], "additionalProperties": False,
              "properties": {"results": {"type": "array",
                                         "items": {"oneOf": [_CHECK_RECORD, _URL_ERROR]}}}},
    "explain": {"type": ["object", "array"],
                "description": "explain --json's object (a list for several agents)"},
    "lint": {"type": "object", "description": "lint --format json's object"},
    "usage": {"type": ["object", "array"],
              "description": "usage --json's object (a list for several agents)"},
    "stance": {"type": "object", "description": "stance --json's object"},
    "verify": {"type": "object", "description": "verify --json's object"},
    "cache/purge": {"type": "object", "description": "the origin forgotten"},
    "cache/refresh": {"type": "object", "description": "the origin and its fetch record"},
    "verify-request": {"type": "object", "description": "verify --request --json's object"},
    "page": {"type": ["object", "array"],
             "description": "page --json's object (a list for several agents)"},
    "license": {"type": ["object", "array"],
                "description": "license --json's object (a list for several agents)"},
    "generate": {"type": "object", "description": "generate --json's object"},
}


def openapi(limits: Limits) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the service, from the endpoints' field models
    (:data:`MODELS`), with the limits in force (``maxItems``, ``x-limits``)."""
    bound = {"urls": limits.max_urls, "agents": limits.max_agents}

    def schema(field: _Field) -> dict[str, Any]:
        names = {"type": "object", "additionalProperties": {"type": "string"}}
        if field.kind == "headers":
            return {**names, "description": field.about}
        if field.kind == "header-list":
            pair = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
            return {"description": field.about, "oneOf": [
                names, {"type": "array", "items": pair, "maxItems": _MAX_HEADERS}]}
        if field.kind == "integer":
            return {"type": "integer", "minimum": 100, "maximum": 599,
                    "description": field.about}
        if field.kind == "strings":
            return {"description": field.about, "oneOf": [
                {"type": "array", "items": {"type": "string"},
                 "maxItems": bound.get(field.name, limits.max_urls)}, {"type": "string"}]}
        return {"type": field.kind, "description": field.about}

    def refusals(*codes: str) -> dict[str, Any]:
        statuses = sorted({ERROR_CODES[code] for code in codes})
        return {str(status): {"description": ", ".join(c for c in codes
                                                       if ERROR_CODES[c] == status),
                              "content": {"application/json": {"schema": _ERROR_SCHEMA}}}
                for status in statuses}

    common = ("bad-json", "bad-request", "unauthorized", "body-too-large", "too-many-urls",
              "too-many-agents", "too-many-cells", "host-refused", "rate-limited",
              "too-many-choices", "not-modified", "internal-error", "shutting-down",
              "too-many-sites", "too-much-work", "answer-too-large", "origin-refused",
              "refresh-too-soon")
    paths: dict[str, Any] = {}
    for name, fields in MODELS.items():
        paths[f"/v1/{name}"] = {"post": {
            "operationId": name.replace("-", "_").replace("/", "_"),
            "summary": (f"the records of robotsrules {name} --json" if "/" not in name
                        else f"{name.split('/')[1]} one site's cached robots.txt"),
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": [f.name for f in fields if f.required],
                "properties": {f.name: schema(f) for f in fields}}}}},
            "responses": {"200": {"description": "the answer",
                                  "content": {"application/json": {
                                      "schema": _ANSWERS[name]}}},
                          **refusals(*common)}}}
    for path, about in (("/healthz", "the process serves"),
                        ("/readyz", "the cache's store answers (503 when not)"),
                        ("/v1/limits", "the limits in force"),
                        ("/openapi.json", "this description")):
        paths[path] = {"get": {"summary": about, "responses": {"200": {
            "description": about, "content": {"application/json": {
                "schema": {"type": "object"}}}},
            "304": {"description": "If-None-Match names the answer's ETag (no body)"}}}}
    stated = ", ".join(f"{key} {value}" for key, value in limits.as_json().items())
    return {"openapi": "3.1.0",
            "info": {"title": "robotsrules", "version": __version__,
                     "description": "robots.txt read as Google's library and RFC 9309 do. "
                                    f"Limits in force: {stated}."},
            "x-limits": limits.as_json(), "paths": paths}


def _read(body: dict[str, Any], fields: tuple[_Field, ...]) -> dict[str, Any]:
    """The fields of ``body`` checked against their model (absent optional ones None)."""
    values: dict[str, Any] = {}
    for field in fields:
        value = body.get(field.name)
        if value is None:
            if field.required:
                raise _Problem("bad-request", f"'{field.name}' is required ({field.about})")
        elif field.kind == "string" and not isinstance(value, str):
            raise _Problem("bad-request", f"'{field.name}' must be a string")
        elif field.kind == "boolean" and not isinstance(value, bool):
            raise _Problem("bad-request", f"'{field.name}' must be true or false")
        elif field.kind == "integer" and not (
                type(value) is int and 100 <= value <= 599):
            raise _Problem("bad-request", f"'{field.name}' must be an HTTP status (100-599)")
        elif field.kind == "object" and not isinstance(value, dict):
            raise _Problem("bad-request", f"'{field.name}' must be an object")
        elif field.kind in ("headers", "header-list"):
            value = _headers(field, value)
        elif field.kind == "strings":
            value = [value] if isinstance(value, str) else value
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _Problem("bad-request", f"'{field.name}' must be a list of strings")
            if field.required and not value:
                raise _Problem("bad-request", f"'{field.name}' must name at least one")
        values[field.name] = value
    return values


_MAX_LICENCES = 10
"""Licence documents a robots.txt given to ``license`` may name (each is fetched)."""
_MAX_HEADERS = 1_000
"""Header fields of one ``page`` request at most."""


def _headers(field: _Field, value: Any) -> Any:
    """A ``headers`` field (name to value) or a ``header-list`` one (that, or [name, value]
    pairs, in order), checked; the latter as a list of pairs."""
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return value if field.kind == "headers" else list(value.items())
    if field.kind == "header-list" and isinstance(value, list) and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p)
            for p in value):
        if len(value) > _MAX_HEADERS:
            raise _Problem("bad-request", f"'{field.name}': at most {_MAX_HEADERS:,} "
                                          "header fields")
        return [(name, text) for name, text in value]
    more = ", or a list of [name, value] pairs" if field.kind == "header-list" else ""
    raise _Problem("bad-request", f"'{field.name}' must be an object of header names to "
                                  f"string values{more}")


def _octets(text: str, name: str) -> bytes:
    """``text`` as UTF-8 (a lone surrogate, which JSON can spell, is the caller's mistake)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise _Problem("bad-request", f"'{name}' holds a lone surrogate") from None


_REACHED = 100_000
"""Origins remembered as reached by the service's own guarded client."""
_MEMO_FILES = 64
_MEMO_TEXT = 128 * 1024
"""The memo of parsed request bodies: at most 64 files of at most 128 KiB of text each."""


def _is_url(url: str) -> bool:
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (a port out of range or not a number raises)
    except ValueError:  # "http://[x": no URL
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _rules(robots: RobotsTxt) -> int:
    """The rules a verdict may read (at least 1: the work of one answer)."""
    return 1 + sum(len(group.rules) for group in robots.groups)


def _robots_text(values: dict[str, Any], parsed: Callable[[str], RobotsTxt]
                 ) -> Optional[RobotsTxt]:
    """The file of ``robots`` (read by ``parsed``) or ``robots_base64`` (at most one
    given), or ``None``."""
    text, encoded = values["robots"], values["robots_base64"]
    if encoded is None:
        return None if text is None else parsed(text)
    if text is not None:
        raise _Problem("bad-request", "give 'robots' or 'robots_base64', not both")
    try:
        return parse(base64.b64decode(encoded, validate=True))
    except binascii.Error:
        raise _Problem("bad-request", "'robots_base64' is not base64") from None


class _Service:
    """The endpoints' state: the limits, the cache and how to fetch."""

    def __init__(self, limits: Limits, store: Store, user_agent: str,
                 allow_private_addresses: bool, sign: Optional[Sign], guard: Optional[Guard],
                 metrics: _Metrics, clock: Callable[[], float]) -> None:
        self.metrics = metrics
        self.limits = limits
        self.store = store
        self.allow_private_addresses = allow_private_addresses
        self.guard = guard or Guard(allow_private_addresses=allow_private_addresses)
        client = GuardedClient(self.guard, timeout=httpx.Timeout(limits.fetch_timeout))
        self._reached: LRU[str, float] = LRU(_REACHED)
        """Origins this service's own guarded client had an answer from, and when: a file
        fetched since a check began is vetted by that connection only if it is here (a copy
        another process stored, even with a later ``fetched_at``, is vetted again)."""
        self._reached_lock = threading.Lock()
        client.event_hooks["response"].append(self._answered)
        self.cache = RobotsCache(store, user_agent=user_agent, timeout=limits.fetch_timeout,
                                 client=client, sign=sign)
        self._parsed: LRU[str, RobotsTxt] = LRU(_MEMO_FILES)
        self._parsed_lock = threading.Lock()
        self.clock = clock
        self._refreshed: LRU[str, float] = LRU(100_000)  # origin: when it was refreshed
        self._refreshing = threading.Lock()

    def bounded(self, urls: list[str], agents: list[str]) -> None:
        limits = self.limits
        if len(urls) > limits.max_urls:
            raise _Problem("too-many-urls", f"{len(urls):,} URLs: at most "
                                            f"{limits.max_urls:,} per request")
        if len(agents) > limits.max_agents:
            raise _Problem("too-many-agents", f"{len(agents):,} agents: at most "
                                              f"{limits.max_agents:,} per request")
        if len(urls) * len(agents) > limits.max_cells:
            raise _Problem("too-many-cells", f"{len(urls):,} URLs x {len(agents):,} agents: "
                                             f"at most {limits.max_cells:,} per request")

    def affordable(self, robots: RobotsTxt, urls: list[str], agents: list[str]) -> None:
        """Refuse more than ``max_work`` rules x answers (``too-much-work``)."""
        budget = self.limits.max_work
        if _rules(robots) * len(urls) * len(agents) > budget:
            raise _Problem("too-much-work", f"{_rules(robots):,} rules x {len(urls):,} URLs "
                                            f"x {len(agents):,} agents: at most {budget:,} "
                                            "rules x answers per request")

    def check(self, body: dict[str, Any]) -> _Answer:
        values = _read(body, MODELS["check"])
        urls, agents = values["urls"], values["agents"]
        self.bounded(urls, agents)
        explain = bool(values["explain"])
        given = _robots_text(values, self.parsed)
        budget = self.limits.max_work
        if given is not None:
            self.affordable(given, urls, agents)
        sites = {} if given is not None else self._sites(urls)
        fetch = fetch_json("request", None, "request", False)
        records: list[dict[str, Any]] = []
        lifetime = math.inf  # the answer is good while each file it read is
        for url in urls:
            robots = given
            if robots is None:
                site = sites[url]
                if isinstance(site, dict):  # the URL's error record
                    records.append(site)
                    continue
                robots, fetch, expires = site
                budget -= _rules(robots) * len(agents)
                if budget < 0:
                    records.append(self._url_error(url, "over-budget", "this request's work "
                                                   f"budget ({self.limits.max_work:,} rules "
                                                   "x answers) is spent"))
                    continue
                lifetime = min(lifetime, expires - time.time())
            for agent in agents:
                verdict = robots.explain(url, agent=agent)
                record = {"url": url, "agent": agent, **verdict_json(verdict), "fetch": fetch}
                if not explain:
                    for name in ("rule", "groups", "usage"):
                        del record[name]
                records.append(record)
        if given is not None:
            return _Answer({"results": records}, PURE)
        if any("error" in record for record in records):
            lifetime = 0.0  # a refusal or an error: asked again, it may be answered
        return _Answer({"results": records}, f"private, max-age={int(lifetime)}"
                       if lifetime >= 1 else REVALIDATE)

    def parsed(self, text: str) -> RobotsTxt:
        """``text`` parsed, from a memo of the last files given (a fleet asks about one file
        many times; a parsed file is immutable and keeps its compiled rules)."""
        if len(text) > _MEMO_TEXT:
            return parse(text)
        with self._parsed_lock:
            robots = self._parsed.get(text)
        if robots is None:
            robots = parse(text)
            with self._parsed_lock:
                self._parsed.put(text, robots)
        return robots

    def _sites(self, urls: list[str]) -> dict[str, Any]:
        """Each URL's site's file and fetch record, or its error record: at most
        ``max_sites`` sites, ``fetch_concurrency`` fetched at once, the ones not done by
        ``check_deadline`` answered ``deadline-exceeded`` (their fetch goes on, bounded by
        its own time-out, and fills the cache)."""
        limits = self.limits
        answers: dict[str, Any] = {}
        firsts: dict[str, str] = {}  # each site's first URL
        for url in urls:
            if _is_url(url):
                firsts.setdefault(origin_of(url), url)
            else:
                answers[url] = self._url_error(url, "not-a-url", "without 'robots', each URL "
                                               "must be an http(s) URL with a host")
        if len(firsts) > limits.max_sites:
            raise _Problem("too-many-sites", f"{len(firsts):,} sites: at most "
                                             f"{limits.max_sites:,} fetched per request")
        started = time.time()
        held: dict[str, Any] = {}  # the sites this process holds fresh: answered at once
        for origin, url in firsts.items():
            # A copy this process holds is answered at once, unless the guard must vet it
            # (a resolver's answer: in a worker thread, under the deadline).
            served = None if self.guard.active else self.cache.peek(url)
            if served is not None:
                held[origin] = self._served(url, served, started)
        # the others read from the store or fetched, in threads of their own
        read = self._at_once(lambda url: self._site(url, started),
                             {origin: url for origin, url in firsts.items()
                              if origin not in held}, limits.check_deadline)
        for url in urls:
            if url not in answers:
                origin = origin_of(url)
                site = held.get(origin) or read.get(origin) or self._url_error(
                    url, "deadline-exceeded", f"the site's robots.txt was not read "
                                              f"within {limits.check_deadline:g} s")
                answers[url] = ({**site, "url": url} if isinstance(site, dict) else site)
        return answers

    def _at_once(self, work: Callable[[str], Any], given: dict[str, str], timeout: float
                 ) -> dict[str, Any]:
        """``work`` of each value of ``given``, ``fetch_concurrency`` at once in threads of
        their own, by key: the ones done within ``timeout`` seconds (the others' work goes
        on, bounded by its own time-outs, and fills the cache; those not started are
        cancelled)."""
        if not given:
            return {}
        pool = concurrent.futures.ThreadPoolExecutor(
            max(1, min(self.limits.fetch_concurrency, len(given))),
            thread_name_prefix="robotsrules-api-fetch")
        try:
            futures = {key: pool.submit(work, value) for key, value in given.items()}
            done = concurrent.futures.wait(futures.values(), timeout=timeout)[0]
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        return {key: future.result() for key, future in futures.items() if future in done}

    def _answered(self, response: httpx.Response) -> None:
        """The guarded client's response hook: note that its connection reached the origin."""
        try:
            origin = origin_of(str(response.request.url))
        except (InvalidURL, ValueError):
            return
        with self._reached_lock:
            self._reached.put(origin, time.time())

    def _reached_since(self, url: str, started: float) -> bool:
        """Whether this service's own guarded client had an answer from ``url``'s origin since
        ``started``."""
        with self._reached_lock:
            when = self._reached.get(origin_of(url))
        return when is not None and when >= started

    def _vet(self, url: str) -> Optional[str]:
        """The guard's refusal of ``url``'s host, asked of a stored copy (a file another
        process cached must not answer for an address this service may not reach; a file
        fetched now was vetted by its connection, with one resolution), or ``None``. A name
        that does not resolve now cannot be vetted: refused too."""
        if not self.guard.active:
            return None
        parts = urllib.parse.urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            vetted(parts.hostname or "", port, self.guard)
        except AddressRefused as refused:
            return str(refused)
        except OSError as error:
            return f"{REFUSED}: {parts.hostname} could not be resolved to vet it ({error})"
        return None

    def _site(self, url: str, started: float) -> Any:
        """The file, fetch record and expiry time of ``url``'s site, or the URL's error
        record."""
        try:
            served = self.cache.lookup(url)
        except RobotsError as error:
            return self._url_error(url, "robots-error", str(error))
        return self._served(url, served, started)

    def _served(self, url: str, served: Served, started: float) -> Any:
        """:meth:`_site`'s answer from the file the cache served."""
        result = served.result
        fetched = result.fetched_at >= started
        self.metrics.lookups.labels("fetched" if fetched else "hit").inc()
        refused: Optional[str] = None
        if result.error is not None and result.error.startswith(REFUSED):
            refused = result.error  # the guard refused this fetch's connection
        if fetched:
            self.metrics.outcomes.labels("address-refused" if refused is not None
                                         else result.outcome).inc()
        if refused is None and served.robots.synthetic != "disallow-all" and not (
                fetched and self._reached_since(url, started)):
            # A stored copy, or one another process fetched meanwhile (even one dated later
            # than this check's start): vetted now. A file this service fetched now was
            # vetted by its own connection; "disallow all" tells nothing of any site.
            refused = self._vet(url)
        if refused is not None:
            return self._url_error(url, "address-refused", refused)
        return (served.robots, fetch_json(result.url, result, served.reason,
                                          result.fetched_at < started), result.expires_at)

    @staticmethod
    def _url_error(url: str, code: str, message: str) -> dict[str, Any]:
        return {"url": url, "error": {"code": code, "message": message}}

    def explain(self, body: dict[str, Any]) -> Any:
        values = _read(body, MODELS["explain"])
        url, agents = values["url"], values["agents"]
        self.bounded([url], agents)
        robots = self.parsed(values["robots"])
        self.affordable(robots, [url], agents)
        reports = [{"source": "request", "agent": agent, "url": url,
                    **verdict_json(robots.explain(url, agent=agent))} for agent in agents]
        return reports if len(reports) > 1 else reports[0]

    def usage(self, body: dict[str, Any]) -> Any:
        values = _read(body, MODELS["usage"])
        urls, agents = values["urls"] or ["/"], values["agents"]
        reading = values["aipref_revision"]
        revision(reading)  # an unknown revision: a RobotsError, answered as bad-request
        self.bounded(urls, agents)
        robots = self.parsed(values["robots"])
        self.affordable(robots, urls, agents)
        documents = [{"source": "request", "agent": agent,
                      "urls": [usage_report(robots, url, agent, reading) for url in urls]}
                     for agent in agents]
        return documents[0] if len(documents) == 1 else documents

    def stance(self, body: dict[str, Any]) -> Any:
        values = _read(body, MODELS["stance"])
        agents = values["agents"]
        self.bounded(["/"], agents)
        robots = self.parsed(values["robots"])
        settled = {tuple(group.line for group in robots.for_agent(agent).groups):
                   sum(len(group.rules) for group in robots.for_agent(agent).groups)
                   for agent in agents}  # each distinct set of groups settled once
        if sum(settled.values()) > self.limits.max_stance_rules:
            raise _Problem("too-much-work", f"{sum(settled.values()):,} rules to settle: at "
                                            f"most {self.limits.max_stance_rules:,} per "
                                            "request")
        known = {agent: crawler_for(agent) for agent in agents}
        return stance_report("request", robots, [(a, robots.stance(a)) for a in agents], known)

    def _origin(self, body: dict[str, Any]) -> str:
        url = _read(body, MODELS["cache/purge"])["url"]
        if not _is_url(url):
            raise _Problem("bad-request", "'url' must be an http(s) URL with a host")
        return origin_of(url)

    def _may_refresh(self, origin: str) -> None:
        """Refuse a refresh of ``origin`` sooner than ``refresh_interval`` after the last
        (``refresh-too-soon``, with the seconds to wait)."""
        with self._refreshing:
            now, interval = self.clock(), self.limits.refresh_interval
            last = self._refreshed.get(origin)
            if last is not None and now - last < interval:
                raise _Problem("refresh-too-soon", f"{origin} was refreshed less than "
                                                   f"{interval:g} s ago",
                               max(1, math.ceil(last + interval - now)))
            self._refreshed.put(origin, now)

    def purge(self, body: dict[str, Any]) -> Any:
        origin = self._origin(body)
        self._may_refresh(origin)  # a purge and the next check fetch again: the same floor
        self._forget(origin)
        return {"purged": origin}

    def _forget(self, origin: str) -> None:
        self.store.delete(origin)
        self.cache._memo.pop(("robots", origin))

    def refresh(self, body: dict[str, Any]) -> Any:
        origin = self._origin(body)
        refused = self._vet(origin + "/")
        if refused is not None:
            raise _Problem("origin-refused", refused)
        self._may_refresh(origin)
        self._forget(origin)
        served = self.cache.lookup(origin + "/")
        result = served.result
        if result.error is not None and result.error.startswith(REFUSED):
            raise _Problem("origin-refused", result.error)
        return {"refreshed": origin,
                "fetch": fetch_json(result.url, result, served.reason, False)}

    def verify(self, body: dict[str, Any]) -> Any:
        from .._identity import parse_address, verify

        values = _read(body, MODELS["verify"])
        if values["user_agent"] is not None and values["agent"] is not None:
            raise _Problem("bad-request", "give the visitor's 'user_agent' or an 'agent' "
                                          "token, not both")
        parse_address(values["address"])  # not an address: a RobotsError (bad-request)
        return verify(values["address"], values["user_agent"], agent=values["agent"],
                      dns=bool(values["dns"]),
                      dns_deadline=self.limits.fetch_timeout).as_dict()

    def verify_request(self, body: dict[str, Any]) -> Any:
        from .._identity import verify_request

        values = _read(body, MODELS["verify-request"])
        method, url = values["method"], values["url"]
        answer = verify_request(method, url, values["headers"],
                                allow_private_addresses=self.allow_private_addresses)
        return {"request": {"method": visible(method), "url": visible(url)},
                **answer.as_dict()}

    def page(self, body: dict[str, Any]) -> Any:
        from .._page import admit_page
        from .._tables._purposes import CONTENT_SIGNALS, check_purposes

        values = _read(body, MODELS["page"])
        agents, url = values["agents"], values["url"] or "/"
        purposes = list(check_purposes(values["purposes"] or CONTENT_SIGNALS))
        self.bounded([url] * len(purposes), agents)
        for agent in agents:
            agent_tokens(agent)  # not a product token: InvalidAgent, a bad-request
        # One octet past the bound: a longer head shows as cut (PageSignals.head_cut).
        head = _octets(values["body"] or "", "body")[:DEFAULT_HEAD_BYTES + 1]
        robots = None if values["robots"] is None else parse(values["robots"])

        def usage(agent: Any) -> Any:
            return None if robots is None else robots.usage(url, agent=agent)

        def admitted(some: list[str]) -> Any:
            return admit_page(values["headers"] or [], head, agents=some,
                              purposes=purposes, url=url, status=values["status"],
                              usage=None if robots is None else usage)

        # G3: each agent's answer reads the header fields again: their octets x agents are
        # work; then one agent's answer first, the rest only when all of them fit the bounds
        octets = len(json.dumps(values["headers"] or []))
        if octets * len(agents) > self.limits.max_work:
            raise _Problem("too-much-work", f"{octets:,} octets of header fields x "
                                            f"{len(agents):,} agents: at most "
                                            f"{self.limits.max_work:,} per request")
        first = admitted(agents[:1])
        self.page_affordable(first, agents, purposes, None if robots is None else usage)
        admission = first if len(agents) <= 1 else admitted(agents)
        return page_report(admission, agents, "request", purposes,
                           None if robots is None else usage)

    def page_affordable(self, first: Any, agents: list[str], purposes: list[Any],
                        usage: Any) -> None:
        """Refuse a ``page`` request whose directives x agents pass ``max_work``
        (``too-much-work``) or whose answer, one agent's times the agents, would pass
        ``max_answer`` (``answer-too-large``), before the other agents' answers are made."""
        limits, count = self.limits, max(len(agents), 1)
        directives = len(first.signals[0].directives) if first.signals else 0
        if directives * count > limits.max_work:
            raise _Problem("too-much-work", f"{directives:,} directives x {count:,} agents: "
                                            f"at most {limits.max_work:,} per request")
        size = len(json.dumps(page_report(first, agents[:1], "request", purposes, usage)))
        if size * count > limits.max_answer:
            raise _Problem("answer-too-large", f"the answer would have about "
                                               f"{size * count:,} octets: at most "
                                               f"{limits.max_answer:,}")

    def license(self, body: dict[str, Any]) -> _Answer:
        from .._rsl import (
            USAGE_TOKENS,
            LicenseSource,
            geo_code,
            license_answers,
            license_url_problem,
            usage_token,
            user_class,
        )

        values = _read(body, MODELS["license"])
        document, url = values["document"], values["source"]
        if (document is None) == (url is None):
            raise _Problem("bad-request", "give a licence document or a robots.txt as "
                                          "'document', or a URL as 'source' (one of them)")
        urls, agents = values["urls"] or [], values["agents"] or ["*"]
        names = list(dict.fromkeys(values["purposes"] or USAGE_TOKENS))
        self.bounded(urls or ["/"], agents)
        if len(names) * len(urls) * len(agents) > self.limits.max_cells:
            raise _Problem("too-many-cells", f"purposes x URLs x agents: at most "
                                             f"{self.limits.max_cells:,} per request")
        for name in names:
            usage_token(name)  # InvalidPurpose: a bad-request before any fetch
        for agent in agents:
            if agent != "*":
                agent_tokens(agent)
        for target in urls:
            match_target(target)  # InvalidURL: a bad-request
        user = None if values["user"] is None else user_class(values["user"])
        geo = None if values["geo"] is None else geo_code(values["geo"])
        site = None if values["origin"] is None else origin_of(values["origin"])
        started = time.monotonic()
        if url is not None:
            if not _is_url(url):
                raise _Problem("bad-request", "'source' must be an http(s) URL with a host")
            problem = license_url_problem(url)
            if problem is not None:  # credentials: never sent, never echoed
                raise _Problem("bad-request", f"'source' {problem}")
            # every URL read from the cache is vetted first (G1: a copy stored by another
            # process must not answer for an address this service may not reach)
            source = LicenseSource.fetched(self.cache, url, site, self._vet)
        else:
            source = LicenseSource.read(self.cache, _octets(document, "document"),
                                        "request", site, self._vet)
        # each licence document is a fetch: the request's time stays bounded
        links = list(dict.fromkeys(link for agent in agents for link in source.links(agent)))
        if len(links) > _MAX_LICENCES:
            raise _Problem("too-many-urls", f"{len(links):,} licence documents named: at "
                                            f"most {_MAX_LICENCES} fetched per request")
        read = self._licences(source, links, started)
        found = [(agent, source.documents(agent, read.__getitem__)) for agent in agents]
        return _Answer(license_json(url or "request", [
            (agent, found_documents, license_answers(tuple(found_documents), urls, names,
                                                     user, geo))
            for agent, found_documents in found]),
            PURE if url is None and not links else REVALIDATE)

    def _licences(self, source: Any, links: list[str], started: float) -> dict[str, Any]:
        """Each of ``links``' licence documents (``source.licence``): ``fetch_concurrency``
        read at once, the ones not read by ``check_deadline`` (counted from ``started``)
        ``"unreachable"`` (answered unknown; their fetch goes on and fills the cache)."""
        limits = self.limits
        left = max(0.0, limits.check_deadline - (time.monotonic() - started))
        read = self._at_once(source.licence, {link: link for link in links}, left)
        late = f"not read within the request's deadline ({limits.check_deadline:g} s)"
        return {link: read[link] if link in read else source.unreachable(link, late)
                for link in links}

    def generate(self, body: dict[str, Any]) -> Any:
        from .._diff import diff
        from .._generate import GeneratePolicy, generate

        values = _read(body, MODELS["generate"])
        policy = GeneratePolicy.from_data(values["policy"])
        # The workbench panel's bounds: the proof reads every token on every path back in
        # three readings, so its time grows with their product.
        tokens = len(policy.agents) + len(policy.crawl_delays)
        paths = len(policy.disallow_paths) + sum(
            len(choice.paths) for _, choice in (*policy.agents, *policy.categories))
        for count, bound, what in ((tokens, MAX_TOKENS, "tokens and crawl delays"),
                                   (paths, MAX_PATHS, "paths"),
                                   (len(policy.sitemaps), MAX_SITEMAPS, "sitemaps")):
            if count > bound:
                raise _Problem("too-many-choices", f"{count:,} {what}: at most {bound:,} "
                                                   "per request (robotsrules generate "
                                                   "--policy FILE takes more)")
        existing = None if values["from"] is None else _octets(values["from"], "from")
        if existing is not None and len(existing) > DEFAULT_MAX_BYTES:
            raise _Problem("bad-request", f"'from': over {DEFAULT_MAX_BYTES:,} octets, past "
                                          "what crawlers read (RFC 9309 \u00a72.5)")
        made = generate(policy, existing)
        changes = None if existing is None else diff(parse(existing), parse(made.text),
                                                      made.urls, made.agents)
        return generate_json(made, policy, None, changes)

    def lint(self, body: dict[str, Any]) -> Any:
        from ..linter import lint
        from ..linter._output import to_json

        return to_json(lint(_read(body, MODELS["lint"])["robots"]), "request")


def create_api(*, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = (),
               limits: Limits = Limits(), store: Optional[Store] = None,
               user_agent: str = f"robotsrules/{__version__} (service)",
               allow_private_addresses: bool = False, sign: Optional[Sign] = None,
               token: Optional[str] = None, guard: Optional[Guard] = None,
               clock: Callable[[], float] = time.monotonic,
               trusted_proxies: tuple[str, ...] = ()) -> ASGI:
    """The JSON service as an ASGI application, for a server bound to ``host``.

    ``allowed_hosts``: ``Host`` names accepted beside the bound address (behind a load
    balancer). ``store``: where fetched robots.txt files are cached (default: in memory).
    ``user_agent`` and ``sign``: the fetch identity. ``allow_private_addresses`` lifts the
    address guard (``guard`` replaces it, for tests). ``token``: every ``/v1/`` request
    must carry ``Authorization: Bearer TOKEN`` (the scheme in any case, RFC 9110 §11.1).
    ``clock``: the rate limit's and the refresh interval's clock. ``trusted_proxies``:
    networks (CIDR) of load balancers whose ``X-Forwarded-For`` last address is the client
    whose bucket a request takes from (none by default: the peer's address, an IPv6 one by
    its /64). The bucket is taken before the token is checked (guesses are limited too)."""
    metrics = _Metrics()
    service = _Service(limits, store if store is not None else MemoryStore(), user_agent,
                       allow_private_addresses, sign, guard, metrics, clock)
    buckets = _Buckets(limits.rate, limits.burst, clock)
    try:
        trusted = tuple(ipaddress.ip_network(cidr, strict=False) for cidr in trusted_proxies)
    except ValueError as error:
        raise InvalidArgument(f"trusted_proxies: {error}") from None

    def authorized(request: Request) -> None:
        if token is None:
            return
        scheme, _, given = request.headers.get("authorization", "").strip().partition(" ")
        if not (scheme.lower() == "bearer" and hmac.compare_digest(
                given.strip().encode("latin-1", "replace"), token.encode())):
            raise _Problem("unauthorized", "a bearer token is required "
                                           "(Authorization: Bearer TOKEN)")

    def endpoint(work: Callable[[dict[str, Any]], Any], cache: str = PURE
                 ) -> Callable[[Request], Any]:
        async def answer(request: Request) -> Response:
            started = time.perf_counter()
            try:
                response = _conditional(request, await answer_once(request))
            except asyncio.CancelledError:
                # The server's stop ran past its grace (uvicorn cancels what still runs):
                # a whole error the client may retry elsewhere, never a part of an answer.
                response = _error("shutting-down", "the server is stopping: retry the "
                                                   "request", 1)
            seconds = time.perf_counter() - started
            path = request.url.path
            metrics.requests.labels(path, str(response.status_code)).inc()
            metrics.latency.labels(path).observe(seconds)
            access.info("%s", json.dumps({  # no body, no header: no credential logged
                "time": round(time.time(), 3), "client": _client(request),
                "method": request.method, "path": path, "status": response.status_code,
                "seconds": round(seconds, 6), "bytes": len(response.body)}))
            return response

        async def answer_once(request: Request) -> Response:
            try:
                wait = buckets.take(_caller(request, trusted))
                if wait is not None:
                    raise _Problem("rate-limited", f"too many requests: retry in {wait} s",
                                   wait)
                authorized(request)
                try:
                    body = json.loads(await request.body())
                except (ValueError, UnicodeDecodeError) as error:
                    raise _Problem("bad-json", f"the body is not JSON: {error}") from None
                if not isinstance(body, dict):
                    raise _Problem("bad-request", "the body must be a JSON object")
                done = await run_in_threadpool(work, body)
                answer = (_json(done.payload, cache=done.cache) if isinstance(done, _Answer)
                          else _json(done, cache=cache))
                if len(answer.body) > limits.max_answer:
                    raise _Problem("answer-too-large", f"the answer has {len(answer.body):,} "
                                                       f"octets: at most {limits.max_answer:,}")
                return answer
            except _Problem as problem:
                return _error(problem.code, problem.message, problem.retry_after)
            except RobotsError as error:
                return _error("bad-request", str(error))
            except RecursionError:
                return _error("bad-request", "the body nests too deeply")
            except Exception:  # a bug: logged here, never shown to the client
                log.exception("robotsrules serve --api: internal error on %s",
                              request.url.path)
                return _error("internal-error", "internal error (logged on the server)")
        return answer

    async def metrics_text(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST,
                        headers={"cache-control": NO_STORE})

    async def healthz(request: Request) -> Response:
        return _json({"status": "ok", "version": __version__, "pid": os.getpid()})

    async def readyz(request: Request) -> Response:
        client = getattr(service.store, "client", None)  # a RedisStore's: asked directly
        probe = getattr(client, "ping", None) or functools.partial(service.store.get,
                                                                   "https://readyz.invalid")
        try:
            await run_in_threadpool(probe)
        except Exception as error:
            return _json({"status": "unavailable", "store": type(error).__name__}, 503)
        return _json({"status": "ok"})

    async def limits_of(request: Request) -> Response:
        try:
            authorized(request)  # under /v1/: with a token, it is asked for here too
        except _Problem as problem:
            return _error(problem.code, problem.message)
        return _conditional(request, _json(limits.as_json(), cache=REVALIDATE))

    described = openapi(limits)

    async def openapi_json(request: Request) -> Response:
        return _conditional(request, _json(described, cache=REVALIDATE))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        return _error(_BY_STATUS.get(status, "not-found"), str(getattr(exc, "detail", "")))

    app = Starlette(routes=[
        Route("/v1/check", endpoint(service.check), methods=["POST"]),
        Route("/v1/explain", endpoint(service.explain), methods=["POST"]),
        Route("/v1/lint", endpoint(service.lint), methods=["POST"]),
        Route("/v1/usage", endpoint(service.usage), methods=["POST"]),
        Route("/v1/stance", endpoint(service.stance), methods=["POST"]),
        Route("/v1/verify", endpoint(service.verify, REVALIDATE), methods=["POST"]),
        Route("/v1/verify-request", endpoint(service.verify_request, NO_STORE),
              methods=["POST"]),
        Route("/v1/page", endpoint(service.page), methods=["POST"]),
        Route("/v1/license", endpoint(service.license), methods=["POST"]),
        Route("/v1/generate", endpoint(service.generate), methods=["POST"]),
        Route("/v1/limits", limits_of, methods=["GET"]),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/metrics", metrics_text, methods=["GET"]),
        Route("/v1/cache/purge", endpoint(service.purge, NO_STORE), methods=["POST"]),
        Route("/v1/cache/refresh", endpoint(service.refresh, NO_STORE), methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
    ], exception_handlers={HTTPException: not_found})
    return Guarded(app, host, allowed_hosts=allowed_hosts, refuse=_refusal,
                    headers=_HEADERS, max_body=limits.max_body)
