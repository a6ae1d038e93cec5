"""Serving the workbench with uvicorn on a socket bound before the server starts.

The socket is bound and listening when :func:`listen` returns, so the port is known (port
0 picks a free one) and a browser or a test may connect at once: the connection waits in
the listen queue until the server accepts it, with no guess at when the server is ready.
"""

from __future__ import annotations

import socket
from typing import Any

from ..errors import MissingExtra

with MissingExtra.guard("robotsrules serve", "web"):
    import uvicorn

__all__ = ["listen", "server"]


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


def server(app: Any) -> uvicorn.Server:
    """A uvicorn server for ``app`` (run it with ``.run(sockets=[listen(...)])``; set
    ``.should_exit`` to stop it): no access log (nothing written), no proxy headers
    trusted, no lifespan, the ``Server`` header left out; on a stop, requests still being
    answered get five seconds to finish."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            proxy_headers=False, server_header=False, date_header=False,
                            timeout_keep_alive=5, timeout_graceful_shutdown=5)
    return uvicorn.Server(config)
