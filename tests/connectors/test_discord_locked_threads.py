"""Locked threads: Discord lets only members with Manage Threads post in a locked thread
(archived or not); an archived thread that is not locked is unarchived by whoever may send
there. Where the bot's cache shows the thread locked and the bot lacks Manage Threads, nothing
is computed or tried and one log line says why; where the thread was locked after the bot last
heard, Discord's refusal is one line too, without an apology into the same refusal."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.models import Source
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    start_harness,
    stop_harness,
)
from tests.connectors.test_discord_permissions import our_records, posts_to
from tests.fakes.discord_access import MANAGE_THREADS
from tests.fakes.discord_api import FakeDiscord

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def with_thread(tmp_path: Path, *, locked: bool, archived: bool, manage: bool) -> Harness:
    """A harness whose guild has a thread ``#talk`` of #general (see ``thread_of``), in the
    given state as the bot finds it on connecting."""

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        tid = fake.thread_payload(world.guild, world.general, "talk", 1)
        fake.channels[tid]["thread_metadata"].update(locked=locked, archived=archived)
        fake.guilds[world.guild]["threads"].append(fake.channels[tid])
        if manage:  # granted on the parent: a thread's permissions are its parent's
            fake.channels[world.general]["permission_overwrites"].append(
                {"id": fake.bot_user["id"], "type": 1, "allow": str(MANAGE_THREADS), "deny": "0"}
            )
        return {}

    return await start_harness(tmp_path, configure=configure)


def thread_of(h: Harness) -> int:
    """The one thread ``with_thread`` made."""
    (tid,) = [cid for cid, c in h.fake.channels.items() if c.get("name") == "talk"]
    return tid


@pytest.mark.parametrize("archived", [False, True])
async def test_in_a_locked_thread_nothing_is_computed_and_one_line_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, archived: bool
) -> None:
    h = await with_thread(tmp_path, locked=True, archived=archived, manage=False)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        talk = thread_of(h)
        # a moderator (who may post there) asks the bot in the locked thread
        question = h.fake.user_message(talk, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)
        assert answerer.calls == []  # the answer could never be posted: nothing is paid for
        assert posts_to(h, talk) == []
        (record,) = our_records(caplog)
        assert record.levelno == logging.ERROR and record.exc_info is None
        message = record.getMessage()
        assert f"#talk ({talk}) in Docs Guild" in message
        assert message.endswith("the bot lacks Manage Threads (the thread is locked) there")
    finally:
        await stop_harness(h)


async def test_with_manage_threads_the_bot_answers_in_a_locked_thread(tmp_path: Path) -> None:
    h = await with_thread(tmp_path, locked=True, archived=False, manage=True)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        talk = thread_of(h)
        question = h.fake.user_message(talk, h.world.alice, "install?", mention_bot=True)
        await h.deliver(question)
        assert len(answerer.calls) == 1
        (answer,) = h.fake.messages_in(talk)
        assert "Use pip" in answer["content"]
    finally:
        await stop_harness(h)


async def test_an_archived_thread_that_is_not_locked_is_answered_and_unarchived(
    tmp_path: Path,
) -> None:
    h = await with_thread(tmp_path, locked=False, archived=True, manage=False)
    try:
        h.use([GUIDE], "Use pip [1].")
        talk = thread_of(h)
        question = h.fake.user_message(talk, h.world.alice, "install?", mention_bot=True)
        await h.deliver(question)
        (answer,) = h.fake.messages_in(talk)
        assert "Use pip" in answer["content"]
        assert h.fake.channels[talk]["thread_metadata"]["archived"] is False
    finally:
        await stop_harness(h)


@pytest.mark.parametrize(
    ("archived", "said"),
    [(False, "Thread is locked (160005)"), (True, "Thread is archived (50083)")],
)
async def test_a_thread_locked_after_the_bot_last_heard_is_one_line_and_no_apology(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, archived: bool, said: str
) -> None:
    h = await with_thread(tmp_path, locked=False, archived=False, manage=False)
    try:
        h.use([GUIDE], "Use pip [1].")
        talk = thread_of(h)
        # locked (and perhaps archived) on Discord; the bot's cache has not heard yet
        h.fake.channels[talk]["thread_metadata"].update(locked=True, archived=archived)
        question = h.fake.user_message(talk, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)
        messages = [p for p in posts_to(h, talk) if p[1].endswith("/messages")]
        assert len(messages) == 1  # the answer; no apology into the same refusal
        assert h.fake.messages_in(talk) == []
        (record,) = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
        assert record.exc_info is None
        assert said in record.getMessage() and "Manage Threads" in record.getMessage()
        (turn,) = h.store.turns(f"discord:{talk}:{question['id']}")
        assert turn.status == "failed"
    finally:
        await stop_harness(h)
