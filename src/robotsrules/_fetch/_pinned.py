"""The I/O half of the address guard: connections pinned to a vetted address (httpcore).

A check before the request and a connection made later would each resolve the name, and a
stranger's DNS can answer differently the second time (DNS rebinding). Here there is one
resolution, inside the connect itself: httpcore asks the network backend to connect to
``(host, port)``; :class:`GuardedBackend` resolves ``host`` once (or reads it as an address
in any numeric form, :func:`~robotsrules._fetch._guard.host_address`; ``localhost`` and the
names under it as loopback, never asked of a resolver), refuses the whole
name if any of its addresses is refused (:func:`~robotsrules._fetch._guard.refusal`),
connects to the vetted addresses in turn, and checks the peer of the socket it got. The
connection keeps the name for everything else: httpx sends ``Host`` from the URL and
httpcore starts TLS with the URL's host as SNI and for certificate verification.

Every request of a guarded client goes through its transport, redirect hops included
(the fetch layer follows redirects itself, one request per hop); a kept-alive connection
in its pool was vetted when made. A URL httpx cannot parse, so never connects to, is
refused all the same when a browser would read its host as a refused address
(:func:`unparsed_refusal`, for the first request and, by a response hook, for a redirect's
``Location``). The client reads no proxy from the environment (a proxy
would make the connection in our place).
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import re
import socket
import ssl
import urllib.parse
from collections.abc import Iterable, Sequence
from typing import Any, Callable, Optional, Union

import anyio.to_thread
import httpcore
import httpx

from .._scope import DEFAULT_PORTS, split_origin
from ..errors import InvalidURL
from ._guard import IPAddress, host_address, refusal
from ._sign import Sign, sign_headers

__all__ = ["REFUSED", "AddressRefused", "AsyncGuardedBackend", "AsyncGuardedClient", "Guard",
           "GuardedBackend", "GuardedClient", "system_resolve", "unparsed_refusal",
           "vetted"]

Resolve = Callable[[str], Sequence[str]]
"""A resolver: a host name to its addresses, as text (raises :class:`OSError` on failure)."""

_MAX_ADDRESSES = 64  # a stranger's DNS answer is bounded too
REFUSED = "refused by the address guard (server-side request forgery)"
"""How every refusal of the guard begins (a fetch's ``error`` names it so)."""
_REFUSED = REFUSED
_SocketOption = Union[tuple[int, int, int], tuple[int, int, Union[bytes, bytearray]],
                      tuple[int, int, None, int]]  # httpcore's SOCKET_OPTION


def system_resolve(host: str) -> list[str]:
    """The host's addresses by the system resolver (``getaddrinfo``), in its order."""
    found: list[str] = []
    for *_, sockaddr in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM):
        address = str(sockaddr[0])
        if address not in found:
            found.append(address)
    return found


@dataclasses.dataclass(frozen=True)
class Guard:
    """The guard's settings: ``allow_private_addresses=True`` lifts it (every address is
    reachable, as for URLs the caller names); ``resolve`` replaces the system resolver;
    ``exempt`` names ``(address, port)`` pairs reachable despite the guard (one known
    service, such as a key directory on the operator's own network; the tests' loopback
    servers), every other port of those addresses staying refused."""

    allow_private_addresses: bool = False
    resolve: Optional[Resolve] = None
    exempt: frozenset[tuple[str, int]] = frozenset()

    @property
    def active(self) -> bool:
        """True when the guard refuses anything."""
        return not self.allow_private_addresses

    def why(self, address: IPAddress, port: int) -> Optional[str]:
        """Why a connection to ``address:port`` is refused, or None."""
        if (str(address), port) in self._exempt:
            return None
        return refusal(address)

    @functools.cached_property
    def _exempt(self) -> frozenset[tuple[str, int]]:
        return frozenset((str(ipaddress.ip_address(a)), p) for a, p in self.exempt)


class AddressRefused(httpcore.ConnectError):
    """The guard refused every way to a host; the message names the address and range."""


