"""Embed Links taken away without the bot hearing of it (no CHANNEL_UPDATE, or one it missed):
Discord keeps the text of a message and silently drops its embeds, so with ``embeds: true``
the answer kept its ``[1]`` markers and lost its Sources embed (found in a QA pass). Discord's
answer shows what it kept: the bot lists the sources as text instead, with one warning.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.models import Source
from tests.connectors.test_discord_files import manual
from tests.connectors.test_discord_harness import start_harness, stop_harness
from tests.connectors.test_discord_permissions import deny, our_records
from tests.fakes.discord_access import ATTACH_FILES, EMBED_LINKS

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")


@pytest.mark.parametrize("with_file", [False, True])
async def test_a_sources_embed_discord_dropped_is_sent_again_as_text(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, with_file: bool
) -> None:
    h = await start_harness(tmp_path, embeds=True)
    try:
        sources = [GUIDE, manual(tmp_path)] if with_file else [GUIDE]
        h.use(sources, "Use pip [1]." + (" See the manual [2]." if with_file else ""))
        deny(h.fake, h.world.general, EMBED_LINKS)  # on Discord only: the bot's cache says yes
        question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)

        (message,) = h.fake.messages_in(h.world.general)
        assert "**Sources**" in message["content"]
        assert "[Install guide](<https://docs.example.com/install>)" in message["content"]
        assert message["embeds"] == []
        if with_file:  # the file stays attached, once
            assert [a["filename"] for a in message["attachments"]] == ["manual.pdf"]
        (warning,) = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
        assert warning.levelno == logging.WARNING and warning.exc_info is None
        assert "dropped the Sources embed" in warning.getMessage()
        assert "#general" in warning.getMessage()
    finally:
        await stop_harness(h)


async def test_files_refused_then_embeds_dropped_still_lists_every_source(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # both permissions gone unannounced: the files become names, the embed becomes text
    h = await start_harness(tmp_path, embeds=True)
    try:
        h.use([GUIDE, manual(tmp_path)], "Use pip [1]. See the manual [2].")
        deny(h.fake, h.world.general, EMBED_LINKS | ATTACH_FILES)
        question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)

        (message,) = h.fake.messages_in(h.world.general)
        assert "[Install guide](<https://docs.example.com/install>)" in message["content"]
        assert "Admin manual" in message["content"]
        assert message["embeds"] == [] and message["attachments"] == []
        messages = [r.getMessage() for r in our_records(caplog) if r.levelno >= logging.WARNING]
        assert len(messages) == 2
        assert not any(m.startswith("discord: discord:") for m in messages)  # one prefix
    finally:
        await stop_harness(h)


async def test_sources_in_embeds_only_messages_refused_are_sent_again_as_text(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # many sources: the embeds that do not fit beside the text go in messages of embeds alone,
    # which Discord refuses (403 Missing Permissions) where the bot may not embed links
    sources = [
        Source(
            id=f"s{n}",
            title=f"Document number {n} with a fairly long descriptive title about topic {n}",
            url=f"https://docs.example.com/very/long/path/to/document/{n}?section=intro",
        )
        for n in range(1, 61)
    ]
    h = await start_harness(tmp_path, embeds=True)
    try:
        h.use(sources, " ".join(f"Fact {n} [{n}]." for n in range(1, 61)))
        deny(h.fake, h.world.general, EMBED_LINKS)
        question = h.fake.user_message(h.world.general, h.world.alice, "facts?", mention_bot=True)
        with caplog.at_level(logging.INFO):
            await h.deliver(question)

        messages = sorted(h.fake.messages_in(h.world.general), key=lambda m: int(m["id"]))
        text = "\n".join(m["content"] for m in messages)
        assert all(m["embeds"] == [] for m in messages)
        assert [status for _, _, status in h.fake.refused] == [403]  # the embeds alone
        assert all(f"/document/{n}?section=intro" in text for n in range(1, 61))
        warnings = [r for r in our_records(caplog) if r.levelno >= logging.WARNING]
        assert [r.levelno for r in warnings] == [logging.WARNING]
        assert "dropped the Sources embed" in warnings[0].getMessage()
    finally:
        await stop_harness(h)
