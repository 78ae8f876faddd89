"""Search finds a passage in the forms of a word that FTS5's Porter tokenizer reads apart
("status" is "statu", "statuses" "status") but the answerer's stemmer reads as one word."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.extractive import NOT_FOUND
from bot.config import IndexSettings, Settings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.query_plan import plan_query
from bot.knowledge.terms import fts_query
from bot.knowledge.word_forms import porter_token, search_forms

PUBLIC = frozenset({"public"})

DOCS = {
    "replies.md": "# Replies\n\nEvery reply to a request has a status.\n",
    "tickets.md": "# Tickets\n\nTicket statuses are open and closed.\n",
    "transit.md": "# Transit\n\nA bus leaves the depot at noon.\n",
    "shuttle.md": "# Shuttle\n\nTwo shuttle buses run at night.\n",
    "widget.md": "# Widget\n\nThe chat widget can be embedded in any page.\n",
    "reports.md": "# Reports\n\nThe nightly summary goes to the admins.\n",
    "outbox.md": "# Outbox\n\nUnsent mail waits in the outbox queue.\n",
    "jobs.md": "# Jobs\n\nFailed jobs are queued again.\n",
    "channels.md": "# Channels\n\nEach channel may have aliases.\n",
    "optics.md": "# Optics\n\nThe camera takes two lenses.\n",
    "upgrade.md": "# Upgrade\n\nThe upgrade proceeded without errors.\n",
    # words Porter reads as "lap" and "par", which no form of "lapse" or "parse" is
    "garden.md": "# Garden\n\nThe cat sleeps on my lap.\n",
    "golf.md": "# Golf\n\nEvery hole has a par.\n",
    # "don't" is the tokens "don" and "t"; "donations" has the stem "don"
    "charity.md": "# Charity\n\nPlease don't leave bags at the door.\n",
}


@pytest.fixture(scope="module")
def index_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("porter-forms")
    docs = root / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    path = root / "index.db"
    ingest([docs], IndexSettings(path=str(path)))
    return path


@pytest.fixture(scope="module")
def index(index_path: Path) -> KnowledgeIndex:
    return KnowledgeIndex(index_path)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which statuses exist?", "replies.md"),  # question "statuses", text "status"
        ("What is a status?", "tickets.md"),  # question "status", text "statuses"
        ("What are the buses?", "transit.md"),
        ("Where is the bus?", "shuttle.md"),
        ("Can I embed it?", "widget.md"),  # text "embedded"
        ("Where does it go?", "reports.md"),  # text "goes"
        ("What is queued?", "outbox.md"),  # text "queue"
        ("Where is the queue?", "jobs.md"),  # text "queued"
        ("What is an alias?", "channels.md"),  # text "aliases"
        ("Which lens fits?", "optics.md"),  # text "lenses"
        ("Did it proceed?", "upgrade.md"),  # text "proceeded"
    ],
)
def test_a_form_porter_reads_apart_finds_the_passage(
    index: KnowledgeIndex, question: str, expected: str
) -> None:
    found = [s.filename for s in index.search(question, limit=10)]
    assert expected in found, found


@pytest.mark.parametrize(
    ("question", "unrelated"),
    [
        # our stem of "lapse" is "laps" and of "parses" "pars", which Porter reads as "lap"
        # and "par": searching the stems themselves would find these
        ("Why did it lapse?", "garden.md"),
        ("Why did the lease lapse?", "garden.md"),
        ("Who parses it?", "golf.md"),
        ("Which file parse errors?", "golf.md"),
        ("Where do donations go?", "charity.md"),
    ],
)
def test_a_word_porter_reads_like_a_stem_is_not_a_form(
    index: KnowledgeIndex, question: str, unrelated: str
) -> None:
    assert unrelated not in [s.filename for s in index.search(question, limit=10)]


def test_forms_porter_reads_alike_are_searched_once() -> None:
    # BM25 sums every phrase: one token searched twice would weigh its word double
    assert fts_query("Who approves stored kettles?") == '"approves" OR "stored" OR "kettles"'
    # two forms in the question are searched as before; the form they share is not added
    assert fts_query("kettle kettles") == '"kettle" OR "kettles"'
    assert fts_query("status statuses") == '"status" OR "statuses"'
    assert fts_query("Which statuses exist?") == '"statuses" OR "status" OR "exist"'
    assert fts_query("bus") == '"bus" OR "buses"'
    assert search_forms("lapse") == ("lapse",)
    assert search_forms("東京") == ("東京",)
    assert search_forms("2") == ("2",)
    assert len({porter_token(form) for form in search_forms("embed")}) == 2


def test_the_plan_searches_only_the_forms_the_index_holds(index_path: Path) -> None:
    conn = sqlite3.connect(index_path)
    # the index holds "status" (replies.md) and "statuses" (tickets.md): both, as one word
    both = plan_query(conn, "statuses", budget=1000)
    assert both is not None and both.match == '("statuses" OR "status")'
    # it holds "lenses" but no "lens": one phrase, ranked exactly as one word
    one = plan_query(conn, "lens", budget=1000)
    assert one is not None and one.match == '"lenses"'
    # with both forms too common, the intersection keeps each word's forms together
    meet = plan_query(conn, "two buses", budget=1)
    assert meet is not None and meet.match == '"two" AND ("buses" OR "bus")'


def test_every_result_for_a_word_is_a_form_of_it(index: KnowledgeIndex) -> None:
    assert {s.filename for s in index.search("statuses", limit=10)} == {
        "replies.md",
        "tickets.md",
    }


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("What is an alias?", "channels.md"),
        ("Can I embed it?", "widget.md"),
        ("Where does it go?", "reports.md"),
    ],
)
async def test_the_answerer_answers_from_the_other_form(
    index_path: Path, index: KnowledgeIndex, question: str, cited: str
) -> None:
    # the answerer reads "alias" and "aliases" as one word: now search finds the passage too
    settings = Settings.model_validate({"index": {"path": str(index_path)}})
    answer = await Assistant(settings, index).answer(question, PUBLIC)
    assert answer.text != NOT_FOUND
    assert [c.source.filename for c in answer.citations] == [cited]
