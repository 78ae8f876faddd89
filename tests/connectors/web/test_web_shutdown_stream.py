"""A stream cut by a server shutdown ends with an ``error`` event saying the server restarts.

The server is the one ``citecast serve`` runs (``serve.build_server``) on a loopback port,
stopped by the same handler SIGTERM calls, while an answer is held mid-stream.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from bot.commands.serve import build_server, uvicorn_grace
from bot.connectors.app import build_app
from bot.connectors.web_api import AskRequest
from bot.connectors.web_sse import RESTARTING, AnswerStream
from bot.connectors.web_turns import WebTurns
from bot.runtime import Services
from bot.store import Store
from tests.connectors.web.conftest import CannedAnswerer, cited_answer, make_settings, passage


class ServedByCitecast:
    """The app under ``citecast serve``'s own uvicorn server, on 127.0.0.1 (port 0)."""

    def __init__(self, app: Any, shutdown_grace: float) -> None:
        # uvicorn waits as long as ``citecast serve`` has it wait for this grace: the answers'
        # grace must run out first, so the responses can still say why they end
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=uvicorn_grace(shutdown_grace),
        )
        self.server = build_server(app, config)
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> str:
        self.task = asyncio.create_task(self.server.serve())
        while not self.server.started:
            if self.task.done():
                self.task.result()
                raise RuntimeError("uvicorn stopped before it started")
            await asyncio.sleep(0.01)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def sigterm(self) -> None:
        """What SIGTERM does to ``citecast serve`` (the handler it installs)."""
        self.server.handle_exit(signal.SIGTERM, None)

    async def stopped(self) -> None:
        assert self.task is not None
        await self.task


async def read_events(response: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """``(event, data)`` pairs of an SSE response as they arrive (comments skipped)."""
    name, data = "message", ""
    async for line in response.aiter_lines():
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            data = line[len("data: ") :]
        elif not line and data:
            yield name, data
            name, data = "message", ""


@pytest.mark.parametrize("grace", [0.1, 1.5])  # 1.5: not a whole number of seconds
async def test_a_stream_cut_by_shutdown_ends_with_a_restarting_error(
    tmp_path: Path, grace: float
) -> None:
    gate = asyncio.Event()  # never released: the answer cannot finish before the grace ends
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    settings = make_settings(tmp_path)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    served = ServedByCitecast(build_app(services, connectors=[], shutdown_grace=grace), grace)
    url = await served.start()
    events: list[tuple[str, Any]] = []
    try:
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as client,
            client.stream("GET", "/api/ask/stream", params={"question": "slow?"}) as response,
        ):
            assert response.status_code == 200
            async for name, data in read_events(response):
                events.append((name, data))
                if name == "start":
                    served.sigterm()  # mid-answer: the question is recorded, no text yet
    finally:
        served.server.should_exit = True  # not SIGTERM again: a second one exits at once
        await served.stopped()
    names = [name for name, _ in events]
    assert names == ["start", "error"], events
    assert json.loads(events[-1][1]) == {"error": RESTARTING}
    conversation = json.loads(events[0][1])["conversation_id"]
    [turn] = services.store.turns(conversation)
    assert turn.status == "failed"
    services.store.close()


async def test_a_shutdown_right_after_done_adds_no_error(tmp_path: Path) -> None:
    # cancelled in the instant between sending ``done`` and ending: the answer is complete,
    # so the stream must not contradict it with an error
    settings = make_settings(tmp_path)
    answerer = CannedAnswerer(cited_answer(passage(1)))
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    turns = WebTurns(services, None)
    stream = AnswerStream(turns, AskRequest("quick?", None), "http://citecast.test")
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    writer = asyncio.create_task(stream.write(queue))
    seen: list[str | None] = []
    while not any(item and item.startswith("event: done") for item in seen):
        seen.append(await queue.get())
    assert not writer.done()  # it yielded to let the response send ``done``
    writer.cancel()
    await asyncio.gather(writer, return_exceptions=True)
    while not queue.empty():
        seen.append(queue.get_nowait())
    assert [item.split("\n", 1)[0] for item in seen if item][-1] == "event: done"
    assert seen[-1] is None
    services.store.close()


async def test_a_post_cut_by_shutdown_gets_a_json_restarting_error(tmp_path: Path) -> None:
    # POST /api/ask answers in one response: a shutdown that outlasts the grace period gives
    # it the JSON error every API error is, not a connection closed without a response
    gate = asyncio.Event()  # never released
    answerer = CannedAnswerer(cited_answer(passage(1)), gate=gate)
    settings = make_settings(tmp_path)
    services = Services(settings=settings, store=Store(settings.store.path), assistant=answerer)
    served = ServedByCitecast(build_app(services, connectors=[], shutdown_grace=0.1), 0.1)
    url = await served.start()
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            asking = asyncio.create_task(client.post("/api/ask", json={"question": "slow?"}))
            while not answerer.calls:  # the question reached the answerer: it is mid-answer
                await asyncio.sleep(0.01)
            served.sigterm()
            response = await asking
    finally:
        served.server.should_exit = True
        await served.stopped()
    assert response.status_code == 503
    assert response.json() == {"error": RESTARTING}
    turn = services.store.turn(1)  # the only turn of this new store
    assert turn is not None and turn.question == "slow?" and turn.status == "failed"
    services.store.close()
