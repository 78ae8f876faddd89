"""A model answer citing with full-width brackets (``［1］``, as models write ``[1]`` in CJK
text) cites its sources, streamed or not, with no raw marker shown.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, text, tools


@pytest.mark.parametrize("stream", [True, False])
async def test_full_width_bracket_numbers_are_markers(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        text(
            "再試行ポリシーは配信の失敗時の動作を決めます［1］。",
            "再試行ポリシーは配信の",
            "失敗時の動作を決めます［",
            "1］。",
        ),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "再試行ポリシーとは？", stream)
    assert reply.answer.text == "再試行ポリシーは配信の失敗時の動作を決めます[^1]。"
    assert [c.n for c in reply.answer.citations] == [1]
