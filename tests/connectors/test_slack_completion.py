"""Completing an answer shown early: a revised final answer, a final edit Slack refuses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.turn import Turn
from bot.config import Settings
from bot.grounding import GroundingPolicy, verify
from bot.models import Answer, Source
from bot.registry import SourceRegistry
from tests.connectors.slack_harness import (
    DM,
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    context_texts,
    direct_message,
    mention,
    slack_world,
)

RAM = Source(
    id="ram",
    title="Fruit guide",
    url="https://docs.example.com/fruit",
    text="Bananas are yellow and grow in tropical climates.",
)
INSTALL = Source(
    id="install",
    title="Install guide",
    url="https://docs.example.com/install",
    text="Install citecast with pip install citecast on Python 3.11 or newer.",
)


class CitingModel:
    """A model that looks both sources up, then cites the first for a claim it does not make."""

    name = "fake-model"

    async def generate(self, turn: Turn) -> AsyncIterator[str]:
        turn.registry.register(RAM)
        turn.registry.register(INSTALL)
        for piece in (
            "The server needs 64 GB of RAM [1]. ",
            "Install citecast with pip ",
            "install citecast on Python 3.11 or newer [2].",
        ):
            yield piece
            await asyncio.sleep(0)


def grounded_assistant(mode: str = "drop") -> Assistant:
    settings = Settings.model_validate({"grounding": {"policy": mode}})
    policy = GroundingPolicy.from_settings(settings.grounding)

    def ground(answer: Answer, registry: SourceRegistry) -> Answer:
        return verify(answer, registry, policy)

    return Assistant(settings, None, CitingModel(), postprocess=[ground])


def shown_text(message: dict[str, Any]) -> str:
    sections = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
    return " ".join([message["text"], *sections])


async def test_a_grounded_stream_shows_the_numbers_of_its_source_list(tmp_path: Path) -> None:
    """Grounding drops [1] and renumbers [2] after the text has been streamed.

    (Post-then-edit needs no test of its own: its final edit always shows the final render.)
    """
    async with slack_world(
        tmp_path, grounded_assistant(), streaming="native", stream_buffer_chars=8
    ) as world:
        await world.post_event(mention("how do I install?", ts="1600000000.020000"))
        fake = world.fake
        assert fake.calls_to("chat.startStream", ok_only=True)
        assert fake.calls_to("chat.update", ok_only=True)
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.020000")
        assert not message.get("streaming")
        [entry] = context_texts([message])
        assert "|[1] Install guide>" in entry
        # the fallback text and the section: the claim grounding dropped cites nothing now
        assert message["text"].startswith("The server needs 64 GB of RAM. Install")
        assert message["text"].endswith("or newer\xa0[1].")  # held to its word, as below
        [section] = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
        assert section.startswith("The server needs 64 GB of RAM. Install")
        # a no-break space keeps the number with its word (renderers.glue)
        assert f"or newer\xa0<{INSTALL.url}#" in section
        assert section.endswith("|[1]>.")
        assert "[2]" not in shown_text(message)


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_a_streamed_answer_ends_with_the_weak_marks_of_its_source_list(
    tmp_path: Path, streaming: str
) -> None:
    """Grounding marks [1] weak only once the whole answer is in: the text streamed before
    reads [1], so the final message must carry [1?] as its source list does (the README)."""
    async with slack_world(
        tmp_path, grounded_assistant("annotate"), streaming=streaming, stream_buffer_chars=8
    ) as world:
        await world.post_event(mention("how do I install?", ts="1600000000.022000"))
        [message] = world.fake.bot_messages(PUBLIC, thread_ts="1600000000.022000")
        assert not message.get("streaming")
        assert "RAM\xa0[1?]." in message["text"] and message["text"].endswith("newer\xa0[2].")
        first, second = context_texts([message])
        assert "[1?] Fruit guide" in first and "[2] Install guide" in second
        [section] = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
        assert section.startswith("The server needs 64 GB of RAM\xa0<")
        assert "|[1?]>" in section and section.endswith("|[2]>.")


@pytest.mark.parametrize("streaming", ["edit", "native"])
@pytest.mark.parametrize("failure", [{"status": 500}, {"drop": True}])
async def test_a_final_edit_slack_refuses_is_posted_anew(
    tmp_path: Path, streaming: str, failure: dict[str, Any]
) -> None:
    """Post-then-edit (also the fallback from native streaming) when the last edit fails."""
    answerer = CannedAnswerer(answer_citing(3), chunk=10)
    async with slack_world(
        tmp_path,
        answerer,
        streaming=streaming,
        stream_buffer_chars=8,
        edit_interval_seconds=1000.0,
        retry_backoff_seconds=0.0,
    ) as world:
        fake = world.fake
        fake.streaming_error = "feature_not_enabled"
        fake.fail("chat.update", times=None, **failure)
        await world.post_event(direct_message("how do I deploy?", ts="1600000000.021000"))
        assert len(fake.calls_to("chat.postMessage", ok_only=True)) == 2
        assert len(fake.calls_to("chat.delete", ok_only=True)) == 1
        [message] = fake.bot_messages(DM)
        assert message["text"] != world.connector.settings.apology
        assert "Fact 3." in shown_text(message)
        assert len(context_texts([message])) == 3
        assert any(b.get("block_id") == "citecast_feedback" for b in message["blocks"])
        turns = world.store.turns("slack:T0TEAM:D0DM:1600000000.021000")
        assert [t.status for t in turns] == ["done"]
        assert world.store.pending("slack") == []
