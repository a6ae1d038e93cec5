"""``robotsrules serve``: the site owner's workbench page, served on this computer.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. Binds 127.0.0.1 by default;
another address only when asked, with a warning (anyone who reaches it can use the page,
and make it fetch). Runs until interrupted (exit 130 on Ctrl-C, 143 on SIGTERM, as every
command). Needs the ``web`` extra.
"""

from __future__ import annotations

import argparse
import ipaddress
import webbrowser
from typing import Any, TextIO

from ._common import EXIT_OK
from ._output import warn

__all__ = ["add_command"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._web._app import create_app
    from .._web._server import listen, server

    if not _loopback(args.host):
        warn(f"serving on {args.host}, not on this computer alone: anyone who can reach "
             "that address can use the page and make it fetch robots.txt files")
    app = create_app(host=args.host, allow_private_addresses=args.allow_private_addresses)
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    out.write(f"robotsrules workbench on {url} (Ctrl-C stops it)\n")
    out.flush()
    if args.open:
        webbrowser.open(url)  # the socket listens already: the browser's request waits
    try:
        server(app).run(sockets=[sock])
    finally:
        sock.close()
    return EXIT_OK


_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--host", {"default": "127.0.0.1", "metavar": "ADDRESS",
                "help": "the address to listen on (default 127.0.0.1: this computer only; "
                        "another address is served with a warning)"}),
    ("--port", {"type": int, "default": 8339, "metavar": "N",
                "help": "the port to listen on (default 8339; 0: any free port)"}),
    ("--open", {"action": "store_true", "help": "open the page in the default web browser"}),
    ("--allow-private-addresses", {
        "action": "store_true",
        "help": "let fetch-by-URL reach loopback, private and link-local addresses (refused "
                "by default: server-side request forgery)"}),
)


def add_command(commands: Any) -> None:
    """Add ``serve`` to the ``robotsrules`` subcommands."""
    from ._options import add_command as new_command

    serve = new_command(commands, "serve")
    for flag, settings in _OPTIONS:
        serve.add_argument(flag, **settings)
    serve.set_defaults(run=_run)
