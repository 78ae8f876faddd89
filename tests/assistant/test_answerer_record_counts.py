"""An answer that lists only some of the records that answer says how many there are.

For a table of 20,000 offices, "How many offices are there?" and "List all offices" listed five
rows (``assistant.top_k``) and "Which offices have a headcount of 500?" two of 46, with no word
that more exist: a reader took the five for all the offices.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import RecordTable
from bot.knowledge.records import RecordTables
from tests.assistant.handbook_index import ask, ingested

ROWS = 240
# every 20th office has a headcount of 500: 12 of them
OFFICES = "code,city,headcount\n" + "".join(
    f"OF{i:04d},City{i},{500 if i % 20 == 0 else 100 + i % 97}\n" for i in range(ROWS)
)
GUIDE = "# Offices\n\nEvery office has a fire warden.\n"


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config with a table of 240 offices beside a one-line guide."""
    base = tmp_path_factory.mktemp("record-counts")
    (base / "offices.csv").write_text(OFFICES, encoding="utf-8")
    records = (
        "  records:\n"
        "    - name: offices\n"
        f"      csv: {base / 'offices.csv'}\n"
        "      id_column: code\n"
        '      label_template: "{city} office ({code})"\n'
        "      columns: [city, headcount]\n"
        "      description: Offices (where they are and their headcount)\n"
    )
    return ingested(base, {"guide.md": GUIDE}, records=records)


@pytest.mark.parametrize("question", ["How many offices are there?", "List all offices"])
def test_a_listing_says_how_many_rows_the_table_has(
    handbook: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    text, sources = ask(handbook, question, capsys)
    # before the rows, ending in a colon: it introduces them (and is no uncited claim)
    assert text.startswith("Showing 5 of 240 rows:\n\n- City0 office")
    assert text.count("\n- ") == 5
    assert len(sources.splitlines()) == 5


def test_records_matched_by_a_value_say_how_many_match(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, sources = ask(handbook, "Which offices have a headcount of 500?", capsys)
    assert text.startswith(
        "Showing 2 of 12 matching rows:\n\nCity0 office (OF0000): city: City0; headcount: 500 [1]. "
    )
    assert len(sources.splitlines()) == 2


def test_an_answer_that_shows_every_match_adds_nothing(
    handbook: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, _ = ask(handbook, "What is the headcount of the City7 office?", capsys)
    assert text == "City7 office (OF0007): city: City7; headcount: 107 [1]."


def test_the_count_is_the_tables_own(tmp_path: Path) -> None:
    (tmp_path / "offices.csv").write_text(OFFICES, encoding="utf-8")
    table = RecordTable(
        name="offices",
        csv=str(tmp_path / "offices.csv"),
        id_column="code",
        columns=["city", "headcount"],
        audience=["staff"],
    )
    tables = RecordTables([table])
    staff = frozenset({"staff"})
    assert tables.count("offices", (), staff) == ROWS
    assert tables.count("offices", ["500"], staff) == 12
    assert tables.count("offices", ["500", "City20"], staff) == 1
    # a stop word narrows nothing down; a table the viewer may not see counts nothing
    assert tables.count("offices", ["the"], staff) == ROWS
    assert tables.count("offices", (), frozenset()) == 0
