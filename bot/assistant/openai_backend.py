"""The OpenAI-compatible backend: any chat-completions endpoint, with tools and streaming.

Each step sends the conversation with the tool definitions; when the model asks for tools (one
or several at once), they run concurrently (:meth:`Toolbox.run_calls`) and their results, each
number beside its evidence, go back as ``tool`` messages. After ``max_tool_rounds`` steps the
model must answer without tools. Text the model writes is passed on as it arrives (streamed when
the turn streams); the markers in it are resolved later against the turn's registry.

Timeouts and retries are the ``openai`` client's (``timeout``, ``max_retries``); every failure
surfaces as one :class:`bot.errors.BackendError` saying what went wrong and where.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import openai

from bot.assistant.prompts import history_messages, system_prompt, tool_specs
from bot.assistant.tools import ToolCall
from bot.assistant.turn import Turn
from bot.config import OpenAISettings
from bot.errors import BackendError


@dataclass
class _Step:
    """What one model step produced: its text and the tool calls it asked for."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, dict[str, str]] = field(default_factory=dict)

    def tool_calls(self) -> list[ToolCall]:
        return [
            ToolCall(c.get("id") or f"call_{i}", c.get("name", ""), c.get("arguments", ""))
            for i, c in sorted(self.calls.items())
        ]


class OpenAIBackend:
    """Answers with a model behind an OpenAI-compatible ``/chat/completions`` endpoint."""

    name = "openai"

    def __init__(self, settings: OpenAISettings, client: openai.AsyncOpenAI | None = None) -> None:
        self.settings = settings
        self.client = client or openai.AsyncOpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or "not-needed",
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )

    @property
    def where(self) -> str:
        """The endpoint, for error messages."""
        return str(self.client.base_url).rstrip("/")

    async def generate(self, turn: Turn) -> AsyncIterator[str]:
        """Run the tool loop and yield the model's answer text."""
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(turn.key_word)},
            *history_messages(turn.history),
            {"role": "user", "content": turn.question},
        ]
        tools = tool_specs(turn.toolbox.tables())
        rounds = self.settings.max_tool_rounds
        for round_number in range(rounds + 1):
            step = _Step()
            last = round_number == rounds
            async for text in self._step(messages, tools, step, turn.stream, last):
                yield text
            calls = step.tool_calls()
            if not calls:
                return
            if step.text:  # keep a preamble the model wrote before its tool calls apart
                yield "\n\n"
            messages.append(
                {
                    "role": "assistant",
                    "content": "".join(step.text) or None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments},
                        }
                        for call in calls
                    ],
                }
            )
            results = await turn.toolbox.run_calls(calls, turn.registry)
            for call, result in zip(calls, results, strict=True):
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})

    async def _step(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        step: _Step,
        stream: bool,
        last: bool,
    ) -> AsyncIterator[str]:
        request: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
            "tools": tools,
            "tool_choice": "none" if last else "auto",
        }
        try:
            if stream:
                response = await self.client.chat.completions.create(**request, stream=True)
                async for chunk in response:
                    for text in _read_chunk(chunk, step):
                        yield text
            else:
                completion = await self.client.chat.completions.create(**request)
                if not completion.choices:
                    raise BackendError(f"the model endpoint at {self.where} returned no choices")
                message = completion.choices[0].message
                for i, call in enumerate(message.tool_calls or []):
                    function = getattr(call, "function", None)
                    if function is not None:
                        step.calls[i] = {
                            "id": call.id,
                            "name": function.name,
                            "arguments": function.arguments,
                        }
                if message.content:
                    step.text.append(message.content)
                    yield message.content
        except openai.APITimeoutError:
            raise BackendError(
                f"the model endpoint at {self.where} did not answer within "
                f"{self.settings.timeout:g} s (after {self.settings.max_retries} retries)"
            ) from None
        except openai.APIConnectionError as exc:
            raise BackendError(f"cannot reach the model endpoint at {self.where}: {exc}") from None
        except openai.APIStatusError as exc:
            raise BackendError(
                f"the model endpoint at {self.where} answered HTTP {exc.status_code}: "
                f"{_message_of(exc)}"
            ) from None
        except openai.OpenAIError as exc:
            raise BackendError(f"the model endpoint at {self.where} failed: {exc}") from None


def _read_chunk(chunk: Any, step: _Step) -> list[str]:
    out: list[str] = []
    for choice in getattr(chunk, "choices", None) or []:
        delta = choice.delta
        if delta is None:
            continue
        if delta.content:
            step.text.append(delta.content)
            out.append(delta.content)
        for call in delta.tool_calls or []:
            entry = step.calls.setdefault(call.index, {})
            if call.id:
                entry["id"] = call.id
            if call.function is not None:
                if call.function.name:
                    entry["name"] = entry.get("name", "") + call.function.name
                if call.function.arguments:
                    entry["arguments"] = entry.get("arguments", "") + call.function.arguments
    return out


def _message_of(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    return exc.message
