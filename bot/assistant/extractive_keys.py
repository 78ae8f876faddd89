"""The key the built-in answerer compares a word by: its stem, accents folded as search folds them.

The search finds "pâtissier" for a question that says "patissier" (the index's tokenizer
removes accents), so the answerer must not refuse the passage it found: a question word and a
word of a sentence or heading are the same word when their keys are, whichever of them writes
the accent (:func:`bot.knowledge.accents.fold_accents`). Record tables are matched by their own
words (:mod:`bot.assistant.record_match`), not by these keys.
"""

from __future__ import annotations

from bot.knowledge.accents import fold_accents
from bot.knowledge.terms import stem


def word_key(word: str) -> str:
    """``word``'s stem, its accents folded first: "pâtissiers" and "patissier" give
    "patissier"."""
    return stem(fold_accents(word))
