"""The fake Discord refuses what Discord refuses, as Discord does (so a pass means something)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import discord
import pytest

from bot.connectors.discord_send import send_message
from bot.errors import ChannelError
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.discord_api import would_ping

__all__ = ["harness"]


def general(h: Harness) -> discord.TextChannel:
    assert h.connector.client is not None
    channel = h.connector.client.get_channel(h.world.general)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_content_over_2000_characters_is_an_invalid_form_body(harness: Harness) -> None:
    with pytest.raises(discord.HTTPException) as info:
        await general(harness).send("x" * 2001)
    assert info.value.status == 400
    assert info.value.code == 50035
    assert "content" in info.value.text
    assert harness.fake.created == []


@pytest.mark.parametrize(
    "embeds",
    [
        [discord.Embed(title="t" * 257)],
        [discord.Embed(description="d" * 4097)],
        [discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)],
        [discord.Embed().add_field(name="n", value="v" * 1025)],
    ],
    ids=["title", "description", "total", "field"],
)
async def test_embed_limits(harness: Harness, embeds: list[discord.Embed]) -> None:
    with pytest.raises(discord.HTTPException) as info:
        await general(harness).send(embeds=embeds)
    assert info.value.code == 50035


async def test_more_than_ten_embeds_are_refused(harness: Harness) -> None:
    # discord.py refuses this before sending, so speak HTTP to the fake directly
    url = f"{harness.fake.base_url}/channels/{harness.world.general}/messages"
    body = {"embeds": [{"description": "d"}] * 11}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, headers={"Authorization": "Bot test-token"}) as response,
    ):
        assert response.status == 400
        error = await response.json()
    assert error["code"] == 50035
    assert error["message"] == "Invalid Form Body"
    assert "embeds" in error["errors"]


async def test_file_count_and_size_limits(harness: Harness, tmp_path: Path) -> None:
    small = tmp_path / "a.txt"
    small.write_text("a")
    with pytest.raises(discord.HTTPException) as info:
        await general(harness).send(files=[discord.File(small) for _ in range(11)])
    assert info.value.code == 50035
    harness.fake.max_file_bytes = 10
    big = tmp_path / "big.bin"
    big.write_bytes(b"b" * 11)
    with pytest.raises(discord.HTTPException) as info:
        await general(harness).send(file=discord.File(big))
    assert info.value.status == 413
    assert info.value.code == 40005


async def test_a_refusal_is_not_retried_at_the_connector_edge(harness: Harness) -> None:
    h = harness
    with pytest.raises(ChannelError, match="400"):
        await send_message(general(h), {"content": "x" * 2001}, h.connector.settings)
    posts = [p for m, p, _ in h.fake.requests if m == "POST" and p.endswith("/messages")]
    assert len(posts) == 1


def test_pings_follow_discords_allowed_mentions_rules() -> None:
    text = {"content": "@everyone <@1> <@&2>"}
    assert would_ping(text, None) == ["@everyone", "user:1", "role:2"]
    assert would_ping({**text, "allowed_mentions": {"parse": []}}, None) == []
    assert would_ping({**text, "allowed_mentions": {"parse": [], "users": ["1"]}}, 5) == [
        "user:1",
        "reply:5",
    ]
    assert would_ping({**text, "allowed_mentions": {"parse": [], "replied_user": False}}, 5) == []
