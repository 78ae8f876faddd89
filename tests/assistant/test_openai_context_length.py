"""A prompt longer than the model's context fails with one line naming what to change.

The server's own reason ("maximum context length is 8192 tokens") does not say that citecast
put the retrieved passages and the earlier exchanges into that prompt, nor which settings decide
how much of them it puts there. Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from bot.models import Exchange
from tests.assistant.openai_turn import PUBLIC, run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, chunk, error_body, events, failure, tools

OPENAI_REASON = (
    "This model's maximum context length is 8192 tokens. However, your messages resulted in "
    "9120 tokens. Please reduce the length of the messages."
)
RETRIEVE_LESS = (
    "retrieve less (assistant.top_k, now 2; assistant.openai.max_tool_rounds, now 4; "
    "or a smaller index.chunk_chars, then ingest again)"
)
FEWER_EXCHANGES = (
    "keep fewer earlier exchanges (web.history_turns, slack.history_turns, "
    "discord.history_limit, discourse.history_posts, email.history_turns)"
)


@pytest.mark.parametrize("stream", [True, False])
async def test_a_context_overflow_after_a_search_names_the_retrieval_settings(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        failure(400, OPENAI_REASON, code="context_length_exceeded"),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "What does the retry policy do?", stream), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP 400: {OPENAI_REASON} "
        f"(the prompt is longer than the model's context: {RETRIEVE_LESS}, "
        "or use a model with a longer context)"
    )


async def test_a_context_overflow_before_any_search_names_the_history_settings(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # llama.cpp's shape: its error type, not OpenAI's code, says what happened
    llama = {
        "error": {
            "code": 400,
            "message": "the request exceeds the available context size, try increasing it",
            "type": "exceed_context_size_error",
        }
    }
    fake.add(error_body(400, json.dumps(llama), "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    history = [Exchange("How do I install citecast?", "Run pip install citecast [^1].")]
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(bot.reply("And on Linux?", PUBLIC, history), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP 400: the request exceeds the "
        "available context size, try increasing it (the prompt is longer than the model's "
        f"context: {FEWER_EXCHANGES}, or use a model with a longer context)"
    )


@pytest.mark.parametrize(
    "reason",
    [
        "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 "
        "maximum context length",  # Mistral
        "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: "
        "4000 `inputs` tokens and 512 `max_new_tokens`; the context window is full",
    ],
)
async def test_a_context_overflow_is_recognised_by_its_words(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, reason: str
) -> None:
    fake.add(tools(("search_docs", {"query": "retry policy"})), failure(400, reason))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "What does the retry policy do?", True), 10)
    assert str(caught.value).endswith(
        f"(the prompt is longer than the model's context: {RETRIEVE_LESS}, "
        "or use a model with a longer context)"
    )


async def test_another_bad_request_gets_no_context_advice(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(400, "Invalid value for 'temperature': must be at most 2."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", True), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP 400: Invalid value for "
        "'temperature': must be at most 2."
    )


async def test_an_azure_deployment_that_answers_404_gets_no_v1_advice(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # an Azure API root never ends in /v1: telling its user to add one would break it
    async with FakeOpenAI(prefix="/openai/deployments/d", key_header="api-key") as fake:
        fake.add(failure(404, "The API deployment for this resource does not exist."))
        bot = assistant_for(kb_settings, kb_index, f"{fake.base_url}?api-version=2024-06-01")
        with pytest.raises(BackendError) as caught:
            await asyncio.wait_for(run(bot, "hi", False), 10)
        assert str(caught.value) == (
            f"the model endpoint at {fake.base_url} answered HTTP 404: The API deployment for "
            "this resource does not exist."
        )
        assert fake.queries == [{"api-version": "2024-06-01"}]


async def test_a_context_overflow_sent_as_an_error_event_in_the_stream_names_them_too(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # a server (or a proxy) that starts the stream before it finds the prompt too long
    lm_studio = (
        "Trying to keep the first 9000 tokens when context the overflows. However, the model "
        "is loaded with context length of only 4096 tokens, which is not enough."
    )
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        events(chunk(""), {"error": {"message": lm_studio}}),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "What does the retry policy do?", True), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} failed: {lm_studio} (the prompt is longer "
        f"than the model's context: {RETRIEVE_LESS}, or use a model with a longer context)"
    )
