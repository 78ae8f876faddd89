"""An answer's own headings rank below the chat's title and its source list's heading (web).

The chat's title is an h1 on the page and an h2 in the widget; an answer's source list is headed
one level below it (h2, h3). The server renders an answer once for both, so the answer's "#" is
an h3 and deeper levels follow it down to h6. Email's answer is a document of its own and keeps
"#" as its h1.
"""

from __future__ import annotations

import re
from typing import Literal

import pytest

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer

SOURCE = Source(id="s1", title="Install guide", url="https://docs.example/install")
INSTALL = "# Install\n\n## Steps\n\nInstall the package first.[^1]"
EVERY_LEVEL = "\n\n".join(f"{'#' * n} Level {n}" for n in range(1, 7)) + "\n\nInstall it.[^1]"


def answer(text: str) -> Answer:
    return Answer(text=text, citations=(Citation(1, SOURCE, 1, quote="Install it."),))


def answer_heading_levels(markup: str) -> list[tuple[int, str]]:
    """(level, text) of each heading the answer wrote, leaving out the source list's own."""
    return [
        (int(level), text)
        for level, text in re.findall(r"<h([1-6])[^>]*>(.*?)</h\1>", markup)
        if text != "Sources"
    ]


def test_an_answers_headings_start_at_h3_on_the_web() -> None:
    html = render("web", answer(INSTALL))["html"]
    assert answer_heading_levels(html) == [(3, "Install"), (4, "Steps")]
    # the source list's heading is still the one h2 the answer holds
    assert re.findall(r"<h([1-6])[^>]*>", html).count("2") == 1


def test_deeper_headings_follow_down_to_h6_and_stay_there() -> None:
    html = render("web", answer(EVERY_LEVEL))["html"]
    assert answer_heading_levels(html) == [
        (3, "Level 1"), (4, "Level 2"), (5, "Level 3"),
        (6, "Level 4"), (6, "Level 5"), (6, "Level 6"),
    ]  # fmt: skip
    # each still reads in the direction of its own text (renderers.html_writer)
    assert len(re.findall(r'<h[3-6] dir="auto">Level', html)) == 6


@pytest.mark.parametrize("show", ["all", "none"])
def test_no_web_answer_heading_is_an_h1_or_h2_whatever_the_source_list(
    show: Literal["all", "none"],
) -> None:
    html = render("web", answer(EVERY_LEVEL), RenderContext(show=show))["html"]
    assert {level for level, _ in answer_heading_levels(html)} == {3, 4, 5, 6}


def test_a_streamed_answer_writes_the_same_levels() -> None:
    stream = StreamRenderer("web", RenderContext())
    events: list[TextDelta | CitationAdded] = [CitationAdded(answer(INSTALL).citations[0])]
    stream.feed([*events, TextDelta(INSTALL)])
    assert answer_heading_levels(stream.text()) == [(3, "Install"), (4, "Steps")]
    final = stream.finish(answer(INSTALL))
    assert answer_heading_levels(final["html"]) == [(3, "Install"), (4, "Steps")]


def test_email_keeps_the_answers_own_levels() -> None:
    html = render("email", answer(INSTALL))["html"]
    assert [level for level, _ in answer_heading_levels(html)] == [1, 2]
