"""A PDF word hyphenated across a page break is one word, on the page it starts on: search
finds "configuration"; the rest of its sentence joins it there (see
test_ingest_pdf_page_break_sentences.py), and a citation of either page's text names its page."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.page_spans import quote_pages
from bot.knowledge.pdf_reader import join_page_breaks
from bot.knowledge.readers import read_document
from tests.knowledge.conftest import PdfBuilder

# Page 3 ends in the middle of a word; page 4 (no heading of its own) goes on with it.
PAGE_3_END = "Every option that the operator writes into the main worker configu-"
PAGE_4_START = "ration file applies to each queue it serves. A reload reads it again."
FILLERS = [
    f"This page says a little about {topic}, enough to fill a full line of text on it."
    for topic in ("workers", "queues", "options")
]


def _pdf(build_pdf: PdfBuilder, end: str = PAGE_3_END, start: str = PAGE_4_START) -> bytes:
    return build_pdf(
        [
            ("Workers", [FILLERS[0]]),
            ("Queues", [FILLERS[1]]),
            ("Options", [FILLERS[2], end]),
            ("", [start]),
        ]
    )


def test_a_word_broken_across_a_page_break_is_joined_on_its_first_page(
    build_pdf: PdfBuilder,
) -> None:
    doc = read_document(Path("workers.pdf"), _pdf(build_pdf))
    *_, page_3 = [block.text for block in doc.blocks if block.page == 3]
    page_4 = [block.text for block in doc.blocks if block.page == 4]
    assert page_3.endswith(
        "text on it. Every option that the operator writes into the main worker configuration "
        "file applies to each queue it serves."
    )
    assert page_4 == ["A reload reads it again."]


LONG = "The list printed in this edition of the handbook, as the operators asked, covers "


@pytest.mark.parametrize(
    ("end", "start", "joined", "rest"),
    [
        # not a word broken in two: left as on the page
        ("the years 2023-", "2024 and is final.", "the years 2023-", "2024"),
        ("the Co-", "Operation group.", "the Co-", "Operation"),
        # a compound the document writes as two words keeps its hyphen, whole on page 3, and
        # the rest of its sentence joins it there
        (
            "the policy on-",
            "failure so that a failure restarts it. It runs again.",
            "the policy on-failure so that a failure restarts it.",
            "It",
        ),
    ],
)
def test_only_a_broken_lower_case_word_is_joined(
    build_pdf: PdfBuilder, end: str, start: str, joined: str, rest: str
) -> None:
    doc = read_document(Path("w.pdf"), _pdf(build_pdf, LONG + end, start))
    page_3 = [block.text for block in doc.blocks if block.page == 3]
    page_4 = [block.text for block in doc.blocks if block.page == 4]
    assert page_3[-1].endswith(LONG + joined)
    assert page_4[0].split(" ", 1)[0] == rest


def test_a_heading_and_a_lone_word_are_handled() -> None:
    # a heading on either side is never joined; a paragraph that was only the word goes
    heading = [("Intro", False), ("Options for the configu-", True)]
    assert join_page_breaks([heading, [("ration file.", False)]]) == [
        heading,
        [("ration file.", False)],
    ]
    assert join_page_breaks([[("the configu-", False)], [("ration", False), ("Next.", False)]]) == [
        [("the configuration", False)],
        [("Next.", False)],
    ]
    assert join_page_breaks([[("the configu-", False)], [], [("ration", False)]]) == [
        [("the configu-", False)],
        [],
        [("ration", False)],
    ]


def test_search_finds_the_word_and_quotes_keep_their_pages(
    tmp_path: Path, build_pdf: PdfBuilder
) -> None:
    (tmp_path / "workers.pdf").write_bytes(_pdf(build_pdf))
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "workers.pdf"], settings)
    index = KnowledgeIndex(settings.path)
    try:
        [source, *_] = index.search("configuration reload")
        starts = index.page_starts(source)
    finally:
        index.close()
    assert source.text is not None
    assert "worker configuration file applies to each queue it serves.\n\nA reload" in source.text
    assert (source.page, source.page_end) == (3, 4)
    assert starts is not None
    assert quote_pages(source.text, starts, "the main worker configuration") == (3, None)
    assert quote_pages(source.text, starts, "file applies to each queue") == (3, None)
    assert quote_pages(source.text, starts, "A reload reads it again") == (4, None)
    assert quote_pages(source.text, starts, "queue it serves. A reload") == (3, 4)
