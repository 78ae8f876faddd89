"""A citation of a PDF passage that spans pages points at the page its quote is on."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.assistant import Assistant
from bot.assistant.tools import ToolCall
from bot.assistant.turn import STEP_END, StepEnd, Turn
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.chunking import chunk_blocks
from bot.knowledge.document import Block
from bot.knowledge.page_spans import (
    PageStarts,
    decode_page_starts,
    encode_page_starts,
    narrow_answer,
    narrow_source,
    quote_pages,
    quote_span,
)
from bot.models import Answer, Citation, CitationAdded, Source
from tests.knowledge.conftest import PdfBuilder

PUBLIC = frozenset({"public"})
PAGE_ONE = "Otters sleep holding hands so that the current never parts them at night."
PAGE_TWO = "Walruses haul out on drifting ice floes to rest between their long dives."
URL = "https://docs.example.com/animals.pdf"


@pytest.fixture
def spanning_settings(tmp_path: Path, build_pdf: PdfBuilder) -> Settings:
    """An index of one two-page PDF whose only chunk crosses the page break (same heading)."""
    pdf = build_pdf([("Field notes", [PAGE_ONE]), ("Field notes", [PAGE_TWO])])
    (tmp_path / "animals.pdf").write_bytes(pdf)
    settings = Settings.model_validate(
        {
            "index": {
                "path": str(tmp_path / "index.db"),
                "url_templates": {"*.pdf": "https://docs.example.com/{path}"},
            },
            "grounding": {"policy": "off"},
        }
    )
    ingest([tmp_path / "animals.pdf"], settings.index)
    [chunk] = KnowledgeIndex(settings.index.path).search("walruses otters")
    assert (chunk.page, chunk.page_end, chunk.url) == (1, 2, URL)  # the premise: one spanning chunk
    return settings


@dataclass
class QuotingBackend:
    """Searches once, then cites the first passage with ``quote`` (a model quoting its source)."""

    quote: str
    name: str = "quoting"

    async def generate(self, turn: Turn) -> AsyncIterator[str | StepEnd]:
        yield STEP_END
        call = ToolCall("call_1", "search_docs", json.dumps({"query": "walruses otters"}))
        await turn.toolbox.run_calls([call], turn.registry)
        yield f"So the notes say <citation>1 | {self.quote}</citation>."


async def _cite(settings: Settings, quote: str) -> Citation:
    index = KnowledgeIndex(settings.index.path)
    assistant = Assistant(settings, index, QuotingBackend(quote))
    [citation] = (await assistant.answer("walruses?", PUBLIC)).citations
    return citation


async def test_quote_on_page_two_links_to_page_two(spanning_settings: Settings) -> None:
    citation = await _cite(spanning_settings, PAGE_TWO)
    assert (citation.source.page, citation.source.page_end) == (2, None)
    assert citation.deep_link == f"{URL}#page=2"
    assert citation.quote == PAGE_TWO and citation.source.text is not None


async def test_quote_on_page_one_keeps_page_one(spanning_settings: Settings) -> None:
    citation = await _cite(spanning_settings, PAGE_ONE)
    assert (citation.source.page, citation.source.page_end) == (1, None)
    assert citation.deep_link == f"{URL}#page=1"


async def test_quote_across_the_page_break_spans_both_pages(spanning_settings: Settings) -> None:
    # Quotes join sentences with one space where the chunk has the paragraph break.
    quote = "the current never parts them at night. Walruses haul out"
    citation = await _cite(spanning_settings, quote)
    assert (citation.source.page, citation.source.page_end) == (1, 2)
    assert citation.deep_link == f"{URL}#page=1"


async def test_a_quote_the_passage_lacks_keeps_the_passage_pages(
    spanning_settings: Settings,
) -> None:
    citation = await _cite(spanning_settings, "walruses like ice")  # a paraphrase
    assert (citation.source.page, citation.source.page_end) == (1, 2)
    assert citation.deep_link == f"{URL}#page=1"


async def test_a_streamed_citation_with_its_quote_is_narrowed_too(
    spanning_settings: Settings,
) -> None:
    index = KnowledgeIndex(spanning_settings.index.path)
    assistant = Assistant(spanning_settings, index, QuotingBackend(PAGE_TWO))
    events = [event async for event in assistant.stream("walruses?", PUBLIC)]
    [added] = [event for event in events if isinstance(event, CitationAdded)]
    assert added.citation.source.page == 2 and added.citation.deep_link == f"{URL}#page=2"


async def test_the_quote_grounding_picks_is_followed_too(spanning_settings: Settings) -> None:
    # The default answerer writes no quote; grounding picks the supporting sentence as it.
    settings = spanning_settings.model_copy(
        update={"grounding": spanning_settings.grounding.model_copy(update={"policy": "annotate"})}
    )
    assistant = Assistant.from_settings(settings)
    answer = await assistant.answer("Where do walruses haul out to rest?", PUBLIC)
    [citation] = answer.citations
    assert citation.quote is not None and "Walruses haul out" in citation.quote
    assert citation.source.page == 2 and citation.deep_link == f"{URL}#page=2"


def test_a_stale_source_gets_no_page_map(spanning_settings: Settings) -> None:
    index = KnowledgeIndex(spanning_settings.index.path)
    [chunk] = index.search("walruses")
    assert index.page_starts(chunk) is not None
    # A source found before a re-ingest changed the chunk: its text is not what the map is of.
    stale = Source(chunk.id, text=f"Preface. {chunk.text}", page=1, page_end=2)
    assert index.page_starts(stale) is None
    assert index.page_starts(Source("animals.pdf#9", text="x", page=1, page_end=2)) is None


# -- the pure parts ------------------------------------------------------------------------------


def test_chunks_record_where_each_page_begins() -> None:
    blocks = [Block("One.", page=1), Block("Two.", page=1), Block("Three.", page=3)]
    [chunk] = chunk_blocks(blocks, 1000)
    assert chunk.text == "One.\n\nTwo.\n\nThree."
    assert (chunk.page, chunk.page_end, chunk.page_starts) == (1, 3, ((0, 1), (12, 3)))
    assert chunk.text[12:] == "Three."
    [single] = chunk_blocks([Block("One.", page=2), Block("Two.", page=2)], 1000)
    assert single.page_starts == () and encode_page_starts(single.page_starts) is None
    [markdown] = chunk_blocks([Block("One."), Block("Two.")], 1000)
    assert markdown.page_starts == ()


def test_page_maps_round_trip_and_a_damaged_one_is_no_map() -> None:
    starts: PageStarts = ((0, 1), (40, 2), (90, 4))
    assert decode_page_starts(encode_page_starts(starts)) == starts
    for damaged in (
        None,
        "",
        "not json",
        "[[0,1]]",
        "[[5,1],[9,2]]",
        "[[0,2],[9,1]]",
        "[[0,1],[0,2]]",
        '[[0,1],["9",2]]',
        "[[0,1],[9,true]]",
        "{}",
        "[[0,0],[9,1]]",
    ):
        assert decode_page_starts(damaged) is None, damaged


def test_quote_span_ignores_case_and_whitespace() -> None:
    text = "Alpha  beta.\n\nGamma delta"
    assert quote_span(text, "beta. gamma") == (7, 19)
    assert text[7:19] == "beta.\n\nGamma"
    assert quote_span(text, "  ") is None and quote_span(text, "omega") is None
    starts: PageStarts = ((0, 1), (14, 2))
    assert quote_pages(text, starts, "Gamma") == (2, None)
    assert quote_pages(text, starts, "alpha beta.") == (1, None)
    assert quote_pages(text, starts, "beta. Gamma") == (1, 2)


def test_narrowing_leaves_what_it_cannot_place_alone() -> None:
    source = Source("a.pdf#1", url=URL, text="One.\n\nTwo.", page=1, page_end=2)
    starts: PageStarts = ((0, 1), (6, 2))
    assert narrow_source(source, "Two.", starts).page == 2
    assert narrow_source(source, "Two.", None) is source  # no map: an older index
    assert narrow_source(source, None, starts) is source
    # a map that disagrees with the chunk's own pages belongs to other text
    assert narrow_source(source, "Two.", ((0, 4), (6, 5))) is source
    markdown = Source("a.md#1", url="https://x.test/a", text="One.\n\nTwo.")
    answer = Answer("x [^1]", (Citation(1, markdown, 1, quote="Two."),))
    assert narrow_answer(answer, lambda s: starts) is answer
