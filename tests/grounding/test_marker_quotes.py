"""Each ``[^n]`` marker carries the quote that backs its own claim (``Citation.occurrences``).

Citing one source for two sentences used to give both markers the first claim's quote and deep
link: a reader checking the second claim saw a sentence that does not mention it.
"""

from __future__ import annotations

from bot.grounding import GroundingPolicy, verify
from bot.models import Answer, Citation, Occurrence, Source
from tests.grounding.two_claims import GUIDE, INVENTED, PIP, SQLITE, TWO_CLAIMS

FAQ = Source(
    id="faq#1",
    title="Integration FAQ",
    url="https://docs.example.org/faq.html",
    text="Socket Mode opens an outgoing WebSocket to Slack, so no public URL is needed.",
)


def _answer(text: str, *sources: Source, quote: str | None = None) -> Answer:
    citations = tuple(
        Citation(n=i, source=s, source_number=i, quote=quote if i == 1 else None)
        for i, s in enumerate(sources, 1)
    )
    return Answer(text=text, citations=citations)


def test_two_claims_citing_one_source_get_their_own_quotes_and_links() -> None:
    (citation,) = verify(_answer(TWO_CLAIMS, GUIDE)).citations
    # the citation's own quote (the source list's) stays the best-backed marker's
    assert citation.quote == PIP
    assert [o.quote for o in citation.occurrences] == [PIP, SQLITE]
    first, second = citation.occurrences
    assert first.deep_link == citation.deep_link
    assert second.deep_link is not None
    assert second.deep_link.startswith(f"{GUIDE.url}#:~:text=The%20index%20is")
    assert [o.support for o in citation.occurrences] == [1.0, 1.0]


def test_the_json_form_carries_the_occurrences_and_reads_them_back() -> None:
    answer = verify(_answer(TWO_CLAIMS, GUIDE))
    data = answer.to_json()
    assert [o["quote"] for o in data["citations"][0]["occurrences"]] == [PIP, SQLITE]
    assert Answer.from_json(data) == answer


def test_markers_backed_by_the_same_sentence_add_nothing() -> None:
    text = "Install with pip install citecast [^1]. You install it with pip [^1]."
    (citation,) = verify(_answer(text, GUIDE)).citations
    assert citation.quote == PIP
    assert citation.occurrences == ()
    assert "occurrences" not in citation.to_json()


def test_a_single_marker_adds_nothing() -> None:
    (citation,) = verify(_answer("The index is a single SQLite file [^1].", GUIDE)).citations
    assert citation.quote == SQLITE
    assert citation.occurrences == ()


def test_only_the_weak_marker_is_weak() -> None:
    text = f"Install with pip install citecast [^1]. {INVENTED} [^1]."
    (citation,) = verify(_answer(text, GUIDE)).citations
    assert citation.support is not None and citation.support < 0.35  # the weakest decides
    first, second = citation.occurrences
    assert first.support == 1.0 and first.quote == PIP
    assert second.support is not None and second.support < 0.35


def test_the_occurrences_follow_other_citations_between_them() -> None:
    text = (
        "Install with pip install citecast [^1]. Socket Mode needs no public URL [^2]. "
        "The index is a single SQLite file [^1]."
    )
    guide, faq = verify(_answer(text, GUIDE, FAQ)).citations
    assert [o.quote for o in guide.occurrences] == [PIP, SQLITE]
    assert faq.occurrences == ()


def test_the_models_own_quote_stays_with_the_marker_it_backs() -> None:
    # the resolver kept the quote the model wrote in a tag; the passage holds it
    answer = _answer(TWO_CLAIMS, GUIDE, quote="pip install citecast")
    (citation,) = verify(answer).citations
    assert citation.quote == "pip install citecast"
    assert [o.quote for o in citation.occurrences] == ["pip install citecast", SQLITE]
    assert citation.occurrences[0].deep_link == citation.deep_link


def test_drop_lines_the_occurrences_up_with_the_markers_left() -> None:
    text = (
        f"Install with pip install citecast [^1]. {INVENTED} [^1]. "
        "The index is a single SQLite file [^1]."
    )
    answer = verify(_answer(text, GUIDE), policy=GroundingPolicy(mode="drop"))
    assert answer.text.count("[^1]") == 2
    (citation,) = answer.citations
    assert [o.quote for o in citation.occurrences] == [PIP, SQLITE]


def test_drop_renumbers_the_occurrences_with_their_citation() -> None:
    text = (
        f"{INVENTED} [^2]. Socket Mode needs no public URL [^1]. "
        "Install with pip install citecast [^2]. The index is a single SQLite file [^2]."
    )
    answer = verify(_answer(text, FAQ, GUIDE), policy=GroundingPolicy(mode="drop"))
    assert answer.text.endswith("citecast [^2]. The index is a single SQLite file [^2].")
    faq, guide = answer.citations
    assert (faq.source, guide.source) == (FAQ, GUIDE)
    assert [o.quote for o in guide.occurrences] == [PIP, SQLITE]


def test_a_marker_in_code_is_not_an_occurrence() -> None:
    text = (
        "Install with pip install citecast [^1]. Write `[^1]` for a footnote. "
        "The index is a single SQLite file [^1]."
    )
    (citation,) = verify(_answer(text, GUIDE)).citations
    assert [o.quote for o in citation.occurrences] == [PIP, SQLITE]


def test_a_citation_without_a_quote_has_no_occurrences() -> None:
    citation = Citation(1, GUIDE, 1, quote=PIP, occurrences=(Occurrence(PIP), Occurrence(SQLITE)))
    assert len(citation.occurrences) == 2
    # as a file no longer readable is shown (bot.connectors.web_file_access.removed)
    gone = Citation(1, GUIDE, 1, occurrences=citation.occurrences)
    assert gone.occurrences == ()
