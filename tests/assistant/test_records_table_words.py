"""A record the question names by its label answers its table's name and its column names:
"Who manages the Hamburg warehouse?" is the ``warehouses`` table's Hamburg record's
``manager``, not prose that happens to mention a warehouse, a manager and Hamburg."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive_records import RecordPick
from bot.assistant.record_match import answered_terms, covered_terms
from bot.config import RecordTable, Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.records import RecordTables
from bot.knowledge.terms import query_terms
from bot.models import Source

PUBLIC = frozenset({"public"})

WAREHOUSES = """\
code,city,manager,capacity_pallets,cold_storage
HB1,Bremen,Anna Schulz,12000,yes
HH2,Hamburg,Jonas Weber,8500,no
MUC3,München,Lea Müller,6000,yes
"""

# Each passage explains two of the question's words, as the QA knowledge base's did.
ONBOARDING = """\
# Onboarding

## Laptop and accounts

Accounts for email and the warehouse system are created by your manager two days before you
start.
"""

HELP = """\
# Customer help

Customs papers are prepared by our Hamburg office.
"""

NOTES = """\
# Forklift licences

The training centre in Bremen runs refresher courses each March.
"""


def _table(csv_file: Path) -> RecordTable:
    return RecordTable(
        name="warehouses",
        csv=str(csv_file),
        id_column="code",
        label_template="{city} ({code})",
        columns=["city", "manager", "capacity_pallets", "cold_storage"],
        column_labels={"capacity_pallets": "Capacity (pallets)", "cold_storage": "Cold storage"},
        description="Warehouses and depots (where they are, who manages them, capacity)",
    )


@pytest.fixture
def assistant(tmp_path: Path) -> Assistant:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "onboarding.md").write_text(ONBOARDING, encoding="utf-8")
    (kb / "help.md").write_text(HELP, encoding="utf-8")
    (kb / "notes.md").write_text(NOTES, encoding="utf-8")
    csv_file = tmp_path / "warehouses.csv"
    csv_file.write_text(WAREHOUSES, encoding="utf-8")
    table = _table(csv_file)
    settings = Settings.model_validate(
        {
            "index": {"path": str(tmp_path / "index.db"), "records": [table.model_dump()]},
            "grounding": {"policy": "off"},
        }
    )
    report = ingest([kb], settings.index)
    assert report.indexed == 3 and not report.skipped
    return Assistant(settings, KnowledgeIndex(settings.index.path), records=RecordTables([table]))


@pytest.mark.parametrize(
    ("question", "line"),
    [
        (
            "Who manages the Hamburg warehouse?",
            "Hamburg (HH2): city: Hamburg; manager: Jonas Weber; Capacity (pallets): 8500; "
            "Cold storage: no [^1].",
        ),
        (
            "Who manages the Bremen warehouse?",
            "Bremen (HB1): city: Bremen; manager: Anna Schulz; Capacity (pallets): 12000; "
            "Cold storage: yes [^1].",
        ),
        (
            "Who is the manager of the Hamburg warehouse?",
            "Hamburg (HH2): city: Hamburg; manager: Jonas Weber; Capacity (pallets): 8500; "
            "Cold storage: no [^1].",
        ),
    ],
)
async def test_the_record_the_question_names_answers_its_table_and_column_words(
    assistant: Assistant, question: str, line: str
) -> None:
    answer = await assistant.answer(question, PUBLIC)
    # the record alone: no sentence about "your manager" or "our Hamburg office" after it
    assert answer.text == line
    code = line.split("(", 1)[1].split(")", 1)[0]  # the row id the record's label holds
    assert [c.source.id for c in answer.citations] == [f"warehouses/{code}"]


async def test_prose_questions_are_still_answered_by_prose(assistant: Assistant) -> None:
    answer = await assistant.answer("Who prepares customs papers?", PUBLIC)
    assert answer.text == "Customs papers are prepared by our Hamburg office [^1]."
    assert [c.source.kind for c in answer.citations] == ["passage"]


def _hamburg(tmp_path: Path) -> Source:
    csv_file = tmp_path / "warehouses.csv"
    csv_file.write_text(WAREHOUSES, encoding="utf-8")
    [record] = RecordTables([_table(csv_file)]).lookup("warehouses", "HH2", PUBLIC, limit=1)
    return record


def test_only_a_record_named_by_its_label_answers_its_table_and_column_words(
    tmp_path: Path,
) -> None:
    record = _hamburg(tmp_path)
    terms = query_terms("Who manages the Hamburg warehouse?")
    assert covered_terms(record, terms) == {"hamburg"}
    assert answered_terms(record, terms) == {"hamburg", "warehous", "manag"}
    assert RecordPick((record,)).answered(record, terms) == {"hamburg"}
    named = RecordPick((record,), labelled=frozenset({record.id}))
    assert named.answered(record, terms) == {"hamburg", "warehous", "manag"}
    assert named.keeping(terms, 3).records == (record,)
    assert RecordPick((record,)).keeping(terms, 2).records == ()


@pytest.mark.parametrize(
    ("column", "question", "verb"),
    [
        ("owner", "Who owns the Hamburg site?", {"own"}),
        ("editor", "Who edits the Hamburg page?", {"edit"}),
        ("shipper", "Who ships from Hamburg?", {"ship"}),
        ("driver", "Who drives to Hamburg?", {"drive"}),
        # too short a name to tell a doer from a word that only looks like one: "use" is not
        # asked of a "user" column
        ("user", "How do I use Hamburg?", set()),
    ],
)
def test_a_column_named_for_a_doer_answers_its_verb(
    column: str, question: str, verb: set[str]
) -> None:
    record = Source(id="places/HH", kind="record", label="Hamburg", columns={column: "x"})
    terms = query_terms(question)
    assert answered_terms(record, terms) - covered_terms(record, terms) == verb
