"""The tokens an FTS5 tokenizer indexes words as, read from SQLite itself, not re-implemented.

The index's tokenizers (``porter unicode61`` for passages, ``unicode61`` underneath it) decide
which words a search meets; the answerer must compare words the same way
(:mod:`bot.knowledge.word_forms`, :mod:`bot.knowledge.accents`). So the words are run through
the tokenizer in an in-memory table and read back through ``fts5vocab``. One table per
tokenizer, opened on first use and kept for the process; a lock serves the threads that search
and answer, and each call's rows are rolled back, never written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

_TABLES: dict[str, sqlite3.Connection] = {}
_LOCK = threading.Lock()


def _table(tokenize: str) -> sqlite3.Connection:
    conn = _TABLES.get(tokenize)
    if conn is None:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.executescript(
            "CREATE VIRTUAL TABLE words USING fts5("
            f"word, tokenize='{tokenize}', detail='none', columnsize=0);"
            "CREATE VIRTUAL TABLE tokens USING fts5vocab(words, 'instance');"
        )
        _TABLES[tokenize] = conn
    return conn


def fts_tokens(words: Sequence[str], tokenize: str) -> list[list[str]]:
    """The tokens FTS5's ``tokenize`` tokenizer (a fixed spec of ours, such as ``"porter
    unicode61"``) indexes each of ``words`` as, in order; a word it reads as nothing has none."""
    with _LOCK:
        conn = _table(tokenize)
        conn.execute("BEGIN")
        try:
            conn.executemany("INSERT INTO words(rowid, word) VALUES (?, ?)", enumerate(words))
            found: dict[int, list[str]] = {}
            for doc, term in conn.execute("SELECT doc, term FROM tokens"):
                found.setdefault(int(doc), []).append(str(term))
        finally:
            conn.execute("ROLLBACK")
    return [found.get(i, []) for i in range(len(words))]
