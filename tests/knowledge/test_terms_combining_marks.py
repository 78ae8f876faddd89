"""Words keep their combining marks: Hindi, Bengali, Tamil are not cut at every vowel sign.

Python's ``\\w`` holds no combining mark (Unicode Mn, Mc, Me), so ``words`` read "सूचकांक" as
"स", "चक", "क": a Hindi question searched for fragments and found nothing or the wrong
sentence. The index's ``porter unicode61`` tokenizer cuts at the marks too; a quoted word of
the question is a phrase of the same pieces, in order, so the whole word finds it.
"""

from __future__ import annotations

import re
import sqlite3
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.cjk import has_cjk, is_cjk_term
from bot.knowledge.terms import compound_terms, fts_query, query_terms, words
from tests.assistant.handbook_index import ask, ingested

HINDI = "सूचकांक हर रात दो बजे बनता है।"
OPERATIONS = (
    "# संचालन\n\n"
    "सूचकांक हर रात दो बजे बनता है। बैकअप हर रविवार को सुबह चार बजे चलता है। "
    "पुराने लॉग तीस दिन बाद हटाए जाते हैं।\n"
)
BENGALI_DOC = "# সূচক\n\nসূচকটি প্রতি রাতে দুটোয় তৈরি হয়। ব্যাকআপ প্রতি রবিবার চলে।\n"
# Scripts written without spaces between words, whose marks still end a word (terms.py).
UNSPACED = [(0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x1A20, 0x1AAF)]
UNSPACED += [(0xA9E0, 0xA9FF), (0xAA60, 0xAA7F)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HINDI, ["सूचकांक", "हर", "रात", "दो", "बजे", "बनता", "है"]),
        ("সূচকটি প্রতি রাতে তৈরি হয়", ["সূচকটি", "প্রতি", "রাতে", "তৈরি", "হয়"]),
        ("குறியீடு இரவு உருவாகிறது", ["குறியீடு", "இரவு", "உருவாகிறது"]),
        # decomposed Latin: "résumé" written with combining acute accents (NFD)
        ("Re\u0301sume\u0301 d’e\u0301te\u0301", ["re\u0301sume\u0301", "d'e\u0301te\u0301"]),
        # a mark with no letter before it is no word
        ("\u0301 \u093e", []),
    ],
)
def test_words_keep_their_combining_marks(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_every_combining_mark_stays_in_its_word() -> None:
    # terms.py reads only the planes that hold marks: none may be missed in the others
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code))[0] != "M" or is_cjk_term(chr(code)):
            continue  # kana's voicing marks are read with their CJK run (bot.knowledge.cjk)
        word = "क" + chr(code) + "र"
        if any(a <= code <= b for a, b in UNSPACED):
            assert words(word) == ["क", "र"], hex(code)
        else:
            assert words(word) == [word], hex(code)


# The pattern words() used before: text without a combining mark reads exactly as it did.
_PLAIN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


@given(st.text(st.characters(blacklist_categories=("Mn", "Mc", "Me", "Cs"))))
def test_text_without_a_mark_gives_the_words_it_gave(text: str) -> None:
    if not has_cjk(text):
        assert words(text) == [w.lower().replace("’", "'") for w in _PLAIN.findall(text)]


def test_thai_is_still_read_as_the_index_tokenizes_it() -> None:
    # Thai writes no space between words: a run kept whole would be searched as one phrase
    assert words("ดัชนีสร้างทุกคืน") == ["ด", "ชน", "สร", "างท", "กค", "น"]


def test_query_and_compound_terms_are_whole_words() -> None:
    assert query_terms("पुराने लॉग कब हटाए जाते हैं?") == [
        "पुराने",
        "लॉग",
        "कब",
        "हटाए",
        "जाते",
        "हैं",
    ]
    assert compound_terms("सूचकांक-सूची और 2.4.1") == ["सूचकांक सूची", "2 4 1"]


def test_a_hindi_word_matches_a_real_fts5_table_whole() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='porter unicode61')")
    rows = [
        (1, "सूचकांक हर रात बनता है।"),
        # "चकित" is indexed as "चक" and "त", and "चक" is also a piece of "सूचकांक"
        (2, "वह चकित रह गया।"),
    ]
    conn.executemany("INSERT INTO t(rowid, text) VALUES (?, ?)", rows)
    # the whole word is searched as the phrase of its pieces, in order: not one of them alone
    match = fts_query("सूचकांक?")
    assert match == '"सूचकांक"'
    found = [r[0] for r in conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,))]
    assert found == [1]


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return ingested(
        tmp_path,
        {
            "operations.md": OPERATIONS,
            "bengali.md": BENGALI_DOC,
            "english.md": "# Index\n\nThe index is rebuilt every night at two.\n",
        },
    )


@pytest.mark.parametrize(
    ("question", "sentence", "source"),
    [
        ("सूचकांक कब बनता है?", "सूचकांक हर रात दो बजे बनता है [1]।", "operations.md"),
        (
            "पुराने लॉग कब हटाए जाते हैं?",
            "पुराने लॉग तीस दिन बाद हटाए जाते हैं [1]।",
            "operations.md",
        ),
        (
            "बैकअप कब चलता है?",
            "बैकअप हर रविवार को सुबह चार बजे चलता है [1]।",
            "operations.md",
        ),
        ("সূচকটি কখন তৈরি হয়?", "সূচকটি প্রতি রাতে দুটোয় তৈরি হয় [1]।", "bengali.md"),
    ],
)
def test_a_question_finds_and_quotes_its_sentence(
    config: Path, capsys: pytest.CaptureFixture[str], question: str, sentence: str, source: str
) -> None:
    answer, sources = ask(config, question, capsys)
    assert answer == sentence
    assert sources.startswith("[1] ") and sources.endswith(f"/docs/{source}")
