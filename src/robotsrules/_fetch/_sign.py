"""Request signing in the fetch layer: the one step every outgoing request takes.

The fetch layer does not know how to sign (Web Bot Auth lives in ``_identity``, which this
layer never imports): it is given a *signer*, any callable of the :data:`Sign` shape
(:class:`robotsrules._identity._httpsig.Signer` is one), and calls it through
:func:`sign_headers` for every request it sends. That one step:

1. drops the signature headers the request already carries (``Signature``,
   ``Signature-Input``, ``Signature-Agent``): a redirect hop copies the previous hop's
   headers, and a signature made for one authority must never reach another;
2. asks the signer for this request's own headers (method, URL, the headers as they are);
3. adds what it answered. An empty answer (the signer's ``origins`` refuse this URL's
   origin) leaves the request unsigned; a signer that raises stops the request
   (:class:`SigningFailed`: the robots.txt fetch reads it as ``unreachable``), as does a
   ``Host`` header naming another authority than the URL (whose authority is signed).

It runs afresh on every request, redirect hops and retries included, so each signature is
made for the authority it is sent to. With no signer (``sign=None``, the default) step 1
still runs on the requests this layer builds, and nothing is added: signing is off unless
configured. ``http://`` and ``https://`` are signed alike: draft-ietf-webbotauth-httpsig-
protocol-00 (2026-09-01) recommends TLS; whether to sign over plain HTTP is the operator's
choice (the signer's ``origins`` can leave it out).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from .._scope import split_origin
from ..errors import InvalidURL, SigningFailed

if TYPE_CHECKING:
    from typing import TypeAlias

__all__ = ["SIGNATURE_HEADERS", "Sign", "SigningFailed", "sign_headers"]

Sign: TypeAlias = Callable[[str, str, Mapping[str, str]], Mapping[str, str]]
"""A signer: ``sign(method, url, headers)`` returns the headers to add to that one request
(``{}``: leave it unsigned). Called once per request sent, redirect hops included."""

SIGNATURE_HEADERS = frozenset({"signature", "signature-input", "signature-agent"})
"""The headers a signature consists of (lower case), dropped before each request is signed."""


def _text(value: Union[str, bytes]) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value


def _combined(headers: Mapping[Any, Any]) -> dict[str, str]:
    """The headers as text, one entry per name: the values of a repeated field (a multi-dict
    lists each; Scrapy keeps a list) in order, each stripped, joined with ", " (RFC 9421
    (February 2024) §2.1: what a verifier reads for that field)."""
    fields: dict[str, tuple[str, list[str]]] = {}
    for name, value in headers.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        text = _text(name)
        fields.setdefault(text.lower(), (text, []))[1].extend(_text(v).strip() for v in values)
    return {name: ", ".join(values) for name, values in fields.values()}


def _host_differs(url: str, headers: Mapping[str, str]) -> Optional[str]:
    """The request's ``Host`` header when it names another authority than ``url`` (whose
    authority a signature covers: RFC 9421 (February 2024) §2.2.3), else ``None``."""
    host = next((value for name, value in headers.items() if name.lower() == "host"), None)
    if host is None:
        return None
    try:
        scheme = split_origin(url)[0]
        if not any(c in host for c in "/\\@?#") and (
                split_origin(f"{scheme}://{host.strip()}/") == split_origin(url)):
            return None
    except InvalidURL:
        pass
    return host


def sign_headers(sign: Optional[Sign], method: str, url: str,
                 headers: MutableMapping[Any, Any]) -> None:
    """Sign one request in place: drop its earlier signature headers, then add what
    ``sign`` answers for ``method`` and ``url`` (nothing when ``sign`` is None).

    ``headers`` is the request's own mutable header mapping (httpx, aiohttp, Scrapy or a
    ``dict``; names may be ``bytes``, Scrapy's values lists of octets); the signer sees
    each field once, repeated values combined as a verifier reads them."""
    # dict.fromkeys: a multi-dict (aiohttp) lists a repeated name once per value
    for name in dict.fromkeys(n for n in headers if _text(n).lower() in SIGNATURE_HEADERS):
        del headers[name]
    if sign is None:
        return
    current = _combined(headers)
    host = _host_differs(url, current)
    if host is not None:  # the signature would vouch for the URL's authority, not this one
        raise SigningFailed(f"cannot sign the request to {url}: its Host header {host!r} "
                            "names another authority")
    try:
        added = dict(sign(method.upper(), url, current))
    except Exception as error:  # any signer, ours or the caller's: never "unavailable"
        raise SigningFailed(f"cannot sign the request to {url}: {error}") from error
    for name, value in added.items():
        headers[name] = value
