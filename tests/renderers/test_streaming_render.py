"""Streaming render: the final payload equals a one-shot render whatever the split, and each
completed block is rendered once."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.markdown import parse, split_blocks
from bot.models import Answer, CitationAdded, TextDelta
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

ANSWERS = {
    p.stem: Answer.from_json(json.loads(p.read_text("utf-8")))
    for p in sorted((Path(__file__).parent / "answers").glob("*.json"))
}
CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")


def events_for(answer: Answer, cuts: list[int]) -> list[TextDelta | CitationAdded]:
    """Citations first (the resolver emits each before the text using it), then text pieces."""
    events: list[TextDelta | CitationAdded] = [CitationAdded(c) for c in answer.citations]
    bounds = sorted({0, len(answer.text), *(c % (len(answer.text) + 1) for c in cuts)})
    events += [TextDelta(answer.text[a:b]) for a, b in itertools.pairwise(bounds)]
    return events


@settings(max_examples=60)
@given(
    name=st.sampled_from(sorted(ANSWERS)),
    channel=st.sampled_from(CHANNELS),
    cuts=st.lists(st.integers(0, 20_000), max_size=40),
)
def test_final_payload_equals_one_shot_render(name: str, channel: str, cuts: list[int]) -> None:
    answer = ANSWERS[name]
    stream = StreamRenderer(channel, CONTEXT)
    for event in events_for(answer, cuts):
        stream.feed([event])
    assert stream.finish(answer) == render(channel, answer, CONTEXT)


@pytest.mark.parametrize("channel", ["web", "slack", "discord"])
def test_every_block_is_rendered_once_in_order(channel: str) -> None:
    answer = ANSWERS["quotes_and_headings"]
    stream = StreamRenderer(channel, CONTEXT)
    stream.feed([CitationAdded(c) for c in answer.citations])
    appended: list[str] = []
    for i in range(0, len(answer.text), 4):
        update = stream.feed([TextDelta(answer.text[i : i + 4])])
        if update.appended:
            appended.append(update.appended)
    chunks, _tail = split_blocks(answer.text)
    blocks = sum(len(parse(c)) for c in chunks)
    assert len("\n".join(appended).split("\n")) >= blocks > 3
    assert stream.finish(answer) == render(channel, answer, CONTEXT)


def test_open_tail_is_rerendered_geometrically_not_per_event() -> None:
    text = "A long paragraph that keeps growing " * 120
    assert StreamRenderer("slack").feed([TextDelta(text)]).tail is None  # on demand by default
    stream = StreamRenderer("slack", tail_growth=1.5)
    tails = [
        u.tail
        for i in range(0, len(text), 4)
        if (u := stream.feed([TextDelta(text[i : i + 4])])).tail is not None
    ]
    assert len(text) // 4 > 1000
    assert 5 < len(tails) < 25
    assert tails[-1].startswith("A long paragraph")
    assert stream.preview() == stream.text()


def test_web_fragments_are_sanitized_and_discord_contents_fit() -> None:
    text = "<img src=x onerror=alert(1)>\n\n" + ("word " * 300 + "\n\n") * 10
    stream = StreamRenderer("web")
    update = stream.feed([TextDelta(text)])
    assert "<img" not in update.appended and "&lt;img src=x onerror" in update.appended
    discord = StreamRenderer("discord")
    discord.feed([TextDelta(text)])
    contents = discord.discord_contents()
    assert len(contents) > 1 and all(len(c) <= 2000 for c in contents)


def test_finish_falls_back_to_a_full_render_when_the_stream_differs() -> None:
    answer = ANSWERS["single_citation"]
    stream = StreamRenderer("slack")
    stream.feed([TextDelta("Something else entirely.\n\nMore.\n\n")])
    assert stream.finish(answer) == render("slack", answer)


def test_streaming_renderer_rejects_unknown_channel() -> None:
    from bot.errors import RenderError

    with pytest.raises(RenderError, match="unknown channel"):
        StreamRenderer("teams")


def test_completed_block_update_carries_the_new_tail_when_tails_are_on() -> None:
    stream = StreamRenderer("discord", tail_growth=2.0)
    stream.feed([TextDelta("First paragraph here, long enough.")])
    update = stream.feed([TextDelta("\n\nSecond")])
    assert update.appended == ""  # "Second" has no newline yet: the first block may continue
    update = stream.feed([TextDelta(" block\n")])
    assert update.appended == "First paragraph here, long enough."
    assert update.tail == "Second block"
