"""Tool results a model made up: a ``<tool_response>`` block it wrote itself after its
``<tool_call>`` blocks (as its chat template goes on), often with an answer drawn from it. The
calls run, the made-up response and all after it are dropped (never evidence, never shown),
a stray ``<tool_response>`` block in an answer is taken out, and prose naming the tag stays.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import json
import logging

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, sent_assistant, sent_calls
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.assistant.test_openai_text_calls import BACKUPS, RETRY
from tests.fakes.openai_server import FakeOpenAI, text, tools

LOGGER = "bot.assistant.openai_backend"

# what a Hermes model makes up on its first step (JSON), and on a later one, once it has seen
# citecast's real results in its template's <tool_response> blocks (their text form)
INVENTED_JSON = (
    '<tool_response>\n{"name": "search_docs", "content": "[cite: 1] Retries: 7 attempts, '
    'never backs off."}\n</tool_response>\n'
)
INVENTED_TEXT = "<tool_response>\n[cite: 9] Backups run hourly to tape.\n</tool_response>\n"


def invented_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "<tool_response>" in r.getMessage()]


@pytest.mark.parametrize("stream", [True, False])
async def test_calls_followed_by_a_made_up_response_run_and_nothing_made_up_is_shown(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    stream: bool,
) -> None:
    fake.add(
        # a preamble, the call, a made-up result and an answer drawn from it
        text(f"Let me check.\n{RETRY}\n{INVENTED_JSON}Retries make 7 attempts [1]."),
        # the next round does it again, in the text form of the results it has now seen
        text(f"{BACKUPS}\n{INVENTED_TEXT}\nBackups run hourly [9].\n"),
        text("It honours Retry-After [1]; back up nightly [3]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        reply = await run(bot, "retries and backups?", stream)
    # both calls ran, each in its round, and the real results were numbered in order
    assert sent_calls(fake.requests[1]) == [
        ("text_call_0_1", "search_docs", json.dumps({"query": "retry policy"}))
    ]
    assert first_cites(tool_messages(fake.requests[2])) == [1, 3]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    # the made-up results went back to the model as nothing: only the preamble is echoed
    assert sent_assistant(fake.requests[1])["content"] == "Let me check.\n"
    assert all("7 attempts" not in json.dumps(m) for m in fake.requests[2]["messages"])
    # the reader sees the preamble and the answer of the step after the real results (its
    # sources 1 and 3 shown as footnotes 1 and 2), and nothing else
    shown = " ".join(reply.answer.text.split())
    assert shown == "Let me check. It honours Retry-After [^1]; back up nightly [^2]."
    assert len(fake.requests) == 3 and fake.problems == []
    assert len(invented_warnings(caplog)) == 1  # once a turn, not once a step


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        (
            f"It backs off [1].\n{INVENTED_JSON}",
            "It backs off [^1].",
        ),
        (
            f"{INVENTED_TEXT}It backs off [1].",
            "It backs off [^1].",
        ),
        (  # unclosed: the model stopped inside it
            'It backs off [1].\n<tool_response>\n{"content": "[cite: 4] made up',
            "It backs off [^1].",
        ),
        (  # prose that names the tag stays, the block beside it goes
            f"<tool_response> tags hold a tool's result.\n{INVENTED_JSON}It backs off [1].",
            "<tool_response> tags hold a tool's result.\n\nIt backs off [^1].",
        ),
    ],
    ids=["after-the-answer", "before-the-answer", "unclosed", "beside-prose"],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_a_stray_response_block_in_an_answer_is_never_shown(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    content: str,
    shown: str,
    stream: bool,
) -> None:
    fake.add(tools(("search_docs", {"query": "retry policy"})), text(content))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == shown
    assert [c.source_number for c in reply.answer.citations] == [1]
    assert len(fake.requests) == 2 and fake.problems == []
    assert len(invented_warnings(caplog)) == 1


@pytest.mark.parametrize(
    "content",
    [
        "Results come back in a <tool_response> tag, after the <tool_call> [1].",
        "<tool_response> tags hold a tool's result.\nThat is all [1].",
        "<tool_response>the result</tool_response> is how a result is written [1].",
    ],
    ids=["inline", "line-start-prose", "tag-in-a-sentence"],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_text_that_talks_about_the_response_tag_is_shown_as_written(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    caplog: pytest.LogCaptureFixture,
    content: str,
    stream: bool,
) -> None:
    fake.add(tools(("search_docs", {"query": "retry policy"})), text(content))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        reply = await run(bot, "How do tool results look?", stream)
    assert reply.answer.text == content.replace("[1]", "[^1]")
    assert len(fake.requests) == 2 and fake.problems == []
    assert invented_warnings(caplog) == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_call_and_a_made_up_response_in_the_last_round_are_not_run_nor_shown(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tool_rounds=1)
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        text(f"It backs off [1].\n{BACKUPS}\n{INVENTED_TEXT}Backups run hourly [9]."),
    )
    reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == "It backs off [^1]."
    assert len(reply.registry["numbered"]) == 2  # the first round's passages only
    assert len(fake.requests) == 2 and fake.problems == []
