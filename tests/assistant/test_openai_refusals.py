"""A model's refusal (OpenAI's ``refusal`` field beside a ``content`` of null) is its answer,
citing nothing, streamed or not, not "an empty answer (finish_reason 'stop')".

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
import logging

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, chunk, events, raw, tools

REFUSAL = "I'm sorry, I can't help with that."
SEARCH = ("search_docs", {"query": "retry policy"})


def refused_in_pieces() -> list[dict[str, object]]:
    pieces = []
    for part in ("I'm sorry, ", "I can't help with that."):
        piece = chunk()
        piece["choices"][0]["delta"] = {"role": "assistant", "content": None, "refusal": part}
        pieces.append(piece)
    return pieces


def refused_at_once() -> str:
    message = {"role": "assistant", "content": None, "refusal": REFUSAL}
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    return json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
                       "choices": [choice]})  # fmt: skip


@pytest.mark.parametrize("stream", [True, False])
async def test_a_refusal_is_the_answer_and_the_log_names_it(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    stream: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    refused = (
        events(*refused_in_pieces(), chunk(finish="stop"), "data: [DONE]\n\n")
        if stream
        else raw(refused_at_once(), "application/json")
    )
    fake.add(tools(SEARCH), refused)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, "bot.assistant.openai_backend"):
        reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == REFUSAL
    assert reply.answer.citations == ()
    assert "refused to answer (finish_reason 'stop')" in caplog.text
    assert f"its refusal is the answer, citing nothing: {REFUSAL}" in caplog.text


async def test_a_refusal_beside_an_answer_is_not_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    both = chunk("Retries back off [1].")
    both["choices"][0]["delta"]["refusal"] = REFUSAL
    fake.add(tools(SEARCH), events(both, chunk(finish="stop"), "data: [DONE]\n\n"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream=True)
    assert reply.answer.text == "Retries back off [^1]."
