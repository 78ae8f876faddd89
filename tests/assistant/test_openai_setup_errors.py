"""Refusals only the operator can fix are setup errors, and the settings that decide a turn's
limits are named where they matter: ``max_tokens`` (sent when set), ``timeout`` (a wait the
endpoint asks for longer than it is not waited for), a tool call the model wrote as broken JSON.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.config import Settings
from bot.config_file import parse_settings
from bot.errors import BackendConfigError, BackendError, ConfigError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import Completion, FakeOpenAI, error_body, failure, text, tools

VLLM_NEEDS_MAX = (
    '{"object": "error", "message": "max_tokens must be set for this deployment", '
    '"type": "BadRequestError", "code": 400}'
)


@pytest.mark.parametrize(
    ("response", "ends"),
    [
        (
            failure(404, 'model "llama9" not found, try pulling it first', code="api_error"),
            "(assistant.openai.model is 'llama9')",
        ),
        (
            failure(404, "The model `llama9` does not exist.", code="model_not_found"),
            "(assistant.openai.model is 'llama9')",
        ),
        (
            failure(400, "registry.ollama.ai/library/llama9 does not support tools"),
            "some servers must also be started with tool calling enabled)",
        ),
        (
            error_body(400, VLLM_NEEDS_MAX, "application/json"),
            "max_tokens must be set for this deployment (the server requires a request field "
            "citecast sends only when it is set; set assistant.openai.max_tokens; retrying will "
            "not help)",
        ),
        (
            failure(
                400,
                "Unsupported parameter: 'max_tokens' is not supported with this model. "
                "Use 'max_completion_tokens' instead.",
                code="unsupported_parameter",
            ),
            "assistant.openai.max_tokens is sent only when set; retrying will not help)",
        ),
    ],
    ids=["ollama-model", "openai-model", "no-tools", "needs-max-tokens", "refused-field"],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_a_refusal_no_retry_can_fix_is_a_setup_error(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    response: Completion,
    ends: str,
    stream: bool,
) -> None:
    fake.add(response)
    bot = assistant_for(kb_settings, kb_index, fake.base_url, model="llama9")
    with pytest.raises(BackendConfigError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream), 10)
    assert str(caught.value).endswith(ends)


@pytest.mark.parametrize(
    "response",
    [
        failure(400, "This model's maximum context length is 8192 tokens.", code="invalid_request"),
        failure(400, "Missing required parameter: 'messages[1].content'."),
        failure(404, "404 page not found"),  # a wrong base_url, not a wrong model
        failure(400, "max_tokens is too large: 90000"),
    ],
    ids=["context", "one-message", "wrong-path", "too-large"],
)
async def test_a_refusal_of_one_request_is_not_a_setup_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, response: Completion
) -> None:
    fake.add(response)
    bot = assistant_for(kb_settings, kb_index, fake.base_url + "/")
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream=False), 10)
    assert not isinstance(caught.value, BackendConfigError)


async def test_a_status_the_reason_repeats_is_said_once(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(404, "404 page not found"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream=False), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP 404: page not found"
    )


# -- max_tokens ---------------------------------------------------------------------------------


def test_max_tokens_is_a_setting_of_at_least_one() -> None:
    openai = parse_settings({"assistant": {"openai": {"max_tokens": 512}}}).assistant.openai
    assert openai.max_tokens == 512
    assert parse_settings({}).assistant.openai.max_tokens is None
    with pytest.raises(ConfigError, match=r"assistant\.openai\.max_tokens"):
        parse_settings({"assistant": {"openai": {"max_tokens": 0}}})


@pytest.mark.parametrize("stream", [True, False])
async def test_max_tokens_is_sent_with_every_request_only_when_set(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(tools(("search_docs", {"query": "retry policy"})), text("It backs off [1]."))
    await run(assistant_for(kb_settings, kb_index, fake.base_url, max_tokens=512), "hi", stream)
    fake.add(text("Hello."))
    await run(assistant_for(kb_settings, kb_index, fake.base_url), "hi", stream)
    assert [r.get("max_tokens") for r in fake.requests] == [512, 512, None]
    assert "max_tokens" not in fake.requests[-1]


@pytest.mark.parametrize(
    ("max_tokens", "hint"),
    [
        (None, "assistant.openai.max_tokens is not set"),
        (64, "raise assistant.openai.max_tokens, now 64"),
    ],
)
async def test_an_answer_cut_at_the_length_limit_names_max_tokens(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    max_tokens: int | None,
    hint: str,
) -> None:
    fake.add(Completion(content="citecast answers questions and", finish_reason="length"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tokens=max_tokens)
    with caplog.at_level(logging.WARNING, logger="bot.assistant.openai_backend"):
        await run(bot, "What is citecast?", stream=True)
    [line] = [r.getMessage() for r in caplog.records if "length limit" in r.getMessage()]
    assert hint in line


# -- timeout --------------------------------------------------------------------------------------


async def test_a_timeout_names_the_setting_to_raise(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(Completion(content="late", delay=3))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, timeout=0.3)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream=False), 10)
    assert str(caught.value).endswith(
        "did not answer within 0.3 s (after 0 retries; raise assistant.openai.timeout for a "
        "slower model)"
    )


@pytest.mark.parametrize(
    ("status", "header", "wait"),
    [(429, {"retry_after": "20"}, 20), (503, {"retry_after_ms": "30000"}, 30)],
)
async def test_a_wait_longer_than_the_timeout_is_not_waited_for(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    status: int,
    header: dict[str, str],
    wait: int,
) -> None:
    body = '{"error": {"message": "Model is loading"}}'
    fake.add(error_body(status, body, "application/json", **header), text("never sent"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, timeout=10, max_retries=2)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream=True), 15)
    assert len(fake.requests) == 1  # asked once, not retried
    assert not isinstance(caught.value, BackendConfigError)  # it may pass later
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP {status}: Model is loading (it "
        f"asked to retry after {wait} s, longer than assistant.openai.timeout (10 s), so it was "
        "not retried)"
    )


async def test_a_wait_within_the_timeout_is_still_waited_for(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(429, "Rate limit reached", retry_after_ms=50), text("Hello."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, timeout=10, max_retries=1)
    assert (await run(bot, "hi", stream=True)).answer.text == "Hello."
    assert len(fake.requests) == 2


# -- tool calls the model wrote as broken JSON ----------------------------------------------------


async def test_a_tool_call_with_broken_json_is_one_info_line(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.add(tools(("search_docs", '{"query": "install citecast"')), text("I could not search."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, model="llama9")
    with caplog.at_level(logging.INFO, logger="bot.assistant.openai_backend"):
        await run(bot, "How do I install it?", stream=True)
    [line] = [r for r in caplog.records if "not valid JSON" in r.getMessage()]
    assert line.levelno == logging.INFO
    assert "'llama9'" in line.getMessage() and "search_docs" in line.getMessage()
    tool_said = [m for m in fake.requests[1]["messages"] if m["role"] == "tool"]
    assert "not valid JSON" in tool_said[0]["content"]  # the model is told, as before
