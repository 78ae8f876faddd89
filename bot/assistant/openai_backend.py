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
keeps the text, logs a warning and ends the answer with a note saying it was cut off (a cut
answer that reads as complete would mislead), less a citation marker the cut left unfinished
(:mod:`bot.assistant.openai_cut_marker`); so does ``"content_filter"``. A step the server
gave up on (``"error"``, as OpenRouter sends with the reason beside it, or vLLM's ``"abort"``)
is an error with that reason: its text is a fragment. A model whose server does not parse its
tool calls writes them as text (``<tool_call>`` blocks, or Mistral's, Llama's or Qwen3-Coder's
bare forms): calls that end a step's text are run as its calls would be
(:mod:`bot.assistant.openai_text_calls`, :mod:`bot.assistant.openai_written_calls`; logged
once, not at every step), and no block is ever shown; nor is a ``<tool_response>`` the model
wrote itself, nor anything after one that follows its calls (a warning says so, once a turn:
the model is inventing tool results). A step that ends with nothing to show says why when its
finish_reason can tell (:mod:`bot.assistant.openai_step_end`); a model that refused (OpenAI's
``refusal`` field, "I can't help with that.") and wrote nothing else answers with its refusal,
citing nothing. Timeouts and retries are the ``openai`` client's (``timeout``, ``max_retries``),
and while a stream is read ``timeout`` also bounds the wait for its next chunk: a server that sends
only keep-alive comments never trips the client's read timeout, and would hold the turn forever; a
non-streamed response must be whole within ``timeout`` of each attempt's request, and a whole JSON
completion from a server that ignores ``stream: true`` is read as a one-chunk stream
(:mod:`bot.assistant.openai_bodies`). Every failure, malformed responses included, surfaces as one
:class:`bot.errors.BackendError` of one line saying what went wrong and where
(:mod:`bot.assistant.openai_errors`); a prompt longer than the model's context also names the
settings that decide how much goes into it, and with a conversation's history in the prompt is
:class:`bot.errors.HistoryOverflowError` (a new conversation may fit). A
refusal only the operator can fix (a refused key, an unknown model, a server without tool calling,
a request field it requires or refuses: :mod:`bot.assistant.openai_setup`) is its subclass
:class:`bot.errors.BackendConfigError`: asking again cannot help. A ``Retry-After`` longer than
``timeout`` is not waited for.

A ``base_url`` may carry a query (Azure OpenAI's ``?api-version=…``): it goes with every request,
and an Azure deployment URL gets the SDK's Azure client (:mod:`bot.assistant.openai_client`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

import httpx
import httpx2
import openai
from openai import AsyncStream
from openai.types.chat import ChatCompletionChunk

from bot.assistant.history_overflow import Overflow, overflow_error
from bot.assistant.openai_arguments import echoed_arguments, unreadable
from bot.assistant.openai_client import make_client, sent_secrets, without_query_credentials
from bot.assistant.openai_completion import read_completion
from bot.assistant.openai_cut_marker import CutMarkerHold
from bot.assistant.openai_cut_notes import CUT_NOTES as CUT_NOTES  # tests read it here
from bot.assistant.openai_cut_notes import cut_note
from bot.assistant.openai_errors import (
    base_url_hint,
    body_cut_off,
    connection_reason,
    context_overflow,
    error_text,
    one_line,
    overflow_hint,
    redact,
    shown_url,
)
from bot.assistant.openai_setup import refusal
from bot.assistant.openai_step import Step
from bot.assistant.openai_step_end import check_step_end, refusal_answer
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
    model_cites = True  # told to cite with [n] (prompts.py): see Assistant._policy

    def __init__(self, settings: OpenAISettings, client: openai.AsyncOpenAI | None = None) -> None:
        self.settings = settings
        self.client = client or make_client(settings)
        self._secrets = sent_secrets(settings)  # hidden where a server repeats them
        self._said_text_calls = False  # see _log_text_calls

    @property
    def where(self) -> str:
        """The endpoint, for error messages (without a password or query it may carry)."""
        return shown_url(str(self.client.base_url))

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        """Run the tool loop and yield the model's answer text (:data:`STEP_END` before tools);
        a failure's message never carries the credentials sent, which a server's reason can
        repeat ("Invalid token: Bearer sk-…"): it is logged and stored (:func:`redact`); nor
        does a query credential of ``base_url`` (a 404 reason naming the URL with its
        ``?api_key=…``), however short (:func:`without_query_credentials`)."""
        try:
            async with aclosing(self._generate(turn)) as pieces:
                async for piece in pieces:
                    yield piece
        except BackendError as exc:
            shown = without_query_credentials(str(exc), self.settings.base_url)
            exc.args = (redact(shown, self._secrets),)
            raise

    async def _generate(self, turn: Turn) -> AsyncGenerator[str | StepEnd, None]:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(turn.key_word)},
            *history_messages(turn.history),
            {"role": "user", "content": turn.question},
        ]
        # per turn: a table the viewer may not see is never named to the model
        tools = tool_specs(turn.toolbox.tables(turn.audience))
        rounds = self.settings.max_tool_rounds
        warned_invented = False
        carried = ""  # a marker the step before began, to be finished by this one
        for round_number in range(rounds + 1):
            step = Step(number=round_number)
            last = round_number == rounds
            overflow = Overflow(
                overflow_hint(
                    turn.toolbox.top_k, rounds if round_number else 0, bool(turn.history)
                ),
                bool(turn.history),
            )
            hold = CutMarkerHold(turn.key_word, carried)
            async for text in self._step(messages, tools, step, turn.stream, last, overflow):
                shown = hold.feed(text)
                if shown:
                    yield shown
            shown = hold.feed(refusal_answer(step, self.where))
            if shown:
                yield shown
            check_step_end(step, self.where, self.settings.max_tokens)
            self._log_text_calls(step)
            if not warned_invented and (step.invented_response or step.responses_left_out):
                warned_invented = True  # once a turn: the same model does it at every step
                log.warning(
                    "the model at %s wrote tool results itself (<tool_response> or "
                    "[TOOL_RESULTS] text, made up, not evidence); it is left out of the "
                    "answer, and after tool calls so is everything that follows it",
                    self.where,
                )
            calls = step.tool_calls()
            if not calls or last:
                rest = hold.end(cut=step.finish_reason in CUT_NOTES)
                if rest:
                    yield rest
            if not calls:
                note = CUT_NOTES.get(step.finish_reason or "")
                if note:
                    yield cut_note("".join(step.text), note)
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
            shown, carried = hold.end_before_tools()
            if shown:
                yield shown
            if step.text and not carried:  # keep a preamble before tool calls apart
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
                            "function": {
                                "name": call.name,
                                "arguments": echoed_arguments(call.arguments),
                            },
                        }
                        for call in calls
                    ],
                }
            )
            for call in unreadable(calls):  # the model is told; the operator should be too
                log.info(
                    "the model %r at %s called %s with arguments that are not valid JSON; "
                    "it was told so (%r)",
                    self.settings.model,
                    self.where,
                    call.name,
                    one_line(call.arguments),
                )
            results = await turn.toolbox.run_calls(calls, turn.registry)
            for call, result in zip(calls, results, strict=True):
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})

    def _log_text_calls(self, step: Step) -> None:
        """Say when calls came as text: the server is not parsing the model's tool calls.

        Said once (at INFO) for the backend, that is once a process for its endpoint and model:
        a server set up that way stays so, and the same line at every step of every turn
        would fill the log. Later steps say it at DEBUG.
        """
        if step.text_calls:
            first = not self._said_text_calls
            self._said_text_calls = True
            log.log(
                logging.INFO if first else logging.DEBUG,
                "the model %r at %s wrote %d tool call(s) as text instead of "
                "tool_calls (the server does not parse its tool calls); they are run as if it "
                "had%s",
                self.settings.model,
                self.where,
                len(step.text_calls),
                " (said once; later ones are logged at DEBUG)" if first else "",
            )
        if step.blocks_left_out:
            log.warning(
                "the model at %s wrote %d <tool_call> block(s) into its answer that were not "
                "run (in mid-text, or beside structured tool calls); they are left out of the "
                "answer",
                self.where,
                step.blocks_left_out,
            )

    async def _step(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        step: Step,
        stream: bool,
        last: bool,
        overflow: Overflow,
    ) -> AsyncIterator[str]:
        """One request; ``overflow`` says what to do when the prompt does not fit the model's
        context."""
        request: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "tools": tools,
            "tool_choice": "none" if last else "auto",
        }
        if self.settings.temperature is not None:
            request["temperature"] = self.settings.temperature
        if self.settings.max_tokens is not None:
            request["max_tokens"] = self.settings.max_tokens
        not_completion = (
            f"the model endpoint at {self.where} returned a response that is not a chat completion"
        )
        started = False  # the stream began: a failure now is a broken answer, not "unreachable"
        try:
            if stream:
                response = await self.client.chat.completions.create(**request, stream=True)
                started = True
                chunks = 0
                async for chunk in self._chunks(response):
                    chunks += 1
                    for text in step.read_chunk(chunk):
                        yield text
                if not chunks:  # an HTML page, a JSON completion, or only "[DONE]"
                    raise BackendError(f"{not_completion} stream{base_url_hint(self.where)}")
            else:
                completion = await self.client.chat.completions.create(**request)
                visible = read_completion(completion, step, self.where, not_completion)
                if visible:
                    yield visible
            rest = step.end_text()  # held back in case it opened a thinking block
            if rest:
                yield rest
        except openai.APITimeoutError:
            raise BackendError(self._stalled() if started else self._timed_out()) from None
        except openai.APIConnectionError as exc:
            if started or body_cut_off(exc):  # the endpoint answered; its answer broke off
                raise BackendError(
                    f"the connection to the model endpoint at {self.where} broke before the "
                    "answer was complete"
                ) from None
            raise BackendError(
                f"cannot reach the model endpoint at {self.where}: {connection_reason(exc)}"
            ) from None
        except openai.APIStatusError as exc:
            # a refused key, an unknown model, no tools: BackendConfigError (asking again
            # cannot help)
            refused = refusal(exc, self.where, self.settings, overflow.hint)
            if type(refused) is BackendError and context_overflow(exc):
                raise overflow_error(str(refused), overflow.history) from None
            raise refused from None
        except openai.OpenAIError as exc:
            # an error event mid-stream: its body may be a bare string the client does not read
            reason = error_text(getattr(exc, "body", None)) or one_line(str(exc))
            failed = f"the model endpoint at {self.where} failed: {reason}"
            if isinstance(exc, openai.APIError) and context_overflow(exc):
                raise overflow_error(failed + overflow.hint, overflow.history) from None
            raise BackendError(failed) from None
        except (httpx.HTTPError, httpx2.HTTPError) as exc:
            # raised by the transport while a stream is read, outside the client's own mapping
            # (the client runs on httpx2 since openai 3; httpx's errors are not its errors)
            raise BackendError(
                f"the connection to the model endpoint at {self.where} failed: "
                f"{one_line(str(exc)) or type(exc).__name__}"
            ) from None
        except _MALFORMED:
            raise BackendError(not_completion) from None

    async def _chunks(
        self, response: AsyncStream[ChatCompletionChunk]
    ) -> AsyncIterator[ChatCompletionChunk]:
        """The stream's chunks, each awaited for at most ``timeout`` seconds.

        The client's read timeout restarts with every byte, so a server (or a proxy) that sends
        keep-alive comments while its model is stuck would hold the turn forever.
        """
        chunks = aiter(response)
        while True:
            try:
                async with asyncio.timeout(self.settings.timeout):
                    chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            except TimeoutError:
                await response.close()
                raise BackendError(self._stalled()) from None
            yield chunk

    def _timed_out(self) -> str:
        retries = self.settings.max_retries
        return (
            f"the model endpoint at {self.where} did not answer within "
            f"{self.settings.timeout:g} s (after {retries} retr{'y' if retries == 1 else 'ies'}; "
            "raise assistant.openai.timeout for a slower model)"
        )

    def _stalled(self) -> str:
        return (
            f"the model endpoint at {self.where} stopped answering mid-stream (nothing for "
            f"{self.settings.timeout:g} s; assistant.openai.timeout sets how long it may pause)"
        )
