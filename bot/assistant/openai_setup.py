"""Which refusals of an OpenAI-compatible endpoint only its operator can fix, and how long a
turn will wait when the endpoint asks it to.

A model name the server does not know, a server that cannot call tools, a request field it
requires or refuses: every request of every turn is refused the same way until someone changes
the settings or the server, so telling the asker to "try again" is wrong. They become
:class:`bot.errors.BackendConfigError`, as a refused key already is, and every channel gives its
"not set up" reply (the web chat a 503). So do an account out of quota (OpenAI's 429
``insufficient_quota``: a rate limit's code, but no wait ends it, so it is not retried either)
and a key refused with a 400 (Gemini's "API key not valid"). A refusal of one request's content
(a prompt longer than the model's context, a malformed message) is not a setup error: the next
question may pass.

The ``openai`` client waits out a 429's or 503's ``Retry-After`` (up to two minutes) before
each retry, whatever ``timeout`` says: a turn with ``timeout: 10`` waited 30 s before failing.
A wait longer than ``timeout`` is not waited for (:func:`http_client`); the turn fails at once
with the server's reason and the wait it asked for, as :class:`bot.errors.BackendBusyError`
(its ``retry_after``), so a channel can say when to ask again rather than "try again".
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Protocol

import openai

from bot.assistant.openai_bodies import body_hooks
from bot.assistant.openai_errors import (
    NO_TOOLS,
    context_overflow,
    error_text,
    has_userinfo,
    retry_after,
    status_message,
    too_long_to_wait,
)
from bot.config import OpenAISettings
from bot.errors import BackendBusyError, BackendConfigError, BackendError

# A model name the server does not serve: Ollama ('model "x" not found, try pulling it first'),
# vLLM and OpenAI ("The model `x` does not exist"), LiteLLM and others ("no such model").
_NO_MODEL = re.compile(
    r"\bmodel\b.*\b(not found|does not exist|doesn't exist|no such|unknown|not available)"
    r"|\b(no such|unknown) model\b",
    re.IGNORECASE,
)
# A request field the server requires that citecast did not send (vLLM deployments that require
# max_tokens, servers that require a sampling setting).
_MISSING_FIELD = re.compile(
    r"\b(must be (set|provided|specified|given)|is required|missing required (parameter|field"
    r"|argument))\b",
    re.IGNORECASE,
)
# A field citecast sent that the server refuses: OpenAI ("Unrecognized request argument
# supplied", "Unsupported parameter: 'max_tokens'", "Unsupported value: 'temperature'"),
# pydantic-based servers ("Extra inputs are not permitted"), others ("unknown parameter").
_REFUSED_FIELD = re.compile(
    r"\b(unrecogni[sz]ed|unknown|unsupported|unexpected) (request )?(parameter|argument|field"
    r"|value|keyword argument)s?\b|\bextra (inputs|fields) (are )?not permitted",
    re.IGNORECASE,
)
_FIELD_CODES = frozenset(
    {"unsupported_parameter", "unsupported_value", "unknown_parameter", "extra_forbidden"}
)
# A key refused with a 400 rather than a 401: Gemini ("API key not valid. Please pass a valid
# API key.", "API key expired"), whose details name the reason API_KEY_INVALID.
_KEY_NOT_VALID = re.compile(
    r"\bapi[ _-]?key\b[^.]*\b(not valid|invalid|expired)\b|\binvalid api[ _-]?key\b"
    r"|\bAPI_KEY_INVALID\b",
    re.IGNORECASE,
)
# OpenAI's code (and type) for an account without credit or over its spending limit.
NO_QUOTA = "insufficient_quota"
# Words of a refusal that is about this request's messages, not about the settings.
_ABOUT_CONTENT = re.compile(r"\bmessages\b|tool_call|tool_call_id|\bcontent\b", re.IGNORECASE)


def setup_refusal(exc: openai.APIStatusError) -> bool:
    """Whether the endpoint refused the request in a way that only changing the settings (or the
    server) can fix: a refused key, an unknown model, no tool calling, a request field it
    requires or refuses, an account out of quota. Recognised conservatively, from the status
    and the server's words."""
    status = exc.status_code
    if status in (401, 403) or no_quota(exc):
        return True
    if status not in (400, 404, 422) or context_overflow(exc):
        return False
    reason = error_text(exc.body)
    code = str(getattr(exc, "code", "") or "")
    if status == 404:
        return code == "model_not_found" or bool(_NO_MODEL.search(reason))
    if NO_TOOLS.search(reason) or key_not_valid(exc):
        return True
    if _ABOUT_CONTENT.search(reason):
        return False
    return (
        code in _FIELD_CODES
        or bool(_MISSING_FIELD.search(reason))
        or bool(_REFUSED_FIELD.search(reason))
    )


def no_quota(exc: openai.APIStatusError) -> bool:
    """Whether the endpoint refused because the account has no quota left (OpenAI's 429
    ``insufficient_quota``): until someone adds credit, every request is refused."""
    codes = {str(getattr(exc, "code", "") or ""), str(getattr(exc, "type", "") or "")}
    return exc.status_code == 429 and NO_QUOTA in codes


