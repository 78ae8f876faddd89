"""A question cut short by a restart is one turn in the store, finished when it is answered
after the restart: it was stored as a failed turn (``citecast serve`` marks the turns an
earlier run left pending as failed) and then a done one, so ``citecast report`` counted it
twice (found in a QA pass)."""

from __future__ import annotations

import asyncio

from bot.connectors.discord import DiscordConnector
from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_left_over import half_answered
from tests.connectors.test_discord_unanswered import crash, dead, expect_handled, start_again

__all__ = ["dead", "harness"]


async def test_a_question_answered_after_a_restart_is_one_done_turn(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    h = harness
    question = await half_answered(h, "how to install?")
    await crash(h, dead)
    assert h.store.fail_pending_turns() == 1  # what the next `citecast serve` does first

    handled = expect_handled(h, int(question["id"]))
    await start_again(h, EchoAnswerer([GUIDE]))
    await asyncio.wait_for(handled, timeout=30)

    (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert turn.status == "done"
    assert turn.answer is not None and "how to install?" in turn.answer["text"]
    (reply,) = h.fake.messages_in(h.world.general)  # the half answer, finished in place
    assert "About: how to install?" in reply["content"]


async def test_an_edit_after_the_restart_is_a_turn_of_its_own(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    # only the interrupted answer is finished in its turn; a later answer never overwrites it
    h = harness
    question = await half_answered(h, "how to install?")
    await crash(h, dead)
    h.store.fail_pending_turns()
    handled = expect_handled(h, int(question["id"]))
    await start_again(h, EchoAnswerer([GUIDE]))
    await asyncio.wait_for(handled, timeout=30)

    mention = f"<@{h.fake.bot_user['id']}>"
    edited = h.fake.edited_message(int(question["id"]), f"{mention} how to upgrade?")
    await h.deliver(edited, event="MESSAGE_UPDATE")

    turns = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert [(t.question, t.status) for t in turns] == [
        ("how to install?", "done"),
        ("how to upgrade?", "done"),
    ]
