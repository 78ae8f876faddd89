"""``audience_by_channel`` for a category: Discord servers group channels in categories (their
permissions sync from it), so an admin maps the category once. Its channels, and their threads,
are read by the category's audience, never by the wider guild's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.connectors.test_discord_audience import PRIVATE, PUBLIC, RAW, ask_in
from tests.connectors.test_discord_harness import World, start_harness, stop_harness
from tests.fakes.discord_api import FakeDiscord

CATEGORY = 4


async def test_a_channel_in_a_mapped_category_is_read_by_the_categorys_audience(
    tmp_path: Path,
) -> None:
    community: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        category = fake.add_channel(world.guild, "Community", kind=CATEGORY)
        lounge = fake.add_channel(world.guild, "lounge")
        fake.channels[lounge]["parent_id"] = str(category)  # the channel sits in the category
        community.append(lounge)
        return {
            # everyone in the guild is staff, except in the community category: guests read it
            "audience_by_guild": {str(world.guild): ["public", "staff"]},
            "audience_by_channel": {str(category): ["public"]},
        }

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        w, alice = h.world, int(h.world.alice["id"])
        lounge = community[0]
        thread = h.fake.thread_payload(w.guild, lounge, "guest question", alice)
        texts = [await ask_in(h, where, w.alice) for where in (lounge, thread, w.general)]
        assert [call[1] for call in answerer.calls] == [
            frozenset({"public"}),
            frozenset({"public"}),  # a thread of a channel in the category too
            frozenset({"public", "staff"}),  # outside the category, the guild's audience
        ]
        assert ["Staff runbook" in text for text in texts] == [False, False, True]
        assert "intranet.example.com" not in texts[0] + texts[1]
    finally:
        await stop_harness(h)


async def test_a_category_in_discord_channels_serves_the_channels_in_it(tmp_path: Path) -> None:
    community: list[int] = []

    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        category = fake.add_channel(world.guild, "Community", kind=CATEGORY)
        lounge = fake.add_channel(world.guild, "lounge")
        fake.channels[lounge]["parent_id"] = str(category)
        community.append(lounge)
        return {"channels": [category]}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC], "Restart the service [1].")
        w, alice = h.world, int(h.world.alice["id"])
        lounge = community[0]
        thread = h.fake.thread_payload(w.guild, lounge, "guest question", alice)
        for where in (lounge, thread, w.general):
            await ask_in(h, where, w.alice)
        assert len(answerer.calls) == 2  # the lounge and its thread; #general is not served
        assert h.fake.messages_in(w.general) == []
        assert "Public guide" in h.fake.messages_in(thread)[0]["content"]
    finally:
        await stop_harness(h)


async def test_a_thread_whose_parent_the_bot_has_not_cached_keeps_the_parents_mapping(
    tmp_path: Path,
) -> None:
    def configure(fake: FakeDiscord, world: World) -> dict[str, Any]:
        return {"audience_by_guild": {str(world.guild): ["public", "staff"]}}

    h = await start_harness(tmp_path, configure=configure)
    try:
        answerer = h.use([PUBLIC, PRIVATE], RAW)
        w, alice = h.world, int(h.world.alice["id"])
        # a channel the bot has not heard of yet (its CHANNEL_CREATE is still on its way)
        guests = h.fake.add_channel(w.guild, "guests")
        h.connector.settings.audience_by_channel[str(guests)] = ["public"]
        thread = h.fake.thread_payload(w.guild, guests, "hello", alice)
        text = await ask_in(h, thread, w.alice)
        assert answerer.calls[0][1] == frozenset({"public"})
        assert "Staff runbook" not in text and "intranet.example.com" not in text
    finally:
        await stop_harness(h)
