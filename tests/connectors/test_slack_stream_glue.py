"""Slack's native streaming holds a citation with its word as the rendered message does.

The renderers write a no-break space before ``[n]`` (renderers.glue); the stream wrote its own
``works [1]`` with an ordinary space, so the number could open a line alone while streaming and
in the finished message (a native stream's text is what was streamed).
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as st

from bot.connectors.slack_text import StreamMarkdown, to_stream_markdown
from bot.models import Answer, Citation, Source
from renderers import render
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    answer_citing,
    mention,
    slack_world,
)

NBSP = "\u00a0"
TEXT = (
    "It works [^1]. Download it from https://get.example/dl [^2] today. "
    "It is **fast** [^1] and *small* [^2]; sources agree [^1] [^2]."
)
GLUED_MARKER = re.compile("\u00a0\\[\\d+\\]")


def streamed(calls: list[dict[str, object]]) -> str:
    text = ""
    for args in calls:
        text += str(args.get("markdown_text") or "")
        for chunk in args.get("chunks") or []:  # type: ignore[attr-defined]
            text += chunk.get("text", "")
    return text


def assert_glued_as_rendered(text: str) -> None:
    text = re.sub(r"\[(\[\d+\])\]\([^)]*\)", r"\1", text)  # a marker's link: its number
    assert f"works{NBSP}[1]." in text
    assert "https://get.example/dl [2]" in text  # link detection must not take the marker
    assert "**fast** [1]" in text  # Slack ends bold only before an ordinary space
    assert "*small* [2]" in text
    assert f"agree{NBSP}[1] [2]." in text  # only the first of several markers
    assert "works [1]" not in text


async def test_the_stream_and_the_finished_message_hold_the_number_with_its_word(
    tmp_path: Path,
) -> None:
    # three characters a delta: the space and the marker arrive in different deltas
    answerer = CannedAnswerer(answer_citing(2, TEXT), chunk=3)
    async with slack_world(tmp_path, answerer, streaming="native", stream_buffer_chars=4) as world:
        await world.post_event(mention("does it work?", ts="1600000000.031000"))
        fake = world.fake
        calls = [
            c.args
            for method in ("chat.startStream", "chat.appendStream", "chat.stopStream")
            for c in fake.calls_to(method, ok_only=True)
        ]
        assert len(fake.calls_to("chat.appendStream", ok_only=True)) >= 2
        assert_glued_as_rendered(streamed(calls))
        [message] = fake.bot_messages(PUBLIC, thread_ts="1600000000.031000")
        assert message["streaming"] is False
        assert fake.calls_to("chat.update") == []  # the streamed text is the final text
        assert_glued_as_rendered(message["text"])


SOURCES = tuple(
    Citation(n, Source(id=f"s{n}", title=f"Notes {n}", path=f"kb/{n}.md", filename=f"{n}.md"), n)
    for n in (1, 2)
)
ATOMS = [
    "works", "x.", "a", "(see)", "snake_case", "&amp;", "https://x.example/dl", "www.x.example",
    "**bold**", "*it*", "_it_", "~~old~~", "`code`", "[the guide](/setup)",
    "[^1]", "[^2]", " ", "  ", "\n", "\n\n",
]  # fmt: skip


def test_an_underscore_inside_a_word_is_text_and_glued_as_the_renderer_glues() -> None:
    # "works_it_" is plain text to CommonMark (an intra-word underscore opens no emphasis)
    assert to_stream_markdown("It works_it_ [^1].") == "It works_it_\xa0[1]."
    assert to_stream_markdown("It (_works_ [^1]).") == "It (_works_ [1])."


def is_word(atom: str) -> bool:
    return bool(atom.strip()) and not atom.startswith("[^")


@given(atoms=st.lists(st.sampled_from(ATOMS), min_size=1, max_size=14))
def test_the_stream_glues_the_markers_the_slack_renderer_glues(atoms: list[str]) -> None:
    # Words written into one another ("https://x.example/dl**bold**works") are read by the
    # parser token by token but by the stream as one word; answers do not write them.
    assume(not any(is_word(a) and is_word(b) for a, b in pairwise(atoms)))
    # no indented code: the resolver never leaves a marker in code
    text = "\n".join(line.lstrip(" ") for line in "".join(atoms).split("\n"))
    answer = Answer(text=text, citations=tuple(c for c in SOURCES if f"[^{c.n}]" in text))
    payload = render("slack", answer)
    sections = [
        b["text"]["text"]
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]
    rendered = len(GLUED_MARKER.findall("\n".join(sections)))
    stream = StreamMarkdown()
    shown = "".join(stream.feed(text[i : i + 2]) for i in range(0, len(text), 2)) + stream.flush()
    assert shown == to_stream_markdown(text)
    assert len(GLUED_MARKER.findall(shown)) == rendered
