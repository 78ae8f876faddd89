"""A deleted part of a long Discord answer takes that whole exchange out of later history.

A long answer is several messages, each replying to the one before. When a moderator deletes
one part (say the one with an offending paragraph), a follow-up replying to a later part walks
back over the gap (``discord_chain_links``) to the question; the exchange is left out there, as
when the whole answer is deleted: its stored turn would give the model the deleted paragraph
again. The exchanges before it stay (only its own exchange is left out).
"""

from __future__ import annotations

from typing import Any

from bot.models import Exchange
from tests.connectors.discord_edit_helpers import LONG, EchoAnswerer
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_history_deleted_exchange import GUIDE, ask, delete

__all__ = ["harness"]


async def long_answer(h: Harness, to: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Alice asks "tell me all" (a mention, or a reply to the bot's message ``to``), answered
    in three or more parts; returns them in order."""
    w = h.world
    h.connector.services.assistant = EchoAnswerer((GUIDE,), template="{q} " + LONG)
    if to is None:
        question = h.fake.user_message(w.general, w.alice, "tell me all", mention_bot=True)
    else:
        question = h.fake.user_message(w.general, w.alice, "tell me all", reply_to=int(to["id"]))
    await h.deliver(question)
    bot = h.fake.bot_user["id"]
    parts = [
        m for m in h.fake.messages_in(w.general)
        if m["author"]["id"] == bot and int(m["id"]) > int(question["id"])
    ]  # fmt: skip
    assert len(parts) >= 3
    assert "Paragraph 0" in h.fake.messages[int(parts[0]["id"])]["content"]
    return parts


async def follow_up_history(h: Harness, to: dict[str, Any]) -> tuple[Exchange, ...]:
    """The history a follow-up replying to the bot's message ``to`` is answered with."""
    w = h.world
    follow = h.use([GUIDE], "Then this [1].")
    message = h.fake.user_message(w.general, w.alice, "and then?", reply_to=int(to["id"]))
    await h.deliver(message)
    ((_, _, history),) = follow.calls
    return history


async def test_a_deleted_first_part_leaves_its_exchange_out(harness: Harness) -> None:
    parts = await long_answer(harness, None)
    await delete(harness, parts[0])  # the moderator removes the part with paragraph 0
    history = await follow_up_history(harness, parts[-1])
    assert not [e for e in history if "Paragraph 0" in e.answer], history
    assert [e.question for e in history] == []


async def test_a_deleted_middle_part_leaves_its_exchange_out(harness: Harness) -> None:
    parts = await long_answer(harness, None)
    deleted = harness.fake.messages[int(parts[1]["id"])]["content"]
    await delete(harness, parts[1])
    history = await follow_up_history(harness, parts[-1])
    assert [e.question for e in history] == []
    assert not [e for e in history if deleted[:40] in e.answer], history


async def test_the_exchange_before_a_partly_deleted_answer_stays(harness: Harness) -> None:
    _, first, _ = await ask(harness, 0, None)
    parts = await long_answer(harness, first)
    await delete(harness, parts[0])
    history = await follow_up_history(harness, parts[-1])
    assert [e.question for e in history] == ["question 0"]
    assert history[0].answer.startswith("Answer 0")
