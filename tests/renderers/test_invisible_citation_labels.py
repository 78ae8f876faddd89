"""A link labelled like a citation plus characters that show nothing (Hangul fillers, the
braille blank) or a long run of one decoration opens only cited sources, on every channel:
a reader sees "[1]" all the same."""

from __future__ import annotations

import json
import time

import pytest

from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.link_urls import reads_like_citation

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")
SOURCE = Source(id="s1", title="Guide 1", url="https://docs.example/1")

# what follows "[1]" in a label and shows nothing: each a letter or symbol by category
BLANK_TAILS = {
    "hangul-filler": "\u3164",
    "halfwidth-filler": "\uffa0",
    "choseong-filler": "\u115f",
    "jungseong-filler": "\u1160",
    "braille-blank-46": "\u2800" * 46,
    "tag-space": "\U000e0020",
}


def rendered(label: str, url: str, channel: str) -> str:
    answer = Answer(
        f"Claim [{label}]({url}) end.[^1]", (Citation(n=1, source=SOURCE, source_number=1),)
    )
    return json.dumps(render(channel, answer, CONTEXT), ensure_ascii=False)


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("tail", BLANK_TAILS.values(), ids=BLANK_TAILS.keys())
def test_a_citation_label_with_a_blank_tail_never_opens_another_page(
    channel: str, tail: str
) -> None:
    payload = rendered(f"\\[1\\]{tail}", "https://evil.example/x", channel)
    assert "evil.example" not in payload, payload


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_citation_label_with_a_blank_tail_may_open_its_cited_source(channel: str) -> None:
    payload = rendered("\\[1\\]\u3164", "https://docs.example/1#page=2", channel)
    assert "https://docs.example/1#page=2" in payload, payload


@pytest.mark.parametrize(
    "label",
    ["[1]\u3164", "\u3164[1]", "[1\uffa0]", "[1]" + "\u2800" * 46, "[1]" + "!" * 60,
     "[1" + "." * 60 + "]", "*" * 30 + "[1]" + "*" * 30],
)  # fmt: skip
def test_labels_padded_with_blanks_or_repeats_read_like_citations(label: str) -> None:
    assert reads_like_citation(label)


@pytest.mark.parametrize("label", ["[1]\u3164guide", "[1] \u2800 guide", "[1.2]" + "!" * 60])
def test_a_padded_label_with_words_or_a_section_number_does_not(label: str) -> None:
    assert not reads_like_citation(label)


def test_a_label_of_long_repeats_is_read_in_linear_time() -> None:
    labels = ["[1]" + "!" * 200_000, "[1]" + "!?" * 100_000, "[1]" + "\u3164" * 200_000]
    start = time.perf_counter()
    for label in labels:
        reads_like_citation(label)
    assert time.perf_counter() - start < 0.5
