"""Read Message History: Discord refuses a bot's reply without it (403, code 160002), and every
answer, part and notice the bot sends is a reply. Where the bot lacks it (as its cache knows),
nothing is computed or tried, and one log line names the channel and the permission; where
Discord refuses anyway, that is one line too, without a traceback or an apology (tested with
the other refusals in test_discord_permissions.py).

Attach Files: where the bot's cache says it may not attach, cited files are named (or linked)
at once rather than sent for Discord to refuse with a 403 each time."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.models import Source
from tests.connectors.test_discord_files import manual
from tests.connectors.test_discord_harness import (
    World,
    harness,
    start_harness,
    stop_harness,
)
from tests.connectors.test_discord_permissions import deny, our_records, posts_to
from tests.fakes.discord_access import ATTACH_FILES, READ_MESSAGE_HISTORY
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


@pytest.mark.parametrize("where", ["channel", "thread"])
async def test_without_read_message_history_nothing_is_computed_and_one_line_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, where: str
) -> None:
    threads: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        deny(fake, world.general, READ_MESSAGE_HISTORY)
        if where == "thread":
            threads.append(fake.thread_payload(world.guild, world.general, "talk", 1))
            fake.guilds[world.guild]["threads"].append(fake.channels[threads[0]])
        return {}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([GUIDE], "Use pip [1].")
        channel = threads[0] if threads else h.world.general
        question = h.fake.user_message(channel, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)
        assert answerer.calls == []  # the answer could never arrive as a reply
        assert posts_to(h, channel) == []
        (record,) = our_records(caplog)
        assert record.levelno == logging.ERROR and record.exc_info is None
        assert record.getMessage().endswith("the bot lacks Read Message History there")
    finally:
        await stop_harness(h)


async def test_without_attach_files_known_the_files_are_named_without_a_refusal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        deny(fake, world.general, ATTACH_FILES)  # as the bot finds the guild on connecting
        return {}

    h = await start_harness(tmp_path, configure=configure)
    try:
        h.use([manual(tmp_path)], "See the manual [1].")
        question = h.fake.user_message(h.world.general, h.world.alice, "manual?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)
        (message,) = h.fake.messages_in(h.world.general)
        assert message["attachments"] == []
        assert "Admin manual" in message["content"] and "manual.pdf" in message["content"]
        assert "attached" not in message["content"]
        assert h.fake.refused == []  # nothing was sent for Discord to refuse
        assert [r for r in our_records(caplog) if r.levelno >= logging.WARNING] == []
    finally:
        await stop_harness(h)
