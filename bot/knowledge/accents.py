"""A word without its accents, as the index's tokenizer reads it: "pâtissier" is "patissier".

The index's ``unicode61`` tokenizer removes diacritics, so the search finds the passage that
writes "pâtissier" for a question that says "patissier" (and the other way round). What it
removes is SQLite's rule, not one written here: :func:`fold_accents` runs the word through that
tokenizer (:mod:`bot.knowledge.fts_tokens`, as :mod:`bot.knowledge.word_forms` runs Porter's),
so the answerer compares words as the search found them.

Chinese, Japanese and Korean terms are left as they are: the tokenizer would also take the
voicing marks off kana ("ガ" read as "カ"), which tell words apart, and these terms are matched
as the written bigrams (:mod:`bot.knowledge.cjk`).
"""

from __future__ import annotations

import functools

from bot.knowledge.cjk import has_cjk
from bot.knowledge.fts_tokens import fts_tokens

# Words longer than this are folded each time, never kept: a question may hold one distinct
# 4,000-character word, and 65,536 kept such words would hold some 1.5 GB.
CACHED_CHARS = 64


def fold_accents(word: str) -> str:
    """``word`` (lower-cased, one word of :func:`bot.knowledge.terms.words`) with the accents
    the index's tokenizer removes taken off: "pâtissier" gives "patissier", "naïve" "naive".

    An ASCII word and a CJK term come back as they are, and so does a word the tokenizer reads
    as several tokens or none ("l'hôtel", cut at the apostrophe): it stands for itself. Words
    of up to :data:`CACHED_CHARS` characters are kept once folded.
    """
    if word.isascii() or has_cjk(word):
        return word
    if len(word) > CACHED_CHARS:
        return _folded(word)
    return _kept_folded(word)


@functools.lru_cache(maxsize=65536)
def _kept_folded(word: str) -> str:
    return _folded(word)


def _folded(word: str) -> str:
    # the index's ``unicode61`` with its default options (bot.knowledge.schema), less Porter's
    # stemming: the word comes back whole
    tokens = fts_tokens([word], "unicode61")[0]
    return tokens[0] if len(tokens) == 1 else word
