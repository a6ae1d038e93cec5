"""The workbench page as a Starlette application (``robotsrules serve``).

Theory of operation. The page is server-rendered HTML (Jinja2 templates with autoescaping,
one template per panel) and one small same-origin script of our own for the copy buttons;
the page works without it. One form carries the whole state (the file, the URLs, the
agents): a ``POST`` answers it, and a ``GET`` with the same fields as query parameters (the
permalink) answers the same way. Fetching a robots.txt by URL and uploading one are
``POST`` only.

The page faces strangers' content, and a stranger's page may try to drive it, so every
response and request passes these checks, in this order:

1. the ``Host`` header names the address the server is bound to (DNS rebinding: a name
   that resolves to 127.0.0.1 does not make another site's pages same-origin with ours);
2. the request body is read to :data:`MAX_BODY` octets, no more (a refusal says so);
3. a ``POST`` carries this server's form token and, when the browser says where it comes
   from (``Origin``, ``Sec-Fetch-Site``), comes from this page (CSRF); a permalink (``GET``)
   followed from another site is shown, not run; no CORS header is ever sent, so no other
   origin reads an answer;
4. every response carries a strict Content-Security-Policy (no inline script or style,
   nothing from another origin), ``nosniff``, no referrer sent to other sites (``same-origin``: with
   ``no-referrer`` browsers send ``Origin: null`` on our own forms) and no framing.

A robots.txt fetched by URL goes through the fetch layer's one address guard
(:class:`~robotsrules._fetch._pinned.GuardedClient`: loopback, private, link-local and
metadata addresses refused, on every redirect hop) unless the server was started with
``allow_private_addresses``; the fetch is bounded in time and size by the fetch policy.
The RSL licence documents a tested file names (``License:`` lines) are fetched through the
same guard, as ``robotsrules license`` fetches them (a
:class:`~robotsrules._fetch._robotscache.RobotsCache` kept in memory, so an edit does not
fetch them again, :data:`LICENCES_KEPT` at most; at most :data:`._tester.MAX_LICENCES`
a test, fetched at once, each bounded like the robots.txt fetch). Nothing is written to
disk. The answers are computed in the thread pool, so one costly file does not stop the
server answering others or stopping; the tester's bounds (:mod:`._tester`) keep each
answer's work bounded.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import re
import secrets
import urllib.parse
from collections.abc import Awaitable, Iterable, MutableMapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Optional

import httpx

from .._fetch._fetcher import fetch, fetch_page
from .._fetch._pinned import Guard, GuardedClient
from .._fetch._robotscache import RobotsCache
from .._page import DEFAULT_HEAD_BYTES
from .._rsl import LicenseDocument
from .._scope import origin_of
from .._tables._words import outcome_meaning
from .._terminal import visible
from .._version import __version__
from ..cache import MemoryStore
from ..errors import InvalidURL, MissingExtra, RobotsError
from ..linter import CODES
from ..robotstxt import DEFAULT_MAX_BYTES
from ._generator import Choices, categories, generated, usage_purposes
from ._tester import MAX_AGENTS, MAX_CELLS, MAX_URLS, agents_of, judge_file, page_answers

with MissingExtra.guard("robotsrules serve", "web"):
    import jinja2
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.datastructures import UploadFile
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

__all__ = ["ASGI", "LICENCES_KEPT", "MAX_BODY", "MAX_PERMALINK", "Guarded", "create_app"]

MAX_BODY = 4 * 1024 * 1024
"""The largest request body read: the file and the compared file (500 KiB each, sent with
CRLF line breaks, a byte that is not UTF-8 shown as a three-byte U+FFFD) and their exact
bytes (base64) fit."""
MAX_PERMALINK = 8_000
"""The longest permalink offered (browsers and servers refuse much longer URLs)."""
FETCH_TIMEOUT = 10.0
"""Seconds per network step of a fetch by URL (the whole fetch: three times as long)."""

_HERE = Path(__file__).parent
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
_HEADERS = [(b"content-security-policy", _CSP.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"cross-origin-resource-policy", b"same-origin"),
            (b"cache-control", b"no-store")]
_LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
_USER_AGENT = f"robotsrules/{__version__} (workbench)"
LICENCES_KEPT = 32
"""The licence documents the page keeps in memory, the least recently used dropped first:
each may be 500 KiB, and a cache's default (10,000 entries) would let a day of tests hold
gigabytes."""
_STATE = ("robots", "urls", "agents", "base", "robots_raw", "base_raw")
"""The form's state: the file, the URLs, the agents, the file compared with (the permalink's
query parameters), and the exact bytes of a fetched or uploaded file that its text does not
carry (see :func:`_shown`)."""

_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGI = Callable[[_Scope, _Receive, _Send], Awaitable[None]]


_HOST = re.compile(r"(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::([0-9]{1,5}))?")
"""A ``Host`` value (RFC 9110 §7.2: ``uri-host [ ":" port ]``), as strict as this server
needs: an IPv6 literal in brackets, or an IPv4 literal or a name, and a port of digits."""


def _hostname(header: str, port: Optional[int] = None) -> Optional[str]:
    """The host of a ``Host`` header value, without the port (IPv6 without brackets);
    ``None`` for a value that is no host and port, or (with ``port``) names another port.
    Leading and trailing whitespace is no part of a field value (RFC 9110 §5.5)."""
    found = _HOST.fullmatch(header.strip().lower())
    if found is None or (port is not None and found[3] is not None and int(found[3]) != port):
        return None
    return found[1] or found[2]


def _host_allowed(bound: str) -> Callable[[str], bool]:
    """Which ``Host`` headers name the bound address: the address itself (and ``localhost``
    for a loopback address); for a wildcard address (every interface) any address literal or
    ``localhost``, never a name that a stranger's DNS could point at us."""
    bound = (_hostname(bound) or "") if bound.startswith("[") else bound.lower()
    try:
        address = ipaddress.ip_address(bound)
    except ValueError:
        address = None
    if address is not None and address.is_unspecified:
        def any_literal(host: str) -> bool:
            if host == "localhost":
                return True
            try:
                ipaddress.ip_address(host)
            except ValueError:
                return False
            return True
        return any_literal
    names = {bound} | (_LOOPBACK_NAMES if (address is not None and address.is_loopback)
                       or bound == "localhost" else set())
    return names.__contains__


