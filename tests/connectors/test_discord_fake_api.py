"""The fake Discord refuses what Discord refuses, as Discord does (so a pass means something)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import discord
import pytest

from bot.connectors.discord_send import send_message
from bot.errors import ChannelError
from tests.connectors.test_discord_harness import Harness, harness
from tests.fakes.discord_access import (
    ATTACH_FILES,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
)
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


async def test_the_bot_cannot_post_where_its_permissions_do_not_allow(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    fake, guild = h.fake, h.world.guild
    hidden = fake.add_channel(guild, "hidden", view_only_roles=[h.world.staff_role])
    read_only = fake.add_channel(guild, "read-only")
    no_files = fake.add_channel(guild, "no-files")
    me = fake.bot_user["id"]
    fake.channels[read_only]["permission_overwrites"].append(
        {"id": me, "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)}
    )
    fake.channels[no_files]["permission_overwrites"].append(
        {"id": me, "type": 1, "allow": "0", "deny": str(ATTACH_FILES)}
    )
    assert h.connector.client is not None
    small = tmp_path / "a.txt"
    small.write_text("a")
    for channel_id, files, code in (
        (hidden, [], 50001),
        (read_only, [], 50013),
        (no_files, [discord.File(small)], 50013),
    ):
        channel = h.connector.client.get_partial_messageable(channel_id)
        with pytest.raises(discord.Forbidden) as info:
            await channel.send("hello", files=files)
        assert info.value.code == code
    assert fake.created == []
    sent = await h.connector.client.get_partial_messageable(no_files).send("text only")
    assert sent.content == "text only"


async def test_an_edit_may_not_leave_a_message_empty(harness: Harness) -> None:
    message = await general(harness).send("hello")
    with pytest.raises(discord.HTTPException) as info:
        await message.edit(content="")
    assert (info.value.status, info.value.code) == (400, 50006)
    assert harness.fake.messages[message.id]["content"] == "hello"


async def test_an_edit_may_not_take_a_message_past_ten_attachments(
    harness: Harness, tmp_path: Path
) -> None:
    small = tmp_path / "a.txt"
    small.write_text("a")
    message = await general(harness).send(files=[discord.File(small) for _ in range(10)])
    with pytest.raises(discord.HTTPException) as info:
        await message.edit(attachments=[*message.attachments, discord.File(small)])
    assert (info.value.status, info.value.code) == (400, 50035)
    assert "attachments" in info.value.text
    assert len(harness.fake.messages[message.id]["attachments"]) == 10


async def test_a_reply_to_a_missing_message_is_refused_unless_told_not_to_fail(
    harness: Harness,
) -> None:
    channel = general(harness)
    gone = discord.MessageReference(message_id=123, channel_id=channel.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("reply", reference=gone)
    assert (info.value.status, info.value.code) == (400, 50035)
    assert "message_reference" in info.value.text
    lenient = discord.MessageReference(
        message_id=123, channel_id=channel.id, fail_if_not_exists=False
    )
    sent = await channel.send("plain", reference=lenient)
    assert sent.reference is None
    assert [r.content for r in harness.fake.created] == ["plain"]


async def test_without_embed_links_embeds_are_dropped_or_refused(harness: Harness) -> None:
    h = harness
    fake, me = h.fake, h.fake.bot_user["id"]
    fake.channels[h.world.general]["permission_overwrites"].append(
        {"id": me, "type": 1, "allow": "0", "deny": str(EMBED_LINKS)}
    )
    channel = general(h)
    sent = await channel.send("text", embed=discord.Embed(title="Sources"))
    assert sent.content == "text" and sent.embeds == []  # sent, but the embed is gone
    with pytest.raises(discord.Forbidden) as info:
        await channel.send(embed=discord.Embed(title="Sources"))
    assert info.value.code == 50013


async def test_history_is_read_as_discord_pages_it(harness: Harness) -> None:
    h = harness
    ids = [
        int(h.fake.user_message(h.world.general, h.world.alice, f"m{n}")["id"]) for n in range(5)
    ]
    after = [m.id async for m in general(h).history(limit=2, after=discord.Object(id=ids[1]))]
    assert after == [ids[2], ids[3]]  # those right after, oldest first (discord.py reverses)
    latest = [m.id async for m in general(h).history(limit=2)]
    assert latest == [ids[4], ids[3]]
    url = f"{h.fake.base_url}/channels/{h.world.general}/messages?limit=101"
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, headers={"Authorization": "Bot test-token"}) as response,
    ):
        assert response.status == 400  # at most 100 a page


async def test_history_needs_read_message_history(harness: Harness) -> None:
    h = harness
    h.fake.channels[h.world.general]["permission_overwrites"].append(
        {"id": h.fake.bot_user["id"], "type": 1, "allow": "0", "deny": str(READ_MESSAGE_HISTORY)}
    )
    with pytest.raises(discord.Forbidden):
        [m async for m in general(h).history(limit=10)]
