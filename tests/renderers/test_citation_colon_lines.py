"""A line starting with ``[^n]:`` after any list or quote marker is a citation and its text,
never a link reference definition that drops both."""

from __future__ import annotations

import itertools

import pytest

from bot.markdown import citations_in, parse, plain_text, split_blocks
from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import CHANNELS, render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

CONTEXT = RenderContext(public_base_url="https://bot.example", turn_id="t1")


def cited(text: str, *urls: str) -> Answer:
    sources = [Source(id=f"s{n}", title=f"Guide {n}", url=u) for n, u in enumerate(urls, 1)]
    return Answer(
        text, tuple(Citation(n=n, source=s, source_number=n) for n, s in enumerate(sources, 1))
    )


# what `citecast resolve` printed for "Steps:\n1. [1]: Download\n2. [2]: Install"
STEPS = "Steps:\n1. [^1]: Download\n2. [^2]: Install"


@pytest.mark.parametrize("channel", CHANNELS)
def test_a_list_item_starting_with_a_citation_and_colon_is_kept(channel: str) -> None:
    answer = cited(STEPS, "https://docs.example/download", "https://docs.example/install")
    shown = str(render(channel, answer, CONTEXT))
    assert "Download" in shown and "Install" in shown
    assert "docs.example/download" in shown and "docs.example/install" in shown
    assert "cites no sources" not in shown


@pytest.mark.parametrize(
    "text",
    ["- [^1]: setup.exe", "> [^1]: setup.exe", "1. [^1]: setup.exe", "[^1]: setup.exe"],
)
@pytest.mark.parametrize("channel", CHANNELS)
def test_a_line_of_a_citation_and_colon_is_never_an_empty_answer(channel: str, text: str) -> None:
    shown = str(render(channel, cited(text, "https://docs.example/setup"), CONTEXT))
    assert "setup.exe" in shown and "docs.example/setup" in shown
    assert "empty answer" not in shown


@pytest.mark.parametrize(
    "text",
    [
        "[^1]: x",
        "- [^1]: x",
        "  * [^1]: x",
        "> [^1]: x",
        "> - [^1]: x",
        "3) [^1]: x",
        "1. > [^1]: x",
        "- [^1][^2]: x",
    ],
)
def test_the_parser_reads_a_citation_then_text(text: str) -> None:
    tokens = parse(text)
    assert citations_in(tokens)[:1] == [1]
    assert plain_text(_inline_leaves(tokens)).endswith(": x")


def _inline_leaves(tokens: list[dict[str, object]]) -> list[dict[str, object]]:
    """The innermost block's inline tokens (the one paragraph of these one-line texts)."""
    while tokens and isinstance(tokens[0].get("children"), list):
        children = tokens[0]["children"]
        assert isinstance(children, list)
        if not any(isinstance(c, dict) and "children" in c for c in children):
            return children
        tokens = children
    return tokens


def test_other_labels_are_still_reference_definitions() -> None:
    tokens = parse("See [the guide].\n\n[the guide]: https://docs.example/guide")
    assert tokens[0]["children"][1]["attrs"]["url"] == "https://docs.example/guide"
    # "[^0]" is no citation, so it stays a (unused) definition, as CommonMark reads it
    assert parse("[^0]: https://docs.example/") == []


def test_a_citation_colon_line_does_not_stop_the_streaming_split() -> None:
    chunks, tail = split_blocks("Intro.\n\n> [^1]: Download\n\n[^2]: Install\n\nEnd.\n")
    assert chunks == ["Intro.\n\n", "> [^1]: Download\n\n", "[^2]: Install\n\n"]
    assert tail == "End.\n"


@pytest.mark.parametrize("channel", CHANNELS)
def test_streamed_citation_colon_lines_render_as_one_shot(channel: str) -> None:
    answer = cited(
        "Steps:\n\n1. [^1]: Download\n2. [^2]: Install\n\n> [^1]: quoted\n\n[^2]: Done.",
        "https://docs.example/download",
        "https://docs.example/install",
    )
    text = answer.text
    for size in (1, 3, 7, len(text)):
        stream = StreamRenderer(channel, CONTEXT)
        stream.feed([CitationAdded(c) for c in answer.citations])
        for start, end in itertools.pairwise([*range(0, len(text), size), len(text)]):
            stream.feed([TextDelta(text[start:end])])
        assert stream.finish(answer) == render(channel, answer, CONTEXT), size
