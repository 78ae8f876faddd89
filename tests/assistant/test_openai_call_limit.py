"""A model step that asks for more tool calls than one step may run (a small local model
repeating a search dozens of times): the first ones run, every later one is answered with an
error the model can read, and the conversation goes on with each call answered.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

from bot.assistant.tools import MAX_CALLS_PER_STEP, Toolbox, ToolCall
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.registry import SourceRegistry
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import FakeOpenAI, text, tools

OVER = (
    f"error: too many tool calls in one step (at most {MAX_CALLS_PER_STEP}); this one was not run"
)


async def test_calls_past_the_limit_of_one_step_are_answered_but_not_run(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    many = [("search_docs", {"query": "retry policy"})] * (MAX_CALLS_PER_STEP + 5)
    fake.add(tools(*many), text("It backs off [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries?", stream=True)
    results = tool_messages(fake.requests[1])
    assert len(results) == MAX_CALLS_PER_STEP + 5  # every call answered: the request is valid
    assert all(r.startswith("[cite: 1]") for r in results[:MAX_CALLS_PER_STEP])
    assert results[MAX_CALLS_PER_STEP:] == [OVER] * 5
    assert reply.answer.text == "It backs off [^1]."
    assert fake.problems == []


async def test_the_limit_counts_calls_in_the_order_the_model_made_them(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    toolbox = Toolbox(kb_index, None, top_k=1)
    calls = [
        ToolCall(f"c{i}", "search_docs", '{"query": "backups"}') for i in range(MAX_CALLS_PER_STEP)
    ]
    calls.append(ToolCall("late", "search_docs", '{"query": "retry policy"}'))
    results = await toolbox.run_calls(calls, SourceRegistry(frozenset({"public"})))
    assert results[-1] == OVER
    assert not any(r.startswith("error:") for r in results[:-1])
