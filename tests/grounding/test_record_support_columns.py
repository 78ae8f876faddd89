"""A claim stating several columns of a record: each number is read beside its own column's name.

"The Team plan costs $19 and has up to 50 seats" was capped at 0.15 against the sample's Team
record: it names the Seats column, and 19 (the price) was taken to sit beside it although "$19"
stands apart from "seats". A number is beside the word after it, the word before it in its
clause, or a currency sign, so the claim is supported while "has 19 seats" stays capped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.config import RecordTable
from bot.grounding import GroundingPolicy, passage_of, verify
from bot.knowledge.records import RecordTables
from bot.models import Answer, Citation, Source
from bot.record_support import record_match
from bot.support import LexicalScorer

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = frozenset({"public"})


def _sample_records() -> RecordTables:
    # the sample table exactly as config.yaml lists it (column_labels and all)
    config = yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))
    (entry,) = config["index"]["records"]
    return RecordTables([RecordTable.model_validate({**entry, "csv": str(ROOT / entry["csv"])})])


_TABLES = _sample_records()
TEAM = _TABLES.lookup("products", "CC-TEAM", PUBLIC, limit=1)[0]
BUSINESS = _TABLES.lookup("products", "CC-BIZ", PUBLIC, limit=1)[0]
ENTERPRISE = _TABLES.lookup("products", "CC-ENT", PUBLIC, limit=1)[0]
PROSE = Source(
    id="pricing.md#1",
    title="Pricing",
    url="https://docs.example.org/pricing",
    text="citecast has a free Community plan and paid Team and Business plans.",
)

SEVERAL_COLUMNS = [
    "The Team plan costs $19 and has up to 50 seats.",
    "The Team plan costs 19 dollars and has up to 50 seats.",
    "The Team plan costs USD 19, 50 seats.",
    "The Team plan has up to 50 seats and costs 19 $ per month.",
    "The Team plan has up to fifty seats for $19 a month.",
    "The Team plan has 50 seats at a price of 19.",
    "Team: 19, up to 50 seats.",  # each named column has its own number beside it
    # the built-in answerer's line, which gives every shown column
    "citecast Team (CC-TEAM): Tier: team; Price (USD): 19; Seats: up to 50; "
    "Support: email within 2 business days.",
]
CAPPED = [
    "The Team plan has 19 seats.",  # the price, beside the seats
    "Seats: 19 for the Team plan.",
    "The Team plan has 19 seats and costs $19.",
    "The Team plan costs $50 and has up to 19 seats.",  # the columns swapped
    "The Team plan costs $50 and has up to 50 seats.",  # the seats given as the price
    "The Team plan costs $29 and has up to 50 seats.",  # a number the record does not hold
    "The Team plan costs $19 and has up to 500 seats.",
    "The seats of the Team plan number 19.",  # a named column beside no number
]


def _in_every_text(term: str) -> bool:
    return LexicalScorer([passage_of(s) for s in (TEAM, BUSINESS, PROSE)]).in_every_text(term)


def test_the_sample_team_record_is_labelled_as_config_yaml_says() -> None:
    assert TEAM.columns is not None
    assert (TEAM.columns["Price (USD)"], TEAM.columns["Seats"]) == ("19", "up to 50")


@pytest.mark.parametrize("claim", SEVERAL_COLUMNS)
def test_a_claim_stating_several_columns_rightly_matches_the_record(claim: str) -> None:
    assert record_match(TEAM, claim, _in_every_text) == "match"


@pytest.mark.parametrize("claim", CAPPED)
def test_a_number_beside_another_columns_name_or_not_held_conflicts(claim: str) -> None:
    assert record_match(TEAM, claim, _in_every_text) == "conflict"


@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("The Team plan costs $19.", "match"),
        ("The Team plan costs 19 dollars.", "match"),
        ("The Team plan costs 50 dollars.", "conflict"),  # 50 is the seats, not money
        ("The Team plan has up to 50 seats.", "match"),
    ],
)
def test_one_column_claims_keep_their_verdict(claim: str, verdict: str) -> None:
    assert record_match(TEAM, claim, _in_every_text) == verdict


def test_a_number_beside_no_column_may_belong_to_the_column_named_beside_another() -> None:
    # "24/7": 24 is beside "Support", and 7, beside nothing, is in the column the claim names
    line = (
        "citecast Enterprise (CC-ENT): Tier: enterprise; Price (USD): contact sales; "
        "Seats: unlimited; Support: 24/7 with a named engineer."
    )
    assert record_match(ENTERPRISE, line, _in_every_text) == "match"


class _Evidence:
    def evidence(self) -> list[Source]:
        return [TEAM, BUSINESS, PROSE]


def _verify(text: str, mode: str = "annotate") -> Answer:
    answer = Answer(text, (Citation(n=1, source=TEAM, source_number=1),))
    policy = GroundingPolicy(mode="drop" if mode == "drop" else "annotate")
    return verify(answer, _Evidence(), policy)


def test_grounding_supports_price_and_seats_in_one_sentence() -> None:
    claim = "The Team plan costs $19 and has up to 50 seats [^1]."
    (citation,) = _verify(claim).citations
    assert citation.support is not None and citation.support >= 0.35, citation.support
    assert citation.quote == "Price (USD): 19. Seats: up to 50"
    assert _verify(claim, "drop").dropped == ()


def test_grounding_still_caps_the_price_given_as_seats() -> None:
    (citation,) = _verify("The Team plan has 19 seats [^1].").citations
    assert citation.support is not None and citation.support < 0.35
    assert [d.reason for d in _verify("The Team plan has 19 seats [^1].", "drop").dropped] == [
        "unsupported"
    ]
