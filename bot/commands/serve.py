"""``citecast serve``: the web chat on http://127.0.0.1:8000 plus every enabled channel."""

from __future__ import annotations

import argparse
import logging
import socket
from typing import TYPE_CHECKING

from bot.listening import listen as listen  # the web port's socket; re-exported

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette

    from bot.config import Settings

HELP = "serve the web chat, the API and every enabled channel"
DESCRIPTION = """\
Serve the chat page, the embeddable widget, the REST and streaming API, signed file downloads
and every channel config.yaml enables, in one process (uvicorn).

Ctrl-C (SIGINT) or SIGTERM stop it gracefully: answers being written get web.shutdown_grace
seconds to finish; any that do not are recorded as failed, never lost silently.
One server per store: a second one on the same store.path refuses to start.

examples:
  citecast ingest examples/ && citecast serve     then open http://127.0.0.1:8000
  citecast serve --host 0.0.0.0 --port 9000
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--host`` and ``--port`` override ``web.host`` and ``web.port``."""
    parser.add_argument("--host", help="address to listen on (default: web.host, 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, help="port to listen on (default: web.port, 8000; 0 picks a free one)"
    )


def address(host: str, listener: socket.socket) -> str:
    """The URL the server answers on (the real port when 0 picked one)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{listener.getsockname()[1]}"


def run_server(app: Starlette, server: uvicorn.Server, listener: socket.socket) -> None:
    """Serve ``app`` on ``listener`` until stopped.

    Raises the ConfigError a connector met while starting (a token the platform refused): the
    app stops the server, and the command reports it in one line, exit status 2, rather than
    uvicorn's start-up traceback.
    """
    app.state.stop_server = lambda: setattr(server, "should_exit", True)
    server.run(sockets=[listener])
    error = getattr(app.state, "startup_error", None)
    if error is not None:
        raise error


def with_bind_host(settings: Settings, host: str) -> Settings:
    """``settings`` serving on ``host`` (from ``--host``): a name given there is one the web
    channel answers to, as ``web.host`` is (see ``web.allowed_hosts``)."""
    if host == settings.web.host:
        return settings
    web = settings.web.model_copy(update={"host": host})
    return settings.model_copy(update={"web": web})


def run(args: argparse.Namespace) -> int:
    """Build the services and run the app under uvicorn until SIGINT/SIGTERM."""
    from pathlib import Path

    import uvicorn

    from bot.assistant import Assistant
    from bot.config_file import load_settings
    from bot.connectors.app import build_app
    from bot.connectors.web import build_signer
    from bot.errors import ConfigError
    from bot.knowledge.records import check_tables
    from bot.runtime import Services
    from bot.store import Store
    from bot.store_lock import StoreLock

    settings = load_settings(args.config)
    records = check_tables(settings.index.records)
    host = args.host or settings.web.host
    settings = with_bind_host(settings, host)
    port = settings.web.port if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port: {port} is not a TCP port")
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    lock = StoreLock(settings.store.path)
    lock.acquire()
    store = Store(settings.store.path)
    listener: socket.socket | None = None
    try:
        listener = listen(host, port)  # before anything starts: a port in use fails at once
        assistant = Assistant.from_settings(settings, records)
        # Other channels get signed links only when the deployment has a public address.
        signer = build_signer(settings) if settings.web.public_base_url else None
        services = Services(settings=settings, store=store, assistant=assistant, signer=signer)
        # Builds every enabled connector, whose settings are checked here (ConfigError naming
        # the key) rather than in the app's start-up, where uvicorn turns an error into a
        # traceback and exit status 3.
        app = build_app(services, shutdown_grace=settings.web.shutdown_grace)
        # We hold the store: turns still pending were left by a run that died mid-answer.
        left = store.fail_pending_turns()
        if left:
            logging.getLogger(__name__).warning(
                "marked %d turn(s) left unfinished by an earlier run as failed", left
            )
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            access_log=False,
            log_level="info",
            timeout_graceful_shutdown=max(1, int(settings.web.shutdown_grace)),
        )
        if not Path(settings.index.path).exists():
            # not an error (the server may start before the first ingest and picks the index up
            # when it appears), but every answer says "not found" until then: say why at start
            logging.getLogger("citecast").warning(
                "no knowledge index at %s yet: answers will find nothing until "
                "`citecast ingest PATH` builds one",
                settings.index.path,
            )
        logging.getLogger("citecast").info(
            "citecast listening on %s (Ctrl-C to stop)", address(host, listener)
        )
        run_server(app, uvicorn.Server(config), listener)
    finally:
        if listener is not None:
            listener.close()
        store.close()
        lock.release()
    return 0
