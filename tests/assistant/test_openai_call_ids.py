"""Tool calls as odd servers send them: parallel calls that share one id, and arguments encoded
as JSON twice (a model that writes them as a string, behind vLLM's Hermes parser). Each call
still runs with its own arguments and is answered under an id of its own.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.openai_arguments import unwrapped
from bot.assistant.openai_step import Step
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, searched_twice, sent_calls
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import Completion, FakeOpenAI, chunk, events, raw, text, tools

RETRY = {"query": "retry policy"}
BACKUPS = {"query": "backups"}
DONE = "data: [DONE]\n\n"


def call(call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "search_docs", "arguments": json.dumps(arguments)},
    }


def two_calls_with_one_id(stream: bool) -> Completion:
    """Two parallel calls, both with the id ``call_1``."""
    if stream:
        return events(
            chunk(calls=[{"index": 0, **call("call_1", RETRY)}]),
            chunk(calls=[{"index": 1, **call("call_1", BACKUPS)}]),
            chunk(finish="tool_calls"),
            DONE,
        )
    message = {"role": "assistant", "content": None,
               "tool_calls": [call("call_1", RETRY), call("call_1", BACKUPS)]}  # fmt: skip
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    return raw(json.dumps(body), "application/json")


@pytest.mark.parametrize("stream", [True, False])
async def test_parallel_calls_that_share_an_id_are_each_answered_under_their_own(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await searched_twice(fake, bot, two_calls_with_one_id(stream), stream)
    # the fake refuses a second answer to one id, as strict servers do
    assert fake.problems == []
    assert [(i, json.loads(a)) for i, _, a in sent_calls(fake.requests[1])] == [
        ("call_1", RETRY),
        ("call_1_2", BACKUPS),
    ]
    tool_ids = [m["tool_call_id"] for m in fake.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_ids == ["call_1", "call_1_2"]
    assert first_cites(tool_messages(fake.requests[1])) == [1, 3]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]


def test_ids_made_unique_never_take_one_the_server_gave() -> None:
    step = Step()
    for call_id in ("a", "a_2", "a", ""):
        step.add_call(call_id, "search_docs", "{}")
    assert [c.id for c in step.tool_calls()] == ["a", "a_2", "a_3", "call_3"]


@pytest.mark.parametrize("stream", [True, False])
async def test_arguments_encoded_twice_are_read_once(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # '"{\"query\": \"retry policy\"}"': a JSON string holding the JSON object
    twice = json.dumps(json.dumps(RETRY))
    async with FakeOpenAI(object_arguments=True) as fake:  # parses echoed arguments, as vLLM
        fake.add(tools(("search_docs", twice)), text("It backs off [1]."))
        bot = assistant_for(kb_settings, kb_index, fake.base_url)
        reply = await run(bot, "What is the retry policy?", stream)
        [(_, _, arguments)] = sent_calls(fake.requests[1])
        assert json.loads(arguments) == RETRY
        assert first_cites(tool_messages(fake.requests[1])) == [1]
        assert reply.answer.text == "It backs off [^1]."
        assert fake.problems == []


@pytest.mark.parametrize(
    "arguments",
    ['"retry policy"', '"[1, 2]"', '"{\\"query\\": "', "[1, 2]", "{}", "", "not json", '"{}{}"'],
)
def test_arguments_that_are_not_an_object_encoded_twice_stay_as_they_are(arguments: str) -> None:
    assert unwrapped(arguments) == arguments


@given(st.dictionaries(st.text(max_size=5), st.text(max_size=5) | st.integers(), max_size=3))
def test_an_object_is_read_the_same_encoded_once_or_twice(value: dict[str, Any]) -> None:
    once = json.dumps(value)
    assert unwrapped(once) == once
    assert json.loads(unwrapped(json.dumps(once))) == value
