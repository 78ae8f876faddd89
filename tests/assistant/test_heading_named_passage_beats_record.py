"""A passage whose own heading names the question beats a record sharing one word of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive_keys import word_key
from bot.assistant.extractive_records import RecordPick
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.records import RecordTables
from bot.models import Source
from tests.assistant.conftest import EXAMPLES

HELP_DESK = """\
# Help desk

## Support hours

Support is available from 8 am to 6 pm Central European Time on weekdays.
"""


@pytest.mark.parametrize(
    "question", ["What are the support hours?", "What are your support hours?", "support hours"]
)
async def test_support_hours_are_answered_from_the_passage_not_a_plan(
    tmp_path: Path, question: str, tables: RecordTables
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "helpdesk.md").write_text(HELP_DESK, encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    ingest([EXAMPLES, docs], settings.index)
    # the products table as the shipped config.yaml has it (conftest's ``tables``)
    assistant = Assistant(settings, KnowledgeIndex(settings.index.path), records=tables)
    answer = await assistant.answer(question, frozenset({"public"}))
    assert "8 am to 6 pm" in answer.text, answer.text
    # "support" names the add-on's label and "hours" its "within 1 hour": a plan is no answer
    assert [c.source.filename for c in answer.citations] == ["helpdesk.md"], answer.text


ADD_ON = Source(
    id="products/CC-SUP",
    kind="record",
    label="Priority support add-on (CC-SUP)",
    columns={"support": "phone within 1 hour"},
)


def _keys(*words: str) -> frozenset[str]:
    return frozenset(word_key(w) for w in words)


def test_records_give_way_to_a_heading_that_holds_every_question_word() -> None:
    pick = RecordPick((ADD_ON,), labelled=frozenset({ADD_ON.id}))
    headings = [_keys("help", "desk"), _keys("support", "hours")]
    assert pick.giving_way(["support", "hours"], headings).records == ()
    # a verb that only carries the question is no word the heading must hold
    assert pick.giving_way(["support", "hours", "come"], headings).records == ()


@pytest.mark.parametrize(
    ("asked", "headings"),
    [
        (["support", "hours"], [_keys("support"), _keys("opening", "hours")]),  # spread out
        (["support"], [_keys("support")]),  # one word names a topic, not the question
        (["support", "price", "add-on"], [_keys("support", "price")]),  # a word it lacks
    ],
)
def test_records_stay_beside_headings_that_do_not_name_the_question(
    asked: list[str], headings: list[frozenset[str]]
) -> None:
    pick = RecordPick((ADD_ON,), labelled=frozenset({ADD_ON.id}))
    assert pick.giving_way(asked, headings).records == (ADD_ON,)


def test_a_table_listing_stays_beside_a_heading_that_names_the_question() -> None:
    pick = RecordPick((ADD_ON,), listing=True)
    assert pick.giving_way(["plans", "prices"], [_keys("plans", "prices")]).records == (ADD_ON,)
