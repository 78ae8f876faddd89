"""Every response body of the model endpoint is bounded: an error body that trickles in is cut
at ``timeout``, a whole body over the size limit is refused without being held, and a whole
JSON completion answered (compressed or not) where a stream was asked for is still read.

Driven by the real ``openai`` client against loopback servers on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from bot.assistant.openai_bodies import MAX_BODY_BYTES
from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.loopback_app import loopback_app

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

COMPLETION = {
    "id": "c1",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hello from the proxy."},
            "finish_reason": "stop",
        }
    ],
}


async def _serve(handler: Handler) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    async with loopback_app(app) as root:
        yield f"{root}/v1"


def _trickling_error(status: int) -> Handler:
    """An error whose JSON body comes one space every 0.1 s, for up to 20 s."""

    async def handle(request: web.Request) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(status=status, headers={"Content-Type": "application/json"})
        await response.prepare(request)
        for _ in range(200):
            await response.write(b" ")
            await asyncio.sleep(0.1)
        await response.write(b'{"error": {"message": "bad"}}')
        return response

    return handle


@pytest.fixture(params=[400, 429])
async def trickling_error(request: pytest.FixtureRequest) -> AsyncIterator[tuple[int, str]]:
    async for url in _serve(_trickling_error(request.param)):
        yield request.param, url


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
async def test_a_trickled_error_body_is_cut_at_the_timeout(
    trickling_error: tuple[int, str],
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    stream: bool,
) -> None:
    # a 429's body is read before the client decides to retry (is the account out of quota?)
    status, url = trickling_error
    bot = assistant_for(kb_settings, kb_index, url, timeout=0.5, max_retries=0)
    began = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=stream), 12)
    assert time.monotonic() - began < 4
    assert str(status) in str(caught.value)  # the refusal, as far as it came


async def _large_json(request: web.Request) -> web.StreamResponse:
    """A whole completion of 40 MB, sent fast, whether a stream was asked for or not."""
    await request.read()
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    await response.prepare(request)
    await response.write(b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "')
    block = b"a" * 65536
    for _ in range(640):
        await response.write(block)
    await response.write(b'"}, "finish_reason": "stop"}]}')
    return response


@pytest.fixture
async def large_json() -> AsyncIterator[str]:
    async for url in _serve(_large_json):
        yield url


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
async def test_a_whole_body_over_the_limit_is_refused_at_once(
    large_json: str, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, large_json, timeout=120, max_retries=0)
    began = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream=stream), 100)
    assert time.monotonic() - began < 8
    assert f"larger than {MAX_BODY_BYTES // (1024 * 1024)} MB" in str(caught.value)


async def _sized_json_on_stream(request: web.Request) -> web.StreamResponse:
    """A whole completion of about 3 MB (under the limit) in 4 kB writes, ignoring stream."""
    await request.read()
    text = "word " * (600 * 1024)
    message = {"role": "assistant", "content": text}
    body = json.dumps({**COMPLETION, "choices": [{"index": 0, "message": message}]})
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    await response.prepare(request)
    data = body.encode()
    for start in range(0, len(data), 4096):
        await response.write(data[start : start + 4096])
    return response


@pytest.fixture
async def sized_json_on_stream() -> AsyncIterator[str]:
    async for url in _serve(_sized_json_on_stream):
        yield url


async def test_a_large_completion_under_the_limit_on_a_stream_request_is_read(
    sized_json_on_stream: str, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    """Read in many parts and parsed once (off the event loop): the whole text comes back."""
    bot = assistant_for(kb_settings, kb_index, sized_json_on_stream, timeout=30, max_retries=0)
    reply = await asyncio.wait_for(run(bot, "anything", stream=True), 60)
    assert reply.answer.text.split() == ["word"] * (600 * 1024)


def _compressed(encoding: str, data: bytes) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data)
    if encoding == "deflate":
        return zlib.compress(data)
    if encoding == "raw-deflate":
        packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        return packer.compress(data) + packer.flush()
    return b"\x1f\x8b\x08\x00not gzip at all"


async def _compressed_json_on_stream(request: web.Request) -> web.StreamResponse:
    """A proxy that ignores stream: true and compresses JSON (nginx's gzip_types)."""
    await request.read()
    encoding = request.query["encoding"]
    body = _compressed(encoding, json.dumps(COMPLETION).encode())
    sent = "deflate" if encoding == "raw-deflate" else encoding.removeprefix("broken-")
    return web.Response(
        body=body, headers={"Content-Type": "application/json", "Content-Encoding": sent}
    )


@pytest.fixture
async def compressed_json_on_stream() -> AsyncIterator[str]:
    async for url in _serve(_compressed_json_on_stream):
        yield url


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
async def test_a_compressed_completion_on_a_stream_request_answers(
    compressed_json_on_stream: str, kb_settings: Settings, kb_index: KnowledgeIndex, encoding: str
) -> None:
    url = f"{compressed_json_on_stream}?encoding={encoding}"
    bot = assistant_for(kb_settings, kb_index, url, timeout=5, max_retries=0)
    reply = await asyncio.wait_for(run(bot, "anything", stream=True), 20)
    assert reply.answer.text == "Hello from the proxy."


async def test_a_body_that_is_not_the_gzip_it_says_is_refused(
    compressed_json_on_stream: str, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    url = f"{compressed_json_on_stream}?encoding=broken-gzip"
    bot = assistant_for(kb_settings, kb_index, url, timeout=5, max_retries=0)
    with pytest.raises(BackendError, match=r"could not be decompressed \(gzip\)"):
        await asyncio.wait_for(run(bot, "anything", stream=True), 20)
