"""A whole (non-streamed) chat completion read into a :class:`~bot.assistant.openai_step.Step`.

Split out of :mod:`bot.assistant.openai_backend` for size.
"""

from __future__ import annotations

from openai.types.chat import ChatCompletion

from bot.assistant.openai_errors import base_url_hint, error_text
from bot.assistant.openai_step import Step
from bot.errors import BackendError


def read_completion(completion: object, step: Step, where: str, not_completion: str) -> str:
    """Fill ``step`` from ``completion`` (its finish_reason, error, refusal, tool calls and
    text) and return the text the reader sees of it; a response that is not a completion, or
    one without choices (LM Studio answers an unknown path with 200 and ``{"error": "…"}``),
    is a :class:`BackendError` saying so (``not_completion`` is the line for the first)."""
    if not isinstance(completion, ChatCompletion):
        raise BackendError(not_completion + base_url_hint(where))
    if not getattr(completion, "choices", None):
        reason = error_text(getattr(completion, "error", None))
        raise BackendError(
            f"the model endpoint at {where} returned no choices"
            + (f": {reason}" if reason else "")
            + base_url_hint(where)
        )
    choice = completion.choices[0]
    step.finish_reason = str(choice.finish_reason or "stop")
    step.error = error_text(getattr(choice, "error", None))
    message = choice.message
    refused = getattr(message, "refusal", None)
    step.refusal = refused if isinstance(refused, str) else ""
    for call in message.tool_calls or []:
        function = getattr(call, "function", None)
        if function is not None:
            step.add_call(call.id, function.name, function.arguments)
    return step.add_text(message.content) if message.content else ""
