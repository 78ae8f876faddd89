"""Edited questions after a restart: the store keeps each question's answered text and reply ids,
so the restarted bot rewrites the same reply in place, as it does before a restart.

The connector is restarted for real: the running one is stopped (its discord.py client closes)
and a new DiscordConnector over the same store logs in again against the same fake Discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_edits import SavedQuestions
from bot.runtime import Services
from bot.store import Store
from tests.connectors.discord_edit_helpers import (
    GUIDE,
    EchoAnswerer,
    answered,
    answered_at_length,
    assert_fixed_in_place,
    edit,
    mention,
)
from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]


async def restart(h: Harness) -> None:
    """Stop the running connector and start a new one over the same store and fake Discord."""
    await h.connector.stop()
    services = h.connector.services
    connector = DiscordConnector(
        Services(settings=services.settings, store=h.store, assistant=services.assistant)
    )
    connector.on_handled = h._on_handled
    h.connector = connector
    await connector.start()
    await asyncio.wait_for(connector.ready.wait(), timeout=30)


async def test_an_edit_after_a_restart_rewrites_the_same_reply(harness: Harness) -> None:
    h = harness
    answerer, question, first = await answered(h, "how to instal?")
    w = h.world

    await restart(h)
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))

    (now,) = h.fake.messages_in(w.general)  # before: left alone, still "how to instal?"
    assert_fixed_in_place(h, answerer, question, first, now)

    # and followed on from there: a second edit (now from memory) rewrites it again
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} install on mac?"))
    (again,) = h.fake.messages_in(w.general)
    assert again["id"] == first["id"] and "About: install on mac?" in again["content"]
    assert len(h.fake.created) == 1


async def test_an_edited_dm_after_a_restart_is_answered_in_place(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    dm = h.fake.open_dm(h.world.bob)
    question = h.fake.user_message(dm, h.world.bob, "instal?")
    await h.deliver(question)
    (first,) = h.fake.messages_in(dm)
    await restart(h)
    await edit(h, h.fake.edited_message(int(question["id"]), "install?"))
    (now,) = h.fake.messages_in(dm)
    assert now["id"] == first["id"]
    assert "About: install?" in now["content"]
    assert len(h.fake.created) == 1


async def test_an_edited_forum_post_after_a_restart_is_answered_in_place(
    harness: Harness,
) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    w = h.world
    thread = h.fake.thread_payload(w.guild, w.forum, "Installing", int(w.bob["id"]))
    await h.fake.dispatch("THREAD_CREATE", {**h.fake.channels[thread], "newly_created": True})
    await h.deliver(h.fake.user_message(thread, w.bob, "pip fails", message_id=thread))
    (first,) = h.fake.messages_in(thread)
    await restart(h)  # the thread is no longer cached: the edit arrives in an unknown channel
    await edit(h, h.fake.edited_message(thread, "pip fails with error 13"))
    (now,) = h.fake.messages_in(thread)
    assert now["id"] == first["id"]
    assert "pip fails with error 13" in now["content"]
    assert [q for q, _ in answerer.calls][-1] == "Installing\n\npip fails with error 13"
    assert len(h.fake.created) == 1


async def test_a_long_answer_edited_after_a_restart_leaves_one_message(harness: Harness) -> None:
    h = harness
    answerer, question, parts = await answered_at_length(h)
    w = h.world
    assert len(parts) >= 3

    await restart(h)
    answerer.template = "Short: {q} [1]."
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} just the gist"))
    (only,) = h.fake.messages_in(w.general)
    assert only["id"] == parts[0]["id"]
    assert "Short: just the gist" in only["content"]
    assert {int(p["id"]) for p in parts[1:]} <= set(h.fake.deleted)
    assert len(h.fake.created) == len(parts)


async def test_an_edit_after_a_restart_that_keeps_the_question_changes_nothing(
    harness: Harness,
) -> None:
    h = harness
    answerer, question, answer = await answered(h, "install?")
    w = h.world
    edits = len(h.fake.edits)

    await restart(h)
    bot_id = h.fake.bot_user["id"]
    await edit(h, h.fake.edited_message(int(question["id"]), f"<@!{bot_id}>  install?"))
    assert h.fake.messages_in(w.general) == [answer]
    assert len(h.fake.edits) == edits
    assert len(answerer.calls) == 1


async def test_an_edit_after_a_restart_whose_reply_was_deleted_gets_a_new_reply(
    harness: Harness,
) -> None:
    h = harness
    _answerer, question, first = await answered(h, "how to instal?")
    w = h.world
    await restart(h)
    del h.fake.messages[int(first["id"])]  # a moderator removed the answer while the bot was down

    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    (now,) = h.fake.messages_in(w.general)
    assert now["id"] != first["id"]
    assert now["message_reference"]["message_id"] == question["id"]
    assert "About: how to install?" in now["content"]


async def test_a_reply_discord_will_not_show_after_a_restart_leaves_the_edit_alone(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    answerer, question, first = await answered(h, "how to instal?")
    w = h.world
    await restart(h)

    # answering anew would leave the earlier reply standing beside the new one
    h.fake.fail_next("GET", rf"/messages/{first['id']}$", 403)
    with caplog.at_level(logging.INFO, logger="bot.connectors"):
        await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} install?"))
    assert h.fake.messages_in(w.general) == [first]
    assert len(answerer.calls) == 1
    assert any("was answered before, so left" in r.getMessage() for r in caplog.records)


async def test_only_the_latest_saved_questions_are_followed_after_a_restart(
    harness: Harness,
) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    saved = h.connector._asked.saved
    assert saved is not None
    saved.keep = 1  # as if 10,000 later questions had been answered since the first
    w = h.world
    old = h.fake.user_message(w.general, w.alice, "first?", mention_bot=True)
    await h.deliver(old)
    new = h.fake.user_message(w.general, w.bob, "second?", mention_bot=True)
    await h.deliver(new)
    first, second = h.fake.messages_in(w.general)
    assert h.store.state(SavedQuestions.SCOPE, old["id"]) is None  # pruned when new was saved

    await restart(h)
    await edit(h, h.fake.edited_message(int(old["id"]), f"{mention(h)} first, edited?"))
    await edit(h, h.fake.edited_message(int(new["id"]), f"{mention(h)} second, edited?"))
    now_first, now_second = h.fake.messages_in(w.general)
    assert now_first == first  # forgotten: its answer stays as it was
    assert now_second["id"] == second["id"]
    assert "About: second, edited?" in now_second["content"]
    assert [q for q, _ in answerer.calls] == ["first?", "second?", "second, edited?"]
    assert len(h.fake.created) == 2


@pytest.mark.parametrize(
    "value",
    ["not json", "[1, 2]", '{"text": "q"}', '{"text": 3, "replies": []}', "null"],
)
def test_a_saved_question_the_store_cannot_give_back_is_none(tmp_path: Path, value: str) -> None:
    store = Store(tmp_path / "s.db")
    store.set_state(SavedQuestions.SCOPE, "42", value)
    store.set_state(SavedQuestions.SCOPE, "43", json.dumps({"text": "q", "replies": [7, "x", 8]}))
    saved = SavedQuestions(store)
    assert saved.load(42) is None
    back = saved.load(43)
    assert back is not None and back.text == "q" and back.replies == (7, 8)
    assert saved.load(44) is None
