"""Questions the bot claimed but never finished answering (a crash, a kill, a shutdown that ran
out of grace) are answered when it next starts: Discord never delivers a message twice, and the
claim would otherwise keep the question from ever being answered.

A crash is modelled as the store sees it: the connector's discord.py client drops while the
answer waits on the model, and nothing more is written; a new DiscordConnector over the same
store then logs in to the same fake Discord.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.assistant.base import Answerer
from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_unanswered import ANSWER_WITHIN, ATTEMPTS, QUESTIONS
from bot.runtime import Services
from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer
from tests.fakes.discord_world import DISCORD_EPOCH_MS

__all__ = ["dead", "harness"]


def gated() -> GatedAnswerer:
    """An answerer that waits on the model until its gate opens (never, in a crash)."""
    return GatedAnswerer(ScriptedAnswerer([GUIDE], "Lost [1]."))


async def ask_unfinished(h: Harness, question: dict[str, Any], answerer: GatedAnswerer) -> None:
    """Deliver ``question`` to a connector answering with ``answerer`` and wait until the
    answer is with the model (claimed, kept, and nothing sent)."""
    answerer.started.clear()
    h.connector.services.assistant = answerer
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(answerer.started.wait(), timeout=30)


async def crash(h: Harness, dead: list[DiscordConnector]) -> None:
    """The process dies: the client's connection drops, and nothing more reaches the store."""
    client = h.connector.client
    assert client is not None
    await client.close()
    dead.append(h.connector)


async def start_again(h: Harness, assistant: Answerer) -> None:
    """A new run: a new connector over the same store and the same fake Discord."""
    settings = h.connector.services.settings
    connector = DiscordConnector(Services(settings=settings, store=h.store, assistant=assistant))
    connector.on_handled = h._on_handled
    h.connector = connector
    await connector.start()
    await asyncio.wait_for(connector.ready.wait(), timeout=30)


def expect_handled(h: Harness, message_id: int) -> asyncio.Future[None]:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    h.handled[message_id] = done
    return done


async def bury(dead: list[DiscordConnector]) -> None:
    """End the answers the crashed runs left waiting (a real crash took them with it)."""
    tasks = [task for connector in dead for task in connector._in_flight]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@pytest.fixture
async def dead() -> AsyncIterator[list[DiscordConnector]]:
    """The connectors of the runs a test crashes; their waiting answers end with the test."""
    crashed: list[DiscordConnector] = []
    yield crashed
    await bury(crashed)


def old_id(h: Harness, seconds_ago: float) -> int:
    """A message id (snowflake) for a message sent ``seconds_ago``."""
    ms = int((time.time() - seconds_ago) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (h.fake.snowflake() & 0x3FFFFF)


async def test_a_question_cut_short_by_a_crash_is_answered_at_the_next_start(
    harness: Harness,
    dead: list[DiscordConnector],
) -> None:
    h = harness
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
    await ask_unfinished(h, question, gated())
    await crash(h, dead)
    assert h.fake.messages_in(w.general) == []

    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(question["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)

    (reply,) = h.fake.messages_in(w.general)
    assert reply["message_reference"]["message_id"] == question["id"]
    assert "About: how to install?" in reply["content"]
    assert [q for q, _ in answerer.calls] == ["how to install?"]
    assert h.store.pending(QUESTIONS) == []
    assert all(r.pings == [] for r in h.fake.created + h.fake.edits)


async def test_a_dm_and_a_forum_post_cut_short_are_answered_in_their_channels(
    harness: Harness,
    dead: list[DiscordConnector],
) -> None:
    # neither channel is in the new run's cache: both are fetched from Discord
    h = harness
    w = h.world
    dm = h.fake.open_dm(w.bob)
    in_dm = h.fake.user_message(dm, w.bob, "install?")
    thread = h.fake.thread_payload(w.guild, w.forum, "Installing", int(w.bob["id"]))
    await h.fake.dispatch("THREAD_CREATE", {**h.fake.channels[thread], "newly_created": True})
    post = h.fake.user_message(thread, w.bob, "pip fails", message_id=thread)
    await ask_unfinished(h, in_dm, gated())
    await ask_unfinished(h, post, gated())
    await crash(h, dead)

    answerer = EchoAnswerer([GUIDE])
    handled = [expect_handled(h, int(m["id"])) for m in (in_dm, post)]
    await start_again(h, answerer)
    await asyncio.wait_for(asyncio.gather(*handled), timeout=30)
    assert sorted(q for q, _ in answerer.calls) == ["Installing\n\npip fails", "install?"]
    (dm_reply,) = h.fake.messages_in(dm)
    (forum_reply,) = h.fake.messages_in(thread)
    assert dm_reply["message_reference"]["message_id"] == in_dm["id"]
    assert forum_reply["message_reference"]["message_id"] == post["id"]


async def test_a_question_answered_is_not_answered_again_at_the_next_start(
    harness: Harness,
) -> None:
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    await h.deliver(h.fake.user_message(w.general, w.alice, "install?", mention_bot=True))
    assert h.store.pending(QUESTIONS) == []
    await h.connector.stop()
    await start_again(h, answerer)
    later = h.fake.user_message(w.general, w.bob, "and on mac?", mention_bot=True)
    await h.deliver(later)
    assert [q for q, _ in answerer.calls] == ["install?", "and on mac?"]
    assert len(h.fake.messages_in(w.general)) == 2


async def test_an_answer_a_shutdown_cut_short_is_finished_in_the_same_reply(
    harness: Harness,
) -> None:
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE], hold=1)
    h.connector.services.assistant = answerer
    question = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    (partial,) = h.fake.messages_in(w.general)
    await h.connector.stop(grace=0)  # the grace is over: the answer is cancelled mid-way

    again = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(question["id"]))
    await start_again(h, again)
    await asyncio.wait_for(handled, timeout=30)
    (reply,) = h.fake.messages_in(w.general)
    assert reply["id"] == partial["id"]  # "Looking." became the answer: no second reply
    assert "About: how to install?" in reply["content"] and "Looking" not in reply["content"]
    assert h.store.pending(QUESTIONS) == []


