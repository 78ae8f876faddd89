"""``citecast serve``: the web chat on http://127.0.0.1:8000 plus every enabled channel."""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from bot.commands.serve_log_line import one_log_line
from bot.commands.serve_startup_log import StartupLines, hold_startup_lines, uvicorn_handlers
from bot.commands.serve_warnings import start_warnings
from bot.listening import listen as listen  # the web port's socket; re-exported
from bot.url_secrets import redact_urls

if TYPE_CHECKING:
    from types import FrameType

    import uvicorn
    from starlette.applications import Starlette

    from bot.config import Settings

HELP = "serve the web chat, the API and every enabled channel"
DESCRIPTION = """\
Serve the chat page, the embeddable widget, the REST and streaming API, signed file downloads
and every channel config.yaml enables, in one process (uvicorn).

Ctrl-C (SIGINT) or SIGTERM stop it gracefully: the port closes and every channel begins
stopping at the same time; answers being written get web.shutdown_grace seconds to finish (any
that do not are recorded as failed, never lost silently), then it exits with status 0. A second
Ctrl-C or SIGTERM stops it at once (status 130 or 143); answers it cut off are recorded as
failed at the next start.
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


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """Log lines without URL credentials, each record's message on one line.

    Credentials: libraries log each request's full URL (httpx at INFO), and a model endpoint
    written ``https://user:password@llm.internal/v1`` would put its password in every line.
    One line: file names, questions and titles reach messages in many channels, and a line
    break or an ANSI escape in them would forge a line of its own or recolour the log; they
    are written as escapes (:func:`one_log_line`). A traceback (``exc_info``) stays as it is,
    lines and all, after the message.
    """

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802  # logging's name
        return one_log_line(super().formatMessage(record))

    def format(self, record: logging.LogRecord) -> str:
        return redact_urls(super().format(record))


STOPPED_AT_ONCE = (
    "citecast serve: stopped at once (second signal); answers still being written are "
    "recorded as failed at the next start\n"
)


def _exit_at_once(sig: int) -> None:
    # os._exit: no cleanup that could wait again (the store's writes are already durable, the
    # kernel releases the store lock, and the next start fails the turns left pending). The
    # line goes straight to the fd: the signal may have interrupted a write to sys.stderr,
    # whose buffer then refuses a reentrant one.
    with contextlib.suppress(OSError):
        os.write(sys.stderr.fileno(), STOPPED_AT_ONCE.encode())
    os._exit(128 + sig)


@contextlib.contextmanager
def signals_while_starting() -> Iterator[list[int]]:
    """Record SIGINT/SIGTERM that arrive while ``citecast serve`` starts, before the server's
    own handlers are in place; yields the list of them (see :func:`build_server`'s ``early``).

    Python's default handler would raise KeyboardInterrupt wherever the main thread is, and
    inside a finalizer that exception is dropped: the server then started and ran on, deaf to
    the Ctrl-C. Recorded, a signal stops the server as soon as it has started (a graceful
    stop); a second one exits at once, as during any stop.
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received  # signals can only be handled in the main thread
        return

    def record(sig: int, frame: FrameType | None) -> None:
        if received:
            _exit_at_once(sig)
        received.append(sig)

    handled = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.signal(sig, record) for sig in handled}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def build_server(
    app: Starlette,
    config: uvicorn.Config,
    on_started: Callable[[], None] | None = None,
    early: Sequence[int] = (),
) -> uvicorn.Server:
    """A uvicorn server that stops as ``citecast serve`` promises.

    Unlike plain uvicorn: a first SIGINT/SIGTERM begins stopping every connector at once (the
    app's ``begin_shutdown``) while open HTTP responses finish, and is not raised again once
    stopped, so a graceful stop exits with status 0 after the store is closed; a second
    signal of either kind exits at once. ``on_started`` runs once the server listens with
    these handlers in place: a Ctrl-C sent when it says so (the "listening on" line) is
    always a graceful stop. ``early`` holds the signals received before that
    (:func:`signals_while_starting`): with any, the server stops as soon as it has started.
    """
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield  # signals can only be handled in the main thread
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            if early:
                self.should_exit = True  # stopped while starting: stop once started
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if on_started is not None and self.started and not self.should_exit:
                on_started()

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit:
                _exit_at_once(sig)
            self.should_exit = True

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            begin = getattr(app.state, "begin_shutdown", None)
            if begin is not None:
                begin()
            await super().shutdown(sockets=sockets)

    return Server(config)


def run_server(
    app: Starlette,
    server: uvicorn.Server,
    listener: socket.socket,
    lines: StartupLines | None = None,
) -> None:
    """Serve ``app`` on ``listener`` until stopped.

    Raises the ConfigError a connector met while starting (a token the platform refused): the
    app stops the server, and the command reports it in one line, exit status 2, rather than
    uvicorn's start-up traceback; the start-up ``lines`` held until then are dropped with it.
    """
    app.state.stop_server = lambda: setattr(server, "should_exit", True)
    try:
        server.run(sockets=[listener])
        error = getattr(app.state, "startup_error", None)
        if error is not None:
            if lines is not None:
                lines.drop()
            raise error
    finally:
        if lines is not None:
            lines.release()  # (a stop before the server listened: its lines as they came)
            lines.close()


