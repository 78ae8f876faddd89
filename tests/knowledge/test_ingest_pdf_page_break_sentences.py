"""A PDF sentence that runs on to the next page is read, indexed and quoted whole, on the page
it starts on; a running header or footer repeated on the next page is not glued into it; and a
page that ends a sentence stays apart from a heading or a list that opens the next one."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config import Settings
from bot.knowledge import ingest
from bot.knowledge.pdf_page_edges import continues, first_sentence, join_sentences
from bot.knowledge.readers import read_document
from tests.knowledge.test_knowledge_pdf_layout import lines_pdf

PUBLIC = frozenset({"public"})
PARTS = (
    "Orders for spare parts are collected by the stores team every Monday morning and are "
    "checked against the stock list before they are sent on, so that the supplier can be "
    "contacted before"
)
REST = "the end of the week."
DELIVERIES = "Deliveries arrive on Thursday afternoon at the loading bay behind the main hall."


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 88)


def _parts_pdf() -> bytes:
    return lines_pdf([["Spare parts", *_wrap(PARTS)], _wrap(f"{REST} {DELIVERIES}")])


def test_a_sentence_continued_on_the_next_page_is_one_block_on_its_first_page() -> None:
    doc = read_document(Path("parts.pdf"), _parts_pdf())
    assert [(b.page, b.section, b.text) for b in doc.blocks] == [
        (1, "Spare parts", f"{PARTS} {REST}"),
        (2, "Spare parts", DELIVERIES),
    ]


@pytest.fixture
def parts_assistant(tmp_path: Path) -> Assistant:
    (tmp_path / "parts.pdf").write_bytes(_parts_pdf())
    settings = Settings.model_validate(
        {
            "index": {
                "path": str(tmp_path / "index.db"),
                "url_templates": {"*.pdf": "https://docs.example.com/{stem}.pdf"},
            }
        }
    )
    ingest([tmp_path / "parts.pdf"], settings.index)
    return Assistant.from_settings(settings)


async def test_the_answer_quotes_the_whole_sentence_and_links_its_page(
    parts_assistant: Assistant,
) -> None:
    answer = await parts_assistant.answer("When can the supplier be contacted?", PUBLIC)
    assert "contacted before the end of the week" in answer.text
    [citation] = answer.citations
    assert citation.quote is not None and citation.quote.endswith("before the end of the week.")
    # the sentence starts on page 1: that is where its link opens
    assert (citation.source.page, citation.source.page_end) == (1, None)
    assert citation.deep_link == "https://docs.example.com/parts.pdf#page=1"
    # and the rest of page 2 is still cited as page 2
    later = await parts_assistant.answer("When do deliveries arrive at the loading bay?", PUBLIC)
    assert later.text.startswith("Deliveries arrive on Thursday afternoon")
    assert later.citations[0].deep_link == "https://docs.example.com/parts.pdf#page=2"


HEADER = "Site safety rules"
HOT_WORK = (
    "Work near live cables, in confined spaces or at height is allowed only with written "
    "approval, and any hot work needs a"
)
PERMIT = "permit when it is over thirty degrees outside, signed by the site manager on the day."
FILLER = [
    "Every visitor signs in at the gate and wears the yellow vest that the gate keeper hands",
    "out; the vest is returned when the visitor signs out again at the end of the visit.",
]


@pytest.mark.parametrize(
    ("pages", "page"),
    [
        # a two-page document: the header is on fewer than three pages
        ([[HEADER, "Hot work", *_wrap(HOT_WORK)], [HEADER, *_wrap(PERMIT)]], 1),
        # the header of one chapter only (pages 2 and 3 of five), not on most pages
        (
            [
                ["Visitors", *FILLER],
                [HEADER, "Hot work", *_wrap(HOT_WORK)],
                [HEADER, *_wrap(PERMIT), *FILLER],
                ["Parking", *FILLER],
                ["Deliveries", *FILLER],
            ],
            2,
        ),
        # a footer at the bottom of two pages
        (
            [
                ["Hot work", *FILLER, "", *_wrap(HOT_WORK), "Northwind internal"],
                [*_wrap(PERMIT), "", *FILLER, *FILLER, *FILLER, "Northwind internal"],
            ],
            1,
        ),
    ],
    ids=["two-pages", "some-pages", "footer"],
)
def test_a_running_header_on_the_next_page_is_not_glued_into_the_sentence(
    pages: list[list[str]], page: int
) -> None:
    doc = read_document(Path("safety.pdf"), lines_pdf(pages))
    texts = [block.text for block in doc.blocks]
    [block] = [block for block in doc.blocks if PERMIT in block.text]
    assert block.text.endswith(f"{HOT_WORK} {PERMIT}"), texts
    assert (block.page, block.section) == (page, "Hot work")
    # the header is left where it first stands (a title, or a heading the next page repeats)
    later = [b.text for b in doc.blocks if b.page is not None and b.page > page]
    assert not any(HEADER in text for text in [block.text, *later]), texts
    assert not any("Northwind" in text for text in texts), texts


def test_a_line_repeated_inside_the_edge_of_two_pages_is_text() -> None:
    # a reference manual ends two pages with the same parameter, one line above the last
    param = "der: buffer to hold the returned encoding (may be NULL)."

    def page(name: str, last: str) -> list[str]:
        return [f"{name} encodes a value", *FILLER, *FILLER, param, last]

    pages = [page("asn1_length_der", "len: the length."), page("asn1_oid_der", "flags: zero.")]
    doc = read_document(Path("ref.pdf"), lines_pdf(pages))
    assert sum(param in block.text for block in doc.blocks) == 2


@pytest.mark.parametrize(
    "end",
    [
        "Orders are checked against the stock list before they are sent on to the supplier.",
        # even a page that breaks off mid-sentence: a heading is never glued into it
        "Orders are checked against the stock list before they are sent on to the",
    ],
)
def test_a_heading_opening_the_next_page_stays_apart(end: str) -> None:
    pages = [
        ["Spare parts", *_wrap(f"{PARTS} the stores team. {end}")],
        ["Deliveries", *_wrap(DELIVERIES)],
    ]
    doc = read_document(Path("parts.pdf"), lines_pdf(pages))
    assert [(b.page, b.section, b.text) for b in doc.blocks] == [
        (1, "Spare parts", f"{PARTS} the stores team. {end}"),
        (2, "Deliveries", DELIVERIES),
    ]


@pytest.mark.parametrize(
    ("last", "first", "joined"),
    [
        ("contacted before", "the end of the week.", True),
        ("approved by the", "Site Manager on the day.", True),
        ("such as Paris, London,", "Berlin and Rome.", True),
        ("the offices in Berlin —", "Rome since 2020.", True),
        # a sentence ends, or a list follows its colon
        ("Sent to the supplier.", "the end of the week.", False),
        ('It says "Stop."', "then it stops.", False),
        ("Bring the following:", "safety boots and a helmet.", False),
        # a list item opens the next page
        ("Bring the following", "- safety boots", False),
        ("Bring the following", "2. a helmet", False),
        ("Bring the following", "(b) a helmet", False),
        # upper case after a line that may end: a caption, a table row, a list
        ("Figure 3 Power supply", "The controller needs twelve volts.", False),
        ("contacted before", "Friday.", False),
    ],
)
def test_what_continues_a_sentence(last: str, first: str, joined: bool) -> None:
    assert continues(last, first) is joined


def test_only_the_rest_of_the_sentence_moves() -> None:
    assert first_sentence("the end, e.g. Friday. Then more. And more.") == (
        "the end, e.g. Friday.",
        "Then more. And more.",
    )
    assert first_sentence("the end of the week") == ("the end of the week", "")
    assert join_sentences(
        [[("Intro", True), ("It is sent", False)], [("to us. Next.", False)]]
    ) == [
        [("Intro", True), ("It is sent to us.", False)],
        [("Next.", False)],
    ]
    # a heading on either side is never joined, nor pages apart
    heading = [[("It is sent", False)], [("to be sure", True), ("Text.", False)]]
    assert join_sentences(heading) == heading
    orphan = [[("Text.", False), ("Running citecast", True)], [("citecast runs as one.", False)]]
    assert join_sentences(orphan) == orphan
    apart = [[("It is sent", False)], [], [("to us.", False)]]
    assert join_sentences(apart) == apart
