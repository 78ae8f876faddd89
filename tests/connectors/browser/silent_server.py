"""A loopback citecast that takes requests and does not answer them, for the chat's timeouts.

It serves what ``chat_server`` serves (timeouts from the query, so a test waits a fraction of a
second, not a minute), and an API that answers as ``Silent`` says:
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
from starlette.responses import JSONResponse, Response, StreamingResponse

from tests.connectors.browser.chat_server import chat_app


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

    async def config(request: Request) -> Response:
        if not silent.config:
            await silent.hang()
        return JSONResponse({"max_question_chars": 4000, **silent.config_body})

    async def conversation(request: Request) -> Response:
        if not silent.conversation:
            await silent.hang()
        return JSONResponse({"error": "No such conversation."}, status_code=404)

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

    return chat_app(config=config, conversation=conversation, stream=stream)
