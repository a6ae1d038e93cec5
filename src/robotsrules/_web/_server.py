"""Serving the workbench with uvicorn on a socket bound before the server starts.

The socket is bound and listening when :func:`listen` returns, so the port is known (port
0 picks a free one) and a browser or a test may connect at once: the connection waits in
the listen queue until the server accepts it, with no guess at when the server is ready.
"""

from __future__ import annotations

import inspect
import math
import socket
from typing import Any

from ..errors import MissingExtra

with MissingExtra.guard("robotsrules serve", "web"):
    import uvicorn

__all__ = ["GRACE", "listen", "run_workers", "server"]


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host`` (an address or a name) and ``port``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


GRACE = 5.0
"""Seconds the requests still being answered get to finish when the server stops."""


def _config(app: Any, grace: float, **more: Any) -> uvicorn.Config:
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                          proxy_headers=False, server_header=False, date_header=False,
                          timeout_keep_alive=5, timeout_graceful_shutdown=math.ceil(grace),
                          **more)


def server(app: Any, grace: float = GRACE) -> uvicorn.Server:
    """A uvicorn server for ``app`` (run it with ``.run(sockets=[listen(...)])``; set
    ``.should_exit`` to stop it): no access log (nothing written), no proxy headers
    trusted, no lifespan, the ``Server`` header left out.

    On a stop (SIGTERM, SIGINT), uvicorn closes the listening socket, lets each keep-alive
    connection close after its answer, and gives the requests still being answered
    ``grace`` seconds (rounded up to whole ones) to finish; past that it cancels them:
    the service answers a cancelled request with a whole ``shutting-down`` error or not
    at all (the connection closes), never with part of an answer (each answer is built
    whole before its first octet is sent)."""
    return uvicorn.Server(_config(app, grace))


def run_workers(factory: str, sock: socket.socket, workers: int, grace: float = GRACE
                ) -> None:
    """Serve on ``sock`` (bound once, here) from ``workers`` processes: uvicorn's process
    model (its ``Multiprocess`` supervisor: each worker a spawned process that imports
    ``factory``, ``"module:function"``, and calls it for its own application, so that no
    connection or lock crosses a fork; a worker that dies is started again). SIGTERM or
    SIGINT stops every worker as :func:`server` stops (each gets ``grace`` seconds) and
    returns once all have ended."""
    from uvicorn.supervisors.multiprocess import Multiprocess

    config = _config(factory, grace, factory=True, workers=workers)
    given: dict[str, Any] = {"sockets": [sock]}
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36
        given["target"] = uvicorn.Server(config).run
    Multiprocess(config, **given).run()
