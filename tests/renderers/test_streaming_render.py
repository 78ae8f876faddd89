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


@settings(max_examples=60)
@given(
    name=st.sampled_from(sorted(ANSWERS)),
    channel=st.sampled_from(CHANNELS),
    cuts=st.lists(st.integers(0, 20_000), max_size=40),
    places=st.lists(st.integers(0, 60), max_size=60),
)
def test_citations_arriving_after_their_text_still_render_as_one_shot(
    name: str, channel: str, cuts: list[int], places: list[int]
) -> None:
    """The resolver sends each citation before the text that uses it; a caller that does not
    must still get the one-shot payload (a block rendered before its citation arrived had
    lost its marker, and finish reused it)."""
    answer = ANSWERS[name]
    events: list[TextDelta | CitationAdded] = [
        e for e in events_for(answer, cuts) if isinstance(e, TextDelta)
    ]
    for citation, place in zip(answer.citations, places + [len(events)] * 60, strict=False):
        events.insert(min(place, len(events)), CitationAdded(citation))
    stream = StreamRenderer(channel, CONTEXT)
    for event in events:
        stream.feed([event])
    assert stream.finish(answer) == render(channel, answer, CONTEXT)


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_citation_after_its_closed_paragraph_is_not_lost(channel: str) -> None:
    one = ANSWERS["single_citation"]
    answer = Answer(one.text + "\n\nThat is all.\n\nThank you.", one.citations)
    stream = StreamRenderer(channel, CONTEXT)
    # the first paragraph completes (and is rendered) before its source arrives
    assert stream.feed([TextDelta(answer.text)]).appended
    stream.feed([CitationAdded(c) for c in answer.citations])
    assert stream.finish(answer) == render(channel, answer, CONTEXT)


# Fence-like lines that are not fences (or not closing ones), and lines that only look blank:
# the splitter used to disagree with the parser about them, and the stream then showed prose
# as code, with a raw [^2] and source 2 missing from its list.
TRICKY_BLOCKS = {
    "fence indented four spaces": (
        "To nest code in a list item, indent it:[^1]\n\n```markdown\n1. Install it:\n\n"
        "    ```sh\n    pip install citecast\n    ```\n\nThen run `citecast serve`.\n```\n\n"
        "That is all you need.[^2]\n"
    ),
    "backticks in a fence's info string": (
        "First install it:[^1]\n\n```pip install citecast``` installs the package.\n\n"
        "Example config:\n\n```\nweb:\n  port: 8000\n\nslack:\n  enabled: true\n```\n\n"
        "Then restart the service.[^2]\n"
    ),
    "fence inside an HTML block": (
        "<details><summary>Logs</summary>\n```\nerror: x\n\nmore\n```\n</details>\n\n"
        "That fixes it.[^1]\n\nAnd this too.[^2]\n"
    ),
    "a line of no-break space": "First para.[^1]\n\u00a0\nSecond para.[^2]\n",
    "a line of ideographic space": "First para.[^1]\n\u3000\n\nSecond para.[^2]\n",
    "an escaped bracket in a reference label": (
        "See [the guide][a\\]b].[^1]\n\nMore text.[^2]\n\n[a\\]b]: https://kb.example/g\n"
    ),
}


@pytest.mark.parametrize("name", sorted(TRICKY_BLOCKS))
@pytest.mark.parametrize("channel", ["web", "slack", "discord"])
def test_fence_and_blank_line_look_alikes_stream_as_they_render(name: str, channel: str) -> None:
    citations = ANSWERS["fifteen_citations"].citations[:2]
    answer = Answer(text=TRICKY_BLOCKS[name], citations=citations)
    expected = render(channel, answer, CONTEXT)
    for size in (1, 4, 7):
        stream = StreamRenderer(channel, CONTEXT)
        cuts = list(range(size, len(answer.text), size))
        for event in events_for(answer, cuts):
            stream.feed([event])
        assert stream.finish(answer) == expected, size


# lines that open, close, continue or interrupt blocks, to be shuffled into any order (no block
# quote: mistune 3.4 orders a quote lazily continued by list items differently in a longer
# document, whatever the split)
TRICKY_LINES = [
    "", "", "", " \u00a0", "\t", "Plain prose.[^1]", "More prose.[^2]", "```", "```sh", "~~~",
    "   ```", "    ```", "````", "```a` b", "- item[^1]", "1. step", "   indented", "    code",
    "<div>", "</div>", "<details><summary>s</summary>", "<span>x</span>",
    "<!-- note -->", "# Heading[^1]", "Setext", "===", "| a | b |", "|---|---|", "[r]: https://x.y",
]  # fmt: skip


@settings(max_examples=150)
@given(
    lines=st.lists(st.sampled_from(TRICKY_LINES), max_size=24),
    channel=st.sampled_from(["web", "slack", "discord"]),
    size=st.integers(1, 9),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_any_mix_of_block_openers_streams_as_it_renders(
    lines: list[str], channel: str, size: int, newline: str
) -> None:
    citations = ANSWERS["fifteen_citations"].citations[:2]
    answer = Answer(text=newline.join(lines) + newline, citations=citations)
    stream = StreamRenderer(channel, CONTEXT)
    for event in events_for(answer, list(range(size, len(answer.text), size))):
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
