"""Web Bot Auth: HTTP message signatures (RFC 9421) for bots, signing and checking.

Theory of operation. A signed request carries three fields: ``Signature-Agent`` (where the
signer's keys are, an RFC 9651 Dictionary since architecture-04, or a bare String in the
legacy form), ``Signature-Input`` (per label, the covered components and the parameters
``created``, ``expires``, ``keyid``, ``alg``, ``nonce``, ``tag``) and ``Signature`` (per
label, the Ed25519 signature of the *signature base*). The base is one line per covered
component, ``"<name>";<params>: <value>``, then ``"@signature-params": <the serialised
parameters>`` (RFC 9421 §2.5). Both sides build it with :func:`signature_base`, one builder
of our own over the project's RFC 9651 reader (:mod:`robotsrules._sfv`) and a serialiser
here (see the ``sign`` extra's comment in ``pyproject.toml`` for why not a library).

:class:`Signer` makes the three fields for one request (its own authority, a fresh
``created``, ``expires`` and ``nonce``); :func:`verify_signature` reads them back with
public keys the caller finds (``key_for(directory_url, keyid)``: the key is looked up by the
pair, never by ``keyid`` alone) and answers one :class:`SignatureCheck` with an outcome and
one reason from :data:`REASONS`. Nothing here does I/O apart from :meth:`SigningKey.load`
and :meth:`SigningKey.write`. ``cryptography`` is imported lazily (the ``sign`` extra).

The revisions read (and the values taken from them: tags, media type, well-known path,
longest validity) are data: ``data/webbotauth.json``, read by :mod:`._webbotauth`.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import math
import os
import re
import stat
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Optional, Union, cast, get_args
from urllib.parse import urlsplit

from .._sfv import Date, DisplayString, InnerList, Item, Token, parse_dictionary, parse_list
from ..errors import InvalidArgument, MissingExtra
from ._webbotauth import standard

__all__ = [
    "REASONS",
    "DirectoryUnavailable",
    "Outcome",
    "PublicKey",
    "Reason",
    "SignatureAgent",
    "SignatureAgents",
    "SignatureCheck",
    "Signer",
    "SigningKey",
    "directory_document",
    "jwk_thumbprint",
    "parse_directory",
    "parse_signature_agent",
    "public_key_from_jwk",
    "sign_directory_response",
    "signature_base",
    "verify_directory_response",
    "verify_signature",
]

PublicKey = Any
"""A ``cryptography`` public key (Ed25519, or RSA for ``rsa-pss-sha512`` signatures)."""

Outcome = Literal["verified", "not-verified", "unknown"]
Reason = Literal[
    "verified",
    "no-signature",
    "wrong-tag",
    "malformed",
    "fields-missing",
    "expired",
    "validity-too-long",
    "created-in-future",
    "target-not-covered",
    "duplicate-component",
    "unsupported-component",
    "unsupported-algorithm",
    "signature-agent-missing",
    "signature-agent-not-covered",
    "signature-agent-ambiguous",
    "signature-agent-not-https",
    "signature-agent-unparsable",
    "signature-agent-unsupported",
    "key-not-in-directory",
    "test-key",
    "directory-unreachable",
    "signature-mismatch",
]

_REASON_TABLE = """
verified                     verified      the signature verifies with a key of the signer's directory
no-signature                 unknown       the request carries no Signature-Input or Signature
wrong-tag                    not-verified  no signature is tagged for Web Bot Auth
malformed                    not-verified  Signature-Input or Signature is not well formed
fields-missing               not-verified  a required parameter (created, expires, keyid) or the Signature for the label is missing
expired                      not-verified  the signature's expiry has passed
validity-too-long            not-verified  the signature is valid for longer than the protocol allows
created-in-future            not-verified  the signature was created in the future beyond the allowed skew
target-not-covered           not-verified  neither @authority nor @target-uri is covered
duplicate-component          not-verified  a component is covered twice
unsupported-component        unknown       a covered component is one this reader does not build
unsupported-algorithm        unknown       the algorithm is not ed25519 or rsa-pss-sha512
signature-agent-missing      unknown       no Signature-Agent says where the keys are
signature-agent-not-covered  not-verified  the Signature-Agent member is not covered by the signature
signature-agent-ambiguous    not-verified  the covered Signature-Agent does not name one member
signature-agent-not-https    not-verified  the Signature-Agent URL is not https
signature-agent-unparsable   not-verified  Signature-Agent is not a structured field this reads
signature-agent-unsupported  unknown       the Signature-Agent names a kind of document this does not read (an agent card)
key-not-in-directory         not-verified  the key is not in the signer's directory
test-key                     not-verified  the key is a published test key (RFC 9421's), which anyone can sign with
directory-unreachable        unknown       the signer's key directory could not be had
signature-mismatch           not-verified  the signature does not verify over the signature base
"""  # noqa: E501 - one reason a line: reason, outcome, meaning


def _reasons() -> dict[Reason, tuple[Outcome, str]]:
    table: dict[Reason, tuple[Outcome, str]] = {}
    for line in _REASON_TABLE.strip().splitlines():
        reason, outcome, meaning = line.split(None, 2)
        assert reason in get_args(Reason) and outcome in get_args(Outcome), line
        table[cast(Reason, reason)] = (cast(Outcome, outcome), meaning)
    assert set(table) == set(get_args(Reason)), "every reason has one line"
    return table


REASONS: Mapping[Reason, tuple[Outcome, str]] = _reasons()
"""Each reason's outcome and meaning (a reason is given with every answer)."""

MAX_FIELD = 8192
"""Longest ``Signature-Input``, ``Signature`` or ``Signature-Agent`` read (characters)."""
MAX_SIGNATURES = 8
"""At most this many signatures of one request are checked."""
MAX_COMPONENTS = 16
"""At most this many covered components per signature."""
MAX_DIRECTORY_BYTES = 64 * 1024
"""Largest key directory read."""
MAX_DIRECTORY_KEYS = 32
"""At most this many keys read from one directory."""
MAX_KEY_FILE = 16 * 1024
"""Largest private key file read."""
DEFAULT_SKEW = datetime.timedelta(seconds=60)
"""How far in the future ``created`` may be (clocks differ)."""


def _crypto() -> Any:
    """The ``cryptography`` modules used here, imported on first use."""
    try:
        from cryptography import exceptions
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ed25519, padding, rsa
    except ImportError:
        raise MissingExtra("signing and checking Web Bot Auth signatures", "sign",
                           "cryptography") from None

    class Modules:
        pass

    modules = Modules()
    for name, module in (("exceptions", exceptions), ("hashes", hashes),
                         ("serialization", serialization), ("ed25519", ed25519),
                         ("padding", padding), ("rsa", rsa)):
        setattr(modules, name, module)
    return modules


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


_B64URL = re.compile(r"[A-Za-z0-9_-]*")


def _unb64url(text: str) -> bytes:
    """Strict base64url without padding (RFC 7515 §2, as RFC 8037 §2 and RFC 7518 §6.3
    use it): any other letter, padding, or unused bits that are not zero is refused, so
    one key has one spelling (and one thumbprint)."""
    if not isinstance(text, str) or len(text) > 4096 or not _B64URL.fullmatch(text) \
            or len(text) % 4 == 1:
        raise ValueError("not a base64url string")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64url(data) != text:
        raise ValueError("not a canonical base64url string")
    return data


# --- RFC 7638 thumbprints and JWKs ---------------------------------------------------------

_THUMBPRINT_MEMBERS = {"OKP": ("crv", "kty", "x"), "RSA": ("e", "kty", "n"),
                       "EC": ("crv", "kty", "x", "y")}


def jwk_thumbprint(jwk: Mapping[str, Any]) -> str:
    """The RFC 7638 JWK SHA-256 thumbprint of a public JWK, base64url without padding
    (RFC 8037 §2 names the OKP members: ``crv``, ``kty``, ``x``).

    >>> jwk_thumbprint({"kty": "OKP", "crv": "Ed25519",
    ...                 "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"})
    'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
    """
    members = _THUMBPRINT_MEMBERS.get(str(jwk.get("kty")))
    if members is None:
        raise ValueError(f"a JWK of kty {str(jwk.get('kty'))[:20]!r} has no thumbprint here")
    required = {}
    for name in members:
        value = jwk.get(name)
        if not isinstance(value, str):
            raise ValueError(f"a JWK of kty {jwk['kty']} needs the member {name!r}")
        required[name] = value
    text = json.dumps(required, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return _b64url(hashlib.sha256(text.encode("ascii")).digest())


def public_key_from_jwk(jwk: Mapping[str, Any]) -> PublicKey:
    """The public key of an OKP Ed25519 or RSA JWK (2048 to 8192 bits, exponent 65537);
    ``ValueError`` for anything else."""
    crypto = _crypto()
    kty = jwk.get("kty")
    if kty == "OKP" and jwk.get("crv") == "Ed25519":
        raw = _unb64url(jwk.get("x"))  # type: ignore[arg-type]
        if len(raw) != 32:
            raise ValueError("an Ed25519 key is 32 bytes")
        return crypto.ed25519.Ed25519PublicKey.from_public_bytes(raw)
    if kty == "RSA":
        n = int.from_bytes(_unb64url(jwk.get("n")), "big")  # type: ignore[arg-type]
        e = int.from_bytes(_unb64url(jwk.get("e")), "big")  # type: ignore[arg-type]
        if n.bit_length() < 2048 or n.bit_length() > 8192:
            raise ValueError("an RSA key of 2048 to 8192 bits is read")
        if e != 65537:
            # A stranger's huge exponent makes every check cost it as much CPU as it likes
            # (a 3070-bit one: 20 ms a signature); RFC 9421's RSA-PSS test key uses 65537.
            raise ValueError("an RSA key is read with the exponent 65537 only")
        return crypto.rsa.RSAPublicNumbers(e, n).public_key()
    raise ValueError("only OKP Ed25519 and RSA keys are read")


def _ed25519_jwk(public_key: Any) -> dict[str, str]:
    crypto = _crypto()
    raw = public_key.public_bytes(crypto.serialization.Encoding.Raw,
                                  crypto.serialization.PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": _b64url(raw)}
    jwk["kid"] = jwk_thumbprint(jwk)
    return jwk


# --- the private key -----------------------------------------------------------------------

def _check_key_file(name: str, status: os.stat_result) -> None:
    """Refuse a key file that is not a regular file, or (POSIX) that someone else owns or
    that group or others may read or write."""
    if not stat.S_ISREG(status.st_mode):
        raise InvalidArgument(f"{name!s}: not a regular file (a signing key is read from one)")
    if os.name != "posix":
        return
    if status.st_uid not in (os.geteuid(), 0):
        raise InvalidArgument(f"{name!s}: the signing key belongs to another user (uid "
                              f"{status.st_uid}); it must be the reader's own")
    if status.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InvalidArgument(
            f"{name!s}: the signing key is readable by others (mode "
            f"{stat.S_IMODE(status.st_mode):04o}); run: chmod 600 {name!s}")


class SigningKey:
    """An Ed25519 private key for signing requests (and key directories).

    Made by :meth:`generate` or read by :meth:`load` (PKCS#8 PEM, unencrypted, from a file
    no one but its owner may read); written by :meth:`write` (mode 0600). Its ``repr`` shows
    the thumbprint only; it refuses to be pickled (load it from its file instead); a copy
    is the key itself.
    """

    __slots__ = ("_private", "_public_jwk")

    def __init__(self, private_key: Any) -> None:
        crypto = _crypto()
        if not isinstance(private_key, crypto.ed25519.Ed25519PrivateKey):
            raise InvalidArgument("a signing key must be an Ed25519 private key")
        self._private = private_key
        self._public_jwk = _ed25519_jwk(private_key.public_key())

    @classmethod
    def generate(cls) -> SigningKey:
        """A new random key."""
        return cls(_crypto().ed25519.Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, data: bytes) -> SigningKey:
        """The key in PKCS#8 PEM ``data`` (unencrypted); ``InvalidArgument`` otherwise."""
        crypto = _crypto()
        try:
            private = crypto.serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, crypto.exceptions.UnsupportedAlgorithm):
            raise InvalidArgument("not an unencrypted PKCS#8 PEM private key") from None
        return cls(private)

    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> SigningKey:
        """Read the key at ``path``: a regular file (a FIFO or device is refused, so a read
        never blocks), owned by the user reading it (or root), that group and others may not
        read or write (``chmod 600`` it), of at most :data:`MAX_KEY_FILE` bytes. A symbolic
        link is followed; these checks apply to the file it names."""
        name = os.fspath(path)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        try:
            descriptor = os.open(path, flags | getattr(os, "O_BINARY", 0))
        except OSError as error:
            raise InvalidArgument(f"{name!s}: cannot read the signing key "
                                  f"({error.strerror or error})") from None
        try:
            _check_key_file(name, os.fstat(descriptor))  # before any read: a FIFO would block
            with os.fdopen(descriptor, "rb", closefd=False) as file:
                data = file.read(MAX_KEY_FILE + 1)
        except OSError as error:
            raise InvalidArgument(f"{name!s}: cannot read the signing key "
                                  f"({error.strerror or error})") from None
        finally:
            os.close(descriptor)
        if len(data) > MAX_KEY_FILE:
            raise InvalidArgument(f"{name!s}: not a signing key (too large)")
        try:
            return cls.from_pem(data)
        except InvalidArgument as error:
            raise InvalidArgument(f"{name!s}: {error}") from None

    def write(self, path: Union[str, os.PathLike[str]], *, overwrite: bool = False) -> None:
        """Write the key to ``path`` as PKCS#8 PEM with mode 0600; an existing file is
        refused unless ``overwrite`` (and then made 0600 before the key is written)."""
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL)
        try:
            descriptor = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            raise InvalidArgument(f"{os.fspath(path)!s} exists: not overwritten") from None
        except OSError as error:
            raise InvalidArgument(f"{os.fspath(path)!s}: cannot write the signing key "
                                  f"({error.strerror or error})") from None
        with os.fdopen(descriptor, "wb") as file:
            if os.name == "posix":
                os.fchmod(file.fileno(), 0o600)
            file.write(self._pem())

    def _pem(self) -> bytes:
        crypto = _crypto()
        pem: bytes = self._private.private_bytes(
            crypto.serialization.Encoding.PEM, crypto.serialization.PrivateFormat.PKCS8,
            crypto.serialization.NoEncryption())
        return pem

    @property
    def thumbprint(self) -> str:
        """The RFC 7638 SHA-256 thumbprint of the public key: the ``keyid`` it signs with."""
        return self._public_jwk["kid"]

    def public_jwk(self) -> dict[str, str]:
        """The public key as a JWK (``kty``, ``crv``, ``x``, ``kid`` = the thumbprint)."""
        return dict(self._public_jwk)

    @property
    def public_key(self) -> PublicKey:
        """The ``cryptography`` Ed25519 public key."""
        return self._private.public_key()

    def sign(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data``."""
        signature: bytes = self._private.sign(data)
        return signature

    def __repr__(self) -> str:
        return f"SigningKey(thumbprint={self.thumbprint!r})"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("a SigningKey is not pickled: load it from its file in each process")

    def __copy__(self) -> SigningKey:
        return self  # immutable: a copy is the key itself (Scrapy deep-copies its settings)

    def __deepcopy__(self, memo: Any) -> SigningKey:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SigningKey) and other.thumbprint == self.thumbprint

    def __hash__(self) -> int:
        return hash(self.thumbprint)


# --- RFC 9651 serialisation (what the signature base needs) --------------------------------

def _serialise_bare(value: Any) -> str:
    if isinstance(value, bool):
        return "?1" if value else "?0"
    if isinstance(value, Date):
        return f"@{int(value)}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.3f}".rstrip("0")
        return text + "0" if text.endswith(".") else text
    if isinstance(value, Token):
        return str(value)
    if isinstance(value, DisplayString):
        encoded = "".join(chr(b) if 0x20 <= b <= 0x7E and b not in (0x22, 0x25) else f"%{b:02x}"
                          for b in value.encode("utf-8"))
        return f'%"{encoded}"'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bytes):
        return ":" + base64.b64encode(value).decode("ascii") + ":"
    raise ValueError(f"cannot serialise {type(value).__name__}")


def _serialise_params(params: Mapping[str, Any]) -> str:
    return "".join(f";{name}" if value is True else f";{name}={_serialise_bare(value)}"
                   for name, value in params.items())


def _serialise_member(value: Union[Item, InnerList]) -> str:
    bare, params = value
    if isinstance(bare, list):
        inner = " ".join(_serialise_bare(b) + _serialise_params(p) for b, p in bare)
        return f"({inner})" + _serialise_params(params)
    return _serialise_bare(bare) + _serialise_params(params)


# --- the signature base (RFC 9421 §2) -----------------------------------------------------

class _Unsupported(ValueError):
    """A component this builder does not make."""


def _authority(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    return host if port is None or port == default else f"{host}:{port}"


def _origin(url: str) -> str:
    return f"{urlsplit(url).scheme.lower()}://{_authority(url)}"


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    lowered = name.lower()
    for key, value in headers.items():
        if key.lower() == lowered:
            return value
    return None


def _derived(name: str, method: str, url: str) -> str:
    parts = urlsplit(url)
    if name == "@method":
        return method
    if name == "@target-uri":
        return url
    if name == "@authority":
        return _authority(url)
    if name == "@scheme":
        return parts.scheme.lower()
    if name == "@path":
        return parts.path or "/"
    if name == "@query":
        return "?" + parts.query
    if name == "@request-target":
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    raise _Unsupported(f"the derived component {name} is not built here")


@dataclass(frozen=True)
class _Message:
    method: str
    url: str
    headers: Mapping[str, str]
    status: Optional[int] = None
    request: Optional[_Message] = None


def _component_value(message: _Message, name: str, params: Mapping[str, Any]) -> str:
    if set(params) - {"key", "req"}:
        raise _Unsupported(f"the component parameters {sorted(params)} are not read here")
    if params.get("req"):
        if message.request is None:
            raise ValueError(f"{name};req names a request that is not there")
        message = message.request
    if name.startswith("@"):
        if "key" in params:
            raise ValueError(f"{name} takes no key parameter")
        if name == "@status":
            if message.status is None:
                raise ValueError("@status belongs to a response")
            return str(message.status)
        return _derived(name, message.method, message.url)
    value = _header(message.headers, name)
    if value is None:
        raise ValueError(f"the covered field {name!r} is not in the message")
    value = value.strip(" \t")
    if "key" in params:
        member = params["key"]
        if not isinstance(member, str) or isinstance(member, Token):
            raise ValueError("a key parameter is a String")
        members = parse_dictionary(value, max_length=MAX_FIELD)
        if member not in members:
            raise ValueError(f"the member {member!r} is not in {name!r}")
        return _serialise_member(members[member])
    return value


def _components_text(components: Sequence[Item]) -> str:
    return "(" + " ".join(_serialise_bare(name) + _serialise_params(params)
                          for name, params in components) + ")"


def _signature_base(message: _Message, components: Sequence[Item],
                    params: Mapping[str, Any]) -> bytes:
    lines = []
    seen: set[str] = set()
    for name, component_params in components:
        if not isinstance(name, str) or isinstance(name, Token) or name != name.lower():
            raise ValueError("a component name is a lower-case String")
        identifier = _serialise_bare(name) + _serialise_params(component_params)
        if identifier in seen:
            raise _Duplicate(identifier)
        seen.add(identifier)
        value = _component_value(message, name, component_params)
        if "\n" in value or "\r" in value:
            raise ValueError(f"the value of {identifier} holds a line break")
        lines.append(f"{identifier}: {value}")
    lines.append('"@signature-params": ' + _components_text(components)
                 + _serialise_params(params))
    return "\n".join(lines).encode("utf-8")


class _Duplicate(ValueError):
    """A component covered twice."""


def signature_base(method: str, url: str, headers: Mapping[str, str],
                   signature_input: str, label: str) -> bytes:
    """The RFC 9421 §2.5 signature base of the request for ``label`` of ``signature_input``
    (a ``Signature-Input`` field value); ``ValueError`` when it cannot be built.

    >>> print(signature_base("GET", "https://example.com/a", {},
    ...       'sig1=("@authority" "@method");created=1', "sig1").decode())
    "@authority": example.com
    "@method": GET
    "@signature-params": ("@authority" "@method");created=1
    """
    members = parse_dictionary(signature_input, max_length=MAX_FIELD)
    if label not in members or not isinstance(members[label][0], list):
        raise ValueError(f"no inner list labelled {label!r}")
    components, params = members[label]
    return _signature_base(_Message(method, url, headers), components,  # type: ignore[arg-type]
                           params)


# --- Signature-Agent -----------------------------------------------------------------------

AgentForm = Literal["legacy", "origin", "jwks", "card"]


@dataclass(frozen=True)
class SignatureAgent:
    """One signer named by ``Signature-Agent``: the dictionary member (``None`` for the
    legacy bare String), the URL as sent, the form, and the key directory it names (for an
    empty path, the origin's well-known directory, whatever the form but ``card``;
    else the URL itself, a JWK Set URL as in draft-ietf-webbotauth-httpsig-protocol-01).
    ``https`` is False when the URL is not ``https://`` (a verifier refuses it)."""

    member: Optional[str]
    url: str
    form: AgentForm
    directory_url: str
    https: bool


@dataclass(frozen=True)
class SignatureAgents:
    """What a ``Signature-Agent`` field names: the legacy bare String (one agent, member
    ``None``) or one agent per Dictionary member."""

    agents: tuple[SignatureAgent, ...]
    legacy: bool

    def member(self, name: str) -> Optional[SignatureAgent]:
        """The agent of Dictionary member ``name``."""
        for agent in self.agents:
            if agent.member == name:
                return agent
        return None


def _agent(member: Optional[str], url: object, params: Mapping[str, Any]) -> SignatureAgent:
    if not isinstance(url, str) or isinstance(url, Token):
        raise ValueError("a Signature-Agent member is a String holding a URL")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise ValueError("the Signature-Agent URL does not parse") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the Signature-Agent URL is not an absolute http(s) URL")
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise ValueError("the Signature-Agent URL holds credentials or a fragment")
    if "%" in parts.netloc or not parts.netloc.isascii():
        # A percent-escape or a non-ASCII letter in a host reads differently to different
        # URL parsers (one decodes %EF%BD%83 to "c", another connects to it as written).
        raise ValueError("the Signature-Agent host holds a percent-escape or a non-ASCII "
                         "letter")
    kind = params.get("type")
    empty_path = parts.path in ("", "/") and not parts.query
    form: AgentForm
    if kind is None:
        form = "legacy" if member is None else ("origin" if empty_path else "jwks")
    elif kind == "directory" and isinstance(kind, Token):
        form = "origin"
    elif kind == "jwks_uri" and isinstance(kind, Token):
        form = "jwks"
    elif kind == "cimd" and isinstance(kind, Token):
        form = "card"
    else:
        raise ValueError("the Signature-Agent type is not directory, jwks_uri or cimd")
    if form != "card" and empty_path:
        # An empty path names the well-known directory whatever the type says (issue 38):
        # never the origin's root page.
        directory = _origin(url) + standard().well_known_path
    else:
        directory = url
    return SignatureAgent(member, url, form, directory, scheme == "https")


def parse_signature_agent(value: str) -> SignatureAgents:
    """Read a ``Signature-Agent`` field in its three live wire forms: the legacy bare String
    (``"https://chatgpt.com"``), a Dictionary member holding an origin
    (``sig1="https://bot.example"``: its well-known key directory) and a Dictionary member
    holding a JWK Set URL (``sig1="https://bot.example/keys.json"``, protocol -01; also
    with Cloudflare's ``;type=jwks_uri``); ``ValueError`` for anything else.

    >>> parse_signature_agent('sig1="https://bot.example"').agents[0].directory_url
    'https://bot.example/.well-known/http-message-signatures-directory'
    >>> parse_signature_agent('"https://chatgpt.com"').legacy
    True
    """
    if len(value) > MAX_FIELD:
        raise ValueError("Signature-Agent is too long")
    text = value.strip(" \t")
    if text.startswith('"'):
        items = parse_list(text, max_length=MAX_FIELD)
        if len(items) != 1 or isinstance(items[0][0], list):
            raise ValueError("a legacy Signature-Agent is one String")
        return SignatureAgents((_agent(None, items[0][0], {}),), legacy=True)
    members = parse_dictionary(text, max_length=MAX_FIELD)
    if not members:
        raise ValueError("Signature-Agent is empty")
    agents = []
    for name, (url, params) in members.items():
        if isinstance(url, list):
            raise ValueError(f"the Signature-Agent member {name!r} is an inner list")
        agents.append(_agent(name, url, params))
    return SignatureAgents(tuple(agents), legacy=False)


# --- signing -------------------------------------------------------------------------------

def _check_validity(validity: datetime.timedelta, limit: Optional[int] = None) -> int:
    limit = standard().max_validity_seconds if limit is None else limit
    seconds = validity.total_seconds()
    if not 0 < seconds <= limit:
        shown = f"{limit // 86400} days" if limit > 86400 else f"{limit // 3600} hours"
        raise InvalidArgument(f"the validity must be more than 0 and at most {shown}")
    return math.ceil(seconds)


MAX_DIRECTORY_VALIDITY = 366 * 86400
"""Longest validity of a signed directory response made here (the draft's editor's copy
of 2026-08-20 advises a long one: "a short expires ... buys nothing and costs
availability")."""


def _params_text(params: Mapping[str, Any]) -> str:
    return _serialise_params(params)


class Signer:
    """Signs outgoing requests for Web Bot Auth: ``signer(method, url, headers)`` returns the
    headers to add to that request (``Signature-Agent``, ``Signature-Input``,
    ``Signature``), made for its own authority with a fresh ``created``, ``expires`` and
    ``nonce``; ``{}`` when ``origins`` (``None``: any; empty: none) does not hold the URL's
    origin. It raises when the request cannot be signed (a covered field it lacks); the
    fetch layer then sends nothing.

    ``signature_agent`` is where verifiers find the public key: by default (``form=
    "origin"``, the default that ``data/webbotauth.json`` names) the Dictionary member names
    the origin, whose well-known directory holds
    the keys (``sig1="https://bot.example"``); ``form="jwks"`` sends the JWK Set URL itself
    (draft-ietf-webbotauth-httpsig-protocol-01). ``components`` are covered in order;
    ``"signature-agent"`` stands for the member this signer sends
    (``"signature-agent";key="sig1"``), and ``@authority`` or ``@target-uri`` must be
    among them. ``validity`` is at most 24 hours. ``clock`` gives seconds since the
    epoch (``time.time`` by default).
    """

    __slots__ = ("_agent_value", "_clock", "_components", "_key", "_label", "_origins",
                 "_validity")

    def __init__(self, key: SigningKey, signature_agent: str, *,
                 form: Optional[Literal["origin", "jwks"]] = None,
                 components: Sequence[str] = ("@authority", "signature-agent"),
                 validity: datetime.timedelta = datetime.timedelta(minutes=5),
                 label: str = "sig1",
                 origins: Optional[Collection[str]] = None,
                 clock: Optional[Callable[[], float]] = None) -> None:
        if not isinstance(key, SigningKey):
            raise InvalidArgument("key must be a SigningKey")
        try:
            parse_dictionary(f"{label}=1")
        except ValueError:
            raise InvalidArgument(f"label {label!r} is not a structured-field key") from None
        try:
            agent = _agent(label, signature_agent, {})
        except ValueError as error:
            raise InvalidArgument(f"signature_agent: {error}") from None
        form = form or standard().default_signature_agent_form
        if form == "origin":
            if agent.form != "origin":
                raise InvalidArgument("signature_agent: form='origin' sends an origin "
                                      "(https://bot.example); give the origin or use "
                                      "form='jwks' for a JWK Set URL")
            value = _origin(signature_agent)
        elif form == "jwks":
            if agent.form != "jwks":
                raise InvalidArgument("signature_agent: form='jwks' sends a JWK Set URL "
                                      "with a path")
            value = signature_agent
        else:
            raise InvalidArgument("form is 'origin' or 'jwks'")
        names = [name.lower() for name in components]
        if "@authority" not in names and "@target-uri" not in names:
            raise InvalidArgument("components must cover @authority or @target-uri")
        if "signature-agent" not in names:
            raise InvalidArgument("components must cover signature-agent")
        if len(set(names)) != len(names):
            raise InvalidArgument("a component is named twice")
        for name in names:
            if name.startswith("@"):
                try:
                    _derived(name, "GET", "https://a.example/")
                except _Unsupported:
                    raise InvalidArgument(f"the component {name} is not signed here") from None
            elif name in ("signature", "signature-input"):
                raise InvalidArgument(f"{name} cannot be covered")
        agent_value = f"{label}={_serialise_bare(value)}"
        try:  # RFC 9651 (September 2024) §3.3.3: an sf-string is printable ASCII only
            parse_dictionary(agent_value)
        except ValueError:
            raise InvalidArgument("signature_agent: not a structured-field string (printable "
                                  "ASCII only: write a host in its xn-- A-label form)") from None
        if isinstance(origins, (str, bytes)):
            raise InvalidArgument("origins is a collection of origins, not one string: "
                                  "origins=[\"https://a.example\"]")
        self._key = key
        self._agent_value = agent_value
        self._components = tuple(names)
        self._validity = _check_validity(validity)
        self._label = label
        self._origins = (None if origins is None
                         else frozenset(_origin(origin) for origin in origins))
        self._clock = clock or time.time

    @property
    def thumbprint(self) -> str:
        """The ``keyid`` this signer sends."""
        return self._key.thumbprint

    def __repr__(self) -> str:
        return (f"Signer(keyid={self._key.thumbprint!r}, "
                f"signature_agent={self._agent_value!r})")

    def __call__(self, method: str, url: str,
                 headers: Mapping[str, str]) -> dict[str, str]:
        if self._origins is not None and _origin(url) not in self._origins:
            return {}
        created = int(self._clock())
        params: dict[str, Any] = {
            "created": created,
            "keyid": self._key.thumbprint,
            "alg": "ed25519",
            "expires": created + self._validity,
            "nonce": base64.b64encode(os.urandom(64)).decode("ascii"),
            "tag": standard().request_tag,
        }
        covered: list[Item] = [
            (name, {"key": self._label}) if name == "signature-agent" else (name, {})
            for name in self._components]
        seen = {key: value for key, value in headers.items()
                if key.lower() not in ("signature", "signature-input", "signature-agent")}
        seen["Signature-Agent"] = self._agent_value
        base = _signature_base(_Message(method, url, seen), covered, params)
        signature = base64.b64encode(self._key.sign(base)).decode("ascii")
        return {
            "Signature-Agent": self._agent_value,
            "Signature-Input": f"{self._label}={_components_text(covered)}"
                               f"{_params_text(params)}",
            "Signature": f"{self._label}=:{signature}:",
        }


# --- verifying -----------------------------------------------------------------------------

class DirectoryUnavailable(Exception):
    """Raised by a ``key_for`` callable when the key directory could not be had (an error
    status, a redirect, a time-out, a body too large or not a directory); the check's
    answer is then ``unknown`` ("directory-unreachable")."""


@dataclass(frozen=True)
class SignatureCheck:
    """The answer of :func:`verify_signature`: the outcome, one reason of :data:`REASONS`,
    a detail for people, and what was read (label, ``keyid``, the signer's directory URL,
    the agent, ``created``/``expires``/``nonce``; ``None`` where not read)."""

    outcome: Outcome
    reason: Reason
    detail: str = ""
    label: Optional[str] = None
    keyid: Optional[str] = None
    directory_url: Optional[str] = None
    agent: Optional[SignatureAgent] = None
    created: Optional[int] = None
    expires: Optional[int] = None
    nonce: Optional[str] = None
    signature: Optional[bytes] = field(default=None, repr=False)

    @property
    def verified(self) -> bool:
        """Whether the outcome is ``verified``."""
        return self.outcome == "verified"


def _answer(reason: Reason, detail: str = "", **read: Any) -> SignatureCheck:
    return SignatureCheck(REASONS[reason][0], reason, detail or REASONS[reason][1], **read)


def _verify_bytes(key: PublicKey, alg: Optional[str], signature: bytes,
                  base: bytes) -> Optional[bool]:
    """True/False for a signature that checks or not; None for an algorithm not read."""
    crypto = _crypto()
    if isinstance(key, crypto.ed25519.Ed25519PublicKey):
        if alg not in (None, "ed25519"):
            return False
        try:
            key.verify(signature, base)
        except crypto.exceptions.InvalidSignature:
            return False
        return True
    if isinstance(key, crypto.rsa.RSAPublicKey):
        if alg not in (None, "rsa-pss-sha512"):
            return False
        try:
            key.verify(signature, base,
                       crypto.padding.PSS(mgf=crypto.padding.MGF1(crypto.hashes.SHA512()),
                                          salt_length=64),
                       crypto.hashes.SHA512())
        except crypto.exceptions.InvalidSignature:
            return False
        return True
    return None


def _read_fields(headers: Mapping[str, str]) -> Union[SignatureCheck, tuple[dict[str, Any],
                                                                                 dict[str, Any]]]:
    inputs_text = _header(headers, "signature-input")
    signatures_text = _header(headers, "signature")
    if inputs_text is None and signatures_text is None:
        return _answer("no-signature")
    if inputs_text is None or signatures_text is None:
        return _answer("fields-missing", "Signature-Input and Signature come together")
    try:
        inputs = parse_dictionary(inputs_text.strip(" \t"), max_length=MAX_FIELD)
        signatures = parse_dictionary(signatures_text.strip(" \t"), max_length=MAX_FIELD)
    except ValueError as error:
        return _answer("malformed", str(error))
    return inputs, signatures


def _string(value: object) -> bool:
    """An RFC 9651 String: not a Token, a Display String or anything else (RFC 9421 §2.3
    types ``keyid``, ``nonce``, ``tag`` and ``alg`` as Strings)."""
    return type(value) is str


def _integer(value: object) -> bool:
    """An RFC 9651 Integer: not a Date, a Boolean or a Decimal (RFC 9421 §2.3 types
    ``created`` and ``expires`` as Integers)."""
    return type(value) is int


def _timing(params: Mapping[str, Any], now: float, max_skew: datetime.timedelta,
            limited: bool) -> Optional[SignatureCheck]:
    created, expires = params.get("created"), params.get("expires")
    if not _integer(created) or not _integer(expires):
        return _answer("fields-missing", "created and expires must both be Integers")
    assert isinstance(created, int) and isinstance(expires, int)
    if expires <= created:
        return _answer("malformed", "expires is not after created")
    if limited and expires - created > standard().max_validity_seconds:
        return _answer("validity-too-long")
    if created > now + max_skew.total_seconds():
        return _answer("created-in-future")
    if expires < now:
        return _answer("expired")
    return None


def _check_one(message: _Message, label: str, components: list[Item],
               params: Mapping[str, Any], signature: bytes,
               key_for: Callable[[str, str], Optional[PublicKey]], now: float,
               max_skew: datetime.timedelta, tag: str,
               need_agent: bool, allow_test_keys: bool = False) -> SignatureCheck:
    keyid = params.get("keyid")
    nonce = params.get("nonce")
    read: dict[str, Any] = {
        "label": label, "keyid": keyid if _string(keyid) else None,
        "created": params.get("created") if _integer(params.get("created")) else None,
        "expires": params.get("expires") if _integer(params.get("expires")) else None,
        "nonce": nonce if _string(nonce) else None, "signature": signature}
    if not _string(keyid):
        return _answer("fields-missing", "keyid is missing (or not a String)", **read)
    assert isinstance(keyid, str)
    if (nonce is not None and not _string(nonce)) or (
            "alg" in params and not _string(params["alg"])):
        return _answer("malformed", "nonce and alg are Strings", **read)
    timing = _timing(params, now, max_skew, limited=need_agent)
    if timing is not None:
        return _answer(timing.reason, timing.detail, **read)
    if len(components) > MAX_COMPONENTS:
        return _answer("malformed", f"more than {MAX_COMPONENTS} components", **read)
    names = [(name, dict(p)) for name, p in components]
    identifiers = [_serialise_bare(n) + _serialise_params(p) if isinstance(n, str) else ""
                   for n, p in names]
    if len(set(identifiers)) != len(identifiers):
        return _answer("duplicate-component", **read)
    if need_agent:
        if not any(name in ("@authority", "@target-uri") and not p for name, p in names):
            return _answer("target-not-covered", **read)
        agent_or_answer = _covered_agent(message.headers, names, read)
        if isinstance(agent_or_answer, SignatureCheck):
            return agent_or_answer
        agent = agent_or_answer
        directory = agent.directory_url
        read["agent"] = agent
    else:
        directory = message.url
    read["directory_url"] = directory
    try:
        base = _signature_base(message, components, params)
    except _Duplicate:
        return _answer("duplicate-component", **read)
    except _Unsupported as error:
        return _answer("unsupported-component", str(error), **read)
    except ValueError as error:
        return _answer("malformed", str(error), **read)
    if keyid in standard().test_key_thumbprints and not allow_test_keys:
        return _answer("test-key", **read)
    try:
        key = key_for(directory, keyid)
    except (DirectoryUnavailable, OSError) as error:
        return _answer("directory-unreachable", str(error)[:200] or "", **read)
    if key is None:
        return _answer("key-not-in-directory", **read)
    alg = params.get("alg")
    checked = _verify_bytes(key, alg if isinstance(alg, str) else None, signature, base)
    if checked is None:
        return _answer("unsupported-algorithm", **read)
    if not checked:
        return _answer("signature-mismatch", **read)
    del tag
    return _answer("verified", **read)


def _covered_agent(headers: Mapping[str, str], names: list[tuple[Any, dict[str, Any]]],
                   read: dict[str, Any]) -> Union[SignatureAgent, SignatureCheck]:
    value = _header(headers, "signature-agent")
    if value is None:
        return _answer("signature-agent-missing", **read)
    try:
        agents = parse_signature_agent(value)
    except ValueError as error:
        return _answer("signature-agent-unparsable", str(error), **read)
    covered = [p for name, p in names if name == "signature-agent"]
    if not covered:
        return _answer("signature-agent-not-covered", **read)
    if len(covered) > 1:
        return _answer("signature-agent-ambiguous", "Signature-Agent is covered twice", **read)
    member = covered[0].get("key")
    if agents.legacy:
        if member is not None:
            return _answer("signature-agent-unparsable",
                           "a member is covered but Signature-Agent is a bare String", **read)
        agent: Optional[SignatureAgent] = agents.agents[0]
    elif member is None:
        if len(agents.agents) != 1:
            return _answer("signature-agent-ambiguous",
                           "the whole field is covered and it names several agents", **read)
        agent = agents.agents[0]
    else:
        agent = agents.member(str(member))
        if agent is None:
            return _answer("signature-agent-not-covered",
                           f"the covered member {str(member)[:40]!r} is not sent", **read)
    assert agent is not None
    if not agent.https:
        return _answer("signature-agent-not-https", **{**read, "agent": agent})
    if agent.form == "card":
        return _answer("signature-agent-unsupported", **{**read, "agent": agent})
    return agent


def verify_signature(method: str, url: str, headers: Mapping[str, str], *,
                     key_for: Callable[[str, str], Optional[PublicKey]],
                     now: Optional[float] = None,
                     max_skew: datetime.timedelta = DEFAULT_SKEW,
                     allow_test_keys: bool = False) -> SignatureCheck:
    """Check the Web Bot Auth signature of a request: ``verified`` only when a signature
    tagged ``web-bot-auth`` covers ``@authority`` (or ``@target-uri``) and its own
    ``Signature-Agent`` member (an ``https`` URL), is within its validity (at most 24
    hours; ``created`` no further than ``max_skew`` ahead of ``now``) and verifies with the
    key ``key_for(directory_url, keyid)`` gives (``None``: not in that directory; raising
    :class:`DirectoryUnavailable`: the answer is ``unknown``). A ``keyid`` of a published
    test key (RFC 9421's) is refused unless ``allow_test_keys`` (for test vectors). With
    several tagged signatures the first that verifies answers, else the first's failure.
    """
    now = time.time() if now is None else now
    fields = _read_fields(headers)
    if isinstance(fields, SignatureCheck):
        return fields
    inputs, signatures = fields
    tag = standard().request_tag
    message = _Message(method, url, headers)
    first: Optional[SignatureCheck] = None
    tagged = 0
    for label, (components, params) in list(inputs.items())[:MAX_SIGNATURES]:
        if not isinstance(components, list):
            first = first or _answer("malformed", f"{label} is not an inner list", label=label)
            continue
        if params.get("tag") != tag or not _string(params.get("tag")):
            continue
        tagged += 1
        sent = signatures.get(label)
        if sent is None or not isinstance(sent[0], bytes):
            check = _answer("fields-missing", f"no Signature for {label}", label=label)
        else:
            check = _check_one(message, label, components, params, sent[0], key_for, now,
                               max_skew, tag, need_agent=True,
                               allow_test_keys=allow_test_keys)
        if check.verified:
            return check
        first = first or check
    if not tagged:
        return first or _answer("wrong-tag")
    assert first is not None
    return first


# --- key directories -----------------------------------------------------------------------

def directory_document(keys: Iterable[SigningKey]) -> bytes:
    """The key directory (a JWK Set, media type
    ``application/http-message-signatures-directory+json``) of ``keys``, each with ``kid`` =
    its thumbprint. Two keys during a rotation: publish both, sign with the new one, then
    drop the old one once no signature made with it is still valid (at most 24 hours)."""
    jwks = []
    seen = set()
    for key in keys:
        if key.thumbprint not in seen:
            seen.add(key.thumbprint)
            jwks.append(key.public_jwk())
    if not jwks:
        raise InvalidArgument("a key directory needs at least one key")
    return json.dumps({"keys": jwks}, separators=(",", ":")).encode("ascii")


def parse_directory(body: bytes) -> dict[str, PublicKey]:
    """The keys of a key directory, by thumbprint; ``ValueError`` for a body that is not a
    JWK Set, larger than :data:`MAX_DIRECTORY_BYTES` or holding more than
    :data:`MAX_DIRECTORY_KEYS` keys. A key whose ``kid`` is not its thumbprint is left out
    (RFC 9421 ties a ``keyid`` to one key), as are keys of kinds not read."""
    if len(body) > MAX_DIRECTORY_BYTES:
        raise ValueError(f"the key directory is larger than {MAX_DIRECTORY_BYTES} bytes")
    try:
        document = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("the key directory is not JSON") from None
    if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise ValueError("the key directory is not a JWK Set (no 'keys' list)")
    if len(document["keys"]) > MAX_DIRECTORY_KEYS:
        raise ValueError(f"the key directory holds more than {MAX_DIRECTORY_KEYS} keys")
    keys: dict[str, PublicKey] = {}
    for jwk in document["keys"]:
        if not isinstance(jwk, dict):
            continue
        try:
            thumbprint = jwk_thumbprint(jwk)
            if "kid" in jwk and jwk["kid"] != thumbprint:
                continue
            keys[thumbprint] = public_key_from_jwk(jwk)
        except ValueError:
            continue
    return keys


def _content_digest(body: bytes) -> str:
    return "sha-256=:" + base64.b64encode(hashlib.sha256(body).digest()).decode("ascii") + ":"


def sign_directory_response(keys: Sequence[SigningKey], authority: str, body: bytes, *,
                            validity: datetime.timedelta = datetime.timedelta(days=30),
                            clock: Optional[Callable[[], float]] = None) -> dict[str, str]:
    """The response headers of a signed key directory served at ``authority``
    (``bot.example``): ``Content-Type``, ``Content-Digest`` (RFC 9530, SHA-256) and one
    signature per key (labels ``binding0``, ``binding1``...), each covering
    ``"@authority";req`` and ``content-digest`` with ``tag="http-message-signatures-directory"``,
    valid for ``validity`` (30 days by default, at most a year: a short one makes every
    verifier drop the keys at once when it lapses)."""
    created = int((clock or time.time)())
    expires = created + _check_validity(validity, MAX_DIRECTORY_VALIDITY)
    request = _Message("GET", f"https://{authority}{standard().well_known_path}", {})
    headers = {"Content-Type": standard().media_type, "Content-Digest": _content_digest(body)}
    response = _Message("GET", request.url, headers, status=200, request=request)
    covered: list[Item] = [("@authority", {"req": True}), ("content-digest", {})]
    inputs, signatures = [], []
    for index, key in enumerate(keys):
        params = {"created": created, "keyid": key.thumbprint, "alg": "ed25519",
                  "expires": expires, "tag": standard().directory_tag}
        base = _signature_base(response, covered, params)
        label = f"binding{index}"
        inputs.append(f"{label}={_components_text(covered)}{_params_text(params)}")
        signatures.append(f"{label}=:{base64.b64encode(key.sign(base)).decode('ascii')}:")
    if not inputs:
        raise InvalidArgument("a signed directory needs at least one key")
    return {**headers, "Signature-Input": ", ".join(inputs), "Signature": ", ".join(signatures)}


def verify_directory_response(url: str, headers: Mapping[str, str], body: bytes, *,
                              now: Optional[float] = None,
                              max_skew: datetime.timedelta = DEFAULT_SKEW,
                              allow_test_keys: bool = False) -> SignatureCheck:
    """Check a signed key directory response fetched from ``url``: the ``Content-Digest``
    must be the body's SHA-256 and a signature tagged ``http-message-signatures-directory``
    must verify with a key of the body itself (``created`` in the future beyond
    ``max_skew`` refused). ``verified`` proves the directory's keys are held by whoever
    signed at that authority; ``no-signature`` for an unsigned directory."""
    now = time.time() if now is None else now
    fields = _read_fields(headers)
    if isinstance(fields, SignatureCheck):
        return fields
    inputs, signatures = fields
    digest = _header(headers, "content-digest")
    if digest is None or digest.strip() != _content_digest(body):
        return _answer("signature-mismatch", "Content-Digest is not the body's SHA-256")
    try:
        keys = parse_directory(body)
    except ValueError as error:
        return _answer("malformed", str(error))
    tag = standard().directory_tag
    request = _Message("GET", url, {})
    response = _Message("GET", url, headers, status=200, request=request)
    first: Optional[SignatureCheck] = None
    for label, (components, params) in list(inputs.items())[:MAX_SIGNATURES]:
        if not isinstance(components, list) or params.get("tag") != tag \
                or not _string(params.get("tag")):
            continue
        sent = signatures.get(label)
        if sent is None or not isinstance(sent[0], bytes):
            check = _answer("fields-missing", f"no Signature for {label}", label=label)
        else:
            if not any(n == "@authority" for n, _ in components):
                check = _answer("target-not-covered", label=label)
            else:
                check = _check_one(response, label, components, params, sent[0],
                                   lambda _url, keyid: keys.get(keyid), now, max_skew, tag,
                                   need_agent=False, allow_test_keys=allow_test_keys)
        if check.verified:
            return check
        first = first or check
    return first or _answer("wrong-tag")
