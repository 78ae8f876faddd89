"""A non-streamed response whose body trickles in (200, then a byte every so often) fails
after ``timeout`` as a silent server does, retries and all: the client's read timeout restarts
with every byte, and alone would let such a server hold the turn for as long as it liked.

Driven by the real ``openai`` client against a loopback server that trickles.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.loopback_app import loopback_app


class Trickler:
    """Answers every chat request with 200 and one space every 0.1 s, for up to 20 s."""

    def __init__(self) -> None:
        self.requests = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        await request.read()
        self.requests += 1
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        for _ in range(200):
            await response.write(b" ")
            await asyncio.sleep(0.1)
        return response


@pytest.fixture
async def trickler() -> AsyncIterator[tuple[Trickler, str]]:
    server = Trickler()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", server.handle)
    async with loopback_app(app) as root:
        yield server, f"{root}/v1"


@pytest.mark.parametrize("retries", [0, 1])
async def test_a_trickling_body_fails_after_the_timeout_at_each_attempt(
    trickler: tuple[Trickler, str], kb_settings: Settings, kb_index: KnowledgeIndex, retries: int
) -> None:
    server, url = trickler
    bot = assistant_for(kb_settings, kb_index, url, timeout=0.5, max_retries=retries)
    began = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=False), 8)
    took = time.monotonic() - began
    assert str(caught.value) == (
        f"the model endpoint at {url} did not answer within 0.5 s (after {retries} "
        f"retr{'y' if retries == 1 else 'ies'}; raise assistant.openai.timeout for a slower "
        "model)"
    )
    assert server.requests == retries + 1  # each attempt bounded, none left out
    assert took < 0.5 * (retries + 1) + 3  # the client's retry waits are under a second each