def _lf(text: str) -> str:
    """A textarea's value as the file it shows: browsers send every line break as CRLF
    (HTML's form submission), so the size a crawler reads and the lines are counted on LF."""
    return text.replace("\r\n", "\n")


def _shown(data: bytes) -> tuple[str, str]:
    """A fetched or uploaded file as the textarea shows it, and its bytes (base64) when the
    text the browser sends back would not be them (bytes that are not UTF-8, CR line
    breaks); ``""`` when it would."""
    text = data.decode("utf-8", "replace")
    return text, ("" if _lf(text).encode("utf-8") == data else base64.b64encode(data).decode())


def _content(text: str, raw: str) -> bytes | str:
    """The file to judge: the exact bytes of :func:`_shown` while the text is unedited,
    else the text."""
    if raw:
        try:
            data = base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            return text
        if _lf(data.decode("utf-8", "replace")) == text:
            return data
    return text


def _site(url: str) -> Optional[str]:
    """The site a file fetched from ``url`` is for, or ``None`` (no URL, or not one)."""
    try:
        return origin_of(url.strip()) if url.strip() else None
    except (InvalidURL, ValueError):
        return None


def _refuse(status: int, message: str) -> Response:
    return PlainTextResponse(f"{status} refused: {message}\n", status_code=status)


_Refuse = Callable[[int, str], Response]
"""A refusal's response from its status and message (the page's text, the service's JSON)."""


class Guarded:
    """The ASGI middleware of checks 1, 2 and 4 (see the module docstring). The JSON
    service (:mod:`._api`) passes its own refusals, headers and body bound, and the host
    names a load balancer forwards (``allowed_hosts``)."""

    def __init__(self, app: ASGI, bound: str, *, allowed_hosts: Iterable[str] = (),
                 refuse: _Refuse = _refuse, headers: Sequence[tuple[bytes, bytes]] = _HEADERS,
                 max_body: int = MAX_BODY) -> None:
        self.app = app
        by_address = _host_allowed(bound)
        self.named = frozenset(name.lower() for name in allowed_hosts)
        """The allowed names: accepted with any port (a load balancer keeps its own)."""
        self.allowed: Callable[[str], bool] = lambda host: host in self.named or by_address(
            host)
        self.refuse, self.headers, self.max_body = refuse, list(headers), max_body

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        headers = dict(scope.get("headers", []))
        host = headers.get(b"host", b"").decode("latin-1")
        server = scope.get("server")
        name = _hostname(host, server[1] if server else None)
        if name is None and _hostname(host) in self.named:
            name = _hostname(host)  # an allowed name with its load balancer's port
        if name is None or not self.allowed(name):
            await self.refuse(421, f"the Host header {visible(host)!r} does not name this "
                               "server's address (a page of another site may not drive "
                               "it)")(scope, receive, send_with_headers)
            return
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            await self.refuse(413, f"a request body of at most {self.max_body:,} bytes is "
                              "read")(scope, receive, send_with_headers)
            return
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > self.max_body:
                await self.refuse(413, f"a request body of at most {self.max_body:,} bytes "
                                  "is read")(scope, receive, send_with_headers)
                return
        replayed = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()  # the disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send_with_headers)


