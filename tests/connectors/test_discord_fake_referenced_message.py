"""The fake Discord serves a reply's ``referenced_message`` as Discord does: as it reads now.

Discord's message object carries, for a reply, the message it replies to; once that message is
deleted the field is null (the ``message_reference`` stays), and discord.py reads it as a
``DeletedReferencedMessage``. A fake that kept the copy it took when the reply was made would
let a history walk go on through a message that is gone.
"""

from __future__ import annotations

import discord

from tests.connectors.test_discord_harness import Harness, harness

__all__ = ["harness"]


def general(h: Harness) -> discord.TextChannel:
    assert h.connector.client is not None
    channel = h.connector.client.get_channel(h.world.general)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_fetched_reply_to_a_deleted_message_has_a_deleted_reference(
    harness: Harness,
) -> None:
    h, w = harness, harness.world
    first = h.fake.user_message(w.general, w.bob, "the first")
    reply = h.fake.user_message(w.general, w.alice, "a reply", reply_to=int(first["id"]))
    del h.fake.messages[int(first["id"])]
    fetched = await general(h).fetch_message(int(reply["id"]))
    assert fetched.reference is not None
    assert fetched.reference.message_id == int(first["id"])
    assert isinstance(fetched.reference.resolved, discord.DeletedReferencedMessage)


async def test_a_fetched_reply_carries_the_replied_to_message_as_it_reads_now(
    harness: Harness,
) -> None:
    h, w = harness, harness.world
    first = h.fake.user_message(w.general, w.bob, "the first")
    reply = h.fake.user_message(w.general, w.alice, "a reply", reply_to=int(first["id"]))
    h.fake.edited_message(int(first["id"]), "the first, edited")
    fetched = await general(h).fetch_message(int(reply["id"]))
    assert fetched.reference is not None
    resolved = fetched.reference.resolved
    assert isinstance(resolved, discord.Message)
    assert resolved.content == "the first, edited"


async def test_the_bots_reply_read_back_carries_its_question(harness: Harness) -> None:
    h, w = harness, harness.world
    question = h.fake.user_message(w.general, w.alice, "install?")
    channel = general(h)
    sent = await channel.send(
        "Use pip.", reference=channel.get_partial_message(int(question["id"]))
    )
    (read_back,) = [m async for m in channel.history(limit=1)]
    assert read_back.id == sent.id
    assert read_back.reference is not None
    resolved = read_back.reference.resolved
    assert isinstance(resolved, discord.Message) and resolved.id == int(question["id"])
    del h.fake.messages[int(question["id"])]
    (read_back,) = [m async for m in channel.history(limit=1)]
    assert read_back.reference is not None
    assert isinstance(read_back.reference.resolved, discord.DeletedReferencedMessage)


async def test_an_edit_of_a_reply_to_a_deleted_message_has_a_null_reference(
    harness: Harness,
) -> None:
    h, w = harness, harness.world
    first = h.fake.user_message(w.general, w.bob, "the first")
    reply = h.fake.user_message(w.general, w.alice, "a reply", reply_to=int(first["id"]))
    assert reply["referenced_message"]["content"] == "the first"  # as it was sent
    del h.fake.messages[int(first["id"])]
    update = h.fake.edited_message(int(reply["id"]), "a reply, edited")
    assert update["message_reference"]["message_id"] == first["id"]
    assert update["referenced_message"] is None
