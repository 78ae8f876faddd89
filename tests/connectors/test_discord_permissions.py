"""Where the bot may not post (a missing permission, no access, a deleted channel): one clear
log line, no traceback, no apology sent after the refused answer, no assistant call wasted."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.models import Source
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    harness,
    start_harness,
    stop_harness,
)
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discord_access import (
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


def deny(fake: FakeDiscord, channel: int, permission: int) -> None:
    """An overwrite on ``channel`` denying the bot ``permission`` (on Discord only)."""
    fake.channels[channel]["permission_overwrites"].append(
        {"id": fake.bot_user["id"], "type": 1, "allow": "0", "deny": str(permission)}
    )


def our_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.INFO]


def posts_to(h: Harness, channel: int) -> list[tuple[str, str, int]]:
    return [
        r for r in h.fake.requests if r[0] == "POST" and r[1].startswith(f"/channels/{channel}")
    ]


@pytest.mark.parametrize("where", ["channel", "thread"])
async def test_where_the_bot_may_not_post_nothing_is_computed_or_tried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    threads: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        # the guild as the bot finds it on connecting: its cache knows the overwrite
        if where == "channel":
            deny(fake, world.general, SEND_MESSAGES)
        else:
            deny(fake, world.general, SEND_MESSAGES_IN_THREADS)
            threads.append(fake.thread_payload(world.guild, world.general, "talk", 1))
            fake.guilds[world.guild]["threads"].append(fake.channels[threads[0]])
        return {}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        channel = threads[0] if threads else h.world.general
        question = h.fake.user_message(channel, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)
        assert answerer.calls == []  # no model call for an answer that could never arrive
        assert posts_to(h, channel) == []  # not even typing
        (record,) = our_records(caplog)
        assert record.levelno == logging.ERROR and record.exc_info is None
        lacks = "Send Messages in Threads" if threads else "Send Messages"
        name = "#talk" if threads else "#general"
        assert f"{name} ({channel}) in Docs Guild" in record.getMessage()
        assert record.getMessage().endswith(f"the bot lacks {lacks} there")
    finally:
        await stop_harness(h)


@pytest.mark.parametrize(
    ("permission", "said"),
    [
        (SEND_MESSAGES, ["Missing Permissions (50013)", "Send Messages"]),
        # every answer is a reply, which Discord refuses without it (160002)
        (READ_MESSAGE_HISTORY, ["Read Message History"]),
    ],
)
async def test_a_refusal_the_cache_did_not_foresee_is_one_line_and_no_apology(
    harness: Harness, caplog: pytest.LogCaptureFixture, permission: int, said: list[str]
) -> None:
    # the overwrite changed on Discord and the bot has not heard yet: it tries, once
    h = harness
    h.use([GUIDE], "Use pip [1].")
    deny(h.fake, h.world.general, permission)
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    with caplog.at_level(logging.INFO):
        await h.deliver(question)
    messages = [p for p in posts_to(h, h.world.general) if p[1].endswith("/messages")]
    assert len(messages) == 1  # the answer; no apology into the same refusal
    (record,) = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
    assert record.exc_info is None
    assert all(words in record.getMessage() for words in said), record.getMessage()
    (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert turn.status == "failed"


async def test_a_channel_deleted_while_answering_is_one_line_and_no_apology(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    held = GatedAnswerer(ScriptedAnswerer([GUIDE], "Use pip [1]."))
    h.connector.services.assistant = held
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    with caplog.at_level(logging.INFO):
        delivered = asyncio.create_task(h.deliver(question))
        await asyncio.wait_for(held.started.wait(), timeout=30)
        del h.fake.channels[h.world.general]  # deleted by a moderator meanwhile
        held.gate.set()
        await delivered
    messages = [p for p in posts_to(h, h.world.general) if p[1].endswith("/messages")]
    assert len(messages) == 1  # the answer; no apology into a channel that is gone
    (record,) = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
    assert record.exc_info is None
    assert "the channel no longer exists" in record.getMessage()
    (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert turn.status == "failed"


async def test_without_embed_links_the_sources_are_listed_as_text(tmp_path: Path) -> None:
    # Discord drops a bot's embeds where it may not embed links: a Sources embed would vanish
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        deny(fake, world.general, EMBED_LINKS)
        return {"embeds": True}

    h = await start_harness(tmp_path, configure=configure)
    try:
        h.use([GUIDE], "Use pip [1].")
        await h.deliver(
            h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
        )
        (message,) = h.fake.messages_in(h.world.general)
        assert "[Install guide](<https://docs.example.com/install>)" in message["content"]
        assert h.fake.refused == []
        # where it may embed, the embeds setting still holds
        await h.deliver(
            h.fake.user_message(h.world.staff_channel, h.world.alice, "install?", mention_bot=True)
        )
        (message,) = h.fake.messages_in(h.world.staff_channel)
        assert message["embeds"][0]["title"] == "Sources"
    finally:
        await stop_harness(h)


async def test_a_dm_the_user_closed_meanwhile_is_one_line_and_no_apology(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].")
    dm = h.fake.open_dm(h.world.bob)
    h.fake.closed_dms.add(dm)  # bob blocked the bot after asking
    with caplog.at_level(logging.INFO):
        await h.deliver(h.fake.user_message(dm, h.world.bob, "install?"))
    assert len([p for p in posts_to(h, dm) if p[1].endswith("/messages")]) == 1
    (record,) = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
    assert record.exc_info is None
    assert "the user takes no DMs from the bot" in record.getMessage()
