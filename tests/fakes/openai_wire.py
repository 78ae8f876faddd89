"""What the fake OpenAI server writes on the wire: a completion streamed as SSE
``chat.completion.chunk`` events, a stream scripted with :func:`tests.fakes.openai_script.events`,
and OpenAI's error body (see ``tests.fakes.openai_server``).
"""

from __future__ import annotations

import asyncio
import json
import time

from aiohttp import web

from tests.fakes.openai_script import Completion, Json


async def stream_completion(
    request: web.Request, body: Json, step: Completion, calls: list[Json], ident: str
) -> web.StreamResponse:
    """``step`` as OpenAI streams a completion: a role chunk, the text in pieces, its
    ``sse_data``, each of ``calls`` with its arguments split across chunks, then the
    finish_reason and ``[DONE]`` (neither when ``cut_off``); every chunk has the id ``ident``."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)

    async def send(delta: Json, finish: str | None = None) -> None:
        payload = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        await response.write(f"data: {json.dumps(payload)}\n\n".encode())

    await send({"role": "assistant", "content": ""})
    content = step.content or ""
    pieces = step.pieces or tuple(content[i : i + 5] for i in range(0, len(content), 5))
    for piece in pieces:
        await send({"content": piece})
    for data in step.sse_data:
        await response.write(f"data: {data}\n\n".encode())
    for position, call in enumerate(calls):
        index = 0 if step.same_index else position
        arguments = call["function"]["arguments"]
        head = {"index": index, "id": call["id"], "type": "function"}
        await send(
            {
                "tool_calls": [
                    {**head, "function": {"name": call["function"]["name"], "arguments": ""}}
                ]
            }
        )
        for start in range(0, len(arguments), 7):
            piece = arguments[start : start + 7]
            await send({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    if not step.cut_off:
        await send({}, step.finish_reason or ("tool_calls" if calls else "stop"))
        await response.write(b"data: [DONE]\n\n")
    await response.write_eof()
    return response


async def stream_events(request: web.Request, step: Completion) -> web.StreamResponse:
    """The stream :func:`tests.fakes.openai_script.events` scripted, then what it says to do:
    drop the connection, stall, or send keep-alive comments until the client goes away."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    for item in step.events or ():
        if isinstance(item, bytes):  # raw bytes, e.g. half of a UTF-8 sequence
            await response.write(item)
            continue
        data = item if isinstance(item, str) else f"data: {json.dumps(item)}\n\n"
        await response.write(data.encode())
    if step.abort:
        # drop the connection mid-body: the client sees an incomplete chunked response
        assert request.transport is not None
        request.transport.abort()
        return response
    if step.stall:
        await asyncio.sleep(step.stall)
    while step.keepalive:  # until the client goes away (write raises) or the test ends
        await asyncio.sleep(step.keepalive)
        try:
            await response.write(b": keep-alive\n\n")
        except (ConnectionError, RuntimeError):
            return response
    await response.write_eof()
    return response


def error_response(
    status: int,
    message: str,
    code: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> web.Response:
    """An HTTP error with OpenAI's error body (``{"error": {"message", "type", "code"}}``)."""
    return web.json_response(
        {"error": {"message": message, "type": code, "param": None, "code": code}},
        status=status,
        headers=headers,
    )