class _Workbench:
    """The routes' state: templates, the form token, how to fetch."""

    def __init__(self, allow_private_addresses: bool, fetch_timeout: float) -> None:
        self.environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(_HERE / "templates"), autoescape=True,
            undefined=jinja2.StrictUndefined)
        self.token = secrets.token_urlsafe(32)
        self.guard = Guard(allow_private_addresses=allow_private_addresses)
        self.fetch_timeout = fetch_timeout
        self.licences = RobotsCache(user_agent=_USER_AGENT, timeout=fetch_timeout,
                                    client=self.client(),
                                    store=MemoryStore(max_entries=LICENCES_KEPT))

    def client(self) -> GuardedClient:
        """The one guarded client of every fetch the page makes (robots.txt, licences)."""
        return GuardedClient(self.guard, timeout=httpx.Timeout(self.fetch_timeout))

    def read_licences(self, site: Optional[str]) -> Callable[[Sequence[str]],
                                                             list[LicenseDocument]]:
        """The reader of the licence documents of a file for ``site`` (its ``<content
        url>`` on other origins are ignored; ``None``: not known). The documents are fetched
        at once, so slow ones cost one fetch's time limit, not one each."""
        def one(url: str) -> LicenseDocument:
            return self.licences.license_document(url, origin=site)

        def read(urls: Sequence[str]) -> list[LicenseDocument]:
            if len(urls) < 2:
                return [one(url) for url in urls]
            with ThreadPoolExecutor(max_workers=len(urls)) as pool:
                return list(pool.map(one, urls))
        return read

    def page(self, **values: Any) -> HTMLResponse:
        judge = values.pop("judge", True)  # False: the state is shown, not judged
        state = {"robots": "", "urls": "", "agents": "", "fetch_url": "", "base": "",
                 "page_url": "", "robots_raw": "", "base_raw": "", **values}
        state["robots"], state["base"] = _lf(state["robots"]), _lf(state["base"])
        context = {"token": self.token, "tested": None, "problem": None, "fetched": None,
                   "signals": None, "generated": None, "choices": Choices(),
                   "categories": categories(), "purposes": usage_purposes(),
                   "permalink": None, "version": __version__, "limits": {
                       "urls": MAX_URLS, "agents": MAX_AGENTS, "cells": MAX_CELLS,
                       "robots": DEFAULT_MAX_BYTES}, **state}
        if judge and (state["robots"] or state["urls"] or state["agents"]):
            self._answer(context, state)
        html = self.environment.get_template("page.html").render(context)
        return HTMLResponse(html)

    def _answer(self, context: dict[str, Any], state: dict[str, Any]) -> None:
        if not (state["urls"].strip() and state["agents"].strip()):
            context["problem"] = context["problem"] or (
                "Give at least one URL (or path) and one agent to test the file.")
            return
        try:
            context["tested"] = judge_file(
                _content(state["robots"], state["robots_raw"]), state["urls"], state["agents"],
                _content(state["base"], state["base_raw"]) or None,
                self.read_licences(_site(state["fetch_url"])))
        except RobotsError as error:
            context["problem"] = visible(str(error))
            return
        query = urllib.parse.urlencode({name: state[name] for name in _STATE if state[name]})
        if len(query) < MAX_PERMALINK:
            context["permalink"] = f"/?{query}"

    def signals(self, url: str, robots: str, agents_text: str) -> dict[str, Any]:
        """A page fetched through the address guard, read as ``robotsrules page`` reads it,
        for the agents of the agents box, combined with the file being edited."""
        agents = agents_of(agents_text)
        if not agents:
            raise RobotsError("give at least one agent to read the page's signals for")
        page = fetch_page(url, user_agent=_USER_AGENT,
                          max_bytes=DEFAULT_HEAD_BYTES + 1, timeout=self.fetch_timeout,
                          guard=self.guard)
        if page.error is not None:
            raise RobotsError(f"{url}: {page.error}")
        answers = page_answers(page.headers, page.body, page.status, url, robots, agents)
        return {"url": visible(page.url), "status": page.status, "answers": answers}

    def fetched(self, url: str) -> dict[str, Any]:
        """A robots.txt fetched by URL through the address guard, as ``fetch`` shows it
        (``text``/``raw``: see :func:`_shown`; ``None`` when no file was read)."""
        with self.client() as client:
            result = fetch(url, user_agent=_USER_AGENT, timeout=self.fetch_timeout,
                           client=client)
        robots = result.robots
        return {"url": visible(result.url), "outcome": result.outcome,
                "status": result.status, "meaning": outcome_meaning(result.outcome),
                "error": visible(result.error or ""),
                "redirects": [visible(hop) for hop in result.redirects],
                "size": result.size, "truncated": result.truncated,
                "groups": robots.groups, "synthetic": robots.synthetic,
                "sitemaps": [visible(sitemap) for sitemap in robots.sitemaps],
                "file": None if robots.synthetic is not None else _shown(robots.source)}