async def test_a_half_answer_left_by_a_crash_becomes_the_answer(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    # each message is saved as it is posted: the next start finishes it, no stray half answer
    h = harness
    w = h.world
    answerer = EchoAnswerer([GUIDE], hold=1)
    h.connector.services.assistant = answerer
    question = h.fake.user_message(w.general, w.alice, "how to install?", mention_bot=True)
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    (partial,) = h.fake.messages_in(w.general)
    await crash(h, dead)

    handled = expect_handled(h, int(question["id"]))
    await start_again(h, EchoAnswerer([GUIDE]))
    await asyncio.wait_for(handled, timeout=30)
    (reply,) = h.fake.messages_in(w.general)
    assert reply["id"] == partial["id"]
    assert "About: how to install?" in reply["content"] and "Looking" not in reply["content"]
    assert len(h.fake.created) == 1


async def test_a_question_deleted_or_edited_while_the_bot_was_down(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    h = harness
    w = h.world
    deleted = h.fake.user_message(w.general, w.alice, "first?", mention_bot=True)
    edited = h.fake.user_message(w.general, w.bob, "second?", mention_bot=True)
    unmentioned = h.fake.user_message(w.general, w.bob, "third?", mention_bot=True)
    await ask_unfinished(h, deleted, gated())
    await ask_unfinished(h, edited, gated())
    await ask_unfinished(h, unmentioned, gated())
    await crash(h, dead)
    del h.fake.messages[int(deleted["id"])]
    h.fake.edited_message(int(edited["id"]), f"<@{h.fake.bot_user['id']}> second, better?")
    h.fake.edited_message(int(unmentioned["id"]), "never mind")

    answerer = EchoAnswerer([GUIDE])
    handled = [expect_handled(h, int(m["id"])) for m in (deleted, edited, unmentioned)]
    await start_again(h, answerer)
    await asyncio.wait_for(asyncio.gather(*handled), timeout=30)

    # the edited one is answered as it reads now; the others are left alone
    assert [q for q, _ in answerer.calls] == ["second, better?"]
    (reply,) = h.fake.messages_in(w.general)
    assert reply["message_reference"]["message_id"] == edited["id"]
    assert h.store.pending(QUESTIONS) == []


async def test_a_question_left_too_long_is_named_in_a_warning_not_answered(
    harness: Harness, dead: list[DiscordConnector], caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    w = h.world
    stale = h.fake.user_message(
        w.general,
        w.alice,
        "yesterday's question?",
        mention_bot=True,
        message_id=old_id(h, ANSWER_WITHIN + 3600),
    )
    recent = h.fake.user_message(w.general, w.bob, "today's question?", mention_bot=True)
    await ask_unfinished(h, stale, gated())
    await ask_unfinished(h, recent, gated())
    await crash(h, dead)

    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(recent["id"]))
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await start_again(h, answerer)
        await asyncio.wait_for(handled, timeout=30)  # after the stale one was looked at

    assert [q for q, _ in answerer.calls] == ["today's question?"]
    replies = {m["message_reference"]["message_id"]: m for m in h.fake.messages_in(w.general)}
    assert replies[stale["id"]]["content"] == h.connector.settings.missed_message
    assert "About: today's question?" in replies[recent["id"]]["content"]
    (warning,) = [r for r in caplog.records if "too old to answer" in r.getMessage()]
    assert stale["id"] in warning.getMessage() and str(w.general) in warning.getMessage()
    assert h.store.pending(QUESTIONS) == []


async def test_a_question_that_never_gets_answered_is_given_up_after_a_few_starts(
    harness: Harness, dead: list[DiscordConnector], caplog: pytest.LogCaptureFixture
) -> None:
    # one that takes the process down with it must not do so at every start for ever
    h = harness
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "the fatal question?", mention_bot=True)
    answerer = gated()
    await ask_unfinished(h, question, answerer)
    for _ in range(ATTEMPTS - 1):  # each start takes it up again, and dies on it again
        await crash(h, dead)
        answerer.started.clear()
        await start_again(h, answerer)
        await asyncio.wait_for(answerer.started.wait(), timeout=30)
    await crash(h, dead)

    echo = EchoAnswerer([GUIDE])
    with caplog.at_level(logging.ERROR, logger="bot.connectors"):
        await start_again(h, echo)
        recovering = h.connector._recovering
        assert recovering is not None
        await asyncio.wait_for(recovering, timeout=30)
    assert echo.calls == []
    # not answered, but not left in silence either: one apology, as for any failure
    (apology,) = h.fake.messages_in(w.general)
    assert apology["content"] == h.connector.settings.failure_message
    assert apology["message_reference"]["message_id"] == question["id"]
    (error,) = [r for r in caplog.records if "giving up question" in r.getMessage()]
    assert question["id"] in error.getMessage()
    assert h.store.pending(QUESTIONS) == []
