"""``robotsrules serve``: the site owner's workbench page, served on this computer.

Hooked into :mod:`robotsrules.cli` by :func:`add_command`. Binds 127.0.0.1 by default;
another address only when asked, with a warning (anyone who reaches it can use the page,
and make it fetch). Runs until interrupted (exit 130 on Ctrl-C, 143 on SIGTERM, as every
command). Needs the ``web`` extra.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import stat
import webbrowser
from typing import Any, TextIO

from .._terminal import visible
from ..errors import RobotsError
from ._common import EXIT_OK
from ._options import positive_seconds
from ._output import warn

__all__ = ["add_command", "worker_app"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _store(spec: str) -> Any:
    """``--store``: ``memory``, ``redis://...`` or a SQLite file's path."""
    from ..cache import MemoryStore, SQLiteStore

    if spec == "memory":
        return MemoryStore()
    if spec.startswith(("redis://", "rediss://", "unix://")):
        from ..cache.redis import RedisStore

        return RedisStore(url=spec)
    return SQLiteStore(spec)


def _api(args: argparse.Namespace) -> Any:
    from .._web._api import Limits, create_api
    from ._options import signer, user_agent

    token = None
    if args.token_file:
        from ._input import read_input

        try:  # every octet of the token counts: no replacement character
            token = read_input(args.token_file, 4096).data.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise RobotsError(f"--token-file {args.token_file}: the file is not UTF-8"
                              ) from None
        if not token:
            raise RobotsError(f"--token-file {args.token_file}: the file is empty")
    limits = Limits(fetch_timeout=args.timeout, **{  # an option not given: the default
        name: getattr(args, name) for name in _LIMITS if getattr(args, name) is not None})
    return create_api(host=args.host, allowed_hosts=tuple(args.allowed_host), limits=limits,
                      store=_store(args.store), user_agent=user_agent(args, agents=[]),
                      allow_private_addresses=args.allow_private_addresses,
                      sign=signer(args), token=token, guard=_guard(args),
                      trusted_proxies=tuple(args.trusted_proxy))


def _guard(args: argparse.Namespace) -> Any:
    """The address guard of ``--dns-server`` (None: the service's own, the system's resolver)."""
    if args.dns_server is None:
        return None
    from .._fetch._pinned import Guard  # the guard vets what this server answers
    from .._identity._dns import DnsChecker

    resolver = DnsChecker(args.dns_server, deadline=args.timeout)
    return Guard(allow_private_addresses=args.allow_private_addresses, resolve=resolver.addresses)


def _workers(text: str) -> int:
    """--workers: 1 to 64 processes."""
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"expected 1 to 64 processes, not '{visible(text)}'")
    return int(text)


_SETTINGS = "ROBOTSRULES_SERVE_SETTINGS"
"""The environment variable that gives each ``--workers`` process the command's options
(JSON; never a token: each worker reads ``--token-file`` itself)."""


def _one_shot_token(path: Any) -> None:
    """``--workers`` > 1: each worker reads ``--token-file`` itself, so it must be a regular
    file (a pipe, ``<(...)`` or ``-`` is read once: the workers would find it empty)."""
    if not path:
        return
    try:
        regular = path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return  # missing or unreadable: reading it says so
    if not regular:
        raise RobotsError(f"--token-file {visible(path)}: with --workers, a regular file "
                          "(each worker reads it; a pipe or '-' can be read only once)")


