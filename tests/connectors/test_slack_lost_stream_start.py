"""A ``chat.startStream`` Slack ran but whose answer was lost leaves no orphan stream behind.

Slack started the stream, only its reply (with the stream's ts) never arrived: a dropped
connection, or one past ``request_timeout_seconds``. citecast then posts the answer instead;
the stream Slack did start, which nothing recorded, must not stay in the thread beside it (still
streaming, its ``[n]`` citing sources it never lists).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.slack_harness import ASKER, PUBLIC, SlackWorld, mention, slack_world
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.slack_api import FakeSlackAPI

GUIDE = Source(id="d1", title="Guide", url="https://docs.example.com/guide")


@asynccontextmanager
async def streaming_world(tmp_path: Path, paragraphs: int = 40) -> AsyncIterator[SlackWorld]:
    """A workspace streaming answers natively (``paragraphs`` long, citing the guide) whose
    calls give up after one second, as a lost ``chat.startStream`` needs."""
    pieces = (
        f"Paragraph {i}: citecast streams this answer in pieces [1]." for i in range(paragraphs)
    )
    answerer = ScriptedAnswerer([GUIDE], "\n\n".join(pieces), chunk=50)
    async with slack_world(
        tmp_path, answerer, streaming="native", request_timeout_seconds=1.0
    ) as world:
        yield world


def assert_one_answer(fake: FakeSlackAPI, thread_ts: str) -> None:
    """One answer in the thread, with its sources, and no half-written stream beside it."""
    replies = fake.bot_messages(PUBLIC, thread_ts=thread_ts)
    assert [m["ts"] for m in replies if m.get("streaming")] == []
    assert len(replies) == 1, [r["text"][:60] for r in replies]
    assert any(b["type"] == "context" for b in replies[0]["blocks"])


@pytest.mark.parametrize("lost", [{"drop": True}, {"hang": 1.5}], ids=["dropped", "timed-out"])
async def test_a_stream_slack_started_but_whose_answer_was_lost_is_not_left_behind(
    tmp_path: Path, lost: dict[str, bool | float]
) -> None:
    async with streaming_world(tmp_path) as world:
        fake = world.fake
        # Slack starts the stream; only its answer is lost on the way back
        fake.fail("chat.startStream", processed=True, **lost)  # type: ignore[arg-type]
        ts = fake.add_message(PUBLIC, "<@U0BOT> stream it", ASKER)
        await world.post_event(mention("stream it", ts=ts))
        assert_one_answer(fake, ts)


async def test_an_earlier_answer_in_the_thread_is_left_alone(tmp_path: Path) -> None:
    """Only a message still streaming is taken for the lost one: the bot's finished answer to
    an earlier question in the same thread (posted minutes before) stays."""
    async with streaming_world(tmp_path) as world:
        fake = world.fake
        root = fake.add_message(PUBLIC, "<@U0BOT> first", ASKER)
        await world.post_event(mention("first", ts=root))
        (earlier,) = fake.bot_messages(PUBLIC, thread_ts=root)
        fake.fail("chat.startStream", processed=True, drop=True)
        follow_up = fake.add_message(PUBLIC, "<@U0BOT> again", ASKER, thread_ts=root)
        await world.post_event(mention("again", ts=follow_up, thread_ts=root))
        replies = fake.bot_messages(PUBLIC, thread_ts=root)
        assert earlier in replies
        assert len(replies) == 2
        assert [m["ts"] for m in replies if m.get("streaming")] == []
        # the earlier answer was never stopped or deleted
        touched = {c.args.get("ts") for c in fake.calls if c.method in ("chat.delete",)}
        assert earlier["ts"] not in touched
