"""Rate limits, server errors, failures and streaming edits against the fake Discord."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.errors import BackendError
from bot.models import Exchange, Source, TextDelta
from tests.connectors.test_discord_harness import Harness, harness, start_harness, stop_harness
from tests.fakes.answerer import BrokenAnswerer

__all__ = ["harness"]

GUIDE = Source(id="guide", title="Install guide", url="https://docs.example.com/install")
MESSAGES = r"^/channels/\d+/messages$"


def posts(h: Harness) -> list[str]:
    return [p for m, p, _ in h.fake.requests if m == "POST" and p.endswith("/messages")]


async def ask(h: Harness) -> dict[str, Any]:
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    await h.deliver(question)
    return question


async def test_a_429_is_waited_out_by_discord_py_then_the_message_is_sent(
    harness: Harness,
) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].", chunk=100)
    h.fake.fail_next("POST", MESSAGES, 429, retry_after=0.05)
    await ask(h)
    assert len(posts(h)) == 2  # the refused one and the retry
    (message,) = h.fake.messages_in(h.world.general)
    assert "Install guide" in message["content"]


async def test_a_503_is_retried_at_the_connector_edge(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].", chunk=100)
    h.fake.fail_next("POST", MESSAGES, 503)
    h.fake.fail_next("PATCH", r"/messages/\d+$", 503)
    await ask(h)
    (message,) = h.fake.messages_in(h.world.general)
    assert "Install guide" in message["content"]
    assert len(posts(h)) == 2


async def test_a_retry_after_a_lost_answer_does_not_post_twice(harness: Harness) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].", chunk=100)
    h.fake.fail_next("POST", MESSAGES, 503, after_processing=True)
    await ask(h)
    assert len(posts(h)) == 2
    (message,) = h.fake.messages_in(h.world.general)
    assert "Install guide" in message["content"]


async def test_when_sending_keeps_failing_the_user_hears_and_the_turn_fails(
    tmp_path: Path,
) -> None:
    h = await start_harness(tmp_path, max_retries=1)
    try:
        h.use([GUIDE], "Use pip [1].", chunk=100)
        h.fake.fail_next("POST", MESSAGES, 503)
        h.fake.fail_next("POST", MESSAGES, 503)
        question = await ask(h)
        (message,) = h.fake.messages_in(h.world.general)
        assert message["content"].startswith("Sorry, I couldn't answer")
        assert message["message_reference"]["message_id"] == question["id"]
        (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
        assert turn.status == "failed"
    finally:
        await stop_harness(h)


async def test_a_failing_backend_is_reported_briefly(harness: Harness) -> None:
    h = harness
    h.connector.services.assistant = BrokenAnswerer()
    question = await ask(h)
    contents = [m["content"] for m in h.fake.messages_in(h.world.general)]
    assert contents[-1] == h.connector.settings.failure_message
    assert "backend down" not in "\n".join(contents)
    (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert turn.status == "failed"


async def test_streaming_edits_the_reply_then_adds_the_sources(harness: Harness) -> None:
    h = harness
    raw = " ".join(f"Step {i} is easy." for i in range(30)) + " See the guide [1]."
    h.use([GUIDE], raw, chunk=7)
    await ask(h)
    (message,) = h.fake.messages_in(h.world.general)
    edits = [e for e in h.fake.edits if e.message_id == int(message["id"])]
    assert len(edits) >= 2
    shown = [h.fake.created[0].content] + [e.content for e in edits]
    assert all(len(b) >= len(a) for a, b in itertools.pairwise(shown))
    assert "Install guide" not in shown[0]
    assert "**Sources**" in edits[-1].content
    assert "[Install guide](<https://docs.example.com/install>)" in edits[-1].content
    assert h.fake.deleted == []


async def test_edits_are_spaced_by_the_stream_interval(tmp_path: Path) -> None:
    h = await start_harness(tmp_path, stream_interval=60.0)
    try:
        raw = " ".join(f"Step {i} is easy." for i in range(30)) + " See the guide [1]."
        h.use([GUIDE], raw, chunk=7)
        await ask(h)
        # one early message, then only the final edit: no edit storm within the interval
        assert len(h.fake.created) == 1
        assert len(h.fake.edits) == 1
        assert "**Sources**" in h.fake.edits[0].content
    finally:
        await stop_harness(h)


class StalledAnswerer:
    """Never finishes: stands for an answer still in flight when the server stops."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise BackendError("not used")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        self.started.set()
        await asyncio.Event().wait()
        yield TextDelta("never")


