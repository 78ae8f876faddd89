"""The responses a test scripts for the fake OpenAI server (``tests.fakes.openai_server``).

Each request to the fake consumes the next :class:`Completion`: text (:func:`text`, streamed in
the given pieces when the request streams), tool calls (:func:`tools`, several at once if
scripted; streamed with their arguments split across chunks), an HTTP error (:func:`failure`,
:func:`error_body`), any 200 body (:func:`raw`), or a stream scripted byte for byte
(:func:`events`, of :func:`chunk` events and raw text); ``delay`` holds the response back (to
trigger client timeouts).

A Completion can also misbehave as real compatible servers do: call tools although
``tool_choice`` is "none" (``ignore_tool_choice``), stream parallel tool calls all with
``index`` 0 (``same_index``, as Ollama and LiteLLM do), end a stream without a finish_reason or
``[DONE]`` (``cut_off``), end with another finish_reason (``finish_reason="length"``), send raw
SSE ``data:`` payloads after the text (``sse_data``, e.g. invalid JSON), or answer 200 with any
body (:func:`raw`, e.g. a proxy's HTML page) whether or not the request streams. For what no
flag covers, :func:`events` scripts a whole stream (chunks written as given: fragments without
``index``, interleaved calls, ``choices: []`` usage chunks, comments), and can then drop the
connection (``abort``), stall (``stall``) or send keep-alive comments forever (``keepalive``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


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
