"""The "File not found" and "Answer not found" pages name their message for what it is.

Found in an accessibility pass: the pages share the shared answer's layout, whose box is an
``<article aria-label="Answer">``, so a screen reader announced an "Answer" article holding a
file error.
"""

from __future__ import annotations

import re

import pytest

from bot.connectors.web_turn_page import missing_file_page, missing_page, turn_page

LABELLED = re.compile(r'<(\w+) class="cc-answer" aria-label="([^"]*)">')


@pytest.mark.parametrize(
    ("page", "what"),
    [(missing_file_page(), "File not found"), (missing_page(), "Answer not found")],
    ids=["file", "answer"],
)
def test_a_not_found_pages_message_is_labelled_for_what_it_is(page: str, what: str) -> None:
    assert LABELLED.findall(page) == [("section", what)]
    assert "<article" not in page
    assert 'aria-label="Answer"' not in page


def test_the_shared_answer_is_still_an_answer_article() -> None:
    page = turn_page('<div class="answer"><p>Restart it.</p></div>')
    assert LABELLED.findall(page) == [("article", "Answer")]
