"""The row of a table that a claim is quoted with, rather than the table's header.

A claim made from a row names its columns ("Expense: Hotel; Limit per day: 140 EUR; …"), so
the header line holds more of its words than the row that backs it, and two rows side by side
more than one: the quote was the header, or rows glued together (:mod:`bot.table_quotes`).
"""

from __future__ import annotations

import pytest

from bot.knowledge.html_reader import read_html
from bot.table_quotes import row_quote

TRAVEL = """## Limits

| Expense | Limit per day | Receipt needed |
|---|---|---|
| Hotel | 140 EUR | yes |
| Meals | 45 EUR | over 10 EUR |
| Taxi | 60 EUR | yes |

Expenses are reimbursed with the next monthly salary payment."""
HOURS = """| Team | Core hours | Shift length |
|---|---|---|
| Office | 10:00–15:00 | 8 hours |
| Warehouse day shift | 06:00–14:00 | 8 hours |"""
HEADER = "| Expense | Limit per day | Receipt needed |"
GLUED = "| Office | 10:00–15:00 | 8 hours | | Warehouse day shift | 06:00–14:00 | 8 hours |"


@pytest.mark.parametrize(
    ("passage", "claim", "quote", "row"),
    [
        (
            TRAVEL,
            "Expense: Hotel; Limit per day: 140 EUR; Receipt needed: yes",
            HEADER,
            "| Hotel | 140 EUR | yes |",
        ),
        (
            TRAVEL,
            "Expense: Meals; Limit per day: 45 EUR; Receipt needed: over 10 EUR",
            HEADER,
            "| Meals | 45 EUR | over 10 EUR |",
        ),
        (
            HOURS,
            "Team: Office; Core hours: 10:00–15:00; Shift length: 8 hours",
            GLUED,
            "| Office | 10:00–15:00 | 8 hours |",
        ),
        (
            HOURS,
            "Team: Warehouse day shift; Core hours: 06:00–14:00; Shift length: 8 hours",
            GLUED,
            "| Warehouse day shift | 06:00–14:00 | 8 hours |",
        ),
    ],
)
def test_a_header_or_glued_rows_give_way_to_the_row_the_claim_states(
    passage: str, claim: str, quote: str, row: str
) -> None:
    assert row_quote(passage, claim, quote) == row
    assert row in passage  # as the passage writes it: page narrowing and links find it


def test_an_html_table_row_is_quoted_as_the_reader_holds_it() -> None:
    page = (
        "<h2>Return fees</h2><table><tr><th>Shipment type</th><th>Return fee</th></tr>"
        "<tr><td>Parcel</td><td>8 EUR</td></tr><tr><td>Pallet</td><td>95 EUR</td></tr></table>"
    )
    passage = read_html(page, "returns.html").blocks[0].text
    claim = "Shipment type: Pallet; Return fee: 95 EUR"
    assert row_quote(passage, claim, "| Shipment type | Return fee |") == "| Pallet | 95 EUR |"


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        # prose is no row: it stays
        ("Expenses are reimbursed monthly", "Expenses are reimbursed with the next monthly"),
        # no row holds a word of the claim (only the header's): the quote stays
        ("The limit per day needs a receipt", HEADER),
        ("Anything", None),
    ],
)
def test_any_other_quote_stays(claim: str, quote: str | None) -> None:
    assert row_quote(TRAVEL, claim, quote) == quote
