"""A server that ignores ``stream: true`` and answers a whole JSON ``chat.completion`` (labelled
``application/json``, or ``text/event-stream`` by a proxy) gives a streamed turn the same answer
as an unstreamed one, tool calls included, not "not a chat completion stream".

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.assistant.openai_bodies import completion_events
from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, raw

ANSWER = "citecast waits for Retry-After [1] and then backs off."


def whole(message: dict[str, Any], finish: str) -> str:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
    return json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "fake",
                       "choices": [choice]})  # fmt: skip


SEARCH = {
    "content": None,
    "tool_calls": [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "search_docs", "arguments": '{"query": "retry policy"}'},
        }
    ],
}


@pytest.mark.parametrize("content_type", ["application/json", "text/event-stream"])
async def test_a_whole_completion_answers_a_streamed_turn(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, content_type: str
) -> None:
    for _ in range(2):  # one turn unstreamed, then one streamed
        fake.add(
            raw("\n" + whole(SEARCH, "tool_calls"), content_type),
            raw(whole({"content": ANSWER}, "stop"), content_type),
        )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    unstreamed = await run(bot, "What does the retry policy do?", stream=False)
    streamed = await run(bot, "What does the retry policy do?", stream=True)
    assert streamed.answer.text == unstreamed.answer.text
    assert streamed.answer.text == "citecast waits for Retry-After [^1] and then backs off."
    assert [c.n for c in streamed.answer.citations] == [1]
    assert fake.requests[-1]["stream"] is True


async def test_a_json_error_in_place_of_a_stream_is_still_not_a_stream(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(raw(json.dumps({"error": "Unexpected endpoint or method."}), "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await run(bot, "anything", stream=True)
    assert "returned a response that is not a chat completion stream" in str(caught.value)


def test_a_completion_becomes_one_chunk_and_done() -> None:
    events = completion_events(whole(SEARCH, "tool_calls").encode()) or b""
    first, done, end = events.decode().split("\n\n")
    assert (done, end) == ("data: [DONE]", "")
    chunk = json.loads(first.removeprefix("data: "))
    assert chunk["object"] == "chat.completion.chunk"
    [choice] = chunk["choices"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["delta"]["tool_calls"][0]["index"] == 0
    assert choice["delta"]["tool_calls"][0]["function"]["name"] == "search_docs"
    assert completion_events(b"<html>proxy</html>") is None
