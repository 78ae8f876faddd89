"""A question deleted while the bot's reply to it is still on its way to Discord: Discord may
have created the reply already, so the bot must not forget it; it is withdrawn with the rest."""

from __future__ import annotations

import asyncio

from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import ScriptedAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def settled(h: Harness, question_id: int, answering: asyncio.Task[None]) -> None:
    """Until the connector took the deletion of ``question_id`` in (or finished with it)."""
    while question_id not in h.connector._withdrawn and not answering.done():
        await asyncio.sleep(0.01)


async def test_a_reply_in_flight_when_its_question_is_deleted_is_withdrawn_too(
    harness: Harness,
) -> None:
    h = harness
    h.connector.services.assistant = ScriptedAnswerer([GUIDE], "Use pip [1].")
    w = h.world
    hold = h.fake.hold_next("POST", rf"^/channels/{w.general}/messages$")
    question = h.fake.user_message(w.general, w.alice, "my token is abc123", mention_bot=True)
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(hold.arrived.wait(), timeout=30)
    (in_flight,) = h.fake.messages_in(w.general)  # Discord created it; the bot has not heard

    del h.fake.messages[int(question["id"])]  # the asker thinks better of it
    await h.fake.dispatch("MESSAGE_DELETE", {"id": question["id"], "channel_id": str(w.general)})
    await asyncio.wait_for(settled(h, int(question["id"]), answering), timeout=30)
    hold.release.set()
    await asyncio.wait_for(answering, timeout=30)

    assert h.fake.messages_in(w.general) == []  # no answer left standing to a deleted question
    assert int(in_flight["id"]) in h.fake.deleted
    (turn,) = h.store.turns(f"discord:{w.general}:{question['id']}")
    assert turn.status == "failed"
