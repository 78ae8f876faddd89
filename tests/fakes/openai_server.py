"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for the real ``openai`` client.

``FakeOpenAI`` is an aiohttp server on an ephemeral loopback port; point
``AsyncOpenAI(base_url=fake.base_url)`` at it. Each ``POST /v1/chat/completions`` consumes the
next scripted :class:`Completion`: text (streamed as SSE in the given pieces when the request
streams), tool calls (several at once if scripted; streamed with their arguments split across
chunks), an HTTP error, or a delay (to trigger client timeouts).

It enforces what the real API enforces and a test would otherwise miss: a bearer token, a
non-empty message list with known roles, every ``tool`` message answering a ``tool_call_id`` of
the preceding assistant message, every tool call answered before the next user/assistant turn,
and no tool calls when the request says ``tool_choice: "none"``. It records each request body
(``requests``) so tests can read exactly what the model was shown.

It can also misbehave as real compatible servers do, when a Completion says so: call tools
although ``tool_choice`` is "none" (``ignore_tool_choice``), stream parallel tool calls all with
``index`` 0 (``same_index``, as Ollama and LiteLLM do), end a stream without a finish_reason or
``[DONE]`` (``cut_off``), end with another finish_reason (``finish_reason="length"``), send raw
SSE ``data:`` payloads after the text (``sse_data``, e.g. invalid JSON), or answer 200 with any
body (:func:`raw`, e.g. a proxy's HTML page) whether or not the request streams. For what no
flag covers, :func:`events` scripts a whole stream byte for byte (chunks written as given:
fragments without ``index``, interleaved calls, ``choices: []`` usage chunks, comments), and
can then drop the connection (``abort``), stall (``stall``) or send keep-alive comments
forever (``keepalive``).

It can also stand in for an Azure OpenAI deployment: ``prefix`` moves the route (e.g.
``/openai/deployments/d``), ``required_query`` is a query every request must carry (Azure's
``api-version``; a request without it is refused as Azure refuses it), and ``key_header="api-key"``
reads the key from the header Azure reads it from instead of ``Authorization: Bearer``. The query
of each request is recorded in ``queries``.

With ``object_arguments``, it parses the arguments of every tool call in the history into an
object, as vLLM does before applying a chat template: a call echoed back with arguments that are
not a JSON object is refused with 400 and the JSON error, as older vLLM releases refuse it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

Json = dict[str, Any]
ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


@dataclass(frozen=True)
class ToolCallSpec:
    """A tool call the fake model makes; ``arguments`` is sent as JSON (or as-is if a str)."""

    name: str
    arguments: Json | str


@dataclass(frozen=True)
class Completion:
    """One scripted model response."""

    content: str | None = None
    pieces: tuple[str, ...] | None = None
    tool_calls: tuple[ToolCallSpec, ...] = ()
    status: int = 200
    error: str = "scripted failure"
    error_code: str = "server_error"
    delay: float = 0.0
    retry_after_ms: int | None = None
    ignore_tool_choice: bool = False
    same_index: bool = False
    cut_off: bool = False
    finish_reason: str | None = None
    sse_data: tuple[str, ...] = ()
    body: str | None = None
    content_type: str = "text/html"
    headers: tuple[tuple[str, str], ...] = ()
    events: tuple[Json | str | bytes, ...] | None = None
    abort: bool = False
    stall: float = 0.0
    keepalive: float = 0.0


def text(content: str, *pieces: str) -> Completion:
    """A text answer; when streamed, sent in ``pieces`` (default: 5-character pieces)."""
    if pieces and "".join(pieces) != content:
        raise ValueError("pieces must concatenate to the content")
    return Completion(content=content, pieces=pieces or None)


def tools(*calls: tuple[str, Json | str]) -> Completion:
    """A step in which the model asks for one or more tools."""
    return Completion(tool_calls=tuple(ToolCallSpec(name, args) for name, args in calls))


def raw(body: str, content_type: str = "text/html") -> Completion:
    """A 200 response with this body instead of a completion (a proxy page, a login form)."""
    return Completion(body=body, content_type=content_type)


def failure(
    status: int,
    message: str = "scripted failure",
    retry_after_ms: int | None = None,
    code: str = "server_error",
) -> Completion:
    """An HTTP error with OpenAI's error body shape (and a ``retry-after-ms`` header if given)."""
    return Completion(status=status, error=message, retry_after_ms=retry_after_ms, error_code=code)


def error_body(
    status: int, body: str, content_type: str = "text/plain", **headers: str
) -> Completion:
    """An HTTP error with any body (a proxy's HTML page, vLLM's or Ollama's own JSON shape)."""
    pairs = tuple((name.replace("_", "-"), value) for name, value in headers.items())
    return Completion(status=status, body=body, content_type=content_type, headers=pairs)


def chunk(
    content: str | None = None,
    *,
    calls: list[Json] | None = None,
    finish: str | None = None,
    **extra: Any,
) -> Json:
    """One ``chat.completion.chunk`` with a single choice (``extra`` adds top-level keys)."""
    delta: Json = {} if content is None else {"content": content}
    if calls is not None:
        delta["tool_calls"] = calls
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 0,
            "model": "fake", "choices": [choice], **extra}  # fmt: skip


def events(
    *items: Json | str | bytes, abort: bool = False, stall: float = 0.0, keepalive: float = 0.0
) -> Completion:
    """A scripted stream: a dict is sent as a ``data:`` event, a str is written as it is (so the
    ``[DONE]`` event, comments and blank lines are there only when given), bytes too (to split
    a UTF-8 sequence or a line across writes)."""
    return Completion(events=items, abort=abort, stall=stall, keepalive=keepalive)


