"""Splitting a long answer keeps each citation in the message or post of the text it cites.

A paragraph longer than a message is cut at a sentence end; the cut used to fall between a
sentence and its marker ("done. [^1]") or, for "done.[^1]", mid-sentence at a space, so a
sentence arrived uncited and the next message opened with its marker.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import render
from renderers.base import RenderContext, capabilities_for
from renderers.limits import split_long
from renderers.streaming import StreamRenderer
from tests.renderers.payload_checks import check_discord, check_discourse, check_slack

SOURCES = tuple(
    Citation(n, Source(id=f"s{n}", title=f"Article {n}", url=f"https://kb.example/{n}"), n)
    for n in (1, 2, 3)
)
FILLER = " ".join(f"word{j}" for j in range(40))
# how a sentence "... end{i}" carries marker n: after its full stop, or before it, with or
# without a space
STYLES = {
    "after the stop": "start{i} {filler} end{i}.[^{n}]",
    "space then stop": "start{i} {filler} end{i} [^{n}].",
    "then the stop": "start{i} {filler} end{i}[^{n}].",
    "after the stop and a space": "start{i} {filler} end{i}. [^{n}]",
}
# each channel's rendered marker for citation n
RENDERED = {
    "discord": lambda n: re.escape(f"\\[{n}\\]"),
    "discourse": lambda n: re.escape(f"[^{n}]"),
    "slack": lambda n: re.escape(f"<https://kb.example/{n}|[{n}]>"),
}


def number(i: int) -> int:
    return i % 3 + 1


def paragraph(style: str, sentences: int) -> str:
    template = STYLES[style]
    return " ".join(template.format(i=i, filler=FILLER, n=number(i)) for i in range(sentences))


def pieces(channel: str, payload: dict[str, Any]) -> list[str]:
    """The answer text of each message, post or Slack section, as the reader gets it."""
    if channel == "discord":
        return [m["content"] for m in payload["messages"]]
    if channel == "discourse":
        return [payload["raw"], *payload.get("continued", [])]
    return [
        block["text"]["text"]
        for message in payload["messages"]
        for block in message["blocks"]
        if block["type"] == "section"
    ]


def assert_each_sentence_whole_with_its_marker(
    channel: str, texts: list[str], sentences: int
) -> None:
    for i in range(sentences):
        # the space before a marker is a no-break one (renderers.glue)
        cited = re.compile(rf"\bstart{i} .*\bend{i}\.?\u00a0?{RENDERED[channel](number(i))}")
        holding = [t for t in texts if re.search(rf"\bend{i}\b", t)]
        assert len(holding) == 1, f"sentence {i} is in {len(holding)} pieces"
        assert cited.search(holding[0]), f"sentence {i} arrives without its marker"
    marker_first = re.compile(rf"\s*(?:{'|'.join(RENDERED[channel](n) for n in (1, 2, 3))})")
    assert not [t for t in texts if marker_first.match(t)]


@pytest.mark.parametrize("style", sorted(STYLES))
def test_discord_messages_keep_each_sentence_with_its_citation(style: str) -> None:
    answer = Answer(text=paragraph(style, 40), citations=SOURCES)
    payload = render("discord", answer)
    check_discord(payload)
    texts = pieces("discord", payload)
    assert len(texts) > 4
    assert_each_sentence_whole_with_its_marker("discord", texts, 40)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_discourse_posts_keep_each_sentence_with_its_citation(style: str) -> None:
    caps = capabilities_for("discourse", {"max_chars": 3000})
    answer = Answer(text=paragraph(style, 40), citations=SOURCES)
    payload = render("discourse", answer, RenderContext(capabilities=caps))
    check_discourse(payload, limit=3000)
    texts = pieces("discourse", payload)
    assert len(texts) > 3
    assert_each_sentence_whole_with_its_marker("discourse", texts, 40)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_slack_sections_keep_each_sentence_with_its_citation(style: str) -> None:
    answer = Answer(text=paragraph(style, 40), citations=SOURCES)
    payload = render("slack", answer)
    check_slack(payload)
    texts = pieces("slack", payload)
    assert len(texts) > 3
    assert_each_sentence_whole_with_its_marker("slack", texts, 40)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_streamed_discord_messages_keep_each_sentence_with_its_citation(style: str) -> None:
    answer = Answer(text=paragraph(style, 40), citations=SOURCES)
    stream = StreamRenderer("discord", RenderContext())
    stream.feed([CitationAdded(c) for c in SOURCES])
    for start in range(0, len(answer.text), 97):
        stream.feed([TextDelta(answer.text[start : start + 97])])
    contents = stream.discord_contents()
    assert len(contents) > 4
    assert all(len(content) <= 2000 for content in contents)
    assert_each_sentence_whole_with_its_marker("discord", contents, 40)


@pytest.mark.parametrize(
    "mark", ["\\[12\\]", "\\[12?\\]", "[^12]", "[^12]?", "[12]", "<https://kb.example/12|[12]>"]
)
def test_a_cut_with_no_space_to_fall_at_never_goes_through_a_marker(mark: str) -> None:
    text = "x" * 57 + mark + "y" * 120
    for limit in range(40, 70):
        parts = split_long(text, limit)
        assert "".join(parts) == text
        assert all(len(part) <= limit for part in parts)
        assert sum(mark in part for part in parts) == 1, (limit, parts)


@pytest.mark.parametrize("mark", ["\\[1\\]", "\\[1?\\]", "[^1]", "[^1]?", "[1]"])
def test_a_sentence_cut_at_a_space_keeps_its_marker_before_its_stop(mark: str) -> None:
    # one long sentence, "… end [^1]." then more: with no sentence end to cut at, the cut
    # falls at a space, and must not fall at the one before the marker
    for pad in range(6):  # shifts where each cut falls against the marker
        text = "z" * pad + " alpha" * 30 + f" end {mark}. " + " ".join(["beta"] * 30)
        for limit in range(40, 190):
            parts = split_long(text, limit)
            assert all(len(part) <= limit for part in parts)
            assert [part for part in parts if mark in part and f"end {mark}" not in part] == []


CJK_SENTENCE = (
    "第{i}句说明网关会缓存它见过的每一条策略所以重启后状态仍然保留并且可以继续工作。[^{n}]"
)


@pytest.mark.parametrize("channel", ["discord", "discourse"])
def test_an_answer_without_spaces_splits_after_a_full_width_stop_and_its_marker(
    channel: str,
) -> None:
    # Chinese and Japanese put no space after a sentence: the cut fell at the limit, inside a
    # sentence (and could fall just before its marker)
    text = "".join(CJK_SENTENCE.format(i=i, n=number(i)) for i in range(120))
    caps = capabilities_for(channel, {"max_chars": 1500})
    payload = render(
        channel, Answer(text=text, citations=SOURCES), RenderContext(capabilities=caps)
    )
    texts = pieces(channel, payload)
    assert len(texts) > 3
    assert all(len(t) <= 1500 for t in texts)
    for i in range(120):
        rendered = RENDERED[channel](number(i))
        cited = re.compile(rf"(?<!\d)第{i}句说明[^。]*。{rendered}")
        assert [t for t in texts if cited.search(t)], f"sentence {i} is cut or uncited"
