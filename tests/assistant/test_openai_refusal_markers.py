"""A refusal with citation markers in it ("I cannot share that [1].") cites nothing, streamed
or not: its markers are left out, neither shown as written nor resolved to a source.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import Completion, FakeOpenAI, chunk, events, raw, tools

REFUSAL = "I cannot share internal credentials [1]. Ask your administrator 【2†source】."
SHOWN = "I cannot share internal credentials. Ask your administrator."


def refused(stream: bool) -> Completion:
    if stream:
        piece = chunk()
        piece["choices"][0]["delta"] = {"role": "assistant", "content": None, "refusal": REFUSAL}
        return events(piece, chunk(finish="stop"), "data: [DONE]\n\n")
    message = {"role": "assistant", "content": None, "refusal": REFUSAL}
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [choice]}  # fmt: skip
    return raw(json.dumps(body), "application/json")


@pytest.mark.parametrize("stream", [True, False])
async def test_a_refusal_with_markers_cites_nothing(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(tools(("search_docs", {"query": "retry policy"})), refused(stream))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the admin password?", stream)
    assert reply.answer.text == SHOWN
    assert reply.answer.citations == ()
