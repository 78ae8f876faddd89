"""An amount asked about a word nothing the viewer may read holds is not answered with a stray line.

"How much do warehouse operators earn?", asked by the public (the salary bands are staff-only),
was answered with a forklift manual's opening sentence, and "How much do shift leads earn?"
with "Overtime must be approved in advance by your shift lead": sentences that hold the
question's other words, state no amount, and say nothing of earning.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from bot.assistant.extractive_amounts import asks_an_amount, states_an_amount
from bot.cli import main
from tests.assistant.handbook_index import ingested

MANUAL = """\
# Forklift FL-200 operator manual

This manual covers the FL-200 electric forklift used in all Northwind warehouses. Before each
shift, check the tyre pressure, the hydraulic fluid level and the horn.
"""

ONBOARDING = """\
# Onboarding at Northwind

## Working hours

Warehouse shifts last eight hours. Overtime must be approved in advance by your shift lead.

## Lockers

A replacement locker key costs 15 EUR at the front desk.
"""

SALARIES = """\
---
audience: staff
---
# Salary bands

Warehouse operators earn between 34,000 and 41,000 EUR per year.
Shift leads earn between 45,000 and 52,000 EUR per year.
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds a manual, an onboarding guide and staff-only salary bands."""
    base = tmp_path_factory.mktemp("amounts")
    documents = {"manual.md": MANUAL, "onboarding.md": ONBOARDING, "salaries.md": SALARIES}
    return ingested(base, documents)


def _ask(config: Path, question: str, capsys: pytest.CaptureFixture[str], *audience: str) -> str:
    capsys.readouterr()
    flags = [arg for group in audience for arg in ("--audience", group)]
    assert main(["--config", str(config), "ask", question, *flags]) == 0
    return capsys.readouterr().out.partition("\n\nSources:\n")[0].strip()


@pytest.mark.parametrize(
    "question", ["How much do warehouse operators earn?", "How much do shift leads earn?"]
)
def test_an_amount_of_what_the_viewer_cannot_read_is_not_found(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    assert _ask(handbook, question, capsys) == NOT_FOUND


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "How much do warehouse operators earn?",
            "Warehouse operators earn between 34,000 and 41,000 EUR per year [1]",
        ),
        (
            "How much do shift leads earn?",
            "Shift leads earn between 45,000 and 52,000 EUR per year [1]",
        ),
    ],
)
def test_a_viewer_who_may_read_the_amount_gets_it(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, answer: str
) -> None:
    assert _ask(handbook, question, capsys, "staff").startswith(answer)


@pytest.mark.parametrize(
    ("question", "start"),
    [
        # every word is held somewhere the public may read
        ("How many hours does a warehouse shift last?", "Warehouse shifts last eight hours"),
        ("How much does a replacement locker key cost?", "A replacement locker key costs 15 EUR"),
        # no amount is asked: the rule does not apply
        ("Who approves overtime?", "Overtime must be approved in advance"),
    ],
)
def test_amounts_the_documents_state_are_still_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, start: str
) -> None:
    assert _ask(handbook, question, capsys).startswith(start)


def test_a_number_is_digits_no_letter_opens_or_a_number_word() -> None:
    assert states_an_amount("They earn between 34,000 and 41,000 EUR per year.")
    assert states_an_amount("The car park opens at 05:30.")
    assert states_an_amount("Shifts last eight hours.")
    assert states_an_amount("The Team plan has unlimited seats.")
    assert not states_an_amount("This manual covers the FL-200 electric forklift.")
    assert not states_an_amount("Overtime must be approved by your shift lead.")


def test_an_amount_is_asked_by_how_much_or_how_many() -> None:
    assert asks_an_amount("Hi, how much do shift leads earn?")
    assert asks_an_amount("How many seats does the Team plan have?")
    assert not asks_an_amount("How do I reset my VPN token?")
    assert not asks_an_amount("Who approves overtime?")
