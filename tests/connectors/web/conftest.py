"""Fixtures for the web channel's tests: a real app over a real store, driven by httpx, and the
headless Chromium of its browser tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser

from bot.assistant.base import Answerer, Reply, ReplyEvent
from bot.config import Settings
from bot.config_file import parse_settings
from bot.connectors.app import build_app
from bot.errors import BackendError
from bot.models import Answer, Citation, CitationAdded, Exchange, Source, TextDelta
from bot.runtime import Services
from bot.store import Store
from tests.chromium import launch_chromium


@dataclass
class CannedAnswerer:
    """An Answerer that returns a fixed Answer (streamed in small pieces), recording calls.

    ``fail`` makes every call raise BackendError; ``gate`` (when set) holds each call until it
    is released, so tests can observe a turn in flight.
    """

    answer: Answer
    chunk: int = 5
    fail: bool = False
    gate: asyncio.Event | None = None
    calls: list[tuple[str, frozenset[str], tuple[Exchange, ...]]] = field(default_factory=list)

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        self.calls.append((question, audience, tuple(history)))
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise BackendError("the model endpoint is down")
        return Reply(self.answer, {"sources": []})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.calls.append((question, audience, tuple(history)))
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise BackendError("the model endpoint is down")
        announced: set[int] = set()
        text = self.answer.text
        for start in range(0, len(text), self.chunk):
            piece = text[start : start + self.chunk]
            for citation in self.answer.citations:
                if citation.n not in announced and f"[^{citation.n}]" in text[: start + 8]:
                    announced.add(citation.n)
                    yield CitationAdded(citation)
            yield TextDelta(piece)
        yield Reply(self.answer, {"sources": []})


def passage(n: int, **kwargs: Any) -> Source:
    """A public passage source with a deep link."""
    defaults: dict[str, Any] = {
        "id": f"doc-{n}",
        "title": f"Guide {n}",
        "url": f"https://docs.example.com/guide-{n}",
        "section": "Setup > Linux",
        "page": n,
        "text": f"Passage number {n} explains the setup.",
    }
    defaults.update(kwargs)
    return Source(**defaults)


def manual_pdf(kb: Path) -> Source:
    """A cited PDF in ``kb`` without a public URL: it is served by a signed ``/files/`` link."""
    return Source(
        id="manual",
        title="Operations manual",
        path=str(kb / "manual.pdf"),
        filename="manual.pdf",
        media_type="application/pdf",
        page=3,
        text="Restart the service.",
    )


def cited_answer(*sources: Source, text: str | None = None) -> Answer:
    """An answer citing each source once, in order."""
    citations = tuple(
        Citation(n=i, source=s, source_number=i, quote=s.text) for i, s in enumerate(sources, 1)
    )
    if text is None:
        text = "\n\n".join(f"Claim {i} is true.[^{i}]" for i in range(1, len(sources) + 1))
    return Answer(text=text, citations=citations)


def make_settings(tmp_path: Path, **web: Any) -> Settings:
    """Settings with the store in ``tmp_path`` and a fixed file secret."""
    data = {
        "store": {"path": str(tmp_path / "store.db")},
        "index": {"path": str(tmp_path / "index.db")},
        "web": {"file_secret": "test-secret-0123456789abcdef", **web},
    }
    return parse_settings(data)


@dataclass
class WebHarness:
    """A built app with its services and an httpx client over ASGI."""

    services: Services
    answerer: CannedAnswerer
    client: httpx.AsyncClient

    async def ask(self, question: str, **extra: Any) -> httpx.Response:
        return await self.client.post("/api/ask", json={"question": question, **extra})

    async def stream(self, **params: str) -> list[tuple[str, Any]]:
        response = await self.client.get("/api/ask/stream", params=params)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/event-stream")
        return parse_sse(response.text)


def parse_sse(body: str) -> list[tuple[str, Any]]:
    """Parse a complete SSE body into ``(event, data)`` pairs (data JSON-decoded)."""
    events: list[tuple[str, Any]] = []
    for block in body.split("\n\n"):
        if not block.strip():
            continue
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: "):
                data.append(line[len("data: ") :])
        if data:  # a block of only ": comment" lines is a heartbeat, not an event
            events.append((name, json.loads("\n".join(data))))
    return events


def build_harness(
    tmp_path: Path, answerer: Answerer, signer: Any = None, **web: Any
) -> tuple[Services, httpx.AsyncClient]:
    settings = make_settings(tmp_path, **web)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    services.signer = signer
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://citecast.test"
    )
    return services, client


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium for one test, closed after it."""
    async with launch_chromium() as launched:
        yield launched


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[WebHarness]:
    text = "Claim 1 is true.[^1]\n\nClaim 2 is true.[^2]\n\nThat is all.\n"
    answerer = CannedAnswerer(cited_answer(passage(1), passage(2), text=text))
    services, client = build_harness(tmp_path, answerer)
    async with client:
        yield WebHarness(services, answerer, client)
    services.store.close()


@dataclass
class LiveServer:
    """A real uvicorn server on 127.0.0.1 (port 0), running in this event loop."""

    server: Any
    task: asyncio.Task[None]

    @property
    def url(self) -> str:
        sock = self.server.servers[0].sockets[0]
        host, port = sock.getsockname()[:2]
        return f"http://{host}:{port}"

    async def stop(self) -> None:
        self.server.should_exit = True
        await self.task


async def start_live_server(app: Any, graceful: float = 2.0, **options: Any) -> LiveServer:
    """Serve ``app`` under uvicorn on a free loopback port and wait until it listens
    (``options``: more ``uvicorn.Config`` settings, such as ``proxy_headers=False``)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=max(1, int(graceful)),
        **options,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    return LiveServer(server, task)
