"""A short PDF line with nothing under it on its page is text, and a heading opening a page
stays a heading above a sentence in lower case (bot/knowledge/pdf_reader.py ``paragraphs``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.pdf_reader import paragraphs
from bot.knowledge.readers import read_document
from tests.knowledge.conftest import PdfBuilder
from tests.knowledge.test_knowledge_pdf_layout import lines_pdf

DELIVERIES = (
    "Deliveries arrive at the loading dock every morning between six and eight, and the shift "
    "lead signs every delivery note before the driver leaves the yard."
)
FREEZER = (
    "The walk-in freezer is kept at minus eighteen degrees, and the temperature is written in "
    "the log twice a day."
)
PAGES = [
    ("1. Deliveries", [DELIVERIES, "Contact for deliveries: Marta Quinn"]),
    ("2. Storage", [FREEZER, "Storage contact: Ivo Brandt"]),
]


def test_the_last_short_line_of_each_page_is_indexed(tmp_path: Path, build_pdf: PdfBuilder) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "kitchen.pdf").write_bytes(build_pdf(PAGES))
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([docs], settings)
    with sqlite3.connect(settings.path) as db:
        text = " ".join(row[0] for row in db.execute("SELECT text FROM chunks"))
    assert "Marta Quinn" in text and "Ivo Brandt" in text, text


def test_a_short_last_line_is_text_of_its_own_page_and_section(build_pdf: PdfBuilder) -> None:
    doc = read_document(Path("kitchen.pdf"), build_pdf(PAGES))
    assert [(b.text, b.section, b.page) for b in doc.blocks] == [
        (DELIVERIES, "1. Deliveries", 1),
        ("Contact for deliveries: Marta Quinn", "1. Deliveries", 1),
        (FREEZER, "2. Storage", 2),
        ("Storage contact: Ivo Brandt", "2. Storage", 2),
    ]


def test_a_page_opening_heading_above_a_lower_case_sentence_is_its_section(
    build_pdf: PdfBuilder,
) -> None:
    # the short last line of page 1 named page 2's passage, and "2. Storage" was joined into it
    lower = "the" + FREEZER[3:]
    pages = [PAGES[0], ("2. Storage", [lower, "It is cleaned every week."])]
    doc = read_document(Path("kitchen.pdf"), build_pdf(pages))
    assert [(b.text, b.section, b.page) for b in doc.blocks] == [
        (DELIVERIES, "1. Deliveries", 1),
        ("Contact for deliveries: Marta Quinn", "1. Deliveries", 1),
        (lower, "2. Storage", 2),
        ("It is cleaned every week.", "2. Storage", 2),
    ]


def test_a_heading_like_line_ending_the_file_is_text() -> None:
    doc = read_document(Path("one.pdf"), lines_pdf([["Storage", FREEZER, "Ivo Brandt"]]))
    assert [(b.text, b.section) for b in doc.blocks] == [
        (FREEZER, "Storage"),
        ("Ivo Brandt", "Storage"),
    ]


def test_a_page_of_one_short_line_is_a_passage_not_the_next_pages_section() -> None:
    doc = read_document(Path("cover.pdf"), lines_pdf([["Kitchen rules"], [FREEZER]]))
    assert [(b.text, b.section, b.page) for b in doc.blocks] == [
        ("Kitchen rules", None, 1),
        (FREEZER, None, 2),
    ]


def test_two_short_lines_ending_a_page_are_one_paragraph() -> None:
    page = f"Storage\n{FREEZER}\nIvo Brandt\nHead of storage\n"
    assert paragraphs(page) == [
        ("Storage", True),
        (FREEZER, False),
        ("Ivo Brandt Head of storage", False),
    ]


def test_a_page_opening_line_that_wraps_in_lower_case_stays_prose() -> None:
    # the next word would not have fitted on the first line: a wrapped sentence, not a heading
    page = "Keep the fuses\nunderneath the panel.\n"
    assert paragraphs(page, typical=30.0) == [("Keep the fuses underneath the panel.", False)]
    # and a line starting in lower case opens no section, whatever fits after it
    assert paragraphs(f"twelve volt\nsupply {FREEZER}") == [
        (f"twelve volt supply {FREEZER}", False)
    ]


def test_a_page_opening_line_that_goes_on_with_the_page_befores_sentence_is_not_a_heading() -> None:
    pages = [
        ["Returns", "Every return of a damaged frobnicator must be approved by the"],
        ["Site Manager", "on the day the courier collects it from the loading dock."],
    ]
    doc = read_document(Path("returns.pdf"), lines_pdf(pages))
    assert [(b.text, b.section, b.page) for b in doc.blocks] == [
        (
            "Every return of a damaged frobnicator must be approved by the Site Manager on the "
            "day the courier collects it from the loading dock.",
            "Returns",
            1,
        ),
    ]
