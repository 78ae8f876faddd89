"""Questions asked in a voice or stage channel's text chat while the bot was away are caught
up on like those of a text channel (found in Discord QA pass 2: the catch-up read only a guild's
text channels and threads, so a mention posted in a voice channel's chat during a restart was
never answered, though the same mention was answered live).

The channel is one the store does not remember as active (a first question there), so only
the cached guild channels can lead the catch-up to it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.connectors.discord_edit_helpers import GUIDE, EchoAnswerer
from tests.connectors.test_discord_harness import start_harness, stop_harness
from tests.connectors.test_discord_unanswered import expect_handled, start_again
from tests.fakes.discord_api import FakeDiscord

TEXT, VOICE, STAGE = 0, 2, 13


def chat_channel(fake: FakeDiscord, guild: int, kind: int) -> int:
    """A guild channel of ``kind`` named lobby, with the fields Discord sends for that kind."""
    channel = fake.add_channel(guild, "lobby", kind=kind)
    if kind in (VOICE, STAGE):  # a voice or stage channel, with its text chat
        fake.channels[channel].update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
    return channel


@pytest.mark.parametrize(
    "kind", [TEXT, VOICE, STAGE], ids=["text channel", "voice channel chat", "stage channel chat"]
)
async def test_a_mention_posted_while_stopped_is_caught_up_in_every_kind_of_chat(
    tmp_path: Path, kind: int
) -> None:
    lobby: list[int] = []

    def configure(fake: FakeDiscord, world: Any) -> dict[str, Any]:
        lobby.append(chat_channel(fake, world.guild, kind))
        return {"channels": [world.general, lobby[0]]}

    h = await start_harness(tmp_path, configure)
    try:
        # answered live in the channel's chat: it is a chat the bot answers in
        h.connector.services.assistant = EchoAnswerer([GUIDE])
        await h.deliver(h.fake.user_message(lobby[0], h.world.bob, "live?", mention_bot=True))
        assert len(h.fake.messages_in(lobby[0])) == 1

        await h.connector.stop()
        missed = h.fake.user_message(lobby[0], h.world.bob, "asked while away?", mention_bot=True)
        # forgotten as an active channel, as after a first question there
        h.store.set_state("discord-catch-up", "active-channels", "{}")
        done = expect_handled(h, int(missed["id"]))
        await start_again(h, EchoAnswerer([GUIDE]))
        await asyncio.wait_for(done, timeout=10)
        answers = [
            m
            for m in h.fake.messages_in(lobby[0])
            if (m.get("message_reference") or {}).get("message_id") == missed["id"]
        ]
        assert len(answers) == 1
    finally:
        await stop_harness(h)
