"""Listening TCP sockets bound before a server starts, so a busy port is one clear ConfigError.

``citecast serve`` binds the web port here before uvicorn runs, and the email connector binds its
SMTP listener here too: an ``OSError`` from deep inside an event loop would otherwise surface as
a traceback and uvicorn's "Application startup failed" (exit status 3) after other services
had already started.
"""

from __future__ import annotations

import errno
import socket

from bot.errors import ConfigError


def listen(
    host: str, port: int, *, port_key: str | None = None, host_key: str | None = None
) -> socket.socket:
    """A TCP socket listening on ``host:port`` (``0``: a free port).

    Errors name the setting to change: ``port_key``/``host_key`` (for example
    ``email.listen_port``) lead the message; without them it speaks of the web server's
    ``--port or web.port`` and ``--host or web.host``.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto given explicitly: asyncio turns Nagle off (TCP_NODELAY) only on connections whose
    # socket says IPPROTO_TCP; with the default 0 every small response waited ~40 ms for an ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # listening at once: a client that connects while the services start waits, not refused
        sock.listen()
    except OSError as exc:
        sock.close()
        where = f"cannot listen on {host}:{port}"
        if exc.errno == errno.EADDRINUSE:
            if port_key is None:
                raise ConfigError(
                    f"{where}: the port is in use by another program; "
                    "choose another with --port or web.port"
                ) from None
            raise ConfigError(
                f"{port_key}: {where}: the port is in use by another program; choose another"
            ) from None
        reason = exc.strerror or str(exc)
        if host_key is None:
            raise ConfigError(f"{where}: {reason} (check --host or web.host)") from None
        raise ConfigError(f"{host_key}: {where}: {reason}") from None
    return sock
