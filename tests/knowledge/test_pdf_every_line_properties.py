"""Property tests: no PDF line is lost to a heading (bot/knowledge/pdf_reader.py).

``paragraphs`` of any page keeps every word in order and never ends the page with a heading
(it would name the next page's passage, or nothing). Every line of every page of a generated
PDF reaches a chunk: its words are, in order, those of the chunks' texts with each chunk's
section where the section changes.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.knowledge.chunking import chunk_blocks
from bot.knowledge.pdf_reader import paragraphs
from bot.knowledge.readers import read_document
from tests.knowledge.test_knowledge_pdf_layout import lines_pdf

# Short and long words, capitals, lower case, digits and final punctuation: lines that look
# like headings, wrapped prose, sentence ends and list items ("2. Storage"); no hyphens, whose
# joins at line ends change words on purpose.
_WORDS = st.sampled_from(
    ["Storage", "the", "walk", "freezer", "is", "kept", "cold.", "Contact:", "Ivo", "Brandt",
     "2.", "of", "deliveries", "arrive", "every", "morning,", "Marta", "Quinn", "and", "log",
     "temperatureandhumidityreadings", "twice", "day.", "x", "It"]
)  # fmt: skip
_LINE = st.lists(_WORDS, min_size=1, max_size=14).map(" ".join)
_PAGE_LINES = st.lists(st.one_of(_LINE, st.just("")), max_size=12)


def _words(texts: list[str]) -> list[str]:
    return [word for text in texts for word in text.split()]


@given(_PAGE_LINES, st.one_of(st.none(), st.floats(min_value=10, max_value=120)), _LINE)
def test_paragraphs_keep_every_word_and_never_end_on_a_heading(
    lines: list[str], typical: float | None, before: str
) -> None:
    pairs = paragraphs("\n".join(lines), typical, before=before)
    assert _words([text for text, _ in pairs]) == _words(lines)
    assert not pairs or not pairs[-1][1], pairs


def _pdf_lines(draw: st.DrawFn) -> list[list[str]]:
    # unique lines with a letter: a line repeated at page edges is a running header or footer,
    # and one without letters may be a page number, which the reader drops on purpose
    unique = draw(st.lists(_LINE, min_size=1, max_size=16, unique=True))
    cuts = sorted(draw(st.lists(st.integers(0, len(unique)), max_size=3)))
    bounds = [0, *cuts, len(unique)]
    return [unique[start:end] for start, end in itertools.pairwise(bounds)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.composite(_pdf_lines)())
def test_every_line_of_a_generated_pdf_is_in_some_chunk(pages: list[list[str]]) -> None:
    doc = read_document(Path("generated.pdf"), lines_pdf(pages))
    seen: list[str] = []
    section: str | None = None
    for chunk in chunk_blocks(doc.blocks, 1200):
        if chunk.section is not None and chunk.section != section:
            seen.append(chunk.section)
        section = chunk.section
        seen.append(chunk.text)
    assert _words(seen) == _words([line for page in pages for line in page]), (pages, seen)
