"""Slack marks a citation weak (``[1?]``) below ``grounding.threshold``, streamed or not.

Found in a config-key audit: the connector rendered with ``RenderContext``'s own 0.35 whatever
``grounding.threshold`` said (support 0.49 showed ``[1]`` at threshold 0.6), and the presenter
judged with that 0.35 too whether a streamed answer's final message must be redrawn to show
its weak marks.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import tests.connectors.slack_harness as harness
from bot.assistant.base import ReplyEvent
from bot.config import GroundingSettings, Settings
from bot.models import Answer, CitationAdded, Exchange
from tests.connectors.slack_harness import PUBLIC, CannedAnswerer, answer_citing, mention

TS = "1600000000.031000"


def with_threshold(monkeypatch: pytest.MonkeyPatch, threshold: float) -> None:
    """The harness's deployment with ``grounding.threshold: threshold``."""

    def settings(**sections: Any) -> Settings:
        return Settings(grounding=GroundingSettings(threshold=threshold), **sections)

    monkeypatch.setattr(harness, "Settings", settings)


def supported(support: float) -> Answer:
    answer = answer_citing(1, text="The service restarts on its own.[^1]")
    [citation] = answer.citations
    return replace(answer, citations=(replace(citation, support=support),))


class GroundedLast(CannedAnswerer):
    """Streams its answer's citations without a support score, as the resolver announces them:
    the score arrives with the final reply only (grounding judges the whole answer)."""

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        async for event in super().stream(question, audience, history):
            if isinstance(event, CitationAdded):
                event = CitationAdded(replace(event.citation, support=None))
            yield event


def shown(world: harness.SlackWorld) -> str:
    [message] = world.fake.bot_messages(PUBLIC, thread_ts=TS)
    sections = [b["text"]["text"] for b in message["blocks"] if b["type"] == "section"]
    return " ".join([message["text"], *sections, *harness.context_texts([message])])


@pytest.mark.parametrize(
    ("threshold", "support", "weak"),
    [(0.6, 0.49, True), (0.1, 0.2, False), (0.35, 0.34, True), (0.35, 0.35, False)],
)
async def test_a_posted_answer_is_weak_below_the_configured_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: float, support: float, weak: bool
) -> None:
    with_threshold(monkeypatch, threshold)
    async with harness.slack_world(tmp_path, CannedAnswerer(supported(support))) as world:
        await world.post_event(mention("does it restart?", ts=TS))
        text = shown(world)
    assert ("[1?]" in text) is weak, text
    assert ("[1]" in text) is not weak, text


@pytest.mark.parametrize("streaming", ["native", "edit"])
async def test_a_streamed_answer_ends_weak_below_a_raised_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, streaming: str
) -> None:
    """The text streamed before the verdict reads [1]; the final message must say [1?]."""
    with_threshold(monkeypatch, 0.6)
    answerer = GroundedLast(supported(0.49), chunk=8)
    async with harness.slack_world(
        tmp_path, answerer, streaming=streaming, stream_buffer_chars=8
    ) as world:
        await world.post_event(mention("does it restart?", ts=TS))
        text = shown(world)
    assert "own.[1?]" in text and "|[1?]>" in text, text
    assert "[1]" not in text, text
