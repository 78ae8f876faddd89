"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for the real ``openai`` client.

``FakeOpenAI`` is an aiohttp server on an ephemeral loopback port; point
``AsyncOpenAI(base_url=fake.base_url)`` at it. Each ``POST /v1/chat/completions`` consumes the
next scripted :class:`Completion` (``tests.fakes.openai_script``, where the ways it can answer
and misbehave are listed; re-exported here, so a test imports everything from this module);
``tests.fakes.openai_wire`` writes the answer.

It enforces what the real API enforces and a test would otherwise miss: a bearer token, a
non-empty message list with known roles, every ``tool`` message answering a ``tool_call_id`` of
the preceding assistant message, every tool call answered before the next user/assistant turn,
and no tool calls when the request says ``tool_choice: "none"``. It records each request body
(``requests``) so tests can read exactly what the model was shown.

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

from aiohttp import web

from tests.fakes.openai_script import (
    Completion,
    Json,
    ToolCallSpec,
    chunk,
    error_body,
    events,
    failure,
    raw,
    text,
    tools,
)
from tests.fakes.openai_wire import error_response, stream_completion, stream_events

ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


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
    # every request's headers, names lower-cased: what the client sent beside the body
    headers: list[dict[str, str]] = field(default_factory=list)
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
        self.headers.append({name.lower(): value for name, value in request.headers.items()})
        for name, value in self.required_query:
            if request.query.get(name) != value:
                wrong = f"query {name}={request.query.get(name)!r}, expected {value!r}"
                self.problems.append(wrong)
                return error_response(404, f"Resource not found ({wrong})", "404")
        if self.key_header == "Authorization":
            if request.headers.get("Authorization") != f"Bearer {self.api_key}":
                return error_response(401, "Incorrect API key provided.", "invalid_api_key")
        elif request.headers.get(self.key_header) != self.api_key:
            return error_response(401, "Access denied due to invalid subscription key.", "401")
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return error_response(400, "We could not parse the JSON body of your request.")
        self.requests.append(body)
        problem = _check_messages(body) or (
            _check_arguments(body) if self.object_arguments else None
        )
        if problem:
            self.problems.append(problem)
            return error_response(400, problem)
        if not self.script:
            self.problems.append("no scripted response left")
            return error_response(500, "the fake has no scripted response left", "server_error")
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
            return error_response(step.status, step.error, step.error_code, headers)
        if step.events is not None:
            return await stream_events(request, step)
        if step.tool_calls and body.get("tool_choice") == "none" and not step.ignore_tool_choice:
            self.problems.append("tool calls scripted while the request forbids tools")
            return error_response(
                500, "scripted tool calls but tool_choice is none", "server_error"
            )
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
            return await stream_completion(
                request, body, step, calls, f"chatcmpl-{next(self._ids)}"
            )
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


__all__ = [
    "ROLES",
    "Completion",
    "FakeOpenAI",
    "Json",
    "ToolCallSpec",
    "chunk",
    "error_body",
    "events",
    "failure",
    "raw",
    "text",
    "tools",
]
