"""The one ASGI app of ``citecast serve``: the web channel plus every enabled connector.

``build_app(services)`` mounts the web routes and the ``routes()`` of every connector from
``enabled_connectors``; its lifespan starts them, and on shutdown stops them (in-flight answers
get a grace period, all channels at once) and marks any turn still ``pending`` as ``failed`` so
nothing is lost silently. Every request is logged as one JSON line with its latency and citation
count.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.connectors.base import Connector, enabled_connectors
from bot.connectors.web import WebConnector
from bot.connectors.web_turn_failures import STORE_UNREADABLE
from bot.errors import ConfigError, StoreError
from bot.runtime import Services

log = logging.getLogger("citecast.requests")
app_log = logging.getLogger(__name__)


# Path segments that are credentials (download tokens, conversation ids, the signed keys of
# shared answers) never reach the logs.
_SECRET_PREFIXES = ("/files/", "/api/conversations/", "/turns/")


def _loggable_path(path: str) -> str:
    for prefix in _SECRET_PREFIXES:
        if path.startswith(prefix) and len(path) > len(prefix):
            return prefix + "…"
    return path


class RequestLog:
    """ASGI middleware: one structured log line per HTTP request, when its response ends.

    It also marks every response ``X-Content-Type-Options: nosniff`` (it sees every one).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        state: dict[str, Any] = scope.setdefault("state", {})

        async def send_logged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"x-content-type-options" for name, _ in headers):
                    # every response, JSON and static files too: never sniffed into HTML
                    headers.append((b"x-content-type-options", b"nosniff"))
                    message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        finally:
            record = {
                "method": scope.get("method"),
                "path": _loggable_path(str(scope.get("path", ""))),
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 1),
            }
            if "citations" in state:
                record["citations"] = state["citations"]
            log.info(json.dumps(record))


async def _json_http_error(request: Request, exc: Exception) -> Response:
    """Routing errors (404, 405, …) answer in the API's one error shape."""
    assert isinstance(exc, HTTPException)
    reason = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
    return JSONResponse({"error": reason}, status_code=exc.status_code, headers=exc.headers)


async def _json_server_error(request: Request, exc: Exception) -> Response:
    """An unexpected failure answers in the API's one error shape too, naming nothing of it
    (Starlette still raises it afterwards, so the traceback is logged)."""
    return JSONResponse({"error": "internal error"}, status_code=500)


async def _json_store_error(request: Request, exc: Exception) -> Response:
    """A StoreError no route caught (a vote or a reload on a full disk) is a 503 in the API's
    one error shape and one log line naming the request, not a traceback per request."""
    reason = f"{request.method} {_loggable_path(request.url.path)} failed: {exc}"
    app_log.error("the store cannot be read or written: %s", reason)
    return JSONResponse({"error": STORE_UNREADABLE}, status_code=503)


class _Stopping:
    """Stops the started connectors once, all at the same time.

    At the same time: each one's grace period for answers in flight then runs alongside the
    others', so stopping takes the longest grace, not their sum, and no channel keeps taking
    new questions while another one drains. ``citecast serve`` begins it as soon as a signal
    asks the server to stop, while uvicorn still waits for open HTTP responses; the lifespan
    awaits the same stop after that.
    """

    def __init__(self) -> None:
        self.started: list[Connector] = []
        self._task: asyncio.Task[None] | None = None

    def reset(self) -> None:
        """Forget an earlier run of the lifespan (tests run one app more than once)."""
        self.started = []
        self._task = None

    def begin(self) -> asyncio.Task[None]:
        """The stop of every connector started so far, begun on the first call."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._stop(self.started))
        return self._task

    async def _stop(self, started: list[Connector]) -> None:
        async def stop(connector: Connector) -> None:
            try:
                await connector.stop()
            except Exception:
                app_log.exception("stopping the %s connector failed", connector.name)

        await asyncio.gather(*(stop(connector) for connector in reversed(started)))


def build_app(
    services: Services, *, connectors: list[Connector] | None = None, shutdown_grace: float = 10.0
) -> Starlette:
    """The ASGI app: web routes, the enabled connectors' routes, CORS, request logs.

    Raises ConfigError naming the key when an enabled channel's settings are unusable, before
    anything has started (each connector checks its settings when it is built).
    """
    # The channels first: building one checks its settings, and a ConfigError must come
    # before the web connector's side effects (it may write a new file-link secret).
    others = enabled_connectors(services) if connectors is None else connectors
    web = WebConnector(services, shutdown_grace=shutdown_grace)
    everyone: list[Connector] = [web, *others]
    routes: list[BaseRoute] = []
    for connector in everyone:
        routes.extend(connector.routes())

    stopping = _Stopping()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stopping.reset()
        try:
            for connector in everyone:
                try:
                    await connector.start()
                except ConfigError as exc:
                    stop_server = getattr(app.state, "stop_server", None)
                    if stop_server is None:
                        raise
                    # A setting only the platform could judge (a refused token): the server
                    # that runs us says it in one line once stopped, not as a start-up traceback.
                    app.state.startup_error = exc
                    stop_server()
                    break
                stopping.started.append(connector)
                app_log.info("started the %s connector", connector.name)
            yield
        finally:
            # the same stop when the server already began it (``begin_shutdown``)
            await stopping.begin()
            failed = services.store.fail_pending_turns()
            if failed:
                app_log.warning("marked %d unfinished turn(s) as failed", failed)

    middleware = [Middleware(RequestLog)]
    origins = services.settings.web.cors_origins
    if origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=origins,
                allow_methods=["GET", "POST"],
                allow_headers=["content-type"],
                # the widget on another site reads a 429's wait to tell the visitor how long
                expose_headers=["retry-after"],
                max_age=600,
            )
        )
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: _json_http_error,
            StoreError: _json_store_error,
            Exception: _json_server_error,
        },
    )
    app.state.services = services
    app.state.web = web
    app.state.begin_shutdown = stopping.begin
    return app
