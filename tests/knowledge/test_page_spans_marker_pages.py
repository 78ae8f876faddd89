"""A citation whose markers quote sentences on different pages of a passage that spans a page
break names every page its quotes are on, and each marker links the page of its own quote."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.knowledge.page_spans import narrow_answer, narrow_citation
from bot.models import Answer, Citation, Occurrence, Source
from renderers import CHANNELS, render
from renderers.base import RenderContext
from tests.knowledge.handbook_pages import FIRST, PRIVATE, SECOND, STARTS, TEXT

URL = "https://docs.example.com/handbook.pdf"
PARENTAL = "Parental leave lasts sixteen weeks at full pay."
SOURCE = Source(
    id="kb/handbook.pdf#2",
    title="handbook.pdf",
    url=URL,
    media_type="application/pdf",
    section="Leave",
    page=1,
    page_end=2,
    text=TEXT,
)


def _cited_twice(first: str, second: str, source: Source = SOURCE) -> Answer:
    """``first`` and ``second`` each closed by ``[^1]``, as grounding leaves them: both
    markers linking the chunk's first page, the citation quoting ``first``."""
    link = f"{URL}#page=1" if source.url else None
    citation = Citation(
        n=1,
        source=source,
        source_number=1,
        quote=first,
        deep_link=link,
        occurrences=(Occurrence(first, link, 1.0), Occurrence(second, link, 1.0)),
    )
    return Answer(text=f"{first[:-1]} [^1]. {second[:-1]} [^1].", citations=(citation,))


def _narrowed(answer: Answer) -> Citation:
    [citation] = narrow_answer(answer, lambda _source: STARTS).citations
    return citation


def test_second_occurrence_on_page_two_links_page_two() -> None:
    narrowed = _narrowed(_cited_twice(FIRST, SECOND))
    assert (narrowed.source.page, narrowed.source.page_end) == (1, 2)
    assert [o.deep_link for o in narrowed.occurrences] == [f"{URL}#page=1", f"{URL}#page=2"]
    assert [o.quote for o in narrowed.occurrences] == [FIRST, SECOND]
    assert narrowed.deep_link == f"{URL}#page=1"  # the source list opens the span's first page


def test_a_citation_whose_best_quote_is_on_page_two_still_spans_page_one() -> None:
    # The citation's own quote (its best-backed marker's) is the later one: the source list
    # must still name page 1, where the first marker's claim is.
    narrowed = _narrowed(_cited_twice(SECOND, FIRST))
    assert (narrowed.source.page, narrowed.source.page_end) == (1, 2)
    assert [o.deep_link for o in narrowed.occurrences] == [f"{URL}#page=2", f"{URL}#page=1"]


def test_quotes_all_on_page_two_name_page_two_only() -> None:
    narrowed = _narrowed(_cited_twice(PARENTAL, SECOND))
    assert (narrowed.source.page, narrowed.source.page_end) == (2, None)
    assert narrowed.deep_link == f"{URL}#page=2"
    assert [o.deep_link for o in narrowed.occurrences] == [f"{URL}#page=2"] * 2


def test_only_the_page_two_quote_cited_is_page_two() -> None:
    citation = Citation(1, SOURCE, 1, quote=SECOND, deep_link=f"{URL}#page=1")
    narrowed = narrow_citation(citation, lambda _source: STARTS)
    assert (narrowed.source.page, narrowed.source.page_end) == (2, None)
    assert narrowed.deep_link == f"{URL}#page=2"


def test_a_marker_quote_the_passage_lacks_keeps_the_passage_pages() -> None:
    # A paraphrase cannot be placed: the source keeps both pages rather than naming only the
    # page of the quote that was found, and that marker keeps the link it had.
    narrowed = _narrowed(_cited_twice(SECOND, "Leave runs out in spring."))
    assert (narrowed.source.page, narrowed.source.page_end) == (1, 2)
    assert [o.deep_link for o in narrowed.occurrences] == [f"{URL}#page=2", f"{URL}#page=1"]


def test_occurrences_of_a_source_without_a_url_keep_no_link() -> None:
    narrowed = _narrowed(_cited_twice(PARENTAL, SECOND, replace(PRIVATE, section=None)))
    assert (narrowed.source.page, narrowed.source.page_end) == (2, None)
    assert [o.deep_link for o in narrowed.occurrences] == [None, None]


def test_every_channel_names_both_pages_and_the_web_links_each_marker_its_page() -> None:
    answer = narrow_answer(_cited_twice(FIRST, SECOND), lambda _source: STARTS)
    for channel in CHANNELS:
        payload = json.dumps(render(channel, answer), ensure_ascii=False)
        assert "pp. 1\u20132" in payload, channel
        if channel == "web":  # each marker's tooltip names its own page: the list follows them
            payload = payload[payload.index("Sources") :]
        assert "p. 1," not in payload and "p. 1 " not in payload, channel
    [web] = render("web", answer)["citations"]
    assert (web["page"], web["page_end"]) == (1, 2)
    assert [o["url"] for o in web["occurrences"]] == [f"{URL}#page=1", f"{URL}#page=2"]


def test_a_signed_file_link_opens_the_first_page_of_the_span() -> None:
    answer = narrow_answer(_cited_twice(SECOND, FIRST, PRIVATE), lambda _source: STARTS)
    context = RenderContext(signer=lambda _source: "https://bot.example.com/files/t0k3n")
    [web] = render("web", answer, context)["citations"]
    assert web["url"] == "https://bot.example.com/files/t0k3n#page=1"
    assert (web["page"], web["page_end"]) == (1, 2)
