"""Slack: the reply to small talk ("thanks!", "hello") has no helpful / not helpful buttons,
whichever way the answer is streamed; an answer to a question keeps them, also one without
sources. Driven through slack_sdk against the loopback fake Slack Web API."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.models import Answer
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    all_blocks,
    answer_citing,
    mention,
    slack_world,
)

WELCOME = Answer(text="You're welcome!\n", citations=())
NOTHING_FOUND = Answer(text="I could not find anything about that.\n", citations=())
STREAMING = ["native", "edit", "none"]


async def feedback_blocks(tmp_path: Path, answer: Answer, question: str, streaming: str) -> int:
    """How many feedback blocks the bot's messages carry after ``question``."""
    async with slack_world(tmp_path, CannedAnswerer(answer), streaming=streaming) as world:
        await world.post_event(mention(question))
        messages = world.fake.bot_messages(PUBLIC)
        assert messages
        blocks = all_blocks(messages)
    return sum(1 for b in blocks if b.get("block_id") == "citecast_feedback")


@pytest.mark.parametrize("streaming", STREAMING)
async def test_a_thank_you_gets_no_feedback_buttons(tmp_path: Path, streaming: str) -> None:
    assert await feedback_blocks(tmp_path, WELCOME, "thanks!", streaming) == 0


@pytest.mark.parametrize("streaming", STREAMING)
async def test_an_answer_to_a_question_keeps_them(tmp_path: Path, streaming: str) -> None:
    assert await feedback_blocks(tmp_path, NOTHING_FOUND, "Where is the VPN?", streaming) == 1
    assert await feedback_blocks(tmp_path, answer_citing(1), "thanks", streaming) == 1
