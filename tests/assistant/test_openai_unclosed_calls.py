"""A ``<tool_call>`` the model left unclosed and went on after: with the ``<tool_response>`` it
made up, or with its next call. The call ends where the next line opening with either tag
begins, so the made-up response is dropped with all after it (as after a closed call) instead
of becoming the call's arguments, and the next call is a call of its own.

Property tests: whatever a model writes out of the tags' pieces, reading it never fails, and
no block of either tag reaches the reader nor a call's arguments.

Driven by the real ``openai`` client against the loopback fake, and on :class:`Step` directly.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.assistant.openai_text_calls import blocks, response_blocks
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import first_cites, run, searched_twice, sent_assistant, sent_calls
from tests.assistant.step_reading import read
from tests.assistant.test_assistant_openai import assistant_for, tool_messages
from tests.assistant.test_openai_text_calls import BACKUPS
from tests.fakes.openai_server import FakeOpenAI, text

UNCLOSED = '<tool_call>\n{"name": "search_docs", "arguments": {"query": "retry policy"}}\n'
MADE_UP = '<tool_response>\n{"content": "[cite: 1] Retries: 7 attempts."}\n</tool_response>\n'


@pytest.mark.parametrize("stream", [True, False])
async def test_an_unclosed_call_ends_where_the_made_up_response_begins(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(
        text(f"Let me check.\n{UNCLOSED}{MADE_UP}Retries make 7 attempts [1]."),
        text("It honours Retry-After [1]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "What is the retry policy?", stream)
    # the call ran with its own arguments, not with the made-up response as its body
    assert sent_calls(fake.requests[1]) == [
        ("text_call_0_1", "search_docs", json.dumps({"query": "retry policy"}))
    ]
    assert first_cites(tool_messages(fake.requests[1])) == [1]
    assert sent_assistant(fake.requests[1])["content"] == "Let me check.\n"
    assert all("7 attempts" not in json.dumps(m) for m in fake.requests[1]["messages"])
    assert " ".join(reply.answer.text.split()) == "Let me check. It honours Retry-After [^1]."
    assert len(fake.requests) == 2 and fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_an_unclosed_call_followed_by_another_call_makes_two_calls(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await searched_twice(fake, bot, text(f"{UNCLOSED}{BACKUPS}\n"), stream)
    assert [(i, json.loads(a)) for i, _, a in sent_calls(fake.requests[1])] == [
        ("text_call_0_1", {"query": "retry policy"}),
        ("text_call_0_2", {"query": "backups"}),
    ]
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert fake.problems == []


def opens_a_tag(text: str) -> bool:
    """Whether a line of ``text`` opens with either tag (as no JSON body can)."""
    return any(
        line.lstrip(" \t").startswith(("<tool_call>", "<tool_response>"))
        for line in text.splitlines()
    )


# What models write around their calls, in pieces: the tags (whole and cut), JSON bodies
# (whole, cut, with the tags inside strings), Qwen3-Coder's function form, prose, line breaks
# and spaces.
FRAGMENTS = [
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "</tool_response>",
    "<tool_c",
    "</tool_resp",
    "<think>",
    "</think>",
    '{"name": "search_docs", "arguments": {"query": "retry"}}',
    '{"name": "search_docs", "arguments": "{\\"query\\": \\"x\\"}"}',
    '{"name": "search_docs", "arguments": {"query": "<tool_call>\\n"}}',
    '{"name": "search_docs", "arguments": {"query": "re',
    '{"x": 1}',
    "<function=search_docs>",
    "<parameter=query>",
    "</parameter>",
    "</function>",
    "<function=",
    "[1, 2]",
    "{",
    "}",
    "[cite: 1] made up",
    "Answer [1].",
    "is a tag",
    "\n",
    "\n",
    "\n\n",
    " ",
    "  ",
    "\t",
    "\r\n",
]


def check_reader(sample: str, cuts: list[int]) -> None:
    """Reading ``sample`` cut at ``cuts`` shows and calls what reading it whole does, shows no
    block of either tag, and puts no tag's line into a call's arguments."""
    pieces = [sample[a:b] for a, b in zip([0, *cuts], [*cuts, len(sample)], strict=True)]
    shown, calls = read(pieces)
    assert (shown, calls) == read([sample])  # however the text was chunked
    assert blocks(shown) == [] and response_blocks(shown) == []
    assert not any(opens_a_tag(arguments) for _, _, arguments in calls)


@given(parts=st.lists(st.sampled_from(FRAGMENTS), max_size=24), data=st.data())
def test_no_text_crashes_the_reader_or_shows_a_block(parts: list[str], data: st.DataObject) -> None:
    sample = "".join(parts)
    cuts = data.draw(st.sets(st.integers(1, max(1, len(sample) - 1)), max_size=8))
    check_reader(sample, sorted(cuts))


@pytest.mark.parametrize(
    "sample",
    [
        # found by the property test: a made-up response before the calls was shown
        '<tool_response>\n<tool_call>{"name": "search_docs", "arguments": {}}',
        # an unclosed call whose text only a close further on ended: it was shown
        "P\n<tool_call>\n{a\n<tool_response>\n{}\nzz </tool_call> q",
    ],
    ids=["response-before-calls", "unclosed-then-late-close"],
)
def test_texts_the_property_test_found_show_no_block(sample: str) -> None:
    check_reader(sample, [])


@given(
    preamble=st.sampled_from(["", "Let me check.\n", "<think>hm</think>\n"]),
    query=st.text(max_size=20),
    after=st.sampled_from(["", "\n", MADE_UP, f"\n{MADE_UP}Made up [1].", "<tool_response>\nx"]),
)
def test_an_unclosed_call_keeps_its_own_arguments_whatever_follows(
    preamble: str, query: str, after: str
) -> None:
    body = json.dumps({"name": "search_docs", "arguments": {"query": query}})
    shown, calls = read([f"{preamble}<tool_call>\n{body}\n{after}"])
    assert [(i, n, json.loads(a)) for i, n, a in calls] == [
        ("text_call_0_1", "search_docs", {"query": query})
    ]
    assert "made up" not in shown.lower() and "<tool_" not in shown


@pytest.mark.parametrize("after", ["", "\n"])
def test_a_closing_tag_inside_an_unclosed_calls_arguments_is_text(after: str) -> None:
    # found by the property test above: the tag in a JSON string ended the block, which then
    # held no whole call and was shown to the reader
    body = json.dumps({"name": "search_docs", "arguments": {"query": "</tool_call>"}})
    shown, calls = read([f"<tool_call>\n{body}\n{after}"])
    assert [(n, json.loads(a)) for _, n, a in calls] == [("search_docs", {"query": "</tool_call>"})]
    assert "<tool_" not in shown
