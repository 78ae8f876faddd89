"""How the HTTP client reads a model endpoint's response bodies: whole within ``timeout``, no
larger than :data:`MAX_BODY_BYTES`, and as a stream where one was asked for.

The client's read timeout restarts with every byte, so a server (or a proxy) that answers and
then sends its body a byte at a time held a turn for as long as it kept sending. Each attempt's
response must now be whole within ``timeout`` of its request. A completion that is not times
out as a silent one does: retried up to ``max_retries`` times, then "did not answer within
N s". An error body (any status but 200) that is not whole by then is cut there: its status
already says what happened, and its reason is what came. (A streamed body is bounded chunk by
chunk instead: :meth:`bot.assistant.openai_backend.OpenAIBackend._chunks`.)

A server that ignores ``stream: true`` answers a whole ``chat.completion`` in JSON (as
``application/json`` or, from some proxies, labelled ``text/event-stream``, or compressed:
:mod:`bot.assistant.openai_decoded_bodies`); the stream reader finds no events in it. Such a
body is read as the one chunk it amounts to, then ``[DONE]``, so the answer is the one the same
completion gives unstreamed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx2

from bot.assistant.openai_decoded_bodies import decodable, decode_here
from bot.errors import BackendError

MAX_BODY_BYTES = 4 * 1024 * 1024
"""The most of a whole (not streamed) body that is read: a chat completion is a few kB, and a
body without end would otherwise be held in memory whole."""

_SENT_AT = "citecast.sent_at"  # the request's extension: when the attempt was sent
_WHITESPACE = b" \t\r\n"
# a body larger than this is parsed (and written back as events) off the event loop
_PARSE_ON_LOOP = 64 * 1024


def body_hooks(
    timeout: float,
) -> tuple[
    Callable[[httpx2.Request], Awaitable[None]], Callable[[httpx2.Response], Awaitable[None]]
]:
    """The HTTP client's request and response hooks that bound every body to ``timeout`` and
    :data:`MAX_BODY_BYTES` and read a whole completion where a stream was asked for. The
    response hook must come before any other hook that reads the body."""

    async def sent(request: httpx2.Request) -> None:
        request.extensions[_SENT_AT] = time.monotonic()

    async def answered(response: httpx2.Response) -> None:
        started = response.request.extensions.get(_SENT_AT, time.monotonic())
        if response.status_code != 200:
            response.stream = _Bounded(
                response.stream, response.request, started + timeout, timeout, cut=True
            )
            return
        if _asks_to_stream(response.request):
            if decodable(response):
                decode_here(response)
            if response.headers.get("content-encoding", "identity") == "identity":
                response.stream = _StreamOrCompletion(response.stream)
            return
        response.stream = _Bounded(response.stream, response.request, started + timeout, timeout)

    return sent, answered


def _asks_to_stream(request: httpx2.Request) -> bool:
    try:
        body = json.loads(request.content)
    except (ValueError, httpx2.RequestNotRead):
        return False
    return isinstance(body, dict) and body.get("stream") is True


def _too_large() -> BackendError:
    return BackendError(
        f"the model endpoint's answer was larger than {MAX_BODY_BYTES // (1024 * 1024)} MB "
        "(a chat completion is a few kB): it was not read"
    )


class _Bounded(httpx2.AsyncByteStream):
    """A body that must be whole by ``deadline`` (a :func:`time.monotonic`) and no larger than
    :data:`MAX_BODY_BYTES`: else it times out (or is refused), or with ``cut`` simply ends."""

    def __init__(
        self,
        stream: Any,
        request: httpx2.Request,
        deadline: float,
        timeout: float,
        *,
        cut: bool = False,
    ) -> None:
        self._stream = stream
        self._request = request
        self._deadline = deadline
        self._timeout = timeout
        self._cut = cut

    async def __aiter__(self) -> AsyncIterator[bytes]:
        parts = aiter(self._stream)
        size = 0
        while True:
            left = self._deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                async with asyncio.timeout(left):
                    part = await anext(parts)
            except StopAsyncIteration:
                return
            except TimeoutError:
                if self._cut:
                    return
                raise httpx2.ReadTimeout(
                    f"the response was not complete within {self._timeout:g} s",
                    request=self._request,
                ) from None
            size += len(part)
            if size > MAX_BODY_BYTES:
                if self._cut:
                    yield part[: len(part) - (size - MAX_BODY_BYTES)]
                    return
                raise _too_large()
            yield part

    async def aclose(self) -> None:
        await self._stream.aclose()


class _StreamOrCompletion(httpx2.AsyncByteStream):
    """A streamed body as it came, unless it is one whole JSON completion: then that, as the
    ``chat.completion.chunk`` event it amounts to and ``[DONE]``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        parts = aiter(self._stream)
        head = b""
        async for part in parts:
            head = part.lstrip(_WHITESPACE)
            if head:
                break
        if not head.startswith(b"{"):  # events (or nothing): as they came
            yield head
            async for part in parts:
                yield part
            return
        whole = bytearray(head)
        async for part in parts:
            whole += part  # amortised: a bytearray grows in place
            if len(whole) > MAX_BODY_BYTES:
                raise _too_large()
        body = bytes(whole)
        if len(body) > _PARSE_ON_LOOP:
            events = await asyncio.to_thread(completion_events, body)
        else:
            events = completion_events(body)
        yield events or body

    async def aclose(self) -> None:
        await self._stream.aclose()


def completion_events(body: bytes) -> bytes | None:
    """The server-sent events of a whole JSON ``chat.completion``: one chunk whose deltas are
    its messages (tool calls numbered by their place), then ``[DONE]``; None for any other
    body (an error object is left as it came, to be read as not a stream)."""
    try:
        completion = json.loads(body)
    except ValueError:
        return None
    choices = completion.get("choices") if isinstance(completion, dict) else None
    if not isinstance(choices, list) or not choices:
        return None
    deltas: list[dict[str, Any]] = []
    for place, choice in enumerate(choices):
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            return None
        delta = dict(message)
        calls = delta.get("tool_calls")
        if isinstance(calls, list):
            delta["tool_calls"] = [
                {**call, "index": index} if isinstance(call, dict) else call
                for index, call in enumerate(calls)
            ]
        # unstreamed, a completion without a finish_reason reads as "stop"
        finish = choice.get("finish_reason") or "stop"
        rest = {k: v for k, v in choice.items() if k not in ("message", "finish_reason")}
        deltas.append({**rest, "index": choice.get("index", place), "delta": delta,
                       "finish_reason": finish})  # fmt: skip
    chunk = {**completion, "object": "chat.completion.chunk", "choices": deltas}
    return f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
