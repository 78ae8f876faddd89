"""A PDF sentence joined across a page edge ends where the answerer and the claim splitter end
it (bot.sentence_rules): a capital letter's full stop before "The" ends it, "Dr." and a German
date's ordinal do not, whatever their case."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.knowledge.pdf_page_edges import first_sentence, join_sentences
from bot.knowledge.readers import read_document
from tests.knowledge.test_knowledge_pdf_layout import lines_pdf

GARAGE = "The garage opens at six in the morning and closes at ten at night."


def test_only_the_lot_moves_to_the_page_before() -> None:
    # the garage sentence was glued to "lot B." ("B." read as an initial, in any case) and
    # moved to page 1, where its page link opened on the wrong page
    pages = [[("Visitors park in", False)], [(f"lot B. {GARAGE}", False)]]
    assert join_sentences(pages) == [[("Visitors park in lot B.", False)], [(GARAGE, False)]]


def test_a_read_pdf_cites_the_garage_on_its_own_page() -> None:
    pdf = lines_pdf([["Parking", "Visitors park in"], [f"lot B. {GARAGE}"]])
    doc = read_document(Path("parking.pdf"), pdf)
    assert [(b.page, b.text) for b in doc.blocks] == [
        (1, "Visitors park in lot B."),
        (2, GARAGE),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("am 3. Oktober statt. Das Portal ist zu.", ("am 3. Oktober statt.", "Das Portal ist zu.")),
        (
            "Dr. Weber in the IT department. Then more.",
            ("Dr. Weber in the IT department.", "Then more."),
        ),
        ("at 16 h. Le bureau ferme.", ("at 16 h.", "Le bureau ferme.")),
        ("after 500 ms. The retry starts.", ("after 500 ms.", "The retry starts.")),
        ("as shown on p. 12. Then more.", ("as shown on p. 12.", "Then more.")),
    ],
)
def test_where_the_rest_of_the_sentence_ends(text: str, expected: tuple[str, str]) -> None:
    assert first_sentence(text) == expected
