"""A citation marker the model's length limit cut in half is left out of the answer, streamed
or not, and the answer keeps its text and the note saying it was cut off.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.openai_backend import CUT_NOTES
from bot.assistant.openai_cut_marker import CutMarkerHold
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_script import ToolCallSpec
from tests.fakes.openai_server import Completion, FakeOpenAI, tools

NOTE = CUT_NOTES["length"]
BACKUPS = ("search_docs", {"query": "backups"})
PIECES = [
    "Retries ",
    "[1]",
    "[",
    "2, ",
    "3]",
    "<citation>",
    "1 | q",
    "</citation>",
    "```\n",
    "x = [1, ",
    "\n",
    "  ",
    '[[source key="ab"]]',
    "【1】",
    "^",
    "(aside",
    "(Source 2)",
]


@pytest.mark.parametrize("half", ["<citation>3 | Every reply", '[[source key="ab', "[2, "])
@pytest.mark.parametrize("stream", [True, False])
async def test_a_marker_cut_by_the_length_limit_is_left_out(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, half: str, stream: bool
) -> None:
    said = "Retries back off [1]. Also "
    cut = Completion(content=said + half, pieces=(said, half), finish_reason="length")
    fake.add(tools(("search_docs", {"query": "retry policy"})), cut)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == f"Retries back off [^1]. Also\n\n{NOTE}"


async def test_a_bracket_the_cut_left_in_a_code_block_is_code(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    code = "Run:\n\n```python\nretries = [1, "
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        Completion(content=code, finish_reason="length"),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream=True)
    assert reply.answer.text == f"Run:\n\n```python\nretries = [1, \n```\n\n{NOTE}"


def test_what_may_begin_a_marker_is_held_until_it_is_known() -> None:
    hold = CutMarkerHold("source")
    assert hold.feed("See [the docs] and [") == "See [the docs] and"
    assert hold.feed("2") == ""
    assert hold.feed("]. Also (an aside ") == " [2]. Also (an aside"
    assert hold.feed("<cite") == ""
    assert hold.end(cut=False) == " <cite"
    assert CutMarkerHold("source").end(cut=True) == ""


@pytest.mark.parametrize("stream", [True, False])
async def test_a_marker_split_by_a_tool_call_is_read_whole(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        Completion(content="Retries back off [1", tool_calls=(ToolCallSpec(*BACKUPS),)),
        Completion(content="]. Back up nightly [3]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries and backups?", stream)
    assert reply.answer.text == "Retries back off [^1]. Back up nightly [^2]."


@given(
    parts=st.lists(st.sampled_from(PIECES), max_size=16),
    cuts=st.sets(st.integers(1, 200), max_size=6),
    tools_between=st.booleans(),
)
def test_nothing_is_lost_or_moved_unless_the_step_was_cut(
    parts: list[str], cuts: set[int], tools_between: bool
) -> None:
    sample = "".join(parts)
    bounds = [0, *sorted(c for c in cuts if c < len(sample)), len(sample)]
    hold = CutMarkerHold("source")
    shown = [hold.feed(sample[a:b]) for a, b in itertools.pairwise(bounds)]
    if tools_between:  # what is carried comes out of the next step's hold
        now, carried = hold.end_before_tools()
        shown += [now, CutMarkerHold("source", carried).end(cut=False)]
    else:
        shown.append(hold.end(cut=False))
    assert "".join(shown) == sample
