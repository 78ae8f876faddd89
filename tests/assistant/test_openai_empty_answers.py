"""Steps that end without an answer, and the finish_reason values of answers that are whole.

A reasoning model whose server keeps its thinking apart can spend its whole token limit
thinking, and Azure's content filter can stop an answer before its first word: the turn fails
saying so, not only "an empty answer". Older Hugging Face TGI releases end every whole answer
with "eos_token" or "stop_sequence": no warning that it may be incomplete.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
import logging

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import Completion, FakeOpenAI, chunk, events, raw

DONE = "data: [DONE]\n\n"
LOGGER = "bot.assistant.openai_backend"
THINKING = "The user asks about retries. Let me think about what to search for first"


def nothing_but_thinking(stream: bool, finish: str) -> Completion:
    """A step whose only output is reasoning (vLLM's reasoning parser, Ollama, LM Studio)."""
    if stream:
        thinking = chunk()
        thinking["choices"][0]["delta"] = {"role": "assistant", "reasoning_content": THINKING}
        return events(thinking, chunk(finish=finish), DONE)
    message = {"role": "assistant", "content": None, "reasoning_content": THINKING}
    choice = {"index": 0, "message": message, "finish_reason": finish}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    return raw(json.dumps(body), "application/json")


@pytest.mark.parametrize(
    ("finish", "why"),
    [
        (
            "length",
            "the model reached its length limit before it wrote any answer "
            "(a reasoning model's thinking counts toward it); assistant.openai.max_tokens is "
            "not set, so the server's own limit applied; set it higher",
        ),
        ("content_filter", "the model's content filter stopped it before it wrote any answer"),
    ],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_a_step_stopped_before_any_answer_says_why(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    stream: bool,
    finish: str,
    why: str,
) -> None:
    fake.add(nothing_but_thinking(stream, finish))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await run(bot, "What is the retry policy?", stream)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} returned an empty answer "
        f"(finish_reason {finish!r}: {why})"
    )
    assert THINKING not in str(caught.value) and fake.problems == []


@pytest.mark.parametrize("finish", ["eos_token", "stop_sequence"])
@pytest.mark.parametrize("stream", [True, False])
async def test_whole_answers_as_older_tgi_ends_them_log_no_warning(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    stream: bool,
    finish: str,
) -> None:
    fake.add(Completion(content="Hello there.", finish_reason=finish))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        reply = await run(bot, "hi", stream)
    assert reply.answer.text == "Hello there."
    assert [r for r in caplog.records if r.name == LOGGER] == []


async def test_an_unknown_finish_reason_is_still_logged(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.add(Completion(content="Hello there.", finish_reason="recitation"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        reply = await run(bot, "hi", stream=True)
    assert reply.answer.text == "Hello there."
    assert "finish_reason 'recitation'; the answer may be incomplete" in caplog.text
