"""A question asking for a fact about a name the knowledge base never mentions is not answered.

"When does the Frankfurt office open?" was answered "The staff car park opens at 05:30 [1]."
and "Who manages the Berlin warehouse?" with the list of the other warehouses, where nothing
names Frankfurt or Berlin: the not-found rule for unknown names held yes/no questions only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive import NOT_FOUND
from tests.assistant.handbook_index import ask, ingested

ONBOARDING = """\
# Onboarding at Northwind

## Parking

The staff car park opens at 05:30. Bicycle racks are behind building C.

## Hamburg office

The Hamburg office opens at 08:00 on weekdays and is closed on public holidays.
"""

WAREHOUSES = """\
code,city,manager
HB1,Bremen,Anna Schulz
HH2,Hamburg,Jonas Weber
"""


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config whose index holds an onboarding guide, with a table of warehouses."""
    base = tmp_path_factory.mktemp("unknown-names")
    (base / "warehouses.csv").write_text(WAREHOUSES, encoding="utf-8")
    records = (
        "  records:\n"
        "    - name: warehouses\n"
        f"      csv: {base / 'warehouses.csv'}\n"
        "      id_column: code\n"
        '      label_template: "{city} ({code})"\n'
        "      columns: [city, manager]\n"
        "      description: Warehouses (where they are and who manages them)\n"
    )
    return ingested(base, {"onboarding.md": ONBOARDING}, records=records)


@pytest.mark.parametrize(
    "question",
    [
        "When does the Frankfurt office open?",
        "What time does the Frankfurt office open?",
        "Who manages the Berlin warehouse?",
        "Hi, where is the Dresden office?",
        "How long is the Frankfurt office open?",
    ],
)
def test_a_fact_about_a_name_nothing_holds_is_not_found(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    assert ask(handbook, question, capsys) == (NOT_FOUND, "")


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("When does the Hamburg office open?", "The Hamburg office opens at 08:00"),
        ("When does the staff car park open?", "The staff car park opens at 05:30"),
        # a how-to is answered with what holds wherever it names
        ("How do I park at the Frankfurt office?", "The staff car park opens at 05:30"),
    ],
)
def test_facts_about_names_it_holds_are_still_answered(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str, start: str
) -> None:
    assert ask(handbook, question, capsys)[0].startswith(start)
