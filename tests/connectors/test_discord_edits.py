"""Edited questions: answered as they read now, in the bot's own reply, never twice.

Discord sends MESSAGE_UPDATE when a person edits a message and when it adds link previews (then
possibly as a partial payload of id, channel and embeds). The bot answers an edit that changes
the question by rewriting its reply in place, takes up an edit that adds its mention, and lets
everything else pass without a word (and without crashing the gateway).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.models import Source
from tests.connectors.discord_edit_helpers import (
    GUIDE,
    STAFF,
    EchoAnswerer,
    answered,
    answered_at_length,
    assert_fixed_in_place,
    edit,
    mention,
)
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.discord_api import CONTENT_LIMIT

__all__ = ["harness"]


async def test_an_edit_after_the_answer_rewrites_the_same_reply(harness: Harness) -> None:
    h = harness
    answerer, question, first = await answered(h, "how to instal?")
    w = h.world
    assert "About: how to instal?" in first["content"]

    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))

    (now,) = h.fake.messages_in(w.general)  # still one reply: the same message, rewritten
    assert_fixed_in_place(h, answerer, question, first, now)


async def test_an_edit_while_answering_is_answered_once_in_the_same_reply(
    harness: Harness,
) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE], hold=1)
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "how to instal?", mention_bot=True)
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    (partial,) = h.fake.messages_in(w.general)
    assert partial["content"].startswith("Looking.")

    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    answerer.gate.set()
    await asyncio.wait_for(answering, timeout=30)

    (final,) = h.fake.messages_in(w.general)
    assert final["id"] == partial["id"]
    assert "About: how to install?" in final["content"]
    assert "instal?" not in final["content"]
    assert len(h.fake.created) == 1  # never a second post
    assert [q for q, _ in answerer.calls] == ["how to instal?", "how to install?"]
    turns = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert [(t.question, t.status) for t in turns] == [
        ("how to instal?", "failed"),
        ("how to install?", "done"),
    ]


async def test_an_edit_that_adds_the_mention_is_answered(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    w = h.world
    message = h.fake.user_message(w.general, w.bob, "how do I install citecast?")
    await h.deliver(message)
    assert h.fake.created == []

    await edit(h, h.fake.edited_message(int(message["id"]), f"{mention(h)} how do I install?"))
    (reply,) = h.fake.messages_in(w.general)
    assert reply["message_reference"]["message_id"] == message["id"]
    assert "About: how do I install?" in reply["content"]
    # the same edit redelivered (a RESUME replays it) is not answered again
    await edit(h, h.fake.messages[int(message["id"])])
    assert len(h.fake.created) == 1
    assert len(answerer.calls) == 1


async def test_link_previews_neither_answer_again_nor_stop_the_bot(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(
        w.general, w.alice, "is https://docs.example.com/install current?", mention_bot=True
    )
    await h.deliver(question)
    plain = h.fake.user_message(w.general, w.bob, "see https://example.com/x")
    await h.deliver(plain)
    edits_before = len(h.fake.edits)

    # Discord's previews: partial payloads, and a whole one that is no edit by the author
    await h.fake.dispatch("MESSAGE_UPDATE", h.fake.link_previews(int(question["id"])))
    await h.fake.dispatch("MESSAGE_UPDATE", h.fake.link_previews(int(plain["id"])))
    await edit(h, h.fake.link_previews(int(question["id"]), partial=False))

    # the bot is still connected and answering (events arrive in order)
    later = h.fake.user_message(w.general, w.bob, "and upgrades?", mention_bot=True)
    await h.deliver(later)
    assert h.connector._task is not None and not h.connector._task.done()
    assert [q for q, _ in answerer.calls] == [
        "is https://docs.example.com/install current?",
        "and upgrades?",
    ]
    assert len(h.fake.created) == 2
    assert all(r.message_id != int(question["id"]) for r in h.fake.edits[edits_before:])


async def test_an_edit_that_keeps_the_question_or_drops_the_mention_changes_nothing(
    harness: Harness,
) -> None:
    h = harness
    answerer, question, answer = await answered(h, "install?")
    w = h.world
    mid = int(question["id"])
    bot_id = h.fake.bot_user["id"]

    await edit(h, h.fake.edited_message(mid, f"<@!{bot_id}>   install?"))  # another mention form
    await edit(h, h.fake.edited_message(mid, f"<@{bot_id}>"))  # nothing left to answer
    await edit(h, h.fake.edited_message(mid, "never mind, found it"))  # the mention taken out
    assert h.fake.messages_in(w.general) == [answer]
    assert len(answerer.calls) == 1


async def test_the_bots_own_edits_are_not_questions(harness: Harness) -> None:
    h = harness
    answerer, question, answer = await answered(h, "install?")
    # as if the bot's answer quoted its own mention: it is still no question
    own = dict(answer, content=f"{mention(h)} {answer['content']}", mentions=[h.fake.bot_user])
    own["edited_timestamp"] = question["timestamp"]
    await edit(h, own)
    assert len(answerer.calls) == 1
    assert len(h.fake.created) == 1


async def test_a_long_answer_edited_to_a_short_one_leaves_one_message(harness: Harness) -> None:
    h = harness
    answerer, question, parts = await answered_at_length(h)
    w = h.world
    assert len(parts) >= 3

    answerer.template = "Short: {q} [1]."
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} just the gist"))
    (only,) = h.fake.messages_in(w.general)
    assert only["id"] == parts[0]["id"]
    assert "Short: just the gist" in only["content"]
    assert len(only["content"]) <= CONTENT_LIMIT
    assert {int(p["id"]) for p in parts[1:]} <= set(h.fake.deleted)


async def test_an_edited_answer_drops_the_earlier_answers_files(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    path = tmp_path / "manual.pdf"
    path.write_bytes(b"%PDF-manual")
    manual = Source(id="m", title="Admin manual", path=str(path), filename="manual.pdf")
    answerer = EchoAnswerer([manual])
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "where is the manual?", mention_bot=True)
    await h.deliver(question)
    (first,) = h.fake.messages_in(w.general)
    assert [a["filename"] for a in first["attachments"]] == ["manual.pdf"]

    answerer.sources = (GUIDE,)
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    (now,) = h.fake.messages_in(w.general)
    assert now["attachments"] == []
    assert "manual.pdf" not in now["content"]
    assert "Install guide" in now["content"]


async def test_a_hint_for_a_bare_mention_becomes_the_answer_once_edited(harness: Harness) -> None:
    h = harness
    _answerer, question, hint = await answered(h, "")
    w = h.world

    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    (answer,) = h.fake.messages_in(w.general)
    assert answer["id"] == hint["id"]
    assert "About: how to install?" in answer["content"]


async def test_an_edit_in_a_public_channel_never_cites_a_private_source(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([STAFF, GUIDE], template="About: {q} [1] [2].")
    h.connector.services.assistant = answerer
    w = h.world  # alice is staff, but everyone reads #general
    question = h.fake.user_message(w.general, w.alice, "pay?", mention_bot=True)
    await h.deliver(question)
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} pay bands?"))
    (answer,) = h.fake.messages_in(w.general)
    assert "About: pay bands?" in answer["content"]
    assert "Salary bands" not in answer["content"]
    assert "intra.example.com" not in answer["content"]
    assert [audience for _, audience in answerer.calls] == [frozenset({"public"})] * 2


async def test_an_edit_of_a_question_answered_before_a_restart_is_left_alone(
    harness: Harness,
) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "install?", mention_bot=True)
    # answered by an earlier run that saved no replies for it (older release, or pruned since)
    assert h.store.claim_once("discord-message", question["id"])
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} install on mac?"))
    assert h.fake.created == []
    assert answerer.calls == []


async def test_an_edit_after_the_answer_was_deleted_gets_a_new_reply(harness: Harness) -> None:
    h = harness
    _answerer, question, first = await answered(h, "how to instal?")
    w = h.world
    del h.fake.messages[int(first["id"])]  # the asker's moderator friend removes the answer
    await h.fake.dispatch("MESSAGE_DELETE", {"id": first["id"], "channel_id": str(w.general)})

    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} how to install?"))
    (now,) = h.fake.messages_in(w.general)
    assert now["id"] != first["id"]
    assert now["message_reference"]["message_id"] == question["id"]
    assert "About: how to install?" in now["content"]
    assert not any(m["content"].startswith("Sorry") for m in h.fake.messages_in(w.general))


async def test_an_edited_dm_is_answered_in_place(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE])
    h.connector.services.assistant = answerer
    dm = h.fake.open_dm(h.world.bob)
    question = h.fake.user_message(dm, h.world.bob, "instal?")
    await h.deliver(question)
    (first,) = h.fake.messages_in(dm)
    await edit(h, h.fake.edited_message(int(question["id"]), "install?"))
    (now,) = h.fake.messages_in(dm)
    assert now["id"] == first["id"]
    assert "About: install?" in now["content"]


async def test_two_quick_edits_while_answering_answer_only_the_last(harness: Harness) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE], hold=1)
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "instal?", mention_bot=True)
    mid = int(question["id"])
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    await edit(h, h.fake.edited_message(mid, f"{mention(h)} install?"))
    await edit(h, h.fake.edited_message(mid, f"{mention(h)} install on linux?"))
    answerer.gate.set()
    await asyncio.wait_for(answering, timeout=30)
    (final,) = h.fake.messages_in(w.general)
    assert "About: install on linux?" in final["content"]
    assert [q for q, _ in answerer.calls] == ["instal?", "install on linux?"]
    assert len(h.fake.created) == 1


async def test_a_part_deleted_by_a_moderator_does_not_fail_the_edited_answer(
    harness: Harness,
) -> None:
    h = harness
    answerer, question, parts = await answered_at_length(h)
    w = h.world
    del h.fake.messages[int(parts[-1]["id"])]  # a moderator removes the last part

    answerer.template = "Short: {q} [1]."
    await edit(h, h.fake.edited_message(int(question["id"]), f"{mention(h)} just the gist"))
    (only,) = h.fake.messages_in(w.general)
    assert "Short: just the gist" in only["content"]
    turns = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert turns[-1].question == "just the gist" and turns[-1].status == "done"


async def test_a_question_deleted_while_its_edit_is_answered_takes_the_reply_with_it(
    harness: Harness,
) -> None:
    h = harness
    answerer = EchoAnswerer([GUIDE], hold=2)
    h.connector.services.assistant = answerer
    w = h.world
    question = h.fake.user_message(w.general, w.alice, "instal?", mention_bot=True)
    await h.deliver(question)
    (first,) = h.fake.messages_in(w.general)

    edited = h.fake.edited_message(int(question["id"]), f"{mention(h)} install?")
    answering = asyncio.create_task(h.deliver(edited, "MESSAGE_UPDATE"))
    await asyncio.wait_for(answerer.midway.wait(), timeout=30)
    del h.fake.messages[int(question["id"])]
    await h.fake.dispatch("MESSAGE_DELETE", {"id": question["id"], "channel_id": str(w.general)})
    await asyncio.wait_for(answering, timeout=30)
    answerer.gate.set()

    assert h.fake.messages_in(w.general) == []  # the earlier answer went with the question
    assert int(first["id"]) in h.fake.deleted
    assert len(h.fake.created) == 1  # and no apology