def key_not_valid(exc: openai.APIStatusError) -> bool:
    """Whether a 400 says the key is not valid (Gemini's "API key not valid")."""
    return exc.status_code == 400 and bool(_KEY_NOT_VALID.search(error_text(exc.body)))


def account_hint(exc: openai.APIStatusError, has_key: bool) -> str:
    """What to change when the key or its account was refused in a way a 401 would not say."""
    if no_quota(exc):
        return (
            " (the account of the key in assistant.openai.api_key has no quota left: add credit "
            "or raise its spending limit; retrying will not help)"
        )
    if key_not_valid(exc):
        where = "the key in assistant.openai.api_key" if has_key else "the API key"
        return f" ({where} was refused; retrying will not help)"
    return ""


def field_hint(exc: openai.APIStatusError) -> str:
    """What to change when the server requires or refuses a field of citecast's request."""
    if not setup_refusal(exc) or exc.status_code not in (400, 422):
        return ""
    reason = error_text(exc.body)
    if NO_TOOLS.search(reason) or key_not_valid(exc):
        return ""  # said by status_message, or by account_hint
    if _MISSING_FIELD.search(reason):
        return (
            " (the server requires a request field citecast sends only when it is set"
            + ("; set assistant.openai.max_tokens" if "max_tokens" in reason else "")
            + "; retrying will not help)"
        )
    return (
        " (the server refuses a field of citecast's request: assistant.openai.temperature: null "
        "leaves the temperature out, assistant.openai.max_tokens is sent only when set; "
        "retrying will not help)"
    )


def refusal(
    exc: openai.APIStatusError, where: str, settings: OpenAISettings, overflow: str
) -> BackendError:
    """The error for an HTTP refusal: :class:`BackendConfigError` when only the operator can
    fix it (:func:`setup_refusal`); ``overflow`` is added when the prompt did not fit."""
    has_key = bool(settings.api_key.strip())
    basic = has_userinfo(settings.base_url)
    message = status_message(exc, where, has_key, settings.model, settings.timeout, basic)
    message += field_hint(exc) + account_hint(exc, has_key)
    if setup_refusal(exc):
        return BackendConfigError(message)
    wait = busy_wait(exc, settings.timeout)
    if wait is not None:
        return BackendBusyError(message, retry_after=wait)
    return BackendError(message + (overflow if context_overflow(exc) else ""))


def busy_wait(exc: openai.APIStatusError, timeout: float) -> float | None:
    """The seconds a 429 or 503 asked to wait when that is longer than ``timeout`` (so the
    client did not wait, :func:`http_client`): asking again sooner cannot help. None for any
    other refusal, and for a wait the client waited out or the header does not say."""
    headers = exc.response.headers
    if exc.status_code not in (429, 503) or not too_long_to_wait(headers, timeout):
        return None
    return retry_after(headers)


def length_hint(max_tokens: int | None) -> str:
    """What to change when the model stopped at its length limit (finish_reason "length")."""
    if max_tokens is not None:
        return f"raise assistant.openai.max_tokens, now {max_tokens}"
    return (
        "assistant.openai.max_tokens is not set, so the server's own limit applied; set it higher"
    )


class _Response(Protocol):
    """The part of the client's response a hook reads and writes."""

    @property
    def headers(self) -> MutableMapping[str, str]: ...

    @property
    def status_code(self) -> int: ...

    async def aread(self) -> bytes: ...


def _skip_long_waits(timeout: float) -> Callable[[_Response], Awaitable[None]]:
    async def hook(response: _Response) -> None:
        if too_long_to_wait(response.headers, timeout) or await _out_of_quota(response):
            # the client's own way of being told not to retry; read before its status rules
            response.headers["x-should-retry"] = "false"

    return hook


async def _out_of_quota(response: _Response) -> bool:
    """A 429 whose body says ``insufficient_quota``: no wait ends it (read here, before the
    client decides to retry; the client reads the body again from what is kept)."""
    if response.status_code != 429:
        return False
    try:
        body = json.loads(await response.aread())
    except ValueError:  # not JSON (a proxy's page), or not UTF-8
        return False
    error = body.get("error") if isinstance(body, dict) else None
    return isinstance(error, dict) and NO_QUOTA in (error.get("code"), error.get("type"))


def http_client(timeout: float) -> openai.DefaultAsyncHttpxClient:
    """The ``openai`` client's default HTTP client, except that a response asking for a wait
    longer than ``timeout``, or saying the account is out of quota, is not retried (see the
    module's description), and a body is read as :mod:`bot.assistant.openai_bodies` says."""
    sent, answered = body_hooks(timeout)
    return openai.DefaultAsyncHttpxClient(
        # answered first: it bounds the body that _skip_long_waits reads (a 429's)
        event_hooks={"request": [sent], "response": [answered, _skip_long_waits(timeout)]}
    )
