"""A loopback citecast whose answer stream the test writes event by event, for the order of
events the real answerer never sends (a citation after the text that cites it).

It serves what ``chat_server`` serves, and an API whose
``/api/ask/stream`` sends what the test puts in ``Script.events`` (``None`` ends the stream),
so a test can look at the page between two events. The events are built from the real web
renderer (``answer_events``), so the markup is the markup citecast sends.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from bot.connectors.web_client_json import client_answer_json, client_citation_json
from bot.models import Answer
from renderers import render
from renderers.base import RenderContext
from tests.connectors.browser.chat_server import chat_app

CONVERSATION = "c-scripted"
TURN = 1


@dataclass
class Script:
    """What the stream sends: each item a whole SSE event (bytes), ``None`` to end it."""

    events: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)

    def send(self, name: str, data: dict[str, Any]) -> None:
        self.events.put_nowait(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

    def end(self) -> None:
        self.events.put_nowait(None)


@dataclass(frozen=True)
class AnswerEvents:
    """The data of each event citecast would send for ``answer``: its citations (client JSON
    with ``href``), its blocks as ``delta`` data (each completed block appended), and ``done``."""

    citations: list[dict[str, Any]]
    deltas: list[dict[str, Any]]
    done: dict[str, Any]


def answer_events(answer: Answer) -> AnswerEvents:
    """The events of ``answer``, rendered by the real web renderer."""
    rendered = render("web", answer, RenderContext(turn_id=str(TURN)))
    html = str(rendered["html"])
    citations = []
    for citation in answer.citations:
        data = client_citation_json(citation)
        data["href"] = citation.deep_link or citation.source.url
        citations.append(data)
    blocks = re.findall(r"<p\b.*?</p>", html.split('<section class="sources"')[0], re.S)
    texts = answer.text.split("\n\n")  # one paragraph each, as cited_answer writes them
    deltas = [
        {"text": text + "\n\n", "append": block} for text, block in zip(texts, blocks, strict=True)
    ]
    done = {
        "answer": client_answer_json(answer),
        "html": html,
        "citations": rendered.get("citations", []),
        "conversation_id": CONVERSATION,
        "turn_id": TURN,
        "share_url": None,
    }
    return AnswerEvents(citations, deltas, done)


def scripted_app(script: Script) -> Starlette:
    """The app serving the chat, its stream written by ``script``."""

    async def config(request: Request) -> Response:
        return JSONResponse({"max_question_chars": 4000, "title": "citecast"})

    async def conversation(request: Request) -> Response:
        return JSONResponse({"error": "No such conversation."}, status_code=404)

    async def stream(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            while (item := await script.events.get()) is not None:
                yield item

        return StreamingResponse(body(), media_type="text/event-stream")

    return chat_app(config=config, conversation=conversation, stream=stream)
