"""The note citecast ends a cut-off model answer with is its own words: under an
``assistant.language`` other than English, the web and email HTML mark its paragraph
``lang="en"`` inside the answer's ``lang="de"``, streamed or not; the answer's own paragraphs,
and answers without a language or in English, are left as they were."""

from __future__ import annotations

import pytest

from bot.models import Answer, TextDelta
from bot.own_notes import CUT_NOTES
from renderers import render
from renderers.base import RenderContext
from renderers.streaming import StreamRenderer
from tests.connectors.web.conftest import cited_answer, passage

NOTE = "<em>(The answer was cut off here: the model reached its length limit.)</em></p>"
FILTERED = "<em>(The answer was cut off here by the model's content filter.)</em></p>"


def cut_answer(note: str = CUT_NOTES["length"]) -> Answer:
    return cited_answer(passage(1), text=f"Erstens.[^1]\n\nZweitens\n\n{note}\n")


@pytest.mark.parametrize(
    ("channel", "style"), [("web", ""), ("email", ' style="margin:0 0 12px;"')]
)
def test_the_cut_note_is_marked_english_in_a_german_answer(channel: str, style: str) -> None:
    html = render(channel, cut_answer(), RenderContext(language="de"))["html"]
    assert f'<p dir="auto" lang="en"{style}>{NOTE}' in html
    assert f'<p dir="auto"{style}>Zweitens</p>' in html  # the answer's own words keep "de"


def test_the_content_filter_note_is_marked_and_english_answers_are_not() -> None:
    answer = cut_answer(CUT_NOTES["content_filter"])
    german = render("web", answer, RenderContext(language="de-AT"))["html"]
    assert f'<p dir="auto" lang="en">{FILTERED}' in german
    for context in (RenderContext(), RenderContext(language="en-GB")):
        assert f'<p dir="auto">{FILTERED}' in render("web", answer, context)["html"]


def test_a_streamed_web_answer_marks_the_note_as_its_final_render_does() -> None:
    answer = cut_answer()
    renderer = StreamRenderer("web", RenderContext(language="de"), tail_growth=1.25)
    shown = ""  # the blocks appended, then the open last block as last drawn
    tail = ""
    for at in range(0, len(answer.text), 7):
        update = renderer.feed([TextDelta(answer.text[at : at + 7])])
        shown += update.appended
        tail = tail if update.tail is None else update.tail
    assert f'<p dir="auto" lang="en">{NOTE}' in shown + tail
    assert f'<p dir="auto" lang="en">{NOTE}' in renderer.finish(answer)["html"]
