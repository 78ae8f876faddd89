"""Accents are taken off a word as the index's tokenizer takes them off (SQLite's rule)."""

from __future__ import annotations

import pytest

from bot.knowledge.accents import fold_accents


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("pâtissier", "patissier"),
        ("naïve", "naive"),
        ("español", "espanol"),
        ("re\u0301sume\u0301", "resume"),  # combining accents (NFD)
        ("straße", "straße"),  # no accent: the tokenizer keeps "ß"
        ("patissier", "patissier"),
        # the voicing mark tells "ガス" from "カス": CJK terms are left as written
        ("ガス", "ガス"),
        # cut in two by the tokenizer: the word stands for itself
        ("l'hôtel", "l'hôtel"),
    ],
)
def test_fold_accents(word: str, folded: str) -> None:
    assert fold_accents(word) == folded