def vetted(host: str, port: int, guard: Guard) -> list[IPAddress]:
    """The addresses to connect to for ``host``; raises :class:`AddressRefused` (a refused
    address, or none) or :class:`socket.gaierror` (resolution failed, whatever the
    resolver raised: the fetch layer reports "DNS lookup failed")."""
    literal = _address_of(host)  # localhost names: never asked of a resolver
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    else:
        addresses = []
        try:
            found = list((guard.resolve or system_resolve)(host))[:_MAX_ADDRESSES]
        except Exception as error:  # any resolver's failure is a failed look-up
            if isinstance(error, socket.gaierror):
                raise
            raise socket.gaierror(f"{host}: {type(error).__name__}: {error}") from error
        for text in found:
            try:
                addresses.append(ipaddress.ip_address(text))
            except ValueError:
                raise AddressRefused(f"{_REFUSED}: {host} resolved to {text!r}, which is "
                                     "no address") from None
    if not addresses:
        raise AddressRefused(f"{_REFUSED}: {host} has no address")
    for address in addresses:
        why = guard.why(address, port)
        if why is not None:
            named = (f"{host} resolves to {address}" if literal is None
                     else _named(host, address))
            raise AddressRefused(f"{_REFUSED}: {named}: {why}")
    return addresses


_LOOPBACK = ipaddress.IPv4Address("127.0.0.1")


def _localhost(host: str) -> bool:
    """True for ``localhost`` and the names under it (``api.localhost.``): the loopback
    interface's names, whatever a resolver answers for them (RFC 6761, February 2013, section
    6.3, as draft-ietf-dnsop-let-localhost-be-localhost-02, December 2017, requires of stub
    resolvers; RFC 6761's own text not re-read for this)."""
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def _named(host: str, address: IPAddress) -> str:
    return str(address) if host.strip("[]") == str(address) else f"{host} ({address})"


def _address_of(host: str) -> Optional[IPAddress]:
    """The address a browser reads in a URL's ``host``: any numeric form
    (:func:`~robotsrules._fetch._guard.host_address`), after percent-decoding and UTS 46
    mapping (``%31%32%37.0.0.1``, full-width digits), ``localhost`` and the names under it
    as loopback; None for a name (or no host at all)."""
    address = host_address(host)
    if address is None:
        try:
            _, canonical, _ = split_origin(f"http://{host}/")
        except InvalidURL:
            return None
        address = _LOOPBACK if _localhost(canonical) else host_address(canonical)
    return address


_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")


def _browser_authority(url: str, base: Optional[str]) -> Optional[tuple[str, str]]:
    """``(scheme, authority)`` of ``url`` (resolved against ``base``) as the WHATWG URL
    Standard's parser reads it for http and https: C0 controls and spaces around it dropped,
    tabs and newlines anywhere, ``\\`` read as ``/``, any run of slashes before the
    authority skipped (``https:127.0.0.1``, ``///127.0.0.1``). None when it names no
    authority of its own (a path on ``base``'s) or another scheme."""
    text = url.strip(_C0_OR_SPACE).replace("\\", "/")
    text = text.replace("\t", "").replace("\n", "").replace("\r", "")
    base_scheme = urllib.parse.urlsplit(base).scheme.lower() if base else ""
    match = _SCHEME.match(text)
    scheme, rest = (match.group(1).lower(), text[match.end():]) if match else (base_scheme, text)
    if (not match or scheme == base_scheme) and not rest.startswith("//"):
        return None  # a path (or a query) on the base's authority, already vetted
    if scheme not in ("http", "https"):
        return None
    return scheme, re.split("[/?#]", rest.lstrip("/"), maxsplit=1)[0]


