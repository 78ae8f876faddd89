"""A tool call with arguments that are not a JSON object does not fail the turn.

The model reads the tool's error and goes on; the call goes back to the endpoint with arguments
that parse (``{}``), because vLLM parses every earlier call's arguments before the next step and
refuses the whole request over one it cannot parse. Driven by the real ``openai`` client against
the loopback fake, which parses them as vLLM does.
"""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import FakeOpenAI, text, tools


@pytest.mark.parametrize("arguments", ['{"query": "retry', "", '["retry policy"]', "null"])
@pytest.mark.parametrize("stream", [True, False])
async def test_a_call_with_malformed_arguments_gets_an_error_and_the_model_goes_on(
    kb_settings: Settings, kb_index: KnowledgeIndex, arguments: str, stream: bool
) -> None:
    async with FakeOpenAI(object_arguments=True) as fake:
        fake.add(
            tools(("search_docs", arguments)),
            tools(("search_docs", {"query": "retry policy"})),
            text("It waits for Retry-After [1]."),
        )
        bot = assistant_for(kb_settings, kb_index, fake.base_url)
        reply = await run(bot, "What does the retry policy do?", stream)
        assert reply.answer.text == "It waits for Retry-After [^1]."
        assert fake.problems == []
        [error] = tool_messages(fake.requests[1])
        assert error.startswith("error: ") and "search_docs" in error
        [echoed] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
        assert echoed["tool_calls"][0]["function"]["arguments"] == "{}"


async def test_well_formed_arguments_go_back_as_the_model_wrote_them(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    async with FakeOpenAI(object_arguments=True) as fake:
        written = '{"query":  "retry policy", "extra": [1, 2]}'
        fake.add(tools(("search_docs", written)), text("It retries [1]."))
        bot = assistant_for(kb_settings, kb_index, fake.base_url)
        assert (await run(bot, "retries?", True)).answer.text == "It retries [^1]."
        [echoed] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
        assert echoed["tool_calls"][0]["function"]["arguments"] == written