@dataclass
class FakeOpenAI:
    """The server; ``async with FakeOpenAI() as fake`` starts and stops it."""

    api_key: str = "test-key"
    script: list[Completion] = field(default_factory=list)
    requests: list[Json] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    prefix: str = "/v1"
    required_query: tuple[tuple[str, str], ...] = ()
    key_header: str = "Authorization"
    queries: list[dict[str, str]] = field(default_factory=list)
    object_arguments: bool = False
    _runner: web.AppRunner | None = None
    _port: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def base_url(self) -> str:
        """The ``base_url`` to give the openai client."""
        return f"http://127.0.0.1:{self._port}{self.prefix}"

    def add(self, *completions: Completion) -> None:
        """Append scripted responses, consumed one per request."""
        self.script.extend(completions)

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post(f"{self.prefix}/chat/completions", self._completions)
        self._runner = web.AppRunner(app, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self._port = int(sockets[0].getsockname()[1])
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # -- request handling -----------------------------------------------------------------

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        self.queries.append(dict(request.query))
        for name, value in self.required_query:
            if request.query.get(name) != value:
                wrong = f"query {name}={request.query.get(name)!r}, expected {value!r}"
                self.problems.append(wrong)
                return _error(404, f"Resource not found ({wrong})", "404")
        if self.key_header == "Authorization":
            if request.headers.get("Authorization") != f"Bearer {self.api_key}":
                return _error(401, "Incorrect API key provided.", "invalid_api_key")
        elif request.headers.get(self.key_header) != self.api_key:
            return _error(401, "Access denied due to invalid subscription key.", "401")
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return _error(400, "We could not parse the JSON body of your request.")
        self.requests.append(body)
        problem = _check_messages(body) or (
            _check_arguments(body) if self.object_arguments else None
        )
        if problem:
            self.problems.append(problem)
            return _error(400, problem)
        if not self.script:
            self.problems.append("no scripted response left")
            return _error(500, "the fake has no scripted response left", "server_error")
        step = self.script.pop(0)
        if step.delay:
            await asyncio.sleep(step.delay)
        if step.body is not None:
            return web.Response(
                text=step.body,
                status=step.status,
                content_type=step.content_type,
                headers=dict(step.headers),
            )
        if step.status != 200:
            headers = {"retry-after-ms": str(step.retry_after_ms)} if step.retry_after_ms else None
            return _error(step.status, step.error, step.error_code, headers)
        if step.events is not None:
            return await self._scripted_stream(request, step)
        if step.tool_calls and body.get("tool_choice") == "none" and not step.ignore_tool_choice:
            self.problems.append("tool calls scripted while the request forbids tools")
            return _error(500, "scripted tool calls but tool_choice is none", "server_error")
        calls = [
            {
                "id": f"call_{next(self._ids)}",
                "type": "function",
                "function": {
                    "name": spec.name,
                    "arguments": spec.arguments
                    if isinstance(spec.arguments, str)
                    else json.dumps(spec.arguments),
                },
            }
            for spec in step.tool_calls
        ]
        if body.get("stream"):
            return await self._stream(request, body, step, calls)
        message: Json = {"role": "assistant", "content": step.content}
        if calls:
            message["tool_calls"] = calls
        return web.json_response(
            {
                "id": f"chatcmpl-{next(self._ids)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": step.finish_reason or ("tool_calls" if calls else "stop"),
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )

    async def _stream(
        self, request: web.Request, body: Json, step: Completion, calls: list[Json]
    ) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        ident = f"chatcmpl-{next(self._ids)}"

        async def send(delta: Json, finish: str | None = None) -> None:
            chunk = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())

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

    async def _scripted_stream(self, request: web.Request, step: Completion) -> web.StreamResponse:
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


def _check_messages(body: Json) -> str | None:
    messages = body.get("messages")
    if not body.get("model"):
        return "you must provide a model parameter"
    if not isinstance(messages, list) or not messages:
        return "messages must be a non-empty array"
    open_calls: set[str] = set()
    for i, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES:
            return f"messages[{i}].role is not one of {sorted(ROLES)}"
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                return f"messages[{i}]: tool message answers unknown tool_call_id {call_id!r}"
            open_calls.discard(call_id)
            if not isinstance(message.get("content"), str):
                return f"messages[{i}].content must be a string"
            continue
        if open_calls:
            return (
                "An assistant message with 'tool_calls' must be followed by tool messages "
                f"responding to each 'tool_call_id' (missing {sorted(open_calls)})"
            )
        if role == "assistant":
            open_calls = {c["id"] for c in message.get("tool_calls") or []}
    if open_calls:
        return f"tool calls {sorted(open_calls)} were never answered"
    return None


def _check_arguments(body: Json) -> str | None:
    for message in body.get("messages") or []:
        for call in message.get("tool_calls") or [] if isinstance(message, dict) else []:
            try:
                value = json.loads(call["function"]["arguments"])
            except json.JSONDecodeError as exc:
                return str(exc)
            if not isinstance(value, dict):
                return f"tool call arguments must be an object, not {type(value).__name__}"
    return None


def _error(
    status: int,
    message: str,
    code: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> web.Response:
    return web.json_response(
        {"error": {"message": message, "type": code, "param": None, "code": code}},
        status=status,
        headers=headers,
    )
