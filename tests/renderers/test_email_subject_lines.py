"""The subject of an answer mail: the first line of the answer that has words.

It showed a quote's "> " ("> Quoted first"), and an answer opening with a rule or a heading made
only of citation markers got the bare "Your answer" although words followed.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Citation, Source
from renderers import render

GUIDE = Citation(1, Source(id="g", title="Guide", url="https://docs.example/g"), 1)


def subject(text: str) -> str:
    return str(render("email", Answer(text=text, citations=(GUIDE,)))["subject"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("> The handbook says leave is paid [^1].\n\nSo yes.", "The handbook says leave is paid."),
        ("> > Nested quote [^1]", "Nested quote"),
        ("---\n\nAfter a rule [^1].", "After a rule."),
        ("# [^1]\n\nThe words [^1].", "The words."),
        # unchanged: the first line with words, a code line as written
        ("# Install it [^1]\n\nBody.", "Install it"),
        ("```\n>>> import citecast\n```\n\nThen [^1].", ">>> import citecast"),
        ("[^1]", "Your answer"),
    ],
)
def test_the_subject_is_the_first_line_with_words(text: str, expected: str) -> None:
    assert subject(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a subject shows no markup: code spans lose their backticks, as bold loses its stars
        ("Install it with `pip install citecast`.[^1]", "Install it with pip install citecast."),
        ("**Run** `citecast serve` *now* [^1].", "Run citecast serve now."),
        ("Use ``a `b` c`` here [^1].", "Use a `b` c here."),
        ("`` ` `` is a backtick [^1]", "` is a backtick"),
        # a citation's number or a dash inside code is the code's own
        ("Read `arr[1]` first [^1].", "Read arr[1] first."),
        ("`--verbose` prints more [^1]", "--verbose prints more"),
        ("# `#` starts a comment [^1]", "# starts a comment"),
        # a backtick shown as text pairs with nothing and stays
        ("A \\` is a backtick [^1].", "A ` is a backtick."),
    ],
)
def test_the_subject_shows_code_without_its_backticks(text: str, expected: str) -> None:
    assert subject(text) == expected


ROW = Citation(1, Source(id="cc", title="citecast Community", url="https://docs.example/cc"), 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a table's header or a list's row of data names no mail: the prose after it does
        (
            "| Plan | Price |\n|---|---|\n| Team | 19 [^1] |\n\nPrices exclude VAT.",
            "Prices exclude VAT.",
        ),
        (
            "- citecast Community (CC-FREE): Tier: free; Price (USD): 0 [^1]\n\n## Plans\n\nMore.",
            "Plans",
        ),
        ("1. Install it [^1]\n2. Run it\n\nThat is all.", "That is all."),
        # prose before a table is the subject, as it always was
        ("Plans by region [^1]:\n\n| a | b |\n|---|---|\n| 1 | 2 |", "Plans by region:"),
        # nothing but rows: no row of data for a subject
        ("| Plan | Price |\n|---|---|\n| Team | 19 [^1] |", "Your answer"),
        ("- citecast Community (CC-FREE): Tier: free; Price (USD): 0 [^1]", "Your answer"),
    ],
)
def test_a_table_or_list_row_is_not_the_subject(text: str, expected: str) -> None:
    assert str(render("email", Answer(text=text, citations=(ROW,)))["subject"]) == expected


def test_a_given_subject_still_wins_over_the_answer() -> None:
    from renderers.base import RenderContext

    answer = Answer(text="| Plan | Price |\n|---|---|\n| Team | 19 [^1] |", citations=(ROW,))
    context = RenderContext(subject="What does the Team plan cost?")
    assert render("email", answer, context)["subject"] == "What does the Team plan cost?"
