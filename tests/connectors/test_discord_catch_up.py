"""Questions posted while no session of the bot was there to receive them: Discord does not
deliver them again, so each new session reads them back from the channels' history and
answers them once, oldest first (found in a QA pass: a mention posted during a restart was
never answered, and nothing said so).

A stop is a real ``DiscordConnector.stop``; the next run is a new connector over the same
store and the same fake Discord, whose ``GET /channels/{id}/messages`` serves the history.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.connectors import discord_catch_up
from bot.connectors.discord_catch_up import window_start
from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_unanswered import expect_handled, old_id, start_again

__all__ = ["harness"]

LOGGER = "bot.connectors.discord_catch_up"


async def answered(h: Harness, channel: int, text: str, **kwargs: Any) -> dict[str, Any]:
    """Alice asks ``text`` in ``channel`` while the bot runs; returns it once answered."""
    question = h.fake.user_message(channel, h.world.alice, text, **kwargs)
    await h.deliver(question)
    return question


def replies_to(h: Harness, channel: int, question: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        m
        for m in h.fake.messages_in(channel)
        if (m.get("message_reference") or {}).get("message_id") == question["id"]
    ]


def caught_up(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "caught up on" in r.getMessage()]


async def test_a_mention_posted_while_stopped_is_answered_once_at_the_next_start(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    h = harness
    w = h.world
    h.connector.services.assistant = EchoAnswerer([GUIDE])
    before = await answered(h, w.general, "how to start?", mention_bot=True)
    await h.connector.stop()  # a deploy: nobody is connected while these are posted

    missed = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
    h.fake.user_message(w.general, w.bob, "lunch anyone?")  # no question for the bot
    later = h.fake.user_message(w.general, w.bob, "and to upgrade?", mention_bot=True)
    answerer = EchoAnswerer([GUIDE])
    done = [expect_handled(h, int(missed["id"])), expect_handled(h, int(later["id"]))]
    await start_again(h, answerer)
    await asyncio.wait_for(asyncio.gather(*done), timeout=30)

    assert [q for q, _ in answerer.calls] == ["how to install?", "and to upgrade?"]  # in order
    (reply,) = replies_to(h, w.general, missed)
    assert "About: how to install?" in reply["content"]
    assert len(replies_to(h, w.general, later)) == 1
    assert len(replies_to(h, w.general, before)) == 1  # answered before: not again
    assert caught_up(caplog)[-1].startswith("discord: caught up on 2 question(s)")

    # a further start finds them answered: never twice
    again = EchoAnswerer([GUIDE])
    await h.connector.stop()
    await start_again(h, again)
    await asyncio.wait_for(h.connector._catching_up or asyncio.sleep(0), timeout=30)
    assert again.calls == []
    assert caught_up(caplog)[-1].startswith("discord: caught up on 0 question(s)")


async def test_a_dm_sent_while_stopped_is_answered_where_the_bot_answered_before(
    harness: Harness,
) -> None:
    # a DM channel is not in the cache after a restart: it is read because the bot answered there
    h = harness
    w = h.world
    h.connector.services.assistant = EchoAnswerer([GUIDE])
    dm = h.fake.open_dm(w.alice)
    await answered(h, dm, "hello?")
    await h.connector.stop()

    missed = h.fake.user_message(dm, w.alice, "how to install?")
    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(missed["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)

    assert [q for q, _ in answerer.calls] == ["how to install?"]
    assert len(replies_to(h, dm, missed)) == 1


async def test_a_question_lost_with_a_session_that_could_not_resume_is_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    await answered(h, w.general, "how to start?", mention_bot=True)

    h.fake.refuse_resumes = True  # Discord lost the session: the client gets a new one
    await h.fake.reconnect()
    missed = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
    handled = expect_handled(h, int(missed["id"]))
    await h.fake.dispatch("MESSAGE_CREATE", missed)  # to nobody: no session is connected
    await asyncio.wait_for(handled, timeout=30)

    assert [q for q, _ in answerer.calls] == ["how to start?", "how to install?"]
    assert len(replies_to(h, w.general, missed)) == 1
    assert caught_up(caplog)[-1].startswith("discord: caught up on 1 question(s)")


async def test_only_questions_within_catch_up_minutes_are_answered(harness: Harness) -> None:
    h = harness
    w = h.world
    await h.connector.stop()
    stale = h.fake.user_message(
        w.general, w.alice, "asked long ago?", mention_bot=True, message_id=old_id(h, 31 * 60)
    )
    recent = h.fake.user_message(
        w.general, w.alice, "asked just now?", mention_bot=True, message_id=old_id(h, 29 * 60)
    )
    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(recent["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)

    assert [q for q, _ in answerer.calls] == ["asked just now?"]
    assert replies_to(h, w.general, stale) == []
    assert int(recent["id"]) > window_start(30) > int(stale["id"])


async def test_catch_up_minutes_0_reads_no_history(harness: Harness) -> None:
    h = harness
    w = h.world
    await h.connector.stop()
    h.fake.user_message(w.general, w.alice, "anyone?", mention_bot=True)
    settings = h.connector.services.settings
    discord = settings.discord.model_copy(update={"catch_up_minutes": 0})
    h.connector.services.settings = settings.model_copy(update={"discord": discord})
    answerer = EchoAnswerer([GUIDE])
    await start_again(h, answerer)
    await h.connector.stop()

    history = [r for r in h.fake.requests if r[0] == "GET" and r[1].endswith("/messages")]
    assert history == []
    assert answerer.calls == []


async def test_a_forum_post_made_while_stopped_is_answered_in_its_thread(
    harness: Harness,
) -> None:
    h = harness
    w = h.world
    await h.connector.stop()
    thread = h.fake.thread_payload(w.guild, w.forum, "Install on Windows?", int(w.bob["id"]))
    h.fake.guilds[w.guild]["threads"].append(h.fake.channels[thread])  # active: in GUILD_CREATE
    post = h.fake.user_message(thread, w.bob, "It fails with error 5.", message_id=thread)
    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(post["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)

    assert [q for q, _ in answerer.calls] == ["Install on Windows?\n\nIt fails with error 5."]
    assert len(replies_to(h, thread, post)) == 1


async def test_a_catch_up_answers_at_most_max_questions_the_oldest_first(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord_catch_up, "MAX_QUESTIONS", 2)
    caplog.set_level(logging.INFO, logger=LOGGER)
    h = harness
    w = h.world
    await h.connector.stop()
    asked = [
        h.fake.user_message(w.general, w.alice, f"question {n}?", mention_bot=True)
        for n in (1, 2, 3)
    ]
    answerer = EchoAnswerer([GUIDE])
    await start_again(h, answerer)
    await asyncio.wait_for(h.connector._catching_up or asyncio.sleep(0), timeout=30)

    assert [q for q, _ in answerer.calls] == ["question 1?", "question 2?"]
    assert replies_to(h, w.general, asked[2]) == []
    assert any("over 2 questions to catch up on" in r.getMessage() for r in caplog.records)
    assert caught_up(caplog)[-1].startswith("discord: caught up on 2 question(s)")
