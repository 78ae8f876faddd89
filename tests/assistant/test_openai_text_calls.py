"""Tool calls a model wrote into ``content`` as ``<tool_call>`` text (Hermes and Qwen models
behind a server that does not parse them): run as structured calls would be, numbered the same
way, answered as ``tool`` messages; never shown to the reader. Text that only talks about the
tag is not run, and a block that is not a valid call is answered with the tool's error.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, searched_twice, sent_assistant, sent_calls
from tests.assistant.step_reading import chunked, read
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.fakes.openai_server import Completion, FakeOpenAI, ToolCallSpec, text, tools


def block(name: str, arguments: dict[str, Any]) -> str:
    """A call as Hermes and Qwen chat templates have the model write it."""
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


RETRY = block("search_docs", {"query": "retry policy"})
BACKUPS = block("search_docs", {"query": "backups"})


@pytest.mark.parametrize("stream", [True, False])
async def test_a_tool_call_written_as_text_is_run_and_cited(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # streamed in 5-character pieces: the tag itself arrives split
    fake.add(text(RETRY), text("It honours Retry-After [1] and backs off [2]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What does the retry policy do?", stream)
    assert reply.answer.text == "It honours Retry-After [^1] and backs off [^2]."
    assert [c.source_number for c in reply.answer.citations] == [1, 2]
    # sent back as the structured call it stands for, answered by a tool message
    assert sent_assistant(fake.requests[1])["content"] is None
    assert sent_calls(fake.requests[1]) == [
        ("text_call_0_1", "search_docs", '{"query": "retry policy"}')
    ]
    [result] = tool_messages(fake.requests[1])
    assert first_cites([result]) == [1] and "[cite: 2]" in result
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_two_calls_in_one_message_are_numbered_in_order(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # a reasoning model's thinking, a preamble, then two blocks (as Qwen's template lays out
    # an assistant message with two calls)
    content = f"<think>Two searches.</think>\n\nLet me check both.\n{RETRY}\n{BACKUPS}\n"
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await searched_twice(fake, bot, text(content), stream)
    assert [(name, json.loads(args)) for _, name, args in sent_calls(fake.requests[1])] == [
        ("search_docs", {"query": "retry policy"}),
        ("search_docs", {"query": "backups"}),
    ]
    assert first_cites(tool_messages(fake.requests[1])) == [1, 3]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    # the preamble is the step's text, as it is before structured calls
    assert sent_assistant(fake.requests[1])["content"] == "Let me check both.\n"
    assert reply.answer.text.startswith("Let me check both.\n")
    assert "<tool_call>" not in reply.answer.text and "Two searches" not in reply.answer.text
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_text_call_that_is_not_json_gets_the_error_of_invalid_arguments(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    broken = '<tool_call>\n{"name": "search_docs", "arguments": {"query": "retry"}\n</tool_call>'
    async with FakeOpenAI(object_arguments=True) as fake:  # refuses non-object arguments, as vLLM
        fake.add(text(broken), text("I could not search the documentation."))
        bot = assistant_for(kb_settings, kb_index, fake.base_url)
        reply = await run(bot, "What is the retry policy?", stream)
        assert tool_messages(fake.requests[1]) == [
            "error: the arguments of search_docs are not valid JSON"
        ]
        assert sent_calls(fake.requests[1]) == [("text_call_0_1", "search_docs", "{}")]
        assert reply.answer.text == "I could not search the documentation."
        assert reply.registry["numbered"] == []  # nothing was searched
        assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_text_call_of_an_unknown_tool_gets_the_unknown_tool_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(
        text(block("get_weather", {"city": "Paris"})),
        text("I can only search the documentation."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "Weather in Paris?", stream)
    assert tool_messages(fake.requests[1]) == ["error: unknown tool 'get_weather'"]
    assert reply.answer.text == "I can only search the documentation."
    assert reply.registry["numbered"] == []
    assert fake.problems == []


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (
            "Hermes models wrap each call in a <tool_call> tag; citecast retries [1].",
            # (no search, so no source: the model's "[1]" is invented and dropped)
            "Hermes models wrap each call in a <tool_call> tag; citecast retries.",
        ),
        (
            "<tool_call> and </tool_call> mark a call.\nThat is all.",
            "<tool_call> and </tool_call> mark a call.\nThat is all.",
        ),
        (
            '<tool_call>{"name": "search_docs"}</tool_call> is how a call is written.',
            '<tool_call>{"name": "search_docs"}</tool_call> is how a call is written.',
        ),
        # a whole block in mid-answer is an example or a stray: not run, and not shown
        (f"A call looks like this:\n{RETRY}\nand the server runs it.", None),
    ],
    ids=["inline", "line-start-prose", "tag-in-a-sentence", "block-in-mid-answer"],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_text_that_talks_about_the_tag_is_not_run(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    content: str,
    shown: str | None,
    stream: bool,
) -> None:
    fake.add(text(content))  # one response only: a second request would fail the turn
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "How do tool calls look?", stream)
    assert len(fake.requests) == 1 and fake.problems == []
    if shown is not None:
        assert reply.answer.text == shown
    else:
        assert reply.answer.text == "A call looks like this:\nand the server runs it."


@pytest.mark.parametrize("stream", [True, False])
async def test_text_calls_in_the_last_round_are_not_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tool_rounds=1)
    fake.add(tools(("search_docs", {"query": "retry policy"})), text(BACKUPS))
    with pytest.raises(BackendError, match="kept calling tools after 1 round and wrote no answer"):
        await run(bot, "What is the retry policy?", stream)

    fake.add(
        tools(("search_docs", {"query": "retry policy"})), text(f"It backs off [1].\n{BACKUPS}")
    )
    reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == "It backs off [^1]."
    assert len(reply.registry["numbered"]) == 2  # the first round's passages only
    assert len(fake.requests) == 4 and fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_block_beside_structured_calls_is_neither_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # a server that parsed the call and also passed its text on
    spec = ToolCallSpec("search_docs", {"query": "retry policy"})
    fake.add(Completion(content=RETRY, tool_calls=(spec,)), text("It backs off [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream)
    [(call_id, name, _)] = sent_calls(fake.requests[1])
    assert call_id.startswith("call_") and name == "search_docs"
    assert sent_assistant(fake.requests[1])["content"] is None
    assert reply.answer.text == "It backs off [^1]."
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_calls_as_text_are_said_once_not_at_every_step(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    stream: bool,
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    for _ in range(2):  # two turns of two steps with calls as text each
        fake.add(text(RETRY), text(BACKUPS), text("Retries back off [1]."))
    with caplog.at_level(logging.DEBUG, logger="bot.assistant.openai_backend"):
        for _ in range(2):
            reply = await run(bot, "What is the retry policy?", stream)
            assert reply.answer.text == "Retries back off [^1]."
    said = [r for r in caplog.records if "does not parse its tool calls" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO] + [logging.DEBUG] * 3
    assert "'gpt-4o-mini'" in said[0].getMessage() and fake.base_url in said[0].getMessage()
    assert len(fake.requests) == 6 and fake.problems == []


SAMPLES = [
    RETRY,
    f"Let me look.\n  {RETRY}\n{BACKUPS}",
    f"<think>x</think>\n{RETRY}",
    "Tags like <tool_call> are prose.",
    f"Example:\n{RETRY}\nDone [1].",
    '<tool_call>\n{"name": "search_docs", "arguments": {"query": "x"}',
    "<tool_call> is a tag\n<tool_c",
    # a response the model made up after its call, and an answer drawn from it
    f'Let me look.\n{RETRY}\n<tool_response>\n{{"x": 1}}\n</tool_response>\nMade up [1].',
    f"{RETRY}\n<tool_response>\n[cite: 1] made up",
    'Fine [1].\n  <tool_response>\n{"x": 1}\n</tool_response>\nDone.',
    "<tool_response> is a tag\n<tool_resp",
]


@given(sample=st.sampled_from(SAMPLES), data=st.data())
def test_what_a_step_shows_and_calls_does_not_depend_on_chunking(
    sample: str, data: st.DataObject
) -> None:
    shown, calls = read(chunked(sample, data))
    assert (shown, calls) == read([sample])
    assert "<tool_call>\n{" not in shown and "<tool_response>\n" not in shown
    assert "made up" not in shown.lower()
