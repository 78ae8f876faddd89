"""The OpenAI-compatible backend: any chat-completions endpoint, with tools and streaming.

Each step sends the conversation with the tool definitions (only the record tables the viewer
may see are described); when the model asks for tools (one or several at once), they run
concurrently (:meth:`Toolbox.run_calls`) and their results, each number beside its evidence, go
back as ``tool`` messages. Before running them the backend yields :data:`STEP_END`, so the text
of that step is resolved before the tools register more sources. After ``max_tool_rounds``
steps the model must answer without tools (``tool_choice: "none"``); if it still asks for tools
its calls are not run, and with no answer text that is an error. Text the model writes is
passed on as it arrives (streamed when the turn streams).

A step is complete only when the endpoint says why it ended (``finish_reason``): a stream that
ends without one was cut off, and a step with neither text nor tool calls is not an answer;
both are errors, never a half or empty answer. ``finish_reason: "length"`` (the token limit)
keeps the text and logs a warning. Timeouts and retries are the ``openai`` client's
(``timeout``, ``max_retries``); every failure, malformed responses included, surfaces as one
:class:`bot.errors.BackendError` saying what went wrong and where.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import openai
from openai.types.chat import ChatCompletion

from bot.assistant.openai_step import NORMAL_FINISH, Step
from bot.assistant.prompts import history_messages, system_prompt, tool_specs
from bot.assistant.turn import STEP_END, StepEnd, Turn
from bot.config import OpenAISettings
from bot.errors import BackendError

log = logging.getLogger(__name__)

# What a malformed payload raises inside the openai client or while reading its objects (an
# HTML page, invalid JSON in an SSE line, a chunk without the fields of a chunk).
_MALFORMED = (json.JSONDecodeError, AttributeError, TypeError, KeyError, ValueError)


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

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        """Run the tool loop and yield the model's answer text (:data:`STEP_END` before tools)."""
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(turn.key_word)},
            *history_messages(turn.history),
            {"role": "user", "content": turn.question},
        ]
        # per turn: a table the viewer may not see is never named to the model
        tools = tool_specs(turn.toolbox.tables(turn.audience))
        rounds = self.settings.max_tool_rounds
        for round_number in range(rounds + 1):
            step = Step()
            last = round_number == rounds
            async for text in self._step(messages, tools, step, turn.stream, last):
                yield text
            self._check(step)
            calls = step.tool_calls()
            if not calls:
                return
            if last:
                # tool_choice "none" was ignored: running the calls would register sources no
                # answer can use, and the turn would "succeed" with only a preamble
                after = f"{rounds} round{'s' if rounds != 1 else ''}"
                if not "".join(step.text).strip():
                    raise BackendError(
                        f"the model at {self.where} kept calling tools after {after} "
                        "and wrote no answer"
                    )
                log.warning(
                    "the model at %s asked for tools after %s; its calls were not run",
                    self.where,
                    after,
                )
                return
            if step.text:  # keep a preamble the model wrote before its tool calls apart
                yield "\n\n"
            yield STEP_END  # resolve this step's text before the tools register more sources
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

    def _check(self, step: Step) -> None:
        """A step must have ended as a step ends, and have written something."""
        if step.finish_reason is None:
            raise BackendError(
                f"the model endpoint at {self.where} ended the stream before the answer was "
                "complete (no finish_reason)"
            )
        if not step.calls and not "".join(step.text).strip():
            raise BackendError(
                f"the model endpoint at {self.where} returned an empty answer "
                f"(finish_reason {step.finish_reason!r})"
            )
        if step.finish_reason not in NORMAL_FINISH:
            # "length": the token limit cut the answer; what was written is still worth showing
            log.warning(
                "the model at %s stopped with finish_reason %r; the answer may be incomplete",
                self.where,
                step.finish_reason,
            )

    async def _step(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        step: Step,
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
        not_completion = (
            f"the model endpoint at {self.where} returned a response that is not a chat completion"
        )
        try:
            if stream:
                response = await self.client.chat.completions.create(**request, stream=True)
                chunks = 0
                async for chunk in response:
                    chunks += 1
                    for text in step.read_chunk(chunk):
                        yield text
                if not chunks:  # an HTML page, a JSON completion, or only "[DONE]"
                    raise BackendError(f"{not_completion} stream")
            else:
                completion = await self.client.chat.completions.create(**request)
                if not isinstance(completion, ChatCompletion):
                    raise BackendError(not_completion)
                if not completion.choices:
                    raise BackendError(f"the model endpoint at {self.where} returned no choices")
                choice = completion.choices[0]
                step.finish_reason = str(choice.finish_reason or "stop")
                message = choice.message
                for call in message.tool_calls or []:
                    function = getattr(call, "function", None)
                    if function is not None:
                        step.add_call(call.id, function.name, function.arguments)
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
        except httpx.HTTPError as exc:
            # raised by the transport while a stream is read, outside the client's own mapping
            raise BackendError(
                f"the connection to the model endpoint at {self.where} failed: "
                f"{exc or type(exc).__name__}"
            ) from None
        except _MALFORMED:
            raise BackendError(not_completion) from None


def _message_of(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    return exc.message
