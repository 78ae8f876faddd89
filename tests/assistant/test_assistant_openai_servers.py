"""The OpenAI-compatible backend reading what real servers stream and send (OpenAI, vLLM, Ollama,
LM Studio, llama.cpp, LiteLLM, Mistral): tool calls in fragments, interleaved or without an
``index``, arguments as objects, thinking before the answer, answers cut at the token limit,
and the per-turn numbering of sources that several parallel calls return.

Driven by the real ``openai`` client against the loopback fake, scripted chunk by chunk.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.assistant.openai_backend import CUT_NOTES
from bot.assistant.openai_step import Step
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import (
    Completion,
    FakeOpenAI,
    chunk,
    events,
    raw,
    text,
    tools,
)

PUBLIC = frozenset({"public"})
DONE = "data: [DONE]\n\n"


def piece(
    index: int | None = None, id: str | None = None, name: str | None = None, args: Any = None
) -> dict[str, Any]:
    """One streamed tool-call fragment with only the fields given (as servers leave them out)."""
    call: dict[str, Any] = {} if index is None else {"index": index}
    if id is not None:
        call.update(id=id, type="function")
    function = {k: v for k, v in (("name", name), ("arguments", args)) if v is not None}
    return {**call, "function": function} if function else call


def cite_numbers(result: str) -> list[int]:
    return [int(n) for n in re.findall(r"^\[cite: (\d+)\]", result, re.MULTILINE)]


def completion(message: dict[str, Any], finish: str = "stop") -> Completion:
    """A whole (non-streamed) chat completion with this message, byte for byte."""
    choice = {"index": 0, "message": message, "finish_reason": finish}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    return raw(json.dumps(body), "application/json")


# -- streams as real servers write them -----------------------------------------------------------


async def test_a_real_world_stream_of_parallel_calls_is_read_whole(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # ids and names only in the first fragment, arguments split mid-token, two calls
    # interleaved, SSE comments and an empty keep-alive, a usage chunk with `choices: []`
    # after the finish_reason, and no `[DONE]`
    fake.add(
        events(
            ": keep-alive\n\n",
            chunk(calls=[piece(0, "call_a", "search_docs", "")]),
            chunk(calls=[piece(1, "call_b", "search_docs", "")]),
            chunk(calls=[piece(0, args='{"que')]),
            ":\n\n",
            chunk(calls=[piece(1, args='{"query": "back')]),
            chunk(calls=[piece(0, args='ry": "retry policy"}')]),
            chunk(calls=[piece(1, args='ups"}')]),
            chunk(finish="tool_calls"),
            {**chunk(), "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 9}},
        ),
        text("Retries back off [1]. Back up nightly [3]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries and backups?", stream=True)
    [assistant] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
    assert [(c["id"], c["function"]["arguments"]) for c in assistant["tool_calls"]] == [
        ("call_a", '{"query": "retry policy"}'),
        ("call_b", '{"query": "backups"}'),
    ]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert reply.answer.text == "Retries back off [^1]. Back up nightly [^2]."
    assert fake.problems == []


async def test_fragments_without_an_index_make_one_call(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        events(
            chunk(None, calls=[piece(None, "call_a", "search_docs", "")]),
            chunk(calls=[piece(args='{"query"')]),
            chunk(calls=[piece(args=': "retry policy"}')]),
            chunk(finish="tool_calls"),
            DONE,
        ),
        text("It backs off [1]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries?", stream=True)
    assert reply.answer.text == "It backs off [^1]."
    [result] = tool_messages(fake.requests[1])
    assert result.startswith("[cite: 1]")


@pytest.mark.parametrize("stream", [True, False])
async def test_arguments_sent_as_an_object_are_read_as_json(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # the API says a JSON string; some servers send the object itself
    query = {"query": "retry policy"}
    call = {"id": "call_a", "type": "function"}
    if stream:
        head = {**call, "index": 0, "function": {"name": "search_docs", "arguments": query}}
        fake.add(events(chunk(calls=[head]), chunk(finish="tool_calls"), DONE))
    else:
        whole = {**call, "function": {"name": "search_docs", "arguments": query}}
        fake.add(completion({"role": "assistant", "content": None, "tool_calls": [whole]}))
    fake.add(text("It backs off [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries?", stream)
    assert reply.answer.text == "It backs off [^1]."
    [assistant] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == query


async def test_the_same_source_from_parallel_calls_keeps_one_number(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        events(
            chunk(calls=[piece(0, "a", "search_docs", '{"query": "retry policy"}')]),
            chunk(calls=[piece(1, "b", "search_docs", '{"query": "backups"}')]),
            chunk(calls=[piece(2, "c", "search_docs", '{"query": "retry policy"}')]),
            chunk(finish="tool_calls"),
            DONE,
        ),
        tools(("search_docs", {"query": "backups"})),  # the next round finds them again
        text("Retries [1]. Backups [3]. Retries again [5]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries, backups, retries", stream=True)
    retry, backups, again = tool_messages(fake.requests[1])
    assert again == retry  # the same passages, with the numbers they already had
    # the backups search also finds the overview passage the retry search found second: it is
    # cited as 2 there too, and only the new passage gets the next number
    assert cite_numbers(retry) == [1, 2] and cite_numbers(backups) == [3, 2]
    assert tool_messages(fake.requests[2])[-1] == backups
    assert len(reply.registry["numbered"]) == 3
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert [(d.marker, d.reason) for d in reply.answer.dropped] == [("[5]", "out_of_range")]


@pytest.mark.parametrize("stream", [True, False])
async def test_a_cut_answer_ends_with_a_note_outside_its_open_code_block(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    cut = "Run:\n\n```bash\ncitecast ingest do"
    fake.add(Completion(content=cut, finish_reason="length"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "How do I ingest?", stream)
    assert reply.answer.text == f"{cut}\n```\n\n{CUT_NOTES['length']}"

    fake.add(Completion(content="The first part", finish_reason="content_filter"))
    reply = await run(bot, "anything", stream)
    assert reply.answer.text == f"The first part\n\n{CUT_NOTES['content_filter']}"


# -- reasoning models served without a reasoning parser ---------------------------------------

THOUGHT = (
    "<think>\nThe user asks about retries. Source [1] says Retry-After; [2] is unrelated.\n</think>"
)


@pytest.mark.parametrize("stream", [True, False])
async def test_a_thinking_block_before_the_answer_is_not_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    answer = "It honours Retry-After [1]."
    content = f"\n{THOUGHT}\n\n{answer}"
    cuts = [0, 3, 9, 40, len(content) - len(answer) - 6, len(content) - len(answer) - 1]
    pieces = tuple(content[a:b] for a, b in zip(cuts, [*cuts[1:], len(content)], strict=True))
    fake.add(tools(("search_docs", {"query": "retry policy"})), text(content, *pieces))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What does the retry policy do?", stream)
    assert reply.answer.text == "It honours Retry-After [^1]."
    assert [c.source_number for c in reply.answer.citations] == [1]


@pytest.mark.parametrize(
    "content",
    ["Wrap it in a <think> tag.", "<thi", "<b>bold</b> claim", "  <thinking about it> no"],
)
async def test_text_that_does_not_open_with_a_thinking_block_is_kept_whole(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, content: str
) -> None:
    fake.add(text(content, *content))  # one character per chunk
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await run(bot, "anything", stream=True)).answer.text == content


@pytest.mark.parametrize("stream", [True, False])
async def test_content_sent_as_a_list_of_parts_is_read_without_its_thinking(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # Mistral's reasoning models: content is a list of parts, the thinking one of them
    parts = [
        {"type": "thinking", "thinking": [{"type": "text", "text": "Maybe [1]?"}]},
        {"type": "text", "text": "Hello "},
        {"type": "text", "text": "there."},
    ]
    if stream:
        delta = {"choices": [{"index": 0, "delta": {"content": parts}, "finish_reason": None}]}
        fake.add(events({**chunk(), **delta}, chunk(finish="stop"), DONE))
    else:
        fake.add(completion({"role": "assistant", "content": parts}))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await run(bot, "hi", stream)).answer.text == "Hello there."


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (f" {THOUGHT}\n\nThe answer [1].", "The answer [1]."),
        ("<think></think>Short.", "Short."),
        ("<think>never closed, cut at the limit", ""),
        ("No thinking; a <think> later stays.", "No thinking; a <think> later stays."),
        ("  <thi", "  <thi"),
    ],
)
def test_a_thinking_block_is_left_out_however_the_text_is_chunked(content: str, shown: str) -> None:
    for first in range(len(content) + 1):
        for second in range(first, len(content) + 1):
            step = Step()
            pieces = (content[:first], content[first:second], content[second:])
            out = "".join(step.add_text(p) for p in pieces) + step.end_text()
            assert (out, "".join(step.text)) == (shown, shown), (first, second)
