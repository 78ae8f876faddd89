"""Long words are folded each time, never kept: the kept folds stay small whatever is asked.

Every word of every question is folded; kept whatever its length, one distinct 4,000-character
non-ASCII word per question grew the server's memory by some 1.5 GB over 65,536 questions.
"""

from __future__ import annotations

import gc
import tracemalloc

from bot.knowledge.accents import CACHED_CHARS, fold_accents


def test_long_words_are_folded_without_being_kept() -> None:
    fold_accents("p\u00e2tissier")  # the tokenizer's table, opened once for the process
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        # 100 distinct 4,004-character words, made and dropped while memory is traced
        words = [f"{n:04d}" + "\u0436\u00e9" * 2_000 for n in range(100)]
        folded = [fold_accents(word) for word in words]
        assert folded[0] == "0000" + "\u0436e" * 2_000  # still folded
        del words, folded
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # kept, the 100 words and their folds held some 1.6 MB
    assert kept < 200_000


def test_short_words_are_folded_alike_kept_or_not() -> None:
    word = "pâtissier" + "é" * (CACHED_CHARS - len("pâtissier"))
    assert fold_accents(word) == fold_accents(word) == "patissier" + "e" * (CACHED_CHARS - 9)
    assert fold_accents(word + "é") == "patissier" + "e" * (CACHED_CHARS - 8)
