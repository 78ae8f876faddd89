"""The gateway drops during an answer: discord.py resumes, nothing is lost or answered twice."""

from __future__ import annotations

import asyncio

from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.answerer import GatedAnswerer, ScriptedAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def test_an_answer_in_flight_survives_a_reconnect_and_missed_questions_arrive(
    harness: Harness,
) -> None:
    h = harness
    held = GatedAnswerer(ScriptedAnswerer([GUIDE], "Use pip [1]."))
    h.connector.services.assistant = held
    w = h.world
    first = h.fake.user_message(w.general, w.alice, "install?", mention_bot=True)
    answering = asyncio.create_task(h.deliver(first))
    await asyncio.wait_for(held.started.wait(), timeout=30)
    await h.fake.reconnect()  # Discord moves the session while the answer is being written
    # asked while the bot is away: Discord replays it when the session resumes
    second = h.fake.user_message(w.general, w.bob, "upgrade?", mention_bot=True)
    replayed = asyncio.create_task(h.deliver(second))
    await asyncio.wait_for(h.fake.wait_resumed(), timeout=30)
    held.gate.set()
    await asyncio.gather(answering, replayed)

    assert h.fake.resumes == 1
    assert sorted(call[0] for call in held.inner.calls) == ["install?", "upgrade?"]
    replies = {m["message_reference"]["message_id"]: m for m in h.fake.messages_in(w.general)}
    assert sorted(replies) == sorted([first["id"], second["id"]])
    assert all("[Install guide](<https://docs.example.com/install>)" in m["content"]
               for m in replies.values())  # fmt: skip
    for question in (first, second):
        (turn,) = h.store.turns(f"discord:{w.general}:{question['id']}")
        assert turn.status == "done"
    # the session goes on: a later question is answered as usual
    await h.deliver(h.fake.user_message(w.general, w.alice, "and then?", mention_bot=True))
    assert len(h.fake.messages_in(w.general)) == 3
