"""A streamed answer whose message Slack refuses or loses mid-answer still arrives whole.

Slack may answer a stream call mid-answer with a 5xx (after the client's retries) or a 429 whose
``Retry-After`` is longer than ``retry_max_seconds``, and someone may delete the message being
streamed or edited (``message_not_found``). None of these may cost the answer: it is completed
(or posted anew), not replaced with the apology, and the turn is stored as done.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.base import ReplyEvent
from bot.models import Exchange, TextDelta
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    SlackWorld,
    answer_citing,
    context_texts,
    mention,
    slack_world,
)

FAR_FUTURE = 10.0**12  # every queued item is due by then


def turn_statuses(world: SlackWorld, thread_ts: str) -> list[str]:
    return [t.status for t in world.store.turns(f"slack:T0TEAM:{PUBLIC}:{thread_ts}")]


def shown_text(message: dict[str, Any]) -> str:
    """What a message shows: its streamed text, or its section blocks once completed."""
    blocks = message.get("blocks") or []
    sections = [str(b["text"]["text"]) for b in blocks if b.get("type") == "section"]
    return " ".join(sections) if sections else str(message.get("text"))


class DeletingAnswerer(CannedAnswerer):
    """Streams its answer; after ``after`` text pieces the bot's messages in the workspace are
    deleted (as a workspace admin would delete them)."""

    def __init__(self, world_box: list[SlackWorld], after: int) -> None:
        super().__init__(answer_citing(3), chunk=3)
        self._box = world_box
        self._after = after

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        pieces = 0
        async for event in super().stream(question, audience, history):
            if isinstance(event, TextDelta):
                pieces += 1
                if pieces == self._after:
                    fake = self._box[0].fake
                    for messages in fake.state.messages.values():
                        messages[:] = [m for m in messages if m.get("bot_id") != fake.bot_id]
            yield event


@pytest.mark.parametrize("refusal", ["server_error", "long_rate_limit"])
async def test_a_stream_slack_refuses_mid_answer_is_completed_not_apologised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, refusal: str
) -> None:
    answerer = CannedAnswerer(answer_citing(3), chunk=3)
    settings = {"streaming": "native", "stream_buffer_chars": 1, "max_retries": 1}
    async with slack_world(tmp_path, answerer, **settings) as world:
        if refusal == "server_error":
            world.fake.fail("chat.appendStream", status=500, after=2, times=None)
        else:
            world.fake.fail("chat.appendStream", status=429, retry_after=3600, after=2, times=None)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(mention("stream it", ts="1600000000.710000"))
        [message] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.710000")
        assert all(f"Fact {n}." in shown_text(message) for n in (1, 2, 3))
        assert message["text"] != world.connector.settings.apology
        assert sum("Guide" in text for text in context_texts([message])) == 3
        assert turn_statuses(world, "1600000000.710000") == ["done"]
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert world.store.due("slack", now=FAR_FUTURE) == []


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_a_message_deleted_while_streaming_is_posted_anew_without_futile_edits(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, streaming: str
) -> None:
    box: list[SlackWorld] = []
    answerer = DeletingAnswerer(box, after=4)
    settings = {"streaming": streaming, "stream_buffer_chars": 1}
    async with slack_world(tmp_path, answerer, **settings) as world:
        box.append(world)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(mention("stream it", ts="1600000000.720000"))
        fake = world.fake
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.720000")
        assert all(f"Fact {n}." in shown_text(message) for n in (1, 2, 3))
        assert sum("Guide" in text for text in context_texts([message])) == 3
        assert turn_statuses(world, "1600000000.720000") == ["done"]
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        # one refusal says the message is gone: nothing more is sent to it
        gone = [c for c in fake.calls if c.response.get("error") == "message_not_found"]
        assert len(gone) == 1
        assert fake.calls_to("chat.delete") == []


async def test_a_draft_deleted_before_its_final_edit_is_posted_anew_not_deleted_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    box: list[SlackWorld] = []
    answerer = DeletingAnswerer(box, after=6)
    # no edit between the first post and the final one: the deletion meets the final edit
    settings = {"streaming": "edit", "edit_interval_seconds": 3600.0}
    async with slack_world(tmp_path, answerer, **settings) as world:
        box.append(world)
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await world.post_event(mention("edit it", ts="1600000000.740000"))
        fake = world.fake
        assert [c.response.get("error") for c in fake.calls_to("chat.update")] == [
            "message_not_found"
        ]
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.740000")
        assert all(f"Fact {n}." in shown_text(message) for n in (1, 2, 3))
        assert turn_statuses(world, "1600000000.740000") == ["done"]
        assert fake.calls_to("chat.delete") == []
        assert not any("could not delete" in r.getMessage() for r in caplog.records)
