"""A loopback citecast whose answer stream the test writes event by event, for the order of
events the real answerer never sends (a citation after the text that cites it).

It serves the real chat page and static files, a page embedding the widget, and an API whose
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
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from bot.connectors.web import STATIC_DIR
from bot.connectors.web_chat_page import chat_page
from bot.connectors.web_client_json import client_answer_json, client_citation_json
from bot.models import Answer
from renderers import render
from renderers.base import RenderContext

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

    async def page(request: Request) -> Response:
        return HTMLResponse(chat_page("citecast", "Answers from the knowledge base."))

    async def host(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        return HTMLResponse(
            "<!doctype html><html lang='en'><head><title>Acme</title></head><body>"
            "<header><a href='#top'>Acme home</a></header><main><h1>Acme</h1></main>"
            f'<script src="{base}/widget.js" data-citecast async></script>'
            "<footer><a href='#contact'>Contact Acme</a></footer></body></html>"
        )

    async def widget(request: Request) -> Response:
        return Response((STATIC_DIR / "widget.js").read_bytes(), media_type="text/javascript")

    async def config(request: Request) -> Response:
        return JSONResponse({"max_question_chars": 4000, "title": "citecast"})

    async def conversation(request: Request) -> Response:
        return JSONResponse({"error": "No such conversation."}, status_code=404)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def stream(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            while (item := await script.events.get()) is not None:
                yield item

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
