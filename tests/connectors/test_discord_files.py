"""Cited files reach Discord, or, where Discord will not take them, their names do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.connectors.discord_send import DEFAULT_UPLOAD_LIMIT
from bot.models import Source
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.fakes.discord_access import ATTACH_FILES

__all__ = ["harness"]


def manual(tmp_path: Path, size: int = 100) -> Source:
    path = tmp_path / "manual.pdf"
    path.write_bytes(b"%PDF" + b"x" * (size - 4))
    return Source(
        id="m",
        title="Admin manual",
        path=str(path),
        filename="manual.pdf",
        media_type="application/pdf",
        kind="file",
    )


async def ask(h: Harness, channel: int, author: dict[str, Any]) -> list[dict[str, Any]]:
    """Ask in ``channel``; the bot's messages there, after checking the turn was answered."""
    question = h.fake.user_message(channel, author, "where is the manual?", mention_bot=True)
    await h.deliver(question)
    (turn,) = h.store.turns(f"discord:{channel}:{question['id']}")
    assert turn.status == "done"
    messages = h.fake.messages_in(channel)
    assert not any(m["content"].startswith("Sorry") for m in messages)
    return messages


async def test_a_dm_takes_files_only_up_to_discords_default_limit(tmp_path: Path) -> None:
    # max_file_bytes allows 40 MB (a boosted guild takes 50 MiB), but a DM has no guild
    h = await start_harness(tmp_path, max_file_bytes=40_000_000)
    try:
        h.use([manual(tmp_path, DEFAULT_UPLOAD_LIMIT + 1)], "See the manual [1].")
        (message,) = await ask(h, h.fake.open_dm(h.world.bob), h.world.bob)
        assert message["attachments"] == []
        assert "Admin manual" in message["content"] and "manual.pdf" in message["content"]
        assert h.fake.refused == []  # nothing was tried that Discord refuses
    finally:
        await stop_harness(h)


async def test_files_refused_as_too_large_still_leave_the_sources(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    h.fake.max_file_bytes = 50  # Discord's limit is below what citecast believes
    h.use([manual(tmp_path)], "See the manual [1].")
    (message,) = await ask(h, h.world.general, h.world.alice)
    assert [status for _, _, status in h.fake.refused] == [413]
    assert message["attachments"] == []
    assert "Admin manual" in message["content"] and "manual.pdf" in message["content"]
    assert "attached" not in message["content"]


async def test_without_attach_files_permission_the_sources_arrive_as_names(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    h.fake.channels[h.world.general]["permission_overwrites"].append(
        {"id": h.fake.bot_user["id"], "type": 1, "allow": "0", "deny": str(ATTACH_FILES)}
    )
    h.use([manual(tmp_path)], "See the manual [1].")
    (message,) = await ask(h, h.world.general, h.world.alice)
    assert [status for _, _, status in h.fake.refused] == [403]
    assert message["attachments"] == []
    assert "Admin manual" in message["content"] and "manual.pdf" in message["content"]
    assert "attached" not in message["content"]
