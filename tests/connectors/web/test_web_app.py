"""The app under a real uvicorn server: lifespan, graceful shutdown, connectors, serve."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from bot.assistant.base import Reply, ReplyEvent
from bot.cli import build_parser
from bot.commands import serve
from bot.connectors.app import build_app
from bot.connectors.web_api import AskRequest
from bot.connectors.web_sse import AnswerStream
from bot.connectors.web_turns import WebTurns
from bot.errors import ConfigError
from bot.models import Answer, CitationAdded, Exchange, TextDelta
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    cited_answer,
    make_settings,
    parse_sse,
    passage,
    start_live_server,
)


class RecordingConnector:
    """A connector with one route that records its start and stop."""

    name = "recording"

    def __init__(self) -> None:
        self.events: list[str] = []

    def routes(self) -> list[BaseRoute]:
        async def hello(request: Request) -> Response:
            return PlainTextResponse("hello from recording")

        return [Route("/recording/hello", hello)]

    async def start(self) -> None:
        self.events.append("start")

    async def stop(self) -> None:
        self.events.append("stop")


def services_for(tmp_path: Path, answerer: CannedAnswerer) -> Services:
    settings = make_settings(tmp_path)
    return Services(settings=settings, store=Store(settings.store.path), assistant=answerer)


async def test_connectors_are_mounted_started_and_stopped(tmp_path: Path) -> None:
    connector = RecordingConnector()
    services = services_for(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    live = await start_live_server(build_app(services, connectors=[connector]))
    assert connector.events == ["start"]
    async with httpx.AsyncClient(base_url=live.url) as client:
        assert (await client.get("/recording/hello")).text == "hello from recording"
        assert (await client.get("/healthz")).json()["status"] == "ok"
    await live.stop()
    assert connector.events == ["start", "stop"]


async def test_shutdown_lets_in_flight_answer_finish(tmp_path: Path) -> None:
    gate = asyncio.Event()
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    services = services_for(tmp_path, answerer)
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=5))
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as client:
        pending = asyncio.create_task(client.post("/api/ask", json={"question": "slow?"}))
        while not answerer.calls:
            await asyncio.sleep(0.01)
        live.server.should_exit = True
        await asyncio.sleep(0.05)
        gate.set()
        response = await pending
    await live.task
    assert response.status_code == 200
    [turn] = services.store.turns(response.json()["conversation_id"])
    assert turn.status == "done"


async def test_shutdown_records_unfinished_stream_as_failed(tmp_path: Path) -> None:
    gate = asyncio.Event()  # never released: the answer cannot finish
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    services = services_for(tmp_path, answerer)
    live = await start_live_server(build_app(services, connectors=[], shutdown_grace=0.1), 1)
    body = ""
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as client:

        async def read_stream() -> str:
            text = ""
            try:
                async with client.stream("GET", "/api/ask/stream?question=slow") as response:
                    async for chunk in response.aiter_text():
                        text += chunk
            except httpx.HTTPError:
                pass
            return text

        reader = asyncio.create_task(read_stream())
        while not answerer.calls:
            await asyncio.sleep(0.01)
        await live.stop()
        body = await reader
    events = parse_sse(body)
    assert events[0][0] == "start"
    assert "done" not in [name for name, _ in events]
    [turn] = services.store.turns(events[0][1]["conversation_id"])
    assert turn.status == "failed"


async def test_pending_turns_left_by_a_crash_are_failed_at_shutdown(tmp_path: Path) -> None:
    services = services_for(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    crashed = services.store.add_turn("b" * 32, "web", "asked before a crash", status="pending")
    live = await start_live_server(build_app(services, connectors=[]))
    await live.stop()
    [turn] = services.store.turns("b" * 32)
    assert turn.id == crashed and turn.status == "failed"


def test_serve_command_is_registered_with_host_and_port() -> None:
    args = build_parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "0"])
    assert args.run is serve.run
    assert (args.host, args.port) == ("127.0.0.1", 0)
    assert "SIGTERM" in serve.DESCRIPTION


async def test_an_answer_is_stored_even_when_the_client_leaves_mid_stream(
    tmp_path: Path,
) -> None:
    # a reload mid-answer: the viewer stops reading, the server finishes and stores the answer
    gate = asyncio.Event()  # the answer cannot complete while the client is connected
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    services = services_for(tmp_path, answerer)
    live = await start_live_server(build_app(services, connectors=[]))
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=10) as client:
            async with client.stream("GET", "/api/ask/stream?question=bye") as response:
                lines = response.aiter_lines()
                first = [await anext(lines), await anext(lines)]
            # leaving the block closed the connection mid-answer
            assert first[0] == "event: start"
            conversation = parse_sse("\n".join(first) + "\n\n")[0][1]["conversation_id"]
            await asyncio.sleep(0.2)  # the server has seen the client go
            [turn] = (await client.get(f"/api/conversations/{conversation}")).json()["turns"]
            assert turn["status"] == "pending"  # still being written, not failed
            gate.set()
            for _ in range(500):
                health = (await client.get("/healthz")).json()
                if health["in_flight"] == 0:
                    break
                await asyncio.sleep(0.01)
            assert health["in_flight"] == 0
            [turn] = (await client.get(f"/api/conversations/{conversation}")).json()["turns"]
        assert turn["status"] == "done"
        assert turn["answer"]["text"] == answerer.answer.text
        [stored] = services.store.turns(conversation)
        assert stored.status == "done"
    finally:
        gate.set()
        await live.stop()


async def test_silent_backend_gets_keep_alive_comments(tmp_path: Path) -> None:
    gate = asyncio.Event()
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    settings = make_settings(tmp_path, sse_heartbeat=0.02)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    live = await start_live_server(build_app(services, connectors=[]))
    text = ""
    try:
        async with (
            httpx.AsyncClient(base_url=live.url, timeout=10) as client,
            client.stream("GET", "/api/ask/stream?question=slow") as response,
        ):
            async for chunk in response.aiter_text():
                text += chunk
                if ": keep-alive" in text and not gate.is_set():
                    gate.set()
    finally:
        gate.set()
        await live.stop()
    assert ": keep-alive\n\n" in text
    events = parse_sse(text)
    assert events[0][0] == "start"
    assert events[-1][0] == "done"


class EagerAnswerer(CannedAnswerer):
    """Streams without ever waiting (as the built-in answerer does), noting what the viewer had
    received each time it goes on to the next event."""

    def __init__(self, answer: Answer, received: list[str]) -> None:
        super().__init__(answer)
        self.received = received
        self.seen_before_text: list[str] = []

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        for citation in self.answer.citations:
            yield CitationAdded(citation)
        self.seen_before_text = list(self.received)
        yield TextDelta(self.answer.text)
        yield Reply(self.answer, {"sources": []})


async def test_each_event_reaches_the_viewer_before_the_answer_goes_on(tmp_path: Path) -> None:
    # the answer is written by a task of its own; it must hand each event over as it comes,
    # or the first citation arrives only with the finished answer
    received: list[str] = []
    answerer = EagerAnswerer(cited_answer(passage(1)), received)
    services = services_for(tmp_path, answerer)
    turns = WebTurns(services, None)
    stream = AnswerStream(turns, AskRequest("Where?", None), "http://127.0.0.1")
    async for chunk in stream.events():
        received.append(chunk.split("\n", 1)[0])
    assert answerer.seen_before_text == ["event: start", "event: citation"]
    assert received[-1] == "event: done"


class RefusedConnector(RecordingConnector):
    """A connector whose platform refuses its settings only once it connects (a bad token)."""

    name = "refused"

    async def start(self) -> None:
        raise ConfigError("discord.token: Discord refused the token; copy it again")


def test_a_setting_refused_at_start_stops_serve_with_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # before: uvicorn's "Application startup failed" traceback and exit status 3
    first, refused = RecordingConnector(), RefusedConnector()
    services = services_for(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    app = build_app(services, connectors=[first, refused], shutdown_grace=0.1)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info", lifespan="on"))
    listener = serve.listen("127.0.0.1", 0)
    try:
        with caplog.at_level(logging.INFO), pytest.raises(ConfigError, match="refused the token"):
            serve.run_server(app, server, listener)
    finally:
        listener.close()
        services.store.close()
    assert first.events == ["start", "stop"]  # what had started is stopped again
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
