"""Tool calls written as text in Qwen3-Coder's form, which Qwen 3.5 and 3.6 write too:
``<tool_call>`` around ``<function=NAME>`` and a ``<parameter=KEY>`` for each argument. A
server started with a parser for another form (vLLM's ``hermes``, an older llama.cpp) passes
them on in ``content``: they are run, as calls written as JSON are, and never shown.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json

import pytest

from bot.assistant.openai_step import Step
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, searched_twice, sent_assistant, sent_calls
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import FakeOpenAI, text


def function_block(name: str, **parameters: str) -> str:
    """A call as Qwen3-Coder's chat template has the model write it."""
    lines = [f"<parameter={key}>\n{value}\n</parameter>" for key, value in parameters.items()]
    return "\n".join(["<tool_call>", f"<function={name}>", *lines, "</function>", "</tool_call>"])


@pytest.mark.parametrize("stream", [True, False])
async def test_a_call_in_function_form_is_run_and_cited(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    block = function_block("search_docs", query="retry policy")
    fake.add(text(f"Let me check.\n{block}\n"), text("It honours Retry-After [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream)
    assert sent_calls(fake.requests[1]) == [
        ("text_call_0_1", "search_docs", json.dumps({"query": "retry policy"}))
    ]
    assert first_cites(tool_messages(fake.requests[1])) == [1]
    assert sent_assistant(fake.requests[1])["content"] == "Let me check.\n"
    assert " ".join(reply.answer.text.split()) == "Let me check. It honours Retry-After [^1]."
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_calls_in_function_form_keep_each_parameter_and_their_order(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    first = function_block("search_docs", query="retry policy")
    # the second one unclosed: the model stopped at its end-of-turn token
    second = "<tool_call>\n<function=search_docs>\n<parameter=query>\nbackups"
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await searched_twice(fake, bot, text(f"{first}\n{second}"), stream)
    assert [(i, json.loads(a)) for i, _, a in sent_calls(fake.requests[1])] == [
        ("text_call_0_1", {"query": "retry policy"}),
        ("text_call_0_2", {"query": "backups"}),
    ]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert fake.problems == []


def test_several_parameters_keep_their_text_and_lines() -> None:
    step = Step()
    block = function_block("lookup_records", table="products", query="pro\nplan")
    assert step.add_text(block) + step.end_text() == ""
    [call] = step.tool_calls()
    assert (call.name, json.loads(call.arguments)) == (
        "lookup_records",
        {"table": "products", "query": "pro\nplan"},
    )


@pytest.mark.parametrize("stream", [True, False])
async def test_a_function_block_in_mid_answer_is_not_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    block = function_block("search_docs", query="x")
    fake.add(text(f"A call looks like this:\n{block}\nand the server runs it."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "How do tool calls look?", stream)
    assert reply.answer.text == "A call looks like this:\nand the server runs it."
    assert len(fake.requests) == 1 and fake.problems == []