def with_bind_host(settings: Settings, host: str) -> Settings:
    """``settings`` serving on ``host`` (from ``--host``): a name given there is one the web
    channel answers to, as ``web.host`` is (see ``web.allowed_hosts``)."""
    if host == settings.web.host:
        return settings
    web = settings.web.model_copy(update={"host": host})
    return settings.model_copy(update={"web": web})


def uvicorn_grace(shutdown_grace: float) -> int:
    """uvicorn's ``timeout_graceful_shutdown`` for ``web.shutdown_grace``: whole seconds, and
    longer than the answers' grace, so the web channel's drain (which gives each cut stream its
    last ``error`` event) ends before uvicorn cancels the responses still open."""
    return math.ceil(shutdown_grace) + 1


def run(args: argparse.Namespace) -> int:
    """Build the services and run the app under uvicorn until SIGINT/SIGTERM; an error names
    the ``--config`` given (see :mod:`bot.commands.config_named`)."""
    from bot.commands.config_named import naming_config

    with naming_config(args.config), signals_while_starting() as received:
        return _run(args, received)


def _run(args: argparse.Namespace, received: Sequence[int]) -> int:
    from pathlib import Path

    import uvicorn

    from bot.assistant import Assistant
    from bot.config_file import config_origin, load_settings, without_config_note
    from bot.connectors.app import build_app
    from bot.connectors.web_proxy import behind_proxies
    from bot.connectors.web_roots import build_signer
    from bot.errors import ConfigError
    from bot.knowledge.reader_age import older_reader_warning
    from bot.knowledge.records import check_tables
    from bot.path_lookup import resolved
    from bot.private_files import readable_by_others
    from bot.runtime import Services
    from bot.store import Store
    from bot.store_lock import StoreLock

    if args.host is not None and not args.host.strip():
        # an unset "$HOST": listening on web.host instead would hide the slip
        raise ConfigError("--host: empty; name the address to listen on, such as 127.0.0.1")
    settings = load_settings(args.config, opens_data=True)
    records = check_tables(settings.index.records, config_origin(args.config))
    host = args.host or settings.web.host
    settings = with_bind_host(settings, host)
    port = settings.web.port if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port: {port} is not a TCP port")
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(RedactingFormatter(LOG_FORMAT))
    lock = StoreLock(settings.store.path)
    lock.acquire()
    store = Store.from_settings(settings.store)
    listener: socket.socket | None = None
    lines = hold_startup_lines()  # until the server listens (see serve_startup_log)
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
                "marked %d turn(s) left unfinished by an earlier run as failed; a question "
                "kept for its answer (Slack, Discord, Discourse) is answered again under its "
                "turn",
                left,
            )
        config = uvicorn.Config(
            # uvicorn's X-Forwarded-Proto/-For handling plus X-Forwarded-Prefix, believed from
            # the same proxies ($FORWARDED_ALLOW_IPS); it applies uvicorn's middleware itself,
            # inside, so that the prefix is judged on the connection's own peer
            behind_proxies(app),
            proxy_headers=False,
            host=host,
            port=port,
            access_log=False,
            log_level="info",
            timeout_graceful_shutdown=uvicorn_grace(settings.web.shutdown_grace),
        )
        if not Path(settings.index.path).exists():
            # not an error (the server may start before the first ingest and picks the index up
            # when it appears), but until then questions are answered "not set up": say why at
            # start, and when no config file was read (started from another folder), that this
            # is why
            note = without_config_note(args.config)
            logging.getLogger("citecast").warning(
                'no knowledge index at %s yet: questions are answered "not set up" until '
                "`citecast ingest PATH` builds one%s",
                settings.index.path,
                f" ({note})" if note else "",
            )
        elif older := older_reader_warning(Path(settings.index.path), args.config):
            # answers quote what the old reader made of the files, and who may see them and
            # the links they have are the old reader's too, until they are re-read
            logging.getLogger("citecast").warning("%s", older)
        if exposed := readable_by_others(Path(settings.index.path)):
            # the index holds every private document's text, as the store every conversation
            # (which the store warns of when opened): made by an older citecast, or shared
            index_at = resolved(settings.index.path)
            logging.getLogger("citecast").warning("index %s is %s", index_at, exposed)
        for warning in start_warnings(settings, host):
            logging.getLogger("citecast").warning("%s", warning)
        where = address(host, listener)
        lines.watch(uvicorn_handlers())  # (configured by uvicorn's Config)

        def started() -> None:
            lines.release()
            logging.getLogger("citecast").info("citecast listening on %s (Ctrl-C to stop)", where)

        server = build_server(app, config, on_started=started, early=received)
        run_server(app, server, listener, lines)
    finally:
        lines.close()
        if listener is not None:
            listener.close()
        store.close()
        lock.release()
    return 0