async def test_stop_cancels_an_answer_in_flight_and_records_it_failed(harness: Harness) -> None:
    h = harness
    stalled = StalledAnswerer()
    h.connector.services.assistant = stalled
    question = h.fake.user_message(h.world.general, h.world.alice, "install?", mention_bot=True)
    await h.fake.dispatch("MESSAGE_CREATE", question)
    await asyncio.wait_for(stalled.started.wait(), timeout=30)
    await h.connector.stop(grace=0.01)
    (turn,) = h.store.turns(f"discord:{h.world.general}:{question['id']}")
    assert turn.status == "failed"


@pytest.mark.parametrize("scope", ["per-route", "global"])
async def test_a_429_on_the_edit_that_uploads_a_file_is_waited_out(
    harness: Harness, tmp_path: Path, scope: str
) -> None:
    h = harness
    manual = tmp_path / "manual.pdf"
    manual.write_bytes(b"%PDF-1.4 " + b"m" * 4096)
    source = Source(id="m", title="Manual", path=str(manual), filename="manual.pdf", kind="file")
    h.use([source], "See the manual [1].", chunk=100)
    # the reply is posted first, then the final edit carries the sources and the file
    h.fake.fail_next("PATCH", r"/messages/\d+$", 429, global_limit=scope == "global")
    await ask(h)
    patches = [p for m, p, _ in h.fake.requests if m == "PATCH"]
    assert len(patches) == 2  # the refused edit and discord.py's retry after retry_after
    (message,) = h.fake.messages_in(h.world.general)
    assert "attached: manual.pdf" in message["content"]
    (upload,) = [f for r in h.fake.edits for f in r.files]
    assert upload.data == manual.read_bytes()  # the retried upload is the whole file
    assert h.fake.refused == []


async def test_a_rate_limited_typing_indicator_does_not_hold_the_answer_back(
    harness: Harness,
) -> None:
    h = harness
    h.use([GUIDE], "Use pip [1].", chunk=100)
    # the typing bucket is spent for a while (many answers in one channel): the answer must
    # not wait for it; it is sent, and the typing retry is dropped with the finished answer
    h.fake.fail_next("POST", r"/typing$", 429, retry_after=30.0)
    await ask(h)
    (message,) = h.fake.messages_in(h.world.general)
    assert "Install guide" in message["content"]
    typing = [p for m, p, _ in h.fake.requests if m == "POST" and p.endswith("/typing")]
    assert len(typing) == 1  # the refused one; nothing waited 30 seconds for a retry


class ServerReply:
    """What discord.py's HTTPException reads from an aiohttp response: its status and reason."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Server Error"


@pytest.mark.parametrize(
    ("status", "calls", "tried"),
    [
        # discord.py retried these itself, out of sight: no count is claimed for them
        (500, 1, "after discord.py's own retries"),
        (502, 1, "after discord.py's own retries"),
        (501, 1, "after 1 try"),  # raised by discord.py at once, and not one to retry
        (503, 3, "after 3 tries"),
    ],
)
async def test_only_a_503_is_retried_on_top_of_discord_py(
    status: int, calls: int, tried: str
) -> None:
    from bot.config import DiscordSettings
    from bot.connectors.discord_send import with_retries
    from bot.errors import ChannelError

    made = 0

    async def operation() -> None:
        nonlocal made
        made += 1
        raise discord.DiscordServerError(ServerReply(status), "down")

    settings = DiscordSettings(max_retries=2, retry_backoff=0)
    with pytest.raises(ChannelError) as info:
        await with_retries(operation, settings, "sending")
    cause = f"{status} Server Error (error code: 0): down"
    assert str(info.value) == f"discord: sending failed {tried}: {cause}"
    assert made == calls