def unparsed_refusal(guard: Guard, url: str, base: Optional[str] = None) -> Optional[str]:
    """The guard's refusal (a message beginning :data:`REFUSED`) of ``url`` (resolved against
    ``base``, a redirect's ``Location``) when a browser, reading it by the WHATWG URL
    Standard, would connect to a refused address, or None. httpx reads some such URLs
    otherwise or not at all (``http://0177.0.0.1/``, ``https:127.0.0.1``, full-width digits,
    ``http://127.0.0.1\\x/``); without this they would be "unusable" (the status rules'
    "unavailable", allow all) or a path on the base's host instead of the guard's refusal.
    The connect still vets whatever httpx does request."""
    if not guard.active:
        return None
    read = _browser_authority(url, base)
    if read is None:
        return None
    scheme, authority = read
    try:
        _, host, port = split_origin(f"{scheme}://{authority}/")
    except InvalidURL:
        return None  # no host a browser reads either: unusable
    address = _address_of(host)
    if address is None:
        return None  # a name: the connect resolves and vets it
    why = guard.why(address, port or DEFAULT_PORTS[scheme])
    return None if why is None else f"{_REFUSED}: {_named(host, address)}: {why}"


def _redirect_hook(guard: Guard) -> Callable[[httpx.Response], None]:
    """An httpx response hook refusing a redirect whose ``Location`` is refused by
    :func:`unparsed_refusal`; it runs before httpx builds the next request (which it does
    for every 3xx, following or not, and fails for such a ``Location``)."""

    def hook(response: httpx.Response) -> None:
        location = response.headers.get("location")
        if not 300 <= response.status_code < 400 or not location:
            return
        message = unparsed_refusal(guard, location, str(response.request.url))
        if message is not None:
            message = message.replace(": ", ": a redirect to ", 1)
            raise httpx.ConnectError(message) from AddressRefused(message)

    return hook


def _check_peer(stream: Union[httpcore.NetworkStream, httpcore.AsyncNetworkStream],
                host: str, port: int, guard: Guard) -> None:
    """The address actually connected to is vetted again (the socket's own peer, as
    httpcore's ``server_addr`` reports it for both backends)."""
    address = stream.get_extra_info("server_addr")
    if not isinstance(address, tuple) or not address:
        raise AddressRefused(f"{_REFUSED}: no peer address to check for {host}")
    peer = str(address[0])
    why = guard.why(ipaddress.ip_address(peer), port)
    if why is not None:
        raise AddressRefused(f"{_REFUSED}: {host} connected to {peer}: {why}")


