"""Key directories served over HTTPS on loopback, with a certificate authority of the test's
own (made with ``cryptography``): no certificate of the system is trusted or touched, and
nothing leaves 127.0.0.1.

:func:`authority` makes the CA and a server certificate for ``127.0.0.1`` and
``localhost``; :class:`TLSServer` is the scriptable :class:`~tests.network.servers.RawHTTPServer`
speaking TLS with it; :func:`directory` is the scenario of a well-formed key directory.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import socket
import ssl
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from robotsrules._identity._httpsig import SigningKey, directory_document
from robotsrules._identity._webbotauth import standard
from tests.network.servers import HOST, Handler, RawHTTPServer, Scenario, not_found, respond


@dataclass(frozen=True)
class Authority:
    """A test CA (``ca_file``, PEM) and the server side's TLS context it signed."""

    ca_file: Path
    server: ssl.SSLContext


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def authority(folder: Path) -> Authority:
    """A CA and a server certificate for ``127.0.0.1`` and ``localhost`` it signed."""
    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("robotsrules test CA"))
          .issuer_name(_name("robotsrules test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - day)
          .not_valid_after(now + day)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(_name("localhost")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - day).not_valid_after(now + day)
            .add_extension(x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]),
                critical=False)
            .sign(ca_key, hashes.SHA256()))
    ca_file = folder / "ca.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    chain, key_file = folder / "server.pem", folder / "server-key.pem"
    chain.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(chain, key_file)
    return Authority(ca_file, server)


class TLSServer(RawHTTPServer):
    """One HTTPS origin on ``127.0.0.1`` (each connection wrapped in TLS first)."""

    def __init__(self, tls: ssl.SSLContext, handler: Handler = not_found) -> None:
        self._tls = tls
        super().__init__(handler)

    @property
    def origin(self) -> str:
        return f"https://{HOST}:{self.port}"

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(self.read_timeout)
        try:
            wrapped = self._tls.wrap_socket(conn, server_side=True)
        except OSError:  # the client refused our certificate, or went away
            with contextlib.suppress(OSError):
                conn.close()
            return
        super()._serve(wrapped)


def directory(keys: Iterable[SigningKey], headers: Optional[Mapping[str, str]] = None,
              content_type: Optional[str] = None) -> Scenario:
    """A key directory of ``keys`` with the directory media type (or ``content_type``)."""
    return respond(200, directory_document(keys), headers,
                   content_type or standard().media_type)


WELL_KNOWN = standard().well_known_path
