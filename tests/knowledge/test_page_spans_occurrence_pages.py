"""Each marker of a citation across a PDF page break keeps the pages of its own quote
(``Occurrence.page``/``page_end``): its signed file link opens there and its tooltip names it,
and the JSON form carries them only when known, so stored answers from before still read."""

from __future__ import annotations

import pytest

from bot.errors import ValidationError
from bot.knowledge.page_spans import narrow_answer
from bot.models import Answer, Citation, Occurrence
from bot.registry import SourceRegistry
from renderers import render
from renderers.base import DEFAULT_CAPABILITIES, RenderContext, citation_form
from renderers.web import hover_text
from tests.knowledge.handbook_pages import FIRST, PRIVATE, SECOND, STARTS

ACROSS = "Requests go through the leave portal. Parental leave lasts sixteen weeks at full pay."
SIGNED = "https://bot.example.com/files/t0k3n"


def _narrowed(*quotes: str) -> Answer:
    """A citation of ``PRIVATE`` with one marker per quote, as grounding leaves it, narrowed."""
    citation = Citation(
        n=1,
        source=PRIVATE,
        source_number=1,
        quote=quotes[0],
        occurrences=tuple(Occurrence(quote, None, 1.0) for quote in quotes),
    )
    text = " ".join(f"{quote[:-1]} [^1]." for quote in quotes)
    return narrow_answer(Answer(text=text, citations=(citation,)), lambda _source: STARTS)


def test_narrowing_gives_each_marker_of_a_file_without_url_its_own_page() -> None:
    [citation] = _narrowed(FIRST, SECOND).citations
    assert [(o.page, o.page_end) for o in citation.occurrences] == [(1, None), (2, None)]
    assert [o.deep_link for o in citation.occurrences] == [None, None]


def test_a_quote_across_the_break_keeps_both_pages() -> None:
    [citation] = _narrowed(ACROSS, SECOND).citations
    assert [(o.page, o.page_end) for o in citation.occurrences] == [(1, 2), (2, None)]


def test_a_marker_quote_the_passage_lacks_has_no_page_of_its_own() -> None:
    [citation] = _narrowed(SECOND, "Leave runs out in spring.").citations
    assert [(o.page, o.page_end) for o in citation.occurrences] == [(2, None), (None, None)]


def test_each_signed_marker_link_opens_its_own_page_and_the_list_the_span() -> None:
    answer = _narrowed(FIRST, SECOND)
    context = RenderContext(signer=lambda _source: SIGNED)
    [web] = render("web", answer, context)["citations"]
    assert web["url"] == f"{SIGNED}#page=1"
    assert [o["url"] for o in web["occurrences"]] == [f"{SIGNED}#page=1", f"{SIGNED}#page=2"]


def test_a_marker_without_its_own_page_opens_the_source_page() -> None:
    answer = _narrowed(SECOND, "Leave runs out in spring.")
    form = citation_form(
        answer.citations[0], DEFAULT_CAPABILITIES["web"], RenderContext(signer=lambda _s: SIGNED)
    )
    assert [o.url for o in form.occurrences] == [f"{SIGNED}#page=2", f"{SIGNED}#page=1"]


def test_each_marker_tooltip_names_its_own_page() -> None:
    answer = _narrowed(FIRST, SECOND)
    form = citation_form(answer.citations[0], DEFAULT_CAPABILITIES["web"], RenderContext())
    assert form.detail == "pp. 1\u20132, Leave"
    first, second = (hover_text(form, o) for o in form.occurrences)
    assert first.startswith("handbook.pdf \u2014 p. 1, Leave: \u201cAnnual leave")
    assert second.startswith("handbook.pdf \u2014 p. 2, Leave: \u201cUnused annual leave")
    html = render("web", answer)["html"]
    assert 'title="handbook.pdf — p. 1, Leave: ' in html
    assert 'title="handbook.pdf — p. 2, Leave: ' in html


def test_occurrence_pages_round_trip_and_are_left_out_when_unknown() -> None:
    placed = Occurrence(SECOND, None, 0.9, page=1, page_end=2)
    assert placed.to_json() == {"quote": SECOND, "support": 0.9, "page": 1, "page_end": 2}
    assert Occurrence.from_json(placed.to_json()) == placed
    assert "page" not in Occurrence(SECOND).to_json()


def test_an_occurrence_stored_before_pages_still_reads() -> None:
    stored = {"quote": SECOND, "deep_link": "https://docs.example.com/h.pdf#page=1"}
    assert Occurrence.from_json(stored) == Occurrence(SECOND, stored["deep_link"])
    citation = Citation(1, PRIVATE, 1, quote=FIRST, occurrences=(Occurrence(SECOND),))
    assert Citation.from_json(citation.to_json()) == citation


@pytest.mark.parametrize(
    "data",
    [{"page": 0}, {"page": "2"}, {"page": True}, {"page_end": 2}, {"page": 3, "page_end": 2}],
)
def test_a_malformed_occurrence_page_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError, match="occurrence page"):
        Occurrence.from_json({"quote": SECOND, **data})


def test_the_model_reads_a_page_span_as_the_channels_write_it() -> None:
    registry = SourceRegistry(frozenset({"public"}))
    listed = registry.format_passages([PRIVATE])
    assert listed.splitlines()[0] == "[cite: 1] handbook.pdf — Leave — pp. 1\u20132"
