"""Discord limits a whole message upload, not only each file: answers stay within both.

Discord takes at most 25 MiB in one create-message request (all files and the JSON together)
besides its per-file limit (10 MiB in DMs and unboosted guilds). The fake refuses more with
413 (40005) as Discord does. Big files are made sparse (``truncate``), so they take no disk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.connectors.discord_send import (
    MAX_REQUEST_BYTES,
    REQUEST_OVERHEAD,
    file_batches,
    message_file_budget,
)
from bot.models import Source
from tests.connectors.test_discord_harness import (
    Harness,
    World,
    harness,
    start_harness,
    stop_harness,
)
from tests.fakes.discord_api import FakeDiscord

__all__ = ["harness"]

MIB = 1024 * 1024


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as out:
        out.truncate(size)
    return path


def entry(path: Path) -> dict[str, Any]:
    return {"n": 1, "path": str(path), "filename": path.name, "media_type": None}


def file_source(tmp_path: Path, k: int, size: int) -> Source:
    path = sparse(tmp_path / f"doc{k}.bin", size)
    return Source(id=f"f{k}", title=f"Doc {k}", path=str(path), filename=path.name, kind="file")


async def ask(h: Harness) -> list[dict[str, Any]]:
    """Ask in #general; the bot's messages there (oldest first), once the turn is done."""
    channel = h.world.general
    question = h.fake.user_message(channel, h.world.alice, "which documents?", mention_bot=True)
    await h.deliver(question)
    (turn,) = h.store.turns(f"discord:{channel}:{question['id']}")
    assert turn.status == "done"
    return h.fake.messages_in(channel)


def general(h: Harness) -> discord.TextChannel:
    assert h.connector.client is not None
    channel = h.connector.client.get_channel(h.world.general)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_the_fake_refuses_files_that_are_too_large_together(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    h.fake.max_request_bytes = 1000
    one, two = (sparse(tmp_path / f"{k}.bin", 600) for k in ("a", "b"))
    await general(h).send(file=discord.File(one))  # each file alone is taken
    with pytest.raises(discord.HTTPException) as info:
        await general(h).send(files=[discord.File(one), discord.File(two)])
    assert (info.value.status, info.value.code) == (413, 40005)
    assert "Request entity too large" in info.value.text


def test_a_message_carries_the_documented_request_size_or_a_boosted_files_limit() -> None:
    assert MAX_REQUEST_BYTES == 25 * MIB
    assert message_file_budget(10 * MIB) == 25 * MIB - REQUEST_OVERHEAD  # DMs, tiers 0 and 1
    assert message_file_budget(100 * MIB) == 100 * MIB - REQUEST_OVERHEAD  # boost tier 3


def test_files_are_grouped_in_order_by_count_and_by_bytes(tmp_path: Path) -> None:
    six = [entry(sparse(tmp_path / f"six{k}.bin", 6)) for k in range(3)]
    big = entry(sparse(tmp_path / "big.bin", 30))
    gone = {"n": 9, "path": str(tmp_path / "gone.bin"), "filename": "gone.bin"}
    batches = file_batches([*six, big, gone, six[0]], 12)
    assert batches == [six[:2], [six[2]], [big], [gone, six[0]]]  # a vanished file weighs 0
    small = [entry(sparse(tmp_path / f"s{k}.bin", 1)) for k in range(11)]
    assert [len(b) for b in file_batches(small, 1000)] == [10, 1]


async def test_large_files_that_fit_only_apart_all_arrive_in_further_messages(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    # each within the 10 MiB file limit, 27 MiB together: over the 25 MiB of one request
    sources = [file_source(tmp_path, k, 9 * MIB) for k in (1, 2, 3)]
    h.use(sources, "See the first [1], the second [2] and the third [3].")
    messages = await ask(h)
    assert h.fake.refused == []  # nothing was sent that Discord refuses
    requests = [r for r in h.fake.created + h.fake.edits if r.files]
    assert all(sum(len(f.data) for f in r.files) <= MAX_REQUEST_BYTES for r in requests)
    attached = sorted(a["filename"] for m in messages for a in m["attachments"])
    assert attached == ["doc1.bin", "doc2.bin", "doc3.bin"]  # every file arrived, once
    assert all(a["size"] == 9 * MIB for m in messages for a in m["attachments"])
    answer, *further = messages
    assert answer["attachments"] and further  # the files that did not fit follow the answer
    for k in (1, 2, 3):
        assert f"Doc {k} (attached: doc{k}.bin)" in answer["content"]
    for before, after in zip(messages, further, strict=False):
        assert after["message_reference"]["message_id"] == before["id"]  # a reply chain


def boosted(fake: FakeDiscord, world: World) -> dict[str, Any]:
    fake.guilds[world.guild]["premium_tier"] = 2  # 50 MiB files
    return {}


async def test_a_file_no_message_can_carry_is_named_instead(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, boosted, max_file_bytes=60 * MIB)
    try:
        # within the boost tier's 50 MiB file limit, but with the message's JSON too it would
        # be more than one request may carry
        h.use([file_source(tmp_path, 1, 50 * MIB)], "See the dump [1].")
        (message,) = await ask(h)
        assert h.fake.refused == []  # not tried and refused: decided before sending
        assert message["attachments"] == []
        assert "Doc 1" in message["content"] and "doc1.bin" in message["content"]
        assert "attached" not in message["content"]
    finally:
        await stop_harness(h)
