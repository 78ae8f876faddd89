"""Of a table's rows, the built-in answerer answers the ones the question names.

Each row reads with its header ("Expense: Meals; Limit per day: 45 EUR; …"), so the header's
words are every row's: "What is the limit per day for meals?" was answered with the Hotel,
Meals and Taxi rows, Hotel first. A row's own cells tell the rows apart; a question none of
them names ("What are the core hours?") is about the whole table. An HTML page's table is read
as a Markdown one is (its ``<th>`` row the header), so its rows answer the same way, instead of
"Shipment type | Return fee [1]. Parcel | 8 EUR [1]. Pallet | 95 EUR [1]. See also the shipping
page [1]." Beside the row that answers, a sentence chosen only for its heading's words ("Return
fees") goes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.handbook_index import TRAVEL, ask, ingested

HOURS = """# Onboarding

## Working hours

| Team | Core hours | Shift length |
|---|---|---|
| Office | 10:00–15:00 | 8 hours |
| Warehouse day shift | 06:00–14:00 | 8 hours |
| Warehouse night shift | 22:00–06:00 | 8 hours |

Overtime must be approved in advance by your shift lead.
"""

RETURNS = """<!doctype html>
<html><head><title>Returns policy</title></head><body><main>
<h1>Returns policy</h1>
<p>Customers may return undamaged goods within 60 days of delivery.</p>
<h2>Return fees</h2>
<table>
<tr><th>Shipment type</th><th>Return fee</th></tr>
<tr><td>Parcel</td><td>8 EUR</td></tr>
<tr><td>Pallet</td><td>95 EUR</td></tr>
</table>
<p>See also the <a href="shipping.htm">shipping page</a>.</p>
</main></body></html>"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return ingested(
        tmp_path, {"travel.md": TRAVEL, "onboarding.md": HOURS, "returns.html": RETURNS}
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "What is the limit per day for meals?",
            "Expense: Meals; Limit per day: 45 EUR; Receipt needed: over 10 EUR [1].",
        ),
        (
            "What is the hotel limit?",
            "Expense: Hotel; Limit per day: 140 EUR; Receipt needed: yes [1].",
        ),
        # "warehouse" and "shift" are the day shift's words too; "night" is the night shift's
        (
            "When does the warehouse night shift start?",
            "Team: Warehouse night shift; Core hours: 22:00–06:00; Shift length: 8 hours [1].",
        ),
        (
            "What is the return fee for a pallet?",
            "Shipment type: Pallet; Return fee: 95 EUR [1].",
        ),
    ],
)
def test_only_the_row_the_question_names_is_answered(
    config: Path, question: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(config, question, capsys)
    assert text == answer


def test_a_question_about_the_whole_table_gets_its_rows_in_order(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(config, "What are the core hours?", capsys)
    assert text == (
        "Team: Office; Core hours: 10:00–15:00; Shift length: 8 hours [1]. "
        "Team: Warehouse day shift; Core hours: 06:00–14:00; Shift length: 8 hours [1]. "
        "Team: Warehouse night shift; Core hours: 22:00–06:00; Shift length: 8 hours [1]."
    )
