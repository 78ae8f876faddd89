"""A record citation's quote holds the column lines its sentence states (the price of a cost
answer), not the best one- or two-line window a document passage would get."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.grounding import record_quote, verify
from bot.models import Answer, Citation, Source

COLUMNS = {
    "tier": "team",
    "price_usd": "19",
    "seats": "up to 50",
    "support": "email within 2 business days",
}
TEAM = Source(
    id="products/CC-TEAM",
    kind="record",
    label="citecast Team (CC-TEAM)",
    columns=COLUMNS,
    # as bot.knowledge.record_sources writes a record's text
    text="citecast Team (CC-TEAM). " + ". ".join(f"{k}: {v}" for k, v in COLUMNS.items()),
)


def _cite(text: str, source: Source = TEAM) -> Citation:
    answer = Answer(text=text, citations=(Citation(n=1, source=source, source_number=1),))
    (citation,) = verify(answer).citations
    return citation


def test_a_record_line_is_quoted_with_every_column_it_states() -> None:
    # the built-in answerer's line for "What does the Team plan cost?"
    citation = _cite(
        "citecast Team (CC-TEAM): tier: team; price_usd: 19; seats: up to 50; "
        "support: email within 2 business days [^1]."
    )
    assert citation.quote == (
        "tier: team. price_usd: 19. seats: up to 50. support: email within 2 business days"
    )
    assert citation.support is not None and citation.support >= 0.85


def test_a_cost_sentence_is_quoted_with_the_price_line() -> None:
    # "team" names the record (its label), so "tier: team" is not what the sentence states
    assert _cite("The Team plan costs 19 dollars a month [^1].").quote == "price_usd: 19"
    assert _cite("Team answers email within 2 business days [^1].").quote == (
        "support: email within 2 business days"
    )


def test_a_model_quote_the_record_holds_is_kept() -> None:
    answer = Answer(
        text="The Team plan costs 19 dollars [^1].",
        citations=(Citation(n=1, source=TEAM, source_number=1, quote="seats: up to 50"),),
    )
    (citation,) = verify(answer).citations
    assert citation.quote == "seats: up to 50"


def test_documents_and_unmatched_claims_keep_the_window_quote() -> None:
    page = Source(id="faq#1", title="FAQ", text="Team costs 19 dollars. Seats: up to 50.")
    assert record_quote(page, "Team costs 19 dollars") is None
    assert record_quote(TEAM, "citecast Team is a plan") is None
    # a record whose text is not its column lines (a plug-in's) gets no column quote
    assert record_quote(replace(TEAM, text="Team: 19"), "costs 19") is None


def test_a_blank_column_between_stated_ones_stays_in_the_span() -> None:
    columns = {"price_usd": "19", "seats": "", "support": "email"}
    record = replace(
        TEAM,
        columns=columns,
        text="citecast Team (CC-TEAM). price_usd: 19. seats: . support: email",
    )
    assert record_quote(record, "Team costs 19 with email support") == (
        "price_usd: 19. seats: . support: email"
    )
    # a blank value states nothing, even under a column name the claim uses
    assert record_quote(record, "Team has seats") is None


@given(st.lists(st.sampled_from(sorted(COLUMNS)), min_size=1, unique=True))
def test_the_quote_is_a_span_of_the_record_holding_every_stated_value(picked: list[str]) -> None:
    claim = "The plan has " + " and ".join(f"{k} {COLUMNS[k]}" for k in picked)
    quote = record_quote(TEAM, claim)
    assert quote is not None and TEAM.text is not None
    assert quote in TEAM.text
    for key in picked:
        assert f"{key}: {COLUMNS[key]}" in quote
