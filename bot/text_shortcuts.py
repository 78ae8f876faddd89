"""Shortcuts for reading text that give exactly what the long way gives, only sooner.

Verify reads every sentence of every cited passage and every claim of an answer once, cold, so
the cost of reading a text is most of its time: :func:`fast_words` tokenises ASCII text about
twice as fast as :func:`bot.knowledge.terms.words`, and :func:`may_hold` rules a pattern out of
most texts with a few substring searches, which cost a seventh of running a case-insensitive
pattern such as the number words' (``tests/grounding/test_grounding_speed.py`` checks both
against the long way).
"""

from __future__ import annotations

import re

from bot.knowledge.terms import words

# ``words``' own pattern, read from the lowered text at once instead of lowering each match:
# ASCII text lowers letter for letter, and holds no ``’`` to replace.
_ASCII_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")

__all__ = ["fast_words", "may_hold"]


def fast_words(text: str) -> list[str]:
    """``bot.knowledge.terms.words(text)``, about twice as fast for ASCII text."""
    if text.isascii():
        return _ASCII_WORD_RE.findall(text.lower())
    return words(text)


def may_hold(text: str, hints: tuple[str, ...]) -> bool:
    """False only when ``text`` is ASCII and holds none of ``hints`` (lowercase) in any case:
    then a case-insensitive pattern each of whose matches holds one cannot match it, and need
    not run. Other text may match through a letter that folds to an ASCII one ("ſ" for "s")."""
    if not text.isascii():
        return True
    lowered = text.lower()
    return any(hint in lowered for hint in hints)
