"""A deleted message of a Discord reply chain leaves only its own exchange out of later history.

Deleting an answered question (or the bot's answer to it) in the middle of a long reply chain
must not cut off every exchange before it: the walk back steps over the deleted message by the
records the bot keeps (``discord_chain_links``), so a follow-up's history is the latest
``history_limit`` exchanges still on Discord. Stepping over is bounded: at most
``history_limit`` deleted messages per walk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.fakes.answerer import ScriptedAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


async def ask(
    h: Harness, n: int, answer: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any], ScriptedAnswerer]:
    """Alice asks "question n" (a mention, or a reply to ``answer``); returns the question, the
    bot's reply to it and the answerer that wrote it."""
    w = h.world
    if answer is None:
        question = h.fake.user_message(w.general, w.alice, f"question {n}", mention_bot=True)
    else:
        question = h.fake.user_message(
            w.general, w.alice, f"question {n}", reply_to=int(answer["id"])
        )
    answerer = h.use([GUIDE], f"Answer {n} [1].")
    await h.deliver(question)
    (reply,) = [
        m for m in h.fake.messages_in(w.general)
        if (m.get("message_reference") or {}).get("message_id") == question["id"]
    ]  # fmt: skip
    return question, reply, answerer


async def converse(h: Harness, count: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``count`` exchanges, each question replying to the answer before; (question, answer)s."""
    exchanges: list[tuple[dict[str, Any], dict[str, Any]]] = []
    reply = None
    for n in range(count):
        question, reply, _ = await ask(h, n, reply)
        exchanges.append((question, reply))
    return exchanges


async def delete(h: Harness, message: dict[str, Any]) -> None:
    """``message`` is deleted (by its author or a moderator), as Discord tells the bot."""
    del h.fake.messages[int(message["id"])]
    where = {"channel_id": message["channel_id"], "guild_id": str(h.world.guild)}
    await h.fake.dispatch("MESSAGE_DELETE", {"id": message["id"], **where})


async def follow_up_history(h: Harness, n: int, after: dict[str, Any]) -> list[str]:
    """The questions of the history "question n", replying to ``after``, is answered with."""
    _, _, answerer = await ask(h, n, after)
    ((_, _, history),) = answerer.calls
    return [exchange.question for exchange in history]


async def test_a_deleted_question_drops_only_its_own_exchange(harness: Harness) -> None:
    h = harness
    exchanges = await converse(h, 5)
    await delete(h, exchanges[2][0])  # its author deletes it; the answer stays
    history = await follow_up_history(h, 5, exchanges[-1][1])
    assert history == ["question 0", "question 1", "question 3", "question 4"]


async def test_a_deleted_answer_drops_only_its_own_exchange(harness: Harness) -> None:
    h = harness
    exchanges = await converse(h, 5)
    await delete(h, exchanges[2][1])  # a moderator deletes the bot's answer; the question stays
    history = await follow_up_history(h, 5, exchanges[-1][1])
    assert history == ["question 0", "question 1", "question 3", "question 4"]


async def test_several_deleted_questions_each_drop_their_own_exchange(harness: Harness) -> None:
    h = harness
    exchanges = await converse(h, 6)
    for gone in (1, 3, 4):
        await delete(h, exchanges[gone][0])
    history = await follow_up_history(h, 6, exchanges[-1][1])
    assert history == ["question 0", "question 2", "question 5"]


async def test_stepping_over_deleted_messages_is_bounded_by_history_limit(
    tmp_path: Path,
) -> None:
    h = await start_harness(tmp_path, history_limit=2)
    try:
        exchanges = await converse(h, 6)
        for gone in (1, 2, 3, 4):
            await delete(h, exchanges[gone][0])
        reads = len(h.fake.requests)
        history = await follow_up_history(h, 6, exchanges[-1][1])
        # two deleted questions are stepped over (4 and 3), then the walk stops at the third:
        # question 0 is further back than the walk may read
        assert history == ["question 5"]
        fetched = [
            path
            for method, path, index in h.fake.requests[reads:]
            if method == "GET" and "/messages/" in path
        ]
        # question 5, the answers to 4, 3 and 2 (over the gaps), and the deleted question 2
        assert len(fetched) <= 5
    finally:
        await stop_harness(h)
