"""A citation of a table row is quoted with that row, and links it (bot.table_quotes).

QA: "Expense: Hotel; Limit per day: 140 EUR; Receipt needed: yes [^1]." was quoted with the
header line '| Expense | Limit per day | Receipt needed |', and the Office row of the core hours
with two rows glued together; the link went to the header, or to nothing on the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.grounding import verify
from bot.models import Answer, Citation, Source
from tests.assistant.handbook_index import TRAVEL, ingested

RETURNS = (
    "<html><head><title>Returns</title></head><body><h2>Return fees</h2><table>"
    "<tr><th>Shipment type</th><th>Return fee</th></tr>"
    "<tr><td>Parcel</td><td>8 EUR</td></tr><tr><td>Pallet</td><td>95 EUR</td></tr>"
    "</table></body></html>"
)


@pytest.mark.parametrize(
    ("question", "quote"),
    [
        ("What is the hotel limit?", "| Hotel | 140 EUR | yes |"),
        ("How much can I spend on meals per day?", "| Meals | 45 EUR | over 10 EUR |"),
        ("What is the return fee for a pallet?", "| Pallet | 95 EUR |"),
    ],
)
def test_the_answer_quotes_the_row_it_states(
    tmp_path: Path, question: str, quote: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(tmp_path, {"travel.md": TRAVEL, "returns.html": RETURNS})
    capsys.readouterr()
    assert main(["--config", str(config), "ask", "--json", question]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [c["quote"] for c in answer["citations"]] == [quote]


def test_rows_glued_into_one_window_give_way_to_the_row() -> None:
    source = Source(
        id="o",
        title="Onboarding",
        url="https://docs.example/onboarding",
        media_type="text/markdown",
        text=(
            "| Team | Core hours | Shift length |\n|---|---|---|\n"
            "| Office | 10:00–15:00 | 8 hours |\n| Warehouse day shift | 06:00–14:00 | 8 hours |"
        ),
    )
    text = "Team: Office; Core hours: 10:00–15:00; Shift length: 8 hours [^1]."
    checked = verify(Answer(text=text, citations=(Citation(1, source, 1),)))
    (citation,) = checked.citations
    assert citation.quote == "| Office | 10:00–15:00 | 8 hours |"
    assert citation.deep_link == "https://docs.example/onboarding#:~:text=Office"
