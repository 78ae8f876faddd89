"""A hard stop (kill -9, OOM, a crash) mid-answer must not leave the asker with nothing, or with
a streamed message stopped half-way: the next start answers the question again, once.

The crash is taken as it would leave things: the store file and Slack's messages at the moment
the answer hung, copied into a new process (a new connector, a new fake Slack) that starts.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.connectors.slack_harness import (
    ASKER,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    context_texts,
    mention,
    settle,
    slack_world,
)
from tests.connectors.slack_restarts import HangingAnswerer, restarted


async def _crash_mid_answer(
    tmp_path: Path, **slack: object
) -> tuple[str, dict[str, list[dict[str, object]]]]:
    text = "The deploy runs on Fridays.[^1] It is announced in #ops first, a day ahead."
    answer = answer_citing(1, text)
    answerer = HangingAnswerer(answer)
    async with slack_world(tmp_path / "before", answerer, **slack) as world:
        question = world.fake.add_message(PUBLIC, "<@U0BOT> when is the deploy?", ASKER)
        await world.post_event(mention("when is the deploy?", ts=question), wait=False)
        await asyncio.wait_for(answerer.hung.wait(), timeout=60)
        messages = world.snapshot(tmp_path / "after")
    return question, messages


async def test_a_question_a_crash_cut_short_in_its_stream_is_answered_after_restart(
    tmp_path: Path,
) -> None:
    (tmp_path / "before").mkdir()
    question, messages = await _crash_mid_answer(
        tmp_path, streaming="native", stream_buffer_chars=10
    )
    half = [m for m in messages[PUBLIC] if m.get("streaming")]
    assert len(half) == 1 and "[1]" in str(half[0]["text"])  # what the kill left

    answerer = CannedAnswerer(answer_citing(1, "The deploy runs on Fridays.[^1]"))
    async with restarted(tmp_path / "after", answerer, messages, streaming="none") as world:
        replies = world.fake.bot_messages(PUBLIC, question)
        assert len(answerer.calls) == 1
        assert len(replies) == 1 and "Fridays" in replies[0]["text"]
        assert any("Guide 1" in text for text in context_texts(replies))  # with its sources
        assert not any(m.get("streaming") for m in world.fake.state.messages[PUBLIC])
        # answered once: the next start has nothing left over
        await world.connector.stop()
        await world.connector.start()
        await settle(world.connector)
        assert len(answerer.calls) == 1


async def test_a_question_left_over_too_often_gets_the_apology_in_place_of_its_half_answer(
    tmp_path: Path,
) -> None:
    (tmp_path / "before").mkdir()
    question, messages = await _crash_mid_answer(tmp_path, streaming="edit")
    answerer = CannedAnswerer(answer_citing(1))
    store_db = tmp_path / "after" / "citecast.db"
    db = sqlite3.connect(str(store_db))
    with db:  # two earlier starts were already cut short
        db.execute("UPDATE outbox SET attempts = 2 WHERE channel = 'slack-question'")
    db.close()
    async with restarted(tmp_path / "after", answerer, messages) as world:
        replies = world.fake.bot_messages(PUBLIC, question)
        assert answerer.calls == []
        assert [m["text"] for m in replies] == [world.connector.settings.apology]
