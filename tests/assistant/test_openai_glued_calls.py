"""Parallel tool calls that reach citecast glued into one: a server that streams them at one
index with neither ids nor names after the first (LiteLLM, vLLM tool parsers that omit the id),
or sends their arguments as one string of several JSON objects (Gemini). Read as one call the
arguments are not JSON and every search is lost; they are split back into the calls they were.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json

import pytest

from bot.assistant.openai_step import Step
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, sent_calls
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import FakeOpenAI, chunk, events, raw, text, tools

DONE = "data: [DONE]\n\n"
RETRY = '{"query": "retry policy"}'
BACKUPS = '{"query": "backups"}'


async def test_calls_streamed_at_one_index_without_ids_are_split(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    head = {"index": 0, "id": "call_a", "type": "function"}
    fake.add(
        events(
            chunk(calls=[{**head, "function": {"name": "search_docs", "arguments": ""}}]),
            chunk(calls=[{"index": 0, "function": {"arguments": RETRY[:9]}}]),
            chunk(calls=[{"index": 0, "function": {"arguments": RETRY[9:]}}]),
            chunk(calls=[{"index": 0, "function": {"arguments": BACKUPS}}]),  # the next call
            chunk(finish="tool_calls"),
            DONE,
        ),
        text("Retries back off [1]. Back up nightly [3]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries and backups?", stream=True)
    assert sent_calls(fake.requests[1]) == [
        ("call_a", "search_docs", RETRY),
        ("call_a_2", "search_docs", BACKUPS),
    ]
    results = tool_messages(fake.requests[1])
    assert not any(r.startswith("error:") for r in results)
    assert first_cites(results) == [1, 3]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_arguments_of_several_objects_in_one_string_are_several_calls(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    glued = f"{RETRY}\n{BACKUPS}"
    fake.add(tools(("search_docs", glued)), text("Retries back off [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    await run(bot, "retries and backups?", stream)
    [(first, _, _), (second, _, _)] = calls = sent_calls(fake.requests[1])
    assert [(name, json.loads(args)) for _, name, args in calls] == [
        ("search_docs", json.loads(RETRY)),
        ("search_docs", json.loads(BACKUPS)),
    ]
    assert second == f"{first}_2"
    assert first_cites(tool_messages(fake.requests[1])) == [1, 3]
    assert fake.problems == []


async def test_a_whole_completion_with_glued_arguments_is_split(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    function = {"name": "search_docs", "arguments": RETRY + BACKUPS}
    call = {"id": "g1", "type": "function", "function": function}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    fake.add(raw(json.dumps(body), "application/json"), text("Back up nightly [3]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries and backups?", stream=False)
    assert [c[0] for c in sent_calls(fake.requests[1])] == ["g1", "g1_2"]
    assert [c.source_number for c in reply.answer.citations] == [3]


@pytest.mark.parametrize(
    "arguments",
    ['{"query": "x"}}', '{"query": "x"} and more', '[{"query": "x"}, {"query": "y"}]', ""],
)
def test_arguments_that_are_not_a_run_of_objects_stay_one_call(arguments: str) -> None:
    step = Step()
    step.add_call("call_a", "search_docs", arguments)
    assert [(c.id, c.arguments) for c in step.tool_calls()] == [("call_a", arguments)]
