"""A word without its accents, as the index's tokenizer reads it: "pâtissier" is "patissier".

The index's ``unicode61`` tokenizer removes diacritics, so the search finds the passage that
writes "pâtissier" for a question that says "patissier" (and the other way round). What it
removes is SQLite's rule, not one written here: :func:`fold_accents` runs the word through that
tokenizer (in an in-memory table, as :mod:`bot.knowledge.word_forms` runs Porter's), so the
answerer compares words as the search found them.

Chinese, Japanese and Korean terms are left as they are: the tokenizer would also take the
voicing marks off kana ("ガ" read as "カ"), which tell words apart, and these terms are matched
as the written bigrams (:mod:`bot.knowledge.cjk`).
"""

from __future__ import annotations

import functools
import sqlite3
import threading

from bot.knowledge.cjk import has_cjk

# Opened on first use, one for the process (a lock serves the threads that answer); each call's
# row is rolled back, never written. The tokenizer is the index's ``unicode61`` with its default
# options (bot.knowledge.schema), less Porter's stemming: the word comes back whole.
_TOKENIZER: list[sqlite3.Connection] = []
_LOCK = threading.Lock()


def _tokenizer() -> sqlite3.Connection:
    if not _TOKENIZER:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.executescript(
            "CREATE VIRTUAL TABLE words USING fts5("
            "word, tokenize='unicode61', detail='none', columnsize=0);"
            "CREATE VIRTUAL TABLE tokens USING fts5vocab(words, 'instance');"
        )
        _TOKENIZER.append(conn)
    return _TOKENIZER[0]


@functools.lru_cache(maxsize=65536)
def fold_accents(word: str) -> str:
    """``word`` (lower-cased, one word of :func:`bot.knowledge.terms.words`) with the accents
    the index's tokenizer removes taken off: "pâtissier" gives "patissier", "naïve" "naive".

    An ASCII word and a CJK term come back as they are, and so does a word the tokenizer reads
    as several tokens or none ("l'hôtel", cut at the apostrophe): it stands for itself.
    """
    if word.isascii() or has_cjk(word):
        return word
    with _LOCK:
        conn = _tokenizer()
        conn.execute("BEGIN")
        try:
            conn.execute("INSERT INTO words(rowid, word) VALUES (1, ?)", (word,))
            tokens = [str(term) for (term,) in conn.execute("SELECT term FROM tokens")]
        finally:
            conn.execute("ROLLBACK")
    return tokens[0] if len(tokens) == 1 else word
