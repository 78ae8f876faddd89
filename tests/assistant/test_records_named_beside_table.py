"""A question that names a record by its label is answered by that record, not by the rows of
a Markdown table that never names it.

With a table of Bronze, Silver and Gold support plans (``| Plan | Response time | Price per
month |``) beside the products records, "How much does the Team plan cost?" listed the Bronze,
Silver and Gold rows and never mentioned Team: the rows hold "plan", "price" and "month" in
their header, so the passages explained more of the question's words than the Team record's
line, which was dropped, and no row's cells named a question word, so every row was kept as if
the question were about the whole table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.extractive_records import RecordPick
from bot.assistant.extractive_tables import matching_rows
from bot.knowledge.terms import query_terms, stem
from bot.models import Source
from tests.assistant.handbook_index import ask, ingested

PRODUCTS = """\
sku,name,tier,price_usd,seats
CC-FREE,citecast Community,free,0,unlimited
CC-TEAM,citecast Team,team,19,up to 50
CC-BIZ,citecast Business,business,49,up to 500
CC-ENT,citecast Enterprise,enterprise,contact sales,unlimited
"""

SUPPORT_PLANS = """\
# Support plans

The table below lists our support plans.

| Plan | Response time | Price per month |
| --- | --- | --- |
| Bronze | 48 hours | 10 USD |
| Silver | 8 hours | 50 USD |
| Gold | 1 hour | 200 USD |

Gold customers also get a named account manager.
"""

GUIDE = """\
# Getting started

## Who runs citecast

An administrator installs citecast for a team and answers its questions about the index.
"""


@pytest.fixture(scope="module")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("named-beside-table")
    (base / "products.csv").write_text(PRODUCTS, encoding="utf-8")
    records = (
        "  records:\n"
        "    - name: products\n"
        f"      csv: {base / 'products.csv'}\n"
        "      id_column: sku\n"
        '      label_template: "{name} ({sku})"\n'
        "      columns: [tier, price_usd, seats]\n"
        "      description: Plans and pricing (what each plan costs and its seats)\n"
    )
    documents = {"support-plans.md": SUPPORT_PLANS, "guide.md": GUIDE}
    return ingested(base, documents, records=records)


@pytest.mark.parametrize(
    "question",
    [
        "How much does the Team plan cost?",
        "What is the price of the Team plan?",
        "How much is the Team plan per month?",
        "What does the Team plan cost per month?",
    ],
)
def test_the_named_record_answers_not_rows_that_never_name_it(
    knowledge: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    answer, sources = ask(knowledge, question, capsys)
    assert answer.startswith("citecast Team (CC-TEAM): ")
    assert "price_usd: 19" in answer
    for row in ("Bronze", "Silver", "Gold"):
        assert row not in answer, answer
    assert "support-plans.md" not in sources


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("What is the response time of the Gold plan?", "Plan: Gold; Response time: 1 hour"),
        ("How much does the Silver support plan cost per month?", "Plan: Silver"),
    ],
)
def test_a_row_that_names_the_thing_is_still_answered(
    knowledge: Path, capsys: pytest.CaptureFixture[str], question: str, row: str
) -> None:
    answer = ask(knowledge, question, capsys)[0]
    assert row in answer, answer
    assert "Bronze" not in answer


def _team() -> Source:
    columns = {"tier": "team", "price_usd": "19"}
    label = "citecast Team (CC-TEAM)"
    return Source(id="products/CC-TEAM", label=label, columns=columns, kind="record", text=label)


def test_a_record_named_by_its_label_answers_its_table_description() -> None:
    record, terms = _team(), query_terms("How much does the Team plan cost?")
    described = (("products", frozenset({"plan", "pric", "cost", "seat"})),)
    plain = RecordPick((record,), labelled=frozenset({record.id}))
    assert plain.answered(record, terms) == {"team"}
    named = RecordPick((record,), labelled=frozenset({record.id}), described=described)
    assert named.answered(record, terms) == {"team", "plan", "cost"}
    # a record matched by its values alone answers only what its line holds
    assert RecordPick((record,), described=described).answered(record, terms) == {"team"}


def test_a_named_record_is_held_to_what_the_passages_naming_it_explain() -> None:
    record, terms = _team(), query_terms("How much is the Team plan per month?")
    naming = ((record.id, frozenset({"team"})),)
    pick = RecordPick((record,), labelled=frozenset({record.id}), naming=naming)
    seen: list[frozenset[str]] = []

    def where(words: frozenset[str]) -> int:
        seen.append(words)
        return 1

    assert pick.keeping(terms, 3).records == ()
    assert pick.keeping(terms, 3, where).records == (record,)
    assert seen == [frozenset({"team"})]


class _Row:
    def __init__(self, text: str, source: Source) -> None:
        self.text, self.source = text, source
        self.terms = frozenset(stem(w) for w in query_terms(text))


def test_rows_of_a_table_that_never_names_what_the_records_answer_go() -> None:
    passage = Source(id="plans#1", text=SUPPORT_PLANS, kind="passage")
    rows = [
        _Row(f"Plan: {plan}; Response time: {time}; Price per month: {price}", passage)
        for plan, time, price in [
            ("Bronze", "48 hours", "10 USD"),
            ("Silver", "8 hours", "50 USD"),
            ("Gold", "1 hour", "200 USD"),
        ]
    ]
    wanted = frozenset({"team", "plan", "month"})
    assert matching_rows(rows, wanted) == rows
    assert matching_rows(rows, wanted, frozenset({"team", "plan"})) == []
    # a table that holds every word the records answer is still the whole table's answer
    assert matching_rows(rows, wanted, frozenset({"plan"})) == rows
