"""Turkish capital "İ" is the letter "i" to the answerer, as it is to the index.

``"İstanbul".lower()`` is "i" + U+0307 (a combining dot above). The index's ``porter
unicode61`` tokens drop the dot, so "Istanbul ofisi" found the passage, but the answerer's
words ("i̇stanbul" against the question's "istanbul") met nothing and it answered nothing,
while "İstanbul ofisi" was answered: the README says letter case is ignored.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from pathlib import Path

import pytest

from bot.knowledge.terms import compound_terms, query_terms, words
from tests.assistant.handbook_index import ask, ingested

OFFICE = "# Ofis rehberi\n\n## Çalışma saatleri\n\nİstanbul ofisi saat dokuzda açılır.\n"


@pytest.mark.parametrize(
    "written",
    ["İstanbul", "ISTANBUL", "Istanbul", "istanbul", unicodedata.normalize("NFD", "İstanbul")],
)
def test_every_case_of_istanbul_is_one_word(written: str) -> None:
    assert words(written) == ["istanbul"]


def test_a_dotted_capital_inside_a_word_and_a_compound_is_read_as_i() -> None:
    assert words("KİRA ödemesi") == ["kira", "ödemesi"]
    assert query_terms("İzmir’in İNDİRİM oranı") == ["izmir'in", "indirim", "oranı"]
    assert compound_terms("İzmir-İstanbul hattı") == ["izmir istanbul"]


def test_the_dotless_i_stays_its_own_letter() -> None:
    # "ı" (and its capital "I" in Turkish text) is another letter: only the dot is dropped
    assert words("ılık") == ["ılık"]
    assert words("i\u0307") == ["i"]


def test_the_index_tokens_agree_with_the_words() -> None:
    """The FTS5 side already reads "İ" as "i" (``unicode61`` folds case and removes the dot):
    both sides now agree, so nothing stored needs reading again."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
    db.execute("INSERT INTO t VALUES (?)", ("İstanbul",))
    assert [row[0] for row in db.execute("SELECT term FROM v")] == words("İstanbul")


@pytest.mark.parametrize("question", ["Istanbul ofisi", "istanbul ofisi", "İstanbul ofisi"])
def test_a_question_in_any_case_finds_the_istanbul_office(
    question: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ingested(tmp_path, {"ofis.md": OFFICE})
    answer, _ = ask(config, question, capsys)
    assert answer.startswith("İstanbul ofisi saat dokuzda açılır"), answer