def _access_log(args: argparse.Namespace, out: TextIO) -> None:
    """``--api``'s access log: JSON lines on ``out`` (``--no-access-log``: none)."""
    if args.no_access_log:
        return
    import logging

    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access = logging.getLogger("robotsrules.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False


def worker_app() -> Any:
    """The service of one ``serve --api --workers N`` process (uvicorn calls it in each
    worker it spawns): built from the options the supervisor put in the environment."""
    import sys

    args = argparse.Namespace(**json.loads(os.environ[_SETTINGS]))
    _access_log(args, sys.stdout)
    return _api(args)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from .._web._app import create_app
    from .._web._server import listen, run_workers, server

    if not _loopback(args.host):
        warn(f"serving on {args.host}, not on this computer alone: anyone who can reach "
             "that address can use the " + ("service" if args.api else "page")
             + " and make it fetch robots.txt files")
    if args.workers > 1 and not args.api:
        raise RobotsError("--workers: the JSON service only (--api)")
    if args.workers > 1:
        _one_shot_token(args.token_file)
        _api(args)  # a mistake in the options: said once, here, before any worker starts
        os.environ[_SETTINGS] = json.dumps({k: v for k, v in vars(args).items()
                                            if k != "run"})
        app = None
    elif args.api:
        _access_log(args, out)
        app = _api(args)
    else:
        app = create_app(host=args.host, allow_private_addresses=args.allow_private_addresses)
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    what = "JSON service" if args.api else "workbench"
    out.write(f"robotsrules {what} on {url} (Ctrl-C stops it)\n")
    out.flush()
    if args.open:
        webbrowser.open(url)  # the socket listens already: the browser's request waits
    try:
        if app is None:
            run_workers(f"{__name__}:worker_app", sock, args.workers, args.shutdown_timeout)
        else:
            server(app, args.shutdown_timeout).run(sockets=[sock])
    finally:
        sock.close()
    return EXIT_OK


def _network(text: str) -> str:
    """--trusted-proxy: an address or a network (CIDR)."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an address or a network such as "
                                         f"10.0.0.0/8, not '{visible(text)}'") from None


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
    ("--api", {"action": "store_true",
               "help": "serve the JSON service (/v1/check, explain, lint, usage, stance, verify, "
                       "verify-request, page, license, generate; /healthz, /readyz, "
                       "/openapi.json) instead of the page"}),
    ("--allowed-host", {"action": "append", "default": [], "metavar": "NAME",
                        "help": "--api: a Host name accepted beside the bound address (behind "
                                "a load balancer; repeatable)"}),
    ("--store", {"default": "memory", "metavar": "WHERE",
                 "help": "--api: where fetched robots.txt files are cached: memory (default), "
                         "a SQLite file's path, or a redis:// URL"}),
    ("--no-access-log", {"action": "store_true",
                         "help": "--api: write no access log (default: one JSON line per "
                                 "/v1/ request on standard output, no bodies or headers)"}),
    ("--token-file", {"metavar": "FILE",
                      "help": "--api: require 'Authorization: Bearer TOKEN', the token read "
                              "from FILE"}),
    ("--dns-server", {"metavar": "IP[:PORT]",
                      "help": "--api: resolve the names of the sites fetched with this DNS "
                              "server (default: the system's resolver; every address "
                              "answered is vetted all the same; needs 'robotsrules[verify]')"}),
    ("--workers", {"type": _workers, "default": 1, "metavar": "N",
                   "help": "--api: answer from N processes (1-64) on the one socket bound "
                           "here (uvicorn's process model; a worker that dies is started "
                           "again); share their cache with --store redis://..."}),
    ("--shutdown-timeout", {"type": positive_seconds, "default": 5.0, "metavar": "SECONDS",
                            "help": "on SIGTERM, the time requests still being answered get "
                                    "to finish (default 5); past it they are answered "
                                    "'shutting-down' (503) or the connection closes"}),
    ("--trusted-proxy", {"action": "append", "default": [], "metavar": "CIDR",
                         "type": _network,
                         "help": "--api: a load balancer's addresses: from them, the client "
                                 "is X-Forwarded-For's last address (repeatable; default "
                                 "none)"}),
)

_LIMITS = {
    "max_body": ("BYTES", "the largest request body"),
    "max_urls": ("N", "URLs per request"),
    "max_agents": ("N", "agents per request"),
    "max_cells": ("N", "URLs x agents per request"),
    "max_sites": ("N", "sites a check fetches robots.txt from"),
    "fetch_concurrency": ("N", "of those fetched at once"),
    "check_deadline": ("SECONDS", "a check's time for its fetches"),
    "max_work": ("N", "rules x answers per request"),
    "max_stance_rules": ("N", "rules a stance settles"),
    "max_answer": ("BYTES", "the largest answer"),
    "refresh_interval": ("SECONDS", "time between two refreshes of one site"),
    "rate": ("PER_SECOND", "requests per second per client"),
    "burst": ("N", "requests a client may make at once"),
}
"""The limits' options (``--max-body`` for ``max_body``): a metavar and what each bounds;
their defaults are :class:`robotsrules._web._api.Limits`' (one home)."""


def add_command(commands: Any) -> None:
    """Add ``serve`` to the ``robotsrules`` subcommands."""
    from ._options import add_command as new_command
    from ._options import count, fetch_options, per_second, positive_seconds

    serve = new_command(commands, "serve")
    for flag, settings in _OPTIONS:
        serve.add_argument(flag, **settings)
    for name, (metavar, bounds) in _LIMITS.items():
        kind = {"SECONDS": positive_seconds, "PER_SECOND": per_second}.get(metavar, count(1))
        serve.add_argument("--" + name.replace("_", "-"), type=kind, metavar=metavar,
                           help=f"--api: {bounds} (default: GET /v1/limits)")
    fetch_options(serve)  # --api: the fetch identity (User-Agent, signing key), time-out
    serve.set_defaults(run=_run)
