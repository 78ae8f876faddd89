"""Questions an earlier run left unanswered, at the next start: edits that race their answer,
and the askers of those too old (or too fatal) to answer, who are told so instead of nothing.

The crash is modelled as in ``test_discord_unanswered``: the client drops while the answer
waits on the model (or mid-answer), and a new DiscordConnector over the same store logs in.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.config import Settings
from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_unanswered import ANSWER_WITHIN, QUESTIONS
from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer, edit, mention
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_unanswered import (
    ask_unfinished,
    crash,
    dead,
    expect_handled,
    gated,
    old_id,
    start_again,
)

__all__ = ["dead", "harness"]


async def half_answered(h: Harness, text: str, *, message_id: int | None = None) -> dict[str, str]:
    """Alice asks ``text`` in #general; the bot posts "Looking." and the run crashes there.
    Returns the question (its half answer is the one message in #general)."""
    w = h.world
    answerer = EchoAnswerer([GUIDE], hold=1)
    h.connector.services.assistant = answerer
    question = h.fake.user_message(
        w.general, w.alice, text, mention_bot=True, message_id=message_id
    )
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    return question


async def test_an_edit_while_the_left_over_question_is_fetched_is_the_one_answered(
    harness: Harness,
    dead: list[DiscordConnector],
) -> None:
    # the new run has read the question from Discord when the asker's edit arrives: answering
    # what it read would leave the reply answering the old text for ever
    h = harness
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "how to instal?", mention_bot=True)
    await ask_unfinished(h, question, gated())
    await crash(h, dead)

    fetched = h.fake.hold_next("GET", f"/channels/{w.general}/messages/{question['id']}$")
    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(question["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(fetched.arrived.wait(), timeout=30)
    fixed = h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?")
    await edit(h, fixed)
    fetched.release.set()
    await asyncio.wait_for(handled, timeout=30)

    assert [q for q, _ in answerer.calls] == ["how to install?"]
    (reply,) = h.fake.messages_in(w.general)
    assert "About: how to install?" in reply["content"]
    assert h.store.pending(QUESTIONS) == []


async def test_an_edit_to_a_left_over_question_waiting_its_turn_is_answered_once(
    harness: Harness,
    dead: list[DiscordConnector],
) -> None:
    # the second question, half answered before the crash, is edited while the new run still
    # answers the first: one answer, to the edited text, in its half answer; never two writers
    h = harness
    w = h.world
    first = h.fake.user_message(w.general, w.bob, "first?", mention_bot=True)
    await ask_unfinished(h, first, gated())
    second = await half_answered(h, "how to instal?")
    (partial,) = h.fake.messages_in(w.general)
    await crash(h, dead)

    answerer = EchoAnswerer([GUIDE], hold=1)  # the first waits until the edit is handled
    handled = [expect_handled(h, int(m["id"])) for m in (first, second)]
    await start_again(h, answerer)
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    await edit(h, h.fake.edited_message(int(second["id"]), f"{mention(h)} how to install?"))
    answerer.gate.set()
    await asyncio.wait_for(asyncio.gather(*handled), timeout=30)

    assert [q for q, _ in answerer.calls] == ["first?", "how to install?"]
    replies = {m["message_reference"]["message_id"]: m for m in h.fake.messages_in(w.general)}
    assert len(replies) == 2 == len(h.fake.messages_in(w.general))
    assert replies[second["id"]]["id"] == partial["id"]  # the half answer became the answer
    assert "About: how to install?" in replies[second["id"]]["content"]
    assert "Looking" not in replies[second["id"]]["content"]


async def test_a_half_answer_to_a_question_too_old_to_answer_becomes_the_note(
    harness: Harness, dead: list[DiscordConnector], caplog: pytest.LogCaptureFixture
) -> None:
    # "Looking." must not stay under the question for ever, nor a note go beside it
    h = harness
    w = h.world
    stale = await half_answered(h, "yesterday?", message_id=old_id(h, ANSWER_WITHIN + 60))
    (partial,) = h.fake.messages_in(w.general)
    await crash(h, dead)

    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(stale["id"]))
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await start_again(h, answerer)
        await asyncio.wait_for(handled, timeout=30)

    assert answerer.calls == []
    (note,) = h.fake.messages_in(w.general)
    assert note["id"] == partial["id"]
    assert note["content"] == h.connector.settings.missed_message
    assert note["message_reference"]["message_id"] == stale["id"]
    assert all(r.pings == [] for r in h.fake.created + h.fake.edits)
    assert any("too old to answer" in r.getMessage() for r in caplog.records)


async def test_an_edit_after_the_note_is_answered_in_it(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    h = harness
    w = h.world
    stale = h.fake.user_message(
        w.general, w.alice, "yesterday?", mention_bot=True, message_id=old_id(h, 2 * ANSWER_WITHIN)
    )
    await ask_unfinished(h, stale, gated())
    await crash(h, dead)
    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(stale["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)
    (note,) = h.fake.messages_in(w.general)

    await edit(h, h.fake.edited_message(int(stale["id"]), f"{mention(h)} still: install?"))
    (reply,) = h.fake.messages_in(w.general)
    assert reply["id"] == note["id"]
    assert "About: still: install?" in reply["content"]
    assert [q for q, _ in answerer.calls] == ["still: install?"]


async def test_no_note_when_the_missed_message_is_empty(
    harness: Harness, dead: list[DiscordConnector], caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    w = h.world
    stale = h.fake.user_message(
        w.general, w.alice, "yesterday?", mention_bot=True, message_id=old_id(h, 2 * ANSWER_WITHIN)
    )
    await ask_unfinished(h, stale, gated())
    await crash(h, dead)
    settings = h.connector.services.settings
    quiet = settings.discord.model_copy(update={"missed_message": ""})
    h.connector.services.settings = Settings(**{**dict(settings), "discord": quiet})
    handled = expect_handled(h, int(stale["id"]))
    with caplog.at_level(logging.WARNING, logger="bot.connectors"):
        await start_again(h, EchoAnswerer([GUIDE]))
        await asyncio.wait_for(handled, timeout=30)
    assert h.fake.messages_in(w.general) == []
    assert any("too old to answer" in r.getMessage() for r in caplog.records)


async def test_a_half_answer_to_a_question_deleted_while_the_bot_was_down_is_withdrawn(
    harness: Harness,
    dead: list[DiscordConnector],
) -> None:
    # as for a question deleted while it is being answered: nothing stays under no question
    h = harness
    w = h.world
    gone = await half_answered(h, "how to install?")
    (partial,) = h.fake.messages_in(w.general)
    await crash(h, dead)
    del h.fake.messages[int(gone["id"])]

    answerer = EchoAnswerer([GUIDE])
    handled = expect_handled(h, int(gone["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)
    assert answerer.calls == []
    assert h.fake.messages_in(w.general) == []
    assert int(partial["id"]) in h.fake.deleted
    assert h.store.pending(QUESTIONS) == []
