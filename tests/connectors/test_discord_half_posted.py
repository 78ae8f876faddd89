"""A crash between Discord creating a reply and the bot hearing back (found in a QA pass).

The replies are saved as each is posted, but only once Discord has answered: a run killed
while the create request was in flight left a cut-off reply (an orphan ``[1]``, no sources)
that the store did not know of, and the next start posted a second answer beside it. Now the
next start finds that reply on Discord (the bot's messages continuing the answer, by their
references) and finishes the answer in it; and each part's nonce is derived from the question,
so while Discord remembers it (a few minutes) a part sent again returns the message it created.

The crash is modelled with a held request: Discord (the fake) creates the message, and the
process dies before the answer reaches it; a new connector over the same store starts.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.config import Settings
from bot.connectors.discord import DiscordConnector
from bot.connectors.discord_send import part_nonce
from bot.connectors.discord_unanswered import QUESTIONS
from tests.connectors.discord_edit_helpers import GUIDE, LONG, EchoAnswerer
from tests.connectors.test_discord_harness import Harness, harness
from tests.connectors.test_discord_unanswered import (
    bury,
    crash,
    dead,
    expect_handled,
    start_again,
)
from tests.fakes.discord_api import Hold

__all__ = ["dead", "harness"]

SOURCE_LINE = "[Install guide](<https://docs.example.com/install>)"


async def die(h: Harness, dead: list[DiscordConnector]) -> None:
    """The process dies mid-request: its answers go no further (the tasks end where they wait,
    as a killed process's would), then its connection drops."""
    for task in list(h.connector._in_flight):
        task.cancel()
    await crash(h, dead)
    await bury(dead)  # over before the next run starts, as a dead process's answers are


async def killed_after_create(
    h: Harness, dead: list[DiscordConnector], question: dict[str, Any], template: str
) -> Hold:
    """Alice's ``question`` is answered until Discord has created the first reply; the run
    dies before Discord's answer to that request arrives. Returns the hold on that answer."""
    held = h.fake.hold_next("POST", rf"/channels/{h.world.general}/messages$")
    h.connector.services.assistant = EchoAnswerer([GUIDE], template=template)
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(held.arrived.wait(), timeout=30)
    await die(h, dead)
    return held


def chain(h: Harness, question: dict[str, Any]) -> list[dict[str, Any]]:
    """The bot's messages in #general, checked to be one answer: the first replying to the
    question, each later one to the one before."""
    messages = h.fake.messages_in(h.world.general)
    replied = [m["message_reference"]["message_id"] for m in messages]
    assert replied == [question["id"], *(m["id"] for m in messages[:-1])]
    return messages


async def restart_and_answer(h: Harness, question: dict[str, Any], template: str) -> None:
    answerer = EchoAnswerer([GUIDE], template=template)
    handled = expect_handled(h, int(question["id"]))
    await start_again(h, answerer)
    await asyncio.wait_for(handled, timeout=30)
    assert [q for q, _ in answerer.calls] == ["how do I install?"]


async def test_a_reply_created_as_the_run_died_is_finished_in_place_after_a_restart(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    # the QA scenario, restarted after Discord forgot the nonce: the history shows the reply
    h = harness
    question = h.fake.user_message(
        h.world.general, h.world.alice, "how do I install?", mention_bot=True
    )
    held = await killed_after_create(h, dead, question, "About: {q} [1].")
    (half,) = h.fake.messages_in(h.world.general)
    assert SOURCE_LINE not in half["content"]  # cut off: no sources yet
    h.fake.forget_nonces()
    try:
        await restart_and_answer(h, question, "About: {q} [1].")
        (reply,) = chain(h, question)
        assert reply["id"] == half["id"]
        assert "About: how do I install?" in reply["content"]
        assert SOURCE_LINE in reply["content"]
        assert len(h.fake.created) == 1
        assert h.store.pending(QUESTIONS) == []
    finally:
        held.release.set()


async def test_while_discord_remembers_the_nonce_the_part_sent_again_is_that_reply(
    harness: Harness, dead: list[DiscordConnector], caplog: pytest.LogCaptureFixture
) -> None:
    # the history cannot be read at that moment: the part's nonce alone keeps it to one reply
    h = harness
    question = h.fake.user_message(
        h.world.general, h.world.alice, "how do I install?", mention_bot=True
    )
    held = await killed_after_create(h, dead, question, "About: {q} [1].")
    (half,) = h.fake.messages_in(h.world.general)
    # no catch-up at the start, so that the one history read refused is the one for the reply
    settings = h.connector.services.settings
    no_catch_up = settings.discord.model_copy(update={"catch_up_minutes": 0})
    h.connector.services.settings = Settings(**{**dict(settings), "discord": no_catch_up})
    h.fake.fail_next("GET", rf"/channels/{h.world.general}/messages$", 403)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.connectors"):
            await restart_and_answer(h, question, "About: {q} [1].")
        (reply,) = chain(h, question)
        assert reply["id"] == half["id"]
        assert "About: how do I install?" in reply["content"]
        assert SOURCE_LINE in reply["content"]
        assert len(h.fake.created) == 1
        assert any("cannot read" in r.getMessage() for r in caplog.records)
    finally:
        held.release.set()


async def test_a_later_part_created_as_the_run_died_is_finished_in_place_too(
    harness: Harness, dead: list[DiscordConnector]
) -> None:
    # the first part was saved; the second was created, unheard of, when the run died
    h = harness
    template = "{q} " + LONG
    question = h.fake.user_message(
        h.world.general, h.world.alice, "how do I install?", mention_bot=True
    )
    first = h.fake.hold_next("POST", rf"/channels/{h.world.general}/messages$")
    h.connector.services.assistant = EchoAnswerer([GUIDE], template=template)
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(first.arrived.wait(), timeout=30)
    second = h.fake.hold_next("POST", rf"/channels/{h.world.general}/messages$")
    first.release.set()
    await asyncio.wait_for(second.arrived.wait(), timeout=30)
    await die(h, dead)
    before = [m["id"] for m in h.fake.messages_in(h.world.general)]
    assert len(before) == 2
    h.fake.forget_nonces()
    try:
        await restart_and_answer(h, question, template)
        messages = chain(h, question)
        assert [m["id"] for m in messages[:2]] == before
        assert len(messages) >= 3  # the rest of the long answer, in parts of its own
        assert len(h.fake.created) == len(messages)
        assert SOURCE_LINE in messages[-1]["content"]
    finally:
        second.release.set()


def test_part_nonces_are_the_same_in_every_run_and_fit_discord() -> None:
    question = 1_234_567_890_123_456_789
    nonces = {part_nonce(question, index, attempt) for index in range(20) for attempt in range(3)}
    assert len(nonces) == 60
    assert part_nonce(question, 0) == part_nonce(question, 0, 0) != part_nonce(question + 1, 0)
    assert all(0 <= nonce < 1 << 63 and len(str(nonce)) <= 25 for nonce in nonces)
