"""An empty answer reads the same in every streaming mode: the renderer's placeholder, never a
blank message with only the feedback buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Answer
from renderers.base import EMPTY_ANSWER
from tests.connectors.slack_harness import PUBLIC, CannedAnswerer, mention, slack_world


@pytest.mark.parametrize("streaming", ["native", "edit", "none"])
@pytest.mark.parametrize("text", ["", "  \n\n  "], ids=["empty", "blank"])
async def test_an_empty_answer_says_so_in_every_streaming_mode(
    tmp_path: Path, streaming: str, text: str
) -> None:
    answerer = CannedAnswerer(Answer(text=text, citations=()))
    async with slack_world(tmp_path, answerer, streaming=streaming) as world:
        await world.post_event(mention("anything?", ts="1600000000.750000"))
        [message] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.750000")
        sections = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
        assert sections == [EMPTY_ANSWER]
        assert message["text"] == EMPTY_ANSWER
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])
        turns = world.store.turns(f"slack:T0TEAM:{PUBLIC}:1600000000.750000")
        assert [t.status for t in turns] == ["done"]
