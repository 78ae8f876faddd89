"""Tool calls streamed by a server that repeats the function name in every piece (MiniMax on
NVIDIA NIM, some proxies), before the arguments as well as with them: the name must not be
doubled ("search_docssearch_docs" names no tool), and calls stay apart as before.

Driven by the real ``openai`` client against the loopback fake, scripted chunk by chunk.
"""

from __future__ import annotations

from typing import Any

from bot.assistant.openai_step import Step
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import FakeOpenAI, chunk, events, text

DONE = "data: [DONE]\n\n"


def piece(index: int, name: str, args: str, id: str | None = None) -> dict[str, Any]:
    """A tool-call fragment that carries the function name, as these servers send each one."""
    call: dict[str, Any] = {"index": index, "function": {"name": name, "arguments": args}}
    return {**call, "id": id, "type": "function"} if id is not None else call


async def test_a_name_repeated_in_every_piece_is_not_doubled(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        events(
            chunk(calls=[piece(0, "search_docs", "", id="call_a")]),
            chunk(calls=[piece(0, "search_docs", "")]),  # a repeated header, no arguments yet
            chunk(calls=[piece(0, "search_docs", '{"query": ')]),
            chunk(calls=[piece(0, "search_docs", '"retry policy"}')]),
            chunk(finish="tool_calls"),
            DONE,
        ),
        text("It backs off [1]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries?", stream=True)
    [assistant] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
    assert [
        (c["function"]["name"], c["function"]["arguments"]) for c in assistant["tool_calls"]
    ] == [("search_docs", '{"query": "retry policy"}')]
    [result] = tool_messages(fake.requests[1])
    assert result.startswith("[cite: 1]")
    assert reply.answer.text == "It backs off [^1]."
    assert fake.problems == []


def test_repeated_names_of_parallel_calls_keep_each_call_whole() -> None:
    step = Step()
    for index in (0, 1):
        step.add_call_delta(index, f"call_{index}", "search_docs", "")
    for index, query in ((0, "retry policy"), (1, "backups")):
        step.add_call_delta(index, None, "search_docs", "")
        step.add_call_delta(index, None, "search_docs", f'{{"query": "{query}"}}')
    assert [(c.id, c.name, c.arguments) for c in step.tool_calls()] == [
        ("call_0", "search_docs", '{"query": "retry policy"}'),
        ("call_1", "search_docs", '{"query": "backups"}'),
    ]


def test_a_name_in_pieces_is_still_joined() -> None:
    step = Step()
    step.add_call_delta(0, "call_a", "search_", "")
    step.add_call_delta(0, None, "docs", "")
    step.add_call_delta(0, None, None, '{"query": "x"}')
    assert [(c.name, c.arguments) for c in step.tool_calls()] == [("search_docs", '{"query": "x"}')]
