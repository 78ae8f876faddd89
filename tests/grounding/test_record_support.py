"""A claim cited to a record is scored on the values it states, matched to the record's columns."""

from __future__ import annotations

import pytest

from bot.evaluation.metrics import answer_metrics, label_agreement
from bot.grounding import GroundingPolicy, passage_of, verify
from bot.models import Answer, Citation, Source
from bot.support import HARD_CHECK_CAP, LexicalScorer


def _record(sku: str, name: str, columns: dict[str, str]) -> Source:
    label = f"{name} ({sku})"
    # as bot.knowledge.record_sources writes a record (column_labels applied)
    text = f"{label}. " + ". ".join(f"{k}: {v}" for k, v in columns.items())
    return Source(
        id=f"products/{sku}", kind="record", label=label, title=label, columns=columns, text=text
    )


TEAM = _record(
    "CC-TEAM",
    "citecast Team",
    {
        "Tier": "team",
        "Price (USD)": "19",
        "Seats": "up to 50",
        "Support": "email within 2 business days",
    },
)
BUSINESS = _record(
    "CC-BIZ",
    "citecast Business",
    {
        "Tier": "business",
        "Price (USD)": "49",
        "Seats": "up to 500",
        "Support": "email and chat within 8 hours",
    },
)
PROSE = Source(
    id="pricing.md#1",
    title="Pricing",
    url="https://docs.example.org/pricing",
    text="citecast has a free Community plan and paid Team and Business plans.",
)


def _verify(text: str, mode: str = "annotate") -> Answer:
    answer = Answer(text, (Citation(n=1, source=TEAM, source_number=1),))
    policy = GroundingPolicy(mode="drop" if mode == "drop" else "annotate")
    return verify(answer, _Evidence(), policy)


class _Evidence:
    def evidence(self) -> list[Source]:
        return [TEAM, BUSINESS, PROSE]


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The Team plan costs 19 dollars [^1].", "Price (USD): 19"),
        ("The Team plan has up to 50 seats [^1].", "Seats: up to 50"),
        (
            "Team costs 19 USD per month for up to 50 seats [^1].",
            "Price (USD): 19. Seats: up to 50",
        ),
        (
            "Team answers email within 2 business days [^1].",
            "Support: email within 2 business days",
        ),
    ],
)
def test_a_claim_stating_the_records_values_is_supported(claim: str, quote: str) -> None:
    (citation,) = _verify(claim).citations
    assert citation.support is not None and citation.support >= 0.35
    assert citation.quote == quote
    assert _verify(claim, "drop").dropped == ()


@pytest.mark.parametrize(
    "claim",
    [
        "The Team plan costs 29 dollars [^1].",  # a number the record does not hold
        "The Team plan has up to 500 seats [^1].",
        "The Team plan has 19 seats [^1].",  # the price, put beside the seats
        "The Business plan costs 19 dollars [^1].",  # another record's subject
        "The Team plan does not cost 19 dollars [^1].",  # negated: left to prose scoring
        "The Team plan includes phone support [^1].",  # no value of the record stated
    ],
)
def test_a_claim_the_record_does_not_state_stays_weak(claim: str) -> None:
    (citation,) = _verify(claim).citations
    assert citation.support is not None and citation.support < 0.35


def test_eval_scores_records_as_live_grounding_does() -> None:
    scorer = LexicalScorer([passage_of(s) for s in (TEAM, BUSINESS, PROSE)])
    agreement, scores = label_agreement(
        [
            ("The Team plan costs 19 dollars.", TEAM, True),
            ("The Team plan costs 29 dollars.", TEAM, False),
        ],
        scorer,
        0.35,
    )
    assert (agreement.true_positive, agreement.true_negative) == (1, 1), scores
    answer = Answer(
        "The Team plan costs 19 dollars [^1].", (Citation(n=1, source=TEAM, source_number=1),)
    )
    assert answer_metrics(answer, scorer, 0.35).claims_in_source == 1.0


def test_prose_scoring_is_not_loosened() -> None:
    # the record path is for records: the same sentence against prose keeps the prose score
    answer = Answer(
        "The Team plan costs 19 dollars [^1].", (Citation(n=1, source=PROSE, source_number=1),)
    )
    (citation,) = verify(answer, _Evidence()).citations
    assert citation.support is not None and citation.support <= HARD_CHECK_CAP
