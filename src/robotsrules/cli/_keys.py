"""``robotsrules keys``: the Web Bot Auth signing key and its published key directory (issue 38).

``keys generate`` writes a new Ed25519 key (PKCS#8 PEM, mode 0600) to ``--out FILE`` or, without
it, to the user's data directory (``$ROBOTSRULES_SIGNING_KEY``, else
``$XDG_DATA_HOME/robotsrules/signing-key.pem``); it never prints the key, nor writes over an
existing file: a private key on a terminal ends up in scroll-back and logs, and a shell
redirection would create a file others may read. It prints the key's ``keyid`` (the RFC 7638
thumbprint) and the path.

``keys directory --signing-key FILE...`` prints (or writes to ``--out FILE``) the key
directory to publish at ``/.well-known/http-message-signatures-directory``: a JWK Set of the
public keys, each with ``kid`` = its thumbprint; two keys during a rotation. With
``--signed-headers --authority HOST`` it prints the response's headers too
(``Content-Type``, ``Content-Digest`` and one signature per key, ``tag=
"http-message-signatures-directory"``), valid for 30 days.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from .._tables._datafile import user_path
from ..errors import InvalidArgument, RobotsError
from ._common import EXIT_OK

__all__ = ["add_command", "default_key_path"]

KEY_ENV = "ROBOTSRULES_SIGNING_KEY"
"""The signing key's path, for ``keys generate`` without ``--out`` (and the fetching
commands' default ``--signing-key``)."""


def default_key_path() -> Path:
    """Where ``keys generate`` writes without ``--out``: ``$ROBOTSRULES_SIGNING_KEY``, else
    ``signing-key.pem`` in the user's robotsrules data directory."""
    return user_path("data", KEY_ENV, "robotsrules/signing-key.pem")


def _generate(args: argparse.Namespace, out: TextIO) -> int:
    from .._identity._httpsig import SigningKey

    target = Path(args.out) if args.out else default_key_path()
    if not args.out:
        try:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise RobotsError(f"{target.parent}: cannot make the directory "
                              f"({error.strerror or error})") from None
    key = SigningKey.generate()
    key.write(target)
    out.write(f"wrote {target} (mode 0600; keyid {key.thumbprint})\n"
              f"publish its public key: robotsrules keys directory --signing-key {target}\n")
    return EXIT_OK


def _authority(text: str) -> str:
    try:
        parts = urlsplit(f"//{text}")
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a host[:port]: {text!r}") from None
    if not parts.hostname or parts.path or parts.query or parts.fragment or "@" in text:
        raise argparse.ArgumentTypeError(f"not a host[:port] (no scheme, no path): {text!r}")
    return text.lower()


def _directory(args: argparse.Namespace, out: TextIO) -> int:
    from .._identity._httpsig import SigningKey, directory_document, sign_directory_response

    if args.signed_headers and not args.authority:
        raise InvalidArgument("--signed-headers needs --authority HOST (where the directory "
                              "is served: the signatures cover it)")
    if args.authority and not args.signed_headers:
        raise InvalidArgument("--authority goes with --signed-headers")
    keys = [SigningKey.load(path) for path in args.signing_key]
    body = directory_document(keys)
    head = ""
    if args.signed_headers:
        headers = sign_directory_response(keys, args.authority, body)
        head = "".join(f"{name}: {value}\n" for name, value in headers.items())
    if args.out:
        try:
            # never through a symbolic link (it could name a file the user did not mean)
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            with os.fdopen(os.open(args.out, flags, 0o644), "wb") as file:
                file.write(body)
        except OSError as error:
            raise RobotsError(f"{args.out}: cannot write ({error.strerror or error})") from None
        out.write(head or f"wrote {args.out} ({len(keys)} key{'s' if len(keys) > 1 else ''})\n")
    else:
        out.write(head + ("\n" if head else "") + body.decode("ascii") + "\n")
    return EXIT_OK


# (flags, settings) of each subcommand's options, in --help order
_OPTIONS: dict[str, list[tuple[tuple[str, ...], dict[str, Any]]]] = {
    "generate": [(("--out",), {"metavar": "FILE", "help": "write the key here (mode 0600)"})],
    "directory": [
        (("--signing-key",), {"metavar": "FILE", "action": "append", "required": True,
                              "help": "a private key file (PKCS#8 PEM, mode 0600); "
                                      "repeatable"}),
        (("--out",), {"metavar": "FILE", "help": "write the document here (the headers, if "
                                                 "asked, still print)"}),
        (("--signed-headers",), {"action": "store_true",
                                 "help": "also print the signed response's headers"}),
        (("--authority",), {"metavar": "HOST", "type": _authority,
                            "help": "the host[:port] the directory is served at (with "
                                    "--signed-headers)"}),
    ],
}


def add_command(commands: Any) -> None:
    """Add the ``keys`` command group (``keys generate``, ``keys directory``)."""
    from ._options import add_command as new_command

    group = new_command(commands, "keys").add_subparsers(
        dest="keys_command", metavar="SUBCOMMAND", required=True)
    for name, run in (("generate", _generate), ("directory", _directory)):
        parser = new_command(group, name, texts=f"keys {name}")
        for flags, settings in _OPTIONS[name]:
            parser.add_argument(*flags, **settings)
        parser.set_defaults(run=run)
