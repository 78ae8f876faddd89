"""A short notice (the "ask me a question" hint, the "your question is long" note, the apology)
still on its way to Discord when its question is deleted: Discord may have created it already,
so the bot must not forget it; it is withdrawn like an answer, and nothing is left standing in
reply to a question nobody can see any more."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.config import Settings, WebSettings
from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_qa_deletions import settled
from tests.fakes.answerer import BrokenAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def delete_while_in_flight(h: Harness, question: dict[str, Any]) -> dict[str, Any]:
    """Deliver ``question``, delete it while the bot's first message for it is on its way
    (created on Discord, the bot not told yet); returns that message."""
    channel = int(question["channel_id"])
    hold = h.fake.hold_next("POST", rf"^/channels/{channel}/messages$")
    answering = asyncio.create_task(h.deliver(question))
    await asyncio.wait_for(hold.arrived.wait(), timeout=30)
    (in_flight,) = h.fake.messages_in(channel)
    del h.fake.messages[int(question["id"])]
    await h.fake.dispatch("MESSAGE_DELETE", {"id": question["id"], "channel_id": str(channel)})
    await asyncio.wait_for(settled(h, int(question["id"]), answering), timeout=30)
    hold.release.set()
    await asyncio.wait_for(answering, timeout=30)
    return in_flight


def long_questions_cut_at(h: Harness, limit: int) -> None:
    services = h.connector.services
    services.settings = Settings(
        web=WebSettings(max_question_chars=limit), discord=services.settings.discord
    )


@pytest.mark.parametrize("notice", ["hint", "long question", "apology"])
async def test_a_notice_in_flight_when_its_question_is_deleted_is_withdrawn(
    harness: Harness, notice: str
) -> None:
    h = harness
    w = h.world
    text = "install?"
    if notice == "hint":
        text = ""  # a bare mention: the bot hints how to ask
    elif notice == "long question":
        long_questions_cut_at(h, 100)
        text = "why " * 200
    h.use([GUIDE], "Use pip [1].")
    if notice == "apology":
        # fails before saying anything: the apology is the only message
        h.connector.services.assistant = BrokenAnswerer(())
    question = h.fake.user_message(w.general, w.alice, text, mention_bot=True)

    in_flight = await delete_while_in_flight(h, question)

    assert int(in_flight["id"]) in h.fake.deleted
    assert h.fake.messages_in(w.general) == []  # nothing left answering a deleted question


async def test_a_notice_sent_in_time_is_kept_with_its_answer(harness: Harness) -> None:
    # the long-question note is now recorded through the send itself: once, as before
    h = harness
    long_questions_cut_at(h, 100)
    h.use([GUIDE], "Use pip [1].")
    question = h.fake.user_message(h.world.general, h.world.alice, "why " * 200, mention_bot=True)
    await h.deliver(question)
    note, answer = h.fake.messages_in(h.world.general)
    assert note["content"].startswith("Your question is long")
    assert answer["content"].startswith("Use pip")
    assert h.fake.deleted == []
