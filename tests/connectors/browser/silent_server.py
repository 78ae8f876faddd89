"""A loopback citecast that takes requests and does not answer them, for the chat's timeouts.

It serves the real chat page (its root given ``data-request-timeout`` and
``data-silence-timeout`` from the query, so a test waits a fraction of a second, not a minute),
the real static files, a page embedding the widget, and an API that answers as ``Silent`` says:
never, or a stream that stops midway, or one that only sends keep-alive comments for a while.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bot.connectors.web import STATIC_DIR
from bot.connectors.web_chat_page import chat_page


@dataclass
class Silent:
    """How the API answers. ``stream``: "never" (no response at all), "midway" (a start and a
    first piece of text, then nothing) or "keep-alive" (a start, then keep-alive comments every
    ``every`` seconds ``count`` times, then an error event). ``config`` and ``conversation``:
    True to answer (``config_body``; a conversation is a 404), False never to."""

    stream: str = "never"
    every: float = 0.1
    count: int = 15
    config: bool = True
    config_body: dict[str, Any] = field(default_factory=dict)
    conversation: bool = False
    release: asyncio.Event = field(default_factory=asyncio.Event)

    async def hang(self) -> None:
        """Wait until the test ends (``release``), answering nothing meanwhile."""
        await self.release.wait()


def event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def silent_app(silent: Silent) -> Starlette:
    """The app serving the chat as ``silent`` says."""

    async def page(request: Request) -> Response:
        html = chat_page("citecast", "Answers from the knowledge base.")
        limits = "".join(
            f' data-{name}-timeout="{int(request.query_params[name])}"'
            for name in ("request", "silence")
            if name in request.query_params
        )
        return HTMLResponse(html.replace("data-citecast-page", "data-citecast-page" + limits))

    async def host(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        limits = "".join(
            f' data-{name}-timeout="{int(request.query_params[name])}"'
            for name in ("request", "silence")
            if name in request.query_params
        )
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title></head><body>"
            "<h1>Acme</h1>"
            f'<script src="{base}/widget.js" data-citecast{limits} async></script>'
            "</body></html>"
        )

    async def widget(request: Request) -> Response:
        return Response((STATIC_DIR / "widget.js").read_bytes(), media_type="text/javascript")

    async def config(request: Request) -> Response:
        if not silent.config:
            await silent.hang()
        return JSONResponse({"max_question_chars": 4000, **silent.config_body})

    async def conversation(request: Request) -> Response:
        if not silent.conversation:
            await silent.hang()
        return JSONResponse({"error": "No such conversation."}, status_code=404)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def stream(request: Request) -> Response:
        if silent.stream == "never":
            await silent.hang()
            return Response(status_code=503)

        async def body() -> AsyncIterator[bytes]:
            yield event("start", {"conversation_id": "c-1", "turn_id": 1})
            if silent.stream == "midway":
                yield event("delta", {"text": "Install it", "tail": "<p>Install it</p>"})
                await silent.hang()
                return
            for _ in range(silent.count):
                await asyncio.sleep(silent.every)
                yield b": keep-alive\n\n"
            yield event("error", {"error": "The scripted answer ends here."})

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(
        routes=[
            Route("/", page),
            Route("/host", host),
            Route("/widget.js", widget),
            Route("/healthz", health),
            Route("/api/config", config),
            Route("/api/ask/stream", stream),
            Route("/api/conversations/{conversation_id}", conversation),
            Mount("/static", app=StaticFiles(directory=STATIC_DIR)),
        ]
    )