class GuardedBackend(httpcore.NetworkBackend):
    """httpcore's sync network backend, connecting only to vetted addresses."""

    def __init__(self, guard: Guard) -> None:
        self._guard = guard
        self._inner = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: Optional[float] = None,
                    local_address: Optional[str] = None,
                    socket_options: Optional[Iterable[_SocketOption]] = None
                    ) -> httpcore.NetworkStream:
        addresses = vetted(host, port, self._guard)
        error: Optional[BaseException] = None
        for address in addresses:
            try:
                stream = self._inner.connect_tcp(str(address), port, timeout, local_address,
                                                 socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as failed:
                error = failed
                continue
            try:
                _check_peer(stream, host, port, self._guard)
            except BaseException:
                stream.close()
                raise
            return stream
        assert error is not None
        raise error

    def connect_unix_socket(self, path: str, timeout: Optional[float] = None,
                            socket_options: Optional[Iterable[_SocketOption]] = None
                            ) -> httpcore.NetworkStream:
        raise AddressRefused(f"{_REFUSED}: a Unix socket")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The async twin of :class:`GuardedBackend` (anyio); resolution runs in a thread."""

    def __init__(self, guard: Guard) -> None:
        self._guard = guard
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: Optional[float] = None,
                          local_address: Optional[str] = None,
                          socket_options: Optional[Iterable[_SocketOption]] = None
                          ) -> httpcore.AsyncNetworkStream:
        addresses = await anyio.to_thread.run_sync(vetted, host, port, self._guard)
        error: Optional[BaseException] = None
        for address in addresses:
            try:
                stream = await self._inner.connect_tcp(str(address), port, timeout,
                                                       local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as failed:
                error = failed
                continue
            try:
                _check_peer(stream, host, port, self._guard)
            except BaseException:
                await stream.aclose()
                raise
            return stream
        assert error is not None
        raise error

    async def connect_unix_socket(self, path: str, timeout: Optional[float] = None,
                                  socket_options: Optional[Iterable[_SocketOption]] = None
                                  ) -> httpcore.AsyncNetworkStream:
        raise AddressRefused(f"{_REFUSED}: a Unix socket")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)



def _pool_settings(verify: Union[ssl.SSLContext, str, bool]) -> dict[str, object]:
    """The settings httpx gives its own pool, with one TLS context (made once: loading the
    CA bundle is most of a client's set-up cost)."""
    limits = httpx.Limits()
    context = verify if isinstance(verify, ssl.SSLContext) else httpx.create_ssl_context(
        verify=verify)
    return {"ssl_context": context, "max_connections": limits.max_connections,
            "max_keepalive_connections": limits.max_keepalive_connections,
            "keepalive_expiry": limits.keepalive_expiry}


class _Transport(httpx.HTTPTransport):
    """httpx's transport over a pool whose network backend is guarded (httpx exposes no
    backend setting: its pool, ``_pool``, is replaced; tests/network/test_guard.py fails
    if a new httpx stops using it)."""

    def __init__(self, guard: Guard, verify: Union[ssl.SSLContext, str, bool]) -> None:
        settings = _pool_settings(verify)
        super().__init__(verify=settings["ssl_context"])  # type: ignore[arg-type]
        self._pool = httpcore.ConnectionPool(network_backend=GuardedBackend(guard),
                                             **settings)  # type: ignore[arg-type]


class _AsyncTransport(httpx.AsyncHTTPTransport):
    """The async twin of :class:`_Transport`."""

    def __init__(self, guard: Guard, verify: Union[ssl.SSLContext, str, bool]) -> None:
        settings = _pool_settings(verify)
        super().__init__(verify=settings["ssl_context"])  # type: ignore[arg-type]
        self._pool = httpcore.AsyncConnectionPool(
            network_backend=AsyncGuardedBackend(guard),
            **settings)  # type: ignore[arg-type]


def _signing_hook(sign: Sign) -> Callable[[httpx.Request], None]:
    """An httpx request hook signing each request the client sends (redirect hops
    included: httpx runs the hook per request) with the fetch layer's one step."""

    def hook(request: httpx.Request) -> None:
        sign_headers(sign, request.method, str(request.url), request.headers)

    return hook


class GuardedClient(httpx.Client):
    """An :class:`httpx.Client` whose every connection is vetted by ``guard`` (when the
    guard is lifted, an ordinary client); the fetch layer reads :attr:`guard` to refuse
    what the client does not carry (FTP). ``sign``: a signer every request of the client
    is signed with, afresh per request (:mod:`robotsrules._fetch._sign`); default
    unsigned."""

    def __init__(self, guard: Guard, *, timeout: httpx.Timeout,
                 verify: Union[ssl.SSLContext, str, bool] = True,
                 sign: Optional[Sign] = None) -> None:
        self.guard = guard
        transport = _Transport(guard, verify) if guard.active else httpx.HTTPTransport(
            verify=verify)
        hooks: dict[str, list[Callable[..., Any]]] = {}
        if sign is not None:
            hooks["request"] = [_signing_hook(sign)]
        if guard.active:
            hooks["response"] = [_redirect_hook(guard)]
        super().__init__(timeout=timeout, follow_redirects=False, transport=transport,
                         event_hooks=hooks)


class AsyncGuardedClient(httpx.AsyncClient):
    """The async twin of :class:`GuardedClient`."""

    def __init__(self, guard: Guard, *, timeout: httpx.Timeout,
                 verify: Union[ssl.SSLContext, str, bool] = True,
                 sign: Optional[Sign] = None) -> None:
        self.guard = guard
        transport = _AsyncTransport(guard, verify) if guard.active else (
            httpx.AsyncHTTPTransport(verify=verify))
        hooks: dict[str, list[Callable[..., Any]]] = {}
        if sign is not None:
            hook = _signing_hook(sign)

            async def ahook(request: httpx.Request) -> None:
                hook(request)

            hooks["request"] = [ahook]
        if guard.active:
            vet = _redirect_hook(guard)

            async def aresponse(response: httpx.Response) -> None:
                vet(response)

            hooks["response"] = [aresponse]
        super().__init__(timeout=timeout, follow_redirects=False, transport=transport,
                         event_hooks=hooks)