async def _form_checked(request: Request, token: str) -> Any:
    """The form of a ``POST`` from this page, or a refusal (check 3)."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return _refuse(403, f"a request from another site ({visible(fetch_site)})")
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.headers['host']}":
        return _refuse(403, f"a request from another origin ({visible(origin)})")
    form = await request.form(max_files=1, max_fields=64, max_part_size=MAX_BODY)
    given = form.get("token")
    if not isinstance(given, str) or not hmac.compare_digest(given, token):
        return _refuse(403, "the form token is missing or wrong (reload the page)")
    return form


def _field(form: Any, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def create_app(*, host: str = "127.0.0.1", allow_private_addresses: bool = False,
               fetch_timeout: float = FETCH_TIMEOUT) -> ASGI:
    """The workbench as an ASGI application, for a server bound to ``host``.

    ``host`` is the address the server listens on: requests whose ``Host`` header names
    anything else are refused. ``allow_private_addresses`` lets fetch-by-URL reach
    loopback, private and link-local addresses (refused by default: server-side request
    forgery). ``fetch_timeout`` bounds each network step of a fetch (seconds)."""
    bench = _Workbench(allow_private_addresses, fetch_timeout)

    async def index(request: Request) -> Response:
        if request.method == "GET":
            query = request.query_params
            state = {name: query.get(name, "") for name in _STATE}
            if any(state.values()) and request.headers.get("sec-fetch-site") in (
                    "cross-site", "same-site"):
                # a permalink followed from another site (a link, an <img src>): shown, not
                # run, so that no other site makes this computer judge its files
                return await run_in_threadpool(
                    bench.page, judge=False, **state, problem=(
                        "This test came from a link on another site: it is shown, not run. "
                        "Press Test to run it."))
            return await run_in_threadpool(bench.page, **state)
        form = await _form_checked(request, bench.token)
        if isinstance(form, Response):
            return form
        state = {name: _field(form, name) for name in (*_STATE, "fetch_url", "page_url")}
        action = _field(form, "action")
        extra: dict[str, Any] = {}
        if action == "fetch":
            url = state["fetch_url"].strip()
            try:
                extra["fetched"] = await run_in_threadpool(bench.fetched, url)
            except RobotsError as error:
                extra["problem"] = f"Not fetched: {visible(str(error))}"
            else:
                shown = extra["fetched"]["file"]
                if shown is None:  # no file (unreachable, unavailable): the box keeps yours
                    fetched = extra["fetched"]
                    extra["problem"] = (
                        f"No file was fetched ({fetched['outcome']}: {fetched['meaning']}); "
                        "your file is left in the box and the verdicts are not shown, so "
                        "that they are not read as the site's.")
                    extra["judge"] = False
                else:
                    state["robots"], state["robots_raw"] = shown
                    state["base"], state["base_raw"] = shown
        elif action == "page":
            try:
                extra["signals"] = await run_in_threadpool(
                    bench.signals, state["page_url"].strip(), state["robots"], state["agents"])
            except RobotsError as error:
                extra["problem"] = f"Page not read: {visible(str(error))}"
        elif action == "upload":
            upload = form.get("upload")
            if isinstance(upload, UploadFile):
                data = await upload.read(DEFAULT_MAX_BYTES + 1)
                state["robots"], state["robots_raw"] = _shown(data[:DEFAULT_MAX_BYTES])
                if len(data) > DEFAULT_MAX_BYTES:
                    extra["problem"] = (f"The file is over {DEFAULT_MAX_BYTES:,} bytes: only "
                                        "that much is read, as Google's crawler reads it.")
        elif action in ("generate", "load"):
            extra["choices"] = Choices.from_form(
                {key: value for key, value in form.items() if isinstance(value, str)},
                {key: [v for v in form.getlist(key) if isinstance(v, str)]
                 for key in ("g_block_category", "g_allow_category")})
            if action == "generate":
                extra["generated"] = await run_in_threadpool(
                    generated, extra["choices"], state["robots"])
            else:  # the written file into the tester, the file it replaces compared with
                state["base"], state["base_raw"] = state["robots"], state["robots_raw"]
                state["robots"] = _field(form, "g_text").replace("\r\n", "\n")
                state["robots_raw"] = ""
        return await run_in_threadpool(bench.page, **state, **extra)  # the loop stays free

    async def codes(request: Request) -> Response:
        html = bench.environment.get_template("codes.html").render(
            codes=sorted(CODES.items()), version=__version__)
        return HTMLResponse(html)

    app = Starlette(routes=[
        Route("/", index, methods=["GET", "POST"]),
        Route("/codes", codes, methods=["GET"]),
        Mount("/static", StaticFiles(directory=_HERE / "static"), name="static"),
    ])
    return Guarded(app, host)
